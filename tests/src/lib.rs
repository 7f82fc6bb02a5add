//! Workspace tests, and the helpers several of them share.

use std::fs;
use std::path::{Path, PathBuf};

/// Copies the folder `from` to `to`, recursively (files and folders only). Panics on any
/// error: it prepares a test's tree.
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// Every `.rs` file under `dir`, recursively, sorted: the source walks of the tests that
/// check the code itself.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

// The README's and the guide's Rust samples are doctests of this crate, so the test command
// compiles every one; `skills!("skills")` in them embeds `tests/skills/`. The chapters on MCP
// and rig need those features' crates and compile in `skills-host-tests` instead.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/embedding.md")]
mod guide_embedding {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/validation.md")]
mod guide_validation {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/listing.md")]
mod guide_listing {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/tools.md")]
mod guide_tools {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/permissions.md")]
mod guide_permissions {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/invocation.md")]
mod guide_invocation {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/scripts.md")]
mod guide_scripts {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/disk.md")]
mod guide_disk {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/install.md")]
mod guide_install {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/plugins.md")]
mod guide_plugins {}
#[doc = include_str!("../../docs/src/crates.md")]
mod guide_crates {}
#[doc = include_str!("../../docs/src/package.md")]
mod guide_package {}
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/cli.md")]
mod guide_cli {}
