//! Writing an index: file states, atomic file replacement with batched chunk inserts,
//! removals, and filling in vectors.

use std::collections::{HashMap, HashSet};

use pgvector::Vector;
use postgres::error::SqlState;

use super::tables::{LENGTH_TERM, Tables, stored_length};
use super::{PgIndex, PgStore, PgWriter, members};
use crate::store::texts::refs_by_chunk;
use crate::store::unreadable::stored_name;
use crate::store::{
    FileRecord, FileState, FileWriter, KeptFile, PendingChunk, StateReader, StoreError, keyword_length,
};

/// SQL that adds `sign` (an expression over the chunk's id `c.id`, +1 or -1) to the document
/// frequency of every term of the chunks of the stored files `$1` (ids), to the chunk count
/// kept under the empty term and to the total length kept under [`LENGTH_TERM`], and returns
/// the terms whose count fell to zero. Counted per chunk, not per text: a text held twice
/// counts twice, as in a clean index.
fn term_delta_sql(t: &Tables, sign: &str) -> String {
    format!(
        "WITH per_chunk AS (
             SELECT {sign} AS d, x.keywords, {length} AS length
             FROM {chunks} c JOIN {texts} x ON x.id = c.text_id WHERE c.file_id = ANY($1)
         ), delta AS (
             SELECT w AS term, sum(d) AS d FROM per_chunk, unnest(tsvector_to_array(keywords)) AS w GROUP BY w
             UNION ALL
             SELECT '', sum(d) FROM per_chunk
             UNION ALL
             SELECT '{LENGTH_TERM}', sum(d * length) FROM per_chunk
         ), moved AS (
             INSERT INTO {terms} (term, df) SELECT term, d FROM delta WHERE d IS NOT NULL AND d <> 0
             ON CONFLICT (term) DO UPDATE SET df = {terms}.df + EXCLUDED.df
             RETURNING term, df
         )
         SELECT term FROM moved WHERE df <= 0",
        chunks = t.chunks,
        texts = t.texts,
        terms = t.terms,
        length = stored_length("x.keyword_length", "x.keywords"),
    )
}

/// Moves the document frequencies by the chunks of the stored files `$1` (see
/// [`term_delta_sql`]) and deletes the terms no chunk holds any more, in the caller's
/// transaction: the table lists exactly the terms of the index, so it does not grow with every
/// word ever written. (The rows a statement changed cannot be deleted by the same statement,
/// hence the second one.)
fn move_terms(
    tx: &mut postgres::Transaction<'_>,
    t: &Tables,
    sign: &str,
    params: &[&(dyn postgres::types::ToSql + Sync)],
) -> Result<(), postgres::Error> {
    let gone: Vec<String> = tx.query(&term_delta_sql(t, sign), params)?.iter().map(|r| r.get(0)).collect();
    if !gone.is_empty() {
        tx.execute(&format!("DELETE FROM {} WHERE term = ANY($1) AND df <= 0", t.terms), &[&gone])?;
    }
    Ok(())
}

/// What deleting stored files took with it.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Deleted {
    pub files: u64,
    pub chunks: u64,
    pub texts: u64,
}

/// Deletes the stored files `ids` (which no snapshot holds any more) with everything of their
/// own: their terms counted out of the statistics, their chunks, their graph rows, and the
/// texts (with their vectors, definitions and references) no other chunk holds.
pub(super) fn delete_stored(
    tx: &mut postgres::Transaction<'_>,
    t: &Tables,
    ids: &[i64],
) -> Result<Deleted, postgres::Error> {
    if ids.is_empty() {
        return Ok(Deleted::default());
    }
    move_terms(tx, t, "-1", &[&ids])?;
    let held: Vec<i64> = tx
        .query(&format!("DELETE FROM {} WHERE file_id = ANY($1) RETURNING text_id", t.chunks), &[&ids])?
        .iter()
        .map(|r| r.get(0))
        .collect();
    // The graph rows go with their files (foreign-key cascades).
    let files = tx.execute(&format!("DELETE FROM {} WHERE id = ANY($1)", t.files), &[&ids])?;
    let texts = super::texts::free(tx, t, &held)?;
    Ok(Deleted { files, chunks: held.len() as u64, texts })
}

fn to_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl PgStore {
    /// A query error on index `name`: a missing table means the index is gone.
    pub(super) fn index_error(&self, name: &str, context: &str, e: &postgres::Error) -> StoreError {
        if e.code() == Some(&SqlState::UNDEFINED_TABLE) {
            return StoreError::IndexNotFound(name.to_string());
        }
        self.query_error(context, e)
    }
}

