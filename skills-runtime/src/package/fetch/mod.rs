//! The client side of the well-known index: an index read from a file or a URL, checked as the
//! Agent Skills Discovery RFC v0.2.0 asks in its revision of 2026-03-12
//! (<https://github.com/cloudflare/agent-skills-discovery-rfc/blob/main/README.md>, "Updated
//! Date: 2026-03-12": "Discovery Index", "Integrity and Verification", "Archive Distribution"):
//! each skill's one artifact fetched from its `url` resolved against the index's URL (RFC 3986),
//! checked against its digest, then read (a `skill-md` is the skill's `SKILL.md`; an `archive`,
//! `.zip` or `.tar.gz`, is unpacked in memory: no traversal, no link, sizes bounded as read),
//! then validated as `skills validate` does, into a [`SkillSet`] that `disk::Install` installs.
//!
//! The RFC's February 2026 text of 0.2.0 (`version`, each file with its digest, a skill-level
//! digest, an optional `.zip` package) is still read, checked the same way; a v0.1.0 index (no
//! digests) only with [`IndexReader::allow_unverified`].
//!
//! The runtime checks bytes; the caller fetches them ([`IndexReader::read`] takes the fetcher),
//! so a library brings its own HTTP client, and the `skills` CLI brings ureq. An index on disk
//! is read here, through opened folder handles (no link followed below the index's folder).
//!
//! Integrity failures (a digest, a path, a size, the version) refuse the whole index: nothing
//! from a site that served one altered file is installed. A skill that fails validation is left
//! out and named, and the others are installed.

mod document;
mod error;
mod location;
mod unpack;

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

use self::document::{Entry, FilesEntry, parse_index};
pub use self::error::IndexError;
use self::location::{Base, Target, index_url, is_url, resolve};
use self::unpack::unpack;
use super::index::{ArtifactKind, IndexEntry, WELL_KNOWN_PREFIX, file_digest, skill_digest};
use crate::disk::folder::Folder;
use crate::listing::ListingFormat;
use crate::model::fields::MANIFEST;
use crate::model::set::SkillSet;
use crate::parse::{Diagnostic, Profile, ScanOptions, validate};

/// The largest `index.json` read (4 MiB: about 10,000 skills of a few files each).
const MAX_INDEX_BYTES: u64 = 4 << 20;
/// The default cap on one file (the validator's default resource cap).
const DEFAULT_FILE_BYTES: u64 = 2_000_000;
/// The default cap on all the files fetched in one read.
const DEFAULT_TOTAL_BYTES: u64 = 64 << 20;

/// What a URL path segment must escape: controls, space and the characters URLs reserve or
/// forbid (index paths are printable ASCII without `\ ? # [ ]` already).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'`')
    .add(b'^')
    .add(b'{')
    .add(b'}')
    .add(b'|');

/// Reads a site's well-known index (Agent Skills Discovery RFC v0.2.0 as revised on 2026-03-12,
/// <https://github.com/cloudflare/agent-skills-discovery-rfc/blob/main/README.md>) and the
/// artifact of each skill, checked: the index's `$schema`, each skill's name and url, each
/// artifact's digest, an archive's names and sizes, then the skills validated strictly (the
/// rules of `skills validate`). See [`IndexReader::read`].
///
/// ```
/// use skills_embed::package::IndexReader;
///
/// let reader = IndexReader::new("https://example.com/.well-known/agent-skills/index.json")
///     .skills(["pdf"])
///     .max_file_bytes(1 << 20);
/// assert_eq!(reader.location(), "https://example.com/.well-known/agent-skills/index.json");
/// ```
#[derive(Debug, Clone)]
pub struct IndexReader {
    location: String,
    skills: Vec<String>,
    allow_unverified: bool,
    max_file_bytes: u64,
    max_total_bytes: u64,
    options: ScanOptions,
}

/// The skills an [`IndexReader`] read: those that passed every check, and those it left out.
///
/// ```
/// use skills_embed::package::IndexReader;
///
/// let site = tempfile::tempdir()?;
/// let dir = site.path().join(".well-known/agent-skills");
/// std::fs::create_dir_all(dir.join("pdf"))?;
/// let text = "---\nname: pdf\ndescription: Read PDFs.\n---\nUse pdftotext.\n";
/// std::fs::write(dir.join("pdf/SKILL.md"), text)?;
/// use sha2::{Digest, Sha256};
/// let digest = hex::encode(Sha256::digest(text.as_bytes()));
/// std::fs::write(dir.join("index.json"), format!(
///     r#"{{"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json",
///         "skills":[{{"name":"pdf","type":"skill-md","description":"Read PDFs.",
///         "url":"pdf/SKILL.md","digest":"sha256:{digest}"}}]}}"#
/// ))?;
///
/// let fetched = IndexReader::new(site.path().to_str().unwrap())
///     .read(|url, _| Err(format!("no network here ({url})")))?;
/// assert_eq!(fetched.set.summary(), "- pdf: Read PDFs.\n");
/// assert!(fetched.refused.is_empty() && !fetched.unverified);
/// assert!(fetched.source.ends_with("index.json"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct FetchedIndex {
    /// The index as read: its URL, or the absolute path of its file.
    pub source: String,
    /// The skills that passed every check, ready for `disk::Install`.
    pub set: SkillSet,
    /// The skills left out because they failed validation ([`IndexError::Invalid`]).
    pub refused: Vec<IndexError>,
    /// Whether the index was a v0.1.0 one (no digests) read with
    /// [`allow_unverified`](IndexReader::allow_unverified): nothing was checked against a
    /// digest.
    pub unverified: bool,
}

