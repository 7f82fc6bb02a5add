//! Load and cold start for MCP servers over Streamable HTTP (and cold start over stdio).
//!
//! ```text
//! mcp_bench load URL CLIENTS SECS (--read URI | --tool NAME ARGS_JSON) [--warmup SECS] [--protocol VERSION]
//! mcp_bench cold-http RUNS PORT_BASE -- CMD ARG...    # "{addr}" and "{port}" in ARGs are replaced
//! mcp_bench cold-stdio RUNS -- CMD ARG...
//! ```
//!
//! `load`: CLIENTS sessions, each on its own keep-alive HTTP/1.1 connection (`initialize`,
//! `notifications/initialized`, then one request at a time, closed loop), for SECS seconds
//! after a warm-up (default 1 s) whose requests are not counted. Every answer is checked (a
//! JSON-RPC error, `isError` or an empty `contents` counts as an error). Prints one line:
//! `ops errors secs req_per_s p50_ms p99_ms answer_bytes`. With `MCP_BENCH_TAIL` set in the
//! environment it also prints the latency distribution (p50 to the maximum) on stderr.
//! `--protocol 2026-07-28` speaks that revision instead of 2025-11-25: no `initialize` and no
//! session, each request self-contained (the version, client info and capabilities in its
//! `_meta`, the version in its `MCP-Protocol-Version` header).
//!
//! `cold-http`: spawns the server RUNS times on 127.0.0.1:PORT_BASE+i, polls a TCP connect
//! every 0.2 ms, sends `initialize` and stops the clock at its answer. `cold-stdio`: spawns
//! the server with pipes, writes `initialize` at once and stops the clock at the answer line.
//! Both print `median_ms min_ms max_ms`. The generator runs on one thread (a current-thread
//! tokio runtime), so it takes at most one core from the server.

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

/// The revision `load` speaks unless `--protocol` says otherwise, and the one `cold-*` speak.
const PROTOCOL: &str = "2025-11-25";
/// The revision without sessions: each request carries what `initialize` used to tell.
const MODERN: &str = "2026-07-28";

type Error = Box<dyn std::error::Error + Send + Sync>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let outcome = match args.first().map(String::as_str) {
        Some("load") => runtime.block_on(load(&args[1..])),
        Some("cold-http") => runtime.block_on(cold_http(&args[1..])),
        Some("cold-stdio") => cold_stdio(&args[1..]),
        _ => Err("usage: mcp_bench load|cold-http|cold-stdio ...".into()),
    };
    match outcome {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mcp_bench: {e}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Clone)]
enum Op {
    Read(String),
    Tool(String, Value),
}

impl Op {
    fn request(&self) -> (&'static str, Value) {
        match self {
            Op::Read(uri) => ("resources/read", json!({ "uri": uri })),
            Op::Tool(name, args) => ("tools/call", json!({ "name": name, "arguments": args })),
        }
    }

    /// The size of the answer's payload, or why it is not a good answer.
    fn check(&self, result: &Value) -> Result<usize, String> {
        match self {
            Op::Read(_) => {
                let contents = result["contents"].as_array().ok_or("no contents")?;
                let first = contents.first().ok_or("empty contents")?;
                let text = first["text"].as_str().or_else(|| first["blob"].as_str());
                text.map(str::len)
                    .ok_or_else(|| "no text nor blob".to_owned())
            }
            Op::Tool(..) => {
                if result["isError"].as_bool() == Some(true) {
                    return Err(format!("isError: {result}"));
                }
                let content = result["content"].as_array().ok_or("no content")?;
                Ok(content
                    .iter()
                    .filter_map(|c| c["text"].as_str())
                    .map(str::len)
                    .sum())
            }
        }
    }
}

/// One MCP session on one keep-alive HTTP/1.1 connection.
struct Session {
    sender: SendRequest<Full<Bytes>>,
    host: String,
    path: String,
    session: Option<String>,
    next_id: u64,
    /// The revision spoken: [`PROTOCOL`] (a session from `initialize`) or [`MODERN`].
    protocol: &'static str,
}

