//! Versioned, additive, idempotent schema migrations.
//!
//! Every command calls [`run`] before touching data, so any command run against an older
//! schema upgrades it. Each migration is recorded in `cocosearch_schema_migrations`; its SQL
//! only ever creates or adds (`IF NOT EXISTS`), never drops, so re-running one is harmless.
//! (Per-index migrations are idempotent too; see `upgrades::INDEX_MIGRATIONS` for the three that
//! change rather than add.)
//! Concurrent runs serialise on a transaction-scoped advisory lock.

use super::PgStore;
use super::tables::{INDEX_MIGRATIONS, INDEX_SCHEMA_VERSION, Tables};
use super::upgrades::migration_sql;
use crate::store::StoreError;

/// Advisory-lock key for migrations: an arbitrary constant ("cocosrch" in ASCII).
const MIGRATION_LOCK: i64 = 0x636f_636f_7372_6368;

/// One schema change.
struct Migration {
    version: i32,
    name: &'static str,
    sql: &'static str,
}

/// All migrations, oldest first. Append only; never edit one that has shipped.
const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "pgvector, index registry, runs and query cache",
        sql: r#"
        CREATE EXTENSION IF NOT EXISTS vector;
        CREATE TABLE IF NOT EXISTS cocosearch_indexes (
            name            text PRIMARY KEY,
            root_path       text NOT NULL,
            provider        text NOT NULL,
            model           text,
            dimension       integer,
            schema_version  integer NOT NULL,
            created_at      timestamptz NOT NULL DEFAULT now(),
            updated_at      timestamptz NOT NULL DEFAULT now(),
            git_commit      text,
            git_branch      text
        );
        CREATE TABLE IF NOT EXISTS cocosearch_runs (
            id           bigserial PRIMARY KEY,
            index_name   text NOT NULL REFERENCES cocosearch_indexes(name) ON DELETE CASCADE,
            kind         text NOT NULL,
            status       text NOT NULL,
            started_at   timestamptz NOT NULL DEFAULT now(),
            finished_at  timestamptz,
            summary      jsonb NOT NULL DEFAULT '{}'::jsonb
        );
        CREATE INDEX IF NOT EXISTS cocosearch_runs_index_name_idx ON cocosearch_runs (index_name, id);
        CREATE TABLE IF NOT EXISTS cocosearch_query_cache (
            model        text NOT NULL,
            query_hash   bytea NOT NULL,
            embedding    vector NOT NULL,
            created_at   timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (model, query_hash)
        );
    "#,
    },
    Migration {
        version: 2,
        name: "record the model context per index (it fixes the chunk budget)",
        sql: "ALTER TABLE cocosearch_indexes ADD COLUMN IF NOT EXISTS context_tokens integer;",
    },
    Migration {
        version: 3,
        name: "tasks of each project, their status history and links",
        // Keyed by the project's index name, outside the index's tables: tasks outlive a
        // dropped index.
        sql: r#"
        CREATE TABLE IF NOT EXISTS cocosearch_tasks (
            id           text PRIMARY KEY,
            project      text NOT NULL,
            title        text NOT NULL,
            description  text,
            notes        text,
            status       text NOT NULL,
            search_text  text NOT NULL,
            created_at   timestamptz NOT NULL,
            updated_at   timestamptz NOT NULL
        );
        CREATE INDEX IF NOT EXISTS cocosearch_tasks_project_updated_idx
            ON cocosearch_tasks (project, updated_at DESC, id);
        CREATE INDEX IF NOT EXISTS cocosearch_tasks_project_status_idx
            ON cocosearch_tasks (project, status, updated_at DESC, id);
        CREATE TABLE IF NOT EXISTS cocosearch_task_history (
            id           bigserial PRIMARY KEY,
            task_id      text NOT NULL REFERENCES cocosearch_tasks(id) ON DELETE CASCADE,
            from_status  text,
            to_status    text NOT NULL,
            changed_at   timestamptz NOT NULL
        );
        CREATE INDEX IF NOT EXISTS cocosearch_task_history_task_idx ON cocosearch_task_history (task_id, id);
        CREATE TABLE IF NOT EXISTS cocosearch_task_links (
            id         bigserial PRIMARY KEY,
            task_id    text NOT NULL REFERENCES cocosearch_tasks(id) ON DELETE CASCADE,
            kind       text NOT NULL,
            value      text NOT NULL,
            linked_at  timestamptz NOT NULL,
            UNIQUE (task_id, kind, value)
        );
        CREATE INDEX IF NOT EXISTS cocosearch_task_links_value_idx ON cocosearch_task_links (kind, value);
    "#,
    },
];

/// The newest schema version this program knows.
pub(crate) fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// Applies every migration not yet recorded, in order, in one transaction.
pub(crate) fn run(store: &PgStore) -> Result<(), StoreError> {
    let mut conn = store.conn()?;
    // Fast path without a lock: everything current.
    let (current, outdated_indexes) = current_version(store, &mut conn)?;
    if current > latest() {
        return Err(StoreError::SchemaTooNew { found: current, supported: latest() });
    }
    if current < latest() {
        migrate_global(store, &mut conn)?;
    }
    if current < latest() || outdated_indexes > 0 {
        migrate_indexes(store, &mut conn)?;
    }
    Ok(())
}

