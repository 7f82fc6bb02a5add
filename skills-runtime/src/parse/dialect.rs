//! Client dialects: the fields popular clients read beyond the Agent Skills specification.
//!
//! | dialect | where | fields |
//! |---|---|---|
//! | [`Dialect::ClaudeCode`] | SKILL.md frontmatter | `disable-model-invocation` (boolean), `user-invocable` (boolean), `argument-hint` (string), `arguments` (a list of names or one string of names), and, kept as JSON in [`Skill::extra`](crate::Skill::extra): `when_to_use`, `model`, `effort`, `context`, `agent`, `version`, `shell` (strings), `hooks` (a mapping), `paths` (a string or a list) |
//! | [`Dialect::Codex`] | `agents/openai.yaml` beside SKILL.md | `policy.allow_implicit_invocation` (boolean) |
//! | [`Dialect::OpenCode`] | SKILL.md `metadata` | `opencode/autoinvoke` (`"true"` or `"false"`) |
//!
//! How each is read depends on the profile and on the dialects opted in to
//! ([`ScanOptions::dialects`](super::ScanOptions::dialects), `skills!(..., dialects = [...])`,
//! `skills validate --dialect NAME`):
//!
//! - **strict**, dialect not opted in: the specification. Client frontmatter fields are
//!   `unknown-field` errors; `agents/openai.yaml` and `opencode/autoinvoke` are not read.
//! - **lenient**, dialect not opted in: the invocation fields are read and honoured, each with an
//!   `unknown-field` warning naming its client (other clients ignore it); a value of the wrong
//!   type is a `client-field-type` warning and is not honoured.
//! - **dialect opted in**, either profile: its fields are known fields. Their types are checked
//!   (a wrong type is a `client-field-type` error naming the field and the expected type, at its
//!   line) and no warning is given.

use std::path::Path;

use serde_yaml::Value;

use super::value::kind;
use super::{Diagnostic, Profile, Rule, Severity};

/// A client whose fields a skill may use beyond the Agent Skills specification.
///
/// ```
/// use skills_embed_runtime::parse::Dialect;
/// assert_eq!("claude-code".parse(), Ok(Dialect::ClaudeCode));
/// assert_eq!("claude_code".parse(), Ok(Dialect::ClaudeCode));
/// assert_eq!(Dialect::OpenCode.to_string(), "opencode");
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "lowercase")]
#[non_exhaustive]
pub enum Dialect {
    /// Claude Code: `disable-model-invocation`, `user-invocable`, `argument-hint`, `arguments`,
    /// and the other fields it defines (`model`, `context`, `hooks`, ...).
    #[strum(to_string = "claude-code", serialize = "claude_code")]
    ClaudeCode,
    /// Codex: `agents/openai.yaml` with `policy.allow_implicit_invocation`.
    Codex,
    /// OpenCode: `metadata: { opencode/autoinvoke: "false" }`.
    OpenCode,
}

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 3] = [Dialect::ClaudeCode, Dialect::Codex, Dialect::OpenCode];

    /// The client's name, for messages: `Claude Code`, `Codex` or `OpenCode`.
    pub(crate) fn client(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::OpenCode => "OpenCode",
        }
    }

    fn bit(self) -> u8 {
        match self {
            Self::ClaudeCode => 1,
            Self::Codex => 2,
            Self::OpenCode => 4,
        }
    }
}

/// A set of [`Dialect`]s, as the checker reads [`ScanOptions::dialects`](super::ScanOptions::dialects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Dialects(u8);

impl Dialects {
    /// No dialect: the specification's fields only.
    pub(crate) const NONE: Dialects = Dialects(0);

    /// This set with `dialect` added.
    pub(crate) fn with(self, dialect: Dialect) -> Dialects {
        Dialects(self.0 | dialect.bit())
    }

    /// Whether `dialect` is in the set.
    pub(crate) fn contains(self, dialect: Dialect) -> bool {
        self.0 & dialect.bit() != 0
    }
}

