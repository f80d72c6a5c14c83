//! Counting what an index holds, for `stats` (as `store::postgres::stats` does).

use std::collections::{BTreeMap, HashMap};

use super::members::Scope;
use super::schema::{Tables, time};
use super::{SqliteIndex, Undecodable, query_error};
use crate::chunk::{ParseStatus, SymbolKind};
use crate::store::stored_run::decode_run_text;
use crate::store::unreadable::{stored_name, unreadable_column};
use crate::store::{
    ErrorPosition, FailingFile, IndexCounts, LanguageCounts, RunRecord, StateReader, StatsReader, StoreError,
};

fn u(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The bytes of the pages of `name`'s tables and their indexes.
///
/// `dbstat` reads every page it sums: a second and more on a 2 GB index. When `name` is the
/// store's only index, what its pages leave of the file's used pages is the few pages of the
/// shared tables (runs, tasks, the query cache) and, in a file past 1 GiB, the page SQLite keeps
/// for its locks, so those are walked and subtracted: the same sum, exactly.
fn storage_bytes(conn: &rusqlite::Connection, name: &str, t: &Tables) -> rusqlite::Result<i64> {
    let objects = serde_json::to_string(&t.all_names()).unwrap_or_default();
    let others: i64 = conn.query_row("SELECT count(*) FROM indexes WHERE name <> ?1", [name], |r| r.get(0))?;
    if others > 0 {
        return conn.query_row(
            "SELECT COALESCE(sum(pgsize), 0) FROM dbstat
             WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name IN (SELECT value FROM json_each(?1)))",
            [objects],
            |r| r.get(0),
        );
    }
    conn.query_row(
        "SELECT (SELECT (page_count - freelist_count) * page_size
                        - CASE WHEN page_count * page_size > 1073741824 THEN page_size ELSE 0 END
                 FROM pragma_page_count, pragma_freelist_count, pragma_page_size)
              - (SELECT COALESCE(sum(pgsize), 0) FROM dbstat
                 WHERE name IN (SELECT name FROM sqlite_schema
                                WHERE rootpage > 0 AND tbl_name NOT IN (SELECT value FROM json_each(?1))
                                UNION ALL SELECT 'sqlite_schema'))",
        [objects],
        |r| r.get(0),
    )
}

