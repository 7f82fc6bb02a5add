//! One skill: its frontmatter fields, its body and its files; a lookup returns the file as a
//! [`Loaded`].
//!
//! Embedded skills are views into the tables of an [`Index`] in the binary; skills read at run
//! time own their data. Both serve through the same methods.

mod loaded;

pub use loaded::Loaded;

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use super::chunk::Chunk;
use super::error::SkillError;
use super::fields::{ClientFields, Fields};
use super::file::File;
use super::index::{self, Index};
use super::invocation::{InvocationFields, InvocationPolicy};
use super::path;
use crate::listing::Entry;
use crate::text::closest;

pub(crate) use super::fields::MANIFEST;

/// A skill: the fields of its SKILL.md frontmatter, its body and every file it serves.
///
/// Skills embedded by `skills!` are views into tables in the binary (see the `skills-embed` crate);
/// skills read at run time own their data ([`Skill::owned`]). Both serve through the same
/// methods.
///
/// ```
/// use skills_embed::{File, Fields, Skill};
/// let skill = Skill::owned(
///     Fields { name: "pdf".into(), description: "Work with PDF files.".into(), ..Fields::default() },
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
    /// The index, the skill's position in it, its files' range and its path table's
    /// multiplier and slots (kept here so a lookup reads no skill entry; the table's two
    /// halves apart so that the `Skill` stays 32 bytes).
    Embedded(&'static Index, u32, (u32, u32), u32, u64),
    Owned(Arc<OwnedSkill>),
}

#[derive(Debug)]
struct OwnedSkill {
    fields: Fields,
    /// Sorted by path, `SKILL.md` (the body) among them.
    files: Vec<File>,
    chunks: Vec<Chunk>,
    /// [`Skill::content_digest`], made on first need: the content never changes after
    /// construction, and live hosts compare digests on every reload and per session.
    digest: std::sync::OnceLock<[u8; 32]>,
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

impl Skill {
    /// An embedded skill: the `at`-th skill of `index`, whose files are `files` (first,
    /// count) of the index, with their path table (used by generated code).
    pub(crate) const fn embedded(
        index: &'static Index,
        at: u32,
        files: (u32, u32),
        (mult, slots): index::PathTable,
    ) -> Self {
        Skill {
            repr: Repr::Embedded(index, at, files, mult, slots),
        }
    }

    /// A skill built at run time. The body becomes the `SKILL.md` file (its `<chunk>` blocks are
    /// found again; malformed ones stay in the body as text); `files` may come in any order, and
    /// a `SKILL.md` among them is replaced. When `fields.invocation` is left at its default,
    /// Claude Code's invocation fields in `fields.extra` (`disable-model-invocation`,
    /// `user-invocable`, `argument-hint`, `arguments`) make it, once, here.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let fields = Fields {
    ///     name: "style".into(),
    ///     extra: r#"{"user-invocable":false,"arguments":"file out"}"#.into(),
    ///     ..Fields::default()
    /// };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert!(!skill.invocation().user_may_invoke);
    /// assert_eq!(skill.invocation().arguments, ["file", "out"]);
    /// ```
    pub fn owned(fields: Fields, body: String, files: Vec<File>) -> Self {
        let (spans, _) = crate::text::chunks::find_chunks(&body);
        let chunks = spans.into_iter().filter_map(Chunk::from_span).collect();
        Self::with_chunks(fields, body, files, chunks)
    }

    /// [`Skill::owned`] with the body's chunks already found (by the validator).
    pub(crate) fn with_chunks(
        mut fields: Fields,
        body: String,
        mut files: Vec<File>,
        chunks: Vec<Chunk>,
    ) -> Self {
        files.retain(|f| f.path() != MANIFEST);
        files.push(File::body(body));
        files.sort_by(|a, b| a.path().cmp(b.path()));
        files.dedup_by(|a, b| a.path() == b.path());
        if fields.extra.is_empty() {
            fields.extra = "{}".into();
        }
        if fields.invocation.is_default() {
            fields.invocation = InvocationFields::from_extra(&fields.extra);
        }
        Skill {
            repr: Repr::Owned(Arc::new(OwnedSkill {
                fields,
                files,
                chunks,
                digest: std::sync::OnceLock::new(),
            })),
        }
    }