impl StateReader for PgIndex {
    /// The files the reader's snapshot holds (all of them, or those of `paths`), with the
    /// mtime each had in its tree.
    fn file_states(&self, paths: Option<&[String]>) -> Result<HashMap<String, FileState>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let err = |e: postgres::Error| self.store.index_error(name, "reading file states", &e);
        let mut conn = self.store.conn()?;
        let Some(snapshot) = self.snapshot_id(&mut conn).map_err(err)? else { return Ok(HashMap::new()) };
        let paths: Option<Vec<String>> = paths.map(<[String]>::to_vec);
        let rows = conn
            .query_prepared(
                &format!(
                    "SELECT m.path, f.size_bytes, m.mtime_ns, f.content_hash, f.skip_reason, f.chunking
                     FROM {members} m JOIN {files} f ON f.id = m.file_id
                     WHERE m.snapshot = $2 AND ($1::text[] IS NULL OR m.path = ANY($1))",
                    members = t.members,
                    files = t.files
                ),
                &[&paths, &snapshot],
            )
            .map_err(err)?;
        rows.iter()
            .map(|r| {
                let path: String = r.get(0);
                let mut hash = [0u8; 32];
                let bytes: &[u8] = r.get(3);
                if bytes.len() == 32 {
                    hash.copy_from_slice(bytes);
                }
                let size: i64 = r.get(1);
                // No reason (NULL) is a file that was indexed; one this build does not know is
                // unreadable, never an indexed file.
                let skip_reason = r
                    .get::<_, Option<&str>>(4)
                    .map(|s| stored_name(name, s, || format!("the skip reason of {path}")))
                    .transpose()?;
                let state = FileState {
                    size: u64::try_from(size).unwrap_or(0),
                    mtime_ns: r.get(2),
                    hash,
                    skip_reason,
                    chunking: r.get(5),
                };
                Ok((path, state))
            })
            .collect()
    }

    fn embedded_hashes(&self) -> Result<HashSet<[u8; 16]>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let mut conn = self.store.conn()?;
        let rows = conn
            .query(&format!("SELECT DISTINCT embed_hash FROM {} WHERE embedding IS NOT NULL", t.texts), &[])
            .map_err(|e| self.store.index_error(name, "reading embedded chunks", &e))?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let bytes: &[u8] = r.get(0);
                <[u8; 16]>::try_from(bytes).ok()
            })
            .collect())
    }

    fn pending_chunks(&self, after_id: i64, limit: usize) -> Result<Vec<PendingChunk>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let mut conn = self.store.conn()?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        // One chunk per text awaiting its vector (the text's first, so pages stay put), which
        // the vector goes to. The planner starts from the few waiting texts (their partial
        // index) or walks the chunks in order when most wait, as on a first run.
        let rows = conn
            .query(
                &format!(
                    "SELECT c.id, c.path, x.language, x.context, x.content
                     FROM {chunks} c JOIN {texts} x ON x.id = c.text_id
                     WHERE x.embedding IS NULL AND c.id > $1
                       AND c.id = (SELECT min(o.id) FROM {chunks} o WHERE o.text_id = c.text_id)
                     ORDER BY c.id LIMIT $2",
                    chunks = t.chunks,
                    texts = t.texts
                ),
                &[&after_id, &limit],
            )
            .map_err(|e| self.store.index_error(name, "reading chunks awaiting embeddings", &e))?;
        Ok(rows
            .iter()
            .map(|r| PendingChunk {
                id: r.get(0),
                path: r.get(1),
                language: r.get(2),
                context: r.get(3),
                content: r.get(4),
            })
            .collect())
    }

    /// Counted by text: each is embedded once, however many chunks hold it.
    fn count_pending(&self) -> Result<u64, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let mut conn = self.store.conn()?;
        let n: i64 = conn
            .query_one(&format!("SELECT count(*) FROM {} WHERE embedding IS NULL", t.texts), &[])
            .map_err(|e| self.store.index_error(name, "counting chunks awaiting embeddings", &e))?
            .get(0);
        Ok(u64::try_from(n).unwrap_or(0))
    }
}

