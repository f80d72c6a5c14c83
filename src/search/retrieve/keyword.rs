//! The keyword retriever: chunks ranked by BM25 over the query's terms (planned on the index's
//! term statistics, see `search::keywords`), and files ranked by the same evidence over their
//! chunks taken together (`FileWeights::keyword`).

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::Analysed;
use crate::search::fuse::RawScore;
use crate::search::keywords;
use crate::store::StoreError;

/// Chunks and files by keywords.
pub(super) struct Keyword;

impl Retriever for Keyword {
    fn name(&self) -> &'static str {
        "keyword"
    }

    fn needs(&self) -> Needs {
        Needs::Text
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        search.weights.keyword > 0.0
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let plan = plan(search, index)?;
        let candidates = index.reader.keyword_candidates(&plan.query, &search.filter)?;
        let mut hits = keywords::rank(&plan, &candidates, search.tuning.bm25);
        hits.truncate(search.depth);
        let mut evidence =
            vec![Evidence::Chunks { hits, weight: search.weights.keyword, reports: RawScore::RelativeToBest }];
        if search.files().keyword > 0.0 {
            let (ranked, scores) =
                keywords::rank_files(&plan, &candidates, search.tuning.file_bm25).into_iter().unzip();
            evidence.push(Evidence::Files {
                ranked,
                scores,
                weight: search.files().keyword,
                leg: super::Leg::KeywordFiles,
            });
        }
        Ok(evidence)
    }
}

/// The keyword query for one index, planned on its term statistics.
fn plan(search: &Analysed<'_>, index: &Index<'_>) -> Result<keywords::Plan, StoreError> {
    let own;
    let stats = match index.pooled {
        Some(pooled) => pooled,
        None => {
            own = index.reader.term_stats(&keywords::words(&search.query))?;
            &own
        }
    };
    let limits = keywords::Limits {
        max_terms: search.max_terms,
        budget: search.tuning.keyword_budget,
        wanted: search.depth as u64,
        rare_share: search.tuning.rare_share,
    };
    Ok(keywords::plan(&search.query, stats, limits))
}
