//! The path-names retriever: files of the index whose names answer the query
//! ([`search::path_names`](crate::search::path_names)), as a file list for the fusion, weighted
//! by `Tuning::path_names`.

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::Analysed;
use crate::search::path_names;
use crate::store::StoreError;

/// Files whose names answer the query.
pub(super) struct PathNames;

impl Retriever for PathNames {
    fn needs(&self) -> Needs {
        Needs::Text
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        search.tuning.path_names > 0.0 && search.length == crate::search::analyse::Length::Short
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let files = index.reader.file_states(None)?;
        let ranked = path_names::rank(search.text, files.keys().map(String::as_str));
        Ok(vec![Evidence::Files { ranked, weight: search.tuning.path_names }])
    }
}
