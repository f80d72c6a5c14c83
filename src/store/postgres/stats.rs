//! Counting what an index holds, for `stats` (one place, so the CLI, the MCP server and any
//! dashboard read the same numbers).

use std::collections::{BTreeMap, HashMap};

use super::PgIndex;
use crate::chunk::{ParseStatus, SymbolKind};
use crate::store::stored_run::decode_run;
use crate::store::unreadable::{stored_name, unreadable_column};
use crate::store::{ErrorPosition, FailingFile, IndexCounts, LanguageCounts, RunRecord, StatsReader, StoreError};

fn u(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl StatsReader for PgIndex {
    fn index_counts(&self) -> Result<IndexCounts, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let err = |e: postgres::Error| self.store.index_error(name, "counting the index", &e);
        let mut conn = self.store.conn()?;
        let mut tx = conn.build_transaction().read_only(true).start().map_err(err)?;
        let mut counts = IndexCounts::default();
        let scope = self.scope_in(&mut tx).map_err(err)?;

        let mut languages: HashMap<String, LanguageCounts> = HashMap::new();
        for r in tx
        .query(
            &format!(
                "SELECT language, count(*), COALESCE(sum(line_count), 0)::int8 FROM {} WHERE skip_reason IS NULL{} GROUP BY language",
                t.files,
                scope.and(t, "id"),
            ),
            &[],
        )
        .map_err(err)?
    {
        let language: String = r.get(0);
        let entry =
            languages.entry(language.clone()).or_insert_with(|| LanguageCounts { language, ..Default::default() });
        entry.files = u(r.get(1));
        entry.lines = u(r.get(2));
    }
        for r in tx
            .query(
                &format!(
                    "SELECT x.language, x.parse_status, count(*) FROM {} c JOIN {} x ON x.id = c.text_id
                     WHERE true{} GROUP BY 1, 2",
                    t.chunks,
                    t.texts,
                    scope.and(t, "c.file_id")
                ),
                &[],
            )
            .map_err(err)?
        {
            let language: String = r.get(0);
            let entry =
                languages.entry(language.clone()).or_insert_with(|| LanguageCounts { language, ..Default::default() });
            let n = u(r.get(2));
            entry.chunks += n;
            let what = || format!("the parse status of {} chunks", entry.language);
            *entry.parse_status.entry(stored_name::<ParseStatus>(name, r.get(1), what)?).or_default() += n;
        }
        let mut languages: Vec<LanguageCounts> = languages.into_values().collect();
        languages.sort_by(|a, b| b.chunks.cmp(&a.chunks).then(a.language.cmp(&b.language)));
        counts.files = languages.iter().map(|l| l.files).sum();
        counts.chunks = languages.iter().map(|l| l.chunks).sum();
        counts.lines = languages.iter().map(|l| l.lines).sum();
        counts.languages = languages;

        counts.pending_embeddings = u(tx
            .query_one(
                &format!(
                    "SELECT count(*) FROM {} c JOIN {} x ON x.id = c.text_id WHERE x.embedding IS NULL{}",
                    t.chunks,
                    t.texts,
                    scope.and(t, "c.file_id")
                ),
                &[],
            )
            .map_err(err)?
            .get(0));
        counts.symbols_by_type = tx
            .query(
                &format!(
                    "SELECT k, count(*) FROM {} c JOIN {} x ON x.id = c.text_id, unnest(x.symbol_kinds) AS k
                     WHERE true{} GROUP BY k",
                    t.chunks,
                    t.texts,
                    scope.and(t, "c.file_id")
                ),
                &[],
            )
            .map_err(err)?
            .iter()
            .map(|r| {
                // Counted by kind in SQL, so the row is the kind's, not one chunk's.
                let kind = stored_name::<SymbolKind>(name, r.get(0), || "the symbol kinds of its chunks".into())?;
                Ok((kind, u(r.get(1))))
            })
            .collect::<Result<BTreeMap<_, _>, StoreError>>()?;
        // Over every snapshot: what the index stores, not what this one reads.
        counts.stored_texts = u(tx.query_one(&format!("SELECT count(*) FROM {}", t.texts), &[]).map_err(err)?.get(0));
        let relations = t.all();
        counts.storage_bytes = u(tx
            .query_one(
                "SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::int8 FROM pg_class c
             WHERE c.relname = ANY($1) AND c.relnamespace = current_schema()::regnamespace",
                &[&relations],
            )
            .map_err(err)?
            .get(0));
        tx.commit().map_err(err)?;
        Ok(counts)
    }

    fn failing_files(&self, limit: usize) -> Result<Vec<FailingFile>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let err = |e: postgres::Error| self.store.index_error(name, "listing parse failures", &e);
        let mut conn = self.store.conn()?;
        let scope = self.scope(&mut conn).map_err(err)?;
        let rows = conn
            .query(
                &format!(
                    "SELECT f.path, f.language, f.parse_status, f.parse_errors,
                        count(*) FILTER (WHERE x.parse_status IN ('partial', 'error')), count(c.id)
                 FROM {files} f JOIN {chunks} c ON c.file_id = f.id JOIN {texts} x ON x.id = c.text_id
                 WHERE f.parse_status IN ('partial', 'error'){scope}
                 GROUP BY f.id
                 ORDER BY 5 DESC, f.path
                 LIMIT $1",
                    files = t.files,
                    chunks = t.chunks,
                    texts = t.texts,
                    scope = scope.and(t, "f.id"),
                ),
                &[&limit],
            )
            .map_err(err)?;
        rows.iter()
            .map(|r| {
                let path: String = r.get(0);
                let errors = serde_json::from_value::<Vec<ErrorPosition>>(r.get(3))
                    .map_err(|e| unreadable_column(name, format!("the parse errors of {path}"), &e))?;
                Ok(FailingFile {
                    status: stored_name(name, r.get(2), || format!("the parse status of {path}"))?,
                    path,
                    language: r.get(1),
                    errors,
                    failing_chunks: u(r.get(4)),
                    chunks: u(r.get(5)),
                })
            })
            .collect()
    }

    fn runs(&self, limit: usize) -> Result<Vec<RunRecord>, StoreError> {
        let name = self.name.as_str();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut conn = self.store.conn()?;
        let rows = conn
            .query(
                "SELECT id, kind, status, started_at, finished_at, summary FROM cocosearch_runs
             WHERE index_name = $1 ORDER BY id DESC LIMIT $2",
                &[&name, &limit],
            )
            .map_err(|e| self.store.query_error("reading index runs", &e))?;
        rows.iter()
            .map(|r| {
                let id: i64 = r.get(0);
                let (kind, status, summary) = decode_run(name, id, r.get(1), r.get(2), r.get(5))?;
                Ok(RunRecord { id, kind, status, started_at: r.get(3), finished_at: r.get(4), summary })
            })
            .collect()
    }
}
