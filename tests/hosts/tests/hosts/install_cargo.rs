//! `skills install|status|uninstall --cargo`: the skills a project's dependencies ship, run on a
//! copy of `tests/fixtures/cargo-workspace` (an application and three path-dependency crates,
//! two of them shipping a skill named `notes`, one a skill that fails the rules).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/cargo-workspace")
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else if entry.file_name() != "Cargo.lock" {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

struct Project {
    home: tempfile::TempDir,
    repo: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let project = Project {
            home: tempfile::tempdir().unwrap(),
            repo: tempfile::tempdir().unwrap(),
        };
        copy(&fixture(), project.repo.path());
        fs::create_dir(project.repo.path().join(".git")).unwrap();
        project
    }

    /// Runs the CLI from the filesystem root, so only --manifest-path names the project; the
    /// home is a temporary one, while cargo keeps its own toolchain and registry folders.
    fn skills(&self, verb: &str) -> (i32, String, String) {
        let real_home = PathBuf::from(std::env::var_os("HOME").unwrap_or_default());
        let rustup = std::env::var_os("RUSTUP_HOME")
            .map_or_else(|| real_home.join(".rustup"), PathBuf::from);
        let cargo =
            std::env::var_os("CARGO_HOME").map_or_else(|| real_home.join(".cargo"), PathBuf::from);
        let manifest = self.repo.path().join("app/Cargo.toml");
        let o = Command::new(env!("CARGO_BIN_EXE_skills-cli"))
            .args([verb, "--cargo", "--manifest-path"])
            .arg(&manifest)
            .args(["--offline", "--agent", "claude-code", "--scope", "project"])
            .current_dir("/")
            .env("HOME", self.home.path())
            .env("RUSTUP_HOME", rustup)
            .env("CARGO_HOME", cargo)
            .env_remove("CLAUDE_CONFIG_DIR")
            .output()
            .expect("the binary runs");
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    fn installed(&self, skill: &str) -> PathBuf {
        self.repo.path().join(".claude/skills").join(skill)
    }
}

#[test]
fn dependencies_skills_install_namespaced_with_their_crate_as_installer() {
    let project = Project::new();
    let (code, out, err) = project.skills("install");
    // One skill failed the rules: it is named, the others are installed, the status says so.
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("crate broken_kit 0.1.0: "), "{err}");
    assert!(err.contains("bad/SKILL.md:2:1: error[name-case]"), "{err}");
    assert!(out.contains("crate pdf_kit 1.2.0:"), "{out}");
    for line in [
        "  broken-kit-good          missing: installed",
        "  notes-kit-notes          missing: installed",
        "  pdf-kit-forms            missing: installed",
        "  pdf-kit-notes            missing: installed",
    ] {
        assert!(out.contains(line), "{line:?} in {out}");
    }
    let mut names: Vec<String> = fs::read_dir(project.repo.path().join(".claude/skills"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // Two crates' `notes` side by side; the application's own skill and the failing one not.
    assert_eq!(
        names,
        [
            "broken-kit-good",
            "notes-kit-notes",
            "pdf-kit-forms",
            "pdf-kit-notes"
        ]
    );
    assert_eq!(
        fs::read_to_string(project.installed("pdf-kit-forms/references/fields.md")).unwrap(),
        "Text, checkbox and choice fields.\n"
    );

    // The name follows the folder; the crate and its version are the recorded installer.
    let text = fs::read_to_string(project.installed("pdf-kit-notes/SKILL.md")).unwrap();
    assert!(text.starts_with("---\nname: \"pdf-kit-notes\"\n"), "{text}");
    assert!(
        text.contains("  skills-embed-tool: \"pdf_kit\"\n"),
        "{text}"
    );
    assert!(
        text.contains("  skills-embed-version: \"1.2.0\"\n"),
        "{text}"
    );
    assert!(
        text.ends_with("---\nCall `pdf_kit::annotate` with the page and the text.\n"),
        "{text}"
    );
    let guided = fs::read_to_string(project.installed("notes-kit-notes/SKILL.md")).unwrap();
    assert!(
        guided.contains("skills-embed-tool: \"notes-kit\""),
        "{guided}"
    );
    let forms = fs::read_to_string(project.installed("pdf-kit-forms/SKILL.md")).unwrap();
    assert!(
        forms.contains("  \"author\": \"pdf_kit\"\n  skills-embed-tool:"),
        "{forms}"
    );

    let (code, out, _) = project.skills("status");
    assert_eq!(code, 1, "the failing skill is named again: {out}");
    assert!(
        out.contains("  pdf-kit-notes            up-to-date (installed by 1.2.0)"),
        "{out}"
    );
    assert!(
        out.contains("  notes-kit-notes          up-to-date (installed by 0.3.1)"),
        "{out}"
    );

    // An edited skill is left alone by the uninstall; the others go.
    fs::write(project.installed("pdf-kit-forms/mine.md"), "my notes").unwrap();
    let (code, out, err) = project.skills("uninstall");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("  pdf-kit-notes            up-to-date (installed by 1.2.0): removed"),
        "{out}"
    );
    assert!(out.contains("pdf-kit-forms            modified"), "{out}");
    assert!(!project.installed("pdf-kit-notes").exists());
    assert!(!project.installed("notes-kit-notes").exists());
    assert!(!project.installed("broken-kit-good").exists());
    assert!(project.installed("pdf-kit-forms/mine.md").is_file());
}

#[test]
fn a_project_cargo_cannot_read_is_a_usage_error_naming_it() {
    let project = Project::new();
    fs::write(project.repo.path().join("app/Cargo.toml"), "[package\n").unwrap();
    let (code, out, err) = project.skills("status");
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("Could not read the dependencies of \"") && err.contains("app/Cargo.toml"),
        "{err}"
    );
    assert!(!project.repo.path().join(".claude").exists());
}
