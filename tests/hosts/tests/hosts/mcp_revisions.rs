//! What the MCP server answers per protocol revision (issue 30 items 2, 4 and 5): methods
//! 2026-07-28 removed answer "method not found" to it; a tool's arguments that do not fit its
//! schema are a tool result from 2025-11-25 on; a missing resource says its URI in `data.uri`;
//! `DELETE` of a session answers 200; cache hints that fit the set and the tokens; each skill
//! the user may invoke as a prompt.
#![allow(
    deprecated,
    reason = "rmcp deprecates logging for protocol 2026-07-28; clients of 2025-11-25 send it"
)]

use crate::common::{call, open_at, text};
use crate::mcp_http::start;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ClientHandler;
use rmcp::model::{
    CacheScope, ClientConfig, GetMeta, GetPromptRequestParams, LoggingLevel,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, RequestMetaObject,
    ServerNotification, SetLevelRequestParams, SubscriptionFilter,
};
use rmcp::service::{
    NotificationContext, RoleClient, RunningService, ServiceError, Subscription, SubscriptionEnd,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use skills_embed::listing::ListingFormat;
use skills_embed::mcp::{McpServer, Options};
use skills_embed::policy::{Answer, Permissions};
use skills_embed::tools::{Settings, Source};
use skills_embed::{Fields, Skill, SkillSet};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

skills_embed::skills!("../../skills/examples/skills");

const MODERN: ProtocolVersion = ProtocolVersion::V_2026_07_28;
const SESSIONS: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// A client over an in-memory pipe to `server` speaking `version`: `server/discover` and
/// per-request metadata for 2026-07-28, `initialize` before.
async fn at(server: McpServer, version: ProtocolVersion) -> RunningService<RoleClient, Notes> {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(server.serve(server_end));
    open(client_end, version).await
}

/// A `Notes` client over `transport` speaking `version`.
async fn open<T, E, A>(transport: T, version: ProtocolVersion) -> RunningService<RoleClient, Notes>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let notes = Notes {
        version: version.clone(),
        ..Notes::default()
    };
    open_at(notes, transport, version).await
}

/// A client that records the prompt list changes it is told of.
#[derive(Clone, Default)]
struct Notes {
    version: ProtocolVersion,
    prompts_changed: Arc<Mutex<usize>>,
}

impl ClientHandler for Notes {
    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        *self.prompts_changed.lock().unwrap() += 1;
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::default().with_protocol_version(self.version.clone())
    }
}

/// A `ping` request, which 2026-07-28 removed.
fn ping() -> rmcp::model::ClientRequest {
    rmcp::model::ClientRequest::PingRequest(rmcp::model::PingRequest::default())
}

fn error(error: ServiceError) -> rmcp::ErrorData {
    match error {
        ServiceError::McpError(data) => data,
        other => panic!("expected an MCP error answer, got {other}"),
    }
}

fn skill(name: &str, extra: Value, body: &str) -> Skill {
    let fields = Fields {
        name: name.into(),
        description: format!("The {name} skill. Use when testing."),
        extra: extra.to_string(),
        ..Fields::default()
    };
    Skill::owned(fields, body.to_owned(), Vec::new())
}

fn set_of(skills: Vec<Skill>) -> Arc<SkillSet> {
    Arc::new(SkillSet::from_skills(skills, &ListingFormat::Markdown))
}

