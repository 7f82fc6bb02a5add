//! Skills read from disk at run time, beside the embedded ones.
//!
//! - [`Discovery`] says where skills live (project, user, environment, code roots: each a
//!   [`SourceKind`]) and how they are checked (the same validator as `skills!`).
//! - [`Overlay`] merges them with an embedded set, [reloads](Overlay::reload) what changed
//!   (a [`ReloadReport`] says what), and [watches](Overlay::watch) the folders (feature `watch`).
//!
//! - [`Install`] writes a set's skills into the folders coding agents read ([`Agent`],
//!   [`Scope`]), with their provenance, and reports each one's [`SkillState`].
//!
//! Writing a skill's files for its scripts is `tools::Settings::with_workdir`'s job.

pub(crate) mod discover;
pub(crate) mod extract;
pub(crate) mod folder;
pub(crate) mod install;
pub(crate) mod overlay;
#[cfg(feature = "watch")]
mod watch;

pub use discover::{Discovery, SourceKind};
pub use install::{Agent, Install, InstallEntry, InstallError, InstallReport, Scope, SkillState};
pub use overlay::{Overlay, ReloadReport};
