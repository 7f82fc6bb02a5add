//! Why an index, or a skill of it, was refused: [`IndexError`], each with what was asked, what
//! was expected and found, and what to do.

use std::fmt;

use crate::package::index::WELL_KNOWN_PREFIX;

/// Why an index, or a skill of it, was refused. Each says what was asked (the URL or file, the
/// skill, the path), what was expected and found, and what to do.
///
/// ```
/// use skills_embed::package::{IndexError, IndexReader};
///
/// let err = IndexReader::new("https://example.com/.well-known/agent-skills/index.json")
///     .read(|url, _| Err(format!("connection refused ({url})")))
///     .unwrap_err();
/// assert!(matches!(err, IndexError::Fetch { .. }));
/// assert!(err.to_string().contains("https://example.com/.well-known/agent-skills/index.json"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexError {
    /// The index or a file could not be fetched or read.
    Fetch {
        /// The URL or path asked for.
        url: String,
        /// What the fetcher said.
        reason: String,
    },
    /// The index or a file is over its size cap.
    TooLarge {
        /// The URL or path asked for.
        url: String,
        /// The cap, in bytes.
        limit: u64,
        /// What the cap is for (`the index`, `one file`, `all files together`).
        what: &'static str,
    },
    /// The index is not an index: not JSON, or not the RFC's shape.
    Malformed {
        /// The index's URL or path.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// The index's `version` is one this client does not read.
    Version {
        /// The index's URL or path.
        url: String,
        /// The version found.
        found: String,
    },
    /// A v0.1.0 index (no `version`, or files as plain strings): no digest to check.
    Unverified {
        /// The index's URL or path.
        url: String,
    },
    /// A skill entry breaks the RFC's rules: its name, a path, a digest's form, a file listed
    /// twice or too many files, no `SKILL.md`.
    Entry {
        /// The index's URL or path.
        url: String,
        /// The skill, as the index names it.
        skill: String,
        /// What is wrong.
        reason: String,
    },
    /// A fetched file's bytes do not match its digest in the index.
    FileDigest {
        /// The file's URL or path.
        url: String,
        /// The skill.
        skill: String,
        /// The file's path in the skill; `None` for the skill's archive.
        path: Option<String>,
        /// The digest the index gives.
        expected: String,
        /// The digest of the bytes fetched.
        found: String,
    },
    /// A skill's files do not give its skill-level digest.
    SkillDigest {
        /// The index's URL or path.
        url: String,
        /// The skill.
        skill: String,
        /// The digest the index gives.
        expected: String,
        /// The digest computed from its files.
        found: String,
    },
    /// A skill asked for is not in the index.
    NoSkill {
        /// The index's URL or path.
        url: String,
        /// The name asked for.
        wanted: String,
        /// The names the index has.
        available: Vec<String>,
    },
    /// A verified skill fails validation (the strict rules of `skills validate`): left out.
    Invalid {
        /// The skill.
        skill: String,
        /// The validator's errors, one a line, their files shown under the index's URL.
        problems: String,
    },
    /// The temporary folder the verified files are validated in could not be written.
    Io {
        /// What failed.
        reason: String,
    },
}

impl IndexError {
    /// Whether the error is about reaching the index or its files (a network or file system
    /// error), not about what they hold: the `skills` CLI exits with status 2 for it, else 1.
    ///
    /// ```
    /// use skills_embed::package::IndexError;
    /// let err = IndexError::Fetch { url: "https://example.com/x".into(), reason: "timeout".into() };
    /// assert!(err.is_fetch());
    /// ```
    pub fn is_fetch(&self) -> bool {
        matches!(self, IndexError::Fetch { .. } | IndexError::Io { .. })
    }

    /// The error about one skill of the index at `url`, for a reason to come.
    pub(super) fn entry<'a>(url: &'a str, skill: &'a str) -> impl Fn(String) -> IndexError + 'a {
        move |reason| IndexError::Entry {
            url: url.to_owned(),
            skill: skill.to_owned(),
            reason,
        }
    }
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NOTHING: &str = "Nothing was installed";
        match self {
            IndexError::Fetch { url, reason } => write!(
                f,
                "Could not fetch \"{url}\": {reason}. Check the URL or path (an index is usually at https://SITE{WELL_KNOWN_PREFIX}index.json) and that the site is up."
            ),
            IndexError::TooLarge { url, limit, what } => write!(
                f,
                "\"{url}\" is over the cap on {what} ({limit} bytes). {NOTHING}; if the site is trusted and the file is meant to be that large, raise the cap (--max-resource-bytes for one file)."
            ),
            IndexError::Malformed { url, reason } => write!(
                f,
                "\"{url}\" is not a well-known skills index: {reason}. Check that the URL names the index (`{WELL_KNOWN_PREFIX}index.json`), not a page of the site."
            ),
            IndexError::Version { url, found } => write!(
                f,
                "The index \"{url}\" has version (or `$schema`) {found:?}; this client reads https://schemas.agentskills.io/discovery/0.2.x/schema.json (RFC v0.2.0, revised 2026-03-12), the February text's `version` 0.2.x and, with --allow-unverified, 0.1.0. {NOTHING}; use a client that reads that version, or ask the publisher for a 0.2.0 index."
            ),
            IndexError::Unverified { url } => write!(
                f,
                "The index \"{url}\" is a v0.1.0 index (no `version`, files without digests): its files cannot be checked against the publisher's digests. {NOTHING}; ask the publisher for a 0.2.0 index, or pass --allow-unverified to install them unchecked."
            ),
            IndexError::Entry { url, skill, reason } => write!(
                f,
                "The skill {skill:?} in the index \"{url}\" breaks the index format (RFC v0.2.0): {reason}. {NOTHING}; ask the publisher to fix the index."
            ),
            IndexError::FileDigest {
                url,
                skill,
                path,
                expected,
                found,
            } => write!(
                f,
                "{} of the skill {skill:?} (\"{url}\") does not match the index: the index says {expected}, the bytes fetched are {found}. The file or the index changed since the index was made, or was tampered with. {NOTHING}; try again later, or ask the publisher to rebuild the index.",
                match path {
                    Some(path) => format!("The file {path:?}"),
                    None => "The archive".to_owned(),
                }
            ),
            IndexError::SkillDigest {
                url,
                skill,
                expected,
                found,
            } => write!(
                f,
                "The skill {skill:?} in the index \"{url}\" does not match its skill-level digest: the index says {expected}, its files give {found}. {NOTHING}; ask the publisher to rebuild the index."
            ),
            IndexError::NoSkill {
                url,
                wanted,
                available,
            } => {
                write!(f, "No skill {wanted:?} in the index \"{url}\"; ")?;
                match available.is_empty() {
                    true => write!(f, "it lists no skill."),
                    false => write!(
                        f,
                        "it has {}. Name one of them with --skill, or leave --skill out for all.",
                        available.join(", ")
                    ),
                }
            }
            IndexError::Invalid { skill, problems } => write!(
                f,
                "The skill {skill:?} was not installed: it fails validation (the rules of `skills validate`):\n{problems}\nAsk the publisher to fix it; the other skills are installed."
            ),
            IndexError::Io { reason } => write!(
                f,
                "Could not write the fetched files to a temporary folder to validate them: {reason}. Check that the temporary folder (TMPDIR) is writable."
            ),
        }
    }
}

impl std::error::Error for IndexError {}
