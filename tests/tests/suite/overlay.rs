//! Embedded skills with disk skills laid over them, and reloads that change only what changed.

use skills_embed::tools::Settings;
use std::fs;
use std::path::{Path, PathBuf};

use skills_embed::disk::Overlay;
use skills_embed::disk::{Discovery, SourceKind};
use skills_embed::parse::Rule;
use skills_embed::tools::Tools;

skills_embed::skills!("fixtures/basic");

fn write_skill(root: &Path, name: &str, description: &str, body: &str) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(&dir).unwrap();
    let text = format!("---\nname: {name}\ndescription: {description}\n---\n{body}");
    fs::write(dir.join("SKILL.md"), text).unwrap();
    dir
}

#[test]
fn the_merged_set_has_embedded_and_disk_skills() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "notes",
        "Take notes. Use when asked to write notes.",
        "Write short notes.\n",
    );
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    let set = overlay.snapshot();
    assert_eq!(
        set.names().collect::<Vec<_>>(),
        ["code-review", "notes", "pdf"]
    );
    assert_eq!(overlay.sources()["pdf"].0, SourceKind::Embedded);
    assert_eq!(overlay.sources()["notes"].0, SourceKind::Code);
    assert!(
        set.get("notes")
            .unwrap()
            .body()
            .contains("Write short notes.")
    );
    // Embedded skills keep their ids.
    assert_eq!(
        overlay
            .snapshot()
            .get(SkillId::CodeReview.name())
            .unwrap()
            .name(),
        "code-review"
    );
    // The tool's enum and the listing reflect the merged set.
    let tools = Tools::new(std::sync::Arc::clone(&set), Settings::default());
    let schema = tools.definitions()[0].json_schema();
    assert_eq!(
        schema["properties"]["skill"]["enum"],
        serde_json::json!(["code-review", "notes", "pdf"])
    );
    assert!(set.summary().contains("- notes: Take notes."));
    let out = tools.handle("load_skill", r#"{"skill":"notes"}"#);
    assert!(
        out.text.starts_with("[Skill: notes | source=disk]"),
        "{}",
        out.text
    );
}

#[test]
fn a_disk_skill_with_an_embedded_name_wins_by_default_and_a_warning_names_both() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "pdf",
        "A newer PDF skill. Use for PDFs.",
        "Disk version.\n",
    );
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    assert_eq!(
        overlay.snapshot().get("pdf").unwrap().body(),
        "Disk version.\n"
    );
    assert_eq!(overlay.sources()["pdf"].0, SourceKind::Code);
    let warning = overlay
        .diagnostics()
        .into_iter()
        .find(|d| d.rule == Rule::DuplicateName && !d.is_error())
        .expect("a shadowing warning");
    assert!(warning.to_string().contains("embedded:pdf"), "{warning}");

    // Embedded first: the binary's own version wins.
    let mut discovery = Discovery::only(tmp.path());
    discovery.precedence = vec![SourceKind::Embedded, SourceKind::Code];
    let overlay = Overlay::new(&SKILLS, discovery);
    assert!(
        overlay
            .snapshot()
            .get("pdf")
            .unwrap()
            .body()
            .starts_with("# PDF")
    );
}

#[test]
fn reload_reports_added_changed_removed_and_rescans_only_changed_roots() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    write_skill(
        a.path(),
        "alpha",
        "Alpha things. Use for alpha.",
        "Alpha v1.\n",
    );
    write_skill(b.path(), "beta", "Beta things. Use for beta.", "Beta v1.\n");
    let mut discovery = Discovery::only(a.path());
    discovery.code_roots.push(b.path().to_owned());
    let overlay = Overlay::new(&SKILLS, discovery);

    let report = overlay.reload();
    assert!(
        report.is_empty() && report.rescanned.is_empty(),
        "{report:?}"
    );

    write_skill(
        a.path(),
        "alpha",
        "Alpha things. Use for alpha.",
        "Alpha v2, longer.\n",
    );
    write_skill(
        a.path(),
        "gamma",
        "Gamma things. Use for gamma.",
        "Gamma.\n",
    );
    let report = overlay.reload();
    assert_eq!(report.added, ["gamma"]);
    assert_eq!(report.changed, ["alpha"]);
    assert!(report.removed.is_empty());
    let canonical = |p: &Path| fs::canonicalize(p).unwrap();
    let rescanned: Vec<PathBuf> = report.rescanned.iter().map(|p| canonical(p)).collect();
    assert_eq!(rescanned, [canonical(a.path())], "root b did not change");
    assert_eq!(
        overlay.snapshot().get("alpha").unwrap().body(),
        "Alpha v2, longer.\n"
    );

    fs::remove_dir_all(b.path().join("beta")).unwrap();
    let report = overlay.reload();
    assert_eq!(report.removed, ["beta"]);
    assert!(overlay.snapshot().get("beta").is_err());
}

