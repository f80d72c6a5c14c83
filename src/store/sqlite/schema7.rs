//! The per-index schema as version 7 left it: the DDL migrations 2 to 7 create missing tables
//! with, frozen so that they still build what migration 8 (`migrate8`) starts from. Chunks
//! were one table with their texts, and definitions hung off files.

use super::schema::Tables;

impl Tables {
    /// Every table of schema 7 (idempotent).
    pub(crate) fn create_sql_v7(&self) -> String {
        [
            self.files_sql(),
            self.chunks_sql_v7(),
            self.keywords_sql(),
            self.graph_sql_v7(),
            self.packs_sql(),
            self.snapshots_sql(),
        ]
        .concat()
    }

    /// Schema 7's chunks: each with its text, vector and symbol keys.
    fn chunks_sql_v7(&self) -> String {
        let Tables { files, chunks, vectors, symbols, .. } = self;
        let prefix = self.prefix();
        format!(
            r#"
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
            CREATE TABLE IF NOT EXISTS {symbols} (
                key       TEXT NOT NULL,
                chunk_id  INTEGER NOT NULL REFERENCES {chunks}(id) ON DELETE CASCADE
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_s_key" ON {symbols} (key);
            CREATE INDEX IF NOT EXISTS "{prefix}_s_chunk" ON {symbols} (chunk_id);
            "#
        )
    }

    /// Schema 7's code graph: definitions of each file at their lines, and its references and
    /// imports.
    pub(crate) fn graph_sql_v7(&self) -> String {
        let Tables { files, defs, refs, .. } = self;
        let prefix = self.prefix();
        let file_graph = self.file_graph_sql(refs);
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
            {file_graph}
            "#
        )
    }
}
