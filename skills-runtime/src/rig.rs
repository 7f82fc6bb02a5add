//! The load tool as a [rig](https://docs.rs/rig-core) tool (rig-core 0.44).
//!
//! - [`SkillTool`] is a typed [`rig_core::tool::Tool`] named `load_skill` over a set that lives
//!   as long as the program (what `skills!` generates): add it to an agent with
//!   `.tool(SkillTool::new(&SKILLS))`.
//! - [`DynamicSkillTools`] builds [`DynamicTool`]s for everything else: a set that changes
//!   (an [overlay](crate::disk::Overlay) of skills on disk; every call answers from its current
//!   snapshot), another tool name, or the split tools (`read_skill`, `read_skill_resource`,
//!   `load_skill_chunk`). Add them with `.dynamic_tools(...)`.
//!
//! Both answer exactly what [`Tools::handle`] answers, so the model gets the same text as in
//! any other host. A failed call (an unknown skill or file, bad arguments) is a
//! [`ToolExecutionError`] whose model-visible text is the handler's, which says what exists;
//! a skill under `ask` is loaded only when the approval hook says so, and refused with the
//! reason otherwise. Each successful load publishes a [`SkillLoad`] in the tool context's
//! result metadata (host-only, never shown to the model) for logs and sessions.
//!
//! ```
//! use rig_core::tool::{ErasedTool, ToolContext};
//! use skills_embed_runtime::rig::{SkillLoad, SkillTool};
//! use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat};
//!
//! // `skills!` generates a static set; this one is built once at run time.
//! static SKILLS: std::sync::LazyLock<SkillSet> = std::sync::LazyLock::new(|| {
//!     let fields = Fields { name: "pdf".into(), description: "Read PDF files.".into(), ..Fields::default() };
//!     SkillSet::from_skills(vec![Skill::owned(fields, "Use pdftotext.\n".into(), vec![])], &ListingFormat::Markdown)
//! });
//!
//! # fn block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     let mut f = std::pin::pin!(f);
//! #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
//! # }
//! # block_on(async {
//! let tool = SkillTool::new(&*SKILLS);
//! // What an agent does with a tool call from the model:
//! let mut context = ToolContext::default();
//! let result = tool.execute(r#"{"skill": "pdf"}"#.into(), &mut context).await;
//! assert!(result.is_success());
//! assert!(result.output().as_text().unwrap().contains("Use pdftotext."));
//! let load: SkillLoad = context.result().unwrap().unwrap();
//! assert_eq!(load.skill, "pdf");
//!
//! let miss = tool.execute(r#"{"skill": "pfd"}"#.into(), &mut ToolContext::default()).await;
//! assert!(miss.is_error());
//! assert!(miss.output().as_text().unwrap().contains(r#"Did you mean "pdf"?"#));
//! # });
//! ```

/// The rig-core release this module is built on (0.44), for naming its types without a second
/// dependency that could drift to another version.
///
/// ```
/// use skills_embed_runtime::rig::rig_core::tool::Tool;
/// assert_eq!(<skills_embed_runtime::rig::SkillTool as Tool>::NAME, "load_skill");
/// ```
#[doc(no_inline)]
pub use rig_core;

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use rig_core::message::ToolName;
use rig_core::tool::{
    ContextValue, DynamicTool, ToolContext, ToolErrorKind, ToolExecutionError, ToolOutput,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::host::{Host, Source};
use crate::model::file::hex;
use crate::model::id::Dynamic;
use crate::model::set::SkillSet;
use crate::policy::{Answer, Permissions};
use crate::tools::{Call, CallError, Tools};
use crate::tools::{ToolConfig, ToolStyle};

/// What one successful load returned, published in the tool context's result metadata
/// (`context.result::<SkillLoad>()` after the call; the model never sees it).
///
/// ```
/// use rig_core::tool::ContextValue;
/// assert_eq!(<skills_embed_runtime::rig::SkillLoad as ContextValue>::KEY, "skills.load");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillLoad {
    /// The skill.
    pub skill: String,
    /// The file (`SKILL.md` for the body), or `#id` for a chunk.
    pub path: String,
    /// `embedded` or `disk`.
    pub source: String,
    /// The SHA-256 digest of the whole file, `sha256:` and 64 hex digits.
    pub sha256: String,
    /// Whether part of the file was left out.
    pub truncated: bool,
    /// Where to continue, when the file was cut.
    pub next_offset: Option<usize>,
}

