//! The frontmatter fields of a skill, as one owned value: what the validator reads from a
//! SKILL.md and what a skill read at run time keeps.

use super::invocation::InvocationFields;

/// The name of the manifest file, whose frontmatter holds the fields; `load` with this path
/// returns the body.
pub const MANIFEST: &str = "SKILL.md";

/// The frontmatter fields of a skill, owned: what the validator reads (`parse::Manifest` holds
/// one) and what a skill built at run time keeps, so the disk loader hands the validator's
/// fields to [`Skill::owned`](crate::Skill::owned) as they are, and `skills!` embeds the same
/// values.
///
/// ```
/// use skills_embed_runtime::{Fields, Skill};
///
/// let fields = Fields {
///     name: "pdf".into(),
///     description: "Fill PDF forms.".into(),
///     metadata: vec![("author".into(), "Ann".into())],
///     extra: r#"{"owner":{"area":"forms","team":"docs"},"version":2}"#.into(),
///     ..Fields::default()
/// };
/// let skill = Skill::owned(fields.clone(), "Use pdftotext.\n".into(), vec![]);
/// assert_eq!(skill.extra()["version"], 2);
/// assert_eq!(serde_json::to_string(&skill.extra()).unwrap(), fields.extra);
/// ```
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
    /// Fields the specification does not define, as JSON object text. The validator writes it
    /// canonical (keys sorted at every level, no whitespace), whichever features `serde_json`
    /// was built with, so a skill embedded by `skills!` and the same skill read from disk hold
    /// the same bytes and the same [`content_digest`](crate::Skill::content_digest). Empty reads
    /// as `{}`.
    pub extra: String,
    /// Who may invoke the skill, read from its client fields ([`Skill::invocation`](crate::Skill::invocation)).
    pub invocation: InvocationFields,
}
