//! The skill tools as [rig](https://docs.rs/rig-core) tools (rig-core 0.44).
//!
//! [`SkillTools`] is the one entry point: `SkillTools::new(source, settings).tools()` gives
//! rig [`DynamicTool`]s, one per tool the [`Settings`] describe (the unified `load_skill`, or
//! the split `read_skill`, `read_skill_resource`, `load_skill_chunk`; any name the settings
//! give; the run tool when a skill has Rust scripts), and none while no skill is visible to the
//! model. Add them to an agent with `.dynamic_tools(...)`. The source is a [`Source`] (the
//! embedded set, a set built at run time, an [overlay](crate::disk::Overlay) of skills on disk,
//! whose current snapshot answers every call).
//!
//! The tools answer exactly what [`Tools::handle`](crate::tools::Tools::handle) answers, so
//! the model gets the same text as in any other host. A failed call (an unknown skill or file,
//! bad arguments) is a [`ToolExecutionError`] whose model-visible text is the handler's, which
//! says what exists; a skill under `ask` is loaded only when the approval hook says so, and
//! refused with the reason otherwise. Each successful load publishes its [`LoadReport`](crate::tools::LoadReport) in the tool context's
//! result metadata (host-only, never shown to the model) for logs and sessions.
//!
//! ```
//! use rig_core::tool::ToolContext;
//! use skills_embed::rig::SkillTools;
//! use skills_embed::tools::{LoadReport, Settings};
//! use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
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
//! let tools = SkillTools::new(&*SKILLS, Settings::default()).tools();
//! assert_eq!(tools[0].name().to_string(), "load_skill");
//! // What an agent does with a tool call from the model:
//! let mut context = ToolContext::default();
//! let output = tools[0].execute_with(&mut context, serde_json::json!({"skill": "pdf"})).await.unwrap();
//! assert!(output.as_text().unwrap().contains("Use pdftotext."));
//! let load: LoadReport = context.result().unwrap().unwrap();
//! assert_eq!(load.skill, "pdf");
//!
//! let miss = tools[0].execute(serde_json::json!({"skill": "pfd"})).await.unwrap_err();
//! assert!(miss.to_string().contains(r#"Did you mean "pdf"?"#));
//! # });
//! ```

/// The rig-core release this module is built on (0.44), for naming its types without a second
/// dependency that could drift to another version.
///
/// ```
/// use skills_embed::rig::rig_core::tool::DynamicTool;
/// fn offered(tools: Vec<DynamicTool>) -> usize { tools.len() }
/// # drop(offered);
/// ```
#[doc(no_inline)]
pub use rig_core;

use std::fmt;

use rig_core::message::ToolName;
use rig_core::tool::{DynamicTool, ToolContext, ToolErrorKind, ToolExecutionError, ToolOutput};
use serde_json::Value;

use crate::host::Host;
use crate::policy::Access;
use crate::tools::{Call, Settings, Snapshot, Source};

/// Answers one call of tool `name` on `set` with `host`'s settings, decided once, asking the
/// user when the decision says so (through the host core, which records the answer). Errors
/// are rig's explicit constructors, whose message the model sees: ours says what exists.
async fn answer(
    host: &Host,
    set: &Snapshot,
    name: &str,
    arguments: &Value,
    context: &mut ToolContext,
) -> Result<ToolOutput, ToolExecutionError> {
    let arguments = arguments.to_string();
    let tools = host.tools(set);
    let call = tools
        .parse(name, &arguments)
        .map_err(|e| ToolExecutionError::new(ToolErrorKind::InvalidArgs, e.to_string()))?;
    let resolved = tools
        .resolve(&call)
        .map_err(|e| ToolExecutionError::new(ToolErrorKind::NotFound, e.to_string()))?;
    if resolved.access == Access::Ask {
        // Asked about the skill as it is in `set`: an `Always` holds for that content, and a
        // later snapshot where it changed asks again.
        host.approve(resolved.skill, &resolved.subject())
            .await
            .map_err(|refusal| ToolExecutionError::refused(refusal.to_string()))?;
    }
    let out = tools.answer(&resolved, &call);
    if out.is_error {
        // A script that ran and failed (its own error, a panic, a timeout, arguments that do
        // not fit) found what it was asked for: its failure is not a miss.
        let kind = match &call {
            Call::Run { .. } if out.text.starts_with("[Script: ") => ToolErrorKind::Other,
            _ => ToolErrorKind::NotFound,
        };
        return Err(ToolExecutionError::new(kind, out.text));
    }
    if let Some(report) = out.report {
        // Metadata for the host: a value that cannot be stored changes nothing for the model.
        let _ = context.insert_result(report);
    }
    Ok(ToolOutput::text(out.text))
}