impl ContextValue for SkillLoad {
    const KEY: &'static str = "skills.load";
}

/// The error of a failed call: the text is written for the model (what was wrong, what exists).
///
/// ```
/// let error = skills_embed_runtime::rig::SkillToolError::new(
///     rig_core::tool::ToolErrorKind::NotFound,
///     "Skill \"pfd\" not found. Available skills: pdf.",
/// );
/// assert!(error.to_string().starts_with("Skill \"pfd\" not found."));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillToolError {
    kind: ToolErrorKind,
    message: String,
    refused: bool,
}

impl SkillToolError {
    /// An error of `kind` whose message the model sees.
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        SkillToolError {
            kind,
            message: message.into(),
            refused: false,
        }
    }

    fn refused(message: impl Into<String>) -> Self {
        SkillToolError {
            kind: ToolErrorKind::PermissionDenied,
            message: message.into(),
            refused: true,
        }
    }

    /// The kind rig reports it as: bad arguments, a skill or file that does not exist, or a
    /// load the user did not approve.
    ///
    /// ```
    /// use rig_core::tool::ToolErrorKind;
    /// let error = skills_embed_runtime::rig::SkillToolError::new(ToolErrorKind::InvalidArgs, "Missing \"skill\".");
    /// assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    /// ```
    pub fn kind(&self) -> ToolErrorKind {
        self.kind
    }

    /// Whether the tool declined the load (an `ask` skill the user did not approve).
    ///
    /// ```
    /// use rig_core::tool::ToolErrorKind;
    /// let error = skills_embed_runtime::rig::SkillToolError::new(ToolErrorKind::NotFound, "No such file.");
    /// assert!(!error.is_refusal());
    /// ```
    pub fn is_refusal(&self) -> bool {
        self.refused
    }
}

impl fmt::Display for SkillToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SkillToolError {}

impl From<SkillToolError> for ToolExecutionError {
    fn from(error: SkillToolError) -> Self {
        // Explicit constructors show the message to the model: ours says what exists.
        if error.refused {
            ToolExecutionError::refused(error.message)
        } else {
            ToolExecutionError::new(error.kind, error.message)
        }
    }
}

/// Answers one call of tool `name` on `set` with `host`'s settings, asking the user when a
/// skill needs it (through the host core, which records the answer).
async fn answer<Id>(
    host: &Host,
    set: &SkillSet<Id>,
    name: &str,
    arguments: &Value,
    context: &mut ToolContext,
) -> Result<ToolOutput, SkillToolError> {
    let arguments = arguments.to_string();
    let tools = host.tools(set);
    let call = tools
        .parse(name, &arguments)
        .map_err(|e: CallError| SkillToolError::new(ToolErrorKind::InvalidArgs, e.to_string()))?;
    let found = tools
        .lookup(call.skill())
        .map_err(|e| SkillToolError::new(ToolErrorKind::NotFound, e.to_string()))?;
    let mut out = tools.call(&call);
    if let Some(subject) = &out.approval {
        // Asked about the skill as it is in `set`: an `Always` holds for that content, and a
        // later snapshot where it changed asks again.
        host.approve_subject(found, subject)
            .await
            .map_err(SkillToolError::refused)?;
        out = tools.call_allowed(found, &call);
    }
    if out.is_error {
        // A script that ran and failed (its own error, a panic, a timeout, arguments that do
        // not fit) found what it was asked for: its failure is not a miss.
        let kind = match &call {
            Call::Run { .. } if out.text.starts_with("[Script: ") => ToolErrorKind::Other,
            _ => ToolErrorKind::NotFound,
        };
        return Err(SkillToolError::new(kind, out.text));
    }
    if let Some(report) = &out.report {
        let load = SkillLoad {
            skill: report.skill.clone(),
            path: report.path.clone(),
            source: report.source.to_owned(),
            sha256: format!("sha256:{}", hex(&report.sha256)),
            truncated: report.truncated,
            next_offset: report.next_offset,
        };
        // Metadata for the host: a value that cannot be stored changes nothing for the model.
        let _ = context.insert_result(load);
    }
    Ok(ToolOutput::text(out.text))
}

