//! What a message does with a name or value it cannot use: suggest the closest one that exists
//! ("did you mean"), and clip what it echoes back.

use std::borrow::Cow;

/// `text` cut to at most `limit` characters, `…` included, at a word boundary when one is near;
/// borrowed when it already fits. The one clip: listings cut descriptions with it, and every
/// error that echoes what a model or client sent clips it with `ECHO` first.
pub fn clip(text: &str, limit: usize) -> Cow<'_, str> {
    if text.chars().count() <= limit {
        return Cow::Borrowed(text);
    }
    let keep = limit.saturating_sub(1);
    let end = text.char_indices().nth(keep).map_or(text.len(), |(i, _)| i);
    let mut head = &text[..end];
    // Back to the last space, unless that loses more than a third of it.
    if let Some(space) = head.rfind(char::is_whitespace)
        && space >= end - end / 3
    {
        head = &head[..space];
    }
    let head =
        head.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '.'));
    Cow::Owned(format!("{head}…"))
}

/// How much of a value a model or client sent an error echoes back: a model that sends 100 KB
/// of path gets a short answer, not its path back.
pub const ECHO: usize = 100;

/// A value a model or client sent, clipped to [`ECHO`] characters for an error message.
pub(crate) fn echo(text: &str) -> String {
    clip(text, ECHO).into_owned()
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
    use super::{clip, closest};

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

    #[test]
    fn clips_at_a_word_boundary_within_the_limit() {
        assert_eq!(clip("short", 10), "short");
        assert!(matches!(clip("short", 10), std::borrow::Cow::Borrowed(_)));
        // Backs up to the last space when it loses less than a third.
        assert_eq!(clip("Work with PDF files, forms", 20), "Work with PDF…");
        assert_eq!(clip("Work with PDF files", 19), "Work with PDF files");
        assert_eq!(clip("abcdef", 4), "abc…");
        let long = "x".repeat(10_000);
        assert_eq!(clip(&long, super::ECHO).chars().count(), super::ECHO);
        assert_eq!(clip("é".repeat(5).as_str(), 3), "éé…");
    }

    #[test]
    fn cuts_end_at_a_word_with_an_ellipsis() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("alpha beta gamma", 14), "alpha beta…");
        assert_eq!(clip("one two three four", 12), "one two thr…");
        assert_eq!(clip("abcdefghijklmnop", 6), "abcde…");
        assert_eq!(clip("ééééé", 3), "éé…");
        assert_eq!(clip("anything", 0), "…");
    }
}
