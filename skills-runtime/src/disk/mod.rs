//! Skills read from disk at run time, beside the embedded ones.
//!
//! - [`Discovery`] finds the folders skills live in (project, user, environment, code) and
//!   scans them with the same validator as `skills!`.
//! - [`Overlay`] merges them with an embedded set, and reloads what changed.
//! - `watch` (feature `watch`) reloads an overlay in the background when its folders change.
//! - [`extract()`] writes a skill's files to a working directory so its scripts can run.

pub(crate) mod discover;
pub(crate) mod extract;
mod folder;
mod overlay;
#[cfg(feature = "watch")]
mod watch;

pub use discover::{Discovered, Discovery, Found, Root, SourceKind};
pub use extract::{ExtractError, Extracted, extract, extract_to_temp};
pub use overlay::{Overlay, ReloadReport, Source};
#[cfg(feature = "watch")]
#[cfg_attr(docsrs, doc(cfg(feature = "watch")))]
pub use watch::{Watcher, watch};
