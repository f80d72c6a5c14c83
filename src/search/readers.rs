//! The readers of the indexes one search reads, each opened once per request.

use crate::store::{At, IndexMeta, IndexReader, Store, StoreError};

/// The open readers of a request's indexes, by index name.
pub(crate) struct Readers(Vec<(String, Box<dyn IndexReader>)>);

impl Readers {
    /// Opens a reader on each of `metas`: the first at snapshot `at`, the others at their
    /// current one.
    pub(crate) fn open(store: &dyn Store, metas: &[IndexMeta], at: At) -> Result<Readers, StoreError> {
        metas
            .iter()
            .enumerate()
            .map(|(i, m)| Ok((m.name.clone(), store.reader_at(&m.name, if i == 0 { at } else { At::Current })?)))
            .collect::<Result<_, _>>()
            .map(Readers)
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
