//! Skill archives: a zip per skill, or one for a set, in the layout the skills APIs accept for
//! upload, byte for byte the same for the same skills.
//!
//! The layout is one top-level folder named after the skill, holding `SKILL.md` and the skill's
//! files. Anthropic's `POST /v1/skills`: "All files must be in the same top-level directory and
//! must include a SKILL.md file at the root of that directory", with a total upload under 8 MB
//! (<https://platform.claude.com/docs/en/api/skills/create-skill>,
//! <https://platform.claude.com/docs/en/build-with-claude/skills-guide>). OpenAI's
//! `POST /v1/skills`: "a .zip that contains a single top-level folder", at most 500 files, a zip
//! of at most 50 MB and files of at most 25 MB uncompressed
//! (<https://developers.openai.com/api/docs/guides/tools-skills>). A skill within 8 MB and 500
//! files passes both.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, System, ZipWriter};

use super::index::{self, ArtifactKind, WELL_KNOWN_PREFIX};
use crate::disk::extract::{ExtractError, checked_paths, prepare_dest, write_files};
use crate::disk::folder::Folder;
use crate::model::set::SkillSet;
use crate::model::skill::Skill;
use crate::model::skill_md;

/// The largest skill an archive may hold, in bytes of its files uncompressed: Anthropic's
/// "total upload size must be under 8 MB", read as 8,000,000 bytes (the stricter reading).
pub(crate) const MAX_SKILL_BYTES: u64 = 8_000_000;

/// The most files a skill's archive may hold: OpenAI's 500 files per skill version.
pub(crate) const MAX_SKILL_FILES: usize = 500;

/// Where the limits come from, for the error messages.
const LIMITS_URL: &str = "https://platform.claude.com/docs/en/build-with-claude/skills-guide";
const FILES_URL: &str = "https://developers.openai.com/api/docs/guides/tools-skills";

/// Zip archives of a [`SkillSet`]'s skills, in the layout the skills APIs accept for upload:
/// one top-level folder named after the skill, holding `SKILL.md` and the skill's files.
///
/// Every skill of the set gets `{name}.zip`, or, with [`whole_set`](Archive::whole_set), one
/// `{NAME}.zip` holds every skill's folder. The set may be embedded (what `skills!` checked at
/// compile time) or loaded from a folder with `load::set`: the archive is the same.
///
/// - **Reproducible**: the same skills give the same bytes, whatever the order of the files on
///   disk or the clock. Entries come in a fixed order (each skill's folder, its `SKILL.md`, then
///   its files by path, each folder's entry before its first file), every time is the DOS epoch
///   1980-01-01 00:00, the system is Unix, and every file is deflated at level 6.
/// - **Modes**: `0755` for folders and for a file that is executable: one with the executable bit
///   in the skill's folder, or that starts with a shebang (`#!`), since an API's sandbox runs
///   `scripts/run.sh` as it finds it; `0644` for every other file.
/// - **`SKILL.md`** is written whole from the skill's fields and body (the same writer as
///   `disk::Install`), so an embedded skill, which keeps its body alone, gives a complete file.
/// - **Limits**: a skill over 8,000,000 bytes of files (Anthropic's "under 8 MB") or 500 files
///   (OpenAI's) is an [`ArchiveError`] naming the skill, its size and the limit, before anything
///   is written. Sources:
///   <https://platform.claude.com/docs/en/build-with-claude/skills-guide> and
///   <https://developers.openai.com/api/docs/guides/tools-skills>.
///
/// ```
/// use skills_embed::{File, Fields, Skill, SkillSet};
/// use skills_embed::listing::ListingFormat;
/// use skills_embed::package::Archive;
///
/// let skill = Skill::owned(
///     Fields { name: "pdf".into(), description: "Work with PDF files.".into(), ..Default::default() },
///     "Run `scripts/extract.sh FILE`.\n".into(),
///     vec![File::owned("scripts/extract.sh".into(), b"#!/bin/sh\npdftotext \"$1\" -\n".to_vec(), false)],
/// );
/// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
///
/// let archives = Archive::new(&set).bytes()?;
/// assert_eq!(archives[0].0, "pdf.zip");
/// assert_eq!(archives, Archive::new(&set).bytes()?); // the same bytes every time
///
/// let out = tempfile::tempdir()?;
/// let written = Archive::new(&set).write(out.path())?;
/// assert_eq!(written[0].path, out.path().join("pdf.zip"));
/// assert_eq!(written[0].size, archives[0].1.len() as u64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Archive<'a> {
    skills: &'a [Skill],
    whole_set: Option<String>,
}

