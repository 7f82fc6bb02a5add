//! What an installed skill records of its installer, in its SKILL.md's `metadata` map: four
//! string keys with the prefix `skills-embed-`, added to the block and taken out again byte for
//! byte (so the installed files, less those lines, compare with what was written).
//!
//! Why `metadata` and not top-level keys or a side file: the specification allows only its own
//! top-level fields (the reference validator rejects others), while `metadata` is its map of
//! strings for "additional properties" with "reasonably unique" keys (`gh skill install` writes
//! `metadata.github-*` the same way); a side file would be a file of the skill, listed to models
//! and copied with it, and a central lock file goes stale when a folder is copied or committed.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::model::skill_md::yaml_json;

/// The prefix of every key this installer writes.
pub(crate) const PREFIX: &str = "skills-embed-";

/// What an installed SKILL.md says of its installer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Provenance {
    pub(crate) tool: String,
    pub(crate) version: String,
    pub(crate) installed_at: String,
    pub(crate) digest: String,
}

impl Provenance {
    /// The keys and values, in the order they are written.
    fn pairs(&self) -> [(&'static str, &str); 4] {
        [
            ("skills-embed-tool", &self.tool),
            ("skills-embed-version", &self.version),
            ("skills-embed-installed-at", &self.installed_at),
            ("skills-embed-digest", &self.digest),
        ]
    }
}

/// The frontmatter's lines (each with its line ending) and the index of the closing `---`
/// line, or `None` when `text` does not start with a frontmatter block.
fn lines(text: &str) -> Option<(Vec<&str>, usize)> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let bare = |line: &str| line.trim_end_matches(['\n', '\r']).to_owned();
    if bare(lines.first()?).trim_start_matches('\u{feff}') != "---" {
        return None;
    }
    let close = lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, line)| bare(line) == "---")?
        .0;
    Some((lines, close))
}

/// Whether `line` is the key `metadata:` of a block mapping (nothing after the colon but
/// spaces or a comment).
fn opens_metadata_block(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("metadata:") else {
        return false;
    };
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with('#')
}

/// Whether `line` belongs to the block above it: indented, blank, or a comment.
fn continues_block(line: &str) -> bool {
    let bare = line.trim_end_matches(['\n', '\r']);
    bare.is_empty() || bare.starts_with([' ', '\t']) || bare.starts_with('#')
}

/// Whether `line` is an entry of ours (`  skills-embed-...: value`).
fn is_ours(line: &str) -> bool {
    line.starts_with([' ', '\t']) && line.trim_start().starts_with(PREFIX)
}

/// The range of lines of the top-level `metadata` block mapping (its entries, after its key
/// line), if there is one.
fn metadata_block(lines: &[&str], close: usize) -> Option<(usize, usize)> {
    let key = (1..close).find(|&i| opens_metadata_block(lines[i]))?;
    let mut end = key + 1;
    while end < close && continues_block(lines[end]) {
        end += 1;
    }
    Some((key, end))
}

/// `text` with `provenance` added to its `metadata` map: after the last entry of an existing
/// block mapping (at its indentation), or as a new `metadata:` block at the end of the
/// frontmatter. `None` when `text` has no frontmatter, or a `metadata` that is not a block
/// mapping (`metadata: {a: b}`), which this edit does not rewrite.
pub(crate) fn insert(text: &str, provenance: &Provenance) -> Option<String> {
    let (lines, close) = lines(text)?;
    let newline = if lines[0].ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let block = metadata_block(&lines, close);
    let names_metadata = |line: &str| {
        ["metadata:", "\"metadata\"", "'metadata'"]
            .iter()
            .any(|key| line.starts_with(key))
    };
    if block.is_none() && (1..close).any(|i| names_metadata(lines[i])) {
        return None;
    }
    let (at, indent, header) = match block {
        Some((key, end)) => {
            // After the last entry, not after trailing blank or comment lines, so the added
            // lines sit with the entries.
            let last = (key + 1..end).rev().find(|&i| {
                lines[i].trim_start().starts_with(|c: char| c != '#') && !lines[i].trim().is_empty()
            });
            let indent = (key + 1..end)
                .find(|&i| !lines[i].trim().is_empty() && !lines[i].trim_start().starts_with('#'))
                .map(|i| &lines[i][..lines[i].len() - lines[i].trim_start().len()])
                .unwrap_or("  ");
            (last.map_or(key + 1, |i| i + 1), indent.to_owned(), false)
        }
        None => (close, "  ".to_owned(), true),
    };
    let mut added = String::new();
    if header {
        added.push_str("metadata:");
        added.push_str(newline);
    }
    for (key, value) in provenance.pairs() {
        added.push_str(&indent);
        added.push_str(key);
        added.push_str(": ");
        added.push_str(&yaml_json(&serde_json::Value::from(value)));
        added.push_str(newline);
    }
    let mut out = String::with_capacity(text.len() + added.len());
    for line in &lines[..at] {
        out.push_str(line);
    }
    out.push_str(&added);
    for line in &lines[at..] {
        out.push_str(line);
    }
    Some(out)
}

