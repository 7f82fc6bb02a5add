//! Many threads at once (issue 5): a static `SkillSet` behind shared `Tools`, an `Overlay`
//! reloaded while it is read and while other reloads run, and a `Session` shared behind a lock
//! with permission answers racing loads. Every answer must be one a single thread would have
//! got, and a snapshot is always a whole set.

use skills_embed::tools::Settings;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

use serde_json::json;
use skills_embed::disk::Discovery;
use skills_embed::disk::Overlay;
use skills_embed::policy::{Answer, Permissions};
use skills_embed::tools::{Event, Session};
use skills_embed::{SkillSet, tools::Tools};

skills_embed::skills!("fixtures/tools");

const SECRET: &str = "SECRET-INTERNAL-CONTENT";

fn rules() -> Permissions {
    Permissions::new().deny("internal-*").ask("deploy")
}

/// A mix of calls: hits, misses, refusals, chunks, sections, offsets, denied and asked skills.
fn calls() -> Vec<(&'static str, String)> {
    [
        ("load_skill", json!({"skill": "pdf-forms"})),
        (
            "load_skill",
            json!({"skill": "pdf-forms", "path": "references/guide.md"}),
        ),
        (
            "load_skill",
            json!({"skill": "pdf-forms", "path": "references/guide.md", "offset": 12000}),
        ),
        (
            "load_skill",
            json!({"skill": "pdf-forms", "chunk": "examples"}),
        ),
        (
            "load_skill",
            json!({"skill": "pdf-forms", "section": "nope"}),
        ),
        (
            "load_skill",
            json!({"skill": "pdf-forms", "path": "../internal-notes/SKILL.md"}),
        ),
        (
            "load_skill",
            json!({"skill": "pdf-forms", "path": "assets/blank.gif"}),
        ),
        ("load_skill", json!({"skill": "internal-notes"})),
        ("load_skill", json!({"skill": "deploy"})),
        ("read_skill", json!({"skill": "release-notes"})),
        (
            "read_skill_resource",
            json!({"skill": "pdf-forms", "file": "scripts/fill.py"}),
        ),
        (
            "load_skill_chunk",
            json!({"skill": "pdf-forms", "chunk": "missing"}),
        ),
        ("load_skill", json!({"skill": "pfd-forms"})),
        ("nope", json!({})),
    ]
    .into_iter()
    .map(|(tool, args)| (tool, args.to_string()))
    .collect()
}

#[test]
fn a_static_set_answers_every_thread_as_it_answers_one() {
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    );
    let calls = calls();
    let expected: Vec<_> = calls.iter().map(|(t, a)| tools.handle(t, a)).collect();
    thread::scope(|scope| {
        for worker in 0..8 {
            let (tools, calls, expected) = (&tools, &calls, &expected);
            scope.spawn(move || {
                for round in 0..40 {
                    // Each worker walks the calls in its own order.
                    for k in 0..calls.len() {
                        let i = (k * (worker + 1) + round) % calls.len();
                        let (tool, args) = &calls[i];
                        assert_eq!(tools.handle(tool, args), expected[i], "{tool} {args}");
                    }
                    let name = &SKILLS.names().nth(round % SKILLS.len()).unwrap();
                    assert_eq!(SKILLS.get(name).unwrap().name(), *name);
                }
            });
        }
    });
}

/// A skill folder written aside (in a dot-folder, which scans skip) and renamed into place, so
/// it appears on disk whole: its body and its resource carry the same tag.
fn publish(root: &Path, name: &str, tag: &str) {
    let staging = root.join(format!(".staging-{name}"));
    fs::create_dir_all(staging.join("references")).unwrap();
    let text = format!("---\nname: {name}\ndescription: Published skill {name}.\n---\n{tag}\n");
    fs::write(staging.join("SKILL.md"), text).unwrap();
    fs::write(staging.join("references/tag.md"), format!("{tag}\n")).unwrap();
    fs::rename(&staging, root.join(name)).unwrap();
}

/// The published skills of a snapshot, checked whole: bodies match their resources, and the
/// skills present are exactly `s-000` up to some number (they are published in order).
fn published(set: &SkillSet) -> usize {
    let names: Vec<&str> = set.names().filter(|n| n.starts_with("s-")).collect();
    for (i, name) in names.iter().enumerate() {
        assert_eq!(*name, format!("s-{i:03}"), "a gap in {names:?}");
        let skill = set.get(name).unwrap();
        let tag = skill.load("references/tag.md").unwrap();
        assert_eq!(Some(skill.body()), tag.text(), "{name} is half-built");
    }
    for embedded in SKILLS.names() {
        assert!(set.get(embedded).is_ok(), "{embedded} is missing");
    }
    names.len()
}

