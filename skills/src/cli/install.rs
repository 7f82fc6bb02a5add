//! `skills install|status|uninstall PATH`: the skills of a folder installed into coding agents'
//! folders, as a binary's own `skill` subcommand installs its embedded ones
//! ([`SkillCommand`](crate::SkillCommand)).

use std::path::Path;

use super::args::Common;
use super::args::Target;
use super::show::{Loaded, load};
use super::{Outcome, outcome_of};
use crate::disk::Install;
use crate::listing::ListingFormat;
use crate::parse::{Diagnostic, Profile, validate};
use crate::skill_command::{Action, run};

/// Loads PATH as the other commands do, then runs `action` on its skills. The provenance names
/// `tool` (default: the folder's name, so two folders installed into one agent do not take
/// each other's skills for orphans) and this tool's version.
pub(super) fn install(
    path: &Path,
    tool: Option<&str>,
    action: &Action,
    common: &Common,
) -> Outcome {
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
