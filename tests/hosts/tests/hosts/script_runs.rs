//! Script runs that end with their request (issue 25, item 3): over a connection `serve` bounds
//! (stdio, here an in-memory pipe), a client that hangs up or sends `notifications/cancelled`
//! gets its script file's process killed and reaped, and a run holds its request's slot in the
//! in-flight limit until it has ended, even when nobody waits for its answer.

use crate::common::{call, connect};

use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequest, ClientRequest};
use rmcp::service::PeerRequestOptions;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use skills_embed::listing::ListingFormat;
use skills_embed::mcp::{McpServer, Options};
use skills_embed::tools::{FileRun, FileRunner};
use skills_embed::{Fields, File, Script, ScriptError, Skill, SkillSet};

const RUN: &str = "run_skill_script";

/// How long a test waits for an event before it fails (never how long something should take).
pub(crate) const BOUND: Duration = Duration::from_secs(20);

/// Runs a script file with `sh` (its argv after it), as a host without a sandbox would.
pub(crate) struct Shell;

impl FileRunner for Shell {
    fn run(&self, run: FileRun<'_>) -> Result<String, ScriptError> {
        let script = String::from_utf8_lossy(run.contents).into_owned();
        let child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(run.path)
            .args(run.argv)
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| ScriptError::Failed(format!("could not start sh: {e}")))?;
        let out = run.wait(child)?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// Takes nothing.
#[derive(Deserialize, JsonSchema)]
struct Nothing {}

/// Whether `hold` runs, and whether it may return.
static GATE: (Mutex<(bool, bool)>, Condvar) = (Mutex::new((false, false)), Condvar::new());

/// A plain function that runs until the test lets it return: nothing can stop it from outside.
fn hold(_: Nothing) -> Result<&'static str, String> {
    let (state, changed) = &GATE;
    let mut state = state.lock().unwrap();
    state.0 = true;
    changed.notify_all();
    while !state.1 {
        state = changed.wait(state).unwrap();
    }
    Ok("released")
}

/// Lets `hold` return when dropped: on a failed assertion too, so that the test's runtime,
/// which waits for its blocking threads, can end.
struct Release;

impl Drop for Release {
    fn drop(&mut self) {
        let (state, changed) = &GATE;
        state.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        changed.notify_all();
    }
}

/// A skill with a script file that writes its pid to `$1` and then loops (a core kept busy),
/// and the Rust script `hold`.
fn skills() -> Arc<SkillSet> {
    let fields = Fields {
        name: "spin".into(),
        description: "Scripts that run until stopped.".into(),
        ..Fields::default()
    };
    let spin = File::owned(
        "scripts/spin.sh".into(),
        b"echo $$ > \"$1\"\nwhile :; do :; done\n".to_vec(),
        true,
    );
    let skill = Skill::owned(fields, "Run scripts/spin.sh.\n".into(), vec![spin]);
    let set = SkillSet::from_skills(vec![skill], &ListingFormat::Markdown)
        .with_scripts([Script::new("spin", "hold", hold)]);
    Arc::new(set)
}

/// Whether process `pid` exists (a zombie counts: it was not reaped).
pub(crate) fn exists(pid: u32) -> bool {
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Waits (bounded) until `ready` holds; fails with `what` otherwise.
pub(crate) async fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let waited = tokio::time::timeout(BOUND, async {
        while !ready() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "waited {BOUND:?} for {what}");
}

/// The pid the script wrote to `file`, once it has.
pub(crate) async fn pid_in(file: &std::path::Path) -> u32 {
    let mut pid = None;
    until("the script to start", || {
        pid = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok());
        pid.is_some()
    })
    .await;
    pid.unwrap()
}