impl From<Dialect> for Dialects {
    fn from(dialect: Dialect) -> Self {
        Dialects::NONE.with(dialect)
    }
}

impl FromIterator<Dialect> for Dialects {
    fn from_iter<I: IntoIterator<Item = Dialect>>(iter: I) -> Self {
        iter.into_iter().fold(Dialects::NONE, Dialects::with)
    }
}

/// How a dialect's fields are read under a profile and a set of opted-in dialects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Not read (strict, not opted in).
    Ignored,
    /// Read and honoured, with a portability warning (lenient, not opted in).
    Warned,
    /// Known fields: types checked as errors, no warning (opted in).
    Known,
}

impl Reading {
    pub(crate) fn of(dialect: Dialect, profile: Profile, dialects: Dialects) -> Reading {
        if dialects.contains(dialect) {
            Reading::Known
        } else if profile == Profile::Lenient {
            Reading::Warned
        } else {
            Reading::Ignored
        }
    }

    /// The severity of a wrong type: an error for a known field, else a warning.
    pub(crate) fn type_severity(self) -> Severity {
        match self {
            Reading::Known => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

/// The type a client field must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// `true` or `false`.
    Bool,
    /// A string (numbers and booleans are read as written).
    Text,
    /// A string, or a list of strings.
    TextOrList,
    /// A mapping.
    Mapping,
}

impl Expect {
    /// What the field must be, for messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Expect::Bool => "a boolean (true or false)",
            Expect::Text => "a string",
            Expect::TextOrList => "a string or a list of strings",
            Expect::Mapping => "a mapping",
        }
    }

    /// Whether `value` has this type.
    pub(crate) fn accepts(self, value: &Value) -> bool {
        let value = untag(value);
        let scalar = |v: &Value| {
            matches!(
                untag(v),
                Value::String(_) | Value::Number(_) | Value::Bool(_)
            )
        };
        match self {
            Expect::Bool => matches!(value, Value::Bool(_)),
            Expect::Text => scalar(value),
            Expect::TextOrList => match value {
                Value::Sequence(items) => items.iter().all(scalar),
                other => scalar(other),
            },
            Expect::Mapping => matches!(value, Value::Mapping(_)),
        }
    }
}

fn untag(value: &Value) -> &Value {
    match value {
        Value::Tagged(tagged) => untag(&tagged.value),
        other => other,
    }
}

/// Claude Code's fields that make the invocation policy (honoured under lenient), and their
/// types.
const CLAUDE_CODE_POLICY_FIELDS: &[(&str, Expect)] = &[
    ("disable-model-invocation", Expect::Bool),
    ("user-invocable", Expect::Bool),
    ("argument-hint", Expect::TextOrList),
    ("arguments", Expect::TextOrList),
];

/// Claude Code's other frontmatter fields beyond the specification, and their types: checked
/// and kept, not read.
const CLAUDE_CODE_OTHER_FIELDS: &[(&str, Expect)] = &[
    ("when_to_use", Expect::Text),
    ("model", Expect::Text),
    ("effort", Expect::Text),
    ("context", Expect::Text),
    ("agent", Expect::Text),
    ("version", Expect::Text),
    ("shell", Expect::Text),
    ("hooks", Expect::Mapping),
    ("paths", Expect::TextOrList),
];

/// The type of a Claude Code field, and whether it belongs to the invocation policy.
pub(crate) fn claude_code_field(key: &str) -> Option<(Expect, bool)> {
    let find = |fields: &[(&str, Expect)]| {
        fields
            .iter()
            .find(|(name, _)| *name == key)
            .map(|(_, expect)| *expect)
    };
    find(CLAUDE_CODE_POLICY_FIELDS)
        .map(|expect| (expect, true))
        .or_else(|| find(CLAUDE_CODE_OTHER_FIELDS).map(|expect| (expect, false)))
}

/// OpenCode's metadata key.
pub(crate) const OPENCODE_AUTOINVOKE: &str = "opencode/autoinvoke";

