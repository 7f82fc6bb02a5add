//! The commands that read skills and print what a model or a user gets: `list`, `menu`,
//! `prompt`, `read`, `invoke`, `schema`, `call`, and `extract`, which writes a skill's files.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::args::{Common, SchemaFormat, Target};
use super::{Outcome, base, left_out, left_out_line, outcome_of};
use crate::__private::{MANIFEST, scan};
use crate::SkillSet;
use crate::listing::ListingFormat;
use crate::tools::{Settings, ToolStyle, Tools};

/// The skills of a target as a set, with where each came from. Problems go to stderr.
pub(super) struct Loaded {
    pub(super) set: SkillSet,
    pub(super) sources: BTreeMap<String, String>,
    pub(super) outcome: Outcome,
}

/// PATHs that do not exist or are neither a folder nor a SKILL.md, as `validate` words them
/// (the one walk's own diagnostics); empty when every PATH can be read.
pub(super) fn unreadable(target: &Target, common: &Common) -> Vec<crate::parse::Diagnostic> {
    let Target::Paths(paths) = target else {
        return Vec::new();
    };
    let options = common.scan_options(None);
    paths
        .iter()
        .filter(|p| match std::fs::metadata(p) {
            Ok(meta) => !meta.is_dir() && p.file_name() != Some(MANIFEST.as_ref()),
            Err(_) => true,
        })
        .flat_map(|p| scan(p, &options).diagnostics)
        .collect()
}

/// `path`, which the walk reports under a PATH's real (canonical) location, under the PATH as
/// it was given, so that every command names files as `validate` does.
pub(super) fn given_path(paths: &[std::path::PathBuf], path: &Path) -> std::path::PathBuf {
    for given in paths {
        let root = match given.file_name() {
            Some(name) if name == MANIFEST && given.is_file() => given.parent().unwrap_or(given),
            _ => given,
        };
        if let Ok(real) = std::fs::canonicalize(root)
            && let Ok(rest) = path.strip_prefix(&real)
        {
            return root.join(rest);
        }
    }
    path.to_owned()
}

/// A diagnostic of the target's walk with its file as [`given_path`] names it.
pub(super) fn as_given(
    target: &Target,
    mut d: crate::parse::Diagnostic,
) -> crate::parse::Diagnostic {
    if let Target::Paths(paths) = target {
        d.file = given_path(paths, &d.file);
    }
    d
}

/// Reads the target the one way every command but `validate` does ([`Common::discovery`]):
/// leniently, each skill that cannot be served named on stderr with its rules, the rest kept.
/// The outcome is an I/O error when a PATH cannot be read, else success: the collection's
/// problems are warnings here, `validate` is the command whose exit status judges them.
pub(super) fn load(target: &Target, common: &Common, format: &ListingFormat) -> Loaded {
    let unreadable = unreadable(target, common);
    let found = if unreadable.is_empty() {
        common.discovery(target).scan()
    } else {
        crate::__private::Discovered::default()
    };
    let sources = found
        .skills
        .iter()
        .map(|f| {
            let source = match target {
                // From PATH, the source is the skill's folder (what `${SKILL_DIR}` names).
                Target::Paths(paths) => {
                    let dir = f.manifest.parent().unwrap_or(&f.manifest);
                    given_path(paths, dir).display().to_string()
                }
                Target::Discover => format!("{}: {}", f.root.kind, f.manifest.display()),
            };
            (f.skill.name().to_owned(), source)
        })
        .collect();
    let diagnostics: Vec<_> = unreadable
        .into_iter()
        .chain(found.diagnostics.iter().cloned())
        .map(|d| as_given(target, d))
        .collect();
    for d in &diagnostics {
        eprintln!("{d}");
    }
    let served: Vec<_> = found
        .skills
        .iter()
        .map(|f| match target {
            Target::Paths(paths) => given_path(paths, &f.manifest),
            Target::Discover => f.manifest.clone(),
        })
        .collect();
    if let Some(line) = left_out_line(&left_out(&diagnostics, &served)) {
        eprintln!("{line}");
    }
    let skills = found.skills.into_iter().map(|f| f.skill).collect();
    let set = SkillSet::from_skills(skills, format).with_scripts(base().scripts().iter().cloned());
    Loaded {
        set,
        sources,
        outcome: match outcome_of(&diagnostics) {
            Outcome::Usage => Outcome::Usage,
            _ => Outcome::Ok,
        },
    }
}

pub(super) fn list(target: &Target, common: &Common) -> Outcome {
    let Loaded {
        set,
        sources,
        outcome,
    } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let width = set.names().map(str::len).max().unwrap_or(4).max(4);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{:width$}  {:60}  {:>5}  {:>9}  SOURCE",
        "NAME", "DESCRIPTION", "FILES", "BYTES"
    );
    for skill in set.skills() {
        let bytes: usize = skill.files().map(|f| f.bytes().len()).sum();
        let source = sources.get(skill.name()).map_or("", String::as_str);
        let _ = writeln!(
            out,
            "{:width$}  {:60}  {:>5}  {:>9}  {source}",
            skill.name(),
            cut(skill.description(), 60),
            skill.files().len(),
            bytes
        );
    }
    outcome
}

