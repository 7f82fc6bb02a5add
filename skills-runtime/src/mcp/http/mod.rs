//! The MCP server over MCP's Streamable HTTP transport (feature `mcp-http`): [`HttpServer`],
//! a ready server (an axum router on hyper), and [`HttpService`], the tower service to mount
//! in an app.
//!
//! One [`McpServer`] answers one MCP session, so an [`HttpServer`] is built from a function
//! that makes one: it is called for every session (stateful mode, the default: the client
//! keeps an `Mcp-Session-Id`, and its approvals, loads and subscriptions are that session's)
//! or for every request ([`HttpServer::stateless`]: no session, so any number of replicas can
//! answer behind a load balancer without sticky routing; embedded sets are identical in every
//! replica). What needs a session, and so sticky routing when replicated: the `always` answers
//! of the approval hook, "already loaded" answers ([`McpServer::remember_loads`]),
//! `logging/setLevel`, `resources/subscribe` and the list-changed notifications, which all
//! belong to one session.
//!
//! # Safe by default
//!
//! - The endpoint is `/mcp`; any other path answers 404.
//! - `Host` must name a loopback address (`localhost`, `127.0.0.1`, `::1`) unless more are
//!   allowed ([`HttpServer::allow_hosts`]): a DNS-rebinding page cannot reach a loopback
//!   server under its own name. [`HttpServer::serve`] also allows the address it is bound to.
//! - A request with an `Origin` header (what a browser sends) is refused with 403 unless the
//!   origin is allowed ([`HttpServer::allow_origins`]); [`HttpServer::serve`] allows the
//!   server's own origin. Requests without `Origin` (MCP clients that are not browsers) pass.
//! - With a bearer token ([`HttpServer::with_token`]), a request without
//!   `Authorization: Bearer <token>` gets 401 (compared in constant time). A token can have
//!   a server of its own ([`HttpServer::with_token_for`]: its own permission rules, say, so
//!   one team's agents see their skills only). Every token has its own sessions: a session
//!   opened with one token is unknown (404) under another, for every method.
//! - A request body over [`DEFAULT_MAX_BODY`] bytes is refused (413), at most
//!   [`HttpServer::with_max_in_flight`] requests are answered at once, and at most
//!   [`DEFAULT_MAX_SESSIONS`] sessions are held ([`HttpServer::with_max_sessions`]; one more is
//!   answered 503). One session has at most [`DEFAULT_MAX_IN_FLIGHT`] of the server's
//!   requests in flight, as a stdio connection: a client that floods one session waits behind
//!   itself, not in front of the others.
//! - Connections ([`HttpServer::serve`] and [`HttpServer::run`]): a client has
//!   [`DEFAULT_HEADER_READ_TIMEOUT`] to send a request's head and a request's body
//!   ([`HttpServer::with_header_read_timeout`]), a connection with no request in progress is
//!   closed after [`DEFAULT_IDLE_TIMEOUT`] ([`HttpServer::with_idle_timeout`]), and at most
//!   [`DEFAULT_MAX_CONNECTIONS`] are open at once, fewer under a low descriptor limit
//!   ([`HttpServer::with_max_connections`]; the next waits in the listen queue). Connections
//!   that send nothing are closed, so a new client is answered within the header-read timeout
//!   even while more of them are held than the process has descriptors. The one listener is
//!   bound without `SO_REUSEPORT`: no other process can bind the port beside it.
//!   Sessions' event streams (GET), which hold their connection as long as the session lives,
//!   take at most half the connections; one more is answered 503 with `Retry-After`.
//! - [`HttpServer::serve`] stops on SIGTERM or Ctrl-C: it accepts no new connection, lets the
//!   requests in flight finish (up to [`SHUTDOWN_GRACE`]), then closes the sessions.
//!
//! ```no_run
//! use skills_embed_runtime::mcp::McpServer;
//! use skills_embed_runtime::mcp::http::HttpServer;
//! # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> std::io::Result<()> {
//!     HttpServer::new(|| McpServer::new(&SKILLS, Default::default()))
//!         .serve("127.0.0.1:8080".parse().unwrap())
//!         .await
//! }
//! ```

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::connection::InFlightLimit;
use super::server::McpServer;
use super::{DEFAULT_MAX_IN_FLIGHT, DEFAULT_SERVER_MAX_IN_FLIGHT};

mod body;
mod listen;
mod service;

pub use service::HttpService;

/// The path of the MCP endpoint.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::http::ENDPOINT, "/mcp");
/// ```
pub const ENDPOINT: &str = "/mcp";