/// Where Codex keeps a skill's settings, relative to its folder.
pub const CODEX_FILE: &str = "agents/openai.yaml";

/// Reads Codex's `agents/openai.yaml` (`text`, at `file`): whether it allows implicit
/// invocation (`None` when it does not say), and its problems under `reading`.
pub(crate) fn read_codex(
    file: &Path,
    text: &str,
    reading: Reading,
) -> (Option<bool>, Vec<Diagnostic>) {
    let mut found = Vec::new();
    if reading == Reading::Ignored {
        return (None, found);
    }
    let severity = reading.type_severity();
    let push =
        |found: &mut Vec<Diagnostic>, rule: Rule, line: usize, column: usize, message: String| {
            found.push(match severity {
                Severity::Error => Diagnostic::error(rule, file, line, column, message),
                Severity::Warning => Diagnostic::warning(rule, file, line, column, message),
            });
        };
    // The file is small and has no aliases worth expanding; the same value budget as SKILL.md.
    if text.len() > 64 * 1024 {
        push(
            &mut found,
            Rule::ClientFieldType,
            1,
            1,
            format!("{CODEX_FILE} is over 64 KiB; it was not read"),
        );
        return (None, found);
    }
    let value: Value = match serde_yaml::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            let message = format!(
                "invalid YAML in {CODEX_FILE}: {}",
                e.to_string().replace('\n', " ")
            );
            push(&mut found, Rule::YamlSyntax, line, column, message);
            return (None, found);
        }
    };
    let mapping = match untag(&value) {
        Value::Mapping(mapping) => mapping,
        Value::Null => return (None, found),
        other => {
            let message = format!(
                "{CODEX_FILE} must be a mapping such as `policy: {{ allow_implicit_invocation: false }}`, not {}",
                kind(other)
            );
            push(&mut found, Rule::ClientFieldType, 1, 1, message);
            return (None, found);
        }
    };
    let Some(policy) = mapping.get("policy").map(untag) else {
        return (None, found);
    };
    let (policy_line, policy_column) = key_position(text, "policy");
    let policy = match policy {
        Value::Mapping(policy) => policy,
        Value::Null => return (None, found),
        other => {
            let message = format!(
                "\"policy\" in {CODEX_FILE} must be a mapping, not {}",
                kind(other)
            );
            push(
                &mut found,
                Rule::ClientFieldType,
                policy_line,
                policy_column,
                message,
            );
            return (None, found);
        }
    };
    let Some(allow) = policy.get("allow_implicit_invocation").map(untag) else {
        return (None, found);
    };
    let (line, column) = key_position(text, "allow_implicit_invocation");
    match allow {
        Value::Bool(allow) => {
            if reading == Reading::Warned {
                let message = format!(
                    "policy.allow_implicit_invocation in {CODEX_FILE} is a Codex setting, not part of \
                     the Agent Skills specification: it is honoured here, other clients ignore it; \
                     opt in to the codex dialect to accept it without this warning"
                );
                found.push(Diagnostic::warning(
                    Rule::UnknownField,
                    file,
                    line,
                    column,
                    message,
                ));
            }
            (Some(*allow), found)
        }
        other => {
            let message = format!(
                "policy.allow_implicit_invocation in {CODEX_FILE} must be {}, not {}",
                Expect::Bool.describe(),
                kind(other)
            );
            push(&mut found, Rule::ClientFieldType, line, column, message);
            (None, found)
        }
    }
}

