//! The tower service of an [`HttpServer`]: an axum router holding `/mcp`, whose requests pass
//! the bearer tokens (each token its own rmcp service and session store), the session and
//! server limits, then rmcp's Streamable HTTP service (Host and Origin checks, body limit,
//! sessions).

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderName, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use subtle::ConstantTimeEq;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use super::body::{Body, Counted, Tracked, is_event_stream};
use super::{ENDPOINT, Factory, HttpServer};
use crate::host::lock;
use crate::mcp::connection::{InFlightLimit, Ticket};
use crate::mcp::server::McpServer;

/// The headers every request is read for, named once: looked up by a `&str`, a name is parsed
/// again at each request.
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

/// rmcp's Streamable HTTP service over our servers.
type Rmcp = StreamableHttpService<McpServer, LocalSessionManager>;

/// The tower service of an [`HttpServer`]: `/mcp`, the bearer tokens, the in-flight limits,
/// then rmcp's Streamable HTTP service (Host and Origin checks, body limit, sessions), in an
/// axum router, with the well-known index route when asked for; any other path answers 404.
#[derive(Clone)]
pub(super) struct HttpService {
    pub(super) router: axum::Router,
    endpoint: Endpoint,
}

impl HttpService {
    pub(super) fn new(server: &HttpServer, shutdown: CancellationToken) -> Self {
        let endpoint = Endpoint::new(server, shutdown);
        let router = axum::Router::new().route_service(ENDPOINT, endpoint.clone());
        #[cfg(feature = "package")]
        let router = match &server.well_known {
            Some(site) => {
                let site = Arc::clone(site);
                router.route(
                    &super::well_known::Site::route(),
                    axum::routing::get(
                        move |axum::extract::Path(path): axum::extract::Path<String>,
                              headers: http::HeaderMap| {
                            let site = Arc::clone(&site);
                            async move {
                                // The first request of a snapshot builds its index and
                                // archives: off the runtime's threads.
                                tokio::task::spawn_blocking(move || site.answer(&path, &headers))
                                    .await
                                    .unwrap_or_else(|_| {
                                        plain(StatusCode::INTERNAL_SERVER_ERROR, "Internal error.")
                                    })
                            }
                        },
                    ),
                )
            }
            None => router,
        };
        let router = router
            .fallback(|| async {
                plain(
                    StatusCode::NOT_FOUND,
                    &format!("Not found: this server answers MCP at {ENDPOINT}."),
                )
            })
            // Over the limit by its Content-Length: 413 before anything is read. (tower-http's
            // body timeout is not used: it arms a timer at every frame, and `read_body` bounds
            // the whole body once.)
            .layer(tower_http::limit::RequestBodyLimitLayer::new(
                server.max_body,
            ));
        HttpService { router, endpoint }
    }

    /// Requests being answered (and work they started still running), for the graceful
    /// shutdown.
    pub(super) fn in_flight(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.endpoint.in_flight)
    }
}

impl std::fmt::Debug for HttpService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpService")
            .field("tokens", &self.endpoint.tokens.len())
            .field("limit", &self.endpoint.limit)
            .field(
                "in_flight",
                &self.endpoint.in_flight.load(Ordering::Relaxed),
            )
            .finish_non_exhaustive()
    }
}

impl<B> tower_service::Service<Request<B>> for HttpService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = axum::response::Response;
    type Error = Infallible;
    type Future = axum::routing::future::RouteFuture<Infallible>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        tower_service::Service::<Request<B>>::poll_ready(&mut self.router, cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        self.router.call(request)
    }
}

/// rmcp's service for one token (or every request, without tokens), its session store, and
/// the in-flight share of each of its sessions.
struct Store {
    rmcp: Rmcp,
    manager: Arc<LocalSessionManager>,
    slots: Arc<SessionSlots>,
}

/// `/mcp`: the token picks the store, then the limits, then rmcp. Shared: axum clones the
/// service for every request, and a clone of rmcp's service copies its host and origin lists.
#[derive(Clone)]
struct Endpoint(Arc<EndpointState>);

impl std::ops::Deref for Endpoint {
    type Target = EndpointState;

