//! Counting what an index holds, for `stats` (as `store::postgres::stats` does).

use std::collections::{BTreeMap, HashMap};

use rusqlite::Connection;

use super::query_error;
use super::schema::{Tables, time};
use crate::chunk::{ParseStatus, SymbolKind};
use crate::store::{
    ErrorPosition, FailingFile, IndexCounts, LanguageCounts, RunKind, RunRecord, RunStatus, StoreError,
};

fn u(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

pub(crate) fn count_pending(conn: &Connection, name: &str) -> Result<u64, StoreError> {
    let t = Tables::new(name)?;
    // Every vector belongs to a chunk (a cascading foreign key), so the difference is exact.
    conn.query_row(
        &format!("SELECT (SELECT count(*) FROM {}) - (SELECT count(*) FROM {})", t.chunks, t.vectors),
        [],
        |r| r.get::<_, i64>(0),
    )
    .map(u)
    .map_err(|e| query_error(Some(name), "counting chunks awaiting embeddings", &e))
}

pub(crate) fn index_counts(conn: &Connection, name: &str) -> Result<IndexCounts, StoreError> {
    let t = Tables::new(name)?;
    let err = |e| query_error(Some(name), "counting the index", &e);
    let mut counts = IndexCounts::default();
    let mut languages: HashMap<String, LanguageCounts> = HashMap::new();
    {
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT language, count(*), COALESCE(sum(line_count), 0) FROM {} WHERE skip_reason IS NULL GROUP BY language",
                t.files
            ))
            .map_err(err)?;
        let mut rows = stmt.query([]).map_err(err)?;
        while let Some(r) = rows.next().map_err(err)? {
            let language: String = r.get(0).map_err(err)?;
            let entry =
                languages.entry(language.clone()).or_insert_with(|| LanguageCounts { language, ..Default::default() });
            entry.files = u(r.get(1).map_err(err)?);
            entry.lines = u(r.get(2).map_err(err)?);
        }
    }
    {
        let mut stmt = conn
            .prepare_cached(&format!("SELECT language, parse_status, count(*) FROM {} GROUP BY 1, 2", t.chunks))
            .map_err(err)?;
        let mut rows = stmt.query([]).map_err(err)?;
        while let Some(r) = rows.next().map_err(err)? {
            let language: String = r.get(0).map_err(err)?;
            let status: String = r.get(1).map_err(err)?;
            let n = u(r.get(2).map_err(err)?);
            let entry =
                languages.entry(language.clone()).or_insert_with(|| LanguageCounts { language, ..Default::default() });
            entry.chunks += n;
            let status = status.parse::<ParseStatus>().unwrap_or(ParseStatus::Error);
            *entry.parse_status.entry(status).or_default() += n;
        }
    }
    let mut languages: Vec<LanguageCounts> = languages.into_values().collect();
    languages.sort_by(|a, b| b.chunks.cmp(&a.chunks).then(a.language.cmp(&b.language)));
    counts.files = languages.iter().map(|l| l.files).sum();
    counts.chunks = languages.iter().map(|l| l.chunks).sum();
    counts.lines = languages.iter().map(|l| l.lines).sum();
    counts.languages = languages;
    counts.pending_embeddings = count_pending(conn, name)?;

    let mut kinds: BTreeMap<SymbolKind, u64> = BTreeMap::new();
    {
        let mut stmt = conn
            .prepare_cached(&format!("SELECT symbol_kinds FROM {} WHERE symbol_kinds <> ''", t.chunks))
            .map_err(err)?;
        let mut rows = stmt.query([]).map_err(err)?;
        while let Some(r) = rows.next().map_err(err)? {
            let text = r.get_ref(0).map_err(err)?.as_str().unwrap_or_default();
            for kind in text.lines().filter_map(|k| k.parse::<SymbolKind>().ok()) {
                *kinds.entry(kind).or_default() += 1;
            }
        }
    }
    counts.symbols_by_type = kinds;

    // The pages of this index's tables and their indexes (dbstat walks them).
    let objects = serde_json::to_string(&t.all_names()).unwrap_or_default();
    counts.storage_bytes = conn
        .query_row(
            "SELECT COALESCE(sum(pgsize), 0) FROM dbstat
             WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name IN (SELECT value FROM json_each(?1)))",
            [objects],
            |r| r.get::<_, i64>(0),
        )
        .map(u)
        .map_err(err)?;
    Ok(counts)
}

pub(crate) fn failing_files(conn: &Connection, name: &str, limit: usize) -> Result<Vec<FailingFile>, StoreError> {
    let t = Tables::new(name)?;
    let err = |e| query_error(Some(name), "listing parse failures", &e);
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT f.path, f.language, f.parse_status, f.parse_errors,
                    sum(c.parse_status IN ('partial', 'error')), count(c.id)
             FROM {files} f JOIN {chunks} c ON c.path = f.path
             WHERE f.parse_status IN ('partial', 'error')
             GROUP BY f.path
             ORDER BY 5 DESC, f.path
             LIMIT ?1",
            files = t.files,
            chunks = t.chunks
        ))
        .map_err(err)?;
    let rows = stmt
        .query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
            let errors: String = r.get(3)?;
            Ok(FailingFile {
                path: r.get(0)?,
                language: r.get(1)?,
                status: r.get::<_, String>(2)?.parse::<ParseStatus>().unwrap_or(ParseStatus::Error),
                errors: serde_json::from_str::<Vec<ErrorPosition>>(&errors).unwrap_or_default(),
                failing_chunks: u(r.get(4)?),
                chunks: u(r.get(5)?),
            })
        })
        .map_err(err)?;
    rows.collect::<Result<_, _>>().map_err(err)
}

pub(crate) fn runs(conn: &Connection, name: &str, limit: usize) -> Result<Vec<RunRecord>, StoreError> {
    let err = |e| query_error(None, "reading index runs", &e);
    let mut stmt = conn
        .prepare_cached(
            "SELECT id, kind, status, started_at, finished_at, summary FROM runs
             WHERE index_name = ?1 ORDER BY id DESC LIMIT ?2",
        )
        .map_err(err)?;
    let rows = stmt
        .query_map((name, i64::try_from(limit).unwrap_or(i64::MAX)), |r| {
            let summary: String = r.get(5)?;
            Ok(RunRecord {
                id: r.get(0)?,
                kind: r.get::<_, String>(1)?.parse().unwrap_or(RunKind::Incremental),
                status: r.get::<_, String>(2)?.parse().unwrap_or(RunStatus::Interrupted),
                started_at: time(r.get(3)?),
                finished_at: r.get::<_, Option<i64>>(4)?.map(time),
                summary: serde_json::from_str(&summary).unwrap_or_default(),
            })
        })
        .map_err(err)?;
    rows.collect::<Result<_, _>>().map_err(err)
}
