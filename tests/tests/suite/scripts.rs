//! Skills' Rust scripts through the tools (issue 17): the run tool's definitions in both styles,
//! running, every kind of failure answered as a tool error (wrong arguments, unknown scripts,
//! panics, timeouts), output cut at `max_chars`, permissions and approvals bound to content,
//! session events, `allowed-tools: Script(name)`, and invocation. Then property tests that
//! feed the run tools arbitrary JSON and arbitrary text: an answer every time, never a panic.
//!
//! The set is `fixtures/scripts`: `calc` (plain and `async` scripts), `guarded` (its
//! `allowed-tools` names `Script(approved)`) and `hidden` (the model may not invoke it).

use std::time::Duration;

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use skills_embed::listing::ListingFormat;
use skills_embed::policy::{Answer, Permissions};
use skills_embed::tools::{Event, Session, Settings, ToolOutput, ToolStyle, Tools};
use skills_embed::{Fields, Script, Skill, SkillSet};

skills_embed::skills!(
    "fixtures/scripts",
    dialects = [claude_code],
    scripts = {
        "calc" => [add, echo, boom, fail, async slow, async later],
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

/// Says a text back, `times` times.
#[derive(Deserialize, JsonSchema)]
struct Echo {
    /// The text.
    text: String,
    /// How many times (1 when left out, at most 1000).
    times: Option<u32>,
}

fn echo(args: Echo) -> Result<String, String> {
    Ok(args.text.repeat(args.times.unwrap_or(1).min(1000) as usize))
}

/// Takes nothing.
#[derive(Deserialize, JsonSchema)]
struct Nothing {}

fn boom(_: Nothing) -> Result<String, String> {
    panic!("boom went the script")
}

fn fail(args: Sum) -> Result<String, String> {
    Err(format!("no luck with {} and {}", args.a, args.b))
}

async fn slow(_: Sum) -> Result<String, String> {
    std::future::pending().await
}

async fn later(args: Sum) -> Result<i64, String> {
    Ok(args.a.wrapping_sub(args.b))
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

/// The model-visible pairs, in the order the enum lists them.
const PAIRS: [&str; 8] = [
    "calc/add",
    "calc/boom",
    "calc/echo",
    "calc/fail",
    "calc/later",
    "calc/slow",
    "guarded/approved",
    "guarded/other",
];

fn run_args(script: &str, args: Value) -> String {
    json!({"script": script, "args": args}).to_string()
}

fn run(tools: &Tools, script: &str, args: Value) -> ToolOutput {
    tools.handle(RUN, &run_args(script, args))
}

fn split() -> Settings {
    Settings {
        style: ToolStyle::Split,
        ..Settings::default()
    }
}

// ----- definitions -----

#[test]
fn the_unified_run_tool_lists_every_visible_pair() {
    let tools = Tools::new(&SKILLS, Settings::default());
    let definitions = tools.definitions();
    let names: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["load_skill", RUN]);
    let run = &definitions[1];
    let schema = run.json_schema();
    assert_eq!(schema["properties"]["script"]["enum"], json!(PAIRS));
    assert_eq!(schema["properties"]["args"]["type"], "object");
    let required = schema["required"].as_array().unwrap();
    assert!(required.contains(&json!("script")) && required.contains(&json!("args")));
    // Each script is described with its doc comment and its arguments' schema.
    assert!(
        run.description.contains("- calc/add: Adds two numbers."),
        "{}",
        run.description
    );
    assert!(run.description.contains(r#""a":{"#), "{}", run.description);
    assert!(!run.description.contains("hidden/secret"));
    // `args` is an open object, which OpenAI's strict mode cannot hold.
    let openai = run.to_openai();
    assert_eq!(openai["function"]["name"], RUN);
    assert_eq!(openai["function"]["strict"], false);
    // The load tool is still strict.
    assert_eq!(definitions[0].to_openai()["function"]["strict"], true);
}

/// The two ways issue 17 named to close the `script` argument per skill, checked against the
/// strict-mode rules `strict_compatible` encodes (OpenAI's: no `oneOf`, every object closed and
/// fully required): the one enum of `skill/script` pairs passes, a `oneOf` with a branch per
/// skill does not. This is the offline measure; the providers' live APIs were not reachable.
#[test]
fn the_pair_enum_passes_strict_rules_and_a_one_of_per_skill_does_not() {
    use skills_embed::__private::strict_compatible;
    let tools = Tools::new(&SKILLS, Settings::default());
    let run = tools
        .definitions()
        .into_iter()
        .find(|d| d.name == RUN)
        .unwrap();
    let schema = run.json_schema();
    assert!(strict_compatible(&schema["properties"]["script"]));
    let closed = json!({
        "type": "object",
        "properties": {"script": schema["properties"]["script"].clone()},
        "required": ["script"],
        "additionalProperties": false,
    });
    assert!(strict_compatible(&closed));

    let branch = |skill: &str, scripts: Vec<&str>| {
        json!({
            "type": "object",
            "properties": {"skill": {"const": skill}, "script": {"enum": scripts}},
            "required": ["skill", "script"],
            "additionalProperties": false,
        })
    };
    let one_of = json!({
        "type": "object",
        "properties": {"call": {"oneOf": [
            branch("calc", vec!["add", "echo"]),
            branch("guarded", vec!["approved", "other"]),
        ]}},
        "required": ["call"],
        "additionalProperties": false,
    });
    assert!(!strict_compatible(&one_of));
}

#[test]
fn the_split_style_gives_one_tool_per_script_with_its_own_schema() {
    let tools = Tools::new(&SKILLS, split());
    let definitions = tools.definitions();
    let names: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "read_skill",
            "read_skill_resource",
            "load_skill_chunk",
            "calc__add",
            "calc__boom",
            "calc__echo",
            "calc__fail",
            "calc__later",
            "calc__slow",
            "guarded__approved",
            "guarded__other",
        ]
    );
    let add = definitions.iter().find(|d| d.name == "calc__add").unwrap();
    let schema = add.json_schema();
    assert_eq!(schema, SKILLS.script("calc", "add").unwrap().schema());
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["additionalProperties"], false);
    assert!(schema.get("$schema").is_none() && schema.get("title").is_none());
    assert!(add.description.starts_with("Adds two numbers."));
    assert!(add.description.contains(r#"Script "add" of skill "calc""#));
    // Every property required, no other allowed: strict as it is.
    assert_eq!(add.to_openai()["function"]["strict"], true);
    assert_eq!(add.to_openai()["function"]["parameters"], schema);
    // An optional field (and no `deny_unknown_fields`): sent with strict off.
    let echo = definitions.iter().find(|d| d.name == "calc__echo").unwrap();
    assert_eq!(echo.to_openai()["function"]["strict"], false);
}

#[test]
fn no_run_tool_without_scripts() {
    let plain = SkillSet::from_skills(vec![owned("plain", "Body.\n")], &ListingFormat::Markdown);
    let tools = Tools::new(plain.clone(), Settings::default());
    let names: Vec<String> = tools.definitions().into_iter().map(|d| d.name).collect();
    assert_eq!(names, ["load_skill"]);
    let out = tools.handle(RUN, &run_args("plain/x", json!({})));
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Skill \"plain\" has no script \"x\". It has no scripts you can run; follow its \
         instructions instead."
    );
}

// ----- running -----

#[test]
fn a_script_runs_in_every_form_a_model_sends() {
    let tools = Tools::new(&SKILLS, Settings::default());
    let out = run(&tools, "calc/add", json!({"a": 2, "b": 3}));
    assert!(!out.is_error, "{}", out.text);
    assert_eq!(out.text, "[Script: calc/add]\n\n5");
    assert!(out.approval.is_none());

    // `args` as a string holding the object, and `skill` given apart.
    let out = tools.handle(
        RUN,
        r#"{"script": "calc/add", "args": "{\"a\": 40, \"b\": 2}"}"#,
    );
    assert_eq!(out.text, "[Script: calc/add]\n\n42");
    let out = tools.handle(
        RUN,
        r#"{"skill": "calc", "script": "add", "args": {"a": 1, "b": 1}}"#,
    );
    assert_eq!(out.text, "[Script: calc/add]\n\n2");

    // An `async` script that finishes, and a script's own error.
    let out = run(&tools, "calc/later", json!({"a": 10, "b": 4}));
    assert_eq!(out.text, "[Script: calc/later]\n\n6");
    let out = run(&tools, "calc/fail", json!({"a": 1, "b": 2}));
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "[Script: calc/fail]\n\nThe script failed: no luck with 1 and 2"
    );
    let out = run(&tools, "calc/add", json!({"a": i64::MAX, "b": 1}));
    assert!(out.is_error && out.text.ends_with("The script failed: the sum overflows"));

    // The split style's tool takes the script's own arguments.
    let split = Tools::new(&SKILLS, split());
    let out = split.handle("calc__add", r#"{"a": 7, "b": 8}"#);
    assert_eq!(out.text, "[Script: calc/add]\n\n15");
    let out = split.handle("calc__echo", r#"{"text": "hi", "times": 3}"#);
    assert_eq!(out.text, "[Script: calc/echo]\n\nhihihi");
    // The unified run tool is not offered in the split style, but still answered (as
    // `load_skill` is), for a model that remembers it.
    assert!(split.definitions().iter().all(|d| d.name != RUN));
    let out = split.handle(RUN, &run_args("calc/add", json!({"a": 1, "b": 1})));
    assert_eq!(out.text, "[Script: calc/add]\n\n2");
}

#[test]
fn wrong_arguments_are_answered_with_the_schema() {
    let tools = Tools::new(&SKILLS, Settings::default());
    let schema = SKILLS.script("calc", "add").unwrap().schema().to_string();
    for (args, problem) in [
        (
            json!({"a": "x", "b": 1}),
            "invalid type: string \"x\", expected i64",
        ),
        (json!({"a": 1}), "missing field `b`"),
        (json!({"a": 1, "b": 2, "c": 3}), "unknown field `c`"),
        (json!({"a": 1.5, "b": 2}), "invalid type: floating point"),
    ] {
        let out = run(&tools, "calc/add", args.clone());
        assert!(out.is_error, "{args}");
        assert!(
            out.text
                .starts_with("[Script: calc/add]\n\nThe arguments do not fit the script: "),
            "{}",
            out.text
        );
        assert!(out.text.contains(problem), "{args}: {}", out.text);
        assert!(
            out.text.contains(&format!(
                "Send arguments matching this JSON Schema: {schema}"
            )),
            "{args}: {}",
            out.text
        );
    }
    // Arguments that are not an object are the run tool's own error.
    let out = tools.handle(RUN, r#"{"script": "calc/add", "args": [1, 2]}"#);
    assert!(out.is_error);
    assert!(
        out.text
            .starts_with("\"args\" must be a JSON object, not an array."),
        "{}",
        out.text
    );
    let out = tools.handle(RUN, r#"{"script": "calc/add", "args": "not json"}"#);
    assert!(
        out.is_error
            && out
                .text
                .contains("\"args\": The arguments are not valid JSON")
    );
    // No arguments at all: an empty object, which `add` does not accept.
    let out = tools.handle(RUN, r#"{"script": "calc/add"}"#);
    assert!(
        out.is_error && out.text.contains("missing field `a`"),
        "{}",
        out.text
    );
    // The split tool: the same answer.
    let split = Tools::new(&SKILLS, split());
    let out = split.handle("calc__add", r#"{"a": true, "b": 1}"#);
    assert!(out.is_error && out.text.contains(&schema), "{}", out.text);
}

#[test]
fn unknown_scripts_and_skills_say_what_exists() {
    let tools = Tools::new(&SKILLS, Settings::default());
    let out = run(&tools, "calc/ad", json!({}));
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Skill \"calc\" has no script \"ad\". Its scripts: \"add\", \"boom\", \"echo\", \
         \"fail\", \"later\", \"slow\". Did you mean \"add\"?"
    );
    let out = run(&tools, "calk/add", json!({}));
    assert!(out.is_error);
    assert!(out.text.contains("Did you mean \"calc\"?"), "{}", out.text);
    // A script without its skill.
    let out = run(&tools, "add", json!({}));
    assert!(out.is_error);
    assert!(
        out.text
            .starts_with("\"script\" must name the skill too, as \"skill/script\"; got \"add\"."),
        "{}",
        out.text
    );
    let out = tools.handle(RUN, r#"{"args": {}}"#);
    assert!(
        out.is_error && out.text.starts_with("Missing \"script\"."),
        "{}",
        out.text
    );
    // A split tool that does not exist.
    let split = Tools::new(&SKILLS, split());
    let out = split.handle("calc__sub", "{}");
    assert!(out.is_error);
    assert!(out.text.contains("calc__add"), "{}", out.text);
}

#[test]
fn a_panic_is_caught_and_the_agent_goes_on() {
    let tools = Tools::new(&SKILLS, Settings::default());
    let out = run(&tools, "calc/boom", json!({}));
    assert!(out.is_error);
    assert!(
        out.text.starts_with("[Script: calc/boom]\n\n"),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("a panic: boom went the script"),
        "{}",
        out.text
    );
    assert!(out.text.contains("tell the user"), "{}", out.text);
    assert_eq!(
        run(&tools, "calc/add", json!({"a": 1, "b": 1})).text,
        "[Script: calc/add]\n\n2"
    );
}

#[test]
fn an_async_script_is_stopped_at_the_timeout() {
    let tools = Tools::new(
        &SKILLS,
        Settings {
            script_timeout: Duration::from_millis(30),
            ..Settings::default()
        },
    );
    let started = std::time::Instant::now();
    let out = run(&tools, "calc/slow", json!({"a": 1, "b": 2}));
    assert!(started.elapsed() >= Duration::from_millis(30));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "[Script: calc/slow]\n\nThe script did not finish within 30 ms and was stopped. \
         Retry with less work, or tell the user."
    );
    // An `async` script that is ready at once is not affected.
    assert!(!run(&tools, "calc/later", json!({"a": 1, "b": 2})).is_error);
}

#[test]
fn output_is_cut_at_max_chars() {
    let tools = Tools::new(
        &SKILLS,
        Settings {
            max_chars: 100,
            ..Settings::default()
        },
    );
    let out = run(&tools, "calc/echo", json!({"text": "abcde", "times": 1000}));
    assert!(!out.is_error, "{}", out.text);
    let (head, rest) = out.text.split_once("\n\n").unwrap();
    assert_eq!(head, "[Script: calc/echo]");
    let (kept, note) = rest.split_once("\n\n").unwrap();
    assert_eq!(kept, "abcde".repeat(20));
    assert_eq!(
        note,
        "[Output cut at 100 of 5000 characters. Run the script again with arguments that ask \
         for less.]"
    );
    // Output that fits is not cut.
    let out = run(&tools, "calc/echo", json!({"text": "abcde", "times": 20}));
    assert_eq!(
        out.text,
        format!("[Script: calc/echo]\n\n{}", "abcde".repeat(20))
    );
    // A script's long error is cut too.
    let out = run(&tools, "calc/add", json!({"a": "x".repeat(5000), "b": 1}));
    assert!(out.is_error);
    assert!(out.text.chars().count() < 300, "{}", out.text);
}

// ----- permissions -----

#[test]
fn a_denied_script_is_hidden_and_answers_like_an_unknown_one() {
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().deny("*/boom"),
            ..Settings::default()
        },
    );
    let schema = tools.definitions()[1].json_schema();
    let pairs = schema["properties"]["script"]["enum"].as_array().unwrap();
    assert!(!pairs.contains(&json!("calc/boom")));
    assert_eq!(pairs.len(), PAIRS.len() - 1);
    assert!(!tools.definitions()[1].description.contains("calc/boom"));

    let denied = run(&tools, "calc/boom", json!({}));
    let missing = run(&tools, "calc/bomb", json!({}));
    assert!(denied.is_error && missing.is_error);
    let expected = "Its scripts: \"add\", \"echo\", \"fail\", \"later\", \"slow\".";
    assert_eq!(
        denied.text,
        format!("Skill \"calc\" has no script \"boom\". {expected}")
    );
    assert_eq!(
        missing.text,
        format!("Skill \"calc\" has no script \"bomb\". {expected}")
    );
    // Nobody is asked about it, and a session says the same.
    assert!(denied.approval.is_none());
    let mut session = Session::new(tools.clone());
    assert_eq!(
        session.handle(RUN, &run_args("calc/boom", json!({}))).text,
        denied.text
    );
    assert!(session.drain_events().is_empty());

    // The split style: no tool, and the name answers as an unknown tool.
    let split = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().deny("*/boom"),
            ..split()
        },
    );
    assert!(split.definitions().iter().all(|d| d.name != "calc__boom"));
    let out = split.handle("calc__boom", "{}");
    assert!(
        out.is_error && out.text.starts_with("Unknown tool \"calc__boom\""),
        "{}",
        out.text
    );

    // Denying the skill denies its scripts; it is not named.
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().deny("calc"),
            ..Settings::default()
        },
    );
    let schema = tools.definitions()[1].json_schema();
    assert_eq!(
        schema["properties"]["script"]["enum"],
        json!(["guarded/approved", "guarded/other"])
    );
    let out = run(&tools, "calc/add", json!({"a": 1, "b": 1}));
    assert!(out.is_error);
    assert!(
        out.text.contains("Skill \"calc\" not found"),
        "{}",
        out.text
    );
    assert!(!out.text.contains("Did you mean \"calc\""), "{}", out.text);

    // Every script denied: no run tool at all.
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().deny("*/*"),
            ..Settings::default()
        },
    );
    assert!(tools.definitions().iter().all(|d| d.name != RUN));
    assert_eq!(tools.definitions().len(), 1);
}

