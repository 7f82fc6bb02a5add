//! Skills' Rust scripts through the hosts (issue 17, item 4): the MCP server lists the run tool
//! and runs it through `tools/call`, and rig's dynamic tools expose and run it, both with
//! script errors answered as tool errors and `ask` scripts going through the approval hook.

use crate::common::{call, connect, text};

use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use skills_embed::mcp::McpServer;
use skills_embed::policy::{Answer, Permissions};
use skills_embed::rig::SkillTools;
use skills_embed::tools::{Settings, ToolStyle};

skills_embed::skills!(
    "../fixtures/scripts",
    dialects = [claude_code],
    scripts = {
        "calc" => [add, fail, boom],
        "guarded" => [approved, other],
        "hidden" => [secret],
    },
);

const RUN: &str = "run_skill_script";

/// Adds two numbers.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Sum {
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
}

fn add(args: Sum) -> Result<i64, String> {
    args.a
        .checked_add(args.b)
        .ok_or_else(|| "the sum overflows".to_owned())
}

fn fail(args: Sum) -> Result<String, String> {
    Err(format!("no luck with {} and {}", args.a, args.b))
}

/// Takes nothing.
#[derive(Deserialize, JsonSchema)]
struct Nothing {}

fn boom(_: Nothing) -> Result<String, String> {
    panic!("boom went the script")
}

fn approved(_: Nothing) -> Result<&'static str, String> {
    Ok("approved ran")
}

fn other(_: Nothing) -> Result<&'static str, String> {
    Ok("other ran")
}

fn secret(_: Nothing) -> Result<&'static str, String> {
    Ok("the secret")
}

const PAIRS: [&str; 5] = [
    "calc/add",
    "calc/boom",
    "calc/fail",
    "guarded/approved",
    "guarded/other",
];

// ----- MCP -----

#[tokio::test(flavor = "current_thread")]
async fn mcp_lists_the_run_tool() {
    let client = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["load_skill", RUN]);
    let schema = Value::Object((*tools[1].input_schema).clone());
    assert_eq!(schema["properties"]["script"]["enum"], json!(PAIRS));
    assert_eq!(schema["properties"]["args"]["type"], "object");
    assert!(
        tools[1]
            .description
            .as_deref()
            .unwrap()
            .contains("- calc/add: Adds two numbers.")
    );

    // The split style: one tool per script, its schema the script's own.
    let split = McpServer::new(
        &SKILLS,
        Settings {
            style: ToolStyle::Split,
            ..Settings::default()
        },
    );
    let client = connect(split, ()).await;
    let tools = client.list_all_tools().await.unwrap();
    let add = tools
        .iter()
        .find(|t| t.name == "calc__add")
        .expect("a tool per script");
    assert_eq!(
        Value::Object((*add.input_schema).clone()),
        SKILLS.script("calc", "add").unwrap().schema()
    );
    assert!(tools.iter().all(|t| t.name != "hidden__secret"));
}

#[tokio::test(flavor = "current_thread")]
async fn mcp_runs_a_script_through_tools_call() {
    let client = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let ok = client
        .call_tool(call(
            RUN,
            json!({"script": "calc/add", "args": {"a": 2, "b": 3}}),
        ))
        .await
        .expect("a result, not a protocol error");
    assert_ne!(ok.is_error, Some(true), "{}", text(&ok));
    assert_eq!(text(&ok), "[Script: calc/add]\n\n5");

    // The script's own error: a result with `isError`, the text for the model.
    let failed = client
        .call_tool(call(
            RUN,
            json!({"script": "calc/fail", "args": {"a": 1, "b": 2}}),
        ))
        .await
        .expect("a result, not a protocol error");
    assert_eq!(failed.is_error, Some(true));
    assert_eq!(
        text(&failed),
        "[Script: calc/fail]\n\nThe script failed: no luck with 1 and 2"
    );

    // Arguments that do not fit the script's schema, and a panic: results with `isError`.
    let wrong = client
        .call_tool(call(RUN, json!({"script": "calc/add", "args": {"a": "x"}})))
        .await
        .expect("a result, not a protocol error");
    assert_eq!(wrong.is_error, Some(true));
    assert!(text(&wrong).contains("Send arguments matching this JSON Schema"));
    let panicked = client
        .call_tool(call(RUN, json!({"script": "calc/boom", "args": {}})))
        .await
        .expect("a result, not a protocol error");
    assert_eq!(panicked.is_error, Some(true));
    assert!(text(&panicked).contains("a panic: boom went the script"));
    // The server goes on.
    let again = client
        .call_tool(call(
            RUN,
            json!({"script": "calc/add", "args": {"a": 1, "b": 1}}),
        ))
        .await
        .unwrap();
    assert_eq!(text(&again), "[Script: calc/add]\n\n2");
}

#[tokio::test(flavor = "current_thread")]
async fn mcp_runs_a_split_script_tool() {
    let split = McpServer::new(
        &SKILLS,
        Settings {
            style: ToolStyle::Split,
            ..Settings::default()
        },
    );
    let client = connect(split, ()).await;
    let ok = client
        .call_tool(call("calc__add", json!({"a": 7, "b": 8})))
        .await
        .expect("a result, not a protocol error");
    assert_eq!(text(&ok), "[Script: calc/add]\n\n15");
}

