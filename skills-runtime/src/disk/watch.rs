//! Reloading an overlay in the background when its folders change.
//!
//! The file system says when (notify: inotify, FSEvents, ReadDirectoryChangesW). The watches
//! are one per folder the overlay's last walk found (each root, the folders down to each skill
//! and those holding its files), never a recursive watch, whose own walk would follow neither
//! the walk policy nor its caps. A burst of changes (a checkout, an editor's save) is one
//! reload, `every` after its first change.
//!
//! The thread also polls the roots' fingerprints (paths, sizes, times, permissions: no file is
//! read unless something changed): every `every` while some folder could not be watched (a root
//! that does not exist yet, the system's watch limit, no notification API) and for [`POLL`]
//! after a change (a folder just made holds no watch yet: `mkdir` then a SKILL.md in it), every
//! [`POLL`] otherwise, for what no watch reports (a network file system changed from another
//! machine, a file added to a folder that held none).
//!
//! Each reload walks under the one walk policy ([`crate::parse::walk`]): no link out of the
//! root, each real folder once per skill, capped depth and entries, and the time limit of the
//! overlay's discovery (`scan.max_time`), so no tree can hold the thread for ever. Readers are
//! never held either: [`Overlay::snapshot`](super::Overlay::snapshot) returns the last
//! complete set at once while a reload runs here.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread::{JoinHandle, ThreadId};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher as _};

/// How often the thread polls when every folder is watched.
pub(crate) const POLL: Duration = Duration::from_secs(10);

/// What the thread asks of its overlay.
pub(crate) enum Tick {
    /// The folders to watch, as the last reload left them.
    Folders,
    /// Reload, then the folders to watch if the reload scanned a root again.
    Reload,
}

/// What the overlay answers.
pub(crate) enum Seen {
    /// The folders to watch.
    Folders(BTreeSet<PathBuf>),
    /// No root was scanned again: the same folders (most polls; computing them again costs a
    /// walk's worth of path comparisons).
    Same,
}

/// A running watcher, held by its overlay; dropping it stops the thread.
#[derive(Debug)]
pub(crate) struct Watcher {
    stopped: Arc<AtomicBool>,
    wake: SyncSender<()>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stopped.store(true, Ordering::Release);
        // A wake already pending serves as well: the thread reads the flag at every wake.
        let _ = self.wake.try_send(());
        if let Some(thread) = self.thread.take() {
            // The watcher's own thread may drop the last handle on the overlay (a reload holds
            // one): it ends by itself then, and cannot wait for itself.
            let own: ThreadId = std::thread::current().id();
            if thread.thread().id() != own {
                let _ = thread.join();
            }
        }
    }
}

/// Starts the `skills-reload` thread of [`Overlay::watch`](super::Overlay::watch): it calls
/// `tick` when a watched folder changed (once per `every`), when a poll is due, and until
/// `tick` returns `None` (the overlay, held weakly, is gone) or the watcher is dropped.
/// `poll` is the interval while every folder is watched and nothing changed lately ([`POLL`];
/// tests lengthen it).
pub(crate) fn spawn(
    every: Duration,
    poll: Duration,
    mut tick: impl FnMut(Tick) -> Option<Seen> + Send + 'static,
) -> std::io::Result<Watcher> {
    // One wake at most waits: a change already pending covers the next ones, so a storm of
    // writes queues nothing.
    let (wake, wakes) = mpsc::sync_channel::<()>(1);
    let stopped = Arc::new(AtomicBool::new(false));
    let changed = wake.clone();
    let stop = Arc::clone(&stopped);
    let thread = std::thread::Builder::new()
        .name("skills-reload".into())
        .spawn(move || {
            lowest_priority();
            let woken = Woken {
                wakes,
                stopped: stop,
            };
            let mut folders = Watches::new(changed);
            let Some(first) = tick(Tick::Folders) else {
                return;
            };
            // Watched, then reloaded at once: a change between the last scan and the watches is
            // seen now rather than at the next poll.
            folders.watch(first);
            let mut fast_until = None;
            loop {
                let Some(now) = tick(Tick::Reload) else {
                    return;
                };
                folders.watch(now);
                let fast = !folders.complete || fast_until.is_some_and(|t| Instant::now() < t);
                match woken.wait(if fast { every } else { poll }) {
                    Some(true) => {
                        if !woken.settle(every) {
                            return;
                        }
                        fast_until = Some(Instant::now() + poll);
                    }
                    Some(false) => {}
                    None => return,
                }
            }
        })?;
    Ok(Watcher {
        stopped,
        wake,
        thread: Some(thread),
    })
}

