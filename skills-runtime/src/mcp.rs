//! An MCP server for a skill set, on [rmcp](https://docs.rs/rmcp) (the official Rust SDK).
//!
//! [`McpServer`] serves any [`SkillSet`] (the one `skills!` embeds, one built at run time, or a
//! live view such as an overlay of skills on disk) to an MCP client over stdio or any other
//! rmcp transport. A client sees the skills four ways:
//!
//! | MCP surface | what it holds |
//! |---|---|
//! | `tools/list`, `tools/call` | the load tool(s) of [`Tools`], with the `skill` enum, answered through a per-connection [`Session`] |
//! | `resources/list`, `resources/read`, `resources/templates/list` | every file as `skill://<name>/<path>`: the listing names each skill's `SKILL.md`, one template per skill (`skill://<name>/{+path}`, with the skill's description) reaches the rest |
//! | `skills/list`, `skills/get`, `resources/directory/read` | the MCP skills extension (`io.modelcontextprotocol/skills`, SEP-2640): each skill's frontmatter and every file with its `sha256:` digest and size |
//! | `prompts/list`, `prompts/get` | one prompt, `skills`: the L1 listing with how to load a skill (the same text a [`Session`] puts in a system prompt) |
//!
//! The initialize result's `instructions` carry the same listing, so hosts that put server
//! instructions in the system prompt disclose the skills without a prompt call.
//!
//! # Permissions and sessions
//!
//! Every surface goes through [`Tools`] with the server's [`Permissions`]: a denied skill is
//! absent from the tool's `enum`, the resource listing and templates, the skills extension and
//! the prompt, and naming it anywhere answers exactly like naming a skill that does not exist.
//! Tool calls are answered by one [`Session`] per connection (so its events and approvals
//! apply); a skill under `ask` is loaded, by the tool or by `resources/read`, only after the
//! host's approval hook ([`McpServer::with_approval`]) says so, and an `always` answer holds for
//! the rest of the connection. Without a hook, loading such a skill is refused with a message
//! that says why.
//!
//! # `SKILL.md` over MCP
//!
//! A skill's `SKILL.md` resource is the file a host expects: YAML frontmatter, then the body.
//! The frontmatter is written from the skill's fields (every value quoted as JSON, which is
//! valid YAML), so it matches the `frontmatter` of `skills/list` exactly; its digest is computed
//! when the entry is built. Every other file is served byte for byte, with the digest computed
//! when the crate compiled (embedded skills) or when the file was read (skills from disk).
//!
//! ```no_run
//! use skills_embed_runtime::mcp::McpServer;
//! use skills_embed_runtime::permission::Permissions;
//! # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
//!
//! fn main() -> std::io::Result<()> {
//!     // `SKILLS` is what `skills_embed::skills!("skills")` generates.
//!     McpServer::new(&SKILLS)
//!         .with_permissions(Permissions::new().deny("internal-*"))
//!         .run_stdio()
//! }
//! ```

/// The rmcp release this module is built on (3.x), for naming its types without a second
/// dependency that could drift to another version.
///
/// ```
/// use skills_embed_runtime::mcp::rmcp::ServerHandler;
/// fn is_a_handler<H: ServerHandler>() {}
/// is_a_handler::<skills_embed_runtime::mcp::McpServer>();
/// ```
#[doc(no_inline)]
pub use rmcp;

use std::collections::BTreeSet;
use std::fmt;
use std::future::Future;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, mpsc};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    CompletionInfo, ContentBlock, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    GetSkillRequestParams, GetSkillResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, ListToolsResult,
    PaginatedRequestParams, Prompt, PromptMessage, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Reference, Resource, ResourceContents, ResourceTemplate, Role,
    ServerCapabilities, ServerConfig, SkillFrontmatter, SkillResource, SkillResources, Tool,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

use crate::handler::{ToolOutput, Tools};
use crate::id::Dynamic;
use crate::mode::Disclosure;
use crate::permission::{Access, Answer, Grants, Permissions};
use crate::session::{Event, Session};
use crate::set::SkillSet;
use crate::skill::{MANIFEST, Skill, hex, sha256};
use crate::tool::ToolConfig;

/// The URI scheme of skill files: `skill://<name>/<path>`.
///
/// ```
/// assert!(skills_embed_runtime::mcp::file_uri("pdf", "SKILL.md").starts_with(skills_embed_runtime::mcp::SCHEME));
/// ```
pub const SCHEME: &str = "skill://";

/// The name of the prompt that holds the L1 listing (`prompts/get` with this name).
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::LISTING_PROMPT, "skills");
/// ```
pub const LISTING_PROMPT: &str = "skills";

/// The media type of a `SKILL.md` resource.
const MARKDOWN: &str = "text/markdown";

/// The media type the skills extension gives a folder.
const DIRECTORY: &str = "inode/directory";