    /// The same skill under another name, its files and chunks copied as they are (a crate's
    /// skill installed under `<crate>-<skill>`); `None` for an embedded skill, whose name lives
    /// in the binary's tables.
    #[cfg(feature = "package")]
    pub(crate) fn renamed(&self, name: &str) -> Option<Skill> {
        let Repr::Owned(owned) = &self.repr else {
            return None;
        };
        let mut fields = owned.fields.clone();
        fields.name = name.to_owned();
        Some(Skill {
            repr: Repr::Owned(Arc::new(OwnedSkill {
                fields,
                files: owned.files.clone(),
                chunks: owned.chunks.clone(),
                digest: std::sync::OnceLock::new(),
            })),
        })
    }

    /// Identifies an embedded skill's content (its index and position): it cannot change while
    /// the program runs, so two skills with the same identity hold the same files and nothing
    /// needs hashing. `None` for skills read at run time.
    #[cfg(any(feature = "fs", feature = "mcp"))]
    pub(crate) fn embedded_identity(&self) -> Option<(usize, u32)> {
        match self.repr {
            Repr::Embedded(index, at, ..) => Some((index as *const Index as usize, at)),
            Repr::Owned(_) => None,
        }
    }

    /// The skill's position in its index (0 for skills read at run time).
    pub(super) fn position(&self) -> u32 {
        match self.repr {
            Repr::Embedded(_, at, ..) => at,
            Repr::Owned(_) => 0,
        }
    }

    /// Whether the skill's files are embedded in the binary (rather than read at run time).
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// // `skills!("skills")` in your crate; here, this repository's example skills.
    /// skills_embed::skills!("../skills/examples/skills");
    /// assert!(SKILLS.skill(SkillId::PdfForms).is_embedded());
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let owned = Skill::owned(fields, String::new(), vec![]);
    /// assert!(!owned.is_embedded());
    /// ```
    pub fn is_embedded(&self) -> bool {
        matches!(self.repr, Repr::Embedded(..))
    }

    /// The skill's name, as the model names it.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// let fields = Fields { name: "pdf".into(), description: "Reads PDFs.".into(), ..Default::default() };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert_eq!(skill.name(), "pdf");
    /// // The listing shows the model this name, and a set finds the skill by it.
    /// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    /// assert_eq!(set.summary(), "- pdf: Reads PDFs.\n");
    /// assert_eq!(set.get("pdf").unwrap().name(), "pdf");
    /// ```
    pub fn name(&self) -> &str {
        match &self.repr {
            Repr::Embedded(index, at, ..) => index.str(index.skill(*at).name),
            Repr::Owned(o) => &o.fields.name,
        }
    }

    /// What the skill does and when to use it.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// let fields = Fields { name: "pdf".into(), description: "Reads PDFs.".into(), ..Default::default() };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert_eq!(skill.description(), "Reads PDFs.");
    /// // The listing gives the model each skill's description beside its name.
    /// let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
    /// assert_eq!(set.summary(), "- pdf: Reads PDFs.\n");
    /// ```
    pub fn description(&self) -> &str {
        match &self.repr {
            Repr::Embedded(index, at, ..) => index.str(index.skill(*at).description),
            Repr::Owned(o) => &o.fields.description,
        }
    }

    /// The `license` field.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let skill = |license: Option<&str>| {
    ///     let license = license.map(String::from);
    ///     let fields = Fields { name: "pdf".into(), license, ..Fields::default() };
    ///     Skill::owned(fields, String::new(), vec![])
    /// };
    /// assert_eq!(skill(Some("Apache-2.0")).license(), Some("Apache-2.0"));
    /// assert_eq!(skill(None).license(), None);
    /// ```
    pub fn license(&self) -> Option<&str> {
        match &self.repr {
            Repr::Embedded(index, at, ..) => index.opt_str(index.skill(*at).license),
            Repr::Owned(o) => o.fields.license.as_deref(),
        }
    }

    /// The `compatibility` field.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let skill = |compatibility: Option<&str>| {
    ///     let compatibility = compatibility.map(String::from);
    ///     let fields = Fields { name: "pdf".into(), compatibility, ..Fields::default() };
    ///     Skill::owned(fields, String::new(), vec![])
    /// };
    /// assert_eq!(skill(Some("Needs pdftotext.")).compatibility(), Some("Needs pdftotext."));
    /// assert_eq!(skill(None).compatibility(), None);
    /// ```
    pub fn compatibility(&self) -> Option<&str> {
        match &self.repr {
            Repr::Embedded(index, at, ..) => index.opt_str(index.skill(*at).compatibility),
            Repr::Owned(o) => o.fields.compatibility.as_deref(),
        }
    }

