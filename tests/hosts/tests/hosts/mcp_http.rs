//! The MCP server over Streamable HTTP (issue 16 items 1, 2 and 6), driven by rmcp's streamable
//! HTTP client: initialize, tools, resources, the skills extension, a subscription, in the
//! stateful and the stateless mode; and plain HTTP requests that the server refuses: a foreign
//! `Origin` (403), a foreign `Host` (403), a missing or wrong token (401), another path (404).
#![allow(
    deprecated,
    reason = "rmcp deprecates subscriptions for protocol 2026-07-28"
)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, GetSkillRequestParams, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;
use skills_embed::mcp::McpServer;
use skills_embed::mcp::Options;
use skills_embed::policy::{Answer, Permissions};
use skills_embed::{Fields, Skill, SkillSet, listing::ListingFormat};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::oneshot;

skills_embed::skills!("../../skills/examples/skills");

const TOKEN: &str = "team-a-token";

/// Starts `server` on a free loopback port; the sender stops it (gracefully).
pub(crate) async fn start(
    server: McpServer,
) -> (
    SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let running = tokio::spawn(server.serve_http(listener, async {
        let _ = stopped.await;
    }));
    (addr, stop, running)
}

/// One raw HTTP/1.1 `initialize` request; returns the status code and the whole answer.
async fn raw(addr: SocketAddr, path: &str, headers: &[(&str, String)]) -> (u16, String) {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    });
    post(addr, path, headers, &body).await
}

/// One raw HTTP/1.1 POST of `body` on a connection of its own; returns the status code and
/// the whole answer.
async fn post(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, String)],
    body: &serde_json::Value,
) -> (u16, String) {
    let body = body.to_string();
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(name, _)| *name == "Host") {
        request.push_str(&format!("Host: {addr}\r\n"));
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    // The stateful answer is an event stream that stays open: read what comes first.
    let _ = tokio::time::timeout(
        std::time::Duration::from_millis(500),
        stream.read_to_end(&mut answer),
    )
    .await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

/// rmcp's streamable HTTP client, initialized against `addr`, with `token` if given.
pub(crate) async fn connect(
    addr: SocketAddr,
    token: Option<&str>,
) -> Result<RunningService<RoleClient, ()>, rmcp::service::ClientInitializeError> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"));
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_rmcp_client_over_streamable_http() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_token(TOKEN, None),
    )
    .await;

    let client = connect(addr, Some(TOKEN)).await.expect("initialize");
    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.as_ref().unwrap().name, "skills");
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or_default()
            .contains("pdf-forms")
    );

    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "load_skill");
    let Some(serde_json::Value::Object(args)) = Some(json!({"skill": "pdf-forms"})) else {
        unreachable!()
    };
    let loaded = client
        .call_tool(CallToolRequestParams::new("load_skill").with_arguments(args))
        .await
        .unwrap();
    assert_eq!(loaded.is_error, Some(false));
    let text: String = loaded
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    assert!(text.contains("# Filling PDF forms"), "{text}");

    // An unknown tool is a protocol error over HTTP too.
    let unknown = client
        .call_tool(CallToolRequestParams::new("rm_rf"))
        .await
        .unwrap_err();
    let ServiceError::McpError(unknown) = unknown else {
        panic!("{unknown:?}")
    };
    assert_eq!(unknown.code.0, -32602);

    let resources = client.list_all_resources().await.unwrap();
    assert_eq!(resources.len(), 5);
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://pdf-forms/references/forms.md",
        ))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("a text file")
    };
    assert!(!text.is_empty());

    // The skills extension.
    let skills = client.list_all_skills().await.unwrap();
    assert_eq!(skills.len(), 5);
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://pdf-forms/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(got.skill.frontmatter.name, "pdf-forms");
    client.cancel().await.unwrap();

    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_server_answers_every_request_on_its_own() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            stateless: true,
            ..Options::default()
        }),
    )
    .await;
    let client = connect(addr, None).await.expect("initialize");
    assert_eq!(client.list_all_tools().await.unwrap().len(), 1);
    let read = client
        .read_resource(ReadResourceRequestParams::new("skill://pdf-forms/SKILL.md"))
        .await
        .unwrap();
    assert_eq!(read.contents.len(), 1);
    client.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// A request without a session (2026-07-28) whose answer is one message gets it as JSON, on a
