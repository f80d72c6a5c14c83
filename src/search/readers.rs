//! The readers of the indexes one search reads, each opened once per request.

use crate::store::{IndexMeta, IndexReader, Store, StoreError};

/// The open readers of a request's indexes, by index name.
pub(crate) struct Readers(Vec<(String, Box<dyn IndexReader>)>);

impl Readers {
    /// Opens a reader on each of `metas`.
    pub(crate) fn open(store: &dyn Store, metas: &[IndexMeta]) -> Result<Readers, StoreError> {
        metas.iter().map(|m| Ok((m.name.clone(), store.reader(&m.name)?))).collect::<Result<_, _>>().map(Readers)
    }

    /// The reader of `index`, one of the request's.
    pub(crate) fn get(&self, index: &str) -> Result<&dyn IndexReader, StoreError> {
        self.0
            .iter()
            .find(|(name, _)| name == index)
            .map(|(_, reader)| reader.as_ref())
            .ok_or_else(|| StoreError::IndexNotFound(index.to_string()))
    }
}
