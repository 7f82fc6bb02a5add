//! Issue 13, items 1 and 2: every walk of a folder (the scan, the overlay's reload fingerprint,
//! the watcher) shares one bounded policy. A link out of the root is never followed, each real
//! folder is read once, and the caps on depth and entries are reported when they cut.
//!
//! Every test runs its walk on another thread and fails after a deadline instead of hanging.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use skills_embed::__private::{Tree, scan};
use skills_embed::SkillSet;
use skills_embed::disk::Discovery;
use skills_embed::disk::Overlay;
use skills_embed::parse::{Diagnostic, Rule, ScanOptions};

static NONE: SkillSet = SkillSet::empty();

/// How long any walk here may take before the test calls it a hang.
const DEADLINE: Duration = Duration::from_secs(20);

/// Runs `f` on another thread and returns its result and how long it took; fails instead of
/// hanging the suite when it does not finish within [`DEADLINE`].
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> (T, Duration) {
    within_for(DEADLINE, what, f)
}

fn within_for<T: Send + 'static>(
    limit: Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> (T, Duration) {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let start = Instant::now();
        let out = f();
        let _ = tx.send((out, start.elapsed()));
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{what} did not finish within {limit:?}"))
}

fn write_skill(dir: &Path, name: &str) {
    fs::create_dir_all(dir).unwrap();
    let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody of {name}.\n");
    fs::write(dir.join("SKILL.md"), text).unwrap();
}

/// Discovery of one code root, links followed (inside the root).
fn following(root: &Path) -> Discovery {
    let mut discovery = Discovery::only(root);
    discovery.scan.follow_symlinks = true;
    discovery
}

fn has(diagnostics: &[Diagnostic], rule: Rule, file: &Path) -> bool {
    diagnostics.iter().any(|d| d.rule == rule && d.file == file)
}

/// A skill `graph` whose folders `l00` .. `l{levels-1}` each hold a file and (but the last)
/// two links, `a` and `b`, to the next level: no loop, but 2^levels paths.
fn link_graph(root: &Path, levels: usize) -> PathBuf {
    let skill = root.join("graph");
    write_skill(&skill, "graph");
    for i in 0..levels {
        let level = skill.join(format!("l{i:02}"));
        fs::create_dir(&level).unwrap();
        fs::write(level.join("f.md"), format!("level {i}\n")).unwrap();
        if i + 1 < levels {
            for link in ["a", "b"] {
                symlink(format!("../l{:02}", i + 1), level.join(link)).unwrap();
            }
        }
    }
    skill
}

/// Issue 13 item 1: a skill folder that is a link to `/` stalled the overlay (its reload
/// fingerprint walked the whole file system, links followed, no root check).
#[test]
fn a_skill_folder_linked_to_the_file_system_root_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    write_skill(&root.join("good"), "good");
    symlink("/", root.join("escape")).unwrap();

    let discovery = following(&root);
    let (overlay, took) = within("Overlay::new", move || Overlay::new(&NONE, discovery));
    println!("Overlay::new took {took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert_eq!(overlay.snapshot().names().collect::<Vec<_>>(), ["good"]);
    assert!(
        has(
            &overlay.diagnostics(),
            Rule::SymlinkEscape,
            &root.join("escape")
        ),
        "{:?}",
        overlay.diagnostics()
    );

    let overlay = std::sync::Arc::new(overlay);
    let live = std::sync::Arc::clone(&overlay);
    let (report, took) = within("reload", move || live.reload());
    println!("reload took {took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(report.is_empty(), "nothing changed: {report:?}");
}

/// Issue 13 item 1: a skill folder swapped for a link to `/` while an overlay is live.
#[test]
fn a_skill_folder_swapped_for_a_link_to_the_root_while_live_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    write_skill(&root.join("good"), "good");
    write_skill(&root.join("other"), "other");
    let discovery = following(&root);
    let (overlay, _) = within("Overlay::new", move || Overlay::new(&NONE, discovery));
    assert_eq!(
        overlay.snapshot().names().collect::<Vec<_>>(),
        ["good", "other"]
    );

    fs::remove_dir_all(root.join("good")).unwrap();
    symlink("/", root.join("good")).unwrap();
    let overlay = std::sync::Arc::new(overlay);
    let live = std::sync::Arc::clone(&overlay);
    let (report, took) = within("reload after the swap", move || live.reload());
    println!("reload took {took:?}: {report:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(
        has(&report.diagnostics, Rule::SymlinkEscape, &root.join("good")),
        "{:?}",
        report.diagnostics
    );
    assert_eq!(report.removed, ["good"]);
    assert_eq!(overlay.snapshot().names().collect::<Vec<_>>(), ["other"]);
}

