//! Reading and checking the fields of a SKILL.md.
//!
//! [`parse_manifest`] splits the file (see [`frontmatter`]), reads the YAML
//! and then checks every field, collecting all problems rather than stopping at the first. The
//! rules follow the reference validator (`skills-ref`) with two additions: diagnostics carry the
//! line and column of the field concerned, and the [`Profile::Lenient`] profile turns what
//! clients are advised to tolerate into warnings.
//!
//! ```
//! use std::path::Path;
//! use skills_embed_runtime::parse::{parse_manifest, Profile, Rule};
//!
//! let text = "---\nname: PDF-Tools\ndescription: Fill PDF forms.\n---\n# PDF\n";
//! let (manifest, diagnostics) =
//!     parse_manifest(text, Path::new("pdf-tools/SKILL.md"), Some("pdf-tools"), Profile::Strict);
//! assert_eq!(manifest.unwrap().name, "PDF-Tools");
//! assert_eq!(diagnostics.len(), 2);
//! assert_eq!(diagnostics[0].rule, Rule::NameCase);
//! assert_eq!((diagnostics[0].line, diagnostics[0].column), (2, 1));
//! assert_eq!(diagnostics[0].message, r#"name "PDF-Tools" must be lowercase: use "pdf-tools""#);
//! assert_eq!(diagnostics[1].rule, Rule::NameDirMismatch);
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess,
};
use serde_yaml::{Mapping, Value};
use unicode_normalization::UnicodeNormalization;

use super::dialect::{self, Dialect, Dialects, Expect, Reading};
use super::frontmatter::{self, Split};
use super::{Diagnostic, Profile, Rule, Severity};
use crate::model::invocation::InvocationFields;

/// The fields the Agent Skills specification defines, in the order messages list them.
pub const ALLOWED_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// The longest `name` allowed, in characters (after NFKC normalisation).
pub const MAX_NAME_CHARS: usize = 64;

/// The longest `description` allowed, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// The longest `compatibility` allowed, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The most YAML values (scalars, lists and mappings, counted after expanding aliases) a
/// frontmatter may hold.
///
/// The YAML library bounds alias expansion only relative to the document size, which still lets a
/// 50 KB frontmatter expand into hundreds of millions of values; real frontmatters hold a few
/// dozen.
pub const MAX_YAML_VALUES: usize = 100_000;

/// How many unquoted-colon values are repaired before giving up, so a pathological file cannot
/// make the parser run once per line for ever.
const MAX_COLON_REPAIRS: usize = 256;

/// The fields of a SKILL.md, read as far as they could be.
///
/// A field that is missing or invalid is left empty; the diagnostics say why. A manifest with no
/// error diagnostic is valid under the profile it was read with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    /// `name` (empty when missing or not a string).
    pub name: String,
    /// `description` (empty when missing or not a string).
    pub description: String,
    /// `license`.
    pub license: Option<String>,
    /// `compatibility`.
    pub compatibility: Option<String>,
    /// `metadata`, sorted by key.
    pub metadata: Vec<(String, String)>,
    /// `allowed-tools`, in order (from a space-separated string or a list).
    pub allowed_tools: Vec<String>,
    /// Fields the specification does not define, kept as JSON values (lenient profile), and
    /// the fields of the client dialects opted in to (any profile).
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// Who may invoke the skill, from the client fields read (see [`dialect`]). Codex's
    /// `agents/openai.yaml` is another file: the scanner applies it.
    pub invocation: InvocationFields,
    /// Byte offset in the file's text where the body starts (after the closing fence and the
    /// blank lines that follow it).
    pub body_start: usize,
}

/// Parses and checks the text of a SKILL.md.
///
/// `file` is only used to place diagnostics. `dir_name` is the name of the skill's folder, for
/// the `name-dir-mismatch` rule (`None` skips that rule). Returns `None` when the frontmatter
/// could not be read as a mapping at all: no frontmatter, invalid YAML, a duplicate key, a list
/// or a scalar instead of a mapping. Otherwise the manifest holds every field that could be read,
/// even when there are errors.
///
/// A plain value holding `: ` (`description: Use when: asked`) is invalid YAML. The strict profile
/// reports it as `yaml-syntax` with the quoted form to write; the lenient one reads it as text and
/// warns (`unquoted-colon`).
///
/// Field values are read as the reference validator reads them: numbers and booleans are
/// accepted as the text written (`name: 123` is the name `"123"`), `name` is trimmed and
/// NFKC-normalised, `description` is trimmed (its length is measured before trimming), and YAML
/// tags are ignored.
pub fn parse_manifest(
    text: &str,
    file: &Path,
    dir_name: Option<&str>,
    profile: Profile,
) -> (Option<Manifest>, Vec<Diagnostic>) {
    parse_manifest_with(text, file, dir_name, profile, Dialects::NONE)
}

/// [`parse_manifest`], with the fields of the client `dialects` accepted as known fields: their
/// types are checked (a wrong type is a `client-field-type` error at its line), no warning is
/// given, and they are kept in [`Manifest::extra`]. See [`dialect`] for what each profile does
/// with the fields of a dialect not opted in to.
///
/// ```
/// use std::path::Path;
/// use skills_embed_runtime::parse::{parse_manifest_with, Dialect, Profile, Rule};
///
/// let text = "---\nname: deploy\ndescription: Deploy.\ndisable-model-invocation: true\nargument-hint: \"[env]\"\n---\n";
/// let file = Path::new("deploy/SKILL.md");
/// let (manifest, diagnostics) =
///     parse_manifest_with(text, file, Some("deploy"), Profile::Strict, Dialect::ClaudeCode.into());
/// let manifest = manifest.unwrap();
/// assert!(diagnostics.is_empty());
/// assert!(!manifest.invocation.model_may_invoke);
/// assert_eq!(manifest.invocation.argument_hint.as_deref(), Some("[env]"));
/// assert_eq!(manifest.extra["disable-model-invocation"], true);
///
/// let wrong = text.replace("invocation: true", "invocation: \"yes\"");
/// let (_, diagnostics) =
///     parse_manifest_with(&wrong, file, Some("deploy"), Profile::Strict, Dialect::ClaudeCode.into());
/// assert_eq!(diagnostics[0].rule, Rule::ClientFieldType);
/// assert_eq!((diagnostics[0].line, diagnostics[0].column), (4, 1));
/// assert_eq!(
///     diagnostics[0].message,
///     "field \"disable-model-invocation\" (Claude Code) must be a boolean (true or false), not a string"
/// );
/// ```
pub fn parse_manifest_with(
    text: &str,
    file: &Path,
    dir_name: Option<&str>,
    profile: Profile,
    dialects: Dialects,
) -> (Option<Manifest>, Vec<Diagnostic>) {
    let split = match frontmatter::split(text) {
        Ok(split) => split,
        Err(error) => {
            let diagnostic =
                Diagnostic::error(error.rule(), file, error.line(), 1, error.to_string());
            return (None, vec![diagnostic]);
        }
    };
    let mut checker = Checker::new(file, profile, &split);
    checker.dialects = dialects;
    let Some(mapping) = checker.read_mapping(split.yaml) else {
        return (None, checker.diagnostics);
    };
    let mut manifest = checker.check_fields(&mapping, dir_name);
    manifest.body_start = split.body_start;
    (Some(manifest), checker.diagnostics)
}

// ---------------------------------------------------------------------------------------------
// The checker: where diagnostics are collected and placed.
// ---------------------------------------------------------------------------------------------

/// A place in the file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    line: usize,
    column: usize,
}

/// State shared by every check of one file.
struct Checker<'a> {
    file: &'a Path,
    profile: Profile,
    /// The client dialects whose fields are known fields.
    dialects: Dialects,
    /// The frontmatter, one entry per line (without line endings); repaired in place when the
    /// lenient profile rewrites an unquoted colon, so line numbers never move.
    lines: Vec<String>,
    /// The file line of `lines[0]`.
    first_line: usize,
    /// The top-level keys as written, indexed once the YAML has loaded (and `lines` is final).
    keys: Vec<KeyEntry>,
    diagnostics: Vec<Diagnostic>,
    /// Whether the frontmatter holds a line break the parser counts and `lines` does not
    /// (see [`text_position`]); found once, since repairs only ever remove such breaks.
    other_breaks: bool,
}

impl<'a> Checker<'a> {
    fn new(file: &'a Path, profile: Profile, split: &Split<'_>) -> Self {
        let lines: Vec<String> = split
            .yaml
            .lines()
            .map(|line| line.trim_end_matches('\r').to_owned())
            .collect();
        let other_breaks = lines.iter().any(|line| has_other_breaks(line));
        Checker {
            file,
            profile,
            dialects: Dialects::NONE,
            lines,
            first_line: split.yaml_line,
            keys: Vec::new(),
            diagnostics: Vec::new(),
            other_breaks,
        }
    }

    fn lenient(&self) -> bool {
        self.profile == Profile::Lenient
    }

    fn push(&mut self, severity: Severity, rule: Rule, pos: Pos, message: String) {
        let diagnostic = match severity {
            Severity::Error => Diagnostic::error(rule, self.file, pos.line, pos.column, message),
            Severity::Warning => {
                Diagnostic::warning(rule, self.file, pos.line, pos.column, message)
            }
        };
        self.diagnostics.push(diagnostic);
    }

    fn error(&mut self, rule: Rule, pos: Pos, message: String) {
        self.push(Severity::Error, rule, pos, message);
    }

    /// An error under the strict profile, a warning under the lenient one.
    fn strict_error(&mut self, rule: Rule, pos: Pos, message: String) {
        let severity = if self.lenient() {
            Severity::Warning
        } else {
            Severity::Error
        };
        self.push(severity, rule, pos, message);
    }

    /// The opening fence: where problems with no better place are reported.
    fn top(&self) -> Pos {
        Pos {
            line: self.first_line.saturating_sub(1).max(1),
            column: 1,
        }
    }

    /// The file position of a 0-based frontmatter line and a 1-based column.
    fn at(&self, yaml_line: usize, column: usize) -> Pos {
        Pos {
            line: self.first_line + yaml_line,
            column,
        }
    }

    /// Where the top-level key `key` is written (its first occurrence), else the opening fence.
    fn key_pos(&self, key: &str) -> Pos {
        match self.keys.iter().find(|entry| entry.key == key) {
            Some(entry) => self.at(entry.line, entry.column),
            None => self.top(),
        }
    }

    /// The text written after `key:` on the key's own line, for reading numbers and booleans
    /// back as the author wrote them (`1.10`, not `1.1`).
    fn raw_value(&self, key: &str) -> Option<String> {
        self.keys
            .iter()
            .find(|entry| entry.key == key)
            .map(|entry| entry.raw.clone())
    }
}

// ---------------------------------------------------------------------------------------------
// Reading the YAML.
// ---------------------------------------------------------------------------------------------

