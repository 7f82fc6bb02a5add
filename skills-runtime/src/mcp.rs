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
//! Every surface goes through [`Tools`] with the server's [`Permissions`]: a denied skill, and
//! a skill the model may not invoke (its [invocation policy](crate::Skill::invocation), e.g.
//! Claude Code's `disable-model-invocation: true`), is absent from the tool's `enum`, the
//! resource listing and templates, the skills extension and the prompt, and naming it anywhere
//! answers exactly like naming a skill that does not exist. With no skill left to show,
//! `tools/list` is empty (a reload that brings one notifies the client).
//! Tool calls are answered by one [`Session`] per connection (so its events and approvals
//! apply); a skill under `ask` is loaded, by the tool or by `resources/read`, only after the
//! host's approval hook ([`McpServer::with_approval`]) says so, and an `always` answer holds for
//! the rest of the connection while the skill stays as it was approved: when a live set's
//! reload changes the skill, the next load asks again (see [`Grants`]). Without a hook,
//! loading such a skill is refused with a message that says why.
//!
//! A change of a live set is told to a client (`notifications/tools/list_changed` and
//! `notifications/resources/list_changed`) only when what that client may see changed: editing
//! a denied skill on disk tells it nothing. A skill whose name the skills extension cannot
//! carry (over 64 characters, say, which the lenient profile loads with a warning) is served on
//! no surface, so every surface lists the same skills.
//!
//! # Limits on what a client can make the server hold
//!
//! A client can send requests faster than it reads the answers. [`McpServer::serve`] (and so
//! [`McpServer::serve_stdio`] and [`McpServer::run_stdio`]) bounds the requests being
//! answered: at most [`DEFAULT_MAX_IN_FLIGHT`] per connection ([`McpServer::with_max_in_flight`])
//! and [`DEFAULT_SERVER_MAX_IN_FLIGHT`] across the process ([`InFlightLimit`],
//! [`McpServer::with_server_limit`]). A request counts from when it is read until its answer
//! has been written to the transport; while the limit is reached the server reads nothing more
//! from that client, so the client's own writes wait (backpressure) and the server's memory
//! stays flat whatever the client pipelines. A client must therefore read answers while it
//! sends; one that writes thousands of requests before reading any stalls itself, not the
//! server. A client that never reads keeps its share of the process limit until it disconnects:
//! with the defaults, eight such connections hold all 64, and the others wait; size the process
//! limit for the connections one program serves. A request reusing the id of a request still
//! being answered waits for that answer.
//! `notifications/cancelled` is ignored: every request is answered (the specification lets a
//! server ignore a cancellation it cannot act on, and the client drops the late answer), which
//! keeps the count exact. With rmcp's own serving API (the handler given to rmcp directly), the
//! transport is rmcp's and these limits do not apply; nor does the clipping of a `skills/get`
//! URI that is not a `SKILL.md` one, which rmcp's dispatch refuses before the handler runs.
//!
//! Whatever a request echoes back in an error (a URI, a name, a path) is cut to 100 characters,
//! on every surface. Over stdio, a request nested deeper than the JSON parser reads
//! ([`MAX_JSON_DEPTH`] levels) is answered with an error carrying its id; a notification nested
//! so deep has no id to answer and is dropped. Over another transport given to
//! [`McpServer::serve`], rmcp's transport drops such a line unanswered.
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
//! use skills_embed_runtime::policy::Permissions;
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

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::future::Future;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, mpsc};
use std::task::{Context, Poll};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
    CompletionInfo, ContentBlock, CustomRequest, CustomResult, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, GetSkillRequestParams, GetSkillResult, Implementation,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, Prompt, PromptMessage,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Reference, Resource, ResourceContents,
    ResourceTemplate, Role, ServerCapabilities, ServerConfig, SkillFrontmatter, SkillResource,
    SkillResources, Tool,
};
use rmcp::model::{ClientNotification, JsonRpcMessage, JsonRpcRequest, RequestId};
use rmcp::service::{Peer, RequestContext, RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use crate::model::file::{hex, sha256};
use crate::model::id::Dynamic;
use crate::model::set::SkillSet;
use crate::model::skill::{MANIFEST, Skill};
use crate::policy::{Access, Answer, Grants, Permissions};
use crate::text::echo as clip;
use crate::tools::Disclosure;
use crate::tools::ToolConfig;
use crate::tools::{Event, Session};
use crate::tools::{ToolOutput, Tools};

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

/// How many requests of one connection are answered at once by default: read, being worked
/// on, or with an answer not yet written (see [`McpServer::with_max_in_flight`]).
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::DEFAULT_MAX_IN_FLIGHT, 8);
/// ```
pub const DEFAULT_MAX_IN_FLIGHT: usize = 8;