    fn deref(&self) -> &EndpointState {
        &self.0
    }
}

/// What every request of an [`Endpoint`] reads.
struct EndpointState {
    /// Without tokens, the one store.
    open: Option<Arc<Store>>,
    /// The tokens accepted, each with a store of its own: sessions never cross tokens.
    tokens: Box<[(Arc<str>, Arc<Store>)]>,
    limit: InFlightLimit,
    /// Requests being answered, for the graceful shutdown.
    in_flight: Arc<AtomicUsize>,
    /// The bound on the sessions of every store together (`None`: stateless, no sessions).
    max_sessions: Option<usize>,
    /// How long a request's whole body may take to arrive once its head has.
    body_time: Duration,
    /// The sessions' event streams (GET) open at once: at most half the connections, since a
    /// stream holds its connection as long as its session lives, and requests need the rest.
    streams: Arc<Semaphore>,
    max_streams: usize,
}

impl Endpoint {
    fn new(server: &HttpServer, shutdown: CancellationToken) -> Self {
        let mut config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(server.hosts.clone())
            .with_allowed_origins(server.origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(server.max_body)
            .with_cancellation_token(shutdown)
            .with_legacy_session_mode(!server.stateless)
            // A request without a session (every 2026-07-28 request, and each one to a
            // stateless server) is answered in JSON when its answer is one message: one write
            // rather than an event stream (BENCHMARKS.md, "MCP 2026-07-28 under load"). rmcp
            // reads it on those paths only; a session's answers stay event streams.
            .with_json_response(true);
        if server.stateless {
            config = config.with_sse_keep_alive(None);
        }
        let store = |factory: &Factory| {
            let factory = Arc::clone(factory);
            let manager = Arc::new(LocalSessionManager::default());
            Arc::new(Store {
                rmcp: StreamableHttpService::new(
                    move || Ok(factory()),
                    Arc::clone(&manager),
                    config.clone(),
                ),
                manager,
                slots: Arc::new(SessionSlots::new(server.per_session)),
            })
        };
        let tokens: Box<[(Arc<str>, Arc<Store>)]> = server
            .tokens
            .iter()
            .map(|(token, own)| (Arc::clone(token), store(own)))
            .collect();
        let max_streams = (server.connections.max() / 2).max(1);
        Endpoint(Arc::new(EndpointState {
            open: tokens.is_empty().then(|| store(&server.factory)),
            tokens,
            limit: server.limit.clone(),
            in_flight: Arc::default(),
            max_sessions: (!server.stateless).then_some(server.max_sessions),
            body_time: server.connections.header_read,
            streams: Arc::new(Semaphore::new(max_streams)),
            max_streams,
        }))
    }

    /// The store the request's token names (the one store without tokens); `None`: refused.
    fn store(&self, headers: &http::HeaderMap) -> Option<&Arc<Store>> {
        if let Some(open) = &self.open {
            return Some(open);
        }
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))?
            .trim()
            .as_bytes();
        // Every token compared, in constant time: no timing says which matched, or how far.
        let mut found = None;
        for (token, store) in self.tokens.iter() {
            if bool::from(given.ct_eq(token.as_bytes())) && found.is_none() {
                found = Some(store);
            }
        }
        found
    }

    /// Whether the stores hold `max` sessions already.
    async fn sessions_full(&self, max: usize) -> bool {
        let mut held = 0;
        for store in self.open.iter().chain(self.tokens.iter().map(|(_, s)| s)) {
            held += store.manager.sessions.read().await.len();
        }
        held >= max
    }
}

/// The in-flight share of each session of a store: at most `max` requests of one session are
/// answered at once, the rest wait for their session's permit before they take one of the
/// server's. A session's semaphore lives while a request of it holds or waits for a permit
/// (the map keeps it weakly), so it goes with the session and a made-up session id costs
/// nothing once answered.
struct SessionSlots {
    max: usize,
    by_id: Mutex<Slots>,
}

struct Slots {
    map: HashMap<Box<str>, Weak<Semaphore>>,
    /// The size at which dead entries are swept next: twice the live ones at the last sweep.
    sweep_at: usize,
}