#[test]
fn reloads_during_loads_and_during_other_reloads_never_serve_a_half_built_or_older_set() {
    const SKILLS_TO_PUBLISH: usize = 24;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let overlay = Overlay::new(&SKILLS, Discovery::only(root));
    let done = AtomicBool::new(false);
    let reloads = AtomicUsize::new(0);
    thread::scope(|scope| {
        // Readers: every snapshot is whole, and never goes back in time.
        for _ in 0..3 {
            let (overlay, done) = (&overlay, &done);
            scope.spawn(move || {
                let mut last = 0;
                while !done.load(Ordering::Acquire) {
                    let snapshot = overlay.snapshot();
                    let now = published(&snapshot);
                    assert!(
                        now >= last,
                        "a snapshot went back from {last} to {now} skills"
                    );
                    last = now;
                    let tools = Tools::new(std::sync::Arc::clone(&snapshot), Settings::default());
                    let out =
                        tools.handle("load_skill", &json!({"skill": "pdf-forms"}).to_string());
                    assert!(!out.is_error);
                }
            });
        }
        // Background reloads, as a watcher thread would make them.
        for _ in 0..2 {
            let (overlay, done, reloads) = (&overlay, &done, &reloads);
            scope.spawn(move || {
                while !done.load(Ordering::Acquire) {
                    overlay.reload();
                    reloads.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // The writer: after its own reload returns, what it published is served.
        for i in 0..SKILLS_TO_PUBLISH {
            let name = format!("s-{i:03}");
            publish(root, &name, &format!("tag {i}"));
            overlay.reload();
            let snapshot = overlay.snapshot();
            assert!(
                snapshot.get(&name).is_ok(),
                "{name} was published before the reload, but the set after it lacks it"
            );
            assert_eq!(published(&snapshot), i + 1);
        }
        done.store(true, Ordering::Release);
    });
    assert!(reloads.load(Ordering::Relaxed) > 0);
    assert_eq!(published(&overlay.snapshot()), SKILLS_TO_PUBLISH);
}

#[test]
fn one_session_shared_by_threads_keeps_its_answers_consistent() {
    let tools = Tools::new(
        &SKILLS,
        Settings {
            permissions: rules(),
            ..Settings::default()
        },
    );
    let session = Arc::new(Mutex::new(Session::new(tools).unload_after(3)));
    // Set, under the session's lock, once the user has answered `Always` for deploy.
    let always = Arc::new(AtomicBool::new(false));
    let deploy = json!({"skill": "deploy"}).to_string();
    thread::scope(|scope| {
        for worker in 0..6usize {
            let (session, always, deploy) = (&session, &always, &deploy);
            scope.spawn(move || {
                let calls = calls();
                for round in 0..60 {
                    let (tool, args) = &calls[(worker * 7 + round) % calls.len()];
                    let mut s = session.lock().unwrap();
                    let out = s.handle(tool, args);
                    assert!(!out.text.contains(SECRET));
                    // The deploy skill asks until `Always` was answered, and never after.
                    let out = s.handle("load_skill", deploy);
                    let granted = always.load(Ordering::Acquire);
                    assert_eq!(out.approval.is_some(), !granted, "{}", out.text);
                    for pending in s.pending_approvals().cloned().collect::<Vec<_>>() {
                        let answer = match (worker + round) % 7 {
                            0 => Answer::Always,
                            1 | 2 => Answer::Reject,
                            _ => Answer::Once,
                        };
                        let out = s.answer(&pending, answer).expect("it was pending");
                        if answer == Answer::Reject {
                            assert!(out.is_error && out.text.contains("declined"));
                        } else {
                            assert!(!out.is_error, "{}", out.text);
                        }
                        if answer == Answer::Always {
                            always.store(true, Ordering::Release);
                        }
                    }
                    if round % 5 == 0 {
                        s.next_turn();
                    }
                    drop(s);
                    thread::yield_now();
                }
            });
        }
    });
    let mut s = session.lock().unwrap();
    let events = s.drain_events();
    // The denied skill was never loaded, and every load is of a skill that exists.
    let loaded: BTreeSet<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Loaded { skill } => Some(skill.clone()),
            _ => None,
        })
        .collect();
    assert!(!loaded.contains("internal-notes"));
    assert!(
        loaded.iter().all(|name| SKILLS.get(name).is_ok()),
        "{loaded:?}"
    );
    assert!(
        always.load(Ordering::Acquire),
        "the schedule answers Always at least once"
    );
}

#[test]
fn sessions_over_snapshots_keep_their_set_while_reloads_swap_it() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    publish(root, "s-000", "version 0");
    let overlay = Overlay::new(&SKILLS, Discovery::only(root));
    thread::scope(|scope| {
        for _ in 0..4 {
            let overlay = &overlay;
            scope.spawn(move || {
                for _ in 0..30 {
                    let snapshot = overlay.snapshot();
                    let expected = snapshot.get("s-000").unwrap().body().to_owned();
                    let mut session = Session::new(Tools::new(
                        std::sync::Arc::clone(&snapshot),
                        Settings::default(),
                    ));
                    for _ in 0..5 {
                        let args = json!({"skill": "s-000", "path": "references/tag.md"});
                        let out = session.handle("load_skill", &args.to_string());
                        assert!(out.text.contains(expected.trim_end()), "{}", out.text);
                        session.next_turn();
                    }
                }
            });
        }
        scope.spawn(|| {
            for version in 1..15 {
                // Replace the skill whole: a new folder renamed over a removed one.
                let old = root.join(".old");
                fs::rename(root.join("s-000"), &old).unwrap();
                publish(root, "s-000", &format!("version {version}"));
                fs::remove_dir_all(&old).unwrap();
                overlay.reload();
            }
        });
    });
}
