//! Loading the frontmatter's YAML with bounds: a budget of values (aliases expanded), every
//! duplicate key recorded instead of the first ending the load, and the parser's positions and
//! messages moved to the lines the rest of the validator counts.

use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess,
};
use serde_yaml::{Mapping, Value};

use super::value::key_text;

/// The most YAML values (scalars, lists and mappings, counted after expanding aliases) a
/// frontmatter may hold.
///
/// The YAML library bounds alias expansion only relative to the document size, which still lets a
/// 50 KB frontmatter expand into hundreds of millions of values; real frontmatters hold a few
/// dozen.
pub const MAX_YAML_VALUES: usize = 100_000;

/// Rewrites every `line N` in a YAML error message from frontmatter lines to file lines.
pub(super) fn relocate(message: &str, offset: usize) -> String {
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

/// A parsed frontmatter and the duplicate keys met on the way (the first value of each is kept).
#[derive(Debug)]
pub(super) struct Loaded {
    pub(super) value: Value,
    pub(super) duplicates: Vec<Duplicate>,
}

/// A key written twice in one mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Duplicate {
    pub(super) key: String,
    /// The keys of the mappings that hold it, outermost first (empty at the top level).
    pub(super) parents: Vec<String>,
}

/// Why the YAML could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LoadError {
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
pub(super) fn load(yaml: &str, other_breaks: bool) -> Result<Loaded, LoadError> {
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
pub(super) fn has_other_breaks(yaml: &str) -> bool {
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

#[cfg(test)]
mod tests {

    use super::*;
    use crate::parse::testing::*;

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
        let text = format!("---\n{yaml}---\n");
        let (manifest, diagnostics) = finishes(move || strict(&text));
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
        let text = format!("---\n{yaml}---\n");
        let (manifest, diagnostics) = finishes(move || strict(&text));
        assert!(manifest.is_none());
        assert_eq!(found(&diagnostics), [("yaml-syntax", E, 2, 1)]);
        assert!(
            diagnostics[0]
                .message
                .contains("more than 100000 YAML values")
        );
    }

    #[test]
    fn relocating_messages() {
        assert_eq!(
            relocate("x at line 2 column 3, while y at line 10 column 1", 1),
            "x at line 3 column 3, while y at line 11 column 1"
        );
        assert_eq!(relocate("no lines here", 5), "no lines here");
    }
}
