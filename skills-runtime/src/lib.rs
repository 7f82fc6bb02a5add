//! The runtime of [`skills-embed`](https://docs.rs/skills-embed): Agent Skills served from static data.
//!
//! `skills!` (in the `skills-embed` crate) turns a folder of skills into a [`SkillSet`] whose bytes
//! live in the binary. This crate holds what that set does at run time: look a skill up by its
//! generated identifier or by name, serve its body and resources by path, and answer a miss with
//! the list of what exists. With the `parse` feature it also holds the one SKILL.md parser and
//! validator that the macro, the command-line tool and the on-disk loader share. [`invoke`] finds
//! the skills a user names in a message (`/name args`, `$name`) and renders what a host inserts.
//!
//! Most users depend on `skills-embed`, which re-exports all of this, and never name this crate.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod chunk;
mod error;
pub mod excerpt;
mod handler;
mod id;
mod index;
pub mod invoke;
pub mod listing;
#[cfg(any(feature = "mcp", feature = "rig"))]
mod live;
mod media;
pub mod mode;
pub mod path;
pub mod permission;
mod policy;
pub mod session;
mod set;
mod skill;
pub mod summary;
pub mod tool;

#[cfg(feature = "parse")]
#[cfg_attr(docsrs, doc(cfg(feature = "parse")))]
pub mod parse;

#[cfg(feature = "fs")]
#[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
pub mod disk;

#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;

#[cfg(feature = "rig")]
#[cfg_attr(docsrs, doc(cfg(feature = "rig")))]
pub mod rig;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use ::schemars;
pub use error::SkillError;
pub use handler::{Call, CallError, LoadReport, ToolOutput, Tools};
pub use id::{Dynamic, SkillIdentifier};
pub use path::PathProblem;
pub use policy::{InvocationPolicy, OwnedPolicy};
pub use set::SkillSet;
pub use skill::{Chunk, File, Loaded, MANIFEST, OwnedFields, Skill, hex, is_text, sha256};
pub use summary::SummaryFormat;
