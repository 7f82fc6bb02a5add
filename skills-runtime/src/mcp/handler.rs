//! The answers to every MCP request ([`Handler`], an rmcp [`ServerHandler`]), and [`Guarded`],
//! what [`McpServer::serve`](super::McpServer::serve) hands to rmcp.

#![allow(
    deprecated,
    reason = "rmcp deprecates logging and resources/subscribe for protocol 2026-07-28; clients of 2025-11-25 send them"
)]

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ClientNotification,
    CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, CustomRequest,
    CustomResult, DiscoverResult, ErrorCode, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, GetSkillRequestParams, GetSkillResult, Implementation, InputRequiredResult,
    InputResponses, JsonObject, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListSkillsResult, ListToolsResult, LoggingLevel,
    LoggingMessageNotificationParam, PaginatedRequestParams, Prompt, PromptMessage,
    ProtocolVersion, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference, Resource,
    ResourceContents, ResourceTemplate, ResourceUpdatedNotificationParam, Role, ServerCapabilities,
    ServerConfig, SetLevelRequestParams, SkillResources, SubscribeRequestParams,
    SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{Peer, RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;

use super::approval::{self, Approvals, Caller, ELICIT_TIMEOUT};
use super::connection::Ticket;
use super::prompt;
use super::session::{Conversation, Work, signature};
use super::skill_md::{base64, entry, manifest, served};
use super::uri::{parse_uri, template, uri, uris};
use super::{
    DIRECTORY, FIXED_CACHE_TTL, LISTING_PROMPT, LIVE_CACHE_TTL, LOGGER, MARKDOWN, MAX_JSON_DEPTH,
    MAX_LISTENS, Options, SCHEME, SUBSCRIPTION_POLL, TOO_DEEP,
};
use crate::host::{Host, Refusal, lock};
use crate::model::skill::{MANIFEST, Skill};
use crate::policy::{Access, Answer, Subject};
use crate::text::echo;
use crate::tools::{
    Call, Disclosure, Event, LOAD_SKILL_CHUNK, READ_SKILL, READ_SKILL_RESOURCE, Session, Settings,
    Snapshot, Source, ToolOutput, Tools,
};

/// A hook called with every session event.
pub(super) type EventHook = Arc<dyn Fn(&Event) + Send + Sync>;

/// One connection's server: the settings its builder wrote, and the connection's state.
pub(super) struct Handler {
    pub(super) source: Source,
    pub(super) host: Host,
    pub(super) remember_loads: bool,
    pub(super) on_event: Option<EventHook>,
    pub(super) info: Implementation,
    /// What the cacheable answers say to a client of 2026-07-28.
    pub(super) cache: Cache,
    /// The connection's session, kept between its calls (started at the first call that needs
    /// it).
    conversation: Conversation,
    /// What the client saw last, the level it logs at and what it subscribed to; shared with
    /// the task that watches a live set for its subscriptions.
    listening: Arc<Listening>,
    /// Who calls (its token), for the approvals: their `requestState`s and "always" answers.
    pub(super) caller: Caller,
    /// The instructions (the listing) of the last snapshot, shared by the sessions of one
    /// settings: rmcp asks for the server's info on many requests, and rendering the listing
    /// of 1,000 skills each time made an HTTP `initialize` some 100 ms slower than stdio's.
    instructions: Arc<Mutex<Option<Rendered>>>,
    /// The key approvals are sealed with and the callers' "always" answers, shared by every
    /// session of the server.
    pub(super) approvals: Arc<Approvals>,
}

/// A snapshot and the instructions rendered from it.
type Rendered = (Snapshot, Arc<str>);

/// What the client sent back with a retried request (SEP-2322): the state the server issued
/// and the answers to its input requests.
#[derive(Clone, Copy, Default)]
struct Round<'a> {
    state: Option<&'a str>,
    responses: Option<&'a InputResponses>,
}

/// How a request under `ask` goes on.
enum Asked {
    /// The user answered.
    Answer(Answer),
    /// The client is to ask its user and call again (2026-07-28).
    Input(InputRequiredResult),
    /// There is nobody to ask.
    Refused(Refusal),
}

/// What this server's cacheable answers say to a client of 2026-07-28 (SEP-2549's `ttlMs` and
/// `cacheScope`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Cache {
    /// [`Options::cache_ttl`](super::Options::cache_ttl) as given (`None`: by the kind of set).
    pub(super) ttl: Option<Duration>,
    /// Whether every answer is the same whoever asks (no token has settings of its own), so
    /// shared caches may keep it.
    pub(super) public: bool,
}

/// A cacheable answer (SEP-2549): where its `ttlMs` and `cacheScope` go.
trait Cacheable: Sized {
    fn hint_fields(&mut self) -> (&mut Option<u64>, &mut Option<CacheScope>);

    /// The answer with `hints`, when the client's revision takes them (`None`: as it is).
    fn cached(mut self, hints: Option<(u64, CacheScope)>) -> Self {
        if let Some((ttl, scope)) = hints {
            let (ttl_ms, cache_scope) = self.hint_fields();
            *ttl_ms = Some(ttl);
            *cache_scope = Some(scope);
        }
        self
    }
}

macro_rules! cacheable {
    ($($answer:ty),*) => {$(
        impl Cacheable for $answer {
            fn hint_fields(&mut self) -> (&mut Option<u64>, &mut Option<CacheScope>) {
                (&mut self.ttl_ms, &mut self.cache_scope)
            }
        }
    )*};
}

