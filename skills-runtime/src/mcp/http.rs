//! The MCP server over MCP's Streamable HTTP transport (feature `mcp-http`): [`HttpServer`],
//! a ready server on hyper, and [`HttpService`], the tower service to mount in an app.
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
//!   one team's agents see their skills only); its sessions are separate from the others'.
//! - A request body over [`DEFAULT_MAX_BODY`] bytes is refused (413), at most
//!   [`HttpServer::with_max_in_flight`] requests are answered at once, and at most
//!   [`DEFAULT_MAX_SESSIONS`] sessions are held ([`HttpServer::with_max_sessions`]; one more is
//!   answered 503).
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
//!     HttpServer::new(|| McpServer::new(&SKILLS))
//!         .serve("127.0.0.1:8080".parse().unwrap())
//!         .await
//! }
//! ```

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode, header};
use http_body::Frame;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::DEFAULT_SERVER_MAX_IN_FLIGHT;
use super::connection::InFlightLimit;
use super::server::McpServer;

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

/// How long the accept loop waits after a failed accept before it tries again.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// The hosts allowed in `Host` by default: loopback only.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// A response body.
type Body = BoxBody<Bytes, Infallible>;

/// rmcp's Streamable HTTP service over our servers.
type Rmcp = StreamableHttpService<McpServer, LocalSessionManager>;

/// The function that makes the server of a session.
type Factory = Arc<dyn Fn() -> McpServer + Send + Sync>;