impl Checker<'_> {
    /// Parses the frontmatter into a mapping, repairing unquoted colons under the lenient
    /// profile. Reports why when it cannot.
    fn read_mapping(&mut self, yaml: &str) -> Option<Mapping> {
        // The parser's time grows with the square of the nesting: a deep file is refused
        // before it runs, in one linear pass.
        if let Err(deep) = frontmatter::check_nesting(yaml, frontmatter::MAX_NESTING) {
            let pos = self.at(deep.line, deep.column);
            self.error(Rule::FrontmatterTooDeep, pos, deep.to_string());
            return None;
        }
        let (loaded, colons) = self.load_repairing_colons();
        let colon_count = colons.len();
        for colon in colons {
            self.report_colon(&colon);
        }
        let loaded = loaded?;
        self.keys = top_level_keys(&self.lines);
        if colon_count > 0 && !self.lenient() {
            return None;
        }
        if !loaded.duplicates.is_empty() {
            for (index, duplicate) in loaded.duplicates.iter().enumerate() {
                // The third `a:` is the second duplicate of `a`: place it at that occurrence.
                let repeats = loaded.duplicates[..index]
                    .iter()
                    .filter(|earlier| *earlier == duplicate)
                    .count();
                self.report_duplicate(duplicate, repeats + 1);
            }
            return None;
        }
        match loaded.value {
            Value::Mapping(mapping) => Some(mapping),
            other => {
                let message = format!(
                    "the frontmatter must be a mapping of fields such as `name: my-skill`, not {}",
                    kind(&other)
                );
                self.error(Rule::FrontmatterNotMapping, self.at(0, 1), message);
                None
            }
        }
    }

    /// Loads the YAML; each time it fails on a plain value holding `: `, rewrites that value as a
    /// quoted string and tries again, so every such value is found (and, leniently, read).
    fn load_repairing_colons(&mut self) -> (Option<Loaded>, Vec<ColonFix>) {
        let mut fixes: Vec<ColonFix> = Vec::new();
        loop {
            // The text ends with its line break, as the frontmatter does, so a block scalar
            // written last keeps its final newline (YAML's clip) as it does anywhere else.
            let mut yaml = self.lines.join("\n");
            yaml.push('\n');
            let error = match load(&yaml, self.other_breaks) {
                Ok(loaded) => return (Some(loaded), fixes),
                Err(error) => error,
            };
            let fix = (fixes.len() < MAX_COLON_REPAIRS)
                .then(|| find_unquoted_colon(&self.lines, &error))
                .flatten()
                .filter(|fix| fixes.iter().all(|done| done.line != fix.line));
            match fix {
                Some(fix) => {
                    fix.apply(&mut self.lines);
                    fixes.push(fix);
                }
                None => {
                    self.report_load_error(&error);
                    return (None, fixes);
                }
            }
        }
    }

    fn report_load_error(&mut self, error: &LoadError) {
        let (pos, message) = match error {
            LoadError::Syntax { message, location } => {
                let pos = match location {
                    Some((line, column)) => self.at(line.saturating_sub(1), *column),
                    None => self.at(0, 1),
                };
                (
                    pos,
                    format!(
                        "invalid YAML: {}",
                        relocate(message, self.first_line.saturating_sub(1))
                    ),
                )
            }
            LoadError::TooManyValues => (
                self.at(0, 1),
                format!(
                    "the frontmatter expands to more than {MAX_YAML_VALUES} YAML values (through \
                     aliases such as `*name`); write the values out instead"
                ),
            ),
            LoadError::Repetition => (
                self.at(0, 1),
                "the frontmatter repeats YAML aliases (`*name`) too often to be read; write the \
                 values out instead"
                    .to_owned(),
            ),
        };
        self.error(Rule::YamlSyntax, pos, message);
    }

    fn report_colon(&mut self, fix: &ColonFix) {
        let example = format!("{}: {}", fix.key, quote_yaml(&excerpt(&fix.value, 60)));
        if self.lenient() {
            let message = format!(
                "the value of {:?} holds \": \", which strict YAML rejects; it was read as text, \
                 quote it to be portable: {example}",
                fix.key
            );
            let pos = self.at(fix.line, fix.value_column);
            self.push(Severity::Warning, Rule::UnquotedColon, pos, message);
        } else {
            let message = format!(
                "invalid YAML: the value of {:?} holds \": \", which YAML reads as a new key; \
                 put the value in quotes: {example}",
                fix.key
            );
            let pos = self.at(fix.error_line, fix.error_column);
            self.error(Rule::YamlSyntax, pos, message);
        }
    }

    /// Reports the `nth` (1-based) repetition of a key, placed at that occurrence when found.
    fn report_duplicate(&mut self, duplicate: &Duplicate, nth: usize) {
        let occurrences: Vec<KeyEntry> = match duplicate.parents.as_slice() {
            [] => self.keys.clone(),
            [parent] => self.children_of(parent),
            _ => Vec::new(),
        };
        let mut same = occurrences
            .into_iter()
            .filter(|entry| entry.key == duplicate.key);
        let first = same.next();
        let (pos, first_line) = match (same.nth(nth - 1), &first) {
            (Some(second), Some(first)) => (
                self.at(second.line, second.column),
                Some(self.first_line + first.line),
            ),
            _ => (self.at(0, 1), None),
        };
        let place = match duplicate.parents.as_slice() {
            [] => String::new(),
            parents => format!(" in {:?}", parents.join(".")),
        };
        let message = match first_line {
            Some(line) => format!(
                "key {:?}{place} appears more than once (first on line {line}); write each key once",
                duplicate.key
            ),
            None => format!(
                "key {:?}{place} appears more than once; write each key once",
                duplicate.key
            ),
        };
        self.error(Rule::YamlDuplicateKey, pos, message);
    }
}

/// Rewrites every `line N` in a YAML error message from frontmatter lines to file lines.
fn relocate(message: &str, offset: usize) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("line ") {
        let (before, after) = rest.split_at(at + "line ".len());
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        match after[..digits].parse::<usize>() {
            Ok(line) => out.push_str(&(line + offset).to_string()),
            Err(_) => out.push_str(&after[..digits]),
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out.replace('\n', " ")
}

// ---------------------------------------------------------------------------------------------
// Loading YAML with a budget and duplicate detection.
// ---------------------------------------------------------------------------------------------

/// A parsed frontmatter and the duplicate keys met on the way (the first value of each is kept).
#[derive(Debug)]
struct Loaded {
    value: Value,
    duplicates: Vec<Duplicate>,
}

/// A key written twice in one mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Duplicate {
    key: String,
    /// The keys of the mappings that hold it, outermost first (empty at the top level).
    parents: Vec<String>,
}

/// Why the YAML could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LoadError {
    /// The parser's message, and its 1-based line and column in the frontmatter.
    Syntax {
        message: String,
        location: Option<(usize, usize)>,
    },
    /// Aliases expand to more than [`MAX_YAML_VALUES`] values.
    TooManyValues,
    /// The YAML library's own alias repetition limit.
    Repetition,
}

/// Parses YAML text into a [`Value`], counting values and recording duplicate keys.
fn load(yaml: &str, other_breaks: bool) -> Result<Loaded, LoadError> {
    let mut state = LoadState {
        remaining: MAX_YAML_VALUES,
        ..LoadState::default()
    };
    let result =
        ValueSeed { state: &mut state }.deserialize(serde_yaml::Deserializer::from_str(yaml));
    match result {
        Ok(value) => Ok(Loaded {
            value,
            duplicates: state.duplicates,
        }),
        Err(_) if state.over_budget => Err(LoadError::TooManyValues),
        Err(error) => Err(classify(&error, yaml, other_breaks)),
    }
}

/// Sorts a YAML library error. Its kinds are private, so the repetition limit is recognised by
/// its message. When `yaml` holds line breaks other than `\n`, positions, in the location and
/// in the message, are moved from the parser's lines to the lines of `yaml` (see
/// [`text_position`]).
fn classify(error: &serde_yaml::Error, yaml: &str, other_breaks: bool) -> LoadError {
    let message = error.to_string();
    if message.contains("repetition limit exceeded") {
        return LoadError::Repetition;
    }
    let location = error.location().map(|l| (l.line(), l.column()));
    if !other_breaks {
        return LoadError::Syntax { message, location };
    }
    let location = location.map(|(line, column)| text_position(yaml, line, column));
    let message = relocate_pairs(&message, yaml);
    LoadError::Syntax { message, location }
}

/// Whether `yaml` holds a line break other than `\n`, so that the parser's lines are not ours.
fn has_other_breaks(yaml: &str) -> bool {
    ['\r', '\u{85}', '\u{2028}', '\u{2029}']
        .into_iter()
        .any(|c| yaml.contains(c))
}

/// Whether the YAML parser (libyaml) ends a line at `c`: besides `\n` and `\r` (and `\r\n` as
/// one), it counts NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
fn is_yaml_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// The 1-based line and column in `yaml`, whose lines end at `\n` only (as the splitter, the
/// chunk finder and the diagnostics count them), of the parser's 1-based `line` and `column`.
///
/// Found by fuzzing: a lone `\r` is a line break to the parser but not to the rest of the
/// validator, so a frontmatter of 8 lines holding 50 lone `\r`s had its syntax error reported on
/// line 58, outside the file.
fn text_position(yaml: &str, line: usize, column: usize) -> (usize, usize) {
    let mut at = 0;
    let mut parser_line = 1;
    let mut chars = yaml.char_indices().peekable();
    while parser_line < line {
        let Some((i, c)) = chars.next() else { break };
        if !is_yaml_break(c) {
            continue;
        }
        at = i + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n') {
            chars.next();
            at += 1;
        }
        parser_line += 1;
    }
    let rest = &yaml[at..];
    let pos = at
        + rest
            .char_indices()
            .take_while(|&(_, c)| !is_yaml_break(c))
            .nth(column.saturating_sub(1))
            .map_or_else(
                || rest.find(is_yaml_break).unwrap_or(rest.len()),
                |(i, _)| i,
            );
    let before = &yaml[..pos];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// Rewrites every `line N column M` of a parser message with [`text_position`].
