//! Issue 25 item 4: `skills extract` redirected outside DEST mid-write. Another thread swaps
//! `DEST/<skill>/scripts` (in other rounds `scripts/lib/deep`, or `DEST/<skill>` itself) between a
//! folder and a link to a folder outside DEST while the command writes; nothing may land outside
//! DEST. Before the fix the command wrote 2,886 files outside in 3 of 40 rounds, exit status 0.
//!
//! Bounded: a fixed number of rounds and of runs per round; the swapping thread stops when the
//! runs are done (and after a fixed number of swaps in any case).
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

const ROUNDS: usize = 9;
const RUNS: usize = 4;
const MAX_SWAPS: usize = 200_000;

/// A skill folder `racy` under `root` with many files in `scripts/` and `scripts/lib/deep/`;
/// `version` changes every file, so that each run writes them all again.
fn source(root: &Path, version: u8) -> PathBuf {
    let dir = root.join(format!("src-{version}"));
    let skill = dir.join("racy");
    fs::create_dir_all(skill.join("scripts/lib/deep")).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        format!("---\nname: racy\ndescription: Has many scripts.\n---\nVersion {version}.\n"),
    )
    .unwrap();
    for i in 0..80 {
        let script = skill.join(format!("scripts/run-{i:03}.sh"));
        fs::write(&script, format!("#!/bin/sh\necho {version} {i}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        fs::write(
            skill.join(format!("scripts/lib/deep/part-{i:03}.txt")),
            [version; 64],
        )
        .unwrap();
    }
    dir
}

/// Regular files below `dir`, links not followed.
fn regular_files(dir: &Path) -> usize {
    let mut count = 0;
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => stack.push(entry.path()),
                Ok(kind) if kind.is_file() => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// Keeps swapping `folder` between a real folder (parked beside it meanwhile) and a link to
/// `outside` until `stop`.
fn swapper(folder: PathBuf, outside: PathBuf, stop: Arc<AtomicBool>) -> thread::JoinHandle<usize> {
    thread::spawn(move || {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let parked = folder.with_file_name(format!("{name}.parked"));
        let link = folder.with_file_name(format!("{name}.link"));
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) && swaps < MAX_SWAPS {
            // The folder stays longer than the link, so that a check sees a folder and the
            // writes after it meet the link.
            thread::sleep(Duration::from_millis(1));
            let _ = symlink(&outside, &link);
            if fs::rename(&folder, &parked).is_ok() {
                let _ = fs::rename(&link, &folder);
                thread::yield_now();
                let _ = fs::rename(&folder, &link);
                let _ = fs::rename(&parked, &folder);
                swaps += 1;
            }
        }
        let _ = fs::remove_file(&link);
        swaps
    })
}

#[test]
fn skills_extract_never_writes_outside_dest_while_a_folder_is_swapped_for_a_link() {
    let work = tempfile::tempdir().unwrap();
    let sources = [source(work.path(), 1), source(work.path(), 2)];
    let extract = |source: &Path, dest: &Path| {
        Command::new(env!("CARGO_BIN_EXE_skills-cli"))
            .arg("extract")
            .arg(source)
            .arg("racy")
            .arg(dest)
            .output()
            .expect("the skills binary runs")
    };
    let (mut outside_files, mut rounds_with_escapes, mut exit_0, mut swaps) = (0, 0, 0, 0);
    let mut refusal = None;
    for round in 0..ROUNDS {
        let round_dir = work.path().join(format!("round-{round}"));
        let dest = round_dir.join("dest");
        let outside = round_dir.join("outside");
        // Laid out like the skill's folders, so that a write through the link finds them.
        for mirror in ["a/lib/deep", "b", "c/scripts/lib/deep", "c/references"] {
            fs::create_dir_all(outside.join(mirror)).unwrap();
        }
        let first = extract(&sources[0], &dest);
        assert_eq!(
            first.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&first.stderr)
        );
        let skill = dest.join("racy");
        let (folder, target) = match round % 3 {
            0 => (skill.join("scripts"), outside.join("a")),
            1 => (skill.join("scripts/lib/deep"), outside.join("b")),
            _ => (skill.clone(), outside.join("c")),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let thread = swapper(folder, target, Arc::clone(&stop));
        for run in 0..RUNS {
            let out = extract(&sources[(run + 1) % 2], &dest);
            if out.status.success() {
                exit_0 += 1;
            } else if refusal.is_none() {
                refusal = Some(String::from_utf8_lossy(&out.stderr).into_owned());
            }
        }
        stop.store(true, Ordering::Relaxed);
        swaps += thread.join().unwrap();
        let escaped = regular_files(&outside);
        if escaped > 0 {
            rounds_with_escapes += 1;
        }
        outside_files += escaped;
    }
    println!(
        "{ROUNDS} rounds of {RUNS} runs: {exit_0} exited 0, {swaps} swaps; {outside_files} files \
         written outside DEST in {rounds_with_escapes} rounds; a refusal: {refusal:?}"
    );
    assert_eq!(
        outside_files, 0,
        "files written outside DEST in {rounds_with_escapes} of {ROUNDS} rounds"
    );
    if let Some(refusal) = refusal {
        assert!(
            refusal.contains("symbolic link") || refusal.contains("Could not"),
            "{refusal}"
        );
    }
}