/// An MCP server over Streamable HTTP: what [`McpServer`] is over stdio, for many clients.
///
/// ```no_run
/// use skills_embed_runtime::mcp::McpServer;
/// use skills_embed_runtime::mcp::http::HttpServer;
/// use skills_embed_runtime::policy::Permissions;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// # async fn run() -> std::io::Result<()> {
/// HttpServer::new(|| McpServer::new(&SKILLS).with_permissions(Permissions::new().deny("internal-*")))
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
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS));
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
        }
    }

    /// Serves without sessions: every request is answered by a new server, and answers are
    /// plain JSON. Replicas need no sticky routing; what belongs to a session is lost between
    /// requests (see the [module documentation](self)).
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS)).stateless(true);
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
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS)).allow_hosts(["skills.example.com"]);
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
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS))
    ///     .allow_origins(["https://console.example.com:443"]);
    /// # drop(http);
    /// ```
    pub fn allow_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.origins.extend(origins.into_iter().map(Into::into));
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request (401 without it).
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS)).with_token("s3cret");
    /// # drop(http);
    /// ```
    pub fn with_token(mut self, token: impl Into<String>) -> Self {
        self.tokens.push((Arc::from(token.into()), None));
        self
    }

    /// Accepts `token` too (a token is then required on every request), answering its requests
    /// with what `server` makes: one team's token can come with its own permission rules.
    /// Sessions started with one token are unknown under another.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// use skills_embed_runtime::policy::Permissions;
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS))
    ///     .with_token("admin-token")
    ///     .with_token_for("team-a-token", || {
    ///         McpServer::new(&SKILLS).with_permissions(Permissions::new().deny("*").allow("team-a-*"))
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
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS)).with_max_body(64 * 1024);
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
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS)).with_max_sessions(100);
    /// # drop(http);
    /// ```
    pub fn with_max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max;
        self
    }

    /// Answers at most `max` requests at once (default [`DEFAULT_SERVER_MAX_IN_FLIGHT`]); the
    /// others wait. A POST counts until its answer's body is done; a GET (a session's event
    /// stream, open as long as the session) does not count.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let http = HttpServer::new(|| McpServer::new(&SKILLS)).with_max_in_flight(16);
    /// # drop(http);
    /// ```
    pub fn with_max_in_flight(mut self, max: usize) -> Self {
        self.limit = InFlightLimit::new(max);
        self
    }

    /// The tower service answering `/mcp`, to mount in an app of one's own (axum, hyper, ...).
    /// Only the hosts and origins given to this builder are allowed. Cancelling `shutdown`
    /// closes every session.
    ///
    /// ```
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// let service = HttpServer::new(|| McpServer::new(&SKILLS))
    ///     .service(tokio_util::sync::CancellationToken::new());
    /// # drop(service);
    /// ```
    pub fn service(&self, shutdown: CancellationToken) -> HttpService {
        let mut config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(self.hosts.clone())
            .with_allowed_origins(self.origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(self.max_body)
            .with_cancellation_token(shutdown)
            .with_legacy_session_mode(!self.stateless);
        if self.stateless {
            config = config.with_json_response(true).with_sse_keep_alive(None);
        }
        let mut managers = Vec::new();
        let mut rmcp_service = |factory: &Factory| {
            let factory = Arc::clone(factory);
            let manager = Arc::new(LocalSessionManager::default());
            managers.push(Arc::clone(&manager));
            StreamableHttpService::new(move || Ok(factory()), manager, config.clone())
        };
        let inner = rmcp_service(&self.factory);
        let tokens = self
            .tokens
            .iter()
            .map(|(token, own)| (Arc::clone(token), own.as_ref().map(&mut rmcp_service)))
            .collect();
        HttpService {
            inner,
            tokens,
            limit: self.limit.clone(),
            in_flight: Arc::default(),
            sessions: (!self.stateless).then(|| Sessions {
                managers: managers.into(),
                max: self.max_sessions,
            }),
        }
    }

    /// Binds `addr` and serves until SIGTERM or Ctrl-C (see [`HttpServer::serve_on`]). The
    /// address bound is allowed in `Host`, and its own origin in `Origin`.
    ///
    /// ```no_run
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// # async fn run() -> std::io::Result<()> {
    /// HttpServer::new(|| McpServer::new(&SKILLS)).serve("127.0.0.1:8080".parse().unwrap()).await
    /// # }
    /// ```
    pub async fn serve(self, addr: SocketAddr) -> std::io::Result<()> {
        let listener = TcpListener::bind(addr).await?;
        self.serve_on(listener, signal()).await
    }

    /// Like [`HttpServer::serve`], blocking the calling thread: a thread per core, each with a
    /// single-threaded runtime and a listener of its own on `addr` (`SO_REUSEPORT`; the kernel
    /// spreads the connections), all serving the same sessions. A connection, its requests and
    /// the session it opened stay on one thread, so answering one wakes no other thread: at 16
    /// and 64 clients on 2 cores this answers more requests, sooner, than one runtime with a
    /// worker per core (BENCHMARKS.md). Elsewhere than Unix, one runtime with a worker per core.
    /// Must not be called from inside an async runtime.
    ///
    /// ```no_run
    /// use skills_embed_runtime::mcp::{McpServer, http::HttpServer};
    /// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
    /// fn main() -> std::io::Result<()> {
    ///     HttpServer::new(|| McpServer::new(&SKILLS)).run("127.0.0.1:8080".parse().unwrap())
    /// }
    /// ```
    pub fn run(self, addr: SocketAddr) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            self.run_per_core(addr)
        }
        #[cfg(not(unix))]
        {
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?
                .block_on(self.serve(addr))
        }
    }

    /// [`HttpServer::run`] on Unix: the listeners are bound before any thread starts, so an
    /// address in use is an error here, and port 0 is one port for all of them.
    #[cfg(unix)]
    fn run_per_core(self, addr: SocketAddr) -> std::io::Result<()> {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        // Bound first without SO_REUSEPORT: an address another server holds is an error, as
        // for any server, not a share of that server's connections; port 0 is chosen here.
        let mut bound = std::net::TcpListener::bind(addr)?.local_addr()?;
        let mut cores_and_listeners = Vec::with_capacity(cores);
        for _ in 0..cores {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let listener = {
                // A tokio listener is registered with the runtime it is made in.
                let _entered = runtime.enter();
                let socket = if bound.is_ipv4() {
                    tokio::net::TcpSocket::new_v4()?
                } else {
                    tokio::net::TcpSocket::new_v6()?
                };
                socket.set_reuseaddr(true)?;
                socket.set_reuseport(true)?;
                socket.bind(bound)?;
                let listener = socket.listen(1024)?;
                bound = listener.local_addr()?;
                listener
            };
            cores_and_listeners.push((runtime, listener));
        }
        let this = self.for_address(bound);
        let sessions = CancellationToken::new();
        let service = this.service(sessions.clone());
        let stop = CancellationToken::new();
        let threads = cores_and_listeners
            .into_iter()
            .enumerate()
            .map(|(core, (runtime, listener))| {
                let (service, sessions, stop) = (service.clone(), sessions.clone(), stop.clone());
                std::thread::Builder::new()
                    .name(format!("skills-http-{core}"))
                    .spawn(move || {
                        runtime.block_on(accept_loop(
                            listener,
                            service,
                            sessions,
                            stop.cancelled_owned(),
                        ));
                    })
            })
            .collect::<std::io::Result<Vec<_>>>();
        let threads = match threads {
            Ok(threads) => threads,
            Err(e) => {
                stop.cancel();
                return Err(e);
            }
        };
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(signal());
        stop.cancel();
        for thread in threads {
            // A thread that panicked has ended its connections; the others finish theirs.
            let _ = thread.join();
        }
        Ok(())
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
    /// let server = HttpServer::new(|| McpServer::new(&SKILLS));
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
        accept_loop(listener, service, sessions, shutdown).await;
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

/// Accepts connections on `listener` and answers them with `service` until `shutdown`
/// completes; then accepts no new connection, waits for the requests in flight (up to
/// [`SHUTDOWN_GRACE`]; counted across every loop sharing `service`), ends the sessions
/// (`sessions`, the token `service` was made with) and their connections.
async fn accept_loop(
    listener: TcpListener,
    service: HttpService,
    sessions: CancellationToken,
    shutdown: impl Future<Output = ()>,
) {
    let in_flight = Arc::clone(&service.in_flight);
    let graceful = GracefulShutdown::new();
    let builder = hyper::server::conn::http1::Builder::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // Out of file descriptors, say: accepting again at once would spin;
                    // a pause lets connections in flight finish and free some.
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                };
                // An answer over a session is written in pieces (the event stream's head,
                // the event, the end): with Nagle's algorithm on, each later piece waits
                // for the client's delayed ACK, 40 ms on Linux, on every request.
                let _ = stream.set_nodelay(true);
                let connection = builder
                    .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service.clone()));
                let watched = graceful.watch(connection);
                tokio::spawn(async move {
                    // A connection that fails (the client went) concerns that client only.
                    let _ = watched.await;
                });
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    // Requests in flight finish; sessions and their event streams end after them.
    let deadline = tokio::time::Instant::now() + SHUTDOWN_GRACE;
    while in_flight.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    sessions.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(1), graceful.shutdown()).await;
}

