//! [`McpServer`]: the builder, and serving one connection over a transport.

#![allow(
    deprecated,
    reason = "rmcp deprecates logging and resources/subscribe for protocol 2026-07-28; clients of 2025-11-25 send them"
)]

use std::fmt;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams, GetSkillResult,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, PaginatedRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
    SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use tokio::sync::Semaphore;

use super::DEFAULT_MAX_IN_FLIGHT;
use super::connection::{Bounded, DepthGuard, InFlightLimit};
use super::handler::{Guarded, Handler};
use crate::tools::{Event, Settings, Source};

/// An MCP server over a skill set: tools, resources, the skills extension and a prompt.
///
/// One value serves one connection (its [`Session`](crate::tools::Session) and approvals are that connection's):
/// build one per client. See the [module documentation](super) for what each MCP method
/// returns. It is an rmcp [`ServerHandler`], so rmcp's own serving API works too (any
/// transport, or a factory per session for rmcp's streamable HTTP server).
///
/// ```
/// use skills_embed_runtime::mcp::McpServer;
/// use skills_embed_runtime::policy::{Answer, Permissions};
/// use skills_embed_runtime::tools::Settings;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
///
/// let settings = Settings {
///     name: "open_skill".parse().unwrap(),
///     permissions: Permissions::new().ask("deploy-*").deny("internal-*"),
///     ..Settings::default()
/// }
/// // Called when the model loads a skill under `ask`; answer after asking the user.
/// .with_approval(|subject| async move {
///     if subject.skill == "deploy-staging" { Answer::Always } else { Answer::Reject }
/// });
/// let server = McpServer::new(&SKILLS, settings).with_server_info("my-agent-skills", "1.0.0");
/// # drop(server);
/// ```
pub struct McpServer {
    /// The settings and the connection's state: what answers the requests.
    handler: Handler,
    /// Requests of this connection answered at once.
    max_in_flight: usize,
    /// Requests of all connections answered at once.
    server_limit: InFlightLimit,
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("live", &self.handler.source.is_live())
            .field("host", &self.handler.host)
            .field("remember_loads", &self.handler.remember_loads)
            .field("info", &self.handler.info)
            .field("max_in_flight", &self.max_in_flight)
            .field("server_limit", &self.server_limit)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// A server for the skills of `source` (`&SKILLS`, what `skills!` generates; a set built
    /// at run time, owned or shared; an [`Overlay`](crate::disk::Overlay) of skills on disk;
    /// [`Source::live`]), served with `settings`.
    ///
    /// For a source that may change while it serves (a live one, an overlay), the set is asked
    /// for on every request, and when what the client may see of it (the names, fields and
    /// file digests of the skills its permissions show) differs from what it saw before, the
    /// client is told its tool and resource lists changed and the session starts over on the
    /// new set (keeping the connection's `always` answers for the skills that did not change:
    /// a changed skill is asked for again). A change to a denied skill tells the client
    /// nothing.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use skills_embed_runtime::disk::{Discovery, Overlay};
    /// use skills_embed_runtime::mcp::McpServer;
    /// use skills_embed_runtime::tools::Settings;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
    /// McpServer::new(Arc::clone(&overlay), Settings::default()).run_stdio()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(source: impl Into<Source>, settings: Settings) -> Self {
        McpServer {
            handler: Handler::new(source.into(), settings),
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
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS, Default::default()).with_max_in_flight(4);
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
    /// let server = McpServer::new(&SKILLS, Default::default()).with_server_limit(InFlightLimit::new(16));
    /// # drop(server);
    /// ```
    pub fn with_server_limit(mut self, limit: InFlightLimit) -> Self {
        self.server_limit = limit;
        self
    }