/// The largest request body accepted by default: 1 MiB (a `tools/call` is some hundred bytes).
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::http::DEFAULT_MAX_BODY, 1 << 20);
/// ```
pub const DEFAULT_MAX_BODY: usize = 1 << 20;

/// How many sessions a server holds at most by default, over all its tokens: each costs a
/// worker and buffers until the client ends it or it idles out (rmcp: 5 minutes), so a client
/// that opens sessions in a loop would otherwise grow the server without bound.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::http::DEFAULT_MAX_SESSIONS, 1024);
/// ```
pub const DEFAULT_MAX_SESSIONS: usize = 1024;

/// How long [`HttpServer::serve`] waits for requests in flight after a shutdown signal.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::http::SHUTDOWN_GRACE.as_secs(), 10);
/// ```
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// How long a connection has by default to send a request's head (counted from when it was
/// accepted, or from the end of its previous answer) and then the request's body: a
/// connection that sends nothing, or a byte at a time, is closed after it.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::http::DEFAULT_HEADER_READ_TIMEOUT.as_secs(), 10);
/// ```
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long by default a connection that has been answered stays open without a request in
/// progress (HTTP keep-alive) before the server closes it; clients open a new one.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::http::DEFAULT_IDLE_TIMEOUT.as_secs(), 5);
/// ```
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(5);

/// The most connections a server holds open at once by default. Under a lower descriptor
/// limit the default is three quarters of the process's soft limit (`ulimit -n`; 768 under
/// the common 1,024), so the server keeps descriptors for its files and scripts and never
/// fails to accept for want of one. The next connection waits in the listen queue until one
/// closes.
///
/// ```
/// assert_eq!(skills_embed_runtime::mcp::http::DEFAULT_MAX_CONNECTIONS, 4096);
/// ```
pub const DEFAULT_MAX_CONNECTIONS: usize = 4096;

/// The hosts allowed in `Host` by default: loopback only.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The function that makes the server of a session.
type Factory = Arc<dyn Fn() -> McpServer + Send + Sync>;

/// An MCP server over Streamable HTTP: what [`McpServer`] is over stdio, for many clients.
///
/// ```no_run
/// use skills_embed_runtime::mcp::McpServer;
/// use skills_embed_runtime::mcp::http::HttpServer;
/// use skills_embed_runtime::policy::Permissions;
/// use skills_embed_runtime::tools::Settings;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// # async fn run() -> std::io::Result<()> {
/// HttpServer::new(|| McpServer::new(&SKILLS, Settings { permissions: Permissions::new().deny("internal-*"), ..Settings::default() }))
///     .with_token("s3cret")
///     .allow_hosts(["skills.internal.example"])
///     .serve("0.0.0.0:8080".parse().unwrap())
///     .await
/// # }
/// ```
#[derive(Clone)]
pub struct HttpServer {
    factory: Factory,
    stateless: bool,
    hosts: Vec<String>,
    origins: Vec<String>,
    /// The bearer tokens accepted, each with its own server or the default one.
    tokens: Vec<(Arc<str>, Option<Factory>)>,
    max_body: usize,
    limit: InFlightLimit,
    max_sessions: usize,
    connections: listen::Connections,
}

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("stateless", &self.stateless)
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("tokens", &self.tokens.len())
            .field("max_body", &self.max_body)
            .field("max_sessions", &self.max_sessions)
            .field("limit", &self.limit)
            .field("connections", &self.connections)
            .finish_non_exhaustive()
    }
}

