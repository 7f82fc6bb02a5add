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
/// The YAML parser's time grows with the square of the nesting, so a deeper file is refused
/// (`frontmatter-too-deep`) before it runs. Real frontmatters nest two or three levels
/// (`metadata:` holding a map).
pub const MAX_NESTING: usize = 64;

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
}
