//! `<chunk>` blocks: parts of a skill body that are loaded only on request.
//!
//! A body may set aside blocks of text that the model rarely needs:
//!
//! ```markdown
//! # Filling PDF forms
//! Use `fill.py`. Load the `examples` chunk for worked examples.
//!
//! <chunk id="examples" description="Worked examples of form filling">
//! ## Example 1
//! ...any Markdown...
//! </chunk>
//! ```
//!
//! The body is served without these blocks, followed by a list of `id | description`, and one
//! block is loaded by its id on request.
//!
//! # Syntax
//!
//! - Each tag stands alone on its line; spaces and tabs around it are allowed. A `<chunk` or
//!   `</chunk` elsewhere in a line (such as in this sentence) is plain text.
//! - The opening tag has exactly two attributes, in either order: `id`, 1 to 64 characters of
//!   `a-z`, `0-9`, `_` and `-` starting with a letter or digit (see [`is_valid_chunk_id`]), and
//!   `description`, non-empty. Values are in double or single quotes. In the description,
//!   `&quot;`, `&apos;`, `&#39;`, `&lt;`, `&gt;` and `&amp;` stand for `"`, `'`, `'`, `<`, `>`
//!   and `&`; any other `&` is kept as it is.
//! - A block runs to the next `</chunk>` line. Blocks cannot nest, and each id is used once.
//! - Tags inside fenced code blocks (```` ``` ```` or `~~~`, closed by a fence of the same
//!   character at least as long; an unclosed fence runs to the end of the body) are text, so a
//!   body can show the syntax in an example. Block quotes and list items are not looked into.
//! - Lines end with `\n` or `\r\n`. Lines and columns in errors are 1-based and count
//!   characters (a tab is one column), within the body.
//!
//! A block with an error is not a chunk: it stays in the body as text, and [`find_chunks`]
//! reports every error, not only the first.

use std::collections::HashMap;
use std::fmt;

use crate::text::lines::{Fences, Line, Lines};

/// A well-formed `<chunk>` block of a body. Offsets are byte offsets into the body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChunkSpan {
    /// The chunk's id.
    pub id: String,
    /// The chunk's description, with entities decoded and surrounding whitespace removed.
    pub description: String,
    /// The start of the line holding the opening tag.
    pub start: usize,
    /// The start of the line after the opening tag: where the chunk's text begins.
    pub content_start: usize,
    /// The start of the line holding the closing tag: where the chunk's text ends.
    pub content_end: usize,
    /// Just after the closing tag's line (after its `\n`, or the end of the body).
    pub end: usize,
    /// The 1-based line of the opening tag within the body.
    pub line: usize,
}

impl ChunkSpan {
    /// The chunk's text, between its tag lines, from the body it was found in; `None` when
    /// `body` is too short or the offsets do not fall on character boundaries.
    #[must_use]
    pub fn content<'a>(&self, body: &'a str) -> Option<&'a str> {
        body.get(self.content_start..self.content_end)
    }
}

/// A mistake in a body's `<chunk>` blocks, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChunkError {
    /// The 1-based line within the body.
    pub line: usize,
    /// The 1-based column within the line, in characters.
    pub column: usize,
    /// What is wrong.
    pub problem: ChunkProblem,
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.problem
        )
    }
}

impl std::error::Error for ChunkError {}

/// What is wrong with a body's `<chunk>` blocks. Each variant is a distinct diagnostic; its
/// `Display` says what is wrong and what is expected, on one line.
///
/// Ids in variants are as written, even when invalid; an empty id stands for a tag whose id
/// could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChunkProblem {
    /// An opening tag without a matching `</chunk>` line (reported at the opening tag).
    Unclosed {
        /// The chunk's id.
        id: String,
    },
    /// An opening tag while another block is open (reported at the inner tag). Neither block
    /// becomes a chunk.
    Nested {
        /// The id of the innermost block still open.
        outer: String,
        /// The id of the block opened inside it.
        inner: String,
    },
    /// A `</chunk>` line with no open block.
    StrayClose,
    /// An opening tag without an `id`, or with an empty one.
    MissingId,
    /// An `id` that [`is_valid_chunk_id`] refuses (reported at the value).
    BadId {
        /// The id as written.
        id: String,
    },
    /// An id already used by an earlier tag (reported at the value). The earlier chunk stays.
    Duplicate {
        /// The id.
        id: String,
        /// The line of the first tag with this id.
        first_line: usize,
    },
    /// An opening tag without a `description`, or with a blank one.
    MissingDescription {
        /// The chunk's id.
        id: String,
    },
    /// An attribute other than `id` and `description`.
    UnknownAttribute {
        /// The attribute's name.
        name: String,
    },
    /// The same attribute given twice in one tag.
    RepeatedAttribute {
        /// The attribute's name.
        name: String,
    },
    /// A tag that cannot be read, reported where reading stopped.
    Malformed {
        /// What was expected there.
        expected: &'static str,
    },
}

