//! Issue 25 item 4: extraction redirected outside DEST mid-write. Another thread swaps
//! `DEST/<skill>/scripts` (in other rounds `scripts/lib/deep`, or `DEST/<skill>` itself) between a
//! folder and a link to a folder outside DEST while `disk::extract` writes; every write must stay
//! inside DEST. Each folder used to be checked once and then written by path, so a swap between the
//! check and the writes sent files outside.
//!
//! Bounded: a fixed number of rounds and of extractions per round; the swapping threads stop
//! when the extractions are done (and after a fixed number of swaps in any case).
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use skills_embed::__private::extract;
use skills_embed::{Fields, File, Skill};

const ROUNDS: usize = 12;
const CALLS: usize = 4;
/// A swapping thread gives up after this many swaps even if never told to stop.
const MAX_SWAPS: usize = 200_000;

/// A skill with many files in `scripts/` and in `scripts/lib/deep/`, so that a call spends
/// long enough writing for the swaps to land between its writes; `version` changes every
/// file, so that each call writes them all again.
pub(crate) fn many_files(version: u8) -> Skill {
    let mut files = Vec::new();
    for i in 0..80 {
        let text = format!("#!/bin/sh\necho {version} {i}\n");
        files.push(File::owned(
            format!("scripts/run-{i:03}.sh"),
            text.into_bytes(),
            true,
        ));
        files.push(File::owned(
            format!("scripts/lib/deep/part-{i:03}.txt"),
            vec![version; 64],
            false,
        ));
    }
    files.push(File::owned(
        "references/guide.md".into(),
        vec![b'g', version],
        false,
    ));
    let fields = Fields {
        name: "racy".into(),
        description: "Has many scripts.".into(),
        ..Fields::default()
    };
    Skill::owned(fields, format!("Version {version}.\n"), files)
}

/// Regular files below `dir`, links not followed (the swapping threads make only links and
/// move folders, so every regular file here was written by an extraction).
pub(crate) fn regular_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    out
}

/// Keeps swapping `folder` between a real folder and a link to `outside` until `stop`: the
/// real folder is parked beside it under another name while the link is in place.
pub(crate) fn swapper(
    folder: PathBuf,
    outside: PathBuf,
    stop: Arc<AtomicBool>,
) -> thread::JoinHandle<usize> {
    thread::spawn(move || {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let parked = folder.with_file_name(format!("{name}.parked"));
        let link = folder.with_file_name(format!("{name}.link"));
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) && swaps < MAX_SWAPS {
            // Folder out, link in; then link out, folder back. Failures are expected (the
            // folder may not exist yet, or its parent may be swapped itself).
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
            } else {
                thread::yield_now();
            }
        }
        let _ = fs::remove_file(&link);
        swaps
    })
}

/// The race for `disk::extract` in this process.
#[test]
fn a_folder_swapped_for_a_link_mid_extraction_never_sends_a_write_outside() {
    let versions = [many_files(1), many_files(2)];
    let mut outside_files = 0;
    let mut rounds_with_escapes = 0;
    let (mut ok, mut refused, mut swaps) = (0, 0, 0);
    for round in 0..ROUNDS {
        let work = tempfile::tempdir().unwrap();
        let dest = work.path().join("dest");
        let outside = work.path().join("outside");
        // The outside folder mirrors the skill's, as an attacker would lay it out, so that a
        // write through the link finds the folders it expects.
        for mirror in ["a/lib/deep", "b", "c/scripts/lib/deep", "c/references"] {
            fs::create_dir_all(outside.join(mirror)).unwrap();
        }
        // The first call makes the folders the swapping threads work on.
        extract(&versions[0], &dest).unwrap();
        let skill = dest.join("racy");
        let stop = Arc::new(AtomicBool::new(false));
        // Rounds take turns at `scripts`, `scripts/lib/deep` and the skill's folder itself
        // (swapping two at once, one inside the other, would have one thread move the other's
        // links around).
        let (folder, target) = match round % 3 {
            0 => (skill.join("scripts"), outside.join("a")),
            1 => (skill.join("scripts/lib/deep"), outside.join("b")),
            _ => (skill.clone(), outside.join("c")),
        };
        let thread = swapper(folder, target, Arc::clone(&stop));
        for call in 0..CALLS {
            match extract(&versions[(call + 1) % 2], &dest) {
                Ok(_) => ok += 1,
                Err(e) => {
                    if refused < 3 {
                        println!("refused: {e}");
                    }
                    refused += 1;
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        swaps += thread.join().unwrap();
        let escaped = regular_files(&outside);
        if !escaped.is_empty() {
            rounds_with_escapes += 1;
        }
        outside_files += escaped.len();
    }
    println!(
        "{ROUNDS} rounds of {CALLS} calls: {ok} completed, {refused} refused, {swaps} swaps; \
         {outside_files} files written outside DEST in {rounds_with_escapes} rounds"
    );
    assert_eq!(
        outside_files, 0,
        "files written outside DEST in {rounds_with_escapes} of {ROUNDS} rounds"
    );
}
