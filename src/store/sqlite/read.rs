//! Retrieval: vector, keyword and symbol search with filters inside the queries, chunk fetch,
//! file states, term statistics and the query-embedding cache.

use std::collections::{HashMap, HashSet};

use rusqlite::types::ToSql;
use rusqlite::{Connection, params, params_from_iter};

use super::members::Scope;
use super::schema::Tables;
use super::vectors::{self, TopK};
use super::write::LENGTH_TERM;
use super::{SqliteIndex, Undecodable, ivf, packs, query_error};
use crate::chunk::{ParseStatus, SymbolKind};
use crate::store::texts::place_symbols;
use crate::store::unreadable::{stored_name, unreadable_column};
use crate::store::{
    ChunkBody, ChunkReader, FileState, KeywordCandidate, KeywordQuery, KeywordTerm, PendingChunk, Scored, SearchFilter,
    StateReader, StoreError, StoredChunk, SymbolRecord, TermStats, VectorAccuracy, word_frequencies,
};

/// SQL conditions on the chunk alias `c`, and their parameters, numbered from `first`.
struct Conditions {
    sql: String,
    params: Vec<Box<dyn ToSql>>,
}

impl Conditions {
    fn new(filter: &SearchFilter, first: usize) -> Conditions {
        let mut sql = String::new();
        let mut params: Vec<Box<dyn ToSql>> = Vec::new();
        let mut add = |clause: &str, param: Box<dyn ToSql>| {
            sql.push_str(" AND ");
            sql.push_str(&clause.replace("?#", &format!("?{}", first + params.len())));
            params.push(param);
        };
        if !filter.languages.is_empty() {
            add("c.language IN (SELECT value FROM json_each(?#))", Box::new(json(&filter.languages)));
        }
        if let Some(glob) = &filter.path_glob {
            add("cs_path_glob(?#, c.path)", Box::new(glob.as_str().to_string()));
        }
        if !filter.symbol_types.is_empty() {
            let kinds: Vec<&str> = filter.symbol_types.iter().map(|k| k.as_str()).collect();
            add(
                "EXISTS (SELECT 1 FROM json_each(?#) k WHERE instr(c.symbol_kinds, char(10) || k.value || char(10)) > 0)",
                Box::new(json(&kinds)),
            );
        }
        if let Some(glob) = &filter.symbol_name_glob {
            add("cs_name_glob(?#, c.symbol_names)", Box::new(glob.as_str().to_string()));
        }
        Conditions { sql, params }
    }

    /// Adds the snapshot scope's condition on the chunk alias `c`.
    fn scoped(mut self, scope: Scope, t: &Tables) -> Conditions {
        self.sql.push_str(&scope.and(t, "c"));
        self
    }

    fn is_empty(&self) -> bool {
        self.sql.is_empty()
    }
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "[]".into())
}

/// `fixed` parameters, then the conditions'.
fn with<'a>(fixed: &'a [&'a dyn ToSql], cond: &'a Conditions) -> Vec<&'a dyn ToSql> {
    fixed.iter().copied().chain(cond.params.iter().map(|p| p.as_ref())).collect()
}

/// The paths of chunk ids.
fn paths_of(conn: &Connection, t: &Tables, ids: &[i64]) -> rusqlite::Result<HashMap<i64, String>> {
    let mut stmt = conn
        .prepare_cached(&format!("SELECT id, path FROM {} WHERE id IN (SELECT value FROM json_each(?1))", t.chunks))?;
    let rows = stmt.query_map([json(ids)], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// The chunks of the best texts `best` (scored text ids, best first, all in scope: a search
/// of every stored file), each with its text's score, the best `limit`.
fn places_of(conn: &Connection, t: &Tables, best: &[(f64, i64, ())], limit: usize) -> rusqlite::Result<Vec<Scored>> {
    let ids: Vec<i64> = best.iter().map(|(_, id, _)| *id).collect();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT text_id, id, path FROM {} WHERE text_id IN (SELECT value FROM json_each(?1)) ORDER BY id",
        t.chunks
    ))?;
    let mut places: HashMap<i64, Vec<(i64, String)>> = HashMap::new();
    let rows = stmt.query_map([json(&ids)], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?)))?;
    for row in rows {
        let (text, id, path) = row?;
        places.entry(text).or_default().push((id, path));
    }
    Ok(best
        .iter()
        .flat_map(|&(score, text, ())| {
            places.remove(&text).unwrap_or_default().into_iter().map(move |(id, path)| Scored { id, path, score })
        })
        .take(limit)
        .collect())
}