impl Session {
    async fn connect(
        addr: SocketAddr,
        path: &str,
        protocol: &'static str,
    ) -> Result<Self, Error> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let mut session = Self::handshake(stream, addr, path).await?;
        session.protocol = protocol;
        Ok(session)
    }

    async fn handshake(
        stream: tokio::net::TcpStream,
        addr: SocketAddr,
        path: &str,
    ) -> Result<Self, Error> {
        let (sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(Session {
            sender,
            host: addr.to_string(),
            path: path.to_owned(),
            session: None,
            next_id: 1,
            protocol: PROTOCOL,
        })
    }

    async fn post(
        &mut self,
        body: &Value,
    ) -> Result<(hyper::StatusCode, Option<String>, Bytes), Error> {
        let mut request = hyper::Request::post(&self.path)
            .header("host", &self.host)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        if self.session.is_some() || self.protocol == MODERN {
            request = request.header("mcp-protocol-version", self.protocol);
        }
        if self.protocol == MODERN
            && let Some(method) = body["method"].as_str()
        {
            // The routing headers of 2026-07-28: the method, and the tool's name or the
            // resource's URI (ASCII here, so not Base64-wrapped).
            request = request.header("mcp-method", method);
            let params = &body["params"];
            if let Some(name) = params["name"].as_str().or_else(|| params["uri"].as_str()) {
                request = request.header("mcp-name", name);
            }
        }
        let request = request.body(Full::new(Bytes::from(serde_json::to_vec(body)?)))?;
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        let status = response.status();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, session, body))
    }

    /// Ends the session with `DELETE`, as a client that is done does, so the server frees it
    /// now rather than at its idle timeout (left open, the sessions of one cell would still be
    /// in the next cell's memory). A server without sessions refuses it, which changes nothing.
    async fn close(mut self) {
        let Some(session) = self.session.take() else {
            return;
        };
        let Ok(request) = hyper::Request::delete(&self.path)
            .header("host", &self.host)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", PROTOCOL)
            .body(Full::new(Bytes::new()))
        else {
            return;
        };
        if self.sender.ready().await.is_ok()
            && let Ok(response) = self.sender.send_request(request).await
        {
            let _ = response.into_body().collect().await;
        }
    }

    /// Sends a request and returns its `result`.
    async fn call(&mut self, method: &str, mut params: Value) -> Result<Value, Error> {
        if self.protocol == MODERN
            && let Some(params) = params.as_object_mut()
        {
            params.insert("_meta".to_owned(), modern_meta());
        }
        let id = self.next_id;
        self.next_id += 1;
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let (status, session, bytes) = self.post(&body).await?;
        if !status.is_success() {
            return Err(format!(
                "{method}: HTTP {status}: {}",
                String::from_utf8_lossy(&bytes)
            )
            .into());
        }
        if self.session.is_none() {
            self.session = session;
        }
        let answer = find_answer(&bytes, id)
            .ok_or_else(|| format!("{method}: no answer in {}", String::from_utf8_lossy(&bytes)))?;
        if let Some(error) = answer.get("error") {
            return Err(format!("{method}: {error}").into());
        }
        Ok(answer["result"].clone())
    }

    async fn notify(&mut self, method: &str) -> Result<(), Error> {
        let body = json!({ "jsonrpc": "2.0", "method": method });
        let (status, _, bytes) = self.post(&body).await?;
        if !status.is_success() {
            return Err(format!(
                "{method}: HTTP {status}: {}",
                String::from_utf8_lossy(&bytes)
            )
            .into());
        }
        Ok(())
    }

    /// `initialize` and `notifications/initialized` at 2025-11-25; nothing at 2026-07-28, which
    /// has no handshake.
    async fn initialize(&mut self) -> Result<Value, Error> {
        if self.protocol == MODERN {
            return Ok(Value::Null);
        }
        let result = self.call("initialize", initialize_params()).await?;
        self.notify("notifications/initialized").await?;
        Ok(result)
    }
}

fn initialize_params() -> Value {
    json!({
        "protocolVersion": PROTOCOL,
        "capabilities": {},
        "clientInfo": { "name": "mcp_bench", "version": "0.1.0" }
    })
}

/// What a 2026-07-28 request says of its client, in its `_meta`.
fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": { "name": "mcp_bench", "version": "0.1.0" },
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// The JSON-RPC answer with `id`, from a JSON body or from the events of an SSE body.
fn find_answer(body: &[u8], id: u64) -> Option<Value> {
    let text = std::str::from_utf8(body).ok()?;
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let value: Value = serde_json::from_str(trimmed).ok()?;
        return pick(value, id);
    }
    let mut data = String::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            if !data.is_empty() {
                if let Some(answer) = serde_json::from_str(&data).ok().and_then(|v| pick(v, id)) {
                    return Some(answer);
                }
                data.clear();
            }
        } else if let Some(rest) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        }
    }
    None
}