#[test]
fn ask_waits_for_the_user_and_always_is_remembered() {
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().ask("calc/add"),
            ..Settings::default()
        },
    );
    // Without a session: the answer names what to approve.
    let out = run(&tools, "calc/add", json!({"a": 1, "b": 2}));
    assert_eq!(
        out.approval.as_ref().map(ToString::to_string).as_deref(),
        Some("calc/add")
    );
    assert!(!out.text.contains("[Script:"), "{}", out.text);
    // Other scripts, and loading the skill, are not asked about.
    assert!(
        run(&tools, "calc/later", json!({"a": 1, "b": 2}))
            .approval
            .is_none()
    );
    assert!(
        tools
            .handle("load_skill", r#"{"skill": "calc"}"#)
            .approval
            .is_none()
    );

    let mut session = Session::new(tools);
    let waiting = session.handle(RUN, &run_args("calc/add", json!({"a": 1, "b": 2})));
    assert_eq!(
        waiting
            .approval
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("calc/add")
    );
    assert_eq!(
        session
            .pending_approvals()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["calc/add"]
    );
    assert_eq!(
        session.drain_events(),
        [Event::ApprovalRequested(
            skills_embed::policy::Subject::run("calc", "add")
        )]
    );
    let ran = session
        .answer(
            &skills_embed::policy::Subject::run("calc", "add"),
            Answer::Always,
        )
        .expect("a pending run");
    assert!(!ran.is_error);
    assert_eq!(ran.text, "[Script: calc/add]\n\n3");
    assert_eq!(
        session.drain_events(),
        [Event::ScriptRan {
            skill: "calc".into(),
            script: "add".into(),
            ok: true
        }]
    );
    // Asked once: the second run goes ahead.
    let again = session.handle(RUN, &run_args("calc/add", json!({"a": 5, "b": 5})));
    assert!(again.approval.is_none());
    assert_eq!(again.text, "[Script: calc/add]\n\n10");
    // The grant is for the script, not for its skill's other scripts.
    assert_ne!(session.tools().grants(), &Default::default());

    // A rejection: the run does not happen.
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().ask("calc/*"),
            ..Settings::default()
        },
    );
    let mut session = Session::new(tools);
    let waiting = session.handle(RUN, &run_args("calc/fail", json!({"a": 1, "b": 2})));
    assert_eq!(
        waiting
            .approval
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("calc/fail")
    );
    let declined = session
        .answer(
            &skills_embed::policy::Subject::run("calc", "fail"),
            Answer::Reject,
        )
        .unwrap();
    assert!(declined.is_error, "{}", declined.text);
    assert!(!declined.text.contains("no luck"), "{}", declined.text);
    assert!(
        session
            .drain_events()
            .iter()
            .all(|e| !matches!(e, Event::ScriptRan { .. }))
    );
}

