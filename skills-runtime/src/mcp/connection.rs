//! What a client can make the server hold, bounded: the requests answered at once (per
//! connection and per process), and over stdio the nesting of a request's JSON.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};

use rmcp::model::{ClientNotification, GetExtensions, JsonRpcMessage, JsonRpcRequest, RequestId};
use rmcp::service::{RequestContext, RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::{CancellationToken, DropGuard};

use super::{MAX_JSON_DEPTH, TOO_DEEP};
use crate::host::lock;
use crate::model::script::CancelToken;
use crate::text::echo;

/// The process-wide limit's size: with files of up to 2 MB, some hundreds of megabytes at
/// worst.
pub(super) const SERVER_MAX_IN_FLIGHT: usize = 64;

/// Not a public API: what makes the servers built from one [`Options`](super::Options) (or its
/// clones) share one limit per `server_max_in_flight`. Each `Options::default()` holds a new
/// one.
#[derive(Clone, Default)]
pub struct SharedLimit(Arc<Mutex<Vec<InFlightLimit>>>);

impl SharedLimit {
    /// The limit of `max` requests this value's servers share: the one made before with that
    /// size, else a new one.
    pub(super) fn get(&self, max: usize) -> InFlightLimit {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        let mut held = lock(&self.0);
        if let Some(limit) = held.iter().find(|l| l.max == max) {
            return limit.clone();
        }
        let limit = InFlightLimit::new(max);
        held.push(limit.clone());
        limit
    }

    /// The process-wide limit of 64, for the servers given no `Options`.
    pub(super) fn process() -> Self {
        SharedLimit(Arc::new(Mutex::new(vec![InFlightLimit::process()])))
    }
}

impl fmt::Debug for SharedLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedLimit")
    }
}

/// A limit on the requests answered at once, shared by every server built from one
/// [`Options`](super::Options) (see [`Options::server_max_in_flight`](super::Options::server_max_in_flight)):
/// the bound for the whole process when one program serves many connections.
#[derive(Clone)]
pub(crate) struct InFlightLimit {
    permits: Arc<Semaphore>,
    max: usize,
}

impl InFlightLimit {
    /// A limit of `max` requests at once (at least one: a limit of zero would answer nothing).
    pub(crate) fn new(max: usize) -> Self {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        InFlightLimit {
            permits: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// The process-wide limit every server given no [`Options`](super::Options) shares.
    pub(super) fn process() -> Self {
        static PROCESS: OnceLock<InFlightLimit> = OnceLock::new();
        PROCESS
            .get_or_init(|| InFlightLimit::new(SERVER_MAX_IN_FLIGHT))
            .clone()
    }

    /// Waits for one of the limit's permits (the HTTP server holds one per request it answers).
    #[cfg(feature = "mcp-http")]
    pub(super) async fn acquire(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.permits).acquire_owned().await.ok()
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

/// What a request hands down to the work it starts: the work keeps a clone until it ends, so
/// the request's slot in the in-flight limit is not free while a script it started still runs,
/// and `hang_up` tells the work that nobody waits for its answer any more.
///
/// The HTTP server puts one in each request's extensions (rmcp passes them on as
/// `http::request::Parts`), [`Bounded`] (stdio, any transport given to `serve`) in the rmcp
/// request's own; a request without one gets a fresh one.
#[derive(Clone, Default)]
pub(crate) struct Ticket {
    /// Cancelled when the client has gone: it hung up before the answer was done, or
    /// cancelled the request.
    pub(crate) hang_up: tokio_util::sync::CancellationToken,
    /// What keeps the request counted (its permits); released when the last clone is dropped.
    pub(crate) hold: Option<Arc<dyn Send + Sync>>,
}

impl Ticket {
    /// The ticket of the request `context` answers: the one its transport handed down, or a
    /// fresh one (nothing held, never hung up).
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Ticket {
        if let Some(ticket) = context.extensions.get::<Ticket>() {
            return ticket.clone();
        }
        #[cfg(feature = "mcp-http")]
        if let Some(ticket) = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Ticket>())
        {
            return ticket.clone();
        }
        Ticket::default()
    }

    /// What stops a run this request starts: a token cancelled when the client hangs up or
    /// `cancelled` (rmcp's own token of the request: `notifications/cancelled`, the service
    /// stopping) is, and a guard that ends the watch when dropped (when the run has ended).
    pub(crate) fn watch(&self, cancelled: &CancellationToken) -> (CancelToken, DropGuard) {
        let stop = CancelToken::default();
        let ended = CancellationToken::new();
        let (hang_up, cancelled) = (self.hang_up.clone(), cancelled.clone());
        let (run, watching) = (stop.clone(), ended.clone());
        tokio::spawn(async move {
            let mut hung_up = std::pin::pin!(hang_up.cancelled());
            let mut cancelled = std::pin::pin!(cancelled.cancelled());
            let mut ended = std::pin::pin!(watching.cancelled());
            let stopped = std::future::poll_fn(|cx| {
                if ended.as_mut().poll(cx).is_ready() {
                    Poll::Ready(false)
                } else if hung_up.as_mut().poll(cx).is_ready()
                    || cancelled.as_mut().poll(cx).is_ready()
                {
                    Poll::Ready(true)
                } else {
                    Poll::Pending
                }
            })
            .await;
            if stopped {
                run.cancel();
            }
        });
        (stop, ended.drop_guard())
    }
}

impl fmt::Debug for Ticket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ticket")
            .field("hung_up", &self.hang_up.is_cancelled())
            .field("held", &self.hold.is_some())
            .finish()
    }
}

