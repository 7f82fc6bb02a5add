//! Splitting a SKILL.md into its YAML frontmatter and its Markdown body.
//!
//! The frontmatter sits between a first line `---` and the next line that is exactly `---`
//! (trailing whitespace, including the `\r` of CRLF, is ignored on both fence lines). Anything
//! after the closing fence, including further `---` lines, is body.

use std::fmt;

use super::Rule;
use crate::text::lines::Lines;

/// The largest frontmatter accepted, in bytes of YAML text (64 KiB).
///
/// Real frontmatters are a few hundred bytes; the limit keeps a hostile file from making the
/// YAML parser do unbounded work.
pub const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;

/// The fence that opens and closes the frontmatter.
const FENCE: &str = "---";

/// The UTF-8 byte order mark some editors put at the start of a file.
const BOM: char = '\u{FEFF}';

/// A SKILL.md cut into its frontmatter and its body.
///
/// Every offset refers to the original text given to [`split`], byte order mark included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML text between the fences, with its line endings as written.
    pub yaml: &'a str,
    /// The 1-based line of the file on which the YAML starts: line `n` of the YAML is line
    /// `yaml_line + n - 1` of the file.
    pub yaml_line: usize,
    /// The byte offset of the YAML in the original text.
    pub yaml_offset: usize,
    /// The body: everything after the closing fence line and the blank lines right after it.
    pub body: &'a str,
    /// The byte offset of the body in the original text.
    pub body_start: usize,
}

/// Why a SKILL.md could not be split. Each case maps to one [`Rule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SplitError {
    /// The file does not start with a `---` line.
    Missing,
    /// No line closes the frontmatter opened on line 1.
    Unclosed,
    /// The frontmatter is empty or holds only whitespace.
    Empty,
    /// The frontmatter is over [`MAX_FRONTMATTER_BYTES`].
    TooLarge {
        /// The size of the YAML text, in bytes.
        bytes: usize,
    },
}

impl SplitError {
    /// The rule this failure breaks.
    pub fn rule(self) -> Rule {
        match self {
            Self::Missing => Rule::FrontmatterMissing,
            Self::Unclosed => Rule::FrontmatterUnclosed,
            Self::Empty => Rule::FrontmatterEmpty,
            Self::TooLarge { .. } => Rule::FrontmatterTooLarge,
        }
    }

    /// The 1-based line the failure is reported at: the opening fence (line 1) in every case,
    /// since that is where the author has to look.
    pub fn line(self) -> usize {
        1
    }
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing => f.write_str(
                "SKILL.md must start with a `---` line, followed by YAML fields and another `---` line",
            ),
            Self::Unclosed => f.write_str(
                "the frontmatter opened on line 1 is never closed: add a `---` line after the last field",
            ),
            Self::Empty => f.write_str(
                "the frontmatter is empty: it must hold at least `name:` and `description:`",
            ),
            Self::TooLarge { bytes } => write!(
                f,
                "the frontmatter is {bytes} bytes; the limit is {MAX_FRONTMATTER_BYTES} bytes (64 KiB)"
            ),
        }
    }
}

impl std::error::Error for SplitError {}

/// Splits the text of a SKILL.md into its YAML frontmatter and its body.
///
/// A leading byte order mark is skipped; CRLF line endings are accepted.
pub fn split(text: &str) -> Result<Split<'_>, SplitError> {
    let start = if text.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    let mut lines = Lines::from(text, start);
    let opening = lines.next().ok_or(SplitError::Missing)?;
    if !is_fence(opening.text) {
        return Err(SplitError::Missing);
    }
    let yaml_offset = opening.end;
    let closing = lines
        .find(|line| is_fence(line.text))
        .ok_or(SplitError::Unclosed)?;
    let yaml = text.get(yaml_offset..closing.start).unwrap_or_default();
    if yaml.len() > MAX_FRONTMATTER_BYTES {
        return Err(SplitError::TooLarge { bytes: yaml.len() });
    }
    if yaml.trim().is_empty() {
        return Err(SplitError::Empty);
    }
    let body_start = skip_blank_lines(text, closing.end);
    Ok(Split {
        yaml,
        yaml_line: 2,
        yaml_offset,
        body: text.get(body_start..).unwrap_or_default(),
        body_start,
    })
}

