//! A file of a skill as a lookup returns it ([`Loaded`]): the skill it belongs to and where its
//! bytes are, read on each call, with its path, text, media type and digest.

use std::collections::BTreeMap;
use std::sync::{PoisonError, RwLock};

use super::Skill;
use crate::model::fields::MANIFEST;
use crate::model::file::{File, sha256};
use crate::model::index::{self, FileEntry, Index};

/// A file of a skill, as [`Skill::load`] and [`Skill::files`] give it: the body or a resource.
///
/// ```
/// use skills_embed::{Fields, File, Skill};
/// let files = vec![
///     File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false),
///     File::owned("logo.png".into(), vec![0x89, b'P', b'N', b'G'], false),
/// ];
/// let fields = Fields { name: "pdf".into(), ..Fields::default() };
/// let skill = Skill::owned(fields, "# PDF\n".into(), files);
/// let forms = skill.load("forms.md").unwrap();
/// assert_eq!((forms.text(), forms.media_type()), (Some("Fill forms.\n"), "text/markdown"));
/// let logo = skill.load("logo.png").unwrap();
/// assert_eq!((logo.text(), logo.len(), logo.media_type()), (None, 4, "image/png"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Loaded<'a> {
    skill: &'a Skill,
    file: Place<'a>,
}

/// The digest of an embedded file, hashed the first time it is asked for. An embedded file
/// cannot change while the program runs, and a load's header names its file's digest: hashed on
/// every load, a `SKILL.md` of a few kilobytes took a sixth of an MCP `tools/call`'s
/// instructions. The addresses of the index and the entry are the key: both are `'static`, so
/// they are never another file's (a compressed entry's bytes are found through its index). The
/// memory is bounded by the files embedded, 50 bytes or so for each one read.
fn embedded_sha256(
    index: &'static Index,
    entry: &'static FileEntry,
    hash: impl FnOnce() -> [u8; 32],
) -> [u8; 32] {
    type Key = (usize, usize);
    static DIGESTS: RwLock<BTreeMap<Key, [u8; 32]>> = RwLock::new(BTreeMap::new());
    let key = (
        std::ptr::from_ref(index).addr(),
        std::ptr::from_ref(entry).addr(),
    );
    if let Some(digest) = DIGESTS
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return *digest;
    }
    let digest = hash();
    DIGESTS
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(key, digest);
    digest
}

/// Where a file's data is; read on each call, so a lookup stores a few words and no more.
#[derive(Debug, Clone, Copy)]
enum Place<'a> {
    /// The index and the file's entry.
    Embedded(&'static Index, &'static FileEntry),
    Owned(&'a File),
    /// A file a hand-made index points past (never made by `skills!`).
    Missing,
}

impl<'a> Loaded<'a> {
    #[inline]
    pub(super) fn entry(
        skill: &'a Skill,
        index: &'static Index,
        entry: &'static FileEntry,
    ) -> Self {
        Loaded {
            skill,
            file: Place::Embedded(index, entry),
        }
    }

    pub(super) fn embedded(skill: &'a Skill, index: &'static Index, file: u32) -> Option<Self> {
        let entry = index.files.get(file as usize)?;
        Some(Loaded {
            skill,
            file: Place::Embedded(index, entry),
        })
    }

    pub(super) fn owned(skill: &'a Skill, file: &'a File) -> Self {
        Loaded {
            skill,
            file: Place::Owned(file),
        }
    }

    pub(super) fn missing(skill: &'a Skill) -> Self {
        Loaded {
            skill,
            file: Place::Missing,
        }
    }

