//! Streamable HTTP (feature `mcp-http`): the endpoint an [`McpServer`] is served at by
//! [`McpServer::serve_http`] and [`McpServer::http_router`] (what each refuses is in the
//! `mcp` module's documentation), and `run_http`, the CLI's thread-per-core serving.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::approval::Caller;
use super::connection::InFlightLimit;
use super::server::McpServer;

mod body;
mod listen;
mod service;
#[cfg(feature = "package")]
mod well_known;

use service::HttpService;

/// The path of the MCP endpoint.
const ENDPOINT: &str = "/mcp";

/// How long the graceful shutdown waits for requests in flight after its signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The hosts allowed in `Host` by default: loopback only.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The function that makes the server of a session.
type Factory = Arc<dyn Fn() -> McpServer + Send + Sync>;

/// What a server over Streamable HTTP holds: the server of every session (built from an
/// [`McpServer`] as it was configured) and of every token, and the settings of its
/// [`Options`](super::Options) that HTTP reads.
#[derive(Clone)]
pub(super) struct HttpServer {
    factory: Factory,
    stateless: bool,
    hosts: Vec<String>,
    origins: Vec<String>,
    /// The bearer tokens accepted, each with its own server.
    tokens: Vec<(Arc<str>, Factory)>,
    max_body: usize,
    /// Requests of one session answered at once.
    per_session: usize,
    limit: InFlightLimit,
    max_sessions: usize,
    connections: listen::Connections,
    /// The well-known index route's state, when [`Options::well_known`](super::Options) asks
    /// for it.
    #[cfg(feature = "package")]
    well_known: Option<Arc<well_known::Site>>,
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
    /// Serves sessions with servers built as `server` was, each token's with its settings.
    pub(super) fn new(server: McpServer) -> Self {
        let options = Arc::clone(&server.options);
        let template = Arc::new(server);
        let factory: Factory = {
            let template = Arc::clone(&template);
            Arc::new(move || template.session(None, Caller::ANYONE))
        };
        // Each token its own server: its settings, and the caller its approvals are bound to.
        let tokens = template
            .tokens
            .iter()
            .map(|(token, settings)| {
                let caller = Caller::of_token(token);
                // Built once, so the servers of its requests share its settings and the
                // listing rendered from them (a 2026-07-28 request has a server of its own).
                let own = Arc::new(template.session(settings.as_ref(), caller));
                let factory = Arc::new(move || own.session(None, caller)) as Factory;
                (Arc::clone(token), factory)
            })
            .collect();
        let mut hosts: Vec<String> = LOOPBACK.iter().map(|h| (*h).to_owned()).collect();
        hosts.extend(options.allowed_hosts.iter().cloned());
        #[cfg(feature = "package")]
        // A server that takes tokens keeps its skills behind them: the index has none to check.
        let well_known = (options.well_known && template.tokens.is_empty()).then(|| {
            Arc::new(well_known::Site::new(
                template.handler.source.clone(),
                Arc::clone(&template.handler.host.settings),
                hosts.clone(),
            ))
        });
        HttpServer {
            factory,
            stateless: options.stateless,
            hosts,
            origins: options.allowed_origins.clone(),
            tokens,
            max_body: options.max_body,
            per_session: options.max_in_flight,
            limit: options.server_limit(),
            max_sessions: options.max_sessions,
            connections: listen::Connections {
                max: options.max_connections.map(|max| max.max(1)),
                header_read: options.header_read_timeout,
                idle: options.idle_timeout,
            },
            #[cfg(feature = "package")]
            well_known,
        }
    }

    /// The axum router answering `/mcp`. Cancelling `shutdown` closes every session.
    pub(super) fn router(&self, shutdown: CancellationToken) -> axum::Router {
        HttpService::new(self, shutdown).router
    }

    /// Serves on `listener` until `shutdown` completes; then accepts no new connection, waits
    /// for the requests in flight (up to [`SHUTDOWN_GRACE`]), closes the sessions and returns.
    pub(super) async fn serve_on(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send,
    ) -> std::io::Result<()> {
        let this = self.for_address(listener.local_addr()?);
        let sessions = CancellationToken::new();
        let service = HttpService::new(&this, sessions.clone());
        listen::serve(listener, service, sessions, &this.connections, shutdown).await;
        Ok(())
    }

    /// The server with the address it is bound to allowed: its origins in `Origin` (any
    /// address), and the address itself in `Host` (one that is neither loopback nor
    /// unspecified).
    fn for_address(mut self, local: SocketAddr) -> Self {
        let ip = local.ip();
        let host = if ip.is_ipv6() {
            format!("[{ip}]")
        } else {
            ip.to_string()
        };
        let port = local.port();
        self.origins.extend([
            format!("http://localhost:{port}"),
            format!("http://127.0.0.1:{port}"),
            format!("http://[::1]:{port}"),
        ]);
        if !ip.is_unspecified() && !ip.is_loopback() {
            self.origins.push(format!("http://{host}:{port}"));
            self.hosts.push(ip.to_string());
        }
        #[cfg(feature = "package")]
        if let Some(site) = self.well_known.take() {
            self.well_known = Some(Arc::new(site.allowing(self.hosts.clone())));
        }
        self
    }
}

/// Binds `addr` and serves `server` until SIGTERM or Ctrl-C, blocking the calling thread: one
/// listener (no `SO_REUSEPORT`: no other process can bind the port beside it), whose
/// connections are handed in turn to a thread per core, each with a single-threaded runtime,
/// all serving the same sessions (BENCHMARKS.md: more requests answered, sooner, than one
/// runtime with a worker per core). What `skills serve --http` runs (through `__private`).
pub fn run_http(server: McpServer, addr: SocketAddr) -> std::io::Result<()> {
    let acceptor = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let listener = acceptor.block_on(async { listen::bind(addr) })?;
    let this = HttpServer::new(server).for_address(listener.local_addr()?);
    let sessions = CancellationToken::new();
    let service = HttpService::new(&this, sessions.clone());
    listen::run_per_core(&acceptor, listener, service, sessions, &this.connections)
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