/// Serves `server`'s sessions on `addr` until SIGTERM or Ctrl-C: shorthand for
/// [`HttpServer::new`] then [`HttpServer::serve`].
///
/// ```no_run
/// use skills_embed_runtime::mcp::McpServer;
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// # async fn run() -> std::io::Result<()> {
/// skills_embed_runtime::mcp::http::serve_http("127.0.0.1:8080".parse().unwrap(), || {
///     McpServer::new(&SKILLS)
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

/// The tower service of an [`HttpServer`]: `/mcp`, the bearer token, the in-flight limit,
/// then rmcp's Streamable HTTP service (Host and Origin checks, body limit, sessions).
///
/// ```
/// use skills_embed_runtime::mcp::{McpServer, http::{HttpServer, HttpService}};
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// fn is_tower<S: tower_service::Service<http::Request<String>>>(_: &S) {}
/// let service: HttpService = HttpServer::new(|| McpServer::new(&SKILLS)).service(Default::default());
/// is_tower(&service);
/// ```
#[derive(Clone)]
pub struct HttpService {
    inner: Rmcp,
    /// The tokens accepted, each with its own service or the default one (`inner`).
    tokens: Vec<(Arc<str>, Option<Rmcp>)>,
    limit: InFlightLimit,
    /// Requests being answered, for the graceful shutdown.
    in_flight: Arc<AtomicUsize>,
    /// The session stores and their bound (`None`: stateless, no sessions).
    sessions: Option<Sessions>,
}