#[test]
fn session_events_say_whether_a_script_ran() {
    let mut session = Session::new(Tools::new(&SKILLS, Settings::default()));
    assert!(
        !session
            .handle(RUN, &run_args("calc/add", json!({"a": 1, "b": 2})))
            .is_error
    );
    assert!(
        session
            .handle(RUN, &run_args("calc/fail", json!({"a": 1, "b": 2})))
            .is_error
    );
    assert!(
        session
            .handle(RUN, &run_args("calc/boom", json!({})))
            .is_error
    );
    assert!(
        session
            .handle(RUN, &run_args("calc/add", json!({"a": "x"})))
            .is_error
    );
    // A script that does not exist never ran.
    assert!(
        session
            .handle(RUN, &run_args("calc/nope", json!({})))
            .is_error
    );
    let events = session.drain_events();
    let ran = |script: &str, ok| Event::ScriptRan {
        skill: "calc".into(),
        script: script.into(),
        ok,
    };
    assert_eq!(
        events,
        [
            ran("add", true),
            ran("fail", false),
            ran("boom", false),
            ran("add", false)
        ]
    );
    assert_eq!(events[0].to_string(), "ran script calc/add");
    assert_eq!(events[1].to_string(), "ran script calc/fail (failed)");
    // Through the split tools too.
    let mut session = Session::new(Tools::new(&SKILLS, split()));
    assert!(
        !session
            .handle("calc__later", r#"{"a": 3, "b": 1}"#)
            .is_error
    );
    assert_eq!(session.drain_events(), [ran("later", true)]);
}

#[test]
fn allowed_tools_pre_approve_a_named_script() {
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().ask("guarded/*"),
            ..Settings::default()
        },
    );
    let out = run(&tools, "guarded/approved", json!({}));
    assert!(out.approval.is_none());
    assert_eq!(out.text, "[Script: guarded/approved]\n\napproved ran");
    let out = run(&tools, "guarded/other", json!({}));
    assert_eq!(
        out.approval.as_ref().map(ToString::to_string).as_deref(),
        Some("guarded/other")
    );
    // A deny rule is not lifted by `allowed-tools`.
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: Permissions::new().deny("guarded/approved"),
            ..Settings::default()
        },
    );
    let out = run(&tools, "guarded/approved", json!({}));
    assert!(
        out.is_error && out.text.contains("has no script \"approved\""),
        "{}",
        out.text
    );
}

