//! One skill: its frontmatter fields, its body and its files.
//!
//! Embedded skills are views into the tables of an [`Index`] in the binary; skills read at run
//! time own their data. Both serve through the same methods.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::error::{SkillError, closest};
use crate::index::{self, FileEntry, Index};
use crate::path;
use crate::policy::{InvocationPolicy, OwnedPolicy};

type Str = Cow<'static, str>;

/// The name of the manifest file; `load` with this path returns the body.
pub const MANIFEST: &str = "SKILL.md";

/// A skill: the fields of its SKILL.md frontmatter, its body and every file it serves.
///
/// Skills embedded by `skills!` are views into tables in the binary (see the `skills-embed` crate);
/// skills read at run time own their data ([`Skill::owned`]). Both serve through the same
/// methods.
///
/// ```
/// use skills_embed_runtime::{File, OwnedFields, Skill};
/// let skill = Skill::owned(
///     OwnedFields { name: "pdf".into(), description: "Work with PDF files.".into(), ..OwnedFields::default() },
///     "# PDF\nUse pdftotext.\n".into(),
///     vec![File::owned("references/forms.md".into(), b"Fill forms like this.\n".to_vec(), false)],
/// );
/// assert_eq!(skill.body(), "# PDF\nUse pdftotext.\n");
/// assert_eq!(skill.load("./references//forms.md").unwrap().text(), Some("Fill forms like this.\n"));
/// assert!(skill.load("forms.md").unwrap_err().to_string().contains("Did you mean \"references/forms.md\"?"));
/// ```
#[derive(Clone)]
pub struct Skill {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    /// The index, the skill's position in it, and its files' range (kept here so a lookup
    /// reads no skill entry).
    Embedded(&'static Index, u32, (u32, u32)),
    Owned(Arc<OwnedSkill>),
}

#[derive(Debug)]
struct OwnedSkill {
    fields: OwnedFields,
    /// Sorted by path, `SKILL.md` (the body) among them.
    files: Vec<File>,
    chunks: Vec<Chunk>,
}

impl fmt::Debug for Skill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Skill")
            .field("name", &self.name())
            .field("embedded", &self.is_embedded())
            .field("paths", &self.paths().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
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
    /// Who may invoke the skill, read from its client fields ([`Skill::invocation`]).
    pub invocation: OwnedPolicy,
}

/// One file of a skill read at run time. `SKILL.md` is stored as its body, without the
/// frontmatter.
#[derive(Debug, Clone)]
pub struct File {
    path: String,
    contents: Contents,
    executable: bool,
    sha256: [u8; 32],
}

#[derive(Debug, Clone)]
enum Contents {
    Text(String),
    Binary(Vec<u8>),
}

impl File {
    /// A file read at run time: text when it is UTF-8 without NUL bytes, binary otherwise.
    ///
    /// ```
    /// use skills_embed_runtime::File;
    /// let file = File::owned("scripts/run.sh".into(), b"#!/bin/sh\n".to_vec(), true);
    /// assert_eq!((file.path(), file.text(), file.is_executable()), ("scripts/run.sh", Some("#!/bin/sh\n"), true));
    /// assert_eq!(File::owned("a.bin".into(), vec![0, 159], false).text(), None);
    /// ```
    pub fn owned(path: String, bytes: Vec<u8>, executable: bool) -> Self {
        let sha256 = sha256(&bytes);
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
            sha256,
        }
    }

    /// The SHA-256 digest of [`File::bytes`], computed when the file was made.
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
    /// An embedded skill: the `at`-th skill of `index`, whose files are `files` (first,
    /// count) of the index (used by generated code).
    #[doc(hidden)]
    pub const fn embedded(index: &'static Index, at: u32, files: (u32, u32)) -> Self {
        Skill {
            repr: Repr::Embedded(index, at, files),
        }
    }

