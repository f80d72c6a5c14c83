//! Per-index table names and their DDL.
//!
//! Each index has eight tables: `cs_<name>_files` (one row per stored version of a path),
//! `cs_<name>_chunks`, `cs_<name>_terms`, the code graph's `cs_<name>_defs`, `cs_<name>_refs` and
//! `cs_<name>_imports`, and the snapshots' `cs_<name>_snapshots` and `cs_<name>_members` (see
//! `store::snapshots`).
//! Names are built only from validated index names ([`crate::config::validate_index_name`]), so
//! they are safe SQL identifiers; they are still quoted.

use crate::config::validate_index_name;
use crate::store::{MAX_TERM_FREQUENCY, StoreError};

/// The per-index schema version that [`Tables::create_sql`] produces.
pub const INDEX_SCHEMA_VERSION: i32 = 10;

/// The row of the terms table that holds the total keyword length of all chunks (BM25's
/// average document length); analysed terms never contain `#`. The row with the empty term
/// counts the chunks.
pub const LENGTH_TERM: &str = "#length";

/// One upgrade of per-index tables: the version it reaches, what it does, its SQL.
pub type IndexMigration = (i32, &'static str, fn(&Tables) -> String);

/// Upgrades of per-index tables, oldest first. All are idempotent. Like the global migrations
/// they only add, with two exceptions: 5 deletes term rows that mean nothing (a frequency of
/// zero), which no schema object depends on, and 9 replaces the keys on a file's path with keys
/// on its id (see [`to_snapshots`]).
pub const INDEX_MIGRATIONS: &[IndexMigration] = &[
    (2, "record files skipped at read time (binary, not UTF-8, ...)", |t| {
        format!("ALTER TABLE {} ADD COLUMN IF NOT EXISTS skip_reason text;", t.files)
    }),
    (3, "record the definition enclosing each chunk", |t| {
        format!("ALTER TABLE {} ADD COLUMN IF NOT EXISTS enclosing text;", t.chunks)
    }),
    (4, "keep keyword vectors in the row (rows written from now on)", keywords_in_row),
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
];

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
    sql.push_str(&t.snapshots_sql());
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

/// SQL for a chunk's keyword length: the stored one, or for rows written before schema 5 the
/// count of its positions (at most [`MAX_TERM_FREQUENCY`] per word, as PostgreSQL keeps them).
pub fn stored_length(length: &str, keywords: &str) -> String {
    format!(
        "COALESCE({length}, (SELECT sum(least(array_length(u.positions, 1), {MAX_TERM_FREQUENCY}))::int4 FROM unnest({keywords}) u), 0)"
    )
}

/// Keyword search ranks each candidate's `keywords`; stored out of line (TOAST, the default
/// once a row passes 2 kB with its content and embedding), every rank call would fetch and
/// decompress them again: 3–4× slower on a 200k-chunk index. `MAIN` keeps them in the row
/// and lets the content and embedding move out instead.
fn keywords_in_row(t: &Tables) -> String {
    format!("ALTER TABLE {} ALTER COLUMN keywords SET STORAGE MAIN;", t.chunks)
}

/// The SQL names belonging to one index.
#[derive(Debug, Clone)]
pub struct Tables {
    /// `"cs_<name>_files"`.
    pub files: String,
    /// `"cs_<name>_chunks"`.
    pub chunks: String,
    /// `"cs_<name>_terms"`: document frequency of each keyword term, for IDF weighting in
    /// keyword search; the row with the empty term counts the chunks, [`LENGTH_TERM`] sums
    /// their lengths.
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
        let prefix = format!("cs_{name}");
        Ok(Tables {
            files: format!("\"{prefix}_files\""),
            chunks: format!("\"{prefix}_chunks\""),
            terms: format!("\"{prefix}_terms\""),
            defs: format!("\"{prefix}_defs\""),
            refs: format!("\"{prefix}_refs\""),
            imports: format!("\"{prefix}_imports\""),
            snapshots: format!("\"{prefix}_snapshots\""),
            members: format!("\"{prefix}_members\""),
            prefix,
        })
    }

    /// The index's name (validated).
    pub fn index(&self) -> &str {
        self.prefix.strip_prefix("cs_").unwrap_or(&self.prefix)
    }

    /// Every table of the index, unquoted (for sizes).
    pub fn all(&self) -> Vec<String> {
        [&self.files, &self.chunks, &self.terms, &self.defs, &self.refs, &self.imports, &self.snapshots, &self.members]
            .iter()
            .map(|q| q.trim_matches('"').to_string())
            .collect()
    }

    /// An index-object name with this suffix, quoted (`"cs_x_c_kw"`).
    pub fn object(&self, suffix: &str) -> String {
        format!("\"{}_{suffix}\"", self.prefix)
    }

    /// The DDL creating this index's tables at [`INDEX_SCHEMA_VERSION`] (idempotent). The
    /// columns added by migration 9 come last, where `ALTER TABLE` puts them, so a created
    /// index and a migrated one have the same tables.
    pub fn create_sql(&self) -> String {
        let Tables { files, chunks, terms, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {files} (
                path          text NOT NULL,
                language      text NOT NULL,
                size_bytes    bigint NOT NULL,
                mtime_ns      bigint NOT NULL,
                content_hash  bytea NOT NULL,
                line_count    integer NOT NULL,
                chunk_count   integer NOT NULL,
                parse_status  text NOT NULL,
                parse_errors  jsonb NOT NULL DEFAULT '[]'::jsonb,
                indexed_at    timestamptz NOT NULL DEFAULT now(),
                skip_reason   text,
                chunking      text,
                id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                keyword_length bigint NOT NULL DEFAULT 0,
                UNIQUE (path, content_hash)
            );
            CREATE TABLE IF NOT EXISTS {chunks} (
                id                bigserial PRIMARY KEY,
                path              text NOT NULL,
                ordinal           integer NOT NULL,
                byte_start        integer NOT NULL,
                byte_end          integer NOT NULL,
                line_start        integer NOT NULL,
                line_end          integer NOT NULL,
                language          text NOT NULL,
                content           text NOT NULL,
                symbol_type       text,
                symbol_name       text,
                qualified_name    text,
                symbol_signature  text,
                symbol_parent     text,
                symbols           text[] NOT NULL DEFAULT '{{}}',
                symbol_keys       text[] NOT NULL DEFAULT '{{}}',
                symbol_kinds      text[] NOT NULL DEFAULT '{{}}',
                symbol_details    jsonb NOT NULL DEFAULT '[]'::jsonb,
                enclosing         text,
                context           text NOT NULL DEFAULT '',
                parse_status      text NOT NULL,
                embed_hash        bytea NOT NULL,
                embedding         vector,
                keywords          tsvector NOT NULL,
                keyword_length    integer,
                file_id           bigint NOT NULL REFERENCES {files}(id) ON DELETE CASCADE
            );
            CREATE TABLE IF NOT EXISTS {terms} (
                term  text PRIMARY KEY,
                df    bigint NOT NULL
            );
            {keywords_in_row}
            CREATE INDEX IF NOT EXISTS {path_idx} ON {chunks} (path);
            CREATE INDEX IF NOT EXISTS {kw_idx} ON {chunks} USING gin (keywords);
            CREATE INDEX IF NOT EXISTS {hash_idx} ON {chunks} (embed_hash);
            CREATE INDEX IF NOT EXISTS {pending_idx} ON {chunks} (id) WHERE embedding IS NULL;
            CREATE INDEX IF NOT EXISTS {symbol_idx} ON {chunks} USING gin (symbol_keys);
            {graph}
            {snapshots}
            "#,
            graph = self.graph_sql(),
            snapshots = self.snapshots_sql(),
            path_idx = self.object("c_path"),
            kw_idx = self.object("c_kw"),
            hash_idx = self.object("c_hash"),
            pending_idx = self.object("c_pending"),
            symbol_idx = self.object("c_sym"),
            keywords_in_row = keywords_in_row(self),
        )
    }

    /// The DDL of the code graph's tables (idempotent): definitions with lowercase lookup
    /// keys, references by name and by caller, imports by file and by target. Each row goes
    /// with its stored file (a foreign-key cascade).
    pub fn graph_sql(&self) -> String {
        let Tables { files, defs, refs, imports, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {defs} (
                path            text NOT NULL,
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
                qualified_key   text NOT NULL,
                file_id         bigint NOT NULL REFERENCES {files}(id) ON DELETE CASCADE
            );
            CREATE INDEX IF NOT EXISTS {d_path} ON {defs} (path, line_start);
            CREATE INDEX IF NOT EXISTS {d_name} ON {defs} (name_key);
            CREATE INDEX IF NOT EXISTS {d_qual} ON {defs} (qualified_key);
            CREATE TABLE IF NOT EXISTS {refs} (
                path       text NOT NULL,
                line       integer NOT NULL,
                kind       text NOT NULL,
                name       text NOT NULL,
                qualifier  text,
                caller     text,
                ordinal    bigserial,
                file_id    bigint NOT NULL REFERENCES {files}(id) ON DELETE CASCADE
            );
            CREATE INDEX IF NOT EXISTS {r_name} ON {refs} (name);
            CREATE INDEX IF NOT EXISTS {r_caller} ON {refs} (path, caller);
            CREATE TABLE IF NOT EXISTS {imports} (
                id          bigserial PRIMARY KEY,
                path        text NOT NULL,
                line        integer NOT NULL,
                kind        text NOT NULL,
                spec        text NOT NULL,
                name        text,
                alias       text,
                target      text,
                resolution  text NOT NULL,
                file_id     bigint NOT NULL REFERENCES {files}(id) ON DELETE CASCADE
            );
            CREATE INDEX IF NOT EXISTS {i_path} ON {imports} (path);
            CREATE INDEX IF NOT EXISTS {i_target} ON {imports} (target);
            "#,
            d_path = self.object("d_path"),
            d_name = self.object("d_name"),
            d_qual = self.object("d_qual"),
            r_name = self.object("r_name"),
            r_caller = self.object("r_caller"),
            i_path = self.object("i_path"),
            i_target = self.object("i_target"),
        )
    }

    /// The DDL of the snapshots, what each holds, and the indexes on the stored file of the
    /// chunks and graph rows (idempotent; the tables holding `file_id` must exist). At most
    /// one snapshot is current (a unique index on the flag, where set).
    pub fn snapshots_sql(&self) -> String {
        let Tables { files, chunks, defs, refs, imports, snapshots, members, .. } = self;
        format!(
            r#"
            CREATE INDEX IF NOT EXISTS {c_file} ON {chunks} (file_id);
            CREATE INDEX IF NOT EXISTS {d_file} ON {defs} (file_id);
            CREATE INDEX IF NOT EXISTS {r_file} ON {refs} (file_id);
            CREATE INDEX IF NOT EXISTS {i_file} ON {imports} (file_id);
            CREATE TABLE IF NOT EXISTS {snapshots} (
                id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                name        text NOT NULL UNIQUE,
                origin      text NOT NULL,
                git_commit  text,
                git_branch  text,
                worktree    text,
                created_at  bigint NOT NULL,
                updated_at  bigint NOT NULL,
                current     boolean NOT NULL DEFAULT false
            );
            CREATE UNIQUE INDEX IF NOT EXISTS {s_current} ON {snapshots} (current) WHERE current;
            CREATE TABLE IF NOT EXISTS {members} (
                snapshot  bigint NOT NULL REFERENCES {snapshots}(id) ON DELETE CASCADE,
                path      text NOT NULL,
                file_id   bigint NOT NULL REFERENCES {files}(id),
                mtime_ns  bigint NOT NULL,
                PRIMARY KEY (snapshot, path)
            );
            CREATE INDEX IF NOT EXISTS {m_file} ON {members} (file_id);
            "#,
            c_file = self.object("c_file"),
            d_file = self.object("d_file"),
            r_file = self.object("r_file"),
            i_file = self.object("i_file"),
            s_current = self.object("s_current"),
            m_file = self.object("m_file"),
        )
    }

    /// The DDL that fixes the vector dimension and builds the HNSW cosine index.
    pub fn vector_sql(&self, dimension: u32) -> String {
        format!(
            "ALTER TABLE {chunks} ALTER COLUMN embedding TYPE vector({dimension});
             CREATE INDEX IF NOT EXISTS {hnsw} ON {chunks} USING hnsw (embedding vector_cosine_ops);",
            chunks = self.chunks,
            hnsw = self.object("c_hnsw"),
        )
    }

    /// The DDL that drops this index's tables.
    pub fn drop_sql(&self) -> String {
        [&self.members, &self.snapshots, &self.chunks, &self.defs, &self.refs, &self.imports, &self.files, &self.terms]
            .iter()
            .map(|t| format!("DROP TABLE IF EXISTS {t} CASCADE;"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_validated_and_fit_postgres_limits() {
        assert!(Tables::new("bad-name").is_err());
        assert!(Tables::new("x\"; DROP TABLE y; --").is_err());
        let long = "a".repeat(crate::config::MAX_INDEX_NAME_LEN);
        let t = Tables::new(&long).expect("valid");
        for ident in [
            t.files.clone(),
            t.chunks.clone(),
            t.terms.clone(),
            t.snapshots.clone(),
            t.members.clone(),
            t.object("c_pending"),
            t.object("c_hnsw"),
            t.object("s_current"),
        ] {
            assert!(ident.trim_matches('"').len() <= 63, "{ident} is too long for PostgreSQL");
        }
    }
}
