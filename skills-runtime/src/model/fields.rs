//! The frontmatter fields of a skill, as one owned value: what the validator reads from a
//! SKILL.md and what a skill read at run time keeps.

use super::invocation::InvocationFields;

/// The name of the manifest file, whose frontmatter holds the fields; `load` with this path
/// returns the body.
pub const MANIFEST: &str = "SKILL.md";

/// The frontmatter fields of a skill, owned: what the validator reads and what a skill built at
/// run time keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields {
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: String,
    /// `license`, if present.
    pub license: Option<String>,
    /// `compatibility`, if present.
    pub compatibility: Option<String>,
    /// `metadata`, as key/value pairs sorted by key.
    pub metadata: Vec<(String, String)>,
    /// `allowed-tools`, in order.
    pub allowed_tools: Vec<String>,
    /// Fields the specification does not define, as a JSON object text.
    pub extra: String,
    /// Who may invoke the skill, read from its client fields ([`Skill::invocation`](crate::Skill::invocation)).
    pub invocation: InvocationFields,
}