/// Fails unless the schema is exactly this program's: for a store read and never written
/// (a team's shared index, opened with a read-only role), which cannot be upgraded here.
pub(crate) fn check_current(store: &PgStore) -> Result<(), StoreError> {
    let mut conn = store.conn()?;
    let (current, outdated_indexes) = current_version(store, &mut conn)?;
    if current > latest() {
        return Err(StoreError::SchemaTooNew { found: current, supported: latest() });
    }
    if current < latest() {
        return Err(StoreError::SchemaTooOld { location: store.url.clone(), found: current, wanted: latest() });
    }
    if outdated_indexes > 0 {
        let found: i32 = conn
            .query_one("SELECT min(schema_version) FROM cocosearch_indexes", &[])
            .map_err(|e| store.query_error("reading the schema version", &e))?
            .get(0);
        return Err(StoreError::SchemaTooOld { location: store.url.clone(), found, wanted: INDEX_SCHEMA_VERSION });
    }
    Ok(())
}

fn migrate_global(store: &PgStore, conn: &mut super::Conn) -> Result<(), StoreError> {
    let context = "upgrading the database schema";
    ensure_vector_available(store, conn)?;
    let mut tx = conn.transaction().map_err(|e| store.query_error(context, &e))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).map_err(|e| store.query_error(context, &e))?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS cocosearch_schema_migrations (
             version     integer PRIMARY KEY,
             name        text NOT NULL,
             applied_at  timestamptz NOT NULL DEFAULT now()
         )",
    )
    .map_err(|e| store.query_error(context, &e))?;
    let applied: i32 = tx
        .query_one("SELECT COALESCE(max(version), 0) FROM cocosearch_schema_migrations", &[])
        .map_err(|e| store.query_error(context, &e))?
        .get(0);
    for migration in MIGRATIONS.iter().filter(|m| m.version > applied) {
        tracing::info!(version = migration.version, name = migration.name, "applying schema migration");
        tx.batch_execute(migration.sql)
            .map_err(|e| vector_error(store, &e).unwrap_or_else(|| store.query_error(context, &e)))?;
        tx.execute(
            "INSERT INTO cocosearch_schema_migrations (version, name) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&migration.version, &migration.name],
        )
        .map_err(|e| store.query_error(context, &e))?;
    }
    tx.commit().map_err(|e| store.query_error(context, &e))
}

/// Brings every index's own tables up to [`INDEX_SCHEMA_VERSION`].
fn migrate_indexes(store: &PgStore, conn: &mut super::Conn) -> Result<(), StoreError> {
    let context = "upgrading index tables";
    let mut tx = conn.transaction().map_err(|e| store.query_error(context, &e))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).map_err(|e| store.query_error(context, &e))?;
    let outdated: Vec<(String, i32)> = tx
        .query(
            "SELECT name, schema_version FROM cocosearch_indexes WHERE schema_version < $1",
            &[&INDEX_SCHEMA_VERSION],
        )
        .map_err(|e| store.query_error(context, &e))?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    for (name, version) in outdated {
        let tables = Tables::new(&name)?;
        for (target, description, sql) in INDEX_MIGRATIONS.iter().filter(|(v, _, _)| *v > version) {
            tracing::info!(index = %name, version = target, description, "upgrading index tables");
            let sql = migration_sql(&tables, *target, *sql);
            tx.batch_execute(&sql).map_err(|e| store.query_error(context, &e))?;
        }
        tx.execute(
            "UPDATE cocosearch_indexes SET schema_version = $2 WHERE name = $1",
            &[&name, &INDEX_SCHEMA_VERSION],
        )
        .map_err(|e| store.query_error(context, &e))?;
    }
    tx.commit().map_err(|e| store.query_error(context, &e))
}

/// The global schema version, and how many indexes have older tables than this program's.
fn current_version(store: &PgStore, conn: &mut super::Conn) -> Result<(i32, i64), StoreError> {
    let context = "reading the schema version";
    let exists: bool = conn
        .query_one("SELECT to_regclass('cocosearch_schema_migrations') IS NOT NULL", &[])
        .map_err(|e| store.query_error(context, &e))?
        .get(0);
    if !exists {
        return Ok((0, 0));
    }
    let row = conn
        .query_one(
            "SELECT COALESCE(max(version), 0),
                    (SELECT count(*) FROM cocosearch_indexes WHERE schema_version < $1)
             FROM cocosearch_schema_migrations",
            &[&INDEX_SCHEMA_VERSION],
        )
        .map_err(|e| store.query_error(context, &e))?;
    Ok((row.get(0), row.get(1)))
}

fn ensure_vector_available(store: &PgStore, conn: &mut super::Conn) -> Result<(), StoreError> {
    let available: bool = conn
        .query_one("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')", &[])
        .map_err(|e| store.query_error("looking for pgvector", &e))?
        .get(0);
    if available {
        return Ok(());
    }
    Err(StoreError::Vector {
        message: format!(
            "the PostgreSQL server at {} does not have the pgvector extension — use the pgvector/pgvector Docker image (`docker compose up -d`) or install pgvector (https://github.com/pgvector/pgvector#installation)",
            store.url
        ),
    })
}

fn vector_error(store: &PgStore, e: &postgres::Error) -> Option<StoreError> {
    let db = e.as_db_error()?;
    if *db.code() != postgres::error::SqlState::INSUFFICIENT_PRIVILEGE || !db.message().contains("vector") {
        return None;
    }
    Some(StoreError::Vector {
        message: format!(
            "no permission to enable pgvector in database {:?} at {} — ask an administrator to run `CREATE EXTENSION vector;` in it once",
            store.database, store.url
        ),
    })
}
