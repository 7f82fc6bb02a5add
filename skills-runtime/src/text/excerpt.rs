//! Sections and size-capped excerpts of a text file, for serving resources piece by piece.
//!
//! A model asks for a resource, optionally with a `section_hint` (a Markdown heading). The loader
//! answers with [`section`] (from that heading to the next heading of the same or a higher
//! level), and caps what it returns with [`excerpt`], whose [`Excerpt::next_offset`] is the
//! continuation hint for the next call.
//!
//! # What counts as a heading
//!
//! The rules are CommonMark's, restricted to what matters for finding sections:
//!
//! - ATX headings only: a line of 1 to 6 `#`s, then a space, a tab or the end of the line,
//!   indented by at most 3 spaces. A closing run of `#`s (after a space) is not part of the title.
//! - Setext headings (a line underlined with `===` or `---`) are **not** headings here: telling
//!   them from a paragraph followed by a thematic break needs a full Markdown parser, and a wrong
//!   guess would cut a section in the middle.
//! - Lines inside fenced code blocks (```` ``` ```` or `~~~`, closed by a fence of the same
//!   character at least as long; an unclosed fence runs to the end of the text) are never
//!   headings, so a `# comment` in a shell example does not start a section.
//! - Block quotes, list items and HTML blocks are not looked into: a `> # Title` line is text.
//!
//! Lines end with `\n` or `\r\n`; a lone `\r` is not a line ending. A leading byte order mark is
//! not skipped: the SKILL.md parser strips it, and a resource starting with one simply has no
//! heading on its first line.
//!
//! Offsets are byte offsets into the text, and every returned piece is a subslice of it: nothing
//! here allocates except [`headings`], which returns a `Vec`.

use crate::text::lines::{Fences, Lines, block_indent_stripped};

/// A `#` heading of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Heading<'a> {
    /// The number of `#`s, 1 to 6.
    pub level: u8,
    /// The title: the text after the `#`s, without surrounding spaces and closing `#`s.
    pub title: &'a str,
    /// The byte offset of the start of the heading's line (before any indentation).
    pub start: usize,
    /// The 1-based line number of the heading.
    pub line: usize,
}

/// Every ATX heading of `text` outside fenced code blocks, in order.
///
/// See the module documentation for what counts as a heading.
#[must_use]
pub fn headings(text: &str) -> Vec<Heading<'_>> {
    Headings::new(text).collect()
}

/// A heading and the text it governs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Section<'a> {
    /// The heading the section starts with.
    pub heading: Heading<'a>,
    /// From the start of the heading's line to the start of the next heading of the same or a
    /// higher level (a level number at most the heading's own), or to the end of the text.
    pub text: &'a str,
    /// The byte offset of `text` in the whole text: the same as `heading.start`.
    pub start: usize,
}

/// The section of `text` under the heading named `wanted`, or `None`.
///
/// `wanted` may be written as a heading (`"## Usage"`) or as a bare title (`"usage"`): leading
/// `#`s, surrounding whitespace and a closing run of `#`s are ignored, and titles are compared
/// case-insensitively. The first heading with an equal title wins; failing that, the one heading
/// whose title starts with `wanted`, if exactly one does. An empty `wanted` finds nothing.
/// Headings inside fenced code blocks are neither found nor end a section.
#[must_use]
pub fn section<'a>(text: &'a str, wanted: &str) -> Option<Section<'a>> {
    let wanted = normalize_wanted(wanted);
    if wanted.is_empty() {
        return None;
    }
    let heading = find_heading(text, wanted)?;
    let end = section_end(text, &heading);
    Some(Section {
        heading,
        text: text.get(heading.start..end)?,
        start: heading.start,
    })
}

/// A piece of a text, at most a given number of characters long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Excerpt<'a> {
    /// The piece: `&whole[start..end]`.
    pub text: &'a str,
    /// The byte offset where the piece starts.
    pub start: usize,
    /// The byte offset just after the piece.
    pub end: usize,
    /// The length of the whole text in bytes.
    pub total_bytes: usize,
    /// Whether the piece is not the whole text: something comes after it, or it does not start
    /// at the beginning.
    pub truncated: bool,
}

