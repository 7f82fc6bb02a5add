//! [`McpServer`]: the builder, and serving one connection over a transport.

#![allow(
    deprecated,
    reason = "rmcp deprecates logging and resources/subscribe for protocol 2026-07-28; clients of 2025-11-25 send them"
)]

use std::fmt;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, CustomRequest,
    CustomResult, DiscoverResult, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams,
    GetSkillResult, Implementation, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler, ServiceExt};

#[cfg(feature = "mcp-http")]
use super::approval::Caller;
use super::connection::{Bounded, DepthGuard};
use super::guarded::Guarded;
use super::handler::Handler;
use super::options::Options;
use crate::tools::{Event, Settings, Source};

/// An MCP server over a skill set: tools, resources, the skills extension and a prompt. The one
/// builder for every transport: [`McpServer::run_stdio`] serves one client over stdio,
/// [`McpServer::serve`] one over any rmcp transport, and with feature `mcp-http`
/// [`McpServer::serve_http`] serves many over Streamable HTTP ([`McpServer::http_router`] to
/// mount it in an app of one's own).
///
/// Each connection (each HTTP session) has its own [`Session`](crate::tools::Session) and
/// approvals. See the [module documentation](super) for what each MCP method returns. It is an
/// rmcp [`ServerHandler`], so rmcp's own serving API works too.
///
/// ```
/// use skills_embed::mcp::{McpServer, Options};
/// use skills_embed::policy::{Answer, Permissions};
/// use skills_embed::tools::Settings;
/// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
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
/// let options = Options { name: "my-agent-skills".into(), version: "1.0.0".into(), ..Options::default() };
/// let server = McpServer::new(&SKILLS, settings).with_options(options);
/// # drop(server);
/// ```
pub struct McpServer {
    /// The settings and the connection's state: what answers the requests.
    pub(super) handler: Handler,
    /// What the server says of itself, and its limits.
    pub(super) options: Arc<Options>,
    /// HTTP's bearer tokens, each with the settings its requests are answered with (`None`:
    /// the server's own).
    pub(super) tokens: Vec<(Arc<str>, Option<Settings>)>,
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("live", &self.handler.source.is_live())
            .field("host", &self.handler.host)
            .field("options", &self.options)
            .field("tokens", &self.tokens.len())
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
    /// use skills_embed::disk::{Discovery, Overlay};
    /// use skills_embed::mcp::McpServer;
    /// use skills_embed::tools::Settings;
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
    /// McpServer::new(Arc::clone(&overlay), Settings::default()).run_stdio()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(source: impl Into<Source>, settings: Settings) -> Self {
        McpServer {
            handler: Handler::new(source.into(), settings),
            options: Arc::new(Options::process()),
            tokens: Vec::new(),
        }
    }

    /// Serves with `options`: the name and version the server gives, whether it remembers
    /// loads, and the limits on what a client can make it hold (every field has a documented
    /// default; see [`Options`]).
    ///
    /// ```
    /// use skills_embed::mcp::{McpServer, Options};
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// let server = McpServer::new(&SKILLS, Default::default())
    ///     .with_options(Options { max_in_flight: 4, remember_loads: true, ..Options::default() });
    /// # drop(server);
    /// ```
    pub fn with_options(mut self, options: Options) -> Self {
        self.handler.info = Implementation::new(options.name.clone(), options.version.clone());
        self.handler.remember_loads = options.remember_loads;
        self.handler.cache.ttl = options.cache_ttl;
        self.handler = self.handler.with_approvals(&options);
        self.options = Arc::new(options);
        self
    }

    /// Called with every session event (a skill loaded, a chunk loaded, an approval asked),
    /// for logs.
    ///
    /// ```
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// let server = skills_embed::mcp::McpServer::new(&SKILLS, Default::default())
    ///     .on_event(|event| eprintln!("skills: {event}"));
    /// # drop(server);
    /// ```
    pub fn on_event(mut self, hook: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.handler.on_event = Some(Arc::new(hook));
        self
    }

    /// Over HTTP, requires `Authorization: Bearer <token>` on every request (401 without it),
    /// answering this token's requests with `settings` (its own permission rules, say, so one
    /// team's agents see their skills only), or with the server's own settings for `None`. May
    /// be given more than once: each token has its own sessions, so a session opened with one
    /// token is unknown (404) under another, for requests and `DELETE` alike. Tokens are
    /// compared in constant time.
    ///
    /// ```
    /// use skills_embed::mcp::McpServer;
    /// use skills_embed::policy::Permissions;
    /// use skills_embed::tools::Settings;
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// let team_a = Settings { permissions: Permissions::new().deny("*").allow("team-a-*"), ..Settings::default() };
    /// let server = McpServer::new(&SKILLS, Settings::default())
    ///     .with_token("admin-token", None)
    ///     .with_token("team-a-token", Some(team_a));
    /// # drop(server);
    /// ```
    pub fn with_token(mut self, token: impl Into<String>, settings: Option<Settings>) -> Self {
        self.tokens.push((Arc::from(token.into()), settings));
        self
    }

    /// A server for another connection (an HTTP session): what this one was built with, its
    /// own state; `settings` instead of the server's own when given.
    #[cfg(feature = "mcp-http")]
    pub(super) fn session(&self, settings: Option<&Settings>, caller: Caller) -> Self {
        let mut handler = self.handler.fresh(settings, caller);
        // One answer for every token only while no token has settings of its own; a server
        // built by `session` (a token's, which has no tokens) keeps what it was told.
        if !self.tokens.is_empty() {
            handler.cache.public = self.tokens.iter().all(|(_, own)| own.is_none());
        }
        McpServer {
            handler,
            options: Arc::clone(&self.options),
            tokens: Vec::new(),
        }
    }

    /// Serves one client over `transport` (a child process's pipes, an in-memory duplex, ...
    /// anything rmcp can serve over) until it disconnects.
    ///
    /// At most [`Options::max_in_flight`] requests of this client (and the
    /// [`Options::server_max_in_flight`] across servers) are answered at once, each counted from when
    /// it is read until its answer is written; meanwhile nothing more is read from the client
    /// (see the [module documentation](super#limits-on-what-a-client-can-make-the-server-hold)).
    ///
    /// ```no_run
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// let (server_side, _client_side) = tokio::io::duplex(64 * 1024);
    /// skills_embed::mcp::McpServer::new(&SKILLS, Default::default()).serve(server_side).await
    /// # }
    /// ```
    pub async fn serve<T, E, A>(self, transport: T) -> std::io::Result<()>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let transport = Bounded::new(
            transport.into_transport(),
            self.options.max_in_flight,
            &self.options.server_limit(),
        );
        let running = ServiceExt::serve(Guarded(self.handler), transport)
            .await
            .map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    }

    /// Serves one client over standard input and output until it disconnects (what MCP hosts
    /// that start the server as a child process expect), blocking the calling thread on a
    /// runtime of its own. A request nested deeper than the JSON parser reads is answered with
    /// an error carrying its id. Must not be called from inside an async runtime: there,
    /// [`serve`](McpServer::serve) `rmcp::transport::stdio()`.
    ///
    /// ```no_run
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// fn main() -> std::io::Result<()> {
    ///     skills_embed::mcp::McpServer::new(&SKILLS, Default::default()).run_stdio()
    /// }
    /// ```
    pub fn run_stdio(self) -> std::io::Result<()> {
        let (input, output) = rmcp::transport::stdio();
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(self.serve((DepthGuard::new(input), output)))
    }

    /// Serves MCP's Streamable HTTP at `/mcp` on `listener` until `shutdown` completes (say
    /// `tokio::signal::ctrl_c()`); then accepts no new connection, lets the requests in flight
    /// finish (up to 10 s), closes the sessions and returns. Every session (every request,
    /// when [stateless](Options::stateless)) gets its own server built as this one was.
    /// The address bound is allowed in `Host`, and its own origin in `Origin`; see
    /// [`Options`] for the rest and the [`http` section](super#streamable-http) for what is
    /// refused.
    ///
    /// ```no_run
    /// use skills_embed::mcp::McpServer;
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// let shutdown = async { let _ = tokio::signal::ctrl_c().await; };
    /// McpServer::new(&SKILLS, Default::default()).serve_http(listener, shutdown).await
    /// # }
    /// ```
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    pub async fn serve_http(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> std::io::Result<()> {
        super::http::HttpServer::new(self)
            .serve_on(listener, shutdown)
            .await
    }

    /// The Streamable HTTP endpoint as an axum router (`/mcp`, 404 elsewhere), to mount in an
    /// app of one's own: only the hosts and origins of [`Options`] are allowed, and the
    /// connection limits are the app's. Cancelling `shutdown` closes every session.
    ///
    /// ```
    /// use skills_embed::mcp::McpServer;
    /// # static SKILLS: skills_embed::SkillSet = skills_embed::SkillSet::empty();
    /// let router = McpServer::new(&SKILLS, Default::default())
    ///     .http_router(tokio_util::sync::CancellationToken::new());
    /// # drop(router);
    /// ```
    #[cfg(feature = "mcp-http")]
    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    pub fn http_router(self, shutdown: tokio_util::sync::CancellationToken) -> axum::Router {
        super::http::HttpServer::new(self).router(shutdown)
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

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        self.handler.negotiate_initialize(request)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        self.handler.discover(context).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.handler.accepted_subscription_filter(requested)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.handler.listen(context).await
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