impl fmt::Display for ChunkProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unclosed { id } => write!(
                f,
                "{} is never closed: expected a `</chunk>` line after it (one inside a code \
                 fence does not count)",
                Named(id)
            ),
            Self::Nested { outer, inner } => write!(
                f,
                "{} opens inside {}, which is still open: chunks cannot nest; expected \
                 `</chunk>` before this tag",
                Named(inner),
                Named(outer)
            ),
            Self::StrayClose => f.write_str(
                "`</chunk>` without an open chunk: expected a `<chunk id=\"...\" \
                 description=\"...\">` line before it",
            ),
            Self::MissingId => {
                f.write_str("`<chunk>` tag without an id: expected a non-empty `id=\"...\"`")
            }
            Self::BadId { id } => write!(
                f,
                "invalid chunk id `{id}`: expected 1 to 64 characters of `a-z`, `0-9`, `_` and \
                 `-`, starting with a letter or digit"
            ),
            Self::Duplicate { id, first_line } => write!(
                f,
                "chunk id `{id}` is already used on line {first_line}: expected each id once"
            ),
            Self::MissingDescription { id } => write!(
                f,
                "{} has no description: expected a non-empty `description=\"...\"`",
                Named(id)
            ),
            Self::UnknownAttribute { name } => write!(
                f,
                "unknown attribute `{name}` in a `<chunk>` tag: expected only `id` and \
                 `description`"
            ),
            Self::RepeatedAttribute { name } => write!(
                f,
                "attribute `{name}` appears twice in a `<chunk>` tag: expected it once"
            ),
            Self::Malformed { expected } => write!(f, "malformed chunk tag: expected {expected}"),
        }
    }
}

/// A chunk named in a message: "chunk `x`", or "a chunk" when its id could not be read.
struct Named<'a>(&'a str);

impl fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("a chunk")
        } else {
            write!(f, "chunk `{}`", self.0)
        }
    }
}

/// Whether `id` is a valid chunk id: 1 to 64 characters of `a-z`, `0-9`, `_` and `-`, starting
/// with a letter or digit.
#[must_use]
pub fn is_valid_chunk_id(id: &str) -> bool {
    let bytes = id.as_bytes();
    bytes.len() <= 64
        && matches!(bytes.first(), Some(b'a'..=b'z' | b'0'..=b'9'))
        && bytes
            .iter()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-'))
}

/// Every well-formed `<chunk>` block of `body`, in order, and every error.
///
/// See the module documentation for the syntax. Blocks with an error are left out of
/// the spans; the errors are sorted by line and column.
#[must_use]
pub fn find_chunks(body: &str) -> (Vec<ChunkSpan>, Vec<ChunkError>) {
    let mut scan = Scan::default();
    let mut fences = Fences::default();
    for line in Lines::new(body) {
        if fences.is_code(line.text) {
            continue;
        }
        if let Some(at) = tag_start(line.text, OPEN) {
            scan.opening_tag(&line, at);
        } else if let Some(at) = tag_start(line.text, CLOSE) {
            scan.closing_tag(&line, at);
        }
    }
    scan.finish()
}

/// The pieces of `body` outside every span, in order, without empty pieces: the body as served.
///
/// `spans` must come from [`find_chunks`] on the same body. Spans that overlap an earlier one or
/// do not fit the body are skipped rather than trusted.
#[cfg(test)]
pub fn core_segments<'a>(
    body: &'a str,
    spans: &'a [ChunkSpan],
) -> impl Iterator<Item = &'a str> + 'a {
    let mut at = 0;
    let mut spans = spans.iter();
    std::iter::from_fn(move || {
        loop {
            let (piece, next) = match spans.next() {
                Some(span) => (body.get(at..span.start), span.end.max(at)),
                None if at < body.len() => (body.get(at..), body.len()),
                None => return None,
            };
            at = next;
            if let Some(piece) = piece.filter(|p| !p.is_empty()) {
                return Some(piece);
            }
        }
    })
}

const OPEN: &str = "<chunk";
const CLOSE: &str = "</chunk";

/// The byte offset of `tag` in `line` when the line starts with it (after spaces and tabs) and
/// the tag name ends there: `<chunky>` and `<chunk-list>` are text.
fn tag_start(line: &str, tag: &str) -> Option<usize> {
    let rest = line.trim_start_matches([' ', '\t']);
    let after = rest.strip_prefix(tag)?;
    let ends_name = after.is_empty() || after.starts_with([' ', '\t', '>', '/']);
    ends_name.then_some(line.len() - rest.len())
}

/// A block whose opening tag has been read and whose `</chunk>` has not.
struct Open<'a> {
    /// The id as written, or empty when it could not be read.
    id: &'a str,
    /// The description as written, before decoding.
    description: &'a str,
    start: usize,
    content_start: usize,
    line: usize,
    column: usize,
    /// Whether the block can become a chunk: no error so far in its tags or nesting.
    valid: bool,
}

/// The state of [`find_chunks`] between lines.
#[derive(Default)]
struct Scan<'a> {
    /// Blocks open now; more than one only after a [`ChunkProblem::Nested`] error.
    open: Vec<Open<'a>>,
    /// The line of the first tag with each valid id.
    seen: HashMap<&'a str, usize>,
    spans: Vec<ChunkSpan>,
    errors: Vec<ChunkError>,
}

impl<'a> Scan<'a> {
    fn error(&mut self, line: &Line<'_>, at: usize, problem: ChunkProblem) {
        self.errors.push(ChunkError {
            line: line.number,
            column: column(line.text, at),
            problem,
        });
    }

    fn opening_tag(&mut self, line: &Line<'a>, at: usize) {
        let errors_before = self.errors.len();
        let tag = self.read_open_tag(line, at);
        if let Some(&(id, id_at)) = tag.id.as_ref().filter(|(id, _)| is_valid_chunk_id(id)) {
            match self.seen.get(id) {
                Some(&first_line) => self.error(
                    line,
                    id_at,
                    ChunkProblem::Duplicate {
                        id: id.to_owned(),
                        first_line,
                    },
                ),
                None => {
                    self.seen.insert(id, line.number);
                }
            }
        }
        let id = tag.id.map_or("", |(id, _)| id);
        if tag.closes_itself {
            return;
        }
        if let Some(outer) = self.open.last() {
            let problem = ChunkProblem::Nested {
                outer: outer.id.to_owned(),
                inner: id.to_owned(),
            };
            self.error(line, at, problem);
            // Neither block can be served whole, so neither is a chunk; pairing the inner
            // block with the next `</chunk>` keeps the outer one's close from being stray.
            self.open.iter_mut().for_each(|outer| outer.valid = false);
        }
        self.open.push(Open {
            id,
            description: tag.description,
            start: line.start,
            content_start: line.end,
            line: line.number,
            column: column(line.text, at),
            valid: self.errors.len() == errors_before,
        });
    }

