//! What can go wrong when a skill or a file is asked for. Every message is written for a model:
//! what was asked, what exists, what to do next.

use std::fmt;

use crate::path::PathProblem;

/// An error from looking up a skill or one of its files.
///
/// ```
/// use skills_embed_runtime::{SkillError, SkillSet};
/// let set = SkillSet::empty();
/// let err = set.get("pdf").unwrap_err();
/// assert!(matches!(err, SkillError::UnknownSkill { .. }));
/// assert_eq!(err.to_string(), r#"Skill "pdf" not found. There are no skills available."#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SkillError {
    /// No skill has that name.
    #[error(
        "Skill {} not found. {}{}",
        Quoted(requested),
        Available("Available skills", "There are no skills available.", available),
        DidYouMean(suggestion.as_deref())
    )]
    UnknownSkill {
        /// The name that was asked for.
        requested: String,
        /// Every skill name, sorted.
        available: Vec<String>,
        /// The closest name, when one is close.
        suggestion: Option<String>,
    },
    /// The skill has no file at that path.
    #[error(
        "File {} not found in skill {}. {}{} Use \"SKILL.md\" for the skill's instructions.",
        Quoted(requested),
        Quoted(skill),
        Available("Available files", "It has no files.", available),
        DidYouMean(suggestion.as_deref())
    )]
    FileNotFound {
        /// The skill that was searched.
        skill: String,
        /// The path that was asked for, normalised.
        requested: String,
        /// Every path the skill serves, sorted.
        available: Vec<String>,
        /// The closest path, when one is close.
        suggestion: Option<String>,
    },
    /// The skill has no chunk with that id.
    #[error(
        "Chunk {} not found in skill {}. {}{}",
        Quoted(requested),
        Quoted(skill),
        Available("Available chunks", "It has no chunks.", available),
        DidYouMean(suggestion.as_deref())
    )]
    ChunkNotFound {
        /// The skill that was searched.
        skill: String,
        /// The chunk id that was asked for.
        requested: String,
        /// Every chunk id of the skill, in body order.
        available: Vec<String>,
        /// The closest id, when one is close.
        suggestion: Option<String>,
    },
    /// The path was refused before any lookup.
    #[error(
        "Path {} was refused because {problem}. Paths are relative to the skill's folder and use '/', like \"SKILL.md\" or \"references/guide.md\". {}",
        Quoted(requested),
        Available("Available files", "It has no files.", available)
    )]
    InvalidPath {
        /// The skill the path was meant for.
        skill: String,
        /// The path as sent.
        requested: String,
        /// What is wrong with it.
        problem: PathProblem,
        /// Every path the skill serves, sorted.
        available: Vec<String>,
    },
}

/// A name or a path the model sent or the skill holds, as a JSON string: `"a.md"`, and
/// `"a\"b.md"` or `"e\nf.md"` for awkward ones, so it stays one line and reads back.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::listing::json_string(self.0))
    }
}

/// Renders `Label: a, b, c.` or the text for an empty list, each name written as listings
/// write names (bare when plain, else a JSON string).
struct Available<'a>(&'static str, &'static str, &'a [String]);

impl fmt::Display for Available<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Available(label, none, items) = *self;
        if items.is_empty() {
            return f.write_str(none);
        }
        write!(f, "{label}: ")?;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&crate::listing::quote_name(item))?;
        }
        f.write_str(".")
    }
}

struct DidYouMean<'a>(Option<&'a str>);

impl fmt::Display for DidYouMean<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(s) => write!(f, " Did you mean {}?", Quoted(s)),
            None => Ok(()),
        }
    }
}

/// A name as [`closest`] compares it: NFKC-normalised (as the validator compares a skill's name
/// with its folder's), so `café` typed with a combining accent or `ﬁ` for `fi` still match, and
/// lowercased.
fn fold(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfkc().collect::<String>().to_lowercase()
}

/// The candidate closest to `requested`, when it is close enough to be a likely typo: the same
/// text in another case or Unicode form, the same file name in a folder, a few edits away
/// (transpositions count as one), or very similar by Jaro-Winkler for long names.
pub(crate) fn closest<'a>(
    requested: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let wanted = fold(requested);
    let wanted_len = wanted.chars().count();
    candidates
        .into_iter()
        .filter_map(|c| {
            let lower = fold(c);
            let tail = lower.rsplit('/').next().unwrap_or(&lower);
            // Both measures take time (and Damerau-Levenshtein memory) proportional to the
            // product of the lengths, so a 10 MB request would allocate gigabytes. Neither can
            // reach its threshold when the lengths differ a lot (edits <= 2 needs lengths within
            // 2; Jaro-Winkler >= 0.9 needs them within a factor of 3), so they are skipped then.
            // The length difference stands in for the edit count in the ordering: it is exact
            // when one holds the other (same file in a folder, a word of a name).
            let len = lower.chars().count();
            let near = wanted_len.abs_diff(len) <= 2;
            let comparable = wanted_len.max(len) < 3 * wanted_len.min(len).max(1);
            let edits = if near {
                strsim::damerau_levenshtein(&wanted, &lower)
            } else {
                wanted_len.abs_diff(len)
            };
            let similarity = if comparable {
                strsim::jaro_winkler(&wanted, &lower)
            } else {
                0.0
            };
            let rank = if lower == wanted {
                0
            } else if tail == wanted {
                1
            } else if edits <= 2 && edits * 3 <= wanted_len.max(3) {
                2
            } else if wanted_len >= 3 && lower.split(['-', '/', '.']).any(|w| w == wanted) {
                // A model often shortens a name to one of its words: `pdf` for `pdf-forms`.
                3
            } else if similarity >= 0.9 {
                4
            } else {
                return None;
            };
            Some(((rank, edits), c))
        })
        .min_by_key(|(key, _)| *key)
        .map(|(_, c)| c.to_owned())
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn suggests_only_near_misses() {
        let names = ["code-review", "pdf", "pdf-forms"];
        assert_eq!(closest("pfd", names).as_deref(), Some("pdf"));
        assert_eq!(closest("PDF", names).as_deref(), Some("pdf"));
        assert_eq!(
            closest("code-reveiw", names).as_deref(),
            Some("code-review")
        );
        assert_eq!(closest("pdf-form", names).as_deref(), Some("pdf-forms"));
        assert_eq!(
            closest("forms", ["code-review", "pdf-forms"]).as_deref(),
            Some("pdf-forms")
        );
        assert_eq!(
            closest("review", ["code-review", "pdf-forms"]).as_deref(),
            Some("code-review")
        );
        assert_eq!(closest("spreadsheet", names), None);
        assert_eq!(closest("x", names), None);
        let paths = ["SKILL.md", "references/forms.md"];
        assert_eq!(
            closest("forms.md", paths).as_deref(),
            Some("references/forms.md")
        );
        assert_eq!(closest("skill.md", paths).as_deref(), Some("SKILL.md"));
    }

    #[test]
    fn compares_names_after_nfkc() {
        // A combining accent (NFD) against the composed letter (NFC), and a ligature.
        let names = ["caf\u{e9}", "tea"];
        assert_eq!(closest("cafe\u{301}", names).as_deref(), Some("caf\u{e9}"));
        assert_eq!(closest("CAFE\u{301}", names).as_deref(), Some("caf\u{e9}"));
        assert_eq!(closest("\u{fb01}x", ["fix"]).as_deref(), Some("fix"));
        let paths = ["r\u{e9}f/caf\u{e9}.md"];
        assert_eq!(
            closest("cafe\u{301}.md", paths).as_deref(),
            Some("r\u{e9}f/caf\u{e9}.md")
        );
    }
}