/// The deepest nesting of lists and mappings a frontmatter may have, counting flow (`[`, `{`)
/// and block (indented, `- - x`) levels alike, the top-level mapping included.
///
/// The YAML parser's time grows with the square of the nesting, so a 64 KiB frontmatter nested
/// 32,000 levels deep took seconds to reject (and much longer inside the unoptimised macro).
/// [`check_nesting`] finds such a file in one linear pass before the parser runs. Real
/// frontmatters nest two or three levels (`metadata:` holding a map).
pub const MAX_NESTING: usize = 64;

/// Where a frontmatter first nests deeper than the limit given to [`check_nesting`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooDeep {
    /// The limit that was passed.
    pub limit: usize,
    /// The 0-based line of the YAML text (lines end at `\n`) of the list or mapping that goes
    /// past the limit.
    pub line: usize,
    /// Its 1-based column, in characters.
    pub column: usize,
}

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the frontmatter nests lists and mappings more than {} levels deep; frontmatter \
             fields need two or three levels: flatten it",
            self.limit
        )
    }
}

impl std::error::Error for TooDeep {}

/// Checks, without parsing, that the YAML text `yaml` nests lists and mappings at most `limit`
/// levels deep, and returns the deepest nesting found.
///
/// One pass over the text, in time proportional to its length whatever its shape. It follows
/// the YAML tokeniser's rules (those of libyaml, which the parser uses) for what opens a level:
/// `[` and `{` outside quoted, plain and block scalars and comments, and a block sequence or
/// mapping indented deeper than its parent (`- - x` opens two), and a `key: value` pair in a
/// flow sequence (`[a: b]`, a one-entry mapping) from its `:` on. Where the text stops being YAML
/// (an unclosed quote, a character no token starts with), the parser stops too, and so does the
/// count.
pub fn check_nesting(yaml: &str, limit: usize) -> Result<usize, TooDeep> {
    let mut scan = NestingScan {
        chars: yaml.chars().collect(),
        limit,
        indent: -1,
        simple_key_allowed: true,
        ..NestingScan::default()
    };
    scan.run();
    match scan.over {
        Some((line, column)) => Err(TooDeep {
            limit,
            line,
            column,
        }),
        None => Ok(scan.deepest),
    }
}

/// A possible simple key (`key:`) of the block context: where it started.
#[derive(Debug, Clone, Copy)]
struct SimpleKey {
    /// Line breaks (of any kind) before it: a key cannot span lines.
    breaks: usize,
    /// Its byte offset: a key is at most 1024 bytes long.
    byte: usize,
    column: usize,
    /// Where to report, as [`NestingScan::here`] gives it.
    at: (usize, usize),
}

/// One block level: the indentation of its parent and whether an indentless sequence (`key:`
/// then `- item` at the key's own indentation) was opened in it, which nests one more level
/// without indenting.
#[derive(Debug, Clone, Copy)]
struct BlockLevel {
    parent: isize,
    mapping: bool,
    indentless: bool,
}

/// The state of [`check_nesting`]'s pass: a subset of libyaml's scanner, enough to know where
/// tokens start and which of them open a level.
#[derive(Debug, Default)]
struct NestingScan {
    chars: Vec<char>,
    limit: usize,
    i: usize,
    /// The byte offset of `i`.
    byte: usize,
    /// `\n`s before `i` and the index after the last one, for reporting.
    line: usize,
    line_start: usize,
    /// libyaml's column: characters since the last line break of any kind.
    column: usize,
    /// Line breaks of any kind before `i`.
    breaks: usize,
    flow: usize,
    /// For each open flow collection, whether it is a sequence holding a `key: value` pair
    /// (`[a: b]`, which YAML reads as a one-entry mapping) in its current entry; and how many do.
    flow_pairs: Vec<Option<bool>>,
    pairs: usize,
    /// The current block indentation (-1 at the top) and the levels opened.
    indent: isize,
    levels: Vec<BlockLevel>,
    /// Levels opened by indentless sequences, counted apart from `levels`.
    indentless: usize,
    simple_key_allowed: bool,
    key: Option<SimpleKey>,
    deepest: usize,
    over: Option<(usize, usize)>,
}

fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn is_flow_indicator(c: char) -> bool {
    matches!(c, ',' | '[' | ']' | '{' | '}')
}

impl NestingScan {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
    }

    fn at_end(&self) -> bool {
        self.i >= self.chars.len()
    }

    /// Whether the character `ahead` is blank, a line break or the end.
    fn blankz(&self, ahead: usize) -> bool {
        self.peek(ahead).is_none_or(|c| is_blank(c) || is_break(c))
    }

    fn breakz(&self) -> bool {
        self.peek(0).is_none_or(is_break)
    }

    /// The report position of `i`: 0-based `\n` line, 1-based column.
    fn here(&self) -> (usize, usize) {
        (self.line, self.i - self.line_start + 1)
    }

    /// Moves past one character (a `\r\n` pair as one line break).
    fn bump(&mut self) {
        let Some(c) = self.peek(0) else { return };
        self.i += 1;
        self.byte += c.len_utf8();
        if is_break(c) {
            if c == '\r' && self.peek(0) == Some('\n') {
                self.i += 1;
                self.byte += 1;
            }
            if c == '\n' || self.chars.get(self.i - 1) == Some(&'\n') {
                self.line += 1;
                self.line_start = self.i;
            }
            self.column = 0;
            self.breaks += 1;
        } else {
            self.column += 1;
        }
    }

    /// The levels open here. Inside a flow collection that may be a key (`[a]: b`), the block
    /// mapping its `:` would open counts already, as the parser opens it before the key.
    fn depth(&self) -> usize {
        let pending_mapping = self.flow > 0
            && self
                .key
                .is_some_and(|key| key.column as isize > self.indent);
        self.flow + self.pairs + self.levels.len() + self.indentless + usize::from(pending_mapping)
    }

    /// Notes the depth reached by a level opened at `at`.
    fn opened(&mut self, at: (usize, usize)) {
        let depth = self.depth();
        self.deepest = self.deepest.max(depth);
        if depth > self.limit && self.over.is_none() {
            self.over = Some(at);
        }
    }

    fn roll(&mut self, column: usize, mapping: bool, at: (usize, usize)) {
        let column = column as isize;
        if self.flow > 0 {
            return;
        }
        if self.indent < column {
            self.levels.push(BlockLevel {
                parent: self.indent,
                mapping,
                indentless: false,
            });
            self.indent = column;
            self.opened(at);
        } else if !mapping && self.indent == column {
            // `- item` at its mapping's own indentation: an indentless sequence.
            if let Some(level) = self
                .levels
                .last_mut()
                .filter(|l| l.mapping && !l.indentless)
            {
                level.indentless = true;
                self.indentless += 1;
                self.opened(at);
            }
        }
    }

    /// A `:` or `?` in a flow sequence's entry makes that entry a one-entry mapping.
    fn start_pair(&mut self, at: (usize, usize)) {
        if let Some(Some(pair @ false)) = self.flow_pairs.last_mut() {
            *pair = true;
            self.pairs += 1;
            self.opened(at);
        }
    }

    /// The end of a flow sequence's entry (`,` or its `]`) ends its pair.
    fn end_pair(&mut self) {
        if let Some(Some(pair @ true)) = self.flow_pairs.last_mut() {
            *pair = false;
            self.pairs -= 1;
        }
    }

    fn unroll(&mut self, column: isize) {
        if self.flow > 0 {
            return;
        }
        while self.indent > column {
            let Some(level) = self.levels.pop() else {
                break;
            };
            self.indentless -= usize::from(level.indentless);
            self.indent = level.parent;
        }
    }

    fn save_key(&mut self) {
        if self.simple_key_allowed && self.flow == 0 {
            self.key = Some(SimpleKey {
                breaks: self.breaks,
                byte: self.byte,
                column: self.column,
                at: self.here(),
            });
        }
    }

    fn document_indicator(&self) -> bool {
        self.column == 0
            && (self.chars[self.i..].starts_with(&['-', '-', '-'])
                || self.chars[self.i..].starts_with(&['.', '.', '.']))
            && self.blankz(3)
    }

    fn run(&mut self) {
        while self.over.is_none() && self.skip_to_token() {
            if let Some(key) = self.key
                && (key.breaks != self.breaks || key.byte + 1024 < self.byte)
            {
                self.key = None;
            }
            self.unroll(self.column as isize);
            let Some(c) = self.peek(0) else { return };
            let at = self.here();
            if self.column == 0 && c == '%' {
                self.unroll(-1);
                self.key = None;
                self.simple_key_allowed = false;
                while !self.breakz() {
                    self.bump();
                }
                continue;
            }
            if self.document_indicator() {
                self.unroll(-1);
                self.key = None;
                self.simple_key_allowed = false;
                for _ in 0..3 {
                    self.bump();
                }
                continue;
            }
            let block = self.flow == 0;
            let keep_going = match c {
                '[' | '{' => {
                    self.save_key();
                    self.bump();
                    self.flow += 1;
                    self.flow_pairs.push((c == '[').then_some(false));
                    self.opened(at);
                    self.simple_key_allowed = true;
                    true
                }
                ']' | '}' => {
                    self.end_pair();
                    self.flow_pairs.pop();
                    self.flow = self.flow.saturating_sub(1);
                    self.simple_key_allowed = false;
                    self.bump();
                    true
                }
                ',' => {
                    self.end_pair();
                    self.simple_key_allowed = true;
                    self.bump();
                    true
                }
                '-' if self.blankz(1) => {
                    if block && !self.simple_key_allowed {
                        return;
                    }
                    self.roll(self.column, false, at);
                    if block {
                        self.key = None;
                    }
                    self.simple_key_allowed = true;
                    self.bump();
                    true
                }
                '?' if !block || self.blankz(1) => {
                    if block && !self.simple_key_allowed {
                        return;
                    }
                    self.roll(self.column, true, at);
                    if block {
                        self.key = None;
                    } else {
                        self.start_pair(at);
                    }
                    self.simple_key_allowed = block;
                    self.bump();
                    true
                }
                ':' if !block || self.blankz(1) => {
                    if block {
                        if let Some(key) = self.key.take() {
                            self.roll(key.column, true, key.at);
                            self.simple_key_allowed = false;
                        } else {
                            if !self.simple_key_allowed {
                                return;
                            }
                            self.roll(self.column, true, at);
                            self.simple_key_allowed = true;
                        }
                    } else {
                        self.start_pair(at);
                        self.simple_key_allowed = false;
                    }
                    self.bump();
                    true
                }
                '*' | '&' => {
                    self.save_key();
                    self.simple_key_allowed = false;
                    self.bump();
                    while self
                        .peek(0)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                    {
                        self.bump();
                    }
                    true
                }
                '!' => {
                    self.save_key();
                    self.simple_key_allowed = false;
                    self.bump();
                    if self.peek(0) == Some('<') {
                        while !self.blankz(0) && self.peek(0) != Some('>') {
                            self.bump();
                        }
                        self.bump();
                    } else {
                        while !self.blankz(0) && !self.peek(0).is_some_and(is_flow_indicator) {
                            self.bump();
                        }
                    }
                    true
                }
                '|' | '>' if block => {
                    self.key = None;
                    self.simple_key_allowed = true;
                    self.block_scalar()
                }
                '\'' | '"' => {
                    self.save_key();
                    self.simple_key_allowed = false;
                    self.quoted(c)
                }
                _ if self.starts_plain(c) => {
                    self.save_key();
                    self.simple_key_allowed = false;
                    self.plain()
                }
                // A character no token starts with: the parser stops here.
                _ => false,
            };
            if !keep_going {
                return;
            }
        }
    }

    /// Skips spaces, comments and line breaks; false at the end of the text.
    fn skip_to_token(&mut self) -> bool {
        loop {
            if self.column == 0 && self.peek(0) == Some('\u{FEFF}') {
                self.bump();
            }
            while self.peek(0) == Some(' ')
                || ((self.flow > 0 || !self.simple_key_allowed) && self.peek(0) == Some('\t'))
            {
                self.bump();
            }
            if self.peek(0) == Some('#') {
                while !self.breakz() {
                    self.bump();
                }
            }
            match self.peek(0) {
                Some(c) if is_break(c) => {
                    self.bump();
                    if self.flow == 0 {
                        self.simple_key_allowed = true;
                    }
                }
                Some(_) => return true,
                None => return false,
            }
        }
    }

    fn starts_plain(&self, c: char) -> bool {
        let indicator = is_blank(c)
            || is_break(c)
            || matches!(
                c,
                '-' | '?'
                    | ':'
                    | ','
                    | '['
                    | ']'
                    | '{'
                    | '}'
                    | '#'
                    | '&'
                    | '*'
                    | '!'
                    | '|'
                    | '>'
                    | '\''
                    | '"'
                    | '%'
                    | '@'
                    | '`'
            );
        !indicator
            || (c == '-' && !self.peek(1).is_some_and(is_blank))
            || (self.flow == 0 && (c == '?' || c == ':') && !self.blankz(1))
    }

    /// A plain scalar, to its end (libyaml's rules: it ends at `: `, ` #`, a flow indicator in
    /// flow context, or a line indented no deeper than the block it is in).
    fn plain(&mut self) -> bool {
        let indent = self.indent + 1;
        let mut leading_blanks = false;
        loop {
            if self.document_indicator() || self.peek(0) == Some('#') {
                break;
            }
            while !self.blankz(0) {
                let c = self.peek(0).unwrap_or(' ');
                let next = self.peek(1);
                if self.flow > 0
                    && c == ':'
                    && next.is_some_and(|n| is_flow_indicator(n) || n == '?')
                {
                    return false;
                }
                if (c == ':' && self.blankz(1)) || (self.flow > 0 && is_flow_indicator(c)) {
                    break;
                }
                self.bump();
            }
            if !self.peek(0).is_some_and(|c| is_blank(c) || is_break(c)) {
                break;
            }
            while let Some(c) = self.peek(0).filter(|&c| is_blank(c) || is_break(c)) {
                if is_blank(c) {
                    if leading_blanks && (self.column as isize) < indent && c == '\t' {
                        return false;
                    }
                } else {
                    leading_blanks = true;
                }
                self.bump();
            }
            if self.flow == 0 && (self.column as isize) < indent {
                break;
            }
        }
        if leading_blanks {
            self.simple_key_allowed = true;
        }
        true
    }

    /// A quoted scalar, to its closing quote; false when it never closes.
    fn quoted(&mut self, quote: char) -> bool {
        self.bump();
        loop {
            if self.document_indicator() {
                return false;
            }
            match self.peek(0) {
                None => return false,
                Some('\'') if quote == '\'' && self.peek(1) == Some('\'') => {
                    self.bump();
                    self.bump();
                }
                Some(c) if c == quote => {
                    self.bump();
                    return true;
                }
                Some('\\') if quote == '"' => {
                    self.bump();
                    self.bump();
                }
                Some(_) => self.bump(),
            }
        }
    }

    /// A block scalar (`|` or `>`): its header, then every line indented at least as deep as
    /// its content; false on a malformed header.
    fn block_scalar(&mut self) -> bool {
        self.bump();
        let mut increment = 0;
        let digit = |c: Option<char>| c.and_then(|c| c.to_digit(10));
        if matches!(self.peek(0), Some('+' | '-')) {
            self.bump();
            if let Some(d) = digit(self.peek(0)) {
                if d == 0 {
                    return false;
                }
                increment = d as isize;
                self.bump();
            }
        } else if let Some(d) = digit(self.peek(0)) {
            if d == 0 {
                return false;
            }
            increment = d as isize;
            self.bump();
            if matches!(self.peek(0), Some('+' | '-')) {
                self.bump();
            }
        }
        while self.peek(0).is_some_and(is_blank) {
            self.bump();
        }
        if self.peek(0) == Some('#') {
            while !self.breakz() {
                self.bump();
            }
        }
        if !self.breakz() {
            return false;
        }
        self.bump();
        let mut indent = if increment == 0 {
            0
        } else if self.indent >= 0 {
            self.indent + increment
        } else {
            increment
        };
        if !self.block_breaks(&mut indent) {
            return false;
        }
        while self.column as isize == indent && !self.at_end() {
            while !self.breakz() {
                self.bump();
            }
            self.bump();
            if !self.block_breaks(&mut indent) {
                return false;
            }
        }
        true
    }

    /// The blank lines and indentation before a block scalar's next line; finds the content's
    /// indentation on the first call (`indent` 0).
    fn block_breaks(&mut self, indent: &mut isize) -> bool {
        let mut max_indent = 0;
        loop {
            while (*indent == 0 || (self.column as isize) < *indent) && self.peek(0) == Some(' ') {
                self.bump();
            }
            max_indent = max_indent.max(self.column as isize);
            if (*indent == 0 || (self.column as isize) < *indent) && self.peek(0) == Some('\t') {
                return false;
            }
            if !self.peek(0).is_some_and(is_break) {
                break;
            }
            self.bump();
        }
        if *indent == 0 {
            *indent = max_indent.max(self.indent + 1).max(1);
        }
        true
    }
}

