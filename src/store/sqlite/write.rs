//! Writing an index: atomic file replacement, removals, vectors, term statistics.
//!
//! Every write is one `BEGIN IMMEDIATE` transaction, so a process killed at any moment leaves
//! each file fully old or fully new. The FTS5 index and the term statistics move in the same
//! transaction as the chunks they describe, and last in it (see [`KeywordChanges`]).

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::schema::{Tables, now_ns};
use super::vectors::{check_dimension, encode, normalised};
use super::{SqliteWriter, graph, ivf, members, query_error};
use crate::store::{FileRecord, FileWriter, KeptFile, StoreError, TermCounts, term_frequencies};

/// The row of the terms table holding the total keyword length (as on PostgreSQL).
pub(crate) const LENGTH_TERM: &str = "#length";

/// The keyword side of one transaction: document-frequency changes and the full-text rows to
/// add and delete, all applied at its end.
///
/// The full-text rows wait because FTS5 writes its pending terms out as a new segment whenever
/// a statement of the transaction opens a savepoint once FTS5 has joined it, and the file
/// upserts and cascading deletes each open one: written as they came, every file flushed a
/// tiny segment that later merges paid for again (a seventh of the writer's time on the
/// standard library). Applied last, a transaction flushes once.
#[derive(Default)]
pub(crate) struct KeywordChanges<'a> {
    terms: rustc_hash::FxHashMap<String, i64>,
    fts_deleted: Vec<i64>,
    fts_added: Vec<(i64, &'a str)>,
}

impl<'a> KeywordChanges<'a> {
    /// Counts a chunk in (`sign` 1) or out (`sign` -1), from its term frequencies (computed
    /// once per chunk by the caller: the writer is one thread, and counting terms was a fifth
    /// of its time on the standard library).
    fn add(&mut self, counts: &TermCounts<'_>, sign: i64) {
        for term in counts.keys() {
            self.bump(term, sign);
        }
        self.bump("", sign);
        let length: u32 = counts.values().sum();
        self.bump(LENGTH_TERM, sign * i64::from(length));
    }

    /// Adds `by` to `term`'s change, allocating its key only the first time the transaction
    /// meets the term (most terms recur in most chunks).
    fn bump(&mut self, term: &str, by: i64) {
        match self.terms.get_mut(term) {
            Some(d) => *d += by,
            None => {
                self.terms.insert(term.to_string(), by);
            }
        }
    }

    /// Counts chunk `id` in with its keyword text `keywords` (term frequencies `counts`).
    fn add_chunk(&mut self, id: i64, keywords: &'a str, counts: &TermCounts<'_>) {
        self.add(counts, 1);
        self.fts_added.push((id, keywords));
    }

    /// Counts chunk `id` out, its keyword text being `keywords`.
    fn remove_chunk(&mut self, id: i64, keywords: &str) {
        self.add(&term_frequencies(keywords), -1);
        self.fts_deleted.push(id);
    }

    /// Applies the changes, the full-text rows last; terms whose count reaches zero are
    /// deleted, so the table holds only terms that occur.
    ///
    /// The changes go in key order: the upserts then walk the terms B-tree from left to right,
    /// each page read and split once, where hash order jumped to a random page per term (the
    /// upserts were a quarter of the writer thread's time on the standard library). Only a
    /// negative change can bring a count to zero, so only those read the count back.
    pub(crate) fn apply(self, tx: &Transaction<'_>, t: &Tables) -> rusqlite::Result<()> {
        let mut changes: Vec<(String, i64)> = self.terms.into_iter().filter(|(_, d)| *d != 0).collect();
        // Byte order, which is SQLite's BINARY collation of the primary key.
        changes.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut upsert = tx.prepare_cached(&format!(
            "INSERT INTO {terms} (term, df) VALUES (?1, ?2)
             ON CONFLICT (term) DO UPDATE SET df = df + excluded.df",
            terms = t.terms
        ))?;
        let mut decrease =
            tx.prepare_cached(&format!("UPDATE {} SET df = df + ?2 WHERE term = ?1 RETURNING df", t.terms))?;
        let mut delete = tx.prepare_cached(&format!("DELETE FROM {} WHERE term = ?1", t.terms))?;
        for (term, d) in changes {
            if d > 0 {
                upsert.execute(params![term, d])?;
                continue;
            }
            // A term counted out was counted in before: its row exists.
            let df: Option<i64> = decrease.query_row(params![term, d], |r| r.get(0)).optional()?;
            if df.is_some_and(|df| df <= 0) {
                delete.execute([&term])?;
            }
        }
        let mut fts_delete = tx.prepare_cached(&format!("DELETE FROM {} WHERE rowid = ?1", t.fts))?;
        for id in self.fts_deleted {
            fts_delete.execute([id])?;
        }
        let mut fts_insert = tx.prepare_cached(&format!("INSERT INTO {} (rowid, keywords) VALUES (?1, ?2)", t.fts))?;
        for (id, keywords) in self.fts_added {
            fts_insert.execute(params![id, keywords])?;
        }
        Ok(())
    }
}

