//! One skill: its frontmatter fields, its body and its files.
//!
//! Embedded skills borrow everything from the binary (`Cow::Borrowed`, built in `const`
//! context); skills read at run time own their data. Both serve through the same methods.

use std::borrow::Cow;

use crate::error::{SkillError, closest};
use crate::path;

type Str = Cow<'static, str>;

/// The name of the manifest file; `load` with this path returns the body.
pub const MANIFEST: &str = "SKILL.md";

/// A skill: the fields of its SKILL.md frontmatter, its body and every file it serves.
///
/// ```
/// # use skills_runtime::{File, Skill, Fields};
/// // `skills!` generates statics like these; the digests are computed when the crate compiles.
/// static FILES: &[File] = &[
///     File::from_text("SKILL.md", "# PDF\nUse pdftotext.\n", false, [0; 32]),
///     File::from_text("references/forms.md", "Fill forms like this.\n", false, [0; 32]),
/// ];
/// static SKILL: Skill = Skill::embedded(
///     Fields { name: "pdf", description: "Work with PDF files.", ..Fields::EMPTY },
///     FILES,
///     &[],
/// );
/// assert_eq!(SKILL.body(), "# PDF\nUse pdftotext.\n");
/// assert_eq!(SKILL.load("./references//forms.md").unwrap().text(), Some("Fill forms like this.\n"));
/// assert!(SKILL.load("forms.md").unwrap_err().to_string().contains("Did you mean \"references/forms.md\"?"));
/// ```
#[derive(Debug, Clone)]
pub struct Skill {
    name: Str,
    description: Str,
    license: Option<Str>,
    compatibility: Option<Str>,
    metadata: Pairs,
    allowed_tools: Strs,
    extra: Str,
    files: Cow<'static, [File]>,
    chunks: Cow<'static, [Chunk]>,
}

/// A `<chunk id="..." description="...">` block of a body: left out of the body as served,
/// loaded on its own by id.
#[derive(Debug, Clone)]
pub struct Chunk {
    id: Str,
    description: Str,
    /// Byte range of the whole block (tag lines included) in the body.
    block: (u32, u32),
    /// Byte range of the text between the tag lines.
    content: (u32, u32),
}

impl Chunk {
    /// A chunk of an embedded body (used by generated code): byte ranges into the body.
    pub const fn new(
        id: &'static str,
        description: &'static str,
        block: (u32, u32),
        content: (u32, u32),
    ) -> Self {
        Chunk {
            id: Cow::Borrowed(id),
            description: Cow::Borrowed(description),
            block,
            content,
        }
    }

    /// The chunk's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// What the chunk holds, for the list shown after the body.
    pub fn description(&self) -> &str {
        &self.description
    }

    fn range(r: (u32, u32)) -> std::ops::Range<usize> {
        r.0 as usize..r.1 as usize
    }
}

/// The frontmatter fields of an embedded skill, as `&'static str`s (used by generated code).
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    /// `name`.
    pub name: &'static str,
    /// `description`.
    pub description: &'static str,
    /// `license`, if present.
    pub license: Option<&'static str>,
    /// `compatibility`, if present.
    pub compatibility: Option<&'static str>,
    /// `metadata`, as key/value pairs sorted by key.
    pub metadata: &'static [(&'static str, &'static str)],
    /// `allowed-tools`, in order.
    pub allowed_tools: &'static [&'static str],
    /// Fields the specification does not define, as a JSON object (kept by the lenient profile).
    pub extra: &'static str,
}

impl Fields {
    /// No fields at all; fill in what you have with `..Fields::EMPTY`.
    pub const EMPTY: Fields = Fields {
        name: "",
        description: "",
        license: None,
        compatibility: None,
        metadata: &[],
        allowed_tools: &[],
        extra: "{}",
    };
}

/// The owned frontmatter fields of a skill read at run time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnedFields {
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: String,
    /// `license`, if present.
    pub license: Option<String>,
    /// `compatibility`, if present.
    pub compatibility: Option<String>,
    /// `metadata`, as key/value pairs sorted by key.
    pub metadata: Vec<(String, String)>,
    /// `allowed-tools`, in order.
    pub allowed_tools: Vec<String>,
    /// Fields the specification does not define, as a JSON object text.
    pub extra: String,
}

