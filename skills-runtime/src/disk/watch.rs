//! Reloading an overlay in the background when its folders change.
//!
//! A thread polls the roots' fingerprints (paths, sizes, modification times: no file is read
//! unless something changed) and reloads. Polling needs no platform notification API and sees
//! changes on network and container file systems where notifications are unreliable.
//!
//! Each poll walks under the one walk policy ([`crate::parse::walk`]): no link out of the root,
//! each real folder once per skill, capped depth and entries, and the time limit of the
//! overlay's [`Discovery::scan`](super::Discovery::scan), so no tree can hold the thread for
//! ever. Readers are never held either: [`Overlay::snapshot`] returns the last complete set at
//! once while a reload runs here.

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use super::overlay::{Overlay, ReloadReport};

/// A running watcher; dropping it stops the thread.
#[derive(Debug)]
pub struct Watcher {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    /// Stops the watcher and waits for its thread.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Reloads `overlay` every `every` and calls `on_change` with each report that changed the set
/// or kept a broken skill's previous version.
///
/// ```no_run
/// use std::sync::Arc;
/// use std::time::Duration;
/// use skills_embed_runtime::disk::{Discovery, Overlay, watch};
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
/// let watcher = watch::watch(Arc::clone(&overlay), Duration::from_secs(2), |report| {
///     eprintln!("skills changed: +{:?} -{:?} ~{:?}", report.added, report.removed, report.changed);
/// });
/// // ... serve tool calls from overlay.snapshot() ...
/// watcher.stop();
/// ```
pub fn watch<Id, F>(overlay: Arc<Overlay<Id>>, every: Duration, mut on_change: F) -> Watcher
where
    Id: Send + Sync + 'static,
    F: FnMut(&ReloadReport) + Send + 'static,
{
    let (stop, stopped) = mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        loop {
            match stopped.recv_timeout(every) {
                Err(RecvTimeoutError::Timeout) => {
                    let report = overlay.reload();
                    if !report.is_empty() || !report.kept.is_empty() {
                        on_change(&report);
                    }
                }
                // A stop message, or the watcher was dropped.
                Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    });
    Watcher {
        stop: Some(stop),
        thread: Some(thread),
    }
}