    fn closing_tag(&mut self, line: &Line<'_>, at: usize) {
        let well_formed = self.check_close_tag(line, at);
        let Some(block) = self.open.pop() else {
            self.error(line, at, ChunkProblem::StrayClose);
            return;
        };
        if block.valid && well_formed {
            self.spans.push(ChunkSpan {
                id: block.id.to_owned(),
                description: decode_entities(block.description),
                start: block.start,
                content_start: block.content_start,
                content_end: line.start,
                end: line.end,
                line: block.line,
            });
        }
    }

    fn finish(mut self) -> (Vec<ChunkSpan>, Vec<ChunkError>) {
        for block in std::mem::take(&mut self.open) {
            self.errors.push(ChunkError {
                line: block.line,
                column: block.column,
                problem: ChunkProblem::Unclosed {
                    id: block.id.to_owned(),
                },
            });
        }
        // Unclosed blocks are only known at the end; report in reading order.
        self.errors.sort_by_key(|e| (e.line, e.column));
        (self.spans, self.errors)
    }

    /// Reads the opening tag at byte `at` of `line`, reporting its errors.
    fn read_open_tag(&mut self, line: &Line<'a>, at: usize) -> OpenTag<'a> {
        let mut tag = OpenTag::default();
        let mut cursor = Cursor {
            text: line.text,
            pos: at + OPEN.len(),
        };
        let read = self.read_attributes(line, &mut cursor, &mut tag);
        if tag.ended {
            self.check_required(line, at, &tag);
        }
        if let Err((pos, expected)) = read {
            self.error(line, pos, ChunkProblem::Malformed { expected });
        }
        tag
    }

    /// Reads attributes up to the tag's `>` and checks that nothing follows it, or says what
    /// was expected where reading stopped.
    fn read_attributes(
        &mut self,
        line: &Line<'a>,
        cursor: &mut Cursor<'a>,
        tag: &mut OpenTag<'a>,
    ) -> Result<(), (usize, &'static str)> {
        loop {
            let spaced = cursor.skip_spaces();
            match cursor.peek() {
                None => return Err((cursor.pos, "`>` to end the tag on its own line")),
                Some(b'>') => break,
                Some(b'/') if cursor.rest().starts_with("/>") => {
                    tag.closes_itself = true;
                    let expected =
                        "`>`, not `/>`: a chunk's text runs from its tag to a `</chunk>` line";
                    return Err((cursor.pos, expected));
                }
                Some(_) if !spaced => {
                    return Err((cursor.pos, "a space before the next attribute"));
                }
                Some(_) => {
                    let attribute = cursor.attribute()?;
                    self.record(line, tag, attribute);
                }
            }
        }
        tag.ended = true;
        cursor.pos += 1;
        cursor.skip_spaces();
        let after = cursor.rest();
        if after.is_empty() {
            return Ok(());
        }
        // `<chunk ...>text</chunk>` on one line has no `</chunk>` line to wait for.
        tag.closes_itself = after.contains(CLOSE);
        Err((
            cursor.pos,
            "nothing after the tag on its line: the chunk's text goes on the next lines",
        ))
    }

    /// Reports a missing `id` or `description` once the whole tag has been read.
    fn check_required(&mut self, line: &Line<'a>, at: usize, tag: &OpenTag<'a>) {
        let id = tag.id.map_or("", |(id, _)| id);
        if tag.id.is_none() {
            self.error(line, tag.start_of(at), ChunkProblem::MissingId);
        }
        if tag.description.trim().is_empty() {
            let problem = ChunkProblem::MissingDescription { id: id.to_owned() };
            self.error(
                line,
                tag.description_at.unwrap_or(tag.start_of(at)),
                problem,
            );
        }
    }

    /// Stores one attribute of an opening tag, reporting an unknown, repeated or invalid one.
    fn record(&mut self, line: &Line<'a>, tag: &mut OpenTag<'a>, attribute: Attribute<'a>) {
        let Attribute {
            name,
            name_at,
            value,
            value_at,
        } = attribute;
        let repeated = match name {
            "id" => tag.id.is_some() || tag.id_attribute_at.is_some(),
            "description" => tag.description_at.is_some(),
            _ => {
                let name = name.to_owned();
                self.error(line, name_at, ChunkProblem::UnknownAttribute { name });
                return;
            }
        };
        if repeated {
            let name = name.to_owned();
            self.error(line, name_at, ChunkProblem::RepeatedAttribute { name });
            return;
        }
        if name == "description" {
            tag.description = value;
            tag.description_at = Some(name_at);
        } else if value.is_empty() {
            // An empty id reads as a missing one; `check_required` reports it here.
            tag.id_attribute_at = Some(name_at);
        } else {
            if !is_valid_chunk_id(value) {
                self.error(
                    line,
                    value_at,
                    ChunkProblem::BadId {
                        id: value.to_owned(),
                    },
                );
            }
            tag.id = Some((value, value_at));
        }
    }

    /// Checks the rest of a `</chunk>` line; whether it is well formed.
    fn check_close_tag(&mut self, line: &Line<'_>, at: usize) -> bool {
        let mut cursor = Cursor {
            text: line.text,
            pos: at + CLOSE.len(),
        };
        cursor.skip_spaces();
        if cursor.peek() != Some(b'>') {
            self.error(
                line,
                cursor.pos,
                ChunkProblem::Malformed {
                    expected: "`>` to end `</chunk>`",
                },
            );
            return false;
        }
        cursor.pos += 1;
        cursor.skip_spaces();
        if cursor.peek().is_some() {
            let expected = "nothing after `</chunk>` on its line";
            self.error(line, cursor.pos, ChunkProblem::Malformed { expected });
            return false;
        }
        true
    }
}

/// What an opening tag says.
#[derive(Default)]
struct OpenTag<'a> {
    /// The non-empty id as written, and its byte offset in the line.
    id: Option<(&'a str, usize)>,
    /// Where an empty `id=""` attribute starts.
    id_attribute_at: Option<usize>,
    /// The description as written (empty when missing).
    description: &'a str,
    /// Where the `description` attribute starts.
    description_at: Option<usize>,
    /// Whether the tag's `>` was reached, so every attribute was read.
    ended: bool,
    /// Whether no `</chunk>` line is awaited: the tag is self-closing or has its `</chunk>` on
    /// the same line.
    closes_itself: bool,
}

impl OpenTag<'_> {
    /// Where to report a missing id: at an empty `id` attribute, else at the tag.
    fn start_of(&self, tag_at: usize) -> usize {
        self.id_attribute_at.unwrap_or(tag_at)
    }
}