/// Whether a line (without its `\n`) is a fence: `---` followed only by whitespace.
fn is_fence(line: &str) -> bool {
    line.trim_end() == FENCE
}

/// The offset of the first line at or after `pos` that is not blank (or the end of the text).
fn skip_blank_lines(text: &str, pos: usize) -> usize {
    Lines::from(text, pos)
        .find(|line| !line.text.trim().is_empty())
        .map_or(text.len(), |line| line.start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_plain_file() {
        let text = "---\nname: a\ndescription: b\n---\n# Title\n";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "name: a\ndescription: b\n");
        assert_eq!(parts.yaml_offset, 4);
        assert_eq!(parts.yaml_line, 2);
        assert_eq!(parts.body, "# Title\n");
        assert_eq!(parts.body_start, 31);
    }

    #[test]
    fn strips_a_bom_but_keeps_original_offsets() {
        let text = "\u{FEFF}---\nname: a\n---\nBody";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "name: a\n");
        assert_eq!(parts.yaml_offset, 7);
        assert_eq!(parts.body_start, 19);
        assert_eq!(&text[parts.body_start..], "Body");
    }

    #[test]
    fn accepts_crlf_and_trailing_spaces_on_fences() {
        let text = "---  \r\nname: a\r\n--- \t\r\n\r\n  \r\nBody\r\n";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "name: a\r\n");
        assert_eq!(parts.body, "Body\r\n");
    }

    #[test]
    fn a_later_fence_is_body() {
        let text = "---\nname: a\n---\nintro\n---\nmore\n---\n";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "name: a\n");
        assert_eq!(parts.body, "intro\n---\nmore\n---\n");
    }

    #[test]
    fn indented_or_longer_dashes_do_not_close() {
        let text = "---\ndescription: |\n  ---\n  ----\n----\n---\nBody";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "description: |\n  ---\n  ----\n----\n");
        assert_eq!(parts.body, "Body");
    }

    #[test]
    fn body_starts_after_the_blank_lines_following_the_fence() {
        let text = "---\nname: a\n---\n\n\n  \nBody\n";
        assert_eq!(split(text).unwrap().body, "Body\n");
        let only_blank = "---\nname: a\n---\n\n\n";
        let parts = split(only_blank).unwrap();
        assert_eq!((parts.body, parts.body_start), ("", only_blank.len()));
    }

    #[test]
    fn closing_fence_at_end_of_text_without_newline() {
        let text = "---\nname: a\n---";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "name: a\n");
        assert_eq!((parts.body, parts.body_start), ("", text.len()));
    }

    #[test]
    fn missing_frontmatter() {
        for text in [
            "",
            "\u{FEFF}",
            "# Title\n---\n",
            " ---\nname: a\n---\n",
            "----\n---\n",
            "--- x\n",
        ] {
            let error = split(text).unwrap_err();
            assert_eq!(error, SplitError::Missing, "{text:?}");
            assert_eq!((error.rule(), error.line()), (Rule::FrontmatterMissing, 1));
        }
    }

    #[test]
    fn unclosed_frontmatter() {
        for text in [
            "---",
            "---\n",
            "---\nname: a\n",
            "---\nname: a\n ---\n----\n",
        ] {
            let error = split(text).unwrap_err();
            assert_eq!(error, SplitError::Unclosed, "{text:?}");
            assert_eq!(error.rule(), Rule::FrontmatterUnclosed);
        }
    }

    #[test]
    fn empty_frontmatter() {
        for text in [
            "---\n---\n",
            "---\r\n\r\n  \t\r\n---\r\nBody",
            "\u{FEFF}---\n---",
        ] {
            let error = split(text).unwrap_err();
            assert_eq!(error, SplitError::Empty, "{text:?}");
            assert_eq!(error.rule(), Rule::FrontmatterEmpty);
        }
    }

    #[test]
    fn frontmatter_size_limit() {
        let fits = format!("---\n{}\n---\n", "#".repeat(MAX_FRONTMATTER_BYTES - 1));
        assert!(split(&fits).is_ok());
        let over = format!("---\n{}\n---\n", "#".repeat(MAX_FRONTMATTER_BYTES));
        let error = split(&over).unwrap_err();
        assert_eq!(
            error,
            SplitError::TooLarge {
                bytes: MAX_FRONTMATTER_BYTES + 1
            }
        );
        assert_eq!(error.rule(), Rule::FrontmatterTooLarge);
        assert!(
            error
                .to_string()
                .contains("65537 bytes; the limit is 65536")
        );
    }

    /// The depth of a parsed value, counted as [`check_nesting`] counts: one per list or
    /// mapping, keys included.
    fn value_depth(value: &serde_yaml::Value) -> usize {
        use serde_yaml::Value;
        match value {
            Value::Sequence(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
            Value::Mapping(map) => {
                1 + map
                    .iter()
                    .map(|(k, v)| value_depth(k).max(value_depth(v)))
                    .max()
                    .unwrap_or(0)
            }
            Value::Tagged(tagged) => value_depth(&tagged.value),
            _ => 0,
        }
    }

    /// [`value_depth`], but a one-entry mapping in a sequence adds no level of its own: written
    /// `[[a]: b]`, its key is a collection opened before the `:` that makes it a mapping, so
    /// the pre-scan counts the pair only from there on.
    fn written_depth(value: &serde_yaml::Value) -> usize {
        use serde_yaml::Value;
        let pair_depth = |item: &Value| match item {
            Value::Mapping(map) if map.len() == 1 => map
                .iter()
                .map(|(k, v)| written_depth(k).max(written_depth(v)))
                .max()
                .unwrap_or(0),
            other => written_depth(other),
        };
        match value {
            Value::Sequence(items) => 1 + items.iter().map(pair_depth).max().unwrap_or(0),
            Value::Mapping(map) => {
                1 + map
                    .iter()
                    .map(|(k, v)| written_depth(k).max(written_depth(v)))
                    .max()
                    .unwrap_or(0)
            }
            Value::Tagged(tagged) => written_depth(&tagged.value),
            _ => 0,
        }
    }

    #[test]
    fn nesting_counts_what_the_parser_nests() {
        // (YAML, depth parsed, depth counted): a flow collection that could be a key counts
        // the mapping it could open, one level more than `- [a]` or `? [a]` have.
        for (yaml, parsed, counted) in [
            ("name: a\n", 1, 1),
            ("a: [b, {c: d}]\n", 3, 3),
            ("a: \"[[[[\"\nb: '{{'\n", 1, 1),
            ("a: x [[[[\n  [[[ \"\nb: c\n", 1, 1),
            ("a: |\n  [[[[\n  {{{\nb: >-\n    [[\n", 1, 1),
            ("# [[[[\na: b # [[[\n", 1, 1),
            ("- - - x\n", 3, 3),
            ("a:\n- b:\n  - c\n", 4, 4),
            ("a:\n  b:\n    c: d\n", 3, 3),
            ("? [a, [b]]\n: c\n", 3, 4),
            ("- [a]\n", 2, 3),
            ("[a]: b\n", 2, 2),
            ("[a: [b: c]]\n", 4, 5),
            ("a: !t [b]\nc: &x {d: e}\nf: *x\n", 2, 2),
            ("a: \"\\\"[[\"\n", 1, 1),
            ("a: 'it''s [['\n", 1, 1),
        ] {
            let value: serde_yaml::Value = serde_yaml::from_str(yaml).unwrap();
            assert_eq!(value_depth(&value), parsed, "{yaml:?}");
            assert_eq!(check_nesting(yaml, MAX_NESTING), Ok(counted), "{yaml:?}");
        }
    }

    #[test]
    fn nesting_is_never_below_the_parsed_depth() {
        // Random documents from tokens that make scanners disagree; for each one the YAML
        // library reads, the pre-scan must count at least the depth it built.
        const PIECES: &[&str] = &[
            "[", "]", "{", "}", ", ", " ", "\n", "  ", "- ", "? ", ": ", ":", "a", "b c", "\"",
            "'", "\\", " #", "|", ">", "|-\n", "&x ", "*x", "!t ", "\t", "\"[\"", "'{'", "x\n  y",
            "\n- ", "\n  - ", "a: ", "\n  a: ", "\n    ", "\r\n", "-", "?", "'[", "\"{", "- a: ",
            "\n- a: ", " |\n", " >\n", " |2\n", "\n   ", "...\n", "\u{2028}", "\r",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut parsed = 0;
        for _ in 0..60_000 {
            let len = 1 + (next() % 32) as usize;
            let yaml: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(&yaml) else {
                continue;
            };
            parsed += 1;
            let depth = written_depth(&value);
            let counted = check_nesting(&yaml, usize::MAX).unwrap();
            assert!(
                counted >= depth,
                "{yaml:?}: counted {counted}, parsed {depth}"
            );
        }
        assert!(parsed > 3_000, "only {parsed} documents parsed");
    }

    #[test]
    fn messages_are_one_line() {
        for error in [
            SplitError::Missing,
            SplitError::Unclosed,
            SplitError::Empty,
            SplitError::TooLarge { bytes: 70_000 },
        ] {
            assert!(!error.to_string().contains('\n'));
        }
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn module_example() {
        use crate::parse::frontmatter::split;

        let text = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n\n# PDF\n";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "name: pdf\ndescription: Fill PDF forms.\n");
        assert_eq!(parts.yaml_line, 2);
        assert_eq!(parts.body, "# PDF\n");
        assert_eq!(&text[parts.body_start..], "# PDF\n");
    }
    #[test]
    fn split_example() {
        use crate::parse::frontmatter::split;

        // A BOM, CRLF line endings and a `---` line in the body.
        let text = "\u{FEFF}---\r\nname: pdf\r\n---  \r\n\r\nBody\r\n---\r\nMore body\r\n";
        let parts = split(text).unwrap();
        assert_eq!(parts.yaml, "name: pdf\r\n");
        assert_eq!(parts.yaml_offset, 8); // 3 bytes of BOM, then "---\r\n"
        assert_eq!(parts.yaml_line, 2);
        assert_eq!(parts.body, "Body\r\n---\r\nMore body\r\n");
        assert_eq!(parts.body_start, text.len() - parts.body.len());
    }
    #[test]
    fn spliterror_example() {
        use crate::parse::Rule;
        use crate::parse::frontmatter::{SplitError, split};

        assert_eq!(split("# No frontmatter\n"), Err(SplitError::Missing));
        assert_eq!(
            split("---\nname: pdf\n").unwrap_err().rule(),
            Rule::FrontmatterUnclosed
        );
        assert_eq!(
            split("---\n  \n---\n").unwrap_err().rule(),
            Rule::FrontmatterEmpty
        );
    }
    #[test]
    fn split_example_2() {
        use crate::parse::frontmatter::{SplitError, split};

        let parts = split("---\nname: a\n---\n").unwrap();
        assert_eq!((parts.yaml, parts.body), ("name: a\n", ""));
        assert_eq!(split("name: a\n---\n"), Err(SplitError::Missing));
    }
    #[test]
    fn check_nesting_example() {
        use crate::parse::frontmatter::{MAX_NESTING, check_nesting};

        assert_eq!(
            check_nesting("name: a\nmetadata:\n  k: [1, {x: y}]\n", MAX_NESTING),
            Ok(4)
        );
        assert_eq!(check_nesting("a: \"[[[[\" # [[[[\n", 1), Ok(1));
        let deep = format!("a: {}{}\n", "[".repeat(100), "]".repeat(100));
        let error = check_nesting(&deep, MAX_NESTING).unwrap_err();
        assert_eq!((error.line, error.column), (0, 4 + 63));
    }
}
