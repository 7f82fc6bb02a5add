//! The index document as the reader takes it: the JSON parsed and checked before anything is
//! fetched ([`parse_index`]), in the revised format (the types of `package::index`) or the
//! February text's and v0.1.0's (the read-only types here).

use serde::Deserialize;

use super::IndexError;
use crate::model::fields::MANIFEST;
use crate::package::index::{ArtifactKind, Index, IndexEntry, skill_digest, valid_index_path};

/// The most skills an index may list.
const MAX_SKILLS: usize = 10_000;
/// The most files one skill may list (an archive may hold twice as many entries, its folders
/// among them: `unpack`).
pub(super) const MAX_FILES: usize = 1_000;

/// An index entry, in the format its index is in.
pub(super) enum Entry {
    /// The revised format: one artifact.
    Artifact(IndexEntry),
    /// The February text (`verified`: each file with its digest) or v0.1.0 (paths alone).
    Files { entry: FilesEntry, verified: bool },
}

impl Entry {
    pub(super) fn name(&self) -> &str {
        match self {
            Entry::Artifact(entry) => &entry.name,
            Entry::Files { entry, .. } => &entry.name,
        }
    }
}

/// A skill of an index in the RFC's February 2026 text of 0.2.0, read only.
#[derive(Deserialize)]
struct FilesIndex {
    skills: Vec<FilesEntry>,
}

/// One skill of such an index: every file with its digest, the skill-level digest over them,
/// maybe a `.zip` package.
#[derive(Deserialize)]
pub(super) struct FilesEntry {
    pub(super) name: String,
    #[serde(default)]
    pub(super) digest: String,
    pub(super) files: Vec<ListedFile>,
    #[serde(default)]
    pub(super) package: Option<Package>,
}

/// A file such an index lists.
#[derive(Deserialize)]
pub(super) struct ListedFile {
    pub(super) path: String,
    #[serde(default)]
    pub(super) digest: String,
}

/// The `.zip` package such an index may name.
#[derive(Deserialize)]
pub(super) struct Package {
    pub(super) url: String,
    pub(super) digest: String,
}

/// The index's entries, checked before anything is fetched: the format (`$schema`, or the
/// February text's `version`), names, digests' form; in the revised format each entry's type
/// and archive name; in the February text the paths and the skill-level digest against the
/// files' digests.
pub(super) fn parse_index(
    url: &str,
    bytes: &[u8],
    allow_unverified: bool,
) -> Result<Vec<Entry>, IndexError> {
    let malformed = |reason: String| IndexError::Malformed {
        url: url.to_owned(),
        reason,
    };
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| malformed(format!("not JSON ({e})")))?;
    let Some(object) = value.as_object() else {
        return Err(malformed("not a JSON object".into()));
    };
    let skills = match object.get("skills") {
        Some(serde_json::Value::Array(skills)) => skills,
        _ => return Err(malformed("no `skills` array".into())),
    };
    if skills.len() > MAX_SKILLS {
        return Err(malformed(format!(
            "{} skills, over the cap of {MAX_SKILLS}",
            skills.len()
        )));
    }
    let version_error = |found: &str| IndexError::Version {
        url: url.to_owned(),
        found: found.to_owned(),
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut unique = |name: &str| -> Result<(), IndexError> {
        let bad = |reason: String| IndexError::Entry {
            url: url.to_owned(),
            skill: name.to_owned(),
            reason,
        };
        if let Some(reason) = name_problem(name) {
            return Err(bad(reason));
        }
        if !seen.insert(name.to_owned()) {
            return Err(bad("the index lists it twice".into()));
        }
        Ok(())
    };
    if let Some(schema) = object.get("$schema") {
        let schema = schema.as_str().unwrap_or_default();
        if !is_schema_0_2(schema) {
            return Err(version_error(schema));
        }
        let index =
            serde_json::from_value::<Index>(value.clone()).map_err(|e| malformed(e.to_string()))?;
        let mut checked = Vec::with_capacity(index.skills.len());
        for entry in index.skills {
            unique(&entry.name)?;
            check_artifact(&entry).map_err(|reason| IndexError::Entry {
                url: url.to_owned(),
                skill: entry.name.clone(),
                reason,
            })?;
            checked.push(Entry::Artifact(entry));
        }
        return Ok(checked);
    }
    let version = match object.get("version") {
        Some(serde_json::Value::String(v)) => Some(v.as_str()),
        Some(other) => return Err(malformed(format!("`version` is {other}, not a string"))),
        None => None,
    };
    let parts: Option<Vec<u64>> = version.map(|v| {
        v.split('.')
            .map(|p| {
                let leading_zero = p.len() > 1 && p.starts_with('0');
                match (leading_zero, p.parse::<u64>()) {
                    (false, Ok(n)) if p.bytes().all(|b| b.is_ascii_digit()) => Some(n),
                    _ => None,
                }
            })
            .collect::<Option<Vec<u64>>>()
            .unwrap_or_default()
    });
    let strings_in_files = skills.iter().any(|s| {
        s.get("files")
            .and_then(|f| f.as_array())
            .is_some_and(|f| f.iter().any(serde_json::Value::is_string))
    });
    // Pre-1.0, a minor release may break (RFC "Versioning"): 0.2 is read, 0.1 is the old format.
    let verified = match parts.as_deref() {
        Some([0, 2, _]) if !strings_in_files => true,
        Some([0, 2, _]) => {
            return Err(malformed(
                "it says version 0.2 but lists files as plain strings (the v0.1.0 form)".into(),
            ));
        }
        None | Some([0, 1, _]) => false,
        _ => return Err(version_error(version.unwrap_or(""))),
    };
    if !verified && !allow_unverified {
        return Err(IndexError::Unverified {
            url: url.to_owned(),
        });
    }
    let entries: Vec<FilesEntry> = if verified {
        serde_json::from_value::<FilesIndex>(value.clone())
            .map_err(|e| malformed(e.to_string()))?
            .skills
    } else {
        skills
            .iter()
            .map(old_entry)
            .collect::<Result<_, _>>()
            .map_err(malformed)?
    };
    let mut checked = Vec::with_capacity(entries.len());
    for entry in entries {
        unique(&entry.name)?;
        let bad = |reason: String| IndexError::Entry {
            url: url.to_owned(),
            skill: entry.name.clone(),
            reason,
        };
        check_files(&entry, verified).map_err(bad)?;
        if verified {
            let expected = skill_digest(
                entry
                    .files
                    .iter()
                    .map(|f| (f.path.as_str(), f.digest.as_str())),
            );
            if !is_digest(&entry.digest) {
                return Err(bad(format!(
                    "its digest {:?} is not `sha256:` and 64 lowercase hex digits",
                    entry.digest
                )));
            }
            if expected != entry.digest {
                return Err(IndexError::SkillDigest {
                    url: url.to_owned(),
                    skill: entry.name.clone(),
                    expected: entry.digest.clone(),
                    found: expected,
                });
            }
        }
        checked.push(Entry::Files { entry, verified });
    }
    Ok(checked)
}