/// A skill whose files passed their checks: its name, and each file's path, digest and bytes.
type Verified = (String, Vec<(String, String, Vec<u8>)>);

impl IndexReader {
    /// A reader of the index at `location`: a `http://` or `https://` URL, or a file path. A
    /// URL with no path, or a folder, means the site's `/.well-known/agent-skills/index.json`.
    ///
    /// ```
    /// use skills_embed::package::IndexReader;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat, package::Archive};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(
    /// #     vec![skill("pdf"), skill("docx")],
    /// #     &ListingFormat::Markdown,
    /// # );
    /// let site = tempfile::tempdir()?;
    /// Archive::new(&set).well_known(site.path())?; // publishes "docx" and "pdf"
    /// let no_network = |url: &str, _max: u64| Err(format!("offline ({url})"));
    /// let fetched = IndexReader::new(site.path().to_str().unwrap()).read(no_network)?;
    /// assert!(fetched.source.ends_with(".well-known/agent-skills/index.json"));
    /// assert_eq!(fetched.set.names().collect::<Vec<_>>(), ["docx", "pdf"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(location: impl Into<String>) -> IndexReader {
        IndexReader {
            location: location.into(),
            skills: Vec::new(),
            allow_unverified: false,
            max_file_bytes: DEFAULT_FILE_BYTES,
            max_total_bytes: DEFAULT_TOTAL_BYTES,
            options: ScanOptions {
                profile: Profile::Strict,
                ..ScanOptions::for_repositories()
            },
        }
    }

    /// The location given to [`new`](IndexReader::new).
    ///
    /// ```
    /// use skills_embed::package::IndexReader;
    /// let reader = IndexReader::new("https://example.com");
    /// assert_eq!(reader.location(), "https://example.com"); // as given
    /// let err = reader.read(|url, _| Err(format!("offline ({url})"))).unwrap_err();
    /// let asked = "https://example.com/.well-known/agent-skills/index.json";
    /// assert!(err.to_string().contains(asked), "{err}");
    /// ```
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Only these skills (by name), each of which must be in the index; none (the default)
    /// means all of them.
    ///
    /// ```
    /// use skills_embed::package::{IndexError, IndexReader};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat, package::Archive};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(
    /// #     vec![skill("pdf"), skill("docx")],
    /// #     &ListingFormat::Markdown,
    /// # );
    /// let site = tempfile::tempdir()?;
    /// Archive::new(&set).well_known(site.path())?; // publishes "docx" and "pdf"
    /// let site_dir = site.path().to_str().unwrap();
    /// let reader = |names: &[&str]| IndexReader::new(site_dir).skills(names.to_vec());
    /// let fetched = reader(&["pdf"]).read(|url, _| Err(url.to_owned()))?;
    /// assert_eq!(fetched.set.names().collect::<Vec<_>>(), ["pdf"]);
    /// let err = reader(&["pfd"]).read(|url, _| Err(url.to_owned())).unwrap_err();
    /// assert!(matches!(err, IndexError::NoSkill { ref wanted, .. } if wanted == "pfd"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn skills(mut self, names: impl IntoIterator<Item = impl Into<String>>) -> IndexReader {
        self.skills = names.into_iter().map(Into::into).collect();
        self
    }

    /// Read a v0.1.0 index (files without digests), its files unchecked; refused by default.
    ///
    /// ```
    /// use skills_embed::package::{IndexError, IndexReader};
    /// # let site = tempfile::tempdir()?;
    /// # std::fs::create_dir(site.path().join("pdf"))?;
    /// # let text = "---\nname: pdf\ndescription: Fill PDF forms.\n---\n# Steps\n";
    /// # std::fs::write(site.path().join("pdf/SKILL.md"), text)?;
    /// // A v0.1.0 index: no `version`, files as plain paths, no digests.
    /// let index = r#"{"skills": [{"name": "pdf", "description": "Fill PDF forms.",
    ///     "files": ["SKILL.md"]}]}"#;
    /// std::fs::write(site.path().join("index.json"), index)?;
    /// let offline = |url: &str, _: u64| Err(url.to_owned());
    /// let reader = IndexReader::new(site.path().join("index.json").to_str().unwrap());
    /// assert!(matches!(reader.read(offline), Err(IndexError::Unverified { .. })));
    /// let fetched = reader.allow_unverified(true).read(offline)?;
    /// assert!(fetched.unverified);
    /// assert_eq!(fetched.set.names().collect::<Vec<_>>(), ["pdf"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn allow_unverified(mut self, allow: bool) -> IndexReader {
        self.allow_unverified = allow;
        self
    }

    /// The cap on one file, in bytes (default 2,000,000, the validator's resource cap).
    ///
    /// ```
    /// use skills_embed::package::{IndexError, IndexReader};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat, package::Archive};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(
    /// #     vec![skill("pdf"), skill("docx")],
    /// #     &ListingFormat::Markdown,
    /// # );
    /// let site = tempfile::tempdir()?;
    /// Archive::new(&set).well_known(site.path())?; // publishes "docx" and "pdf"
    /// let tight = IndexReader::new(site.path().to_str().unwrap()).max_file_bytes(10);
    /// let err = tight.read(|url, _| Err(url.to_owned())).unwrap_err();
    /// assert!(matches!(err, IndexError::TooLarge { limit: 10, what: "one file", .. }), "{err}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_file_bytes(mut self, bytes: u64) -> IndexReader {
        self.max_file_bytes = bytes;
        self
    }

    /// The cap on all the files of one read together, in bytes (default 64 MiB).
    ///
    /// ```
    /// use skills_embed::package::{IndexError, IndexReader};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat, package::Archive};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(
    /// #     vec![skill("pdf"), skill("docx")],
    /// #     &ListingFormat::Markdown,
    /// # );
    /// let site = tempfile::tempdir()?;
    /// Archive::new(&set).well_known(site.path())?; // publishes "docx" and "pdf"
    /// let reader = IndexReader::new(site.path().to_str().unwrap());
    /// let offline = |url: &str, _: u64| Err(url.to_owned());
    /// assert_eq!(reader.read(offline)?.set.len(), 2);
    /// let err = reader.max_total_bytes(100).read(offline).unwrap_err();
    /// let all = "all files together";
    /// assert!(matches!(err, IndexError::TooLarge { limit: 100, what, .. } if what == all), "{err}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_total_bytes(mut self, bytes: u64) -> IndexReader {
        self.max_total_bytes = bytes;
        self
    }

    /// How the fetched skills are validated (default: strict, as `skills validate`). The
    /// profile is always strict: what is installed into agents is checked as `validate`
    /// checks it; the dialects and caps are the caller's.
    ///
    /// ```
    /// use skills_embed::package::IndexReader;
    /// use skills_embed::parse::{Dialect, ScanOptions};
    /// # let site = tempfile::tempdir()?;
    /// # std::fs::create_dir(site.path().join("pdf"))?;
    /// # let text = "---\nname: pdf\ndescription: PDFs.\nuser-invocable: false\n---\n# Steps\n";
    /// # std::fs::write(site.path().join("pdf/SKILL.md"), text)?;
    /// // A v0.1.0 index: no `version`, files as plain paths, no digests.
    /// let index = r#"{"skills": [{"name": "pdf", "description": "PDFs.",
    ///     "files": ["SKILL.md"]}]}"#;
    /// std::fs::write(site.path().join("index.json"), index)?;
    /// let offline = |url: &str, _: u64| Err(url.to_owned());
    /// let path = site.path().join("index.json");
    /// let reader = IndexReader::new(path.to_str().unwrap()).allow_unverified(true);
    /// let plain = reader.read(offline)?; // Claude Code's `user-invocable` is not allowed
    /// assert_eq!((plain.set.len(), plain.refused.len()), (0, 1));
    /// let options = ScanOptions { dialects: vec![Dialect::ClaudeCode], ..ScanOptions::default() };
    /// let fetched = reader.scan_options(options).read(offline)?;
    /// assert_eq!(fetched.set.names().collect::<Vec<_>>(), ["pdf"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn scan_options(mut self, options: ScanOptions) -> IndexReader {
        self.options = ScanOptions {
            profile: Profile::Strict,
            ..options
        };
        self
    }

    /// Reads the index, checks it, fetches and checks the artifact (or files) of each skill
    /// asked for, and validates them. `fetch(url, max)` brings the bytes of a `http(s)://` URL
    /// (the index, then each entry's `url` resolved against it); it should read at most
    /// `max + 1` bytes, since more than `max` is refused, and say in its error what went wrong.
    /// An index on disk, and the artifacts it names by relative URL, are read without it.
    ///
    /// ```
    /// use skills_embed::package::IndexReader;
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat, package::Archive};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![],
    /// # );
    /// # let set = SkillSet::from_skills(
    /// #     vec![skill("pdf"), skill("docx")],
    /// #     &ListingFormat::Markdown,
    /// # );
    /// let site = tempfile::tempdir()?;
    /// Archive::new(&set).well_known(site.path())?; // publishes "docx" and "pdf"
    /// // A fetcher over the files just published, standing in for an HTTP client:
    /// let fetch = |url: &str, _max: u64| -> Result<Vec<u8>, String> {
    ///     let path = url.strip_prefix("https://example.com/").ok_or("not this site")?;
    ///     std::fs::read(site.path().join(path)).map_err(|e| e.to_string())
    /// };
    /// let fetched = IndexReader::new("https://example.com").read(fetch)?;
    /// assert_eq!(fetched.source, "https://example.com/.well-known/agent-skills/index.json");
    /// assert_eq!(fetched.set.names().collect::<Vec<_>>(), ["docx", "pdf"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The first integrity problem ([`IndexError`]); nothing of the index is returned then.
    pub fn read(
        &self,
        mut fetch: impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
    ) -> Result<FetchedIndex, IndexError> {
        let (source, base, index_bytes) = self.read_index(&mut fetch)?;
        let entries = parse_index(&source, &index_bytes, self.allow_unverified)?;
        let unverified = entries.iter().any(|e| {
            matches!(
                e,
                Entry::Files {
                    verified: false,
                    ..
                }
            )
        });
        let chosen = self.choose(&source, entries)?;
        let mut total = 0u64;
        let mut skills = Vec::with_capacity(chosen.len());
        for entry in &chosen {
            let files = match entry {
                Entry::Artifact(entry) => {
                    self.read_artifact(&source, &base, entry, &mut fetch, &mut total)?
                }
                Entry::Files { entry, verified } => {
                    self.read_files(&source, &base, entry, *verified, &mut fetch, &mut total)?
                }
            };
            skills.push((entry.name().to_owned(), files));
        }
        let (set, refused) = self.validate(&base, &skills)?;
        Ok(FetchedIndex {
            source,
            set,
            refused,
            unverified,
        })
    }

    /// A revised-format entry's artifact: fetched (a `skill-md` within the cap on one file, an
    /// archive within the cap on all files), checked against its digest before it is read,
    /// then the skill's files: the one `SKILL.md`, or the archive unpacked.
    fn read_artifact(
        &self,
        source: &str,
        base: &Base,
        entry: &IndexEntry,
        fetch: &mut impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
        total: &mut u64,
    ) -> Result<Vec<(String, String, Vec<u8>)>, IndexError> {
        let bad = IndexError::entry(source, &entry.name);
        let (cap, what) = match entry.kind {
            ArtifactKind::SkillMd => (self.max_file_bytes, "one file"),
            ArtifactKind::Archive => (self.max_total_bytes, "all files together"),
        };
        let (url, bytes) = fetch_artifact(base, &entry.url, cap, what, fetch, &bad)?;
        let found = file_digest(&bytes);
        if found != entry.digest {
            return Err(IndexError::FileDigest {
                url,
                skill: entry.name.clone(),
                path: match entry.kind {
                    ArtifactKind::SkillMd => Some(MANIFEST.to_owned()),
                    ArtifactKind::Archive => None,
                },
                expected: entry.digest.clone(),
                found,
            });
        }
        let files = match entry.kind {
            ArtifactKind::SkillMd => BTreeMap::from([(MANIFEST.to_owned(), bytes)]),
            ArtifactKind::Archive => unpack(
                &bytes,
                &entry.name,
                self.max_file_bytes,
                self.max_total_bytes,
            )
            .map_err(|reason| bad(format!("its archive \"{url}\" {reason}")))?,
        };
        if !files.contains_key(MANIFEST) {
            return Err(bad(format!(
                "its archive \"{url}\" has no {MANIFEST} at its root (RFC \"Archive Distribution\": the skill's folder is the archive's root)"
            )));
        }
        let mut checked = Vec::with_capacity(files.len());
        for (path, bytes) in files {
            *total += bytes.len() as u64;
            if *total > self.max_total_bytes {
                return Err(IndexError::TooLarge {
                    url,
                    limit: self.max_total_bytes,
                    what: "all files together",
                });
            }
            checked.push((path, file_digest(&bytes), bytes));
        }
        Ok(checked)
    }

    /// A February-text (or v0.1.0) entry's files: each fetched from `{name}/{path}` (or
    /// unpacked from its `.zip` package, checked first) and checked against its digest, then
    /// the skill against its skill-level digest.
    fn read_files(
        &self,
        source: &str,
        base: &Base,
        entry: &FilesEntry,
        verified: bool,
        fetch: &mut impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
        total: &mut u64,
    ) -> Result<Vec<(String, String, Vec<u8>)>, IndexError> {
        let bad = IndexError::entry(source, &entry.name);
        // A zip the index names is one download; its digest is checked before it is opened.
        let mut archived = match (&entry.package, verified) {
            (Some(package), true) if package.url.to_ascii_lowercase().ends_with(".zip") => {
                let cap = self.max_total_bytes;
                let (url, bytes) =
                    fetch_artifact(base, &package.url, cap, "all files together", fetch, &bad)?;
                let found = file_digest(&bytes);
                if found != package.digest {
                    return Err(IndexError::FileDigest {
                        url,
                        skill: entry.name.clone(),
                        path: None,
                        expected: package.digest.clone(),
                        found,
                    });
                }
                let unpacked = unpack(&bytes, &entry.name, self.max_file_bytes, cap)
                    .map_err(|reason| bad(format!("its archive \"{url}\" {reason}")))?;
                Some((url, unpacked))
            }
            _ => None,
        };
        let mut files = Vec::with_capacity(entry.files.len());
        for file in &entry.files {
            let (url, bytes) = match archived.as_mut() {
                Some((url, unpacked)) => match unpacked.remove(&file.path) {
                    Some(bytes) => (format!("{url} ({})", file.path), bytes),
                    None => {
                        return Err(bad(format!("its archive \"{url}\" lacks {:?}", file.path)));
                    }
                },
                None => self.fetch_file(base, &entry.name, &file.path, fetch)?,
            };
            *total += bytes.len() as u64;
            if *total > self.max_total_bytes {
                return Err(IndexError::TooLarge {
                    url,
                    limit: self.max_total_bytes,
                    what: "all files together",
                });
            }
            let found = file_digest(&bytes);
            if verified && found != file.digest {
                return Err(IndexError::FileDigest {
                    url,
                    skill: entry.name.clone(),
                    path: Some(file.path.clone()),
                    expected: file.digest.clone(),
                    found,
                });
            }
            files.push((file.path.clone(), found, bytes));
        }
        if verified {
            // Post-fetch validation: from the bytes, not the index.
            let found = skill_digest(files.iter().map(|(p, d, _)| (p.as_str(), d.as_str())));
            if found != entry.digest {
                return Err(IndexError::SkillDigest {
                    url: source.to_owned(),
                    skill: entry.name.clone(),
                    expected: entry.digest.clone(),
                    found,
                });
            }
        }
        Ok(files)
    }

    /// The index's location as read (its URL, or its file's absolute path), where its files
    /// are, and its bytes.
    fn read_index(
        &self,
        fetch: &mut impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
    ) -> Result<(String, Base, Vec<u8>), IndexError> {
        let location = self.location.trim();
        if is_url(location) {
            let url = index_url(location);
            let bytes = fetch_bounded(fetch, &url, MAX_INDEX_BYTES, "the index")?;
            let base = url[..url.rfind('/').map_or(url.len(), |i| i + 1)].to_owned();
            return Ok((url, Base::Url(base), bytes));
        }
        let given = Path::new(location);
        let path = if given.is_dir() {
            let well_known = given
                .join(WELL_KNOWN_PREFIX.trim_matches('/'))
                .join("index.json");
            if well_known.is_file() {
                well_known
            } else {
                given.join("index.json")
            }
        } else {
            given.to_owned()
        };
        let path = std::path::absolute(&path).unwrap_or(path);
        let source = path.display().to_string();
        let file = std::fs::File::open(&path).map_err(|e| IndexError::Fetch {
            url: source.clone(),
            reason: e.to_string(),
        })?;
        let bytes = read_capped(file, MAX_INDEX_BYTES, &source, "the index")?;
        let dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        Ok((source, Base::Dir(dir), bytes))
    }

    /// The entries asked for, in the index's order.
    fn choose(&self, source: &str, entries: Vec<Entry>) -> Result<Vec<Entry>, IndexError> {
        if self.skills.is_empty() {
            return Ok(entries);
        }
        for wanted in &self.skills {
            if !entries.iter().any(|e| e.name() == wanted) {
                return Err(IndexError::NoSkill {
                    url: source.to_owned(),
                    wanted: wanted.clone(),
                    available: entries.iter().map(|e| e.name().to_owned()).collect(),
                });
            }
        }
        Ok(entries
            .into_iter()
            .filter(|e| self.skills.iter().any(|n| n == e.name()))
            .collect())
    }

    /// One file of a skill listed by path: where it was read and its bytes, at most the cap on
    /// one file.
    fn fetch_file(
        &self,
        base: &Base,
        name: &str,
        path: &str,
        fetch: &mut impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
    ) -> Result<(String, Vec<u8>), IndexError> {
        let cap = self.max_file_bytes;
        match base {
            Base::Url(base) => {
                let segments: Vec<String> = path
                    .split('/')
                    .map(|s| utf8_percent_encode(s, SEGMENT).to_string())
                    .collect();
                let url = format!("{base}{name}/{}", segments.join("/"));
                let bytes = fetch_bounded(fetch, &url, cap, "one file")?;
                Ok((url, bytes))
            }
            Base::Dir(dir) => {
                let relative = format!("{name}/{path}");
                read_in_dir(dir, &relative, cap, "one file")
            }
        }
    }

    /// Writes the verified skills to a temporary folder, validates each as `skills validate`
    /// does, and loads those without an error.
    fn validate(
        &self,
        base: &Base,
        skills: &[Verified],
    ) -> Result<(SkillSet, Vec<IndexError>), IndexError> {
        let io = |e: &dyn fmt::Display| IndexError::Io {
            reason: e.to_string(),
        };
        let temp = tempfile::tempdir().map_err(|e| io(&e))?;
        let root = Folder::open_ambient(temp.path()).map_err(|e| io(&e))?;
        for (name, files) in skills {
            let skill = root.child(name).map_err(|e| io(&e))?;
            for (path, _, bytes) in files {
                let segments: Vec<&str> = path.split('/').collect();
                let Some((last, folders)) = segments.split_last() else {
                    continue;
                };
                let mut folder = None;
                for name in folders {
                    let parent = folder.as_ref().unwrap_or(&skill);
                    folder = Some(parent.child(name).map_err(|e| io(&e))?);
                }
                folder
                    .as_ref()
                    .unwrap_or(&skill)
                    .replace(last, bytes, false)
                    .map_err(|e| io(&e))?;
            }
        }
        // Shown under the index's folder, where the publisher finds them.
        let shown = match base {
            Base::Url(base) => base.clone(),
            Base::Dir(dir) => format!("{}/", dir.display()),
        };
        let mut refused = Vec::new();
        for (name, _) in skills {
            let errors: Vec<Diagnostic> = validate(&temp.path().join(name), &self.options)
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect();
            if errors.is_empty() {
                continue;
            }
            let problems: Vec<String> = errors
                .iter()
                .map(|d| format!("  {shown}{}", d.relative_to(temp.path())))
                .collect();
            refused.push(IndexError::Invalid {
                skill: name.clone(),
                problems: problems.join("\n"),
            });
            // Not loaded: its folder goes before the set is read.
            let _ = root.remove(name);
        }
        let (set, _) = crate::load::set(temp.path(), &self.options, &ListingFormat::Markdown);
        Ok((set, refused))
    }
}