/// The unified load tool, `load_skill`, as a typed rig tool over a set that lives as long as
/// the program (the `SKILLS` that `skills!` generates).
///
/// Its parameters are [`Tools::definitions`]' JSON Schema, so `skill` is the `enum` of the
/// skills the model may load. The arguments reach the handler as the model sent them, so a
/// wrong one is answered with what was wrong and what is valid.
///
/// ```
/// use rig_core::tool::Tool;
/// use skills_embed_runtime::policy::{Answer, Permissions};
/// use skills_embed_runtime::rig::SkillTool;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
///
/// let tool = SkillTool::new(&SKILLS)
///     .with_permissions(Permissions::new().ask("deploy-*").deny("internal-*"))
///     .with_approval(|skill| async move { if skill == "deploy-docs" { Answer::Once } else { Answer::Reject } });
/// assert_eq!(<SkillTool as Tool>::NAME, "load_skill");
/// assert_eq!(tool.parameters()["properties"]["skill"]["type"], "string");
/// ```
///
/// A typed tool is registered once and offered on every turn, so it cannot withdraw itself when
/// no skill is visible to the model: check [`Tools::is_empty`] on [`SkillTool::tools`] before
/// adding it, or use [`DynamicSkillTools`], whose [`tools`](DynamicSkillTools::tools) are then
/// none.
///
/// Added to a rig-agent agent:
///
/// ```ignore
/// let agent = rig_agent::AgentBuilder::new(model)
///     .preamble(&format!("You can load skills.\n{}", SKILLS.summary()))
///     .tool(SkillTool::new(&SKILLS))
///     .build();
/// ```
#[derive(Debug, Clone)]
pub struct SkillTool<Id: 'static = Dynamic> {
    set: &'static SkillSet<Id>,
    host: Host,
}

impl<Id> SkillTool<Id> {
    /// The tool over `set`, with no permission rules.
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tool = skills_embed_runtime::rig::SkillTool::new(&SKILLS);
    /// # drop(tool);
    /// ```
    pub fn new(set: &'static SkillSet<Id>) -> Self {
        SkillTool {
            set,
            host: Host::new("agent"),
        }
    }

    /// Sets the configuration (limits, output shape, ...). The tool is always the unified
    /// `load_skill`: for another name or the split tools, use [`DynamicSkillTools`].
    ///
    /// ```
    /// use skills_embed_runtime::tools::{OutputShape, ToolConfig};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tool = skills_embed_runtime::rig::SkillTool::new(&SKILLS)
    ///     .with_config(ToolConfig { shape: OutputShape::Xml, max_chars: 4_000, ..ToolConfig::default() });
    /// assert_eq!(tool.tools().config().name, "load_skill");
    /// ```
    pub fn with_config(mut self, config: ToolConfig) -> Self {
        self.host.config = Arc::new(ToolConfig {
            name: crate::tools::ToolName::known(<Self as rig_core::tool::Tool>::NAME),
            style: ToolStyle::Unified,
            ..config
        });
        self
    }

    /// Sets the permission rules: denied skills vanish from the schema and answer like
    /// unknown ones.
    ///
    /// ```
    /// use skills_embed_runtime::policy::Permissions;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tool = skills_embed_runtime::rig::SkillTool::new(&SKILLS)
    ///     .with_permissions(Permissions::new().deny("internal-*"));
    /// # drop(tool);
    /// ```
    pub fn with_permissions(mut self, permissions: Permissions) -> Self {
        self.host.permissions = Arc::new(permissions);
        self
    }

