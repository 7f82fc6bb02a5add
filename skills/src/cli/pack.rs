//! `skills pack PATH...`: the skills of folders as archives the skills APIs accept for upload,
//! or a static site's well-known folder (`--index`), through [`Archive`].

use std::path::{Path, PathBuf};

use super::args::{Common, Target};
use super::show::{Loaded, load};
use super::{Outcome, outcome_of};
use crate::listing::ListingFormat;
use crate::package::{Archive, ArchiveError};
use crate::parse::{Diagnostic, Profile, validate};

/// Checks every PATH strictly (what is packed is checked as `validate` checks it: a folder
/// with an invalid skill is not packed in part), loads them, then writes the archives, or the
/// well-known folder with `index`, under `out`; prints one line per file written: its path, size
/// in bytes and `sha256:` digest, tab-separated.
pub(super) fn pack(
    paths: &[PathBuf],
    out: &Path,
    set: Option<&str>,
    index: bool,
    common: &Common,
) -> Outcome {
    let options = common.scan_options(Some(Profile::Strict));
    let problems: Vec<Diagnostic> = paths
        .iter()
        .flat_map(|path| validate(path, &options))
        .filter(Diagnostic::is_error)
        .collect();
    if !problems.is_empty() {
        for d in &problems {
            eprintln!("{d}");
        }
        eprintln!("error: fix the problems above before packing (`skills validate` checks them)");
        return outcome_of(&problems);
    }
    let Loaded {
        set: skills,
        outcome,
        ..
    } = load(
        &Target::Paths(paths.to_vec()),
        common,
        &ListingFormat::Markdown,
    );
    if outcome != Outcome::Ok {
        return outcome;
    }
    if skills.is_empty() {
        eprintln!("error: {}", ArchiveError::NoSkills);
        return Outcome::Invalid;
    }
    let archive = match set {
        Some(name) => Archive::new(&skills).whole_set(name),
        None => Archive::new(&skills),
    };
    let written = if index {
        archive.well_known(out)
    } else {
        archive.write(out)
    };
    match written {
        Ok(artifacts) => {
            for a in artifacts {
                println!("{}\t{}\t{}", a.path.display(), a.size, a.sha256);
            }
            Outcome::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                ArchiveError::Write(_) => Outcome::Usage,
                _ => Outcome::Invalid,
            }
        }
    }
}