/// Pack candidates rescored exactly per result wanted, and at least.
const RESCORE_FACTOR: usize = 4;
const MIN_RESCORED: usize = 100;

/// The best `limit` vectors of `lists` and of no list yet, the lists read from their packs
/// (see `packs`): the packs' best by approximate similarity are rescored exactly from their
/// rows, and a pack's vector counts only while the vectors table still has it in that list.
fn packed_scan(
    conn: &Connection,
    t: &Tables,
    scorer: &vectors::Query,
    limit: usize,
    lists: &[i64],
) -> rusqlite::Result<Vec<(f64, i64, ())>> {
    let (mut candidates, unpacked) = packs::score(conn, t, scorer, lists)?;
    // Vectors in no list yet, and the lists without a pack, from their rows.
    let mut top = TopK::new(limit);
    {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT id, embedding FROM {} WHERE list IS NULL OR list IN (SELECT value FROM json_each(?1))",
            t.vectors
        ))?;
        let mut rows = stmt.query([json(&unpacked)])?;
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let blob = vectors::stored_vector(row.get_ref(1)?, 1, id)?;
            if let Some(similarity) = scorer.similarity(blob) {
                top.push(similarity, id, ());
            }
        }
    }
    let best_first = |a: &packs::Candidate, b: &packs::Candidate| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    // The packs rank approximately; this many of their best still in their lists are
    // rescored exactly (and the ranking's error is far smaller than the gap it covers).
    let wanted = (RESCORE_FACTOR * limit).max(MIN_RESCORED);
    let mut confirmed = 0;
    let mut start = 0;
    while start < candidates.len() && confirmed < wanted {
        let rest = &mut candidates[start..];
        let end = (wanted - confirmed).max(limit).min(rest.len());
        if end < rest.len() {
            rest.select_nth_unstable_by(end, best_first);
        }
        let batch = &rest[..end];
        let ids: Vec<i64> = batch.iter().map(|c| c.1).collect();
        let current = packs::rescored(conn, t, scorer, &ids)?;
        for &(_, id, list) in batch {
            if let Some(&(now, similarity)) = current.get(&id)
                && now == list
            {
                top.push(similarity, id, ());
                confirmed += 1;
            }
        }
        start += end;
    }
    Ok(top.into_sorted())
}

/// The best `limit` vectors among those matching `filter`: all of them, or those in `lists`
/// and those in no list yet.
fn scan(
    conn: &Connection,
    t: &Tables,
    scorer: &vectors::Query,
    (filter, scope): (&SearchFilter, Scope),
    limit: usize,
    lists: Option<&[i64]>,
) -> rusqlite::Result<Vec<(f64, i64, ())>> {
    let cond = Conditions::new(filter, 2).scoped(scope, t);
    let where_lists = match lists {
        Some(_) => "(v.list IN (SELECT value FROM json_each(?1)) OR v.list IS NULL)",
        None => "?1 IS NULL",
    };
    // Without a filter only the narrow vectors table is read (scoring texts); with one, the
    // chunks it keeps (scoring each chunk by its text's vector).
    let sql = if cond.is_empty() {
        format!("SELECT v.id, v.embedding FROM {vectors} v WHERE {where_lists}", vectors = t.vectors)
    } else {
        format!(
            "SELECT c.id, v.embedding FROM {vectors} v JOIN {chunks} c ON c.text_id = v.id WHERE {where_lists}{filters}",
            chunks = t.chunks,
            vectors = t.vectors,
            filters = cond.sql
        )
    };
    let list_param: Option<String> = lists.map(json);
    let mut top = TopK::new(limit);
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query(params_from_iter(with(&[&list_param], &cond)))?;
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let blob = vectors::stored_vector(row.get_ref(1)?, 1, id)?;
        if let Some(similarity) = scorer.similarity(blob) {
            top.push(similarity, id, ());
        }
    }
    Ok(top.into_sorted())
}

