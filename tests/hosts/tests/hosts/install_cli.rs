//! `skills install|status|uninstall PATH` and a tool's own `skill` subcommand
//! (`SkillCommand::main`, the `skills-mytool` binary), run in temporary homes and repositories.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/basic")
}

struct Place {
    home: tempfile::TempDir,
    repo: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let place = Place {
            home: tempfile::tempdir().unwrap(),
            repo: tempfile::tempdir().unwrap(),
        };
        fs::create_dir(place.repo.path().join(".git")).unwrap();
        fs::create_dir(place.repo.path().join("src")).unwrap();
        place
    }

    /// Runs `bin` in the repository's `src` folder with the temporary home.
    fn run(&self, bin: &str, args: &[&str]) -> (i32, String, String) {
        let o: Output = Command::new(bin)
            .args(args)
            .current_dir(self.repo.path().join("src"))
            .env("HOME", self.home.path())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CODEX_HOME")
            .output()
            .expect("the binary runs");
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    fn skills(&self, args: &[&str]) -> (i32, String, String) {
        self.run(env!("CARGO_BIN_EXE_skills-cli"), args)
    }

    fn mytool(&self, args: &[&str]) -> (i32, String, String) {
        let mut all = vec!["skill"];
        all.extend_from_slice(args);
        self.run(env!("CARGO_BIN_EXE_skills-mytool"), &all)
    }

    fn repo(&self, rel: &str) -> PathBuf {
        self.repo.path().join(rel)
    }
}

#[test]
fn skills_installs_lists_and_uninstalls_a_folder() {
    let place = Place::new();
    let path = fixture();
    let path = path.to_str().unwrap();
    let (code, out, err) = place.skills(&[
        "install",
        path,
        "--agent",
        "claude-code,codex",
        "--agent",
        "cursor",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Project root: "), "{out}");
    assert!(out.contains(".agents/skills (codex, cursor):"), "{out}");
    assert!(
        out.contains("  pdf                      missing: installed"),
        "{out}"
    );
    let text = fs::read_to_string(place.repo(".claude/skills/pdf/SKILL.md")).unwrap();
    assert!(text.contains("skills-embed-tool: \"basic\""), "{text}");

    let (code, out, _) = place.skills(&["status", path, "--agent", "claude-code"]);
    assert_eq!(code, 0);
    assert!(out.contains("pdf                      up-to-date"), "{out}");

    let (code, out, err) = place.skills(&["uninstall", path, "--agent", "all"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!place.repo(".claude/skills/pdf").exists());
    assert!(!place.repo(".agents/skills/pdf").exists());
}

#[test]
fn a_dry_run_writes_nothing_and_an_edit_exits_1() {
    let place = Place::new();
    let (code, out, _) = place.mytool(&["install", "--agent", "claude-code", "--dry-run"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("would be installed") && out.contains("dry run"),
        "{out}"
    );
    assert!(!place.repo(".claude").exists());

    let (code, _, _) = place.mytool(&["install", "--agent", "claude-code"]);
    assert_eq!(code, 0);
    let skill_md = place.repo(".claude/skills/pdf/SKILL.md");
    let mut text = fs::read_to_string(&skill_md).unwrap();
    text.push_str("My note.\n");
    fs::write(&skill_md, &text).unwrap();
    let (code, out, _) = place.mytool(&["status", "--agent", "claude-code"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("pdf                      modified"), "{out}");
    let (code, out, _) = place.mytool(&["uninstall", "--agent", "claude-code"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(fs::read_to_string(&skill_md).unwrap(), text);
    assert!(!place.repo(".claude/skills/code-review").exists());
    let (code, out, _) = place.mytool(&["install", "--agent", "claude-code", "--force"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("replaced, backup at"), "{out}");
}

#[test]
fn usage_and_no_project_exit_2_with_what_to_do() {
    let place = Place::new();
    let (code, _, err) = place.mytool(&["install", "--agent", "claud"]);
    assert_eq!(code, 2);
    assert!(err.contains("claude-code"), "{err}");
    let (code, out, _) = place.mytool(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Skills shipped:") && out.contains("- pdf: "),
        "{out}"
    );
    // No repository: refused, not installed into the working folder.
    let bare = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_skills-mytool"))
        .args(["skill", "install", "--agent", "claude-code"])
        .current_dir(bare.path())
        .env("HOME", place.home.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("No project around") && err.contains("--dir"),
        "{err}"
    );
    assert_eq!(fs::read_dir(bare.path()).unwrap().count(), 0);
    // User scope and detection: only the agents whose folders exist.
    fs::create_dir(place.home.path().join(".claude")).unwrap();
    let (code, out, _) = place.mytool(&["install", "--scope", "user"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        place
            .home
            .path()
            .join(".claude/skills/pdf/SKILL.md")
            .is_file()
    );
    assert!(!place.home.path().join(".agents").exists());
}