impl Excerpt<'_> {
    /// Where the next piece starts, when something comes after this one.
    #[must_use]
    pub fn next_offset(&self) -> Option<usize> {
        (self.end < self.total_bytes).then_some(self.end)
    }

    /// The number of characters in the piece (not bytes).
    #[must_use]
    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }
}

/// At most `max_chars` characters of `text` from byte `offset`, cut after a whole line.
///
/// - An `offset` inside a character moves forward to the next character; an `offset` at or past
///   the end gives an empty excerpt at the end, with `truncated` false.
/// - The piece ends just after the last `\n` that fits in `max_chars` characters, or at the end of
///   the text if all of the rest fits. When not even one whole line fits, it ends after exactly
///   `max_chars` characters, so a single huge line still comes out in pieces.
/// - A `max_chars` of 0 counts as 1, so every call on a non-empty rest makes progress.
///
/// Calling again with `offset` = `Excerpt::next_offset` until it is `None` returns every byte
/// of the text exactly once, in order.
#[must_use]
pub fn excerpt(text: &str, offset: usize, max_chars: usize) -> Excerpt<'_> {
    let total_bytes = text.len();
    // A char boundary is at most 3 bytes ahead, so this look-ahead is O(1).
    let start = (offset..total_bytes).find(|&i| text.is_char_boundary(i));
    let Some((start, rest)) = start.and_then(|s| Some((s, text.get(s..)?))) else {
        let end = text.get(total_bytes..).unwrap_or_default();
        return Excerpt {
            text: end,
            start: total_bytes,
            end: total_bytes,
            total_bytes,
            truncated: false,
        };
    };
    let len = cut(rest, max_chars.max(1));
    let (piece, end) = match rest.get(..len) {
        Some(piece) => (piece, start + len),
        None => (rest, total_bytes),
    };
    Excerpt {
        text: piece,
        start,
        end,
        total_bytes,
        truncated: start > 0 || end < total_bytes,
    }
}

/// The length in bytes of the longest prefix of `rest` that holds at most `max_chars` characters
/// and ends after a `\n` (or at the end of `rest`); without such a prefix, exactly `max_chars`
/// characters.
fn cut(rest: &str, max_chars: usize) -> usize {
    // A char takes at least one byte: text no longer in bytes than the limit fits whole,
    // without counting its chars.
    if rest.len() <= max_chars {
        return rest.len();
    }
    let mut after_newline = 0;
    for (count, (i, c)) in rest.char_indices().enumerate() {
        if count == max_chars {
            return if after_newline > 0 { after_newline } else { i };
        }
        if c == '\n' {
            after_newline = i + 1;
        }
    }
    rest.len()
}

/// `wanted` as a bare title: without leading `#`s, surrounding whitespace and closing `#`s.
fn normalize_wanted(wanted: &str) -> &str {
    closing_sequence_stripped(wanted.trim().trim_start_matches('#').trim())
}

/// The first heading titled `wanted`, else the only one whose title starts with it.
fn find_heading<'a>(text: &'a str, wanted: &str) -> Option<Heading<'a>> {
    let mut by_prefix = None;
    let mut prefix_matches = 0_usize;
    for heading in Headings::new(text) {
        // Titles are trimmed of spaces and tabs only (CommonMark), `wanted` of all whitespace:
        // compare them trimmed alike, or a title with a no-break space at its edge could not be
        // found by its own text (found by the property tests).
        let title = heading.title.trim();
        if eq_ignore_case(title, wanted) {
            return Some(heading);
        }
        if starts_with_ignore_case(title, wanted) {
            prefix_matches += 1;
            by_prefix.get_or_insert(heading);
        }
    }
    by_prefix.filter(|_| prefix_matches == 1)
}

