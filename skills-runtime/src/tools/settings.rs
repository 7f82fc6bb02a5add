//! What every host is given, once: where the skills come from ([`Source`]) and how they are
//! served ([`Settings`]: tool names and limits, the permission rules, how the user is asked, who
//! runs script files, where skills with scripts are written).

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use super::runner::FileRunner;
use crate::listing::ListingFormat;
use crate::model::id::Dynamic;
use crate::model::set::SkillSet;
use crate::model::skill::Skill;
use crate::policy::{Answer, Permissions, Subject};
use crate::text;

/// One snapshot of the served skills.
pub(crate) type Snapshot = Arc<SkillSet<Dynamic>>;

/// Where the served skills come from: a set fixed for the host's life, or a function asked
/// again on every request (an overlay's snapshot, say). Made with `From`: `&SKILLS` (what
/// `skills!` generates), an owned or shared `SkillSet`, an `Arc` of a disk
/// [`Overlay`](crate::disk::Overlay) (feature `fs`); or [`Source::live`].
///
/// ```
/// use std::sync::Arc;
/// use skills_embed::{SkillSet, listing::ListingFormat, tools::{Settings, Source, Tools}};
/// # static SKILLS: SkillSet = SkillSet::empty();
/// let embedded = Tools::new(&SKILLS, Settings::default());
/// let shared = Arc::new(SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown));
/// let live = Source::live(move || Arc::clone(&shared));
/// assert!(embedded.definitions().is_empty());
/// assert!(Tools::new(live, Settings::default()).definitions().is_empty());
/// ```
#[derive(Clone)]
pub struct Source(Origin);

#[derive(Clone)]
enum Origin {
    Fixed(Snapshot),
    Live(Arc<dyn Fn() -> Snapshot + Send + Sync>, Option<Problems>),
}

/// What a live source could not serve as it stands now, one line each (an overlay's errors:
/// the skills and files it left out, `Overlay::problems`); a host logs them.
type Problems = Arc<dyn Fn() -> Vec<(String, String)> + Send + Sync>;

impl Source {
    /// A set that may change while it is served: `snapshot` is called for every request (an
    /// MCP request, a rig call), and [`Tools`](super::Tools) built from it hold the set it gave.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed::{SkillSet, listing::ListingFormat, tools::Source};
    /// let current = Arc::new(SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown));
    /// let source = Source::live(move || Arc::clone(&current));
    /// # drop(source);
    /// ```
    pub fn live(snapshot: impl Fn() -> Arc<SkillSet<Dynamic>> + Send + Sync + 'static) -> Self {
        Source(Origin::Live(Arc::new(snapshot), None))
    }

    /// The set as it is now.
    pub(crate) fn snapshot(&self) -> Snapshot {
        match &self.0 {
            Origin::Fixed(set) => Arc::clone(set),
            Origin::Live(f, _) => f(),
        }
    }

    /// Whether the set can change between requests.
    #[cfg_attr(
        not(feature = "mcp"),
        allow(dead_code, reason = "only MCP watches a set")
    )]
    pub(crate) fn is_live(&self) -> bool {
        matches!(self.0, Origin::Live(..))
    }

    /// What the source cannot serve as it stands now (an overlay's errors, as their
    /// diagnostics print, each with the skill folder it is about), for a host's log; none for
    /// a fixed set.
    #[cfg_attr(
        not(feature = "mcp"),
        allow(dead_code, reason = "only MCP logs what a source left out")
    )]
    pub(crate) fn problems(&self) -> Vec<(String, String)> {
        match &self.0 {
            Origin::Live(_, Some(problems)) => problems(),
            _ => Vec::new(),
        }
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_live() {
            "Source::Live"
        } else {
            "Source::Fixed"
        })
    }
}

/// An embedded set, looked up by name: hosts never need the generated ids.
impl<Id> From<&'static SkillSet<Id>> for Source {
    fn from(set: &'static SkillSet<Id>) -> Self {
        Source(Origin::Fixed(Arc::new(set.by_name())))
    }
}

impl From<SkillSet<Dynamic>> for Source {
    fn from(set: SkillSet<Dynamic>) -> Self {
        Source(Origin::Fixed(Arc::new(set)))
    }
}

