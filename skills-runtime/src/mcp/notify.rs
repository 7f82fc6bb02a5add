//! What a client is told of a live set: the lists that changed, the subscribed files whose
//! content changed (`resources/subscribe` of 2025-11-25 and the `subscriptions/listen` streams
//! of 2026-07-28 hear of the same changes), and log lines at the level it asked for.

#![allow(
    deprecated,
    reason = "rmcp deprecates logging and resources/subscribe for protocol 2026-07-28; clients of 2025-11-25 send them"
)]

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::ErrorData;
use rmcp::model::{
    ErrorCode, LoggingLevel, LoggingMessageNotificationParam, ResourceUpdatedNotificationParam,
    SubscriptionFilter,
};
use rmcp::service::{Peer, RoleServer, SubscriptionContext};
use serde_json::Value;

use super::request::is_manifest;
use super::session::signature;
use super::skill_md::{manifest, served};
use super::uri::parse_uri;
use super::{LOGGER, MAX_LISTENS, SUBSCRIPTION_POLL};
use crate::host::{Host, lock};
use crate::policy::Access;
use crate::tools::{Snapshot, Source, Tools};

/// What one client asked to hear about, and what it saw last.
#[derive(Default)]
pub(super) struct Listening {
    /// The snapshot this client was last answered from, to tell it when a live set changed.
    /// The same snapshot again (a reload swaps in a new one) needs no signature, and the first
    /// needs none either: signatures are taken only when the snapshot changed, so a client
    /// answered once (a 2026-07-28 request) walks no skill for them.
    pub(super) seen: Mutex<Option<Snapshot>>,
    /// The least severe level the client wants log notifications for (none before
    /// `logging/setLevel`).
    pub(super) level: Mutex<Option<LoggingLevel>>,
    /// The subscribed URIs, each with a hash of the content it had when last told (`None`: no
    /// such file then).
    pub(super) subscribed: Mutex<BTreeMap<String, Option<u64>>>,
    /// Whether the task that watches a live set for the subscriptions runs.
    watching: AtomicBool,
    /// The `subscriptions/listen` streams open on this connection (at most [`MAX_LISTENS`]).
    pub(super) listens: Arc<AtomicUsize>,
}

/// One open `subscriptions/listen` stream, counted while it lives.
struct ListenSlot(Arc<AtomicUsize>);

impl ListenSlot {
    /// A slot, or `None` when the connection has [`MAX_LISTENS`] open already.
    fn take(count: &Arc<AtomicUsize>) -> Option<Self> {
        count
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |open| {
                (open < MAX_LISTENS).then_some(open + 1)
            })
            .ok()
            .map(|_| ListenSlot(Arc::clone(count)))
    }
}

impl Drop for ListenSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Listening {
    /// Sends a log notification if the client asked for this level or a less severe one.
    pub(super) async fn log(&self, peer: &Peer<RoleServer>, level: LoggingLevel, message: String) {
        let wanted = *lock(&self.level);
        if wanted.is_some_and(|min| severity(level) >= severity(min)) {
            let param = LoggingMessageNotificationParam::new(level, Value::String(message))
                .with_logger(LOGGER);
            // The client may have gone: a log line it cannot get changes nothing here.
            let _ = peer.notify_logging_message(param).await;
        }
    }

    /// The subscribed URIs whose content differs in `tools` from when the client was last
    /// told; records the new contents.
    fn updated(&self, tools: &Tools) -> Vec<String> {
        let mut subscribed = lock(&self.subscribed);
        let mut updated = Vec::new();
        for (uri, before) in subscribed.iter_mut() {
            let now = content_hash(tools, uri);
            // A skill the client may no longer see (denied, hidden, gone) is not named to it.
            if now != *before && visible_uri(tools, uri) {
                *before = now;
                updated.push(uri.clone());
            }
        }
        updated
    }
}

/// What changed of a live set, as one client may see it, since it was last told: the number
/// of skills served now and the subscribed URIs whose content changed (`None`: nothing it may
/// see changed). Records what it sees now. One place, so `resources/subscribe` (2025-11-25)
/// and `subscriptions/listen` (2026-07-28) hear of the same changes.
fn changes(host: &Host, set: &Snapshot, listening: &Listening) -> Option<(usize, Vec<String>)> {
    let before = {
        let mut seen = lock(&listening.seen);
        if seen.as_ref().is_some_and(|seen| Arc::ptr_eq(seen, set)) {
            return None;
        }
        seen.replace(Arc::clone(set))?
    };
    // What the client saw there, from the same host: its settings do not change.
    let tools = served(host, set);
    if signature(&served(host, &before)) == signature(&tools) {
        return None;
    }
    Some((tools.visible().count(), listening.updated(&tools)))
}

/// The set to answer from; tells the client when what it may see of a live set changed since
/// it was last told: the list changes, the subscribed files that changed, a log line.
pub(super) async fn notice(
    source: &Source,
    host: &Host,
    listening: &Listening,
    peer: &Peer<RoleServer>,
) -> Snapshot {
    let set = source.snapshot();
    if !source.is_live() {
        return set;
    }
    if let Some((count, updated)) = changes(host, &set, listening) {
        // The client may not listen for these; a failure to tell it changes nothing here.
        let _ = peer.notify_tool_list_changed().await;
        let _ = peer.notify_resource_list_changed().await;
        let _ = peer.notify_prompt_list_changed().await;
        for uri in &updated {
            let param = ResourceUpdatedNotificationParam::new(uri.clone());
            let _ = peer.notify_resource_updated(param).await;
        }
        listening
            .log(
                peer,
                LoggingLevel::Info,
                format!(
                    "The skills changed (reloaded): {count} served now; {} subscribed file(s) updated.",
                    updated.len()
                ),
            )
            .await;
    }
    set
}