impl HttpServer {
    /// A server whose sessions are answered by what `server` makes, called once per session
    /// (once per request when [stateless](HttpServer::stateless)).
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default()));
    /// # drop(http);
    /// ```
    pub fn new(server: impl Fn() -> McpServer + Send + Sync + 'static) -> Self {
        HttpServer {
            factory: Arc::new(server),
            stateless: false,
            hosts: LOOPBACK.iter().map(|h| (*h).to_owned()).collect(),
            origins: Vec::new(),
            tokens: Vec::new(),
            max_body: DEFAULT_MAX_BODY,
            max_sessions: DEFAULT_MAX_SESSIONS,
            limit: InFlightLimit::new(DEFAULT_SERVER_MAX_IN_FLIGHT),
            connections: listen::Connections::default(),
        }
    }
    /// Serves without sessions: every request is answered by a new server, and answers are
    /// plain JSON. Replicas need no sticky routing; what belongs to a session is lost between
    /// requests (see the [module documentation](self)).
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).stateless(true);
    /// # drop(http);
    /// ```
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.stateless = stateless;
        self
    }

    /// Also accepts these names in `Host` (with or without a port): the names clients use to
    /// reach a server bound to a non-loopback address.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).allow_hosts(["skills.example.com"]);
    /// # drop(http);
    /// ```
    pub fn allow_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.hosts.extend(hosts.into_iter().map(Into::into));
        self
    }

    /// Also accepts requests from these browser origins (`scheme://host:port`; `:*` for any
    /// port). Every other `Origin` is refused with 403.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default()))
    ///     .allow_origins(["https://console.example.com:443"]);
    /// # drop(http);
    /// ```
    pub fn allow_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.origins.extend(origins.into_iter().map(Into::into));
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request (401 without it). May be given
    /// more than once: each token then has its own sessions, so a session opened with one
    /// token is unknown (404) under another, for requests and `DELETE` alike.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).with_token("s3cret");
    /// # drop(http);
    /// ```
    pub fn with_token(mut self, token: impl Into<String>) -> Self {
        self.tokens.push((Arc::from(token.into()), None));
        self
    }

    /// Accepts `token` too (a token is then required on every request), answering its requests
    /// with what `server` makes: one team's token can come with its own permission rules.
    /// As with [`HttpServer::with_token`], sessions started with one token are unknown under
    /// another.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// use skills_embed_runtime::policy::Permissions;
    /// use skills_embed_runtime::tools::Settings;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default()))
    ///     .with_token("admin-token")
    ///     .with_token_for("team-a-token", || {
    ///         McpServer::new(&SKILLS, Settings { permissions: Permissions::new().deny("*").allow("team-a-*"), ..Settings::default() })
    ///     });
    /// # drop(http);
    /// ```
    pub fn with_token_for(
        mut self,
        token: impl Into<String>,
        server: impl Fn() -> McpServer + Send + Sync + 'static,
    ) -> Self {
        self.tokens
            .push((Arc::from(token.into()), Some(Arc::new(server) as Factory)));
        self
    }

    /// Refuses request bodies over `bytes` (default [`DEFAULT_MAX_BODY`]).
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).with_max_body(64 * 1024);
    /// # drop(http);
    /// ```
    pub fn with_max_body(mut self, bytes: usize) -> Self {
        self.max_body = bytes;
        self
    }

    /// Holds at most `max` sessions at once, over all tokens (default [`DEFAULT_MAX_SESSIONS`]):
    /// a request that would open one more is answered 503 with `Retry-After`, and the sessions
    /// open go on. A session ends when its client sends `DELETE` or after 5 minutes idle.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).with_max_sessions(100);
    /// # drop(http);
    /// ```
    pub fn with_max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max;
        self
    }

    /// Answers at most `max` requests at once (default [`DEFAULT_SERVER_MAX_IN_FLIGHT`]); the
    /// others wait. A POST counts until its answer's body is done and the work it started (a
    /// script run) has ended; a GET (a session's event stream, open as long as the session)
    /// does not count. A request of a session first waits for one of its session's
    /// [`DEFAULT_MAX_IN_FLIGHT`], so one session cannot hold all of them.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).with_max_in_flight(16);
    /// # drop(http);
    /// ```
    pub fn with_max_in_flight(mut self, max: usize) -> Self {
        self.limit = InFlightLimit::new(max);
        self
    }

    /// Gives a connection `timeout` to send a request's head, counted from when it was accepted
    /// or its previous answer ended, and then as long for the request's body (default
    /// [`DEFAULT_HEADER_READ_TIMEOUT`]); a connection late with either is closed.
    ///
    /// ```
    /// use std::time::Duration;
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default()))
    ///     .with_header_read_timeout(Duration::from_secs(3));
    /// # drop(http);
    /// ```
    pub fn with_header_read_timeout(mut self, timeout: Duration) -> Self {
        self.connections.header_read = timeout;
        self
    }

    /// Closes a connection that has been answered and has had no request in progress for
    /// `timeout` (default [`DEFAULT_IDLE_TIMEOUT`]). The header-read timeout runs over the same
    /// wait, so a quiet connection is closed after the shorter of the two.
    ///
    /// ```
    /// use std::time::Duration;
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).with_idle_timeout(Duration::from_secs(2));
    /// # drop(http);
    /// ```
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.connections.idle = timeout;
        self
    }

    /// Holds at most `max` connections open at once (at least one; default
    /// [`DEFAULT_MAX_CONNECTIONS`], or three quarters of the descriptor limit if that is lower);
    /// the next connection waits in the listen queue until one closes. Sessions' event streams
    /// may hold at most half of them.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).with_max_connections(256);
    /// # drop(http);
    /// ```
    pub fn with_max_connections(mut self, max: usize) -> Self {
        self.connections.max = Some(max.max(1));
        self
    }

    /// The tower service answering `/mcp`, to mount in an app of one's own (axum, hyper, ...).
    /// Only the hosts and origins given to this builder are allowed. Cancelling `shutdown`
    /// closes every session. The connection limits are [`HttpServer::serve`]'s: an app that
    /// mounts the service sets its own.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let service = HttpServer::new(|| McpServer::new(&SKILLS, Default::default()))
    ///     .service(tokio_util::sync::CancellationToken::new());
    /// # drop(service);
    /// ```
    pub fn service(&self, shutdown: CancellationToken) -> HttpService {
        HttpService::new(self, shutdown)
    }

    /// Binds `addr` and serves until SIGTERM or Ctrl-C (see [`HttpServer::serve_on`]). The
    /// address bound is allowed in `Host`, and its own origin in `Origin`.
    ///
    /// ```no_run
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).serve("127.0.0.1:8080".parse().unwrap()).await
    /// # }
    /// ```
    pub async fn serve(self, addr: SocketAddr) -> std::io::Result<()> {
        let listener = listen::bind(addr)?;
        self.serve_on(listener, signal()).await
    }

    /// Like [`HttpServer::serve`], blocking the calling thread: one listener (no
    /// `SO_REUSEPORT`: no other process can bind the port beside it), whose connections are
    /// handed in turn to a thread per core, each with a single-threaded runtime, all serving
    /// the same sessions. A connection, its requests and the session it opened stay on one
    /// thread, so answering one wakes no other thread: at 16 and 64 clients on 2 cores this
    /// answers more requests, sooner, than one runtime with a worker per core (BENCHMARKS.md).
    /// Must not be called from inside an async runtime.
    ///
    /// ```no_run
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// fn main() -> std::io::Result<()> {
    ///     HttpServer::new(|| McpServer::new(&SKILLS, Default::default())).run("127.0.0.1:8080".parse().unwrap())
    /// }
    /// ```
    pub fn run(self, addr: SocketAddr) -> std::io::Result<()> {
        let acceptor = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let listener = acceptor.block_on(async { listen::bind(addr) })?;
        let this = self.for_address(listener.local_addr()?);
        let sessions = CancellationToken::new();
        let service = this.service(sessions.clone());
        listen::run_per_core(&acceptor, listener, service, sessions, &this.connections)
    }

    /// Serves on `listener` until `shutdown` completes; then accepts no new connection, waits
    /// for the requests in flight (up to [`SHUTDOWN_GRACE`]), closes the sessions and returns.
    ///
    /// ```no_run
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// let server = HttpServer::new(|| McpServer::new(&SKILLS, Default::default()));
    /// let running = tokio::spawn(server.serve_on(listener, async { let _ = stopped.await; }));
    /// let _ = stop.send(());
    /// running.await.unwrap()
    /// # }
    /// ```
    pub async fn serve_on(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send,
    ) -> std::io::Result<()> {
        let this = self.for_address(listener.local_addr()?);
        let sessions = CancellationToken::new();
        let service = this.service(sessions.clone());
        listen::serve(listener, service, sessions, &this.connections, shutdown).await;
        Ok(())
    }

    /// The server with the address it is bound to allowed: its origins in `Origin` (any
    /// address), and the address itself in `Host` (one that is neither loopback nor
    /// unspecified).
    fn for_address(self, local: SocketAddr) -> Self {
        let ip = local.ip();
        let host = if ip.is_ipv6() {
            format!("[{ip}]")
        } else {
            ip.to_string()
        };
        let port = local.port();
        let mut origins = vec![
            format!("http://localhost:{port}"),
            format!("http://127.0.0.1:{port}"),
            format!("http://[::1]:{port}"),
        ];
        if !ip.is_unspecified() && !ip.is_loopback() {
            origins.push(format!("http://{host}:{port}"));
        }
        let this = self.allow_origins(origins);
        if !ip.is_unspecified() && !ip.is_loopback() {
            this.allow_hosts([ip.to_string()])
        } else {
            this
        }
    }
}

/// Serves `server`'s sessions on `addr` until SIGTERM or Ctrl-C: shorthand for
/// [`HttpServer::new`] then [`HttpServer::serve`].
///
/// ```no_run
/// use skills_embed_runtime::mcp::McpServer;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// # async fn run() -> std::io::Result<()> {
/// skills_embed_runtime::mcp::http::serve_http("127.0.0.1:8080".parse().unwrap(), || {
///     McpServer::new(&SKILLS, Default::default())
/// })
/// .await
/// # }
/// ```
pub async fn serve_http(
    addr: SocketAddr,
    server: impl Fn() -> McpServer + Send + Sync + 'static,
) -> std::io::Result<()> {
    HttpServer::new(server).serve(addr).await
}

/// Completes at SIGTERM (Unix) or Ctrl-C.
async fn signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
