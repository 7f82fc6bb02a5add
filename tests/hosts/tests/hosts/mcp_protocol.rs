//! The MCP server's protocol surface (issue 16 item 3): unknown tools are JSON-RPC errors
//! (-32602); arguments that do not fit a tool's schema (from 2025-11-25 on, issue 30) and a known
//! tool naming a missing skill are tool results with `isError`; `logging/setLevel` and the log notifications; `resources/subscribe`
//! and `notifications/resources/updated` on a live set; capabilities that list exactly that.
#![allow(
    deprecated,
    reason = "rmcp deprecates logging and subscriptions for protocol 2026-07-28"
)]

use crate::common::{call, connect};

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ClientHandler;
use rmcp::model::{
    CallToolRequestParams, LoggingLevel, LoggingMessageNotificationParam,
    ResourceUpdatedNotificationParam, SetLevelRequestParams, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RoleClient, ServiceError};
use serde_json::json;
use skills_embed::listing::ListingFormat;
use skills_embed::mcp::McpServer;
use skills_embed::policy::{Answer, Permissions};
use skills_embed::{Fields, Skill, SkillSet};

skills_embed::skills!("../../skills/examples/skills");

/// A client that records log lines and resource updates.
#[derive(Clone, Default)]
struct Client {
    logs: Arc<Mutex<Vec<(LoggingLevel, String)>>>,
    updated: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Client {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let text = params.data.as_str().unwrap_or_default().to_owned();
        self.logs.lock().unwrap().push((params.level, text));
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.updated.lock().unwrap().push(params.uri);
    }
}

fn error_code(error: ServiceError) -> (i32, String) {
    match error {
        ServiceError::McpError(data) => (data.code.0, data.message.into_owned()),
        other => panic!("expected an MCP error answer, got {other}"),
    }
}