/// server that keeps sessions for older clients too: one write rather than an event stream. A
/// session's answers (2025-11-25) stay event streams.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_request_is_answered_in_json_beside_sessions() {
    let (addr, stop, running) = start(McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings::default(),
    ))
    .await;
    let uri = "skill://pdf-forms/SKILL.md";
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28".to_owned()),
        ("Mcp-Method", "resources/read".to_owned()),
        ("Mcp-Name", uri.to_owned()),
    ];
    let body = json!({
        "jsonrpc": "2.0", "id": 7, "method": "resources/read",
        "params": {"uri": uri, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}
        }}
    });
    let (status, answer) = post(addr, "/mcp", &headers, &body).await;
    assert_eq!(status, 200, "{answer}");
    let (head, json) = answer.split_once("\r\n\r\n").unwrap();
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let json: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(json["id"], 7);
    assert_eq!(json["result"]["contents"][0]["uri"], uri);
    // The handshake of 2025-11-25 opens a session; its answer is an event stream.
    let (status, answer) = raw(addr, "/mcp", &[]).await;
    assert_eq!(status, 200, "{answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{answer}"
    );
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_hosts_and_missing_tokens_are_refused() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_token(TOKEN, None),
    )
    .await;
    let bearer = ("Authorization", format!("Bearer {TOKEN}"));

    // A browser page elsewhere (DNS rebinding, a malicious site): 403.
    let (status, answer) = raw(
        addr,
        "/mcp",
        &[bearer.clone(), ("Origin", "http://evil.example".into())],
    )
    .await;
    assert_eq!(status, 403, "{answer}");
    // A rebound name in Host: 403.
    let (status, answer) = raw(
        addr,
        "/mcp",
        &[
            bearer.clone(),
            ("Host", format!("evil.example:{}", addr.port())),
        ],
    )
    .await;
    assert_eq!(status, 403, "{answer}");
    // No token, a wrong token: 401, saying how to authenticate.
    let (status, answer) = raw(addr, "/mcp", &[]).await;
    assert_eq!(status, 401, "{answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("www-authenticate: bearer"),
        "{answer}"
    );
    let (status, _) = raw(addr, "/mcp", &[("Authorization", "Bearer nope".into())]).await;
    assert_eq!(status, 401);
    // rmcp's client without the token is refused too.
    assert!(connect(addr, None).await.is_err());
    // Another path: 404.
    let (status, _) = raw(addr, "/", std::slice::from_ref(&bearer)).await;
    assert_eq!(status, 404);
    // The server's own origin, with the token: served.
    let (status, answer) = raw(
        addr,
        "/mcp",
        &[
            bearer,
            ("Origin", format!("http://127.0.0.1:{}", addr.port())),
        ],
    )
    .await;
    assert_eq!(status, 200, "{answer}");

    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_refused() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            max_body: 64,
            ..Options::default()
        }),
    )
    .await;
    let (status, answer) = raw(addr, "/mcp", &[]).await;
    assert_eq!(status, 413, "{answer}");
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

fn owned(name: &str, body: &str) -> Skill {
    let fields = Fields {
        name: name.into(),
        description: format!("The {name} skill. Use when testing."),
        ..Fields::default()
    };
    Skill::owned(fields, body.to_owned(), Vec::new())
}

/// A client that records `notifications/resources/updated`.
#[derive(Clone, Default)]
struct Updates(Arc<Mutex<Vec<String>>>);

