//! The unquoted-colon pitfall: `description: Use when: the user asks` is invalid YAML (the
//! second `: ` starts a mapping), yet clients commonly write it. Each time the parser fails on
//! such a plain value, the value is rewritten as a quoted string and the load tried again, so
//! every one is found: the strict profile reports them with the quoted form to write, the
//! lenient one reads them as text.

use super::yaml::{LoadError, Loaded, load};
use crate::text::clip;

/// How many unquoted-colon values are repaired before giving up, so a pathological file cannot
/// make the parser run once per line for ever.
const MAX_COLON_REPAIRS: usize = 256;

/// Loads the YAML of `lines` (the frontmatter, one entry per line); each time the load fails on
/// a plain value holding `: `, rewrites that value in `lines` as a quoted string and tries
/// again. Returns the load's outcome and the values rewritten, in the order found.
pub(super) fn load_repairing_colons(
    lines: &mut [String],
    other_breaks: bool,
) -> (Result<Loaded, LoadError>, Vec<ColonFix>) {
    let mut fixes: Vec<ColonFix> = Vec::new();
    loop {
        // The text ends with its line break, as the frontmatter does, so a block scalar
        // written last keeps its final newline (YAML's clip) as it does anywhere else.
        let mut yaml = lines.join("\n");
        yaml.push('\n');
        let error = match load(&yaml, other_breaks) {
            Ok(loaded) => return (Ok(loaded), fixes),
            Err(error) => error,
        };
        let fix = (fixes.len() < MAX_COLON_REPAIRS)
            .then(|| find_unquoted_colon(lines, &error))
            .flatten()
            .filter(|fix| fixes.iter().all(|done| done.line != fix.line));
        match fix {
            Some(fix) => {
                fix.apply(lines);
                fixes.push(fix);
            }
            None => return (Err(error), fixes),
        }
    }
}

/// A plain value that YAML rejected because it holds `: `, and how to rewrite it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ColonFix {
    /// 0-based frontmatter line of the key.
    pub(super) line: usize,
    /// One past the last line of the value (plain values may continue on indented lines).
    end: usize,
    indent: usize,
    raw_key: String,
    pub(super) key: String,
    /// The value's text, folded as YAML folds a plain scalar.
    value: String,
    /// 1-based column where the value starts.
    pub(super) value_column: usize,
    /// Where the parser failed: 0-based frontmatter line, 1-based column.
    pub(super) error_line: usize,
    pub(super) error_column: usize,
}

impl ColonFix {
    /// The key with its value quoted, clipped: how the messages suggest writing it.
    pub(super) fn quoted(&self) -> String {
        format!("{}: {}", self.key, quote_yaml(&clip(&self.value, 61)))
    }

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

// The line reading below repairs text that is not YAML yet, which no YAML parser reads.

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

/// Whether a value is written as a plain scalar (not quoted, not a block or flow collection).
fn is_plain(value: &str) -> bool {
    !value.is_empty()
        && !value.starts_with([
            '"', '\'', '[', '{', '|', '>', '&', '*', '!', '%', '@', '`', '#',
        ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::testing::*;

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
        assert_eq!(
            manifest.unwrap().fields.description,
            "Use when: the user asks"
        );
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
            manifest.fields.description,
            "Use this when: asked \"twice\"\nor: more"
        );
        assert_eq!(
            manifest.fields.metadata,
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

    #[test]
    fn quoting() {
        assert_eq!(
            quote_yaml("a \"b\" \\ c\n\t\u{1}"),
            r#""a \"b\" \\ c\n\t\u0001""#
        );
        assert_eq!(clip("abcdef", 4), "abc…");
    }

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
}
