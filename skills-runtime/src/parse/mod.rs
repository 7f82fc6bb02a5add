//! The one SKILL.md parser and validator, shared by `skills!`, the `skills` command-line tool and
//! the on-disk loader, so a skill that passes one passes all three.
//!
//! - [`scan`] walks a folder (or one SKILL.md), finds every skill and its resources, checks each
//!   SKILL.md and the folder as a whole (duplicate names, links leaving the root), and returns a
//!   [`Tree`]; [`ScanOptions`] holds the profile, the [`Dialects`] and the walk's [`Limits`].
//! - [`parse_manifest`] checks one SKILL.md's text: its frontmatter and every rule of the Agent
//!   Skills specification.
//!
//! Every problem is a [`Diagnostic`] with a [`Rule`], a place and a message; all of them are
//! collected, never only the first.

mod checker;
mod colon;
mod diagnostic;
mod dialect;
mod extra;
mod fields;
pub(crate) mod frontmatter;
mod keys;
mod manifest;
pub(crate) mod read;
pub(crate) mod script_refs;
#[cfg(test)]
mod testing;
pub(crate) mod tree;
mod value;
pub(crate) mod walk;
mod yaml;

pub use diagnostic::{Diagnostic, Profile, Rule, Severity};
pub use dialect::{Dialect, Dialects};
pub(crate) use manifest::parse_manifest_with;
pub use manifest::{Manifest, parse_manifest};
pub use tree::{
    LimitAction, Limits, Resource, ResourceAction, ScanOptions, SkillSource, Tree, scan,
};
pub use walk::{WalkLimits, WalkSummary};
