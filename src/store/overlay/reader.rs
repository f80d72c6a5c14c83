//! The reader of an overlaid index: every read of the base kept to the files it shows,
//! merged with the overlay's in the order each read promises.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{BaseView, base_excluding, split_ids, split_paths, tag, union_names};
use crate::chunk::SymbolKind;
use crate::store::snapshots::{SnapshotCounts, SnapshotReader, SnapshotRecord, StoredVersion};
use crate::store::{
    ChunkReader, DefQuery, FailingFile, FileState, GraphReader, ImportQuery, IndexCounts, IndexReader,
    KeywordCandidate, KeywordQuery, PendingChunk, RefQuery, RunRecord, Scored, SearchFilter, StateReader, StatsReader,
    StoreError, StoredChunk, StoredDef, StoredImport, StoredRef, TermStats, VectorAccuracy,
};

/// The base's reader kept to what `view` shows, and the overlay's.
pub(super) struct OverlaidReader {
    base: Box<dyn IndexReader>,
    local: Box<dyn IndexReader>,
    view: Arc<BaseView>,
}

impl OverlaidReader {
    pub(super) fn new(base: Box<dyn IndexReader>, local: Box<dyn IndexReader>, view: Arc<BaseView>) -> Self {
        OverlaidReader { base, local, view }
    }

    fn shown(&self, path: &str) -> bool {
        self.view.kept.contains_key(path)
    }

    /// A graph read of both sides — the base's kept to the files it shows (asked again while
    /// hidden files took places in a full answer), the overlay's as it is — merged in order of
    /// `place` (path first) and cut to `limit`; a side `asked` says the query has nothing for is
    /// not read.
    fn both_sides<T, K: Ord>(
        &self,
        limit: usize,
        (ask_base, ask_local): (bool, bool),
        base: impl FnMut(usize) -> Result<Vec<T>, StoreError>,
        local: impl FnOnce() -> Result<Vec<T>, StoreError>,
        place: impl Fn(&T) -> (String, K),
    ) -> Result<Vec<T>, StoreError> {
        let base = match ask_base {
            true => base_excluding(limit, |item: &T| self.shown(&place(item).0), base)?,
            false => Vec::new(),
        };
        let local = if ask_local { local()? } else { Vec::new() };
        Ok(by_place(base, local, limit, place))
    }

    /// The base's qualified names that only files it does not show define.
    fn hidden_names(&self) -> Result<HashSet<String>, StoreError> {
        if self.view.shadowed.is_empty() {
            return Ok(HashSet::new());
        }
        let all = usize::MAX;
        let in_hidden = self.base.definitions(&DefQuery {
            paths: self.view.shadowed.clone(),
            limit: all,
            ..DefQuery::default()
        })?;
        let mut hidden: HashSet<String> = in_hidden.into_iter().map(|d| d.symbol.qualified_name).collect();
        if hidden.is_empty() {
            return Ok(hidden);
        }
        let names = hidden.iter().map(|n| n.replace("::", ".").to_lowercase()).collect();
        for def in self.base.definitions(&DefQuery { names, limit: all, ..DefQuery::default() })? {
            if self.shown(&def.path) {
                hidden.remove(&def.symbol.qualified_name);
            }
        }
        Ok(hidden)
    }
}

/// Overlay hits with their ids tagged.
fn tagged(mut hits: Vec<Scored>) -> Vec<Scored> {
    hits.iter_mut().for_each(|hit| hit.id = tag(hit.id));
    hits
}

/// Two lists merged best score first (ties by path, then the base's first), cut to `limit`.
fn by_score(mut hits: Vec<Scored>, local: Vec<Scored>, limit: usize) -> Vec<Scored> {
    hits.extend(tagged(local));
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.path.cmp(&b.path)));
    hits.truncate(limit);
    hits
}

/// Two lists each in order of `key`, merged in that order and cut to `limit`.
fn by_place<T, K: Ord>(mut items: Vec<T>, local: Vec<T>, limit: usize, key: impl Fn(&T) -> K) -> Vec<T> {
    items.extend(local);
    items.sort_by_key(|item| key(item));
    items.truncate(limit);
    items
}

/// Whether a side is read when a query names `named` files and `mine` of them are that side's:
/// a query naming none reads both.
fn asked(named: usize, mine: usize) -> bool {
    named == 0 || mine > 0
}

/// `a - b + c`, term by term; a term at zero is absent, as stores report it.
fn combined(a: TermStats, b: TermStats, c: TermStats) -> TermStats {
    let mut df: HashMap<String, u64> = a.df;
    for (term, n) in b.df {
        if let Some(count) = df.get_mut(&term) {
            *count = count.saturating_sub(n);
        }
    }
    for (term, n) in c.df {
        *df.entry(term).or_default() += n;
    }
    df.retain(|_, n| *n > 0);
    TermStats {
        chunks: a.chunks.saturating_sub(b.chunks) + c.chunks,
        total_length: a.total_length.saturating_sub(b.total_length) + c.total_length,
        df,
    }
}