/// A skill built in code with the given body.
fn owned(name: &str, body: &str) -> Skill {
    let fields = Fields {
        name: name.into(),
        description: format!("The {name} skill."),
        ..Fields::default()
    };
    Skill::owned(fields, body.into(), Vec::new())
}

#[test]
fn a_grant_is_bound_to_the_skill_content() {
    let with_body = |body: &str| {
        SkillSet::from_skills(vec![owned("calc", body)], &ListingFormat::Markdown)
            .with_scripts([Script::new("calc", "add", add)])
    };
    let first = with_body("Run [the adder](script:add).\n");
    let same = with_body("Run [the adder](script:add).\n");
    let changed = with_body("Run [the adder](script:add), twice.\n");
    let rules = Permissions::new().ask("calc/add");
    let args = run_args("calc/add", json!({"a": 2, "b": 2}));

    let mut session = Session::new(Tools::new(
        first.clone(),
        Settings {
            permissions: rules.clone(),
            ..Settings::default()
        },
    ));
    assert_eq!(
        session
            .handle(RUN, &args)
            .approval
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("calc/add")
    );
    let ran = session
        .answer(
            &skills_embed::policy::Subject::run("calc", "add"),
            Answer::Always,
        )
        .unwrap();
    assert_eq!(ran.text, "[Script: calc/add]\n\n4");
    let grants = session.tools().grants().clone();

    // The same content: no question.
    let tools = Tools::new(
        same.clone(),
        Settings {
            permissions: rules.clone(),
            ..Settings::default()
        },
    )
    .with_grants(grants.clone());
    let out = tools.handle(RUN, &args);
    assert!(out.approval.is_none() && !out.is_error, "{}", out.text);
    // The skill changed: asked again.
    let tools = Tools::new(
        changed.clone(),
        Settings {
            permissions: rules.clone(),
            ..Settings::default()
        },
    )
    .with_grants(grants.clone());
    assert_eq!(
        tools
            .handle(RUN, &args)
            .approval
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("calc/add")
    );
    // A grant for loading the skill does not cover its scripts.
    let mut load_only = skills_embed::policy::Grants::default();
    load_only.answer(
        &skills_embed::policy::Subject::load("calc"),
        first.get("calc").unwrap(),
        Answer::Always,
    );
    let tools = Tools::new(
        first.clone(),
        Settings {
            permissions: Permissions::new().ask("calc"),
            ..Settings::default()
        },
    )
    .with_grants(load_only);
    assert!(
        tools
            .handle("load_skill", r#"{"skill": "calc"}"#)
            .approval
            .is_none()
    );
    assert_eq!(
        tools
            .handle(RUN, &args)
            .approval
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("calc/add")
    );
}

#[test]
fn a_skill_the_model_may_not_invoke_offers_no_scripts() {
    assert!(SKILLS.script("hidden", "secret").is_some());
    let tools = Tools::new(&SKILLS, Settings::default());
    assert!(
        tools
            .definitions()
            .iter()
            .all(|d| !d.json_schema().to_string().contains("hidden/"))
    );
    let out = run(&tools, "hidden/secret", json!({}));
    assert!(out.is_error);
    assert!(
        out.text.contains("Skill \"hidden\" not found"),
        "{}",
        out.text
    );
    assert!(!out.text.contains("the secret"));
    let split = Tools::new(&SKILLS, split());
    assert!(
        split
            .definitions()
            .iter()
            .all(|d| d.name != "hidden__secret")
    );
    assert!(split.handle("hidden__secret", "{}").is_error);

    // A run-time set whose only scripts belong to such a skill gets no run tool.
    let mut fields = Fields {
        name: "deploy".into(),
        description: "Deploys.".into(),
        ..Fields::default()
    };
    fields.invocation.model_may_invoke = false;
    let set = SkillSet::from_skills(
        vec![
            Skill::owned(fields, String::new(), Vec::new()),
            owned("docs", ""),
        ],
        &ListingFormat::Markdown,
    )
    .with_scripts([Script::new("deploy", "secret", secret)]);
    let names: Vec<String> = Tools::new(set.clone(), Settings::default())
        .definitions()
        .into_iter()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, ["load_skill"]);
}

