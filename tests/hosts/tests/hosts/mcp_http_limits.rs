//! What a client can make `skills serve --http` and `McpServer::serve_http` hold (issue 25 items 1 and 3):
//! connections that send nothing are closed and capped, so a new client is still answered; the
//! listener cannot be shared by another process; one session cannot take every in-flight slot;
//! sessions never cross tokens; and a request's hold on the limits ends with its answer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use skills_embed::mcp::{McpServer, Options};
use skills_embed::policy::{Answer, Permissions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::mcp_http::{SKILLS, connect, start};

pub(crate) fn initialize() -> Value {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    })
}

/// One raw HTTP/1.1 request on a connection of its own; reads until the JSON-RPC answer (a
/// `result` or an `error`) or the end. Returns the status code and what was read.
pub(crate) async fn send(
    addr: SocketAddr,
    method: &str,
    headers: &[(&str, String)],
    body: Option<&Value>,
) -> (u16, String) {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&answer);
        if text.contains("\"result\"") || text.contains("\"error\"") {
            break;
        }
    }
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

/// `initialize`, then `notifications/initialized`, with `headers`: the session id.
pub(crate) async fn open_session(addr: SocketAddr, headers: &[(&str, String)]) -> String {
    let (status, answer) = send(addr, "POST", headers, Some(&initialize())).await;
    assert_eq!(status, 200, "{answer}");
    let session = answer
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("a session id in {answer}"));
    let mut with_session = headers.to_vec();
    with_session.push(("Mcp-Session-Id", session.clone()));
    let (status, answer) = send(
        addr,
        "POST",
        &with_session,
        Some(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
    )
    .await;
    assert_eq!(status, 202, "{answer}");
    session
}

/// `n` connections that send nothing.
async fn idle_connections(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    let mut idle = Vec::with_capacity(n);
    for _ in 0..n {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    idle
}

/// Whether the server closes `stream` within `bound` (end of stream or reset).
async fn closed_within(stream: &mut TcpStream, bound: Duration) -> bool {
    let mut buf = [0u8; 64];
    matches!(
        tokio::time::timeout(bound, stream.read(&mut buf)).await,
        Ok(Ok(0) | Err(_))
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_past_the_cap_are_closed_and_a_new_client_is_answered() {
    let timeout = Duration::from_millis(500);
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            max_connections: Some(4),
            header_read_timeout: timeout,
            ..Options::default()
        }),
    )
    .await;
    // More idle connections than the cap: 4 are held, 2 wait in the listen queue.
    let mut idle = idle_connections(addr, 6).await;
    // A new client behind them is answered once the held ones time out.
    let answered = tokio::time::timeout(
        timeout + Duration::from_secs(4),
        send(addr, "POST", &[], Some(&initialize())),
    )
    .await
    .expect("a new client is answered within the header-read timeout and a margin");
    assert_eq!(answered.0, 200, "{}", answered.1);
    // Every idle connection is closed by the server, the queued ones too.
    for (n, stream) in idle.iter_mut().enumerate() {
        assert!(
            closed_within(stream, timeout + Duration::from_secs(4)).await,
            "idle connection {n} still open"
        );
    }
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answered_connection_is_closed_after_the_idle_timeout() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            stateless: true,
            idle_timeout: Duration::from_millis(300),
            ..Options::default()
        }),
    )
    .await;
    // Keep-alive: no `Connection: close`.
    let body = initialize().to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 8192];
    while !String::from_utf8_lossy(&answer).contains("\"result\"") {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
            .await
            .expect("answered")
            .unwrap();
        assert!(n > 0, "closed before the answer");
        answer.extend_from_slice(&buf[..n]);
    }
    // Well before the header-read timeout (10 s), the idle timeout closes it.
    assert!(
        closed_within(&mut stream, Duration::from_secs(5)).await,
        "an answered keep-alive connection stays open"
    );
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// A free loopback port.
fn free_port() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// `skills serve --http addr` with `args`, its descriptor limit set to `nofile` if given;
/// returns once it accepts connections.
async fn skills_serve_http(
    addr: SocketAddr,
    nofile: Option<u32>,
    args: &[&str],
) -> tokio::process::Child {
    let mut command = match nofile {
        Some(n) => {
            let mut bash = tokio::process::Command::new("bash");
            bash.arg("-c")
                .arg(format!("ulimit -n {n} && exec \"$0\" \"$@\""))
                .arg(env!("CARGO_BIN_EXE_skills-cli"));
            bash
        }
        None => tokio::process::Command::new(env!("CARGO_BIN_EXE_skills-cli")),
    };
    let child = command
        .arg("serve")
        .arg("../../skills/examples/skills")
        .arg("--http")
        .arg(addr.to_string())
        .args(args)
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if TcpStream::connect(addr).await.is_ok() {
            return child;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("skills serve --http {addr} does not accept connections");
}

/// The attack at a small scale: under a descriptor limit of 256, 300 connections that
/// send nothing; a new client is still answered, once the header-read timeout has closed the
/// connections held.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skills_serve_http_answers_a_new_client_past_its_descriptor_limit() {
    let addr = free_port();
    let _server = skills_serve_http(addr, Some(256), &["--header-read-timeout", "1"]).await;
    let _idle = idle_connections(addr, 300).await;
    let (status, answer) = tokio::time::timeout(
        Duration::from_secs(1 + 5),
        send(addr, "POST", &[], Some(&initialize())),
    )
    .await
    .expect("a new client is answered within the header-read timeout and a margin");
    assert_eq!(status, 200, "{answer}");
}

