//! What an agent offers the model and how it answers: tool definitions, the handler that
//! decodes and answers calls ([`Tools`]), a conversation's [`Session`], and the disclosure
//! modes that pick what goes into the system prompt.
//!
//! # Disclosure modes
//!
//! A host shows skills to a model in one of three ways ([`Disclosure`]): as a listing the model
//! chooses from (progressive), by injecting the bodies of the skills that match the user's input
//! (eager: the matcher is described on [`Disclosure::Eager`]), or a mix (hybrid);
//! [`Session::system_prompt`] writes the text for each.

mod call;
pub(crate) mod definition;
mod disclosure;
pub(crate) mod handler;
pub(crate) mod render;
mod run;
mod runner;
pub(crate) mod session;
mod settings;

pub use crate::model::script::CancelToken;
pub(crate) use call::Call;
#[cfg(feature = "mcp")]
pub(crate) use definition::LOAD_SKILL_CHUNK;
pub use definition::ToolDefinition;
pub(crate) use definition::{READ_SKILL, READ_SKILL_RESOURCE};
pub use disclosure::Disclosure;
pub(crate) use disclosure::{MatchConfig, match_skills};
pub use handler::Tools;
pub use render::{LoadReport, ToolOutput};
pub use runner::{FileRun, FileRunner};
pub use session::{Event, Reattached, Session};
#[cfg(any(feature = "mcp", feature = "rig"))]
pub(crate) use settings::Snapshot;
pub use settings::{Hooks, OutputShape, Settings, Source, ToolName, ToolNameError, ToolStyle};