use crate::live::{Snapshot, Source};
type Approver = Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = Answer> + Send>> + Send + Sync>;
type EventHook = Arc<dyn Fn(&Event) + Send + Sync>;
type Job = Box<dyn for<'a> FnOnce(&mut Session<'a, Dynamic>) + Send>;

/// How tools are built over a snapshot; fixed once the server is serving.
#[derive(Debug, Clone)]
struct Settings {
    config: ToolConfig,
    permissions: Permissions,
    #[cfg(feature = "fs")]
    workdir: Option<std::path::PathBuf>,
}

impl Settings {
    /// Tools over `set`, with the skills granted `always` on this connection allowed.
    fn tools<'s>(&self, set: &'s SkillSet<Dynamic>, grants: &Grants) -> Tools<'s, Dynamic> {
        let mut permissions = self.permissions.clone();
        for skill in set.skills() {
            if grants.access(&self.permissions, skill.name()) == Access::Allow
                && self.permissions.check(skill.name()) == Access::Ask
            {
                permissions = permissions.allow(skill.name());
            }
        }
        let tools = Tools::new(set)
            .with_config(self.config.clone())
            .with_permissions(permissions);
        #[cfg(feature = "fs")]
        let tools = match &self.workdir {
            Some(dir) => tools.with_workdir(dir.clone()),
            None => tools,
        };
        tools
    }
}