    /// The `metadata` field, sorted by key as the validator reads it (a skill built with
    /// [`Skill::owned`] keeps the order of its [`Fields::metadata`]).
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let fields = Fields {
    ///     name: "pdf".into(),
    ///     metadata: vec![("author".into(), "Ann".into()), ("version".into(), "1.2".into())],
    ///     ..Fields::default()
    /// };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert_eq!(skill.metadata().collect::<Vec<_>>(), [("author", "Ann"), ("version", "1.2")]);
    /// assert_eq!(skill.metadata().find(|(key, _)| *key == "version"), Some(("version", "1.2")));
    /// ```
    pub fn metadata(&self) -> impl Iterator<Item = (&str, &str)> {
        let (fixed, owned) = match &self.repr {
            Repr::Embedded(index, at, ..) => (
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
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let tools = vec!["Read".into(), "Bash(pdftotext:*)".into()];
    /// let fields = Fields { name: "pdf".into(), allowed_tools: tools, ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert_eq!(skill.allowed_tools().collect::<Vec<_>>(), ["Read", "Bash(pdftotext:*)"]);
    /// ```
    pub fn allowed_tools(&self) -> impl Iterator<Item = &str> {
        let (fixed, owned) = match &self.repr {
            Repr::Embedded(index, at, ..) => {
                (index::slice(index.tools, index.skill(*at).tools), &[][..])
            }
            Repr::Owned(o) => (&[][..], o.fields.allowed_tools.as_slice()),
        };
        fixed
            .iter()
            .copied()
            .chain(owned.iter().map(String::as_str))
    }

    /// [`extra`](Self::extra) as its canonical JSON object text (what the digest hashes).
    pub(crate) fn extra_json(&self) -> &str {
        match &self.repr {
            Repr::Embedded(index, at, ..) => match index.str(index.skill(*at).extra) {
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
    /// use skills_embed::{Fields, Skill};
    ///
    /// let skill = |license: Option<&str>| {
    ///     Skill::owned(
    ///         Fields {
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
        match &self.repr {
            Repr::Owned(owned) => *owned.digest.get_or_init(|| self.digest_now()),
            Repr::Embedded(..) => self.digest_now(),
        }
    }

    /// [`Skill::content_digest`], computed.
    fn digest_now(&self) -> [u8; 32] {
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
        let policy = self.policy();
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
        // Only when set, so the digest of a skill without client fields is what it was.
        let client = self.client_json();
        if !client.is_empty() {
            part(b"client");
            part(client.as_bytes());
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
    /// fields say (see [`InvocationFields`]). Read when the skill was read: nothing is parsed
    /// here.
    ///
    /// ```
    /// use skills_embed::{Fields, invoke::InvocationFields, Skill};
    /// let fields = |model_may_invoke| Fields {
    ///     name: "deploy".into(),
    ///     invocation: InvocationFields { model_may_invoke, ..InvocationFields::default() },
    ///     ..Fields::default()
    /// };
    /// let hidden = Skill::owned(fields(false), String::new(), vec![]);
    /// assert!(!hidden.invocation().model_may_invoke);
    /// // A policy change is a content change.
    /// let shown = Skill::owned(fields(true), String::new(), vec![]);
    /// assert_ne!(hidden.content_digest(), shown.content_digest());
    /// ```
    pub fn invocation(&self) -> InvocationFields {
        self.policy().to_fields()
    }

    /// The client fields beyond the specification, typed (see [`ClientFields`]): Claude Code's
    /// `when_to_use`, `disallowed-tools`, `paths`, `context`, `agent`, `model`, and Codex's
    /// `interface` and `dependencies.tools`. Read and checked when the skill was read.
    ///
    /// ```
    /// use skills_embed::{ClientFields, Fields, Skill};
    /// let fields = Fields {
    ///     name: "review".into(),
    ///     client: ClientFields { context: Some("fork".into()), agent: Some("Explore".into()), ..ClientFields::default() },
    ///     ..Fields::default()
    /// };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert_eq!(skill.client().agent.as_deref(), Some("Explore"));
    /// ```
    pub fn client(&self) -> ClientFields {
        match &self.repr {
            Repr::Embedded(..) => ClientFields::from_json(&self.client_json()),
            Repr::Owned(o) => o.fields.client.clone(),
        }
    }

    /// The client fields as the JSON text an embedded skill stores (empty when none is set).
    fn client_json(&self) -> Cow<'_, str> {
        match &self.repr {
            Repr::Embedded(index, at, ..) => Cow::Borrowed(index.str(index.skill(*at).client)),
            Repr::Owned(o) => Cow::Owned(o.fields.client.to_json()),
        }
    }

    /// Claude Code's `when_to_use`, which listings append to the description.
    pub(crate) fn when_to_use(&self) -> Option<&str> {
        match &self.repr {
            Repr::Embedded(index, at, ..) => index.opt_str(index.skill(*at).when_to_use),
            Repr::Owned(o) => o.fields.client.when_to_use.as_deref(),
        }
    }

    /// [`invocation`](Self::invocation) as a view that allocates nothing, for the filters that
    /// run on every skill of a listing.
    pub(crate) fn policy(&self) -> InvocationPolicy<'_> {
        match &self.repr {
            Repr::Embedded(index, at, ..) => {
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

    /// Frontmatter fields the specification does not define (kept by the lenient profile, and
    /// the fields of the client dialects opted in to in any profile), parsed from their JSON
    /// object text ([`Fields::extra`]): empty when there are none.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let fields = Fields { name: "pdf".into(), extra: r#"{"model":"sonnet"}"#.into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, String::new(), vec![]);
    /// assert_eq!(skill.extra()["model"], "sonnet");
    /// assert!(skill.extra().get("context").is_none());
    /// ```
    pub fn extra(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::from_str(self.extra_json()).unwrap_or_default()
    }

    /// The body of SKILL.md, without its frontmatter.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let body = "# PDF\nUse pdftotext.\n";
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, body.into(), vec![]);
    /// assert_eq!(skill.body(), "# PDF\nUse pdftotext.\n");
    /// // The same text is the file `SKILL.md`.
    /// assert_eq!(skill.load("SKILL.md").unwrap().text(), Some(body));
    /// ```
    pub fn body(&self) -> &str {
        self.find(MANIFEST).and_then(|f| f.text()).unwrap_or("")
    }

    /// The `<chunk>` blocks of the body, in order, each as its id and its description (the
    /// text of one is [`chunk`](Self::chunk)).
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let body = "Intro.\n<chunk id=\"faq\" description=\"Common questions\">\nQ and A.\n</chunk>\n";
    /// let skill = Skill::owned(Fields { name: "pdf".into(), ..Fields::default() }, body.into(), vec![]);
    /// assert_eq!(skill.chunks().collect::<Vec<_>>(), [("faq", "Common questions")]);
    /// assert_eq!(skill.chunk("faq").unwrap(), "Q and A.\n");
    /// ```
    pub fn chunks(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.chunk_list().iter().map(|c| (c.id(), c.description()))
    }

    /// The `<chunk>` blocks of the body, in order, with their byte ranges.
    pub(crate) fn chunk_list(&self) -> &[Chunk] {
        match &self.repr {
            Repr::Embedded(index, at, ..) => index::slice(index.chunks, index.skill(*at).chunks),
            Repr::Owned(o) => &o.chunks,
        }
    }

    /// The text of one chunk. A miss lists the chunk ids.
    ///
    /// ```
    /// use skills_embed::{Fields, Skill};
    /// let body = "Intro.\n<chunk id=\"faq\" description=\"Questions\">\nQ and A.\n</chunk>\n";
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, body.into(), vec![]);
    /// assert_eq!(skill.chunk("faq").unwrap(), "Q and A.\n");
    /// let miss = skill.chunk("fqa").unwrap_err().to_string();
    /// assert!(miss.contains(r#"Available chunks: faq. Did you mean "faq"?"#), "{miss}");
    /// ```
    pub fn chunk(&self, id: &str) -> Result<&str, SkillError> {
        let body = self.body();
        let chunks = self.chunk_list();
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
    pub(crate) fn core_body(&self) -> impl Iterator<Item = &str> + '_ {
        let body = self.body();
        let mut at = 0;
        let mut chunks = self.chunk_list().iter();
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
            Repr::Embedded(index, _, files, ..) => index::slice(index.files, *files).len(),
            Repr::Owned(o) => o.files.len(),
        }
    }

    /// The `i`-th file in path order (`i` below [`Skill::file_count`]).
    fn file_at(&self, i: usize) -> Option<Loaded<'_>> {
        match &self.repr {
            Repr::Embedded(index, _, files, ..) => {
                let i = u32::try_from(i).ok().filter(|i| *i < files.1)?;
                Loaded::embedded(self, index, files.0 + i)
            }
            Repr::Owned(o) => o.files.get(i).map(|file| Loaded::owned(self, file)),
        }
    }

    /// Every file, sorted by path, `SKILL.md` (the body) included.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![
    ///     File::owned("scripts/fill.py".into(), b"print('ok')\n".to_vec(), true),
    ///     File::owned("forms.md".into(), b"Fill forms.\n".to_vec(), false),
    /// ];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, "# PDF\n".into(), files);
    /// let listed: Vec<_> = skill.files().map(|f| (f.path(), f.is_executable())).collect();
    /// assert_eq!(listed, [("SKILL.md", false), ("forms.md", false), ("scripts/fill.py", true)]);
    /// ```
    pub fn files(&self) -> impl ExactSizeIterator<Item = Loaded<'_>> + '_ {
        (0..self.file_count())
            .map(move |i| self.file_at(i).unwrap_or_else(|| Loaded::missing(self)))
    }

    /// Every file but `SKILL.md`: what the body can point the model to.
    pub(crate) fn resources(&self) -> impl Iterator<Item = Loaded<'_>> + '_ {
        self.files().filter(|f| !f.is_body())
    }

    /// Where the skill came from: `embedded` (in the binary) or `disk`.
    pub(crate) fn source(&self) -> &'static str {
        if self.is_embedded() {
            "embedded"
        } else {
            "disk"
        }
    }

    /// Whether the skill has scripts: files under `scripts/` or files with an executable bit.
    pub(crate) fn has_scripts(&self) -> bool {
        self.script_files().next().is_some()
    }

    /// The skill's script files: files under `scripts/` or files with an executable bit, by
    /// path.
    pub(crate) fn script_files(&self) -> impl Iterator<Item = Loaded<'_>> + '_ {
        self.resources()
            .filter(|f| f.is_executable() || f.path().starts_with("scripts/"))
    }

    /// The skill's entry in the L1 listing: name, description, whether it has resources and
    /// scripts, and its chunk ids.
    pub(crate) fn listing_entry(&self) -> Entry<'_> {
        Entry {
            name: self.name(),
            description: self.description(),
            when_to_use: self.when_to_use(),
            location: None,
            has_resources: self.resources().next().is_some(),
            has_scripts: self.has_scripts(),
            chunks: self.chunk_list().iter().map(|c| c.id()).collect(),
        }
    }

    /// Every path [`Skill::load`] accepts, sorted.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![File::owned("references/forms.md".into(), b"Forms.\n".to_vec(), false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, "# PDF\n".into(), files);
    /// assert_eq!(skill.paths().collect::<Vec<_>>(), ["SKILL.md", "references/forms.md"]);
    /// assert!(skill.paths().all(|path| skill.load(path).is_ok()));
    /// ```
    pub fn paths(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.files().map(|f| f.path())
    }

    /// The body (`"SKILL.md"`) or a resource, by a path relative to the skill's folder.
    ///
    /// A refused path or a miss is an error that lists every path this skill serves.
    ///
    /// ```
    /// use skills_embed::{Fields, File, Skill};
    /// let files = vec![File::owned("references/forms.md".into(), b"Forms.\n".to_vec(), false)];
    /// let fields = Fields { name: "pdf".into(), ..Fields::default() };
    /// let skill = Skill::owned(fields, "# PDF\n".into(), files);
    /// assert_eq!(skill.load("SKILL.md").unwrap().text(), Some("# PDF\n"));
    /// assert_eq!(skill.load("references/forms.md").unwrap().text(), Some("Forms.\n"));
    /// let refused = skill.load("../secrets.txt").unwrap_err().to_string();
    /// assert!(refused.ends_with("Available files: SKILL.md, references/forms.md."), "{refused}");
    /// ```
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
            problem: problem.describe(),
            available: self.paths().map(str::to_owned).collect(),
        })?;
        let found = match &self.repr {
            Repr::Embedded(index, _, range, ..) => {
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

    /// A file by its stored (normal) path. The common case, an embedded skill of a few files,
    /// is one slot of its path table (else one scan), kept small enough to inline into the
    /// caller so that the answer stays in registers (returned through memory, it cost a
    /// store-forwarding stall: BENCHMARKS.md, "Issue 31 item 1").
    #[inline(always)]
    fn find(&self, normal_path: &str) -> Option<Loaded<'_>> {
        if let Repr::Embedded(index, _, range, mult, slots) = &self.repr {
            let files = index::slice(index.files, *range);
            let path = normal_path.as_bytes();
            if let Some(found) = index
                .find_in_table(files, path, (*mult, *slots))
                .or_else(|| index.scan(files, path))
            {
                return found.map(|entry| Loaded::entry(self, index, entry));
            }
        }
        self.find_searched(normal_path)
    }

    /// A file by its stored path in a skill too large to scan, or an owned one: binary search.
    #[inline(never)]
    fn find_searched(&self, normal_path: &str) -> Option<Loaded<'_>> {
        match &self.repr {
            Repr::Embedded(index, _, range, ..) => {
                let files = index::slice(index.files, *range);
                let i = index.find_file(files, normal_path.as_bytes())?;
                Some(Loaded::entry(self, index, files.get(i)?))
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