/// Where the section of `heading` ends: the next heading of the same or a higher level.
fn section_end(text: &str, heading: &Heading<'_>) -> usize {
    let rest_start = line_end(text, heading.start);
    // A heading is never inside a fence, so fence tracking may start afresh after it.
    let rest = text.get(rest_start..).unwrap_or_default();
    let mut following = Headings {
        lines: Lines::new(rest),
        fences: Fences::default(),
    };
    following
        .find(|h| h.level <= heading.level)
        .map_or(text.len(), |h| rest_start + h.start)
}

/// The offset just after the line that starts at `start`.
fn line_end(text: &str, start: usize) -> usize {
    let rest = text.get(start..).unwrap_or_default();
    rest.find('\n').map_or(text.len(), |i| start + i + 1)
}

/// `s` lowercased for comparison. A final sigma is folded to `σ`, as full case folding does,
/// since `char::to_lowercase` cannot know which sigma ends a word.
fn lowercase(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ς' { 'σ' } else { c })
}

/// Unicode case-insensitive equality, without allocating lowercase copies.
fn eq_ignore_case(a: &str, b: &str) -> bool {
    lowercase(a).eq(lowercase(b))
}

fn starts_with_ignore_case(s: &str, prefix: &str) -> bool {
    let mut s = lowercase(s);
    lowercase(prefix).all(|c| s.next() == Some(c))
}

/// The headings of a text, found lazily so that [`section`] does not allocate.
struct Headings<'a> {
    lines: Lines<'a>,
    fences: Fences,
}

impl<'a> Headings<'a> {
    fn new(text: &'a str) -> Self {
        Headings {
            lines: Lines::new(text),
            fences: Fences::default(),
        }
    }
}

impl<'a> Iterator for Headings<'a> {
    type Item = Heading<'a>;

    fn next(&mut self) -> Option<Heading<'a>> {
        loop {
            let line = self.lines.next()?;
            if self.fences.is_code(line.text) {
                continue;
            }
            if let Some((level, title)) = atx_heading(line.text) {
                return Some(Heading {
                    level,
                    title,
                    start: line.start,
                    line: line.number,
                });
            }
        }
    }
}

/// The level and title of an ATX heading line (without its line ending).
pub(crate) fn atx_heading(line: &str) -> Option<(u8, &str)> {
    let rest = block_indent_stripped(line)?;
    let level = rest.bytes().take_while(|&b| b == b'#').count();
    let after = rest.get(level..)?;
    let level = u8::try_from(level).ok().filter(|l| (1..=6).contains(l))?;
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    Some((
        level,
        closing_sequence_stripped(after.trim_matches([' ', '\t'])),
    ))
}

