//! The embedded store's versioned migrations: global tables, and the per-index upgrades.
//!
//! As on PostgreSQL, migrations only add and are idempotent; each is recorded in
//! `schema_migrations`, and per-index tables carry their own `schema_version` in the registry.
//! Every command runs [`migrate`] first, inside one `BEGIN IMMEDIATE` transaction, so
//! concurrent processes upgrade one after the other.

use rusqlite::{Connection, TransactionBehavior};

use super::query_error;
use super::schema::{INDEX_SCHEMA_VERSION, Tables, has_column, now_ns};
use crate::store::StoreError;

/// The global schema version this program writes.
const SCHEMA_VERSION: i64 = 2;

/// One global migration: its version, what it does, its SQL.
type Migration = (i64, &'static str, &'static str);

/// Global migrations, oldest first. Append only; never edit one that has shipped.
const MIGRATIONS: &[Migration] = &[
    (
        1,
        "index registry, runs and query cache",
        "CREATE TABLE IF NOT EXISTS indexes (
         name            TEXT PRIMARY KEY,
         root_path       TEXT NOT NULL,
         provider        TEXT NOT NULL,
         model           TEXT,
         dimension       INTEGER,
         context_tokens  INTEGER,
         schema_version  INTEGER NOT NULL,
         created_at      INTEGER NOT NULL,
         updated_at      INTEGER NOT NULL,
         git_commit      TEXT,
         git_branch      TEXT,
         ivf_trained     INTEGER
     );
     CREATE TABLE IF NOT EXISTS runs (
         id           INTEGER PRIMARY KEY AUTOINCREMENT,
         index_name   TEXT NOT NULL REFERENCES indexes(name) ON DELETE CASCADE,
         kind         TEXT NOT NULL,
         status       TEXT NOT NULL,
         started_at   INTEGER NOT NULL,
         finished_at  INTEGER,
         summary      TEXT NOT NULL DEFAULT '{}'
     );
     CREATE INDEX IF NOT EXISTS runs_index_name ON runs (index_name, id);
     CREATE TABLE IF NOT EXISTS query_cache (
         model       TEXT NOT NULL,
         query_hash  BLOB NOT NULL,
         embedding   BLOB NOT NULL,
         created_at  INTEGER NOT NULL,
         PRIMARY KEY (model, query_hash)
     ) WITHOUT ROWID;",
    ),
    (
        2,
        "tasks of each project, their status history and links",
        // Keyed by the project's index name, outside the index's tables: tasks outlive a
        // dropped index.
        "CREATE TABLE IF NOT EXISTS tasks (
         id           TEXT PRIMARY KEY,
         project      TEXT NOT NULL,
         title        TEXT NOT NULL,
         description  TEXT,
         notes        TEXT,
         status       TEXT NOT NULL,
         search_text  TEXT NOT NULL,
         created_at   INTEGER NOT NULL,
         updated_at   INTEGER NOT NULL
     );
     CREATE INDEX IF NOT EXISTS tasks_project_updated ON tasks (project, updated_at DESC, id);
     CREATE INDEX IF NOT EXISTS tasks_project_status ON tasks (project, status, updated_at DESC, id);
     CREATE TABLE IF NOT EXISTS task_history (
         id           INTEGER PRIMARY KEY AUTOINCREMENT,
         task_id      TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
         from_status  TEXT,
         to_status    TEXT NOT NULL,
         changed_at   INTEGER NOT NULL
     );
     CREATE INDEX IF NOT EXISTS task_history_task ON task_history (task_id, id);
     CREATE TABLE IF NOT EXISTS task_links (
         id         INTEGER PRIMARY KEY AUTOINCREMENT,
         task_id    TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
         kind       TEXT NOT NULL,
         value      TEXT NOT NULL,
         linked_at  INTEGER NOT NULL,
         UNIQUE (task_id, kind, value)
     );
     CREATE INDEX IF NOT EXISTS task_links_value ON task_links (kind, value);",
    ),
];