impl FileWriter for PgWriter {
    fn replace_files(&self, files: &[FileRecord]) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        if files.is_empty() {
            return Ok(());
        }
        let t = &self.index.t;
        let context = "writing files and chunks";
        let err = |e: postgres::Error| self.index.store.index_error(name, context, &e);
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(err)?;
        let snapshot = members::current_for_write(&mut tx, t).map_err(err)?;
        // Rows at or below this id are the old chunks of these files: new ones get higher ids,
        // and the index lock keeps other writers out.
        let max_old: i64 =
            tx.query_one(&format!("SELECT COALESCE(max(id), 0) FROM {}", t.chunks), &[]).map_err(err)?.get(0);

        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        let languages: Vec<&str> = files.iter().map(|f| f.language.as_str()).collect();
        let sizes: Vec<i64> = files.iter().map(|f| to_i64(f.size)).collect();
        let mtimes: Vec<i64> = files.iter().map(|f| f.mtime_ns).collect();
        let hashes: Vec<&[u8]> = files.iter().map(|f| f.hash.as_slice()).collect();
        let lines: Vec<i32> = files.iter().map(|f| to_i32(f.lines)).collect();
        let counts: Vec<i32> = files.iter().map(|f| i32::try_from(f.chunks.len()).unwrap_or(i32::MAX)).collect();
        let statuses: Vec<&str> = files.iter().map(|f| f.parse_status.map_or("skipped", |s| s.as_str())).collect();
        let errors: Vec<serde_json::Value> =
            files.iter().map(|f| serde_json::to_value(&f.parse_errors).unwrap_or_default()).collect();
        let skips: Vec<Option<&str>> = files.iter().map(|f| f.skip_reason.map(|r| r.as_str())).collect();
        let chunkings: Vec<Option<&str>> = files.iter().map(|f| f.chunking.as_deref()).collect();
        // A file's keyword length is the sum of its chunks' (BM25's statistics at a snapshot add
        // files up).
        let file_lengths: Vec<i64> =
            files.iter().map(|f| f.chunks.iter().map(|c| i64::from(keyword_length(&c.keywords))).sum()).collect();
        // A version stored before (the same path and content, cut again) is rewritten in place,
        // for every snapshot holding it.
        let stored: HashMap<(String, Vec<u8>), i64> = tx
            .query(
                &format!(
                    "INSERT INTO {files} (path, language, size_bytes, mtime_ns, content_hash, line_count, chunk_count, parse_status, parse_errors, skip_reason, chunking, keyword_length, indexed_at)
                     SELECT *, now() FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::bytea[], $6::int4[], $7::int4[], $8::text[], $9::jsonb[], $10::text[], $11::text[], $12::int8[])
                     ON CONFLICT (path, content_hash) DO UPDATE SET language = EXCLUDED.language, size_bytes = EXCLUDED.size_bytes,
                         mtime_ns = EXCLUDED.mtime_ns, line_count = EXCLUDED.line_count,
                         chunk_count = EXCLUDED.chunk_count, parse_status = EXCLUDED.parse_status,
                         parse_errors = EXCLUDED.parse_errors, skip_reason = EXCLUDED.skip_reason,
                         chunking = EXCLUDED.chunking, keyword_length = EXCLUDED.keyword_length, indexed_at = now()
                     RETURNING path, content_hash, id",
                    files = t.files
                ),
                &[
                    &paths,
                    &languages,
                    &sizes,
                    &mtimes,
                    &hashes,
                    &lines,
                    &counts,
                    &statuses,
                    &errors,
                    &skips,
                    &chunkings,
                    &file_lengths,
                ],
            )
            .map_err(err)?
            .iter()
            .map(|r| ((r.get(0), r.get(1)), r.get(2)))
            .collect();
        let mut file_ids = Vec::with_capacity(files.len());
        for f in files {
            let id = stored.get(&(f.path.clone(), f.hash.to_vec())).copied().ok_or_else(|| StoreError::Query {
                context: context.into(),
                message: format!("no stored file came back for {}", f.path),
            })?;
            file_ids.push(id);
        }

        // Each chunk's references go with its text, the others with their file.
        let (on_chunks, outside): (Vec<_>, Vec<_>) = files.iter().map(refs_by_chunk).unzip();
        let (written, expected) = super::texts::write_chunks(&mut tx, t, files, &file_ids, &on_chunks).map_err(err)?;
        if written != expected {
            return Err(StoreError::Query {
                context: context.into(),
                message: format!("{written} of {expected} chunks found their text while they were written"),
            });
        }
        // Document frequencies: +1 per term of each new chunk, -1 per term of each old one.
        move_terms(&mut tx, t, "CASE WHEN c.id > $2 THEN 1 ELSE -1 END", &[&file_ids, &max_old]).map_err(err)?;
        let old_texts: Vec<i64> = tx
            .query(
                &format!("DELETE FROM {} WHERE file_id = ANY($1) AND id <= $2 RETURNING text_id", t.chunks),
                &[&file_ids, &max_old],
            )
            .map_err(err)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        // After the new chunks took what they could from the old ones' texts.
        super::texts::free(&mut tx, t, &old_texts).map_err(err)?;
        super::graph::replace(&mut tx, t, files, &file_ids, &outside).map_err(err)?;
        // The version each path held in this snapshot before goes if no snapshot holds it now.
        let replaced = members::hold(&mut tx, t, snapshot, (&paths, &file_ids, &mtimes)).map_err(err)?;
        let unheld = members::unheld(&mut tx, t, &replaced).map_err(err)?;
        delete_stored(&mut tx, t, &unheld).map_err(err)?;
        tx.commit().map_err(err)
    }

    fn touch_files(&self, files: &[KeptFile]) -> Result<u64, StoreError> {
        let name = self.index.name.as_str();
        if files.is_empty() {
            return Ok(0);
        }
        let t = &self.index.t;
        let err = |e: postgres::Error| self.index.store.index_error(name, "keeping unchanged files", &e);
        let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        let hashes: Vec<&[u8]> = files.iter().map(|f| f.hash.as_slice()).collect();
        let mtimes: Vec<i64> = files.iter().map(|f| f.mtime_ns).collect();
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(err)?;
        let snapshot = members::current_for_write(&mut tx, t).map_err(err)?;
        // The stored version of each; a version the index does not store is skipped.
        let found = tx
            .query(
                &format!(
                    "SELECT u.path, f.id, u.mtime_ns
                     FROM unnest($1::text[], $2::bytea[], $3::int8[]) AS u(path, hash, mtime_ns)
                     JOIN {files} f ON f.path = u.path AND f.content_hash = u.hash",
                    files = t.files
                ),
                &[&paths, &hashes, &mtimes],
            )
            .map_err(err)?;
        let kept_paths: Vec<&str> = found.iter().map(|r| r.get(0)).collect();
        let kept_ids: Vec<i64> = found.iter().map(|r| r.get(1)).collect();
        let kept_mtimes: Vec<i64> = found.iter().map(|r| r.get(2)).collect();
        let replaced = members::hold(&mut tx, t, snapshot, (&kept_paths, &kept_ids, &kept_mtimes)).map_err(err)?;
        let unheld = members::unheld(&mut tx, t, &replaced).map_err(err)?;
        delete_stored(&mut tx, t, &unheld).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(kept_paths.len() as u64)
    }

    fn remove_files(&self, paths: &[String]) -> Result<u64, StoreError> {
        let name = self.index.name.as_str();
        if paths.is_empty() {
            return Ok(0);
        }
        let t = &self.index.t;
        let err = |e: postgres::Error| self.index.store.index_error(name, "removing files", &e);
        let mut conn = self.index.store.conn()?;
        let mut tx = conn.transaction().map_err(err)?;
        let snapshot = members::current_for_write(&mut tx, t).map_err(err)?;
        let held: Vec<i64> = tx
            .query(
                &format!("DELETE FROM {} WHERE snapshot = $1 AND path = ANY($2) RETURNING file_id", t.members),
                &[&snapshot, &paths],
            )
            .map_err(err)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        // Imports of other files that resolved to these become missing.
        super::graph::unresolve(&mut tx, t, paths).map_err(err)?;
        let unheld = members::unheld(&mut tx, t, &held).map_err(err)?;
        delete_stored(&mut tx, t, &unheld).map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(held.len() as u64)
    }

    fn set_embeddings(&self, vectors: &[(i64, Vec<f32>)]) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        if vectors.is_empty() {
            return Ok(());
        }
        let t = &self.index.t;
        let ids: Vec<i64> = vectors.iter().map(|v| v.0).collect();
        let values: Vec<Vector> = vectors.iter().map(|v| Vector::from(v.1.clone())).collect();
        let mut conn = self.index.store.conn()?;
        conn.execute(
            &format!(
                "UPDATE {texts} x SET embedding = u.embedding
                 FROM unnest($1::int8[], $2::vector[]) AS u(id, embedding) JOIN {chunks} c ON c.id = u.id
                 WHERE x.id = c.text_id",
                texts = t.texts,
                chunks = t.chunks
            ),
            &[&ids, &values],
        )
        .map_err(|e| self.index.store.index_error(name, "storing embeddings", &e))?;
        Ok(())
    }

    fn optimize(&self) -> Result<(), StoreError> {
        // PostgreSQL maintains its HNSW index and statistics itself.
        Ok(())
    }
}