impl From<Arc<SkillSet<Dynamic>>> for Source {
    fn from(set: Arc<SkillSet<Dynamic>>) -> Self {
        Source(Origin::Fixed(set))
    }
}

/// Every request sees the overlay's current snapshot, so a
/// [`reload`](crate::disk::Overlay::reload) (or a [watcher](crate::disk::Overlay::watch)) is picked up
/// by the next one.
#[cfg(feature = "fs")]
impl<Id: Send + Sync + 'static> From<Arc<crate::disk::Overlay<Id>>> for Source {
    fn from(overlay: Arc<crate::disk::Overlay<Id>>) -> Self {
        let left_out = Arc::clone(&overlay);
        let problems: Problems = Arc::new(move || left_out.problems());
        Source(Origin::Live(
            Arc::new(move || overlay.snapshot()),
            Some(problems),
        ))
    }
}

/// How a host asks the user about a [`Subject`].
type Approver = Arc<dyn Fn(Subject) -> Pin<Box<dyn Future<Output = Answer> + Send>> + Send + Sync>;

/// Writes a skill with scripts where the model can run them, giving the folder: injected, so
/// the layer that answers calls never writes to disk itself.
pub(crate) type Extractor =
    Arc<dyn Fn(&Skill) -> Result<PathBuf, Box<dyn std::error::Error + Send + Sync>> + Send + Sync>;

/// How skills are served, one value every host takes ([`Tools::new`](super::Tools::new),
/// `McpServer::new`, the rig tools): tool names and style, limits, output shape, the
/// permission rules, and the hooks set with `with_*` (how the user is asked, who runs script
/// files, where skills with scripts are written).
///
/// ```
/// use skills_embed::policy::{Answer, Permissions};
/// use skills_embed::tools::{Settings, ToolStyle};
/// let settings = Settings {
///     style: ToolStyle::Split,
///     permissions: Permissions::new().ask("deploy-*").deny("internal-*"),
///     ..Settings::default()
/// }
/// .with_approval(|subject| async move {
///     if subject.skill == "deploy-docs" { Answer::Once } else { Answer::Reject }
/// });
/// assert_eq!(settings.name, "load_skill");
/// assert_eq!(settings.max_chars, 12_000);
/// ```
#[derive(Clone)]
pub struct Settings {
    /// The unified tool's name, checked by [`ToolName`].
    pub name: ToolName,
    /// Unified or split tools.
    pub style: ToolStyle,
    /// Put the L1 listing in the tool description (instead of the system prompt), in this format.
    pub listing_in_description: Option<ListingFormat>,
    /// Characters of a resource returned per call; the rest is reached with `offset`.
    pub max_chars: usize,
    /// Characters of a body returned per call.
    pub max_body_chars: usize,
    /// Files listed after a body, so the model knows what it can load next.
    pub max_listed_files: usize,
    /// Extensions served as text; other files are described by size and type, not dumped.
    pub text_extensions: Vec<String>,
    /// Whether executable files are served as text (they are described by default).
    pub dump_executables: bool,
    /// The frame around loaded content.
    pub shape: OutputShape,
    /// The unified run tool's name, for skills' Rust scripts (`run_skill_script` by default).
    /// In the split style each script is a tool of its own instead, named
    /// `<skill>__<script>` (characters a tool name may not hold written as `_`).
    pub run_name: ToolName,
    /// How long an `async` Rust script may run before it is stopped (a plain function cannot
    /// be stopped and runs to its end).
    pub script_timeout: std::time::Duration,
    /// The rules, as the user wrote them: denied skills vanish from every surface, `ask`
    /// skills wait for the user's answer. Grants are never folded into them.
    pub permissions: Permissions,
    /// The hooks set with [`Settings::with_approval`], [`Settings::with_file_runner`] and
    /// `Settings::with_workdir`; `..Settings::default()` fills it with none.
    pub hooks: Hooks,
}

