//! The path-names retriever: files of the index whose names answer the query
//! ([`search::path_names`](crate::search::path_names)), as a file list for the fusion, weighted
//! by `Tuning::path_names`.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::SystemTime;

use lru::LruCache;

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::Analysed;
use crate::search::path_names::{self, PathList};
use crate::store::StoreError;

/// Indexes whose file lists are kept in the process.
const LISTS_KEPT: usize = 8;

/// An index's file paths, by index (name and root) and the time its last run finished: a server answering
/// many queries reads them once per run, not once per query (17,000 paths cost ~10 ms).
type PathLists = Mutex<LruCache<(String, std::path::PathBuf, SystemTime), Arc<PathList>>>;

/// Files whose names answer the query.
pub(super) struct PathNames;

impl Retriever for PathNames {
    fn name(&self) -> &'static str {
        "file names"
    }

    fn needs(&self) -> Needs {
        Needs::Text
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        search.tuning.path_names > 0.0 && search.length == crate::search::analyse::Length::Short
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let paths = paths(index)?;
        let ranked = path_names::rank(search.text, &paths, search.tuning.unasked_name_word);
        Ok(vec![Evidence::Files {
            ranked,
            scores: Vec::new(),
            weight: search.tuning.path_names,
            leg: super::Leg::FileNames,
        }])
    }
}

/// The index's file paths, from the process's cache while no run has finished since.
pub(super) fn paths(index: &Index<'_>) -> Result<Arc<PathList>, StoreError> {
    static LISTS: OnceLock<PathLists> = OnceLock::new();
    let lists =
        LISTS.get_or_init(|| Mutex::new(LruCache::new(NonZeroUsize::new(LISTS_KEPT).unwrap_or(NonZeroUsize::MIN))));
    let key = (index.meta.name.clone(), index.meta.root.clone(), index.meta.updated_at);
    if let Some(found) = lists.lock().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return Ok(Arc::clone(found));
    }
    let paths = Arc::new(PathList::new(index.reader.file_states(None)?.into_keys().collect()));
    lists.lock().unwrap_or_else(PoisonError::into_inner).put(key, Arc::clone(&paths));
    Ok(paths)
}
