//! Per-index table names and their DDL.
//!
//! Each index has ten tables: `cs_<name>_files` (one row per stored version of a path),
//! `cs_<name>_texts` (each distinct chunk text once, with its vector, keyword vector and
//! symbols; see `store::texts`), `cs_<name>_chunks` (each chunk's place: its stored file, its
//! ordinal and ranges, its text), `cs_<name>_terms`, the code graph's `cs_<name>_defs` and
//! `cs_<name>_text_refs` (per text), `cs_<name>_refs` (the references on no chunk's lines) and
//! `cs_<name>_imports` (per file), and the snapshots' `cs_<name>_snapshots` and
//! `cs_<name>_members` (see `store::snapshots`).
//! Names are built only from validated index names ([`crate::config::validate_index_name`]), so
//! they are safe SQL identifiers; they are still quoted.

use crate::config::validate_index_name;
use crate::store::{MAX_TERM_FREQUENCY, StoreError};

pub use super::upgrades::INDEX_MIGRATIONS;

/// The per-index schema version that [`Tables::create_sql`] produces.
pub const INDEX_SCHEMA_VERSION: i32 = 12;

/// The row of the terms table that holds the total keyword length of all chunks (BM25's
/// average document length); analysed terms never contain `#`. The row with the empty term
/// counts the chunks.
pub const LENGTH_TERM: &str = "#length";

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
pub fn keywords_in_row(table: &str) -> String {
    format!("ALTER TABLE {table} ALTER COLUMN keywords SET STORAGE MAIN;")
}

/// SQL for the absolute line of a stored relative line `relative` (a wrapping `u32` offset,
/// see `store::texts`) in a chunk starting at `line_start`. A stored value outside `u32` is
/// damage: it is passed on as it is, for the reader to report.
pub fn placed_line(relative: &str, line_start: &str) -> String {
    format!(
        "CASE WHEN {relative} BETWEEN 0 AND 4294967295 THEN ({relative} + {line_start}) % 4294967296 ELSE {relative} END"
    )
}

/// The SQL names belonging to one index.
#[derive(Debug, Clone)]
pub struct Tables {
    /// `"cs_<name>_files"`.
    pub files: String,
    /// `"cs_<name>_texts"`: each distinct chunk text once (keyed by `store::texts::text_key`).
    pub texts: String,
    /// `"cs_<name>_chunks"`: one row per chunk of each stored file (its place), pointing at
    /// its text; every id the store hands out is one of these.
    pub chunks: String,
    /// `"cs_<name>_terms"`: document frequency of each keyword term, for IDF weighting in
    /// keyword search; the row with the empty term counts the chunks, [`LENGTH_TERM`] sums
    /// their lengths. Chunks, not texts: a text held twice counts twice, as in a clean index.
    pub terms: String,
    /// `"cs_<name>_defs"`: one row per symbol of each text (lines relative to its chunk).
    pub defs: String,
    /// `"cs_<name>_text_refs"`: the references on each text's lines (see
    /// `store::texts::refs_by_chunk`), lines relative to its chunk.
    pub text_refs: String,
    /// `"cs_<name>_refs"`: the references of each file on no chunk's lines.
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
            texts: format!("\"{prefix}_texts\""),
            chunks: format!("\"{prefix}_chunks\""),
            terms: format!("\"{prefix}_terms\""),
            defs: format!("\"{prefix}_defs\""),
            text_refs: format!("\"{prefix}_text_refs\""),
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

    /// Every table of the index, quoted, those referred to after those referring to them.
    fn quoted(&self) -> [&String; 10] {
        [
            &self.members,
            &self.snapshots,
            &self.chunks,
            &self.defs,
            &self.text_refs,
            &self.texts,
            &self.refs,
            &self.imports,
            &self.files,
            &self.terms,
        ]
    }

    /// Every table of the index, unquoted (for sizes).
    pub fn all(&self) -> Vec<String> {
        self.quoted().iter().map(|q| q.trim_matches('"').to_string()).collect()
    }