#[tokio::test(flavor = "current_thread")]
async fn mcp_asks_before_an_ask_script_runs() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let server = McpServer::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask("calc/add"),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval({
            let asked = Arc::clone(&asked);
            move |subject| {
                asked.lock().unwrap().push(subject.to_string());
                async { Answer::Always }
            }
        }),
    );
    let client = connect(server, ()).await;
    for _ in 0..2 {
        let ok = client
            .call_tool(call(
                RUN,
                json!({"script": "calc/add", "args": {"a": 2, "b": 2}}),
            ))
            .await
            .expect("a result, not a protocol error");
        assert_eq!(text(&ok), "[Script: calc/add]\n\n4");
    }
    // Asked once, about the script: `always` holds for the second run.
    assert_eq!(*asked.lock().unwrap(), ["calc/add"]);
}

#[tokio::test(flavor = "current_thread")]
async fn mcp_refuses_a_script_call_it_cannot_take() {
    // A split-style script tool called on a server of the unified style is not offered: a
    // protocol error naming the tools, and the server goes on.
    let client = connect(
        McpServer::new(&SKILLS, skills_embed::tools::Settings::default()),
        (),
    )
    .await;
    let error = client
        .call_tool(call("calc__add", json!({"a": 1, "b": 2})))
        .await
        .unwrap_err();
    let message = error.to_string();
    assert!(message.contains("Unknown tool \"calc__add\""), "{message}");
    assert!(message.contains(RUN), "{message}");
    let load = client
        .call_tool(call("load_skill", json!({"skill": "calc"})))
        .await
        .unwrap();
    assert!(
        text(&load).contains("run [the adder](script:add)"),
        "{}",
        text(&load)
    );
}

// ----- rig -----

#[tokio::test(flavor = "current_thread")]
async fn rig_dynamic_tools_expose_and_run_scripts() {
    let tools = SkillTools::new(&SKILLS, skills_embed::tools::Settings::default()).tools();
    let names: Vec<String> = tools.iter().map(|t| t.name().to_string()).collect();
    assert_eq!(names, ["load_skill", RUN]);
    let run = &tools[1];
    assert_eq!(
        run.definition().parameters["properties"]["script"]["enum"],
        json!(PAIRS)
    );

    let out = run
        .execute(json!({"script": "calc/add", "args": {"a": 2, "b": 3}}))
        .await
        .expect("the script ran");
    assert_eq!(out.as_text().unwrap(), "[Script: calc/add]\n\n5");

    // A script's error, wrong arguments, a panic and an unknown script: tool errors whose text
    // tells the model what happened.
    for (arguments, expected) in [
        (
            json!({"script": "calc/fail", "args": {"a": 1, "b": 2}}),
            "The script failed: no luck with 1 and 2",
        ),
        (
            json!({"script": "calc/add", "args": {"a": "x", "b": 1}}),
            "Send arguments matching this JSON Schema",
        ),
        (
            json!({"script": "calc/boom", "args": {}}),
            "a panic: boom went the script",
        ),
        (
            json!({"script": "calc/ad", "args": {}}),
            "Did you mean \"add\"?",
        ),
        (
            json!({"script": "hidden/secret", "args": {}}),
            "Skill \"hidden\" not found",
        ),
        (
            json!({"script": "calc/add", "args": [1, 2]}),
            "\"args\" must be a JSON object, not an array.",
        ),
    ] {
        let error = run.execute(arguments.clone()).await.unwrap_err();
        let message = error.to_string();
        assert!(message.contains(expected), "{arguments}: {message}");
    }
    // The agent goes on after the panic.
    let out = run
        .execute(json!({"script": "calc/add", "args": {"a": 1, "b": 1}}))
        .await
        .unwrap();
    assert_eq!(out.as_text().unwrap(), "[Script: calc/add]\n\n2");
}

#[tokio::test(flavor = "current_thread")]
async fn rig_split_tools_run_scripts() {
    let tools = SkillTools::new(
        &SKILLS,
        Settings {
            style: ToolStyle::Split,
            ..Settings::default()
        },
    )
    .tools();
    let add = tools
        .iter()
        .find(|t| *t.name() == "calc__add")
        .expect("a tool per script");
    assert_eq!(
        add.definition().parameters,
        SKILLS.script("calc", "add").unwrap().schema()
    );
    assert!(tools.iter().all(|t| *t.name() != "hidden__secret"));
    let out = add.execute(json!({"a": 7, "b": 8})).await.unwrap();
    assert_eq!(out.as_text().unwrap(), "[Script: calc/add]\n\n15");
    let error = add.execute(json!({"a": 7})).await.unwrap_err();
    assert!(error.to_string().contains("missing field `b`"), "{error}");
}