/// An MCP server over a skill set: tools, resources, the skills extension and a prompt.
///
/// One value serves one connection (its [`Session`] and approvals are that connection's):
/// build one per client. See the [module documentation](self) for what each MCP method
/// returns. It is an rmcp [`ServerHandler`], so rmcp's own serving API works too (any
/// transport, or a factory per session for rmcp's streamable HTTP server).
///
/// ```
/// use skills_embed_runtime::mcp::McpServer;
/// use skills_embed_runtime::permission::{Answer, Permissions};
/// use skills_embed_runtime::tool::ToolConfig;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
///
/// let server = McpServer::new(&SKILLS)
///     .with_config(ToolConfig { name: "open_skill".into(), ..ToolConfig::default() })
///     .with_permissions(Permissions::new().ask("deploy-*").deny("internal-*"))
///     // Called when the model loads a skill under `ask`; answer after asking the user.
///     .with_approval(|skill| async move {
///         if skill == "deploy-staging" { Answer::Always } else { Answer::Reject }
///     })
///     .with_server_info("my-agent-skills", "1.0.0");
/// # drop(server);
/// ```
pub struct McpServer {
    source: Source,
    settings: Settings,
    remember_loads: bool,
    approval: Option<Approver>,
    on_event: Option<EventHook>,
    info: Implementation,
    /// The skills answered `always` on this connection.
    grants: Arc<Mutex<Grants>>,
    /// The connection's session, on its own thread (started at the first call that needs it).
    session: Mutex<Option<mpsc::Sender<Job>>>,
    /// The signature of the set last served, to tell the client when a live set changed.
    seen: Mutex<Option<u64>>,
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("live", &self.source.is_live())
            .field("settings", &self.settings)
            .field("remember_loads", &self.remember_loads)
            .field("approval", &self.approval.is_some())
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// A server for a set that lives as long as the program: what `skills!` generates.
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS);
    /// # drop(server);
    /// ```
    pub fn new<Id>(set: &'static SkillSet<Id>) -> Self {
        // The same skills, looked up by name: the server never needs the generated ids.
        Self::with_source(Source::embedded(set))
    }

    /// A server for a set built at run time (from disk, say), shared with the caller.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed_runtime::{SkillSet, SummaryFormat, mcp::McpServer};
    /// let set = Arc::new(SkillSet::from_skills(Vec::new(), SummaryFormat::Markdown));
    /// let server = McpServer::from_shared(set);
    /// # drop(server);
    /// ```
    pub fn from_shared(set: Arc<SkillSet<Dynamic>>) -> Self {
        Self::with_source(Source::Fixed(set))
    }

    /// A server for a set that may change while it serves: `snapshot` is called for every
    /// request, and when what it returns differs from the set served before (names, fields or
    /// file digests), the client is told its tool and resource lists changed and the session
    /// starts over on the new set (keeping the connection's `always` answers).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed_runtime::{SkillSet, SummaryFormat, mcp::McpServer};
    /// let current = Arc::new(SkillSet::from_skills(Vec::new(), SummaryFormat::Markdown));
    /// let server = McpServer::live(move || Arc::clone(&current));
    /// # drop(server);
    /// ```
    pub fn live(snapshot: impl Fn() -> Arc<SkillSet<Dynamic>> + Send + Sync + 'static) -> Self {
        Self::with_source(Source::Live(Arc::new(snapshot)))
    }

    /// A server for an overlay of skills on disk over an embedded set: every request sees the
    /// overlay's current snapshot, so a [`reload`](crate::disk::Overlay::reload) (or a
    /// [watcher](crate::disk::watch)) is picked up by the next request.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use skills_embed_runtime::disk::{Discovery, Overlay};
    /// use skills_embed_runtime::mcp::McpServer;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
    /// McpServer::from_overlay(Arc::clone(&overlay)).run_stdio()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    pub fn from_overlay<Id: Send + Sync + 'static>(overlay: Arc<crate::disk::Overlay<Id>>) -> Self {
        Self::live(move || overlay.snapshot())
    }

    fn with_source(source: Source) -> Self {
        McpServer {
            source,
            settings: Settings {
                config: ToolConfig::default(),
                permissions: Permissions::new(),
                #[cfg(feature = "fs")]
                workdir: None,
            },
            remember_loads: false,
            approval: None,
            on_event: None,
            info: Implementation::new("skills", env!("CARGO_PKG_VERSION")),
            grants: Arc::new(Mutex::new(Grants::default())),
            session: Mutex::new(None),
            seen: Mutex::new(None),
        }
    }

    /// Sets the tool configuration: names, unified or split style, output shape, limits.
    ///
    /// ```
    /// use skills_embed_runtime::tool::{ToolConfig, ToolStyle};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS)
    ///     .with_config(ToolConfig { style: ToolStyle::Split, ..ToolConfig::default() });
    /// # drop(server);
    /// ```
    pub fn with_config(mut self, config: ToolConfig) -> Self {
        self.settings.config = config;
        self
    }

    /// Sets the permission rules, applied to every MCP surface.
    ///
    /// ```
    /// use skills_embed_runtime::permission::Permissions;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let rules = Permissions::parse("deny internal-*\nask deploy")?;
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS).with_permissions(rules);
    /// # drop(server);
    /// # Ok::<(), skills_embed_runtime::permission::PermissionParseError>(())
    /// ```
    pub fn with_permissions(mut self, permissions: Permissions) -> Self {
        self.settings.permissions = permissions;
        self
    }

    /// Writes skills with scripts under `dir` when their body is loaded, and tells the model
    /// where (see [`Tools::with_workdir`]).
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let dir = std::env::temp_dir().join("my-agent-skills");
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS).with_workdir(dir);
    /// # drop(server);
    /// ```
    #[cfg(feature = "fs")]
    #[cfg_attr(docsrs, doc(cfg(feature = "fs")))]
    pub fn with_workdir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.settings.workdir = Some(dir.into());
        self
    }

    /// Answers a second load of a body already loaded on this connection briefly (see
    /// [`Session::handle`]). Off by default: an MCP host often keeps one connection for many
    /// conversations, where "already loaded" would be wrong.
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS).remember_loads(true);
    /// # drop(server);
    /// ```
    pub fn remember_loads(mut self, remember: bool) -> Self {
        self.remember_loads = remember;
        self
    }

    /// How a skill under `ask` gets the user's answer: `approve(skill)` is awaited when the
    /// model loads the skill (by the tool or by `resources/read`), and its [`Answer`] is given
    /// to the connection's session. `Always` holds until the connection ends.
    ///
    /// ```
    /// use skills_embed_runtime::permission::{Answer, Permissions};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS)
    ///     .with_permissions(Permissions::new().ask("deploy"))
    ///     // A desktop host would show a dialog here; this one allows once.
    ///     .with_approval(|_skill| async { Answer::Once });
    /// # drop(server);
    /// ```
    pub fn with_approval<F, Fut>(mut self, approve: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Answer> + Send + 'static,
    {
        self.approval = Some(Arc::new(move |skill| Box::pin(approve(skill))));
        self
    }

    /// Called with every session event (a skill loaded, a chunk loaded, an approval asked),
    /// for logs.
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS)
    ///     .on_event(|event| eprintln!("skills: {event}"));
    /// # drop(server);
    /// ```
    pub fn on_event(mut self, hook: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.on_event = Some(Arc::new(hook));
        self
    }

    /// The name and version the server gives in its `initialize` answer (default: `skills`
    /// and this crate's version).
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS)
    ///     .with_server_info("acme-skills", "2.1.0");
    /// # drop(server);
    /// ```
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Implementation::new(name, version);
        self
    }

    /// Serves one client over `transport` (stdio, a child process's pipes, an in-memory duplex,
    /// ... anything rmcp can serve over) until it disconnects.
    ///
    /// ```no_run
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// let (server_side, _client_side) = tokio::io::duplex(64 * 1024);
    /// skills_embed_runtime::mcp::McpServer::new(&SKILLS).serve(server_side).await
    /// # }
    /// ```
    pub async fn serve<T, E, A>(self, transport: T) -> std::io::Result<()>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let running = ServiceExt::serve(self, transport)
            .await
            .map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    }

    /// Serves one client over standard input and output until it disconnects (what MCP hosts
    /// that start the server as a child process expect). Needs a Tokio runtime; see
    /// [`McpServer::run_stdio`] for a blocking call that brings its own.
    ///
    /// ```no_run
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// skills_embed_runtime::mcp::McpServer::new(&SKILLS).serve_stdio().await
    /// # }
    /// ```
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        self.serve(rmcp::transport::stdio()).await
    }

    /// Like [`McpServer::serve_stdio`], blocking the calling thread on a runtime of its own.
    /// Must not be called from inside an async runtime (use `serve_stdio` there).
    ///
    /// ```no_run
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// fn main() -> std::io::Result<()> {
    ///     skills_embed_runtime::mcp::McpServer::new(&SKILLS).run_stdio()
    /// }
    /// ```
    pub fn run_stdio(self) -> std::io::Result<()> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(self.serve_stdio())
    }

    /// The set to answer from; tells the client when a live set changed since the last request.
    async fn current(&self, peer: &Peer<RoleServer>) -> Snapshot {
        let set = self.source.snapshot();
        if !self.source.is_live() {
            return set;
        }
        let signature = signature(&set);
        let before = lock(&self.seen).replace(signature);
        if before.is_some_and(|b| b != signature) {
            // The client may not listen for these; a failure to tell it changes nothing here.
            let _ = peer.notify_tool_list_changed().await;
            let _ = peer.notify_resource_list_changed().await;
        }
        set
    }

    fn tools<'s>(&self, set: &'s SkillSet<Dynamic>) -> Tools<'s, Dynamic> {
        let grants = lock(&self.grants).clone();
        self.settings.tools(set, &grants)
    }

    /// Runs `f` on the connection's session and returns its result.
    async fn with_session<R: Send + 'static>(
        &self,
        f: impl for<'a> FnOnce(&mut Session<'a, Dynamic>) -> R + Send + 'static,
    ) -> Result<R, ErrorData> {
        let sender = self.session_sender()?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |session: &mut Session<'_, Dynamic>| {
            let result = f(session);
            let events = session.drain_events();
            let _ = reply.send((result, events));
        });
        sender.send(job).map_err(|_| session_stopped())?;
        let (result, events) = answer.await.map_err(|_| session_stopped())?;
        if let Some(hook) = &self.on_event {
            for event in &events {
                hook(event);
            }
        }
        Ok(result)
    }

    fn session_sender(&self) -> Result<mpsc::Sender<Job>, ErrorData> {
        let mut slot = lock(&self.session);
        if let Some(sender) = slot.as_ref() {
            return Ok(sender.clone());
        }
        let (sender, jobs) = mpsc::channel::<Job>();
        let source = self.source.clone();
        let settings = self.settings.clone();
        let grants = Arc::clone(&self.grants);
        std::thread::Builder::new()
            .name("skills-mcp-session".into())
            .spawn(move || run_session(&source, &settings, &grants, &jobs))
            .map_err(|e| {
                ErrorData::internal_error(format!("could not start the skill session: {e}"), None)
            })?;
        *slot = Some(sender.clone());
        Ok(sender)
    }

    /// The user's answer for loading `skill`, or `None` when nobody can be asked.
    async fn ask(&self, skill: &str) -> Option<Answer> {
        let approve = self.approval.as_ref()?;
        let answer = approve(skill.to_owned()).await;
        if answer == Answer::Always || answer == Answer::Reject {
            lock(&self.grants).answer(skill, answer);
        }
        Some(answer)
    }

    /// Whether a resource of `skill` may be read now; under `ask`, asks first.
    async fn may_read(&self, skill: &str) -> Result<(), ErrorData> {
        let access = lock(&self.grants).access(&self.settings.permissions, skill);
        match access {
            Access::Allow => Ok(()),
            // Denied skills never get this far: they are looked up as unknown.
            Access::Deny => Err(ErrorData::resource_not_found(
                format!("Skill \"{skill}\" not found."),
                None,
            )),
            Access::Ask => match self.ask(skill).await {
                Some(Answer::Once | Answer::Always) => Ok(()),
                Some(Answer::Reject) => Err(ErrorData::invalid_request(
                    format!("The user declined loading skill \"{skill}\"."),
                    None,
                )),
                None => Err(ErrorData::invalid_request(no_approver(skill), None)),
            },
        }
    }

    async fn call(&self, name: String, arguments: String) -> Result<ToolOutput, ErrorData> {
        let remember = self.remember_loads;
        let out = self
            .with_session(move |session| {
                if remember {
                    session.handle(&name, &arguments)
                } else {
                    session.handle_forced(&name, &arguments)
                }
            })
            .await?;
        let Some(skill) = out.approval.clone() else {
            return Ok(out);
        };
        let answer = self.ask(&skill).await;
        let given = answer.unwrap_or(Answer::Reject);
        let answered = {
            let skill = skill.clone();
            self.with_session(move |session| session.answer(&skill, given))
                .await?
        };
        Ok(match (answer, answered) {
            (None, _) => ToolOutput {
                text: no_approver(&skill),
                is_error: true,
                report: None,
                approval: None,
            },
            (Some(_), Some(out)) => out,
            (Some(_), None) => out,
        })
    }
}