    /// How a skill under `ask` gets the user's answer; without it such loads are refused.
    /// `Always` holds for this tool value and its clones, for the skill's content as approved
    /// (see [`Grants`](crate::policy::Grants)): a changed skill is asked for again.
    ///
    /// ```
    /// use skills_embed_runtime::policy::{Answer, Permissions};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tool = skills_embed_runtime::rig::SkillTool::new(&SKILLS)
    ///     .with_permissions(Permissions::new().ask("deploy"))
    ///     .with_approval(|_skill| async { Answer::Once });
    /// # drop(tool);
    /// ```
    pub fn with_approval<F, Fut>(mut self, approve: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Answer> + Send + 'static,
    {
        self.host.set_approval(approve);
        self
    }

    /// Writes skills with scripts under `dir` when loaded (see [`Tools::with_workdir`]).
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tool = skills_embed_runtime::rig::SkillTool::new(&SKILLS)
    ///     .with_workdir(std::env::temp_dir().join("agent-skills"));
    /// # drop(tool);
    /// ```
    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    pub fn with_workdir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.host.workdir = Some(dir.into());
        self
    }

    /// The [`Tools`] this tool answers with (for the listing in the preamble, say).
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tool = skills_embed_runtime::rig::SkillTool::new(&SKILLS);
    /// let preamble = format!("Load a skill before a task it covers:\n{}", tool.tools().listing(&Default::default()));
    /// # drop(preamble);
    /// ```
    pub fn tools(&self) -> Tools<'static, Id> {
        self.host.tools(self.set)
    }
}

impl<Id: 'static> rig_core::tool::Tool for SkillTool<Id> {
    const NAME: &'static str = "load_skill";
    type Args = Value;
    type Output = ToolOutput;
    type Error = SkillToolError;

    fn description(&self) -> String {
        self.tools()
            .definitions()
            .into_iter()
            .next()
            .map(|d| d.description)
            .unwrap_or_default()
    }

    fn parameters(&self) -> Value {
        self.tools()
            .definitions()
            .first()
            .map(|d| d.json_schema())
            .unwrap_or_default()
    }

    fn map_error(&self, error: SkillToolError) -> ToolExecutionError {
        error.into()
    }

    async fn call(
        &self,
        context: &mut ToolContext,
        args: Value,
    ) -> Result<ToolOutput, SkillToolError> {
        answer(&self.host, self.set, Self::NAME, &args, context).await
    }
}

/// The skill tools as rig [`DynamicTool`]s: any tool name or style, and sets that change.
///
/// [`DynamicSkillTools::tools`] builds one tool per definition (one unified tool, or the three
/// split ones), and none while no skill is visible to the model. Every call reads the source's current snapshot, so a skill added to an overlay
/// is loadable at once; the `enum` in the tools' schemas is the one of the set when they were
/// built, so build them again (and re-register them) after a reload that added or removed
/// skills, for the model to see the change.
///
/// ```
/// use skills_embed_runtime::rig::DynamicSkillTools;
/// use skills_embed_runtime::tools::{ToolConfig, ToolStyle};
/// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat};
///
/// // `skills!` generates a static set; this one is built once at run time.
/// static SKILLS: std::sync::LazyLock<SkillSet> = std::sync::LazyLock::new(|| {
///     let fields = Fields { name: "pdf".into(), description: "Read PDF files.".into(), ..Fields::default() };
///     SkillSet::from_skills(vec![Skill::owned(fields, "Use pdftotext.\n".into(), vec![])], &ListingFormat::Markdown)
/// });
///
/// let tools = DynamicSkillTools::new(&*SKILLS)
///     .with_config(ToolConfig { style: ToolStyle::Split, ..ToolConfig::default() })
///     .tools();
/// let names: Vec<String> = tools.iter().map(|t| t.name().to_string()).collect();
/// assert_eq!(names, ["read_skill", "read_skill_resource", "load_skill_chunk"]);
///
/// // No skill the model may see: no tool to offer (and no listing to put in the preamble).
/// static NONE: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// assert!(DynamicSkillTools::new(&NONE).tools().is_empty());
/// ```
///
/// Over an overlay of skills on disk (feature `fs`), added to a rig-agent agent:
///
/// ```ignore
/// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
/// let agent = rig_agent::AgentBuilder::new(model)
///     .dynamic_tools(DynamicSkillTools::from_overlay(Arc::clone(&overlay)).tools())
///     .build();
/// ```
#[derive(Clone)]
pub struct DynamicSkillTools {
    source: Source,
    host: Host,
}