/// A file [`Archive`] wrote: where, how large, and its SHA-256 (what an index names it by).
///
/// ```
/// use skills_embed::{Fields, Skill, SkillSet};
/// use skills_embed::listing::ListingFormat;
/// use skills_embed::package::Archive;
///
/// let skill = Skill::owned(
///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
///     "# Notes\n".into(),
///     vec![],
/// );
/// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
/// let out = tempfile::tempdir()?;
/// for file in Archive::new(&set).write(out.path())? {
///     assert_eq!(file.size, std::fs::metadata(&file.path)?.len());
///     assert!(file.sha256.starts_with("sha256:"));
///     println!("{}\t{}\t{}", file.path.display(), file.size, file.sha256);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// The file written, under the folder given.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// `sha256:{hex}` of its bytes.
    pub sha256: String,
}

/// Why archives or an index could not be made. Nothing is written when a skill is refused.
///
/// ```
/// use skills_embed::{File, Fields, Skill, SkillSet};
/// use skills_embed::listing::ListingFormat;
/// use skills_embed::package::{Archive, ArchiveError};
///
/// let big = File::owned("assets/data.bin".into(), vec![0; 8_100_000], false);
/// let skill = Skill::owned(
///     Fields { name: "huge".into(), description: "Too big.".into(), ..Default::default() },
///     String::new(),
///     vec![big],
/// );
/// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
/// let err = Archive::new(&set).bytes().unwrap_err();
/// assert!(matches!(err, ArchiveError::TooLarge { ref skill, limit: 8_000_000, .. } if skill == "huge"));
/// assert!(err.to_string().contains("8,000,000"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArchiveError {
    /// A skill's files add up to more than the skills APIs accept in one upload.
    #[error(
        "Skill \"{skill}\" is {} bytes of files, over the {}-byte limit of a skill upload (Anthropic's skills API takes a total under 8 MB: {LIMITS_URL}). Move large assets out of the skill (a script can fetch them), or split it into smaller skills.",
        thousands(*size),
        thousands(*limit)
    )]
    TooLarge {
        /// The skill's name.
        skill: String,
        /// Its files' total size, uncompressed, `SKILL.md` included.
        size: u64,
        /// The limit, in the same bytes.
        limit: u64,
    },
    /// A skill has more files than the skills APIs accept in one upload.
    #[error(
        "Skill \"{skill}\" has {files} files, over the limit of {limit} for a skill upload (OpenAI's skills API: {FILES_URL}). Merge small files, or split the skill."
    )]
    TooManyFiles {
        /// The skill's name.
        skill: String,
        /// How many files it has, `SKILL.md` included.
        files: usize,
        /// The limit.
        limit: usize,
    },
    /// A skill's name, one of its paths or the set's archive name cannot be written as asked.
    #[error("Refusing to pack \"{path}\" of \"{skill}\": {reason}. Rename it.")]
    UnsafePath {
        /// The skill's name (or the set archive's).
        skill: String,
        /// The refused name or path.
        path: String,
        /// Why.
        reason: String,
    },
    /// The set has no skill, so there is nothing to pack.
    #[error(
        "No skill to pack: the set is empty. Check the folder given (each skill is a folder holding SKILL.md)."
    )]
    NoSkills,
    /// Writing to the destination failed; the message says what was in the way and what to do.
    #[error("{0}")]
    Write(String),
}

impl From<ExtractError> for ArchiveError {
    fn from(error: ExtractError) -> Self {
        match error {
            ExtractError::UnsafePath {
                skill,
                path,
                reason,
            } => ArchiveError::UnsafePath {
                skill,
                path,
                reason: reason.to_owned(),
            },
            other => ArchiveError::Write(other.to_string()),
        }
    }
}