    /// An index-object name with this suffix, quoted (`"cs_x_c_kw"`).
    pub fn object(&self, suffix: &str) -> String {
        format!("\"{}_{suffix}\"", self.prefix)
    }

    /// The DDL creating this index's tables at [`INDEX_SCHEMA_VERSION`] (idempotent). Columns
    /// come in the order migrations leave them (`ALTER TABLE` adds at the end), so a created
    /// index and a migrated one have the same tables.
    pub fn create_sql(&self) -> String {
        let Tables { files, chunks, terms, refs, imports, .. } = self;
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
            {texts}
            {texts_indexes}
            CREATE TABLE IF NOT EXISTS {chunks} (
                id                bigserial PRIMARY KEY,
                path              text NOT NULL,
                ordinal           integer NOT NULL,
                byte_start        integer NOT NULL,
                byte_end          integer NOT NULL,
                line_start        integer NOT NULL,
                line_end          integer NOT NULL,
                file_id           bigint NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                text_id           bigint NOT NULL REFERENCES {texts_table}(id)
            );
            CREATE TABLE IF NOT EXISTS {terms} (
                term  text PRIMARY KEY,
                df    bigint NOT NULL
            );
            CREATE INDEX IF NOT EXISTS {path_idx} ON {chunks} (path);
            {places}
            {graph}
            CREATE INDEX IF NOT EXISTS {r_file} ON {refs} (file_id);
            CREATE INDEX IF NOT EXISTS {i_file} ON {imports} (file_id);
            {snapshots}
            "#,
            texts = self.texts_sql(),
            texts_indexes = self.texts_indexes_sql(),
            texts_table = self.texts,
            path_idx = self.object("c_path"),
            places = self.places_sql(),
            graph = self.graph_sql(),
            r_file = self.object("r_file"),
            i_file = self.object("i_file"),
            snapshots = self.snapshots_sql(),
        )
    }

    /// The DDL of the texts table (idempotent); its indexes are [`Self::texts_indexes_sql`].
    pub fn texts_sql(&self) -> String {
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {texts} (
                id                bigserial PRIMARY KEY,
                key               bytea NOT NULL UNIQUE,
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
            {keywords_in_row}
            "#,
            texts = self.texts,
            keywords_in_row = keywords_in_row(&self.texts),
        )
    }

    /// The indexes of the texts (idempotent): keyword and symbol lookups (GIN), vectors
    /// reused by embed hash, the texts awaiting a vector. The HNSW index comes with the vector
    /// dimension ([`Self::vector_sql`]).
    pub fn texts_indexes_sql(&self) -> String {
        format!(
            "CREATE INDEX IF NOT EXISTS {kw_idx} ON {texts} USING gin (keywords);
             CREATE INDEX IF NOT EXISTS {hash_idx} ON {texts} (embed_hash);
             CREATE INDEX IF NOT EXISTS {pending_idx} ON {texts} (id) WHERE embedding IS NULL;
             CREATE INDEX IF NOT EXISTS {symbol_idx} ON {texts} USING gin (symbol_keys);",
            texts = self.texts,
            kw_idx = self.object("t_kw"),
            hash_idx = self.object("t_hash"),
            pending_idx = self.object("t_pending"),
            symbol_idx = self.object("t_sym"),
        )
    }

    /// The indexes from a chunk to its stored file and to its text (idempotent): reads in a
    /// snapshot, and the places of a text (for reads, and to know when nothing holds it).
    pub fn places_sql(&self) -> String {
        format!(
            "CREATE INDEX IF NOT EXISTS {c_file} ON {chunks} (file_id);
             CREATE INDEX IF NOT EXISTS {c_text} ON {chunks} (text_id);",
            chunks = self.chunks,
            c_file = self.object("c_file"),
            c_text = self.object("c_text"),
        )
    }

    /// The DDL of the code graph's tables (idempotent): definitions of each text with
    /// lowercase lookup keys and lines relative to the chunk (a wrapping `u32` offset, as
    /// `store::texts` keeps them), and the references on its lines ([`Self::text_refs_sql`]),
    /// going with their text; the references on no chunk's lines by name and by caller,
    /// imports by file and by target, going with their stored file (foreign-key cascades).
    pub fn graph_sql(&self) -> String {
        let Tables { files, texts, defs, refs, imports, .. } = self;
        format!(
            r#"
            {text_refs}
            CREATE TABLE IF NOT EXISTS {defs} (
                kind            text NOT NULL,
                name            text NOT NULL,
                qualified_name  text NOT NULL,
                signature       text NOT NULL,
                parent          text,
                line_start      bigint NOT NULL,
                line_end        bigint NOT NULL,
                params          jsonb NOT NULL DEFAULT '[]'::jsonb,
                bases           jsonb NOT NULL DEFAULT '[]'::jsonb,
                name_key        text NOT NULL,
                qualified_key   text NOT NULL,
                text_id         bigint NOT NULL REFERENCES {texts}(id) ON DELETE CASCADE
            );
            CREATE INDEX IF NOT EXISTS {d_name} ON {defs} (name_key);
            CREATE INDEX IF NOT EXISTS {d_qual} ON {defs} (qualified_key);
            CREATE INDEX IF NOT EXISTS {d_text} ON {defs} (text_id);
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
            text_refs = self.text_refs_sql(),
            d_name = self.object("d_name"),
            d_qual = self.object("d_qual"),
            d_text = self.object("d_text"),
            r_name = self.object("r_name"),
            r_caller = self.object("r_caller"),
            i_path = self.object("i_path"),
            i_target = self.object("i_target"),
        )
    }

    /// The DDL of the references on each text's lines (idempotent; the texts table must
    /// exist), read by name and by the text's places. A line is relative to the chunk's first
    /// (never above it: a reference belongs to the chunk whose lines hold it), and `ordinal`
    /// is the reference's place among the text's, so those on one line read in file order.
    pub fn text_refs_sql(&self) -> String {
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {text_refs} (
                text_id    bigint NOT NULL REFERENCES {texts}(id) ON DELETE CASCADE,
                line       integer NOT NULL,
                ordinal    integer NOT NULL,
                kind       text NOT NULL,
                name       text NOT NULL,
                qualifier  text,
                caller     text
            );
            CREATE INDEX IF NOT EXISTS {tr_name} ON {text_refs} (name);
            CREATE INDEX IF NOT EXISTS {tr_text} ON {text_refs} (text_id);
            "#,
            text_refs = self.text_refs,
            texts = self.texts,
            tr_name = self.object("tr_name"),
            tr_text = self.object("tr_text"),
        )
    }

    /// The DDL of the snapshots and what each holds (idempotent; the files table must exist).
    /// At most one snapshot is current (a unique index on the flag, where set).
    pub fn snapshots_sql(&self) -> String {
        let Tables { files, snapshots, members, .. } = self;
        format!(
            r#"
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
            s_current = self.object("s_current"),
            m_file = self.object("m_file"),
        )
    }

    /// The DDL that fixes the vector dimension and builds the HNSW cosine index on the texts.
    pub fn vector_sql(&self, dimension: u32) -> String {
        format!(
            "ALTER TABLE {texts} ALTER COLUMN embedding TYPE vector({dimension});
             CREATE INDEX IF NOT EXISTS {hnsw} ON {texts} USING hnsw (embedding vector_cosine_ops);",
            texts = self.texts,
            hnsw = self.object("t_hnsw"),
        )
    }

    /// The DDL that drops this index's tables.
    pub fn drop_sql(&self) -> String {
        self.quoted().iter().map(|t| format!("DROP TABLE IF EXISTS {t} CASCADE;")).collect::<Vec<_>>().join(" ")
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
            t.texts.clone(),
            t.text_refs.clone(),
            t.chunks.clone(),
            t.terms.clone(),
            t.snapshots.clone(),
            t.members.clone(),
            t.object("t_pending"),
            t.object("t_hnsw"),
            t.object("s_current"),
        ] {
            assert!(ident.trim_matches('"').len() <= 63, "{ident} is too long for PostgreSQL");
        }
    }
}