/// The FTS5 expression selecting chunks that contain every term of some group.
fn match_expression(query: &KeywordQuery) -> String {
    let quote = |w: &str| format!("\"{}\"", w.replace('"', "\"\""));
    let literal = |term: &KeywordTerm| match term {
        KeywordTerm::Word(word) => quote(word),
        KeywordTerm::Phrase(words) => quote(&words.join(" ")),
    };
    query
        .select
        .iter()
        .filter_map(|group| {
            let parts: Option<Vec<String>> = group.iter().map(|&i| query.terms.get(i).map(literal)).collect();
            parts.filter(|p| !p.is_empty()).map(|p| format!("({})", p.join(" AND ")))
        })
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// BM25's statistics over the chunks one snapshot holds, so that a search at a snapshot ranks
/// as a clean index of it would: counted at query time (each term's chunks from the FTS index,
/// kept when the snapshot holds them), since the `terms` table counts every stored file of the
/// index. Only an index of several snapshots reads them so.
fn scoped_term_stats(conn: &Connection, t: &Tables, terms: &[String], scope: Scope) -> rusqlite::Result<TermStats> {
    // The chunk count and total length add up the snapshot's files: one row per file, where
    // reading its chunks would read the whole table (0.16 s at 420,000 chunks).
    let (chunks, total_length): (i64, i64) = conn
        .prepare_cached(&format!(
            "SELECT coalesce(sum(f.chunk_count), 0), coalesce(sum(f.keyword_length), 0) FROM {} f WHERE 1{}",
            t.files,
            scope.and_file(t, "f")
        ))?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let within = scope.and(t, "c");
    let mut stats = TermStats {
        chunks: u64::try_from(chunks).unwrap_or(0),
        total_length: u64::try_from(total_length).unwrap_or(0),
        ..TermStats::default()
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT count(*) FROM {chunks} c WHERE c.text_id IN (SELECT rowid FROM {fts} WHERE {fts} MATCH ?1){within}",
        chunks = t.chunks,
        fts = t.fts
    ))?;
    for term in terms {
        let quoted = format!("\"{}\"", term.replace('"', "\"\""));
        let df: i64 = stmt.query_row([quoted], |r| r.get(0))?;
        if df > 0 {
            stats.df.insert(term.clone(), u64::try_from(df).unwrap_or(0));
        }
    }
    Ok(stats)
}

/// BM25's statistics over the chunks of the files `paths` in `scope`.
fn files_term_stats(
    conn: &Connection,
    t: &Tables,
    terms: &[String],
    paths: &[String],
    scope: Scope,
) -> rusqlite::Result<TermStats> {
    let paths = json(paths);
    let (chunks, total_length): (i64, i64) = conn
        .prepare_cached(&format!(
            "SELECT coalesce(sum(f.chunk_count), 0), coalesce(sum(f.keyword_length), 0) FROM {} f
             WHERE f.path IN (SELECT value FROM json_each(?1)){}",
            t.files,
            scope.and_file(t, "f")
        ))?
        .query_row([&paths], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let mut stats = TermStats {
        chunks: u64::try_from(chunks).unwrap_or(0),
        total_length: u64::try_from(total_length).unwrap_or(0),
        ..TermStats::default()
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT count(*) FROM {chunks} c WHERE c.path IN (SELECT value FROM json_each(?2))
           AND c.text_id IN (SELECT rowid FROM {fts} WHERE {fts} MATCH ?1){within}",
        chunks = t.chunks,
        fts = t.fts,
        within = scope.and(t, "c"),
    ))?;
    for term in terms {
        let quoted = format!("\"{}\"", term.replace('"', "\"\""));
        let df: i64 = stmt.query_row([&quoted, &paths], |r| r.get(0))?;
        if df > 0 {
            stats.df.insert(term.clone(), u64::try_from(df).unwrap_or(0));
        }
    }
    Ok(stats)
}

/// Whether `words` occur one after the other in the keyword text.
fn has_phrase(keywords: &str, words: &[String]) -> bool {
    let tokens: Vec<&str> = keywords.split_ascii_whitespace().collect();
    !words.is_empty() && tokens.windows(words.len()).any(|w| w.iter().zip(words).all(|(a, b)| *a == b))
}

