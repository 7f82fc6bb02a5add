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
/// use skills_embed::{Fields, Skill};
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
    /// The other client fields, typed ([`Skill::client`](crate::Skill::client)).
    pub client: ClientFields,
}

/// The fields clients read beyond the specification, typed: Claude Code's frontmatter fields
/// and Codex's `agents/openai.yaml`. The validator fills them when the profile or the dialects
/// read that client (lenient, or `--dialect`), each checked for its type; a value of the wrong
/// type is reported and left out. Claude Code's fields also stay in [`Fields::extra`] as
/// written. A field of [`Fields`], embedded by `skills!` like the others.
///
/// Sources: Claude Code's skills documentation (<https://code.claude.com/docs/en/skills>),
/// Codex's (<https://developers.openai.com/codex/skills>) and the `agents/openai.yaml` reference
/// in <https://github.com/openai/skills> (`skills/.system/skill-creator/references/openai_yaml.md`).
///
/// ```
/// use skills_embed::{ClientFields, CodexTool, Fields, Skill};
///
/// let client = ClientFields {
///     when_to_use: Some("The user asks for a form.".into()),
///     disallowed_tools: vec!["Write".into()],
///     tools: vec![CodexTool { kind: "mcp".into(), value: "github".into(), ..CodexTool::default() }],
///     ..ClientFields::default()
/// };
/// let fields = Fields { name: "pdf".into(), description: "Fill PDF forms.".into(), client, ..Fields::default() };
/// let skill = Skill::owned(fields.clone(), "Body\n".into(), vec![]);
/// assert_eq!(skill.client(), fields.client);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ClientFields {
    /// Claude Code's `when_to_use`: when to invoke the skill. Listings append it to the
    /// description (`description - when_to_use`), as Claude Code does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when_to_use: Option<String>,
    /// Claude Code's `disallowed-tools`: tools taken away while the skill is active, in order
    /// (a list, or one string separated by spaces or commas).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disallowed_tools: Vec<String>,
    /// Claude Code's `paths`: globs of the files the skill applies to (a list, or one string
    /// separated by commas).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// Claude Code's `context`: `fork` runs the skill in a forked subagent (the one value
    /// Claude Code defines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// Claude Code's `agent`: the subagent type used with `context: fork`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Claude Code's `model`: the model the skill runs with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Codex's `interface` (`agents/openai.yaml`): how a UI shows the skill.
    #[serde(skip_serializing_if = "CodexInterface::is_empty")]
    pub interface: CodexInterface,
    /// Codex's `dependencies.tools` (`agents/openai.yaml`): the tools the skill needs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<CodexTool>,
}

/// Codex's `interface` in `agents/openai.yaml`: what a UI shows for a skill. Every field is
/// optional; icons are paths relative to the skill's folder.
///
/// ```
/// use skills_embed::CodexInterface;
/// let ui = CodexInterface { display_name: Some("PDF forms".into()), ..CodexInterface::default() };
/// assert!(ui.brand_color.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct CodexInterface {
    /// `display_name`: the title shown in skill lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// `short_description`: a short blurb for quick scanning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_description: Option<String>,
    /// `icon_small`: a small icon's path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon_small: Option<String>,
    /// `icon_large`: a large logo's path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icon_large: Option<String>,
    /// `brand_color`: a hex colour for accents, such as `#3B82F6`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_color: Option<String>,
    /// `default_prompt`: the prompt inserted when the skill is invoked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_prompt: Option<String>,
}

/// One of Codex's `dependencies.tools` in `agents/openai.yaml`: a tool the skill needs.
///
/// ```
/// use skills_embed::CodexTool;
/// let github = CodexTool {
///     kind: "mcp".into(),
///     value: "github".into(),
///     url: Some("https://api.githubcopilot.com/mcp/".into()),
///     ..CodexTool::default()
/// };
/// assert!(github.transport.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct CodexTool {
    /// `type`: the kind of dependency (`mcp` is the one Codex defines).
    #[serde(rename = "type")]
    pub kind: String,
    /// `value`: the tool's identifier.
    pub value: String,
    /// `description`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `transport`: how to connect, for an MCP server (`streamable_http`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    /// `url`: the MCP server's address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl CodexInterface {
    /// Whether no field is set.
    pub(crate) fn is_empty(&self) -> bool {
        *self == CodexInterface::default()
    }
}

impl ClientFields {
    /// The JSON text an embedded skill stores (empty when no field is set): serde's field
    /// order, absent fields left out, so `skills!` and the disk loader write the same bytes.
    pub(crate) fn to_json(&self) -> String {
        if *self == ClientFields::default() {
            return String::new();
        }
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads [`to_json`](Self::to_json)'s text back; the default for empty or foreign text.
    pub(crate) fn from_json(text: &str) -> ClientFields {
        if text.is_empty() {
            return ClientFields::default();
        }
        serde_json::from_str(text).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_fields_round_trip_through_their_json() {
        assert_eq!(ClientFields::default().to_json(), "");
        assert_eq!(ClientFields::from_json(""), ClientFields::default());
        assert_eq!(ClientFields::from_json("not json"), ClientFields::default());
        let client = ClientFields {
            when_to_use: Some("Asked for a form.".into()),
            paths: vec!["src/**".into()],
            interface: CodexInterface {
                brand_color: Some("#3B82F6".into()),
                ..CodexInterface::default()
            },
            tools: vec![CodexTool {
                kind: "mcp".into(),
                value: "github".into(),
                ..CodexTool::default()
            }],
            ..ClientFields::default()
        };
        let json = client.to_json();
        assert_eq!(
            json,
            r##"{"when_to_use":"Asked for a form.","paths":["src/**"],"interface":{"brand_color":"#3B82F6"},"tools":[{"type":"mcp","value":"github"}]}"##
        );
        assert_eq!(ClientFields::from_json(&json), client);
    }
}