/// Issue 13 item 2: 24 levels of two links each to the next level is 2^24 paths; each real
/// folder is read once, so the walk is linear, and the repeat is reported.
#[test]
fn a_link_graph_is_read_once_per_real_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let skill = link_graph(&root, 24);

    let options = ScanOptions {
        follow_symlinks: true,
        ..ScanOptions::default()
    };
    let walked = root.clone();
    let (tree, took) = within("scan of the link graph", move || scan(&walked, &options));
    println!("scan took {took:?}");
    for d in &tree.diagnostics {
        println!("{d}");
    }
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(tree.skills.len(), 1);
    assert!(tree.skills[0].valid, "{:?}", tree.diagnostics);
    // Every level's file is read once, whatever path reached it first.
    let levels = tree.skills[0]
        .resources
        .iter()
        .filter(|r| r.path.ends_with("f.md"))
        .count();
    assert_eq!(levels, 24, "{:?}", tree.skills[0].resources);
    let repeat = tree
        .diagnostics
        .iter()
        .find(|d| d.rule == Rule::ScanLimit)
        .expect("the folders reached again are reported");
    assert!(!repeat.is_error());
    assert!(repeat.file.starts_with(&skill), "{repeat}");
    assert!(repeat.message.contains("already"), "{repeat}");
    // One warning for them all: the first folder, and how many more.
    assert!(
        repeat
            .message
            .ends_with("; 45 more folders reached again were skipped too"),
        "{repeat}"
    );
    assert_eq!(
        tree.diagnostics
            .iter()
            .filter(|d| d.rule == Rule::ScanLimit)
            .count(),
        1
    );

    // The overlay's reload fingerprint walks the same way.
    let discovery = following(&root);
    let (overlay, took) = within("Overlay::new on the link graph", move || {
        Overlay::new(&NONE, discovery)
    });
    println!("Overlay::new took {took:?}");
    assert!(took < Duration::from_secs(1), "{took:?}");
    let overlay = std::sync::Arc::new(overlay);
    let live = std::sync::Arc::clone(&overlay);
    let (report, took) = within("reload of the link graph", move || live.reload());
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert!(report.is_empty(), "{report:?}");
}

/// The caps of the walk policy: what each one cuts is reported with a `scan-limit` warning that
/// names the folder and the cap, and the rest of the walk goes on.
#[test]
fn each_cap_reports_the_folder_and_the_cap() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    let wide = root.join("wide");
    write_skill(&wide, "wide");
    for i in 0..30 {
        fs::write(wide.join(format!("f{i:02}.md")), "x").unwrap();
    }
    let deep = root.join("deep");
    write_skill(&deep, "deep");
    let bottom = deep.join("a/b/c/d/e/f/g");
    fs::create_dir_all(&bottom).unwrap();
    fs::write(bottom.join("bottom.md"), "x").unwrap();
    fs::write(deep.join("a/top.md"), "x").unwrap();

    let limits = |options: ScanOptions| options;
    let scan_limits = |tree: &Tree| -> Vec<Diagnostic> {
        tree.diagnostics
            .iter()
            .filter(|d| d.rule == Rule::ScanLimit)
            .cloned()
            .collect()
    };

    // Per skill: `wide` keeps 20 of its entries, `deep` all of its.
    let tree = scan(
        &root,
        &limits(ScanOptions {
            max_skill_entries: Some(20),
            ..ScanOptions::default()
        }),
    );
    let cut = scan_limits(&tree);
    assert_eq!(cut.len(), 1, "{cut:?}");
    assert_eq!(
        (cut[0].file.as_path(), cut[0].is_error()),
        (wide.as_path(), false)
    );
    assert!(
        cut[0].message.contains("more than 20") && cut[0].message.contains("max_skill_entries"),
        "{}",
        cut[0]
    );
    assert!(tree.walk.cut);
    let wide_files = tree.skills.iter().find(|s| s.name() == "wide").unwrap();
    assert!(wide_files.valid);
    assert_eq!(
        wide_files.resources.len(),
        19,
        "20 entries, SKILL.md one of them"
    );
    let deep_files = tree.skills.iter().find(|s| s.name() == "deep").unwrap();
    assert_eq!(deep_files.resources.len(), 2);

    // Depth: the folder at the cap that holds more is named.
    let tree = scan(
        &root,
        &limits(ScanOptions {
            max_walk_depth: Some(5),
            ..ScanOptions::default()
        }),
    );
    let cut = scan_limits(&tree);
    assert_eq!(cut.len(), 1, "{cut:?}");
    assert_eq!(cut[0].file, deep.join("a/b/c/d"));
    assert!(
        cut[0].message.contains("5 levels") && cut[0].message.contains("max_depth"),
        "{}",
        cut[0]
    );
    let deep_files = tree.skills.iter().find(|s| s.name() == "deep").unwrap();
    let paths: Vec<&str> = deep_files
        .resources
        .iter()
        .map(|r| r.path.as_str())
        .collect();
    assert_eq!(paths, ["a/top.md"]);

    // Per walk: it stops, and says where.
    let tree = scan(
        &root,
        &limits(ScanOptions {
            max_entries: Some(10),
            ..ScanOptions::default()
        }),
    );
    let cut = scan_limits(&tree);
    assert_eq!(cut.len(), 1, "{cut:?}");
    assert_eq!(cut[0].file, root);
    assert!(
        cut[0].message.contains("more than 10") && cut[0].message.contains("max_entries"),
        "{}",
        cut[0]
    );
    assert_eq!(tree.walk.entries, 10);

    // Time: a walk over its budget stops and says so.
    let tree = scan(
        &root,
        &limits(ScanOptions {
            max_time: Some(Duration::ZERO),
            ..ScanOptions::default()
        }),
    );
    assert!(tree.walk.timed_out && tree.walk.cut);
    let cut = scan_limits(&tree);
    assert!(cut[0].message.contains("max_time"), "{}", cut[0]);

    // No cap: everything.
    let tree = scan(
        &root,
        &limits(ScanOptions {
            max_walk_depth: None,
            max_entries: None,
            max_skill_entries: None,
            max_time: None,
            ..ScanOptions::default()
        }),
    );
    assert!(scan_limits(&tree).is_empty());
    assert!(!tree.walk.cut);
}