/// Waits up to two seconds for `done`.
async fn eventually(done: impl Fn() -> bool) -> bool {
    for _ in 0..200 {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    done()
}

fn owned(name: &str, body: &str) -> Skill {
    let fields = Fields {
        name: name.into(),
        description: format!("The {name} skill. Use when testing."),
        ..Fields::default()
    };
    Skill::owned(fields, body.to_owned(), Vec::new())
}

fn set_of(skills: Vec<Skill>) -> Arc<SkillSet> {
    Arc::new(SkillSet::from_skills(skills, &ListingFormat::Markdown))
}

#[tokio::test(flavor = "current_thread")]
async fn unknown_tools_are_protocol_errors_and_bad_arguments_tool_errors() {
    let client = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;

    let (code, message) = error_code(
        client
            .call_tool(call("rm_rf", json!({})))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32602, "{message}");
    assert!(
        message.contains("Unknown tool \"rm_rf\". The tools are: load_skill."),
        "{message}"
    );

    // Arguments that do not fit the schema: a missing `skill`, a number for a string, no
    // arguments at all. At 2025-11-25 (this client's), a tool error the model can read.
    for bad in [
        json!({}),
        json!({"skill": 42}),
        json!({"skill": "pdf-forms", "offset": "x"}),
    ] {
        let answer = client
            .call_tool(call("load_skill", bad.clone()))
            .await
            .unwrap();
        assert_eq!(answer.is_error, Some(true), "{bad}");
    }
    let answer = client
        .call_tool(CallToolRequestParams::new("load_skill"))
        .await
        .unwrap();
    assert_eq!(answer.is_error, Some(true));

    // A known tool with well-formed arguments naming what does not exist: a tool error the
    // model can read and correct.
    let missing = client
        .call_tool(call("load_skill", json!({"skill": "pdf-form"})))
        .await
        .unwrap();
    assert_eq!(missing.is_error, Some(true));
    let missing = client
        .call_tool(call(
            "load_skill",
            json!({"skill": "pdf-forms", "path": "nope.md"}),
        ))
        .await
        .unwrap();
    assert_eq!(missing.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn with_no_skill_visible_every_tool_is_unknown() {
    let server = McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny("*"),
            ..skills_embed::tools::Settings::default()
        },
    );
    let client = connect(server, ()).await;
    assert!(client.list_all_tools().await.unwrap().is_empty());
    let (code, message) = error_code(
        client
            .call_tool(call("load_skill", json!({"skill": "pdf-forms"})))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32602);
    assert!(message.contains("offers no tool now"), "{message}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn capabilities_list_what_is_served() {
    let fixed = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let info = fixed.peer_info().unwrap().capabilities.clone();
    assert!(info.logging.is_some());
    let resources = info.resources.unwrap();
    assert_eq!(resources.subscribe, None, "a fixed set cannot change");
    // So subscribing is a method this server does not serve.
    let (code, _) = error_code(
        fixed
            .subscribe(SubscribeRequestParams::new("skill://pdf-forms/SKILL.md"))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32601);
    fixed.cancel().await.unwrap();

    let set = set_of(vec![owned("a", "A.\n")]);
    let live = connect(
        McpServer::new(
            skills_embed::tools::Source::live(move || Arc::clone(&set)),
            skills_embed::tools::Settings::default(),
        ),
        (),
    )
    .await;
    let info = live.peer_info().unwrap().capabilities.clone();
    let resources = info.resources.unwrap();
    assert_eq!(resources.subscribe, Some(true));
    assert_eq!(resources.list_changed, Some(true));
    assert!(info.logging.is_some());
    live.cancel().await.unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn approvals_asked_and_refused_loads_are_logged_at_the_level_set() {
    let server = McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask("release-notes"),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval(|_skill| async { Answer::Reject }),
    );
    let handler = Client::default();
    let logs = Arc::clone(&handler.logs);
    let client = connect(server, handler).await;

    // Nothing is logged before the client sets a level.
    let first = client
        .call_tool(call("load_skill", json!({"skill": "release-notes"})))
        .await
        .unwrap();
    assert_eq!(first.is_error, Some(true));
    client.list_all_tools().await.unwrap();
    assert!(logs.lock().unwrap().is_empty());

    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Notice))
        .await
        .unwrap();
    client
        .call_tool(call("load_skill", json!({"skill": "release-notes"})))
        .await
        .unwrap();
    assert!(eventually(|| logs.lock().unwrap().len() >= 2).await);
    let got = logs.lock().unwrap().clone();
    assert_eq!(got[0].0, LoggingLevel::Notice);
    assert!(
        got[0].1.contains("approve loading skill \"release-notes\""),
        "{got:?}"
    );
    assert_eq!(got[1].0, LoggingLevel::Warning);
    assert!(
        got[1].1.contains("\"release-notes\" was refused"),
        "{got:?}"
    );

    // At `error`, neither is sent.
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Error))
        .await
        .unwrap();
    client
        .call_tool(call("load_skill", json!({"skill": "release-notes"})))
        .await
        .unwrap();
    client.list_all_tools().await.unwrap();
    assert_eq!(logs.lock().unwrap().len(), 2);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscribed_file_that_changes_is_told_without_a_request() {
    let current = Arc::new(Mutex::new(set_of(vec![
        owned("a", "First body.\n"),
        owned("b", "B.\n"),
    ])));
    let shared = Arc::clone(&current);
    let server = McpServer::new(
        skills_embed::tools::Source::live(move || Arc::clone(&shared.lock().unwrap())),
        skills_embed::tools::Settings::default(),
    );
    let handler = Client::default();
    let (updated, logs) = (Arc::clone(&handler.updated), Arc::clone(&handler.logs));
    let client = connect(server, handler).await;
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .unwrap();

    // A URI that names no file is refused.
    let (code, _) = error_code(
        client
            .subscribe(SubscribeRequestParams::new("skill://a/nope.md"))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32002);
    for uri in ["skill://a/SKILL.md", "skill://b/SKILL.md"] {
        client
            .subscribe(SubscribeRequestParams::new(uri))
            .await
            .unwrap();
    }

    // `a` changes: its subscriber hears of it, with no request of its own; `b` did not change.
    *current.lock().unwrap() = set_of(vec![owned("a", "Second body.\n"), owned("b", "B.\n")]);
    assert!(eventually(|| !updated.lock().unwrap().is_empty()).await);
    assert_eq!(*updated.lock().unwrap(), ["skill://a/SKILL.md"]);
    assert!(
        eventually(|| logs
            .lock()
            .unwrap()
            .iter()
            .any(|(level, text)| *level == LoggingLevel::Info && text.contains("reloaded")))
        .await
    );

    // Unsubscribed from `a`, a second change is not told.
    client
        .unsubscribe(UnsubscribeRequestParams::new("skill://a/SKILL.md"))
        .await
        .unwrap();
    *current.lock().unwrap() = set_of(vec![owned("a", "Third body.\n"), owned("b", "B.\n")]);
    client.list_all_resources().await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(updated.lock().unwrap().len(), 1);
    client.cancel().await.unwrap();
}