fn relocate_pairs(message: &str, yaml: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("line ") {
        let (before, after) = rest.split_at(at);
        out.push_str(before);
        fn number(s: &str) -> Option<(usize, &str)> {
            let digits = s.bytes().take_while(u8::is_ascii_digit).count();
            s[..digits].parse::<usize>().ok().map(|n| (n, &s[digits..]))
        }
        let pair = number(&after["line ".len()..]).and_then(|(line, tail)| {
            let tail = tail.strip_prefix(" column ")?;
            number(tail).map(|(column, tail)| (line, column, tail))
        });
        match pair {
            Some((line, column, tail)) => {
                let (line, column) = text_position(yaml, line, column);
                out.push_str(&format!("line {line} column {column}"));
                rest = tail;
            }
            None => {
                out.push_str("line ");
                rest = &after["line ".len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// What [`ValueSeed`] tracks while it builds a value.
#[derive(Debug, Default)]
struct LoadState {
    /// How many more values may be built.
    remaining: usize,
    /// Set when the budget ran out, to tell that failure from a syntax error.
    over_budget: bool,
    duplicates: Vec<Duplicate>,
    /// The keys of the mappings being read, outermost first.
    path: Vec<String>,
}

impl LoadState {
    /// Counts one value; fails once the budget is spent.
    fn spend<E: de::Error>(&mut self) -> Result<(), E> {
        match self.remaining.checked_sub(1) {
            Some(remaining) => {
                self.remaining = remaining;
                Ok(())
            }
            None => {
                self.over_budget = true;
                Err(E::custom("too many YAML values"))
            }
        }
    }
}

/// Builds a [`Value`] like `serde_yaml`'s own `Deserialize`, but counts every value against a
/// budget (aliases included), keeps going past duplicate keys so all of them can be reported,
/// reads integers too large for 64 bits as text and drops YAML tags.
struct ValueSeed<'s> {
    state: &'s mut LoadState,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> de::Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::String(v.to_string()))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::String(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.state.spend()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.state.spend()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ValueSeed {
            state: &mut *self.state,
        })? {
            items.push(item);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.state.spend()?;
        let mut mapping = Mapping::new();
        while let Some(key) = map.next_key_seed(ValueSeed {
            state: &mut *self.state,
        })? {
            self.state.path.push(key_text(&key));
            let value = map.next_value_seed(ValueSeed {
                state: &mut *self.state,
            });
            let name = self.state.path.pop().unwrap_or_default();
            let value = value?;
            if mapping.contains_key(&key) {
                let parents = self.state.path.clone();
                self.state.duplicates.push(Duplicate { key: name, parents });
            } else {
                mapping.insert(key, value);
            }
        }
        Ok(Value::Mapping(mapping))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        // A tagged value (`!tag value`): the tag means nothing to a SKILL.md, keep the value.
        let (_tag, variant): (de::IgnoredAny, _) = data.variant()?;
        variant.newtype_variant_seed(self)
    }
}

// ---------------------------------------------------------------------------------------------
// Finding keys in the frontmatter text.
// ---------------------------------------------------------------------------------------------

/// A `key: value` line of the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
struct KeyEntry {
    key: String,
    /// 0-based line in the frontmatter.
    line: usize,
    /// 1-based column of the key.
    column: usize,
    /// The text after the colon, without a trailing comment.
    raw: String,
}

/// A line parsed as `key: value`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct KeyLine<'a> {
    indent: usize,
    /// The key as written, quotes included.
    raw_key: &'a str,
    /// The key's text.
    key: String,
    /// The value after the colon, trimmed, without a trailing comment.
    value: &'a str,
    /// 1-based column (in characters) where the value starts.
    value_column: usize,
}

/// The keys of the top-level mapping written in block style.
fn top_level_keys(lines: &[String]) -> Vec<KeyEntry> {
    block_keys(lines, 0, None)
}

/// The keys of the block mapping that starts at line `from` and is indented more than
/// `parent_indent` (any indentation for the top level). Flow-style mappings have none.
fn block_keys(lines: &[String], from: usize, parent_indent: Option<usize>) -> Vec<KeyEntry> {
    let mut entries = Vec::new();
    let mut block_indent = None;
    for (index, line) in lines.iter().enumerate().skip(from) {
        if is_blank_or_comment(line) {
            continue;
        }
        let indent = indent_of(line);
        if parent_indent.is_some_and(|parent| indent <= parent) {
            break;
        }
        let block_indent = *block_indent.get_or_insert(indent);
        if indent < block_indent {
            break;
        }
        if indent > block_indent {
            continue;
        }
        if let Some(key_line) = parse_key_line(line) {
            let raw = key_line.value.to_owned();
            entries.push(KeyEntry {
                key: key_line.key,
                line: index,
                column: indent + 1,
                raw,
            });
        }
    }
    entries
}

fn is_blank_or_comment(line: &str) -> bool {
    let content = line.trim();
    content.is_empty() || content.starts_with('#')
}

/// Leading spaces (YAML indents with spaces only).
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Reads `key: value` (the key plain or quoted), or `None` when the line is something else.
fn parse_key_line(line: &str) -> Option<KeyLine<'_>> {
    let line = line.trim_end();
    let indent = indent_of(line);
    let rest = line.get(indent..)?;
    let (key, key_len) = read_key(rest)?;
    let after_key = rest.get(key_len..)?;
    let after_colon = after_key.strip_prefix(':')?;
    if !(after_colon.is_empty() || after_colon.starts_with([' ', '\t'])) {
        return None;
    }
    let value = strip_comment(after_colon.trim_start());
    let value_start = line.len() - after_colon.trim_start().len();
    let value_column = line
        .get(..value_start)
        .map_or(1, |before| before.chars().count() + 1);
    Some(KeyLine {
        indent,
        raw_key: rest.get(..key_len)?,
        key,
        value,
        value_column,
    })
}