/// One upgrade of per-index tables: the version it reaches, what it does, and the step.
type IndexMigration = (i64, &'static str, fn(&Connection, &Tables) -> rusqlite::Result<()>);

/// Upgrades of per-index tables, oldest first. Append only; each is idempotent.
const INDEX_MIGRATIONS: &[IndexMigration] = &[
    (2, "the code graph: definitions, references and imports of each file", |c, t| c.execute_batch(&t.graph_sql_v7())),
    (3, "packs: the vectors of each inverted list in one row", |c, t| c.execute_batch(&t.packs_sql())),
    (4, "what the first pre-release schema lacked: how each file was chunked, and more", catch_up),
    (
        5,
        "snapshots: stored files keyed by path and content, and the snapshots holding them",
        super::migrate5::to_snapshots,
    ),
    (6, "each stored file's keyword length, for the statistics of one snapshot", file_keyword_length),
    (7, "references without their path (their file has it) or a caller index", refs_by_file),
    (8, "chunk texts stored once: texts and their places, definitions per text", super::migrate8::to_texts),
];

/// References lose their `path` column and their (path, caller) index: a reference is the
/// most numerous row of an index, and its path was written twice (row and index). Callers are
/// found through the file index, then filtered by caller.
fn refs_by_file(conn: &Connection, t: &Tables) -> rusqlite::Result<()> {
    if has_column(conn, &t.refs, "path")? {
        let prefix = t.prefix();
        conn.execute_batch(&format!(
            "DROP INDEX IF EXISTS \"{prefix}_r_caller\";
             ALTER TABLE {refs} DROP COLUMN path;",
            refs = t.refs
        ))?;
    }
    create_missing(conn, t)
}

/// Creates the tables and indexes an index lacks, at schema 7 — or at the current schema for
/// an index that already stores texts once (one created so, its recorded version behind).
pub(super) fn create_missing(conn: &Connection, t: &Tables) -> rusqlite::Result<()> {
    let texts: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
        [t.texts.trim_matches('"')],
        |r| r.get(0),
    )?;
    conn.execute_batch(&if texts { t.create_sql() } else { t.create_sql_v7() })
}

/// Each stored file's keyword length (the sum of its chunks'), so BM25's statistics at a
/// snapshot add up its files instead of reading every chunk.
fn file_keyword_length(conn: &Connection, t: &Tables) -> rusqlite::Result<()> {
    add_missing_column(conn, &t.files, "keyword_length", "INTEGER NOT NULL DEFAULT 0")?;
    conn.execute_batch(&format!(
        "UPDATE {files} SET keyword_length =
             (SELECT coalesce(sum(c.keyword_length), 0) FROM {chunks} c WHERE c.file_id = {files}.id);",
        files = t.files,
        chunks = t.chunks
    ))
}

/// Columns added to the first per-index schema without a version of their own (stores of
/// the first pre-release builds lack them), then every table and index of the current
/// schema that is missing. SQLite has no `ADD COLUMN IF NOT EXISTS`, so each column is
/// added only when the table does not have it.
fn catch_up(conn: &Connection, t: &Tables) -> rusqlite::Result<()> {
    // Files without a chunking record are chunked again by the next run, as on PostgreSQL.
    add_missing_column(conn, &t.files, "chunking", "TEXT")?;
    add_missing_column(conn, &t.chunks, "symbol_names", "TEXT NOT NULL DEFAULT ''")?;
    add_missing_column(conn, &t.vectors, "list", "INTEGER")?;
    // The tables and indexes still missing are created by migration 5, once files have ids.
    Ok(())
}

/// Adds `column` to `table` (quoted) unless it has it.
fn add_missing_column(conn: &Connection, table: &str, column: &str, declaration: &str) -> rusqlite::Result<()> {
    if !has_column(conn, table, column)? {
        conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {declaration};"))?;
    }
    Ok(())
}

/// Brings the schema up to date.
///
/// Foreign keys are off while it runs (SQLite ignores the switch inside a transaction, so it
/// is set around it): migration 5 rebuilds tables that other tables' keys point at.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let err = |e: rusqlite::Error| query_error(None, "upgrading the embedded store", &e);
    conn.execute_batch("PRAGMA foreign_keys = OFF;").map_err(err)?;
    let result = migrate_without_keys(conn);
    conn.execute_batch("PRAGMA foreign_keys = ON;").map_err(err)?;
    result
}