/// `skills serve --http` binds one listener without `SO_REUSEPORT`: another socket of the same
/// user that asks for it cannot bind the port, so it gets no share of the connections (or of
/// their bearer tokens).
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_other_socket_can_bind_the_port_of_skills_serve_http() {
    let addr = free_port();
    let _server = skills_serve_http(addr, None, &[]).await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_reuseaddr(true).unwrap();
    socket.set_reuseport(true).unwrap();
    let bound = socket.bind(addr).and_then(|()| socket.listen(16).map(drop));
    let error = bound.expect_err("a second listener with SO_REUSEPORT joined the server's port");
    assert_eq!(error.kind(), std::io::ErrorKind::AddrInUse, "{error}");
}

/// Two plain tokens: a session opened with one is unknown under the other, for POST and
/// DELETE, and goes on under its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_never_cross_tokens() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default())
            .with_token("token-a", None)
            .with_token("token-b", None),
    )
    .await;
    let a = ("Authorization", "Bearer token-a".to_owned());
    let b = ("Authorization", "Bearer token-b".to_owned());
    let session = open_session(addr, std::slice::from_ref(&a)).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let with =
        |token: &(&'static str, String)| [token.clone(), ("Mcp-Session-Id", session.clone())];
    let (status, answer) = send(addr, "POST", &with(&b), Some(&list)).await;
    assert_eq!(status, 404, "token B used token A's session: {answer}");
    let (status, answer) = send(addr, "DELETE", &with(&b), None).await;
    assert_eq!(status, 404, "token B ended token A's session: {answer}");
    let (status, answer) = send(addr, "POST", &with(&a), Some(&list)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("load_skill"), "{answer}");
    let (status, answer) = send(addr, "DELETE", &with(&a), None).await;
    assert!((200..300).contains(&status), "{answer}");
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// One session floods calls that wait (an approval nobody gives yet): it holds its own share
/// of the in-flight slots, and another session's request is answered meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_that_floods_does_not_hold_every_slot() {
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let asked = Arc::new(AtomicUsize::new(0));
    let (gate_in, asked_in) = (Arc::clone(&gate), Arc::clone(&asked));
    let (addr, stop, running) = start(
        McpServer::new(
            &SKILLS,
            skills_embed::tools::Settings {
                permissions: Permissions::new().ask("pdf-forms"),
                ..skills_embed::tools::Settings::default()
            }
            .with_approval(move |_skill| {
                let (gate, asked) = (Arc::clone(&gate_in), Arc::clone(&asked_in));
                async move {
                    asked.fetch_add(1, Ordering::SeqCst);
                    let _ = gate.acquire().await;
                    Answer::Once
                }
            }),
        )
        .with_options(Options {
            server_max_in_flight: 16,
            ..Options::default()
        }),
    )
    .await;
    let flood_session = open_session(addr, &[]).await;
    let headers = [("Mcp-Session-Id", flood_session)];
    let flood: Vec<_> = (0..24)
        .map(|id| {
            let headers = headers.clone();
            tokio::spawn(async move {
                let call = json!({"jsonrpc": "2.0", "id": 10 + id, "method": "tools/call",
                    "params": {"name": "load_skill", "arguments": {"skill": "pdf-forms"}}});
                send(addr, "POST", &headers, Some(&call)).await
            })
        })
        .collect();
    // The flood is in: its first call waits for the approval.
    for _ in 0..500 {
        if asked.load(Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        asked.load(Ordering::SeqCst) > 0,
        "the flood never reached the handler"
    );
    // Another client opens its session and lists the tools while the flood is queued.
    let other = tokio::time::timeout(Duration::from_secs(5), async {
        let session = open_session(addr, &[]).await;
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
        send(addr, "POST", &[("Mcp-Session-Id", session)], Some(&list)).await
    })
    .await
    .expect("another session is answered while one session's flood is queued");
    assert_eq!(other.0, 200, "{}", other.1);
    assert!(other.1.contains("load_skill"), "{}", other.1);
    // Let the flood through: every call is answered.
    gate.add_permits(1000);
    for call in flood {
        let (status, answer) = tokio::time::timeout(Duration::from_secs(20), call)
            .await
            .expect("the flood is answered once approved")
            .unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// What a request hands to rmcp (its ticket, holding its permits) is let go with the answer:
/// with one slot in the whole server, request after request is answered, and the graceful
/// shutdown finds nothing in flight.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_gives_its_slot_back() {
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            server_max_in_flight: 1,
            ..Options::default()
        }),
    )
    .await;
    let client = connect(addr, None).await.expect("initialize");
    let Some(Value::Object(args)) = Some(json!({"skill": "code-review"})) else {
        unreachable!()
    };
    for n in 0..20 {
        let call =
            client.call_tool(CallToolRequestParams::new("load_skill").with_arguments(args.clone()));
        let answer = tokio::time::timeout(Duration::from_secs(5), call)
            .await
            .unwrap_or_else(|_| panic!("request {n} waited for a slot nobody gave back"))
            .unwrap();
        assert_eq!(answer.is_error, Some(false));
    }
    client.cancel().await.unwrap();
    let _ = stop.send(());
    // Under SHUTDOWN_GRACE (10 s): nothing was left counted.
    tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .expect("the shutdown finds no request in flight")
        .unwrap()
        .unwrap();
}

