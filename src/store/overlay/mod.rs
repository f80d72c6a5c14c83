//! A team's shared index read through a local overlay, as one index.
//!
//! The *base* is an index in a shared store (PostgreSQL, opened with a read-only role); the
//! *overlay* is the local index of the same project holding only the files whose content
//! differs from the base's copy (local commits, other branches, uncommitted edits). An
//! [`Overlaid`] store answers for the project's index with the base's files the working tree
//! still holds unchanged ([`BaseView::kept`]) plus every file of the overlay; every other
//! operation, and every write, goes to the local store alone.
//!
//! Invariants:
//! - A base file is read only when it is in [`BaseView::kept`], which the caller fills with
//!   files whose content hash equals the working tree's copy: no answer shows a shared file
//!   whose content differs from the user's.
//! - Nothing is ever written to the base: writers, migrations, runs, tasks and the query cache
//!   are the local store's.
//! - Chunk ids of the overlay carry [`LOCAL`], so ids of the two never collide and each read
//!   by id goes to the side that owns it.
//! - BM25's statistics are the base's minus the files it does not show plus the overlay's, so
//!   base and overlay rank as one clean index of the working tree would.

mod ledger;
mod reader;

pub use ledger::{Ledger, Verified, ledger_path};

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::config::DatabaseSettings;

use super::postgres::PgStore;
use super::{
    At, Backend, FileState, Health, IndexMeta, IndexReader, IndexWriter, NewIndex, Store, StoreError, TaskStore,
};

/// The bit marking an overlay chunk's id (below the bits `search::union` qualifies ids with).
const LOCAL: i64 = 1 << 42;

/// What of the base a working tree can use.
#[derive(Debug, Clone, Default)]
pub struct BaseView {
    /// The base's files whose content equals the working tree's, with the working tree's own
    /// size and mtime (so freshness checks compare them with the disk).
    pub kept: HashMap<String, FileState>,
    /// The base's other files: changed, gone or left out here; never read from the base.
    pub shadowed: Vec<String>,
}

/// Where the base is, and which of its indexes is the project's.
#[derive(Clone)]
pub struct Base {
    /// The shared store (opened read-only).
    pub store: Arc<dyn Store>,
    /// The shared index's name there.
    pub index: String,
    /// What of it the working tree can use.
    pub view: Arc<BaseView>,
}

/// How much of a shared index a working tree reads, for `stats`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SharedUse {
    /// The shared index's name.
    pub index: String,
    /// Where it is (secrets redacted).
    pub location: String,
    /// Its files read as they are (equal to the working tree's copy).
    pub files: u64,
    /// Its files the working tree changed, removed or left out: read from the overlay, or not
    /// at all.
    pub shadowed: u64,
}

impl Base {
    /// How much of the base the working tree reads.
    pub fn used(&self) -> SharedUse {
        SharedUse {
            index: self.index.clone(),
            location: self.store.location(),
            files: self.view.kept.len() as u64,
            shadowed: self.view.shadowed.len() as u64,
        }
    }
}

/// The local store, with index `local_index` read as the base plus its overlay.
pub struct Overlaid {
    local: Arc<dyn Store>,
    local_index: String,
    base: Base,
}

impl Overlaid {
    /// `local`'s index `local_index` read over `base`.
    pub fn new(local: Arc<dyn Store>, local_index: &str, base: Base) -> Overlaid {
        Overlaid { local, local_index: local_index.to_string(), base }
    }
}

impl Store for Overlaid {
    fn backend(&self) -> Backend {
        self.local.backend()
    }

    fn location(&self) -> String {
        format!("{} over {}", self.local.location(), self.base.store.location())
    }

    fn health(&self) -> Result<Health, StoreError> {
        self.local.health()
    }

    fn migrate(&self) -> Result<(), StoreError> {
        self.local.migrate()
    }

    fn get_index(&self, name: &str) -> Result<Option<IndexMeta>, StoreError> {
        self.local.get_index(name)
    }

    fn list_indexes(&self) -> Result<Vec<IndexMeta>, StoreError> {
        self.local.list_indexes()
    }

    fn create_index(&self, new: &NewIndex) -> Result<IndexMeta, StoreError> {
        self.local.create_index(new)
    }

    fn reader_at(&self, name: &str, at: At) -> Result<Box<dyn IndexReader>, StoreError> {
        let local = self.local.reader_at(name, at)?;
        if name != self.local_index || at != At::Current {
            return Ok(local);
        }
        let base = self.base.store.reader(&self.base.index)?;
        Ok(Box::new(reader::OverlaidReader::new(base, local, Arc::clone(&self.base.view))))
    }

