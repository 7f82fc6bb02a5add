//! The one SKILL.md parser and validator, shared by `skills!`, the `skills` command-line tool and
//! the on-disk loader, so a skill that passes one passes all three.
//!
//! - [`scan`] walks a folder (or one SKILL.md), finds every skill and its resources, checks each
//!   SKILL.md and the folder as a whole (duplicate names, links leaving the root), and returns a
//!   [`Tree`]; [`ScanOptions`] holds the profile, the [`Dialects`] and the walk's [`Limits`].
//! - [`parse_manifest`] checks one SKILL.md's text: its frontmatter and every rule of the Agent
//!   Skills specification.
//!
//! Inside, `frontmatter` splits the text, `events` places each field at its line and checks the
//! nesting on the YAML parser's events, `yaml` loads the values with bounds, `colon` repairs
//! unquoted colons, `fields` and `extra` check the fields through one `checker`, `dialect` reads
//! the client fields, and `walk`/`walker`/`tree` walk a folder (links never leave the root, depth,
//! entries and time are capped).
//!
//! Every problem is a [`Diagnostic`] with a [`Rule`], a place and a message; all of them are
//! collected, never only the first.

mod checker;
mod colon;
mod diagnostic;
mod dialect;
mod events;
mod extra;
mod fields;
pub(crate) mod frontmatter;
mod manifest;
pub(crate) mod read;
pub(crate) mod scan;
pub(crate) mod script_refs;
#[cfg(test)]
mod testing;
pub(crate) mod tree;
mod value;
pub(crate) mod walk;
mod walker;
mod yaml;

pub use diagnostic::{Diagnostic, Profile, Rule, Severity};
pub use dialect::{Dialect, Dialects};
pub(crate) use manifest::parse_manifest_with;
pub use manifest::{Manifest, parse_manifest};
pub use scan::scan;
pub use tree::{LimitAction, Limits, Resource, ResourceAction, ScanOptions, SkillSource, Tree};
pub use walk::{WalkLimits, WalkSummary};
