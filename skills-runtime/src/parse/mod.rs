//! The one SKILL.md parser and validator, shared by `skills!`, the `skills` command-line tool and
//! the on-disk loader, so a skill that passes one passes all three.
//!
//! - [`validate`] walks a folder (or one SKILL.md), finds every skill and its resources, checks
//!   each SKILL.md and the folder as a whole (duplicate names, links leaving the root), and
//!   returns every [`Diagnostic`]; `load::set` reads the same folder into a skill set.
//! - [`check`] checks one SKILL.md's text: its frontmatter and every rule of the Agent Skills
//!   specification.
//! - [`ScanOptions`] is the one options value of both: the [`Profile`], the [`Dialect`]s, the
//!   size limits ([`LimitAction`]) and the walk's caps.
//!
//! ```
//! use std::path::Path;
//! use skills_embed::parse::{Rule, ScanOptions, check, validate};
//! let problems = check("---\nname: PDF\ndescription: PDFs.\n---\n", Path::new("pdf/SKILL.md"), &ScanOptions::default());
//! assert_eq!(problems[0].rule, Rule::NameCase);
//! let dir = tempfile::tempdir()?;
//! assert_eq!(validate(&dir.path().join("missing"), &ScanOptions::default())[0].rule, Rule::MissingPath);
//! # Ok::<(), std::io::Error>(())
//! ```
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
pub(crate) mod manifest;
pub(crate) mod read;
pub(crate) mod references;
pub(crate) mod scan;
#[cfg(test)]
mod testing;
pub(crate) mod tree;
mod value;
pub(crate) mod walk;
mod walker;
mod yaml;

pub(crate) use diagnostic::Severity;
pub use diagnostic::{Diagnostic, Profile, Rule};
pub use dialect::Dialect;
// The name rules, for a name made outside a SKILL.md (a crate's skill installed as `<crate>-<skill>`).
#[cfg(feature = "package")]
pub(crate) use fields::{name_problems, suggest_name};
pub use manifest::check;
pub(crate) use manifest::{Manifest, parse_manifest_with};
pub use scan::validate;
pub use tree::{LimitAction, ScanOptions};
pub(crate) use tree::{SkillSource, Tree};
