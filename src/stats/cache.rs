//! [`CountsCache`]: an index's counts kept between calls of a long-running server.
//!
//! Counting walks every chunk of an index and every page of its tables (hundreds of
//! milliseconds on the standard library's 50,000 chunks), yet the counts change only when a run
//! writes the index. A server that lists its indexes on every page load keeps them, keyed by
//! what every write changes: the index's creation and update times and its latest run (id,
//! status, end). While the latest run is still running the counts move under it, so they are
//! neither kept nor answered from the cache then.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use crate::store::{IndexCounts, IndexMeta, IndexReader, RunRecord, RunStatus, StoreError};

/// Index counts by store and index name, each valid for one state of the index.
#[derive(Debug, Default)]
pub struct CountsCache {
    entries: Mutex<HashMap<(String, String), (CountsKey, IndexCounts)>>,
}

/// What changes whenever the index's content may have changed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CountsKey {
    created_at: SystemTime,
    updated_at: SystemTime,
    run: Option<(i64, RunStatus, Option<SystemTime>)>,
}

impl CountsCache {
    /// The counts of `meta`'s index, whose latest run is `latest`: kept ones when the index has
    /// not changed since they were counted, else counted now (and kept unless a run is writing).
    pub(crate) fn counts(
        &self,
        location: String,
        reader: &dyn IndexReader,
        meta: &IndexMeta,
        latest: Option<&RunRecord>,
    ) -> Result<IndexCounts, StoreError> {
        let slot = (location, meta.name.clone());
        let key = CountsKey {
            created_at: meta.created_at,
            updated_at: meta.updated_at,
            run: latest.map(|r| (r.id, r.status, r.finished_at)),
        };
        let running = latest.is_some_and(|r| r.status == RunStatus::Running);
        if !running
            && let Some((kept, counts)) = self.lock().get(&slot)
            && *kept == key
        {
            return Ok(counts.clone());
        }
        // Counted after the key was read: a run that starts in between changes the key the next
        // call reads, so what is kept here is never answered for a later state of the index.
        let counts = reader.index_counts()?;
        let mut entries = self.lock();
        if running {
            entries.remove(&slot);
        } else {
            entries.insert(slot, (key, counts.clone()));
        }
        Ok(counts)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), (CountsKey, IndexCounts)>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