/// The connection's session: rebuilt on a new set when a live source changed, so a session
/// never serves from two sets at once.
fn run_session(
    source: &Source,
    settings: &Settings,
    grants: &Mutex<Grants>,
    jobs: &mpsc::Receiver<Job>,
) {
    let mut carried: Option<Job> = None;
    loop {
        let set = source.snapshot();
        let served = source.is_live().then(|| signature(&set));
        let granted = lock(grants).clone();
        let mut session = Session::new(settings.tools(&set, &granted));
        if let Some(job) = carried.take() {
            job(&mut session);
        }
        loop {
            let Ok(job) = jobs.recv() else {
                return;
            };
            if let Some(served) = served
                && signature(&source.snapshot()) != served
            {
                carried = Some(job);
                break;
            }
            job(&mut session);
        }
    }
}

fn session_stopped() -> ErrorData {
    ErrorData::internal_error("the skill session stopped", None)
}

fn no_approver(skill: &str) -> String {
    format!(
        "Loading skill \"{skill}\" needs the user's approval, and this server has no way to ask \
         for it. Do the task without this skill."
    )
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every value behind these locks is whole between statements: a panic elsewhere leaves
    // nothing half-written.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What tells two sets apart for a client: names, fields and file digests. It runs on every
/// request to a live set, so embedded skills count by identity (their files cannot change)
/// and files read at run time by the digests they keep: nothing is hashed again.
fn signature(set: &SkillSet<Dynamic>) -> u64 {
    let mut hasher = DefaultHasher::new();
    for skill in set.skills() {
        skill.name().hash(&mut hasher);
        skill.description().hash(&mut hasher);
        match skill.embedded_identity() {
            Some(identity) => identity.hash(&mut hasher),
            None => {
                for file in skill.files() {
                    file.path().hash(&mut hasher);
                    file.sha256().hash(&mut hasher);
                }
            }
        }
    }
    hasher.finish()
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let builder = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_completions();
        let capabilities = if self.source.is_live() {
            builder
                .enable_tool_list_changed()
                .enable_resources_list_changed()
                .enable_skills_with_directory_read()
                .build()
        } else {
            builder.enable_skills_with_directory_read().build()
        };
        let set = self.source.snapshot();
        let instructions =
            Session::new(self.tools(&set)).system_prompt(&Disclosure::Progressive, "");
        let config = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        if instructions.is_empty() {
            config
        } else {
            config.with_instructions(instructions)
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self
            .tools(&set)
            .definitions()
            .iter()
            .map(|d| {
                serde_json::from_value::<Tool>(d.to_mcp())
                    .map_err(|e| ErrorData::internal_error(format!("tool {}: {e}", d.name), None))
            })
            .collect::<Result<Vec<Tool>, ErrorData>>()?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.current(&context.peer).await;
        let arguments = request
            .arguments
            .map(|args| Value::Object(args).to_string())
            .unwrap_or_default();
        let out = self.call(request.name.into_owned(), arguments).await?;
        let content = vec![ContentBlock::text(out.text)];
        let result = if out.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let resources = self
            .tools(&set)
            .visible()
            .map(|skill| {
                Resource::new(uri(skill.name(), MANIFEST), skill.name())
                    .with_title(format!("{} (skill)", skill.name()))
                    .with_description(skill.description())
                    .with_mime_type(MARKDOWN)
                    .with_size(manifest(skill).len() as u64)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let templates = self
            .tools(&set)
            .visible()
            .map(|skill| {
                let paths: Vec<&str> = skill.paths().collect();
                ResourceTemplate::new(template(skill.name()), skill.name())
                    .with_title(format!("Files of skill {}", skill.name()))
                    .with_description(format!(
                        "{} Files: {}.",
                        skill.description().trim_end(),
                        paths.join(", ")
                    ))
            })
            .collect();
        Ok(ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let (name, path) = parse_uri(&request.uri).map_err(|e| invalid_uri(&tools, &e))?;
        let skill = tools
            .lookup(&name)
            .map_err(|e| ErrorData::resource_not_found(e.to_string(), None))?;
        if path.is_empty() || path.ends_with('/') {
            return Err(ErrorData::resource_not_found(
                format!(
                    "{} is a folder, not a file; list it with resources/directory/read. The files of skill \"{}\" are: {}.",
                    request.uri,
                    skill.name(),
                    uris(skill).join(", ")
                ),
                None,
            ));
        }
        let contents = if crate::path::check(&path).is_ok_and(|p| p.to_string() == MANIFEST) {
            ResourceContents::text(manifest(skill), &request.uri).with_mime_type(MARKDOWN)
        } else {
            let loaded = skill
                .load(&path)
                .map_err(|e| ErrorData::resource_not_found(e.to_string(), None))?;
            match loaded.text() {
                Some(text) => ResourceContents::text(text, &request.uri),
                None => ResourceContents::blob(base64(loaded.bytes()), &request.uri),
            }
            .with_mime_type(loaded.media_type())
        };
        let name = skill.name().to_owned();
        self.may_read(&name).await?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompt = Prompt::new(
            LISTING_PROMPT,
            Some(
                "The skills this server serves, one line each, and how to load one: for the \
                 system prompt.",
            ),
            None,
        )
        .with_title("Available skills");
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != LISTING_PROMPT {
            return Err(ErrorData::invalid_params(
                format!(
                    "Unknown prompt \"{}\". This server has one prompt: \"{LISTING_PROMPT}\".",
                    clip(&request.name)
                ),
                None,
            ));
        }
        self.current(&context.peer).await;
        let text = self
            .with_session(|session| session.system_prompt(&Disclosure::Progressive, ""))
            .await?;
        let text = if text.is_empty() {
            "There are no skills available.".to_owned()
        } else {
            text
        };
        let result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description("The skills this server serves and how to load them.");
        Ok(result.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let Reference::Resource(reference) = &request.r#ref else {
            return Ok(CompleteResult::default());
        };
        let Some(skill) = tools
            .visible()
            .find(|s| template(s.name()) == reference.uri)
        else {
            return Ok(CompleteResult::default());
        };
        let typed = request.argument.value.as_str();
        let mut values: Vec<String> = skill
            .paths()
            .filter(|p| p.starts_with(typed))
            .map(str::to_owned)
            .collect();
        values.extend(
            skill
                .paths()
                .filter(|p| !p.starts_with(typed) && p.contains(typed))
                .map(str::to_owned),
        );
        let total = values.len();
        values.truncate(CompletionInfo::MAX_VALUES);
        let info = CompletionInfo::with_pagination(
            values,
            u32::try_from(total).ok(),
            total > CompletionInfo::MAX_VALUES,
        )
        .unwrap_or_default();
        Ok(CompleteResult::new(info))
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let skills = self
            .tools(&set)
            .visible()
            .filter_map(|skill| entry(skill).ok())
            .collect();
        Ok(ListSkillsResult::with_all_items(skills))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let known = || skill_uris(&tools).join(", ");
        let (name, path) = parse_uri(&request.uri).map_err(|e| invalid_uri(&tools, &e))?;
        if path != MANIFEST {
            return Err(ErrorData::invalid_params(
                format!(
                    "skills/get takes the URI of a skill's SKILL.md, like {}. The skills are: {}.",
                    uri(&name, MANIFEST),
                    known()
                ),
                None,
            ));
        }
        let skill = tools.lookup(&name).map_err(|e| {
            ErrorData::invalid_params(format!("{e} Their URIs: {}.", known()), None)
        })?;
        let mut entry = entry(skill).map_err(|e| {
            ErrorData::invalid_params(
                format!(
                    "Skill \"{}\" cannot be served by the skills extension: {e}",
                    skill.name()
                ),
                None,
            )
        })?;
        if entry.uri != request.uri {
            // The same skill, percent-encoded differently: answer under the client's spelling.
            if let SkillResources::Files(files) = &mut entry.resources {
                for file in files.iter_mut().filter(|f| f.uri == entry.uri) {
                    file.uri.clone_from(&request.uri);
                }
            }
            entry.uri.clone_from(&request.uri);
        }
        Ok(GetSkillResult::new(entry))
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let (name, path) = parse_uri(&request.uri).map_err(|e| invalid_uri(&tools, &e))?;
        let skill = tools
            .lookup(&name)
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        let folder = path.trim_end_matches('/');
        let prefix = if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        };
        let mut folders = BTreeSet::new();
        let mut children = Vec::new();
        for file in skill.files() {
            let Some(rest) = file.path().strip_prefix(&prefix) else {
                continue;
            };
            match rest.split_once('/') {
                Some((sub, _)) => {
                    folders.insert(sub.to_owned());
                }
                None => {
                    let size = if file.path() == MANIFEST {
                        manifest(skill).len()
                    } else {
                        file.bytes().len()
                    };
                    let media = skill
                        .load(file.path())
                        .map_or(MARKDOWN, |loaded| loaded.media_type());
                    children.push(
                        Resource::new(uri(skill.name(), file.path()), rest)
                            .with_mime_type(media)
                            .with_size(size as u64),
                    );
                }
            }
        }
        if children.is_empty() && folders.is_empty() {
            let mut all: BTreeSet<String> = BTreeSet::from([uri(skill.name(), "")]);
            for file in skill.files() {
                let mut at = file.path();
                while let Some((parent, _)) = at.rsplit_once('/') {
                    all.insert(uri(skill.name(), &format!("{parent}/")));
                    at = parent;
                }
            }
            return Err(ErrorData::invalid_params(
                format!(
                    "{} is not a folder of skill \"{}\". Its folders are: {}.",
                    request.uri,
                    skill.name(),
                    all.into_iter().collect::<Vec<_>>().join(", ")
                ),
                None,
            ));
        }
        let mut listing: Vec<Resource> = folders
            .into_iter()
            .map(|sub| {
                Resource::new(uri(skill.name(), &format!("{prefix}{sub}/")), sub)
                    .with_mime_type(DIRECTORY)
            })
            .collect();
        listing.extend(children);
        Ok(ReadResourceDirectoryResult::with_all_items(listing))
    }
}

/// The skills-extension entry of a skill: frontmatter, and every file with digest and size.
fn entry(skill: &Skill) -> Result<rmcp::model::Skill, String> {
    let fields = frontmatter(skill);
    let mut front = SkillFrontmatter::new(skill.name(), skill.description());
    for (key, value) in fields.into_iter().skip(2) {
        front = front.with_field(key, value);
    }
    let text = manifest(skill);
    let files = skill
        .files()
        .map(|file| {
            if file.path() == MANIFEST {
                SkillResource::from_bytes(uri(skill.name(), MANIFEST), text.as_bytes())
            } else {
                SkillResource::new(
                    uri(skill.name(), file.path()),
                    format!("sha256:{}", hex(&file.sha256())),
                    file.bytes().len() as u64,
                )
            }
        })
        .collect();
    let entry = rmcp::model::Skill::new(
        uri(skill.name(), MANIFEST),
        front,
        SkillResources::Files(files),
    );
    entry.validate().map_err(|e| e.to_string())?;
    Ok(entry)
}

/// The frontmatter fields, in the order they are written: `name` and `description` first.
fn frontmatter(skill: &Skill) -> Vec<(String, Value)> {
    let mut fields: Vec<(String, Value)> = vec![
        ("name".into(), skill.name().into()),
        ("description".into(), skill.description().into()),
    ];
    if let Some(license) = skill.license() {
        fields.push(("license".into(), license.into()));
    }
    if let Some(compatibility) = skill.compatibility() {
        fields.push(("compatibility".into(), compatibility.into()));
    }
    let metadata: Map<String, Value> = skill
        .metadata()
        .map(|(k, v)| (k.to_owned(), Value::from(v)))
        .collect();
    if !metadata.is_empty() {
        fields.push(("metadata".into(), Value::Object(metadata)));
    }
    let tools: Vec<&str> = skill.allowed_tools().collect();
    if !tools.is_empty() {
        fields.push(("allowed-tools".into(), tools.join(" ").into()));
    }
    if let Ok(Value::Object(extra)) = serde_json::from_str::<Value>(skill.extra_json()) {
        let mut extra: Vec<(String, Value)> = extra.into_iter().collect();
        extra.sort_by(|a, b| a.0.cmp(&b.0));
        fields.extend(extra.into_iter().filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "name" | "description" | "license" | "compatibility" | "metadata" | "allowed-tools"
            )
        }));
    }
    fields
}