#[test]
fn a_skill_broken_on_disk_keeps_its_previous_good_version() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(
        tmp.path(),
        "notes",
        "Take notes. Use when asked.",
        "Good version.\n",
    );
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    fs::write(
        dir.join("SKILL.md"),
        "---\nname: notes\ndescription: [unclosed\n---\nBroken version.\n",
    )
    .unwrap();
    let report = overlay.reload();
    assert_eq!(report.kept.len(), 1, "{report:?}");
    assert_eq!(report.kept[0].0, "notes");
    assert!(
        report.kept[0].1.contains("yaml-syntax"),
        "{}",
        report.kept[0].1
    );
    assert!(report.removed.is_empty());
    assert_eq!(
        overlay.snapshot().get("notes").unwrap().body(),
        "Good version.\n"
    );
    // Fixed again: the new version replaces the kept one.
    write_skill(
        tmp.path(),
        "notes",
        "Take notes. Use when asked.",
        "Fixed version!\n",
    );
    let report = overlay.reload();
    assert_eq!(report.changed, ["notes"]);
    assert_eq!(
        overlay.snapshot().get("notes").unwrap().body(),
        "Fixed version!\n"
    );
}

#[test]
fn a_snapshot_taken_before_a_reload_never_changes() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "notes", "Take notes. Use when asked.", "One.\n");
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    let before = overlay.snapshot();
    write_skill(
        tmp.path(),
        "notes",
        "Take notes. Use when asked.",
        "Two, longer.\n",
    );
    overlay.reload();
    assert_eq!(before.get("notes").unwrap().body(), "One.\n");
    assert_eq!(
        overlay.snapshot().get("notes").unwrap().body(),
        "Two, longer.\n"
    );
}

#[test]
fn reloads_and_loads_from_many_threads_see_whole_sets() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "notes", "Take notes. Use when asked.", "v0\n");
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    std::thread::scope(|scope| {
        for reader in 0..3 {
            let overlay = &overlay;
            scope.spawn(move || {
                for _ in 0..200 {
                    let set = overlay.snapshot();
                    // Every snapshot is complete: the embedded skills and the disk one.
                    assert_eq!(set.len(), 3, "reader {reader}");
                    let body = set.get("notes").unwrap().body().to_owned();
                    assert!(body.starts_with('v'), "{body}");
                }
            });
        }
        scope.spawn(|| {
            for i in 1..20 {
                write_skill(
                    tmp.path(),
                    "notes",
                    "Take notes. Use when asked.",
                    &format!("v{i}{}\n", "x".repeat(i)),
                );
                overlay.reload();
            }
        });
    });
}

#[test]
fn a_watcher_reloads_when_a_folder_changes() {
    use std::sync::{Arc, mpsc};
    use std::time::Duration;
    let tmp = tempfile::tempdir().unwrap();
    write_skill(tmp.path(), "notes", "Take notes. Use when asked.", "One.\n");
    let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::only(tmp.path())));
    let (tx, rx) = mpsc::channel();
    overlay
        .watch(Duration::from_millis(20), move |report| {
            let _ = tx.send(report.clone());
        })
        .unwrap();
    // Reloads yield the CPU to answers: the thread runs at nice 19 (Linux keeps it per thread).
    #[cfg(target_os = "linux")]
    {
        // The thread names itself and lowers its priority once it runs: look until it has.
        let nice_of_reload_thread = || {
            std::fs::read_dir("/proc/self/task")
                .unwrap()
                // Other tests' threads come and go meanwhile: one that ended has no files.
                .filter_map(|t| {
                    let t = t.ok()?.path();
                    let comm = std::fs::read_to_string(t.join("comm")).ok()?;
                    if comm.trim() != "skills-reload" {
                        return None;
                    }
                    let stat = std::fs::read_to_string(t.join("stat")).ok()?;
                    // Fields after the `(comm)`: state is field 3, nice field 19.
                    let after_comm = stat.rsplit_once(')')?.1;
                    after_comm.split_whitespace().nth(16).map(str::to_owned)
                })
                .collect::<Vec<_>>()
        };
        let started = std::time::Instant::now();
        let mut seen = nice_of_reload_thread();
        while !seen.iter().any(|nice| nice == "19") && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
            seen = nice_of_reload_thread();
        }
        assert!(
            seen.iter().any(|nice| nice == "19"),
            "nice values of the skills-reload threads: {seen:?}"
        );
    }
    write_skill(
        tmp.path(),
        "todo",
        "Keep a todo list. Use when asked.",
        "Todo.\n",
    );
    let report = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the watcher saw the new skill");
    assert_eq!(report.added, ["todo"]);
    assert!(overlay.snapshot().get("todo").is_ok());
    // The thread holds the overlay weakly: dropping the last handle stops (and joins) it.
    drop(overlay);
}

fn duplicate_warnings(overlay: &Overlay<SkillId>) -> Vec<String> {
    overlay
        .diagnostics()
        .iter()
        .filter(|d| d.rule == Rule::DuplicateName)
        .map(ToString::to_string)
        .collect()
}