/// The ids and keyword texts of the chunks of the stored files `ids`.
fn chunks_of(tx: &Transaction<'_>, t: &Tables, ids: &[i64]) -> rusqlite::Result<Vec<(i64, String)>> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT id, keywords FROM {chunks} WHERE file_id IN (SELECT value FROM json_each(?1))",
        chunks = t.chunks
    ))?;
    let rows = stmt.query_map([json_list(ids)], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// Deletes the stored files `ids` (which no snapshot holds any more) with everything of their
/// own: chunks, vectors, symbol keys and graph rows (foreign-key cascades); their FTS rows and
/// terms are counted out in `keywords`. Returns how many files and chunks went.
pub(crate) fn delete_stored(
    tx: &Transaction<'_>,
    t: &Tables,
    ids: &[i64],
    keywords: &mut KeywordChanges<'_>,
) -> rusqlite::Result<(u64, u64)> {
    if ids.is_empty() {
        return Ok((0, 0));
    }
    let old = chunks_of(tx, t, ids)?;
    for (id, text) in &old {
        keywords.remove_chunk(*id, text);
    }
    let files = tx
        .execute(&format!("DELETE FROM {} WHERE id IN (SELECT value FROM json_each(?1))", t.files), [json_list(ids)])?;
    Ok((files as u64, old.len() as u64))
}

/// The stored file of `path` with content `hash`, if the index has it.
fn stored_id(tx: &Transaction<'_>, t: &Tables, path: &str, hash: &[u8]) -> rusqlite::Result<Option<i64>> {
    tx.prepare_cached(&format!("SELECT id FROM {} WHERE path = ?1 AND content_hash = ?2", t.files))?
        .query_row(params![path, hash], |r| r.get(0))
        .optional()
}

pub(crate) fn json_list<T: serde::Serialize>(items: &[T]) -> String {
    serde_json::to_string(items).unwrap_or_else(|_| "[]".into())
}

/// One line per item, with a newline before and after, so `instr(x, '\nitem\n')` finds
/// exactly one whole item.
fn lines<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("\n");
    for item in items {
        out.push_str(item);
        out.push('\n');
    }
    if out.len() == 1 { String::new() } else { out }
}

