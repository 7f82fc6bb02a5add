//! How the MCP server runs a connection's session: a script that takes its time runs off the
//! runtime's threads, so other clients are answered meanwhile, even on a single-threaded
//! runtime (what `run_stdio` uses), and the calls of one connection take turns.

use crate::common::{call, connect, text};

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use skills_embed::mcp::McpServer;

skills_embed::skills!("../fixtures/slow-script", scripts = { "slow" => [wait] });

/// Set by `wait` when it is done.
static DONE: AtomicBool = AtomicBool::new(false);

/// Takes nothing.
#[derive(Deserialize, JsonSchema)]
struct Nothing {}

/// Blocks its thread for a second, as a script doing real work does.
fn wait(_: Nothing) -> Result<&'static str, String> {
    std::thread::sleep(Duration::from_secs(1));
    DONE.store(true, Ordering::SeqCst);
    Ok("waited")
}

#[tokio::test(flavor = "current_thread")]
async fn a_running_script_holds_up_no_other_client() {
    let slow = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let other = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let running = tokio::spawn(async move {
        slow.call_tool(call(
            "run_skill_script",
            json!({"script": "slow/wait", "args": {}}),
        ))
        .await
    });
    // The script has started (its call went out) before the other client asks.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let loaded = other
        .call_tool(call("load_skill", json!({"skill": "slow"})))
        .await
        .expect("a result");
    assert!(
        !DONE.load(Ordering::SeqCst),
        "the other client was answered only after the script ended"
    );
    assert!(text(&loaded).contains("Run [the wait](script:wait)"));
    let ran = running.await.unwrap().expect("a result");
    assert_eq!(text(&ran), "[Script: slow/wait]\n\nwaited");
    assert!(DONE.load(Ordering::SeqCst));
}
