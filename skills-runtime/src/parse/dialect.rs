//! Client dialects: the fields popular clients read beyond the Agent Skills specification.
//!
//! | dialect | where | fields |
//! |---|---|---|
//! | [`Dialect::ClaudeCode`] | SKILL.md frontmatter | `disable-model-invocation` (boolean), `user-invocable` (boolean), `argument-hint` (string), `arguments` (a list of names or one string of names); typed in [`ClientFields`](crate::ClientFields): `when_to_use` (string, appended to the description in listings), `disallowed-tools` (a list, or one string separated by spaces or commas), `paths` (a list, or one string separated by commas), `context` (`fork`), `agent`, `model` (strings); checked and kept only: `effort`, `version`, `shell` (strings), `hooks` (a mapping). All are kept as JSON in [`Skill::extra`](crate::Skill::extra) |
//! | [`Dialect::Codex`] | `agents/openai.yaml` beside SKILL.md | `policy.allow_implicit_invocation` (boolean); `interface` (`display_name`, `short_description`, `icon_small`, `icon_large`, `brand_color` (a hex colour), `default_prompt`: strings) and `dependencies.tools` (a list of `type`, `value`, `description`, `transport`, `url`), typed in [`ClientFields`](crate::ClientFields) |
//! | [`Dialect::OpenCode`] | SKILL.md `metadata` | `opencode/autoinvoke` (`"true"` or `"false"`) |
//!
//! How each is read depends on the profile and on the dialects opted in to
//! ([`ScanOptions::dialects`](super::ScanOptions::dialects), `skills!(..., dialects = [...])`,
//! `skills validate --dialect NAME`):
//!
//! - **strict**, dialect not opted in: the specification. Client frontmatter fields are
//!   `unknown-field` errors; `agents/openai.yaml` and `opencode/autoinvoke` are not read.
//! - **lenient**, dialect not opted in: the fields this crate reads (the invocation fields and
//!   the typed ones) are read and honoured, each with an `unknown-field` warning naming its
//!   client (other clients ignore it); a value of the wrong type is a `client-field-type`
//!   warning and is not honoured.
//! - **dialect opted in**, either profile: its fields are known fields. Their types are checked
//!   (a wrong type is a `client-field-type` error naming the field and the expected type, at its
//!   line) and no warning is given.

use std::path::Path;

use serde_yaml::Value;

use super::value::kind;
use super::{Diagnostic, Profile, Rule, Severity};
use crate::model::fields::{CodexInterface, CodexTool};

/// A client whose fields a skill may use beyond the Agent Skills specification.
///
/// ```
/// use skills_embed::parse::Dialect;
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
    /// `when_to_use`, `disallowed-tools`, `paths`, `context`, `agent`, `model`, and the other
    /// fields it defines (`effort`, `hooks`, ...).
    #[strum(to_string = "claude-code", serialize = "claude_code")]
    ClaudeCode,
    /// Codex: `agents/openai.yaml` with `policy.allow_implicit_invocation`, `interface` and
    /// `dependencies.tools`.
    Codex,
    /// OpenCode: `metadata: { opencode/autoinvoke: "false" }`.
    OpenCode,
}

impl Dialect {
    /// Every dialect.
    ///
    /// ```
    /// use std::path::Path;
    /// use skills_embed::parse::{Dialect, Rule, ScanOptions, check};
    /// let text = "---\nname: pdf\ndescription: PDFs.\nuser-invocable: false\n---\n";
    /// let file = Path::new("pdf/SKILL.md");
    /// assert_eq!(check(text, file, &ScanOptions::default())[0].rule, Rule::UnknownField);
    /// // Every client's fields opted in: a skill written for any of them passes.
    /// let every = ScanOptions { dialects: Dialect::ALL.to_vec(), ..ScanOptions::default() };
    /// assert!(check(text, file, &every).is_empty());
    /// ```
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
    /// One of these strings.
    OneOf(&'static [&'static str]),
}

impl Expect {
    /// What the field must be, for messages.
    pub(crate) fn describe(self) -> String {
        match self {
            Expect::Bool => "a boolean (true or false)".into(),
            Expect::Text => "a string".into(),
            Expect::TextOrList => "a string or a list of strings".into(),
            Expect::Mapping => "a mapping".into(),
            Expect::OneOf(values) => {
                let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
                quoted.join(" or ")
            }
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
            Expect::OneOf(values) => {
                matches!(value, Value::String(text) if values.contains(&text.trim()))
            }
        }
    }
}