#[tokio::test(flavor = "current_thread")]
async fn rig_asks_before_an_ask_script_runs() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let answers = Arc::new(Mutex::new(vec![Answer::Always, Answer::Reject]));
    let tools = SkillTools::new(
        &SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().ask("calc/add").deny("*/boom"),
            ..skills_embed::tools::Settings::default()
        }
        .with_approval({
            let asked = Arc::clone(&asked);
            let answers = Arc::clone(&answers);
            move |subject| {
                asked.lock().unwrap().push(subject.to_string());
                let answer = answers.lock().unwrap().pop().unwrap_or(Answer::Reject);
                async move { answer }
            }
        }),
    )
    .tools();
    let run = tools.iter().find(|t| *t.name() == RUN).unwrap();
    // The denied script is not offered.
    let pairs = &run.definition().parameters["properties"]["script"]["enum"];
    assert!(!pairs.as_array().unwrap().contains(&json!("calc/boom")));

    let args = json!({"script": "calc/add", "args": {"a": 2, "b": 2}});
    // Rejected: refused, with the reason.
    let refused = run.execute(args.clone()).await.unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("The user declined running script \"add\" of skill \"calc\""),
        "{refused}"
    );
    // Always: runs, and is not asked about again.
    let out = run.execute(args.clone()).await.unwrap();
    assert_eq!(out.as_text().unwrap(), "[Script: calc/add]\n\n4");
    let out = run.execute(args).await.unwrap();
    assert_eq!(out.as_text().unwrap(), "[Script: calc/add]\n\n4");
    assert_eq!(*asked.lock().unwrap(), ["calc/add", "calc/add"]);
    // Other scripts are not asked about.
    let out = run
        .execute(json!({"script": "guarded/other", "args": {}}))
        .await
        .unwrap();
    assert_eq!(
        out.as_text().unwrap(),
        "[Script: guarded/other]\n\nother ran"
    );
    assert_eq!(asked.lock().unwrap().len(), 2);
}

// ----- script files through a host's runner -----

mod examples {
    skills_embed::skills!("../../skills/examples/skills");
}

/// Runs nothing: says what it was given, as a sandbox's runner would report a run.
struct DryRun;

impl skills_embed::tools::FileRunner for DryRun {
    fn run(
        &self,
        run: skills_embed::tools::FileRun<'_>,
    ) -> Result<String, skills_embed::ScriptError> {
        Ok(format!(
            "ran {}/{} ({} bytes, executable {}) with {:?}",
            run.skill,
            run.path,
            run.contents.len(),
            run.executable,
            run.argv
        ))
    }
}

#[tokio::test(flavor = "current_thread")]
async fn mcp_runs_script_files_through_the_hosts_runner() {
    let server = McpServer::new(
        &examples::SKILLS,
        skills_embed::tools::Settings::default().with_file_runner(Arc::new(DryRun)),
    );
    let client = connect(server, ()).await;
    let tools = client.list_all_tools().await.unwrap();
    let run = tools.iter().find(|t| t.name == RUN).expect("a run tool");
    let schema = Value::Object((*run.input_schema).clone());
    let pairs = schema["properties"]["script"]["enum"].as_array().unwrap();
    assert!(
        pairs.contains(&json!("release-notes/scripts/changelog.sh")),
        "{pairs:?}"
    );
    let out = client
        .call_tool(call(
            RUN,
            json!({"script": "release-notes/scripts/changelog.sh", "args": {"argv": ["v2.3.0"]}}),
        ))
        .await
        .unwrap();
    assert_eq!(out.is_error, Some(false));
    let body = text(&out);
    let expected = examples::SKILLS
        .get("release-notes")
        .unwrap()
        .load("scripts/changelog.sh")
        .unwrap()
        .len();
    assert!(
        body.ends_with(&format!(
            "ran release-notes/scripts/changelog.sh ({expected} bytes, executable true) with [\"v2.3.0\"]"
        )),
        "{body}"
    );

    // A script rule on the path hides the file as it hides a Rust script.
    let denied = McpServer::new(
        &examples::SKILLS,
        skills_embed::tools::Settings {
            permissions: Permissions::new().deny("release-notes/scripts/*"),
            ..skills_embed::tools::Settings::default()
        }
        .with_file_runner(Arc::new(DryRun)),
    );
    let client = connect(denied, ()).await;
    let tools = client.list_all_tools().await.unwrap();
    let listed: Vec<String> = tools
        .iter()
        .filter(|t| t.name == RUN)
        .map(|t| Value::Object((*t.input_schema).clone()).to_string())
        .collect();
    assert!(
        listed.iter().all(|s| !s.contains("release-notes/scripts")),
        "{listed:?}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn rig_dynamic_tools_run_script_files_through_the_runner() {
    let tools = SkillTools::new(
        &examples::SKILLS,
        skills_embed::tools::Settings::default().with_file_runner(Arc::new(DryRun)),
    )
    .tools();
    let run = tools.iter().find(|t| t.name() == RUN).expect("a run tool");
    let out = run
        .execute(json!({"script": "release-notes/scripts/changelog.sh", "args": {"argv": []}}))
        .await
        .expect("the runner ran it");
    let text = out.as_text().unwrap();
    assert!(
        text.contains("ran release-notes/scripts/changelog.sh"),
        "{text}"
    );
}
