//! The vector retriever: the chunks nearest the query's vector, with the filter inside the
//! store's query. Its hits report their cosine similarity.

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::Analysed;
use crate::search::fuse::RawScore;
use crate::store::{StoreError, VectorAccuracy};

/// Nearest chunks by vector.
pub(super) struct Vector;

impl Retriever for Vector {
    fn name(&self) -> &'static str {
        "vector"
    }

    fn needs(&self) -> Needs {
        Needs::QueryVector
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        search.weights.vector > 0.0
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let Some(vector) = index.query_vector else { return Ok(Vec::new()) };
        let hits = index.reader.vector_search(vector, &search.filter, search.depth, VectorAccuracy::Usual)?;
        Ok(vec![Evidence::Chunks { hits, weight: search.vector_weight(index.trust), reports: RawScore::Similarity }])
    }
}
