//! The one way every listing, message and event writes a name or a path: bare when it is
//! plain, else as a JSON string, so one entry stays one entry on one line.

use std::borrow::Cow;
use std::fmt::Write;

/// A file or skill name as every listing and message writes it: bare when it is plain, else
/// as a JSON string (see [`json_string`]).
///
/// A name is written bare unless it is empty, starts or ends with whitespace, or holds a
/// character that could break a line, hide, or make one entry pass for two or for another
/// field: a control or format character (zero-width, bidirectional), a line or paragraph
/// separator, any whitespace but the space, or one of `"` `\` `,` `:`. So `references/a.md`
/// stays as it is, and `a"b.md`, `e` + newline + `f.md` or `x, y.md` become `"a\"b.md"`,
/// `"e\nf.md"` and `"x, y.md"`: one entry, on one line, that a JSON parser reads back.
///
/// Hosts that print names (a command-line tool, a log) can use it to write them the same way.
pub fn quote_name(name: &str) -> Cow<'_, str> {
    if needs_quoting(name) {
        Cow::Owned(json_string(name))
    } else {
        Cow::Borrowed(name)
    }
}

/// A path written alone (a `<location>`, "on disk at ..."): as it is, unless it holds a
/// character that could break the line or hide (a control or format character, whitespace
/// other than the space), when it is written as a JSON string. Separators such as `,` and `:`
/// (`C:\skills`) stay bare, since nothing follows that they could be taken to split.
pub(crate) fn one_line(path: &str) -> Cow<'_, str> {
    let breaks = path
        .chars()
        .any(|c| (c.is_whitespace() && c != ' ') || c.is_control() || is_invisible(c));
    if breaks {
        Cow::Owned(json_string(path))
    } else {
        Cow::Borrowed(path)
    }
}

/// Whether [`quote_name`] quotes `name`.
pub(crate) fn needs_quoting(name: &str) -> bool {
    // Names are nearly always printable ASCII: decide those from the bytes (every listing and
    // answer header quotes names, so this runs per file per load).
    if name.is_ascii() {
        ascii_needs_quoting(name.as_bytes())
    } else {
        chars_need_quoting(name)
    }
}

/// [`chars_need_quoting`] for ASCII: any byte outside `!`..`~` but the space (controls, DEL,
/// and the whitespace that is not a space all are), a leading or trailing space, or `"` `\`
/// `,` `:`.
fn ascii_needs_quoting(bytes: &[u8]) -> bool {
    match (bytes.first(), bytes.last()) {
        (Some(b' '), _) | (_, Some(b' ')) | (None, _) => true,
        _ => bytes
            .iter()
            .any(|&b| !(b' '..=b'~').contains(&b) || matches!(b, b'"' | b'\\' | b',' | b':')),
    }
}

fn chars_need_quoting(name: &str) -> bool {
    name.is_empty()
        || name.starts_with(char::is_whitespace)
        || name.ends_with(char::is_whitespace)
        || name.chars().any(|c| {
            matches!(c, '"' | '\\' | ',' | ':')
                || (c.is_whitespace() && c != ' ')
                || c.is_control()
                || is_invisible(c)
        })
}

/// `text` as a JSON string literal, with quotes: what `serde_json` writes, and besides every
/// character that JSON leaves raw but that could break a line or hide (DEL, C1 controls such
/// as NEL, line and paragraph separators, zero-width and bidirectional marks) written as a
/// `\uXXXX` escape. Any JSON parser reads it back to `text`.
pub fn json_string(text: &str) -> String {
    let quoted =
        serde_json::to_string(text).unwrap_or_else(|_| format!("\"{}\"", text.escape_default()));
    if !quoted.chars().any(escaped_beyond_json) {
        return quoted;
    }
    let mut out = String::with_capacity(quoted.len() + 16);
    for c in quoted.chars() {
        if escaped_beyond_json(c) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters JSON may leave raw that [`json_string`] escapes.
fn escaped_beyond_json(c: char) -> bool {
    (c.is_control() && !c.is_ascii_control()) || c == '\u{7f}' || is_invisible(c)
}

/// Format characters and separators that render as nothing or move text: soft hyphen, Arabic
/// letter mark, Mongolian vowel separator, zero-width and directional marks, line and paragraph
/// separators, bidirectional embeddings and isolates, word joiners, the byte order mark,
/// interlinear annotations and tag characters.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_shortcut_quotes_exactly_what_the_char_rules_quote() {
        let ascii = (0_u8..0x80).map(char::from);
        for a in ascii.clone() {
            for b in ascii.clone() {
                for name in [format!("{a}"), format!("{a}{b}"), format!("x{a}{b}x")] {
                    assert_eq!(
                        ascii_needs_quoting(name.as_bytes()),
                        chars_need_quoting(&name),
                        "{name:?}"
                    );
                }
            }
        }
        assert!(ascii_needs_quoting(b"") && chars_need_quoting(""));
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn quote_name_example() {
        use crate::text::quote_name;
        assert_eq!(quote_name("references/forms.md"), "references/forms.md");
        assert_eq!(quote_name("a\"b.md"), r#""a\"b.md""#);
        assert_eq!(quote_name("e\nf.md"), r#""e\nf.md""#);
        assert_eq!(quote_name("x, y.md"), r#""x, y.md""#);
    }
    #[test]
    fn json_string_example() {
        use crate::text::json_string;
        assert_eq!(json_string("a.md"), r#""a.md""#);
        let awkward = "a\"b\\c\nd\u{2028}e\u{200b}f";
        let quoted = json_string(awkward);
        assert_eq!(quoted, r#""a\"b\\c\nd\u2028e\u200bf""#);
        assert_eq!(serde_json::from_str::<String>(&quoted).unwrap(), awkward);
    }
}
