//! Packages other tools read, made from a set the validator already checked.
//!
//! - Skill archives: a zip per skill, or one for a set, in the layout the skills APIs accept
//!   (`archive`).
//! - Plugin folders: a manifest beside `skills/` and an MCP server entry (`plugin`).
//! - The well-known index: `/.well-known/agent-skills/index.json` with per-skill digests, and
//!   the client side that reads one and checks it (`index`).
//! - Skills shipped in crates: a dependency's skills found through `cargo metadata` (`crates`).

mod archive;
mod crates;
mod fetch;
#[allow(dead_code)] // used by the archive, the index server and its client, coming next (issue 29)
mod index;
mod plugin;

pub use fetch::{FetchedIndex, IndexError, IndexReader};
