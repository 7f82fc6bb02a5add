//! Fault injection on disk loading (issue 5): files that vanish or change between the scan and
//! the read, that turn into folders, FIFOs or links out of the root, files that cannot be read,
//! a root replaced by a file. Each fault is reported for the skill it concerns; every other
//! skill is still served; nothing hangs.
//!
//! The suite runs as root in CI, where permission bits do not stop reads: a file that cannot be
//! read is simulated by a folder where a file is expected, a dangling link and a FIFO, and the
//! `chmod 000` case checks the real error only when the process cannot read such a file.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use skills_embed::__private::Tree;
use skills_embed::disk::Discovery;
use skills_embed::disk::Overlay;
use skills_embed::parse::{Diagnostic, Rule, ScanOptions};
use skills_embed::{SkillSet, listing::ListingFormat};

skills_embed::skills!("fixtures/basic");

fn write_skill(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(dir.join("references")).unwrap();
    let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody of {name}.\n");
    fs::write(dir.join("SKILL.md"), text).unwrap();
    fs::write(
        dir.join("references/notes.md"),
        format!("Notes of {name}.\n"),
    )
    .unwrap();
    dir
}

/// Three skills, `a`, `b` and `c`, each with `references/notes.md`.
fn three() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    for name in ["a", "b", "c"] {
        write_skill(&root, name);
    }
    (tmp, root)
}

/// Runs `f` on another thread; fails instead of hanging the suite when it blocks.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what} hung"))
}

fn scan(root: &Path) -> Tree {
    skills_embed::__private::scan(root, &ScanOptions::default())
}

/// Loads a scanned tree on another thread.
fn load(mut tree: Tree, cap: Option<u64>) -> (SkillSet, Vec<Diagnostic>) {
    within("loading", move || {
        let (loaded, diagnostics) = skills_embed::load::skills(&mut tree, cap);
        let skills = loaded.into_iter().map(|(skill, _)| skill).collect();
        (
            SkillSet::from_skills(skills, &ListingFormat::Markdown),
            diagnostics,
        )
    })
}

fn names(set: &SkillSet) -> Vec<&str> {
    set.names().collect()
}

/// The one diagnostic, a `read-error` at skill `a`'s folder, mentioning `needle`.
fn assert_reported_for_a(root: &Path, diagnostics: &[Diagnostic], needle: &str) {
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!((d.rule, d.is_error()), (Rule::ReadError, true), "{d}");
    assert!(d.file.ends_with("a"), "{d}");
    assert!(d.file.starts_with(fs::canonicalize(root).unwrap()) || d.file.starts_with(root));
    assert!(d.message.contains(needle), "{d}");
}

type Fault = fn(&Path);