/// What a host calls out to, set through [`Settings`]' `with_*` methods: how the user is
/// asked, who runs script files, what writes skills to disk.
///
/// ```
/// use std::sync::Arc;
/// use skills_embed::tools::{FileRun, FileRunner, Settings, ToolStyle, Tools};
/// # use skills_embed::{File, Fields, ScriptError, Skill, SkillSet, listing::ListingFormat};
/// # struct Echo;
/// # impl FileRunner for Echo {
/// #     fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> { Ok(run.path.to_owned()) }
/// # }
/// # let skill = Skill::owned(
/// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
/// #     "Run scripts/text.sh.\n".into(),
/// #     vec![File::owned("scripts/text.sh".into(), b"pdftotext \"$1\" -\n".to_vec(), true)],
/// # );
/// # let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown);
/// let with_runner = Settings::default().with_file_runner(Arc::new(Echo));
/// // Other settings with the same hooks: the script file is still a tool of its own.
/// let hooks = with_runner.hooks;
/// let split = Settings { style: ToolStyle::Split, hooks, ..Settings::default() };
/// let definitions = Tools::new(set, split).definitions();
/// let names: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
/// // The split style's three tools, then one for the script file:
/// assert_eq!(names[3..], ["pdf__scripts_text_sh"]);
/// ```
#[derive(Clone, Default)]
pub struct Hooks {
    approval: Option<Approver>,
    file_runner: Option<Arc<dyn FileRunner>>,
    extractor: Option<Extractor>,
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks")
            .field("approval", &self.approval.is_some())
            .field("file_runner", &self.file_runner)
            .field("extracts", &self.extractor.is_some())
            .finish()
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            name: ToolName::known("load_skill"),
            style: ToolStyle::Unified,
            listing_in_description: None,
            max_chars: 12_000,
            max_body_chars: 40_000,
            max_listed_files: 20,
            text_extensions: ["md", "txt", "json", "yaml", "yml"]
                .map(String::from)
                .to_vec(),
            dump_executables: false,
            shape: OutputShape::Brackets,
            run_name: ToolName::known(RUN_SKILL_SCRIPT),
            script_timeout: std::time::Duration::from_secs(30),
            permissions: Permissions::default(),
            hooks: Hooks::default(),
        }
    }
}

impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("name", &self.name)
            .field("style", &self.style)
            .field("listing_in_description", &self.listing_in_description)
            .field("max_chars", &self.max_chars)
            .field("max_body_chars", &self.max_body_chars)
            .field("max_listed_files", &self.max_listed_files)
            .field("text_extensions", &self.text_extensions)
            .field("dump_executables", &self.dump_executables)
            .field("shape", &self.shape)
            .field("run_name", &self.run_name)
            .field("script_timeout", &self.script_timeout)
            .field("permissions", &self.permissions)
            .field("hooks", &self.hooks)
            .finish()
    }
}

impl Settings {
    /// How a host that can wait for the user (the MCP server, the rig tools) asks about a
    /// [`Subject`] under `ask`: `approve(subject)` is awaited, and an `Always` holds for the
    /// skill's content as approved (see [`Grants`](crate::policy::Grants)). Without it such
    /// loads and runs are refused with a message that says why. [`Tools`](super::Tools) and
    /// [`Session`](super::Session) leave the asking to their caller
    /// ([`ToolOutput::approval`](super::ToolOutput::approval), [`Session::answer`](super::Session::answer)).
    ///
    /// ```
    /// use skills_embed::policy::Answer;
    /// use skills_embed::tools::Settings;
    /// // A desktop host would show a dialog here; this one allows once.
    /// let settings = Settings::default().with_approval(|_subject| async { Answer::Once });
    /// # drop(settings);
    /// ```
    pub fn with_approval<F, Fut>(mut self, approve: F) -> Self
    where
        F: Fn(Subject) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Answer> + Send + 'static,
    {
        self.hooks.approval = Some(Arc::new(move |subject| Box::pin(approve(subject))));
        self
    }

    /// Runs the skills' script files (under `scripts/`, or with an executable bit) through
    /// `runner` when the model asks: each becomes a script of the run tool named by its path
    /// (`pdf-forms/scripts/fill.py`), taking `{"argv": [...]}`, under the same permission
    /// rules (`pdf-forms/scripts/*`) and approvals as Rust scripts. See [`FileRunner`].
    ///
    /// ```
    /// use skills_embed::{ScriptError, tools::{FileRun, FileRunner, Settings}};
    /// struct Sandbox;
    /// impl FileRunner for Sandbox {
    ///     fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> {
    ///         Err(ScriptError::Failed(format!("{} is not allowed to run here", run.path)))
    ///     }
    /// }
    /// let settings = Settings::default().with_file_runner(std::sync::Arc::new(Sandbox));
    /// # drop(settings);
    /// ```
    pub fn with_file_runner(mut self, runner: Arc<dyn FileRunner>) -> Self {
        self.hooks.file_runner = Some(runner);
        self
    }

