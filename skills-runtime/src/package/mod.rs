//! Packages other tools read, made from a set the validator already checked.
//!
//! - Skill archives: a zip per skill, or one for a set, in the layout the skills APIs accept
//!   ([`Archive`], which also writes a static site's well-known folder).
//! - Plugin folders: a manifest beside `skills/` and an MCP server entry (`plugin`).
//! - The well-known index: `/.well-known/agent-skills/index.json` with per-skill digests, and
//!   the client side that reads one and checks it (`index`).
//! - Skills shipped in crates: a dependency's skills found through `cargo metadata` (`crates`).

mod archive;
mod crates;
#[allow(dead_code)] // used by the archive, the index server and its client, coming next (issue 29)
mod index;
mod plugin;

pub use archive::{Archive, ArchiveError, Artifact};
// What the HTTP server's well-known route serves from (mcp, floor 10).
#[cfg(feature = "mcp-http")]
pub(crate) use archive::{index_of, packed_files, skill_zip};
#[cfg(feature = "mcp-http")]
pub(crate) use index::{INDEX_FILE, WELL_KNOWN_PREFIX, check_indexable, file_digest, to_json};