impl fmt::Debug for DynamicSkillTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicSkillTools")
            .field("live", &self.source.is_live())
            .field("host", &self.host)
            .finish()
    }
}

impl DynamicSkillTools {
    /// Tools over a set that lives as long as the program (what `skills!` generates).
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tools = skills_embed_runtime::rig::DynamicSkillTools::new(&SKILLS).tools();
    /// // This set is empty: nothing to load, so no tool.
    /// assert!(tools.is_empty());
    /// ```
    pub fn new<Id>(set: &'static SkillSet<Id>) -> Self {
        Self::from_source(Source::embedded(set))
    }

    /// Tools over an overlay of skills on disk (feature `fs`), each call answered from the
    /// overlay's snapshot at that moment: a reload is seen by the next call.
    ///
    /// ```no_run
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// use skills_embed_runtime::{disk::{Discovery, Overlay}, rig::DynamicSkillTools};
    /// let overlay = std::sync::Arc::new(Overlay::new(&SKILLS, Discovery::default()));
    /// let source = DynamicSkillTools::from_overlay(overlay.clone());
    /// overlay.reload();
    /// let rebuilt = source.tools(); // the schema of the reloaded set
    /// ```
    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    pub fn from_overlay<Id: Send + Sync + 'static>(overlay: Arc<crate::disk::Overlay<Id>>) -> Self {
        Self::live(move || overlay.snapshot())
    }

    /// Tools that answer every call from `snapshot()`, called once per call (and once by
    /// [`DynamicSkillTools::tools`], for the schema).
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, rig::DynamicSkillTools};
    /// let current = Arc::new(Mutex::new(Arc::new(SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown))));
    /// let tools = DynamicSkillTools::live({
    ///     let current = Arc::clone(&current);
    ///     move || Arc::clone(&current.lock().unwrap())
    /// });
    /// assert!(tools.tools().is_empty());
    /// // A skill arrives: tools built again offer the load tool.
    /// let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    /// *current.lock().unwrap() = Arc::new(SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown));
    /// assert_eq!(tools.tools()[0].name().to_string(), "load_skill");
    /// ```
    pub fn live(snapshot: impl Fn() -> Arc<SkillSet<Dynamic>> + Send + Sync + 'static) -> Self {
        Self::from_source(Source::Live(Arc::new(snapshot)))
    }

    /// Tools over a set built at run time, shared with the caller.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, rig::DynamicSkillTools};
    /// let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    /// let set = Arc::new(SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown));
    /// assert_eq!(DynamicSkillTools::from_shared(set).tools().len(), 1);
    /// ```
    pub fn from_shared(set: Arc<SkillSet<Dynamic>>) -> Self {
        Self::from_source(Source::Fixed(set))
    }

    fn from_source(source: Source) -> Self {
        DynamicSkillTools {
            source,
            host: Host::new("agent"),
        }
    }

    /// Sets the configuration: the tool name, unified or split, limits, output shape.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, tools::ToolConfig};
    /// let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    /// let set = Arc::new(SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown));
    /// let tools = skills_embed_runtime::rig::DynamicSkillTools::from_shared(set)
    ///     .with_config(ToolConfig { name: "open_skill".parse().unwrap(), ..ToolConfig::default() })
    ///     .tools();
    /// assert_eq!(tools[0].name().to_string(), "open_skill");
    /// ```
    pub fn with_config(mut self, config: ToolConfig) -> Self {
        self.host.config = Arc::new(config);
        self
    }

    /// Writes skills with scripts under `dir` when loaded, and tells the model where, so it
    /// can run them (see [`Tools::with_workdir`]). Tools built from one value share the folder.
    ///
    /// ```
    /// use skills_embed_runtime::rig::DynamicSkillTools;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let dir = std::env::temp_dir().join("agent-skills");
    /// assert!(DynamicSkillTools::new(&SKILLS).with_workdir(&dir).tools().is_empty());
    /// ```
    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    pub fn with_workdir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.host.workdir = Some(dir.into());
        self
    }

    /// Runs the skills' script files through `runner` when the model asks (see
    /// [`Tools::with_file_runner`]): each becomes a script of the run tool, under the same
    /// rules and approvals as Rust scripts.
    pub fn with_file_runner(mut self, runner: Arc<dyn crate::tools::FileRunner>) -> Self {
        self.host.file_runner = Some(runner);
        self
    }

    /// Sets the permission rules: denied skills leave the schema, and with none left to show
    /// there is no tool at all.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, policy::Permissions};
    /// let fields = Fields { name: "internal-ops".into(), description: "Ops.".into(), ..Fields::default() };
    /// let set = Arc::new(SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown));
    /// let tools = skills_embed_runtime::rig::DynamicSkillTools::from_shared(set)
    ///     .with_permissions(Permissions::parse("deny internal-*")?);
    /// assert!(tools.tools().is_empty());
    /// # Ok::<(), skills_embed_runtime::policy::PermissionParseError>(())
    /// ```
    pub fn with_permissions(mut self, permissions: Permissions) -> Self {
        self.host.permissions = Arc::new(permissions);
        self
    }

    /// How a skill under `ask` gets the user's answer; without it such loads are refused.
    /// `Always` holds for every tool built from this value, for the skill's content as
    /// approved: when a reload changes the skill, the next load asks again (see
    /// [`Grants`](crate::policy::Grants)).
    ///
    /// ```
    /// use skills_embed_runtime::policy::Answer;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let tools = skills_embed_runtime::rig::DynamicSkillTools::new(&SKILLS)
    ///     .with_approval(|skill| async move { if skill.starts_with("docs-") { Answer::Always } else { Answer::Reject } });
    /// # drop(tools);
    /// ```
    pub fn with_approval<F, Fut>(mut self, approve: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Answer> + Send + 'static,
    {
        self.host.set_approval(approve);
        self
    }

    /// The tools, with the schema of the set as it is now; none when no skill is visible to
    /// the model (every skill denied, or none the model may invoke), since a tool whose
    /// `skill` enum is empty could never be called. Build them again after a reload.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed_runtime::rig::DynamicSkillTools;
    /// use skills_embed_runtime::tools::{ToolConfig, ToolStyle};
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, policy::Permissions};
    /// let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    /// let set = Arc::new(SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown));
    /// let split = DynamicSkillTools::from_shared(Arc::clone(&set))
    ///     .with_config(ToolConfig { style: ToolStyle::Split, ..ToolConfig::default() })
    ///     .tools();
    /// assert_eq!(split.len(), 3);
    /// // No visible skill, no tool.
    /// let denied = DynamicSkillTools::from_shared(set).with_permissions(Permissions::new().deny("*"));
    /// assert!(denied.tools().is_empty());
    /// ```
    pub fn tools(&self) -> Vec<DynamicTool> {
        let set = self.source.snapshot();
        self.host
            .tools(&set)
            .offered()
            .into_iter()
            .filter_map(|definition| {
                let name = ToolName::new(definition.name.clone()).ok()?;
                let source = self.source.clone();
                let host = self.host.clone();
                let tool_name = definition.name.clone();
                Some(DynamicTool::new_with_context(
                    name,
                    definition.description.clone(),
                    definition.json_schema(),
                    move |context: &mut ToolContext, arguments: Value| {
                        let set = source.snapshot();
                        let host = host.clone();
                        let tool_name = tool_name.clone();
                        Box::pin(async move {
                            answer(&host, &set, &tool_name, &arguments, context)
                                .await
                                .map_err(ToolExecutionError::from)
                        })
                    },
                ))
            })
            .collect()
    }
}
