//! `skills new`: a new skill folder that passes `validate` strictly, written only where nothing
//! is yet.

use std::fs;
use std::io::Write;
use std::path::Path;

use super::{Outcome, usage};
use crate::__private::MANIFEST;
use crate::parse::{Rule, ScanOptions, check};

/// The folders the specification names, created empty.
const FOLDERS: [&str; 3] = ["scripts", "references", "assets"];

pub(super) fn new(name: &str, dir: &Path) -> Outcome {
    // The validator's own verdict on the name, quoted so any text reaches the name rules
    // rather than YAML's (a JSON string is a YAML double-quoted scalar).
    let quoted = serde_json::Value::String(name.to_owned()).to_string();
    let problems: Vec<_> = check(
        &manifest(&quoted, name),
        &Path::new(name).join(MANIFEST),
        &ScanOptions::default(),
    )
    .into_iter()
    .filter(|d| d.is_error() && d.rule != Rule::NameDirMismatch)
    .collect();
    if !problems.is_empty() {
        for d in &problems {
            eprintln!("error[{}]: {}", d.rule, d.message);
        }
        eprintln!("no skill written: give `skills new` a valid NAME");
        return Outcome::Invalid;
    }
    let folder = dir.join(name);
    if let Err(e) = fs::create_dir_all(dir) {
        return usage(&format!("{}: {e}", dir.display()));
    }
    // `create_dir` fails on anything already there (a folder, a file, a link), so nothing is
    // overwritten, and the files below go into the folder made here.
    match fs::create_dir(&folder) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return usage(&format!(
                "{} exists already; nothing was written (pick another NAME or DIR, or remove it)",
                folder.display()
            ));
        }
        Err(e) => return usage(&format!("{}: {e}", folder.display())),
    }
    let written = FOLDERS
        .iter()
        .try_for_each(|sub| fs::create_dir(folder.join(sub)))
        .and_then(|()| {
            let mut file = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(folder.join(MANIFEST))?;
            file.write_all(manifest(name, name).as_bytes())
        });
    if let Err(e) = written {
        return usage(&format!("{}: {e}", folder.display()));
    }
    let embed = dir.display().to_string();
    let embed = serde_json::Value::String(embed).to_string();
    println!("wrote {}", folder.join(MANIFEST).display());
    for sub in FOLDERS {
        println!("wrote {}/", folder.join(sub).display());
    }
    println!();
    println!("Edit the description and the body, then check it:");
    println!("    skills validate {}", folder.display());
    println!("Embed the folder of skills (a path relative to your crate's Cargo.toml):");
    println!("    skills_embed::skills!({embed});");
    println!("and in build.rs, so that a skill added later is seen by cargo:");
    println!(
        "    println!(\"cargo::rerun-if-changed={}\");",
        dir.display()
    );
    Outcome::Ok
}

/// The SKILL.md of a new skill: `name` as written in the frontmatter, `title` for the heading.
fn manifest(name: &str, title: &str) -> String {
    format!(
        "---\n\
         name: {name}\n\
         description: Replace this with what the skill does and when to use it, in the words a \
         user would say. Use when the user asks for it.\n\
         ---\n\
         # {title}\n\
         \n\
         Write the steps the agent follows, in order. Keep this file short: put long reference \
         material in the references folder, code the agent runs in the scripts folder and \
         templates in the assets folder, and say here when to read or run each one.\n\
         \n\
         ## Steps\n\
         \n\
         1. Replace this with the first step.\n"
    )
}
