//! Who may load what: permission rules (`allow`/`ask`/`deny` per name pattern, last match
//! wins), per-agent rule sets, and the grants a person gave, each bound to the content approved.

mod grants;
mod permission;
mod subject;

pub use grants::{Answer, Grants};
pub use permission::{
    Access, AgentPermissions, ParseProblem, PermissionParseError, PermissionRule, Permissions,
};
pub use subject::Subject;