    /// A skill built at run time. The body becomes the `SKILL.md` file (its `<chunk>` blocks are
    /// found again; malformed ones stay in the body as text); `files` may come in any order, and
    /// a `SKILL.md` among them is replaced. When `fields.invocation` is left at its default,
    /// Claude Code's invocation fields in `fields.extra` (`disable-model-invocation`,
    /// `user-invocable`, `argument-hint`, `arguments`) make it, once, here.
    ///
    /// ```
    /// use skills_embed_runtime::{OwnedFields, Skill};
    /// let fields = OwnedFields {
    ///     name: "style".into(),
    ///     extra: r#"{"user-invocable":false,"arguments":"file out"}"#.into(),
    ///     ..OwnedFields::default()
    /// };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert!(!skill.invocation().user_may_invoke());
    /// assert_eq!(skill.invocation().arguments().collect::<Vec<_>>(), ["file", "out"]);
    /// ```
    pub fn owned(mut fields: OwnedFields, body: String, mut files: Vec<File>) -> Self {
        let (spans, _) = crate::chunk::find_chunks(&body);
        let chunks = spans.into_iter().filter_map(Chunk::from_span).collect();
        files.retain(|f| f.path() != MANIFEST);
        files.push(File {
            path: MANIFEST.to_owned(),
            sha256: sha256(body.as_bytes()),
            contents: Contents::Text(body),
            executable: false,
        });
        files.sort_by(|a, b| a.path().cmp(b.path()));
        files.dedup_by(|a, b| a.path() == b.path());
        if fields.extra.is_empty() {
            fields.extra = "{}".into();
        }
        if fields.invocation.is_default() {
            fields.invocation = OwnedPolicy::from_extra(&fields.extra);
        }
        Skill {
            repr: Repr::Owned(Arc::new(OwnedSkill {
                fields,
                files,
                chunks,
            })),
        }
    }

    /// Identifies an embedded skill's content (its index and position): it cannot change while
    /// the program runs, so two skills with the same identity hold the same files and nothing
    /// needs hashing. `None` for skills read at run time.
    #[cfg(any(feature = "fs", feature = "mcp"))]
    pub(crate) fn embedded_identity(&self) -> Option<(usize, u32)> {
        match self.repr {
            Repr::Embedded(index, at, _) => Some((index as *const Index as usize, at)),
            Repr::Owned(_) => None,
        }
    }

    /// The skill's position in its index (0 for skills read at run time).
    fn position(&self) -> u32 {
        match self.repr {
            Repr::Embedded(_, at, _) => at,
            Repr::Owned(_) => 0,
        }
    }

    /// Whether the skill's files are embedded in the binary (rather than read at run time).
    pub fn is_embedded(&self) -> bool {
        matches!(self.repr, Repr::Embedded(..))
    }

    /// The skill's name, as the model names it.
    pub fn name(&self) -> &str {
        match &self.repr {
            Repr::Embedded(index, at, _) => index.str(index.skill(*at).name),
            Repr::Owned(o) => &o.fields.name,
        }
    }

    /// What the skill does and when to use it.
    pub fn description(&self) -> &str {
        match &self.repr {
            Repr::Embedded(index, at, _) => index.str(index.skill(*at).description),
            Repr::Owned(o) => &o.fields.description,
        }
    }

    /// The `license` field.
    pub fn license(&self) -> Option<&str> {
        match &self.repr {
            Repr::Embedded(index, at, _) => index.opt_str(index.skill(*at).license),
            Repr::Owned(o) => o.fields.license.as_deref(),
        }
    }

    /// The `compatibility` field.
    pub fn compatibility(&self) -> Option<&str> {
        match &self.repr {
            Repr::Embedded(index, at, _) => index.opt_str(index.skill(*at).compatibility),
            Repr::Owned(o) => o.fields.compatibility.as_deref(),
        }
    }