fn pick(value: Value, id: u64) -> Option<Value> {
    match value {
        Value::Array(items) => items.into_iter().find_map(|v| pick(v, id)),
        v if v["id"].as_u64() == Some(id) => Some(v),
        _ => None,
    }
}

fn split_url(url: &str) -> Result<(SocketAddr, String), Error> {
    let rest = url
        .strip_prefix("http://")
        .ok_or("URL must start with http://")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let addr: SocketAddr = authority.parse()?;
    Ok((
        addr,
        if path.is_empty() {
            "/".to_owned()
        } else {
            path.to_owned()
        },
    ))
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1].as_secs_f64() * 1e3
}

async fn load(args: &[String]) -> Result<String, Error> {
    let [url, clients, secs, rest @ ..] = args else {
        return Err("usage: mcp_bench load URL CLIENTS SECS (--read URI | --tool NAME ARGS) [--warmup SECS] [--protocol VERSION]".into());
    };
    let (addr, path) = split_url(url)?;
    let clients: usize = clients.parse()?;
    let secs: f64 = secs.parse()?;
    let mut op = None;
    let mut warmup = 1.0_f64;
    let mut protocol = PROTOCOL;
    let mut i = 0;
    while i < rest.len() {
        match (rest[i].as_str(), rest.get(i + 1), rest.get(i + 2)) {
            ("--read", Some(uri), _) => {
                op = Some(Op::Read(uri.clone()));
                i += 2;
            }
            ("--tool", Some(name), Some(json)) => {
                op = Some(Op::Tool(name.clone(), serde_json::from_str(json)?));
                i += 3;
            }
            ("--warmup", Some(s), _) => {
                warmup = s.parse()?;
                i += 2;
            }
            ("--protocol", Some(v), _) => {
                protocol = match v.as_str() {
                    PROTOCOL => PROTOCOL,
                    MODERN => MODERN,
                    other => {
                        return Err(
                            format!("--protocol {other}: {PROTOCOL} or {MODERN}").into()
                        );
                    }
                };
                i += 2;
            }
            (other, ..) => return Err(format!("unexpected argument {other}").into()),
        }
    }
    let op = op.ok_or("--read URI or --tool NAME ARGS is required")?;

    // One answer first, outside the clock: a server that cannot answer fails here, loudly.
    let mut probe = Session::connect(addr, &path, protocol).await?;
    probe.initialize().await?;
    let (method, params) = op.request();
    let answer = probe.call(method, params).await?;
    let answer_bytes = op.check(&answer).map_err(|e| format!("{method}: {e}"))?;
    probe.close().await;

    let mut sessions = Vec::with_capacity(clients);
    for _ in 0..clients {
        let mut session = Session::connect(addr, &path, protocol).await?;
        session.initialize().await?;
        sessions.push(session);
    }
    let start = Instant::now();
    let measure_from = start + Duration::from_secs_f64(warmup);
    let end = measure_from + Duration::from_secs_f64(secs);
    let mut tasks = Vec::with_capacity(clients);
    for mut session in sessions {
        let op = op.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(1 << 14);
            let mut errors = 0u64;
            let mut first_error = None;
            loop {
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let (method, params) = op.request();
                let outcome = match session.call(method, params).await {
                    Ok(result) => op.check(&result).map(|_| ()).map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                };
                let done = Instant::now();
                if sent >= measure_from && done <= end {
                    match outcome {
                        Ok(()) => latencies.push(done - sent),
                        Err(e) => {
                            errors += 1;
                            first_error.get_or_insert(e);
                        }
                    }
                } else if let Err(e) = outcome {
                    // A broken connection stays broken: stop this client.
                    if e.contains("connection") || e.contains("closed") {
                        errors += 1;
                        first_error.get_or_insert(e);
                        break;
                    }
                }
            }
            // After the clock: closing is not part of the load.
            session.close().await;
            (latencies, errors, first_error)
        }));
    }
    let mut latencies = Vec::new();
    let mut errors = 0;
    for task in tasks {
        let (l, e, first) = task.await?;
        latencies.extend(l);
        errors += e;
        if let Some(first) = first {
            eprintln!("mcp_bench: error: {first}");
        }
    }
    latencies.sort_unstable();
    let ops = latencies.len();
    if std::env::var_os("MCP_BENCH_TAIL").is_some() {
        eprintln!(
            "tail: p50 {:.3} p90 {:.3} p95 {:.3} p99 {:.3} p99.9 {:.3} max {:.3}",
            percentile(&latencies, 50.0),
            percentile(&latencies, 90.0),
            percentile(&latencies, 95.0),
            percentile(&latencies, 99.0),
            percentile(&latencies, 99.9),
            percentile(&latencies, 100.0)
        );
    }
    Ok(format!(
        "{ops} {errors} {secs:.1} {:.0} {:.3} {:.3} {answer_bytes}",
        ops as f64 / secs,
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0)
    ))
}