fn untag(value: &Value) -> &Value {
    match value {
        Value::Tagged(tagged) => untag(&tagged.value),
        other => other,
    }
}

/// Claude Code's fields this crate reads (honoured under lenient, with a warning): the
/// invocation policy's, and the ones typed in [`ClientFields`](crate::ClientFields).
const CLAUDE_CODE_READ_FIELDS: &[(&str, Expect)] = &[
    ("disable-model-invocation", Expect::Bool),
    ("user-invocable", Expect::Bool),
    ("argument-hint", Expect::TextOrList),
    ("arguments", Expect::TextOrList),
    ("when_to_use", Expect::Text),
    ("disallowed-tools", Expect::TextOrList),
    ("paths", Expect::TextOrList),
    ("context", Expect::OneOf(&["fork"])),
    ("agent", Expect::Text),
    ("model", Expect::Text),
];

/// Claude Code's other frontmatter fields beyond the specification, and their types: checked
/// and kept when the dialect is opted in to, not read (under lenient, unknown fields).
const CLAUDE_CODE_OTHER_FIELDS: &[(&str, Expect)] = &[
    ("effort", Expect::Text),
    ("version", Expect::Text),
    ("shell", Expect::Text),
    ("hooks", Expect::Mapping),
];

/// The type of a Claude Code field, and whether this crate reads it.
pub(crate) fn claude_code_field(key: &str) -> Option<(Expect, bool)> {
    let find = |fields: &[(&str, Expect)]| {
        fields
            .iter()
            .find(|(name, _)| *name == key)
            .map(|(_, expect)| *expect)
    };
    find(CLAUDE_CODE_READ_FIELDS)
        .map(|expect| (expect, true))
        .or_else(|| find(CLAUDE_CODE_OTHER_FIELDS).map(|expect| (expect, false)))
}

/// OpenCode's metadata key.
pub(crate) const OPENCODE_AUTOINVOKE: &str = "opencode/autoinvoke";

/// Where Codex keeps a skill's settings, relative to its folder.
pub const CODEX_FILE: &str = "agents/openai.yaml";

/// What Codex's `agents/openai.yaml` says, as far as it was read.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct CodexFile {
    /// `policy.allow_implicit_invocation`, when it says.
    pub(crate) allow_implicit: Option<bool>,
    /// `interface`.
    pub(crate) interface: CodexInterface,
    /// `dependencies.tools`.
    pub(crate) tools: Vec<CodexTool>,
}

/// Reads Codex's `agents/openai.yaml` (`text`, at `file`): its policy, `interface` and
/// `dependencies.tools`, and its problems under `reading`. A section of the wrong shape is
/// reported at its line and left out; the others are still read.
pub(crate) fn read_codex(
    file: &Path,
    text: &str,
    reading: Reading,
) -> (CodexFile, Vec<Diagnostic>) {
    let mut out = Codex {
        file,
        text,
        reading,
        found: Vec::new(),
    };
    let read = out.read();
    (read, out.found)
}

/// The reading of one `agents/openai.yaml`: where its problems go.
struct Codex<'a> {
    file: &'a Path,
    text: &'a str,
    reading: Reading,
    found: Vec<Diagnostic>,
}