/// The `SKILL.md` a host reads: the frontmatter written from the skill's fields, then the body.
///
/// Every value is written as JSON (a JSON string is a YAML double-quoted scalar, a JSON object
/// a YAML flow mapping), so the file parses back to exactly the `frontmatter` of the skill's
/// extension entry.
fn manifest(skill: &Skill) -> String {
    let mut text = String::from("---\n");
    for (key, value) in frontmatter(skill) {
        if key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            text.push_str(&key);
        } else {
            text.push_str(&yaml_json(&Value::String(key)));
        }
        text.push_str(": ");
        text.push_str(&yaml_json(&value));
        text.push('\n');
    }
    text.push_str("---\n");
    text.push_str(skill.body());
    text
}

/// JSON text that YAML reads back as the same value: YAML also breaks lines at U+0085, U+2028
/// and U+2029, which JSON leaves unescaped.
fn yaml_json(value: &Value) -> String {
    let json = value.to_string();
    if !json.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return json;
    }
    json.replace('\u{85}', "\\u0085")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// `skill://<name>/<path>`, percent-encoded.
fn uri(skill: &str, path: &str) -> String {
    let mut out = String::from(SCHEME);
    encode(&mut out, skill, false);
    out.push('/');
    encode(&mut out, path, true);
    out
}

