//! Per-index table names and their DDL.
//!
//! Each index has six tables: `cs_<name>_files`, `cs_<name>_chunks`, `cs_<name>_terms`, and the
//! code graph's `cs_<name>_defs`, `cs_<name>_refs` and `cs_<name>_imports`.
//! Names are built only from validated index names ([`crate::config::validate_index_name`]), so
//! they are safe SQL identifiers; they are still quoted.

use crate::config::validate_index_name;
use crate::store::{MAX_TERM_FREQUENCY, StoreError};

/// The per-index schema version that [`Tables::create_sql`] produces.
pub const INDEX_SCHEMA_VERSION: i32 = 8;

/// The row of the terms table that holds the total keyword length of all chunks (BM25's
/// average document length); analysed terms never contain `#`. The row with the empty term
/// counts the chunks.
pub const LENGTH_TERM: &str = "#length";

/// One upgrade of per-index tables: the version it reaches, what it does, its SQL.
pub type IndexMigration = (i32, &'static str, fn(&Tables) -> String);

/// Upgrades of per-index tables, oldest first. Like the global migrations they only add,
/// and are idempotent; the one exception deletes term rows that mean nothing (a frequency of
/// zero), which no schema object depends on.
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
    (8, "the code graph: definitions, references and imports of each file", Tables::graph_sql),
];

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
            prefix,
        })
    }

    /// An index-object name with this suffix, quoted (`"cs_x_c_kw"`).
    pub fn object(&self, suffix: &str) -> String {
        format!("\"{}_{suffix}\"", self.prefix)
    }

    /// The DDL creating this index's tables at [`INDEX_SCHEMA_VERSION`] (idempotent).
    pub fn create_sql(&self) -> String {
        let Tables { files, chunks, terms, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {files} (
                path          text PRIMARY KEY,
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
                chunking      text
            );
            CREATE TABLE IF NOT EXISTS {chunks} (
                id                bigserial PRIMARY KEY,
                path              text NOT NULL REFERENCES {files}(path) ON DELETE CASCADE,
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
                keyword_length    integer
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
            "#,
            graph = self.graph_sql(),
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
    /// with its file (a foreign-key cascade).
    pub fn graph_sql(&self) -> String {
        let Tables { files, defs, refs, imports, .. } = self;
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
            d_path = self.object("d_path"),
            d_name = self.object("d_name"),
            d_qual = self.object("d_qual"),
            r_name = self.object("r_name"),
            r_caller = self.object("r_caller"),
            i_path = self.object("i_path"),
            i_target = self.object("i_target"),
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
        [&self.chunks, &self.defs, &self.refs, &self.imports, &self.files, &self.terms]
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
        for ident in [t.files.clone(), t.chunks.clone(), t.terms.clone(), t.object("c_pending"), t.object("c_hnsw")] {
            assert!(ident.trim_matches('"').len() <= 63, "{ident} is too long for PostgreSQL");
        }
    }
}
