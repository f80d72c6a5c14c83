//! The embedded store's schema: global tables, per-index tables, and versioned migrations.
//!
//! As on PostgreSQL, migrations only add and are idempotent; each is recorded in
//! `schema_migrations`, and per-index tables carry their own `schema_version` in the registry.
//! Every command runs [`migrate`] first, inside one `BEGIN IMMEDIATE` transaction, so
//! concurrent processes upgrade one after the other.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, TransactionBehavior};

use super::query_error;
use crate::config::validate_index_name;
use crate::store::StoreError;

/// The global schema version this program writes.
const SCHEMA_VERSION: i64 = 2;

/// The per-index schema version [`Tables::create_sql`] produces.
pub(crate) const INDEX_SCHEMA_VERSION: i64 = 5;

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
    (2, "the code graph: definitions, references and imports of each file", |c, t| c.execute_batch(&t.graph_sql())),
    (3, "packs: the vectors of each inverted list in one row", |c, t| c.execute_batch(&t.packs_sql())),
    (4, "what the first pre-release schema lacked: how each file was chunked, and more", catch_up),
    (
        5,
        "snapshots: stored files keyed by path and content, and the snapshots holding them",
        super::migrate5::to_snapshots,
    ),
];

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

/// Whether `table` (quoted) has `column`.
pub(crate) fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2)",
        (table.trim_matches('"'), column),
        |r| r.get(0),
    )
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

/// The table names of one index. Names are built only from validated index names, so they
/// are safe identifiers; they are still quoted.
#[derive(Debug, Clone)]
pub(crate) struct Tables {
    /// `"cs_<name>_files"`.
    pub files: String,
    /// `"cs_<name>_chunks"`.
    pub chunks: String,
    /// `"cs_<name>_vectors"`: one row per embedded chunk, kept narrow so vector search scans
    /// only vectors.
    pub vectors: String,
    /// `"cs_<name>_symbols"`: each symbol key of each chunk, for exact-name lookups.
    pub symbols: String,
    /// `"cs_<name>_fts"`: the FTS5 index of the chunks' keyword text (contentless).
    pub fts: String,
    /// `"cs_<name>_lists"`: the centroids of the vectors' inverted lists (see `ivf`).
    pub lists: String,
    /// `"cs_<name>_packs"`: the vectors of each inverted list in one row (see `packs`).
    pub packs: String,
    /// `"cs_<name>_terms"`: document frequencies, with the chunk count under the empty term
    /// and the total length under `#length`.
    pub terms: String,
    /// `"cs_<name>_defs"`: one row per symbol of the chunks, for the code graph.
    pub defs: String,
    /// `"cs_<name>_refs"`: the references of each file.
    pub refs: String,
    /// `"cs_<name>_imports"`: the imports of each file and where each resolves.
    pub imports: String,
    /// `"cs_<name>_snapshots"`: the snapshots of the index (see `store::snapshots`).
    pub snapshots: String,
    /// `"cs_<name>_members"`: which stored file each snapshot holds at each path.
    pub members: String,
    prefix: String,
}

impl Tables {
    /// The tables of index `name`, after validating it.
    pub fn new(name: &str) -> Result<Tables, StoreError> {
        validate_index_name(name).map_err(StoreError::InvalidName)?;
        Ok(Tables::with_prefix(format!("cs_{name}")))
    }

    /// Tables named `<prefix>_<suffix>` (a migration's staging tables).
    pub(crate) fn with_prefix(prefix: String) -> Tables {
        let quoted = |suffix: &str| format!("\"{prefix}_{suffix}\"");
        Tables {
            files: quoted("files"),
            chunks: quoted("chunks"),
            vectors: quoted("vectors"),
            symbols: quoted("symbols"),
            fts: quoted("fts"),
            lists: quoted("lists"),
            packs: quoted("packs"),
            terms: quoted("terms"),
            defs: quoted("defs"),
            refs: quoted("refs"),
            imports: quoted("imports"),
            snapshots: quoted("snapshots"),
            members: quoted("members"),
            prefix,
        }
    }

    /// The prefix of every table and index name of this index (unquoted).
    pub(crate) fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Every table of this index, unquoted, with the FTS5 shadow tables (for sizes).
    pub fn all_names(&self) -> Vec<String> {
        [
            "files",
            "chunks",
            "vectors",
            "symbols",
            "lists",
            "packs",
            "terms",
            "defs",
            "refs",
            "imports",
            "snapshots",
            "members",
            "fts_data",
            "fts_idx",
            "fts_docsize",
            "fts_config",
        ]
        .iter()
        .map(|suffix| format!("{}_{suffix}", self.prefix))
        .collect()
    }