/// Every session store of a server (one per service: the default and each token's own), to
/// bound the sessions they hold together.
#[derive(Clone)]
struct Sessions {
    managers: Arc<[Arc<LocalSessionManager>]>,
    max: usize,
}

impl Sessions {
    /// Whether the stores hold `max` sessions already.
    async fn full(&self) -> bool {
        let mut held = 0;
        for manager in self.managers.iter() {
            held += manager.sessions.read().await.len();
        }
        held >= self.max
    }
}

impl std::fmt::Debug for HttpService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpService")
            .field("tokens", &self.tokens.len())
            .field("limit", &self.limit)
            .field("in_flight", &self.in_flight.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl<B> tower_service::Service<Request<B>> for HttpService
where
    B: http_body::Body + Send + 'static,
    B::Error: std::fmt::Display,
    B::Data: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if request.uri().path() != ENDPOINT {
            let answer = plain(
                StatusCode::NOT_FOUND,
                &format!("Not found: this server answers MCP at {ENDPOINT}."),
            );
            return Box::pin(async move { Ok(answer) });
        }
        let chosen = if self.tokens.is_empty() {
            Some(&self.inner)
        } else {
            self.tokens
                .iter()
                .find(|(token, _)| authorized(request.headers(), token))
                .map(|(_, own)| own.as_ref().unwrap_or(&self.inner))
        };
        let Some(chosen) = chosen else {
            let mut answer = plain(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: send the server's token as `Authorization: Bearer <token>`.",
            );
            answer.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
            return Box::pin(async move { Ok(answer) });
        };
        let (inner, limit) = (chosen.clone(), self.limit.clone());
        let in_flight = Arc::clone(&self.in_flight);
        // A GET is the session's event stream, open as long as the session: not a request.
        let counted = request.method() != http::Method::GET;
        // A POST without a session id opens one (`initialize`; anything else is refused).
        let opens = (request.method() == http::Method::POST
            && !request.headers().contains_key("mcp-session-id"))
        .then(|| self.sessions.clone())
        .flatten();
        Box::pin(async move {
            if let Some(sessions) = opens
                && sessions.full().await
            {
                return Ok(too_many_sessions(sessions.max));
            }
            if !counted {
                return Ok(inner.handle(request).await);
            }
            // Alone, the answer is not held (`hold_first_events`): a core is free to make it
            // while the client reads the head, and a write saved is worth less than that overlap.
            let busy = in_flight.fetch_add(1, Ordering::SeqCst) > 0;
            let guard = Counted {
                _permit: limit.acquire().await,
                in_flight,
            };
            let (parts, body) = inner.handle(request).await.into_parts();
            // The answer to a POST may be an event stream that ends after the JSON-RPC answer:
            // the request counts until its body is done.
            let mut tracked = Tracked {
                ready: VecDeque::new(),
                body: Some(body),
                _guard: guard,
            };
            if busy && is_event_stream(&parts.headers) {
                tracked.hold_first_events().await;
            }
            Ok(Response::from_parts(parts, BoxBody::new(tracked)))
        })
    }
}