/// The resource template of a skill's files.
fn template(skill: &str) -> String {
    let mut out = String::from(SCHEME);
    encode(&mut out, skill, false);
    out.push_str("/{+path}");
    out
}

fn uris(skill: &Skill) -> Vec<String> {
    skill.paths().map(|p| uri(skill.name(), p)).collect()
}

fn skill_uris(tools: &Tools<'_, Dynamic>) -> Vec<String> {
    tools.visible().map(|s| uri(s.name(), MANIFEST)).collect()
}

fn encode(out: &mut String, text: &str, keep_slash: bool) {
    for byte in text.bytes() {
        let plain = byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~')
            || (keep_slash && byte == b'/');
        if plain {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
}

/// The skill name and the path of a `skill://` URI, decoded.
fn parse_uri(uri: &str) -> Result<(String, String), String> {
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return Err(format!("\"{}\" is not a {SCHEME} URI", clip(uri)));
    };
    if rest.contains(['?', '#']) {
        return Err(format!(
            "\"{}\" has a query or a fragment; skill URIs have neither",
            clip(uri)
        ));
    }
    let (name, path) = rest.split_once('/').unwrap_or((rest, ""));
    let name = decode(name)
        .ok_or_else(|| format!("\"{}\" is not valid percent-encoded UTF-8", clip(uri)))?;
    let path = decode(path)
        .ok_or_else(|| format!("\"{}\" is not valid percent-encoded UTF-8", clip(uri)))?;
    if name.is_empty() {
        return Err(format!("\"{}\" names no skill", clip(uri)));
    }
    Ok((name, path))
}

fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn invalid_uri(tools: &Tools<'_, Dynamic>, problem: &str) -> ErrorData {
    let known = skill_uris(tools);
    let known = if known.is_empty() {
        "There are no skills available.".to_owned()
    } else {
        format!("The skills are: {}.", known.join(", "))
    };
    ErrorData::invalid_params(
        format!(
            "{problem}. Skill files are {SCHEME}<skill>/<path>, like {SCHEME}<skill>/{MANIFEST}. {known}"
        ),
        None,
    )
}

/// A value the client sent, cut short for echoing back.
fn clip(text: &str) -> String {
    const MAX: usize = 100;
    if text.chars().count() <= MAX {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(MAX).collect();
    out.push('…');
    out
}

/// Standard base64 with padding, for binary resources.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> shift) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The digest of a skill's `SKILL.md` as served over MCP (frontmatter and body), as the skills
/// extension writes it: `sha256:` and 64 hex digits.
///
/// ```
/// use skills_embed_runtime::{OwnedFields, Skill};
/// let fields = OwnedFields { name: "demo".into(), description: "A demo.".into(), ..OwnedFields::default() };
/// let skill = Skill::owned(fields, "Do it.\n".into(), vec![]);
/// let digest = skills_embed_runtime::mcp::manifest_digest(&skill);
/// assert!(digest.starts_with("sha256:") && digest.len() == 7 + 64);
/// ```
pub fn manifest_digest(skill: &Skill) -> String {
    format!("sha256:{}", hex(&sha256(manifest(skill).as_bytes())))
}

/// The text of a skill's `SKILL.md` as served over MCP: its frontmatter (written from its
/// fields) and its body.
///
/// ```
/// use skills_embed_runtime::{OwnedFields, Skill};
/// let fields = OwnedFields { name: "demo".into(), description: "A demo: quoted.".into(), ..OwnedFields::default() };
/// let skill = Skill::owned(fields, "Do it.\n".into(), vec![]);
/// assert_eq!(
///     skills_embed_runtime::mcp::manifest_text(&skill),
///     "---\nname: \"demo\"\ndescription: \"A demo: quoted.\"\n---\nDo it.\n",
/// );
/// ```
pub fn manifest_text(skill: &Skill) -> String {
    manifest(skill)
}

/// The `skill://` URI of one file of a skill, percent-encoded.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::file_uri("pdf", "references/a b.md"), "skill://pdf/references/a%20b.md");
/// ```
pub fn file_uri(skill: &str, path: &str) -> String {
    uri(skill, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn uris_round_trip() {
        for (name, path) in [
            ("pdf", "SKILL.md"),
            ("技能", "references/a b.md"),
            ("x", "a/%/?#.txt"),
        ] {
            let u = uri(name, path);
            assert!(u.is_ascii(), "{u}");
            assert_eq!(parse_uri(&u).unwrap(), (name.to_owned(), path.to_owned()));
        }
        assert!(parse_uri("file:///etc/passwd").is_err());
        assert!(parse_uri("skill://").is_err());
        assert!(parse_uri("skill://a/b?x=1").is_err());
        assert!(parse_uri("skill://a/%ff").is_err());
        assert!(parse_uri("skill://a/%4").is_err());
        assert_eq!(parse_uri("skill://a").unwrap(), ("a".into(), String::new()));
    }

    #[test]
    fn yaml_escapes_what_yaml_reads_as_a_line_break() {
        assert_eq!(yaml_json(&Value::from("a\u{2028}b")), "\"a\\u2028b\"");
        assert_eq!(yaml_json(&Value::from("a: b")), "\"a: b\"");
    }
}
