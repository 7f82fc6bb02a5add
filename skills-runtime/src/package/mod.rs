//! Packages other tools read, made from a set the validator already checked.
//!
//! - Skill archives: a zip per skill, or one for a set, in the layout the skills APIs accept
//!   ([`Archive`], which also writes a static site's well-known folder).
//! - Plugin folders: a manifest beside `skills/` and an MCP server entry ([`Plugin`], in the
//!   formats of [`PluginFormat`]; [`PluginError`] says why one was not written).
//! - The well-known index: `/.well-known/agent-skills/index.json` in the Agent Skills Discovery
//!   RFC v0.2.0 as revised on 2026-03-12 (one artifact per skill, `skill-md` or `archive`, each
//!   with its digest: <https://github.com/cloudflare/agent-skills-discovery-rfc/blob/main/README.md>),
//!   written by [`Archive::well_known`], and the client side that reads one and checks it
//!   ([`IndexReader`]).
//! - Skills shipped in crates: the skills a project's dependencies ship, found through `cargo
//!   metadata` and named by crate ([`dependency_skills`], [`CrateSkills`], [`CratesError`]).

mod archive;
mod crates;
mod fetch;
mod index;
mod plugin;

pub use archive::{Archive, ArchiveError, Artifact};
pub use crates::{CrateSkills, CratesError, dependency_skills};
pub use fetch::{FetchedIndex, IndexError, IndexReader};
pub use plugin::{Plugin, PluginError, PluginFormat};
// What the HTTP server's well-known route serves from (mcp, floor 10).
#[cfg(feature = "mcp-http")]
pub(crate) use archive::{index_of, needs_archive, packed_files, skill_zip};
#[cfg(feature = "mcp-http")]
pub(crate) use index::{INDEX_FILE, WELL_KNOWN_PREFIX, check_indexable, file_digest, to_json};
