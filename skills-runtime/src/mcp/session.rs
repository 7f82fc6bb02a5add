//! A connection's [`Session`], kept between requests, given each call the tools over the
//! snapshot it answers from, and started again when a live source changed what the client may
//! see.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use rmcp::ErrorData;
use tokio_util::sync::CancellationToken;

use super::connection::Ticket;
use super::skill_md::served;
use crate::host::Host;
use crate::model::script::CancelToken;
use crate::tools::{Event, Session, Source, Tools};

/// The session of one connection, between its calls.
#[derive(Default)]
pub(super) struct Conversation {
    /// An async lock: the calls of one connection take turns, as one conversation's turns do,
    /// and a call waiting for its turn holds no thread.
    state: Arc<tokio::sync::Mutex<Option<Kept>>>,
}

/// The session (its tools over the snapshot it last answered from), and whether its source is
/// live (a set that can change under it).
struct Kept {
    live: bool,
    session: Session,
}

/// How a call is run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Work {
    /// Loads and reads from memory: answered on the runtime's thread, at once.
    Quick,
    /// May run a script or write files (a script's run, the answer that lets one run, a load
    /// that extracts a skill to a work folder): answered on tokio's blocking pool, so the
    /// runtime's threads go on serving other clients meanwhile.
    Blocking,
}

impl Conversation {
    /// Runs `f` on the connection's session for the request holding `ticket`; returns its
    /// result and the events it raised. Blocking work keeps the ticket (the request's hold on
    /// the in-flight limit) until it has ended, even when nobody awaits its answer any more,
    /// and its script runs stop when the client hangs up or `cancelled` (rmcp's token of the
    /// request) is cancelled.
    pub(super) async fn run<R: Send + 'static>(
        &self,
        source: &Source,
        host: &Host,
        work: Work,
        (ticket, cancelled): (Ticket, &CancellationToken),
        f: impl FnOnce(&mut Session) -> R + Send + 'static,
    ) -> Result<(R, Vec<Event>), ErrorData> {
        let mut kept = Arc::clone(&self.state).lock_owned().await;
        match work {
            Work::Quick => Ok(turn(&mut kept, source, host, None, f)),
            Work::Blocking => {
                let (source, host) = (source.clone(), host.clone());
                let (stop, watching) = ticket.watch(cancelled);
                tokio::task::spawn_blocking(move || {
                    let result = turn(&mut kept, &source, &host, Some(stop), f);
                    // Ended: only now may the request's slot be given back.
                    drop((ticket, watching));
                    result
                })
                .await
                .map_err(|_| {
                    ErrorData::internal_error(
                        "the skill session stopped while answering this call",
                        None,
                    )
                })
            }
        }
    }
}

/// One call on the session, over the source's snapshot now (a fresh session when what the
/// client may see changed, so a session never serves from two sets at once).
fn turn<R>(
    kept: &mut Option<Kept>,
    source: &Source,
    host: &Host,
    stop: Option<CancelToken>,
    f: impl FnOnce(&mut Session) -> R,
) -> (R, Vec<Event>) {
    let now = source.snapshot();
    // The tools carry the host's answers: given outside the session (`resources/read`) or
    // in it, they hold in both.
    let tools = served(host, &now);
    let tools = match stop {
        Some(stop) => tools.cancelled_by(stop),
        None => tools,
    };
    // Signatures are taken only when the snapshot changed, from the session's own tools for
    // what the client saw: a session that answers once (a 2026-07-28 request, a stateless
    // server) hashes nothing, where one signature per request cost a walk over every skill.
    let (mut session, live) = match kept.take() {
        Some(k) if Arc::ptr_eq(k.session.tools().snapshot(), &now) => (k.session, k.live),
        Some(k) if k.live && signature(k.session.tools()) != signature(&tools) => {
            (Session::new(tools.clone()), true)
        }
        Some(k) => (k.session, k.live),
        None => (Session::new(tools.clone()), source.is_live()),
    };
    *session.tools_mut() = tools;
    let result = f(&mut session);
    let events = session.drain_events();
    *kept = Some(Kept { live, session });
    (result, events)
}

/// What tells two sets apart for a client: the names, fields and file digests of the skills it
/// may see and of those it offers as prompts (a denied skill counts for nothing, so editing it
/// tells the client nothing). It runs
/// on every request to a live set, so embedded skills count by identity (their files cannot
/// change) and files read at run time by the digests they keep: nothing is hashed again.
pub(super) fn signature(tools: &Tools) -> u64 {
    let mut hasher = DefaultHasher::new();
    // The skills only the user may invoke are prompts, not tools: they count too.
    let prompts_only = tools
        .user_invocable()
        .filter(|skill| !skill.policy().model_may_invoke());
    for skill in tools.visible().chain(prompts_only) {
        // An embedded skill cannot change while the program runs: its identity stands for it.
        match skill.embedded_identity() {
            Some(identity) => identity.hash(&mut hasher),
            None => skill.content_digest().hash(&mut hasher),
        }
    }
    hasher.finish()
}
