//! The load tool as a [rig](https://docs.rs/rig-core) tool (rig-core 0.44).
//!
//! - [`SkillTool`] is a typed [`rig_core::tool::Tool`] named `load_skill`: add it to an agent
//!   with `.tool(SkillTool::new(&SKILLS, Settings::default()))`.
//! - [`DynamicSkillTools`] builds [`DynamicTool`]s for everything else: another tool name, or
//!   the split tools (`read_skill`, `read_skill_resource`, `load_skill_chunk`). Add them with
//!   `.dynamic_tools(...)`.
//!
//! Both take a [`Source`] (the embedded set, a set built at run time, an
//! [overlay](crate::disk::Overlay) of skills on disk, whose current snapshot answers every
//! call) and the [`Settings`] every host takes.
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
//! use skills_embed_runtime::tools::Settings;
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
//! let tool = SkillTool::new(&*SKILLS, Settings::default());
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

use rig_core::message::ToolName;
use rig_core::tool::{
    ContextValue, DynamicTool, ToolContext, ToolErrorKind, ToolExecutionError, ToolOutput,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::host::Host;
use crate::model::file::hex;
use crate::policy::Access;
use crate::tools::{Call, Settings, Snapshot, Source, ToolStyle, Tools};

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

/// Answers one call of tool `name` on `set` with `host`'s settings, decided once, asking the
/// user when the decision says so (through the host core, which records the answer).
async fn answer(
    host: &Host,
    set: &Snapshot,
    name: &str,
    arguments: &Value,
    context: &mut ToolContext,
) -> Result<ToolOutput, SkillToolError> {
    let arguments = arguments.to_string();
    let tools = host.tools(set);
    let call = tools
        .parse(name, &arguments)
        .map_err(|e| SkillToolError::new(ToolErrorKind::InvalidArgs, e.to_string()))?;
    let resolved = tools
        .resolve(&call)
        .map_err(|e| SkillToolError::new(ToolErrorKind::NotFound, e.to_string()))?;
    if resolved.access == Access::Ask {
        // Asked about the skill as it is in `set`: an `Always` holds for that content, and a
        // later snapshot where it changed asks again.
        host.approve(resolved.skill, &resolved.subject())
            .await
            .map_err(|refusal| SkillToolError::refused(refusal.to_string()))?;
    }
    let out = tools.answer(&resolved, &call);
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

/// The unified load tool, `load_skill`, as a typed rig tool.
///
/// Its parameters are [`Tools::definitions`]' JSON Schema, so `skill` is the `enum` of the
/// skills the model may load. The arguments reach the handler as the model sent them, so a
/// wrong one is answered with what was wrong and what is valid. The tool is always the
/// unified `load_skill` (whatever [`Settings::name`] and [`Settings::style`] say): for another
/// name or the split tools, use [`DynamicSkillTools`].
///
/// ```
/// use rig_core::tool::Tool;
/// use skills_embed_runtime::policy::{Answer, Permissions};
/// use skills_embed_runtime::rig::SkillTool;
/// use skills_embed_runtime::tools::Settings;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
///
/// let settings = Settings { permissions: Permissions::new().ask("deploy-*").deny("internal-*"), ..Settings::default() }
///     .with_approval(|subject| async move { if subject.skill == "deploy-docs" { Answer::Once } else { Answer::Reject } });
/// let tool = SkillTool::new(&SKILLS, settings);
/// assert_eq!(<SkillTool as Tool>::NAME, "load_skill");
/// assert_eq!(tool.parameters()["properties"]["skill"]["type"], "string");
/// let preamble = format!("Load a skill before a task it covers:\n{}", tool.tools().listing(&Default::default()));
/// # drop(preamble);
/// ```
///
/// A typed tool is registered once and offered on every turn, so it cannot withdraw itself when
/// no skill is visible to the model: check that [`Tools::definitions`] of [`SkillTool::tools`] is not empty before
/// adding it, or use [`DynamicSkillTools`], whose [`tools`](DynamicSkillTools::tools) are then
/// none.
///
/// Added to a rig-agent agent:
///
/// ```ignore
/// let agent = rig_agent::AgentBuilder::new(model)
///     .preamble(&format!("You can load skills.\n{}", SKILLS.summary()))
///     .tool(SkillTool::new(&SKILLS, Settings::default()))
///     .build();
/// ```
#[derive(Debug, Clone)]
pub struct SkillTool {
    source: Source,
    host: Host,
}

impl SkillTool {
    /// The tool over `source`, served with `settings`.
    pub fn new(source: impl Into<Source>, settings: Settings) -> Self {
        let settings = Settings {
            name: crate::tools::ToolName::known(<Self as rig_core::tool::Tool>::NAME),
            style: ToolStyle::Unified,
            ..settings
        };
        SkillTool {
            source: source.into(),
            host: Host::new(settings, "agent"),
        }
    }

    /// The [`Tools`] this tool answers with now (for the listing in the preamble, say).
    pub fn tools(&self) -> Tools {
        self.host.tools(&self.source.snapshot())
    }
}

impl rig_core::tool::Tool for SkillTool {
    const NAME: &'static str = "load_skill";
    type Args = Value;
    type Output = ToolOutput;
    type Error = SkillToolError;

    fn description(&self) -> String {
        self.tools()
            .all_definitions()
            .into_iter()
            .next()
            .map(|d| d.description)
            .unwrap_or_default()
    }

    fn parameters(&self) -> Value {
        self.tools()
            .all_definitions()
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
        answer(
            &self.host,
            &self.source.snapshot(),
            Self::NAME,
            &args,
            context,
        )
        .await
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
/// use skills_embed_runtime::tools::{Settings, ToolStyle};
/// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat};
///
/// // `skills!` generates a static set; this one is built once at run time.
/// static SKILLS: std::sync::LazyLock<SkillSet> = std::sync::LazyLock::new(|| {
///     let fields = Fields { name: "pdf".into(), description: "Read PDF files.".into(), ..Fields::default() };
///     SkillSet::from_skills(vec![Skill::owned(fields, "Use pdftotext.\n".into(), vec![])], &ListingFormat::Markdown)
/// });
///
/// let split = Settings { style: ToolStyle::Split, ..Settings::default() };
/// let tools = DynamicSkillTools::new(&*SKILLS, split).tools();
/// let names: Vec<String> = tools.iter().map(|t| t.name().to_string()).collect();
/// assert_eq!(names, ["read_skill", "read_skill_resource", "load_skill_chunk"]);
///
/// // No skill the model may see: no tool to offer (and no listing to put in the preamble).
/// static NONE: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// assert!(DynamicSkillTools::new(&NONE, Settings::default()).tools().is_empty());
/// ```
///
/// Over an overlay of skills on disk (feature `fs`), added to a rig-agent agent:
///
/// ```ignore
/// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
/// let agent = rig_agent::AgentBuilder::new(model)
///     .dynamic_tools(DynamicSkillTools::new(Arc::clone(&overlay), Settings::default()).tools())
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
            .field("source", &self.source)
            .field("host", &self.host)
            .finish()
    }
}

impl DynamicSkillTools {
    /// Tools over `source`, served with `settings`. Tools built from one value share its
    /// answers: an `Always` holds for every tool built from it, for the skill's content as
    /// approved (when a reload changes the skill, the next load asks again).
    pub fn new(source: impl Into<Source>, settings: Settings) -> Self {
        DynamicSkillTools {
            source: source.into(),
            host: Host::new(settings, "agent"),
        }
    }

    /// The tools, with the schema of the set as it is now; none when no skill is visible to
    /// the model (every skill denied, or none the model may invoke), since a tool whose
    /// `skill` enum is empty could never be called. Build them again after a reload.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use skills_embed_runtime::rig::DynamicSkillTools;
    /// use skills_embed_runtime::tools::{Settings, Source};
    /// use skills_embed_runtime::{Fields, Skill, SkillSet, listing::ListingFormat, policy::Permissions};
    /// let pdf = || {
    ///     let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    ///     Arc::new(SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown))
    /// };
    /// // No visible skill, no tool.
    /// let denied = Settings { permissions: Permissions::new().deny("*"), ..Settings::default() };
    /// assert!(DynamicSkillTools::new(pdf(), denied).tools().is_empty());
    ///
    /// // A set that changes: tools built again see it.
    /// let current = Arc::new(Mutex::new(Arc::new(SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown))));
    /// let live = Source::live({
    ///     let current = Arc::clone(&current);
    ///     move || Arc::clone(&current.lock().unwrap())
    /// });
    /// let tools = DynamicSkillTools::new(live, Settings::default());
    /// assert!(tools.tools().is_empty());
    /// *current.lock().unwrap() = pdf();
    /// assert_eq!(tools.tools()[0].name().to_string(), "load_skill");
    /// ```
    pub fn tools(&self) -> Vec<DynamicTool> {
        self.host
            .tools(&self.source.snapshot())
            .definitions()
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
