//! The readers of the indexes one search reads, each opened once per request.

use crate::store::{At, IndexMeta, IndexReader, Store, StoreError};

/// The open readers of a request's indexes, by index name, with the snapshot each reads.
pub(crate) struct Readers(Vec<(String, Box<dyn IndexReader>, At)>);

impl Readers {
    /// Opens a reader on each of `metas`: the first at snapshot `at`, the others at their
    /// current one.
    pub(crate) fn open(store: &dyn Store, metas: &[IndexMeta], at: At) -> Result<Readers, StoreError> {
        metas
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let at = if i == 0 { at } else { At::Current };
                Ok((m.name.clone(), store.reader_at(&m.name, at)?, at))
            })
            .collect::<Result<_, _>>()
            .map(Readers)
    }

    /// The reader of `index`, one of the request's.
    pub(crate) fn get(&self, index: &str) -> Result<&dyn IndexReader, StoreError> {
        self.0
            .iter()
            .find(|(name, ..)| name == index)
            .map(|(_, reader, _)| reader.as_ref())
            .ok_or_else(|| StoreError::IndexNotFound(index.to_string()))
    }

    /// Whether `index` is read at its current snapshot, whose files are the ones on disk.
    pub(crate) fn on_disk(&self, index: &str) -> bool {
        self.0.iter().any(|(name, _, at)| name == index && *at == At::Current)
    }
}