impl rmcp::ClientHandler for Updates {
    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params.uri);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscription_is_told_over_the_session_stream() {
    let current = Arc::new(Mutex::new(Arc::new(SkillSet::from_skills(
        vec![owned("a", "First.\n")],
        &ListingFormat::Markdown,
    ))));
    let shared = Arc::clone(&current);
    let (addr, stop, running) = start(McpServer::new(
        skills_embed::tools::Source::live(move || Arc::clone(&shared.lock().unwrap())),
        skills_embed::tools::Settings::default(),
    ))
    .await;
    let updates = Updates::default();
    let seen = Arc::clone(&updates.0);
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"));
    let client = updates
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialize");
    client
        .subscribe(rmcp::model::SubscribeRequestParams::new(
            "skill://a/SKILL.md",
        ))
        .await
        .unwrap();
    *current.lock().unwrap() = Arc::new(SkillSet::from_skills(
        vec![owned("a", "Second.\n")],
        &ListingFormat::Markdown,
    ));
    for _ in 0..300 {
        if !seen.lock().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(*seen.lock().unwrap(), ["skill://a/SKILL.md"]);
    client.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_the_requests_in_flight() {
    // The approval hook takes a while: the call is in flight when the server is told to stop.
    let (addr, stop, running) = start(McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask("pdf-forms"),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval(|_skill| async {
            tokio::time::sleep(Duration::from_millis(400)).await;
            Answer::Once
        }),
    ))
    .await;
    let client = connect(addr, None).await.expect("initialize");
    let Some(serde_json::Value::Object(args)) = Some(json!({"skill": "pdf-forms"})) else {
        unreachable!()
    };
    let call = tokio::spawn(async move {
        client
            .call_tool(CallToolRequestParams::new("load_skill").with_arguments(args))
            .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let _ = stop.send(());
    let answer = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("answered within the grace period")
        .unwrap()
        .expect("answered before the server stopped");
    assert_eq!(answer.is_error, Some(false));
    running.await.unwrap().unwrap();
    // Stopped: nothing listens any more.
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

/// `skills serve --http` with `--token-file`: an rmcp client with a token is served (a team
/// token with the rules of its own permissions file), one without is refused, and SIGTERM
/// stops the server cleanly.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_serve_http_with_a_token_file() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("team.token");
    // The team token comes with its own rules: it sees the pdf skills only.
    std::fs::write(
        &token_file,
        format!("# who may connect\n{TOKEN}\npdf-team pdf.rules\n"),
    )
    .unwrap();
    std::fs::write(dir.path().join("pdf.rules"), "default deny\nallow pdf-*\n").unwrap();
    // A free port: bound, then let go for the server.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .arg("serve")
        .arg("../../skills/examples/skills")
        .arg("--http")
        .arg(addr.to_string())
        .arg("--token-file")
        .arg(&token_file)
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut client = None;
    for _ in 0..100 {
        if let Ok(connected) = connect(addr, Some(TOKEN)).await {
            client = Some(connected);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let client = client.expect("skills serve --http answers");
    assert_eq!(client.list_all_tools().await.unwrap().len(), 1);
    assert_eq!(client.list_all_resources().await.unwrap().len(), 5);
    assert!(connect(addr, None).await.is_err());
    let team = connect(addr, Some("pdf-team")).await.expect("initialize");
    assert_eq!(team.list_all_resources().await.unwrap().len(), 1);
    team.cancel().await.unwrap();
    client.cancel().await.unwrap();

    let pid = child.id().unwrap().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = tokio::time::timeout(Duration::from_secs(15), child.wait_with_output())
        .await
        .expect("stops on SIGTERM")
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("skills serve: 5 skills over http://{addr}/mcp")),
        "{stderr}"
    );
}

/// `skills serve --http` (`run_http`): a thread per core, each with a listener of its
/// own on the address. A session opened on one connection is answered on any other, whichever
/// thread takes it; and a second server on the same address is refused, not handed a share of
/// the connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_serve_http_shares_its_sessions_across_threads_and_holds_its_address() {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let serve = || {
        tokio::process::Command::new(env!("CARGO_BIN_EXE_skills-cli"))
            .arg("serve")
            .arg("../../skills/examples/skills")
            .arg("--http")
            .arg(addr.to_string())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap()
    };
    let _first = serve();
    let mut opened = None;
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            let (status, answer) = raw(addr, "/mcp", &[]).await;
            assert_eq!(status, 200, "{answer}");
            opened = Some(answer);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let opened = opened.expect("skills serve --http answers");
    let session = opened
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("a session id in {opened}"));
    let headers = [
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-06-18".to_owned()),
    ];
    let (status, answer) = post(
        addr,
        "/mcp",
        &headers,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(status, 202, "{answer}");
    // Each request on a new connection: the kernel spreads them over the threads.
    for id in 2..18 {
        let (status, answer) = post(
            addr,
            "/mcp",
            &headers,
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}),
        )
        .await;
        assert_eq!(status, 200, "request {id}: {answer}");
        assert!(answer.contains("load_skill"), "request {id}: {answer}");
    }

    let second = serve();
    let out = tokio::time::timeout(Duration::from_secs(15), second.wait_with_output())
        .await
        .expect("a second server on a held address stops at once")
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("in use"), "{stderr}");
}