/// What a request holds while it is answered: a permit of the in-flight limit, and its count
/// in the requests the graceful shutdown waits for.
struct Counted {
    _permit: Option<tokio::sync::OwnedSemaphorePermit>,
    in_flight: Arc<AtomicUsize>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An answer's body that keeps its request counted until the body is done or dropped.
struct Tracked {
    /// Frames taken from `body` before the answer was handed to hyper
    /// ([`Tracked::hold_first_events`]).
    ready: VecDeque<Frame<Bytes>>,
    /// `None` once it has ended: a stream is not polled after its end.
    body: Option<Body>,
    _guard: Counted,
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.ready.pop_front() {
            Some(frame) => Poll::Ready(Some(Ok(frame))),
            None => self.poll_body(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.ready.is_empty() && self.body.as_ref().is_none_or(Body::is_end_stream)
    }

    fn size_hint(&self) -> http_body::SizeHint {
        let ready: u64 = self
            .ready
            .iter()
            .filter_map(|f| f.data_ref().map(|d| d.len() as u64))
            .sum();
        let mut hint = self
            .body
            .as_ref()
            .map_or_else(|| http_body::SizeHint::with_exact(0), Body::size_hint);
        // Upper first: `set_lower` refuses a bound above the upper one.
        if let Some(upper) = hint.upper() {
            hint.set_upper(upper + ready);
        }
        hint.set_lower(hint.lower() + ready);
        hint
    }
}

/// How many times an event stream answering a POST lets its runtime run other tasks while it
/// waits for the event after the priming one. The session's task is woken through the runtime's
/// driver, so it answers a few turns later, not on the next one: 3 turns were too few for a
/// `resources/read` (strace: still two writes), 16 are enough.
const FIRST_EVENT_TURNS: u32 = 16;

impl Tracked {
    /// The body's next frame; the body is dropped at its end, so it is never polled after.
    fn poll_body(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let Some(body) = &mut self.body else {
            return Poll::Ready(None);
        };
        let frame = http_body::Body::poll_frame(Pin::new(body), cx);
        if let Poll::Ready(None) = frame {
            self.body = None;
        }
        frame
    }