pub(super) fn menu(target: &Target, common: &Common) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let entries: Vec<_> = crate::invoke::menu(set.skills()).collect();
    let commands: Vec<String> = entries
        .iter()
        .map(|e| match e.invocation().argument_hint {
            Some(hint) => format!("/{} {hint}", e.name()),
            None => format!("/{}", e.name()),
        })
        .collect();
    let width = commands
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = std::io::stdout().lock();
    for (entry, command) in entries.iter().zip(&commands) {
        let pad = width - command.chars().count();
        let _ = writeln!(
            out,
            "{command}{:pad$}  {}",
            "",
            cut(entry.description(), 70)
        );
    }
    outcome
}

/// The text on one line, cut to `max` chars by the one clip.
pub(super) fn cut(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::__private::clip(&one_line, max).into_owned()
}

pub(super) fn prompt(target: &Target, common: &Common, format: &ListingFormat) -> Outcome {
    let loaded = load(target, common, format);
    if loaded.outcome != Outcome::Usage {
        print!("{}", loaded.set.summary());
    }
    loaded.outcome
}

pub(super) fn read(target: &Target, skill: &str, file: Option<&str>, common: &Common) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    match set
        .get(skill)
        .and_then(|s| s.load(file.unwrap_or(crate::__private::MANIFEST)))
    {
        Ok(loaded) => {
            let _ = std::io::stdout().lock().write_all(loaded.bytes());
            outcome
        }
        Err(e) => {
            eprintln!("{e}");
            Outcome::Invalid
        }
    }
}

pub(super) fn invoke(target: &Target, message: &str, common: &Common) -> Outcome {
    use crate::invoke;
    let Loaded {
        set,
        sources,
        outcome,
    } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let user_may = set
        .skills()
        .iter()
        .filter(|s| s.invocation().user_may_invoke)
        .map(|s| s.name());
    let (invocations, unknown) = invoke::parse(message, user_may);
    for u in &unknown {
        match &u.suggestion {
            Some(s) => eprintln!(
                "not a skill, left as text: {} (byte {}). Did you mean \"{s}\"?",
                u.text, u.at
            ),
            None => eprintln!("not a skill, left as text: {} (byte {})", u.text, u.at),
        }
    }
    let mut out = std::io::stdout().lock();
    let mut outcome = outcome;
    let mut printed = 0;
    for call in &invocations {
        let Ok(skill) = set.get(&call.name) else {
            continue;
        };
        // From PATH, the source is the skill's folder; discovery's sources are labels.
        let dir = match target {
            Target::Paths(_) => sources.get(&call.name).map(String::as_str),
            Target::Discover => None,
        };
        match invoke::render(skill, &call.args, dir) {
            Ok(text) => {
                if printed > 0 {
                    let _ = writeln!(out);
                }
                printed += 1;
                let _ = out.write_all(text.as_bytes());
            }
            Err(e) => {
                eprintln!("{e}");
                outcome = Outcome::Invalid;
            }
        }
    }
    if invocations.is_empty() {
        eprintln!("no skill invoked");
        return Outcome::Invalid;
    }
    outcome
}

pub(super) fn schema(
    target: &Target,
    common: &Common,
    format: SchemaFormat,
    style: ToolStyle,
) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let tools = Tools::new(
        set,
        Settings {
            style,
            ..Settings::default()
        },
    );
    // What a host offers: no tool when no skill is visible to the model.
    let defs: Vec<serde_json::Value> = tools
        .definitions()
        .iter()
        .map(|d| match format {
            SchemaFormat::JsonSchema => serde_json::json!({
                "name": d.name,
                "description": d.description,
                "parameters": d.json_schema(),
            }),
            SchemaFormat::Openai => d.to_openai(),
            SchemaFormat::Anthropic => d.to_anthropic(),
            SchemaFormat::Mcp => d.to_mcp(),
        })
        .collect();
    let pretty = serde_json::to_string_pretty(&defs).unwrap_or_default();
    println!("{pretty}");
    outcome
}

pub(super) fn call(
    target: &Target,
    tool: &str,
    arguments: &str,
    common: &Common,
    config: Settings,
) -> Outcome {
    let Loaded { set, outcome, .. } = load(target, common, &ListingFormat::Markdown);
    if outcome == Outcome::Usage {
        return outcome;
    }
    let out = Tools::new(set, config).handle(tool, arguments);
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.text.as_bytes());
    if !out.text.ends_with('\n') {
        let _ = stdout.write_all(b"\n");
    }
    if out.is_error {
        Outcome::Invalid
    } else {
        outcome
    }
}

pub(super) fn extract(path: &Path, skill: &str, dest: &Path, common: &Common) -> Outcome {
    let Loaded { set, outcome, .. } = load(
        &Target::Paths(vec![path.to_owned()]),
        common,
        &ListingFormat::Markdown,
    );
    if outcome == Outcome::Usage {
        return outcome;
    }
    let skill = match set.get(skill) {
        Ok(skill) => skill,
        Err(e) => {
            eprintln!("{e}");
            return Outcome::Invalid;
        }
    };
    match crate::__private::extract(skill, dest) {
        Ok(done) => {
            let verb = if done.written { "wrote" } else { "unchanged:" };
            println!("{verb} {}", done.dir.display());
            for file in &done.files {
                println!("{}", file.display());
            }
            outcome
        }
        Err(e) => {
            eprintln!("error: {e}");
            Outcome::Usage
        }
    }
}