#[test]
fn run_time_scripts_of_a_skill_not_in_the_set_are_never_offered() {
    let set = SkillSet::from_skills(vec![owned("docs", "")], &ListingFormat::Markdown)
        .with_scripts([
            Script::new("docs", "add", add),
            Script::new("ghost", "add", add),
            // The first of two with the same name is kept.
            Script::new("docs", "add", fail),
        ]);
    assert_eq!(set.scripts().len(), 2);
    let tools = Tools::new(set.clone(), Settings::default());
    assert_eq!(
        tools.definitions()[1].json_schema()["properties"]["script"]["enum"],
        json!(["docs/add"])
    );
    let out = tools.handle(RUN, &run_args("docs/add", json!({"a": 1, "b": 2})));
    assert_eq!(out.text, "[Script: docs/add]\n\n3");
    assert!(
        tools
            .handle(RUN, &run_args("ghost/add", json!({"a": 1, "b": 2})))
            .is_error
    );
}

// ----- property tests -----

/// Arbitrary JSON: scalars, strings with any characters, and arrays and objects nested a few
/// levels deep. Keys are drawn partly from the scripts' own field names so some values come
/// close to valid arguments.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        ".{0,24}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..8)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec!["a", "b", "text", "times", "script", "args", "skill"])
            .prop_map(str::to_owned),
        ".{0,12}",
    ]
}

