//! Issue 25, unclear point decided: a symbolic link may not leave its own skill's folder.
//! `skills validate` reports a link from one skill to another's file (`symlink-escape`, exit 1)
//! and `skills read` / `skills serve` do not serve that file through the linking skill: the
//! macro (`tests/ui/fail/symlink-sibling.rs`), the CLI and discovery read one walk policy.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output};

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/fail/symlink-sibling")
        .to_str()
        .unwrap()
        .to_owned()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skills-cli"))
        .args(args)
        .output()
        .expect("the skills binary runs")
}

#[test]
fn validate_reports_a_link_into_another_skill() {
    let o = run(&["validate", &fixture()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "visible/references/secret.md: error[symlink-escape]: symbolic link to \
             `../../internal/secret.md` leaves its skill's folder (`visible`): a link inside a \
             skill must stay inside that skill's own folder"
        ),
        "{stdout}"
    );
}

#[test]
fn read_does_not_serve_another_skills_file_through_a_link() {
    let o = run(&["read", &fixture(), "visible", "references/secret.md"]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stdout.contains("INTERNAL-SECRET"), "{stdout}");
    assert_eq!(o.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("Available files: SKILL.md."), "{stderr}");
}