fn migrate_without_keys(conn: &mut Connection) -> Result<(), StoreError> {
    let context = "upgrading the embedded store";
    let err = |e: rusqlite::Error| query_error(None, context, &e);
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(err)?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version     INTEGER PRIMARY KEY,
             name        TEXT NOT NULL,
             applied_at  INTEGER NOT NULL
         );",
    )
    .map_err(err)?;
    let current: i64 =
        tx.query_row("SELECT COALESCE(max(version), 0) FROM schema_migrations", [], |r| r.get(0)).map_err(err)?;
    if current > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew { found: current as i32, supported: SCHEMA_VERSION as i32 });
    }
    for (version, name, sql) in MIGRATIONS.iter().filter(|(v, _, _)| *v > current) {
        tx.execute_batch(sql).map_err(err)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
            (version, name, now_ns()),
        )
        .map_err(err)?;
    }
    // The registry's column of the inverted lists came before versions were counted too.
    add_missing_column(&tx, "indexes", "ivf_trained", "INTEGER").map_err(err)?;
    let behind: Vec<(String, i64)> = {
        let mut stmt = tx.prepare("SELECT name, schema_version FROM indexes WHERE schema_version < ?1").map_err(err)?;
        stmt.query_map([INDEX_SCHEMA_VERSION], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(err)?
            .collect::<Result<_, _>>()
            .map_err(err)?
    };
    for (index, version) in behind {
        let tables = Tables::new(&index)?;
        for (to, _, step) in INDEX_MIGRATIONS.iter().filter(|(v, _, _)| *v > version) {
            step(&tx, &tables).map_err(err)?;
            tx.execute("UPDATE indexes SET schema_version = ?2 WHERE name = ?1", (&index, to)).map_err(err)?;
        }
    }
    tx.commit().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Registers index `demo` at per-index schema `version` and migrates the store.
    fn upgrade_from(conn: &mut Connection, version: i64) {
        conn.execute(
            "INSERT INTO indexes (name, root_path, provider, schema_version, created_at, updated_at)
             VALUES ('demo', '/p', 'none', ?1, 0, 0)",
            [version],
        )
        .expect("register");
        migrate(conn).expect("upgrade");
    }

    #[test]
    fn schema_creates_and_migrates_idempotently() {
        let mut conn = Connection::open_in_memory().expect("open");
        migrate(&mut conn).expect("migrate");
        migrate(&mut conn).expect("again");
        let tables = Tables::new("demo").expect("name");
        conn.execute_batch(&tables.create_sql()).expect("create");
        conn.execute_batch(&tables.create_sql()).expect("create again");
        conn.execute_batch(&tables.drop_sql()).expect("drop");
        assert!(Tables::new("bad-name").is_err());
        let version: i64 =
            conn.query_row("SELECT max(version) FROM schema_migrations", [], |r| r.get(0)).expect("version");
        assert_eq!(version, SCHEMA_VERSION);

        // An index of the first per-index schema gains the graph's tables.
        conn.execute_batch(&tables.create_sql_v7()).expect("create");
        conn.execute_batch(&format!(
            "DROP TABLE {}; DROP TABLE {}; DROP TABLE {};",
            tables.defs, tables.refs, tables.imports
        ))
        .expect("as version 1 left it");
        upgrade_from(&mut conn, 1);
        let version: i64 = conn
            .query_row("SELECT schema_version FROM indexes WHERE name = 'demo'", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, INDEX_SCHEMA_VERSION);
        for table in [&tables.defs, &tables.refs, &tables.imports] {
            let rows: i64 = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).expect(table);
            assert_eq!(rows, 0);
        }

        // A store written by a newer cocosearch is refused, not half-understood.
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', 0)", []).expect("future");
        assert!(matches!(migrate(&mut conn), Err(StoreError::SchemaTooNew { found: 99, .. })));
    }

    #[test]
    fn references_of_schema_6_lose_their_path_and_keep_their_rows() {
        let mut conn = Connection::open_in_memory().expect("open");
        migrate(&mut conn).expect("migrate");
        let t = Tables::new("demo").expect("name");
        conn.execute_batch(&t.create_sql_v7()).expect("create");
        // The references table as schema 6 had it.
        conn.execute_batch(&format!(
            "DROP TABLE {refs};
             CREATE TABLE {refs} (file_id INTEGER NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                 path TEXT NOT NULL, line INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
                 qualifier TEXT, caller TEXT);
             CREATE INDEX \"cs_demo_r_caller\" ON {refs} (path, caller);
             CREATE INDEX \"cs_demo_r_file\" ON {refs} (file_id);
             INSERT INTO {files} (id, path, language, size_bytes, mtime_ns, content_hash, line_count, chunk_count,
                                  parse_status, indexed_at) VALUES (1, 'a.py', 'python', 1, 0, x'00', 1, 0, 'ok', 0);
             INSERT INTO {refs} VALUES (1, 'a.py', 3, 'call', 'run', NULL, 'main');",
            refs = t.refs,
            files = t.files
        ))
        .expect("as schema 6 left it");
        upgrade_from(&mut conn, 6);
        // Schema 8 keeps them as the file's own references (its chunks' texts hold none).
        assert!(!has_column(&conn, &t.file_refs, "path").expect("columns"));
        let row: (i64, u32, String, Option<String>) = conn
            .query_row(&format!("SELECT file_id, line, name, caller FROM {}", t.refs), [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .expect("the reference");
        assert_eq!(row, (1, 3, "run".to_string(), Some("main".to_string())));
        let indexes: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'cs_demo_file_refs' ORDER BY name",
            )
            .expect("prepare")
            .query_map([], |r| r.get(0))
            .expect("indexes")
            .collect::<Result<_, _>>()
            .expect("names");
        assert_eq!(indexes, ["cs_demo_r_file", "cs_demo_r_name"]);
    }
}