/// Each way a resource can go wrong after the scan, and the words its report holds.
fn resource_faults() -> Vec<(&'static str, Fault, &'static str)> {
    let mut faults: Vec<(&'static str, Fault, &'static str)> = vec![
        (
            "vanished",
            |p| fs::remove_file(p).unwrap(),
            "references/notes.md",
        ),
        (
            "became a folder",
            |p| {
                fs::remove_file(p).unwrap();
                fs::create_dir(p).unwrap();
            },
            "not a regular file",
        ),
    ];
    #[cfg(unix)]
    faults.extend([
        (
            "became a FIFO",
            (|p: &Path| {
                fs::remove_file(p).unwrap();
                mkfifo(p);
            }) as Fault,
            "not a regular file",
        ),
        (
            "became a dangling link",
            |p| {
                fs::remove_file(p).unwrap();
                std::os::unix::fs::symlink("nowhere.md", p).unwrap();
            },
            "references/notes.md",
        ),
        (
            "became a link out of the root",
            |p| {
                let outside = p.ancestors().nth(4).unwrap().join("outside.md");
                fs::write(&outside, "OUTSIDE").unwrap();
                fs::remove_file(p).unwrap();
                std::os::unix::fs::symlink(&outside, p).unwrap();
            },
            "outside its skill's folder",
        ),
        (
            "became a link to another skill's file",
            |p| {
                let other = p
                    .ancestors()
                    .nth(2)
                    .unwrap()
                    .join("../b/references/notes.md");
                fs::remove_file(p).unwrap();
                std::os::unix::fs::symlink(other, p).unwrap();
            },
            "outside its skill's folder",
        ),
    ]);
    faults
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_resource_that_goes_wrong_between_scan_and_read_leaves_only_its_skill_out() {
    for (what, fault, needle) in resource_faults() {
        let (_tmp, root) = three();
        let tree = scan(&root);
        assert!(tree.diagnostics.is_empty(), "{:?}", tree.diagnostics);
        fault(&root.join("a/references/notes.md"));
        let (set, diagnostics) = load(tree, None);
        assert_eq!(names(&set), ["b", "c"], "{what}");
        assert_reported_for_a(&root, &diagnostics, needle);
        for name in ["b", "c"] {
            let notes = set
                .get(name)
                .and_then(|s| s.load("references/notes.md"))
                .unwrap();
            assert_eq!(notes.text(), Some(format!("Notes of {name}.\n").as_str()));
        }
    }
}

#[test]
fn a_resource_changed_between_scan_and_read_is_served_as_read_with_its_own_digest() {
    let (_tmp, root) = three();
    let tree = scan(&root);
    fs::write(root.join("a/references/notes.md"), "Rewritten.\n").unwrap();
    let (set, diagnostics) = load(tree, None);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let notes = set
        .get("a")
        .and_then(|s| s.load("references/notes.md"))
        .unwrap();
    assert_eq!(notes.text(), Some("Rewritten.\n"));
    assert_eq!(
        notes.sha256(),
        skills_embed::__private::sha256(b"Rewritten.\n")
    );

    // Grown past the cap between scan and read: refused for that skill only.
    let tree = scan(&root);
    fs::write(root.join("a/references/notes.md"), "x".repeat(5_000)).unwrap();
    let (set, diagnostics) = load(tree, Some(1_000));
    assert_eq!(names(&set), ["b", "c"]);
    assert_reported_for_a(&root, &diagnostics, "the cap is 1000 bytes");
}

#[test]
fn a_root_replaced_by_a_file_between_scan_and_read_is_reported_per_skill() {
    let (_tmp, root) = three();
    let tree = scan(&root);
    fs::remove_dir_all(&root).unwrap();
    fs::write(&root, "not a folder any more").unwrap();
    let (set, diagnostics) = load(tree, None);
    assert!(set.is_empty());
    let reported: Vec<_> = diagnostics
        .iter()
        .map(|d| (d.rule, d.file.file_name().unwrap().to_str().unwrap()))
        .collect();
    assert_eq!(
        reported,
        [
            (Rule::ReadError, "a"),
            (Rule::ReadError, "b"),
            (Rule::ReadError, "c")
        ]
    );
}

#[test]
fn a_file_that_cannot_be_read_is_reported_or_served_never_fatal() {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let (_tmp, root) = three();
        let notes = root.join("a/references/notes.md");
        fs::set_permissions(&notes, fs::Permissions::from_mode(0o000)).unwrap();
        // Root reads it anyway (CI runs as root); anyone else gets "permission denied".
        let readable = fs::read(&notes).is_ok();
        let tree = scan(&root);
        let (set, diagnostics) = load(tree.clone(), None);
        if readable {
            assert_eq!(names(&set), ["a", "b", "c"]);
        } else {
            assert_eq!(names(&set), ["b", "c"]);
            let all: Vec<_> = tree.diagnostics.iter().chain(&diagnostics).collect();
            assert!(
                all.iter()
                    .any(|d| d.rule == Rule::ReadError && d.file.starts_with(&root)),
                "{all:?}"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn unreadable_files_at_scan_time_are_reported_and_the_rest_served() {
    use std::os::unix::fs::symlink;
    let (_tmp, root) = three();
    // `a`: its SKILL.md is a folder, `b`: a FIFO, `c`: fine but a resource is a FIFO and a
    // dangling link sits beside it; `d`: SKILL.md is a dangling link.
    fs::remove_file(root.join("a/SKILL.md")).unwrap();
    fs::create_dir(root.join("a/SKILL.md")).unwrap();
    fs::remove_file(root.join("b/SKILL.md")).unwrap();
    mkfifo(&root.join("b/SKILL.md"));
    mkfifo(&root.join("c/references/pipe.md"));
    symlink("nowhere", root.join("c/references/dangling.md")).unwrap();
    fs::create_dir(root.join("d")).unwrap();
    symlink("nowhere", root.join("d/SKILL.md")).unwrap();
    write_skill(&root, "e");

    for follow_symlinks in [false, true] {
        let root2 = root.clone();
        let (set, diagnostics) = within("scanning", move || {
            let options = ScanOptions {
                follow_symlinks,
                ..ScanOptions::default()
            };
            let mut tree = skills_embed::__private::scan(&root2, &options);
            let (set, more) = skills_embed::__private::set_of(&mut tree, &ListingFormat::Markdown);
            (
                set,
                tree.diagnostics.into_iter().chain(more).collect::<Vec<_>>(),
            )
        });
        assert_eq!(names(&set), ["c", "e"], "following: {follow_symlinks}");
        assert_eq!(
            set.get("c").unwrap().paths().collect::<Vec<_>>(),
            ["SKILL.md", "references/notes.md"]
        );
        for bad in [
            "a/SKILL.md",
            "b/SKILL.md",
            "c/references/pipe.md",
            "c/references/dangling.md",
            "d/SKILL.md",
        ] {
            assert!(
                diagnostics.iter().any(|d| d.file == root.join(bad)),
                "{bad} is not reported (following: {follow_symlinks}): {diagnostics:?}"
            );
        }
    }
}

fn only(roots: &[&Path]) -> Discovery {
    Discovery {
        start: roots[0].to_owned(),
        home: None,
        project: false,
        user: false,
        env_var: None,
        code_roots: roots.iter().map(|r| r.to_path_buf()).collect(),
        ..Discovery::default()
    }
}

#[test]
fn a_root_replaced_by_a_file_is_reported_on_reload_and_the_other_roots_served() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    write_skill(&one, "from-one");
    write_skill(&two, "from-two");
    let overlay = Overlay::new(&SKILLS, only(&[&one, &two]));
    assert!(overlay.snapshot().get("from-one").is_ok());

    fs::remove_dir_all(&one).unwrap();
    fs::write(&one, "a file now").unwrap();
    let report = within("reloading", {
        let overlay = std::sync::Arc::new(overlay);
        let o = std::sync::Arc::clone(&overlay);
        move || (o.reload(), o)
    });
    let (report, overlay) = report;
    let set = overlay.snapshot();
    assert!(set.get("from-two").is_ok() && set.get("code-review").is_ok());
    assert_eq!(report.removed, ["from-one"]);
    let about_one: Vec<_> = overlay
        .diagnostics()
        .into_iter()
        .filter(|d| d.file.ends_with("one"))
        .collect();
    assert!(
        about_one
            .iter()
            .any(|d| d.is_error() && d.rule == Rule::ReadError),
        "the root turned file is not reported: {:?}",
        overlay.diagnostics()
    );
    assert!(report.diagnostics.iter().any(|d| d.file.ends_with("one")));
}

#[cfg(unix)]
#[test]
fn a_skill_whose_manifest_becomes_unreadable_keeps_its_previous_version() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("skills");
    for name in ["a", "b"] {
        write_skill(&root, name);
    }
    let faults: [(&str, Fault); 3] = [
        ("a folder", |p| {
            fs::remove_file(p).unwrap();
            fs::create_dir(p).unwrap();
        }),
        ("a FIFO", |p| {
            fs::remove_file(p).unwrap();
            mkfifo(p);
        }),
        ("a dangling link", |p| {
            fs::remove_file(p).unwrap();
            std::os::unix::fs::symlink("nowhere", p).unwrap();
        }),
    ];
    for (what, fault) in faults {
        let overlay = std::sync::Arc::new(Overlay::new(&SKILLS, only(&[&root])));
        let before = overlay.snapshot().get("a").unwrap().body().to_owned();
        let manifest = root.join("a/SKILL.md");
        fault(&manifest);
        let o = std::sync::Arc::clone(&overlay);
        let report = within("reloading", move || o.reload());
        let set = overlay.snapshot();
        assert_eq!(
            set.get("a").map(|s| s.body().to_owned()).ok(),
            Some(before),
            "SKILL.md became {what}: the good version is lost"
        );
        assert!(set.get("b").is_ok());
        assert_eq!(report.kept.len(), 1, "{what}: {report:?}");
        assert_eq!(report.kept[0].0, "a");
        // Put it back for the next fault.
        if manifest.is_dir() {
            fs::remove_dir(&manifest).unwrap();
        } else {
            fs::remove_file(&manifest).unwrap();
        }
        write_skill(&root, "a");
    }
}

#[cfg(unix)]
#[test]
fn files_flipping_while_scans_run_never_hang_or_lose_the_other_skills() {
    // One thread keeps turning a resource of `a` into a folder, a dangling link, nothing, and
    // back, while scans and loads run. (FIFOs are left out here: a file swapped for a FIFO in
    // the microseconds between the type check and the open would block that open; the
    // deterministic FIFO cases above cover a FIFO that is there when it is read.)
    let (_tmp, root) = three();
    let notes = root.join("a/references/notes.md");
    // Written beside the root and renamed into place: `fs::write` truncates before it writes,
    // and a scan in between would rightly read an empty file.
    let staged = root.with_file_name("notes.staged");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flipper = {
        let (notes, stop) = (notes.clone(), stop.clone());
        thread::spawn(move || {
            let mut i = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = fs::remove_file(&notes).or_else(|_| fs::remove_dir(&notes));
                let _ = match i % 4 {
                    0 => fs::write(&staged, "Notes of a.\n")
                        .and_then(|()| fs::rename(&staged, &notes)),
                    1 => fs::create_dir(&notes),
                    2 => std::os::unix::fs::symlink("nowhere", &notes),
                    _ => Ok(()),
                };
                i += 1;
                thread::yield_now();
            }
        })
    };
    let root2 = root.clone();
    within("scanning while files flip", move || {
        for follow_symlinks in [false, true] {
            for _ in 0..150 {
                let options = ScanOptions {
                    follow_symlinks,
                    ..ScanOptions::default()
                };
                let mut tree = skills_embed::__private::scan(&root2, &options);
                let (set, _) = skills_embed::__private::set_of(&mut tree, &ListingFormat::Markdown);
                for name in ["b", "c"] {
                    assert!(set.get(name).is_ok(), "{name} lost");
                }
                if let Ok(notes) = set.get("a").and_then(|a| a.load("references/notes.md")) {
                    assert_eq!(notes.text(), Some("Notes of a.\n"));
                }
            }
        }
    });
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    flipper.join().unwrap();
}