/// `text` without the lines [`insert`] added: our entries of the `metadata` block, and the
/// `metadata:` line itself when only our entries were under it. `strip(insert(t)) == t`.
pub(crate) fn strip(text: &str) -> String {
    let Some((lines, close)) = lines(text) else {
        return text.to_owned();
    };
    let Some((key, end)) = metadata_block(&lines, close) else {
        return text.to_owned();
    };
    let ours: Vec<usize> = (key + 1..end).filter(|&i| is_ours(lines[i])).collect();
    if ours.is_empty() {
        return text.to_owned();
    }
    // The key line goes too when nothing but our entries (and no comment or blank line) was
    // under it: that is the block `insert` made.
    let only_ours = (key + 1..end).all(|i| is_ours(lines[i]));
    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        if ours.contains(&i) || (only_ours && i == key) {
            continue;
        }
        out.push_str(line);
    }
    out
}

/// The provenance recorded in `text`'s `metadata` block, if it names a tool.
pub(crate) fn read(text: &str) -> Option<Provenance> {
    let (lines, close) = lines(text)?;
    let (key, end) = metadata_block(&lines, close)?;
    let mut found = Provenance::default();
    for line in &lines[key + 1..end] {
        if !is_ours(line) {
            continue;
        }
        let Some((name, value)) = line.trim().split_once(':') else {
            continue;
        };
        let value = value.trim();
        let value = if value.starts_with('"') {
            serde_json::from_str::<String>(value).unwrap_or_default()
        } else {
            value.trim_matches('\'').to_owned()
        };
        match name.trim() {
            "skills-embed-tool" => found.tool = value,
            "skills-embed-version" => found.version = value,
            "skills-embed-installed-at" => found.installed_at = value,
            "skills-embed-digest" => found.digest = value,
            _ => {}
        }
    }
    (!found.tool.is_empty()).then_some(found)
}

/// `time` as an RFC 3339 UTC timestamp to the second (`2026-11-26T03:40:00Z`).
pub(crate) fn timestamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's days-to-civil, for days since 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours() -> Provenance {
        Provenance {
            tool: "mytool".into(),
            version: "1.4.2".into(),
            installed_at: "2026-11-26T03:40:00Z".into(),
            digest: "sha256:00ff".into(),
        }
    }

    #[test]
    fn insert_then_strip_gives_back_the_text() {
        for text in [
            "---\nname: a\ndescription: b\n---\nBody\n",
            "---\nname: a\nmetadata:\n  author: x\n---\nBody\n",
            "---\nname: a\nmetadata:\n    author: x # who\n    team: y\n\n# trailing\ndescription: b\n---\nBody\n",
            "---\nname: a\nmetadata: # ours too\n  author: x\n---\n",
            "---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n",
        ] {
            let inserted = insert(text, &ours()).unwrap();
            assert_ne!(inserted, text);
            assert_eq!(strip(&inserted), text, "{inserted}");
            assert_eq!(read(&inserted), Some(ours()), "{inserted}");
            assert_eq!(read(text), None);
        }
    }

    #[test]
    fn inserted_lines_sit_in_the_block_at_its_indentation() {
        let text = "---\nname: a\nmetadata:\n    author: x\n# note\ndescription: b\n---\n";
        let inserted = insert(text, &ours()).unwrap();
        assert_eq!(
            inserted,
            "---\nname: a\nmetadata:\n    author: x\n    skills-embed-tool: \"mytool\"\n    \
             skills-embed-version: \"1.4.2\"\n    skills-embed-installed-at: \"2026-11-26T03:40:00Z\"\n    \
             skills-embed-digest: \"sha256:00ff\"\n# note\ndescription: b\n---\n"
        );
        let fresh = insert("---\nname: a\n---\nBody\n", &ours()).unwrap();
        assert!(fresh.starts_with("---\nname: a\nmetadata:\n  skills-embed-tool: \"mytool\"\n"));
    }

    #[test]
    fn flow_metadata_and_missing_frontmatter_are_not_edited() {
        assert_eq!(
            insert("---\nname: a\nmetadata: {author: x}\n---\n", &ours()),
            None
        );
        assert_eq!(insert("no frontmatter\n", &ours()), None);
        assert_eq!(strip("no frontmatter\n"), "no frontmatter\n");
    }

    #[test]
    fn look_alike_lines_outside_the_block_are_kept() {
        let text = "---\nname: a\ndescription: |\n  skills-embed-tool: not a key\n---\n  skills-embed-tool: body\n";
        assert_eq!(read(text), None);
        assert_eq!(strip(text), text);
        let inserted = insert(text, &ours()).unwrap();
        assert_eq!(strip(&inserted), text);
    }

    #[test]
    fn timestamps_are_rfc3339_utc() {
        let at = |secs| timestamp(UNIX_EPOCH + std::time::Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_795_664_400), "2026-11-26T03:40:00Z");
    }
}