    /// Takes into `ready` the frames of an event-stream answer that come within
    /// [`FIRST_EVENT_TURNS`] turns of the runtime, up to the first event after the priming one.
    ///
    /// rmcp answers a POST with a priming event at once and the JSON-RPC answer a moment later,
    /// from the session's task. Handed to hyper at once, the head and the priming event leave in
    /// one write and the answer in another: two TCP segments, two wake-ups of the client and a
    /// second system call per request. Held for the turns the session's task takes to answer, all
    /// of it goes out in one: at 64 clients a quarter more answers per second. A request alone
    /// in the server is not held: one client waited about 10 µs longer, as it no longer read the
    /// head while the answer was made on a core that had nothing else to do. The wait is counted
    /// in turns, not on a timer: arming a timer per request woke the runtime's driver each time
    /// (a system call), which cost one client 20-30 µs. A call that takes longer (a script) gets
    /// its head and priming event after those turns, as before; any other event (a log message,
    /// a request to the client) ends the wait too.
    async fn hold_first_events(&mut self) {
        let mut turns = 0;
        std::future::poll_fn(|cx| {
            loop {
                match self.poll_body(cx) {
                    Poll::Ready(Some(Ok(frame))) => {
                        let answer = frame.data_ref().is_some_and(|data| !is_priming(data));
                        self.ready.push_back(frame);
                        if answer {
                            return Poll::Ready(());
                        }
                    }
                    Poll::Ready(Some(Err(never))) => match never {},
                    Poll::Ready(None) => return Poll::Ready(()),
                    Poll::Pending if turns < FIRST_EVENT_TURNS => {
                        // Back of the run queue: the session's task, woken by the request, runs
                        // first.
                        turns += 1;
                        cx.waker().wake_by_ref();
                        return Poll::Pending;
                    }
                    Poll::Pending => return Poll::Ready(()),
                }
            }
        })
        .await;
    }
}

/// Whether an answer's head announces an event stream.
fn is_event_stream(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"))
}

/// Whether `event` is a priming event (SEP-1699): an empty `data` field, sent first so that
/// the client has an event id to resume from.
fn is_priming(event: &[u8]) -> bool {
    event.starts_with(b"data: \n") || event.starts_with(b"data:\n")
}

/// Whether `headers` carry `Authorization: Bearer <token>`, compared in constant time.
fn authorized(headers: &http::HeaderMap, token: &str) -> bool {
    let Some(given) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    let (given, token) = (given.trim().as_bytes(), token.as_bytes());
    given.len() == token.len()
        && given
            .iter()
            .zip(token)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// A plain-text answer.
/// The answer to a request that would open a session past the bound: 503, retry later.
fn too_many_sessions(max: usize) -> Response<Body> {
    let mut answer = plain(
        StatusCode::SERVICE_UNAVAILABLE,
        &format!(
            "Too many sessions: this server holds {max}, its limit. Retry later, or end a \
             session you no longer use (DELETE /mcp with its Mcp-Session-Id); idle sessions end \
             after 5 minutes."
        ),
    );
    answer
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
    answer
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut answer = Response::new(Full::new(Bytes::from(text.to_owned())).boxed());
    *answer.status_mut() = status;
    answer.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;
    use tokio::sync::mpsc;

    /// A body made of the frames a channel receives, ending when its senders are gone.
    struct Channel(mpsc::UnboundedReceiver<&'static [u8]>);

    impl http_body::Body for Channel {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            self.0
                .poll_recv(cx)
                .map(|d| d.map(|d| Ok(Frame::data(Bytes::from_static(d)))))
        }
    }

    const PRIMING: &[u8] = b"data: \nid: 0/1\nretry: 3000\n\n";
    const ANSWER: &[u8] = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nid: 0/2\n\n";

    /// An answer's body fed by the sender returned with it.
    fn channel_body() -> (mpsc::UnboundedSender<&'static [u8]>, Tracked) {
        let (tx, rx) = mpsc::unbounded_channel::<&'static [u8]>();
        let tracked = Tracked {
            ready: VecDeque::new(),
            body: Some(BoxBody::new(Channel(rx))),
            _guard: Counted {
                _permit: None,
                in_flight: Arc::new(AtomicUsize::new(1)),
            },
        };
        (tx, tracked)
    }

    fn data(frames: &VecDeque<Frame<Bytes>>) -> Vec<&[u8]> {
        frames
            .iter()
            .filter_map(|f| f.data_ref().map(|d| &d[..]))
            .collect()
    }

    fn run<F: Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn the_priming_event_waits_for_the_answer_that_follows_it() {
        run(async {
            let (tx, mut tracked) = channel_body();
            tx.send(PRIMING).unwrap();
            let late = tx.clone();
            tokio::spawn(async move {
                tokio::task::yield_now().await;
                late.send(ANSWER).unwrap();
            });
            tracked.hold_first_events().await;
            assert_eq!(data(&tracked.ready), [PRIMING, ANSWER]);
            assert!(tracked.body.is_some());
            // Then the rest of the stream, after the frames held back, in order.
            tx.send(b"data: {}\n\n").unwrap();
            drop(tx);
            let mut seen = Vec::new();
            while let Some(frame) = tracked.frame().await {
                seen.push(frame.unwrap().into_data().unwrap());
            }
            assert_eq!(seen, [PRIMING, ANSWER, b"data: {}\n\n"]);
            assert!(tracked.is_end_stream());
        });
    }

    #[test]
    fn a_slow_answer_lets_the_priming_event_go_after_a_few_turns() {
        run(async {
            let (tx, mut tracked) = channel_body();
            tx.send(PRIMING).unwrap();
            tracked.hold_first_events().await;
            assert_eq!(data(&tracked.ready), [PRIMING]);
            assert!(tracked.body.is_some());
            // The answer after the wait comes after the priming event.
            tx.send(ANSWER).unwrap();
            let mut seen = Vec::new();
            for _ in 0..2 {
                seen.push(tracked.frame().await.unwrap().unwrap().into_data().unwrap());
            }
            assert_eq!(seen, [PRIMING, ANSWER]);
        });
    }

    #[test]
    fn a_stream_that_ends_early_is_not_polled_again() {
        run(async {
            let (tx, mut tracked) = channel_body();
            tx.send(PRIMING).unwrap();
            drop(tx);
            tracked.hold_first_events().await;
            assert_eq!(data(&tracked.ready), [PRIMING]);
            assert!(tracked.body.is_none());
            assert_eq!(tracked.size_hint().exact(), Some(PRIMING.len() as u64));
            assert!(tracked.frame().await.is_some());
            assert!(tracked.frame().await.is_none());
            assert!(tracked.is_end_stream());
        });
    }

    #[test]
    fn only_an_empty_data_field_is_a_priming_event() {
        assert!(is_priming(PRIMING));
        assert!(is_priming(b"data:\nid: 7\n\n"));
        assert!(!is_priming(ANSWER));
        assert!(!is_priming(b": keep-alive\n\n"));
    }
}