    /// Writes a skill that has scripts under `dir/<skill>/` (the whole skill, executable bits
    /// kept, unchanged skills not rewritten, through the one writer of skill files in `disk`)
    /// when its body is loaded or the listing is made, and tells the model the absolute paths,
    /// so it can run the scripts.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join("my-agent-skills");
    /// let settings = skills_embed::tools::Settings::default().with_workdir(dir);
    /// # drop(settings);
    /// ```
    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    pub fn with_workdir(mut self, dir: impl Into<PathBuf>) -> Self {
        let dir: PathBuf = dir.into();
        self.hooks.extractor = Some(Arc::new(move |skill| {
            crate::disk::extract::extract(skill, &dir)
                .map(|done| done.dir)
                .map_err(Into::into)
        }));
        self
    }

    /// Who asks the user, when a hook was set.
    #[cfg_attr(
        not(any(feature = "mcp", feature = "rig")),
        allow(dead_code, reason = "only hosts ask")
    )]
    pub(crate) fn approval(&self) -> Option<&Approver> {
        self.hooks.approval.as_ref()
    }

    /// Who runs the skills' script files, when the host does.
    pub(crate) fn file_runner(&self) -> Option<&Arc<dyn FileRunner>> {
        self.hooks.file_runner.as_ref()
    }

    /// What writes skills with scripts to disk, when a work folder was set.
    pub(crate) fn extractor(&self) -> Option<&Extractor> {
        self.hooks.extractor.as_ref()
    }
}

/// The unified run tool's default name: it runs a skill's Rust script.
pub(crate) const RUN_SKILL_SCRIPT: &str = "run_skill_script";

/// Which tools the model gets; named `unified` or `split`.
///
/// ```
/// use skills_embed::tools::{Settings, ToolStyle, Tools};
/// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
/// # let pdf = Skill::owned(
/// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
/// #     "Use pdftotext.\n".into(),
/// #     vec![],
/// # );
/// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
/// let style: ToolStyle = "split".parse()?;
/// let tools = Tools::new(set, Settings { style, ..Settings::default() });
/// let names: Vec<String> = tools.definitions().into_iter().map(|d| d.name).collect();
/// assert_eq!(names, ["read_skill", "read_skill_resource", "load_skill_chunk"]);
/// assert!(tools.handle("read_skill", r#"{"skill":"pdf"}"#).text.contains("Use pdftotext."));
/// # Ok::<(), strum::ParseError>(())
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum ToolStyle {
    /// One tool for bodies, resources, sections and chunks.
    #[default]
    Unified,
    /// `read_skill`, `read_skill_resource` and `load_skill_chunk`.
    Split,
}

/// How a loaded file is framed for the model; named `brackets` or `xml`.
///
/// ```
/// use skills_embed::tools::{OutputShape, Settings, Tools};
/// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
/// # let pdf = Skill::owned(
/// #     Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() },
/// #     "Use pdftotext.\n".into(),
/// #     vec![],
/// # );
/// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
/// let shape: OutputShape = "xml".parse()?;
/// let tools = Tools::new(set, Settings { shape, ..Settings::default() });
/// let out = tools.handle("load_skill", r#"{"skill":"pdf"}"#);
/// let head = r#"<skill_content name="pdf" source="disk" path="SKILL.md""#;
/// assert!(out.text.starts_with(head), "{}", out.text);
/// assert!(out.text.contains("Use pdftotext.\n</skill_content>"), "{}", out.text);
/// # Ok::<(), strum::ParseError>(())
/// ```
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
    strum::VariantNames,
)]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum OutputShape {
    /// Bracket lines, then the content:
    ///
    /// ```text
    /// [Skill: pdf-forms | source=embedded]
    /// [Skill Path: SKILL.md]
    /// [Load Report: sha256=3f2a… truncated=false bytes_read=3081 chars_returned=3081]
    ///
    /// # Filling PDF forms
    /// …
    /// ```
    #[default]
    Brackets,
    /// One XML element around the content:
    ///
    /// ```text
    /// <skill_content name="pdf-forms" source="embedded" path="SKILL.md" sha256="3f2a…" truncated="false" bytes_read="3081" chars_returned="3081">
    /// # Filling PDF forms
    /// …
    /// </skill_content>
    /// ```
    Xml,
}

