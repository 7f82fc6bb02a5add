//! Connections: one listener, a cap on the connections open, hyper's header-read timeout, an
//! idle keep-alive timeout, the hand-over to a runtime per core, and the graceful shutdown.

use std::convert::Infallible;
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use http::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use super::{HttpService, SHUTDOWN_GRACE};

/// How long the accept loop waits after a failed accept before it tries again.
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// How long, after the requests in flight, the connections have to close.
const CLOSE_GRACE: Duration = Duration::from_secs(1);

/// How many connections the kernel holds for the listener beyond those accepted (capped by
/// `net.core.somaxconn`): past it a client's connection attempt is dropped and retried after
/// 1, 3, 7 s, so clients queued behind the connection cap would wait far longer than the
/// header-read timeout that frees the cap. tokio's `TcpListener::bind` asks for 128.
const BACKLOG: u32 = 1024;

/// Binds `addr` for [`run_http`](super::run_http): `SO_REUSEADDR` (a restart binds at once over
/// the last run's closing connections), never `SO_REUSEPORT` (no other socket may bind the
/// port beside it), a [`BACKLOG`] queue.
pub(super) fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// The connections open at once when the options name no number and the descriptor limit
/// allows as many.
const MAX_CONNECTIONS: usize = 4096;

/// The connection settings of an [`HttpServer`](super::HttpServer).
#[derive(Clone, Debug)]
pub(super) struct Connections {
    /// `None`: [`default_max`].
    pub(super) max: Option<usize>,
    pub(super) header_read: Duration,
    pub(super) idle: Duration,
}

impl Connections {
    pub(super) fn max(&self) -> usize {
        self.max.unwrap_or_else(default_max)
    }

    fn builder(&self) -> hyper::server::conn::http1::Builder {
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_read);
        builder
    }
}

/// [`MAX_CONNECTIONS`], or three quarters of the soft descriptor limit if lower: the
/// server never runs out of descriptors for its connections, and keeps a quarter for the
/// rest (skill files, script pipes, the runtime's own).
fn default_max() -> usize {
    #[cfg(target_os = "linux")]
    {
        let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        if let Some(soft) = limit.current {
            let share = usize::try_from(soft / 4 * 3).unwrap_or(usize::MAX);
            return share.clamp(1, MAX_CONNECTIONS);
        }
    }
    MAX_CONNECTIONS
}

/// Whether a connection has a request in progress, and when its last answer ended. Updated
/// with two atomic operations per request: no task is woken and no timer armed per request.
struct Activity {
    opened: tokio::time::Instant,
    busy: AtomicUsize,
    /// Milliseconds from `opened` to the end of the last answer; `u64::MAX` before the first
    /// (until then the header-read timeout applies, not the idle one).
    last_end: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        Activity {
            opened: tokio::time::Instant::now(),
            busy: AtomicUsize::new(0),
            last_end: AtomicU64::new(u64::MAX),
        }
    }

    /// Completes once the connection has been answered and then had no request in progress
    /// for `idle`. Checks at the deadline the last answer set, again while requests go on.
    async fn idle_for(&self, idle: Duration) {
        loop {
            let last = self.last_end.load(Ordering::SeqCst);
            let since = if last == u64::MAX {
                self.opened.elapsed()
            } else {
                Duration::from_millis(last)
            };
            tokio::time::sleep_until(self.opened + since + idle).await;
            if last != u64::MAX
                && self.busy.load(Ordering::SeqCst) == 0
                && self.last_end.load(Ordering::SeqCst) == last
            {
                return;
            }
        }
    }
}

/// A request in progress on its connection, until its answer's body is done or dropped.
struct Busy(Arc<Activity>);

impl Busy {
    fn new(activity: &Arc<Activity>) -> Self {
        activity.busy.fetch_add(1, Ordering::SeqCst);
        Busy(Arc::clone(activity))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let at = u64::try_from(self.0.opened.elapsed().as_millis()).unwrap_or(u64::MAX - 1);
        // Two answers ending in the same millisecond still count as activity.
        let at = if self.0.last_end.load(Ordering::SeqCst) == at {
            at + 1
        } else {
            at
        };
        self.0.last_end.store(at, Ordering::SeqCst);
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An answer's body that keeps its connection busy until it is done.
struct BusyBody {
    body: axum::body::Body,
    _busy: Busy,
}

impl http_body::Body for BusyBody {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, axum::Error>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// Answers one connection with `service` until it closes: hyper's header-read timeout, the
/// idle timeout, and a graceful close when `stop` is cancelled. `_permit` is its place under
/// the connection cap.
async fn serve_connection(
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    service: HttpService,
    settings: Arc<Connections>,
    stop: CancellationToken,
) {
    // An answer over a session is written in pieces (the event stream's head, the event, the
    // end): with Nagle's algorithm on, each later piece waits for the client's delayed ACK.
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let seen = Arc::clone(&activity);
    let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
        let busy = Busy::new(&seen);
        let answer = tower_service::Service::call(&mut service.clone(), request);
        async move {
            let answer = answer.await?;
            Ok::<_, Infallible>(answer.map(|body| BusyBody { body, _busy: busy }))
        }
    });
    let connection = settings
        .builder()
        .serve_connection(TokioIo::new(stream), service);
    let mut connection = pin!(connection);
    tokio::select! {
        // A connection that fails (the client went, a timeout) concerns that client only.
        _ = connection.as_mut() => return,
        () = activity.idle_for(settings.idle) => {}
        () = stop.cancelled() => {}
    }
    // Closes it now if idle, else after the answer in progress.
    connection.as_mut().graceful_shutdown();
    let _ = connection.await;
}

/// Accepts connections on `listener` while the cap allows, handing each to `dispatch` with its
/// permit, until `shutdown` completes.
async fn accept(
    listener: TcpListener,
    cap: &Arc<Semaphore>,
    shutdown: impl Future<Output = ()>,
    mut dispatch: impl FnMut(TcpStream, OwnedSemaphorePermit),
) {
    let mut shutdown = pin!(shutdown);
    loop {
        // At the cap, the next connection waits in the listen queue, costing no descriptor.
        let permit = tokio::select! {
            permit = Arc::clone(cap).acquire_owned() => permit,
            () = &mut shutdown => break,
        };
        let Ok(permit) = permit else { break };
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => dispatch(stream, permit),
                // Out of descriptors, say: accepting again at once would spin; a pause lets
                // connections close and free some.
                Err(_) => tokio::time::sleep(ACCEPT_RETRY).await,
            },
            () = &mut shutdown => break,
        }
    }
}