/// How many requests all the connections of a process are answered at once by default (see
/// [`InFlightLimit`]). With files of up to 2 MB, that is some hundreds of megabytes at worst.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::DEFAULT_SERVER_MAX_IN_FLIGHT, 64);
/// ```
pub const DEFAULT_SERVER_MAX_IN_FLIGHT: usize = 64;

/// The deepest nesting of arrays and objects a request may have: serde_json, which reads
/// every request, refuses more. Over stdio a deeper request is answered with an error that
/// carries its id.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::MAX_JSON_DEPTH, 127);
/// ```
pub const MAX_JSON_DEPTH: usize = 127;

/// The method a request nested too deep is rewritten to, so the server answers it with an
/// error under its id (a client that sends it gets the same error).
const TOO_DEEP: &str = "skills-embed/nested-too-deep";

/// A limit on the requests answered at once, shared by every server given a clone of it: the
/// bound for the whole process when one program serves many connections.
///
/// Every [`McpServer`] shares one process-wide limit of [`DEFAULT_SERVER_MAX_IN_FLIGHT`]
/// unless given another with [`McpServer::with_server_limit`].
///
/// ```
/// use skills_embed_runtime::mcp::{InFlightLimit, McpServer};
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// let limit = InFlightLimit::new(32);
/// let first = McpServer::new(&SKILLS).with_server_limit(limit.clone());
/// let second = McpServer::new(&SKILLS).with_server_limit(limit.clone());
/// assert_eq!(limit.max(), 32);
/// # drop((first, second));
/// ```
#[derive(Clone)]
pub struct InFlightLimit {
    permits: Arc<Semaphore>,
    max: usize,
}

impl InFlightLimit {
    /// A limit of `max` requests at once (at least one: a limit of zero would answer nothing).
    ///
    /// ```
    /// assert_eq!(skills_embed_runtime::mcp::InFlightLimit::new(0).max(), 1);
    /// ```
    pub fn new(max: usize) -> Self {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        InFlightLimit {
            permits: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// The process-wide limit every server shares unless given another:
    /// [`DEFAULT_SERVER_MAX_IN_FLIGHT`] requests.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{DEFAULT_SERVER_MAX_IN_FLIGHT, InFlightLimit};
    /// assert_eq!(InFlightLimit::process().max(), DEFAULT_SERVER_MAX_IN_FLIGHT);
    /// ```
    pub fn process() -> Self {
        static PROCESS: OnceLock<InFlightLimit> = OnceLock::new();
        PROCESS
            .get_or_init(|| InFlightLimit::new(DEFAULT_SERVER_MAX_IN_FLIGHT))
            .clone()
    }

    /// How many requests it lets through at once.
    ///
    /// ```
    /// assert_eq!(skills_embed_runtime::mcp::InFlightLimit::new(5).max(), 5);
    /// ```
    pub fn max(&self) -> usize {
        self.max
    }
}

impl fmt::Debug for InFlightLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InFlightLimit")
            .field("max", &self.max)
            .field("available", &self.permits.available_permits())
            .finish()
    }
}