/// A tool's name as a host sets it ([`Settings::name`], [`Settings::run_name`], the
/// `--tool-name` flag), checked once when it is parsed: 1 to 64 characters, each an ASCII letter, a
/// digit, `_` or `-`.
///
/// That is what every API the tools are offered to accepts: OpenAI's and Anthropic's function
/// names (`^[a-zA-Z0-9_-]{1,64}$`) and MCP's tool names (SEP-986: 1 to 128 of those and `.`);
/// an empty name, a newline or a space would be refused by a provider, or break the
/// instructions that name the tool.
///
/// ```
/// use skills_embed::tools::{Settings, ToolName};
/// let config = Settings { name: "skills_load".parse()?, ..Settings::default() };
/// assert_eq!(config.name, "skills_load");
///
/// let err = "load\nskill".parse::<ToolName>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "Tool name \"load\\nskill\" has '\\n' at byte 4. A tool name is 1 to 64 characters, each \
///      an ASCII letter, a digit, '_' or '-' (what MCP clients and the OpenAI and Anthropic APIs \
///      all accept), like \"load_skill\"."
/// );
/// assert!("".parse::<ToolName>().unwrap_err().to_string().starts_with("Tool name \"\" is empty."));
/// # Ok::<(), skills_embed::tools::ToolNameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ToolName(String);

/// The longest [`ToolName`], in characters.
const MAX_TOOL_NAME: usize = 64;

impl ToolName {
    /// Checks `name`: 1 to 64 characters of `A-Z`, `a-z`, `0-9`, `_` and `-`, else a
    /// [`ToolNameError`] saying what is wrong. Public as [`str::parse`].
    fn check(name: String) -> Result<Self, ToolNameError> {
        let problem = if name.is_empty() {
            Some("is empty".to_owned())
        } else if let Some((at, c)) = name
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        {
            Some(format!("has {c:?} at byte {at}"))
        } else if name.len() > MAX_TOOL_NAME {
            Some(format!("is {} characters long", name.len()))
        } else {
            None
        };
        match problem {
            Some(problem) => Err(ToolNameError {
                name: text::echo(&name),
                problem,
            }),
            None => Ok(ToolName(name)),
        }
    }

    /// One of this crate's own names, known to pass.
    pub(crate) fn known(name: &'static str) -> Self {
        debug_assert!(ToolName::check(name.to_owned()).is_ok(), "{name}");
        ToolName(name.to_owned())
    }
}

impl std::str::FromStr for ToolName {
    type Err = ToolNameError;
    fn from_str(name: &str) -> Result<Self, ToolNameError> {
        ToolName::check(name.to_owned())
    }
}

impl std::ops::Deref for ToolName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ToolName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for ToolName {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ToolName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<ToolName> for str {
    fn eq(&self, other: &ToolName) -> bool {
        self == other.0
    }
}

impl PartialEq<ToolName> for &str {
    fn eq(&self, other: &ToolName) -> bool {
        *self == other.0
    }
}

/// A name refused as a [`ToolName`]: the name (clipped) and what is wrong with it.
///
/// ```
/// use skills_embed::tools::{ToolName, ToolNameError};
/// let err: ToolNameError = "load skill".parse::<ToolName>().unwrap_err();
/// assert_eq!((err.name.as_str(), err.problem.as_str()), ("load skill", "has ' ' at byte 4"));
/// let err = "x".repeat(65).parse::<ToolName>().unwrap_err();
/// assert_eq!(err.problem, "is 65 characters long");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Tool name {} {problem}. A tool name is 1 to 64 characters, each an ASCII letter, a digit, \
     '_' or '-' (what MCP clients and the OpenAI and Anthropic APIs all accept), like \"load_skill\".",
    text::json_string(name)
)]
#[non_exhaustive]
pub struct ToolNameError {
    /// The name given, clipped to 100 characters.
    pub name: String,
    /// What is wrong: `is empty`, `has '\n' at byte 4`, `is 65 characters long`.
    pub problem: String,
}