/// The key at the start of `rest` and its length in bytes (quotes included).
fn read_key(rest: &str) -> Option<(String, usize)> {
    match rest.chars().next()? {
        '"' => read_double_quoted(rest),
        '\'' => read_single_quoted(rest),
        '#' | '[' | '{' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`' | '?' => None,
        '-' if rest.len() == 1 || rest[1..].starts_with([' ', '\t']) => None,
        _ => {
            let colon = find_separator(rest)?;
            let key = rest[..colon].trim_end();
            (!key.is_empty() && !key.contains(" #")).then(|| (key.to_owned(), key.len()))
        }
    }
}

/// The first `:` followed by whitespace or the end of the line.
fn find_separator(text: &str) -> Option<usize> {
    text.match_indices(':')
        .map(|(at, _)| at)
        .find(|&at| text[at + 1..].is_empty() || text[at + 1..].starts_with([' ', '\t']))
}

fn read_double_quoted(rest: &str) -> Option<(String, usize)> {
    let mut key = String::new();
    let mut chars = rest.char_indices().skip(1);
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return Some((key, at + 1)),
            '\\' => key.push(chars.next()?.1),
            _ => key.push(c),
        }
    }
    None
}

fn read_single_quoted(rest: &str) -> Option<(String, usize)> {
    let mut key = String::new();
    let mut chars = rest.char_indices().skip(1).peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\'' {
            key.push(c);
        } else if chars.next_if(|&(_, next)| next == '\'').is_some() {
            key.push('\'');
        } else {
            return Some((key, at + 1));
        }
    }
    None
}

/// `value` without a trailing ` # comment`.
fn strip_comment(value: &str) -> &str {
    if value.starts_with('#') {
        return "";
    }
    let end = value
        .match_indices('#')
        .map(|(at, _)| at)
        .find(|&at| value[..at].ends_with([' ', '\t']))
        .unwrap_or(value.len());
    value[..end].trim_end()
}

// ---------------------------------------------------------------------------------------------
// The unquoted-colon pitfall: `description: Use when: the user asks`.
// ---------------------------------------------------------------------------------------------

/// A plain value that YAML rejected because it holds `: `, and how to rewrite it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ColonFix {
    /// 0-based frontmatter line of the key.
    line: usize,
    /// One past the last line of the value (plain values may continue on indented lines).
    end: usize,
    indent: usize,
    raw_key: String,
    key: String,
    /// The value's text, folded as YAML folds a plain scalar.
    value: String,
    /// 1-based column where the value starts.
    value_column: usize,
    /// Where the parser failed: 0-based frontmatter line, 1-based column.
    error_line: usize,
    error_column: usize,
}

impl ColonFix {
    /// Replaces the value with a double-quoted string; continuation lines become blank so every
    /// line keeps its number.
    fn apply(&self, lines: &mut [String]) {
        let quoted = quote_yaml(&self.value);
        if let Some(line) = lines.get_mut(self.line) {
            *line = format!("{}{}: {quoted}", " ".repeat(self.indent), self.raw_key);
        }
        for line in lines.iter_mut().take(self.end).skip(self.line + 1) {
            line.clear();
        }
    }
}

/// Recognises the unquoted-colon pitfall from a parser error.
fn find_unquoted_colon(lines: &[String], error: &LoadError) -> Option<ColonFix> {
    let LoadError::Syntax {
        message,
        location: Some((line, column)),
    } = error
    else {
        return None;
    };
    if !message.starts_with("mapping values are not allowed") {
        return None;
    }
    let error_line = line.checked_sub(1)?;
    let start = plain_value_start(lines, error_line, *column)?;
    let key_line = parse_key_line(lines.get(start)?)?;
    if !is_plain(key_line.value) {
        return None;
    }
    let end = plain_value_end(lines, start, key_line.indent);
    let value = fold_plain(
        key_line.value,
        lines.get(start + 1..end).unwrap_or_default(),
    );
    Some(ColonFix {
        line: start,
        end,
        indent: key_line.indent,
        raw_key: key_line.raw_key.to_owned(),
        key: key_line.key,
        value,
        value_column: key_line.value_column,
        error_line,
        error_column: *column,
    })
}

/// The line of the key whose plain value holds the colon at (`line`, `column`): that line when
/// the colon comes after its own value starts, else the nearest less-indented line above (the
/// value began there and continues on `line`).
fn plain_value_start(lines: &[String], line: usize, column: usize) -> Option<usize> {
    let text = lines.get(line)?;
    if parse_key_line(text).is_some_and(|key_line| key_line.value_column <= column) {
        return Some(line);
    }
    let indent = indent_of(text);
    (0..line).rev().find(|&above| {
        lines
            .get(above)
            .is_some_and(|text| !is_blank_or_comment(text) && indent_of(text) < indent)
    })
}

/// One past the last line of a plain value starting at `start`: following lines indented more
/// than the key continue it; trailing blank lines do not belong to it.
fn plain_value_end(lines: &[String], start: usize, indent: usize) -> usize {
    let mut end = start + 1;
    for (index, line) in lines.iter().enumerate().skip(start + 1) {
        if line.trim().is_empty() {
            continue;
        }
        if indent_of(line) <= indent || line.trim_start().starts_with('#') {
            break;
        }
        end = index + 1;
    }
    end
}

/// Whether a value is written as a plain scalar (not quoted, not a block or flow collection).
fn is_plain(value: &str) -> bool {
    !value.is_empty()
        && !value.starts_with([
            '"', '\'', '[', '{', '|', '>', '&', '*', '!', '%', '@', '`', '#',
        ])
}

/// Joins the lines of a plain scalar as YAML does: a line break is a space, a blank line is a
/// newline.
fn fold_plain(first: &str, continuation: &[String]) -> String {
    let mut text = first.to_owned();
    let mut blank_lines = 0;
    for line in continuation {
        let line = strip_comment(line.trim());
        if line.is_empty() {
            blank_lines += 1;
            continue;
        }
        if blank_lines == 0 {
            text.push(' ');
        }
        text.extend(std::iter::repeat_n('\n', blank_lines));
        text.push_str(line);
        blank_lines = 0;
    }
    text
}

/// `text` as a YAML double-quoted scalar.
fn quote_yaml(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// At most `max` characters of `text`, with `…` when cut.
fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// Field checks.
// ---------------------------------------------------------------------------------------------

impl Checker<'_> {
    /// Checks every field, filling in what can be read.
    fn check_fields(&mut self, mapping: &Mapping, dir_name: Option<&str>) -> Manifest {
        let mut manifest = Manifest::default();
        self.check_unknown_fields(mapping, &mut manifest);
        manifest.name = self.check_name(mapping.get("name"), dir_name);
        manifest.description = self.check_description(mapping.get("description"));
        manifest.compatibility = self.check_compatibility(mapping.get("compatibility"));
        manifest.license = self.check_license(mapping.get("license"));
        manifest.metadata = self.check_metadata(mapping.get("metadata"));
        manifest.allowed_tools = self.check_allowed_tools(mapping.get("allowed-tools"));
        manifest.invocation = self.read_invocation(mapping, &manifest.metadata);
        manifest
    }

    /// How this file reads the fields of `dialect`.
    fn reading(&self, dialect: Dialect) -> Reading {
        Reading::of(dialect, self.profile, self.dialects)
    }

    /// A client field of `dialect` that is not of the type `expect`: an error when the dialect
    /// is opted in to, a warning when the lenient profile honours it. Null reads as absent.
    fn check_client_type(&mut self, key: &str, value: &Value, expect: Expect, dialect: Dialect) {
        if value.is_null() || expect.accepts(value) {
            return;
        }
        let message = format!(
            "field {key:?} ({}) must be {}, not {}",
            dialect.client(),
            expect.describe(),
            kind(value)
        );
        let severity = self.reading(dialect).type_severity();
        self.push(severity, Rule::ClientFieldType, self.key_pos(key), message);
    }

    /// A client field's portability warning under the lenient profile.
    fn warn_client_field(&mut self, what: String, dialect: Dialect, pos: Pos) {
        let article = if dialect.client().starts_with(['A', 'E', 'I', 'O', 'U']) {
            "an"
        } else {
            "a"
        };
        let message = format!(
            "{what} is {article} {} field, not part of the Agent Skills specification: it is \
             honoured here, other clients ignore it; opt in to the {} dialect to accept it \
             without this warning",
            dialect.client(),
            dialect.as_str()
        );
        self.push(Severity::Warning, Rule::UnknownField, pos, message);
    }

    /// The invocation policy from Claude Code's fields and OpenCode's metadata key, as far as
    /// the profile and the dialects read them (types were checked with the unknown fields).
    fn read_invocation(
        &mut self,
        mapping: &Mapping,
        metadata: &[(String, String)],
    ) -> InvocationFields {
        let mut policy = InvocationFields::default();
        if self.reading(Dialect::ClaudeCode) != Reading::Ignored {
            let get = |key: &str| mapping.get(key).map(untag);
            if let Some(Value::Bool(true)) = get("disable-model-invocation") {
                policy.model_may_invoke = false;
            }
            if let Some(Value::Bool(false)) = get("user-invocable") {
                policy.user_may_invoke = false;
            }
            policy.argument_hint = match get("argument-hint") {
                // `argument-hint: [file]` is YAML for a list: what the author meant is the text.
                Some(Value::Sequence(items)) => {
                    let words: Vec<String> = items
                        .iter()
                        .filter_map(|item| scalar_text(item, None))
                        .map(|item| format!("[{}]", item.trim()))
                        .collect();
                    Some(words.join(" "))
                }
                Some(value) => scalar_text(value, self.raw_value("argument-hint").as_deref())
                    .map(|text| text.trim().to_owned()),
                None => None,
            }
            .filter(|hint| !hint.is_empty() && !hint.chars().any(char::is_control));
            policy.arguments = match get("arguments") {
                Some(Value::Sequence(items)) => items
                    .iter()
                    .filter_map(|item| scalar_text(item, None))
                    .flat_map(|item| argument_words(&item))
                    .collect(),
                Some(value) => scalar_text(value, None)
                    .map(|text| argument_words(&text))
                    .unwrap_or_default(),
                None => Vec::new(),
            };
        }
        let opencode = self.reading(Dialect::OpenCode);
        let autoinvoke = metadata
            .iter()
            .find(|(key, _)| key == dialect::OPENCODE_AUTOINVOKE);
        if let (true, Some((key, value))) = (opencode != Reading::Ignored, autoinvoke) {
            let pos = self
                .children_of("metadata")
                .iter()
                .find(|entry| entry.key == *key)
                .map_or_else(|| self.key_pos("metadata"), |e| self.at(e.line, e.column));
            match value.trim() {
                "false" | "true" => {
                    if value.trim() == "false" {
                        policy.model_may_invoke = false;
                    }
                    if opencode == Reading::Warned {
                        let what = format!("metadata {key:?}");
                        self.warn_client_field(what, Dialect::OpenCode, pos);
                    }
                }
                other => {
                    let message = format!(
                        "metadata {key:?} (OpenCode) must be \"true\" or \"false\", not {:?}",
                        excerpt(other, 40)
                    );
                    let severity = opencode.type_severity();
                    self.push(severity, Rule::ClientFieldType, pos, message);
                }
            }
        }
        policy
    }

    fn check_unknown_fields(&mut self, mapping: &Mapping, manifest: &mut Manifest) {
        for (key, value) in mapping {
            let key = key_text(key);
            if ALLOWED_FIELDS.contains(&key.as_str()) {
                continue;
            }
            if let Some((expect, invocation)) = dialect::claude_code_field(&key) {
                let reading = self.reading(Dialect::ClaudeCode);
                // Opted in: a known field. Lenient: the invocation fields are honoured, with a
                // warning; the other client fields stay unknown fields (kept, warned).
                if reading == Reading::Known || (reading == Reading::Warned && invocation) {
                    if reading == Reading::Warned {
                        let what = format!("field {key:?}");
                        self.warn_client_field(what, Dialect::ClaudeCode, self.key_pos(&key));
                    }
                    self.check_client_type(&key, value, expect, Dialect::ClaudeCode);
                    manifest.extra.insert(key, to_json(value));
                    continue;
                }
            }
            let hint = closest_field(&key)
                .map(|field| format!(" (did you mean {field:?}?)"))
                .unwrap_or_default();
            let message = format!(
                "unknown field {key:?}{hint}; the allowed fields are {}",
                ALLOWED_FIELDS.join(", ")
            );
            self.strict_error(Rule::UnknownField, self.key_pos(&key), message);
            if self.lenient() {
                manifest.extra.insert(key, to_json(value));
            }
        }
    }

    fn check_name(&mut self, value: Option<&Value>, dir_name: Option<&str>) -> String {
        let pos = self.key_pos("name");
        // A folder name with a control character would break the one-line message.
        let hint = dir_name
            .filter(|dir| !dir.is_empty() && !dir.chars().any(char::is_control))
            .map(|dir| format!(": add `name: {dir}`"))
            .unwrap_or_default();
        let Some(text) =
            self.required_text("name", value, Rule::NameMissing, Rule::NameType, &hint)
        else {
            return String::new();
        };
        let name: String = text.trim().nfkc().collect();
        if name.is_empty() {
            self.error(Rule::NameMissing, pos, format!("name is empty{hint}"));
            return name;
        }
        self.check_name_text(&name, pos);
        if let Some(dir) = dir_name {
            let dir: String = dir.nfkc().collect();
            if dir != name {
                let message = format!("name {name:?} must match the folder name {dir:?}");
                self.strict_error(Rule::NameDirMismatch, pos, message);
            }
        }
        name
    }

    /// The rules on the name's own text (length, case, hyphens, characters).
    fn check_name_text(&mut self, name: &str, pos: Pos) {
        let length = name.chars().count();
        if length > MAX_NAME_CHARS {
            let message = format!("name is {length} characters; the limit is {MAX_NAME_CHARS}");
            self.strict_error(Rule::NameTooLong, pos, message);
        }
        let lower = name.to_lowercase();
        if lower != name {
            self.error(
                Rule::NameCase,
                pos,
                format!("name {name:?} must be lowercase: use {lower:?}"),
            );
        }
        if name.starts_with('-') || name.ends_with('-') {
            let message = format!("name {name:?} must not start or end with a hyphen");
            self.error(Rule::NameHyphenEdge, pos, message);
        }
        if name.contains("--") {
            let message = format!("name {name:?} must not contain consecutive hyphens (\"--\")");
            self.error(Rule::NameDoubleHyphen, pos, message);
        }
        let invalid: BTreeSet<char> = name
            .chars()
            .filter(|&c| !(c.is_alphanumeric() || c == '-'))
            .collect();
        if !invalid.is_empty() {
            let listed: Vec<String> = invalid.iter().map(|c| format!("{c:?}")).collect();
            let message = format!(
                "name {name:?} contains {}: only lowercase letters, digits and hyphens are allowed",
                listed.join(", ")
            );
            self.error(Rule::NameChars, pos, message);
        }
    }

    fn check_description(&mut self, value: Option<&Value>) -> String {
        let pos = self.key_pos("description");
        let hint = ": say what the skill does and when to use it";
        let Some(text) = self.required_text(
            "description",
            value,
            Rule::DescriptionMissing,
            Rule::DescriptionType,
            hint,
        ) else {
            return String::new();
        };
        if text.trim().is_empty() {
            self.error(
                Rule::DescriptionMissing,
                pos,
                format!("description is blank{hint}"),
            );
            return String::new();
        }
        let length = text.chars().count();
        if length > MAX_DESCRIPTION_CHARS {
            let message =
                format!("description is {length} characters; the limit is {MAX_DESCRIPTION_CHARS}");
            self.strict_error(Rule::DescriptionTooLong, pos, message);
        }
        text.trim().to_owned()
    }

    /// A required text field: reports `missing` when absent or written empty, `wrong_type` for
    /// a mapping, a list or an explicit null.
    fn required_text(
        &mut self,
        field: &str,
        value: Option<&Value>,
        missing: Rule,
        wrong_type: Rule,
        hint: &str,
    ) -> Option<String> {
        let pos = self.key_pos(field);
        let raw = self.raw_value(field);
        match value {
            None => self.error(missing, self.top(), format!("{field} is required{hint}")),
            Some(Value::Null) if raw.as_deref().is_none_or(str::is_empty) => {
                self.error(missing, pos, format!("{field} is empty{hint}"));
            }
            Some(value) => match scalar_text(value, raw.as_deref()) {
                Some(text) => return Some(text),
                None => {
                    let message = format!("{field} must be a string, not {}", kind(value));
                    self.error(wrong_type, pos, message);
                }
            },
        }
        None
    }

    fn check_license(&mut self, value: Option<&Value>) -> Option<String> {
        let value = value.filter(|value| !value.is_null())?;
        let text = scalar_text(value, self.raw_value("license").as_deref());
        if text.is_none() {
            let message = format!(
                "license must be a string such as an SPDX id or a file name, not {}",
                kind(value)
            );
            self.error(Rule::LicenseType, self.key_pos("license"), message);
        }
        text
    }

    fn check_compatibility(&mut self, value: Option<&Value>) -> Option<String> {
        let value = value?;
        let pos = self.key_pos("compatibility");
        let text = match value {
            Value::Null => String::new(),
            _ => match scalar_text(value, self.raw_value("compatibility").as_deref()) {
                Some(text) => text,
                None => {
                    let message = format!("compatibility must be a string, not {}", kind(value));
                    self.error(Rule::CompatibilityType, pos, message);
                    return None;
                }
            },
        };
        let length = text.chars().count();
        if text.trim().is_empty() {
            let message = format!(
                "compatibility is empty; write 1 to {MAX_COMPATIBILITY_CHARS} characters or leave it out"
            );
            self.error(Rule::CompatibilityLength, pos, message);
        } else if length > MAX_COMPATIBILITY_CHARS {
            let message = format!(
                "compatibility is {length} characters; the limit is {MAX_COMPATIBILITY_CHARS}"
            );
            self.error(Rule::CompatibilityLength, pos, message);
        }
        Some(text)
    }

    fn check_metadata(&mut self, value: Option<&Value>) -> Vec<(String, String)> {
        let mapping = match value {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Mapping(mapping)) => mapping,
            Some(other) => {
                let message = format!(
                    "metadata must be a mapping of keys to text, not {}",
                    kind(other)
                );
                self.error(Rule::MetadataType, self.key_pos("metadata"), message);
                return Vec::new();
            }
        };
        let children = self.children_of("metadata");
        let mut pairs: Vec<(String, String)> = Vec::with_capacity(mapping.len());
        for (key, value) in mapping {
            let text = key_text(key);
            let child = children.iter().find(|entry| entry.key == text);
            let pos = child.map_or_else(
                || self.key_pos("metadata"),
                |entry| self.at(entry.line, entry.column),
            );
            if scalar_text(key, None).is_none() {
                let message = format!("metadata key {text:?} must be text, not {}", kind(key));
                self.strict_error(Rule::MetadataType, pos, message);
            }
            let value =
                self.metadata_value(&text, value, child.map(|entry| entry.raw.as_str()), pos);
            pairs.push((text, value));
        }
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        pairs
    }

    /// A metadata value as text; a nested list or mapping is reported and kept as JSON text.
    fn metadata_value(&mut self, key: &str, value: &Value, raw: Option<&str>, pos: Pos) -> String {
        match value {
            Value::Null => String::new(),
            Value::Sequence(_) | Value::Mapping(_) => {
                let message = format!(
                    "metadata {key:?} must be text, not {}; quote it or flatten it into several keys",
                    kind(value)
                );
                self.strict_error(Rule::MetadataType, pos, message);
                to_json(value).to_string()
            }
            _ => scalar_text(value, raw).unwrap_or_default(),
        }
    }

    /// The keys written in the block of the top-level key `parent`.
    fn children_of(&self, parent: &str) -> Vec<KeyEntry> {
        self.keys
            .iter()
            .find(|entry| entry.key == parent)
            .map(|entry| block_keys(&self.lines, entry.line + 1, Some(entry.column - 1)))
            .unwrap_or_default()
    }

    fn check_allowed_tools(&mut self, value: Option<&Value>) -> Vec<String> {
        let pos = self.key_pos("allowed-tools");
        let Some(value) = value.filter(|value| !value.is_null()) else {
            return Vec::new();
        };
        if let Value::Sequence(items) = value {
            return self.allowed_tools_list(items, pos);
        }
        match scalar_text(value, self.raw_value("allowed-tools").as_deref()) {
            Some(text) => split_tools(&text),
            None => {
                let message = format!(
                    "allowed-tools must be a space-separated string or a list of strings, not {}",
                    kind(value)
                );
                self.error(Rule::AllowedToolsType, pos, message);
                Vec::new()
            }
        }
    }

    fn allowed_tools_list(&mut self, items: &[Value], pos: Pos) -> Vec<String> {
        let mut tools = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match scalar_text(item, None) {
                Some(text) if !text.trim().is_empty() => tools.push(text.trim().to_owned()),
                Some(_) => {}
                None => {
                    let message = format!(
                        "allowed-tools item {} must be a string such as `Read`, not {}",
                        index + 1,
                        kind(item)
                    );
                    self.error(Rule::AllowedToolsType, pos, message);
                }
            }
        }
        tools
    }
}

