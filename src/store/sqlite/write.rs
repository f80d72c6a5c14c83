//! Writing an index: atomic file replacement, removals, vectors, term statistics.
//!
//! Every write is one `BEGIN IMMEDIATE` transaction, so a process killed at any moment leaves
//! each file fully old or fully new. The FTS5 index and the term statistics move in the same
//! transaction as the chunks they describe, and last in it (see [`KeywordChanges`]).

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::schema::{Tables, now_ns};
use super::texts;
use super::vectors::{check_dimension, encode, normalised};
use super::{SqliteWriter, graph, ivf, members, query_error};
use crate::store::texts::refs_by_chunk;
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

    /// Counts a chunk in, from its term frequencies.
    fn count_in(&mut self, counts: &TermCounts<'_>) {
        self.add(counts, 1);
    }

    /// Counts a chunk with keyword text `keywords` out.
    fn count_out(&mut self, keywords: &str) {
        self.add(&term_frequencies(keywords), -1);
    }

    /// Adds text `id`'s full-text row, its keyword text being `keywords`.
    fn index_text(&mut self, id: i64, keywords: &'a str) {
        self.fts_added.push((id, keywords));
    }

    /// Deletes the full-text rows of the texts `ids`.
    fn unindex_texts(&mut self, ids: &[i64]) {
        self.fts_deleted.extend_from_slice(ids);
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

/// A chunk about to go: its keyword text (to count it out) and its text's id (to free it
/// when nothing else holds it).
struct Leaving {
    keywords: String,
    text_id: i64,
}

/// The chunks of the stored files `ids`.
fn chunks_of(tx: &Transaction<'_>, t: &Tables, ids: &[i64]) -> rusqlite::Result<Vec<Leaving>> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT x.keywords, p.text_id FROM {places} p JOIN {texts} x ON x.id = p.text_id
         WHERE p.file_id IN (SELECT value FROM json_each(?1))",
        places = t.places,
        texts = t.texts
    ))?;
    let rows = stmt.query_map([json_list(ids)], |r| Ok(Leaving { keywords: r.get(0)?, text_id: r.get(1)? }))?;
    rows.collect()
}

/// Counts `leaving` out of the keyword statistics; returns their texts (to free once their
/// places are gone).
fn count_out(leaving: &[Leaving], keywords: &mut KeywordChanges<'_>) -> Vec<i64> {
    let mut texts: Vec<i64> = leaving
        .iter()
        .map(|c| {
            keywords.count_out(&c.keywords);
            c.text_id
        })
        .collect();
    texts.sort_unstable();
    texts.dedup();
    texts
}

/// Frees, of `candidates`, the texts no chunk holds any more, with their full-text rows;
/// returns how many went.
fn free_texts(
    tx: &Transaction<'_>,
    t: &Tables,
    candidates: &[i64],
    keywords: &mut KeywordChanges<'_>,
) -> rusqlite::Result<u64> {
    let freed = texts::free_unplaced(tx, t, candidates)?;
    keywords.unindex_texts(&freed);
    Ok(freed.len() as u64)
}

/// What deleting stored files took: files, chunks and chunk texts.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Deleted {
    pub files: u64,
    pub chunks: u64,
    pub texts: u64,
}

