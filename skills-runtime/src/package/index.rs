//! The well-known index: `/.well-known/agent-skills/index.json`, as the Agent Skills Discovery
//! RFC v0.2.0 defines it in its revision of 2026-03-12
//! (<https://github.com/cloudflare/agent-skills-discovery-rfc/blob/main/README.md>, "Updated
//! Date: 2026-03-12", "Discovery Index" and "Integrity and Verification"): a `$schema` URI, and
//! per skill one artifact: its name, `type` (`skill-md`, a lone SKILL.md, or `archive`, a `.zip`
//! or `.tar.gz` of the skill's folder), description, `url` (resolved against the index's URL) and
//! the artifact's `sha256:{hex}` digest.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::model::skill::Skill;

/// The `$schema` this crate writes; it reads any `0.2.x` one.
pub(crate) const SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/// Where the index lives on a site, and where the files it names are served from.
pub(crate) const WELL_KNOWN_PREFIX: &str = "/.well-known/agent-skills/";

/// The whole index file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Index {
    /// The schema's URI: its version is in the path.
    #[serde(rename = "$schema")]
    pub(crate) schema: String,
    /// One entry per skill, in name order when this crate writes it.
    pub(crate) skills: Vec<IndexEntry>,
}

/// One skill of an index: its one artifact.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct IndexEntry {
    /// The skill's name.
    pub(crate) name: String,
    /// What the artifact is.
    #[serde(rename = "type")]
    pub(crate) kind: ArtifactKind,
    /// What it does and when to use it.
    pub(crate) description: String,
    /// Where the artifact is: absolute, or relative to the index's URL (RFC 3986).
    pub(crate) url: String,
    /// `sha256:{hex}` of the artifact's bytes.
    pub(crate) digest: String,
}

/// The two artifact types of the revised RFC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ArtifactKind {
    /// One `SKILL.md`: the whole skill.
    SkillMd,
    /// A `.zip` or `.tar.gz` holding the skill's folder, `SKILL.md` at its root.
    Archive,
}

/// `sha256:{hex}` of some bytes: a file's or an archive's digest.
pub(crate) fn file_digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

/// The skill-level digest of the RFC's February 2026 text (what an index with `version` and
/// `files` carries; the reader still checks one): the files sorted by path as bytes, a line
/// `{path}\0{hex}\n` each, SHA-256 of the lines. `files` are `(path, sha256:{hex} digest)`; a
/// digest without the prefix is taken as bare hex.
pub(crate) fn skill_digest<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut files: Vec<(&str, &str)> = files.into_iter().collect();
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut hasher = Sha256::new();
    for (path, digest) in files {
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update(digest.strip_prefix("sha256:").unwrap_or(digest).as_bytes());
        hasher.update([b'\n']);
    }
    format!("sha256:{}", hex::encode(hasher.finalize()))
}

/// Whether an index file path is one the RFC allows ("Path requirements"): relative, `/`
/// separators, no `..` or empty segment, printable ASCII without `\ ? # [ ]`.
pub(crate) fn valid_index_path(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path
            .bytes()
            .all(|b| (0x20..=0x7e).contains(&b) && !b"\\?#[]".contains(&b))
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
}

/// The index's file name under [`WELL_KNOWN_PREFIX`].
pub(crate) const INDEX_FILE: &str = "index.json";

/// Whether `skill` can be listed in an index: its name and every path are ones the RFC allows.
/// Otherwise the first refused path (or the name) and why.
pub(crate) fn check_indexable(skill: &Skill) -> Result<(), (String, &'static str)> {
    const WHY: &str = "the well-known index takes relative paths of printable ASCII without `\\ ? # [ ]` (Agent Skills Discovery RFC v0.2.0)";
    if !valid_index_path(skill.name()) || skill.name().contains('/') {
        return Err((skill.name().to_owned(), WHY));
    }
    match skill.paths().find(|path| !valid_index_path(path)) {
        Some(path) => Err((path.to_owned(), WHY)),
        None => Ok(()),
    }
}

/// The index of `entries`, in name order, under [`SCHEMA`].
pub(crate) fn of_entries(mut entries: Vec<IndexEntry>) -> Index {
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Index {
        schema: SCHEMA.to_owned(),
        skills: entries,
    }
}

/// The index as its file holds it: pretty JSON and a newline, the same bytes for the same index.
pub(crate) fn to_json(index: &Index) -> String {
    // Serialising plain strings and lists cannot fail; an empty object would still be JSON.
    let mut json = serde_json::to_string_pretty(index).unwrap_or_else(|_| "{}".to_owned());
    json.push('\n');
    json
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RFC's worked example: `# Hello\n` and `#!/bin/sh\n`.
    #[test]
    fn skill_digest_matches_the_rfc_worked_example() {
        let skill = file_digest(b"# Hello\n");
        let script = file_digest(b"#!/bin/sh\n");
        assert_eq!(
            skill,
            "sha256:90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be"
        );
        assert_eq!(
            script,
            "sha256:a8076d3d28d21e02012b20eaf7dbf75409a6277134439025f282e368e3305abf"
        );
        let expected = "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e";
        // Order given does not matter: the digest sorts by path.
        assert_eq!(
            skill_digest([("scripts/run.sh", script.as_str()), ("SKILL.md", &skill)]),
            expected
        );
        assert_eq!(
            skill_digest([("SKILL.md", skill.as_str()), ("scripts/run.sh", &script)]),
            expected
        );
    }

    #[test]
    fn index_paths_follow_the_rfc() {
        for ok in ["SKILL.md", "references/a b.md", "scripts/run.sh"] {
            assert!(valid_index_path(ok), "{ok}");
        }
        for bad in [
            "",
            "/etc/passwd",
            "a/../b",
            "..",
            "a//b",
            "a\\b",
            "a?b",
            "a#b",
            "é.md",
            "a/./b",
        ] {
            assert!(!valid_index_path(bad), "{bad}");
        }
    }

    #[test]
    fn an_index_round_trips_through_json() {
        let index = of_entries(vec![IndexEntry {
            name: "demo".into(),
            kind: ArtifactKind::SkillMd,
            description: "A demo.".into(),
            url: "demo/SKILL.md".into(),
            digest: file_digest(b"x"),
        }]);
        let json = serde_json::to_string(&index).unwrap();
        assert!(
            json.contains(
                r#""$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json""#
            ),
            "{json}"
        );
        assert!(json.contains(r#""type":"skill-md""#), "{json}");
        assert_eq!(serde_json::from_str::<Index>(&json).unwrap(), index);
        assert!(WELL_KNOWN_PREFIX.ends_with('/'));
    }
}
