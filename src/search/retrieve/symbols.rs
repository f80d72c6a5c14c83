//! The exact-definition retriever: chunks defining a symbol named exactly as the query names
//! it (`getUserById`, `Session.send`). They rank first for a short query, and join the fusion
//! as evidence for a long one (`Tuning::long_query_symbols`, `long_query_symbol_weight`).
//!
//! A common name has many definitions (`request`, `Status`), and the store lists them
//! shortest first. They are ranked here: a definition the query names by its qualified name
//! first (`Ecto.Queryable` before `Ecto.Repo.Queryable`, which only shares its last segment),
//! then a file named after the symbol (`status.h` for `Status`), auxiliary files (tests,
//! examples) last unless the query asks for them (left out of a long question's:
//! [`AuxiliaryDefinitions`]), then the store's order; one definition per file, so one file's
//! overloads cannot fill the list.

use std::collections::HashSet;

use super::{Evidence, Index, Needs, Retriever};
use crate::search::analyse::{Analysed, AuxiliaryDefinitions, SymbolPlacement};
use crate::search::paths;
use crate::store::{Scored, StoreError};

/// Definitions kept, at most.
const LIMIT: usize = 10;
/// Definitions read from the store before ranking.
const READ: usize = 50;

/// Exact symbol definitions.
pub(super) struct ExactSymbols;

impl Retriever for ExactSymbols {
    fn name(&self) -> &'static str {
        "exact definitions"
    }

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
        let hits = index.reader.symbol_search(&search.symbol_names, &search.filter, READ)?;
        // Qualified names asked again alone: which definitions they name whole.
        let qualified: Vec<String> = search.symbol_names.iter().filter(|n| n.contains(['.', ':'])).cloned().collect();
        let named_whole: HashSet<i64> = if qualified.is_empty() || qualified.len() == search.symbol_names.len() {
            HashSet::new()
        } else {
            index.reader.symbol_search(&qualified, &search.filter, READ)?.into_iter().map(|hit| hit.id).collect()
        };
        let asked = Asked { names: &search.symbol_names, named_whole: &named_whole };
        let hits = rank(hits, &asked, search.auxiliary_definitions());
        Ok(vec![Evidence::Exact { hits, placement: search.symbols }])
    }
}

/// What the query asked for: its names, and the definitions its qualified names name whole.
struct Asked<'a> {
    names: &'a [String],
    named_whole: &'a HashSet<i64>,
}

/// `hits` in the order of the module's rules, one per file, at most [`LIMIT`].
fn rank(hits: Vec<Scored>, asked: &Asked<'_>, auxiliary: AuxiliaryDefinitions) -> Vec<Scored> {
    let folded: Vec<String> =
        asked.names.iter().map(|n| paths::fold_name(n.rsplit(['.', ':']).next().unwrap_or(n))).collect();
    // Ties keep the store's order (`ChunkReader::symbol_search`: the shortest chunk first, then
    // path and position), which every store, and a shared index with its overlay, give alike.
    let mut ranked: Vec<(usize, Scored)> = hits
        .into_iter()
        .filter(|hit| auxiliary != AuxiliaryDefinitions::Dropped || !paths::is_auxiliary(&hit.path))
        .enumerate()
        .collect();
    ranked.sort_by_key(|(order, hit)| {
        let named_after = folded.contains(&paths::folded_stem(&hit.path));
        let last = auxiliary == AuxiliaryDefinitions::Last && paths::is_auxiliary(&hit.path);
        (last, !asked.named_whole.contains(&hit.id), !named_after, *order)
    });
    let mut seen = HashSet::new();
    ranked.into_iter().map(|(_, hit)| hit).filter(|hit| seen.insert(hit.path.clone())).take(LIMIT).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(id: i64, path: &str) -> Scored {
        Scored { id, path: path.to_string(), score: 1.0 }
    }

    #[test]
    fn the_file_named_after_the_symbol_leads_and_tests_follow() {
        let hits = vec![
            hit(1, "status/status_test.cc"),
            hit(2, "status/statusor.h"),
            hit(3, "status/status_test.cc"),
            hit(4, "status/status.h"),
        ];
        let ids = |v: Vec<Scored>| v.iter().map(|h| h.id).collect::<Vec<_>>();
        let names = ["status".to_string()];
        let asked = Asked { names: &names, named_whole: &HashSet::new() };
        assert_eq!(ids(rank(hits.clone(), &asked, AuxiliaryDefinitions::Last)), vec![4, 2, 1]);
        // Asked for tests, they keep the store's order.
        assert_eq!(ids(rank(hits.clone(), &asked, AuxiliaryDefinitions::Kept)), vec![4, 1, 2]);
        // A long question's: no tests.
        assert_eq!(ids(rank(hits, &asked, AuxiliaryDefinitions::Dropped)), vec![4, 2]);
    }

    #[test]
    fn a_definition_named_by_its_qualified_name_leads_those_sharing_its_last_segment() {
        // `Ecto.Queryable`: three modules end in `Queryable`; only `lib/ecto/queryable.ex`'s is it.
        let hits = vec![hit(1, "adapter/queryable.ex"), hit(2, "repo/queryable.ex"), hit(3, "queryable.ex")];
        let names = ["ecto.queryable".to_string(), "queryable".to_string()];
        let whole = HashSet::from([3]);
        let ids = |v: Vec<Scored>| v.iter().map(|h| h.id).collect::<Vec<_>>();
        assert_eq!(
            ids(rank(hits.clone(), &Asked { names: &names, named_whole: &whole }, AuxiliaryDefinitions::Last)),
            vec![3, 1, 2]
        );
        assert_eq!(
            ids(rank(hits, &Asked { names: &names, named_whole: &HashSet::new() }, AuxiliaryDefinitions::Last)),
            vec![1, 2, 3]
        );
    }
}