/// Replaces `{addr}` and `{port}` in the command's arguments.
fn command(cmd: &[String], port: u16) -> Result<Command, Error> {
    let (program, args) = cmd.split_first().ok_or("no command")?;
    let mut command = Command::new(program);
    for arg in args {
        command.arg(
            arg.replace("{addr}", &format!("127.0.0.1:{port}"))
                .replace("{port}", &port.to_string()),
        );
    }
    Ok(command)
}

fn summary(mut times: Vec<f64>) -> String {
    times.sort_by(f64::total_cmp);
    let median = if times.len() % 2 == 1 {
        times[times.len() / 2]
    } else {
        (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
    };
    format!("{median:.1} {:.1} {:.1}", times[0], times[times.len() - 1])
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn cold_http(args: &[String]) -> Result<String, Error> {
    let [runs, base, dashes, cmd @ ..] = args else {
        return Err("usage: mcp_bench cold-http RUNS PORT_BASE -- CMD ARG...".into());
    };
    if dashes != "--" {
        return Err("expected --".into());
    }
    let runs: u16 = runs.parse()?;
    let base: u16 = base.parse()?;
    let mut times = Vec::new();
    let mut port = base;
    for _ in 0..runs {
        // A port another process holds (a server of an earlier row still closing) would make
        // the server under test exit at once: take the next free one.
        while std::net::TcpListener::bind(("127.0.0.1", port)).is_err() {
            port = port.checked_add(1).ok_or("no free port")?;
        }
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
        let mut command = command(cmd, port)?;
        port = port.checked_add(1).ok_or("no free port")?;
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let deadline = Duration::from_secs(180);
        let started = Instant::now();
        let mut child = Killed(command.spawn()?);
        let stream = loop {
            match tokio::net::TcpStream::connect(addr).await {
                Ok(stream) => break stream,
                Err(_) if started.elapsed() < deadline => {
                    if let Some(status) = child.0.try_wait()? {
                        return Err(format!(
                            "{} exited ({status}) before listening on {addr}",
                            cmd.join(" ")
                        )
                        .into());
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                Err(e) => return Err(format!("no listener on {addr} after 180 s: {e}").into()),
            }
        };
        stream.set_nodelay(true)?;
        let mut session = Session::handshake(stream, addr, "/mcp").await?;
        session.call("initialize", initialize_params()).await?;
        times.push(started.elapsed().as_secs_f64() * 1e3);
    }
    Ok(summary(times))
}

fn cold_stdio(args: &[String]) -> Result<String, Error> {
    let [runs, dashes, cmd @ ..] = args else {
        return Err("usage: mcp_bench cold-stdio RUNS -- CMD ARG...".into());
    };
    if dashes != "--" {
        return Err("expected --".into());
    }
    let runs: u32 = runs.parse()?;
    let request = format!(
        "{}\n",
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize_params() })
    );
    let mut times = Vec::new();
    for _ in 0..runs {
        let mut command = command(cmd, 0)?;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let started = Instant::now();
        let mut child = Killed(command.spawn()?);
        let mut stdin = child.0.stdin.take().ok_or("no stdin")?;
        stdin.write_all(request.as_bytes())?;
        stdin.flush()?;
        let mut stdout = BufReader::new(child.0.stdout.take().ok_or("no stdout")?);
        let mut line = String::new();
        loop {
            line.clear();
            if stdout.read_line(&mut line)? == 0 {
                return Err("the server closed stdout before answering".into());
            }
            if find_answer(line.as_bytes(), 1).is_some() {
                break;
            }
        }
        times.push(started.elapsed().as_secs_f64() * 1e3);
        drop(stdin);
    }
    Ok(summary(times))
}
