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