impl StatsReader for SqliteIndex {
    fn index_counts(&self) -> Result<IndexCounts, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "counting the index", &e);
        let mut counts = IndexCounts::default();
        let scope = self.scope(conn).map_err(err)?;
        let mut languages: HashMap<String, LanguageCounts> = HashMap::new();
        {
            let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT language, count(*), COALESCE(sum(line_count), 0) FROM {} f WHERE skip_reason IS NULL{} GROUP BY language",
                t.files,
                scope.and_file(t, "f")
            ))
            .map_err(err)?;
            let mut rows = stmt.query([]).map_err(err)?;
            while let Some(r) = rows.next().map_err(err)? {
                let language: String = r.get(0).map_err(err)?;
                let entry = languages
                    .entry(language.clone())
                    .or_insert_with(|| LanguageCounts { language, ..Default::default() });
                entry.files = u(r.get(1).map_err(err)?);
                entry.lines = u(r.get(2).map_err(err)?);
            }
        }
        // Chunks by language, parse status and symbol kinds in one pass: both columns lie past
        // the chunk's text, so each pass reads every text's pages (on a 2 GB index two passes
        // took 1.1 s, this one 0.8 s).
        let mut kinds: BTreeMap<SymbolKind, u64> = BTreeMap::new();
        {
            let mut stmt = conn
                .prepare_cached(&format!(
                    "SELECT language, parse_status, symbol_kinds, count(*) FROM {} c WHERE 1{} GROUP BY 1, 2, 3",
                    t.chunks,
                    scope.and(t, "c")
                ))
                .map_err(err)?;
            let mut rows = stmt.query([]).map_err(err)?;
            while let Some(r) = rows.next().map_err(err)? {
                let language: String = r.get(0).map_err(err)?;
                let status: String = r.get(1).map_err(err)?;
                let n = u(r.get(3).map_err(err)?);
                let entry = languages
                    .entry(language.clone())
                    .or_insert_with(|| LanguageCounts { language, ..Default::default() });
                entry.chunks += n;
                let what = || format!("the parse status of {} chunks", entry.language);
                *entry.parse_status.entry(stored_name::<ParseStatus>(name, &status, what)?).or_default() += n;
                let what = || format!("the symbol kinds of {} chunks", entry.language);
                let text = Undecodable::text(r.get_ref(2).map_err(err)?, 2, what).map_err(err)?;
                // One kind a line, the list starting with a newline (see `write::lines`).
                for kind in text.lines().filter(|k| !k.is_empty()) {
                    *kinds.entry(stored_name::<SymbolKind>(name, kind, what)?).or_default() += n;
                }
            }
        }
        let mut languages: Vec<LanguageCounts> = languages.into_values().collect();
        languages.sort_by(|a, b| b.chunks.cmp(&a.chunks).then(a.language.cmp(&b.language)));
        counts.files = languages.iter().map(|l| l.files).sum();
        counts.chunks = languages.iter().map(|l| l.chunks).sum();
        counts.lines = languages.iter().map(|l| l.lines).sum();
        counts.languages = languages;
        // The snapshot's chunk texts without a vector (the filler's count, `count_pending`, is
        // the index's, over every snapshot).
        counts.pending_embeddings = match scope {
            Scope::All => self.count_pending()?,
            Scope::Snapshot(_) => conn
                .query_row(
                    &format!(
                        "SELECT count(DISTINCT c.text_id) FROM {chunks} c
                         WHERE NOT EXISTS (SELECT 1 FROM {vectors} v WHERE v.id = c.text_id){scope}",
                        chunks = t.chunks,
                        vectors = t.vectors,
                        scope = scope.and(t, "c")
                    ),
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .map(u)
                .map_err(err)?,
        };

        counts.stored_texts = conn
            .query_row(&format!("SELECT count(*) FROM {}", t.texts), [], |r| r.get::<_, i64>(0))
            .map(u)
            .map_err(err)?;

        counts.symbols_by_type = kinds;

        counts.storage_bytes = storage_bytes(conn, name, t).map(u).map_err(err)?;
        Ok(counts)
    }

    fn failing_files(&self, limit: usize) -> Result<Vec<FailingFile>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "listing parse failures", &e);
        let scope = self.scope(conn).map_err(err)?.and_file(t, "f");
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT f.path, f.language, f.parse_status, f.parse_errors,
                    sum(c.parse_status IN ('partial', 'error')), count(c.id)
             FROM {files} f JOIN {chunks} c ON c.file_id = f.id
             WHERE f.parse_status IN ('partial', 'error'){scope}
             GROUP BY f.id
             ORDER BY 5 DESC, f.path
             LIMIT ?1",
                files = t.files,
                chunks = t.chunks
            ))
            .map_err(err)?;
        let rows = stmt
            .query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
                let file = FailingFile {
                    path: r.get(0)?,
                    language: r.get(1)?,
                    // Both are decoded from their stored text below, outside the row loop.
                    status: ParseStatus::Error,
                    errors: Vec::new(),
                    failing_chunks: u(r.get(4)?),
                    chunks: u(r.get(5)?),
                };
                Ok((file, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
            })
            .map_err(err)?;
        let mut files = Vec::new();
        for row in rows {
            let (mut file, status, errors) = row.map_err(err)?;
            file.status = stored_name(name, &status, || format!("the parse status of {}", file.path))?;
            file.errors = serde_json::from_str::<Vec<ErrorPosition>>(&errors)
                .map_err(|e| unreadable_column(name, format!("the parse errors of {}", file.path), &e))?;
            files.push(file);
        }
        Ok(files)
    }

    fn runs(&self, limit: usize) -> Result<Vec<RunRecord>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let err = |e| query_error(None, "reading index runs", &e);
        let mut stmt = conn
            .prepare_cached(
                "SELECT id, kind, status, started_at, finished_at, summary FROM runs
             WHERE index_name = ?1 ORDER BY id DESC LIMIT ?2",
            )
            .map_err(err)?;
        let rows = stmt
            .query_map((name, i64::try_from(limit).unwrap_or(i64::MAX)), |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, String>(5)?,
                ))
            })
            .map_err(err)?;
        let mut runs = Vec::new();
        for row in rows {
            let (id, kind, status, started_at, finished_at, summary) = row.map_err(err)?;
            let (kind, status, summary) = decode_run_text(name, id, &kind, &status, &summary)?;
            runs.push(RunRecord {
                id,
                kind,
                status,
                started_at: time(started_at),
                finished_at: finished_at.map(time),
                summary,
            });
        }
        Ok(runs)
    }
}