impl<'a> Archive<'a> {
    /// Archives of every skill of `set`, one `{name}.zip` each.
    ///
    /// ```
    /// use skills_embed::package::Archive;
    /// # use skills_embed::{File, Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![File::owned("references/a.md".into(), b"# A\n".to_vec(), false)],
    /// # );
    /// let set = SkillSet::from_skills(
    ///     vec![skill("pdf"), skill("docx")],
    ///     &ListingFormat::Markdown,
    /// );
    /// let archives = Archive::new(&set).bytes()?;
    /// let names: Vec<&str> = archives.iter().map(|(name, _)| name.as_str()).collect();
    /// assert_eq!(names, ["docx.zip", "pdf.zip"]);
    /// # Ok::<(), skills_embed::package::ArchiveError>(())
    /// ```
    pub fn new<Id>(set: &'a SkillSet<Id>) -> Self {
        Archive {
            skills: set.skills(),
            whole_set: None,
        }
    }

    /// One archive, `{name}.zip`, holding every skill's folder at its top level, instead of one
    /// per skill. Each skill within it is still held to the limits of one upload.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet};
    /// use skills_embed::listing::ListingFormat;
    /// use skills_embed::package::Archive;
    ///
    /// let skill = |name: &str| Skill::owned(
    ///     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    ///     String::new(),
    ///     vec![],
    /// );
    /// let set = SkillSet::from_skills(vec![skill("a"), skill("b")], &ListingFormat::Markdown);
    /// let archives = Archive::new(&set).whole_set("team").bytes()?;
    /// assert_eq!(archives.len(), 1);
    /// assert_eq!(archives[0].0, "team.zip");
    /// # Ok::<(), skills_embed::package::ArchiveError>(())
    /// ```
    pub fn whole_set(mut self, name: impl Into<String>) -> Self {
        self.whole_set = Some(name.into());
        self
    }