/// The 1-based line and column where `key:` is first written in `text` (as a block key or in
/// a flow mapping), else the first line.
fn key_position(text: &str, key: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(at) = line[from..].find(key) {
            let start = from + at;
            let before = line[..start].chars().last();
            let after = line[start + key.len()..].trim_start();
            let quoted = matches!(before, Some('"' | '\''));
            let starts =
                before.is_none_or(|c| c.is_whitespace() || matches!(c, '{' | ',' | '"' | '\''));
            let rest = if quoted {
                &line[start + key.len()..]
            } else {
                after
            };
            let rest = rest.trim_start_matches(['"', '\'']).trim_start();
            if starts && rest.starts_with(':') {
                let column = line[..start].chars().count() + 1 - usize::from(quoted);
                return (i + 1, column);
            }
            from = start + key.len();
        }
    }
    (1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "pdf/agents/openai.yaml";

    /// (rule id, severity, line, column) of a diagnostic.
    type Found = (&'static str, Severity, usize, usize);

    fn codex(text: &str, reading: Reading) -> (Option<bool>, Vec<Found>) {
        let (allow, found) = read_codex(Path::new(FILE), text, reading);
        let found = found
            .iter()
            .map(|d| (<&str>::from(d.rule), d.severity, d.line, d.column))
            .collect();
        (allow, found)
    }

    #[test]
    fn codex_policy_is_read_with_lines() {
        let text = "interface:\n  display_name: PDF\npolicy:\n  allow_implicit_invocation: false\n";
        assert_eq!(codex(text, Reading::Known), (Some(false), vec![]));
        assert_eq!(
            codex(text, Reading::Warned),
            (
                Some(false),
                vec![("unknown-field", Severity::Warning, 4, 3)]
            )
        );
        assert_eq!(codex(text, Reading::Ignored), (None, vec![]));
        let flow = "policy: { allow_implicit_invocation: true }\n";
        assert_eq!(codex(flow, Reading::Known), (Some(true), vec![]));
    }

    #[test]
    fn codex_wrong_types_are_placed() {
        let text = "policy:\n  allow_implicit_invocation: \"no\"\n";
        assert_eq!(
            codex(text, Reading::Known),
            (None, vec![("client-field-type", Severity::Error, 2, 3)])
        );
        let (_, found) = read_codex(Path::new(FILE), text, Reading::Known);
        assert_eq!(
            found[0].message,
            "policy.allow_implicit_invocation in agents/openai.yaml must be a boolean (true or false), not a string"
        );
        assert_eq!(
            codex("policy: [a]\n", Reading::Warned),
            (None, vec![("client-field-type", Severity::Warning, 1, 1)])
        );
        assert_eq!(codex("policy: {\n", Reading::Known).1[0].0, "yaml-syntax");
        assert_eq!(codex("- a\n", Reading::Known).1[0].0, "client-field-type");
        assert_eq!(codex("", Reading::Known), (None, vec![]));
    }

    #[test]
    fn odd_codex_files_never_panic() {
        for text in [
            "",
            ":",
            "policy:",
            "policy: ~",
            "allow_implicit_invocation",
            "\"policy\": {\"allow_implicit_invocation\": false}",
            "é: policy:",
            "policy:\n  allow_implicit_invocation:\n",
        ] {
            for reading in [Reading::Known, Reading::Warned, Reading::Ignored] {
                let _ = read_codex(Path::new(FILE), text, reading);
            }
        }
        assert_eq!(
            key_position(
                "\"policy\": {\"allow_implicit_invocation\": false}",
                "allow_implicit_invocation"
            ),
            (1, 12)
        );
    }

    #[test]
    fn expectations() {
        let yaml = |t: &str| serde_yaml::from_str::<Value>(t).unwrap();
        assert!(Expect::Bool.accepts(&yaml("true")) && !Expect::Bool.accepts(&yaml("\"true\"")));
        assert!(Expect::Text.accepts(&yaml("1.0")) && !Expect::Text.accepts(&yaml("[a]")));
        assert!(
            Expect::TextOrList.accepts(&yaml("[a, b]"))
                && !Expect::TextOrList.accepts(&yaml("{a: b}"))
        );
        assert!(Expect::Mapping.accepts(&yaml("{a: b}")) && !Expect::Mapping.accepts(&yaml("a")));
        assert_eq!(
            claude_code_field("arguments"),
            Some((Expect::TextOrList, true))
        );
        assert_eq!(claude_code_field("model"), Some((Expect::Text, false)));
        assert_eq!(claude_code_field("colour"), None);
    }
}