/// `title` without a closing run of `#`s, which only counts after a space or tab (`# C#` is
/// titled `C#`) or when it is the whole title (`## ##` is untitled).
fn closing_sequence_stripped(title: &str) -> &str {
    let before = title.trim_end_matches('#');
    if before.is_empty() {
        ""
    } else if before.ends_with([' ', '\t']) {
        before.trim_end_matches([' ', '\t'])
    } else {
        title
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles(text: &str) -> Vec<(u8, &str)> {
        headings(text).iter().map(|h| (h.level, h.title)).collect()
    }

    #[test]
    fn atx_heading_rules() {
        let text = concat!(
            "# One\n###### Six\n####### Seven\n#NoSpace\n#\n#\tTab\n",
            "   # Three spaces\n    # Four spaces\n\t# Tab indent\n",
        );
        assert_eq!(
            titles(text),
            [
                (1, "One"),
                (6, "Six"),
                (1, ""),
                (1, "Tab"),
                (1, "Three spaces")
            ]
        );
    }

    #[test]
    fn closing_hashes_are_stripped_only_after_a_space() {
        let text = "## Usage ##\n# C#\n### Both ###   \n## ##\n# foo #bar\n# trailing \\#\n";
        assert_eq!(
            titles(text),
            [
                (2, "Usage"),
                (1, "C#"),
                (3, "Both"),
                (2, ""),
                (1, "foo #bar"),
                (1, "trailing \\#")
            ]
        );
    }

    #[test]
    fn heading_offsets_and_lines() {
        let text = "intro\r\n\r\n  ## Two  \r\nx";
        assert_eq!(
            headings(text),
            [Heading {
                level: 2,
                title: "Two",
                start: 9,
                line: 3
            }]
        );
    }

    #[test]
    fn setext_headings_are_not_headings() {
        assert!(headings("Title\n=====\nSub\n---\n").is_empty());
    }

    #[test]
    fn headings_in_backtick_and_tilde_fences_are_ignored() {
        let text = "```\n# a\n```\n~~~\n# b\n~~~\n# c\n";
        assert_eq!(titles(text), [(1, "c")]);
    }

    #[test]
    fn a_fence_closes_only_with_its_own_character_and_length() {
        // A shorter fence, the other character and a fence with text after it do not close.
        let text = "````md\n```\n~~~~\n```` x\n# inside\n`````\n# outside\n";
        assert_eq!(titles(text), [(1, "outside")]);
    }

    #[test]
    fn a_tilde_fence_info_may_hold_backticks_but_a_backtick_one_may_not() {
        assert_eq!(titles("~~~ a`b\n# in\n~~~\n# out\n"), [(1, "out")]);
        // "``` a`b" is inline code, not a fence, so the next line is a heading.
        assert_eq!(titles("``` a`b\n# real\n"), [(1, "real")]);
    }

    #[test]
    fn an_unclosed_fence_runs_to_the_end() {
        assert_eq!(titles("# before\n```\n# in\n## also in\n"), [(1, "before")]);
    }

    #[test]
    fn indented_fences() {
        // Up to 3 spaces opens and closes a fence; 4 spaces is an indented code line.
        assert_eq!(titles("   ```\n# in\n   ```\n# out\n"), [(1, "out")]);
        assert_eq!(titles("    ```\n# heading\n"), [(1, "heading")]);
        assert_eq!(titles("```\n    ```\n# in\n"), []);
    }

    #[test]
    fn fences_in_block_quotes_are_not_looked_into() {
        assert_eq!(titles("> ```\n# out\n"), [(1, "out")]);
    }

    #[test]
    fn crlf_fences_and_headings() {
        let text = "```\r\n# in\r\n```\r\n## Out ##\r\n";
        assert_eq!(titles(text), [(2, "Out")]);
    }

    #[test]
    fn section_matching() {
        let text = "# Top\n## Usage\nu\n## Usage notes\nn\n## Limits\nl\n";
        for wanted in [
            "## Usage",
            "usage",
            "  USAGE  ",
            "##Usage",
            "## Usage ##",
            "#  usage",
        ] {
            assert_eq!(
                section(text, wanted).map(|s| s.heading.line),
                Some(2),
                "{wanted:?}"
            );
        }
        // "Usage" is a prefix of two titles, but the exact match wins.
        assert_eq!(
            section(text, "usage notes").map(|s| s.text),
            Some("## Usage notes\nn\n")
        );
        // A unique prefix matches; an ambiguous one does not.
        assert_eq!(section(text, "lim").map(|s| s.text), Some("## Limits\nl\n"));
        assert_eq!(section(text, "Us"), None);
        assert_eq!(section(text, "Usage notes and more"), None);
        assert_eq!(section(text, ""), None);
        assert_eq!(section(text, " ## "), None);
    }

    #[test]
    fn the_first_of_equal_titles_wins() {
        let text = "## Notes\na\n## Notes\nb\n";
        assert_eq!(
            section(text, "notes").map(|s| s.text),
            Some("## Notes\na\n")
        );
    }

    #[test]
    fn unicode_titles_compare_case_insensitively() {
        let text = "## Übersicht\nx\n## ΣΊΣΥΦΟΣ\ny\n";
        assert_eq!(section(text, "übersicht").map(|s| s.heading.line), Some(1));
        assert_eq!(section(text, "ÜBER").map(|s| s.heading.line), Some(1));
        assert_eq!(section(text, "σίσυφος").map(|s| s.heading.line), Some(3));
    }

    #[test]
    fn sections_nest_by_level() {
        let text = "# A\n## B\n### C\nc\n## D\nd\n# E\ne\n";
        assert_eq!(
            section(text, "A").map(|s| s.text),
            Some("# A\n## B\n### C\nc\n## D\nd\n")
        );
        assert_eq!(section(text, "B").map(|s| s.text), Some("## B\n### C\nc\n"));
        assert_eq!(section(text, "C").map(|s| s.text), Some("### C\nc\n"));
        assert_eq!(section(text, "D").map(|s| s.text), Some("## D\nd\n"));
        assert_eq!(section(text, "E").map(|s| s.text), Some("# E\ne\n"));
    }

    #[test]
    fn a_section_ends_at_a_higher_level_heading_even_after_deeper_ones() {
        let text = "### Deep\nx\n## Higher\n";
        assert_eq!(section(text, "deep").map(|s| s.text), Some("### Deep\nx\n"));
    }

    #[test]
    fn section_to_the_end_of_the_text() {
        assert_eq!(
            section("x\n## Last\nno newline", "last").map(|s| s.text),
            Some("## Last\nno newline")
        );
        assert_eq!(
            section("## Last", "last").map(|s| (s.text, s.start)),
            Some(("## Last", 0))
        );
    }

    #[test]
    fn headings_in_fences_neither_match_nor_end_a_section() {
        let text = "## Run\n```sh\n# Setup\n## Run\n```\nmore\n~~~\n# x\n~~~\n## Next\n";
        let run = section(text, "run");
        assert_eq!(run.map(|s| (s.heading.line, s.start)), Some((1, 0)));
        assert_eq!(run.map(|s| s.text), text.split_once("## Next").map(|p| p.0));
        assert_eq!(section(text, "setup"), None);
    }

    #[test]
    fn section_offsets_and_crlf() {
        let text = "intro\r\n## Usage\r\nu\r\n## Other\r\n";
        let usage = section(text, "usage");
        assert_eq!(
            usage.map(|s| (s.start, s.heading.start, s.text)),
            Some((7, 7, "## Usage\r\nu\r\n"))
        );
    }

    #[test]
    fn excerpt_cuts_after_whole_lines() {
        let text = "ab\ncd\nef\n";
        let e = excerpt(text, 0, 7);
        assert_eq!(
            (e.text, e.end, e.truncated, e.next_offset()),
            ("ab\ncd\n", 6, true, Some(6))
        );
        let e = excerpt(text, 6, 7);
        assert_eq!(
            (e.text, e.start, e.truncated, e.next_offset()),
            ("ef\n", 6, true, None)
        );
        let e = excerpt(text, 0, 100);
        assert_eq!((e.text, e.truncated, e.next_offset()), (text, false, None));
    }

    #[test]
    fn excerpt_takes_the_rest_without_final_newline_when_it_fits() {
        assert_eq!(excerpt("ab\ncd", 0, 5).text, "ab\ncd");
        assert_eq!(excerpt("ab\ncd", 0, 4).text, "ab\n");
    }

    #[test]
    fn excerpt_splits_a_line_too_long_for_the_cap() {
        let e = excerpt("abcdef\n", 0, 4);
        assert_eq!((e.text, e.next_offset()), ("abcd", Some(4)));
        assert_eq!(excerpt("abcdef\n", 4, 4).text, "ef\n");
    }

    #[test]
    fn excerpt_counts_characters_not_bytes() {
        let text = "é😀日本";
        let e = excerpt(text, 0, 2);
        assert_eq!((e.text, e.chars(), e.end), ("é😀", 2, 6));
    }

    #[test]
    fn excerpt_moves_an_offset_inside_a_character_forward() {
        let text = "a😀b";
        for offset in 2..=4 {
            let e = excerpt(text, offset, 10);
            assert_eq!((e.text, e.start), ("b", 5), "offset {offset}");
        }
    }

    #[test]
    fn excerpt_at_or_past_the_end_is_empty_and_not_truncated() {
        for (text, offset) in [
            ("abc", 3),
            ("abc", 4),
            ("abc", usize::MAX),
            ("", 0),
            ("é", 1),
        ] {
            let e = excerpt(text, offset, 10);
            assert_eq!(
                (e.text, e.start, e.end, e.truncated),
                ("", text.len(), text.len(), false)
            );
            assert_eq!(e.next_offset(), None);
        }
    }

    #[test]
    fn excerpt_starting_after_zero_is_truncated() {
        let e = excerpt("ab\ncd\n", 3, 100);
        assert_eq!((e.text, e.truncated, e.next_offset()), ("cd\n", true, None));
    }

    #[test]
    fn excerpt_zero_cap_counts_as_one() {
        let e = excerpt("ab", 0, 0);
        assert_eq!((e.text, e.next_offset()), ("a", Some(1)));
    }

    #[test]
    fn excerpt_keeps_crlf_together_when_cutting_at_lines() {
        assert_eq!(excerpt("ab\r\ncd\r\n", 0, 5).text, "ab\r\n");
    }

    #[test]
    fn successive_excerpts_cover_the_text_exactly_once() {
        let huge_line = "x".repeat(1000) + "é" + &"y".repeat(37);
        let texts = [
            String::new(),
            "a".into(),
            "\n".into(),
            "\n\n\n".into(),
            "one\ntwo\nthree\nfour\n".into(),
            "é😀日本\nü\n😀😀😀😀\n日本語のテキスト\nend".into(),
            "line one\r\nline two\r\n\r\nlast\r\n".into(),
            huge_line,
            "mixed\nsome much longer line here\n\né😀\r\n".repeat(20),
        ];
        for text in &texts {
            for cap in [0, 1, 2, 3, 5, 7, 16, 100, 12_000, usize::MAX] {
                walk(text, cap);
            }
        }
    }

    fn walk(text: &str, cap: usize) {
        let mut whole = String::new();
        let mut offset = 0;
        let mut calls = 0;
        loop {
            let e = excerpt(text, offset, cap);
            assert_eq!(e.start, offset, "{text:?} cap {cap}: gap or overlap");
            assert_eq!(text.get(e.start..e.end), Some(e.text));
            assert!(
                e.chars() <= cap.max(1),
                "{text:?} cap {cap}: {:?} too long",
                e.text
            );
            assert_eq!(e.truncated, e.start > 0 || e.end < text.len());
            whole.push_str(e.text);
            calls += 1;
            assert!(calls <= text.len() + 1, "no progress");
            match e.next_offset() {
                Some(next) => {
                    assert!(next > offset);
                    offset = next;
                }
                None => break,
            }
        }
        assert_eq!(whole, text, "cap {cap}");
    }

    #[test]
    fn sections_and_excerpts_hold_on_stitched_texts() {
        const FRAGMENTS: [&str; 12] = [
            "# A",
            "## B",
            "### C ###",
            "## b",
            "```",
            "~~~",
            "    # code",
            "text é😀日本",
            "",
            "#",
            "Setext\n===",
            "## B more",
        ];
        for (text, drawn) in crate::text::stitched(0x2545_F491_4F6C_DD1D, &FRAGMENTS) {
            for h in headings(&text) {
                let line = text[..h.start].matches('\n').count() + 1;
                assert_eq!(line, h.line, "{text:?}");
                assert!(text[h.start..].trim_start_matches(' ').starts_with('#'));
            }
            for wanted in ["a", "## B", "c", "b more", "", "#"] {
                if let Some(s) = section(&text, wanted) {
                    assert_eq!(text.get(s.start..s.start + s.text.len()), Some(s.text));
                    assert_eq!(s.start, s.heading.start);
                }
            }
            walk(&text, 1 + usize::try_from(drawn >> 58).unwrap_or(0));
        }
    }

    #[test]
    fn lines_report_offsets_without_line_endings() {
        let lines: Vec<_> = Lines::new("a\r\n\nb")
            .map(|l| (l.start, l.end, l.text, l.number))
            .collect();
        assert_eq!(lines, [(0, 3, "a", 1), (3, 4, "", 2), (4, 5, "b", 3)]);
        assert_eq!(Lines::new("").count(), 0);
    }
}

/// Examples of items this module keeps to the crate.
#[cfg(test)]
mod examples {
    #[test]
    fn module_example() {
        use crate::text::excerpt::{excerpt, section};

        let text = "# Forms\nIntro.\n## Usage\nFill it.\n### Fields\nName.\n## Limits\nNone.\n";
        let usage = section(text, "## usage").unwrap();
        assert_eq!(usage.text, "## Usage\nFill it.\n### Fields\nName.\n");

        // A cap of 20 characters: whole lines while they fit, then the rest on the next call.
        let first = excerpt(text, 0, 20);
        assert_eq!(first.text, "# Forms\nIntro.\n");
        let second = excerpt(text, first.next_offset().unwrap(), 20);
        assert_eq!(second.text, "## Usage\nFill it.\n");
    }
    #[test]
    fn heading_example() {
        use crate::text::excerpt::{Heading, headings};
        let text = "Intro\n## Usage ##\n";
        assert_eq!(
            headings(text),
            [Heading {
                level: 2,
                title: "Usage",
                start: 6,
                line: 2
            }]
        );
    }
    #[test]
    fn headings_example() {
        use crate::text::excerpt::headings;
        let text = "# Title\n```sh\n# not a heading\n```\n## Next #\nUnderlined\n===\n";
        let found: Vec<_> = headings(text)
            .iter()
            .map(|h| (h.level, h.title, h.line))
            .collect();
        assert_eq!(found, [(1, "Title", 1), (2, "Next", 5)]);
    }
    #[test]
    fn section_example() {
        use crate::text::excerpt::section;
        let text = "# A\none\n## B\ntwo\n# C\nthree\n";
        let a = section(text, "A").unwrap();
        assert_eq!(
            (a.heading.title, a.text, a.start),
            ("A", "# A\none\n## B\ntwo\n", 0)
        );
    }
    #[test]
    fn section_example_2() {
        use crate::text::excerpt::section;
        let text =
            "# Guide\n## Quick start\nRun it.\n```md\n# not a heading\n```\n## Options\n-v\n";

        let quick = section(text, "## quick START").unwrap();
        assert_eq!(
            quick.text,
            "## Quick start\nRun it.\n```md\n# not a heading\n```\n"
        );

        // A unique prefix is enough; the last section runs to the end of the text.
        assert_eq!(section(text, "opt").unwrap().text, "## Options\n-v\n");
        assert!(section(text, "Missing").is_none());
    }
    #[test]
    fn excerpt_example() {
        use crate::text::excerpt::excerpt;
        let piece = excerpt("one\ntwo\n", 0, 5);
        assert_eq!(
            (piece.text, piece.start, piece.end, piece.total_bytes),
            ("one\n", 0, 4, 8)
        );
        assert!(piece.truncated);
        assert_eq!(piece.next_offset(), Some(4));
    }
    #[test]
    fn next_offset_example() {
        use crate::text::excerpt::excerpt;
        assert_eq!(excerpt("ab\ncd", 0, 3).next_offset(), Some(3));
        assert_eq!(excerpt("ab\ncd", 3, 3).next_offset(), None);
    }
    #[test]
    fn chars_example() {
        use crate::text::excerpt::excerpt;
        assert_eq!(excerpt("日本", 0, 10).chars(), 2);
    }
    #[test]
    fn excerpt_example_2() {
        use crate::text::excerpt::excerpt;
        let text = "short\na line that is far too long\nend\n";
        let mut pieces = Vec::new();
        let mut offset = Some(0);
        while let Some(at) = offset {
            let piece = excerpt(text, at, 10);
            pieces.push(piece.text);
            offset = piece.next_offset();
        }
        assert_eq!(
            pieces,
            ["short\n", "a line tha", "t is far t", "oo long\n", "end\n"]
        );
        assert_eq!(pieces.concat(), text);
    }
}
