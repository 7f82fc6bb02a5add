//! Who may load what: permission rules (`allow`/`ask`/`deny` per name pattern, last match
//! wins), and the grants a person gave, each bound to the content approved.

mod grants;
mod permission;
mod subject;

pub use grants::{Answer, Grants};
pub use permission::{Access, PermissionParseError, Permissions};
pub use subject::Subject;
