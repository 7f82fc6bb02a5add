//! Reloading an overlay in the background when its folders change.
//!
//! A thread polls the roots' fingerprints (paths, sizes, times, permissions: no file is read
//! unless something changed) and reloads. Polling needs no platform notification API and sees
//! changes on network and container file systems where notifications are unreliable.
//!
//! Each poll walks under the one walk policy ([`crate::parse::walk`]): no link out of the root,
//! each real folder once per skill, capped depth and entries, and the time limit of the
//! overlay's discovery (`scan.max_time`), so no tree can hold the thread for
//! ever. Readers are never held either: [`Overlay::snapshot`](super::Overlay::snapshot) returns the last complete set at
//! once while a reload runs here.

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::{JoinHandle, ThreadId};
use std::time::Duration;

/// A running watcher, held by its overlay; dropping it stops the thread.
#[derive(Debug)]
pub(crate) struct Watcher {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        drop(self.stop.take());
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
/// `tick` every `every` until `tick` returns `false` (the overlay, held weakly, is gone) or the
/// watcher is dropped.
pub(crate) fn spawn(
    every: Duration,
    mut tick: impl FnMut() -> bool + Send + 'static,
) -> std::io::Result<Watcher> {
    let (stop, stopped) = mpsc::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("skills-reload".into())
        .spawn(move || {
            lowest_priority();
            loop {
                match stopped.recv_timeout(every) {
                    Err(RecvTimeoutError::Timeout) => {
                        if !tick() {
                            return;
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