/// A request whose head came and whose body does not (yet) holds no slot: with one slot in
/// the whole server, another client is answered meanwhile; the late body is refused with 408.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_does_not_come_holds_no_slot() {
    let timeout = Duration::from_secs(2);
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            server_max_in_flight: 1,
            header_read_timeout: timeout,
            ..Options::default()
        }),
    )
    .await;
    let mut stalled = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\""
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stalled.push(stream);
    }
    let answered = tokio::time::timeout(
        Duration::from_secs(1),
        send(addr, "POST", &[], Some(&initialize())),
    )
    .await
    .expect("a client is answered while other requests' bodies are late");
    assert_eq!(answered.0, 200, "{}", answered.1);
    // The late ones are refused once their time is up.
    for stream in &mut stalled {
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(
            timeout + Duration::from_secs(4),
            stream.read_to_end(&mut answer),
        )
        .await;
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// A session's event stream (GET), held open; returns the connection and the status code.
async fn event_stream(addr: SocketAddr, session: &str) -> (TcpStream, u16) {
    let request = format!(
        "GET /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\nMcp-Session-Id: {session}\r\n\r\n"
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
            .await
            .expect("the head of an event stream's answer within 10 s")
            .unwrap_or(0);
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let status = String::from_utf8_lossy(&head)
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (stream, status)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_streams_never_take_every_connection() {
    // 6 connections: at most 3 event streams, so requests always find a connection.
    let (addr, stop, running) = start(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()).with_options(Options {
            max_connections: Some(6),
            ..Options::default()
        }),
    )
    .await;
    let mut sessions = Vec::new();
    for _ in 0..4 {
        sessions.push(open_session(addr, &[]).await);
    }
    let mut open = Vec::new();
    for session in &sessions[..3] {
        let (stream, status) = event_stream(addr, session).await;
        assert_eq!(status, 200, "the event stream of a session");
        open.push(stream);
    }
    let (_, status) = event_stream(addr, &sessions[3]).await;
    assert_eq!(
        status, 503,
        "an event stream past half the connections is refused"
    );
    // Requests are still answered, those of the session without a stream too.
    let with_session = [("Mcp-Session-Id", sessions[3].clone())];
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let (status, answer) = tokio::time::timeout(
        Duration::from_secs(10),
        send(addr, "POST", &with_session, Some(&list)),
    )
    .await
    .expect("a request is answered while the streams are open");
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("\"tools\""), "{answer}");
    // A stream closed frees its place.
    drop(open.pop());
    let mut reopened = 0;
    for _ in 0..100 {
        let (stream, status) = event_stream(addr, &sessions[3]).await;
        if status == 200 {
            reopened = status;
            open.push(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(reopened, 200, "a stream is opened once another has closed");
    drop(open);
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}