/// The chunks whose `column` is one of the JSON array `values`.
fn select_chunks(
    conn: &Connection,
    t: &Tables,
    name: &str,
    (column, values): (&str, &str),
    scope: Scope,
) -> Result<Vec<StoredChunk>, StoreError> {
    let err = |e| query_error(Some(name), "reading chunks", &e);
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT id, path, language, byte_start, byte_end, line_start, line_end, content, symbol_type,
                    symbol_name, qualified_name, symbol_signature, symbol_details, context, parse_status, ordinal, enclosing
             FROM {} c WHERE {column} IN (SELECT value FROM json_each(?1)){scope}",
            t.chunks,
            scope = scope.and(t, "c")
        ))
        .map_err(err)?;
    let rows = stmt
        .query_map([values], |r| {
            let chunk = StoredChunk {
                id: r.get(0)?,
                path: r.get(1)?,
                language: r.get(2)?,
                ordinal: r.get(15)?,
                body: ChunkBody {
                    byte_start: r.get(3)?,
                    byte_end: r.get(4)?,
                    line_start: r.get(5)?,
                    line_end: r.get(6)?,
                    content: r.get(7)?,
                    // The kind, the status and the symbols are decoded from their stored text
                    // below, outside the row loop, where one this build cannot read is an
                    // error of the index.
                    symbol_type: None,
                    symbol_name: r.get(9)?,
                    qualified_name: r.get(10)?,
                    signature: r.get(11)?,
                    symbols: Vec::new(),
                    context: r.get(13)?,
                    parse_status: ParseStatus::Ok,
                    enclosing: r.get(16)?,
                },
            };
            let stored: StoredText = (r.get(8)?, r.get(14)?, r.get(12)?);
            Ok((chunk, stored))
        })
        .map_err(err)?;
    let mut chunks = Vec::new();
    for row in rows {
        let (mut chunk, stored) = row.map_err(err)?;
        decode_stored(name, &mut chunk, stored)?;
        chunks.push(chunk);
    }
    Ok(chunks)
}

/// A chunk's stored symbol kind (`NULL` when it defines nothing), parse status and symbol
/// details, as text.
type StoredText = (Option<String>, String, String);

/// Fills in `chunk`'s kind, status and symbols from their stored text; one this build cannot
/// read is an error naming the chunk's file, never no kind, a failed parse or no symbols.
fn decode_stored(index: &str, chunk: &mut StoredChunk, (kind, status, details): StoredText) -> Result<(), StoreError> {
    let what = || format!("a chunk of {}", chunk.path);
    let body = &mut chunk.body;
    body.symbol_type = kind.map(|k| stored_name::<SymbolKind>(index, &k, what)).transpose()?;
    body.parse_status = stored_name(index, &status, what)?;
    body.symbols = serde_json::from_str(&details)
        .map_err(|e| unreadable_column(index, format!("the symbols of a chunk of {}", chunk.path), &e))?;
    place_symbols(&mut body.symbols, body.line_start);
    Ok(())
}