/// One `name="value"` of a tag, with byte offsets in the line.
struct Attribute<'a> {
    name: &'a str,
    name_at: usize,
    value: &'a str,
    value_at: usize,
}

/// A position in one line of a tag.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or_default()
    }

    fn peek(&self) -> Option<u8> {
        self.rest().bytes().next()
    }

    /// Skips spaces and tabs; whether there were any.
    fn skip_spaces(&mut self) -> bool {
        let rest = self.rest();
        let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        self.pos += skipped;
        skipped > 0
    }

    /// Takes the longest prefix of bytes that satisfy `keep`, which must only accept ASCII.
    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'a str {
        let start = self.pos;
        let len = self.rest().bytes().take_while(|&b| keep(b)).count();
        self.pos += len;
        self.text.get(start..self.pos).unwrap_or_default()
    }

    /// Reads `name="value"` or `name='value'`, or says what was expected where it stopped.
    fn attribute(&mut self) -> Result<Attribute<'a>, (usize, &'static str)> {
        let name_at = self.pos;
        let name = self
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'));
        if name.is_empty() {
            return Err((name_at, "an attribute such as `id=\"...\"`, or `>`"));
        }
        self.skip_spaces();
        if self.peek() != Some(b'=') {
            return Err((self.pos, "`=` and a quoted value after the attribute name"));
        }
        self.pos += 1;
        self.skip_spaces();
        let quote = match self.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => return Err((self.pos, "a value in double or single quotes")),
        };
        self.pos += 1;
        let value_at = self.pos;
        let value = self.take_while(|b| b != quote);
        if self.peek() != Some(quote) {
            return Err((self.pos, "a closing quote on the same line"));
        }
        self.pos += 1;
        Ok(Attribute {
            name,
            name_at,
            value,
            value_at,
        })
    }
}

/// The 1-based character column of byte offset `at` in `line`.
fn column(line: &str, at: usize) -> usize {
    let before = line.get(..at).map_or(at, |before| before.chars().count());
    before + 1
}