    /// The `metadata` field, sorted by key.
    pub fn metadata(&self) -> impl Iterator<Item = (&str, &str)> {
        let (fixed, owned) = match &self.repr {
            Repr::Embedded(index, at, _) => (
                index::slice(index.metadata, index.skill(*at).metadata),
                &[][..],
            ),
            Repr::Owned(o) => (&[][..], o.fields.metadata.as_slice()),
        };
        fixed
            .iter()
            .copied()
            .chain(owned.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }

    /// The `allowed-tools` field, in order.
    pub fn allowed_tools(&self) -> impl Iterator<Item = &str> {
        let (fixed, owned) = match &self.repr {
            Repr::Embedded(index, at, _) => {
                (index::slice(index.tools, index.skill(*at).tools), &[][..])
            }
            Repr::Owned(o) => (&[][..], o.fields.allowed_tools.as_slice()),
        };
        fixed
            .iter()
            .copied()
            .chain(owned.iter().map(String::as_str))
    }

    /// Frontmatter fields the specification does not define (kept by the lenient profile, and
    /// the fields of the client dialects opted in to in any profile), as JSON object text.
    pub fn extra_json(&self) -> &str {
        match &self.repr {
            Repr::Embedded(index, at, _) => match index.str(index.skill(*at).extra) {
                "" => "{}",
                json => json,
            },
            Repr::Owned(o) => &o.fields.extra,
        }
    }

    /// A SHA-256 digest of everything a reader of the skill can see: every field (name,
    /// description, licence, compatibility, metadata, allowed tools, the fields the
    /// specification does not define, the [invocation policy](Skill::invocation)) and every
    /// file (path, executable bit, bytes; the body is the `SKILL.md` file). Equal digests mean the same answers on every surface, so this is
    /// what an overlay's reload and an MCP server's change notifications compare.
    ///
    /// Files read at run time contribute the digests kept from their read; embedded files are
    /// hashed on each call, so compare embedded skills by identity first where that is cheaper.
    ///
    /// ```
    /// use skills_embed_runtime::{OwnedFields, Skill};
    ///
    /// let skill = |license: Option<&str>| {
    ///     Skill::owned(
    ///         OwnedFields {
    ///             name: "pdf".into(),
    ///             description: "Fill PDF forms.".into(),
    ///             license: license.map(String::from),
    ///             ..Default::default()
    ///         },
    ///         "# PDF\n".into(),
    ///         Vec::new(),
    ///     )
    /// };
    /// assert_eq!(skill(None).content_digest(), skill(None).content_digest());
    /// assert_ne!(skill(None).content_digest(), skill(Some("MIT")).content_digest());
    /// ```
    pub fn content_digest(&self) -> [u8; 32] {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        // Each part with its length first, so no two different skills hash the same bytes.
        let mut part = |bytes: &[u8]| {
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(bytes);
        };
        part(self.name().as_bytes());
        part(self.description().as_bytes());
        for optional in [self.license(), self.compatibility()] {
            match optional {
                Some(text) => {
                    part(b"some");
                    part(text.as_bytes());
                }
                None => part(b"none"),
            }
        }
        part(b"metadata");
        for (key, value) in self.metadata() {
            part(key.as_bytes());
            part(value.as_bytes());
        }
        part(b"allowed-tools");
        for tool in self.allowed_tools() {
            part(tool.as_bytes());
        }
        part(self.extra_json().as_bytes());
        let policy = self.invocation();
        part(b"invocation");
        part(&[policy.flags()]);
        match policy.argument_hint() {
            Some(hint) => {
                part(b"some");
                part(hint.as_bytes());
            }
            None => part(b"none"),
        }
        for name in policy.arguments() {
            part(name.as_bytes());
        }
        part(b"files");
        for file in self.files() {
            part(file.path().as_bytes());
            part(&[u8::from(file.is_executable())]);
            part(&file.sha256());
        }
        hasher.finalize().into()
    }

    /// Who may invoke the skill (the model, the user) and with which arguments, as its client
    /// fields say (see [`InvocationPolicy`]). Read when the skill was read: nothing is parsed
    /// here.
    ///
    /// ```
    /// use skills_embed_runtime::{OwnedFields, OwnedPolicy, Skill};
    /// let fields = |model_may_invoke| OwnedFields {
    ///     name: "deploy".into(),
    ///     invocation: OwnedPolicy { model_may_invoke, ..OwnedPolicy::default() },
    ///     ..OwnedFields::default()
    /// };
    /// let hidden = Skill::owned(fields(false), String::new(), vec![]);
    /// assert!(!hidden.invocation().model_may_invoke());
    /// // A policy change is a content change.
    /// let shown = Skill::owned(fields(true), String::new(), vec![]);
    /// assert_ne!(hidden.content_digest(), shown.content_digest());
    /// ```
    pub fn invocation(&self) -> InvocationPolicy<'_> {
        match &self.repr {
            Repr::Embedded(index, at, _) => {
                let entry = index.skill(*at);
                InvocationPolicy::embedded(
                    entry.policy,
                    index.opt_str(entry.argument_hint),
                    index.str(entry.arguments),
                )
            }
            Repr::Owned(o) => InvocationPolicy::of(&o.fields.invocation),
        }
    }