    /// Every archive, as its file name and its bytes, in name order.
    ///
    /// ```
    /// use skills_embed::package::Archive;
    /// # use skills_embed::{File, Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![File::owned("references/a.md".into(), b"# A\n".to_vec(), false)],
    /// # );
    /// let set = SkillSet::from_skills(vec![skill("pdf")], &ListingFormat::Markdown);
    /// let archives = Archive::new(&set).bytes()?;
    /// assert_eq!(archives[0].0, "pdf.zip");
    /// let zip = zip::ZipArchive::new(std::io::Cursor::new(&archives[0].1))?;
    /// let entries: Vec<&str> = zip.file_names().collect();
    /// assert_eq!(entries, ["pdf/", "pdf/SKILL.md", "pdf/references/", "pdf/references/a.md"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bytes(&self) -> Result<Vec<(String, Vec<u8>)>, ArchiveError> {
        let skills: Vec<&Skill> = self.skills.iter().collect();
        for skill in &skills {
            check_limits(skill)?;
        }
        match &self.whole_set {
            Some(name) => {
                check_file_name(name)?;
                if skills.is_empty() {
                    return Err(ArchiveError::NoSkills);
                }
                Ok(vec![(
                    format!("{name}.zip"),
                    zip_of(&skills, Layout::Folder)?,
                )])
            }
            None => skills
                .iter()
                .map(|skill| {
                    let zip = zip_of(&[skill], Layout::Folder)?;
                    Ok((format!("{}.zip", skill.name()), zip))
                })
                .collect(),
        }
    }

    /// Writes [`bytes`](Archive::bytes) into `dir` (created if missing), replacing archives of
    /// the same names, and says what was written. Each file is written beside its target and
    /// renamed over it, relative to the opened folder: a link in its place is replaced, never
    /// followed.
    ///
    /// ```
    /// use skills_embed::package::Archive;
    /// # use skills_embed::{File, Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let skill = |name: &str| Skill::owned(
    /// #     Fields { name: name.into(), description: "A skill.".into(), ..Default::default() },
    /// #     "# Steps\n".into(),
    /// #     vec![File::owned("references/a.md".into(), b"# A\n".to_vec(), false)],
    /// # );
    /// let set = SkillSet::from_skills(vec![skill("pdf")], &ListingFormat::Markdown);
    /// let out = tempfile::tempdir()?;
    /// let written = Archive::new(&set).write(&out.path().join("dist"))?; // made if missing
    /// assert_eq!(written[0].path, out.path().join("dist/pdf.zip"));
    /// assert_eq!(std::fs::read(&written[0].path)?, Archive::new(&set).bytes()?[0].1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(&self, dir: &Path) -> Result<Vec<Artifact>, ArchiveError> {
        let archives = self.bytes()?;
        let folder = Folder::open_ambient(&prepare_dest(dir)?)?;
        archives
            .iter()
            .map(|(name, bytes)| write_one(&folder, name, bytes))
            .collect()
    }

    /// Writes a static site's well-known folder for the set under `dir`, in the Agent Skills
    /// Discovery RFC v0.2.0 as revised on 2026-03-12
    /// (<https://github.com/cloudflare/agent-skills-discovery-rfc/blob/main/README.md>, "Updated
    /// Date: 2026-03-12"): the index at `dir/.well-known/agent-skills/index.json`, one artifact
    /// per skill in it. A skill whose only file is `SKILL.md` is a `skill-md` entry at
    /// `{name}/SKILL.md`; any other is an `archive` entry at `{name}.zip`, a reproducible zip
    /// with `SKILL.md` at its root (the RFC's "Archive Distribution", not the skills APIs'
    /// top-level folder of [`write`](Archive::write)). Each skill's files are written at
    /// `{name}/{path}` too, for clients that read a skill file by file. The digests are those of
    /// the bytes written (`SKILL.md` whole). Returns every file written, the index first. Files
    /// already in the folder that the set no longer has are left in place: clear the folder
    /// first to publish a smaller set.
    ///
    /// ```
    /// use skills_embed::{File, Fields, Skill, SkillSet};
    /// use skills_embed::listing::ListingFormat;
    /// use skills_embed::package::Archive;
    ///
    /// let notes = Skill::owned(
    ///     Fields { name: "notes".into(), description: "Take notes.".into(), ..Default::default() },
    ///     "# Notes\n".into(),
    ///     vec![],
    /// );
    /// let pdf = Skill::owned(
    ///     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Default::default() },
    ///     "Run `scripts/text.sh`.\n".into(),
    ///     vec![File::owned("scripts/text.sh".into(), b"#!/bin/sh\n".to_vec(), false)],
    /// );
    /// let set = SkillSet::from_skills(vec![notes, pdf], &ListingFormat::Markdown);
    /// let site = tempfile::tempdir()?;
    /// let written = Archive::new(&set).well_known(site.path())?;
    /// let index = site.path().join(".well-known/agent-skills/index.json");
    /// assert_eq!(written[0].path, index);
    /// let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&index)?)?;
    /// assert_eq!(json["$schema"], "https://schemas.agentskills.io/discovery/0.2.0/schema.json");
    /// assert_eq!(json["skills"][0]["type"], "skill-md");
    /// assert_eq!(json["skills"][0]["url"], "notes/SKILL.md");
    /// assert_eq!(json["skills"][1]["type"], "archive");
    /// assert_eq!(json["skills"][1]["url"], "pdf.zip");
    /// assert!(site.path().join(".well-known/agent-skills/pdf/scripts/text.sh").is_file());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn well_known(&self, dir: &Path) -> Result<Vec<Artifact>, ArchiveError> {
        let skills: Vec<&Skill> = self.skills.iter().collect();
        for skill in &skills {
            index::check_indexable(skill).map_err(|(path, reason)| ArchiveError::UnsafePath {
                skill: skill.name().to_owned(),
                path,
                reason: reason.to_owned(),
            })?;
        }
        let zips = skills
            .iter()
            .filter(|skill| needs_archive(skill))
            .map(|skill| {
                check_limits(skill)?;
                Ok((skill.name().to_owned(), skill_zip(skill)?))
            })
            .collect::<Result<Vec<_>, ArchiveError>>()?;
        let index = index_of(skills.iter().copied(), |name| {
            zips.iter()
                .find(|(n, _)| n == name)
                .map(|(_, bytes)| index::file_digest(bytes))
        });
        let json = index::to_json(&index);

        let root = Folder::open_ambient(&prepare_dest(dir)?)?;
        let mut folder = root;
        for segment in WELL_KNOWN_PREFIX.split('/').filter(|s| !s.is_empty()) {
            folder = folder.child(segment)?;
        }
        let mut written = vec![write_one(&folder, index::INDEX_FILE, json.as_bytes())?];
        for skill in &skills {
            let (name, targets) = checked_paths(skill)?;
            let manifest = skill_md::manifest(skill);
            let skill_folder = folder.child(name)?;
            write_files(&skill_folder, targets, Some(manifest.as_bytes()))?;
            for file in packed_files(skill) {
                written.push(Artifact {
                    path: skill_folder.path().join(file.path),
                    size: file.bytes.len() as u64,
                    sha256: index::file_digest(&file.bytes),
                });
            }
        }
        for (name, bytes) in &zips {
            written.push(write_one(&folder, &format!("{name}.zip"), bytes)?);
        }
        Ok(written)
    }
}

