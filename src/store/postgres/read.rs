//! Retrieval: vector, keyword and symbol search with filters inside the query, chunk fetch,
//! and the query-embedding cache.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use pgvector::Vector;
use postgres::types::ToSql;

use super::members::Scope;
use super::session::HnswSettings;
use super::tables::{LENGTH_TERM, Tables, stored_length};
use super::{EF_SEARCH, PgIndex};
use crate::chunk::SymbolKind;
use crate::store::texts::place_symbols;
use crate::store::unreadable::{stored_name, unreadable_column};
use crate::store::{
    ChunkBody, ChunkReader, KeywordCandidate, KeywordQuery, KeywordTerm, MAX_TERM_FREQUENCY, Scored, SearchFilter,
    StoreError, StoredChunk, SymbolRecord, TermStats, VectorAccuracy,
};

/// SQL conditions and parameters for a filter, parameters numbered from `first`: those on
/// the text (alias `x`) and those on the chunk's place (alias `c`), each clause after ` AND `.
struct Conditions {
    text: String,
    place: String,
    params: Vec<Box<dyn ToSql + Sync>>,
}

impl Conditions {
    /// Both kinds of condition, for a query over chunks joined to their texts.
    fn all(&self) -> String {
        format!("{}{}", self.text, self.place)
    }
}

fn conditions(filter: &SearchFilter, first: usize) -> Conditions {
    let mut c = Conditions { text: String::new(), place: String::new(), params: Vec::new() };
    let mut add = |on_place: bool, clause: &str, param: Box<dyn ToSql + Sync>| {
        let clause = clause.replace("$?", &format!("${}", first + c.params.len()));
        let _ = write!(if on_place { &mut c.place } else { &mut c.text }, " AND {clause}");
        c.params.push(param);
    };
    if !filter.languages.is_empty() {
        add(false, "x.language = ANY($?)", Box::new(filter.languages.clone()));
    }
    if let Some(glob) = &filter.path_glob {
        add(true, "c.path ~ $?", Box::new(glob.regex()));
    }
    if !filter.symbol_types.is_empty() {
        let kinds: Vec<String> = filter.symbol_types.iter().map(|k| k.as_str().to_string()).collect();
        add(false, "x.symbol_kinds && $?::text[]", Box::new(kinds));
    }
    if let Some(glob) = &filter.symbol_name_glob {
        // Any definition in the chunk, by its own name as recorded (a Markdown heading's may
        // hold dots and colons, so it is not the tail of a qualified name).
        add(
            false,
            "EXISTS (SELECT 1 FROM jsonb_array_elements(x.symbol_details) s WHERE s->>'name' ~* $?)",
            Box::new(glob.regex()),
        );
    }
    c
}

fn params<'a>(fixed: &'a [&'a (dyn ToSql + Sync)], extra: &'a [Box<dyn ToSql + Sync>]) -> Vec<&'a (dyn ToSql + Sync)> {
    fixed.iter().copied().chain(extra.iter().map(|b| b.as_ref() as &(dyn ToSql + Sync))).collect()
}

/// A tsquery literal for one keyword: `'a'`, a phrase as `'a' <-> 'b'`. Terms are our own
/// lowercase alphanumerics, but quote them anyway.
fn tsquery_term(term: &KeywordTerm) -> String {
    let quote = |t: &String| format!("'{}'", t.replace('\'', "''"));
    match term {
        KeywordTerm::Word(word) => quote(word),
        KeywordTerm::Phrase(words) => words.iter().map(quote).collect::<Vec<_>>().join(" <-> "),
    }
}

/// The SQL of a vector search (`$1` the query, `$2` the limit): the nearest texts through the
/// HNSW index, then the chunks holding them, each at its text's score. A text counts only if
/// some chunk the search may return holds it (the condition sits in the index scan, whose
/// iterative scan walks on until enough pass), so the nearest `$2` texts hold at least `$2`
/// chunks, or all there are; where every chunk may be returned (one snapshot, no condition
/// on the place) every text counts, and the index scan has no condition to check.
fn vector_sql(t: &Tables, cond: &Conditions, scope: Scope) -> String {
    let Tables { texts, chunks, .. } = t;
    let place = format!("{}{}", cond.place, scope.and(t, "c.file_id"));
    let held = if place.is_empty() {
        String::new()
    } else {
        format!(" AND EXISTS (SELECT 1 FROM {chunks} c WHERE c.text_id = x.id{place})")
    };
    format!(
        "SELECT c.id, c.path, 1 - n.distance FROM (
             SELECT x.id, x.embedding <=> $1 AS distance FROM {texts} x
             WHERE x.embedding IS NOT NULL{text}{held}
             ORDER BY x.embedding <=> $1 LIMIT $2
         ) n JOIN {chunks} c ON c.text_id = n.id
         WHERE true{place}
         ORDER BY n.distance, c.id LIMIT $2",
        text = cond.text,
    )
}