use crate::host::{Snapshot, Source};
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
    /// Tools over `set`, with the skills granted `always` on this connection (for their
    /// current content) allowed, and the skills the MCP skills extension cannot carry denied,
    /// so every surface serves one set.
    fn tools<'s>(&self, set: &'s SkillSet<Dynamic>, grants: &Grants) -> Tools<'s, Dynamic> {
        let mut permissions = self.permissions.clone();
        let mut unservable = Vec::new();
        for skill in set.skills() {
            if !servable(skill.name()) {
                unservable.push(skill.name());
                continue;
            }
            // The digest is computed only for a skill under `ask` with a grant.
            if self.permissions.check(skill.name()) == Access::Ask && grants.is_granted(skill) {
                permissions = permissions.allow(skill.name());
            }
        }
        // Last, so no other rule lets them through (the last matching rule wins). A name with
        // a `*` would deny every name it matches as a pattern; the validator rejects `*` in
        // names, so only a set built in code can hold one.
        for name in unservable {
            permissions = permissions.deny(name);
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
/// use skills_embed_runtime::policy::{Answer, Permissions};
/// use skills_embed_runtime::tools::ToolConfig;
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
    /// The skills answered `always` on this connection, each for the content approved.
    grants: Arc<Mutex<Grants>>,
    /// The connection's session, on its own thread (started at the first call that needs it).
    session: Mutex<Option<mpsc::Sender<Job>>>,
    /// The signature of what this client saw last, to tell it when a live set changed.
    seen: Mutex<Option<u64>>,
    /// Requests of this connection answered at once.
    max_in_flight: usize,
    /// Requests of all connections answered at once.
    server_limit: InFlightLimit,
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("live", &self.source.is_live())
            .field("settings", &self.settings)
            .field("remember_loads", &self.remember_loads)
            .field("approval", &self.approval.is_some())
            .field("info", &self.info)
            .field("max_in_flight", &self.max_in_flight)
            .field("server_limit", &self.server_limit)
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
    /// use skills_embed_runtime::{SkillSet, listing::ListingFormat, mcp::McpServer};
    /// let set = Arc::new(SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown));
    /// let server = McpServer::from_shared(set);
    /// # drop(server);
    /// ```
    pub fn from_shared(set: Arc<SkillSet<Dynamic>>) -> Self {
        Self::with_source(Source::Fixed(set))
    }

    /// A server for a set that may change while it serves: `snapshot` is called for every
    /// request, and when what the client may see of it (the names, fields and file digests of
    /// the skills its permissions show) differs from what it saw before, the client is told its
    /// tool and resource lists changed and the session starts over on the new set (keeping the
    /// connection's `always` answers for the skills that did not change: a changed skill is
    /// asked for again). A change to a denied skill tells the client nothing.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use skills_embed_runtime::{SkillSet, listing::ListingFormat, mcp::McpServer};
    /// let current = Arc::new(SkillSet::from_skills(Vec::new(), &ListingFormat::Markdown));
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
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            server_limit: InFlightLimit::process(),
        }
    }

    /// At most `max` requests of this connection answered at once (default
    /// [`DEFAULT_MAX_IN_FLIGHT`]; at least one): a request counts from when it is read until its
    /// answer is written, and while `max` are counted the server reads no more from this
    /// client. Applies to [`McpServer::serve`], [`McpServer::serve_stdio`] and
    /// [`McpServer::run_stdio`].
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS).with_max_in_flight(4);
    /// # drop(server);
    /// ```
    pub fn with_max_in_flight(mut self, max: usize) -> Self {
        self.max_in_flight = max.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// Shares `limit` with other servers: together they answer at most `limit.max()` requests
    /// at once. By default every server shares [`InFlightLimit::process`].
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{InFlightLimit, McpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = McpServer::new(&SKILLS).with_server_limit(InFlightLimit::new(16));
    /// # drop(server);
    /// ```
    pub fn with_server_limit(mut self, limit: InFlightLimit) -> Self {
        self.server_limit = limit;
        self
    }

    /// Sets the tool configuration: names, unified or split style, output shape, limits.
    ///
    /// ```
    /// use skills_embed_runtime::tools::{ToolConfig, ToolStyle};
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
    /// use skills_embed_runtime::policy::Permissions;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let rules = Permissions::parse("deny internal-*\nask deploy")?;
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS).with_permissions(rules);
    /// # drop(server);
    /// # Ok::<(), skills_embed_runtime::policy::PermissionParseError>(())
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
    /// use skills_embed_runtime::policy::{Answer, Permissions};
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
    /// At most [`with_max_in_flight`](McpServer::with_max_in_flight) requests of this client
    /// (and the [server limit](McpServer::with_server_limit) across servers) are answered at
    /// once, each counted from when it is read until its answer is written; meanwhile nothing
    /// more is read from the client (see the [module documentation](self#limits-on-what-a-client-can-make-the-server-hold)).
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
        let transport = Bounded::new(
            transport.into_transport(),
            self.max_in_flight,
            &self.server_limit,
        );
        let running = ServiceExt::serve(Guarded(self), transport)
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
        let (input, output) = rmcp::transport::stdio();
        self.serve((DepthGuard::new(input), output)).await
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

    /// The set to answer from; tells the client when what it may see of a live set changed
    /// since its last request.
    async fn current(&self, peer: &Peer<RoleServer>) -> Snapshot {
        let set = self.source.snapshot();
        if !self.source.is_live() {
            return set;
        }
        let signature = signature(&self.tools(&set));
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

    /// The user's answer for loading `skill`, or `None` when nobody can be asked. The caller
    /// records it, with the content it was given for.
    async fn ask(&self, skill: &str) -> Option<Answer> {
        let approve = self.approval.as_ref()?;
        Some(approve(skill.to_owned()).await)
    }

    /// Whether a resource of `found` may be read now; under `ask`, asks first.
    async fn may_read(&self, found: &Skill) -> Result<(), ErrorData> {
        let skill = found.name();
        let access = lock(&self.grants).access(&self.settings.permissions, found);
        match access {
            Access::Allow => Ok(()),
            // Denied skills never get this far: they are looked up as unknown.
            Access::Deny => Err(ErrorData::resource_not_found(
                format!("Skill \"{skill}\" not found."),
                None,
            )),
            Access::Ask => match self.ask(skill).await {
                Some(Answer::Once) => Ok(()),
                Some(Answer::Always) => {
                    lock(&self.grants).answer(found, Answer::Always);
                    Ok(())
                }
                Some(Answer::Reject) => {
                    lock(&self.grants).revoke(skill);
                    Err(ErrorData::invalid_request(
                        format!("The user declined loading skill \"{skill}\"."),
                        None,
                    ))
                }
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
            let grants = Arc::clone(&self.grants);
            self.with_session(move |session| {
                // Recorded for the skill as this session serves it: the content the person was
                // asked about (a session over a changed set no longer holds the request).
                let answered = session.answer(&skill, given);
                match answer {
                    Some(Answer::Reject) => {
                        lock(&grants).revoke(&skill);
                    }
                    Some(Answer::Always) if answered.is_some() => {
                        if let Ok(found) = session.tools().lookup(&skill) {
                            lock(&grants).answer(found, Answer::Always);
                        }
                    }
                    _ => {}
                }
                answered
            })
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
        let granted = lock(grants).clone();
        let tools = settings.tools(&set, &granted);
        let served = source.is_live().then(|| signature(&tools));
        let mut session = Session::new(tools);
        if let Some(job) = carried.take() {
            job(&mut session);
        }
        loop {
            let Ok(job) = jobs.recv() else {
                return;
            };
            if let Some(served) = served
                && signature(&settings.tools(&source.snapshot(), &lock(grants).clone())) != served
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

/// Whether the MCP skills extension can carry a skill of this name (1 to 64 characters after
/// NFKC, lowercase letters, digits and single hyphens): the lenient profile loads longer names,
/// which `skills/list` could not hold, so they are served on no surface.
fn servable(name: &str) -> bool {
    rmcp::model::Skill::new(
        uri(name, MANIFEST),
        SkillFrontmatter::new(name, "-"),
        SkillResources::Dynamic,
    )
    .validate()
    .is_ok()
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every value behind these locks is whole between statements: a panic elsewhere leaves
    // nothing half-written.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What tells two sets apart for a client: the names, fields and file digests of the skills it
/// may see (a denied skill counts for nothing, so editing it tells the client nothing). It runs
/// on every request to a live set, so embedded skills count by identity (their files cannot
/// change) and files read at run time by the digests they keep: nothing is hashed again.
fn signature(tools: &Tools<'_, Dynamic>) -> u64 {
    let mut hasher = DefaultHasher::new();
    for skill in tools.visible() {
        // An embedded skill cannot change while the program runs: its identity stands for it.
        match skill.embedded_identity() {
            Some(identity) => identity.hash(&mut hasher),
            None => skill.content_digest().hash(&mut hasher),
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
        // No visible skill, no tool (`offered`); a reload that brings one notifies the client.
        let tools = self
            .tools(&set)
            .offered()
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
                    clip(&request.uri),
                    skill.name(),
                    uris(skill).join(", ")
                ),
                None,
            ));
        }
        let contents = if crate::model::path::check(&path).is_ok_and(|p| p.to_string() == MANIFEST)
        {
            ResourceContents::text(manifest(skill), &request.uri).with_mime_type(MARKDOWN)
        } else {
            let loaded = skill
                .load(&path)
                .map_err(|e| ErrorData::resource_not_found(e.clipped().to_string(), None))?;
            match loaded.text() {
                Some(text) => ResourceContents::text(text, &request.uri),
                None => ResourceContents::blob(base64(loaded.bytes()), &request.uri),
            }
            .with_mime_type(loaded.media_type())
        };
        self.may_read(skill).await?;
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

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method == TOO_DEEP {
            // A request `DepthGuard` could not pass on: its method and depth, from the guard.
            let params = request.params.unwrap_or_default();
            let method = params["method"].as_str().unwrap_or("a request");
            let depth = params["depth"].as_u64().unwrap_or_default();
            return Err(ErrorData::invalid_request(
                format!(
                    "This {} request is nested {} levels deep; the server reads JSON nested at \
                     most {MAX_JSON_DEPTH} levels, so it did not read it. Send its arguments \
                     nested less deeply.",
                    clip(method),
                    if depth > 0 {
                        depth.to_string()
                    } else {
                        "too many".to_owned()
                    }
                ),
                None,
            ));
        }
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!(
                "Unknown method \"{}\". This server answers the MCP methods for tools, \
                 resources, prompts, completion and the skills extension.",
                clip(&request.method)
            ),
            None,
        ))
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
                    clip(&uri(&name, MANIFEST)),
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
                    clip(&request.uri),
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

/// The server as rmcp serves it from [`McpServer::serve`]: it answers the `skills/get` requests
/// rmcp's dispatch would refuse with the whole URI echoed, with the URI clipped.
struct Guarded(McpServer);

impl rmcp::Service<RoleServer> for Guarded {
    async fn handle_request(
        &self,
        request: rmcp::model::ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ServerResult, ErrorData> {
        if let rmcp::model::ClientRequest::GetSkillRequest(get) = &request
            && rmcp::model::skill_name_from_uri(&get.params.uri).is_none()
        {
            let set = self.0.current(&context.peer).await;
            let known = skill_uris(&self.0.tools(&set));
            return Err(ErrorData::invalid_params(
                format!(
                    "\"{}\" is not the URI of a skill's {MANIFEST}: skills/get takes \
                     {SCHEME}<skill>/{MANIFEST}. The skills are: {}.",
                    clip(&get.params.uri),
                    known.join(", ")
                ),
                None,
            ));
        }
        rmcp::Service::handle_request(&self.0, request, context).await
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        context: rmcp::service::NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        rmcp::Service::handle_notification(&self.0, notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        rmcp::Service::get_info(&self.0)
    }

    fn supported_protocol_versions(
        &self,
    ) -> std::borrow::Cow<'static, [rmcp::model::ProtocolVersion]> {
        rmcp::Service::supported_protocol_versions(&self.0)
    }
}

/// The permits one request holds: one of its connection's, one of the server's.
type Slot = (OwnedSemaphorePermit, OwnedSemaphorePermit);

/// The requests of one connection being answered, by id, with their permits.
#[derive(Default)]
struct InFlight {
    slots: Mutex<HashMap<RequestId, Slot>>,
    /// Woken when a request's answer has been written.
    released: Notify,
}

/// A transport that lets at most a connection's and the server's limit of requests be answered
/// at once: a request takes its permits when read and gives them back when its answer has been
/// written (or could not be), and no message is read while they are all taken. rmcp spawns a
/// task per request and queues answers for the writer without a bound; counting from read to
/// written bounds the answers held in memory, whatever the client pipelines.
struct Bounded<T> {
    inner: T,
    connection: Arc<Semaphore>,
    server: Arc<Semaphore>,
    in_flight: Arc<InFlight>,
    /// A message read and not yet handed on: kept here while waiting, so a `receive` dropped
    /// by rmcp's `select!` loses nothing.
    pending: Option<RxJsonRpcMessage<RoleServer>>,
}

impl<T> Bounded<T> {
    fn new(inner: T, max_in_flight: usize, server: &InFlightLimit) -> Self {
        Bounded {
            inner,
            connection: Arc::new(Semaphore::new(
                max_in_flight.clamp(1, Semaphore::MAX_PERMITS),
            )),
            server: Arc::clone(&server.permits),
            in_flight: Arc::default(),
            pending: None,
        }
    }
}

/// Gives a request's permits back when dropped: after its answer has been written, or when the
/// write was abandoned.
struct Release {
    id: RequestId,
    in_flight: Arc<InFlight>,
}

impl Drop for Release {
    fn drop(&mut self) {
        let slot = lock(&self.in_flight.slots).remove(&self.id);
        drop(slot);
        self.in_flight.released.notify_waiters();
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Bounded<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let id = match &item {
            JsonRpcMessage::Response(response) => Some(response.id.clone()),
            JsonRpcMessage::Error(error) => error.id.clone(),
            _ => None,
        };
        let release = id.map(|id| Release {
            id,
            in_flight: Arc::clone(&self.in_flight),
        });
        let send = self.inner.send(item);
        async move {
            let result = send.await;
            drop(release);
            result
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if self.pending.is_none() {
                self.pending = Some(self.inner.receive().await?);
            }
            let id = match self.pending.as_ref()? {
                JsonRpcMessage::Request(JsonRpcRequest { id, .. }) => id.clone(),
                JsonRpcMessage::Notification(notification)
                    if matches!(
                        notification.notification,
                        ClientNotification::CancelledNotification(_)
                    ) =>
                {
                    // Ignored: rmcp would drop the cancelled request's answer unwritten, and
                    // its permits with it would never come back. The request is answered; the
                    // client drops the late answer.
                    self.pending = None;
                    continue;
                }
                _ => return self.pending.take(),
            };
            // A request reusing the id of one still being answered waits for that answer.
            loop {
                let mut released = std::pin::pin!(self.in_flight.released.notified());
                released.as_mut().enable();
                if !lock(&self.in_flight.slots).contains_key(&id) {
                    break;
                }
                released.await;
            }
            let connection = Arc::clone(&self.connection).acquire_owned().await.ok()?;
            let server = Arc::clone(&self.server).acquire_owned().await.ok()?;
            lock(&self.in_flight.slots).insert(id, (connection, server));
            return self.pending.take();
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

/// The most a line may hold to be looked at by [`DepthGuard`]: rmcp's own limit, past which it
/// drops the line anyway.
const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// Reads lines for rmcp's line transport, and rewrites a request nested deeper than serde_json
/// reads into a request for [`TOO_DEEP`] under the same id, so it is answered with an error
/// instead of dropped unanswered; a notification nested too deep becomes an empty line (which
/// rmcp skips). Lines are held until their end (as rmcp does) up to [`MAX_LINE`]; a longer line
/// passes through untouched, for rmcp to drop.
struct DepthGuard<R> {
    inner: R,
    /// The line being read.
    line: Vec<u8>,
    /// What is ready to hand on, from `at`.
    ready: Vec<u8>,
    at: usize,
    /// The rest of an over-long line passes through unlooked.
    passing: bool,
    eof: bool,
}

impl<R> DepthGuard<R> {
    fn new(inner: R) -> Self {
        DepthGuard {
            inner,
            line: Vec::new(),
            ready: Vec::new(),
            at: 0,
            passing: false,
            eof: false,
        }
    }

    /// Takes in bytes read from the inner reader.
    fn take_in(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let end = rest.iter().position(|&b| b == b'\n');
            let (part, after) = match end {
                Some(i) => rest.split_at(i + 1),
                None => (rest, &[][..]),
            };
            rest = after;
            if self.passing {
                self.ready.extend_from_slice(part);
                self.passing = end.is_none();
                continue;
            }
            self.line.extend_from_slice(part);
            if end.is_some() {
                let line = std::mem::take(&mut self.line);
                self.ready.extend_from_slice(&checked_line(line));
            } else if self.line.len() > MAX_LINE {
                self.ready.append(&mut self.line);
                self.passing = true;
            }
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for DepthGuard<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.at < this.ready.len() {
                let n = buf.remaining().min(this.ready.len() - this.at);
                buf.put_slice(&this.ready[this.at..this.at + n]);
                this.at += n;
                if this.at == this.ready.len() {
                    this.ready.clear();
                    this.at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof {
                // An unfinished last line goes on as it is: rmcp drops it.
                this.ready.append(&mut this.line);
                if this.ready.is_empty() {
                    return Poll::Ready(Ok(()));
                }
                continue;
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {
                    if read.filled().is_empty() {
                        this.eof = true;
                    } else {
                        let filled = read.filled().to_vec();
                        this.take_in(&filled);
                    }
                }
            }
        }
    }
}

/// `line` (ending in a newline) as rmcp should see it: itself, or, when nested deeper than
/// serde_json reads, a shallow request for [`TOO_DEEP`] under the same id (a line without an
/// id becomes an empty line).
fn checked_line(line: Vec<u8>) -> Vec<u8> {
    let depth = json_depth(&line);
    if depth <= MAX_JSON_DEPTH {
        return line;
    }
    let (id, method) = top_level_id_and_method(&line);
    let Some(id) = id else {
        return b"\n".to_vec();
    };
    let method: Value = method.map_or(Value::Null, |m| Value::String(clip(&m)));
    let mut out = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": TOO_DEEP,
        "params": {"method": method, "depth": depth},
    })
    .to_string()
    .into_bytes();
    out.push(b'\n');
    out
}

/// The deepest nesting of arrays and objects in `text`, outside strings.
fn json_depth(text: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The `id` (a number or a string) and the `method` of a JSON-RPC message, read at the top level
/// without parsing what is nested.
fn top_level_id_and_method(text: &[u8]) -> (Option<Value>, Option<String>) {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let (mut id, mut method) = (None, None);
    let mut depth = 0usize;
    let mut i = 0;
    // At depth 1 a string followed by `:` is a key; its value follows.
    let mut key: Option<Vec<u8>> = None;
    while i < text.len() {
        let b = text[i];
        match b {
            b'"' => {
                let end = string_end(text, i);
                if depth == 1 {
                    let token = &text[i..end];
                    let mut j = end;
                    while j < text.len() && text[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if text.get(j) == Some(&b':') {
                        key = Some(token.to_vec());
                        i = j + 1;
                        continue;
                    }
                    if let Some(k) = key.take() {
                        let value: Option<Value> = serde_json::from_slice(token).ok();
                        match k.as_slice() {
                            b"\"id\"" => id = value,
                            b"\"method\"" => {
                                method = value.and_then(|v| v.as_str().map(str::to_owned))
                            }
                            _ => {}
                        }
                    }
                }
                i = end;
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                key = None;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'-' | b'0'..=b'9' if depth == 1 => {
                let end = text[i..]
                    .iter()
                    .position(|c| !matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .map_or(text.len(), |n| i + n);
                if key.take().is_some_and(|k| k == b"\"id\"") {
                    id = serde_json::from_slice::<Value>(&text[i..end]).ok();
                }
                i = end;
                continue;
            }
            b',' => key = None,
            _ => {}
        }
        i += 1;
    }
    (id.filter(|v| v.is_number() || v.is_string()), method)
}

/// The index just past the string that starts at `start` (a `"`).
fn string_end(text: &[u8], start: usize) -> usize {
    let mut escaped = false;
    for (n, &b) in text[start + 1..].iter().enumerate() {
        if escaped {
            escaped = false;
        } else if b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            return start + n + 2;
        }
    }
    text.len()
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
/// use skills_embed_runtime::{Fields, Skill};
/// let fields = Fields { name: "demo".into(), description: "A demo.".into(), ..Fields::default() };
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
/// use skills_embed_runtime::{Fields, Skill};
/// let fields = Fields { name: "demo".into(), description: "A demo: quoted.".into(), ..Fields::default() };
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
    use serde_json::json;

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
    fn json_depth_agrees_with_serde_json() {
        for depth in [
            1,
            2,
            MAX_JSON_DEPTH - 1,
            MAX_JSON_DEPTH,
            MAX_JSON_DEPTH + 1,
            500,
        ] {
            let text = format!(
                r#"{{"a":"[{{\"]","b":{}0{}}}"#,
                "[".repeat(depth - 1),
                "]".repeat(depth - 1)
            );
            // One level is the object itself.
            assert_eq!(json_depth(text.as_bytes()), depth.max(1), "{text}");
            let parsed = serde_json::from_str::<Value>(&text);
            assert_eq!(parsed.is_ok(), depth <= MAX_JSON_DEPTH, "depth {depth}");
        }
    }

    #[test]
    fn a_request_nested_too_deep_keeps_its_id() {
        let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
        for (line, id) in [
            (
                format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{deep}}}"#),
                json!(7),
            ),
            (
                format!(r#"{{"params":{{"x":{deep}}}, "method" : "tools/call", "id" : "a\"b"}}"#),
                json!("a\"b"),
            ),
            (
                format!(r#"{{"id":-1.5e3,"params":[{deep},"}}"]}}"#),
                json!(-1500.0),
            ),
        ] {
            let out = checked_line(format!("{line}\n").into_bytes());
            let out: Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(out["id"], id, "{line}");
            assert_eq!(out["method"], TOO_DEEP);
        }
        let notification = format!(r#"{{"jsonrpc":"2.0","method":"x","params":{deep}}}"#);
        assert_eq!(
            checked_line(format!("{notification}\n").into_bytes()),
            b"\n"
        );
        let fine = b"{\"id\":1,\"method\":\"ping\"}\n".to_vec();
        assert_eq!(checked_line(fine.clone()), fine);
    }

    #[test]
    fn yaml_escapes_what_yaml_reads_as_a_line_break() {
        assert_eq!(yaml_json(&Value::from("a\u{2028}b")), "\"a\\u2028b\"");
        assert_eq!(yaml_json(&Value::from("a: b")), "\"a: b\"");
    }
}