/// The default caps are on, and leave the largest tree we benchmark (1,000 skills of 10
/// files, in the bench's layout of nested folders) whole.
#[test]
fn the_default_caps_leave_a_thousand_skills_of_ten_files_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_owned();
    // Writing 20,000 entries is slow on a busy machine; this test is about what is cut, not
    // how fast, so its deadline is generous.
    let (tree, took) = within_for(
        Duration::from_secs(300),
        "scan of 1,000 skills",
        move || {
            const FILES: [&str; 9] = [
                "references/guide.md",
                "references/api/endpoints.md",
                "scripts/run.py",
                "scripts/check.sh",
                "examples/src/main.rs",
                "assets/config.json",
                "assets/schemas/input.json",
                "assets/images/icon.png",
                "assets/data/table.bin",
            ];
            for i in 0..1000 {
                let dir = root.join(format!("category-{:02}/skill-{i:04}", i / 50));
                write_skill(&dir, &format!("skill-{i:04}"));
                for file in FILES {
                    let path = dir.join(file);
                    fs::create_dir_all(path.parent().unwrap()).unwrap();
                    fs::write(path, "x").unwrap();
                }
            }
            scan(&root, &ScanOptions::default())
        },
    );
    println!(
        "wrote and scanned in {took:?}; {} entries",
        tree.walk.entries
    );
    assert_eq!(tree.skills.len(), 1000);
    assert!(tree.diagnostics.is_empty(), "{:?}", &tree.diagnostics[..1]);
    assert!(!tree.walk.cut);
    assert!(tree.skills.iter().all(|s| s.resources.len() == 9));
}

/// A reload whose walk runs out of time keeps what the overlay had, and says so, rather than
/// dropping the skills it did not reach.
#[test]
fn a_reload_cut_by_the_time_limit_keeps_the_previous_skills() {
    let tmp = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(tmp.path()).unwrap();
    write_skill(&root.join("good"), "good");
    let mut discovery = following(&root);
    assert_eq!(
        discovery.scan.max_time,
        Some(Duration::from_secs(10)),
        "discovery walks are limited in time by default"
    );
    discovery.scan.max_time = Some(Duration::ZERO);
    let (overlay, _) = within("Overlay::new", move || Overlay::new(&NONE, discovery));
    let cut = overlay
        .diagnostics()
        .into_iter()
        .find(|d| d.rule == Rule::ScanLimit)
        .expect("the first scan says it was cut");
    assert!(cut.message.contains("max_time"), "{cut}");

    let overlay = std::sync::Arc::new(overlay);
    let live = std::sync::Arc::clone(&overlay);
    let (report, _) = within("reload", move || live.reload());
    assert!(report.rescanned.is_empty(), "{report:?}");
    assert!(report.is_empty(), "{report:?}");
    let kept = report
        .diagnostics
        .iter()
        .find(|d| d.rule == Rule::ScanLimit && d.file == root)
        .expect("the reload says it was cut");
    assert!(
        kept.message.contains("previous") && kept.message.contains("time limit"),
        "{kept}"
    );
}

