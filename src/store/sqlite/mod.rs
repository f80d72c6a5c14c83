//! The embedded store: SQLite in one file of the user's data directory.

use std::path::Path;

use super::{Backend, StoreError};
use crate::config::DatabaseSettings;

/// The store file inside the embedded store's directory.
pub const FILE_NAME: &str = "cocosearch.db";

/// Whether an embedded store exists in `dir`.
pub fn exists(dir: &Path) -> bool {
    dir.join(FILE_NAME).is_file()
}

/// The SQLite-backed store.
pub struct SqliteStore;

impl SqliteStore {
    /// Opens (creating if needed) the store in `dir`.
    pub fn open(dir: &Path, _settings: &DatabaseSettings) -> Result<std::sync::Arc<dyn super::Store>, StoreError> {
        Err(StoreError::Unreachable {
            backend: Backend::Sqlite,
            location: dir.display().to_string(),
            reason: "not built yet".into(),
            fix: "use PostgreSQL".into(),
        })
    }
}