#[derive(Debug, Clone)]
enum Pairs {
    Static(&'static [(&'static str, &'static str)]),
    Owned(Vec<(String, String)>),
}

#[derive(Debug, Clone)]
enum Strs {
    Static(&'static [&'static str]),
    Owned(Vec<String>),
}

/// One file of a skill. `SKILL.md` is stored as its body, without the frontmatter.
#[derive(Debug, Clone)]
pub struct File {
    path: Str,
    contents: Contents,
    executable: bool,
    sha256: [u8; 32],
}

#[derive(Debug, Clone)]
enum Contents {
    Text(Str),
    Binary(Cow<'static, [u8]>),
}

impl File {
    /// A UTF-8 file (used by generated code with `include_str!`, and the digest computed when
    /// the crate compiled).
    pub const fn from_text(
        path: &'static str,
        text: &'static str,
        executable: bool,
        sha256: [u8; 32],
    ) -> Self {
        let contents = Contents::Text(Cow::Borrowed(text));
        File {
            path: Cow::Borrowed(path),
            contents,
            executable,
            sha256,
        }
    }

    /// A binary file (used by generated code with `include_bytes!`).
    pub const fn from_bytes(
        path: &'static str,
        bytes: &'static [u8],
        executable: bool,
        sha256: [u8; 32],
    ) -> Self {
        let contents = Contents::Binary(Cow::Borrowed(bytes));
        File {
            path: Cow::Borrowed(path),
            contents,
            executable,
            sha256,
        }
    }

    /// A file read at run time: text when it is UTF-8 without NUL bytes, binary otherwise.
    pub fn owned(path: String, bytes: Vec<u8>, executable: bool) -> Self {
        let sha256 = sha256(&bytes);
        let contents = if is_text(&bytes) {
            match String::from_utf8(bytes) {
                Ok(text) => Contents::Text(Cow::Owned(text)),
                Err(e) => Contents::Binary(Cow::Owned(e.into_bytes())),
            }
        } else {
            Contents::Binary(Cow::Owned(bytes))
        };
        File {
            path: Cow::Owned(path),
            contents,
            executable,
            sha256,
        }
    }

    /// The SHA-256 digest of [`File::bytes`].
    pub fn sha256(&self) -> &[u8; 32] {
        &self.sha256
    }