// --- Issue 27: what the walker says about links -------------------------------------------------

fn collection(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/collections")
        .join(name)
}

/// `.agents/skills -> ../skills` (a common layout), the link sorted before or after the real
/// folder, or a link straight to a skill folder: the skill is read once, reported under its
/// real path, and nothing is "reached again".
#[test]
fn a_skill_reached_through_a_link_is_reported_once_under_its_real_path() {
    let options = ScanOptions::for_repositories();
    let tree = scan(&collection("agents-link"), &options);
    let dirs: Vec<_> = tree.skills.iter().map(|s| s.dir.clone()).collect();
    assert_eq!(dirs, [collection("agents-link").join("skills/tidy")]);
    assert!(tree.diagnostics.is_empty(), "{:?}", tree.diagnostics);

    for link in [".agents/skills", "zz-skills", ".agents/tidy"] {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::create_dir_all(root.join("skills/tidy")).unwrap();
        fs::write(
            root.join("skills/tidy/SKILL.md"),
            "---\nname: tidy\ndescription: Tidy.\nbogus: 1\n---\nBody\n",
        )
        .unwrap();
        fs::write(root.join("skills/tidy/notes.md"), "notes\n").unwrap();
        let at = root.join(link);
        fs::create_dir_all(at.parent().unwrap()).unwrap();
        let target = if link.ends_with("tidy") {
            "../skills/tidy"
        } else if link.contains('/') {
            "../skills"
        } else {
            "skills"
        };
        symlink(target, &at).unwrap();
        let tree = scan(root, &options);
        assert_eq!(tree.skills.len(), 1, "{link}: {:?}", tree.diagnostics);
        assert_eq!(tree.skills[0].dir, root.join("skills/tidy"), "{link}");
        let files: Vec<_> = tree.skills[0]
            .resources
            .iter()
            .map(|r| r.file.clone())
            .collect();
        assert_eq!(files, [root.join("skills/tidy/notes.md")], "{link}");
        let found: Vec<_> = tree
            .diagnostics
            .iter()
            .map(|d| (d.rule, d.file.clone()))
            .collect();
        assert_eq!(
            found,
            [(Rule::UnknownField, root.join("skills/tidy/SKILL.md"))],
            "{link}: {:?}",
            tree.diagnostics
        );
    }
}

/// A loop is an error that says the link cannot be read (not "skipped"); a broken link shows its
/// target; a folder whose SKILL.md links out of it gets the one `symlink-escape`.
#[test]
fn link_faults_are_worded_as_they_are_handled() {
    let root = collection("link-faults");
    let tree = scan(&root, &ScanOptions::for_repositories());
    let at = |file: &str| {
        tree.diagnostics
            .iter()
            .find(|d| d.file == root.join(file))
            .unwrap_or_else(|| panic!("nothing about {file}: {:?}", tree.diagnostics))
    };
    let looping = at("looping/again");
    assert!(looping.is_error() && looping.rule == Rule::ReadError);
    assert!(
        looping
            .message
            .starts_with("symbolic link to `.` loops back to ")
            && looping.message.contains("cannot be read")
            && !looping.message.contains("skipped"),
        "{}",
        looping.message
    );
    let dangling = at("dangling/notes.md");
    assert!(
        dangling
            .message
            .starts_with("broken symbolic link to `missing.md`: "),
        "{}",
        dangling.message
    );

    let escape = root.join("escape");
    let tree = scan(&escape, &ScanOptions::for_repositories());
    let found: Vec<_> = tree
        .diagnostics
        .iter()
        .map(|d| (d.rule, d.file.clone()))
        .collect();
    assert_eq!(found, [(Rule::SymlinkEscape, escape.join("SKILL.md"))]);
}

/// `duplicate-name` names both SKILL.md files, and no "same folder" for two folders.
#[test]
fn a_duplicate_name_names_both_skills() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fail/duplicate-name");
    let tree = scan(&root, &ScanOptions::default());
    let d = tree
        .diagnostics
        .iter()
        .find(|d| d.rule == Rule::DuplicateName)
        .expect("a duplicate-name error");
    assert_eq!(
        d.message,
        "skill name \"demo\" of two/demo/SKILL.md is also used by one/demo/SKILL.md; skills \
         read together need unique names: rename one"
    );
}