/// A client that opens sessions in a loop meets the bound, and the sessions open go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sessions_a_server_holds_are_bounded() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            max_sessions: 2,
            ..Options::default()
        }),
    )
    .await;
    let first = connect(addr, None).await.expect("initialize");
    let second = connect(addr, None).await.expect("initialize");
    assert!(connect(addr, None).await.is_err());
    let (status, answer) = raw(addr, "/mcp", &[]).await;
    assert_eq!(status, 503, "{answer}");
    assert!(answer.contains("Too many sessions"), "{answer}");
    assert!(answer.to_lowercase().contains("retry-after: 5"), "{answer}");
    assert_eq!(first.list_all_tools().await.unwrap().len(), 1);
    assert_eq!(second.list_all_resources().await.unwrap().len(), 5);
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();

    // Without sessions there is nothing to bound.
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            stateless: true,
            max_sessions: 0,
            ..Options::default()
        }),
    )
    .await;
    let (status, answer) = raw(addr, "/mcp", &[]).await;
    assert_eq!(status, 200, "{answer}");
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_token_sees_its_own_skills() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default())
            .with_token(TOKEN, None)
            .with_token(
                "pdf-team",
                Some(skills_embed::tools::Settings {
                    permissions: Permissions::new().deny("*").allow("pdf-*"),
                    ..skills_embed::tools::Settings::default()
                }),
            ),
    )
    .await;
    let all = connect(addr, Some(TOKEN)).await.expect("initialize");
    assert_eq!(all.list_all_skills().await.unwrap().len(), 5);
    let team = connect(addr, Some("pdf-team")).await.expect("initialize");
    let names: Vec<String> = team
        .list_all_skills()
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.frontmatter.name)
        .collect();
    assert_eq!(names, ["pdf-forms"]);
    // The listing in each token's instructions is its own, and stays its own for every
    // session of the token (their servers share the token's settings and rendered listing).
    let listing = |client: &rmcp::service::RunningService<rmcp::RoleClient, ()>| {
        client
            .peer_info()
            .unwrap()
            .instructions
            .clone()
            .unwrap_or_default()
    };
    assert!(
        listing(&all).contains("- code-review: "),
        "{}",
        listing(&all)
    );
    for _ in 0..2 {
        let session = connect(addr, Some("pdf-team")).await.expect("initialize");
        let text = listing(&session);
        assert!(
            text.contains("- pdf-forms: ") && !text.contains("code-review"),
            "{text}"
        );
        session.cancel().await.unwrap();
    }
    assert!(connect(addr, Some("nobody")).await.is_err());
    all.cancel().await.unwrap();
    team.cancel().await.unwrap();
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}