    /// The path relative to the skill's folder, with `/` separators.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.contents {
            Contents::Text(t) => t.as_bytes(),
            Contents::Binary(b) => b,
        }
    }

    /// The text, or `None` for a binary file.
    pub fn text(&self) -> Option<&str> {
        match &self.contents {
            Contents::Text(t) => Some(t),
            Contents::Binary(_) => None,
        }
    }

    /// Whether the file had an executable bit in the source folder.
    pub fn is_executable(&self) -> bool {
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
    use std::fmt::Write;
    digest.iter().fold(String::with_capacity(64), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// Whether bytes are served as text: valid UTF-8 with no NUL byte.
pub fn is_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok()
}

impl Skill {
    /// An embedded skill (used by generated code). `files` must be sorted by path and hold
    /// `SKILL.md` with the body as its contents; `chunks` are in body order.
    pub const fn embedded(
        fields: Fields,
        files: &'static [File],
        chunks: &'static [Chunk],
    ) -> Self {
        Skill {
            name: Cow::Borrowed(fields.name),
            description: Cow::Borrowed(fields.description),
            license: match fields.license {
                Some(s) => Some(Cow::Borrowed(s)),
                None => None,
            },
            compatibility: match fields.compatibility {
                Some(s) => Some(Cow::Borrowed(s)),
                None => None,
            },
            metadata: Pairs::Static(fields.metadata),
            allowed_tools: Strs::Static(fields.allowed_tools),
            extra: Cow::Borrowed(fields.extra),
            files: Cow::Borrowed(files),
            chunks: Cow::Borrowed(chunks),
        }
    }

    /// A skill built at run time. The body becomes the `SKILL.md` file (its `<chunk>` blocks are
    /// found again; malformed ones stay in the body as text); `files` may come in any order, and
    /// a `SKILL.md` among them is replaced.
    pub fn owned(fields: OwnedFields, body: String, mut files: Vec<File>) -> Self {
        let (spans, _) = crate::chunk::find_chunks(&body);
        let chunks = spans.into_iter().filter_map(Chunk::from_span).collect();
        files.retain(|f| f.path() != MANIFEST);
        files.push(File {
            path: Cow::Borrowed(MANIFEST),
            sha256: sha256(body.as_bytes()),
            contents: Contents::Text(Cow::Owned(body)),
            executable: false,
        });
        files.sort_by(|a, b| a.path().cmp(b.path()));
        files.dedup_by(|a, b| a.path() == b.path());
        Skill {
            name: Cow::Owned(fields.name),
            description: Cow::Owned(fields.description),
            license: fields.license.map(Cow::Owned),
            compatibility: fields.compatibility.map(Cow::Owned),
            metadata: Pairs::Owned(fields.metadata),
            allowed_tools: Strs::Owned(fields.allowed_tools),
            extra: Cow::Owned(if fields.extra.is_empty() {
                "{}".into()
            } else {
                fields.extra
            }),
            files: Cow::Owned(files),
            chunks: Cow::Owned(chunks),
        }
    }

    /// Whether the skill's files are embedded in the binary (rather than read at run time).
    pub fn is_embedded(&self) -> bool {
        matches!(self.files, Cow::Borrowed(_))
    }

    /// The skill's name, as the model names it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the skill does and when to use it.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The `license` field.
    pub fn license(&self) -> Option<&str> {
        self.license.as_deref()
    }

    /// The `compatibility` field.
    pub fn compatibility(&self) -> Option<&str> {
        self.compatibility.as_deref()
    }

    /// The `metadata` field, sorted by key.
    pub fn metadata(&self) -> impl Iterator<Item = (&str, &str)> {
        let (fixed, owned) = match &self.metadata {
            Pairs::Static(s) => (*s, &[][..]),
            Pairs::Owned(o) => (&[][..], o.as_slice()),
        };
        fixed
            .iter()
            .copied()
            .chain(owned.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }

    /// The `allowed-tools` field, in order.
    pub fn allowed_tools(&self) -> impl Iterator<Item = &str> {
        let (fixed, owned) = match &self.allowed_tools {
            Strs::Static(s) => (*s, &[][..]),
            Strs::Owned(o) => (&[][..], o.as_slice()),
        };
        fixed
            .iter()
            .copied()
            .chain(owned.iter().map(String::as_str))
    }

    /// Frontmatter fields the specification does not define (kept by the lenient profile), as
    /// JSON object text.
    pub fn extra_json(&self) -> &str {
        &self.extra
    }

    /// One field the specification does not define, as a JSON value.
    pub fn extra(&self, key: &str) -> Option<serde_json::Value> {
        let mut map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&self.extra).ok()?;
        map.remove(key)
    }

    /// The body of SKILL.md, without its frontmatter.
    pub fn body(&self) -> &str {
        self.find(MANIFEST).and_then(File::text).unwrap_or("")
    }

    /// The `<chunk>` blocks of the body, in order.
    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    /// The text of one chunk. A miss lists the chunk ids.
    pub fn chunk(&self, id: &str) -> Result<&str, SkillError> {
        let body = self.body();
        self.chunks
            .iter()
            .find(|c| c.id() == id)
            .and_then(|c| body.get(Chunk::range(c.content)))
            .ok_or_else(|| SkillError::ChunkNotFound {
                skill: self.name().to_owned(),
                requested: id.to_owned(),
                available: self.chunks.iter().map(|c| c.id().to_owned()).collect(),
                suggestion: closest(id, self.chunks.iter().map(Chunk::id)),
            })
    }

    /// The body without its chunk blocks, in pieces (no allocation).
    pub fn core_body(&self) -> impl Iterator<Item = &str> + '_ {
        let body = self.body();
        let mut at = 0;
        let mut chunks = self.chunks.iter();
        std::iter::from_fn(move || {
            loop {
                let (piece, next) = match chunks.next() {
                    Some(c) => (body.get(at..c.block.0 as usize), c.block.1 as usize),
                    None if at < body.len() => (body.get(at..), body.len()),
                    None => return None,
                };
                at = next;
                match piece {
                    Some(p) if !p.is_empty() => return Some(p),
                    _ => continue,
                }
            }
        })
    }

    /// Every file, sorted by path, `SKILL.md` included.
    pub fn files(&self) -> &[File] {
        &self.files
    }

    /// Every file but `SKILL.md`: what the body can point the model to.
    pub fn resources(&self) -> impl Iterator<Item = &File> + '_ {
        self.files.iter().filter(|f| f.path() != MANIFEST)
    }

    /// Every path [`Skill::load`] accepts, sorted.
    pub fn paths(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.files.iter().map(File::path)
    }

    /// The body (`"SKILL.md"`) or a resource, by a path relative to the skill's folder.
    ///
    /// A refused path or a miss is an error that lists every path this skill serves.
    pub fn load(&self, path: &str) -> Result<Loaded<'_>, SkillError> {
        let request = path::check(path).map_err(|problem| SkillError::InvalidPath {
            skill: self.name().to_owned(),
            requested: path.to_owned(),
            problem,
            available: self.paths().map(str::to_owned).collect(),
        })?;
        match self
            .files
            .binary_search_by(|f| request.cmp_stored(f.path()))
        {
            Ok(i) => Ok(Loaded {
                skill: self,
                file: &self.files[i],
            }),
            Err(_) => {
                let requested = request.to_string();
                Err(SkillError::FileNotFound {
                    skill: self.name().to_owned(),
                    suggestion: closest(&requested, self.paths()),
                    requested,
                    available: self.paths().map(str::to_owned).collect(),
                })
            }
        }
    }

    fn find(&self, normal_path: &str) -> Option<&File> {
        let i = self
            .files
            .binary_search_by(|f| f.path().cmp(normal_path))
            .ok()?;
        Some(&self.files[i])
    }
}