/// The thread's end of the wakes.
struct Woken {
    wakes: Receiver<()>,
    stopped: Arc<AtomicBool>,
}

impl Woken {
    /// Waits up to `timeout`: `Some(true)` woken by a change, `Some(false)` not, `None` when
    /// the watcher was dropped.
    fn wait(&self, timeout: Duration) -> Option<bool> {
        let changed = match self.wakes.recv_timeout(timeout) {
            Ok(()) => true,
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => return None,
        };
        (!self.stopped.load(Ordering::Acquire)).then_some(changed)
    }

    /// Waits `every` after a first change, taking in the rest of its burst; `false` when the
    /// watcher was dropped meanwhile.
    fn settle(&self, every: Duration) -> bool {
        let until = Instant::now() + every;
        loop {
            match self.wait(until.saturating_duration_since(Instant::now())) {
                Some(true) => {}
                Some(false) => return true,
                None => return false,
            }
        }
    }
}

/// The watched folders and the file system's watcher.
struct Watches {
    notifier: Option<notify::RecommendedWatcher>,
    watched: BTreeSet<PathBuf>,
    /// Whether every folder asked for is watched.
    complete: bool,
}

impl Watches {
    fn new(changed: SyncSender<()>) -> Self {
        // Without a notifier every folder counts as unwatched: the thread polls every `every`.
        let notifier = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            // Reads are not changes: the reloads' own opens would wake the thread again.
            let read = matches!(&event, Ok(e) if matches!(e.kind, EventKind::Access(_)));
            if !read {
                let _ = changed.try_send(());
            }
        })
        .ok();
        Watches {
            notifier,
            watched: BTreeSet::new(),
            complete: false,
        }
    }

    /// Watches the folders `seen` names and nothing else.
    fn watch(&mut self, seen: Seen) {
        let Seen::Folders(wanted) = seen else {
            return;
        };
        let Some(notifier) = self.notifier.as_mut() else {
            self.complete = false;
            return;
        };
        for gone in self.watched.difference(&wanted) {
            let _ = notifier.unwatch(gone);
        }
        let mut complete = true;
        let mut watched = BTreeSet::new();
        for folder in wanted {
            let ok = self.watched.contains(&folder)
                || notifier.watch(&folder, RecursiveMode::NonRecursive).is_ok();
            if ok {
                watched.insert(folder);
            } else {
                complete = false;
            }
        }
        self.watched = watched;
        self.complete = complete;
    }
}

/// Nice 19 for the calling thread. Linux keeps a nice value per thread, so this leaves the
/// rest of the process alone; elsewhere `setpriority` would lower the whole process, so the
/// thread keeps the default there. Failing to lower it only costs answers some CPU.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With polling pushed out to an hour, only the file system's notification can bring the
    /// second reload.
    #[test]
    fn a_change_in_a_watched_folder_brings_a_reload() {
        let tmp = tempfile::tempdir().unwrap();
        let folder = tmp.path().to_path_buf();
        let (reloaded, reloads) = mpsc::channel();
        let watched = BTreeSet::from([folder.clone()]);
        let _watcher = spawn(
            Duration::from_millis(50),
            Duration::from_secs(3600),
            move |tick| {
                if let Tick::Reload = tick {
                    let _ = reloaded.send(());
                }
                Some(Seen::Folders(watched.clone()))
            },
        )
        .unwrap();
        let wait = || reloads.recv_timeout(Duration::from_secs(30));
        // The first reload comes once the folder is watched.
        wait().expect("the reload at start");
        for i in 0..3 {
            std::fs::write(folder.join(format!("note-{i}.md")), "text").unwrap();
        }
        wait().expect("a reload after the writes");
    }
}
