//! Opening the store a request works on: the backend chosen by `store::open`, the schema
//! brought up to date, and the one-time notice of a newly chosen embedded store handed to the
//! presenter, which knows where people read it.

use std::sync::Arc;

use crate::config::DatabaseSettings;
use crate::store::{self, BackendChoice, Store, StoreError};

/// Opens the store of `settings` and migrates it; `notice` receives the one-time notice of a
/// store chosen for the first time (the command line prints it, a server logs it).
pub fn open_store(
    settings: &DatabaseSettings,
    notice: impl FnOnce(&str),
) -> Result<(Arc<dyn Store>, BackendChoice), StoreError> {
    let opened = store::open(settings)?;
    if let Some(text) = &opened.notice {
        notice(text);
    }
    opened.store.migrate()?;
    Ok((opened.store, opened.choice))
}

/// The index whose project contains `dir` most closely (the deepest indexed root above it, or
/// `dir` itself), when the store of `settings` already exists: how a command run in a
/// subdirectory of a project that is not a git repository finds the project. Nothing is
/// created, and a store that cannot be read answers `None`.
pub fn indexed_project_containing(settings: &DatabaseSettings, dir: &std::path::Path) -> Option<store::IndexMeta> {
    let opened = store::open::open_existing(settings).ok()??;
    let indexes = opened.store.list_indexes().ok()?;
    indexes.into_iter().filter(|meta| dir.starts_with(&meta.root)).max_by_key(|meta| meta.root.components().count())
}