impl Chunk {
    fn from_span(span: crate::chunk::ChunkSpan) -> Option<Chunk> {
        let n = |v: usize| u32::try_from(v).ok();
        Some(Chunk {
            block: (n(span.start)?, n(span.end)?),
            content: (n(span.content_start)?, n(span.content_end)?),
            id: Cow::Owned(span.id),
            description: Cow::Owned(span.description),
        })
    }
}

/// A file served by [`Skill::load`]: the body or a resource.
#[derive(Debug, Clone, Copy)]
pub struct Loaded<'a> {
    skill: &'a Skill,
    file: &'a File,
}

impl<'a> Loaded<'a> {
    /// The skill the file belongs to.
    pub fn skill(&self) -> &'a Skill {
        self.skill
    }

    /// The file's path, normalised (`SKILL.md` for the body).
    pub fn path(&self) -> &'a str {
        self.file.path()
    }

    /// The bytes, borrowed from the binary for embedded skills.
    pub fn bytes(&self) -> &'a [u8] {
        self.file.bytes()
    }

    /// The text, or `None` for a binary file (describe it with [`Loaded::media_type`] and
    /// [`Loaded::len`] instead of dumping it).
    pub fn text(&self) -> Option<&'a str> {
        self.file.text()
    }

    /// The size in bytes.
    pub fn len(&self) -> usize {
        self.bytes().len()
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// Whether this is the body (`SKILL.md`).
    pub fn is_body(&self) -> bool {
        self.path() == MANIFEST
    }

    /// Whether the file had an executable bit in the source folder.
    pub fn is_executable(&self) -> bool {
        self.file.is_executable()
    }

    /// The SHA-256 digest of [`Loaded::bytes`] (computed at compile time for embedded skills).
    pub fn sha256(&self) -> &'a [u8; 32] {
        self.file.sha256()
    }

    /// A media type guessed from the extension, `text/plain` or `application/octet-stream`
    /// when the extension is unknown.
    pub fn media_type(&self) -> &'static str {
        crate::media::media_type(self.path(), self.text().is_some())
    }
}