/// A script name as a model might send it: a real pair, a near miss, a denied or hidden one,
/// or anything.
fn script_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(PAIRS.to_vec()).prop_map(str::to_owned),
        prop::sample::select(vec![
            "hidden/secret",
            "calc/ad",
            "calc/",
            "/add",
            "calc",
            "calc/add/x",
            "ghost/add",
            "",
        ])
        .prop_map(str::to_owned),
        ".{0,40}",
    ]
}

fn prop_config() -> Settings {
    Settings {
        max_chars: 2_000,
        // `slow` may get arguments it accepts: it must not hold a case up for long.
        script_timeout: Duration::from_millis(5),
        ..Settings::default()
    }
}

/// What every answer must be (the tools built with the default limits): an error with text to
/// act on, bounded in length; or a script's output, framed.
fn check(out: &ToolOutput) -> Result<(), TestCaseError> {
    let schemas: usize = SKILLS
        .scripts()
        .iter()
        .map(|s| s.schema().to_string().len())
        .sum();
    let bound = 2 * Settings::default().max_chars + schemas + 4_096;
    prop_assert!(
        out.text.chars().count() <= bound,
        "{} chars: {}",
        out.text.len(),
        out.text
    );
    if out.is_error {
        prop_assert!(!out.text.trim().is_empty());
        prop_assert!(out.approval.is_none());
    } else if out.approval.is_none() {
        prop_assert!(out.text.starts_with("[Script: "), "{}", out.text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_run_tool_answers_any_json(script in script_name(), args in json_value()) {
        let tools = Tools::new(&SKILLS, prop_config());
        let out = tools.handle(RUN, &run_args(&script, args.clone()));
        check(&out)?;
        // Anything not a visible pair is an error.
        if !PAIRS.contains(&script.as_str()) {
            prop_assert!(out.is_error, "{script}: {}", out.text);
        }
        // The same call through a session answers the same.
        let mut session = Session::new(tools.clone());
        let again = session.handle(RUN, &run_args(&script, args));
        prop_assert_eq!(again.is_error, out.is_error);
    }

    #[test]
    fn the_run_tool_answers_any_arguments_object(arguments in json_value()) {
        let tools = Tools::new(&SKILLS, prop_config());
        let out = tools.handle(RUN, &arguments.to_string());
        check(&out)?;
    }

    #[test]
    fn the_run_tool_answers_any_text(arguments in ".{0,200}") {
        let tools = Tools::new(&SKILLS, prop_config());
        let out = tools.handle(RUN, &arguments);
        check(&out)?;
        let split = Tools::new(&SKILLS, Settings { style: ToolStyle::Split, ..prop_config() });
        let out = split.handle("calc__add", &arguments);
        check(&out)?;
    }

    #[test]
    fn the_split_tools_answer_any_json(
        tool in prop::sample::select(vec![
            "calc__add", "calc__boom", "calc__echo", "calc__fail", "calc__later", "calc__slow",
            "guarded__approved", "guarded__other", "hidden__secret", "calc__", "__add",
        ]),
        args in json_value(),
    ) {
        let tools = Tools::new(&SKILLS, Settings { style: ToolStyle::Split, ..prop_config() });
        let out = tools.handle(tool, &args.to_string());
        check(&out)?;
        if !args.is_object() {
            prop_assert!(out.is_error);
        }
    }

    #[test]
    fn well_formed_calls_succeed(a in any::<i32>(), b in any::<i32>(), text in ".{0,40}", times in 0u32..50) {
        let tools = Tools::new(&SKILLS, prop_config());
        let sum = i64::from(a) + i64::from(b);
        let out = run(&tools, "calc/add", json!({"a": a, "b": b}));
        prop_assert!(!out.is_error, "{}", out.text);
        prop_assert_eq!(out.text, format!("[Script: calc/add]\n\n{sum}"));
        let out = run(&tools, "calc/later", json!({"a": a, "b": b}));
        prop_assert_eq!(out.text, format!("[Script: calc/later]\n\n{}", i64::from(a) - i64::from(b)));

        let split = Tools::new(&SKILLS, Settings { style: ToolStyle::Split, ..prop_config() });
        let out = split.handle("calc__add", &json!({"a": a, "b": b}).to_string());
        prop_assert_eq!(out.text, format!("[Script: calc/add]\n\n{sum}"));
        let args = json!({"text": text, "times": times});
        let out = split.handle("calc__echo", &args.to_string());
        prop_assert!(!out.is_error, "{}", out.text);
        let expected = text.repeat(times as usize);
        prop_assert!(out.text.starts_with("[Script: calc/echo]\n\n"));
        if expected.chars().count() <= 2_000 {
            prop_assert_eq!(out.text, format!("[Script: calc/echo]\n\n{expected}"));
        } else {
            prop_assert!(out.text.contains("[Output cut at 2000 of "), "{}", out.text);
        }
    }
}
