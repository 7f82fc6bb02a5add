//! The owned [`File`] of a skill read at run time, and the digests files are named by.

use super::fields::MANIFEST;
use crate::text::is_text;

/// One file given to [`Skill::owned`](crate::Skill::owned) (a skill read at run time). Once in
/// the skill it is served as a [`Loaded`](crate::Loaded), like an embedded file. `SKILL.md` is
/// stored as its body, without the frontmatter.
///
/// ```
/// use skills_embed::{Fields, File, Skill};
/// let files = vec![
///     File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false),
///     File::owned("SKILL.md".into(), b"---\nname: pdf\n---\nOld body.\n".to_vec(), false),
/// ];
/// let fields = Fields { name: "pdf".into(), ..Fields::default() };
/// let skill = Skill::owned(fields, "# PDF\n".into(), files);
/// assert_eq!(skill.load("forms.md").unwrap().text(), Some("Fill forms.\n"));
/// // The body given is the `SKILL.md` served, not a file of that name.
/// assert_eq!(skill.load("SKILL.md").unwrap().text(), Some("# PDF\n"));
/// ```
#[derive(Debug, Clone)]
pub struct File {
    path: String,
    contents: Contents,
    executable: bool,
    // Computed when first asked: a server answers its first request before hashing every file
    // it may never be asked to name by digest.
    sha256: std::sync::OnceLock<[u8; 32]>,
}

#[derive(Debug, Clone)]
enum Contents {
    Text(String),
    Binary(Vec<u8>),
}

impl File {
    /// The body as the `SKILL.md` file.
    pub(super) fn body(text: String) -> File {
        File {
            path: MANIFEST.to_owned(),
            sha256: std::sync::OnceLock::new(),
            contents: Contents::Text(text),
            executable: false,
        }
    }

    /// A file read at run time: text when it is UTF-8 without NUL bytes, binary otherwise.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![
    ///     File::owned("scripts/run.sh".into(), b"#!/bin/sh\n".to_vec(), true),
    ///     File::owned("a.bin".into(), vec![0, 159], false),
    /// ];
    /// let skill = Skill::owned(Fields { name: "demo".into(), ..Fields::default() }, String::new(), files);
    /// let script = skill.load("scripts/run.sh").unwrap();
    /// assert_eq!((script.text(), script.is_executable()), (Some("#!/bin/sh\n"), true));
    /// assert_eq!(skill.load("a.bin").unwrap().text(), None);
    /// ```
    pub fn owned(path: String, bytes: Vec<u8>, executable: bool) -> Self {
        let contents = if is_text(&bytes) {
            match String::from_utf8(bytes) {
                Ok(text) => Contents::Text(text),
                Err(e) => Contents::Binary(e.into_bytes()),
            }
        } else {
            Contents::Binary(bytes)
        };
        File {
            path,
            contents,
            executable,
            sha256: std::sync::OnceLock::new(),
        }
    }

    /// The SHA-256 digest of [`File::bytes`], computed the first time it is asked for.
    pub(crate) fn sha256(&self) -> &[u8; 32] {
        self.sha256.get_or_init(|| sha256(self.bytes()))
    }

    /// The path relative to the skill's folder, with `/` separators.
    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.contents {
            Contents::Text(t) => t.as_bytes(),
            Contents::Binary(b) => b,
        }
    }

    /// The text, or `None` for a binary file.
    pub(crate) fn text(&self) -> Option<&str> {
        match &self.contents {
            Contents::Text(t) => Some(t),
            Contents::Binary(_) => None,
        }
    }

    /// Whether the file had an executable bit in the source folder.
    pub(crate) fn is_executable(&self) -> bool {
        self.executable
    }
}

/// The SHA-256 digest of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// A digest as 64 lowercase hex digits.
pub fn hex(digest: &[u8; 32]) -> String {
    hex::encode(digest)
}