impl ChunkReader for PgIndex {
    fn vector_search(
        &self,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
        accuracy: VectorAccuracy,
    ) -> Result<Vec<Scored>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let context = "searching vectors";
        let err = |e: postgres::Error| self.store.index_error(name, context, &e);
        let mut conn = self.store.conn()?;
        let ef_search = match accuracy {
            VectorAccuracy::Usual if !self.few_texts(&mut conn).map_err(err)? => Some(EF_SEARCH),
            VectorAccuracy::Usual | VectorAccuracy::Exact => None,
        };
        let cond = conditions(filter, 3);
        let scope = self.scope(&mut conn).map_err(err)?;
        let sql = vector_sql(t, &cond, scope);
        let vector = Vector::from(query.to_vec());
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let iterative = match self.store.iterative_scans.get() {
            Some(known) => *known,
            None => {
                let version: Option<String> = conn
                    .query_opt("SELECT extversion FROM pg_extension WHERE extname = 'vector'", &[])
                    .map_err(err)?
                    .map(|r| r.get(0));
                let supported = version.as_deref().is_some_and(|v| {
                    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
                    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (0, 8)
                });
                *self.store.iterative_scans.get_or_init(|| supported)
            }
        };
        let fixed: [&(dyn ToSql + Sync); 2] = [&vector, &limit];
        let params = params(&fixed, &cond.params);
        let rows = match ef_search {
            None => {
                // Exact search: no index, every vector compared (used to measure HNSW recall).
                let mut tx = conn.transaction().map_err(err)?;
                tx.batch_execute("SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;")
                    .map_err(err)?;
                let rows = tx.query(&sql, &params).map_err(err)?;
                tx.commit().map_err(err)?;
                rows
            }
            Some(ef_search) => {
                conn.use_hnsw(HnswSettings { ef_search: ef_search.clamp(10, 1000), iterative }).map_err(err)?;
                conn.query_prepared(&sql, &params).map_err(err)?
            }
        };
        let mut hits: Vec<Scored> =
            rows.iter().map(|r| Scored { id: r.get(0), path: r.get(1), score: r.get(2) }).collect();
        // pgvector's iterative scans (`relaxed_order`) may return rows slightly out of order.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        Ok(hits)
    }

    fn keyword_candidates(
        &self,
        query: &KeywordQuery,
        filter: &SearchFilter,
    ) -> Result<Vec<KeywordCandidate>, StoreError> {
        let name = self.name.as_str();
        let terms = &query.terms;
        let literals: Vec<String> = terms.iter().map(tsquery_term).collect();
        // Candidates: chunks containing every term of some group.
        let union = query
            .select
            .iter()
            .filter_map(|group| {
                let parts: Option<Vec<String>> =
                    group.iter().map(|&i| literals.get(i).map(|l| format!("({l})"))).collect();
                parts.filter(|p| !p.is_empty()).map(|p| format!("({})", p.join(" & ")))
            })
            .collect::<Vec<_>>()
            .join(" | ");
        if terms.is_empty() || union.is_empty() {
            return Ok(Vec::new());
        }
        let t = &self.t;
        // For one word, `ts_rank_cd` without normalisation is 0.1 per occurrence (the default
        // weight of an unlabelled position), so ×10 is the word's frequency, which PostgreSQL
        // caps at 255 positions per word. A phrase reports whether it occurs.
        let mut counts = Vec::with_capacity(terms.len());
        let mut values: Vec<Box<dyn ToSql + Sync>> = Vec::new();
        for (i, (term, literal)) in terms.iter().zip(literals).enumerate() {
            let param = i + 2;
            counts.push(match term {
                KeywordTerm::Word(_) => format!("round(ts_rank_cd(x.keywords, ${param}::text::tsquery, 0) * 10)::int4"),
                KeywordTerm::Phrase(_) => format!("(x.keywords @@ ${param}::text::tsquery)::int4"),
            });
            values.push(Box::new(literal));
        }
        let cond = conditions(filter, terms.len() + 2);
        let filters = cond.all();
        values.extend(cond.params);
        // SQL limits are signed 64-bit: a larger cap is no cap.
        let cap = query
            .max_candidates
            .filter(|n| i64::try_from(*n).is_ok())
            .map(|n| format!(" LIMIT {n}"))
            .unwrap_or_default();
        let err = |e: postgres::Error| self.store.index_error(name, "searching keywords", &e);
        let mut conn = self.store.conn()?;
        // One candidate per chunk: a text held twice is two candidates, as in a clean index.
        let sql = format!(
            "SELECT c.id, c.path, {length}, ARRAY[{counts}]
         FROM {chunks} c JOIN {texts} x ON x.id = c.text_id
         WHERE x.keywords @@ $1::text::tsquery{filters}{scope}{cap}",
            length = stored_length("x.keyword_length", "x.keywords"),
            counts = counts.join(", "),
            chunks = t.chunks,
            texts = t.texts,
            scope = self.scope(&mut conn).map_err(err)?.and(t, "c.file_id"),
        );
        let rows = conn.query_prepared(&sql, &params(&[&union], &values)).map_err(err)?;
        Ok(rows
            .iter()
            .map(|r| KeywordCandidate {
                id: r.get(0),
                path: r.get(1),
                length: r.get::<_, Option<i32>>(2).and_then(|n| u32::try_from(n).ok()).unwrap_or(0),
                frequencies: r
                    .get::<_, Vec<i32>>(3)
                    .into_iter()
                    .map(|n| u32::try_from(n).unwrap_or(0).min(MAX_TERM_FREQUENCY))
                    .collect(),
            })
            .collect())
    }

    fn symbol_search(&self, names: &[String], filter: &SearchFilter, limit: usize) -> Result<Vec<Scored>, StoreError> {
        let name = self.name.as_str();
        if names.is_empty() {
            return Ok(Vec::new());
        }
        let t = &self.t;
        let err = |e: postgres::Error| self.store.index_error(name, "searching symbols", &e);
        let mut conn = self.store.conn()?;
        let cond = conditions(filter, 3);
        let sql = format!(
            "SELECT c.id, c.path, 1.0::float8 FROM {chunks} c JOIN {texts} x ON x.id = c.text_id
         WHERE x.symbol_keys && $1::text[]{filters}{scope}
         ORDER BY length(x.content), c.path, c.ordinal LIMIT $2",
            chunks = t.chunks,
            texts = t.texts,
            filters = cond.all(),
            scope = self.scope(&mut conn).map_err(err)?.and(t, "c.file_id"),
        );
        let names: Vec<String> = names.to_vec();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = conn.query_prepared(&sql, &params(&[&names, &limit], &cond.params)).map_err(err)?;
        Ok(rows.iter().map(|r| Scored { id: r.get(0), path: r.get(1), score: r.get(2) }).collect())
    }

    fn symbol_spans(
        &self,
        wanted: &[(String, String)],
        kinds: &[SymbolKind],
    ) -> Result<HashMap<String, Vec<(u32, u32)>>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        // The chunk where a symbol starts lists its keys (GIN-indexed) and its details; the
        // details are matched here rather than in SQL, whose plan for a join over
        // `jsonb_array_elements` cost several times the lookup itself.
        let err = |e: postgres::Error| self.store.index_error(name, "reading definition spans", &e);
        let mut conn = self.store.conn()?;
        let sql = format!(
            "SELECT c.path, c.line_start, x.symbol_details::text FROM {chunks} c JOIN {texts} x ON x.id = c.text_id
             WHERE x.symbol_keys && $1::text[] AND c.path = ANY($2){scope}",
            chunks = t.chunks,
            texts = t.texts,
            scope = self.scope(&mut conn).map_err(err)?.and(t, "c.file_id"),
        );
        let mut keys: Vec<&str> = wanted.iter().map(|(_, key)| key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        let mut paths: Vec<&str> = wanted.iter().map(|(path, _)| path.as_str()).collect();
        paths.sort_unstable();
        paths.dedup();
        let rows = conn.query_prepared(&sql, &[&keys, &paths]).map_err(err)?;
        let wanted: HashSet<(&str, &str)> = wanted.iter().map(|(path, key)| (path.as_str(), key.as_str())).collect();
        let mut spans: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let line = |v: i32| u32::try_from(v).unwrap_or(0);
        for r in rows {
            let path: &str = r.get(0);
            let mut symbols: Vec<SymbolRecord> = serde_json::from_str(r.get(2))
                .map_err(|e| unreadable_column(name, format!("the symbols of a chunk of {path}"), &e))?;
            place_symbols(&mut symbols, line(r.get(1)));
            for s in symbols {
                let Some(span) = s.start_line.zip(s.end_line) else { continue };
                if kinds.contains(&s.kind) && wanted.contains(&(path, s.qualified_name.to_lowercase().as_str())) {
                    let file_spans = spans.entry(path.to_string()).or_default();
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
        let t = &self.t;
        let mut conn = self.store.conn()?;
        let scope = self.scope(&mut conn).map_err(|e| self.store.index_error(name, "reading term statistics", &e))?;
        if let Scope::Snapshot(_) = scope {
            return self
                .scoped_term_stats(&mut conn, terms, scope)
                .map_err(|e| self.store.index_error(name, "reading term statistics", &e));
        }
        let mut with_total: Vec<String> = terms.to_vec();
        with_total.push(String::new());
        with_total.push(LENGTH_TERM.to_string());
        let rows = conn
            .query_prepared(
                &format!("SELECT term, df FROM {} WHERE term = ANY($1) AND df > 0", t.terms),
                &[&with_total],
            )
            .map_err(|e| self.store.index_error(name, "reading term statistics", &e))?;
        let mut stats = TermStats::default();
        for r in rows {
            let term: String = r.get(0);
            let df = u64::try_from(r.get::<_, i64>(1)).unwrap_or(0);
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
        let err = |e: postgres::Error| self.store.index_error(name, "reading term statistics", &e);
        let mut conn = self.store.conn()?;
        let scope = self.scope(&mut conn).map_err(err)?;
        self.files_term_stats_in(&mut conn, terms, paths, scope).map_err(err)
    }

    fn chunks(&self, ids: &[i64]) -> Result<Vec<StoredChunk>, StoreError> {
        // By id: a chunk id names one chunk of one stored file, whatever the snapshot.
        self.select_chunks("c.id", &ids, false)
    }

    fn file_chunks(&self, paths: &[String]) -> Result<Vec<StoredChunk>, StoreError> {
        self.select_chunks("c.path", &paths, true)
    }
}

/// Below this many texts every vector search is exact, as on the embedded store: comparing
/// every vector costs about 10 ms there (a sequential scan of the texts table: 30 ms at 12,000
/// 256-dimension texts on 2 busy cores, against 2 ms for HNSW), and the answer is the one a
/// local index of the same files gives — a shared index read with a local overlay ranks as a
/// fresh local index would. Larger indexes use HNSW.
const EXACT_BELOW: i64 = 5_000;

impl PgIndex {
    /// Whether the index holds fewer than [`EXACT_BELOW`] texts: by the planner's estimate, or
    /// counted (up to the bound) for a table never analysed.
    fn few_texts(&self, conn: &mut super::Conn) -> Result<bool, postgres::Error> {
        let texts = &self.t.texts;
        let sql = format!(
            "SELECT CASE WHEN c.reltuples >= 0 THEN c.reltuples::int8
                    ELSE (SELECT count(*) FROM (SELECT 1 FROM {texts} LIMIT {EXACT_BELOW}) s) END
             FROM pg_class c WHERE c.oid = to_regclass($1)"
        );
        let rows = conn.query_prepared(&sql, &[&texts.as_str()])?;
        Ok(rows.first().is_none_or(|r| r.get::<_, i64>(0) < EXACT_BELOW))
    }

    /// BM25's statistics over the chunks one snapshot holds, so that a search at a snapshot
    /// ranks as a clean index of it would: counted at query time (each term's chunks through
    /// the GIN index, kept when the snapshot holds them), since the `terms` table counts every
    /// stored file of the index. Only an index of several snapshots reads them so.
    fn scoped_term_stats(
        &self,
        conn: &mut super::Conn,
        terms: &[String],
        scope: Scope,
    ) -> Result<TermStats, postgres::Error> {
        let t = &self.t;
        // The chunk count and total length add up the snapshot's files, one row per file.
        let rows = conn.query_prepared(
            &format!(
                "SELECT coalesce(sum(chunk_count), 0)::int8, coalesce(sum(keyword_length), 0)::int8 FROM {} WHERE true{}",
                t.files,
                scope.and(t, "id")
            ),
            &[],
        )?;
        let within = scope.and(t, "c.file_id");
        let count = |i: usize| rows.first().map_or(0, |r| u64::try_from(r.get::<_, i64>(i)).unwrap_or(0));
        let mut stats = TermStats { chunks: count(0), total_length: count(1), ..TermStats::default() };
        let sql = format!(
            "SELECT count(*) FROM {} c JOIN {} x ON x.id = c.text_id WHERE x.keywords @@ $1::text::tsquery{within}",
            t.chunks, t.texts
        );
        for term in terms {
            let literal = tsquery_term(&KeywordTerm::Word(term.clone()));
            let df: i64 = conn.query_prepared(&sql, &[&literal])?.first().map_or(0, |r| r.get(0));
            if df > 0 {
                stats.df.insert(term.clone(), u64::try_from(df).unwrap_or(0));
            }
        }
        Ok(stats)
    }

    /// BM25's statistics over the chunks of the files `paths` in `scope`.
    fn files_term_stats_in(
        &self,
        conn: &mut super::Conn,
        terms: &[String],
        paths: &[String],
        scope: Scope,
    ) -> Result<TermStats, postgres::Error> {
        let t = &self.t;
        let rows = conn.query_prepared(
            &format!(
                "SELECT coalesce(sum(chunk_count), 0)::int8, coalesce(sum(keyword_length), 0)::int8 FROM {}
                 WHERE path = ANY($1){}",
                t.files,
                scope.and(t, "id")
            ),
            &[&paths],
        )?;
        let count = |i: usize| rows.first().map_or(0, |r| u64::try_from(r.get::<_, i64>(i)).unwrap_or(0));
        let mut stats = TermStats { chunks: count(0), total_length: count(1), ..TermStats::default() };
        let sql = format!(
            "SELECT count(*) FROM {} c JOIN {} x ON x.id = c.text_id
             WHERE c.path = ANY($2) AND x.keywords @@ $1::text::tsquery{}",
            t.chunks,
            t.texts,
            scope.and(t, "c.file_id")
        );
        for term in terms {
            let literal = tsquery_term(&KeywordTerm::Word(term.clone()));
            let df: i64 = conn.query_prepared(&sql, &[&literal, &paths])?.first().map_or(0, |r| r.get(0));
            if df > 0 {
                stats.df.insert(term.clone(), u64::try_from(df).unwrap_or(0));
            }
        }
        Ok(stats)
    }

    /// The chunks whose `column` is one of the array `values`; of the reader's snapshot only
    /// when `scoped`.
    fn select_chunks(
        &self,
        column: &str,
        values: &(dyn postgres::types::ToSql + Sync),
        scoped: bool,
    ) -> Result<Vec<StoredChunk>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let err = |e: postgres::Error| self.store.index_error(name, "reading chunks", &e);
        let mut conn = self.store.conn()?;
        let scope = if scoped { self.scope(&mut conn).map_err(err)? } else { Scope::All };
        let rows = conn
            .query_prepared(
                &format!(
                    "SELECT c.id, c.path, x.language, c.byte_start, c.byte_end, c.line_start, c.line_end, x.content,
                        x.symbol_type, x.symbol_name, x.qualified_name, x.symbol_signature, x.symbol_details::text,
                        x.context, x.parse_status, c.ordinal, x.enclosing
                 FROM {chunks} c JOIN {texts} x ON x.id = c.text_id WHERE {column} = ANY($1){scope} ORDER BY c.id",
                    chunks = t.chunks,
                    texts = t.texts,
                    scope = scope.and(t, "c.file_id"),
                ),
                &[values],
            )
            .map_err(err)?;
        let u = |v: i32| u32::try_from(v).unwrap_or(0);
        rows.iter()
            .map(|r| {
                let path: String = r.get(1);
                // Parsed straight from the text: no intermediate JSON value.
                let mut symbols: Vec<SymbolRecord> = serde_json::from_str(r.get::<_, &str>(12))
                    .map_err(|e| unreadable_column(name, format!("the symbols of a chunk of {path}"), &e))?;
                place_symbols(&mut symbols, u(r.get(5)));
                let what = || format!("a chunk of {path}");
                // No kind (NULL) is a chunk defining nothing; a kind this build does not know
                // is unreadable, as is a status.
                let symbol_type = r.get::<_, Option<&str>>(8).map(|k| stored_name(name, k, what)).transpose()?;
                let parse_status = stored_name(name, r.get(14), what)?;
                Ok(StoredChunk {
                    id: r.get(0),
                    path,
                    language: r.get(2),
                    ordinal: u(r.get(15)),
                    body: ChunkBody {
                        byte_start: u(r.get(3)),
                        byte_end: u(r.get(4)),
                        line_start: u(r.get(5)),
                        line_end: u(r.get(6)),
                        content: r.get(7),
                        symbol_type,
                        symbol_name: r.get(9),
                        qualified_name: r.get(10),
                        signature: r.get(11),
                        symbols,
                        context: r.get(13),
                        parse_status,
                        enclosing: r.get(16),
                    },
                })
            })
            .collect()
    }
}