impl Codex<'_> {
    fn push(&mut self, rule: Rule, (line, column): (usize, usize), message: String) {
        let file = self.file;
        self.found.push(match self.reading.type_severity() {
            Severity::Error => Diagnostic::error(rule, file, line, column, message),
            Severity::Warning => Diagnostic::warning(rule, file, line, column, message),
        });
    }

    /// A wrong type at `key`'s line.
    fn wrong(&mut self, key: &str, what: &str, expect: &str, value: &Value) {
        let message = format!(
            "{what} in {CODEX_FILE} must be {expect}, not {}",
            kind(value)
        );
        let at = key_position(self.text, key);
        self.push(Rule::ClientFieldType, at, message);
    }

    /// The lenient profile's portability warning for a section it honours.
    fn warn_honoured(&mut self, key: &str, what: &str) {
        if self.reading != Reading::Warned {
            return;
        }
        let (line, column) = key_position(self.text, key);
        let message = format!(
            "{what} in {CODEX_FILE} is a Codex setting, not part of the Agent Skills \
             specification: it is honoured here, other clients ignore it; opt in to the codex \
             dialect to accept it without this warning"
        );
        self.found.push(Diagnostic::warning(
            Rule::UnknownField,
            self.file,
            line,
            column,
            message,
        ));
    }

    fn read(&mut self) -> CodexFile {
        let mut read = CodexFile::default();
        if self.reading == Reading::Ignored {
            return read;
        }
        // The file is small and has no aliases worth expanding; the same value budget as SKILL.md.
        if self.text.len() > 64 * 1024 {
            let message = format!("{CODEX_FILE} is over 64 KiB; it was not read");
            self.push(Rule::ClientFieldType, (1, 1), message);
            return read;
        }
        let value: Value = match serde_yaml::from_str(self.text) {
            Ok(value) => value,
            Err(e) => {
                let at = e.location().map_or((1, 1), |l| (l.line(), l.column()));
                let message = format!(
                    "invalid YAML in {CODEX_FILE}: {}",
                    e.to_string().replace('\n', " ")
                );
                self.push(Rule::YamlSyntax, at, message);
                return read;
            }
        };
        let mapping = match untag(&value) {
            Value::Mapping(mapping) => mapping,
            Value::Null => return read,
            other => {
                let message = format!(
                    "{CODEX_FILE} must be a mapping such as `policy: {{ allow_implicit_invocation: false }}`, not {}",
                    kind(other)
                );
                self.push(Rule::ClientFieldType, (1, 1), message);
                return read;
            }
        };
        read.allow_implicit = self.policy(mapping);
        read.interface = self.interface(mapping);
        read.tools = self.tools(mapping);
        read
    }

    /// `policy.allow_implicit_invocation`.
    fn policy(&mut self, mapping: &serde_yaml::Mapping) -> Option<bool> {
        let policy = match mapping.get("policy").map(untag)? {
            Value::Mapping(policy) => policy,
            Value::Null => return None,
            other => {
                self.wrong("policy", "\"policy\"", "a mapping", other);
                return None;
            }
        };
        match policy.get("allow_implicit_invocation").map(untag)? {
            Value::Bool(allow) => {
                self.warn_honoured(
                    "allow_implicit_invocation",
                    "policy.allow_implicit_invocation",
                );
                Some(*allow)
            }
            other => {
                let expect = Expect::Bool.describe();
                let what = "policy.allow_implicit_invocation";
                self.wrong("allow_implicit_invocation", what, &expect, other);
                None
            }
        }
    }

    /// `interface`: its strings (`brand_color` a hex colour).
    fn interface(&mut self, mapping: &serde_yaml::Mapping) -> CodexInterface {
        let mut ui = CodexInterface::default();
        let fields = match mapping.get("interface").map(untag) {
            Some(Value::Mapping(fields)) => fields,
            None | Some(Value::Null) => return ui,
            Some(other) => {
                self.wrong("interface", "\"interface\"", "a mapping", other);
                return ui;
            }
        };
        for (key, slot) in [
            ("display_name", &mut ui.display_name),
            ("short_description", &mut ui.short_description),
            ("icon_small", &mut ui.icon_small),
            ("icon_large", &mut ui.icon_large),
            ("brand_color", &mut ui.brand_color),
            ("default_prompt", &mut ui.default_prompt),
        ] {
            match fields.get(key).map(untag) {
                None | Some(Value::Null) => {}
                Some(Value::String(text)) if key == "brand_color" && !is_hex_colour(text) => {
                    let message = format!(
                        "interface.brand_color in {CODEX_FILE} must be a hex colour such as \"#3B82F6\", not {:?}",
                        crate::text::clip(text, 41)
                    );
                    let at = key_position(self.text, key);
                    self.push(Rule::ClientFieldType, at, message);
                }
                Some(Value::String(text)) => {
                    *slot = Some(text.trim().to_owned()).filter(|t| !t.is_empty());
                }
                Some(other) => self.wrong(key, &format!("interface.{key}"), "a string", other),
            }
        }
        if !ui.is_empty() {
            self.warn_honoured("interface", "interface");
        }
        ui
    }

    /// `dependencies.tools`: a list of mappings, each with string `type` and `value`.
    fn tools(&mut self, mapping: &serde_yaml::Mapping) -> Vec<CodexTool> {
        let mut tools = Vec::new();
        let dependencies = match mapping.get("dependencies").map(untag) {
            Some(Value::Mapping(dependencies)) => dependencies,
            None | Some(Value::Null) => return tools,
            Some(other) => {
                self.wrong("dependencies", "\"dependencies\"", "a mapping", other);
                return tools;
            }
        };
        let items = match dependencies.get("tools").map(untag) {
            Some(Value::Sequence(items)) => items,
            None | Some(Value::Null) => return tools,
            Some(other) => {
                let expect = "a list such as `- { type: \"mcp\", value: \"github\" }`";
                self.wrong("tools", "dependencies.tools", expect, other);
                return tools;
            }
        };
        for (index, item) in items.iter().enumerate() {
            let what = format!("dependencies.tools item {}", index + 1);
            let Value::Mapping(entry) = untag(item) else {
                self.wrong("tools", &what, "a mapping with `type` and `value`", item);
                continue;
            };
            let text = |key: &str| match entry.get(key).map(untag) {
                Some(Value::String(text)) if !text.trim().is_empty() => {
                    Ok(Some(text.trim().to_owned()))
                }
                None | Some(Value::Null) => Ok(None),
                Some(other) => Err(kind(other)),
            };
            let mut tool = CodexTool::default();
            let mut problems = Vec::new();
            for (key, required) in [
                ("type", true),
                ("value", true),
                ("description", false),
                ("transport", false),
                ("url", false),
            ] {
                match text(key) {
                    Ok(Some(found)) => match key {
                        "type" => tool.kind = found,
                        "value" => tool.value = found,
                        "description" => tool.description = Some(found),
                        "transport" => tool.transport = Some(found),
                        _ => tool.url = Some(found),
                    },
                    Ok(None) if required => problems.push(format!("`{key}` is missing")),
                    Ok(None) => {}
                    Err(found) => problems.push(format!("`{key}` must be a string, not {found}")),
                }
            }
            if problems.is_empty() {
                tools.push(tool);
            } else {
                let message = format!(
                    "{what} in {CODEX_FILE}: {} (each tool is a mapping such as `{{ type: \"mcp\", value: \"github\" }}`)",
                    problems.join("; ")
                );
                let at = key_position(self.text, "tools");
                self.push(Rule::ClientFieldType, at, message);
            }
        }
        if !tools.is_empty() {
            self.warn_honoured("dependencies", "dependencies.tools");
        }
        tools
    }
}