impl ChunkReader for SqliteIndex {
    fn vector_search(
        &self,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        accuracy: VectorAccuracy,
    ) -> Result<Vec<Scored>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "searching vectors", &e);
        let scorer = vectors::Query::new(query);
        let centroids = match accuracy {
            VectorAccuracy::Usual => ivf::centroids(conn, t).map_err(err)?,
            VectorAccuracy::Exact => Vec::new(),
        };
        let lists = (!centroids.is_empty()).then(|| ivf::nearest_lists(&centroids, scorer.unit()));
        let scope = self.scope(conn).map_err(err)?;
        let filtered = !Conditions::new(filter, 1).scoped(scope, t).is_empty();
        let mut best = match &lists {
            // Without a filter the probed lists are read from their packs.
            Some(lists) if !filtered => packed_scan(conn, t, &scorer, limit, lists).map_err(err)?,
            _ => scan(conn, t, &scorer, (filter, scope), limit, lists.as_deref()).map_err(err)?,
        };
        // A filter can leave the nearest lists short of results: read everything it keeps.
        if lists.is_some() && best.len() < limit && filtered {
            best = scan(conn, t, &scorer, (filter, scope), limit, None).map_err(err)?;
        }
        if filtered {
            // The filtered scan scored chunks.
            let ids: Vec<i64> = best.iter().map(|(_, id, _)| *id).collect();
            let mut paths = paths_of(conn, t, &ids).map_err(err)?;
            return Ok(best
                .into_iter()
                .filter_map(|(score, id, ())| Some(Scored { id, path: paths.remove(&id)?, score }))
                .collect());
        }
        places_of(conn, t, &best, limit).map_err(err)
    }

    fn keyword_candidates(
        &self,
        query: &KeywordQuery,
        filter: &SearchFilter,
    ) -> Result<Vec<KeywordCandidate>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let expression = match_expression(query);
        if query.terms.is_empty() || expression.is_empty() {
            return Ok(Vec::new());
        }
        let t = &self.t;
        let err = |e| query_error(Some(name), "searching keywords", &e);
        let cond = Conditions::new(filter, 2).scoped(self.scope(conn).map_err(err)?, t);
        // SQL limits are signed 64-bit: a larger cap is no cap.
        let cap = query
            .max_candidates
            .filter(|n| i64::try_from(*n).is_ok())
            .map(|n| format!(" LIMIT {n}"))
            .unwrap_or_default();
        // Unfiltered, every text is placed at least once, so `cap` texts give `cap` chunks (the
        // same ones: both come in text order): capping the texts spares SQLite listing every
        // text that matches, which for words found everywhere (`src/lib.rs`: 200,000 of
        // 433,000) was most of the search. A filter may drop texts; then all are listed.
        let texts_cap = if cond.is_empty() { cap.as_str() } else { "" };
        let sql = format!(
            "SELECT c.id, c.path, c.keyword_length, c.keywords FROM {chunks} c
         WHERE c.text_id IN (SELECT rowid FROM {fts} WHERE {fts} MATCH ?1{texts_cap}){filters}{cap}",
            chunks = t.chunks,
            fts = t.fts,
            filters = cond.sql
        );
        // Each term's slot: a word counts its occurrences, a phrase (never a single term) none.
        let words: Vec<&str> = query
            .terms
            .iter()
            .map(|term| match term {
                KeywordTerm::Word(word) => word.as_str(),
                KeywordTerm::Phrase(_) => " ",
            })
            .collect();
        let mut stmt = conn.prepare_cached(&sql).map_err(err)?;
        let rows = stmt
            .query_map(params_from_iter(with(&[&expression], &cond)), |r| {
                let path: String = r.get(1)?;
                let keywords =
                    Undecodable::text(r.get_ref(3)?, 3, || format!("the keyword text of a chunk of {path}"))?;
                let counts = word_frequencies(keywords, &words);
                let frequencies = query
                    .terms
                    .iter()
                    .zip(counts)
                    .map(|(term, count)| match term {
                        KeywordTerm::Word(_) => count,
                        KeywordTerm::Phrase(words) => u32::from(has_phrase(keywords, words)),
                    })
                    .collect();
                Ok(KeywordCandidate {
                    id: r.get(0)?,
                    path,
                    length: u32::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                    frequencies,
                })
            })
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn symbol_search(&self, names: &[String], filter: &SearchFilter, limit: usize) -> Result<Vec<Scored>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        if names.is_empty() {
            return Ok(Vec::new());
        }
        let t = &self.t;
        let err = |e| query_error(Some(name), "searching symbols", &e);
        let cond = Conditions::new(filter, 3).scoped(self.scope(conn).map_err(err)?, t);
        let sql = format!(
            "SELECT c.id, c.path FROM {chunks} c
         WHERE c.text_id IN (SELECT text_id FROM {symbols} WHERE key IN (SELECT value FROM json_each(?1))){filters}
         ORDER BY length(c.content), c.path, c.ordinal LIMIT ?2",
            chunks = t.chunks,
            symbols = t.symbols,
            filters = cond.sql
        );
        let names = json(names);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut stmt = conn.prepare_cached(&sql).map_err(err)?;
        let rows = stmt
            .query_map(params_from_iter(with(&[&names, &limit], &cond)), |r| {
                Ok(Scored { id: r.get(0)?, path: r.get(1)?, score: 1.0 })
            })
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn symbol_spans(
        &self,
        wanted: &[(String, String)],
        kinds: &[SymbolKind],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading definition spans", &e);
        let mut keys: Vec<&str> = wanted.iter().map(|(_, key)| key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        let mut paths: Vec<&str> = wanted.iter().map(|(path, _)| path.as_str()).collect();
        paths.sort_unstable();
        paths.dedup();
        let scope = self.scope(conn).map_err(err)?.and(t, "c");
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT c.path, c.symbol_details, c.line_start FROM {chunks} c
             WHERE c.text_id IN (SELECT text_id FROM {symbols} WHERE key IN (SELECT value FROM json_each(?1)))
               AND c.path IN (SELECT value FROM json_each(?2)){scope}",
                chunks = t.chunks,
                symbols = t.symbols
            ))
            .map_err(err)?;
        let rows = stmt
            .query_map((json(&keys), json(&paths)), |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, u32>(2)?))
            })
            .map_err(err)?;
        let wanted: HashSet<(&str, &str)> = wanted.iter().map(|(path, key)| (path.as_str(), key.as_str())).collect();
        let mut spans: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        for row in rows {
            let (path, details, first_line) = row.map_err(err)?;
            let mut symbols: Vec<SymbolRecord> = serde_json::from_str(&details)
                .map_err(|e| unreadable_column(name, format!("the symbols of a chunk of {path}"), &e))?;
            place_symbols(&mut symbols, first_line);
            for s in symbols {
                let Some(span) = s.start_line.zip(s.end_line) else { continue };
                if kinds.contains(&s.kind)
                    && wanted.contains(&(path.as_str(), s.qualified_name.to_lowercase().as_str()))
                {
                    let file_spans = spans.entry(path.clone()).or_default();
                    if !file_spans.contains(&span) {
                        file_spans.push(span);
                    }
                }
            }
        }
        Ok(spans)
    }

    fn term_stats(&self, terms: &[String]) -> Result<TermStats, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading term statistics", &e);
        if let scope @ Scope::Snapshot(_) = self.scope(conn).map_err(err)? {
            return scoped_term_stats(conn, t, terms, scope).map_err(err);
        }
        let mut wanted: Vec<&str> = terms.iter().map(String::as_str).collect();
        wanted.push("");
        wanted.push(LENGTH_TERM);
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT term, df FROM {} WHERE term IN (SELECT value FROM json_each(?1)) AND df > 0",
                t.terms
            ))
            .map_err(err)?;
        let rows =
            stmt.query_map([json(&wanted)], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))).map_err(err)?;
        let mut stats = TermStats::default();
        for row in rows {
            let (term, df) = row.map_err(err)?;
            let df = u64::try_from(df).unwrap_or(0);
            match term.as_str() {
                "" => stats.chunks = df,
                LENGTH_TERM => stats.total_length = df,
                _ => {
                    stats.df.insert(term, df);
                }
            }
        }
        Ok(stats)
    }

    fn files_term_stats(&self, terms: &[String], paths: &[String]) -> Result<TermStats, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let err = |e| query_error(Some(name), "reading term statistics", &e);
        let scope = self.scope(conn).map_err(err)?;
        files_term_stats(conn, &self.t, terms, paths, scope).map_err(err)
    }

    fn chunks(&self, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        // By id: a chunk id names one chunk of one stored file, whatever the snapshot.
        select_chunks(conn, &self.t, name, ("id", &json(ids)), Scope::All)
    }

    fn file_chunks(&self, paths: &[String]) -> Result<Vec<StoredChunk>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let scope = self.scope(conn).map_err(|e| query_error(Some(name), "reading chunks", &e))?;
        select_chunks(conn, &self.t, name, ("path", &json(paths)), scope)
    }
}