#[tokio::test(flavor = "current_thread")]
async fn logging_set_level_is_gone_at_2026_07_28_only() {
    let old = at(McpServer::new(&SKILLS, Settings::default()), SESSIONS).await;
    old.set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .unwrap();
    old.cancel().await.unwrap();

    let new = at(McpServer::new(&SKILLS, Settings::default()), MODERN).await;
    let refused = error(
        new.set_level(SetLevelRequestParams::new(LoggingLevel::Info))
            .await
            .unwrap_err(),
    );
    assert_eq!(refused.code.0, -32601, "{}", refused.message);
    assert!(
        refused.message.contains("io.modelcontextprotocol/logLevel"),
        "{}",
        refused.message
    );
    // What else the revision removed says so, and what to use instead.
    let refused = error(new.send_request(ping()).await.unwrap_err());
    assert_eq!(refused.code.0, -32601);
    assert!(
        refused.message.starts_with(
            "ping is not a method of MCP 2026-07-28, which this request speaks: the revision \
             removed it. Any request"
        ),
        "{}",
        refused.message
    );
    // The rest answers as before.
    assert_eq!(new.list_all_tools().await.unwrap().len(), 1);
    new.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn bad_arguments_are_tool_results_from_2025_11_25_on() {
    let bad = [
        json!({}),
        json!({"skill": 42}),
        json!({"skill": "pdf-forms", "offset": "x"}),
    ];
    for version in [SESSIONS, MODERN] {
        let client = at(
            McpServer::new(&SKILLS, Settings::default()),
            version.clone(),
        )
        .await;
        for arguments in &bad {
            let answer = client
                .call_tool(call("load_skill", arguments.clone()))
                .await
                .unwrap_or_else(|e| panic!("{version} {arguments}: {e}"));
            assert_eq!(answer.is_error, Some(true), "{version} {arguments}");
            // What was wrong, and what a valid call looks like.
            let said = text(&answer);
            assert!(
                said.contains("Send a JSON object like")
                    || said.contains("\"offset\" must be a whole number of 0 or more"),
                "{said}"
            );
        }
        let said = text(
            &client
                .call_tool(call("load_skill", json!({})))
                .await
                .unwrap(),
        );
        assert!(said.contains("Missing \"skill\""), "{said}");
        assert!(said.contains("pdf-forms"), "the skills it may name: {said}");
        // An unknown tool stays a protocol error.
        let unknown = error(
            client
                .call_tool(call("rm_rf", json!({})))
                .await
                .unwrap_err(),
        );
        assert_eq!(unknown.code.0, -32602);
        client.cancel().await.unwrap();
    }

    // Before 2025-11-25 they stay protocol errors.
    let old = at(
        McpServer::new(&SKILLS, Settings::default()),
        ProtocolVersion::V_2025_06_18,
    )
    .await;
    let refused = error(
        old.call_tool(call("load_skill", json!({"skill": 42})))
            .await
            .unwrap_err(),
    );
    assert_eq!(refused.code.0, -32602);
    old.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn a_missing_resource_names_its_uri() {
    for (version, code) in [(SESSIONS, -32002), (MODERN, -32602)] {
        let client = at(
            McpServer::new(&SKILLS, Settings::default()),
            version.clone(),
        )
        .await;
        for uri in ["skill://pdf-forms/nope.md", "skill://nope/SKILL.md"] {
            let refused = error(
                client
                    .read_resource(ReadResourceRequestParams::new(uri))
                    .await
                    .unwrap_err(),
            );
            assert_eq!(refused.code.0, code, "{version} {uri}: {}", refused.message);
            assert_eq!(refused.data, Some(json!({"uri": uri})), "{version} {uri}");
        }
        // A URI of another scheme names no resource here either (the conformance suite's
        // `sep-2164-data-uri` check): invalid, with the URI.
        let other = "test://nonexistent-resource";
        let refused = error(
            client
                .read_resource(ReadResourceRequestParams::new(other))
                .await
                .unwrap_err(),
        );
        assert_eq!(refused.code.0, -32602, "{version}: {}", refused.message);
        assert_eq!(refused.data, Some(json!({"uri": other})), "{version}");
        client.cancel().await.unwrap();
    }
}

/// One raw HTTP/1.1 request on a connection of its own; the status and the whole answer.
async fn request(
    addr: std::net::SocketAddr,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut head = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(body);
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_millis(500), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_session_answers_200() {
    let (addr, stop, running) = start(McpServer::new(&SKILLS, Settings::default())).await;
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    })
    .to_string();
    let (status, opened) = request(addr, "POST", &[], &initialize).await;
    assert_eq!(status, 200, "{opened}");
    let session = opened
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("a session id in {opened}"));
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    // What the Python SDK's `terminate_session` and the TypeScript SDK take for success.
    let (status, answer) = request(addr, "DELETE", &headers, "").await;
    assert_eq!(status, 200, "{answer}");
    // Gone: a second DELETE does not know it.
    let (status, answer) = request(addr, "DELETE", &headers, "").await;
    assert_eq!(status, 404, "{answer}");
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn cache_hints_fit_the_set() {
    // A fixed set: an hour, public (no token over stdio).
    let fixed = at(McpServer::new(&SKILLS, Settings::default()), MODERN).await;
    let tools = fixed.list_tools(None).await.unwrap();
    assert_eq!(
        (tools.ttl_ms, tools.cache_scope),
        (Some(3_600_000), Some(CacheScope::Public))
    );
    let skills = fixed.list_skills(None).await.unwrap();
    assert_eq!(skills.ttl_ms, Some(3_600_000));
    let prompts = fixed.list_prompts(None).await.unwrap();
    assert_eq!(prompts.ttl_ms, Some(3_600_000));
    let read = fixed
        .read_resource(ReadResourceRequestParams::new("skill://pdf-forms/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(
        (read.ttl_ms, read.cache_scope),
        (Some(3_600_000), Some(CacheScope::Public))
    );
    let discovered = fixed.discover(RequestMetaObject::new()).await.unwrap();
    assert_eq!(
        (discovered.ttl_ms, discovered.cache_scope),
        (3_600_000, CacheScope::Public)
    );
    fixed.cancel().await.unwrap();

    // A live set: its reload interval, one second by default.
    let set = set_of(vec![skill("a", json!({}), "A.\n")]);
    let live = at(
        McpServer::new(Source::live(move || Arc::clone(&set)), Settings::default()),
        MODERN,
    )
    .await;
    let tools = live.list_tools(None).await.unwrap();
    assert_eq!(tools.ttl_ms, Some(1_000));
    live.cancel().await.unwrap();

    // Configured.
    let configured = at(
        McpServer::new(&SKILLS, Settings::default()).with_options(Options {
            cache_ttl: Some(Duration::from_secs(60)),
            ..Options::default()
        }),
        MODERN,
    )
    .await;
    let resources = configured.list_resources(None).await.unwrap();
    assert_eq!(resources.ttl_ms, Some(60_000));
    configured.cancel().await.unwrap();

    // A skill under `ask`: each read asks, so no cache keeps it.
    let asking = at(
        McpServer::new(
            &SKILLS,
            Settings {
                permissions: Permissions::new().ask("release-notes"),
                ..Settings::default()
            }
            .with_approval(|_| async { Answer::Always }),
        ),
        MODERN,
    )
    .await;
    // Approved for good, it is still this client's: the second read too.
    for _ in 0..2 {
        let read = asking
            .read_resource(ReadResourceRequestParams::new(
                "skill://release-notes/SKILL.md",
            ))
            .await
            .unwrap();
        assert_eq!(
            (read.ttl_ms, read.cache_scope),
            (Some(0), Some(CacheScope::Private))
        );
    }
    let other = asking
        .read_resource(ReadResourceRequestParams::new("skill://pdf-forms/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(other.cache_scope, Some(CacheScope::Public));
    asking.cancel().await.unwrap();

    // Clients of 2025-11-25 get no hints.
    let old = at(McpServer::new(&SKILLS, Settings::default()), SESSIONS).await;
    let tools = old.list_tools(None).await.unwrap();
    assert_eq!((tools.ttl_ms, tools.cache_scope), (None, None));
    old.cancel().await.unwrap();
}

/// The listing reaches a client in the server's instructions: in the answer to `initialize`
/// (2025-11-25) and to `server/discover` (2026-07-28), over a pipe and over HTTP, where each
/// 2026-07-28 request has a server of its own. rmcp asks for the server's info on other
/// requests too, which leave the listing out (a copy of it per request was a third of the
/// throughput at 1,000 skills).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listing_is_in_the_instructions_at_both_revisions() {
    let listed = |client: &RunningService<RoleClient, Notes>| {
        let info = client.peer_info().expect("the server's info");
        let instructions = info.instructions.clone().unwrap_or_default();
        SKILLS
            .skills()
            .iter()
            .all(|skill| instructions.contains(&format!("- {}: ", skill.name())))
    };
    for version in [SESSIONS, MODERN] {
        let client = at(
            McpServer::new(&SKILLS, Settings::default()),
            version.clone(),
        )
        .await;
        assert!(listed(&client), "over a pipe at {version}");
        // A request after the handshake: answered, and the info it saw is unchanged.
        assert!(!client.list_tools(None).await.unwrap().tools.is_empty());
        assert!(listed(&client), "over a pipe at {version}, after a request");
        client.cancel().await.unwrap();
    }
    let (addr, stop, running) =
        start(McpServer::new(&SKILLS, Settings::default()).with_token("t", None)).await;
    let client = http_at(addr, "t").await;
    assert!(listed(&client), "over HTTP at 2026-07-28");
    let read = client
        .read_resource(ReadResourceRequestParams::new("skill://pdf-forms/SKILL.md"))
        .await
        .unwrap();
    assert!(!read.contents.is_empty());
    client.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// A 2026-07-28 client over Streamable HTTP with `token`.
async fn http_at(addr: std::net::SocketAddr, token: &str) -> RunningService<RoleClient, Notes> {
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"))
        .auth_header(token);
    open(StreamableHttpClientTransport::from_config(config), MODERN).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_hints_are_public_only_when_every_token_gets_the_same_answer() {
    // Tokens that all serve the server's own settings: the same answer for each.
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, Settings::default())
            .with_token("a", None)
            .with_token("b", None),
    )
    .await;
    let client = http_at(addr, "a").await;
    let tools = client.list_tools(None).await.unwrap();
    assert_eq!(
        (tools.ttl_ms, tools.cache_scope),
        (Some(3_600_000), Some(CacheScope::Public))
    );
    client.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();

    // A token with rules of its own: what one token sees is not what another does.
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, Settings::default())
            .with_token("all", None)
            .with_token(
                "pdf",
                Some(Settings {
                    permissions: Permissions::new().deny("*").allow("pdf-*"),
                    ..Settings::default()
                }),
            ),
    )
    .await;
    for token in ["all", "pdf"] {
        let client = http_at(addr, token).await;
        let skills = client.list_skills(None).await.unwrap();
        assert_eq!(
            (skills.ttl_ms, skills.cache_scope),
            (Some(3_600_000), Some(CacheScope::Private)),
            "{token}"
        );
        client.cancel().await.unwrap();
    }
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// A set with every kind of skill a prompt list must tell apart.
fn prompt_set() -> Arc<SkillSet> {
    set_of(vec![
        skill(
            "convert",
            json!({"arguments": ["file", "format"], "argument-hint": "[file] [format]"}),
            "Convert $file to $format (then check $1).\n",
        ),
        skill("review", json!({}), "Review $ARGUMENTS carefully.\n"),
        skill(
            "deploy",
            json!({"disable-model-invocation": true}),
            "Deploy $0.\n",
        ),
        skill(
            "background",
            json!({"user-invocable": false}),
            "Know this.\n",
        ),
        skill("secret", json!({}), "Hidden.\n"),
        skill("skills", json!({}), "A skill named like the listing.\n"),
        skill("huge", json!({}), &"$0 $0 $0 $0 ".repeat(100_000)),
    ])
}

fn prompt_settings() -> Settings {
    Settings {
        permissions: Permissions::new().deny("secret"),
        ..Settings::default()
    }
}

fn arguments(value: Value) -> serde_json::Map<String, Value> {
    let Value::Object(map) = value else {
        panic!("an object")
    };
    map
}

#[tokio::test(flavor = "current_thread")]
async fn each_skill_the_user_may_invoke_is_a_prompt() {
    for version in [SESSIONS, MODERN] {
        let set = prompt_set();
        let client = at(McpServer::new(set, prompt_settings()), version.clone()).await;
        let prompts = client.list_all_prompts().await.unwrap();
        let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
        // The listing first; then the skills the user may invoke, a user-only one included;
        // not the one the user may not invoke, not the denied one, and the listing keeps its
        // name over the skill named `skills`.
        assert_eq!(
            names,
            ["skills", "convert", "deploy", "huge", "review"],
            "{version}"
        );
        let convert = prompts.iter().find(|p| p.name == "convert").unwrap();
        let args: Vec<&str> = convert
            .arguments
            .iter()
            .flatten()
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(args, ["file", "format"]);
        let review = prompts.iter().find(|p| p.name == "review").unwrap();
        assert_eq!(review.arguments.as_ref().unwrap()[0].name, "arguments");
        assert_eq!(
            review.description.as_deref(),
            Some("The review skill. Use when testing.")
        );

        // Rendered as `/convert "my file.md" pdf` would be.
        let got = client
            .get_prompt(
                GetPromptRequestParams::new("convert")
                    .with_arguments(arguments(json!({"file": "my file.md", "format": "pdf"}))),
            )
            .await
            .unwrap();
        let said = got.messages[0].content.as_text().unwrap().text.clone();
        assert_eq!(
            said, "Convert my file.md to pdf (then check pdf).\n",
            "{version}"
        );
        let got = client
            .get_prompt(
                GetPromptRequestParams::new("review")
                    .with_arguments(arguments(json!({"arguments": "src/lib.rs"}))),
            )
            .await
            .unwrap();
        let said = got.messages[0].content.as_text().unwrap().text.clone();
        assert_eq!(said, "Review src/lib.rs carefully.\n");
        // A user-only skill: a prompt, not a tool.
        let got = client
            .get_prompt(GetPromptRequestParams::new("deploy"))
            .await
            .unwrap();
        assert_eq!(
            got.messages[0].content.as_text().unwrap().text,
            "Deploy .\n"
        );
        let tools = client.list_all_tools().await.unwrap();
        let schema = serde_json::to_string(&tools[0].input_schema).unwrap();
        assert!(!schema.contains("deploy"), "{schema}");

        // Errors say what exists.
        for (name, hint) in [
            ("reveiw", "Did you mean \"review\"?"),
            ("secret", "convert, deploy, huge, review"),
            ("background", "The prompts are \"skills\""),
        ] {
            let refused = error(
                client
                    .get_prompt(GetPromptRequestParams::new(name))
                    .await
                    .unwrap_err(),
            );
            assert_eq!(refused.code.0, -32602, "{name}");
            assert!(
                refused.message.contains(hint),
                "{name}: {}",
                refused.message
            );
            assert!(!refused.message.contains("secret,"), "{}", refused.message);
        }
        let refused = error(
            client
                .get_prompt(
                    GetPromptRequestParams::new("convert")
                        .with_arguments(arguments(json!({"files": "a"}))),
                )
                .await
                .unwrap_err(),
        );
        assert!(
            refused.message.contains("its arguments are: file, format"),
            "{}",
            refused.message
        );
        // The invocation's cap holds.
        let refused = error(
            client
                .get_prompt(
                    GetPromptRequestParams::new("huge")
                        .with_arguments(arguments(json!({"arguments": "x".repeat(100)}))),
                )
                .await
                .unwrap_err(),
        );
        assert_eq!(refused.code.0, -32602);
        assert!(
            refused.message.contains("the limit is 2000000 bytes"),
            "{}",
            refused.message
        );
        // The listing prompt as before.
        let listing = client
            .get_prompt(GetPromptRequestParams::new("skills"))
            .await
            .unwrap();
        let said = listing.messages[0].content.as_text().unwrap().text.clone();
        assert!(said.contains("convert"), "{said}");
        client.cancel().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_set_tells_when_its_prompts_change() {
    let current = Arc::new(Mutex::new(set_of(vec![skill("a", json!({}), "A.\n")])));
    let shared = Arc::clone(&current);
    let server = McpServer::new(
        Source::live(move || Arc::clone(&shared.lock().unwrap())),
        Settings::default(),
    );
    let client = at(server, SESSIONS).await;
    let info = client.peer_info().unwrap().capabilities.clone();
    assert_eq!(info.prompts.unwrap().list_changed, Some(true));
    let changed = Arc::clone(&client.service().prompts_changed);
    client
        .list_prompts(Some(PaginatedRequestParams::default()))
        .await
        .unwrap();
    // A skill only the user may invoke comes: no tool changes, a prompt does.
    *current.lock().unwrap() = set_of(vec![
        skill("a", json!({}), "A.\n"),
        skill("b", json!({"disable-model-invocation": true}), "B.\n"),
    ]);
    let prompts = client.list_all_prompts().await.unwrap();
    assert_eq!(prompts.len(), 3);
    for _ in 0..200 {
        if *changed.lock().unwrap() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(*changed.lock().unwrap(), 1);
    client.cancel().await.unwrap();
}

/// The next notification of a `subscriptions/listen` stream, checked to carry the stream's id
/// (`_meta`'s subscription id): `tools`, `prompts`, `resources` for a list change, the URI of
/// an updated file. Waits at most a minute, a bound on a hang rather than on speed.
async fn heard(stream: &mut Subscription) -> String {
    let note = tokio::time::timeout(Duration::from_secs(60), stream.next())
        .await
        .expect("a notification on the listen stream")
        .expect("a well-formed stream")
        .expect("the stream is open");
    assert_eq!(
        note.get_meta().subscription_id().as_ref(),
        Some(stream.id()),
        "{note:?}"
    );
    match note {
        ServerNotification::ToolListChangedNotification(_) => "tools".to_owned(),
        ServerNotification::PromptListChangedNotification(_) => "prompts".to_owned(),
        ServerNotification::ResourceListChangedNotification(_) => "resources".to_owned(),
        ServerNotification::ResourceUpdatedNotification(updated) => updated.params.uri,
        other => panic!("unexpected notification {other:?}"),
    }
}

/// A live set of `a`, `b` and `secret` with the bodies given, and settings that deny `secret`.
fn listened(bodies: [&str; 3]) -> Arc<SkillSet> {
    set_of(
        ["a", "b", "secret"]
            .into_iter()
            .zip(bodies)
            .map(|(name, body)| skill(name, json!({}), body))
            .collect(),
    )
}

fn deny_secret() -> Settings {
    Settings {
        permissions: Permissions::new().deny("secret"),
        ..Settings::default()
    }
}

/// What a listening client hears on a live set: the acknowledgement first, then the changes its
/// filter asked for, each tagged with the stream's id; never a denied skill's file.
async fn listen_and_hear(
    client: &RunningService<RoleClient, Notes>,
    current: &Mutex<Arc<SkillSet>>,
) {
    let asked = SubscriptionFilter::builder()
        .tools_list_changed()
        .resource_subscriptions(["skill://a/SKILL.md", "skill://secret/SKILL.md"])
        .build();
    let mut all = client.peer().listen(asked).await.unwrap();
    // Acknowledged with what this client may see: the denied skill's URI is left out.
    let ack = all.acknowledged();
    assert_eq!(ack.tools_list_changed, Some(true));
    assert_eq!(ack.prompts_list_changed, None);
    assert_eq!(
        ack.resource_subscriptions,
        Some(vec!["skill://a/SKILL.md".to_owned()])
    );
    // A stream for b's file alone.
    let only_b = SubscriptionFilter::builder()
        .resource_subscription("skill://b/SKILL.md")
        .build();
    let mut only_b = client.peer().listen(only_b).await.unwrap();

    // a and the denied skill change.
    *current.lock().unwrap() = listened(["A2.\n", "B.\n", "S2.\n"]);
    assert_eq!(heard(&mut all).await, "tools");
    assert_eq!(heard(&mut all).await, "skill://a/SKILL.md");
    // Then the denied skill alone, then b: what comes next is b's change, so nothing was sent
    // for the denied skill (notifications arrive in order).
    *current.lock().unwrap() = listened(["A2.\n", "B.\n", "S3.\n"]);
    *current.lock().unwrap() = listened(["A2.\n", "B2.\n", "S4.\n"]);
    assert_eq!(heard(&mut all).await, "tools");
    // The stream for b never heard of a's change, which its filter left out: b's is its first.
    assert_eq!(heard(&mut only_b).await, "skill://b/SKILL.md");

    all.cancel().await.unwrap();
    only_b.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listening_client_hears_what_it_asked_for_and_may_see() {
    let current = Arc::new(Mutex::new(listened(["A.\n", "B.\n", "S.\n"])));
    let shared = Arc::clone(&current);
    let server = McpServer::new(
        Source::live(move || Arc::clone(&shared.lock().unwrap())),
        deny_secret(),
    );
    let client = at(server, MODERN).await;
    listen_and_hear(&client, &current).await;
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_streams_a_listen_with_and_without_sessions() {
    for stateless in [true, false] {
        listen_over_http(stateless).await;
    }
}

async fn listen_over_http(stateless: bool) {
    let current = Arc::new(Mutex::new(listened(["A.\n", "B.\n", "S.\n"])));
    let shared = Arc::clone(&current);
    let (addr, stop, running) = start(
        McpServer::new(
            Source::live(move || Arc::clone(&shared.lock().unwrap())),
            deny_secret(),
        )
        .with_options(Options {
            stateless,
            ..Options::default()
        }),
    )
    .await;
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"));
    let client = open(StreamableHttpClientTransport::from_config(config), MODERN).await;
    listen_and_hear(&client, &current).await;
    client.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn a_fixed_set_acknowledges_a_listen_and_ends_it() {
    let client = at(McpServer::new(&SKILLS, Settings::default()), MODERN).await;
    let asked = SubscriptionFilter::builder().tools_list_changed().build();
    let mut stream = client.peer().listen(asked).await.unwrap();
    // Nothing it could hear: acknowledged with nothing, then the final result.
    assert_eq!(stream.acknowledged(), &SubscriptionFilter::new());
    assert!(stream.next().await.unwrap().is_none());
    assert!(
        matches!(stream.end(), Some(SubscriptionEnd::Graceful(_))),
        "{:?}",
        stream.end()
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_streams_are_counted_with_the_event_streams() {
    let current = Arc::new(Mutex::new(listened(["A.\n", "B.\n", "S.\n"])));
    let shared = Arc::clone(&current);
    // Six connections: event streams (listens among them) hold at most three.
    let (addr, stop, running) = start(
        McpServer::new(
            Source::live(move || Arc::clone(&shared.lock().unwrap())),
            Settings::default(),
        )
        .with_options(Options {
            stateless: true,
            max_connections: Some(6),
            ..Options::default()
        }),
    )
    .await;
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"));
    let client = open(StreamableHttpClientTransport::from_config(config), MODERN).await;
    let asked = || SubscriptionFilter::builder().tools_list_changed().build();
    let mut open_streams = Vec::new();
    for _ in 0..3 {
        open_streams.push(client.peer().listen(asked()).await.unwrap());
    }
    let refused = client.peer().listen(asked()).await.unwrap_err().to_string();
    assert!(
        refused.contains("503") || refused.contains("Too many event streams"),
        "{refused}"
    );
    // Requests still find a connection.
    assert!(!client.list_all_tools().await.unwrap().is_empty());
    // One closed, the next listen is taken.
    open_streams.pop().unwrap().cancel().await.unwrap();
    let mut again = None;
    for _ in 0..100 {
        if let Ok(stream) = client.peer().listen(asked()).await {
            again = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "a listen after one closed");
    client.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

fn write_skill(root: &std::path::Path, name: &str, body: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "---\nname: {name}\ndescription: The {name} skill. Use when testing.\n---\n{body}\n"
    );
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_serve_tells_a_listener_of_an_edit_on_disk() {
    let root = tempfile::tempdir().unwrap();
    let skills = root.path().join("skills");
    write_skill(&skills, "a", "A.");
    write_skill(&skills, "secret", "S.");
    let rules = root.path().join("permissions");
    std::fs::write(&rules, "deny secret\n").unwrap();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .arg("serve")
        .arg(&skills)
        .arg("--permissions")
        .arg(&rules)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let client = open(transport, MODERN).await;
    let asked = SubscriptionFilter::builder()
        .tools_list_changed()
        .resource_subscriptions(["skill://a/SKILL.md", "skill://secret/SKILL.md"])
        .build();
    let mut stream = client.peer().listen(asked).await.unwrap();
    assert_eq!(
        stream.acknowledged().resource_subscriptions,
        Some(vec!["skill://a/SKILL.md".to_owned()])
    );
    // Both files edited; the reload (every second) tells of a's, never of the denied one's: the
    // next edit's notifications follow a's at once.
    write_skill(&skills, "secret", "S2.");
    write_skill(&skills, "a", "A2.");
    assert_eq!(heard(&mut stream).await, "tools");
    assert_eq!(heard(&mut stream).await, "skill://a/SKILL.md");
    write_skill(&skills, "a", "A3.");
    assert_eq!(heard(&mut stream).await, "tools");
    assert_eq!(heard(&mut stream).await, "skill://a/SKILL.md");
    stream.cancel().await.unwrap();
    client.cancel().await.unwrap();
}
