//! Script runs that end with their request over Streamable HTTP (issue 25, item 3): a client
//! that hangs up (closes its connection with the call unanswered, its session left open) gets
//! its script file's process killed and reaped and its async script dropped, and the run's
//! slot in the server's in-flight limit comes back then, not before: runs of clients that left
//! never pile up past the limit. The hang-up is a plain TCP close, so nothing but the HTTP
//! layer's word that the answer's body was dropped can stop the run.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use skills_embed::listing::ListingFormat;
use skills_embed::mcp::{McpServer, Options};
use skills_embed::{Fields, File, Script, Skill, SkillSet};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::mcp_http::start;
use super::mcp_http_limits::{open_session, send};
use super::script_runs::{BOUND, Shell, exists, until};

/// Where the async script `nap/wait` says it has started.
#[derive(Deserialize, JsonSchema)]
struct Started {
    /// The file to create once running.
    started: String,
}

/// How many runs of `nap/wait` have been dropped (cancelled).
static DROPPED: AtomicUsize = AtomicUsize::new(0);

/// Counts a run of `nap/wait` as dropped when it is.
struct Dropped;

impl Drop for Dropped {
    fn drop(&mut self) {
        DROPPED.fetch_add(1, Ordering::SeqCst);
    }
}

/// Says it has started, then waits for ever: only a cancellation (or the 30 s script timeout)
/// ends it.
async fn wait(args: Started) -> Result<String, String> {
    let _dropped = Dropped;
    std::fs::write(&args.started, "").map_err(|e| e.to_string())?;
    std::future::pending().await
}

/// A skill with two script files that write their pid to `$1`, one that then loops (a core
/// kept busy) and one that sleeps 60 s (`exec`: the pid is the sleep's), and the async
/// script `wait`.
fn skills() -> Arc<SkillSet> {
    let fields = Fields {
        name: "nap".into(),
        description: "Scripts that run until stopped.".into(),
        ..Fields::default()
    };
    let spin = File::owned(
        "scripts/spin.sh".into(),
        b"echo $$ > \"$1\"\nwhile :; do :; done\n".to_vec(),
        true,
    );
    let sleep = File::owned(
        "scripts/sleep.sh".into(),
        b"echo $$ > \"$1\"\nexec sleep 60\n".to_vec(),
        true,
    );
    let skill = Skill::owned(fields, "Run scripts/sleep.sh.\n".into(), vec![spin, sleep]);
    let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown)
        .with_scripts([Script::new_async("nap", "wait", wait)]);
    Arc::new(set)
}

/// An HTTP server of [`skills`] running script files with `sh`, answering `max` requests at
/// once.
fn server(max: usize) -> McpServer {
    McpServer::new(
        skills(),
        skills_embed::tools::Settings::default().with_file_runner(Arc::new(Shell)),
    )
    .with_options(Options {
        server_max_in_flight: max,
        ..Options::default()
    })
}

/// A `run_skill_script` call of `script` with `args`.
fn run(script: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "run_skill_script", "arguments": {"script": script, "args": args}}})
}

/// A call of the script file `nap/scripts/{file}` with the pid file as its argument.
fn run_file(file: &str, pid_file: &Path) -> Value {
    run(
        &format!("nap/scripts/{file}"),
        json!({"argv": [pid_file.to_str().unwrap()]}),
    )
}

/// Sends `body` as a POST of `session` on a connection of its own and returns the connection
/// without reading the answer: dropping it is the client hanging up.
async fn begin(addr: SocketAddr, session: &str, body: &Value) -> TcpStream {
    let body = body.to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// The pid a script wrote to `file`, once it has; fails naming `what` otherwise.
async fn pid_in(file: &Path, what: &str) -> u32 {
    let mut pid = None;
    until(what, || {
        pid = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok());
        pid.is_some()
    })
    .await;
    pid.unwrap()
}

/// A new client opens a session and lists the tools, answered within [`BOUND`].
async fn a_new_client_is_answered(addr: SocketAddr, what: &str) {
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let (status, answer) = tokio::time::timeout(BOUND, async {
        let session = open_session(addr, &[]).await;
        send(addr, "POST", &[("Mcp-Session-Id", session)], Some(&list)).await
    })
    .await
    .unwrap_or_else(|_| panic!("waited {BOUND:?} for a new client to be answered {what}"));
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("run_skill_script"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_up_over_http_kills_the_script_files_process_and_frees_its_slot() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    // One request at a time in the whole server: the run holds the only slot.
    let (addr, stop, running) = start(server(1)).await;
    let session = open_session(addr, &[]).await;
    let call = begin(addr, &session, &run_file("spin.sh", &pid_file)).await;
    let pid = pid_in(&pid_file, "the looping script to start").await;
    assert!(exists(pid));

    // The client goes away with the call unanswered; its session stays open.
    drop(call);
    until(&format!("process {pid} to be killed and reaped"), || {
        !exists(pid)
    })
    .await;
    a_new_client_is_answered(addr, "once the run of the client that hung up ended").await;
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

/// The attack at a small scale: with the limit at 3, 3 sessions start a 60 s script and
/// hang up, twice. The second round's clients are answered only as the first round's runs end,
/// so no more than 3 processes ever run; every one is killed and reaped, and a new client is
/// answered after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_of_clients_that_hung_up_over_http_end_and_never_pass_the_limit() {
    const MAX: usize = 3;
    let dir = tempfile::tempdir().unwrap();
    let (addr, stop, running) = start(server(MAX)).await;
    let mut pids = Vec::new();
    for round in 0..2 {
        let mut calls = Vec::new();
        for n in 0..MAX {
            let session = tokio::time::timeout(BOUND, open_session(addr, &[]))
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "round {round}, client {n}: waited {BOUND:?} for a session; the runs of \
                         the clients that hung up still hold the server's {MAX} slots"
                    )
                });
            let pid_file = dir.path().join(format!("{round}-{n}"));
            calls.push(begin(addr, &session, &run_file("sleep.sh", &pid_file)).await);
            let what = format!("round {round}, client {n}: the script to start");
            pids.push(pid_in(&pid_file, &what).await);
        }
        let alive: Vec<_> = pids.iter().filter(|&&pid| exists(pid)).collect();
        assert!(
            alive.len() <= MAX,
            "round {round}: {} script processes alive with the limit at {MAX}: {alive:?}",
            alive.len()
        );
        // Every client of the round hangs up.
        drop(calls);
    }
    until("every script process to be killed and reaped", || {
        pids.iter().all(|&pid| !exists(pid))
    })
    .await;
    a_new_client_is_answered(addr, "after 2 rounds of clients that hung up").await;
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_up_over_http_cancels_an_async_script_and_frees_its_slot() {
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("started");
    let (addr, stop, running) = start(server(1)).await;
    let session = open_session(addr, &[]).await;
    let dropped = DROPPED.load(Ordering::SeqCst);
    let args = json!({"started": started.to_str().unwrap()});
    let call = begin(addr, &session, &run("nap/wait", args)).await;
    until("the async script to start", || started.exists()).await;

    drop(call);
    until("the async script to be dropped", || {
        DROPPED.load(Ordering::SeqCst) > dropped
    })
    .await;
    a_new_client_is_answered(addr, "once the async run of the client that hung up ended").await;
    let _ = stop.send(());
    running.await.unwrap().unwrap();
}