/// Deletes the stored files `ids` (which no snapshot holds any more) with everything of their
/// own: chunks, references and imports (foreign-key cascades), and the texts nothing else
/// holds; their terms are counted out and their FTS rows deleted in `keywords`.
pub(crate) fn delete_stored(
    tx: &Transaction<'_>,
    t: &Tables,
    ids: &[i64],
    keywords: &mut KeywordChanges<'_>,
) -> rusqlite::Result<Deleted> {
    if ids.is_empty() {
        return Ok(Deleted::default());
    }
    let old = chunks_of(tx, t, ids)?;
    let candidates = count_out(&old, keywords);
    let files = tx
        .execute(&format!("DELETE FROM {} WHERE id IN (SELECT value FROM json_each(?1))", t.files), [json_list(ids)])?;
    let texts = free_texts(tx, t, &candidates, keywords)?;
    Ok(Deleted { files: files as u64, chunks: old.len() as u64, texts })
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
        // A version stored before (the same path and content, cut again) is rewritten in place:
        // its chunks go at the end of the transaction, after the new ones took the texts they
        // share; the version each path held in this snapshot before goes if no snapshot holds
        // it now.
        let mut rewritten = Vec::new();
        for f in files {
            if let Some(id) = stored_id(&tx, t, &f.path, &f.hash).map_err(err)? {
                rewritten.push(id);
            }
        }
        let old = chunks_of(&tx, t, &rewritten).map_err(err)?;
        graph::delete(&tx, t, &json_list(&rewritten)).map_err(err)?;
        let mut keywords = KeywordChanges::default();
        let mut candidates = count_out(&old, &mut keywords);
        tx.execute(
            &format!("DELETE FROM {} WHERE file_id IN (SELECT value FROM json_each(?1))", t.places),
            [json_list(&rewritten)],
        )
        .map_err(err)?;
        let mut replaced = Vec::new();
        let mut lenders = texts::Lenders::of(&tx, t).map_err(err)?;
        for f in files {
            let file_id = write_file(&tx, t, f, (&mut keywords, &mut lenders)).map_err(err)?;
            if let Some(before) = members::hold(&tx, t, snapshot, (&f.path, file_id, f.mtime_ns)).map_err(err)? {
                replaced.push(before);
            }
        }
        let unheld = members::unheld(&tx, t, &replaced).map_err(err)?;
        delete_stored(&tx, t, &unheld, &mut keywords).map_err(err)?;
        candidates.sort_unstable();
        free_texts(&tx, t, &candidates, &mut keywords).map_err(err)?;
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
            // The vector goes to the chunk's text. Ids of chunks that are gone (rewritten
            // meanwhile) are skipped, as an UPDATE would.
            let mut stmt = tx
                .prepare_cached(&format!(
                    "INSERT INTO {vectors} (id, embedding) SELECT text_id, ?2 FROM {places} WHERE id = ?1
                     ON CONFLICT (id) DO UPDATE SET embedding = excluded.embedding, list = NULL",
                    vectors = t.vectors,
                    places = t.places
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

/// Writes stored file `f` (its row, its chunks at their places with their texts, its
/// references and imports); returns its id.
fn write_file<'a>(
    tx: &Transaction<'_>,
    t: &Tables,
    f: &'a FileRecord,
    (keywords, lenders): (&mut KeywordChanges<'a>, &mut texts::Lenders),
) -> rusqlite::Result<i64> {
    // Each chunk's terms, counted once: for the statistics, its length and the file's.
    let frequencies: Vec<_> = f.chunks.iter().map(|c| term_frequencies(&c.keywords)).collect();
    let file_length: i64 = frequencies.iter().map(|c| i64::from(c.values().sum::<u32>())).sum();
    let file_id: i64 = tx
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
        ))?
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
                now_ns(),
                f.skip_reason.map(|r| r.as_str()),
                f.chunking,
                file_length,
            ],
            |r| r.get(0),
        )?;
    let (refs, outside) = refs_by_chunk(f);
    for (ordinal, ((chunk, counts), refs)) in f.chunks.iter().zip(&frequencies).zip(&refs).enumerate() {
        // The same as `keyword_length`, without counting the terms again.
        let length: u32 = counts.values().sum();
        let text = texts::store(tx, t, f, (chunk, refs), length, lenders)?;
        texts::place(tx, t, (file_id, ordinal), chunk, text.id)?;
        keywords.count_in(counts);
        if text.new {
            keywords.index_text(text.id, &chunk.keywords);
        }
    }
    graph::write(tx, t, f, &outside, file_id)?;
    Ok(file_id)
}

/// The vector length the index records, read inside the writing transaction so a concurrent
/// model change cannot slip between the check and the write.
fn recorded_dimension(tx: &rusqlite::Transaction<'_>, name: &str) -> rusqlite::Result<Option<u32>> {
    tx.query_row("SELECT dimension FROM indexes WHERE name = ?1", [name], |r| r.get(0)).optional().map(Option::flatten)
}