/// An artifact's bytes, at most `cap`, and where they were read.
fn fetch_artifact(
    base: &Base,
    reference: &str,
    cap: u64,
    what: &'static str,
    fetch: &mut impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
    bad: &impl Fn(String) -> IndexError,
) -> Result<(String, Vec<u8>), IndexError> {
    match (resolve(base, reference).map_err(bad)?, base) {
        (Target::Url(url), _) => {
            let bytes = fetch_bounded(fetch, &url, cap, what)?;
            Ok((url, bytes))
        }
        (Target::Dir(relative), Base::Dir(dir)) => read_in_dir(dir, &relative, cap, what),
        (Target::Dir(relative), Base::Url(_)) => Err(bad(format!("{relative:?} is not a URL"))),
    }
}

/// The file at `relative` (`/`-separated) below `dir`, at most `cap` bytes, opened folder by
/// folder, never through a link: the index names the path, and a link below the index's
/// folder could lead anywhere.
fn read_in_dir(
    dir: &Path,
    relative: &str,
    cap: u64,
    what: &'static str,
) -> Result<(String, Vec<u8>), IndexError> {
    let shown = dir.join(relative).display().to_string();
    let failed = |reason: String| IndexError::Fetch {
        url: shown.clone(),
        reason,
    };
    let mut folder = Folder::open_ambient(dir).map_err(|e| failed(e.to_string()))?;
    let segments: Vec<&str> = relative.split('/').collect();
    let Some((last, folders)) = segments.split_last() else {
        return Err(failed("an empty path".into()));
    };
    for name in folders {
        folder = folder
            .existing(name)
            .map_err(|e| failed(e.to_string()))?
            .ok_or_else(|| failed("no such folder, or a link".into()))?;
    }
    let file = folder
        .file(last)
        .map_err(|e| failed(e.to_string()))?
        .ok_or_else(|| failed("no such file, or a link".into()))?;
    let bytes = read_capped(file, cap, &shown, what)?;
    Ok((shown, bytes))
}

