//! `skills install|status|uninstall PATH`: the skills of a folder installed into coding agents'
//! folders, as a binary's own `skill` subcommand installs its embedded ones
//! ([`SkillCommand`](crate::SkillCommand)); with `--index URL|FILE`, the skills of a site's
//! well-known index, checked against its digests ([`IndexReader`]); with `--cargo`, the skills
//! the project's dependencies ship ([`dependency_skills`]), each crate recorded as its skills'
//! installer.

use std::io::Read as _;
use std::path::Path;
use std::time::Duration;

use super::args::{Common, InstallArgs, Target};
use super::show::{Loaded, load};
use super::{Outcome, outcome_of};
use crate::disk::Install;
use crate::listing::ListingFormat;
use crate::package::{FetchedIndex, IndexReader, dependency_skills};
use crate::parse::{Diagnostic, Profile, validate};
use crate::skill_command::{Action, Flags, run};

/// A line on stdout; a closed pipe ends nothing (as the install lines themselves).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// Runs `install`, `status` or `uninstall` (`action` given the flags) for PATH, `--index` or
/// `--cargo`.
pub(super) fn dispatch(args: InstallArgs, action: fn(Flags) -> Action) -> Outcome {
    let InstallArgs {
        path,
        index,
        skills,
        allow_unverified,
        tool,
        cargo,
        manifest_path,
        offline,
        flags,
        common,
    } = args;
    let action = action(flags);
    if let Some(index) = index {
        let picked = Picked {
            skills: &skills,
            allow_unverified,
            tool: tool.as_deref(),
        };
        return from_index(&index, &picked, &action, &common);
    }
    match path {
        Some(path) if !cargo => install(&path, tool.as_deref(), &action, &common),
        _ => install_cargo(manifest_path.as_deref(), offline, &action, &common),
    }
}

/// The skills the project's dependencies ship, checked strictly: each crate's set run with the
/// crate's name and version as the installer, into the agents of the project's workspace root.
/// What was left out is named on stderr and makes the exit status 1; the rest is installed.
fn install_cargo(
    manifest: Option<&Path>,
    offline: bool,
    action: &Action,
    common: &Common,
) -> Outcome {
    let strict = common.scan_options(Some(Profile::Strict));
    let found = match dependency_skills(manifest, offline, &strict) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: {e}");
            return Outcome::Usage;
        }
    };
    for problem in &found.problems {
        eprintln!("{problem}");
    }
    let mut outcome = if found.problems.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Invalid
    };
    if found.crates.is_empty() {
        out!(
            "No dependency of the project at \"{}\" ships skills (a crate ships them in its `skills/` folder).",
            found.workspace_root.display()
        );
    }
    for (name, version, set) in &found.crates {
        out!("crate {name} {version}:");
        // A skill refused this time is not an orphan: with refusals, nothing is removed.
        let install = Install::from_env(name, version)
            .project(&found.workspace_root)
            .partial(!found.problems.is_empty());
        outcome = outcome.max(exit(run(action, set, install)));
    }
    outcome
}

/// Checks `paths` as `validate` does (strictly) before `doing` (a verb phrase: "installing")
/// anything with them: every error on stderr and the outcome it calls for, when there is one.
/// What leaves this tool for an agent (installs, plugins) is checked so, never in part.
pub(super) fn strictly_valid(
    paths: &[std::path::PathBuf],
    doing: &str,
    common: &Common,
) -> Result<(), Outcome> {
    let options = common.scan_options(Some(Profile::Strict));
    let problems: Vec<_> = paths
        .iter()
        .flat_map(|path| validate(path, &options))
        .filter(Diagnostic::is_error)
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    for d in &problems {
        eprintln!("{d}");
    }
    let named: Vec<String> = paths
        .iter()
        .map(|p| format!("\"{}\"", p.display()))
        .collect();
    eprintln!(
        "error: fix the problems above before {doing} {} (`skills validate` checks them)",
        named.join(", ")
    );
    Err(outcome_of(&problems))
}

/// Loads PATH as the other commands do, then runs `action` on its skills. The provenance names
/// `tool` (default: the folder's name, so two folders installed into one agent do not take
/// each other's skills for orphans) and this tool's version.
fn install(path: &Path, tool: Option<&str>, action: &Action, common: &Common) -> Outcome {
    // What is installed into agents is checked as `validate` checks it: a folder with an
    // invalid skill is not installed in part.
    if let Err(outcome) = strictly_valid(&[path.to_owned()], "installing", common) {
        return outcome;
    }
    let Loaded { set, outcome, .. } = load(
        &Target::Paths(vec![path.to_owned()]),
        common,
        &ListingFormat::Markdown,
    );
    if outcome != Outcome::Ok {
        return outcome;
    }
    let name = match tool {
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

/// What `--index` takes besides the index: the skills picked, v0.1.0 allowed, the installer.
struct Picked<'a> {
    skills: &'a [String],
    allow_unverified: bool,
    tool: Option<&'a str>,
}

/// The skills of a well-known index, checked ([`IndexReader`]), then installed: those that
/// fail validation are named on stderr and left out (the run then exits 1), and the index's
/// skills already installed that this run does not carry are left alone.
fn from_index(index: &str, picked: &Picked<'_>, action: &Action, common: &Common) -> Outcome {
    let mut reader = IndexReader::new(index)
        .skills(picked.skills.iter().cloned())
        .allow_unverified(picked.allow_unverified)
        .scan_options(common.scan_options(Some(Profile::Strict)));
    if let Some(cap) = common.max_resource_bytes() {
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
    let tool = picked.tool.map_or_else(|| source.clone(), str::to_owned);
    let install = Install::from_env(tool, env!("CARGO_PKG_VERSION"))
        .partial(!picked.skills.is_empty() || !refused.is_empty());
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
