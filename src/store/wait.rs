//! Waiting for an index's write lock. One writer per index is the rule (a `cocosearch index`
//! run, an MCP server's job, a watcher's batch); a writer that finds the lock taken waits for
//! it, so a watcher and a command-line run take turns instead of one failing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{IndexWriter, Store, StoreError};

/// How long a writer waits for the lock.
#[derive(Clone, Copy)]
pub enum Patience<'a> {
    /// Until the lock is free, or until this flag is set (Ctrl-C, a watcher stopping).
    UntilCancelled(&'a AtomicBool),
    /// At most this long: a request that answers in its call (an MCP tool).
    Within(Duration),
}

/// How often a waiting writer tries again. Short, because the other writers let go between
/// steps (a watcher's batch, one page of vectors) and come back quickly.
const RETRY: Duration = Duration::from_millis(20);

/// The index's writer once its lock is free. `on_wait` runs once, when the lock is first
/// found taken (to say so). Returns [`StoreError::Busy`] when patience runs out.
pub fn writer_when_free(
    store: &dyn Store,
    name: &str,
    patience: Patience<'_>,
    on_wait: &mut dyn FnMut(),
) -> Result<Box<dyn IndexWriter>, StoreError> {
    let started = Instant::now();
    let mut said = false;
    loop {
        match store.writer(name) {
            Err(StoreError::Busy(index)) => {
                let out_of_patience = match patience {
                    Patience::UntilCancelled(cancel) => cancel.load(Ordering::Relaxed),
                    Patience::Within(limit) => started.elapsed() >= limit,
                };
                if out_of_patience {
                    return Err(StoreError::Busy(index));
                }
                if !said {
                    said = true;
                    on_wait();
                }
                std::thread::sleep(RETRY);
            }
            other => return other,
        }
    }
}