/// `#` and 3, 4, 6 or 8 hex digits.
fn is_hex_colour(text: &str) -> bool {
    let digits = text.trim().strip_prefix('#').unwrap_or("");
    matches!(digits.len(), 3 | 4 | 6 | 8) && digits.chars().all(|c| c.is_ascii_hexdigit())
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
        let (read, found) = read_codex(Path::new(FILE), text, reading);
        let found = found
            .iter()
            .map(|d| (<&str>::from(d.rule), d.severity, d.line, d.column))
            .collect();
        (read.allow_implicit, found)
    }

    #[test]
    fn codex_policy_is_read_with_lines() {
        let text = "interface:\n  display_name: PDF\npolicy:\n  allow_implicit_invocation: false\n";
        assert_eq!(codex(text, Reading::Known), (Some(false), vec![]));
        // Lenient: each section honoured says so at its line.
        assert_eq!(
            codex(text, Reading::Warned),
            (
                Some(false),
                vec![
                    ("unknown-field", Severity::Warning, 4, 3),
                    ("unknown-field", Severity::Warning, 1, 1)
                ]
            )
        );
        assert_eq!(codex(text, Reading::Ignored), (None, vec![]));
        let flow = "policy: { allow_implicit_invocation: true }\n";
        assert_eq!(codex(flow, Reading::Known), (Some(true), vec![]));
    }

    const OPENAI_YAML: &str = "interface:\n  display_name: \"PDF forms\"\n  short_description: \"Fill and check PDF forms\"\n  icon_small: \"./assets/pdf.svg\"\n  icon_large: \"./assets/pdf.png\"\n  brand_color: \"#3B82F6\"\n  default_prompt: \"Fill this form.\"\n  later_field: kept out\ndependencies:\n  tools:\n    - type: \"mcp\"\n      value: \"github\"\n      description: \"GitHub MCP server\"\n      transport: \"streamable_http\"\n      url: \"https://api.githubcopilot.com/mcp/\"\n";

    #[test]
    fn codex_interface_and_tools_are_read() {
        let (read, found) = read_codex(Path::new(FILE), OPENAI_YAML, Reading::Known);
        assert!(found.is_empty(), "{found:#?}");
        let ui = &read.interface;
        assert_eq!(ui.display_name.as_deref(), Some("PDF forms"));
        assert_eq!(
            ui.short_description.as_deref(),
            Some("Fill and check PDF forms")
        );
        assert_eq!(ui.icon_small.as_deref(), Some("./assets/pdf.svg"));
        assert_eq!(ui.icon_large.as_deref(), Some("./assets/pdf.png"));
        assert_eq!(ui.brand_color.as_deref(), Some("#3B82F6"));
        assert_eq!(ui.default_prompt.as_deref(), Some("Fill this form."));
        assert_eq!(
            read.tools,
            [CodexTool {
                kind: "mcp".into(),
                value: "github".into(),
                description: Some("GitHub MCP server".into()),
                transport: Some("streamable_http".into()),
                url: Some("https://api.githubcopilot.com/mcp/".into()),
            }]
        );
        assert_eq!(read.allow_implicit, None);
        // Lenient: the same, with a warning at each section.
        let (lenient, found) = codex(OPENAI_YAML, Reading::Warned);
        assert_eq!(lenient, None);
        assert_eq!(
            found,
            [
                ("unknown-field", Severity::Warning, 1, 1),
                ("unknown-field", Severity::Warning, 9, 1)
            ]
        );
        // Strict without the opt-in: not read.
        let (ignored, found) = read_codex(Path::new(FILE), OPENAI_YAML, Reading::Ignored);
        assert!(found.is_empty() && ignored == CodexFile::default());
    }

    #[test]
    fn codex_interface_and_tools_of_the_wrong_shape_are_placed_and_left_out() {
        let text = "interface:\n  display_name: [a]\n  brand_color: blue\ndependencies:\n  tools:\n    - type: mcp\n    - value: x\n      url: 3\n    - plain\n    - {type: mcp, value: ok}\n";
        let (read, found) = read_codex(Path::new(FILE), text, Reading::Known);
        let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "interface.display_name in agents/openai.yaml must be a string, not a list",
                "interface.brand_color in agents/openai.yaml must be a hex colour such as \"#3B82F6\", not \"blue\"",
                "dependencies.tools item 1 in agents/openai.yaml: `value` is missing (each tool is a mapping such as `{ type: \"mcp\", value: \"github\" }`)",
                "dependencies.tools item 2 in agents/openai.yaml: `type` is missing; `url` must be a string, not a number (each tool is a mapping such as `{ type: \"mcp\", value: \"github\" }`)",
                "dependencies.tools item 3 in agents/openai.yaml must be a mapping with `type` and `value`, not a string",
            ]
        );
        let lines: Vec<(usize, usize)> = found.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(lines, [(2, 3), (3, 3), (5, 3), (5, 3), (5, 3)]);
        assert!(found.iter().all(Diagnostic::is_error));
        assert!(read.interface.is_empty());
        assert_eq!(read.tools.len(), 1, "the valid tool is kept");
        let (_, found) = codex("interface: x\ndependencies: [a]\n", Reading::Warned);
        assert_eq!(
            found,
            [
                ("client-field-type", Severity::Warning, 1, 1),
                ("client-field-type", Severity::Warning, 2, 1)
            ]
        );
        let (_, found) = codex("dependencies:\n  tools: mcp\n", Reading::Known);
        assert_eq!(found, [("client-field-type", Severity::Error, 2, 3)]);
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
        assert_eq!(claude_code_field("model"), Some((Expect::Text, true)));
        assert_eq!(claude_code_field("effort"), Some((Expect::Text, false)));
        assert_eq!(claude_code_field("colour"), None);
    }
}