/// Splits a space-separated `allowed-tools` string into tools. A space inside parentheses
/// belongs to the tool's pattern (`Bash(git diff:*)` is one tool, as clients read it), so only
/// spaces outside them separate tools; an unbalanced `)` is kept as text.
fn split_tools(text: &str) -> Vec<String> {
    let mut tools = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && depth == 0 => {
                if !current.is_empty() {
                    tools.push(std::mem::take(&mut current));
                }
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.is_empty() {
        tools.push(current);
    }
    tools
}

/// The names in an `arguments` value: separated by spaces or commas.
fn argument_words(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A value without its YAML tag.
fn untag(value: &Value) -> &Value {
    match value {
        Value::Tagged(tagged) => untag(&tagged.value),
        other => other,
    }
}

/// The allowed field closest to an unknown one, when it is probably a typo.
fn closest_field(key: &str) -> Option<&'static str> {
    let lower = key.to_lowercase().replace('_', "-");
    ALLOWED_FIELDS
        .iter()
        .map(|field| (strsim::levenshtein(&lower, field), *field))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, field)| field)
}

// ---------------------------------------------------------------------------------------------
// Value helpers.
// ---------------------------------------------------------------------------------------------

/// A scalar as text: strings as they are, numbers and booleans as written (`raw`, the source
/// text, when it is a plain scalar) or else as YAML prints them. `None` for null, lists and
/// mappings.
fn scalar_text(value: &Value, raw: Option<&str>) -> Option<String> {
    let written = raw.filter(|raw| is_plain(raw)).map(str::to_owned);
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(written.unwrap_or_else(|| number.to_string())),
        Value::Bool(boolean) => Some(written.unwrap_or_else(|| boolean.to_string())),
        Value::Tagged(tagged) => scalar_text(&tagged.value, raw),
        Value::Null | Value::Sequence(_) | Value::Mapping(_) => None,
    }
}

/// A mapping key as text (complex keys as JSON).
fn key_text(key: &Value) -> String {
    match key {
        Value::Null => "null".to_owned(),
        _ => scalar_text(key, None).unwrap_or_else(|| to_json(key).to_string()),
    }
}

/// What a value is, for messages: "a mapping", "a list", "null", ...
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(tagged) => kind(&tagged.value),
    }
}