impl FileWriter for SqliteWriter {
    fn replace_files(&self, files: &[FileRecord]) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        let mut guard = self.index.store.pool.get()?;
        let conn = &mut *guard;
        if files.is_empty() {
            return Ok(());
        }
        let t = &self.index.t;
        let err = |e: rusqlite::Error| query_error(Some(name), "writing files and chunks", &e);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        let dimension = recorded_dimension(&tx, name).map_err(err)?;
        check_dimension(name, dimension, files.iter().flat_map(|f| &f.chunks).filter_map(|c| c.embedding.as_deref()))?;
        let snapshot = members::current_for_write(&tx, t, name).map_err(err)?;
        // A version stored before (the same path and content, cut again) is rewritten in place;
        // the version each path held in this snapshot before goes if no snapshot holds it now.
        let mut rewritten = Vec::new();
        for f in files {
            if let Some(id) = stored_id(&tx, t, &f.path, &f.hash).map_err(err)? {
                rewritten.push(id);
            }
        }
        let old = chunks_of(&tx, t, &rewritten).map_err(err)?;
        graph::delete(&tx, t, &json_list(&rewritten)).map_err(err)?;
        let mut keywords = KeywordChanges::default();
        for (id, text) in &old {
            keywords.remove_chunk(*id, text);
        }
        let mut replaced = Vec::new();
        {
            let mut file_stmt = tx
                .prepare_cached(&format!(
                    "INSERT INTO {files} (path, language, size_bytes, mtime_ns, content_hash, line_count, chunk_count,
                                      parse_status, parse_errors, indexed_at, skip_reason, chunking, keyword_length)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
                 ON CONFLICT (path, content_hash) DO UPDATE SET language = excluded.language,
                     size_bytes = excluded.size_bytes, mtime_ns = excluded.mtime_ns,
                     line_count = excluded.line_count, chunk_count = excluded.chunk_count,
                     parse_status = excluded.parse_status, parse_errors = excluded.parse_errors,
                     indexed_at = excluded.indexed_at, skip_reason = excluded.skip_reason,
                     chunking = excluded.chunking, keyword_length = excluded.keyword_length
                 RETURNING id",
                    files = t.files
                ))
                .map_err(err)?;
            let mut chunk_stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO {chunks} (path, ordinal, byte_start, byte_end, line_start, line_end, language, content,
                                       symbol_type, symbol_name, qualified_name, symbol_signature, symbol_parent,
                                       symbol_keys, symbol_kinds, symbol_details, enclosing, context, parse_status,
                                       embed_hash, keywords, keyword_length, symbol_names, file_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24)",
                chunks = t.chunks
            ))
            .map_err(err)?;
            let mut vector_stmt = tx
                .prepare_cached(&format!("INSERT INTO {} (id, embedding) VALUES (?1, ?2)", t.vectors))
                .map_err(err)?;
            // An unchanged chunk text (in this file's old version, or anywhere in the index) keeps
            // its vector: the old chunks are still there until the end of this transaction.
            let mut reuse_stmt = tx
            .prepare_cached(&format!(
                "SELECT v.embedding FROM {chunks} c JOIN {vectors} v ON v.id = c.id WHERE c.embed_hash = ?1 LIMIT 1",
                chunks = t.chunks,
                vectors = t.vectors
            ))
            .map_err(err)?;
            let mut symbol_stmt = tx
                .prepare_cached(&format!("INSERT INTO {} (key, chunk_id) VALUES (?1, ?2)", t.symbols))
                .map_err(err)?;
            // An index without vectors (a keyword-only run) has none to reuse: no lookup per chunk.
            let mut any_vectors: bool =
                tx.query_row(&format!("SELECT EXISTS (SELECT 1 FROM {})", t.vectors), [], |r| r.get(0)).map_err(err)?;
            let now = now_ns();
            for f in files {
                // Each chunk's terms, counted once: for the statistics, its length and the file's.
                let frequencies: Vec<_> = f.chunks.iter().map(|c| term_frequencies(&c.keywords)).collect();
                let file_length: i64 = frequencies.iter().map(|c| i64::from(c.values().sum::<u32>())).sum();
                let file_id: i64 = file_stmt
                    .query_row(
                        params![
                            f.path,
                            f.language,
                            i64::try_from(f.size).unwrap_or(i64::MAX),
                            f.mtime_ns,
                            f.hash.as_slice(),
                            f.lines,
                            f.chunks.len() as i64,
                            f.parse_status.map_or("skipped", |s| s.as_str()),
                            json_list(&f.parse_errors),
                            now,
                            f.skip_reason.map(|r| r.as_str()),
                            f.chunking,
                            file_length,
                        ],
                        |r| r.get(0),
                    )
                    .map_err(err)?;
                if let Some(before) = members::hold(&tx, t, snapshot, (&f.path, file_id, f.mtime_ns)).map_err(err)? {
                    replaced.push(before);
                }
                for (ordinal, (chunk, counts)) in f.chunks.iter().zip(&frequencies).enumerate() {
                    let b = &chunk.body;
                    // The same as `keyword_length`, without counting the terms again.
                    let length: u32 = counts.values().sum();
                    let keys: Vec<String> = b.symbols.iter().flat_map(|s| s.keys()).collect();
                    chunk_stmt
                        .execute(params![
                            f.path,
                            ordinal as i64,
                            b.byte_start,
                            b.byte_end,
                            b.line_start,
                            b.line_end,
                            f.language,
                            b.content,
                            b.symbol_type.map(|k| k.as_str()),
                            b.symbol_name,
                            b.qualified_name,
                            b.signature,
                            chunk.parent,
                            lines(keys.iter().map(String::as_str)),
                            lines(b.symbols.iter().map(|s| s.kind.as_str())),
                            json_list(&b.symbols),
                            b.enclosing,
                            b.context,
                            b.parse_status.as_str(),
                            chunk.embed_hash.as_slice(),
                            chunk.keywords,
                            length,
                            lines(b.symbols.iter().map(|s| s.name.as_str())),
                            file_id,
                        ])
                        .map_err(err)?;
                    let id = tx.last_insert_rowid();
                    let vector = match &chunk.embedding {
                        Some(v) => Some(encode(&normalised(v.clone()))),
                        None if any_vectors => reuse_stmt
                            .query_row([chunk.embed_hash.as_slice()], |r| r.get::<_, Vec<u8>>(0))
                            .optional()
                            .map_err(err)?,
                        None => None,
                    };
                    if let Some(blob) = vector {
                        vector_stmt.execute(params![id, blob]).map_err(err)?;
                        any_vectors = true;
                    }
                    for key in &keys {
                        symbol_stmt.execute(params![key, id]).map_err(err)?;
                    }
                    keywords.add_chunk(id, &chunk.keywords, counts);
                }
                graph::write(&tx, t, f, file_id).map_err(err)?;
            }
            let mut chunk_delete =
                tx.prepare_cached(&format!("DELETE FROM {} WHERE id = ?1", t.chunks)).map_err(err)?;
            for (id, _) in &old {
                chunk_delete.execute([id]).map_err(err)?;
            }
        }
        let unheld = members::unheld(&tx, t, &replaced).map_err(err)?;
        delete_stored(&tx, t, &unheld, &mut keywords).map_err(err)?;
        keywords.apply(&tx, t).map_err(err)?;
        tx.commit().map_err(err)
    }

    fn touch_files(&self, files: &[KeptFile]) -> Result<u64, StoreError> {
        let name = self.index.name.as_str();
        let mut guard = self.index.store.pool.get()?;
        let conn = &mut *guard;
        if files.is_empty() {
            return Ok(0);
        }
        let t = &self.index.t;
        let err = |e: rusqlite::Error| query_error(Some(name), "keeping unchanged files", &e);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        let snapshot = members::current_for_write(&tx, t, name).map_err(err)?;
        let mut kept = 0;
        let mut replaced = Vec::new();
        for f in files {
            let Some(id) = stored_id(&tx, t, &f.path, &f.hash).map_err(err)? else { continue };
            kept += 1;
            if let Some(before) = members::hold(&tx, t, snapshot, (&f.path, id, f.mtime_ns)).map_err(err)? {
                replaced.push(before);
            }
        }
        let unheld = members::unheld(&tx, t, &replaced).map_err(err)?;
        let mut keywords = KeywordChanges::default();
        delete_stored(&tx, t, &unheld, &mut keywords).map_err(err)?;
        keywords.apply(&tx, t).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(kept)
    }

    fn remove_files(&self, paths: &[String]) -> Result<u64, StoreError> {
        let name = self.index.name.as_str();
        let mut guard = self.index.store.pool.get()?;
        let conn = &mut *guard;
        if paths.is_empty() {
            return Ok(0);
        }
        let t = &self.index.t;
        let err = |e: rusqlite::Error| query_error(Some(name), "removing files", &e);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        let snapshot = members::current_for_write(&tx, t, name).map_err(err)?;
        let list = json_list(paths);
        let held: Vec<i64> = {
            let mut stmt = tx
                .prepare_cached(&format!(
                    "DELETE FROM {} WHERE snapshot = ?1 AND path IN (SELECT value FROM json_each(?2)) RETURNING file_id",
                    t.members
                ))
                .map_err(err)?;
            let rows = stmt.query_map(params![snapshot, list], |r| r.get(0)).map_err(err)?;
            rows.collect::<Result<_, _>>().map_err(err)?
        };
        // Imports of other files that resolved to these become missing.
        graph::unresolve(&tx, t, &list).map_err(err)?;
        let unheld = members::unheld(&tx, t, &held).map_err(err)?;
        let mut keywords = KeywordChanges::default();
        delete_stored(&tx, t, &unheld, &mut keywords).map_err(err)?;
        keywords.apply(&tx, t).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(held.len() as u64)
    }

    fn set_embeddings(&self, vectors: &[(i64, Vec<f32>)]) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        let mut guard = self.index.store.pool.get()?;
        let conn = &mut *guard;
        if vectors.is_empty() {
            return Ok(());
        }
        let t = &self.index.t;
        let err = |e: rusqlite::Error| query_error(Some(name), "storing embeddings", &e);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        let dimension = recorded_dimension(&tx, name).map_err(err)?;
        check_dimension(name, dimension, vectors.iter().map(|(_, v)| v.as_slice()))?;
        {
            // Ids of chunks that are gone (rewritten meanwhile) are skipped, as an UPDATE would.
            let mut stmt = tx
                .prepare_cached(&format!(
                "INSERT INTO {vectors} (id, embedding) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM {chunks} WHERE id = ?1)
                 ON CONFLICT (id) DO UPDATE SET embedding = excluded.embedding, list = NULL",
                vectors = t.vectors,
                chunks = t.chunks
            ))
                .map_err(err)?;
            for (id, vector) in vectors {
                stmt.execute(params![id, encode(&normalised(vector.clone()))]).map_err(err)?;
            }
        }
        tx.commit().map_err(err)
    }

    fn optimize(&self) -> Result<(), StoreError> {
        let mut conn = self.index.store.pool.get()?;
        ivf::maintain(&mut conn, &self.index.t, &self.index.name)
    }
}

/// The vector length the index records, read inside the writing transaction so a concurrent
/// model change cannot slip between the check and the write.
fn recorded_dimension(tx: &rusqlite::Transaction<'_>, name: &str) -> rusqlite::Result<Option<u32>> {
    tx.query_row("SELECT dimension FROM indexes WHERE name = ?1", [name], |r| r.get(0)).optional().map(Option::flatten)
}