/// Whether `uri` names a file of a skill the client may see (the file need not exist).
fn visible_uri(tools: &Tools, uri: &str) -> bool {
    parse_uri(uri).is_ok_and(|(name, _)| tools.lookup(&name).is_ok())
}

/// A hash of what `resources/read` answers for `uri` now, `None` when it names no file.
pub(super) fn content_hash(tools: &Tools, uri: &str) -> Option<u64> {
    let (name, path) = parse_uri(uri).ok()?;
    let skill = tools.lookup(&name).ok()?;
    let mut hasher = DefaultHasher::new();
    if is_manifest(&path) {
        manifest(skill).hash(&mut hasher);
    } else {
        skill.load(&path).ok()?.bytes().hash(&mut hasher);
    }
    Some(hasher.finish())
}

/// The lines of what the source could not serve that a client may read: a line about a skill
/// folder is kept when the skill of that name is visible to it or, when no skill has that name
/// (a skill that never loaded), when its rules do not deny the name. A skill hidden from the
/// client is never named to it, broken or not.
pub(super) fn problems_for(tools: &Tools, problems: Vec<(String, String)>) -> Vec<String> {
    let may_see = |name: &str| match tools.set().get(name) {
        Ok(_) => tools.lookup(name).is_ok(),
        Err(_) => tools.settings().permissions.access(name, None) != Access::Deny,
    };
    problems
        .into_iter()
        .filter(|(folder, _)| may_see(folder))
        .map(|(_, line)| line)
        .collect()
}

/// Levels from the least severe up, for comparing (rmcp's type has no order).
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// Watches a live set while the client has subscriptions, so a change reaches it without
/// waiting for its next request (started at the first subscription).
pub(super) fn watch(
    source: &Source,
    host: &Host,
    listening: &Arc<Listening>,
    peer: &Peer<RoleServer>,
) {
    if !source.is_live() || listening.watching.swap(true, Ordering::SeqCst) {
        return;
    }
    let (source, host) = (source.clone(), host.clone());
    let (listening, peer) = (Arc::clone(listening), peer.clone());
    tokio::spawn(async move {
        while !peer.is_transport_closed() {
            tokio::time::sleep(SUBSCRIPTION_POLL).await;
            if lock(&listening.subscribed).is_empty() {
                continue;
            }
            notice(&source, &host, &listening, &peer).await;
        }
    });
}

/// What a `subscriptions/listen` stream may carry: only files of skills this client may see.
/// A denied or hidden skill's URI is left out of the acknowledgement (as one that does not
/// exist), so it is never sent.
pub(super) fn accepted(tools: &Tools, requested: &SubscriptionFilter) -> SubscriptionFilter {
    let mut accepted = requested.clone();
    accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
        uris.iter()
            .filter(|uri| visible_uri(tools, uri))
            .cloned()
            .collect()
    });
    accepted
}

/// One `subscriptions/listen` stream of a live set, until the client cancels it or goes: at
/// most [`MAX_LISTENS`] open on a connection (`open` counts them); `baseline` is the set and
/// what the client may see of it when the stream opens.
pub(super) async fn listen(
    host: &Host,
    source: &Source,
    open: &Arc<AtomicUsize>,
    baseline: impl FnOnce() -> (Snapshot, Tools),
    context: SubscriptionContext,
) -> Result<(), ErrorData> {
    // rmcp acknowledged the stream already; what it may carry is `accepted`, which the
    // sink enforces and tags with the request's id.
    let Some(_slot) = ListenSlot::take(open) else {
        return Err(ErrorData::new(
            ErrorCode::INVALID_REQUEST,
            format!(
                "Too many subscriptions/listen streams: this connection keeps {MAX_LISTENS} \
                 open at once. Cancel one (one stream can carry every kind of change) and \
                 listen again."
            ),
            None,
        ));
    };
    let accepted = context.accepted().clone();
    let sink = context.sink().clone();
    let peer = context.request_context().peer.clone();
    // This stream's own baseline: what the client may see now, and each accepted file.
    let own = Listening::default();
    {
        let (set, tools) = baseline();
        *lock(&own.seen) = Some(Arc::clone(&set));
        let mut subscribed = lock(&own.subscribed);
        for uri in accepted.resource_subscriptions.iter().flatten() {
            subscribed.insert(uri.clone(), content_hash(&tools, uri));
        }
    }
    loop {
        tokio::select! {
            () = context.cancelled() => return Ok(()),
            () = tokio::time::sleep(SUBSCRIPTION_POLL) => {}
        }
        if peer.is_transport_closed() {
            return Ok(());
        }
        let set = source.snapshot();
        let Some((_, updated)) = changes(host, &set, &own) else {
            continue;
        };
        // A send fails when the stream closed (the client went): the stream ends.
        let sent = async {
            if accepted.tools_list_changed == Some(true) {
                sink.notify_tool_list_changed().await?;
            }
            if accepted.prompts_list_changed == Some(true) {
                sink.notify_prompt_list_changed().await?;
            }
            if accepted.resources_list_changed == Some(true) {
                sink.notify_resource_list_changed().await?;
            }
            for uri in updated {
                sink.notify_resource_updated(uri).await?;
            }
            Ok::<(), rmcp::service::SubscriptionSendError>(())
        }
        .await;
        if sent.is_err() {
            return Ok(());
        }
    }
}

/// The answer to a subscription request to a set that cannot change.
pub(super) fn not_live(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "{method} is not served: these skills cannot change while the server runs, so there \
             is nothing to be told about (the capabilities do not list resources.subscribe)."
        ),
        None,
    )
}