/// Whether `schema` is the discovery schema at some 0.2.x (pre-1.0, a minor release may break).
fn is_schema_0_2(schema: &str) -> bool {
    schema
        .strip_prefix("https://schemas.agentskills.io/discovery/0.2.")
        .and_then(|rest| rest.strip_suffix("/schema.json"))
        .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
}

/// A revised-format entry's own rules: its digest's form, and an archive named for its skill
/// (`{name}.zip` or `{name}.tar.gz`, the last segment of its url's path).
fn check_artifact(entry: &IndexEntry) -> Result<(), String> {
    if !is_digest(&entry.digest) {
        return Err(format!(
            "its digest {:?} is not `sha256:` and 64 lowercase hex digits",
            entry.digest
        ));
    }
    if entry.url.is_empty() {
        return Err("its url is empty".into());
    }
    if entry.kind == ArtifactKind::Archive {
        let path = entry.url.split(['?', '#']).next().unwrap_or_default();
        let file = path.rsplit('/').next().unwrap_or_default();
        let named = [".zip", ".tar.gz", ".tgz"]
            .iter()
            .any(|ext| file.strip_suffix(ext) == Some(entry.name.as_str()));
        if !named {
            return Err(format!(
                "its archive's url {:?} does not name the skill: expected {name}.zip or {name}.tar.gz",
                entry.url,
                name = entry.name
            ));
        }
    }
    Ok(())
}

/// A v0.1.0 entry (`files` as strings, no digests) as an entry with empty digests.
fn old_entry(value: &serde_json::Value) -> Result<FilesEntry, String> {
    let text = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let name = text("name").ok_or("a skill without a `name`")?;
    let files = value
        .get("files")
        .and_then(|f| f.as_array())
        .ok_or_else(|| format!("the skill {name:?} has no `files` array"))?
        .iter()
        .map(|f| {
            f.as_str()
                .or_else(|| f.get("path").and_then(|p| p.as_str()))
                .map(|path| ListedFile {
                    path: path.to_owned(),
                    digest: String::new(),
                })
                .ok_or_else(|| format!("a file of {name:?} is neither a path nor an object"))
        })
        .collect::<Result<_, _>>()?;
    Ok(FilesEntry {
        name,
        digest: String::new(),
        files,
        package: None,
    })
}

/// Why `name` cannot name a skill folder of an index (RFC "URI Structure"), if it cannot.
fn name_problem(name: &str) -> Option<String> {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    (!ok).then(|| {
        "its name is not 1 to 64 lowercase letters, digits and single hyphens (not first or last)"
            .to_owned()
    })
}

/// The RFC's path requirements and the caps on one entry's files.
fn check_files(entry: &FilesEntry, verified: bool) -> Result<(), String> {
    if entry.files.len() > MAX_FILES {
        return Err(format!(
            "{} files, over the cap of {MAX_FILES} per skill",
            entry.files.len()
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for file in &entry.files {
        if !valid_index_path(&file.path) {
            return Err(format!(
                "the path {:?} is not one the RFC allows (relative, `/`-separated, no `.` or `..` segment, printable ASCII without \\ ? # [ ])",
                file.path
            ));
        }
        // Case-folded: two paths that differ only in case are one file on some systems.
        if !seen.insert(file.path.to_ascii_lowercase()) {
            return Err(format!("the path {:?} is listed twice", file.path));
        }
        if verified && !is_digest(&file.digest) {
            return Err(format!(
                "the digest of {:?} ({:?}) is not `sha256:` and 64 lowercase hex digits",
                file.path, file.digest
            ));
        }
    }
    if !entry.files.iter().any(|f| f.path == MANIFEST) {
        return Err(format!("its files do not include {MANIFEST}"));
    }
    Ok(())
}

/// `sha256:` and 64 lowercase hex digits (RFC "Integrity and Verification").
fn is_digest(digest: &str) -> bool {
    digest.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}