impl StateReader for SqliteIndex {
    fn file_states(&self, paths: Option<&[String]>) -> Result<HashMap<String, FileState>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading file states", &e);
        // The files the snapshot holds, with the mtime each had in its tree.
        let Some(snapshot) = self.snapshot_id(conn).map_err(err)? else { return Ok(HashMap::new()) };
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT m.path, f.size_bytes, m.mtime_ns, f.content_hash, f.skip_reason, f.chunking
                 FROM {members} m JOIN {files} f ON f.id = m.file_id
                 WHERE m.snapshot = ?2 AND (?1 IS NULL OR m.path IN (SELECT value FROM json_each(?1)))",
                members = t.members,
                files = t.files
            ))
            .map_err(err)?;
        let list = paths.map(json);
        let rows = stmt
            .query_map(params![list, snapshot], |r| {
                let bytes: Vec<u8> = r.get(3)?;
                let mut hash = [0u8; 32];
                if bytes.len() == 32 {
                    hash.copy_from_slice(&bytes);
                }
                let state = FileState {
                    size: u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                    mtime_ns: r.get(2)?,
                    hash,
                    // Decoded below, outside the row loop.
                    skip_reason: None,
                    chunking: r.get(5)?,
                };
                Ok((r.get::<_, String>(0)?, state, r.get::<_, Option<String>>(4)?))
            })
            .map_err(err)?;
        let mut states = HashMap::new();
        for row in rows {
            let (path, mut state, reason) = row.map_err(err)?;
            // No reason (NULL) is a file that was indexed; one this build does not know is
            // unreadable, never an indexed file.
            state.skip_reason =
                reason.map(|r| stored_name(name, &r, || format!("the skip reason of {path}"))).transpose()?;
            states.insert(path, state);
        }
        Ok(states)
    }

    fn embedded_hashes(&self) -> Result<HashSet<[u8; 16]>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading embedded chunks", &e);
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT DISTINCT x.embed_hash FROM {texts} x JOIN {vectors} v ON v.id = x.id",
                texts = t.texts,
                vectors = t.vectors
            ))
            .map_err(err)?;
        let rows = stmt.query_map([], |r| r.get::<_, Vec<u8>>(0)).map_err(err)?;
        let mut hashes = HashSet::new();
        for bytes in rows {
            if let Ok(hash) = <[u8; 16]>::try_from(bytes.map_err(err)?.as_slice()) {
                hashes.insert(hash);
            }
        }
        Ok(hashes)
    }

    fn pending_chunks(&self, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading chunks awaiting embeddings", &e);
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT id, path, language, context, content FROM {chunks} c
             WHERE id > ?1 AND NOT EXISTS (SELECT 1 FROM {vectors} v WHERE v.id = c.text_id)
               AND id = (SELECT min(p.id) FROM {places} p WHERE p.text_id = c.text_id)
             ORDER BY id LIMIT ?2",
                chunks = t.chunks,
                places = t.places,
                vectors = t.vectors
            ))
            .map_err(err)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt
            .query_map((after_id, limit), |r| {
                Ok(PendingChunk {
                    id: r.get(0)?,
                    path: r.get(1)?,
                    language: r.get(2)?,
                    context: r.get(3)?,
                    content: r.get(4)?,
                })
            })
            .map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn count_pending(&self) -> Result<u64, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        // Texts awaiting a vector. Every vector belongs to a text (a cascading foreign key), so
        // the difference is exact.
        conn.query_row(
            &format!("SELECT (SELECT count(*) FROM {}) - (SELECT count(*) FROM {})", t.texts, t.vectors),
            [],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| u64::try_from(n).unwrap_or(0))
        .map_err(|e| query_error(Some(name), "counting chunks awaiting embeddings", &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_expressions_quote_terms_and_group() {
        let q = KeywordQuery {
            terms: vec![
                KeywordTerm::Word("parse".into()),
                KeywordTerm::Word("header".into()),
                KeywordTerm::Phrase(vec!["connection".into(), "reset".into()]),
            ],
            select: vec![vec![0, 1], vec![2]],
            max_candidates: None,
        };
        assert_eq!(match_expression(&q), "(\"parse\" AND \"header\") OR (\"connection reset\")");
    }

    #[test]
    fn phrases_are_consecutive_words() {
        let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert!(has_phrase("a connection reset by peer", &words("connection reset")));
        assert!(!has_phrase("reset connection", &words("connection reset")));
        assert!(!has_phrase("connection x reset", &words("connection reset")));
    }
}
