//! The one line scanner: lines with their offsets and numbers, and CommonMark fenced code
//! blocks tracked line by line. Excerpts, sections, `<chunk>` blocks and the frontmatter
//! splitter all read text through it.

/// One line of a text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    /// The byte offset of the line's start.
    pub(crate) start: usize,
    /// The byte offset just after the line's `\n`, or the end of the text.
    pub(crate) end: usize,
    /// The line without its `\n` or `\r\n`.
    pub(crate) text: &'a str,
    /// The 1-based line number.
    pub(crate) number: usize,
}

/// The lines of a text with their offsets; a final line without `\n` counts, an empty text has
/// no lines.
#[derive(Debug, Clone)]
pub(crate) struct Lines<'a> {
    rest: &'a str,
    at: usize,
    number: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Lines {
            rest: text,
            at: 0,
            number: 0,
        }
    }

    /// The lines of `text` from byte offset `pos` on (offsets stay offsets into `text`; numbers
    /// count from 1 at `pos`). Empty when `pos` is past the end or inside a character.
    #[cfg(feature = "parse")]
    pub(crate) fn from(text: &'a str, pos: usize) -> Self {
        Lines {
            rest: text.get(pos..).unwrap_or(""),
            at: pos,
            number: 0,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let len = self.rest.find('\n').map_or(self.rest.len(), |i| i + 1);
        let (whole, rest) = self.rest.split_at_checked(len)?;
        let text = whole.strip_suffix('\n').unwrap_or(whole);
        let text = text.strip_suffix('\r').unwrap_or(text);
        let start = self.at;
        self.rest = rest;
        self.at += len;
        self.number += 1;
        Some(Line {
            start,
            end: self.at,
            text,
            number: self.number,
        })
    }
}

/// Tracks CommonMark fenced code blocks line by line.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Fences {
    /// The fence character and length of the open block, if any.
    open: Option<(u8, usize)>,
}

impl Fences {
    /// Whether `line` is code: a fence line, or a line inside a fenced block. Must be called on
    /// every line in order.
    pub(crate) fn is_code(&mut self, line: &str) -> bool {
        match self.open {
            Some((ch, len)) => {
                if closes_fence(line, ch, len) {
                    self.open = None;
                }
                true
            }
            None => {
                self.open = opening_fence(line);
                self.open.is_some()
            }
        }
    }
}

/// The character and length of the fence `line` opens: 3 or more `` ` `` or `~`; a backtick
/// fence's info string cannot hold a backtick (that is inline code, not a fence).
fn opening_fence(line: &str) -> Option<(u8, usize)> {
    let rest = block_indent_stripped(line)?;
    let ch = *rest
        .as_bytes()
        .first()
        .filter(|&&b| b == b'`' || b == b'~')?;
    let len = rest.bytes().take_while(|&b| b == ch).count();
    let info = rest.get(len..)?;
    (len >= 3 && !(ch == b'`' && info.contains('`'))).then_some((ch, len))
}

/// Whether `line` closes a fence of `len` `ch`s: the same character, at least as many, and
/// nothing but spaces or tabs after them.
fn closes_fence(line: &str, ch: u8, len: usize) -> bool {
    let Some(rest) = block_indent_stripped(line) else {
        return false;
    };
    let run = rest.bytes().take_while(|&b| b == ch).count();
    run >= len
        && rest
            .get(run..)
            .is_some_and(|after| after.trim_matches([' ', '\t']).is_empty())
}

/// `line` without an indentation of at most 3 spaces, or `None` when it is indented 4 columns or
/// more (an indented code block in CommonMark; a tab reaches column 4 on its own).
pub(crate) fn block_indent_stripped(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches(' ');
    let indent = line.len() - rest.len();
    (indent <= 3 && !rest.starts_with('\t')).then_some(rest)
}
