//! The L1 listing that `skills!` renders when the crate compiles (`SKILLS.summary()`).
//!
//! The macro and the `skills prompt` command both call [`render`], so the two are
//! byte-identical. For budgets, hints and templates at run time, see [`crate::listing`].

pub use crate::listing::Entry;
use crate::listing::{self, ListingFormat, ListingOptions};

/// How the compile-time listing is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SummaryFormat {
    /// One line per skill, `- name: description`, descriptions on one line. The cheapest in
    /// tokens; the default.
    #[default]
    Markdown,
    /// The reference `<available_skills>` XML, one element per line, text XML-escaped.
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

impl From<SummaryFormat> for ListingFormat {
    fn from(format: SummaryFormat) -> Self {
        match format {
            SummaryFormat::Markdown => ListingFormat::Markdown,
            SummaryFormat::Xml => ListingFormat::Xml,
        }
    }
}

/// Renders the listing of `entries`, in the order given, with no budget and no hints.
///
/// ```
/// use skills_embed_runtime::summary::{render, Entry, SummaryFormat};
/// let entries = [Entry { name: "pdf", description: "Read\nPDFs.", ..Entry::default() }];
/// assert_eq!(render(entries.clone(), SummaryFormat::Markdown), "- pdf: Read PDFs.\n");
/// assert_eq!(
///     render(entries, SummaryFormat::Xml),
///     "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nRead\nPDFs.\n</description>\n</skill>\n</available_skills>"
/// );
/// ```
pub fn render<'a>(entries: impl IntoIterator<Item = Entry<'a>>, format: SummaryFormat) -> String {
    let entries: Vec<Entry<'a>> = entries.into_iter().collect();
    listing::render(
        &entries,
        &ListingOptions {
            format: format.into(),
            ..ListingOptions::default()
        },
    )
}