// `resources/directory/read` answers a `ListResourcesResult`.
cacheable!(
    ListToolsResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ReadResourceResult,
    ListSkillsResult,
    GetSkillResult
);

/// Whether the request of `context` speaks MCP 2026-07-28 or later: no `initialize`, no
/// `logging/setLevel`, cache hints on cacheable answers.
fn modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

/// Whether a tool's arguments that do not fit its schema are answered as a tool result with
/// `isError` (2025-11-25 on, SEP-1303: the model reads it and corrects the call) rather than
/// as a protocol error `-32602` (earlier revisions). A request with no version is taken as new.
fn argument_errors_are_results(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_none_or(|version| version.as_str() >= ProtocolVersion::V_2025_11_25.as_str())
}

/// What one client asked to hear about, and what it saw last.
#[derive(Default)]
struct Listening {
    /// The snapshot this client was last answered from and the signature of what it saw
    /// there, to tell it when a live set changed. The same snapshot again (a reload swaps in a
    /// new one) needs no signature: nothing is hashed on such a request.
    seen: Mutex<Option<(Snapshot, u64)>>,
    /// The least severe level the client wants log notifications for (none before
    /// `logging/setLevel`).
    level: Mutex<Option<LoggingLevel>>,
    /// The subscribed URIs, each with a hash of the content it had when last told (`None`: no
    /// such file then).
    subscribed: Mutex<BTreeMap<String, Option<u64>>>,
    /// Whether the task that watches a live set for the subscriptions runs.
    watching: AtomicBool,
    /// The `subscriptions/listen` streams open on this connection (at most [`MAX_LISTENS`]).
    listens: Arc<AtomicUsize>,
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
    async fn log(&self, peer: &Peer<RoleServer>, level: LoggingLevel, message: String) {
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
    if lock(&listening.seen)
        .as_ref()
        .is_some_and(|(seen, _)| Arc::ptr_eq(seen, set))
    {
        return None;
    }
    let tools = served(host, set);
    let signature = signature(&tools);
    let before = lock(&listening.seen).replace((Arc::clone(set), signature));
    if before.is_none_or(|(_, b)| b == signature) {
        return None;
    }
    Some((tools.visible().count(), listening.updated(&tools)))
}

/// The set to answer from; tells the client when what it may see of a live set changed since
/// it was last told: the list changes, the subscribed files that changed, a log line.
async fn notice(
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
fn content_hash(tools: &Tools, uri: &str) -> Option<u64> {
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

/// Whether `path` names a skill's `SKILL.md` (however it is written: `./SKILL.md` too), which
/// is served with its frontmatter.
fn is_manifest(path: &str) -> bool {
    crate::model::path::check(path).is_ok_and(|p| p.segments().eq([MANIFEST]))
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

impl Handler {
    /// A server for `source` with the default settings.
    pub(super) fn new(source: Source, settings: Settings) -> Self {
        let approvals = Arc::new(Approvals::new(&Options::default()));
        Handler {
            source,
            host: Host::new(settings, "server").with_grants(approvals.grants(Caller::ANYONE)),
            remember_loads: false,
            on_event: None,
            info: Implementation::new("skills", env!("CARGO_PKG_VERSION")),
            cache: Cache {
                ttl: None,
                public: true,
            },
            conversation: Conversation::default(),
            listening: Arc::default(),
            caller: Caller::ANYONE,
            approvals,
            instructions: Arc::default(),
        }
    }

    /// Takes its approvals' key and grants file from `options`.
    pub(super) fn with_approvals(mut self, options: &Options) -> Self {
        self.approvals = Arc::new(Approvals::new(options));
        self.host = self.host.with_grants(self.approvals.grants(self.caller));
        self
    }

    /// A server for another connection (an HTTP session) with what this one was built with,
    /// or `settings` instead of its settings: its own session, answers and subscriptions.
    #[cfg(feature = "mcp-http")]
    pub(super) fn fresh(&self, settings: Option<&Settings>, caller: Caller) -> Self {
        // Other settings show other skills: their own instructions.
        let instructions = match settings {
            None => Arc::clone(&self.instructions),
            Some(_) => Arc::default(),
        };
        let settings = settings.unwrap_or(&self.host.settings).clone();
        Handler {
            source: self.source.clone(),
            host: Host::new(settings, "server").with_grants(self.approvals.grants(caller)),
            remember_loads: self.remember_loads,
            on_event: self.on_event.clone(),
            info: self.info.clone(),
            cache: self.cache,
            conversation: Conversation::default(),
            listening: Arc::default(),
            caller,
            approvals: Arc::clone(&self.approvals),
            instructions,
        }
    }

    /// The set to answer from; tells the client when what it may see of a live set changed
    /// since its last request.
    async fn current(&self, peer: &Peer<RoleServer>) -> Snapshot {
        notice(&self.source, &self.host, &self.listening, peer).await
    }

    /// The cache hints of every cacheable answer: [`Options::cache_ttl`](super::Options::cache_ttl),
    /// by default an hour for a fixed set and a reload interval for a live one; `public` when
    /// the answer is the same whoever asks.
    fn hint_values(&self) -> (u64, CacheScope) {
        let ttl = self.cache.ttl.unwrap_or(if self.source.is_live() {
            LIVE_CACHE_TTL
        } else {
            FIXED_CACHE_TTL
        });
        let scope = if self.cache.public {
            CacheScope::Public
        } else {
            CacheScope::Private
        };
        (u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX), scope)
    }

    /// The cache hints of an answer to the request of `context`: none for a client of a
    /// revision before 2026-07-28, which has no such fields.
    fn hints(&self, context: &RequestContext<RoleServer>) -> Option<(u64, CacheScope)> {
        modern(context).then(|| self.hint_values())
    }

    /// Watches a live set while the client has subscriptions, so a change reaches it without
    /// waiting for its next request (started at the first subscription).
    fn watch(&self, peer: &Peer<RoleServer>) {
        if !self.source.is_live() || self.listening.watching.swap(true, Ordering::SeqCst) {
            return;
        }
        let (source, host) = (self.source.clone(), self.host.clone());
        let (listening, peer) = (Arc::clone(&self.listening), peer.clone());
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

    /// How a call is run: a load is quick unless it writes the skill to a work folder.
    fn work(&self, load: bool) -> Work {
        if load && self.host.settings.extractor().is_none() {
            Work::Quick
        } else {
            Work::Blocking
        }
    }

    fn tools(&self, set: &Snapshot) -> Tools {
        // Another replica's "always" answers count from the request after they were given.
        self.approvals.refresh(self.caller);
        served(&self.host, set)
    }

    /// Runs `f` on the connection's session for the request `context` answers and returns its
    /// result, telling the event hook what happened.
    async fn with_session<R: Send + 'static>(
        &self,
        work: Work,
        context: &RequestContext<RoleServer>,
        f: impl FnOnce(&mut Session) -> R + Send + 'static,
    ) -> Result<R, ErrorData> {
        let request = (Ticket::of(context), &context.ct);
        let (result, events) = self
            .conversation
            .run(&self.source, &self.host, work, request, f)
            .await?;
        if let Some(hook) = &self.on_event {
            for event in &events {
                hook(event);
            }
        }
        Ok(result)
    }

    /// Whether a resource of `found` may be read now; under `ask`, asks first: `Ok(Some)` is
    /// the `input_required` answer for a 2026-07-28 client to ask its user.
    async fn may_read(
        &self,
        tools: &Tools,
        found: &Skill,
        context: &RequestContext<RoleServer>,
        round: Round<'_>,
    ) -> Result<Option<InputRequiredResult>, ErrorData> {
        let peer = &context.peer;
        match tools.access(found) {
            Access::Allow => Ok(None),
            // Denied skills never get this far: they are looked up as unknown.
            Access::Deny => Err(not_found(
                format!("Skill \"{}\" not found.", found.name()),
                &uri(found.name(), MANIFEST),
            )),
            Access::Ask => {
                let subject = Subject::load(found.name());
                let content = found.content_digest();
                self.asking(peer, &subject).await;
                let answer = match self.ask(&subject, &content, context, round).await? {
                    Asked::Input(input) => return Ok(Some(input)),
                    Asked::Answer(answer) => Ok(answer),
                    Asked::Refused(refusal) => Err(refusal),
                };
                let approved = answer.and_then(|answer| {
                    self.approvals
                        .recorded(self.caller, &subject, &content, answer);
                    self.host.record(found, &subject, answer)
                });
                match approved {
                    Ok(()) => Ok(None),
                    Err(refusal) => {
                        let refusal = refusal.to_string();
                        self.refused(peer, &subject, &refusal).await;
                        Err(ErrorData::invalid_request(refusal, None))
                    }
                }
            }
        }
    }

    /// The user's answer about `subject` (of the skill whose content digest is `content`),
    /// asked the one way this request allows: the host's approval hook; a 2026-07-28 client
    /// that declares elicitation answers in a retry (`round`), or is told to ask; a session
    /// that declared it is sent `elicitation/create`; anyone else cannot be asked.
    async fn ask(
        &self,
        subject: &Subject,
        content: &[u8; 32],
        context: &RequestContext<RoleServer>,
        round: Round<'_>,
    ) -> Result<Asked, ErrorData> {
        if self.host.settings.approval().is_some() {
            return Ok(match self.host.ask(subject).await {
                Ok(answer) => Asked::Answer(answer),
                Err(refusal) => Asked::Refused(refusal),
            });
        }
        let elicits = context.client_capabilities().is_some_and(|capabilities| {
            capabilities
                .elicitation
                .as_ref()
                .is_some_and(|modes| modes.form.is_some() || modes.url.is_none())
        });
        let cannot = || {
            Asked::Refused(Refusal::CannotAsk {
                subject: subject.clone(),
                noun: "server",
            })
        };
        if modern(context) {
            let answered = self.approvals.answered(
                self.caller,
                subject,
                content,
                round.state,
                round.responses,
            )?;
            return Ok(match answered {
                Some(answer) => Asked::Answer(answer),
                None if elicits => {
                    Asked::Input(self.approvals.input_required(self.caller, subject, content))
                }
                None => cannot(),
            });
        }
        if !elicits {
            return Ok(cannot());
        }
        let asked = context
            .peer
            .create_elicitation_with_timeout(approval::form(subject), Some(ELICIT_TIMEOUT))
            .await;
        Ok(Asked::Answer(match asked {
            Ok(result) => approval::answer_of(&result),
            // A client that fails to answer has not said yes.
            Err(_) => Answer::Reject,
        }))
    }

    /// Logs that the host is asked to approve `subject`.
    async fn asking(&self, peer: &Peer<RoleServer>, subject: &Subject) {
        let message = format!(
            "Asking the host to approve {} (its rule is ask).",
            crate::tools::render::act(subject)
        );
        self.listening
            .log(peer, LoggingLevel::Notice, message)
            .await;
    }

    /// Logs that `subject` was refused, and why.
    async fn refused(&self, peer: &Peer<RoleServer>, subject: &Subject, why: &str) {
        let message = format!(
            "{} was refused: {why}",
            crate::tools::render::capitalized(&crate::tools::render::act(subject))
        );
        self.listening
            .log(peer, LoggingLevel::Warning, message)
            .await;
    }

    /// Answers `call`; `Err` is the `input_required` answer for a 2026-07-28 client to ask
    /// its user first.
    async fn call(
        &self,
        call: Call,
        context: &RequestContext<RoleServer>,
        round: Round<'_>,
    ) -> Result<Result<ToolOutput, InputRequiredResult>, ErrorData> {
        let peer = &context.peer;
        let force = !self.remember_loads;
        let loads = !matches!(call, Call::Run { .. });
        let (out, content) = self
            .with_session(self.work(loads), context, move |session| {
                let out = session.handle_call(call, force);
                // The content the person is asked about: the skill as this session serves it.
                let content = out.approval.as_ref().and_then(|subject| {
                    let found = session.tools().lookup(&subject.skill).ok()?;
                    Some(found.content_digest())
                });
                (out, content)
            })
            .await?;
        let (Some(subject), Some(content)) = (out.approval.clone(), content) else {
            return Ok(Ok(out));
        };
        self.asking(peer, &subject).await;
        let answer = match self.ask(&subject, &content, context, round).await? {
            Asked::Input(input) => return Ok(Err(input)),
            Asked::Answer(answer) => Ok(answer),
            Asked::Refused(refusal) => Err(refusal),
        };
        if let Err(refusal) = &answer {
            self.refused(peer, &subject, &refusal.to_string()).await;
        } else if answer == Ok(Answer::Reject) {
            self.refused(peer, &subject, "the host declined.").await;
        }
        let asked = answer.as_ref().ok().copied();
        if let Some(asked) = asked {
            self.approvals
                .recorded(self.caller, &subject, &content, asked);
        }
        // Nobody to ask: the session's request is dropped as if declined.
        let given = asked.unwrap_or(Answer::Reject);
        let host = self.host.clone();
        // A run's answer runs the script.
        let work = self.work(subject.script.is_none());
        let answered = self
            .with_session(work, context, move |session| {
                // Recorded for the skill as this session serves it: the content the person was
                // asked about (a session over a changed set no longer holds the request).
                let answered = session.answer(&subject, given);
                match (asked, session.tools().lookup(&subject.skill)) {
                    (Some(Answer::Always), Ok(found)) if answered.is_some() => {
                        // `Ok`: an `Always` is no refusal.
                        let _ = host.record(found, &subject, Answer::Always);
                    }
                    (Some(Answer::Reject), _) => host.revoke(&subject),
                    _ => {}
                }
                answered
            })
            .await?;
        Ok(Ok(match (answer, answered) {
            (Err(refusal), _) => ToolOutput {
                text: refusal.to_string(),
                is_error: true,
                report: None,
                approval: None,
            },
            (Ok(_), Some(out)) => out,
            (Ok(_), None) => out,
        }))
    }
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        let builder = ServerCapabilities::builder()
            .enable_logging()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_completions();
        let capabilities = if self.source.is_live() {
            builder
                .enable_tool_list_changed()
                .enable_prompts_list_changed()
                .enable_resources_list_changed()
                .enable_resources_subscribe()
                .enable_skills_with_directory_read()
                .build()
        } else {
            builder.enable_skills_with_directory_read().build()
        };
        let set = self.source.snapshot();
        // Rendered once per snapshot: what the model may see depends on the set and the
        // settings only (not on the answers given).
        let instructions = {
            let mut cached = lock(&self.instructions);
            match &*cached {
                Some((seen, text)) if Arc::ptr_eq(seen, &set) => Arc::clone(text),
                _ => {
                    let text: Arc<str> = Session::new(served(&self.host, &set))
                        .system_prompt(&Disclosure::Progressive, "")
                        .into();
                    *cached = Some((set, Arc::clone(&text)));
                    text
                }
            }
        };
        let config = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        if instructions.is_empty() {
            config
        } else {
            config.with_instructions(instructions.to_string())
        }
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut result = DiscoverResult::from_server_info(
            ServerHandler::supported_protocol_versions(self).into_owned(),
            self.get_info(),
        );
        (result.ttl_ms, result.cache_scope) = self.hint_values();
        Ok(result)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let set = self.current(&context.peer).await;
        // No visible skill, no tool (`definitions` is empty); a reload that brings one notifies the client.
        let tools = self
            .tools(&set)
            .definitions()
            .iter()
            .map(|d| {
                serde_json::from_value::<Tool>(d.to_mcp())
                    .map_err(|e| ErrorData::internal_error(format!("tool {}: {e}", d.name), None))
            })
            .collect::<Result<Vec<Tool>, ErrorData>>()?;
        Ok(ListToolsResult::with_all_items(tools).cached(self.hints(&context)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let set = self.current(&context.peer).await;
        let call = match check_call(
            &self.tools(&set),
            &self.host.settings.name,
            &request.name,
            request.arguments.unwrap_or_default(),
        ) {
            Ok(call) => call,
            Err(Refused::Tool(error)) => return Err(error),
            Err(Refused::Arguments(message)) if argument_errors_are_results(&context) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into());
            }
            Err(Refused::Arguments(message)) => {
                return Err(ErrorData::invalid_params(message, None));
            }
        };
        let round = Round {
            state: request.request_state.as_deref(),
            responses: request.input_responses.as_ref(),
        };
        let out = match self.call(call, &context, round).await? {
            Ok(out) => out,
            Err(input) => return Ok(input.into()),
        };
        let content = vec![ContentBlock::text(out.text)];
        let result = if out.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let resources = self
            .tools(&set)
            .visible()
            .map(|skill| {
                Resource::new(uri(skill.name(), MANIFEST), skill.name())
                    .with_title(format!("{} (skill)", skill.name()))
                    .with_description(skill.description())
                    .with_mime_type(MARKDOWN)
                    .with_size(manifest(skill).len() as u64)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources).cached(self.hints(&context)))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let templates = self
            .tools(&set)
            .visible()
            .map(|skill| {
                let paths: Vec<&str> = skill.paths().collect();
                ResourceTemplate::new(template(skill.name()), skill.name())
                    .with_title(format!("Files of skill {}", skill.name()))
                    .with_description(format!(
                        "{} Files: {}.",
                        skill.description().trim_end(),
                        paths.join(", ")
                    ))
            })
            .collect();
        Ok(ListResourceTemplatesResult::with_all_items(templates).cached(self.hints(&context)))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let (skill, path) = file_at(&tools, &request.uri, |e| not_found(e, &request.uri))?;
        if path.is_empty() || path.ends_with('/') {
            return Err(not_found(
                format!(
                    "{} is a folder, not a file; list it with resources/directory/read. The files of skill \"{}\" are: {}.",
                    echo(&request.uri),
                    skill.name(),
                    uris(skill).join(", ")
                ),
                &request.uri,
            ));
        }
        let contents = if is_manifest(&path) {
            ResourceContents::text(manifest(skill), &request.uri).with_mime_type(MARKDOWN)
        } else {
            let loaded = skill
                .load(&path)
                .map_err(|e| not_found(e.clipped().to_string(), &request.uri))?;
            match loaded.text() {
                Some(text) => ResourceContents::text(text, &request.uri),
                None => ResourceContents::blob(base64(loaded.bytes()), &request.uri),
            }
            .with_mime_type(loaded.media_type())
        };
        // A file under `ask` is for whoever approved it (an `always` answer included, which
        // lifts the rule for this client only): no cache may answer it to anyone else.
        let asks = tools.settings().permissions.access(skill.name(), None) == Access::Ask;
        let hints = match self.hints(&context) {
            Some(_) if asks => Some((0, CacheScope::Private)),
            hints => hints,
        };
        let round = Round {
            state: request.request_state.as_deref(),
            responses: request.input_responses.as_ref(),
        };
        if let Some(input) = self.may_read(&tools, skill, &context, round).await? {
            return Ok(input.into());
        }
        Ok(ReadResourceResult::new(vec![contents]).cached(hints).into())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if modern(&context) {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "logging/setLevel is not a method of MCP 2026-07-28, which removed it: give a \
                 request's log level in its _meta (io.modelcontextprotocol/logLevel), or speak \
                 2025-11-25 to set one for the session.",
                None,
            ));
        }
        *lock(&self.listening.level) = Some(request.level);
        // A client that starts listening learns what the source could not serve (an overlay's
        // skills left out, each with its rule), which it would otherwise never see.
        for problem in self.source.problems() {
            self.listening
                .log(&context.peer, LoggingLevel::Warning, problem)
                .await;
        }
        Ok(())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.source.is_live() {
            return Err(not_live("resources/subscribe"));
        }
        let set = self.current(&context.peer).await;
        let hash = {
            let tools = self.tools(&set);
            let (skill, path) = file_at(&tools, &request.uri, |e| not_found(e, &request.uri))?;
            if skill.load(&path).is_err() && path != MANIFEST {
                return Err(not_found(
                    format!(
                        "{} is not a file of skill \"{}\". Its files are: {}.",
                        echo(&request.uri),
                        skill.name(),
                        uris(skill).join(", ")
                    ),
                    &request.uri,
                ));
            }
            content_hash(&tools, &request.uri)
        };
        lock(&self.listening.subscribed).insert(request.uri, hash);
        self.watch(&context.peer);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if !self.source.is_live() {
            return Err(not_live("resources/unsubscribe"));
        }
        // Unsubscribing from a URI never subscribed to is no error: the client hears nothing
        // about it either way.
        lock(&self.listening.subscribed).remove(&request.uri);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // A fixed set never changes: the stream is acknowledged with nothing and ends at once.
        if !self.source.is_live() {
            return Some(SubscriptionFilter::new());
        }
        // Only files of skills this client may see: a denied or hidden skill's URI is left
        // out of the acknowledgement (as one that does not exist), so it is never sent.
        let tools = self.tools(&self.source.snapshot());
        let mut accepted = requested.clone();
        accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
            uris.iter()
                .filter(|uri| visible_uri(&tools, uri))
                .cloned()
                .collect()
        });
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        // rmcp acknowledged the stream already; what it may carry is `accepted`, which the
        // sink enforces and tags with the request's id.
        if !self.source.is_live() {
            return Ok(());
        }
        let Some(_slot) = ListenSlot::take(&self.listening.listens) else {
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
            let set = self.source.snapshot();
            let tools = self.tools(&set);
            *lock(&own.seen) = Some((Arc::clone(&set), signature(&tools)));
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
            let set = self.source.snapshot();
            let Some((_, updated)) = changes(&self.host, &set, &own) else {
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

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let listing = Prompt::new(
            LISTING_PROMPT,
            Some(
                "The skills this server serves, one line each, and how to load one: for the \
                 system prompt.",
            ),
            None,
        )
        .with_title("Available skills");
        let mut prompts = vec![listing];
        prompts.extend(
            self.tools(&set)
                .user_invocable()
                .filter(|skill| prompt::offered(skill))
                .map(prompt::prompt),
        );
        Ok(ListPromptsResult::with_all_items(prompts).cached(self.hints(&context)))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.current(&context.peer).await;
        if request.name == LISTING_PROMPT {
            let text = self
                .with_session(Work::Quick, &context, |session| {
                    session.system_prompt(&Disclosure::Progressive, "")
                })
                .await?;
            let text = if text.is_empty() {
                "There are no skills available.".to_owned()
            } else {
                text
            };
            let result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description("The skills this server serves and how to load them.");
            return Ok(result.into());
        }
        // A skill with scripts is written to the work folder first, when there is one, for
        // `${SKILL_DIR}`: blocking work.
        let work = self.work(true);
        let (name, arguments) = (request.name, request.arguments);
        let (description, text) = self
            .with_session(work, &context, move |session| {
                let tools = session.tools();
                let skill = tools
                    .user_invocable()
                    .filter(|skill| prompt::offered(skill))
                    .find(|skill| skill.name() == name)
                    .ok_or_else(|| unknown_prompt(tools, &name))?;
                let typed = prompt::typed(skill, arguments.as_ref())?;
                let dir = tools
                    .on_disk(skill)
                    .ok()
                    .flatten()
                    .map(|dir| dir.display().to_string());
                let text = prompt::render(skill, &typed, dir.as_deref())?;
                Ok::<_, ErrorData>((skill.description().to_owned(), text))
            })
            .await??;
        let result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(description);
        Ok(result.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let Reference::Resource(reference) = &request.r#ref else {
            return Ok(CompleteResult::default());
        };
        let Some(skill) = tools
            .visible()
            .find(|s| template(s.name()) == reference.uri)
        else {
            return Ok(CompleteResult::default());
        };
        let typed = request.argument.value.as_str();
        let mut values: Vec<String> = skill
            .paths()
            .filter(|p| p.starts_with(typed))
            .map(str::to_owned)
            .collect();
        values.extend(
            skill
                .paths()
                .filter(|p| !p.starts_with(typed) && p.contains(typed))
                .map(str::to_owned),
        );
        let total = values.len();
        values.truncate(CompletionInfo::MAX_VALUES);
        let info = CompletionInfo::with_pagination(
            values,
            u32::try_from(total).ok(),
            total > CompletionInfo::MAX_VALUES,
        )
        .unwrap_or_default();
        Ok(CompleteResult::new(info))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method == TOO_DEEP {
            // A request `DepthGuard` could not pass on: its method and depth, from the guard.
            let params = request.params.unwrap_or_default();
            let method = params["method"].as_str().unwrap_or("a request");
            let depth = params["depth"].as_u64().unwrap_or_default();
            return Err(ErrorData::invalid_request(
                format!(
                    "This {} request is nested {} levels deep; the server reads JSON nested at \
                     most {MAX_JSON_DEPTH} levels, so it did not read it. Send its arguments \
                     nested less deeply.",
                    echo(method),
                    if depth > 0 {
                        depth.to_string()
                    } else {
                        "too many".to_owned()
                    }
                ),
                None,
            ));
        }
        Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!(
                "Unknown method \"{}\". This server answers the MCP methods for tools, \
                 resources, prompts, completion and the skills extension.",
                echo(&request.method)
            ),
            None,
        ))
    }

    async fn list_skills(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let skills = self
            .tools(&set)
            .visible()
            .filter_map(|skill| entry(skill).ok())
            .collect();
        Ok(ListSkillsResult::with_all_items(skills).cached(self.hints(&context)))
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let known = || skill_uris(&tools).join(", ");
        let (name, path) =
            parse_uri(&request.uri).map_err(|e| invalid_uri(&tools, &e, &request.uri))?;
        if path != MANIFEST {
            return Err(ErrorData::invalid_params(
                format!(
                    "skills/get takes the URI of a skill's SKILL.md, like {}. The skills are: {}.",
                    echo(&uri(&name, MANIFEST)),
                    known()
                ),
                None,
            ));
        }
        let skill = tools.lookup(&name).map_err(|e| {
            ErrorData::invalid_params(format!("{e} Their URIs: {}.", known()), None)
        })?;
        let mut entry = entry(skill).map_err(|e| {
            ErrorData::invalid_params(
                format!(
                    "Skill \"{}\" cannot be served by the skills extension: {e}",
                    skill.name()
                ),
                None,
            )
        })?;
        if entry.uri != request.uri {
            // The same skill, percent-encoded differently: answer under the client's spelling.
            if let SkillResources::Files(files) = &mut entry.resources {
                for file in files.iter_mut().filter(|f| f.uri == entry.uri) {
                    file.uri.clone_from(&request.uri);
                }
            }
            entry.uri.clone_from(&request.uri);
        }
        Ok(GetSkillResult::new(entry).cached(self.hints(&context)))
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let set = self.current(&context.peer).await;
        let tools = self.tools(&set);
        let (skill, path) = file_at(&tools, &request.uri, |e| ErrorData::invalid_params(e, None))?;
        let folder = path.trim_end_matches('/');
        let prefix = if folder.is_empty() {
            String::new()
        } else {
            format!("{folder}/")
        };
        let mut folders = BTreeSet::new();
        let mut children = Vec::new();
        for file in skill.files() {
            let Some(rest) = file.path().strip_prefix(&prefix) else {
                continue;
            };
            match rest.split_once('/') {
                Some((sub, _)) => {
                    folders.insert(sub.to_owned());
                }
                None => {
                    let size = if file.path() == MANIFEST {
                        manifest(skill).len()
                    } else {
                        file.bytes().len()
                    };
                    let media = skill
                        .load(file.path())
                        .map_or(MARKDOWN, |loaded| loaded.media_type());
                    children.push(
                        Resource::new(uri(skill.name(), file.path()), rest)
                            .with_mime_type(media)
                            .with_size(size as u64),
                    );
                }
            }
        }
        if children.is_empty() && folders.is_empty() {
            let mut all: BTreeSet<String> = BTreeSet::from([uri(skill.name(), "")]);
            for file in skill.files() {
                let mut at = file.path();
                while let Some((parent, _)) = at.rsplit_once('/') {
                    all.insert(uri(skill.name(), &format!("{parent}/")));
                    at = parent;
                }
            }
            return Err(ErrorData::invalid_params(
                format!(
                    "{} is not a folder of skill \"{}\". Its folders are: {}.",
                    echo(&request.uri),
                    skill.name(),
                    all.into_iter().collect::<Vec<_>>().join(", ")
                ),
                None,
            ));
        }
        let mut listing: Vec<Resource> = folders
            .into_iter()
            .map(|sub| {
                Resource::new(uri(skill.name(), &format!("{prefix}{sub}/")), sub)
                    .with_mime_type(DIRECTORY)
            })
            .collect();
        listing.extend(children);
        Ok(ReadResourceDirectoryResult::with_all_items(listing).cached(self.hints(&context)))
    }
}