fn spin_call(pid_file: &std::path::Path) -> rmcp::model::CallToolRequestParams {
    call(
        RUN,
        json!({"script": "spin/scripts/spin.sh", "args": {"argv": [pid_file.to_str().unwrap()]}}),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hang_up_kills_the_script_files_process() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let server = McpServer::new(
        skills(),
        skills_embed::tools::Settings::default().with_file_runner(Arc::new(Shell)),
    )
    .with_options(Options {
        server_max_in_flight: 8,
        ..Options::default()
    });
    let client = connect(server, ()).await;
    let peer = client.peer().clone();
    let params = spin_call(&pid_file);
    let running = tokio::spawn(async move { peer.call_tool(params).await });
    let pid = pid_in(&pid_file).await;
    assert!(exists(pid));

    // The client goes away with the call unanswered.
    client.cancel().await.unwrap();
    until(&format!("process {pid} to be killed and reaped"), || {
        !exists(pid)
    })
    .await;
    assert!(running.await.unwrap().is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_kills_the_script_files_process_and_frees_its_slot() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    // One request at a time on this connection: the next is read only when the slot is free.
    let server = McpServer::new(
        skills(),
        skills_embed::tools::Settings::default().with_file_runner(Arc::new(Shell)),
    )
    .with_options(Options {
        max_in_flight: 1,
        server_max_in_flight: 8,
        ..Options::default()
    });
    let client = connect(server, ()).await;
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(spin_call(&pid_file)));
    let handle = client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    let pid = pid_in(&pid_file).await;
    handle
        .cancel(Some("the user stopped it".into()))
        .await
        .unwrap();
    until(&format!("process {pid} to be killed and reaped"), || {
        !exists(pid)
    })
    .await;

    // The slot came back: the connection answers again.
    let tools = tokio::time::timeout(BOUND, client.list_all_tools())
        .await
        .expect("answered once the cancelled run ended")
        .unwrap();
    assert!(tools.iter().any(|t| t.name == RUN));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_functions_run_keeps_its_slot_until_it_returns() {
    let release = Release;
    // One request at a time across the two servers.
    let options = Options {
        server_max_in_flight: 1,
        ..Options::default()
    };
    let first = McpServer::new(skills(), skills_embed::tools::Settings::default())
        .with_options(options.clone());
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let served = tokio::spawn(first.serve(server_end));
    let first = ().serve(client_end).await.expect("initialize");
    let peer = first.peer().clone();
    let running = tokio::spawn(async move {
        peer.call_tool(call(RUN, json!({"script": "spin/hold", "args": {}})))
            .await
    });
    until("the script to start", || GATE.0.lock().unwrap().0).await;
    // The first client leaves; its run cannot be stopped and goes on after its connection
    // has ended (rmcp gives up waiting for the answer after a few seconds).
    first.cancel().await.unwrap();
    assert!(running.await.unwrap().is_err());
    tokio::time::timeout(BOUND, served)
        .await
        .expect("the first connection ends")
        .unwrap()
        .unwrap();

    let second =
        McpServer::new(skills(), skills_embed::tools::Settings::default()).with_options(options);
    let mut second = tokio::spawn(async move {
        let client = connect(second, ()).await;
        client.list_all_tools().await.map(|tools| tools.len())
    });
    // While the run goes on, its request's slot stays taken: the second client is not answered.
    let early = tokio::time::timeout(Duration::from_millis(300), &mut second).await;
    assert!(
        early.is_err(),
        "a second client was answered while the first's script still ran: {early:?}"
    );
    drop(release);
    let tools = tokio::time::timeout(BOUND, second)
        .await
        .expect("answered once the run returned")
        .unwrap()
        .unwrap();
    assert!(tools > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_async_script_ends_when_its_client_closes_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("started");
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/cli-scripts");
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills-cli-scripts"))
        .arg("serve")
        .arg(folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let client = ().serve(transport).await.expect("initialize");
    let peer = client.peer().clone();
    let args = json!({"script": "word-count/wait", "args": {"started": started.to_str().unwrap()}});
    let running = tokio::spawn(async move { peer.call_tool(call(RUN, args)).await });
    until("the script to start", || started.exists()).await;

    // The client closes its end; the script (30 s timeout) is dropped and the server exits.
    client.cancel().await.unwrap();
    assert!(running.await.unwrap().is_err());
    let status = tokio::time::timeout(BOUND, child.wait())
        .await
        .expect("the server exits once its client has gone")
        .unwrap();
    assert!(status.success(), "{status}");
}
