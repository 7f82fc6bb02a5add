//! Reloading an overlay in the background when its folders change.
//!
//! A thread polls the roots' fingerprints (paths, sizes, times, permissions: no file is read
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
/// The thread is named `skills-reload`. On Linux it runs at the lowest CPU priority (nice 19),
/// so a walk of a large tree waits for idle time rather than delaying the threads that answer
/// (on a busy server a reload takes longer, it is not skipped). The error is the operating
/// system's refusal to start a thread.
///
/// ```no_run
/// use std::sync::Arc;
/// use std::time::Duration;
/// use skills_embed_runtime::disk::{Discovery, Overlay, watch};
/// # static SKILLS: skills_embed_runtime::SkillSet = skills_embed_runtime::SkillSet::empty();
/// # fn main() -> std::io::Result<()> {
/// let overlay = Arc::new(Overlay::new(&SKILLS, Discovery::default()));
/// let watcher = watch(Arc::clone(&overlay), Duration::from_secs(2), |report| {
///     eprintln!("skills changed: +{:?} -{:?} ~{:?}", report.added, report.removed, report.changed);
/// })?;
/// // ... serve tool calls from overlay.snapshot() ...
/// watcher.stop();
/// # Ok(())
/// # }
/// ```
pub fn watch<Id, F>(
    overlay: Arc<Overlay<Id>>,
    every: Duration,
    mut on_change: F,
) -> std::io::Result<Watcher>
where
    Id: Send + Sync + 'static,
    F: FnMut(&ReloadReport) + Send + 'static,
{
    let (stop, stopped) = mpsc::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("skills-reload".into())
        .spawn(move || {
            lowest_priority();
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
        })?;
    Ok(Watcher {
        stop: Some(stop),
        thread: Some(thread),
    })
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