/// The server as rmcp serves it from [`McpServer::serve`](super::McpServer::serve): it answers
/// the `skills/get` requests rmcp's dispatch would refuse with the whole URI echoed, with the
/// URI clipped, and says more than the method's name when rmcp answers "method not found"
/// (over HTTP rmcp's service takes the handler itself, so these two stay rmcp's there).
pub(super) struct Guarded(pub(super) Handler);

impl rmcp::Service<RoleServer> for Guarded {
    async fn handle_request(
        &self,
        request: rmcp::model::ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ServerResult, ErrorData> {
        if let rmcp::model::ClientRequest::GetSkillRequest(get) = &request
            && rmcp::model::skill_name_from_uri(&get.params.uri).is_none()
        {
            let set = self.0.current(&context.peer).await;
            let known = skill_uris(&self.0.tools(&set));
            return Err(ErrorData::invalid_params(
                format!(
                    "\"{}\" is not the URI of a skill's {MANIFEST}: skills/get takes \
                     {SCHEME}<skill>/{MANIFEST}. The skills are: {}.",
                    echo(&get.params.uri),
                    known.join(", ")
                ),
                None,
            ));
        }
        let version = context.protocol_version();
        rmcp::Service::handle_request(&self.0, request, context)
            .await
            .map_err(|error| explained(error, version.as_ref()))
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        context: rmcp::service::NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        rmcp::Service::handle_notification(&self.0, notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        rmcp::Service::get_info(&self.0)
    }

    fn supported_protocol_versions(
        &self,
    ) -> std::borrow::Cow<'static, [rmcp::model::ProtocolVersion]> {
        rmcp::Service::supported_protocol_versions(&self.0)
    }
}

/// rmcp's "method not found" carries the method's name alone: this says which revision lacks
/// it and what to use instead. Errors that say more already are kept.
fn explained(mut error: ErrorData, version: Option<&ProtocolVersion>) -> ErrorData {
    if error.code != ErrorCode::METHOD_NOT_FOUND || error.message.contains(' ') {
        return error;
    }
    let method = echo(&error.message);
    let instead = match method.as_str() {
        "ping" => " Any request (server/discover, say) tells whether the server answers.",
        "resources/subscribe" | "resources/unsubscribe" => {
            " Changes of a live set reach a client through subscriptions/listen."
        }
        _ => "",
    };
    error.message = if version.is_some_and(|v| !v.has_initialize()) {
        format!(
            "{method} is not a method of MCP 2026-07-28, which this request speaks: the \
             revision removed it.{instead} Speak 2025-11-25 (initialize) to use it."
        )
    } else {
        format!(
            "This server does not answer {method} at protocol {}. It answers the MCP methods \
             for tools, resources, prompts, completion and the skills extension.",
            version.map_or("2025-11-25 or earlier", ProtocolVersion::as_str)
        )
    }
    .into();
    error
}

/// The visible skill and the path a `skill://` URI names; `unknown` makes the error for a skill
/// the client may not see (which reads like one that does not exist).
fn file_at<'s, 'u>(
    tools: &'s Tools,
    uri: &'u str,
    unknown: impl FnOnce(String) -> ErrorData,
) -> Result<(&'s Skill, Cow<'u, str>), ErrorData> {
    let (name, path) = parse_uri(uri).map_err(|e| invalid_uri(tools, &e, uri))?;
    let skill = tools.lookup(&name).map_err(|e| unknown(e.to_string()))?;
    Ok((skill, path))
}

/// The URIs of the `SKILL.md` of every skill the client may see, for error messages.
fn skill_uris(tools: &Tools) -> Vec<String> {
    tools.visible().map(|s| uri(s.name(), MANIFEST)).collect()
}

/// The error for a URI that names no skill file: what was wrong, the URI form, what exists;
/// the URI asked for in `data.uri`, as a missing resource has it (SEP-2164).
fn invalid_uri(tools: &Tools, problem: &str, asked: &str) -> ErrorData {
    let known = skill_uris(tools);
    let known = if known.is_empty() {
        "There are no skills available.".to_owned()
    } else {
        format!("The skills are: {}.", known.join(", "))
    };
    ErrorData::invalid_params(
        format!(
            "{problem}. Skill files are {SCHEME}<skill>/<path>, like {SCHEME}<skill>/{MANIFEST}. {known}"
        ),
        Some(serde_json::json!({ "uri": echo(asked) })),
    )
}

/// Why a call was not decoded.
enum Refused {
    /// A tool that is not offered now: a protocol error (`-32602`) at every revision.
    Tool(ErrorData),
    /// Arguments that do not fit the tool's input schema, and what the valid ones are: a tool
    /// result with `isError` from 2025-11-25 on, `-32602` before.
    Arguments(String),
}

/// The call, decoded once from the object rmcp parsed, or why the tools cannot take it: a tool
/// that is not offered now (the tools of either [`ToolStyle`](crate::tools::ToolStyle) are
/// answered whichever is listed, and none while no skill is visible), or arguments that do not
/// fit its input schema. A known tool with well-formed arguments naming a skill, file or chunk
/// that does not exist is answered by the tool, as a result with `isError`.
fn check_call(
    tools: &Tools,
    unified: &str,
    name: &str,
    arguments: JsonObject,
) -> Result<Call, Refused> {
    // `is_empty` looks at the visible skills only: the definitions (schemas with every name)
    // are built on the error path alone, not on every call.
    let name_trimmed = name.trim();
    let load_tool = is_load_tool(unified, name);
    let offered = || -> Vec<String> { tools.definitions().into_iter().map(|d| d.name).collect() };
    // A run tool (the unified one, or a split style's tool per script) is known while a script
    // is runnable; only such a call builds the definitions to tell.
    let known = !tools.is_empty()
        && (load_tool
            || (name_trimmed == tools.settings().run_name && !tools.runnable().is_empty())
            || offered().iter().any(|o| o == name_trimmed));
    if !known {
        let offered = offered();
        let tools = if offered.is_empty() {
            "This server offers no tool now: no skill is available.".to_owned()
        } else {
            format!("The tools are: {}.", offered.join(", "))
        };
        return Err(Refused::Tool(ErrorData::invalid_params(
            format!(
                "Unknown tool {}. {tools}",
                crate::text::json_string(&echo(name))
            ),
            None,
        )));
    }
    tools
        .parse_object(name, arguments)
        .map_err(|e| Refused::Arguments(e.to_string()))
}

/// The error for a resource that is not there: `-32002` before 2026-07-28, `-32602` from it
/// (rmcp renumbers it per request), with the URI asked for in `data.uri` (SEP-2164), cut as
/// every echo is.
fn not_found(message: String, asked: &str) -> ErrorData {
    ErrorData::resource_not_found(message, Some(serde_json::json!({ "uri": echo(asked) })))
}

/// Whether `name` is one of the tools that load (the unified one, named `unified`, or a split
/// style's), as opposed to a run tool.
fn is_load_tool(unified: &str, name: &str) -> bool {
    [unified, READ_SKILL, READ_SKILL_RESOURCE, LOAD_SKILL_CHUNK].contains(&name.trim())
}

/// The error for a prompt this server does not offer (`-32602`, as MCP asks): the prompts it
/// offers, and the closest name.
fn unknown_prompt(tools: &Tools, name: &str) -> ErrorData {
    let skills: Vec<&str> = tools
        .user_invocable()
        .filter(|skill| prompt::offered(skill))
        .map(Skill::name)
        .collect();
    let names = std::iter::once(LISTING_PROMPT).chain(skills.iter().copied());
    let suggestion = crate::text::closest(name, names.clone())
        .map(|near| format!(" Did you mean \"{near}\"?"))
        .unwrap_or_default();
    ErrorData::invalid_params(
        format!(
            "Unknown prompt {}.{suggestion} The prompts are \"{LISTING_PROMPT}\" (the skills \
             listing) and one per skill you may invoke: {}.",
            crate::text::json_string(&echo(name)),
            if skills.is_empty() {
                "none now".to_owned()
            } else {
                skills.join(", ")
            }
        ),
        None,
    )
}

/// The answer to a subscription request to a set that cannot change.
fn not_live(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "{method} is not served: these skills cannot change while the server runs, so there \
             is nothing to be told about (the capabilities do not list resources.subscribe)."
        ),
        None,
    )
}