    /// One field the specification does not define, as a JSON value.
    pub fn extra(&self, key: &str) -> Option<serde_json::Value> {
        let mut map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(self.extra_json()).ok()?;
        map.remove(key)
    }

    /// The body of SKILL.md, without its frontmatter.
    pub fn body(&self) -> &str {
        self.find(MANIFEST).and_then(|f| f.text()).unwrap_or("")
    }

    /// The `<chunk>` blocks of the body, in order.
    pub fn chunks(&self) -> &[Chunk] {
        match &self.repr {
            Repr::Embedded(index, at, _) => index::slice(index.chunks, index.skill(*at).chunks),
            Repr::Owned(o) => &o.chunks,
        }
    }

    /// The text of one chunk. A miss lists the chunk ids.
    pub fn chunk(&self, id: &str) -> Result<&str, SkillError> {
        let body = self.body();
        let chunks = self.chunks();
        chunks
            .iter()
            .find(|c| c.id() == id)
            .and_then(|c| body.get(Chunk::range(c.content)))
            .ok_or_else(|| SkillError::ChunkNotFound {
                skill: self.name().to_owned(),
                requested: id.to_owned(),
                available: chunks.iter().map(|c| c.id().to_owned()).collect(),
                suggestion: closest(id, chunks.iter().map(Chunk::id)),
            })
    }

    /// The body without its chunk blocks, in pieces (no allocation).
    pub fn core_body(&self) -> impl Iterator<Item = &str> + '_ {
        let body = self.body();
        let mut at = 0;
        let mut chunks = self.chunks().iter();
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

    fn file_count(&self) -> usize {
        match &self.repr {
            Repr::Embedded(index, _, files) => index::slice(index.files, *files).len(),
            Repr::Owned(o) => o.files.len(),
        }
    }