impl SessionSlots {
    fn new(max: usize) -> Self {
        SessionSlots {
            max: max.clamp(1, Semaphore::MAX_PERMITS),
            by_id: Mutex::new(Slots {
                map: HashMap::new(),
                sweep_at: 64,
            }),
        }
    }

    /// The semaphore of session `id`.
    fn of(&self, id: &str) -> Arc<Semaphore> {
        let mut slots = lock(&self.by_id);
        // A session whose requests come one at a time finds its entry dead: refilled in place,
        // without hashing and copying its id again.
        if let Some(entry) = slots.map.get_mut(id) {
            if let Some(live) = entry.upgrade() {
                return live;
            }
            let fresh = Arc::new(Semaphore::new(self.max));
            *entry = Arc::downgrade(&fresh);
            return fresh;
        }
        if slots.map.len() >= slots.sweep_at {
            slots.map.retain(|_, weak| weak.strong_count() > 0);
            slots.sweep_at = (slots.map.len() * 2).max(64);
        }
        let fresh = Arc::new(Semaphore::new(self.max));
        slots.map.insert(id.into(), Arc::downgrade(&fresh));
        fresh
    }
}

type EndpointFuture = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

impl tower_service::Service<Request<axum::body::Body>> for Endpoint {
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = EndpointFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<axum::body::Body>) -> Self::Future {
        let Some(store) = self.store(request.headers()).cloned() else {
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
        let this = self.clone();
        // A GET is the session's event stream, open as long as the session: not a request. So
        // is a `subscriptions/listen` POST, open as long as the client listens (rmcp checks the
        // header against the body, which 2026-07-28 requests must send).
        let listens = request.method() == http::Method::POST
            && request
                .headers()
                .get(&MCP_METHOD)
                .is_some_and(|m| m.as_bytes() == b"subscriptions/listen");
        let counted = request.method() != http::Method::GET && !listens;
        let session_id = request
            .headers()
            .get(&MCP_SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .filter(|_| this.max_sessions.is_some());
        let session = session_id.map(|id| store.slots.of(id));
        // rmcp answers 202 to a DELETE of any id: one not in this token's store is unknown.
        let deletes = (request.method() == http::Method::DELETE)
            .then(|| session_id.map(Arc::<str>::from))
            .flatten();
        // rmcp answers a session's end 202; the SDKs expect 200 (TypeScript's server answers it,
        // Python's client logs "Session termination failed" for anything but 200 and 204).
        let ends = request.method() == http::Method::DELETE;
        // A POST without a session id opens one (`initialize`; anything else is refused).
        let opens = request.method() == http::Method::POST
            && !request.headers().contains_key(&MCP_SESSION_ID);
        Box::pin(async move {
            if let Some(max) = this.max_sessions.filter(|_| opens)
                && this.sessions_full(max).await
            {
                return Ok(too_many_sessions(max));
            }
            if let Some(id) = deletes
                && !store.manager.sessions.read().await.contains_key(&id)
            {
                return Ok(plain(
                    StatusCode::NOT_FOUND,
                    "Not Found: Session not found. It ended, or was opened with another token; \
                     open a new one with `initialize`.",
                ));
            }
            if !counted {
                let Ok(open) = Arc::clone(&this.streams).try_acquire_owned() else {
                    return Ok(too_many_streams(this.max_streams));
                };
                // A listen's body is read whole first, bounded like any request's.
                let request = if listens {
                    match read_body(request, this.body_time).await {
                        Ok(request) => request,
                        Err(refused) => return Ok(refused),
                    }
                } else {
                    request
                };
                let (parts, body) = store.rmcp.handle(request).await.into_parts();
                // The permit lives as long as the stream's body.
                let body = body.map_frame(move |frame| {
                    let _held = &open;
                    frame
                });
                return Ok(Response::from_parts(parts, BoxBody::new(body)));
            }
            // The whole body first (bounded by the body limit and by time): a client that sends
            // a head and then its body slowly, or never, holds no slot while it does.
            let mut request = match read_body(request, this.body_time).await {
                Ok(request) => request,
                Err(refused) => return Ok(refused),
            };
            // Alone, the answer is not held (`hold_first_events`): a core is free to make it
            // while the client reads the head, and a write saved is worth less than that overlap.
            let busy = this.in_flight.fetch_add(1, Ordering::SeqCst) > 0;
            // Built before the waits, so a client that goes while waiting is uncounted.
            let mut guard = Counted {
                _session: None,
                _server: None,
                in_flight: Arc::clone(&this.in_flight),
            };
            // Its session's share first: a session that floods waits behind itself.
            if let Some(session) = session {
                guard._session = session.acquire_owned().await.ok();
            }
            guard._server = this.limit.acquire().await;
            let guard = Arc::new(guard);
            let hang_up = CancellationToken::new();
            // What the handler keeps while the work it starts runs (a script): the request's
            // permits, and word when the client has gone.
            request.extensions_mut().insert(Ticket {
                hang_up: hang_up.clone(),
                hold: Some(Arc::clone(&guard) as Arc<dyn Send + Sync>),
            });
            // Dropped before the answer is handed on (the client went): hang-up.
            let armed = hang_up.drop_guard();
            let (mut parts, body) = store.rmcp.handle(request).await.into_parts();
            if ends && parts.status == StatusCode::ACCEPTED {
                parts.status = StatusCode::OK;
            }
            // The answer to a POST may be an event stream that ends after the JSON-RPC answer:
            // the request counts until its body is done.
            let mut tracked = Tracked::new(body, guard, armed);
            if busy && is_event_stream(&parts.headers) {
                tracked.hold_first_events().await;
            }
            Ok(Response::from_parts(parts, BoxBody::new(tracked)))
        })
    }
}

/// `request` with its body read whole within `time`; or the answer refusing it: 413 over the
/// body limit (`RequestBodyLimitLayer` bounds the body), 408 late, 400 broken off.
async fn read_body(
    request: Request<axum::body::Body>,
    time: Duration,
) -> Result<Request<axum::body::Body>, Response<Body>> {
    let (parts, body) = request.into_parts();
    let late = || {
        plain(
            StatusCode::REQUEST_TIMEOUT,
            &format!(
                "Request Timeout: the request body did not arrive within {} s of its head; \
                 send it whole at once.",
                time.as_secs_f64()
            ),
        )
    };
    let mut collect = std::pin::pin!(body.collect());
    // Mostly the body came with its head: read without arming a timer, which would wake the
    // runtime's driver once more per request.
    let first = std::future::poll_fn(|cx| Poll::Ready(collect.as_mut().poll(cx))).await;
    let read = match first {
        Poll::Ready(read) => read,
        Poll::Pending => match tokio::time::timeout(time, collect).await {
            Ok(read) => read,
            Err(_) => return Err(late()),
        },
    };
    let error = match read {
        Ok(body) => {
            return Ok(Request::from_parts(
                parts,
                axum::body::Body::from(body.to_bytes()),
            ));
        }
        Err(error) => error,
    };
    // The body's layers wrap their errors in one another: look down the chain.
    let causes = || std::iter::successors(std::error::Error::source(&error), |e| e.source());
    if causes().any(|e| e.is::<http_body_util::LengthLimitError>()) {
        Err(plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Payload Too Large: the request body is over this server's limit; send a smaller \
             request.",
        ))
    } else {
        Err(plain(
            StatusCode::BAD_REQUEST,
            &format!("Bad Request: the request body could not be read ({error})."),
        ))
    }
}

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

/// The answer to an event stream (a session's GET, a `subscriptions/listen`) past the bound: 503,
/// retry later. Answers to requests come on their POST's own stream, so a client without this
/// one still gets them.
fn too_many_streams(max: usize) -> Response<Body> {
    let mut answer = plain(
        StatusCode::SERVICE_UNAVAILABLE,
        &format!(
            "Too many event streams: this server keeps {max} open at once (half its connections, \
             so that requests always find one). Retry later; answers to your requests still come \
             on each POST's own stream."
        ),
    );
    answer
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
    answer
}

/// A plain-text answer.
fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut answer = Response::new(Full::new(Bytes::from(text.to_owned())).boxed());
    *answer.status_mut() = status;
    answer.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    answer
}