/// `fetch(url)`, refused over `cap` bytes.
fn fetch_bounded(
    fetch: &mut impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
    url: &str,
    cap: u64,
    what: &'static str,
) -> Result<Vec<u8>, IndexError> {
    within(fetch(url, cap), url, cap, what)
}

/// At most `cap` bytes of `reader`; one more is an error.
fn read_capped(
    reader: impl Read,
    cap: u64,
    shown: &str,
    what: &'static str,
) -> Result<Vec<u8>, IndexError> {
    let mut bytes = Vec::new();
    let read = reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map(|_| bytes)
        .map_err(|e| e.to_string());
    within(read, shown, cap, what)
}

/// The bytes fetched or read from `url`, or why there are none; more than `cap` of them is
/// `TooLarge`, whichever way they came.
fn within(
    read: Result<Vec<u8>, String>,
    url: &str,
    cap: u64,
    what: &'static str,
) -> Result<Vec<u8>, IndexError> {
    let bytes = read.map_err(|reason| IndexError::Fetch {
        url: url.to_owned(),
        reason,
    })?;
    if bytes.len() as u64 > cap {
        return Err(IndexError::TooLarge {
            url: url.to_owned(),
            limit: cap,
            what,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    const SITE: &str = "https://site.test/.well-known/agent-skills/";

    fn skill_md(name: &str) -> String {
        format!("---\nname: {name}\ndescription: Does {name} things.\n---\n# {name}\n")
    }

    /// A skill's files: path and bytes.
    type Files<'a> = &'a [(&'a str, &'a [u8])];

    /// A site in memory: each URL's bytes, and the index built from `skills` by the RFC's rules.
    struct Site {
        files: BTreeMap<String, Vec<u8>>,
        index: serde_json::Value,
    }

    impl Site {
        fn new(skills: &[(&str, Files)]) -> Site {
            let mut files = BTreeMap::new();
            let mut entries = Vec::new();
            for (name, skill_files) in skills {
                let listed: Vec<(String, String)> = skill_files
                    .iter()
                    .map(|(path, bytes)| (path.to_string(), file_digest(bytes)))
                    .collect();
                for (path, bytes) in *skill_files {
                    let encoded = path.replace(' ', "%20");
                    files.insert(format!("{SITE}{name}/{encoded}"), bytes.to_vec());
                }
                entries.push(serde_json::json!({
                    "name": name,
                    "description": "x",
                    "digest": skill_digest(listed.iter().map(|(p, d)| (p.as_str(), d.as_str()))),
                    "files": listed.iter().map(|(p, d)| serde_json::json!({"path": p, "digest": d})).collect::<Vec<_>>(),
                }));
            }
            let index = serde_json::json!({"version": "0.2.0", "skills": entries});
            Site { files, index }
        }

        fn read(&self, reader: IndexReader) -> Result<FetchedIndex, IndexError> {
            let mut files = self.files.clone();
            files.insert(
                format!("{SITE}index.json"),
                serde_json::to_vec(&self.index).unwrap(),
            );
            reader.read(|url, _| {
                files
                    .get(url)
                    .cloned()
                    .ok_or_else(|| "404 Not Found".into())
            })
        }

        fn reader() -> IndexReader {
            IndexReader::new(format!("{SITE}index.json"))
        }
    }

    #[test]
    fn a_checked_index_gives_its_skills() {
        let pdf = skill_md("pdf");
        let site = Site::new(&[
            (
                "pdf",
                &[("SKILL.md", pdf.as_bytes()), ("notes/a b.md", b"notes\n")],
            ),
            ("csv", &[("SKILL.md", skill_md("csv").as_bytes())]),
        ]);
        let fetched = site.read(Site::reader()).unwrap();
        assert_eq!(fetched.source, format!("{SITE}index.json"));
        assert!(fetched.refused.is_empty() && !fetched.unverified);
        let names: Vec<&str> = fetched.set.skills().iter().map(|s| s.name()).collect();
        assert_eq!(names, ["csv", "pdf"]);
        let loaded = fetched
            .set
            .get("pdf")
            .unwrap()
            .load("notes/a b.md")
            .unwrap();
        assert_eq!(loaded.bytes(), b"notes\n");

        let one = site.read(Site::reader().skills(["csv"])).unwrap();
        assert_eq!(one.set.skills().len(), 1);
        let missing = site.read(Site::reader().skills(["nope"])).unwrap_err();
        assert!(matches!(&missing, IndexError::NoSkill { available, .. } if available.len() == 2));
        assert!(missing.to_string().contains("pdf, csv"), "{missing}");
    }

    #[test]
    fn a_tampered_file_is_refused_with_both_digests() {
        let pdf = skill_md("pdf");
        let mut site = Site::new(&[("pdf", &[("SKILL.md", pdf.as_bytes())])]);
        let url = format!("{SITE}pdf/SKILL.md");
        site.files.insert(
            url.clone(),
            b"---\nname: pdf\ndescription: evil\n---\n".to_vec(),
        );
        let err = site.read(Site::reader()).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(&file_digest(pdf.as_bytes()))
                && text.contains(&file_digest(b"---\nname: pdf\ndescription: evil\n---\n"))
                && text.contains(&url)
                && text.contains("\"SKILL.md\""),
            "{text}"
        );
    }

    #[test]
    fn a_wrong_skill_digest_is_refused_before_any_file_is_fetched() {
        let mut site = Site::new(&[("pdf", &[("SKILL.md", skill_md("pdf").as_bytes())])]);
        site.index["skills"][0]["digest"] = format!("sha256:{}", "0".repeat(64)).into();
        site.files.clear();
        let err = site.read(Site::reader()).unwrap_err();
        assert!(matches!(err, IndexError::SkillDigest { .. }), "{err}");
        assert!(err.to_string().contains(&"0".repeat(64)), "{err}");
    }

    #[test]
    fn paths_names_and_digests_follow_the_rfc() {
        let site = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut site = Site::new(&[("pdf", &[("SKILL.md", skill_md("pdf").as_bytes())])]);
            edit(&mut site.index["skills"][0]);
            site.read(Site::reader()).unwrap_err().to_string()
        };
        let dotdot = site(&|s| s["files"][0]["path"] = "../../etc/passwd".into());
        assert!(
            dotdot.contains("\"../../etc/passwd\"") && dotdot.contains(".."),
            "{dotdot}"
        );
        let name = site(&|s| s["name"] = "../x".into());
        assert!(name.contains("lowercase letters"), "{name}");
        let digest = site(&|s| s["files"][0]["digest"] = "md5:00".into());
        assert!(digest.contains("64 lowercase hex"), "{digest}");
        let no_manifest = site(&|s| s["files"][0]["path"] = "README.md".into());
        assert!(
            no_manifest.contains("do not include SKILL.md"),
            "{no_manifest}"
        );
    }

    #[test]
    fn sizes_are_bounded() {
        let big = vec![b'a'; 2_001];
        let site = Site::new(&[(
            "pdf",
            &[("SKILL.md", skill_md("pdf").as_bytes()), ("big.txt", &big)],
        )]);
        let err = site.read(Site::reader().max_file_bytes(2_000)).unwrap_err();
        assert!(
            matches!(&err, IndexError::TooLarge { limit: 2_000, url, .. } if url.ends_with("big.txt")),
            "{err}"
        );
        let err = site
            .read(Site::reader().max_total_bytes(2_040))
            .unwrap_err();
        assert!(
            matches!(
                err,
                IndexError::TooLarge {
                    what: "all files together",
                    ..
                }
            ),
            "{err}"
        );
        assert!(site.read(Site::reader()).is_ok());
    }

    #[test]
    fn versions_are_checked() {
        let pdf = skill_md("pdf");
        let mut site = Site::new(&[("pdf", &[("SKILL.md", pdf.as_bytes())])]);
        site.index["version"] = "1.0.0".into();
        let err = site.read(Site::reader()).unwrap_err();
        assert!(
            matches!(&err, IndexError::Version { found, .. } if found == "1.0.0"),
            "{err}"
        );
        site.index["version"] = "0.02.0".into();
        assert!(matches!(
            site.read(Site::reader()),
            Err(IndexError::Version { .. })
        ));
        site.index["version"] = "0.2.7".into();
        assert!(site.read(Site::reader()).is_ok());

        // v0.1.0: no version, files as strings, no digests.
        site.index = serde_json::json!({"skills": [{"name": "pdf", "description": "x", "files": ["SKILL.md"]}]});
        let err = site.read(Site::reader()).unwrap_err();
        assert!(matches!(err, IndexError::Unverified { .. }));
        assert!(err.to_string().contains("--allow-unverified"), "{err}");
        let fetched = site.read(Site::reader().allow_unverified(true)).unwrap();
        assert!(fetched.unverified);
        assert_eq!(fetched.set.skills().len(), 1);

        site.index =
            serde_json::json!({"$schema": "https://example.test/0.2.0/schema.json", "skills": []});
        let err = site.read(Site::reader()).unwrap_err();
        assert!(
            matches!(&err, IndexError::Version { found, .. } if found.contains("example.test")),
            "{err}"
        );
        site.index = serde_json::json!({"$schema": "https://schemas.agentskills.io/discovery/0.2.3/schema.json", "skills": []});
        assert!(site.read(Site::reader()).is_ok());
    }

    #[test]
    fn an_invalid_skill_is_left_out_and_named() {
        let bad = "---\nname: other\ndescription: Wrong name.\n---\n";
        let site = Site::new(&[
            ("bad", &[("SKILL.md", bad.as_bytes())]),
            ("pdf", &[("SKILL.md", skill_md("pdf").as_bytes())]),
        ]);
        let fetched = site.read(Site::reader()).unwrap();
        assert_eq!(
            fetched
                .set
                .skills()
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>(),
            ["pdf"]
        );
        let [IndexError::Invalid { skill, problems }] = fetched.refused.as_slice() else {
            panic!("{:?}", fetched.refused);
        };
        assert_eq!(skill, "bad");
        assert!(
            problems.contains(&format!("{SITE}bad/SKILL.md")),
            "{problems}"
        );
    }

    #[test]
    fn an_index_on_disk_is_read_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(".well-known/agent-skills");
        std::fs::create_dir_all(root.join("pdf")).unwrap();
        let pdf = skill_md("pdf");
        std::fs::write(root.join("pdf/SKILL.md"), &pdf).unwrap();
        let site = Site::new(&[("pdf", &[("SKILL.md", pdf.as_bytes())])]);
        std::fs::write(
            root.join("index.json"),
            serde_json::to_vec(&site.index).unwrap(),
        )
        .unwrap();
        let no_network = |url: &str, _| Err(format!("no network: {url}"));
        let fetched = IndexReader::new(dir.path().to_str().unwrap())
            .read(no_network)
            .unwrap();
        assert_eq!(fetched.set.skills().len(), 1);
        assert!(fetched.source.ends_with("agent-skills/index.json"));

        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            std::fs::write(outside.path().join("SKILL.md"), &pdf).unwrap();
            std::fs::remove_dir_all(root.join("pdf")).unwrap();
            std::os::unix::fs::symlink(outside.path(), root.join("pdf")).unwrap();
            let err = IndexReader::new(dir.path().to_str().unwrap())
                .read(no_network)
                .unwrap_err();
            assert!(matches!(err, IndexError::Fetch { .. }), "{err}");
        }
    }

    fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
        use std::io::Write;
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, bytes) in entries {
            writer
                .start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn a_zip_package_is_checked_then_unpacked_within_bounds() {
        let pdf = skill_md("pdf");
        let with_archive = |archive: &[u8]| {
            let mut site =
                Site::new(&[("pdf", &[("SKILL.md", pdf.as_bytes()), ("notes.md", b"n\n")])]);
            // Only the archive is served: the files come from it.
            site.files.clear();
            site.files
                .insert(format!("{SITE}pdf.zip"), archive.to_vec());
            site.index["skills"][0]["package"] =
                serde_json::json!({"url": "pdf.zip", "digest": file_digest(archive)});
            site
        };
        // The skills APIs' layout (one top-level folder) and the RFC's (the skill's root).
        for archive in [
            zip(&[("pdf/SKILL.md", pdf.as_bytes()), ("pdf/notes.md", b"n\n")]),
            zip(&[("SKILL.md", pdf.as_bytes()), ("notes.md", b"n\n")]),
        ] {
            let fetched = with_archive(&archive).read(Site::reader()).unwrap();
            let skill = fetched.set.get("pdf").unwrap();
            assert_eq!(skill.load("notes.md").unwrap().bytes(), b"n\n");
        }

        let altered = zip(&[("SKILL.md", pdf.as_bytes()), ("notes.md", b"evil\n")]);
        let err = with_archive(&altered).read(Site::reader()).unwrap_err();
        assert!(
            matches!(&err, IndexError::FileDigest { path: Some(path), .. } if path == "notes.md"),
            "{err}"
        );
        let mut site = with_archive(&altered);
        site.index["skills"][0]["package"]["digest"] = file_digest(b"other").into();
        let err = site.read(Site::reader()).unwrap_err();
        assert!(
            err.to_string().starts_with("The archive of the skill"),
            "{err}"
        );

        let escaping = zip(&[("SKILL.md", pdf.as_bytes()), ("../../evil.sh", b"x")]);
        let err = with_archive(&escaping).read(Site::reader()).unwrap_err();
        assert!(
            err.to_string()
                .contains("\"../../evil.sh\", not a relative path"),
            "{err}"
        );

        let bomb = zip(&[("SKILL.md", pdf.as_bytes()), ("notes.md", &vec![0; 50_000])]);
        let err = with_archive(&bomb)
            .read(Site::reader().max_file_bytes(10_000))
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("over the cap on one file (10000 bytes)"),
            "{err}"
        );
    }
}
