//! The runtime of [`skills-embed`](https://docs.rs/skills-embed): Agent Skills served from static data.
//!
//! `skills!` (in the `skills-embed` crate) turns a folder of skills into a [`SkillSet`] whose bytes
//! live in the binary. This crate holds what that set does at run time: look a skill up by its
//! generated identifier or by name, serve its body and resources by path, and answer a miss with
//! the list of what exists. With the `parse` feature it also holds the one SKILL.md parser and
//! validator that the macro, the command-line tool and the on-disk loader share.
//!
//! Most users depend on `skills-embed`, which re-exports this crate, and never name it.
//!
//! # Where to look
//!
//! | to ... | use |
//! |---|---|
//! | get a skill, its body, a resource or a chunk | [`SkillSet`], [`Skill`], [`Loaded`] |
//! | build a skill at run time | [`Skill::owned`] with [`Fields`] and [`File`] |
//! | act on a miss | [`SkillError`] (its `Display` lists what exists) |
//! | write the L1 listing into a prompt | [`SkillSet::summary`], [`SkillSet::listing`] with [`listing::ListingOptions`] |
//! | offer tools to a model and answer its calls | [`tools::Tools`], [`tools`] (definitions, [`tools::Session`], disclosure modes) |
//! | let the user invoke a skill (`/name args`) | [`invoke`] |
//! | give a skill scripts written in Rust, run through the run tool | [`Script`] ([`Script::new`], [`Script::new_async`], [`Script::dynamic`]), [`SkillSet::with_scripts`]; script files run by the host: [`tools::FileRunner`] |
//! | decide who may load what, remember approvals | [`policy`] |
//! | validate SKILL.md files, read a folder into a set (feature `parse`) | `parse`, `load` |
//! | load skills from disk, reload, extract scripts (feature `fs`) | `disk` |
//! | serve over MCP (feature `mcp`) | `mcp` |
//! | a rig tool (feature `rig`) | `rig` |
//!
//! The crate is laid out in floors along the data path, each importing only the floors below:
//! `text`, `model`, `embedded` and `parse`, `load`, `listing`, `disk`, `invoke`, `policy`,
//! `tools`, `host`, then `mcp` and `rig`. `ARCHITECTURE.md` in the repository is the map.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod text;

mod model;

mod embedded;

#[cfg(feature = "parse")]
#[cfg_attr(docsrs, doc(cfg(feature = "parse")))]
pub mod parse;

#[cfg(feature = "parse")]
#[cfg_attr(docsrs, doc(cfg(feature = "parse")))]
pub mod load;

pub mod listing;

#[cfg(feature = "fs")]
#[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
pub mod disk;

#[cfg(feature = "package")]
#[cfg_attr(docsrs, doc(cfg(feature = "package")))]
pub mod package;

pub mod invoke;

pub mod policy;

pub mod tools;

#[cfg(any(feature = "mcp", feature = "rig"))]
mod host;

#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;

#[cfg(feature = "rig")]
#[cfg_attr(docsrs, doc(cfg(feature = "rig")))]
pub mod rig;

/// What generated code and this workspace's own crates (the macro, the CLI, tests, benchmarks)
/// name. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use crate::embedded::private::*;
    pub use crate::model::fields::MANIFEST;
    pub use crate::model::path::check;
    pub use crate::text::chunks::find_chunks;
    pub use crate::text::clip;
    pub use crate::text::excerpt::{excerpt, headings, section};
    pub use crate::tools::definition::strict_compatible;
    pub use crate::tools::session::reattach::{ReattachedSkill, blocks as reattached_blocks};

    /// The listing's default token counter.
    pub fn estimate_tokens(text: &str) -> usize {
        crate::listing::estimate_tokens(text)
    }

    #[cfg(feature = "parse")]
    pub use crate::load::{set_of, skills as load_skills};
    #[cfg(feature = "parse")]
    pub use crate::parse::frontmatter::{MAX_FRONTMATTER_BYTES, split};
    #[cfg(feature = "parse")]
    pub use crate::parse::manifest::{Manifest, parse_manifest};
    #[cfg(feature = "parse")]
    pub use crate::parse::references::{
        Kind as ReferenceKind, Reference, is_script_name, references,
    };
    #[cfg(feature = "parse")]
    pub use crate::parse::scan::scan;
    #[cfg(feature = "parse")]
    pub use crate::parse::tree::{Resource, SKIPPED_FOLDERS, SkillSource, Tree};
    #[cfg(feature = "parse")]
    pub use crate::parse::walk::WalkSummary;

    #[cfg(feature = "fs")]
    pub use crate::disk::discover::{Discovered, Found, Root, resolve, scan_root};
    #[cfg(feature = "fs")]
    pub use crate::disk::extract::{
        ExtractError, Extracted, MARKER, extract, extract_to_temp, fingerprint,
    };
    #[cfg(feature = "fs")]
    pub use crate::disk::install::{Op as InstallOp, run_with_progress as install_with_progress};

    #[cfg(feature = "mcp-http")]
    pub use crate::mcp::http::run_http;
    #[cfg(feature = "mcp")]
    pub use crate::mcp::{connection::SharedLimit, skill_md::manifest_digest, uri::file_uri};
}

pub use model::error::SkillError;
pub use model::fields::{ClientFields, CodexInterface, CodexTool, Fields};
pub use model::file::File;
pub use model::id::SkillIdentifier;
pub use model::script::{Script, ScriptError};
pub use model::set::SkillSet;
pub use model::skill::{Loaded, Skill};