impl ChunkReader for OverlaidReader {
    fn vector_search(
        &self,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        accuracy: VectorAccuracy,
    ) -> Result<Vec<Scored>, StoreError> {
        let base = base_excluding(
            limit,
            |hit: &Scored| self.shown(&hit.path),
            |asked| self.base.vector_search(query, filter, asked, accuracy),
        )?;
        Ok(by_score(base, self.local.vector_search(query, filter, limit, accuracy)?, limit))
    }

    fn keyword_candidates(
        &self,
        query: &KeywordQuery,
        filter: &SearchFilter,
    ) -> Result<Vec<KeywordCandidate>, StoreError> {
        let cap = query.max_candidates.and_then(|n| usize::try_from(n).ok()).unwrap_or(usize::MAX);
        let mut found = base_excluding(
            cap,
            |c: &KeywordCandidate| self.shown(&c.path),
            |asked| {
                let max_candidates = (asked != usize::MAX).then_some(asked as u64);
                self.base.keyword_candidates(&KeywordQuery { max_candidates, ..query.clone() }, filter)
            },
        )?;
        let local = self.local.keyword_candidates(query, filter)?;
        found.extend(local.into_iter().map(|c| KeywordCandidate { id: tag(c.id), ..c }));
        found.truncate(cap);
        Ok(found)
    }

    fn symbol_search(&self, names: &[String], filter: &SearchFilter, limit: usize) -> Result<Vec<Scored>, StoreError> {
        let mut hits = base_excluding(
            limit,
            |hit: &Scored| self.shown(&hit.path),
            |asked| self.base.symbol_search(names, filter, asked),
        )?;
        hits.extend(tagged(self.local.symbol_search(names, filter, limit)?));
        // The stores' order: the shortest chunk first, then path and position.
        let ids: Vec<i64> = hits.iter().map(|hit| hit.id).collect();
        let places: HashMap<i64, (usize, u32)> =
            self.chunks(&ids)?.into_iter().map(|c| (c.id, (c.body.content.chars().count(), c.ordinal))).collect();
        hits.sort_by_cached_key(|hit| {
            let (length, ordinal) = places.get(&hit.id).copied().unwrap_or((usize::MAX, 0));
            (length, hit.path.clone(), ordinal)
        });
        hits.truncate(limit);
        Ok(hits)
    }

    fn term_stats(&self, terms: &[String]) -> Result<TermStats, StoreError> {
        let hidden = match self.view.shadowed.is_empty() {
            true => TermStats::default(),
            false => self.base.files_term_stats(terms, &self.view.shadowed)?,
        };
        Ok(combined(self.base.term_stats(terms)?, hidden, self.local.term_stats(terms)?))
    }

    fn files_term_stats(&self, terms: &[String], paths: &[String]) -> Result<TermStats, StoreError> {
        let (base, local) = split_paths(&self.view, paths);
        Ok(combined(
            self.base.files_term_stats(terms, &base)?,
            TermStats::default(),
            self.local.files_term_stats(terms, &local)?,
        ))
    }

