//! A connection's [`Session`], on a thread of its own (a session borrows its set, and rmcp's
//! futures must be `Send` and `'static`), rebuilt on a new set when a live source changed.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, mpsc};

use rmcp::ErrorData;

use super::skill_md::served;
use crate::host::{Host, Source, lock};
use crate::model::id::Dynamic;
use crate::tools::{Event, Session, Tools};

/// Work for the session thread.
type Job = Box<dyn for<'a> FnOnce(&mut Session<'a, Dynamic>) + Send>;

/// The session of one connection: started at the first request that needs it.
#[derive(Default)]
pub(super) struct Conversation {
    sender: Mutex<Option<mpsc::Sender<Job>>>,
}

impl Conversation {
    /// Runs `f` on the connection's session; returns its result and the events it raised.
    pub(super) async fn run<R: Send + 'static>(
        &self,
        source: &Source,
        host: &Host,
        f: impl for<'a> FnOnce(&mut Session<'a, Dynamic>) -> R + Send + 'static,
    ) -> Result<(R, Vec<Event>), ErrorData> {
        let sender = self.sender(source, host)?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |session: &mut Session<'_, Dynamic>| {
            let result = f(session);
            let events = session.drain_events();
            // The request may have been dropped meanwhile: nobody is left to answer.
            let _ = reply.send((result, events));
        });
        sender.send(job).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())
    }

    fn sender(&self, source: &Source, host: &Host) -> Result<mpsc::Sender<Job>, ErrorData> {
        let mut slot = lock(&self.sender);
        if let Some(sender) = slot.as_ref() {
            return Ok(sender.clone());
        }
        let (sender, jobs) = mpsc::channel::<Job>();
        let (source, host) = (source.clone(), host.clone());
        std::thread::Builder::new()
            .name("skills-mcp-session".into())
            .spawn(move || run_session(&source, &host, &jobs))
            .map_err(|e| {
                ErrorData::internal_error(format!("could not start the skill session: {e}"), None)
            })?;
        *slot = Some(sender.clone());
        Ok(sender)
    }
}

/// The connection's session: rebuilt on a new set when a live source changed, so a session
/// never serves from two sets at once.
fn run_session(source: &Source, host: &Host, jobs: &mpsc::Receiver<Job>) {
    let mut carried: Option<Job> = None;
    loop {
        let set = source.snapshot();
        let tools = served(host, &set);
        let served_signature = source.is_live().then(|| signature(&tools));
        let mut session = Session::new(tools);
        if let Some(job) = carried.take() {
            job(&mut session);
        }
        // The last snapshot found to look the same to this client: while the source hands out
        // that one again, nothing is hashed.
        let mut checked = Arc::clone(&set);
        loop {
            let Ok(job) = jobs.recv() else {
                return;
            };
            if let Some(before) = served_signature {
                let now = source.snapshot();
                if !Arc::ptr_eq(&now, &checked) {
                    if signature(&served(host, &now)) != before {
                        carried = Some(job);
                        break;
                    }
                    checked = now;
                }
            }
            // Answers given outside the session (`resources/read`) hold in it too.
            *session.grants_mut() = host.grants();
            job(&mut session);
        }
    }
}

fn stopped() -> ErrorData {
    ErrorData::internal_error("the skill session stopped", None)
}

/// What tells two sets apart for a client: the names, fields and file digests of the skills it
/// may see (a denied skill counts for nothing, so editing it tells the client nothing). It runs
/// on every request to a live set, so embedded skills count by identity (their files cannot
/// change) and files read at run time by the digests they keep: nothing is hashed again.
pub(super) fn signature(tools: &Tools<'_, Dynamic>) -> u64 {
    let mut hasher = DefaultHasher::new();
    for skill in tools.visible() {
        // An embedded skill cannot change while the program runs: its identity stands for it.
        match skill.embedded_identity() {
            Some(identity) => identity.hash(&mut hasher),
            None => skill.content_digest().hash(&mut hasher),
        }
    }
    hasher.finish()
}
