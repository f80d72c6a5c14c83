//! The code graph in the embedded store: writing a text's definitions and a file's references
//! and imports inside the transaction that writes its chunks, and reading them back by name,
//! caller, file or import target.

use rusqlite::types::ToSql;
use rusqlite::{Connection, Transaction, TransactionBehavior, params, params_from_iter};

use super::members::Scope;
use super::schema::Tables;
use super::{SqliteIndex, SqliteWriter, query_error};
use crate::chunk::Reference;
use crate::store::graph::DefColumns;
use crate::store::unreadable::{stored_line, stored_name};
use crate::store::{
    DefQuery, FileRecord, GraphReader, GraphWriter, ImportQuery, ImportRecord, ImportTarget, RefQuery, Resolution,
    StoreError, StoredDef, StoredImport, StoredRef, SymbolRecord, qualified_key,
};

fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "[]".into())
}

/// Deletes the file-level references and imports of the stored files `ids` (a JSON list),
/// before they are written again. Definitions and the other references go with their texts.
pub(super) fn delete(tx: &Transaction<'_>, t: &Tables, ids: &str) -> rusqlite::Result<()> {
    for table in [&t.file_refs, &t.imports] {
        tx.prepare_cached(&format!("DELETE FROM {table} WHERE file_id IN (SELECT value FROM json_each(?1))"))?
            .execute([ids])?;
    }
    Ok(())
}

/// Marks imports resolving to the files in `paths` (a JSON list) as missing: those files are
/// being removed.
pub(super) fn unresolve(tx: &Transaction<'_>, t: &Tables, paths: &str) -> rusqlite::Result<()> {
    tx.prepare_cached(&format!(
        "UPDATE {} SET target = NULL, resolution = ?2 WHERE target IN (SELECT value FROM json_each(?1))",
        t.imports
    ))?
    .execute(params![paths, Resolution::Missing.as_str()])?;
    Ok(())
}

/// Writes the definitions of a new text `text_id`: its `symbols` (at their lines in a chunk
/// spanning `lines`), each stored relative to the chunk's first line; a symbol without lines
/// spans the chunk.
pub(super) fn write_defs(
    tx: &Connection,
    t: &Tables,
    text_id: i64,
    symbols: &[SymbolRecord],
    (first, last): (u32, u32),
) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare_cached(&format!(
        "INSERT INTO {} (text_id, kind, name, qualified_name, signature, parent, line_start, line_end, params, bases,
                         name_key, qualified_key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        t.text_defs
    ))?;
    let relative = |line: Option<u32>, or: u32| i64::from(line.unwrap_or(or)) - i64::from(first);
    for s in symbols {
        stmt.execute(params![
            text_id,
            s.kind.as_str(),
            s.name,
            s.qualified_name,
            s.signature,
            s.parent,
            relative(s.start_line, first),
            relative(s.end_line, last),
            json(&s.params),
            json(&s.bases),
            s.name.to_lowercase(),
            qualified_key(&s.qualified_name),
        ])?;
    }
    Ok(())
}

/// Writes the references on a new text `text_id`'s lines, each relative to the text's first
/// line `first`.
pub(super) fn write_text_refs(
    tx: &Connection,
    t: &Tables,
    text_id: i64,
    refs: &[&Reference],
    first: u32,
) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare_cached(&format!(
        "INSERT INTO {} (text_id, line, kind, name, qualifier, caller) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        t.text_refs
    ))?;
    for r in refs {
        let line = i64::from(r.line) - i64::from(first);
        stmt.execute(params![text_id, line, r.kind.as_str(), r.name, r.qualifier, r.caller])?;
    }
    Ok(())
}

/// Writes the imports of one file, and its references `outside` every chunk, stored as
/// `file_id`.
pub(super) fn write(
    tx: &Transaction<'_>,
    t: &Tables,
    f: &FileRecord,
    outside: &[&Reference],
    file_id: i64,
) -> rusqlite::Result<()> {
    let mut ref_stmt = tx.prepare_cached(&format!(
        "INSERT INTO {} (line, kind, name, qualifier, caller, file_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        t.file_refs
    ))?;
    for r in outside {
        ref_stmt.execute(params![r.line, r.kind.as_str(), r.name, r.qualifier, r.caller, file_id])?;
    }
    let mut import_stmt = tx.prepare_cached(&format!(
        "INSERT INTO {} (path, line, kind, spec, name, alias, target, resolution, file_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        t.imports
    ))?;
    for i in &f.imports {
        import_stmt.execute(params![
            f.path,
            i.line,
            i.kind.as_str(),
            i.spec,
            i.name,
            i.alias,
            i.target,
            i.resolution.as_str(),
            file_id
        ])?;
    }
    Ok(())
}

