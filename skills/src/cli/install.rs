//! `skills install|status|uninstall PATH` (or `--index URL|FILE`): the skills of a folder, or of
//! a site's well-known index, installed into coding agents' folders, as a binary's own `skill`
//! subcommand installs its embedded ones ([`SkillCommand`](crate::SkillCommand)).

use std::io::Read as _;
use std::time::Duration;

use super::args::{InstallArgs, Target};
use super::show::{Loaded, load};
use super::{Outcome, outcome_of};
use crate::disk::Install;
use crate::listing::ListingFormat;
use crate::package::{FetchedIndex, IndexReader};
use crate::parse::{Diagnostic, Profile, validate};
use crate::skill_command::{Action, run};

/// Runs `action` on the skills of PATH, or of the index. The provenance names the tool
/// (`--tool`; default: the folder's name, or the index's URL or absolute path, so two sources
/// installed into one agent do not take each other's skills for orphans) and this tool's
/// version.
pub(super) fn install(args: &InstallArgs, action: &Action) -> Outcome {
    if let Some(index) = &args.index {
        return from_index(index, args, action);
    }
    let Some(path) = &args.path else {
        // clap requires PATH or --index.
        return Outcome::Usage;
    };
    let common = &args.common;
    // What is installed into agents is checked as `validate` checks it: a folder with an
    // invalid skill is not installed in part.
    let problems: Vec<_> = validate(path, &common.scan_options(Some(Profile::Strict)))
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if !problems.is_empty() {
        for d in &problems {
            eprintln!("{d}");
        }
        eprintln!(
            "error: fix the problems above before installing \"{}\" (`skills validate` checks them)",
            path.display()
        );
        return outcome_of(&problems);
    }
    let Loaded { set, outcome, .. } = load(
        &Target::Paths(vec![path.to_owned()]),
        common,
        &ListingFormat::Markdown,
    );
    if outcome != Outcome::Ok {
        return outcome;
    }
    let name = match &args.tool {
        Some(tool) => tool.to_owned(),
        None => std::path::absolute(path)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "skills".into()),
    };
    exit(run(
        action,
        &set,
        Install::from_env(name, env!("CARGO_PKG_VERSION")),
    ))
}

/// The skills of a well-known index, checked ([`IndexReader`]), then installed: those that
/// fail validation are named on stderr and left out (the run then exits 1), and the index's
/// skills already installed that this run does not carry are left alone.
fn from_index(index: &str, args: &InstallArgs, action: &Action) -> Outcome {
    let mut reader = IndexReader::new(index)
        .skills(args.skills.iter().cloned())
        .allow_unverified(args.allow_unverified)
        .scan_options(args.common.scan_options(Some(Profile::Strict)));
    if let Some(cap) = args.common.max_resource_bytes() {
        reader = reader.max_file_bytes(cap);
    }
    let FetchedIndex {
        source,
        set,
        refused,
        unverified,
        ..
    } = match reader.read(fetch) {
        Ok(fetched) => fetched,
        Err(e) => {
            eprintln!("error: {e}");
            return if e.is_fetch() {
                Outcome::Usage
            } else {
                Outcome::Invalid
            };
        }
    };
    if unverified {
        eprintln!(
            "warning: \"{source}\" is a v0.1.0 index: its files were not checked against any digest (--allow-unverified)"
        );
    }
    for e in &refused {
        eprintln!("error: {e}");
    }
    let tool = args.tool.clone().unwrap_or_else(|| source.clone());
    let install = Install::from_env(tool, env!("CARGO_PKG_VERSION"))
        .partial(!args.skills.is_empty() || !refused.is_empty());
    let code = exit(run(action, &set, install));
    match (code, refused.is_empty()) {
        (Outcome::Ok, false) => Outcome::Invalid,
        (code, _) => code,
    }
}

/// The exit status of [`run`] as an outcome.
fn exit(code: u8) -> Outcome {
    match code {
        0 => Outcome::Ok,
        1 => Outcome::Invalid,
        _ => Outcome::Usage,
    }
}

/// The bytes at a `http(s)://` URL, at most `max + 1` of them (the runtime refuses more): at
/// most 5 redirects (none from https to http), 10 s to connect, 60 s in all, a status other
/// than 2xx an error.
fn fetch(url: &str, max: u64) -> Result<Vec<u8>, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(10)))
        .timeout_global(Some(Duration::from_secs(60)))
        .max_redirects(5)
        .max_redirects_will_error(true)
        // An index read over https is never followed to plain http by a redirect.
        .https_only(url.starts_with("https://"))
        .user_agent(concat!("skills-embed/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    response
        .body_mut()
        .as_reader()
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}