/// The description with its entities decoded and surrounding whitespace removed.
fn decode_entities(raw: &str) -> String {
    const ENTITIES: [(&str, char); 6] = [
        ("&quot;", '"'),
        ("&apos;", '\''),
        ("&#39;", '\''),
        ("&lt;", '<'),
        ("&gt;", '>'),
        ("&amp;", '&'),
    ];
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw.trim();
    while let Some(i) = rest.find('&') {
        let (before, from_amp) = rest.split_at_checked(i).unwrap_or((rest, ""));
        out.push_str(before);
        match ENTITIES
            .iter()
            .find(|(entity, _)| from_amp.starts_with(entity))
        {
            Some(&(entity, ch)) => {
                out.push(ch);
                rest = from_amp.get(entity.len()..).unwrap_or_default();
            }
            None => {
                out.push('&');
                rest = from_amp.get(1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(spans: &[ChunkSpan]) -> Vec<&str> {
        spans.iter().map(|s| s.id.as_str()).collect()
    }

    /// The errors of `body` as `(line, column, problem)`.
    fn errors(body: &str) -> Vec<(usize, usize, ChunkProblem)> {
        find_chunks(body)
            .1
            .into_iter()
            .map(|e| (e.line, e.column, e.problem))
            .collect()
    }

    fn malformed(expected_part: &str, body: &str) -> (usize, usize) {
        let errs = errors(body);
        assert_eq!(errs.len(), 1, "{body:?}: {errs:?}");
        match &errs[0] {
            (line, column, ChunkProblem::Malformed { expected })
                if expected.contains(expected_part) =>
            {
                (*line, *column)
            }
            other => panic!("{body:?}: expected Malformed({expected_part:?}), got {other:?}"),
        }
    }

    #[test]
    fn span_offsets() {
        let body = "Intro\n<chunk id=\"a\" description=\"A\">\nx\ny\n</chunk>\nOutro";
        let (spans, errs) = find_chunks(body);
        assert!(errs.is_empty());
        let s = &spans[0];
        assert_eq!(
            (s.start, s.content_start, s.content_end, s.end, s.line),
            (6, 37, 41, 50, 2)
        );
        assert_eq!(&body[s.content_start..s.content_end], "x\ny\n");
        assert_eq!(&body[s.end..], "Outro");
    }

    #[test]
    fn closing_tag_at_the_end_without_newline() {
        let body = "<chunk id=\"a\" description=\"A\">\n</chunk>";
        let s = &find_chunks(body).0[0];
        assert_eq!(
            (s.content_start, s.content_end, s.end),
            (31, 31, body.len())
        );
        assert_eq!(s.content(body), Some(""));
    }

    #[test]
    fn crlf_bodies() {
        let body = "A\r\n<chunk id=\"a\" description=\"A\">\r\nx\r\n</chunk>\r\nB\r\n";
        let (spans, errs) = find_chunks(body);
        assert!(errs.is_empty());
        assert_eq!(spans[0].content(body), Some("x\r\n"));
        assert_eq!(
            core_segments(body, &spans).collect::<String>(),
            "A\r\nB\r\n"
        );
    }

    #[test]
    fn attributes_in_either_order_and_either_quotes() {
        let body = "<chunk description='B \"quoted\"' id='b'>\n</chunk>\n\
                    \t <chunk   id=\"c\"\tdescription = \"C\" >  \n</chunk>\t\n";
        let (spans, errs) = find_chunks(body);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(ids(&spans), ["b", "c"]);
        assert_eq!(spans[0].description, "B \"quoted\"");
        assert_eq!(spans[1].description, "C");
    }

    #[test]
    fn description_entities_are_decoded() {
        let body = concat!(
            "<chunk id=\"a\" description=\" &quot;x&quot; &amp;amp; &lt;b&gt; it&#39;s &apos; ",
            "& &foo; &\">\n</chunk>\n",
        );
        let (spans, errs) = find_chunks(body);
        assert!(errs.is_empty());
        assert_eq!(spans[0].description, "\"x\" &amp; <b> it's ' & &foo; &");
    }

    #[test]
    fn tags_inside_text_are_text() {
        let body = concat!(
            "Use <chunk id=\"a\" description=\"b\"> tags.\n",
            "A `</chunk>` closes.\n",
            "<chunky>\n</chunks>\n<chunk-list>\n",
        );
        assert_eq!(find_chunks(body), (vec![], vec![]));
    }

    #[test]
    fn tags_in_fences_are_ignored() {
        let body = "```\n<chunk id=\"a\" description=\"A\">\n```\n\
                    ~~~~md\n</chunk>\n~~~\n~~~~\n\
                    <chunk id=\"b\" description=\"B\">\n\
                    ````\n</chunk>\n```\n````\n\
                    </chunk>\n";
        let (spans, errs) = find_chunks(body);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(ids(&spans), ["b"]);
        assert_eq!(spans[0].content(body), Some("````\n</chunk>\n```\n````\n"));
    }

    #[test]
    fn an_unclosed_fence_hides_the_closing_tag() {
        let body = "<chunk id=\"a\" description=\"A\">\n```\n</chunk>\n";
        assert_eq!(
            errors(body),
            [(1, 1, ChunkProblem::Unclosed { id: "a".into() })]
        );
    }

    #[test]
    fn unclosed() {
        let body = "x\n  <chunk id=\"a\" description=\"A\">\ntext\n";
        let (spans, errs) = find_chunks(body);
        assert!(spans.is_empty());
        let e = &errs[0];
        assert_eq!(
            (e.line, e.column, &e.problem),
            (2, 3, &ChunkProblem::Unclosed { id: "a".into() })
        );
        assert!(
            e.to_string()
                .starts_with("line 2, column 3: chunk `a` is never closed")
        );
    }

    #[test]
    fn nesting_is_an_error_and_drops_both_blocks() {
        let body = "<chunk id=\"a\" description=\"A\">\n\
                    \t<chunk id=\"b\" description=\"B\">\n\
                    </chunk>\n\
                    </chunk>\n\
                    <chunk id=\"c\" description=\"C\">\n\
                    </chunk>\n";
        let (spans, errs) = find_chunks(body);
        assert_eq!(ids(&spans), ["c"]);
        assert_eq!(errs.len(), 1, "{errs:?}");
        let e = &errs[0];
        let nested = ChunkProblem::Nested {
            outer: "a".into(),
            inner: "b".into(),
        };
        assert_eq!((e.line, e.column, &e.problem), (2, 2, &nested));
    }

    #[test]
    fn a_forgotten_close_reports_nesting_and_unclosed() {
        let body =
            "<chunk id=\"a\" description=\"A\">\n<chunk id=\"b\" description=\"B\">\n</chunk>\n";
        assert_eq!(
            errors(body),
            [
                (1, 1, ChunkProblem::Unclosed { id: "a".into() }),
                (
                    2,
                    1,
                    ChunkProblem::Nested {
                        outer: "a".into(),
                        inner: "b".into()
                    }
                ),
            ]
        );
    }

    #[test]
    fn stray_close() {
        let body = "<chunk id=\"a\" description=\"A\">\n</chunk>\n  </chunk>\n";
        let (spans, errs) = find_chunks(body);
        assert_eq!(ids(&spans), ["a"]);
        assert_eq!(
            errs,
            [ChunkError {
                line: 3,
                column: 3,
                problem: ChunkProblem::StrayClose
            }]
        );
    }

    #[test]
    fn missing_and_empty_ids() {
        assert_eq!(
            errors("<chunk description=\"A\">\n</chunk>\n"),
            [(1, 1, ChunkProblem::MissingId)]
        );
        assert_eq!(
            errors(" <chunk id=\"\" description=\"A\">\n</chunk>\n"),
            [(1, 9, ChunkProblem::MissingId)]
        );
    }

    #[test]
    fn bad_ids_are_reported_at_the_value() {
        for id in ["A", "-a", "_a", "a b", "a.b", "é", &"a".repeat(65)] {
            let body = format!("<chunk id='{id}' description='A'>\n</chunk>\n");
            assert_eq!(
                errors(&body),
                [(1, 12, ChunkProblem::BadId { id: id.into() })],
                "{id:?}"
            );
        }
        assert!(
            find_chunks(&format!(
                "<chunk id='{}' description='A'>\n</chunk>\n",
                "a".repeat(64)
            ))
            .1
            .is_empty()
        );
    }

    #[test]
    fn valid_ids() {
        for id in ["a", "0", "a-b_c", "9lives", "a-", "x_"] {
            assert!(is_valid_chunk_id(id), "{id:?}");
        }
        for id in ["", "A", "-", "_x", "a b", "a/b", "ä"] {
            assert!(!is_valid_chunk_id(id), "{id:?}");
        }
    }

    #[test]
    fn duplicates_keep_the_first() {
        let body = concat!(
            "<chunk id=\"a\" description=\"A\">\n1\n</chunk>\n",
            "<chunk id=\"a\" description=\"B\">\n2\n</chunk>\n",
        );
        let (spans, errs) = find_chunks(body);
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].content(body), Some("1\n"));
        let dup = ChunkProblem::Duplicate {
            id: "a".into(),
            first_line: 1,
        };
        assert_eq!(
            errs,
            [ChunkError {
                line: 4,
                column: 12,
                problem: dup
            }]
        );
    }

    #[test]
    fn missing_and_blank_descriptions() {
        let missing = ChunkProblem::MissingDescription { id: "a".into() };
        assert_eq!(
            errors("<chunk id=\"a\">\n</chunk>\n"),
            [(1, 1, missing.clone())]
        );
        assert_eq!(
            errors("<chunk id=\"a\" description=\"  \">\n</chunk>\n"),
            [(1, 15, missing)]
        );
    }

    #[test]
    fn a_bare_tag_lacks_both_attributes() {
        assert_eq!(
            errors("<chunk>\n</chunk>\n"),
            [
                (1, 1, ChunkProblem::MissingId),
                (1, 1, ChunkProblem::MissingDescription { id: String::new() })
            ]
        );
    }

    #[test]
    fn unknown_and_repeated_attributes() {
        let body = "<chunk id=\"a\" desc=\"x\" description=\"A\" id=\"b\">\n</chunk>\n";
        assert_eq!(
            errors(body),
            [
                (
                    1,
                    15,
                    ChunkProblem::UnknownAttribute {
                        name: "desc".into()
                    }
                ),
                (1, 40, ChunkProblem::RepeatedAttribute { name: "id".into() }),
            ]
        );
    }

    #[test]
    fn malformed_tags() {
        assert_eq!(
            malformed(
                "`>` to end the tag",
                "<chunk id=\"a\" description=\"A\"\n</chunk>\n"
            ),
            (1, 30)
        );
        assert_eq!(
            malformed(
                "a space before",
                "<chunk id=\"a\"description=\"A\">\n</chunk>\n"
            ),
            (1, 14)
        );
        assert_eq!(malformed("`=`", "<chunk id \"a\">\n</chunk>\n"), (1, 11));
        assert_eq!(
            malformed("quotes", "<chunk id=a description=\"A\">\n</chunk>\n"),
            (1, 11)
        );
        assert_eq!(
            malformed(
                "closing quote",
                "<chunk id=\"a description='A'>\n</chunk>\n"
            ),
            (1, 30)
        );
        assert_eq!(
            malformed("an attribute", "<chunk id=\"a\" =\"A\">\n</chunk>\n"),
            (1, 15)
        );
        assert_eq!(
            malformed(
                "`>` to end `</chunk>`",
                "<chunk id=\"a\" description=\"A\">\n</chunk\n"
            ),
            (2, 8)
        );
        assert_eq!(
            malformed(
                "nothing after `</chunk>`",
                "<chunk id=\"a\" description=\"A\">\n</chunk> x\n"
            ),
            (2, 10)
        );
    }

    #[test]
    fn malformed_tags_still_pair_with_their_close() {
        // No stray `</chunk>` follows from a tag that could not be read, and no chunk is made.
        let body = "<chunk id=\"a\" description=\"A\"\ntext\n</chunk>\n";
        let (spans, errs) = find_chunks(body);
        assert!(spans.is_empty());
        assert_eq!(errs.len(), 1);
    }

    #[test]
    fn self_closing_tags_open_nothing() {
        let body = "<chunk id=\"a\" description=\"A\"/>\ntext\n";
        assert_eq!(malformed("not `/>`", body), (1, 30));
    }

    #[test]
    fn text_after_the_opening_tag() {
        // With a `</chunk>` on the same line, nothing is left open.
        let inline = "<chunk id=\"a\" description=\"A\">text</chunk>\n";
        assert_eq!(malformed("nothing after the tag", inline), (1, 31));
        // Without one, the block still pairs with the next `</chunk>` line.
        let body = "<chunk id=\"a\" description=\"A\"> text\nmore\n</chunk>\n";
        assert_eq!(malformed("nothing after the tag", body), (1, 32));
        // Attribute errors are still reported, at the tag.
        let missing = ChunkProblem::MissingDescription { id: "a".into() };
        let errs = errors(" <chunk id=\"a\"> x\n</chunk>\n");
        assert_eq!(
            errs.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
            [(1, 2), (1, 17)]
        );
        assert_eq!(errs[0].2, missing);
    }

    #[test]
    fn columns_count_characters() {
        let body = "<chunk description=\"日本語\" id=\"Ü\">\n</chunk>\n";
        assert_eq!(
            errors(body),
            [(1, 30, ChunkProblem::BadId { id: "Ü".into() })]
        );
    }

    #[test]
    fn every_error_is_reported_in_order() {
        let body = "</chunk>\n\
                    <chunk id=\"A\" description=\"x\">\n\
                    </chunk>\n\
                    <chunk id=\"ok\" description=\"fine\">\n\
                    </chunk>\n\
                    <chunk id=\"ok\">\n\
                    </chunk>\n\
                    <chunk id=\"open\" description=\"x\">\n";
        let problems: Vec<_> = errors(body)
            .into_iter()
            .map(|(line, _, p)| (line, p))
            .collect();
        assert_eq!(
            problems,
            [
                (1, ChunkProblem::StrayClose),
                (2, ChunkProblem::BadId { id: "A".into() }),
                (6, ChunkProblem::MissingDescription { id: "ok".into() }),
                (
                    6,
                    ChunkProblem::Duplicate {
                        id: "ok".into(),
                        first_line: 4
                    }
                ),
                (8, ChunkProblem::Unclosed { id: "open".into() }),
            ]
        );
        assert_eq!(ids(&find_chunks(body).0), ["ok"]);
    }

    #[test]
    fn core_segments_skip_every_span() {
        let body = concat!(
            "<chunk id=\"a\" description=\"A\">\n</chunk>\n",
            "mid\n",
            "<chunk id=\"b\" description=\"B\">\nb\n</chunk>",
        );
        let (spans, _) = find_chunks(body);
        assert_eq!(core_segments(body, &spans).collect::<Vec<_>>(), ["mid\n"]);
        assert_eq!(core_segments("plain", &[]).collect::<Vec<_>>(), ["plain"]);
        assert_eq!(core_segments("", &[]).count(), 0);
    }

    #[test]
    fn core_segments_survive_foreign_spans() {
        let span = |start, end| ChunkSpan {
            id: "x".into(),
            description: "x".into(),
            start,
            content_start: start,
            content_end: end,
            end,
            line: 1,
        };
        let spans = [span(2, 4), span(1, 3), span(100, 200)];
        assert_eq!(core_segments("abcdef", &spans).collect::<Vec<_>>(), ["ab"]);
        let spans = [span(1, 2)];
        assert_eq!(core_segments("é!", &spans).collect::<Vec<_>>(), ["!"]);
    }

    #[test]
    fn display_messages_are_one_line_and_distinct() {
        let problems = [
            ChunkProblem::Unclosed { id: "a".into() },
            ChunkProblem::Nested {
                outer: String::new(),
                inner: "b".into(),
            },
            ChunkProblem::StrayClose,
            ChunkProblem::MissingId,
            ChunkProblem::BadId { id: "A".into() },
            ChunkProblem::Duplicate {
                id: "a".into(),
                first_line: 2,
            },
            ChunkProblem::MissingDescription { id: "a".into() },
            ChunkProblem::UnknownAttribute { name: "x".into() },
            ChunkProblem::RepeatedAttribute { name: "id".into() },
            ChunkProblem::Malformed { expected: "`>`" },
        ];
        let messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
        for m in &messages {
            assert!(!m.contains('\n') && m.contains("expected"), "{m}");
        }
        let mut unique = messages.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), messages.len());
        assert!(messages[1].starts_with("chunk `b` opens inside a chunk"));
    }

    /// Bodies stitched from fragments by a fixed pseudo-random sequence, so failures replay.
    fn stitched_bodies() -> impl Iterator<Item = String> {
        const FRAGMENTS: [&str; 18] = [
            "<chunk id=\"a\" description=\"A\">",
            "<chunk description='B' id='b'>",
            "<chunk id=\"c\" description=\"é &amp; 😀\">",
            "</chunk>",
            "  </chunk>  ",
            "<chunk id=\"Bad\">",
            "<chunk id=\"a\" description=\"x\"",
            "```",
            "~~~~",
            "text é😀",
            "",
            "\r",
            "<chunk/>",
            "<chunk id='d' description='D'>x</chunk>",
            "# heading",
            "\t<chunk id=\"e\" description=\"E\" >",
            "</chunk> x",
            "<chunk id=\"f\" description=\"&quot;",
        ];
        crate::text::stitched(0x9E37_79B9_7F4A_7C15, &FRAGMENTS).map(|(body, _)| body)
    }

    #[test]
    fn spans_and_core_segments_partition_any_body() {
        let (mut span_count, mut error_count) = (0, 0);
        for body in stitched_bodies() {
            let (spans, errs) = find_chunks(&body);
            span_count += spans.len();
            error_count += errs.len();
            let mut rebuilt = String::new();
            let mut at = 0;
            for s in &spans {
                assert!(at <= s.start, "{body:?}: spans out of order");
                assert!(s.start < s.content_start && s.content_start <= s.content_end);
                assert!(s.content_end < s.end && s.end <= body.len());
                assert!(s.content(&body).is_some() && is_valid_chunk_id(&s.id));
                assert!(!s.description.is_empty());
                rebuilt.push_str(&body[at..s.start]);
                rebuilt.push_str(&body[s.start..s.end]);
                at = s.end;
            }
            rebuilt.push_str(&body[at..]);
            assert_eq!(rebuilt, body);
            let core: String = core_segments(&body, &spans).collect();
            let in_spans: usize = spans.iter().map(|s| s.end - s.start).sum();
            assert_eq!(core.len() + in_spans, body.len());
            let lines = body.lines().count().max(1);
            for e in &errs {
                assert!(
                    (1..=lines).contains(&e.line) && e.column >= 1,
                    "{body:?}: {e}"
                );
            }
        }
        // The fragments must exercise both outcomes for the test to mean anything.
        assert!(
            span_count > 100 && error_count > 100,
            "{span_count} {error_count}"
        );
    }

    #[test]
    fn never_panics_on_odd_input() {
        let inputs = [
            "",
            "<",
            "<chunk",
            "</chunk",
            "<chunk ",
            "<chunk id",
            "<chunk id=",
            "<chunk id='",
            "<chunk id='a",
            "<chunk id='a'",
            "<chunk id='a' description",
            "<chunk\u{FEFF}>",
            "<chunk é='1'>",
            "<chunk id='é' description='😀'>\r",
            "\r\n\r\n",
            "```",
            "~~~\n<chunk",
            "<chunk />",
            "<chunk/>",
            "</chunk >",
            "</chunk/>",
            "\t<chunk\t>\t",
            "<chunk id=\"a\" description=\"&\">\n</chunk>",
        ];
        for input in inputs {
            let (spans, errs) = find_chunks(input);
            for s in &spans {
                assert!(s.content(input).is_some());
            }
            for e in &errs {
                assert!(e.line >= 1 && e.column >= 1);
            }
            let _ = core_segments(input, &spans).count();
        }
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn module_example() {
        use crate::text::chunks::{core_segments, find_chunks};

        let body = "# Forms\n\
                    <chunk id=\"examples\" description=\"Worked examples &amp; tips\">\n\
                    Example 1\n\
                    </chunk>\n\
                    Done.\n";
        let (spans, errors) = find_chunks(body);
        assert!(errors.is_empty());
        assert_eq!(spans[0].id, "examples");
        assert_eq!(spans[0].description, "Worked examples & tips");
        assert_eq!(spans[0].content(body), Some("Example 1\n"));
        assert_eq!(
            core_segments(body, &spans).collect::<String>(),
            "# Forms\nDone.\n"
        );

        let (spans, errors) = find_chunks("<chunk id=\"Bad Id\" description=\"x\">\n</chunk>\n");
        assert!(spans.is_empty());
        assert_eq!(
            errors[0].to_string(),
            "line 1, column 12: invalid chunk id `Bad Id`: expected 1 to 64 characters of `a-z`, \
             `0-9`, `_` and `-`, starting with a letter or digit",
        );
    }
    #[test]
    fn chunkspan_example() {
        use crate::text::chunks::find_chunks;
        let body = "Intro\n  <chunk id=\"a\" description=\"A\">\n  text\n</chunk>\nOutro\n";
        let span = &find_chunks(body).0[0];
        let block = "  <chunk id=\"a\" description=\"A\">\n  text\n</chunk>\n";
        assert_eq!(&body[span.start..span.end], block);
        assert_eq!(&body[span.content_start..span.content_end], "  text\n");
        assert_eq!(span.line, 2);
    }
    #[test]
    fn content_example() {
        use crate::text::chunks::find_chunks;
        let body = "<chunk id=\"a\" description=\"A\">\nhello\n</chunk>";
        assert_eq!(find_chunks(body).0[0].content(body), Some("hello\n"));
    }
    #[test]
    fn chunkerror_example() {
        use crate::text::chunks::{ChunkProblem, find_chunks};
        let (_, errors) = find_chunks("text\n</chunk>\n");
        assert_eq!((errors[0].line, errors[0].column), (2, 1));
        assert_eq!(errors[0].problem, ChunkProblem::StrayClose);
    }
    #[test]
    fn chunkproblem_example() {
        use crate::text::chunks::ChunkProblem;
        let problem = ChunkProblem::Duplicate {
            id: "examples".into(),
            first_line: 3,
        };
        assert_eq!(
            problem.to_string(),
            "chunk id `examples` is already used on line 3: expected each id once",
        );
    }
    #[test]
    fn is_valid_chunk_id_example() {
        use crate::text::chunks::is_valid_chunk_id;
        assert!(is_valid_chunk_id("worked-examples_2"));
        assert!(!is_valid_chunk_id("Examples"));
        assert!(!is_valid_chunk_id("-examples"));
        assert!(!is_valid_chunk_id(""));
    }
    #[test]
    fn find_chunks_example() {
        use crate::text::chunks::{ChunkProblem, find_chunks};
        let body = "<chunk id=\"a\" description=\"A\">\n\
                    a\n\
                    </chunk>\n\
                    ```\n\
                    <chunk id=\"shown\" description=\"only an example\">\n\
                    ```\n\
                    <chunk id=\"b\">\n\
                    b\n";
        let (spans, errors) = find_chunks(body);
        assert_eq!(
            spans.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["a"]
        );
        let problems: Vec<_> = errors.iter().map(|e| (e.line, &e.problem)).collect();
        assert_eq!(
            problems,
            [
                (7, &ChunkProblem::MissingDescription { id: "b".into() }),
                (7, &ChunkProblem::Unclosed { id: "b".into() }),
            ]
        );
    }
    #[test]
    fn core_segments_example() {
        use crate::text::chunks::{core_segments, find_chunks};
        let body = "A\n<chunk id=\"x\" description=\"X\">\nx\n</chunk>\nB\n";
        let (spans, _) = find_chunks(body);
        assert_eq!(
            core_segments(body, &spans).collect::<Vec<_>>(),
            ["A\n", "B\n"]
        );
    }
}