    fn writer(&self, name: &str) -> Result<Box<dyn IndexWriter>, StoreError> {
        self.local.writer(name)
    }

    fn tasks(&self, project: &str) -> Result<Box<dyn TaskStore>, StoreError> {
        self.local.tasks(project)
    }

    fn cached_query_vector(&self, model: &str, query: &str) -> Result<Option<Vec<f32>>, StoreError> {
        self.local.cached_query_vector(model, query)
    }

    fn cache_query_vector(&self, model: &str, query: &str, vector: &[f32]) -> Result<(), StoreError> {
        self.local.cache_query_vector(model, query, vector)
    }
}

/// Opens a team's shared store to read it only: PostgreSQL at `settings.url`, connected now
/// (an unreachable server fails here), its schema exactly this program's — never migrated.
pub fn open_base(settings: &DatabaseSettings) -> Result<Arc<dyn Store>, StoreError> {
    let store = PgStore::connect(settings).map_err(|e| match e {
        StoreError::Unreachable { backend, location, reason, .. } => StoreError::Unreachable {
            backend,
            location,
            reason,
            fix: "check shared.url (COCOSEARCH_SHARED_URL) and that its server is up".into(),
        },
        StoreError::Auth { backend, location, reason, .. } => StoreError::Auth {
            backend,
            location,
            reason,
            fix: "check the user and password in shared.url (COCOSEARCH_SHARED_URL)".into(),
        },
        other => other,
    })?;
    store.check_schema_current()?;
    Ok(Arc::new(store))
}

/// An overlay chunk's id as the overlaid index gives it.
fn tag(id: i64) -> i64 {
    id | LOCAL
}

/// Whether an id of the overlaid index is the overlay's, and its own id there.
fn untag(id: i64) -> (bool, i64) {
    (id & LOCAL != 0, id & !LOCAL)
}

/// Ids split into the base's and the overlay's own.
fn split_ids(ids: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let (mut base, mut local) = (Vec::new(), Vec::new());
    for &id in ids {
        match untag(id) {
            (true, own) => local.push(own),
            (false, own) => base.push(own),
        }
    }
    (base, local)
}

/// The paths of a set split into those the base shows and the others (the overlay's).
fn split_paths<'a>(view: &BaseView, paths: impl IntoIterator<Item = &'a String>) -> (Vec<String>, Vec<String>) {
    let (mut base, mut local) = (Vec::new(), Vec::new());
    for path in paths {
        if view.kept.contains_key(path) { base.push(path.clone()) } else { local.push(path.clone()) }
    }
    (base, local)
}

/// The first `limit` items of the base's ordered answer whose file the base shows: asked for
/// again with a larger limit while shadowed files took places in a full answer.
fn base_excluding<T>(
    limit: usize,
    shown: impl Fn(&T) -> bool,
    mut fetch: impl FnMut(usize) -> Result<Vec<T>, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut asked = limit;
    loop {
        let found = fetch(asked)?;
        let full = asked > 0 && found.len() >= asked;
        let kept: Vec<T> = found.into_iter().filter(|item| shown(item)).collect();
        if !full || kept.len() >= limit {
            return Ok(kept);
        }
        asked = asked.saturating_mul(2);
    }
}

/// Names every set of the two sides holds, once each.
fn union_names(mut base: Vec<String>, local: Vec<String>) -> Vec<String> {
    let seen: HashSet<String> = base.iter().cloned().collect();
    base.extend(local.into_iter().filter(|name| !seen.contains(name)));
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_keep_their_side() {
        let (base, local) = split_ids(&[7, tag(7), tag(1 << 30)]);
        assert_eq!((base, local), (vec![7], vec![7, 1 << 30]));
    }

    #[test]
    fn the_base_is_asked_again_until_shown_items_fill_the_limit() {
        let all: Vec<u32> = (0..100).collect();
        let mut asked = Vec::new();
        let kept = base_excluding(
            5,
            |n| n % 4 == 0,
            |limit| {
                asked.push(limit);
                Ok(all.iter().copied().take(limit).collect())
            },
        )
        .expect("fetch");
        assert_eq!(kept[..5], [0, 4, 8, 12, 16]);
        assert_eq!(asked, [5, 10, 20]);
        let few = base_excluding(50, |n| n % 4 == 0, |limit| Ok(all.iter().copied().take(limit).collect()));
        assert_eq!(few.expect("fetch").len(), 25, "all there are, when the base runs out");
    }
}
