//! The L1 listing: every skill's name and description, rendered once.
//!
//! `skills!` renders it when the crate compiles and the `skills prompt` command renders it from a
//! folder; both call [`render`], so the two are byte-identical.

use std::fmt::Write;

/// How the L1 listing is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SummaryFormat {
    /// One line per skill, `- name: description`, descriptions on one line. The cheapest in
    /// tokens; the default.
    #[default]
    Markdown,
    /// The reference `<available_skills>` XML, one element per line, text XML-escaped, with a
    /// `<location>` element when a skill has a file path.
    Xml,
}

impl SummaryFormat {
    /// The format's name as used by options and the command line: `markdown` or `xml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Markdown => "markdown",
            Self::Xml => "xml",
        }
    }

    /// Parses `markdown` or `xml`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "markdown" | "md" => Some(Self::Markdown),
            "xml" => Some(Self::Xml),
            _ => None,
        }
    }
}

/// One entry of the listing.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// Its description.
    pub description: &'a str,
    /// Where its SKILL.md is, for skills on disk; `None` for embedded skills.
    pub location: Option<&'a str>,
}

/// Renders the listing of `entries`, in the order given.
///
/// ```
/// use skills_runtime::summary::{render, Entry, SummaryFormat};
/// let entries = [Entry { name: "pdf", description: "Read\nPDFs.", location: None }];
/// assert_eq!(render(entries, SummaryFormat::Markdown), "- pdf: Read PDFs.\n");
/// assert_eq!(
///     render(entries, SummaryFormat::Xml),
///     "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nRead\nPDFs.\n</description>\n</skill>\n</available_skills>"
/// );
/// ```
pub fn render<'a>(entries: impl IntoIterator<Item = Entry<'a>>, format: SummaryFormat) -> String {
    let mut out = String::new();
    match format {
        SummaryFormat::Markdown => {
            for e in entries {
                let _ = write!(out, "- {}: ", e.name);
                push_one_line(&mut out, e.description);
                out.push('\n');
            }
        }
        SummaryFormat::Xml => {
            out.push_str("<available_skills>");
            for e in entries {
                out.push_str("\n<skill>\n<name>\n");
                push_escaped(&mut out, e.name);
                out.push_str("\n</name>\n<description>\n");
                push_escaped(&mut out, e.description);
                out.push_str("\n</description>");
                if let Some(location) = e.location {
                    out.push_str("\n<location>\n");
                    push_escaped(&mut out, location);
                    out.push_str("\n</location>");
                }
                out.push_str("\n</skill>");
            }
            out.push_str("\n</available_skills>");
        }
    }
    out
}

/// Collapses every run of whitespace to one space, so a description stays one list item.
fn push_one_line(out: &mut String, text: &str) {
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
}

/// Escapes like Python's `html.escape(s, quote=True)`, which the reference validator uses.
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
}
