//! The one SKILL.md parser and validator, shared by `skills!`, the `skills` command-line tool and
//! the on-disk loader, so a skill that passes one passes all three.
//!
//! - [`frontmatter`] splits a SKILL.md into its YAML frontmatter and its body.
//! - [`manifest`] reads the fields and checks every rule of the Agent Skills specification:
//!   it loads the YAML with bounds (`yaml`), checks its nesting and places each field at its line (`events`), repairs
//!   unquoted colons (`colon`), checks the specification's fields (`fields`) and the others
//!   (`extra`: unknown and client fields, kept as canonical JSON), through one `checker`.
//! - [`dialect`] reads the client fields (Claude Code, Codex, OpenCode) that make a skill's
//!   invocation policy, under the profile and the dialects opted in to.
//! - [`tree`] walks a folder, finds every skill and its resources, and checks the folder as a
//!   whole (duplicate names, symlinks leaving the root).
//! - [`walk`] is the policy every walk of a folder follows: links never leave the root, each
//!   real folder is read once per skill, and depth, entries and time are capped.
//!
//! Every problem is a [`Diagnostic`] with a [`Rule`], a place and a message; all of them are
//! collected, never only the first.

mod checker;
mod colon;
mod diagnostic;
pub mod dialect;
mod events;
mod extra;
mod fields;
pub mod frontmatter;
pub mod manifest;
pub(crate) mod read;
pub(crate) mod scan;
pub mod script_refs;
#[cfg(test)]
mod testing;
pub mod tree;
mod value;
pub mod walk;
mod walker;
mod yaml;

pub use diagnostic::{Diagnostic, Profile, Rule, Severity};
pub use dialect::{Dialect, Dialects};
pub use manifest::{Manifest, parse_manifest, parse_manifest_with};
pub use scan::scan;
pub use tree::{
    LimitAction, Limits, Resource, ResourceAction, SKIPPED_FOLDERS, ScanOptions, SkillSource, Tree,
};
pub use walk::{WalkLimits, WalkSummary};