/// Conditions joined with AND, and their parameters, numbered in order.
#[derive(Default)]
struct Where {
    clauses: Vec<String>,
    params: Vec<Box<dyn ToSql>>,
}

impl Where {
    fn add(&mut self, clause: &str, param: Box<dyn ToSql>) {
        self.clauses.push(clause.replace("?#", &format!("?{}", self.params.len() + 1)));
        self.params.push(param);
    }

    fn sql(&self) -> String {
        if self.clauses.is_empty() { "1".into() } else { self.clauses.join(" AND ") }
    }

    /// Keeps the rows of the snapshot `scope` reads (rows of alias `alias`).
    fn scope(&mut self, scope: Scope, t: &Tables, alias: &str) {
        if let Some(clause) = scope.condition(t, alias) {
            self.clauses.push(clause);
        }
    }
}

/// A stored limit: `usize::MAX` (no limit) becomes SQLite's -1.
fn limit(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(-1)
}

impl GraphReader for SqliteIndex {
    fn definitions(&self, q: &DefQuery) -> Result<Vec<StoredDef>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading definitions", &e);
        let mut w = Where::default();
        if !q.names.is_empty() {
            w.add(
            "(d.name_key IN (SELECT value FROM json_each(?#)) OR d.qualified_key IN (SELECT value FROM json_each(?#)))",
            Box::new(json(&q.names)),
        );
        }
        if let Some(text) = &q.contains {
            w.add("instr(d.qualified_key, ?#) > 0", Box::new(text.clone()));
        }
        if !q.paths.is_empty() {
            w.add("d.path IN (SELECT value FROM json_each(?#))", Box::new(json(&q.paths)));
        }
        if !q.kinds.is_empty() {
            let kinds: Vec<&str> = q.kinds.iter().map(|k| k.as_str()).collect();
            w.add("d.kind IN (SELECT value FROM json_each(?#))", Box::new(json(&kinds)));
        }
        if !q.languages.is_empty() {
            w.add("f.language IN (SELECT value FROM json_each(?#))", Box::new(json(&q.languages)));
        }
        if let Some(glob) = &q.path_glob {
            w.add("cs_path_glob(?#, d.path)", Box::new(glob.as_str().to_string()));
        }
        w.scope(self.scope(conn).map_err(err)?, t, "d");
        let limit_param = w.params.len() + 1;
        w.params.push(Box::new(limit(q.limit)));
        let sql = format!(
        "SELECT d.path, f.language, d.kind, d.name, d.qualified_name, d.signature, d.parent, d.line_start, d.line_end,
                d.params, d.bases
         FROM {defs} d JOIN {files} f ON f.id = d.file_id
         WHERE {cond}
         ORDER BY d.path, d.line_start, d.qualified_name LIMIT ?{limit_param}",
        defs = t.defs,
        files = t.files,
        cond = w.sql(),
    );
        let mut stmt = conn.prepare_cached(&sql).map_err(err)?;
        let rows = stmt
            .query_map(params_from_iter(w.params.iter().map(|p| p.as_ref())), |r| {
                Ok(DefColumns {
                    path: r.get(0)?,
                    language: r.get(1)?,
                    kind: r.get(2)?,
                    name: r.get(3)?,
                    qualified_name: r.get(4)?,
                    signature: r.get(5)?,
                    parent: r.get(6)?,
                    lines: (r.get(7)?, r.get(8)?),
                    params: r.get(9)?,
                    bases: r.get(10)?,
                })
            })
            .map_err(err)?;
        rows.map(|row| row.map_err(err)?.decode(name)).collect()
    }

    fn definition_names(&self) -> Result<Vec<String>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading definition names", &e);
        let scope = self.scope(conn).map_err(err)?.condition(t, "d").map_or_else(String::new, |c| format!("WHERE {c}"));
        let mut stmt =
            conn.prepare_cached(&format!("SELECT DISTINCT qualified_name FROM {} d {scope}", t.defs)).map_err(err)?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(err)?;
        rows.collect::<Result<_, _>>().map_err(err)
    }

    fn references(&self, q: &RefQuery) -> Result<Vec<StoredRef>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading references", &e);
        let mut w = Where::default();
        if !q.names.is_empty() {
            w.add("r.name IN (SELECT value FROM json_each(?#))", Box::new(json(&q.names)));
        }
        if !q.callers.is_empty() {
            // The callers' files are probed through the file index, and their references
            // filtered by caller: a file holds a few hundred at most. (A correlated EXISTS
            // scanned every reference of the index: 49 s for 200 callers on the standard
            // library.)
            let callers = json(&q.callers);
            let (path, caller) = ("json_extract(c.value, '$[0]')", "json_extract(c.value, '$[1]')");
            let files = &t.files;
            w.add(
                &format!("r.file_id IN (SELECT cf.id FROM json_each(?#) c JOIN {files} cf ON cf.path = {path})"),
                Box::new(callers.clone()),
            );
            w.add(
                &format!(
                    "(r.file_id, r.caller) IN (SELECT cf.id, {caller} FROM json_each(?#) c
                         JOIN {files} cf ON cf.path = {path})"
                ),
                Box::new(callers),
            );
        }
        if q.names.is_empty() && q.callers.is_empty() {
            return Ok(Vec::new());
        }
        if !q.languages.is_empty() {
            w.add("f.language IN (SELECT value FROM json_each(?#))", Box::new(json(&q.languages)));
        }
        if let Some(glob) = &q.path_glob {
            w.add("cs_path_glob(?#, f.path)", Box::new(glob.as_str().to_string()));
        }
        w.scope(self.scope(conn).map_err(err)?, t, "r");
        let limit_param = w.params.len() + 1;
        w.params.push(Box::new(limit(q.limit)));
        let sql = format!(
            "SELECT f.path, f.language, r.line, r.kind, r.name, r.qualifier, r.caller
         FROM {refs} r JOIN {files} f ON f.id = r.file_id
         WHERE {cond}
         ORDER BY f.path, r.line, r.seq LIMIT ?{limit_param}",
            refs = t.refs,
            files = t.files,
            cond = w.sql(),
        );
        let mut stmt = conn.prepare_cached(&sql).map_err(err)?;
        let rows = stmt
            .query_map(params_from_iter(w.params.iter().map(|p| p.as_ref())), |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })
            .map_err(err)?;
        let mut out = Vec::new();
        for row in rows {
            let (path, language, line, kind, used, qualifier, caller) = row.map_err(err)?;
            let what = || format!("a reference to {used} in {path}");
            let (kind, line) = (stored_name(name, &kind, what)?, stored_line(name, line, what)?);
            let reference = Reference { kind, name: used, qualifier, line, caller };
            out.push(StoredRef { path, language, reference });
        }
        Ok(out)
    }

    fn imports(&self, q: &ImportQuery) -> Result<Vec<StoredImport>, StoreError> {
        let name = self.name.as_str();
        let guard = self.store.pool.get()?;
        let conn = &*guard;
        let t = &self.t;
        let err = |e| query_error(Some(name), "reading imports", &e);
        let mut w = Where::default();
        if let Some(from) = &q.from {
            w.add("i.path IN (SELECT value FROM json_each(?#))", Box::new(json(from)));
        }
        if let Some(targets) = &q.targets {
            w.add("i.target IN (SELECT value FROM json_each(?#))", Box::new(json(targets)));
        }
        w.scope(self.scope(conn).map_err(err)?, t, "i");
        let sql = format!(
            "SELECT i.id, i.path, f.language, i.line, i.kind, i.spec, i.name, i.alias, i.target, i.resolution
         FROM {imports} i JOIN {files} f ON f.id = i.file_id
         WHERE {cond}
         ORDER BY i.path, i.line, i.id",
            imports = t.imports,
            files = t.files,
            cond = w.sql(),
        );
        let mut stmt = conn.prepare_cached(&sql).map_err(err)?;
        let rows = stmt
            .query_map(params_from_iter(w.params.iter().map(|p| p.as_ref())), |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, Option<String>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, String>(9)?,
                ))
            })
            .map_err(err)?;
        let mut out = Vec::new();
        for row in rows {
            let (id, path, language, line, kind, spec, imported, alias, target, resolution) = row.map_err(err)?;
            let what = || format!("an import of {spec} in {path}");
            let kind = stored_name(name, &kind, what)?;
            let (resolution, line) = (stored_name(name, &resolution, what)?, stored_line(name, line, what)?);
            let import = ImportRecord { kind, spec, name: imported, alias, line, target, resolution };
            out.push(StoredImport { id, path, language, import });
        }
        Ok(out)
    }
}

impl GraphWriter for SqliteWriter {
    fn set_import_targets(&self, targets: &[ImportTarget]) -> Result<(), StoreError> {
        let name = self.index.name.as_str();
        let mut guard = self.index.store.pool.get()?;
        let conn = &mut *guard;
        if targets.is_empty() {
            return Ok(());
        }
        let t = &self.index.t;
        let err = |e| query_error(Some(name), "recording import targets", &e);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
        {
            let mut stmt = tx
                .prepare_cached(&format!("UPDATE {} SET target = ?2, resolution = ?3 WHERE id = ?1", t.imports))
                .map_err(err)?;
            for target in targets {
                stmt.execute(params![target.id, target.target, target.resolution.as_str()]).map_err(err)?;
            }
        }
        tx.commit().map_err(err)
    }
}
