//! The embedded store's per-index tables: their names and their DDL at the current schema
//! (`migrate` brings older stores there), and how times are stored.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::Connection;

use crate::config::validate_index_name;
use crate::store::StoreError;

/// The per-index schema version [`Tables::create_sql`] produces.
pub(crate) const INDEX_SCHEMA_VERSION: i64 = 8;

/// Whether `table` (quoted) has `column`.
pub(crate) fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2)",
        (table.trim_matches('"'), column),
        |r| r.get(0),
    )
}

/// The table names of one index. Names are built only from validated index names, so they
/// are safe identifiers; they are still quoted.
#[derive(Debug, Clone)]
pub(crate) struct Tables {
    /// `"cs_<name>_files"`.
    pub files: String,
    /// `"cs_<name>_chunks"`: a view of each chunk, its place joined to its text and file —
    /// what every read selects from.
    pub chunks: String,
    /// `"cs_<name>_places"`: where each chunk stands: its stored file, ordinal, byte and line
    /// ranges, and its text.
    pub places: String,
    /// `"cs_<name>_texts"`: each distinct chunk text once, with everything derived from it
    /// (see `store::texts`).
    pub texts: String,
    /// `"cs_<name>_vectors"`: one row per embedded text, kept narrow so vector search scans
    /// only vectors.
    pub vectors: String,
    /// `"cs_<name>_symbols"`: each symbol key of each text, for exact-name lookups.
    pub symbols: String,
    /// `"cs_<name>_fts"`: the FTS5 index of the texts' keyword text (contentless; rowid is
    /// the text's id).
    pub fts: String,
    /// `"cs_<name>_lists"`: the centroids of the vectors' inverted lists (see `ivf`).
    pub lists: String,
    /// `"cs_<name>_packs"`: the vectors of each inverted list in one row (see `packs`).
    pub packs: String,
    /// `"cs_<name>_terms"`: document frequencies, with the chunk count under the empty term
    /// and the total length under `#length`.
    pub terms: String,
    /// `"cs_<name>_defs"`: a view of each definition at its place: `text_defs` joined to the
    /// places of their texts.
    pub defs: String,
    /// `"cs_<name>_text_defs"`: one row per symbol of each text, lines relative to the
    /// text's first line, for the code graph.
    pub text_defs: String,
    /// `"cs_<name>_refs"`: a view of every reference at its place: `text_refs` placed with
    /// their texts' chunks, and `file_refs`.
    pub refs: String,
    /// `"cs_<name>_text_refs"`: the references on each text's lines, relative to its first.
    pub text_refs: String,
    /// `"cs_<name>_file_refs"`: the references of each file on no chunk's lines.
    pub file_refs: String,
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
            places: quoted("places"),
            texts: quoted("texts"),
            vectors: quoted("vectors"),
            symbols: quoted("symbols"),
            fts: quoted("fts"),
            lists: quoted("lists"),
            packs: quoted("packs"),
            terms: quoted("terms"),
            defs: quoted("defs"),
            text_defs: quoted("text_defs"),
            refs: quoted("refs"),
            text_refs: quoted("text_refs"),
            file_refs: quoted("file_refs"),
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
            "places",
            "texts",
            "vectors",
            "symbols",
            "lists",
            "packs",
            "terms",
            "text_defs",
            "text_refs",
            "file_refs",
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
        [
            self.files_sql(),
            self.texts_sql(),
            self.keywords_sql(),
            self.graph_sql(),
            self.packs_sql(),
            self.snapshots_sql(),
        ]
        .concat()
    }

    /// The DDL of the stored files (idempotent).
    pub(crate) fn files_sql(&self) -> String {
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
                keyword_length INTEGER NOT NULL DEFAULT 0,
                UNIQUE (path, content_hash)
            );
            "#,
            files = self.files
        )
    }

    /// The DDL of the chunk texts, their places, their vectors and symbol keys, and the view of
    /// each chunk reads select from (idempotent; see `store::texts`).
    pub(crate) fn texts_sql(&self) -> String {
        let Tables { files, chunks, places, texts, vectors, symbols, prefix, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {texts} (
                id                INTEGER PRIMARY KEY AUTOINCREMENT,
                key               BLOB NOT NULL UNIQUE,
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
            CREATE INDEX IF NOT EXISTS "{prefix}_x_hash" ON {texts} (embed_hash);
            CREATE TABLE IF NOT EXISTS {places} (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                file_id     INTEGER NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                text_id     INTEGER NOT NULL REFERENCES {texts}(id),
                ordinal     INTEGER NOT NULL,
                byte_start  INTEGER NOT NULL,
                byte_end    INTEGER NOT NULL,
                line_start  INTEGER NOT NULL,
                line_end    INTEGER NOT NULL
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_p_file" ON {places} (file_id);
            CREATE INDEX IF NOT EXISTS "{prefix}_p_text" ON {places} (text_id);
            CREATE VIEW IF NOT EXISTS {chunks} AS
                SELECT p.id AS id, p.file_id AS file_id, f.path AS path, p.ordinal AS ordinal,
                       p.byte_start AS byte_start, p.byte_end AS byte_end,
                       p.line_start AS line_start, p.line_end AS line_end, x.language AS language,
                       x.content AS content, x.symbol_type AS symbol_type, x.symbol_name AS symbol_name,
                       x.qualified_name AS qualified_name, x.symbol_signature AS symbol_signature,
                       x.symbol_parent AS symbol_parent, x.symbol_keys AS symbol_keys,
                       x.symbol_names AS symbol_names, x.symbol_kinds AS symbol_kinds,
                       x.symbol_details AS symbol_details, x.enclosing AS enclosing, x.context AS context,
                       x.parse_status AS parse_status, x.embed_hash AS embed_hash, x.keywords AS keywords,
                       x.keyword_length AS keyword_length, p.text_id AS text_id
                FROM {places} p JOIN {texts} x ON x.id = p.text_id JOIN {files} f ON f.id = p.file_id;
            CREATE TABLE IF NOT EXISTS {vectors} (
                id         INTEGER PRIMARY KEY REFERENCES {texts}(id) ON DELETE CASCADE,
                list       INTEGER,
                embedding  BLOB NOT NULL
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_v_list" ON {vectors} (list);
            CREATE TABLE IF NOT EXISTS {symbols} (
                key      TEXT NOT NULL,
                text_id  INTEGER NOT NULL REFERENCES {texts}(id) ON DELETE CASCADE
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_s_key" ON {symbols} (key);
            CREATE INDEX IF NOT EXISTS "{prefix}_s_text" ON {symbols} (text_id);
            "#
        )
    }

    /// The DDL of the keyword index, its term statistics and the vectors' list centroids
    /// (idempotent).
    pub(crate) fn keywords_sql(&self) -> String {
        let Tables { fts, lists, terms, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {lists} (
                list      INTEGER PRIMARY KEY,
                centroid  BLOB NOT NULL
            );
            CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5(
                keywords, content = '', contentless_delete = 1, tokenize = 'ascii'
            );
            CREATE TABLE IF NOT EXISTS {terms} (
                term  TEXT PRIMARY KEY,
                df    INTEGER NOT NULL
            ) WITHOUT ROWID;
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

    /// The DDL of the code graph (idempotent): each text's definitions (with lowercase lookup
    /// keys) and references, at lines relative to the text, the views placing them, and each
    /// file's imports and references on no chunk's lines.
    pub fn graph_sql(&self) -> String {
        let Tables { files, places, texts, defs, text_defs, refs, text_refs, file_refs, prefix, .. } = self;
        let file_graph = self.file_graph_sql(file_refs);
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {text_defs} (
                text_id         INTEGER NOT NULL REFERENCES {texts}(id) ON DELETE CASCADE,
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
            CREATE INDEX IF NOT EXISTS "{prefix}_t_text" ON {text_defs} (text_id);
            CREATE INDEX IF NOT EXISTS "{prefix}_t_name" ON {text_defs} (name_key);
            CREATE INDEX IF NOT EXISTS "{prefix}_t_qual" ON {text_defs} (qualified_key);
            CREATE VIEW IF NOT EXISTS {defs} AS
                SELECT p.file_id AS file_id, f.path AS path, d.kind AS kind, d.name AS name,
                       d.qualified_name AS qualified_name, d.signature AS signature, d.parent AS parent,
                       p.line_start + d.line_start AS line_start, p.line_start + d.line_end AS line_end,
                       d.params AS params, d.bases AS bases, d.name_key AS name_key,
                       d.qualified_key AS qualified_key
                FROM {text_defs} d JOIN {places} p ON p.text_id = d.text_id JOIN {files} f ON f.id = p.file_id;
            CREATE TABLE IF NOT EXISTS {text_refs} (
                text_id    INTEGER NOT NULL REFERENCES {texts}(id) ON DELETE CASCADE,
                line       INTEGER NOT NULL,
                kind       TEXT NOT NULL,
                name       TEXT NOT NULL,
                qualifier  TEXT,
                caller     TEXT
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_u_name" ON {text_refs} (name);
            CREATE INDEX IF NOT EXISTS "{prefix}_u_text" ON {text_refs} (text_id);
            {file_graph}
            CREATE VIEW IF NOT EXISTS {refs} AS
                SELECT p.file_id AS file_id, p.line_start + r.line AS line, r.rowid AS seq, r.kind AS kind,
                       r.name AS name, r.qualifier AS qualifier, r.caller AS caller
                FROM {text_refs} r JOIN {places} p ON p.text_id = r.text_id
                UNION ALL
                SELECT file_id, line, rowid, kind, name, qualifier, caller FROM {file_refs};
            "#
        )
    }

    /// The DDL of each file's references (in table `refs`) and imports (idempotent). Each row
    /// goes with its file (a foreign-key cascade).
    pub(crate) fn file_graph_sql(&self, refs: &str) -> String {
        let Tables { files, imports, prefix, .. } = self;
        format!(
            r#"
            CREATE TABLE IF NOT EXISTS {refs} (
                file_id    INTEGER NOT NULL REFERENCES {files}(id) ON DELETE CASCADE,
                line       INTEGER NOT NULL,
                kind       TEXT NOT NULL,
                name       TEXT NOT NULL,
                qualifier  TEXT,
                caller     TEXT
            );
            CREATE INDEX IF NOT EXISTS "{prefix}_r_name" ON {refs} (name);
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
        // The views first, then children: foreign keys point from vectors, symbols and
        // definitions to texts, and from places to texts and files.
        let views: String =
            [&self.chunks, &self.defs, &self.refs].iter().map(|v| format!("DROP VIEW IF EXISTS {v};\n")).collect();
        let tables = [
            &self.members,
            &self.snapshots,
            &self.fts,
            &self.symbols,
            &self.vectors,
            &self.text_defs,
            &self.text_refs,
            &self.places,
            &self.texts,
            &self.file_refs,
            &self.imports,
            &self.files,
            &self.terms,
            &self.lists,
            &self.packs,
        ]
        .iter()
        .map(|t| format!("DROP TABLE IF EXISTS {t};"))
        .collect::<Vec<_>>()
        .join("\n");
        views + &tables
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