    /// The DDL creating this index's tables at [`INDEX_SCHEMA_VERSION`] (idempotent).
    pub fn create_sql(&self) -> String {
        let Tables { files, chunks, vectors, symbols, fts, lists, terms, prefix, .. } = self;
        let graph = self.graph_sql();
        let packs = self.packs_sql();
        let snapshots = self.snapshots_sql();
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {files} (
                id            INTEGER PRIMARY KEY AUTOINCREMENT,
                path          TEXT NOT NULL,
                language      TEXT NOT NULL,
                size_bytes    INTEGER NOT NULL,
                mtime_ns      INTEGER NOT NULL,
                content_hash  BLOB NOT NULL,
                line_count    INTEGER NOT NULL,
                chunk_count   INTEGER NOT NULL,
                parse_status  TEXT NOT NULL,
                parse_errors  TEXT NOT NULL DEFAULT '[]',
                indexed_at    INTEGER NOT NULL,
                skip_reason   TEXT,
                chunking      TEXT,
                UNIQUE (path, content_hash)
            );
            CREATE TABLE IF NOT EXISTS {chunks} (
                id                INTEGER PRIMARY KEY AUTOINCREMENT,
                file_id           INTEGER NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                path              TEXT NOT NULL,
                ordinal           INTEGER NOT NULL,
                byte_start        INTEGER NOT NULL,
                byte_end          INTEGER NOT NULL,
                line_start        INTEGER NOT NULL,
                line_end          INTEGER NOT NULL,
                language          TEXT NOT NULL,
                content           TEXT NOT NULL,
                symbol_type       TEXT,
                symbol_name       TEXT,
                qualified_name    TEXT,
                symbol_signature  TEXT,
                symbol_parent     TEXT,
                symbol_keys       TEXT NOT NULL DEFAULT '',
                symbol_names      TEXT NOT NULL DEFAULT '',
                symbol_kinds      TEXT NOT NULL DEFAULT '',
                symbol_details    TEXT NOT NULL DEFAULT '[]',
                enclosing         TEXT,
                context           TEXT NOT NULL DEFAULT '',
                parse_status      TEXT NOT NULL,
                embed_hash        BLOB NOT NULL,
                keywords          TEXT NOT NULL,
                keyword_length    INTEGER NOT NULL
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_c_path" ON {chunks} (path);
            CREATE INDEX IF NOT EXISTS "{prefix}_c_file" ON {chunks} (file_id);
            CREATE INDEX IF NOT EXISTS "{prefix}_c_hash" ON {chunks} (embed_hash);
            CREATE TABLE IF NOT EXISTS {vectors} (
                id         INTEGER PRIMARY KEY REFERENCES {chunks}(id) ON DELETE CASCADE,
                list       INTEGER,
                embedding  BLOB NOT NULL
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_v_list" ON {vectors} (list);
            CREATE TABLE IF NOT EXISTS {lists} (
                list      INTEGER PRIMARY KEY,
                centroid  BLOB NOT NULL
            );
            CREATE TABLE IF NOT EXISTS {symbols} (
                key       TEXT NOT NULL,
                chunk_id  INTEGER NOT NULL REFERENCES {chunks}(id) ON DELETE CASCADE
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_s_key" ON {symbols} (key);
            CREATE INDEX IF NOT EXISTS "{prefix}_s_chunk" ON {symbols} (chunk_id);
            CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5(
                keywords, content = '', contentless_delete = 1, tokenize = 'ascii'
            );
            CREATE TABLE IF NOT EXISTS {terms} (
                term  TEXT PRIMARY KEY,
                df    INTEGER NOT NULL
            ) WITHOUT ROWID;
            {graph}
            {packs}
            {snapshots}
            "#
        )
    }

    /// The DDL of the snapshots and what each holds (idempotent).
    pub fn snapshots_sql(&self) -> String {
        let Tables { files, snapshots, members, prefix, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {snapshots} (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                name        TEXT NOT NULL UNIQUE,
                origin      TEXT NOT NULL,
                git_commit  TEXT,
                git_branch  TEXT,
                worktree    TEXT,
                created_at  INTEGER NOT NULL,
                updated_at  INTEGER NOT NULL,
                current     INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE IF NOT EXISTS {members} (
                snapshot  INTEGER NOT NULL REFERENCES {snapshots}(id) ON DELETE CASCADE,
                path      TEXT NOT NULL,
                file_id   INTEGER NOT NULL REFERENCES {files}(id),
                mtime_ns  INTEGER NOT NULL,
                PRIMARY KEY (snapshot, path)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS "{prefix}_m_file" ON {members} (file_id);
            "#
        )
    }

    /// The DDL of the code graph's tables (idempotent): definitions with lowercase lookup
    /// keys, references by name and by caller, imports by file and by target. Each row goes
    /// with its file (a foreign-key cascade).
    pub fn graph_sql(&self) -> String {
        let Tables { files, defs, refs, imports, prefix, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {defs} (
                file_id         INTEGER NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                path            TEXT NOT NULL,
                kind            TEXT NOT NULL,
                name            TEXT NOT NULL,
                qualified_name  TEXT NOT NULL,
                signature       TEXT NOT NULL,
                parent          TEXT,
                line_start      INTEGER NOT NULL,
                line_end        INTEGER NOT NULL,
                params          TEXT NOT NULL DEFAULT '[]',
                bases           TEXT NOT NULL DEFAULT '[]',
                name_key        TEXT NOT NULL,
                qualified_key   TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_d_path" ON {defs} (path, line_start);
            CREATE INDEX IF NOT EXISTS "{prefix}_d_file" ON {defs} (file_id);
            CREATE INDEX IF NOT EXISTS "{prefix}_d_name" ON {defs} (name_key);
            CREATE INDEX IF NOT EXISTS "{prefix}_d_qual" ON {defs} (qualified_key);
            CREATE TABLE IF NOT EXISTS {refs} (
                file_id         INTEGER NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                path            TEXT NOT NULL,
                line       INTEGER NOT NULL,
                kind       TEXT NOT NULL,
                name       TEXT NOT NULL,
                qualifier  TEXT,
                caller     TEXT
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_r_name" ON {refs} (name);
            CREATE INDEX IF NOT EXISTS "{prefix}_r_caller" ON {refs} (path, caller);
            CREATE INDEX IF NOT EXISTS "{prefix}_r_file" ON {refs} (file_id);
            CREATE TABLE IF NOT EXISTS {imports} (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                file_id     INTEGER NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                path        TEXT NOT NULL,
                line        INTEGER NOT NULL,
                kind        TEXT NOT NULL,
                spec        TEXT NOT NULL,
                name        TEXT,
                alias       TEXT,
                target      TEXT,
                resolution  TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_i_path" ON {imports} (path);
            CREATE INDEX IF NOT EXISTS "{prefix}_i_file" ON {imports} (file_id);
            CREATE INDEX IF NOT EXISTS "{prefix}_i_target" ON {imports} (target);
            "#
        )
    }

    /// The DDL of the packs table (idempotent). Its count column comes before the BLOBs, so
    /// reading it does not read them.
    pub fn packs_sql(&self) -> String {
        format!(
            "CREATE TABLE IF NOT EXISTS {packs} (
                 list     INTEGER PRIMARY KEY,
                 count    INTEGER NOT NULL,
                 ids      BLOB NOT NULL,
                 vectors  BLOB NOT NULL
             );",
            packs = self.packs
        )
    }

    /// The DDL that drops this index's tables.
    pub fn drop_sql(&self) -> String {
        // Children first: foreign keys point from vectors and symbols to chunks to files.
        [
            &self.members,
            &self.snapshots,
            &self.fts,
            &self.symbols,
            &self.vectors,
            &self.chunks,
            &self.defs,
            &self.refs,
            &self.imports,
            &self.files,
            &self.terms,
            &self.lists,
            &self.packs,
        ]
        .iter()
        .map(|t| format!("DROP TABLE IF EXISTS {t};"))
        .collect::<Vec<_>>()
        .join("\n")
    }
}

/// Now, in nanoseconds since the epoch (how times are stored).
pub(crate) fn now_ns() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// A stored time.
pub(crate) fn time(ns: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(u64::try_from(ns).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        conn.execute_batch(&tables.create_sql()).expect("create");
        conn.execute_batch(&format!(
            "DROP TABLE {}; DROP TABLE {}; DROP TABLE {};",
            tables.defs, tables.refs, tables.imports
        ))
        .expect("as version 1 left it");
        conn.execute(
            "INSERT INTO indexes (name, root_path, provider, schema_version, created_at, updated_at)
             VALUES ('demo', '/p', 'none', 1, 0, 0)",
            [],
        )
        .expect("register");
        migrate(&mut conn).expect("upgrade");
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
}
