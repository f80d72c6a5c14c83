//! The watchers a server process runs, by store and index: what `state::Workspace` holds so that
//! `live.rs` can start one per index and stop it again.

use std::collections::HashMap;
use std::sync::Mutex;

use super::watch::Watching;

/// The watch of one index in this process.
pub(super) enum Slot {
    /// Its first run is under way.
    Starting,
    /// Watching (held for its `Drop`, which stops the watcher).
    Running(#[expect(dead_code, reason = "held so that dropping the slot stops the watcher")] Watching),
    /// Not watched from here (another process watches it, or starting failed): not retried
    /// for the life of the server.
    Declined,
}

/// The watchers of this process, by store location and index.
#[derive(Default)]
pub(super) struct Watchers {
    pub(super) slots: Mutex<HashMap<(String, String), Slot>>,
}
