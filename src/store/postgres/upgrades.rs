//! Upgrades of per-index tables, oldest first (see [`INDEX_MIGRATIONS`]). Each one's SQL is
//! what it was when it shipped: the DDL it runs is kept here, not taken from the current
//! [`Tables::create_sql`].

use super::tables::{LENGTH_TERM, Tables, keywords_in_row, stored_length};
use super::upgrade_texts::to_texts;

/// One upgrade of per-index tables: the version it reaches, what it does, its SQL.
pub type IndexMigration = (i32, &'static str, fn(&Tables) -> String);

/// Upgrades of per-index tables, oldest first. All are idempotent. Like the global migrations
/// they only add, with three exceptions: 5 deletes term rows that mean nothing (a frequency of
/// zero), which no schema object depends on, 9 replaces the keys on a file's path with keys
/// on its id (see [`to_snapshots`]), and 11 moves each chunk's text to a table of its own
/// (see `upgrade_texts`).
pub const INDEX_MIGRATIONS: &[IndexMigration] = &[
    (2, "record files skipped at read time (binary, not UTF-8, ...)", |t| {
        format!("ALTER TABLE {} ADD COLUMN IF NOT EXISTS skip_reason text;", t.files)
    }),
    (3, "record the definition enclosing each chunk", |t| {
        format!("ALTER TABLE {} ADD COLUMN IF NOT EXISTS enclosing text;", t.chunks)
    }),
    (4, "keep keyword vectors in the row (rows written from now on)", |t| keywords_in_row(&t.chunks)),
    (5, "forget terms no chunk holds any more (their document frequency fell to zero)", |t| {
        format!("DELETE FROM {} WHERE df <= 0;", t.terms)
    }),
    (6, "record how each file was chunked (files without a record are chunked again)", |t| {
        format!("ALTER TABLE {} ADD COLUMN IF NOT EXISTS chunking text;", t.files)
    }),
    (7, "record keyword lengths for BM25", |t| {
        format!(
            "ALTER TABLE {chunks} ADD COLUMN IF NOT EXISTS keyword_length integer;
             ALTER TABLE {terms} ALTER COLUMN df TYPE bigint;
             INSERT INTO {terms} (term, df)
                 SELECT '{LENGTH_TERM}', COALESCE(sum({length}), 0) FROM {chunks}
             ON CONFLICT (term) DO UPDATE SET df = EXCLUDED.df;",
            chunks = t.chunks,
            terms = t.terms,
            length = stored_length("keyword_length", "keywords"),
        )
    }),
    (8, "the code graph: definitions, references and imports of each file", graph_v8),
    (9, "snapshots: stored files keyed by path and content, and the snapshots holding them", to_snapshots),
    (10, "each stored file's keyword length, for the statistics of one snapshot", |t| {
        format!(
            "ALTER TABLE {files} ADD COLUMN IF NOT EXISTS keyword_length bigint NOT NULL DEFAULT 0;
             UPDATE {files} f SET keyword_length =
                 (SELECT COALESCE(sum({length}), 0) FROM {chunks} WHERE file_id = f.id);",
            files = t.files,
            chunks = t.chunks,
            length = stored_length("keyword_length", "keywords"),
        )
    }),
    (11, "chunk texts stored once: each chunk's text, vector and definitions in a table of texts", to_texts),
    // The references already stored stay their file's (old texts hold none): they read as
    // before, and a file written again stores those on its chunks' lines with their texts.
    (12, "the references on a chunk's lines stored with its text", |t| t.text_refs_sql()),
];

/// The migrations written for chunks that held their own text (before 11), which read and
/// alter the chunks' text columns and the definitions' files. Tables that have the texts
/// (made at 11 or later, or upgraded to it) already have what these make.
const BEFORE_TEXTS: [i32; 6] = [3, 4, 7, 8, 9, 10];

/// The SQL of migration `version` (`sql`) for tables `t`: as it shipped, and for one of
/// [`BEFORE_TEXTS`] run only where the index has no texts table (so an index whose recorded
/// version is older than its tables is left as it is, as every migration leaves its own
/// result).
pub fn migration_sql(t: &Tables, version: i32, sql: fn(&Tables) -> String) -> String {
    if !BEFORE_TEXTS.contains(&version) {
        return sql(t);
    }
    format!(
        "DO $before_texts$ BEGIN
             IF to_regclass('{texts}') IS NULL THEN
                 EXECUTE $sql_{version}$ {sql} $sql_{version}$;
             END IF;
         END $before_texts$;",
        texts = t.texts.replace('\'', "''"),
        sql = sql(t),
    )
}

/// Migration 8 as it shipped: the graph's tables keyed by their file's path (migration 9 moves
/// them to the file's id).
fn graph_v8(t: &Tables) -> String {
    let Tables { files, defs, refs, imports, .. } = t;
    format!(
        r#"
        CREATE TABLE IF NOT EXISTS {defs} (
            path            text NOT NULL REFERENCES {files}(path) ON DELETE CASCADE,
            kind            text NOT NULL,
            name            text NOT NULL,
            qualified_name  text NOT NULL,
            signature       text NOT NULL,
            parent          text,
            line_start      integer NOT NULL,
            line_end        integer NOT NULL,
            params          jsonb NOT NULL DEFAULT '[]'::jsonb,
            bases           jsonb NOT NULL DEFAULT '[]'::jsonb,
            name_key        text NOT NULL,
            qualified_key   text NOT NULL
        );
        CREATE INDEX IF NOT EXISTS {d_path} ON {defs} (path, line_start);
        CREATE INDEX IF NOT EXISTS {d_name} ON {defs} (name_key);
        CREATE INDEX IF NOT EXISTS {d_qual} ON {defs} (qualified_key);
        CREATE TABLE IF NOT EXISTS {refs} (
            path       text NOT NULL REFERENCES {files}(path) ON DELETE CASCADE,
            line       integer NOT NULL,
            kind       text NOT NULL,
            name       text NOT NULL,
            qualifier  text,
            caller     text,
            ordinal    bigserial
        );
        CREATE INDEX IF NOT EXISTS {r_name} ON {refs} (name);
        CREATE INDEX IF NOT EXISTS {r_caller} ON {refs} (path, caller);
        CREATE TABLE IF NOT EXISTS {imports} (
            id          bigserial PRIMARY KEY,
            path        text NOT NULL REFERENCES {files}(path) ON DELETE CASCADE,
            line        integer NOT NULL,
            kind        text NOT NULL,
            spec        text NOT NULL,
            name        text,
            alias       text,
            target      text,
            resolution  text NOT NULL
        );
        CREATE INDEX IF NOT EXISTS {i_path} ON {imports} (path);
        CREATE INDEX IF NOT EXISTS {i_target} ON {imports} (target);
        "#,
        d_path = t.object("d_path"),
        d_name = t.object("d_name"),
        d_qual = t.object("d_qual"),
        r_name = t.object("r_name"),
        r_caller = t.object("r_caller"),
        i_path = t.object("i_path"),
        i_target = t.object("i_target"),
    )
}

/// SQL for the current time in nanoseconds since the epoch (how snapshot times are kept).
pub const NOW_NS: &str = "(extract(epoch FROM now()) * 1000000000)::int8";

/// Migration 9, in place: files get an id and are keyed by (path, content hash), the chunks and
/// graph rows point at that id instead of the path, and every existing file becomes a member
/// of one snapshot, `working-tree`. Each step checks what is there, so an index that already
/// has the new shape (one created at version 9) is left as it is; the result is what
/// [`Tables::create_sql`] makes, down to the order of columns and the names of constraints.
fn to_snapshots(t: &Tables) -> String {
    let Tables { files, snapshots, members, .. } = t;
    let holders = [&t.chunks, &t.defs, &t.refs, &t.imports];
    let mut sql = format!(
        "ALTER TABLE {files} ADD COLUMN IF NOT EXISTS id bigint GENERATED ALWAYS AS IDENTITY;
         ALTER TABLE {files} ALTER COLUMN path SET NOT NULL;\n"
    );
    for table in holders {
        sql.push_str(&format!(
            "ALTER TABLE {table} ADD COLUMN IF NOT EXISTS file_id bigint;
             UPDATE {table} x SET file_id = f.id FROM {files} f WHERE x.file_id IS NULL AND f.path = x.path;
             ALTER TABLE {table} ALTER COLUMN file_id SET NOT NULL;\n"
        ));
    }
    // The keys on files(path) go (the foreign keys pointing at it, then the primary key), and
    // the keys on the id take their place, under the names PostgreSQL gives them.
    let mut keys = String::new();
    for table in holders {
        keys.push_str(&format!(
            "IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = '{table}'::regclass AND contype = 'f'
                           AND confrelid = files) THEN
                 ALTER TABLE {table} ADD FOREIGN KEY (file_id) REFERENCES {files}(id) ON DELETE CASCADE;
             END IF;\n"
        ));
    }
    let literal = |name: &str| name.replace('\'', "''");
    sql.push_str(&format!(
        r#"DO $migrate$
        DECLARE
            files regclass := '{files_literal}';
            path_key int2[] := ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = '{files_literal}'::regclass AND attname = 'path')];
            id_key int2[] := ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = '{files_literal}'::regclass AND attname = 'id')];
            k record;
        BEGIN
            FOR k IN SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
                     WHERE confrelid = files AND contype = 'f' AND confkey = path_key LOOP
                EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', k.tbl, k.conname);
            END LOOP;
            IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = files AND contype = 'p' AND conkey = id_key) THEN
                FOR k IN SELECT conname FROM pg_constraint WHERE conrelid = files AND contype = 'p' LOOP
                    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', files, k.conname);
                END LOOP;
                ALTER TABLE {files} ADD PRIMARY KEY (id);
            END IF;
            IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = files AND contype = 'u') THEN
                ALTER TABLE {files} ADD UNIQUE (path, content_hash);
            END IF;
            {keys}
        END
        $migrate$;
        "#,
        files_literal = literal(files),
    ));
    sql.push_str(&snapshots_v9(t));
    // The one snapshot: every file, at the git state the index recorded.
    sql.push_str(&format!(
        r#"DO $migrate$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM {snapshots}) THEN
                INSERT INTO {snapshots} (name, origin, git_commit, git_branch, worktree, created_at, updated_at, current)
                SELECT 'working-tree', 'working-tree', git_commit, git_branch, root_path, {NOW_NS}, {NOW_NS}, true
                FROM cocosearch_indexes WHERE name = '{index}';
                INSERT INTO {members} (snapshot, path, file_id, mtime_ns)
                SELECT s.id, f.path, f.id, f.mtime_ns FROM {files} f, {snapshots} s;
            END IF;
        END
        $migrate$;
        "#,
        index = literal(t.index()),
    ));
    sql
}

/// The snapshots' DDL as migration 9 shipped it: the indexes on the stored file of the chunks
/// and graph rows, the snapshots and what each holds (idempotent).
fn snapshots_v9(t: &Tables) -> String {
    let Tables { chunks, defs, refs, imports, .. } = t;
    format!(
        "CREATE INDEX IF NOT EXISTS {c_file} ON {chunks} (file_id);
         CREATE INDEX IF NOT EXISTS {d_file} ON {defs} (file_id);
         CREATE INDEX IF NOT EXISTS {r_file} ON {refs} (file_id);
         CREATE INDEX IF NOT EXISTS {i_file} ON {imports} (file_id);
         {snapshots}",
        c_file = t.object("c_file"),
        d_file = t.object("d_file"),
        r_file = t.object("r_file"),
        i_file = t.object("i_file"),
        snapshots = t.snapshots_sql(),
    )
}