/// After the listener is closed and `stop` cancelled (each connection closes once its answer
/// in progress is done): waits for the requests in flight (up to [`SHUTDOWN_GRACE`]), ends the
/// sessions (`sessions`, the token the service was made with) and their event streams, and
/// gives the connections [`CLOSE_GRACE`] to close.
async fn finish(
    in_flight: &AtomicUsize,
    sessions: &CancellationToken,
    cap: &Arc<Semaphore>,
    max: usize,
) {
    let deadline = tokio::time::Instant::now() + SHUTDOWN_GRACE;
    while in_flight.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    sessions.cancel();
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(CLOSE_GRACE, cap.acquire_many(all)).await;
}

/// [`HttpServer::serve_on`](super::HttpServer::serve_on): every connection on the runtime
/// this runs on.
pub(super) async fn serve(
    listener: TcpListener,
    service: HttpService,
    sessions: CancellationToken,
    settings: &Connections,
    shutdown: impl Future<Output = ()>,
) {
    let max = settings.max();
    let cap = Arc::new(Semaphore::new(max));
    let settings = Arc::new(settings.clone());
    let stop = CancellationToken::new();
    let in_flight = service.in_flight();
    accept(listener, &cap, shutdown, |stream, permit| {
        tokio::spawn(serve_connection(
            stream,
            permit,
            service.clone(),
            Arc::clone(&settings),
            stop.clone(),
        ));
    })
    .await;
    stop.cancel();
    finish(&in_flight, &sessions, &cap, max).await;
}

/// [`run_http`](super::run_http): `listener` accepts on `acceptor` (the calling
/// thread) and hands its connections in turn to a thread per core, each with a single-threaded
/// runtime; until SIGTERM or Ctrl-C.
pub(super) fn run_per_core(
    acceptor: &tokio::runtime::Runtime,
    listener: TcpListener,
    service: HttpService,
    sessions: CancellationToken,
    settings: &Connections,
) -> std::io::Result<()> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let max = settings.max();
    let cap = Arc::new(Semaphore::new(max));
    let shared = Arc::new(settings.clone());
    let stop = CancellationToken::new();
    // Cancelled once the connections are closed: the threads' runtimes may end.
    let done = CancellationToken::new();
    let mut senders = Vec::with_capacity(cores);
    let mut threads = Vec::with_capacity(cores);
    for core in 0..cores {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (send, mut receive) =
            tokio::sync::mpsc::unbounded_channel::<(std::net::TcpStream, OwnedSemaphorePermit)>();
        let (service, settings, stop, ended) = (
            service.clone(),
            Arc::clone(&shared),
            stop.clone(),
            done.clone(),
        );
        let thread = std::thread::Builder::new()
            .name(format!("skills-http-{core}"))
            .spawn(move || {
                runtime.block_on(async move {
                    while let Some((stream, permit)) = receive.recv().await {
                        // Registered with this thread's runtime; one that fails is dropped.
                        if let Ok(stream) = TcpStream::from_std(stream) {
                            tokio::spawn(serve_connection(
                                stream,
                                permit,
                                service.clone(),
                                Arc::clone(&settings),
                                stop.clone(),
                            ));
                        }
                    }
                    ended.cancelled().await;
                });
            });
        match thread {
            Ok(thread) => {
                senders.push(send);
                threads.push(thread);
            }
            Err(e) => {
                done.cancel();
                return Err(e);
            }
        }
    }
    let in_flight = service.in_flight();
    acceptor.block_on(async {
        let mut next = 0;
        accept(listener, &cap, super::signal(), |stream, permit| {
            // Moved to another runtime: deregistered from this one first.
            if let Ok(stream) = stream.into_std() {
                let _ = senders[next % senders.len()].send((stream, permit));
                next += 1;
            }
        })
        .await;
        stop.cancel();
        senders.clear();
        finish(&in_flight, &sessions, &cap, max).await;
    });
    done.cancel();
    for thread in threads {
        // A thread that panicked has ended its connections; the others finish theirs.
        let _ = thread.join();
    }
    Ok(())
}