/// The permits one request holds: one of its connection's, one of the server's.
type Slot = (OwnedSemaphorePermit, OwnedSemaphorePermit);

/// The requests of one connection being answered, by id, with their tickets.
#[derive(Default)]
struct InFlight {
    slots: Mutex<HashMap<RequestId, Ticket>>,
    /// Woken when a request's answer has been written.
    released: Notify,
}

impl InFlight {
    /// Tells the work of every request being answered that its client has gone.
    fn hang_up(&self) {
        for ticket in lock(&self.slots).values() {
            ticket.hang_up.cancel();
        }
    }
}

/// A transport that lets at most a connection's and the server's limit of requests be answered
/// at once: a request takes its permits when read and gives them back when its answer has been
/// written (or could not be) and the work it started (a script run) has ended, and no message
/// is read while they are all taken. rmcp spawns a task per request and queues answers for the
/// writer without a bound; counting from read to written bounds the answers held in memory,
/// whatever the client pipelines.
///
/// The permits are the `hold` of the request's [`Ticket`], put in the request's extensions for
/// the handler. `notifications/cancelled` for a request, and the connection's end, cancel its
/// ticket's `hang_up`, which stops its script run.
pub(super) struct Bounded<T> {
    inner: T,
    connection: Arc<Semaphore>,
    server: Arc<Semaphore>,
    in_flight: Arc<InFlight>,
    /// A message read and not yet handed on: kept here while waiting, so a `receive` dropped
    /// by rmcp's `select!` loses nothing.
    pending: Option<RxJsonRpcMessage<RoleServer>>,
}

impl<T> Bounded<T> {
    pub(super) fn new(inner: T, max_in_flight: usize, server: &InFlightLimit) -> Self {
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

impl<T> Drop for Bounded<T> {
    fn drop(&mut self) {
        // The connection is over, however it ended.
        self.in_flight.hang_up();
    }
}

/// Gives a request's permits back when dropped (after its answer has been written, or when the
/// write was abandoned), unless work it started still holds its ticket.
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
                let Some(message) = self.inner.receive().await else {
                    // The client has gone: nobody waits for the answers being worked on.
                    self.in_flight.hang_up();
                    return None;
                };
                self.pending = Some(message);
            }
            let id = match self.pending.as_ref()? {
                JsonRpcMessage::Request(JsonRpcRequest { id, .. }) => id.clone(),
                JsonRpcMessage::Notification(notification) => {
                    let ClientNotification::CancelledNotification(cancelled) =
                        &notification.notification
                    else {
                        return self.pending.take();
                    };
                    // Not handed to rmcp, which would drop the cancelled request's answer
                    // unwritten, and with it the `Release` of its permits. Its run is stopped
                    // instead; the request is answered (saying so), and the client drops the
                    // late answer.
                    if let Some(id) = &cancelled.params.request_id
                        && let Some(ticket) = lock(&self.in_flight.slots).get(id)
                    {
                        ticket.hang_up.cancel();
                    }
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
            let slot: Slot = (connection, server);
            let ticket = Ticket {
                hang_up: CancellationToken::new(),
                hold: Some(Arc::new(slot)),
            };
            let mut message = self.pending.take()?;
            if let JsonRpcMessage::Request(request) = &mut message {
                request.request.extensions_mut().insert(ticket.clone());
            }
            lock(&self.in_flight.slots).insert(id, ticket);
            return Some(message);
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
pub(super) struct DepthGuard<R> {
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
    pub(super) fn new(inner: R) -> Self {
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
    let method: Value = method.map_or(Value::Null, |m| Value::String(echo(&m)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Waits (bounded) for `cancel`, on the runtime's blocking pool.
    async fn cancelled(cancel: &CancelToken) -> bool {
        let cancel = cancel.clone();
        tokio::task::spawn_blocking(move || cancel.wait_timeout(std::time::Duration::from_secs(20)))
            .await
            .unwrap()
    }

    #[test]
    fn a_watched_run_stops_at_a_hang_up_or_rmcps_cancellation_and_not_after_it_ended() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let ticket = Ticket::default();
            let (stop, _watching) = ticket.watch(&CancellationToken::new());
            ticket.hang_up.cancel();
            assert!(cancelled(&stop).await, "a hang-up stops the run");

            let request = CancellationToken::new();
            let (stop, _watching) = Ticket::default().watch(&request);
            request.cancel();
            assert!(cancelled(&stop).await, "rmcp's cancellation stops the run");

            let ticket = Ticket::default();
            let (stop, watching) = ticket.watch(&CancellationToken::new());
            drop(watching);
            // The watch has ended with the run: a later hang-up reaches nothing.
            tokio::task::yield_now().await;
            ticket.hang_up.cancel();
            tokio::task::yield_now().await;
            assert!(!stop.is_cancelled());
        });
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
}