    /// The skill the file belongs to.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Loaded, Skill};
    /// // A file knows its skill, so one argument names both.
    /// fn label(file: Loaded<'_>) -> String {
    ///     format!("{}/{}", file.skill().name(), file.path())
    /// }
    /// let files = vec![File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), files);
    /// assert_eq!(label(skill.load("forms.md").unwrap()), "pdf/forms.md");
    /// ```
    #[inline]
    pub fn skill(&self) -> &'a Skill {
        self.skill
    }

    /// The file's path, normalised (`SKILL.md` for the body).
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![File::owned("references/forms.md".into(), b"Forms.\n".to_vec(), false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, "# PDF\n".into(), files);
    /// assert_eq!(skill.load("./references//forms.md").unwrap().path(), "references/forms.md");
    /// assert_eq!(skill.files().next().unwrap().path(), "SKILL.md");
    /// ```
    #[inline]
    pub fn path(&self) -> &'a str {
        match self.file {
            Place::Embedded(index, entry) => index.path(entry),
            Place::Owned(file) => file.path(),
            Place::Missing => "",
        }
    }

    /// The bytes, borrowed from the binary for embedded skills. In a set embedded with
    /// `compress = true`, the first access to any text file of a skill decompresses the
    /// skill's text once (one allocation, kept for the life of the program).
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![File::owned("logo.png".into(), vec![0x89, b'P', b'N', b'G'], false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, "# PDF\n".into(), files);
    /// let logo = skill.load("logo.png").unwrap();
    /// assert_eq!((logo.bytes(), logo.text()), (&b"\x89PNG"[..], None));
    /// // A text file has its bytes too.
    /// assert_eq!(skill.load("SKILL.md").unwrap().bytes(), b"# PDF\n");
    /// ```
    #[inline]
    pub fn bytes(&self) -> &'a [u8] {
        match self.file {
            Place::Embedded(index, entry) if entry.flags & index::PACKED != 0 => {
                index.unpacked(self.skill.position(), entry)
            }
            Place::Embedded(_, entry) => entry.bytes,
            Place::Owned(file) => file.bytes(),
            Place::Missing => &[],
        }
    }

    /// The text, or `None` for a binary file (describe it with [`Loaded::media_type`] and
    /// [`Loaded::len`] instead of dumping it). For embedded files this checks UTF-8 on each
    /// call (the binary stores bytes only; ASCII runs are checked a word at a time).
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![
    ///     File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false),
    ///     File::owned("logo.png".into(), vec![0x89, b'P', b'N', b'G'], false),
    /// ];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), files);
    /// assert_eq!(skill.load("forms.md").unwrap().text(), Some("Fill forms.\n"));
    /// assert_eq!(skill.load("logo.png").unwrap().text(), None);
    /// ```
    #[inline]
    pub fn text(&self) -> Option<&'a str> {
        match self.file {
            Place::Embedded(_, entry) if entry.flags & index::TEXT != 0 => {
                std::str::from_utf8(self.bytes()).ok()
            }
            Place::Owned(file) => file.text(),
            Place::Embedded(..) | Place::Missing => None,
        }
    }

    fn is_text(&self) -> bool {
        match self.file {
            Place::Embedded(_, entry) => entry.flags & index::TEXT != 0,
            Place::Owned(file) => file.text().is_some(),
            Place::Missing => false,
        }
    }

    /// The size in bytes.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![File::owned("logo.png".into(), vec![0x89, b'P', b'N', b'G'], false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), files);
    /// let logo = skill.load("logo.png").unwrap();
    /// // A binary file is described to the model, not dumped.
    /// assert_eq!(format!("{} bytes, {}", logo.len(), logo.media_type()), "4 bytes, image/png");
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        match self.file {
            // Known without decompressing.
            Place::Embedded(index, entry) if entry.flags & index::PACKED != 0 => {
                index.packed_len(entry)
            }
            _ => self.bytes().len(),
        }
    }

    /// Whether the file is empty.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![File::owned("out/.gitkeep".into(), vec![], false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, "# PDF\n".into(), files);
    /// assert!(skill.load("out/.gitkeep").unwrap().is_empty());
    /// assert!(!skill.load("SKILL.md").unwrap().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether this is the body (`SKILL.md`).
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, "# PDF\n".into(), files);
    /// // The resources: every file but the body.
    /// let resources: Vec<_> = skill.files().filter(|f| !f.is_body()).map(|f| f.path()).collect();
    /// assert_eq!(resources, ["forms.md"]);
    /// assert!(skill.load("SKILL.md").unwrap().is_body());
    /// ```
    pub fn is_body(&self) -> bool {
        self.path() == MANIFEST
    }

    /// Whether the file had an executable bit in the source folder.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![
    ///     File::owned("scripts/fill.sh".into(), b"#!/bin/sh\n".to_vec(), true),
    ///     File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false),
    /// ];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), files);
    /// assert!(skill.load("scripts/fill.sh").unwrap().is_executable());
    /// assert!(!skill.load("forms.md").unwrap().is_executable());
    /// ```
    #[inline]
    pub fn is_executable(&self) -> bool {
        match self.file {
            Place::Embedded(_, entry) => entry.flags & index::EXEC != 0,
            Place::Owned(file) => file.is_executable(),
            Place::Missing => false,
        }
    }

    /// The SHA-256 digest of [`Loaded::bytes`]: kept for files read at run time, computed once
    /// per embedded file the program asks it of (the binary stores no digests).
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![
    ///     File::owned("a.txt".into(), b"abc".to_vec(), false),
    ///     File::owned("copy/a.txt".into(), b"abc".to_vec(), false),
    /// ];
    /// let fields = Fields { name: "demo".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), files);
    /// let digest = |path| skill.load(path).unwrap().sha256();
    /// // The same bytes, the same digest, whatever the path.
    /// assert_eq!(digest("a.txt"), digest("copy/a.txt"));
    /// assert_eq!(digest("a.txt")[..4], [0xba, 0x78, 0x16, 0xbf]); // SHA-256 of "abc"
    /// ```
    pub fn sha256(&self) -> [u8; 32] {
        match self.file {
            Place::Owned(file) => *file.sha256(),
            Place::Embedded(index, entry) => embedded_sha256(index, entry, || sha256(self.bytes())),
            Place::Missing => sha256(self.bytes()),
        }
    }

    /// A media type guessed from the extension, `text/plain` or `application/octet-stream`
    /// when the extension is unknown.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![
    ///     File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false),
    ///     File::owned("NOTES".into(), b"Plain text.\n".to_vec(), false),
    ///     File::owned("data.bin".into(), vec![0, 1, 2], false),
    /// ];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), files);
    /// let media = |path| skill.load(path).unwrap().media_type();
    /// assert_eq!([media("forms.md"), media("NOTES"), media("data.bin")],
    ///     ["text/markdown", "text/plain", "application/octet-stream"]);
    /// ```
    pub fn media_type(&self) -> &'static str {
        crate::text::media::media_type(self.path(), self.is_text())
    }
}
