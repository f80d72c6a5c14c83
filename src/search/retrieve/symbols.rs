//! The exact-definition retriever: chunks defining a symbol named exactly as the query names
//! it (`getUserById`, `Session.send`). They rank first for a short query, and join the fusion
//! as evidence for a long one (`Tuning::long_query_symbols`, `long_query_symbol_weight`).

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::{Analysed, SymbolPlacement};
use crate::store::StoreError;

/// Definitions found, at most.
const LIMIT: usize = 10;

/// Exact symbol definitions.
pub(super) struct ExactSymbols;

impl Retriever for ExactSymbols {
    fn needs(&self) -> Needs {
        Needs::Text
    }

    fn runs(&self, search: &Analysed<'_>) -> bool {
        match search.symbols {
            SymbolPlacement::First => true,
            SymbolPlacement::Evidence(weight) => weight > 0.0,
        }
    }

    fn retrieve(&self, search: &Analysed<'_>, index: &Index<'_>) -> Result<Vec<Evidence>, StoreError> {
        let hits = index.store.symbol_search(&index.meta.name, &search.symbol_names, &search.filter, LIMIT)?;
        Ok(vec![Evidence::Exact { hits, placement: search.symbols }])
    }
}