/// The skill tools as rig [`DynamicTool`]s: any tool name or style, and sets that change.
///
/// [`SkillTools::tools`] builds one tool per definition (one unified tool, or the three split
/// ones, and the run tool when a skill has Rust scripts), and none while no skill is visible
/// to the model. Every call reads the source's current snapshot, so a skill added to an overlay
/// is loadable at once; the `enum` in the tools' schemas is the one of the set when they were
/// built, so build them again (and re-register them) after a reload that added or removed
/// skills, for the model to see the change.
///
/// ```
/// use skills_embed::rig::SkillTools;
/// use skills_embed::tools::{Settings, ToolStyle};
/// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
///
/// // `skills!` generates a static set; this one is built once at run time.
/// static SKILLS: std::sync::LazyLock<SkillSet> = std::sync::LazyLock::new(|| {
///     let fields = Fields { name: "pdf".into(), description: "Read PDF files.".into(), ..Fields::default() };
///     SkillSet::from_skills(vec![Skill::owned(fields, "Use pdftotext.\n".into(), vec![])], &ListingFormat::Markdown)
/// });
///
/// let split = Settings { style: ToolStyle::Split, ..Settings::default() };
/// let tools = SkillTools::new(&*SKILLS, split).tools();
/// let names: Vec<String> = tools.iter().map(|t| t.name().to_string()).collect();
/// assert_eq!(names, ["read_skill", "read_skill_resource", "load_skill_chunk"]);
///
/// // The listing for the preamble: the skills these tools offer.
/// let listing = skills_embed::tools::Tools::new(&*SKILLS, Settings::default()).listing(&Default::default());
/// assert!(listing.contains("pdf"));
///
/// // No skill the model may see: no tool to offer (and no listing to put in the preamble).
/// static NONE: skills_embed::SkillSet = skills_embed::SkillSet::empty();
/// assert!(SkillTools::new(&NONE, Settings::default()).tools().is_empty());
/// ```
///
/// Over an overlay of skills on disk (feature `fs`), each call answered from its current
/// snapshot; an agent takes the tools with rig-agent's `AgentBuilder::dynamic_tools`, as the
/// guide's rig chapter shows:
///
/// ```
/// use std::sync::Arc;
/// use skills_embed::disk::{Discovery, Overlay};
/// use skills_embed::rig::SkillTools;
/// use skills_embed::tools::Settings;
/// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
/// let root = tempfile::tempdir()?;
/// std::fs::create_dir(root.path().join("pdf"))?;
/// std::fs::write(root.path().join("pdf/SKILL.md"), "---\nname: pdf\ndescription: Read PDFs.\n---\nUse it.\n")?;
/// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::only(root.path())));
/// let tools = SkillTools::new(Arc::clone(&overlay), Settings::default()).tools();
/// // The embedded set is empty: the one tool is there for the skill found on disk.
/// assert_eq!(tools.iter().map(|t| t.name().to_string()).collect::<Vec<_>>(), ["load_skill"]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone)]
pub struct SkillTools {
    source: Source,
    host: Host,
}

impl fmt::Debug for SkillTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkillTools")
            .field("source", &self.source)
            .field("host", &self.host)
            .finish()
    }
}

impl SkillTools {
    /// Tools over `source`, served with `settings`. Tools built from one value share its
    /// answers: an `Always` holds for every tool built from it, for the skill's content as
    /// approved (when a reload changes the skill, the next load asks again).
    ///
    /// ```
    /// # use std::sync::{Arc, atomic::{AtomicUsize, Ordering}};
    /// use skills_embed::{policy::{Answer, Permissions}, rig::SkillTools, tools::Settings};
    /// # use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
    /// # let fields = Fields { name: "pdf".into(), description: "PDFs.".into(), ..Default::default() };
    /// # let pdf = Skill::owned(fields, "".into(), vec![]);
    /// # let set = SkillSet::from_skills(vec![pdf], &ListingFormat::Markdown);
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
    /// # }
    /// let asked = Arc::new(AtomicUsize::new(0));
    /// let counter = Arc::clone(&asked);
    /// let ask = Settings { permissions: Permissions::new().ask("pdf"), ..Settings::default() };
    /// let settings = ask.with_approval(move |_| {
    ///     counter.fetch_add(1, Ordering::SeqCst);
    ///     async { Answer::Always }
    /// });
    /// let skill_tools = SkillTools::new(set, settings);
    /// for tools in [skill_tools.tools(), skill_tools.tools()] {
    ///     block_on(tools[0].execute(serde_json::json!({"skill": "pdf"}))).unwrap();
    /// }
    /// // Asked once: the `Always` holds for every tool built from `skill_tools`.
    /// assert_eq!(asked.load(Ordering::SeqCst), 1);
    /// ```
    pub fn new(source: impl Into<Source>, settings: Settings) -> Self {
        SkillTools {
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
    /// use skills_embed::rig::SkillTools;
    /// use skills_embed::tools::{Settings, Source};
    /// use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat, policy::Permissions};
    /// let pdf = || {
    ///     let fields = Fields { name: "pdf".into(), description: "Read PDFs.".into(), ..Fields::default() };
    ///     Arc::new(SkillSet::from_skills(vec![Skill::owned(fields, String::new(), vec![])], &ListingFormat::Markdown))
    /// };
    /// // No visible skill, no tool.
    /// let denied = Settings { permissions: Permissions::new().deny("*"), ..Settings::default() };
    /// assert!(SkillTools::new(pdf(), denied).tools().is_empty());
    ///
    /// // A set that changes: tools built again see it.
    /// let current = Arc::new(Mutex::new(Arc::new(SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown))));
    /// let live = Source::live({
    ///     let current = Arc::clone(&current);
    ///     move || Arc::clone(&current.lock().unwrap())
    /// });
    /// let tools = SkillTools::new(live, Settings::default());
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
                            answer(&host, &set, &tool_name, &arguments, context).await
                        })
                    },
                ))
            })
            .collect()
    }
}