    /// The `i`-th file in path order (`i` below [`Skill::file_count`]).
    fn file_at(&self, i: usize) -> Option<Loaded<'_>> {
        match &self.repr {
            Repr::Embedded(index, _, files) => {
                let i = u32::try_from(i).ok().filter(|i| *i < files.1)?;
                Loaded::embedded(self, index, files.0 + i)
            }
            Repr::Owned(o) => o.files.get(i).map(|file| Loaded::owned(self, file)),
        }
    }

    /// Every file, sorted by path, `SKILL.md` (the body) included.
    pub fn files(&self) -> impl ExactSizeIterator<Item = Loaded<'_>> + '_ {
        (0..self.file_count())
            .map(move |i| self.file_at(i).unwrap_or_else(|| Loaded::missing(self)))
    }

    /// Every file but `SKILL.md`: what the body can point the model to.
    pub fn resources(&self) -> impl Iterator<Item = Loaded<'_>> + '_ {
        self.files().filter(|f| !f.is_body())
    }

    /// Every path [`Skill::load`] accepts, sorted.
    pub fn paths(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.files().map(|f| f.path())
    }

    /// The body (`"SKILL.md"`) or a resource, by a path relative to the skill's folder.
    ///
    /// A refused path or a miss is an error that lists every path this skill serves.
    #[inline]
    pub fn load(&self, path: &str) -> Result<Loaded<'_>, SkillError> {
        // A path equal to a stored one names that file: stored paths are normal and inside the
        // skill, so the checks run only when there is no such file.
        if let Some(hit) = self.find(path) {
            return Ok(hit);
        }
        self.load_slow(path)
    }

    #[cold]
    fn load_slow(&self, path: &str) -> Result<Loaded<'_>, SkillError> {
        let request = path::check(path).map_err(|problem| SkillError::InvalidPath {
            skill: self.name().to_owned(),
            requested: path.to_owned(),
            problem,
            available: self.paths().map(str::to_owned).collect(),
        })?;
        let found = match &self.repr {
            Repr::Embedded(index, _, range) => {
                let files = index::slice(index.files, *range);
                files
                    .binary_search_by(|f| request.cmp_stored(index.path(f)))
                    .ok()
                    .and_then(|i| Loaded::embedded(self, index, range.0 + i as u32))
            }
            Repr::Owned(o) => o
                .files
                .binary_search_by(|f| request.cmp_stored(f.path()))
                .ok()
                .map(|i| Loaded::owned(self, &o.files[i])),
        };
        found.ok_or_else(|| {
            let requested = request.to_string();
            SkillError::FileNotFound {
                skill: self.name().to_owned(),
                suggestion: closest(&requested, self.paths()),
                requested,
                available: self.paths().map(str::to_owned).collect(),
            }
        })
    }

    /// A file by its stored (normal) path.
    #[inline]
    fn find(&self, normal_path: &str) -> Option<Loaded<'_>> {
        match &self.repr {
            Repr::Embedded(index, _, range) => {
                let files = index::slice(index.files, *range);
                let i = index.find_file(files, normal_path.as_bytes())?;
                Some(Loaded {
                    skill: self,
                    file: Place::Embedded(index, files.get(i)?),
                })
            }
            Repr::Owned(o) => {
                let i = o
                    .files
                    .binary_search_by(|f| f.path().cmp(normal_path))
                    .ok()?;
                Some(Loaded::owned(self, o.files.get(i)?))
            }
        }
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

/// A file of a skill, as [`Skill::load`] and [`Skill::files`] give it: the body or a resource.
#[derive(Debug, Clone, Copy)]
pub struct Loaded<'a> {
    skill: &'a Skill,
    file: Place<'a>,
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
    fn embedded(skill: &'a Skill, index: &'static Index, file: u32) -> Option<Self> {
        let entry = index.files.get(file as usize)?;
        Some(Loaded {
            skill,
            file: Place::Embedded(index, entry),
        })
    }

    fn owned(skill: &'a Skill, file: &'a File) -> Self {
        Loaded {
            skill,
            file: Place::Owned(file),
        }
    }

    fn missing(skill: &'a Skill) -> Self {
        Loaded {
            skill,
            file: Place::Missing,
        }
    }

    /// The skill the file belongs to.
    #[inline]
    pub fn skill(&self) -> &'a Skill {
        self.skill
    }

    /// The file's path, normalised (`SKILL.md` for the body).
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
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether this is the body (`SKILL.md`).
    pub fn is_body(&self) -> bool {
        self.path() == MANIFEST
    }

    /// Whether the file had an executable bit in the source folder.
    #[inline]
    pub fn is_executable(&self) -> bool {
        match self.file {
            Place::Embedded(_, entry) => entry.flags & index::EXEC != 0,
            Place::Owned(file) => file.is_executable(),
            Place::Missing => false,
        }
    }

    /// The SHA-256 digest of [`Loaded::bytes`]: kept for files read at run time, computed on
    /// each call for embedded ones (the binary stores no digests).
    pub fn sha256(&self) -> [u8; 32] {
        match self.file {
            Place::Owned(file) => *file.sha256(),
            Place::Embedded(..) | Place::Missing => sha256(self.bytes()),
        }
    }

    /// A media type guessed from the extension, `text/plain` or `application/octet-stream`
    /// when the extension is unknown.
    pub fn media_type(&self) -> &'static str {
        crate::media::media_type(self.path(), self.is_text())
    }
}