    fn chunks(&self, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError> {
        let (base, local) = split_ids(ids);
        let mut found: Vec<StoredChunk> =
            self.base.chunks(&base)?.into_iter().filter(|c| self.shown(&c.path)).collect();
        found.extend(self.local.chunks(&local)?.into_iter().map(|c| StoredChunk { id: tag(c.id), ..c }));
        Ok(found)
    }

    fn file_chunks(&self, paths: &[String]) -> Result<Vec<StoredChunk>, StoreError> {
        let (base, local) = split_paths(&self.view, paths);
        let mut found = self.base.file_chunks(&base)?;
        found.extend(self.local.file_chunks(&local)?.into_iter().map(|c| StoredChunk { id: tag(c.id), ..c }));
        Ok(found)
    }

    fn symbol_spans(
        &self,
        wanted: &[(String, String)],
        kinds: &[SymbolKind],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError> {
        let (base, local): (Vec<_>, Vec<_>) = wanted.iter().cloned().partition(|(path, _)| self.shown(path));
        let mut spans = self.base.symbol_spans(&base, kinds)?;
        spans.extend(self.local.symbol_spans(&local, kinds)?);
        Ok(spans)
    }
}

impl StateReader for OverlaidReader {
    fn file_states(&self, paths: Option<&[String]>) -> Result<HashMap<String, FileState>, StoreError> {
        let mut states: HashMap<String, FileState> = match paths {
            None => self.view.kept.clone(),
            Some(paths) => {
                paths.iter().filter_map(|p| self.view.kept.get(p).map(|state| (p.clone(), state.clone()))).collect()
            }
        };
        states.extend(self.local.file_states(paths)?);
        Ok(states)
    }

    fn embedded_hashes(&self) -> Result<HashSet<[u8; 16]>, StoreError> {
        self.local.embedded_hashes()
    }

    fn pending_chunks(&self, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError> {
        self.local.pending_chunks(after_id, limit)
    }

    fn count_pending(&self) -> Result<u64, StoreError> {
        self.local.count_pending()
    }
}

impl GraphReader for OverlaidReader {
    fn definitions(&self, query: &DefQuery) -> Result<Vec<StoredDef>, StoreError> {
        let (base_paths, local_paths) = split_paths(&self.view, &query.paths);
        let named = query.paths.len();
        self.both_sides(
            query.limit,
            (asked(named, base_paths.len()), asked(named, local_paths.len())),
            |limit| self.base.definitions(&DefQuery { paths: base_paths.clone(), limit, ..query.clone() }),
            || self.local.definitions(&DefQuery { paths: local_paths.clone(), ..query.clone() }),
            |d| (d.path.clone(), d.symbol.start_line),
        )
    }

    fn definition_names(&self) -> Result<Vec<String>, StoreError> {
        let mut base = self.base.definition_names()?;
        let hidden = self.hidden_names()?;
        base.retain(|name| !hidden.contains(name));
        Ok(union_names(base, self.local.definition_names()?))
    }

    fn references(&self, query: &RefQuery) -> Result<Vec<StoredRef>, StoreError> {
        let (base_callers, local_callers): (Vec<_>, Vec<_>) =
            query.callers.iter().cloned().partition(|(path, _)| self.shown(path));
        let named = query.callers.len();
        self.both_sides(
            query.limit,
            (asked(named, base_callers.len()), asked(named, local_callers.len())),
            |limit| self.base.references(&RefQuery { callers: base_callers.clone(), limit, ..query.clone() }),
            || self.local.references(&RefQuery { callers: local_callers.clone(), ..query.clone() }),
            |r| (r.path.clone(), r.reference.line),
        )
    }

    fn imports(&self, query: &ImportQuery) -> Result<Vec<StoredImport>, StoreError> {
        let (base_from, local_from) = match &query.from {
            Some(from) => {
                let (base, local) = split_paths(&self.view, from);
                (Some(base), Some(local))
            }
            None => (None, None),
        };
        let skip = |from: &Option<Vec<String>>| from.as_ref().is_some_and(Vec::is_empty);
        let mut found = Vec::new();
        if !skip(&base_from) {
            let asked = ImportQuery { from: base_from, ..query.clone() };
            found.extend(self.base.imports(&asked)?.into_iter().filter(|i| self.shown(&i.path)));
        }
        if !skip(&local_from) {
            let asked = ImportQuery { from: local_from, ..query.clone() };
            found.extend(self.local.imports(&asked)?.into_iter().map(|i| StoredImport { id: tag(i.id), ..i }));
        }
        Ok(by_place(found, Vec::new(), usize::MAX, |i| (i.path.clone(), i.import.line)))
    }
}

/// Counts, runs and snapshots are the overlay's own: what this machine indexed.
impl StatsReader for OverlaidReader {
    fn index_counts(&self) -> Result<IndexCounts, StoreError> {
        self.local.index_counts()
    }

    fn failing_files(&self, limit: usize) -> Result<Vec<FailingFile>, StoreError> {
        self.local.failing_files(limit)
    }

    fn runs(&self, limit: usize) -> Result<Vec<RunRecord>, StoreError> {
        self.local.runs(limit)
    }
}

impl SnapshotReader for OverlaidReader {
    fn snapshots(&self, counts: SnapshotCounts) -> Result<Vec<SnapshotRecord>, StoreError> {
        self.local.snapshots(counts)
    }

    fn stored_versions(&self, paths: Option<&[String]>) -> Result<HashMap<String, Vec<StoredVersion>>, StoreError> {
        self.local.stored_versions(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_subtract_the_hidden_and_add_the_overlay() {
        let stats = |chunks, total_length, df: &[(&str, u64)]| TermStats {
            chunks,
            total_length,
            df: df.iter().map(|(t, n)| (t.to_string(), *n)).collect(),
        };
        let got = combined(
            stats(10, 100, &[("a", 4), ("b", 1)]),
            stats(3, 30, &[("a", 1), ("b", 1)]),
            stats(2, 15, &[("a", 1), ("c", 2)]),
        );
        assert_eq!(got, stats(9, 85, &[("a", 4), ("c", 2)]), "b only in hidden files is gone");
    }
}
