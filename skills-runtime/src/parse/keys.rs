//! The key-line scanner: where each `key: value` of the frontmatter is written, so that every
//! diagnostic about a field points at its line and column, and numbers and booleans can be read
//! back as the author wrote them (`1.10`, not `1.1`). YAML parsers keep no positions for
//! mapping keys, so the lines are read here, in one pass, beside the parser.

/// A `key: value` line of the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct KeyEntry {
    pub(super) key: String,
    /// 0-based line in the frontmatter.
    pub(super) line: usize,
    /// 1-based column of the key.
    pub(super) column: usize,
    /// The text after the colon, without a trailing comment.
    pub(super) raw: String,
}

/// A line parsed as `key: value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct KeyLine<'a> {
    pub(super) indent: usize,
    /// The key as written, quotes included.
    pub(super) raw_key: &'a str,
    /// The key's text.
    pub(super) key: String,
    /// The value after the colon, trimmed, without a trailing comment.
    pub(super) value: &'a str,
    /// 1-based column (in characters) where the value starts.
    pub(super) value_column: usize,
}

/// The keys of the top-level mapping written in block style.
pub(super) fn top_level_keys(lines: &[String]) -> Vec<KeyEntry> {
    block_keys(lines, 0, None)
}

/// The keys of the block mapping that starts at line `from` and is indented more than
/// `parent_indent` (any indentation for the top level). Flow-style mappings have none.
pub(super) fn block_keys(
    lines: &[String],
    from: usize,
    parent_indent: Option<usize>,
) -> Vec<KeyEntry> {
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

pub(super) fn is_blank_or_comment(line: &str) -> bool {
    let content = line.trim();
    content.is_empty() || content.starts_with('#')
}

/// Leading spaces (YAML indents with spaces only).
pub(super) fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Reads `key: value` (the key plain or quoted), or `None` when the line is something else.
pub(super) fn parse_key_line(line: &str) -> Option<KeyLine<'_>> {
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
pub(super) fn strip_comment(value: &str) -> &str {
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
pub(super) fn is_plain(value: &str) -> bool {
    !value.is_empty()
        && !value.starts_with([
            '"', '\'', '[', '{', '|', '>', '&', '*', '!', '%', '@', '`', '#',
        ])
}

#[cfg(test)]
mod tests {
    use super::*;

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