/// A YAML value as JSON: mapping keys become text, non-finite numbers become their YAML text.
fn to_json(value: &Value) -> serde_json::Value {
    use serde_json::Value as Json;
    match value {
        Value::Null => Json::Null,
        Value::Bool(boolean) => Json::Bool(*boolean),
        Value::Number(number) => number_to_json(number),
        Value::String(text) => Json::String(text.clone()),
        Value::Sequence(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Mapping(mapping) => Json::Object(
            mapping
                .iter()
                .map(|(key, value)| (key_text(key), to_json(value)))
                .collect(),
        ),
        Value::Tagged(tagged) => to_json(&tagged.value),
    }
}

fn number_to_json(number: &serde_yaml::Number) -> serde_json::Value {
    if let Some(int) = number.as_i64() {
        return int.into();
    }
    if let Some(int) = number.as_u64() {
        return int.into();
    }
    number
        .as_f64()
        .and_then(serde_json::Number::from_f64)
        .map_or_else(
            || serde_json::Value::String(number.to_string()),
            serde_json::Value::Number,
        )
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    const FILE: &str = "skill/SKILL.md";

    fn parse(
        text: &str,
        dir: Option<&str>,
        profile: Profile,
    ) -> (Option<Manifest>, Vec<Diagnostic>) {
        parse_manifest(text, Path::new(FILE), dir, profile)
    }

    fn strict(text: &str) -> (Option<Manifest>, Vec<Diagnostic>) {
        parse(text, None, Profile::Strict)
    }

    fn lenient(text: &str) -> (Option<Manifest>, Vec<Diagnostic>) {
        parse(text, None, Profile::Lenient)
    }

    /// A frontmatter with a valid name and description followed by `extra` lines.
    fn with(extra: &str) -> String {
        format!("---\nname: my-skill\ndescription: Does things.\n{extra}---\nBody\n")
    }

    /// (rule id, severity, line, column) of each diagnostic.
    fn found(diagnostics: &[Diagnostic]) -> Vec<(&'static str, Severity, usize, usize)> {
        diagnostics
            .iter()
            .map(|d| (d.rule.id(), d.severity, d.line, d.column))
            .collect()
    }

    fn single(diagnostics: &[Diagnostic]) -> &Diagnostic {
        assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
        &diagnostics[0]
    }

    const E: Severity = Severity::Error;
    const W: Severity = Severity::Warning;

    // --- a valid file ---------------------------------------------------------------------

    #[test]
    fn reads_every_field() {
        let text = "---\nname: pdf-tools\ndescription: Fill PDF forms. Use when asked.\nlicense: Apache-2.0\n\
                    compatibility: Needs python3\nmetadata:\n  version: 1.10\n  author: Ann\nallowed-tools: \
                    Bash(git:*)  Read\n---\n\n# PDF\n";
        let (manifest, diagnostics) = parse(text, Some("pdf-tools"), Profile::Strict);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        let manifest = manifest.unwrap();
        assert_eq!(manifest.name, "pdf-tools");
        assert_eq!(manifest.description, "Fill PDF forms. Use when asked.");
        assert_eq!(manifest.license.as_deref(), Some("Apache-2.0"));
        assert_eq!(manifest.compatibility.as_deref(), Some("Needs python3"));
        let metadata = vec![
            ("author".to_owned(), "Ann".to_owned()),
            ("version".to_owned(), "1.10".to_owned()),
        ];
        assert_eq!(manifest.metadata, metadata);
        assert_eq!(manifest.allowed_tools, ["Bash(git:*)", "Read"]);
        assert!(manifest.extra.is_empty());
        assert_eq!(
            split_tools("Bash(git diff:*)  Read\tWrite(src/a b.rs) Bash(("),
            ["Bash(git diff:*)", "Read", "Write(src/a b.rs)", "Bash(("]
        );
        assert_eq!(split_tools("a) b"), ["a)", "b"]);
        assert_eq!(&text[manifest.body_start..], "# PDF\n");
    }

    #[test]
    fn allowed_tools_as_a_list() {
        let (manifest, diagnostics) = strict(&with(
            "allowed-tools:\n  - Read\n  - Bash(git diff:*)\n  - 7\n",
        ));
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(
            manifest.unwrap().allowed_tools,
            ["Read", "Bash(git diff:*)", "7"]
        );
    }

    #[test]
    fn flow_style_is_accepted() {
        let text =
            "---\n{name: my-skill, description: Does things, allowed-tools: [Read, Write]}\n---\n";
        let (manifest, diagnostics) = strict(text);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(manifest.unwrap().allowed_tools, ["Read", "Write"]);
    }

    #[test]
    fn bom_crlf_and_fence_in_body() {
        let text = "\u{FEFF}---\r\nname: My-Skill\r\ndescription: Does things.\r\n---\r\n\r\nBody\r\n---\r\nmore\r\n";
        let (manifest, diagnostics) = strict(text);
        assert_eq!(found(&diagnostics), [("name-case", E, 2, 1)]);
        let manifest = manifest.unwrap();
        assert_eq!(manifest.description, "Does things.");
        assert_eq!(&text[manifest.body_start..], "Body\r\n---\r\nmore\r\n");
    }

    #[test]
    fn dashes_inside_a_value_stay_in_the_frontmatter() {
        let text = "---\nname: my-skill\ndescription: |\n  Before\n  ---\n  After\n---\nBody\n";
        let (manifest, diagnostics) = strict(text);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(manifest.unwrap().description, "Before\n---\nAfter");
    }

    // --- splitting ------------------------------------------------------------------------

    #[test]
    fn split_failures_are_reported_at_line_one() {
        let cases = [
            ("# Title\n", "frontmatter-missing"),
            ("---\nname: a\n", "frontmatter-unclosed"),
            ("---\n \n---\n", "frontmatter-empty"),
        ];
        for (text, rule) in cases {
            for profile in [Profile::Strict, Profile::Lenient] {
                let (manifest, diagnostics) = parse(text, None, profile);
                assert!(manifest.is_none());
                assert_eq!(found(&diagnostics), [(rule, E, 1, 1)], "{text:?}");
            }
        }
        let huge = format!("---\nname: a\ndescription: {}\n---\n", "x".repeat(70_000));
        assert_eq!(
            found(&strict(&huge).1),
            [("frontmatter-too-large", E, 1, 1)]
        );
    }

    // --- YAML errors ----------------------------------------------------------------------

    #[test]
    fn yaml_syntax_errors_use_file_lines() {
        let (manifest, diagnostics) = strict("---\nname: a\ndescription: [b\n---\n");
        assert!(manifest.is_none());
        let diagnostic = single(&diagnostics);
        assert_eq!(
            (diagnostic.rule, diagnostic.line, diagnostic.column),
            (Rule::YamlSyntax, 4, 1)
        );
        assert!(
            diagnostic.message.starts_with("invalid YAML: "),
            "{}",
            diagnostic.message
        );
        assert!(
            diagnostic.message.contains("at line 3 column 14"),
            "{}",
            diagnostic.message
        );
        assert!(!diagnostic.message.contains('\n'));
    }

    #[test]
    fn yaml_syntax_error_after_a_bom_and_crlf() {
        let diagnostics = lenient("\u{FEFF}---\r\nname: a\r\n\tdescription: b\r\n---\r\n").1;
        assert_eq!(found(&diagnostics), [("yaml-syntax", E, 3, 1)]);
    }

    #[test]
    fn duplicate_keys_are_reported_at_the_second_occurrence() {
        for profile in [Profile::Strict, Profile::Lenient] {
            let text = "---\nname: a\ndescription: b\nname: c\nmetadata:\n  k: 1\n  k: 2\n---\n";
            let (manifest, diagnostics) = parse(text, None, profile);
            assert!(manifest.is_none());
            assert_eq!(
                found(&diagnostics),
                [
                    ("yaml-duplicate-key", E, 4, 1),
                    ("yaml-duplicate-key", E, 7, 3)
                ]
            );
            assert!(
                diagnostics[0].message.contains("first on line 2"),
                "{}",
                diagnostics[0].message
            );
            assert!(
                diagnostics[1].message.contains("in \"metadata\""),
                "{}",
                diagnostics[1].message
            );
        }
    }

    #[test]
    fn each_repetition_of_a_key_is_placed_at_its_own_line() {
        let text = "---\nname: a\nname: b\ndescription: d\nname: c\n---\n";
        let diagnostics = strict(text).1;
        let expected = [
            ("yaml-duplicate-key", E, 3, 1),
            ("yaml-duplicate-key", E, 5, 1),
        ];
        assert_eq!(found(&diagnostics), expected);
    }

    #[test]
    fn a_duplicate_in_flow_style_is_still_found() {
        let diagnostics = strict("---\n{name: a, name: b}\n---\n").1;
        assert_eq!(found(&diagnostics), [("yaml-duplicate-key", E, 2, 1)]);
    }

    #[test]
    fn billion_laughs_fails_quickly() {
        let mut yaml = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        for (name, previous) in ["b", "c", "d", "e", "f", "g", "h", "i"]
            .iter()
            .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
        {
            let refs = vec![format!("*{previous}"); 9].join(",");
            yaml.push_str(&format!("{name}: &{name} [{refs}]\n"));
        }
        let started = Instant::now();
        let (manifest, diagnostics) = strict(&format!("---\n{yaml}---\n"));
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(manifest.is_none());
        let diagnostic = single(&diagnostics);
        assert_eq!((diagnostic.rule, diagnostic.line), (Rule::YamlSyntax, 2));
        assert!(
            diagnostic.message.contains("write the values out"),
            "{}",
            diagnostic.message
        );
    }

    #[test]
    fn quadratic_alias_expansion_fails_quickly() {
        // Under the YAML library's own repetition limit, yet 10^8 values once expanded.
        let yaml = format!(
            "a: &a [{}x]\nb: [{}*a]\n",
            "x,".repeat(10_000),
            "*a,".repeat(10_000)
        );
        let started = Instant::now();
        let (manifest, diagnostics) = strict(&format!("---\n{yaml}---\n"));
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(manifest.is_none());
        assert_eq!(found(&diagnostics), [("yaml-syntax", E, 2, 1)]);
        assert!(
            diagnostics[0]
                .message
                .contains("more than 100000 YAML values")
        );
    }

    /// Runs `parse` on another thread and fails after `limit` (the thread is left to finish
    /// on its own), so a slow parser fails the test instead of hanging the suite.
    fn timed(text: String, limit: Duration) -> (Duration, Option<Manifest>, Vec<Diagnostic>) {
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let started = Instant::now();
            let (manifest, diagnostics) = strict(&text);
            let _ = send.send((started.elapsed(), manifest, diagnostics));
        });
        match receive.recv_timeout(limit) {
            Ok(done) => done,
            Err(_) => panic!("not decided within {limit:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_rejected_before_parsing() {
        // Each is under the 64 KiB cap and nests far past the limit: flow brackets, flow
        // mappings, compact block sequences (`- - - x`) and plain indentation.
        let indented: String = (0..250)
            .map(|level| format!("{}a:\n", "  ".repeat(level)))
            .collect();
        let cases = [
            (
                "flow [",
                format!("name: {}{}\n", "[".repeat(32_000), "]".repeat(32_000)),
                2,
                70,
            ),
            (
                "flow {",
                format!("a: {}{}\n", "{".repeat(32_000), "}".repeat(32_000)),
                2,
                67,
            ),
            (
                "block -",
                format!("a:\n  {}x\n", "- ".repeat(32_000)),
                3,
                129,
            ),
            ("indented", indented, 66, 129),
        ];
        for (style, yaml, line, column) in cases {
            assert!(yaml.len() <= frontmatter::MAX_FRONTMATTER_BYTES, "{style}");
            let (elapsed, manifest, diagnostics) =
                timed(format!("---\n{yaml}---\n"), Duration::from_secs(20));
            assert!(
                elapsed < Duration::from_millis(500),
                "{style}: took {elapsed:?}"
            );
            eprintln!("{style}: decided in {elapsed:?}");
            assert!(manifest.is_none(), "{style}");
            let diagnostic = single(&diagnostics);
            assert_eq!(
                (diagnostic.rule.id(), diagnostic.line, diagnostic.column),
                ("frontmatter-too-deep", line, column),
                "{style}: {}",
                diagnostic.message
            );
            assert!(
                diagnostic.message.contains("more than 64 levels"),
                "{style}: {}",
                diagnostic.message
            );
        }
    }

    #[test]
    fn frontmatter_must_be_a_mapping() {
        for yaml in [
            "- a\n- b\n",
            "just text\n",
            "# only a comment\n",
            "~\n",
            "[a, b]\n",
        ] {
            let (manifest, diagnostics) = lenient(&format!("---\n{yaml}---\n"));
            assert!(manifest.is_none());
            assert_eq!(
                found(&diagnostics),
                [("frontmatter-not-mapping", E, 2, 1)],
                "{yaml:?}"
            );
        }
    }

    // --- the unquoted colon -----------------------------------------------------------------

    #[test]
    fn unquoted_colon_is_a_syntax_error_when_strict() {
        let text = "---\nname: my-skill\ndescription: Use when: the user asks\n---\n";
        let (manifest, diagnostics) = strict(text);
        assert!(manifest.is_none());
        let diagnostic = single(&diagnostics);
        assert_eq!(found(&diagnostics), [("yaml-syntax", E, 3, 22)]);
        assert!(
            diagnostic
                .message
                .contains(r#"put the value in quotes: description: "Use when: the user asks""#),
            "{}",
            diagnostic.message
        );
    }

    #[test]
    fn unquoted_colon_is_read_as_text_when_lenient() {
        let text = "---\nname: my-skill\ndescription: Use when: the user asks # note\n---\n";
        let (manifest, diagnostics) = lenient(text);
        assert_eq!(found(&diagnostics), [("unquoted-colon", W, 3, 14)]);
        assert_eq!(manifest.unwrap().description, "Use when: the user asks");
    }

    #[test]
    fn every_unquoted_colon_is_found() {
        let text = "---\r\nname: my-skill\r\ndescription: Use this\r\n  when: asked \"twice\"\r\n\r\n  or: more\r\n\
                    metadata:\r\n  note: a: b\r\n  end: ok:\r\n---\r\n";
        let (manifest, diagnostics) = lenient(text);
        let expected = [
            ("unquoted-colon", W, 3, 14),
            ("unquoted-colon", W, 8, 9),
            ("unquoted-colon", W, 9, 8),
        ];
        assert_eq!(found(&diagnostics), expected);
        let manifest = manifest.unwrap();
        assert_eq!(
            manifest.description,
            "Use this when: asked \"twice\"\nor: more"
        );
        assert_eq!(
            manifest.metadata,
            [
                ("end".to_owned(), "ok:".to_owned()),
                ("note".to_owned(), "a: b".to_owned())
            ]
        );
        let strict = strict(text).1;
        assert_eq!(
            found(&strict),
            [
                ("yaml-syntax", E, 4, 7),
                ("yaml-syntax", E, 8, 10),
                ("yaml-syntax", E, 9, 10)
            ]
        );
    }

    #[test]
    fn a_colon_in_a_quoted_or_block_value_is_fine() {
        let text = "---\nname: my-skill\ndescription: \"Use when: asked\"\nlicense: |\n  See: LICENSE\n---\n";
        assert!(strict(text).1.is_empty());
    }

    #[test]
    fn other_syntax_errors_are_not_taken_for_a_colon() {
        let text = "---\nname: my-skill\ndescription: \"Use\" when: asked\n---\n";
        assert_eq!(single(&lenient(text).1).rule, Rule::YamlSyntax);
        let list = "---\nname: my-skill\ndescription: d\nallowed-tools:\n  - a: b: c\n---\n";
        assert_eq!(single(&lenient(list).1).rule, Rule::YamlSyntax);
    }

    // --- unknown fields ---------------------------------------------------------------------

    #[test]
    fn unknown_fields_are_errors_when_strict() {
        let (manifest, diagnostics) = strict(&with("version: 1.0\nallowed_tools: Read\n"));
        assert_eq!(
            found(&diagnostics),
            [("unknown-field", E, 4, 1), ("unknown-field", E, 5, 1)]
        );
        assert_eq!(
            diagnostics[1].message,
            "unknown field \"allowed_tools\" (did you mean \"allowed-tools\"?); the allowed fields are \
             name, description, license, compatibility, metadata, allowed-tools"
        );
        assert!(manifest.unwrap().extra.is_empty());
    }

    #[test]
    fn unknown_fields_are_kept_when_lenient() {
        let (manifest, diagnostics) =
            lenient(&with("version: 1.0\nuser-invocable: true\ntags: [a, b]\n"));
        assert_eq!(
            found(&diagnostics),
            [
                ("unknown-field", W, 4, 1),
                ("unknown-field", W, 5, 1),
                ("unknown-field", W, 6, 1)
            ]
        );
        let extra = manifest.unwrap().extra;
        assert_eq!(
            serde_json::Value::Object(extra),
            serde_json::json!({"version": 1.0, "user-invocable": true, "tags": ["a", "b"]})
        );
    }

    // --- client dialects -----------------------------------------------------------------

    fn dialects(text: &str, profile: Profile, dialects: Dialects) -> (Manifest, Vec<Diagnostic>) {
        let (manifest, diagnostics) =
            parse_manifest_with(text, Path::new(FILE), None, profile, dialects);
        (manifest.expect("a mapping"), diagnostics)
    }

    const CLAUDE: &str = "disable-model-invocation: true\nuser-invocable: false\n\
                          argument-hint: \"[file] [out]\"\narguments: [file, out]\nmodel: sonnet\n";

    #[test]
    fn claude_code_fields_stay_unknown_when_strict() {
        let (manifest, diagnostics) = dialects(&with(CLAUDE), Profile::Strict, Dialects::NONE);
        assert_eq!(
            found(&diagnostics),
            [4, 5, 6, 7, 8].map(|line| ("unknown-field", E, line, 1))
        );
        // The message is the specification's, as for any unknown field.
        assert_eq!(
            diagnostics[0].message,
            "unknown field \"disable-model-invocation\"; the allowed fields are name, description, \
             license, compatibility, metadata, allowed-tools"
        );
        // Nothing is honoured.
        assert!(manifest.invocation.is_default());
        assert!(manifest.extra.is_empty());
    }

    #[test]
    fn claude_code_fields_are_honoured_with_warnings_when_lenient() {
        let (manifest, diagnostics) = dialects(&with(CLAUDE), Profile::Lenient, Dialects::NONE);
        assert_eq!(
            found(&diagnostics),
            [4, 5, 6, 7, 8].map(|line| ("unknown-field", W, line, 1))
        );
        assert_eq!(
            diagnostics[0].message,
            "field \"disable-model-invocation\" is a Claude Code field, not part of the Agent \
             Skills specification: it is honoured here, other clients ignore it; opt in to the \
             claude-code dialect to accept it without this warning"
        );
        // `model` is not an invocation field: the usual unknown-field warning.
        assert!(
            diagnostics[4]
                .message
                .starts_with("unknown field \"model\"")
        );
        let policy = manifest.invocation;
        assert!(!policy.model_may_invoke && !policy.user_may_invoke);
        assert_eq!(policy.argument_hint.as_deref(), Some("[file] [out]"));
        assert_eq!(policy.arguments, ["file", "out"]);
        assert_eq!(manifest.extra["model"], "sonnet");
    }

    #[test]
    fn claude_code_fields_are_known_when_opted_in() {
        for profile in [Profile::Strict, Profile::Lenient] {
            let (manifest, diagnostics) =
                dialects(&with(CLAUDE), profile, Dialect::ClaudeCode.into());
            assert!(diagnostics.is_empty(), "{profile:?}: {diagnostics:#?}");
            assert!(!manifest.invocation.model_may_invoke);
            assert!(!manifest.invocation.user_may_invoke);
            assert_eq!(manifest.invocation.arguments, ["file", "out"]);
            // Known client fields are kept, never dropped.
            assert_eq!(manifest.extra["model"], "sonnet");
            assert_eq!(
                manifest.extra["arguments"],
                serde_json::json!(["file", "out"])
            );
        }
        // Another dialect opted in does not make Claude Code's fields known.
        let (_, diagnostics) = dialects(&with(CLAUDE), Profile::Strict, Dialect::Codex.into());
        assert_eq!(diagnostics.len(), 5);
    }

    #[test]
    fn claude_code_types_are_checked_with_lines_when_opted_in() {
        let text = with(
            "disable-model-invocation: \"yes\"\nuser-invocable: 1\nargument-hint: {a: b}\n\
             arguments: [[a]]\nhooks: run\npaths: [\"src/**\"]\nwhen_to_use: Use it.\n",
        );
        let (manifest, diagnostics) = dialects(&text, Profile::Strict, Dialect::ClaudeCode.into());
        assert_eq!(
            found(&diagnostics),
            [4, 5, 6, 7, 8].map(|line| ("client-field-type", E, line, 1))
        );
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "field \"disable-model-invocation\" (Claude Code) must be a boolean (true or false), not a string",
                "field \"user-invocable\" (Claude Code) must be a boolean (true or false), not a number",
                "field \"argument-hint\" (Claude Code) must be a string or a list of strings, not a mapping",
                "field \"arguments\" (Claude Code) must be a string or a list of strings, not a list",
                "field \"hooks\" (Claude Code) must be a mapping, not a string",
            ]
        );
        // A wrong value is not honoured.
        assert!(manifest.invocation.model_may_invoke && manifest.invocation.user_may_invoke);
        // Lenient without the opt-in: the same problems are warnings, beside the portability
        // warnings; the other client fields are not checked.
        let (_, diagnostics) = dialects(&text, Profile::Lenient, Dialects::NONE);
        let types: Vec<_> = found(&diagnostics)
            .into_iter()
            .filter(|d| d.0 == "client-field-type")
            .collect();
        assert_eq!(
            types,
            [4, 5, 6, 7].map(|line| ("client-field-type", W, line, 1))
        );
    }

    #[test]
    fn arguments_and_hints_in_every_shape() {
        let read = |extra: &str| {
            dialects(&with(extra), Profile::Strict, Dialect::ClaudeCode.into())
                .0
                .invocation
        };
        assert_eq!(read("arguments: file out\n").arguments, ["file", "out"]);
        assert_eq!(
            read("arguments: \"file, out\"\n").arguments,
            ["file", "out"]
        );
        assert_eq!(
            read("arguments:\n  - file\n  - out\n").arguments,
            ["file", "out"]
        );
        assert!(read("arguments:\n").arguments.is_empty());
        // `argument-hint: [file]` is a YAML list; the author meant the text.
        assert_eq!(
            read("argument-hint: [file, out]\n")
                .argument_hint
                .as_deref(),
            Some("[file] [out]")
        );
        assert_eq!(
            read("argument-hint: 3\n").argument_hint.as_deref(),
            Some("3")
        );
        assert_eq!(read("argument-hint: \"  \"\n").argument_hint, None);
        assert!(read("disable-model-invocation: false\nuser-invocable: true\n").is_default());
    }

    #[test]
    fn opencode_autoinvoke() {
        let text = with("metadata:\n  author: Ann\n  opencode/autoinvoke: \"false\"\n");
        // Strict: valid metadata, not honoured.
        let (manifest, diagnostics) = dialects(&text, Profile::Strict, Dialects::NONE);
        assert!(diagnostics.is_empty() && manifest.invocation.model_may_invoke);
        // Lenient: honoured, with a warning at the key.
        let (manifest, diagnostics) = dialects(&text, Profile::Lenient, Dialects::NONE);
        assert_eq!(found(&diagnostics), [("unknown-field", W, 6, 3)]);
        assert!(
            diagnostics[0]
                .message
                .starts_with("metadata \"opencode/autoinvoke\" is an OpenCode field")
        );
        assert!(!manifest.invocation.model_may_invoke);
        // Opted in: honoured, no warning; a bad value is an error at its line.
        let (manifest, diagnostics) = dialects(&text, Profile::Strict, Dialect::OpenCode.into());
        assert!(diagnostics.is_empty() && !manifest.invocation.model_may_invoke);
        let bad = with("metadata:\n  opencode/autoinvoke: never\n");
        let (manifest, diagnostics) = dialects(&bad, Profile::Strict, Dialect::OpenCode.into());
        assert_eq!(found(&diagnostics), [("client-field-type", E, 5, 3)]);
        assert_eq!(
            diagnostics[0].message,
            "metadata \"opencode/autoinvoke\" (OpenCode) must be \"true\" or \"false\", not \"never\""
        );
        assert!(manifest.invocation.model_may_invoke);
        // A YAML boolean is read as its text.
        let boolean = with("metadata: {opencode/autoinvoke: false}\n");
        let (manifest, diagnostics) = dialects(&boolean, Profile::Strict, Dialect::OpenCode.into());
        assert!(diagnostics.is_empty() && !manifest.invocation.model_may_invoke);
    }

    // --- name -------------------------------------------------------------------------------

    #[test]
    fn name_missing() {
        let text = "---\ndescription: d\n---\n";
        let diagnostics = parse(text, Some("my-skill"), Profile::Strict).1;
        assert_eq!(found(&diagnostics), [("name-missing", E, 1, 1)]);
        assert_eq!(
            diagnostics[0].message,
            "name is required: add `name: my-skill`"
        );
        for yaml in ["name:\n", "name: \"\"\n", "name: '  '\n"] {
            let (manifest, diagnostics) = strict(&format!("---\n{yaml}description: d\n---\n"));
            assert_eq!(found(&diagnostics), [("name-missing", E, 2, 1)], "{yaml:?}");
            assert_eq!(manifest.unwrap().name, "");
        }
    }

    #[test]
    fn name_type() {
        for yaml in [
            "name: [a]\n",
            "name: {a: b}\n",
            "name: null\n",
            "name: ~\n",
            "name:\n  - a\n",
        ] {
            let (manifest, diagnostics) = strict(&format!("---\n{yaml}description: d\n---\n"));
            assert_eq!(found(&diagnostics), [("name-type", E, 2, 1)], "{yaml:?}");
            assert_eq!(manifest.unwrap().name, "");
        }
    }

    #[test]
    fn name_scalars_are_read_as_written() {
        for (yaml, name) in [
            ("123", "123"),
            ("1e3", "1e3"),
            ("true", "true"),
            ("0x1f", "0x1f"),
            ("'x1'", "x1"),
        ] {
            let (manifest, diagnostics) =
                strict(&format!("---\nname: {yaml}\ndescription: d\n---\n"));
            assert!(diagnostics.is_empty(), "{yaml}: {diagnostics:#?}");
            assert_eq!(manifest.unwrap().name, name);
        }
    }

    #[test]
    fn name_too_long() {
        let name = "a".repeat(65);
        let text = format!("---\nname: {name}\ndescription: d\n---\n");
        let diagnostics = strict(&text).1;
        assert_eq!(found(&diagnostics), [("name-too-long", E, 2, 1)]);
        assert_eq!(
            diagnostics[0].message,
            "name is 65 characters; the limit is 64"
        );
        assert_eq!(found(&lenient(&text).1), [("name-too-long", W, 2, 1)]);
        let sixty_four = format!("---\nname: {}\ndescription: d\n---\n", "é".repeat(64));
        assert!(strict(&sixty_four).1.is_empty());
    }

    #[test]
    fn name_rules() {
        let cases = [
            (
                "PDF-Tools",
                "name-case",
                r#"name "PDF-Tools" must be lowercase: use "pdf-tools""#,
            ),
            (
                "НАВЫК",
                "name-case",
                r#"name "НАВЫК" must be lowercase: use "навык""#,
            ),
            (
                "-pdf",
                "name-hyphen-edge",
                r#"name "-pdf" must not start or end with a hyphen"#,
            ),
            (
                "pdf-",
                "name-hyphen-edge",
                r#"name "pdf-" must not start or end with a hyphen"#,
            ),
            (
                "pdf--tools",
                "name-double-hyphen",
                r#"name "pdf--tools" must not contain consecutive hyphens ("--")"#,
            ),
            (
                "pdf_tools.x",
                "name-chars",
                r#"name "pdf_tools.x" contains '.', '_': only lowercase letters, digits and hyphens are allowed"#,
            ),
        ];
        for (name, rule, message) in cases {
            for profile in [Profile::Strict, Profile::Lenient] {
                let text = format!("---\ndescription: d\nname: {name}\n---\n");
                let diagnostics = parse(&text, None, profile).1;
                assert_eq!(found(&diagnostics), [(rule, E, 3, 1)], "{name}");
                assert_eq!(diagnostics[0].message, message);
            }
        }
    }

    #[test]
    fn name_rules_accumulate() {
        let text = "---\nname: -Bad__Name--\ndescription: d\n---\n";
        let diagnostics = parse(text, Some("other"), Profile::Strict).1;
        let expected = [
            ("name-case", E, 2, 1),
            ("name-hyphen-edge", E, 2, 1),
            ("name-double-hyphen", E, 2, 1),
            ("name-chars", E, 2, 1),
            ("name-dir-mismatch", E, 2, 1),
        ];
        assert_eq!(found(&diagnostics), expected);
    }

    #[test]
    fn unicode_names() {
        for name in ["技能", "мой-навык", "навык", "ab12", "café"] {
            let text = format!("---\nname: {name}\ndescription: d\n---\n");
            assert!(
                parse(&text, Some(name), Profile::Strict).1.is_empty(),
                "{name}"
            );
        }
    }

    #[test]
    fn name_and_folder_are_compared_after_nfkc() {
        let text = "---\nname: cafe\u{301}\ndescription: d\n---\n";
        let (manifest, diagnostics) = parse(text, Some("caf\u{e9}"), Profile::Strict);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
        assert_eq!(manifest.unwrap().name, "caf\u{e9}");
        // Compatibility characters fold too: the ligature "ﬁ" is "fi".
        assert!(
            parse(
                "---\nname: \u{FB01}le\ndescription: d\n---\n",
                Some("file"),
                Profile::Strict
            )
            .1
            .is_empty()
        );
    }

    #[test]
    fn name_dir_mismatch() {
        let text = "---\nname: correct-name\ndescription: d\n---\n";
        let diagnostics = parse(text, Some("wrong-name"), Profile::Strict).1;
        assert_eq!(found(&diagnostics), [("name-dir-mismatch", E, 2, 1)]);
        assert_eq!(
            diagnostics[0].message,
            r#"name "correct-name" must match the folder name "wrong-name""#
        );
        assert_eq!(
            found(&parse(text, Some("wrong-name"), Profile::Lenient).1),
            [("name-dir-mismatch", W, 2, 1)]
        );
        assert!(parse(text, None, Profile::Strict).1.is_empty());
    }

    // --- description ------------------------------------------------------------------------

    #[test]
    fn description_missing_or_blank() {
        assert_eq!(
            found(&strict("---\nname: a\n---\n").1),
            [("description-missing", E, 1, 1)]
        );
        for yaml in [
            "description:\n",
            "description: '   '\n",
            "description: \"\"\n",
        ] {
            let diagnostics = lenient(&format!("---\nname: a\n{yaml}---\n")).1;
            assert_eq!(
                found(&diagnostics),
                [("description-missing", E, 3, 1)],
                "{yaml:?}"
            );
        }
    }

    #[test]
    fn description_type() {
        for yaml in [
            "description: [a]\n",
            "description:\n  a: b\n",
            "description: null\n",
        ] {
            let diagnostics = strict(&format!("---\nname: a\n{yaml}---\n")).1;
            assert_eq!(
                found(&diagnostics),
                [("description-type", E, 3, 1)],
                "{yaml:?}"
            );
        }
        let (manifest, diagnostics) = strict("---\nname: a\ndescription: true\n---\n");
        assert!(diagnostics.is_empty());
        assert_eq!(manifest.unwrap().description, "true");
    }

    #[test]
    fn description_too_long() {
        let text = format!("---\nname: a\ndescription: {}\n---\n", "x".repeat(1100));
        let diagnostics = strict(&text).1;
        assert_eq!(found(&diagnostics), [("description-too-long", E, 3, 1)]);
        assert_eq!(
            diagnostics[0].message,
            "description is 1100 characters; the limit is 1024"
        );
        let (manifest, diagnostics) = lenient(&text);
        assert_eq!(found(&diagnostics), [("description-too-long", W, 3, 1)]);
        assert_eq!(manifest.unwrap().description.len(), 1100);
        let limit = format!("---\nname: a\ndescription: {}\n---\n", "ü".repeat(1024));
        assert!(strict(&limit).1.is_empty());
    }

    /// Issue 12: a block scalar's value (and so its length) did not depend on YAML alone but on
    /// whether another field followed it, because the text given to YAML lost its last line
    /// break. YAML's default chomping (clip) keeps one final newline in both places, as the
    /// reference validator, which parses the frontmatter up to the closing fence, counts it.
    #[test]
    fn a_block_scalar_has_the_same_value_first_or_last() {
        let long = "a".repeat(MAX_DESCRIPTION_CHARS);
        for indicator in ["|", ">"] {
            let block = format!("description: {indicator}\n  {long}\n");
            let last = format!("---\nname: a\n{block}---\n");
            let first = format!("---\n{block}name: a\n---\n");
            for text in [&last, &first] {
                let diagnostics = strict(text).1;
                let d = single(&diagnostics);
                assert_eq!(d.rule, Rule::DescriptionTooLong, "{text:?}");
                assert_eq!(
                    d.message,
                    "description is 1025 characters; the limit is 1024"
                );
            }
            // Trimmed when read, as before: the newline only counts towards the limit.
            let (manifest, _) = lenient(&last);
            assert_eq!(manifest.unwrap().description, long);
        }
        let compatibility = format!("compatibility: |\n  {}\n", "c".repeat(500));
        for text in [
            format!("---\nname: a\ndescription: d\n{compatibility}---\n"),
            format!("---\n{compatibility}name: a\ndescription: d\n---\n"),
        ] {
            let diagnostics = strict(&text).1;
            assert_eq!(
                single(&diagnostics).message,
                "compatibility is 501 characters; the limit is 500"
            );
        }
        // Strip (`|-`) drops the newline, keep (`|+`) keeps every trailing one, last or not.
        let fits = format!("---\nname: a\ndescription: |-\n  {long}\n---\n");
        assert!(strict(&fits).1.is_empty());
        let kept = "---\nname: a\ndescription: |+\n  text\n\n---\n";
        assert_eq!(strict(kept).0.unwrap().description, "text");
        let (manifest, _) = strict("---\nname: a\nmetadata:\n  note: |+\n    x\n\n---\n");
        assert_eq!(
            manifest.unwrap().metadata,
            [("note".into(), "x\n\n".into())]
        );
    }

    // --- optional fields ----------------------------------------------------------------------

    #[test]
    fn license() {
        let (manifest, diagnostics) = strict(&with("license: 2\n"));
        assert!(diagnostics.is_empty());
        assert_eq!(manifest.unwrap().license.as_deref(), Some("2"));
        assert_eq!(strict(&with("license:\n")).0.unwrap().license, None);
        let (manifest, diagnostics) = lenient(&with("license:\n  - MIT\n"));
        assert_eq!(found(&diagnostics), [("license-type", E, 4, 1)]);
        assert_eq!(manifest.unwrap().license, None);
    }

    #[test]
    fn compatibility() {
        assert_eq!(
            found(&strict(&with("compatibility: {a: b}\n")).1),
            [("compatibility-type", E, 4, 1)]
        );
        assert_eq!(
            found(&lenient(&with("compatibility:\n")).1),
            [("compatibility-length", E, 4, 1)]
        );
        let long = with(&format!("compatibility: {}\n", "x".repeat(501)));
        let diagnostics = lenient(&long).1;
        assert_eq!(found(&diagnostics), [("compatibility-length", E, 4, 1)]);
        assert_eq!(
            diagnostics[0].message,
            "compatibility is 501 characters; the limit is 500"
        );
        assert!(
            strict(&with(&format!("compatibility: {}\n", "x".repeat(500))))
                .1
                .is_empty()
        );
    }

    #[test]
    fn metadata_must_be_a_mapping() {
        for yaml in ["metadata: text\n", "metadata: [a]\n"] {
            let (manifest, diagnostics) = lenient(&with(yaml));
            assert_eq!(
                found(&diagnostics),
                [("metadata-type", E, 4, 1)],
                "{yaml:?}"
            );
            assert!(manifest.unwrap().metadata.is_empty());
        }
        assert!(strict(&with("metadata:\n")).1.is_empty());
    }

    #[test]
    fn metadata_values_are_text() {
        let yaml =
            "metadata:\n  z: 1.0\n  b: true\n  a: ~\n  3: x\n  nested:\n    k: v\n  list: [1, 2]\n";
        let diagnostics = strict(&with(yaml)).1;
        assert_eq!(
            found(&diagnostics),
            [("metadata-type", E, 9, 3), ("metadata-type", E, 11, 3)]
        );
        let (manifest, diagnostics) = lenient(&with(yaml));
        assert_eq!(
            found(&diagnostics),
            [("metadata-type", W, 9, 3), ("metadata-type", W, 11, 3)]
        );
        let pairs: Vec<(&str, &str)> = manifest
            .as_ref()
            .unwrap()
            .metadata
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let expected = [
            ("3", "x"),
            ("a", ""),
            ("b", "true"),
            ("list", "[1,2]"),
            ("nested", r#"{"k":"v"}"#),
            ("z", "1.0"),
        ];
        assert_eq!(pairs, expected);
    }

    #[test]
    fn metadata_keys_must_be_text() {
        let diagnostics = strict(&with("metadata:\n  [a]: x\n")).1;
        assert_eq!(found(&diagnostics), [("metadata-type", E, 4, 1)]);
    }

    #[test]
    fn allowed_tools_type() {
        assert_eq!(
            found(&strict(&with("allowed-tools: {a: b}\n")).1),
            [("allowed-tools-type", E, 4, 1)]
        );
        let (manifest, diagnostics) =
            lenient(&with("allowed-tools:\n  - Read\n  - {a: b}\n  - [c]\n"));
        assert_eq!(
            found(&diagnostics),
            [
                ("allowed-tools-type", E, 4, 1),
                ("allowed-tools-type", E, 4, 1)
            ]
        );
        assert!(diagnostics[0].message.contains("item 2"));
        assert_eq!(manifest.unwrap().allowed_tools, ["Read"]);
        assert!(strict(&with("allowed-tools:\n")).1.is_empty());
    }

    // --- accumulation and robustness -------------------------------------------------------

    #[test]
    fn problems_accumulate_and_the_manifest_is_still_returned() {
        let text =
            "---\nname: Bad_Name\ndescription: ''\nextra: 1\ncompatibility: ''\nmetadata: 3\n---\n";
        let (manifest, diagnostics) = parse(text, Some("bad-name"), Profile::Strict);
        let expected = [
            ("unknown-field", E, 4, 1),
            ("name-case", E, 2, 1),
            ("name-chars", E, 2, 1),
            ("name-dir-mismatch", E, 2, 1),
            ("description-missing", E, 3, 1),
            ("compatibility-length", E, 5, 1),
            ("metadata-type", E, 6, 1),
        ];
        assert_eq!(found(&diagnostics), expected);
        assert_eq!(manifest.unwrap().name, "Bad_Name");
    }

    #[test]
    fn messages_are_one_line() {
        let text = "---\nname: \"a\\nb\"\ndescription: \"\\n\"\n\"x\\ny\": 1\n---\n";
        let diagnostics = strict(text).1;
        assert!(!diagnostics.is_empty());
        for diagnostic in diagnostics {
            assert!(!diagnostic.message.contains('\n'), "{}", diagnostic.message);
        }
    }

    #[test]
    fn a_folder_name_with_a_newline_keeps_messages_on_one_line() {
        let diagnostics = parse("---\ndescription: d\n---\n", Some("a\nb"), Profile::Strict).1;
        assert_eq!(single(&diagnostics).message, "name is required");
        let diagnostics = parse(
            "---\nname: a\ndescription: d\n---\n",
            Some("a\nb"),
            Profile::Strict,
        )
        .1;
        assert_eq!(
            single(&diagnostics).message,
            r#"name "a" must match the folder name "a\nb""#
        );
    }

    #[test]
    fn odd_inputs_never_panic() {
        let mut inputs: Vec<String> = [
            "",
            "---",
            "---\n",
            "\u{FEFF}",
            "\u{FEFF}---",
            "---\n---\n",
            "---\r\n---\r\n",
            "---\n---",
            "\0\u{1}\u{7f}",
            "---\n\0\u{1}: \u{2}\n---\n",
            "---\n: :\n---\n",
            "---\n? \n---\n",
            "---\n*a\n---\n",
            "---\n&a\n---\n",
            "---\n!!binary x\n---\n",
            "---\nname: !tag\n---\n",
            "---\n{\n---\n",
            "---\n'\n---\n",
            "---\n\"\\\n---\n",
            "---\n...\n---\n",
            "---\na: 1\n...\nb: 2\n---\n",
            "---\n%YAML 1.2\n---\n",
            "---\n- : - :\n---\n",
            "---\nname: a\u{85}b: c\n---\n",
            "---\nname: a\rdescription: b: c\n---\n",
            "---\n\u{2028}: x\n---\n",
            "---\n  name: a\n  description: b: c\n---\n",
            "---\nname: a\n  b: c\n d: e\n---\n",
            "---\n\"a: b: c\n---\n",
            "---\nname: 99999999999999999999999999\ndescription: -99999999999999999999999\n---\n",
            "---\nmetadata: {1: {2: [3]}}\nx: .nan\ny: -.inf\n---\n",
            "---\n<<: {name: a}\n---\n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        inputs.push(format!("---\nname: {}\n---\n", "x".repeat(60_000)));
        inputs.push(format!("---\n{}\n---\n", "a: b: ".repeat(10_000)));
        inputs.push(format!("---\n{}---\n", "a: b: c\n".repeat(3_000)));
        inputs.push("-".repeat(100_000));
        inputs.push(
            String::from_utf8_lossy(&(0..=255u8).cycle().take(5_000).collect::<Vec<u8>>())
                .into_owned(),
        );
        for input in &inputs {
            for profile in [Profile::Strict, Profile::Lenient] {
                let started = Instant::now();
                let _ = parse(input, Some("dir"), profile);
                let _ = frontmatter::split(input);
                assert!(
                    started.elapsed() < Duration::from_secs(5),
                    "slow: {:?}",
                    excerpt(input, 40)
                );
            }
        }
    }

    // --- helpers ------------------------------------------------------------------------------

    #[test]
    fn key_lines() {
        let line = parse_key_line("  'it''s': 1 # c").unwrap();
        assert_eq!(
            (
                line.indent,
                line.raw_key,
                line.key.as_str(),
                line.value,
                line.value_column
            ),
            (2, "'it''s'", "it's", "1", 12)
        );
        assert_eq!(parse_key_line("\"a\\\"b\": x").unwrap().key, "a\"b");
        assert_eq!(
            parse_key_line("url: http://x#y").unwrap().value,
            "http://x#y"
        );
        for not_a_key in ["- a: b", "# a: b", "a:b", "[a]: b", "\"open: x"] {
            assert_eq!(parse_key_line(not_a_key), None, "{not_a_key}");
        }
    }

    #[test]
    fn relocating_messages() {
        assert_eq!(
            relocate("x at line 2 column 3, while y at line 10 column 1", 1),
            "x at line 3 column 3, while y at line 11 column 1"
        );
        assert_eq!(relocate("no lines here", 5), "no lines here");
    }

    #[test]
    fn quoting() {
        assert_eq!(
            quote_yaml("a \"b\" \\ c\n\t\u{1}"),
            r#""a \"b\" \\ c\n\t\u0001""#
        );
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }
}