/// A file of a skill as it is packed and served: `SKILL.md` whole (frontmatter and body).
pub(crate) struct Packed<'a> {
    /// Relative to the skill's folder.
    pub(crate) path: &'a str,
    pub(crate) bytes: Cow<'a, [u8]>,
    /// The executable bit in the source folder, or a shebang.
    pub(crate) executable: bool,
}

/// Every file of `skill` as packed: `SKILL.md` first, then the rest by path.
pub(crate) fn packed_files(skill: &Skill) -> Vec<Packed<'_>> {
    let mut files: Vec<Packed<'_>> = skill
        .files()
        .map(|file| {
            let bytes = if file.is_body() {
                Cow::Owned(skill_md::manifest(skill).into_bytes())
            } else {
                Cow::Borrowed(file.bytes())
            };
            let executable = !file.is_body() && (file.is_executable() || bytes.starts_with(b"#!"));
            Packed {
                path: file.path(),
                bytes,
                executable,
            }
        })
        .collect();
    // `SKILL.md` first; the rest in byte order of their paths, whatever order they came in.
    files.sort_by(|a, b| {
        (a.path != "SKILL.md", a.path.as_bytes()).cmp(&(b.path != "SKILL.md", b.path.as_bytes()))
    });
    files
}

/// Whether `skill` is published as an archive: it has a file besides `SKILL.md`.
pub(crate) fn needs_archive(skill: &Skill) -> bool {
    skill.files().nth(1).is_some()
}

/// The index of `skills` (each one [`index::check_indexable`]) as they are served: entries in
/// name order, one artifact each. A skill of `SKILL.md` alone is a `skill-md` entry at
/// `{name}/SKILL.md` (its digest that of the whole file served); any other an `archive` entry at
/// `{name}.zip`, whose digest `archive` gives by name, or left out when it gives none (no
/// archive could be made).
pub(crate) fn index_of<'a>(
    skills: impl IntoIterator<Item = &'a Skill>,
    archive: impl Fn(&str) -> Option<String>,
) -> index::Index {
    index::of_entries(
        skills
            .into_iter()
            .filter_map(|skill| {
                let name = skill.name();
                let (kind, url, digest) = if needs_archive(skill) {
                    (ArtifactKind::Archive, format!("{name}.zip"), archive(name)?)
                } else {
                    let manifest = skill_md::manifest(skill);
                    let digest = index::file_digest(manifest.as_bytes());
                    (ArtifactKind::SkillMd, format!("{name}/SKILL.md"), digest)
                };
                Some(index::IndexEntry {
                    name: name.to_owned(),
                    kind,
                    description: skill.description().to_owned(),
                    url,
                    digest,
                })
            })
            .collect(),
    )
}

/// A skill's archive as the well-known index names it: `SKILL.md` at the archive's root (RFC
/// "Archive Distribution"), unchecked against the upload limits (what a server hands out).
pub(crate) fn skill_zip(skill: &Skill) -> Result<Vec<u8>, ArchiveError> {
    zip_of(&[skill], Layout::Root)
}