/// The guide's setup (`docs/src/disk.md`): `skills!("skills")` and `Overlay::new(&SKILLS, Discovery::default())`,
/// run from the crate's folder, where discovery finds the embedded folder again as the
/// project root `skills/`. That is one skill in two places, not a shadowed one.
#[test]
fn the_embedded_folder_found_again_on_disk_is_not_reported_as_shadowing() {
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("app");
    fs::create_dir_all(app.join(".git")).unwrap();
    skills_tests::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/basic"),
        &app.join("skills"),
    );
    let discovery = Discovery {
        start: app.clone(),
        home: None,
        env_var: None,
        ..Discovery::default()
    };
    let overlay = Overlay::new(&SKILLS, discovery);
    assert_eq!(duplicate_warnings(&overlay), Vec::<String>::new());
    assert_eq!(
        overlay.snapshot().names().collect::<Vec<_>>(),
        ["code-review", "pdf"]
    );

    // Edited on disk, it is another version of the skill: the disk one wins, and says so.
    fs::write(
        app.join("skills/pdf/references/forms.md"),
        "# Forms, edited\n",
    )
    .unwrap();
    overlay.reload();
    let warnings = duplicate_warnings(&overlay);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "embedded:pdf: warning[duplicate-name]: skill \"pdf\" here is shadowed by"
        ),
        "{warnings:?}"
    );
    assert_eq!(overlay.sources()["pdf"].0, SourceKind::Project);
    assert_eq!(overlay.sources()["code-review"].0, SourceKind::Project);
}

/// `ReloadReport::changed` promises "fields or files": a metadata-only edit is a change (the
/// reload used to compare every field but `metadata`).
#[test]
fn a_metadata_only_edit_is_a_change() {
    let tmp = tempfile::tempdir().unwrap();
    let write = |version: &str| {
        let dir = tmp.path().join("notes");
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: notes\ndescription: Take notes. Use when asked.\nmetadata:\n  version: \"{version}\"\n---\nWrite short notes.\n"
            ),
        )
        .unwrap();
    };
    write("1");
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    write("2");
    let report = overlay.reload();
    assert_eq!(report.changed, ["notes"], "{report:?}");
    let set = overlay.snapshot();
    let notes = set.get("notes").unwrap();
    assert_eq!(notes.metadata().collect::<Vec<_>>(), [("version", "2")]);
}

/// A reload that finds the same skills hands out the same snapshot, so what holds the last one
/// (an MCP session that hashed what its client may see) tells by pointer that nothing changed;
/// a file written again with the same bytes (rescanned: its time changed) is no change either.
#[test]
fn a_reload_that_changes_nothing_keeps_the_snapshot() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(
        tmp.path(),
        "notes",
        "Take notes. Use when asked to write notes.",
        "Write short notes.\n",
    );
    let overlay = Overlay::new(&SKILLS, Discovery::only(tmp.path()));
    let before = overlay.snapshot();
    assert!(overlay.reload().is_empty());
    assert!(std::sync::Arc::ptr_eq(&before, &overlay.snapshot()));

    let manifest = dir.join("SKILL.md");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, &text).unwrap();
    assert!(overlay.reload().is_empty());
    assert!(std::sync::Arc::ptr_eq(&before, &overlay.snapshot()));

    fs::write(&manifest, text.replace("short", "long")).unwrap();
    let edited = overlay.reload();
    assert_eq!(edited.changed, ["notes"], "{edited:?}");
    assert!(!std::sync::Arc::ptr_eq(&before, &overlay.snapshot()));
}

mod scripted {
    /// Counts the words of a text.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Text {
        pub text: String,
    }

    pub fn count(args: Text) -> Result<usize, String> {
        Ok(args.text.split_whitespace().count())
    }

    skills_embed::skills!("fixtures/cli-scripts", scripts = { "word-count" => [count] });
}

#[test]
fn the_embedded_rust_scripts_stay_with_their_skills_in_the_merged_set() {
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "notes",
        "Take notes. Use when asked to write notes.",
        "Write short notes.\n",
    );
    let overlay = Overlay::new(&scripted::SKILLS, Discovery::only(tmp.path()));
    let check = |set: &skills_embed::SkillSet| {
        let names: Vec<String> = set
            .scripts()
            .iter()
            .map(|s| format!("{}/{}", s.skill(), s.name()))
            .collect();
        assert_eq!(names, ["word-count/count"]);
        let out = Tools::new(set.clone(), Settings::default()).handle(
            "run_skill_script",
            r#"{"script": "word-count/count", "args": {"text": "a b"}}"#,
        );
        assert!(!out.is_error && out.text.ends_with("\n2"), "{}", out.text);
    };
    check(&overlay.snapshot());
    // A disk copy of the skill shadows the embedded one; the script is the binary's code and
    // stays, and a reload keeps it too.
    write_skill(
        tmp.path(),
        "word-count",
        "Counts words, from disk. Use when asked how long a text is.",
        "Run [the counter](script:count).\n",
    );
    overlay.reload();
    assert_eq!(overlay.sources()["word-count"].0, SourceKind::Code);
    check(&overlay.snapshot());
}
