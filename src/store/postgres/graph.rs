//! The code graph on PostgreSQL: writing the references on no chunk's lines and the imports
//! of a batch of files in the transaction that writes their chunks (one `unnest` insert per
//! table; definitions and the other references go with the texts, `texts.rs`), and reading
//! them back by name, caller, file or import target.

use std::fmt::Write as _;

use postgres::types::ToSql;

use super::members::Scope;
use super::tables::{Tables, placed_line};
use super::{PgIndex, PgWriter};
use crate::chunk::Reference;
use crate::store::graph::DefColumns;
use crate::store::unreadable::{stored_line, stored_name};
use crate::store::{
    DefQuery, FileRecord, GraphReader, GraphWriter, ImportQuery, ImportRecord, ImportTarget, RefQuery, Resolution,
    StoreError, StoredDef, StoredImport, StoredRef,
};

fn to_i32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// A stored limit: `usize::MAX` (no limit) becomes `NULL`, which `LIMIT` reads as none.
fn limit(n: usize) -> Option<i64> {
    i64::try_from(n).ok()
}

/// Deletes the file-level references and imports of the stored files `ids` and writes those
/// of `files` (stored as `ids`, in order; `outside`, each file's references on no chunk's
/// lines), in the caller's transaction. Definitions and the other references belong to the
/// texts (see `texts::write_chunks`).
pub(super) fn replace(
    tx: &mut postgres::Transaction<'_>,
    t: &Tables,
    files: &[FileRecord],
    ids: &[i64],
    outside: &[Vec<&Reference>],
) -> Result<(), postgres::Error> {
    for table in [&t.refs, &t.imports] {
        tx.execute(&format!("DELETE FROM {table} WHERE file_id = ANY($1)"), &[&ids])?;
    }

    let refs: Vec<(&str, i64, &Reference)> = files
        .iter()
        .zip(ids)
        .zip(outside)
        .flat_map(|((f, id), refs)| refs.iter().map(move |r| (f.path.as_str(), *id, *r)))
        .collect();
    if !refs.is_empty() {
        let path: Vec<&str> = refs.iter().map(|(p, _, _)| *p).collect();
        let file: Vec<i64> = refs.iter().map(|(_, id, _)| *id).collect();
        let line: Vec<i32> = refs.iter().map(|(_, _, r)| to_i32(r.line)).collect();
        let kind: Vec<&str> = refs.iter().map(|(_, _, r)| r.kind.as_str()).collect();
        let name: Vec<&str> = refs.iter().map(|(_, _, r)| r.name.as_str()).collect();
        let qualifier: Vec<Option<&str>> = refs.iter().map(|(_, _, r)| r.qualifier.as_deref()).collect();
        let caller: Vec<Option<&str>> = refs.iter().map(|(_, _, r)| r.caller.as_deref()).collect();
        tx.execute(
            &format!(
                "INSERT INTO {} (path, line, kind, name, qualifier, caller, file_id)
                 SELECT path, line, kind, name, qualifier, caller, file_id
                 FROM unnest($1::text[], $2::int4[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int8[])
                 WITH ORDINALITY AS u(path, line, kind, name, qualifier, caller, file_id, n) ORDER BY n",
                t.refs
            ),
            &[&path, &line, &kind, &name, &qualifier, &caller, &file],
        )?;
    }

    let imports: Vec<(&str, i64, &ImportRecord)> =
        files.iter().zip(ids).flat_map(|(f, id)| f.imports.iter().map(move |i| (f.path.as_str(), *id, i))).collect();
    if !imports.is_empty() {
        let path: Vec<&str> = imports.iter().map(|(p, _, _)| *p).collect();
        let file: Vec<i64> = imports.iter().map(|(_, id, _)| *id).collect();
        let line: Vec<i32> = imports.iter().map(|(_, _, i)| to_i32(i.line)).collect();
        let kind: Vec<&str> = imports.iter().map(|(_, _, i)| i.kind.as_str()).collect();
        let spec: Vec<&str> = imports.iter().map(|(_, _, i)| i.spec.as_str()).collect();
        let name: Vec<Option<&str>> = imports.iter().map(|(_, _, i)| i.name.as_deref()).collect();
        let alias: Vec<Option<&str>> = imports.iter().map(|(_, _, i)| i.alias.as_deref()).collect();
        let target: Vec<Option<&str>> = imports.iter().map(|(_, _, i)| i.target.as_deref()).collect();
        let resolution: Vec<&str> = imports.iter().map(|(_, _, i)| i.resolution.as_str()).collect();
        tx.execute(
            &format!(
                "INSERT INTO {} (path, line, kind, spec, name, alias, target, resolution, file_id)
                 SELECT path, line, kind, spec, name, alias, target, resolution, file_id
                 FROM unnest($1::text[], $2::int4[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                             $9::int8[])
                 WITH ORDINALITY AS u(path, line, kind, spec, name, alias, target, resolution, file_id, n) ORDER BY n",
                t.imports
            ),
            &[&path, &line, &kind, &spec, &name, &alias, &target, &resolution, &file],
        )?;
    }
    Ok(())
}

/// Marks imports resolving to `paths` as missing (those files are being removed), in the
/// caller's transaction.
pub(super) fn unresolve(
    tx: &mut postgres::Transaction<'_>,
    t: &Tables,
    paths: &[String],
) -> Result<(), postgres::Error> {
    tx.execute(
        &format!("UPDATE {} SET target = NULL, resolution = $2 WHERE target = ANY($1)", t.imports),
        &[&paths, &Resolution::Missing.as_str()],
    )?;
    Ok(())
}

/// Conditions joined with AND, and their parameters, numbered in order.
#[derive(Default)]
struct Where {
    clauses: Vec<String>,
    params: Vec<Box<dyn ToSql + Sync>>,
}

impl Where {
    fn add(&mut self, clause: &str, param: Box<dyn ToSql + Sync>) {
        self.clauses.push(clause.replace("$?", &format!("${}", self.params.len() + 1)));
        self.params.push(param);
    }

    fn sql(&self) -> String {
        if self.clauses.is_empty() { "true".into() } else { self.clauses.join(" AND ") }
    }

    /// Keeps the rows whose stored file is `column` in the snapshot `scope` reads.
    fn scope(&mut self, scope: Scope, t: &Tables, column: &str) {
        if let Some(clause) = scope.condition(t, column) {
            self.clauses.push(clause);
        }
    }

    fn refs(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.params.iter().map(|p| p.as_ref() as &(dyn ToSql + Sync)).collect()
    }
}

/// SQL for the references meeting `cond` (over the reference `r` and its stored file `f`):
/// those stored with texts, at each chunk holding the text, and those of files, in the order
/// the file lists them (path, line, then the reference's place; the references on one line
/// are all one text's or all their file's). The condition goes into each half, where it can
/// use that half's indexes.
fn placed_refs(t: &Tables, cond: &str) -> String {
    format!(
        "SELECT * FROM (
             SELECT f.path, f.language, {line} AS line, r.kind, r.name, r.qualifier, r.caller, r.ordinal::int8 AS seq
             FROM {text_refs} r JOIN {chunks} c ON c.text_id = r.text_id JOIN {files} f ON f.id = c.file_id
             WHERE {cond}
             UNION ALL
             SELECT f.path, f.language, r.line::int8, r.kind, r.name, r.qualifier, r.caller, r.ordinal
             FROM {refs} r JOIN {files} f ON f.id = r.file_id
             WHERE {cond}
         ) r
         ORDER BY r.path COLLATE \"C\", r.line, r.seq",
        line = placed_line("r.line::int8", "c.line_start"),
        text_refs = t.text_refs,
        chunks = t.chunks,
        refs = t.refs,
        files = t.files,
    )
}

impl GraphReader for PgIndex {
    fn definitions(&self, q: &DefQuery) -> Result<Vec<StoredDef>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let err = |e: postgres::Error| self.store.index_error(name, "reading definitions", &e);
        let mut w = Where::default();
        if !q.names.is_empty() {
            w.add("(d.name_key = ANY($?) OR d.qualified_key = ANY($?))", Box::new(q.names.clone()));
        }
        if let Some(text) = &q.contains {
            w.add("strpos(d.qualified_key, $?) > 0", Box::new(text.clone()));
        }
        if !q.paths.is_empty() {
            w.add("c.path = ANY($?)", Box::new(q.paths.clone()));
        }
        if !q.kinds.is_empty() {
            let kinds: Vec<String> = q.kinds.iter().map(|k| k.as_str().to_string()).collect();
            w.add("d.kind = ANY($?)", Box::new(kinds));
        }
        if !q.languages.is_empty() {
            w.add("f.language = ANY($?)", Box::new(q.languages.clone()));
        }
        if let Some(glob) = &q.path_glob {
            w.add("c.path ~ $?", Box::new(glob.regex()));
        }
        let mut conn = self.store.conn()?;
        w.scope(self.scope(&mut conn).map_err(err)?, t, "c.file_id");
        // Parameters and bases are read as text and decoded as the embedded store's are
        // (`DefColumns`), so both answer the same for one that does not parse.
        // Each definition of a text once per chunk holding it, at that chunk's lines.
        let mut sql = format!(
            "SELECT c.path, f.language, d.kind, d.name, d.qualified_name, d.signature, d.parent, {start} AS line,
                {end}, d.params::text, d.bases::text
         FROM {defs} d JOIN {chunks} c ON c.text_id = d.text_id JOIN {files} f ON f.id = c.file_id
         WHERE {cond}
         ORDER BY c.path COLLATE \"C\", line, d.qualified_name COLLATE \"C\"",
            start = placed_line("d.line_start", "c.line_start"),
            end = placed_line("d.line_end", "c.line_start"),
            defs = t.defs,
            chunks = t.chunks,
            files = t.files,
            cond = w.sql(),
        );
        let _ = write!(sql, " LIMIT ${}", w.params.len() + 1);
        w.params.push(Box::new(limit(q.limit)));
        let rows = conn.query(&sql, &w.refs()).map_err(err)?;
        rows.iter()
            .map(|r| {
                DefColumns {
                    path: r.get(0),
                    language: r.get(1),
                    kind: r.get(2),
                    name: r.get(3),
                    qualified_name: r.get(4),
                    signature: r.get(5),
                    parent: r.get(6),
                    lines: (r.get(7), r.get(8)),
                    params: r.get(9),
                    bases: r.get(10),
                }
                .decode(name)
            })
            .collect()
    }

    fn definition_names(&self) -> Result<Vec<String>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let err = |e: postgres::Error| self.store.index_error(name, "reading definition names", &e);
        let mut conn = self.store.conn()?;
        // Every text has a chunk, so only a snapshot's read needs to look at them.
        let held = self.scope(&mut conn).map_err(err)?.condition(t, "c.file_id").map_or_else(String::new, |c| {
            format!(" WHERE EXISTS (SELECT 1 FROM {} c WHERE c.text_id = d.text_id AND {c})", t.chunks)
        });
        let rows =
            conn.query(&format!("SELECT DISTINCT d.qualified_name FROM {} d{held}", t.defs), &[]).map_err(err)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn references(&self, q: &RefQuery) -> Result<Vec<StoredRef>, StoreError> {
        let name = self.name.as_str();
        let err = |e: postgres::Error| self.store.index_error(name, "reading references", &e);
        if q.names.is_empty() && q.callers.is_empty() {
            return Ok(Vec::new());
        }
        let t = &self.t;
        let mut w = Where::default();
        if !q.names.is_empty() {
            w.add("r.name = ANY($?)", Box::new(q.names.clone()));
        }
        if !q.callers.is_empty() {
            let paths: Vec<String> = q.callers.iter().map(|(p, _)| p.clone()).collect();
            let callers: Vec<String> = q.callers.iter().map(|(_, c)| c.clone()).collect();
            let first = w.params.len() + 1;
            w.clauses.push(format!(
                "(f.path, r.caller) IN (SELECT * FROM unnest(${first}::text[], ${}::text[]))",
                first + 1
            ));
            w.params.push(Box::new(paths));
            w.params.push(Box::new(callers));
        }
        if !q.languages.is_empty() {
            w.add("f.language = ANY($?)", Box::new(q.languages.clone()));
        }
        if let Some(glob) = &q.path_glob {
            w.add("f.path ~ $?", Box::new(glob.regex()));
        }
        let mut conn = self.store.conn()?;
        w.scope(self.scope(&mut conn).map_err(err)?, t, "f.id");
        let mut sql = placed_refs(t, &w.sql());
        let _ = write!(sql, " LIMIT ${}", w.params.len() + 1);
        w.params.push(Box::new(limit(q.limit)));
        let rows = conn.query(&sql, &w.refs()).map_err(err)?;
        rows.iter()
            .map(|r| {
                let (path, used): (String, String) = (r.get(0), r.get(4));
                let what = || format!("a reference to {used} in {path}");
                let kind = stored_name(name, r.get(3), what)?;
                let line = stored_line(name, r.get(2), what)?;
                let reference = Reference { kind, name: used, qualifier: r.get(5), line, caller: r.get(6) };
                Ok(StoredRef { path, language: r.get(1), reference })
            })
            .collect()
    }

    fn imports(&self, q: &ImportQuery) -> Result<Vec<StoredImport>, StoreError> {
        let name = self.name.as_str();
        let t = &self.t;
        let mut w = Where::default();
        if let Some(from) = &q.from {
            w.add("i.path = ANY($?)", Box::new(from.clone()));
        }
        if let Some(targets) = &q.targets {
            w.add("i.target = ANY($?)", Box::new(targets.clone()));
        }
        let err = |e: postgres::Error| self.store.index_error(name, "reading imports", &e);
        let mut conn = self.store.conn()?;
        w.scope(self.scope(&mut conn).map_err(err)?, t, "i.file_id");
        let sql = format!(
            "SELECT i.id, i.path, f.language, i.line, i.kind, i.spec, i.name, i.alias, i.target, i.resolution
         FROM {imports} i JOIN {files} f ON f.id = i.file_id
         WHERE {cond}
         ORDER BY i.path COLLATE \"C\", i.line, i.id",
            imports = t.imports,
            files = t.files,
            cond = w.sql(),
        );
        let rows = conn.query(&sql, &w.refs()).map_err(err)?;
        rows.iter()
            .map(|r| {
                let (path, spec): (String, String) = (r.get(1), r.get(5));
                let what = || format!("an import of {spec} in {path}");
                let kind = stored_name(name, r.get(4), what)?;
                let (resolution, line) =
                    (stored_name(name, r.get(9), what)?, stored_line(name, r.get::<_, i32>(3).into(), what)?);
                let import =
                    ImportRecord { kind, spec, name: r.get(6), alias: r.get(7), line, target: r.get(8), resolution };
                Ok(StoredImport { id: r.get(0), path, language: r.get(2), import })
            })
            .collect()
    }
}

impl GraphWriter for PgWriter {
    fn set_import_targets(&self, targets: &[ImportTarget]) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        if targets.is_empty() {
            return Ok(());
        }
        let t = &self.index.t;
        let ids: Vec<i64> = targets.iter().map(|t| t.id).collect();
        let paths: Vec<Option<&str>> = targets.iter().map(|t| t.target.as_deref()).collect();
        let resolutions: Vec<&str> = targets.iter().map(|t| t.resolution.as_str()).collect();
        let mut conn = self.index.store.conn()?;
        conn.execute(
            &format!(
                "UPDATE {imports} i SET target = u.target, resolution = u.resolution
             FROM unnest($1::int8[], $2::text[], $3::text[]) AS u(id, target, resolution) WHERE i.id = u.id",
                imports = t.imports
            ),
            &[&ids, &paths, &resolutions],
        )
        .map_err(|e| self.index.store.index_error(name, "recording import targets", &e))?;
        Ok(())
    }
}
