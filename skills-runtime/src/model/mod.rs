//! The model: what a skill is, whichever way it is stored. Request paths and the errors that
//! answer a miss; the frontmatter [`Fields`](fields::Fields); chunks; the compact tables
//! `skills!` embeds ([`index`]); files; the [`Skill`](skill::Skill) view over either storage;
//! sets and their identifiers.
//!
//! Imports only [`crate::text`].

pub(crate) mod chunk;
pub(crate) mod error;
pub(crate) mod fields;
pub(crate) mod file;
pub(crate) mod id;
pub(crate) mod index;
pub(crate) mod invocation;
pub(crate) mod path;
pub(crate) mod script;
pub(crate) mod set;
pub(crate) mod skill;
#[cfg(any(feature = "mcp", feature = "fs"))]
pub(crate) mod skill_md;
