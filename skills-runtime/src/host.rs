//! A skill set that may change while it is served, shared by the MCP server and the rig tools.

use std::sync::Arc;

use crate::model::id::Dynamic;
use crate::model::set::SkillSet;

/// One snapshot of the served skills.
pub(crate) type Snapshot = Arc<SkillSet<Dynamic>>;

/// Where served skills come from: one set for the server's life, or a function asked again on
/// every request (an overlay's snapshot, say).
#[derive(Clone)]
pub(crate) enum Source {
    Fixed(Snapshot),
    Live(Arc<dyn Fn() -> Snapshot + Send + Sync>),
}

impl Source {
    /// An embedded set, looked up by name: servers never need the generated ids.
    pub(crate) fn embedded<Id>(set: &'static SkillSet<Id>) -> Self {
        Source::Fixed(Arc::new(set.by_name()))
    }

    /// The set as it is now.
    pub(crate) fn snapshot(&self) -> Snapshot {
        match self {
            Source::Fixed(set) => Arc::clone(set),
            Source::Live(f) => f(),
        }
    }

    /// Whether the set can change between requests.
    pub(crate) fn is_live(&self) -> bool {
        matches!(self, Source::Live(_))
    }
}