/// `skill` within the upload limits.
fn check_limits(skill: &Skill) -> Result<(), ArchiveError> {
    let files = packed_files(skill);
    if files.len() > MAX_SKILL_FILES {
        return Err(ArchiveError::TooManyFiles {
            skill: skill.name().to_owned(),
            files: files.len(),
            limit: MAX_SKILL_FILES,
        });
    }
    let size: u64 = files.iter().map(|f| f.bytes.len() as u64).sum();
    if size > MAX_SKILL_BYTES {
        return Err(ArchiveError::TooLarge {
            skill: skill.name().to_owned(),
            size,
            limit: MAX_SKILL_BYTES,
        });
    }
    Ok(())
}

/// A set archive's name: one plain file name.
fn check_file_name(name: &str) -> Result<(), ArchiveError> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.starts_with('.');
    if plain {
        Ok(())
    } else {
        Err(ArchiveError::UnsafePath {
            skill: name.to_owned(),
            path: name.to_owned(),
            reason: "a set archive's name must be a plain file name (no `/`, `\\`, or leading `.`)"
                .to_owned(),
        })
    }
}

/// Where a skill's files sit in its zip.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Under one top-level folder named after the skill (the skills APIs' uploads).
    Folder,
    /// At the archive's root, `SKILL.md` first (the well-known index's archives); one skill.
    Root,
}

/// The zip of `skills` in `layout`, in the fixed order and with the fixed times and modes
/// described on [`Archive`]: the one zip writer.
fn zip_of(skills: &[&Skill], layout: Layout) -> Result<Vec<u8>, ArchiveError> {
    let zip_error = |e: zip::result::ZipError| {
        ArchiveError::Write(format!(
            "Could not build the archive: {e}. This is a bug; please report it."
        ))
    };
    let options = |mode: u32| {
        SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .compression_level(Some(6))
            .last_modified_time(DateTime::default())
            .system(System::Unix)
            .unix_permissions(mode)
    };
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let mut sorted: Vec<&Skill> = skills.to_vec();
    sorted.sort_by(|a, b| a.name().cmp(b.name()));
    for skill in sorted {
        // The same checks as every write of a skill: a plain name, plain relative paths.
        let (name, _) = checked_paths(skill)?;
        let top = match layout {
            Layout::Folder => {
                zip.add_directory(format!("{name}/"), options(0o755))
                    .map_err(zip_error)?;
                format!("{name}/")
            }
            Layout::Root => String::new(),
        };
        let mut folders = BTreeSet::new();
        for file in packed_files(skill) {
            let mut at = 0;
            while let Some(slash) = file.path[at..].find('/') {
                let folder = &file.path[..at + slash];
                if folders.insert(folder) {
                    zip.add_directory(format!("{top}{folder}/"), options(0o755))
                        .map_err(zip_error)?;
                }
                at += slash + 1;
            }
            let mode = if file.executable { 0o755 } else { 0o644 };
            zip.start_file(format!("{top}{}", file.path), options(mode))
                .map_err(zip_error)?;
            zip.write_all(&file.bytes)
                .map_err(|e| zip_error(zip::result::ZipError::Io(e)))?;
        }
    }
    Ok(zip.finish().map_err(zip_error)?.into_inner())
}

/// Writes `bytes` as `name` in `folder` and describes it.
fn write_one(folder: &Folder, name: &str, bytes: &[u8]) -> Result<Artifact, ArchiveError> {
    if !folder.holds(name, bytes, false)? {
        folder.replace(name, bytes, false)?;
    }
    Ok(Artifact {
        path: folder.path().join(name),
        size: bytes.len() as u64,
        sha256: index::file_digest(bytes),
    })
}

/// `12345678` as `12,345,678`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(8_000_000), "8,000,000");
        assert_eq!(thousands(12_345), "12,345");
    }

    #[test]
    fn set_archive_names_are_plain() {
        assert!(check_file_name("team-skills").is_ok());
        for bad in ["", ".", "..", "a/b", "a\\b", ".hidden"] {
            assert!(check_file_name(bad).is_err(), "{bad}");
        }
    }
}
