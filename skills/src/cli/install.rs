//! `skills install|status|uninstall PATH`: the skills of a folder installed into coding agents'
//! folders, as a binary's own `skill` subcommand installs its embedded ones
//! ([`SkillCommand`](crate::SkillCommand)); with `--cargo`, the skills the project's
//! dependencies ship ([`dependency_skills`]), each crate recorded as its skills' installer.

use std::path::Path;

use super::args::{Common, InstallArgs, Target};
use super::show::{Loaded, load};
use super::{Outcome, outcome_of};
use crate::disk::Install;
use crate::listing::ListingFormat;
use crate::package::dependency_skills;
use crate::parse::{Diagnostic, Profile, validate};
use crate::skill_command::{Action, Flags, run};

/// A line on stdout; a closed pipe ends nothing (as the install lines themselves).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// Runs `install`, `status` or `uninstall` (`action` given the flags) for PATH or `--cargo`.
pub(super) fn dispatch(args: InstallArgs, action: fn(Flags) -> Action) -> Outcome {
    let InstallArgs {
        path,
        tool,
        cargo,
        manifest_path,
        offline,
        flags,
        common,
    } = args;
    let action = action(flags);
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
        let install = Install::from_env(name, version).project(&found.workspace_root);
        let done = match run(action, set, install) {
            0 => Outcome::Ok,
            1 => Outcome::Invalid,
            _ => Outcome::Usage,
        };
        outcome = outcome.max(done);
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
    match run(
        action,
        &set,
        Install::from_env(name, env!("CARGO_PKG_VERSION")),
    ) {
        0 => Outcome::Ok,
        1 => Outcome::Invalid,
        _ => Outcome::Usage,
    }
}
