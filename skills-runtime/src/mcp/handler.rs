//! The answers to every MCP request ([`Handler`], an rmcp [`ServerHandler`]): each decided
//! here and answered from the floors below; what a client is told of changes is `notify`'s,
//! what a request names `request`'s, the cache hints `cache`'s.

#![allow(
    deprecated,
    reason = "rmcp deprecates logging and resources/subscribe for protocol 2026-07-28; clients of 2025-11-25 send them"
)]

use std::collections::BTreeSet;
use std::sync::Arc;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
    CompleteResult, CompletionInfo, ContentBlock, CustomRequest, CustomResult, DiscoverResult,
    ErrorCode, GetPromptRequestParams, GetPromptResponse, GetPromptResult, GetSkillRequestParams,
    GetSkillResult, Implementation, InitializeRequestParams, InitializeResult, InputRequiredResult,
    InputResponses, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, LoggingLevel, PaginatedRequestParams, Prompt, PromptMessage,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Reference, Resource, ResourceContents,
    ResourceTemplate, Role, ServerConfig, SetLevelRequestParams, SkillResources,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{Peer, RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler};

use super::approval::{self, Approvals, Caller, ELICIT_TIMEOUT};
use super::cache::{Cache, Cacheable};
use super::connection::Ticket;
use super::info::{Initialize, Instructions, info};
use super::notify::{self, Listening, content_hash, not_live, notice};
use super::prompt;
use super::request::{
    Refused, argument_errors_are_results, check_call, file_at, invalid_uri, is_manifest, modern,
    not_found, skill_uris, unknown_prompt,
};
use super::session::{Conversation, Work};
use super::skill_md::{base64, entry, manifest, served};
use super::uri::{parse_uri, template, uri, uris};
use super::{DIRECTORY, LISTING_PROMPT, MARKDOWN, MAX_JSON_DEPTH, Options, TOO_DEEP};
use crate::host::{Host, Refusal, lock};
use crate::model::skill::{MANIFEST, Skill};
use crate::policy::{Access, Answer, Subject};
use crate::text::echo;
use crate::tools::{
    Call, Disclosure, Event, Session, Settings, Snapshot, Source, ToolOutput, Tools,
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
    /// settings: rendering the listing of 1,000 skills for each session made an HTTP
    /// `initialize` some 100 ms slower than stdio's.
    instructions: Arc<Instructions>,
    /// The key approvals are sealed with and the callers' "always" answers, shared by every
    /// session of the server.
    pub(super) approvals: Arc<Approvals>,
}

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
        // The same settings are shared, with the listing rendered from them; other settings
        // show other skills: their own instructions.
        let (host, instructions) = match settings {
            None => (self.host.clone(), Arc::clone(&self.instructions)),
            Some(own) => (Host::new(own.clone(), "server"), Arc::default()),
        };
        Handler {
            source: self.source.clone(),
            host: host.with_grants(self.approvals.grants(caller)),
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

    /// The server's info, with the listing in its instructions when `listing` is set (the
    /// answers to `initialize` and `server/discover`).
    fn server_info(&self, listing: bool) -> ServerConfig {
        let instructions = listing.then_some(&*self.instructions);
        info(&self.source, &self.host, &self.info, instructions)
    }

    /// The set to answer from; tells the client when what it may see of a live set changed
    /// since its last request.
    pub(super) async fn current(&self, peer: &Peer<RoleServer>) -> Snapshot {
        notice(&self.source, &self.host, &self.listening, peer).await
    }

    /// The cache hints of an answer to the request of `context`: none for a client of a
    /// revision before 2026-07-28, which has no such fields.
    fn hints(&self, context: &RequestContext<RoleServer>) -> Option<(u64, CacheScope)> {
        modern(context).then(|| self.cache.values(self.source.is_live()))
    }

    /// How a call is run: a load is quick unless it writes the skill to a work folder.
    fn work(&self, load: bool) -> Work {
        if load && self.host.settings.extractor().is_none() {
            Work::Quick
        } else {
            Work::Blocking
        }
    }

    pub(super) fn tools(&self, set: &Snapshot) -> Tools {
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
        self.server_info(false)
    }

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        Initialize {
            answer: self.server_info(true),
            versions: ServerHandler::supported_protocol_versions(self),
        }
        .negotiate_initialize(request)
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut result = DiscoverResult::from_server_info(
            ServerHandler::supported_protocol_versions(self).into_owned(),
            self.server_info(true),
        );
        (result.ttl_ms, result.cache_scope) = self.cache.values(self.source.is_live());
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
        // skills left out, each with its rule), which it would otherwise never see; only of
        // skills it may see.
        let tools = self.tools(&self.source.snapshot());
        for problem in notify::problems_for(&tools, self.source.problems()) {
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
        notify::watch(&self.source, &self.host, &self.listening, &context.peer);
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
        let tools = self.tools(&self.source.snapshot());
        Some(notify::accepted(&tools, requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        if !self.source.is_live() {
            return Ok(());
        }
        let baseline = || {
            let set = self.source.snapshot();
            let tools = self.tools(&set);
            (set, tools)
        };
        notify::listen(
            &self.host,
            &self.source,
            &self.listening.listens,
            baseline,
            context,
        )
        .await
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