    /// Answers a second load of a body already loaded on this connection briefly (see
    /// [`Session::handle`](crate::tools::Session::handle)). Off by default: an MCP host often keeps one connection for many
    /// conversations, where "already loaded" would be wrong.
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS, Default::default()).remember_loads(true);
    /// # drop(server);
    /// ```
    pub fn remember_loads(mut self, remember: bool) -> Self {
        self.handler.remember_loads = remember;
        self
    }

    /// Called with every session event (a skill loaded, a chunk loaded, an approval asked),
    /// for logs.
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS, Default::default())
    ///     .on_event(|event| eprintln!("skills: {event}"));
    /// # drop(server);
    /// ```
    pub fn on_event(mut self, hook: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.handler.on_event = Some(Arc::new(hook));
        self
    }

    /// The name and version the server gives in its `initialize` answer (default: `skills`
    /// and this crate's version).
    ///
    /// ```
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let server = skills_embed_runtime::mcp::McpServer::new(&SKILLS, Default::default())
    ///     .with_server_info("acme-skills", "2.1.0");
    /// # drop(server);
    /// ```
    pub fn with_server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.handler.info = Implementation::new(name, version);
        self
    }

    /// Serves one client over `transport` (stdio, a child process's pipes, an in-memory duplex,
    /// ... anything rmcp can serve over) until it disconnects.
    ///
    /// At most [`with_max_in_flight`](McpServer::with_max_in_flight) requests of this client
    /// (and the [server limit](McpServer::with_server_limit) across servers) are answered at
    /// once, each counted from when it is read until its answer is written; meanwhile nothing
    /// more is read from the client (see the [module documentation](super#limits-on-what-a-client-can-make-the-server-hold)).
    ///
    /// ```no_run
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// let (server_side, _client_side) = tokio::io::duplex(64 * 1024);
    /// skills_embed_runtime::mcp::McpServer::new(&SKILLS, Default::default()).serve(server_side).await
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
        let running = ServiceExt::serve(Guarded(self.handler), transport)
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
    /// skills_embed_runtime::mcp::McpServer::new(&SKILLS, Default::default()).serve_stdio().await
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
    ///     skills_embed_runtime::mcp::McpServer::new(&SKILLS, Default::default()).run_stdio()
    /// }
    /// ```
    pub fn run_stdio(self) -> std::io::Result<()> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(self.serve_stdio())
    }
}

/// The methods of [`ServerHandler`] that take a request and a context, each forwarded to the
/// handler: written once, as rmcp writes its own handler wrappers.
macro_rules! forward {
    ($($method:ident($request:ty) -> $result:ty;)*) => {$(
        async fn $method(
            &self,
            request: $request,
            context: RequestContext<RoleServer>,
        ) -> Result<$result, ErrorData> {
            self.handler.$method(request, context).await
        }
    )*};
}

// Every request is answered by the handler (`mcp/handler.rs`); the server forwards, so that it
// is itself an rmcp handler for rmcp's own serving API.
impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        self.handler.get_info()
    }

    forward! {
        list_tools(Option<PaginatedRequestParams>) -> ListToolsResult;
        call_tool(CallToolRequestParams) -> CallToolResponse;
        list_resources(Option<PaginatedRequestParams>) -> ListResourcesResult;
        list_resource_templates(Option<PaginatedRequestParams>) -> ListResourceTemplatesResult;
        read_resource(ReadResourceRequestParams) -> ReadResourceResponse;
        list_prompts(Option<PaginatedRequestParams>) -> ListPromptsResult;
        get_prompt(GetPromptRequestParams) -> GetPromptResponse;
        complete(CompleteRequestParams) -> CompleteResult;
        on_custom_request(CustomRequest) -> CustomResult;
        list_skills(Option<PaginatedRequestParams>) -> ListSkillsResult;
        get_skill(GetSkillRequestParams) -> GetSkillResult;
        read_resource_directory(ReadResourceDirectoryRequestParams) -> ReadResourceDirectoryResult;
        set_level(SetLevelRequestParams) -> ();
        subscribe(SubscribeRequestParams) -> ();
        unsubscribe(UnsubscribeRequestParams) -> ();
    }
}
