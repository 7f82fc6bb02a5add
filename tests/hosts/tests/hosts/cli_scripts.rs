//! A skill author's own `skills` tool (`skills_embed::run_cli` with Rust scripts): `schema`
//! offers the run tool, `call` runs a script on a folder as it is on disk, and a wrong call
//! says what is valid, with the exit status a CI step reads.

use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-cli-scripts"))
        .args(args)
        .output()
        .expect("the tool runs")
}

fn folder() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/cli-scripts")
        .to_str()
        .unwrap()
        .to_owned()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn call_runs_a_rust_script_on_a_folder() {
    let out = run(&[
        "call",
        &folder(),
        "run_skill_script",
        r#"{"script": "word-count/count", "args": {"text": "one two  three"}}"#,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "[Script: word-count/count]\n\n3\n");
}

#[test]
fn a_wrong_call_says_what_is_valid_and_fails() {
    let out = run(&[
        "call",
        &folder(),
        "run_skill_script",
        r#"{"script": "word-count/count", "args": {"words": "x"}}"#,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("unknown field `words`, expected `text`"),
        "{stdout}"
    );
    assert!(stdout.contains(r#""required":["text"]"#), "{stdout}");

    let out = run(&[
        "call",
        &folder(),
        "run_skill_script",
        r#"{"script": "word-count/cont", "args": {}}"#,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(r#"Did you mean "count"?"#),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn schema_offers_the_run_tool() {
    let out = run(&["schema", &folder()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("run_skill_script"), "{stdout}");
    assert!(stdout.contains("word-count/count"), "{stdout}");
}

#[test]
fn the_plain_tool_has_no_scripts_to_run() {
    // `skills` itself holds no Rust functions: the folder's link names nothing it can run.
    let out = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args([
            "call",
            &folder(),
            "run_skill_script",
            r#"{"script": "word-count/count", "args": {"text": "a"}}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("It has no scripts you can run"),
        "{}",
        text(&out.stdout)
    );
}
