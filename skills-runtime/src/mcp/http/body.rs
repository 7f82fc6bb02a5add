//! An answer's body that keeps its request counted until it is done, tells the work the request
//! started when the client has gone, and holds an event stream's first events for one write.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use http::header;
use http_body::Frame;
use http_body_util::combinators::BoxBody;
use tokio::sync::OwnedSemaphorePermit;
use tokio_util::sync::DropGuard;

/// A response body.
pub(super) type Body = BoxBody<Bytes, Infallible>;

/// What a request holds while it is answered and while the work it started runs (the handler
/// keeps a clone in its [`Ticket`](crate::mcp::connection::Ticket)): a permit of its session's
/// limit, one of the server's, and its count in the requests the graceful shutdown waits for.
pub(super) struct Counted {
    pub(super) _session: Option<OwnedSemaphorePermit>,
    pub(super) _server: Option<OwnedSemaphorePermit>,
    pub(super) in_flight: Arc<AtomicUsize>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An answer's body that keeps its request counted until the body is done or dropped; dropped
/// before its end (the client went), it cancels the request's hang-up token.
pub(super) struct Tracked {
    /// Frames taken from `body` before the answer was handed to hyper
    /// ([`Tracked::hold_first_events`]).
    ready: VecDeque<Frame<Bytes>>,
    /// `None` once it has ended: a stream is not polled after its end.
    body: Option<Body>,
    _guard: Arc<Counted>,
    /// Cancels the request's hang-up token if dropped armed; disarmed at the body's end.
    hang_up: Option<DropGuard>,
}

impl Tracked {
    pub(super) fn new(body: Body, guard: Arc<Counted>, hang_up: DropGuard) -> Self {
        Tracked {
            ready: VecDeque::new(),
            body: Some(body),
            _guard: guard,
            hang_up: Some(hang_up),
        }
    }
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
/// driver, so it answers a few turns later, not on the next one (BENCHMARKS.md: how many turns
/// a `resources/read` needs).
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
            // Answered to the end: the client did not hang up.
            if let Some(armed) = self.hang_up.take() {
                armed.disarm();
            }
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
    pub(super) async fn hold_first_events(&mut self) {
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
pub(super) fn is_event_stream(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"))
}

/// Whether `event` is a priming event (SEP-1699): an empty `data` field, sent first so that
/// the client has an event id to resume from.
fn is_priming(event: &[u8]) -> bool {
    event.starts_with(b"data: \n") || event.starts_with(b"data:\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;
    use http_body_util::BodyExt;
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
        let guard = Arc::new(Counted {
            _session: None,
            _server: None,
            in_flight: Arc::new(AtomicUsize::new(1)),
        });
        let tracked = Tracked::new(
            BoxBody::new(Channel(rx)),
            guard,
            tokio_util::sync::CancellationToken::new().drop_guard(),
        );
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

    #[test]
    fn a_body_dropped_before_its_end_tells_the_work_the_client_went() {
        run(async {
            let guard = Arc::new(Counted {
                _session: None,
                _server: None,
                in_flight: Arc::new(AtomicUsize::new(1)),
            });
            // Read to its end: no hang-up.
            let done = tokio_util::sync::CancellationToken::new();
            let (tx, rx) = mpsc::unbounded_channel::<&'static [u8]>();
            let mut tracked = Tracked::new(
                BoxBody::new(Channel(rx)),
                Arc::clone(&guard),
                done.clone().drop_guard(),
            );
            tx.send(ANSWER).unwrap();
            drop(tx);
            while tracked.frame().await.is_some() {}
            drop(tracked);
            assert!(!done.is_cancelled());
            // Dropped half-way (hyper drops it when the client hangs up): hang-up.
            let gone = tokio_util::sync::CancellationToken::new();
            let (tx, rx) = mpsc::unbounded_channel::<&'static [u8]>();
            let mut tracked = Tracked::new(
                BoxBody::new(Channel(rx)),
                Arc::clone(&guard),
                gone.clone().drop_guard(),
            );
            tx.send(PRIMING).unwrap();
            assert!(tracked.frame().await.is_some());
            drop(tracked);
            assert!(gone.is_cancelled());
            // The work's clone of the hold keeps the request counted after the body.
            assert_eq!(guard.in_flight.load(Ordering::SeqCst), 1);
            drop(guard);
        });
    }
}
