//! What only the PostgreSQL backend has: pgvector, concurrent migrations, connection errors,
//! prepared statements, what its own tables hold after index runs and after an upgrade from an
//! older schema. Behaviour both backends promise is in `store_contract`; these tests alone (with
//! `store_contract`, `first_run` and the end-to-end set) read PostgreSQL with SQL.

use cocosearch::chunk::{RefKind, Reference, SymbolKind};
use cocosearch::config::{BackendSetting, DatabaseSettings, Origin};
use cocosearch::store::SnapshotCounts;
use cocosearch::store::postgres::PgStore;
use cocosearch::store::{
    At, Backend, DefQuery, FileRecord, ImportQuery, KeywordQuery, KeywordTerm, RefQuery, SearchFilter, SnapshotOrigin,
    SnapshotSpec, Store, StoreError, VectorAccuracy, VectorSupport, keyword_length,
};

use crate::cstest;
use crate::index_cli::{chunk_snapshot, chunky_project, index_json, term_edits, terms_project};
use crate::store_contract::records::{ChunkExt, chunk, expected_terms, file, index_with_test_model};
use crate::support::{TestCtx, all_chunks, run};

fn settings(url: &str) -> DatabaseSettings {
    DatabaseSettings {
        backend: BackendSetting::Postgres,
        url: url.to_string(),
        path: None,
        pool_size: 2,
        connect_timeout: 3,
        url_origin: Origin::Configured,
    }
}

fn store(t: &TestCtx) -> PgStore {
    PgStore::connect(&settings(&t.db_url())).expect("connect to the test database")
}

cstest!(pgvector_column_orders_by_cosine_distance, postgres, |t| {
    let store = store(&t);
    store.migrate().expect("migrate");
    let mut sql = t.sql();
    sql.batch_execute("CREATE TABLE probe (id int PRIMARY KEY, embedding vector(3))").expect("create vector column");
    for (id, v) in [(1, [1.0f32, 0.0, 0.0]), (2, [0.0, 1.0, 0.0]), (3, [0.7, 0.7, 0.0])] {
        sql.execute("INSERT INTO probe VALUES ($1, $2)", &[&id, &pgvector::Vector::from(v.to_vec())])
            .expect("insert vector");
    }
    let query = pgvector::Vector::from(vec![1.0f32, 0.1, 0.0]);
    let rows = sql
        .query("SELECT id, embedding <=> $1 AS d FROM probe ORDER BY embedding <=> $1", &[&query])
        .expect("order by <=>");
    let ids: Vec<i32> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(ids, vec![1, 3, 2]);
    let nearest: f64 = rows[0].get(1);
    assert!(nearest < 0.01, "cosine distance of near-parallel vectors is {nearest}");
});

cstest!(migrations_are_recorded_with_the_extension, postgres, |t| {
    // Concurrent and repeated migrations are contract tests; here, how PostgreSQL records them.
    store(&t).migrate().expect("migrate");
    let mut sql = t.sql();
    let versions: Vec<i32> = sql
        .query("SELECT version FROM cocosearch_schema_migrations ORDER BY version", &[])
        .expect("read versions")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(versions, vec![1, 2, 3]);
    let ext: String = sql
        .query_one("SELECT extversion FROM pg_extension WHERE extname = 'vector'", &[])
        .expect("vector installed")
        .get(0);
    assert!(ext.starts_with("0."), "pgvector version {ext}");
});

cstest!(health_reports_server_and_extension, postgres, |t| {
    let store = store(&t);
    let before = store.health().expect("health");
    assert!(before.engine.starts_with("PostgreSQL 16"), "{before:?}");
    assert!(matches!(before.vectors, VectorSupport::OnFirstIndex(_)), "{before:?}");
    store.migrate().expect("migrate");
    assert!(matches!(store.health().expect("health").vectors, VectorSupport::Ready(_)));
});

cstest!(connection_errors_say_what_to_do, postgres, |t| {
    // A port nobody listens on: refused at once, with the fix and no password.
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port();
    let url = format!("postgresql://user:hunter2@127.0.0.1:{port}/db");
    let err = PgStore::connect(&settings(&url)).err().expect("refused");
    let text = err.to_string();
    assert!(matches!(err, StoreError::Unreachable { .. }), "{text}");
    assert!(text.contains("connection refused") && text.contains("docker compose up -d"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");

    // A database that does not exist on a live server.
    let missing = crate::support::with_database(&crate::support::services().admin_url, "no_such_db_here");
    let err = PgStore::connect(&settings(&missing)).err().expect("no database");
    assert!(matches!(err, StoreError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains("createdb no_such_db_here"), "{err}");
    drop(t);
});

cstest!(any_command_upgrades_an_older_schema, postgres, |t| {
    store(&t).migrate().expect("migrate");
    // Roll the database back to schema version 1, as an older cocosearch left it.
    t.sql()
        .batch_execute(
            "ALTER TABLE cocosearch_indexes DROP COLUMN context_tokens;
             DROP TABLE cocosearch_task_links, cocosearch_task_history, cocosearch_tasks;
             DELETE FROM cocosearch_schema_migrations WHERE version > 1;",
        )
        .expect("downgrade");
    let out = crate::support::run(t.cmd_db(), &["list", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let mut sql = t.sql();
    let version: i32 =
        sql.query_one("SELECT max(version) FROM cocosearch_schema_migrations", &[]).expect("version").get(0);
    assert_eq!(version, 3);
    let has_tasks: bool =
        sql.query_one("SELECT to_regclass('cocosearch_tasks') IS NOT NULL", &[]).expect("tasks table").get(0);
    assert!(has_tasks, "the tasks' tables are created by the upgrade");
    let has_column: bool = sql
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'cocosearch_indexes' AND column_name = 'context_tokens')",
            &[],
        )
        .expect("column")
        .get(0);
    assert!(has_column);
});

cstest!(an_index_from_an_older_schema_keeps_its_data, postgres, |t| {
    let store = t.store(Backend::Postgres);
    index_with_test_model(&*store, "old", t.path());
    let files = vec![
        file("a.py", vec![chunk("def alpha(beta):\n    return beta + beta").vector(&[1.0, 0.0, 0.0])]),
        file("many.txt", vec![chunk("many").keywords(&format!("{} tail", "word ".repeat(300)))]),
    ];
    store.writer("old").expect("writer").replace_files(&files).expect("write");
    let before = all_chunks(store.as_ref(), "old");
    // Roll the index tables back to per-index schema 4, as an older cocosearch left them: no
    // keyword lengths recorded, so version 5 must derive them from the keyword vectors.
    downgrade_to_v8(&t, "old");
    t.sql()
        .batch_execute(
            "ALTER TABLE cs_old_chunks DROP COLUMN keyword_length;
             DROP TABLE cs_old_defs, cs_old_refs, cs_old_imports;
             DELETE FROM cs_old_terms WHERE term = '#length';
             ALTER TABLE cs_old_terms ALTER COLUMN df TYPE integer;
             UPDATE cocosearch_indexes SET schema_version = 4 WHERE name = 'old';",
        )
        .expect("downgrade");
    store.migrate().expect("upgrade");
    let version: i32 = t
        .sql()
        .query_one("SELECT schema_version FROM cocosearch_indexes WHERE name = 'old'", &[])
        .expect("version")
        .get(0);
    assert_eq!(version, 12);
    assert_eq!(all_chunks(store.as_ref(), "old"), before, "the chunks survive the upgrade");
    // Version 10 gives each stored file its keyword length, the sum of its chunks' (which
    // version 7 derived from the keyword vectors, into the total length).
    let lengths = t
        .sql()
        .query_one(
            "SELECT (SELECT sum(keyword_length) FROM cs_old_files)::int8,
                    (SELECT df FROM cs_old_terms WHERE term = '#length')::int8",
            &[],
        )
        .expect("lengths");
    let (files_total, chunks_total): (i64, i64) = (lengths.get(0), lengths.get(1));
    assert!(files_total > 255 && files_total == chunks_total, "{files_total} against {chunks_total}");
    // Version 8 adds the graph's tables; the files written before have no rows there until
    // they are indexed again (their chunking key records no graph version, so the next run
    // reads them again).
    let defs = store
        .reader("old")
        .expect("reader")
        .definitions(&DefQuery { limit: usize::MAX, ..DefQuery::default() })
        .expect("graph tables");
    assert!(defs.is_empty());
    assert!(store.reader("old").expect("reader").imports(&ImportQuery::default()).expect("imports").is_empty());
    let stats = store.reader("old").expect("reader").term_stats(&["word".into(), "beta".into()]).expect("stats");
    let expected = expected_terms(&files);
    assert_eq!((stats.chunks, stats.total_length), (expected.chunks, expected.total_length), "{stats:?}");
    let query =
        KeywordQuery { terms: vec![KeywordTerm::Word("word".into())], select: vec![vec![0]], max_candidates: None };
    let found =
        store.reader("old").expect("reader").keyword_candidates(&query, &SearchFilter::default()).expect("keywords");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].length, keyword_length(&files[1].chunks[0].keywords), "lengths derived from positions");
    assert_eq!(found[0].frequencies, vec![255]);
});

cstest!(storage_bytes_are_the_size_of_the_index_tables, postgres, |t| {
    t.write("a.py", "def checksum(data):\n    return sum(data)\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed"]).code, 0);
    let name = t.index_name();
    let counts = store(&t).reader(&name).expect("reader").index_counts().expect("counts");
    let tables: Vec<String> =
        ["files", "texts", "chunks", "terms", "defs", "text_refs", "refs", "imports", "snapshots", "members"]
            .iter()
            .map(|k| format!("cs_{name}_{k}"))
            .collect();
    let expected: i64 = t
        .sql()
        .query_one("SELECT sum(pg_total_relation_size(c::regclass))::int8 FROM unnest($1::text[]) c", &[&tables])
        .expect("relation sizes")
        .get(0);
    assert!(expected > 0);
    assert_eq!(counts.storage_bytes, expected as u64);
});

cstest!(prepared_statements_survive_an_index_made_again, postgres, |t| {
    // One connection, so the second round of queries reuses the statements of the first.
    let store = PgStore::connect(&DatabaseSettings { pool_size: 1, ..settings(&t.db_url()) }).expect("connect");
    let query =
        KeywordQuery { terms: vec![KeywordTerm::Word("checksum".into())], select: vec![vec![0]], max_candidates: None };
    let found = |store: &PgStore| -> Vec<String> {
        let hits = store
            .reader("again")
            .expect("reader")
            .keyword_candidates(&query, &SearchFilter::default())
            .expect("keyword search");
        let ids: Vec<i64> = hits.iter().map(|h| h.id).collect();
        let chunks = store.reader("again").expect("reader").chunks(&ids).expect("chunks");
        let paths: Vec<String> = chunks.iter().map(|c| c.path.clone()).collect();
        let states = store.reader("again").expect("reader").file_states(Some(&paths)).expect("file states");
        assert_eq!(states.len(), paths.len(), "{states:?}");
        paths
    };
    t.write("first.py", "def checksum(data):\n    return sum(data)\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed", "--index", "again"]).code, 0);
    assert_eq!(found(&store), vec!["first.py"]);

    // Dropped and made again under the same name: new tables behind the same statements.
    let lock = store.writer("again").expect("lock");
    assert!(lock.drop_index().expect("drop"));
    drop(lock);
    std::fs::remove_file(t.path().join("first.py")).expect("remove");
    t.write("second.py", "def checksum(blob):\n    return hash(blob)\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed", "--index", "again"]).code, 0);
    assert_eq!(found(&store), vec!["second.py"]);
});

/// The columns schema 11 moved from the chunks to the texts, with their types at schema 10.
const TEXT_COLUMNS: [(&str, &str); 18] = [
    ("language", "text"),
    ("content", "text"),
    ("symbol_type", "text"),
    ("symbol_name", "text"),
    ("qualified_name", "text"),
    ("symbol_signature", "text"),
    ("symbol_parent", "text"),
    ("symbols", "text[] NOT NULL DEFAULT '{}'"),
    ("symbol_keys", "text[] NOT NULL DEFAULT '{}'"),
    ("symbol_kinds", "text[] NOT NULL DEFAULT '{}'"),
    ("symbol_details", "jsonb NOT NULL DEFAULT '[]'::jsonb"),
    ("enclosing", "text"),
    ("context", "text NOT NULL DEFAULT ''"),
    ("parse_status", "text"),
    ("embed_hash", "bytea"),
    ("embedding", "vector"),
    ("keywords", "tsvector"),
    ("keyword_length", "integer"),
];

/// Turns the tables of index `name` (schema 12) back into schema 10's: each chunk holding its
/// own text, symbols and definitions at absolute lines, definitions and references per file.
/// (A text held by several chunks keeps its definitions at one of them; the tests downgrade
/// indexes without.)
fn downgrade_to_v10(t: &TestCtx, name: &str) {
    downgrade_to_v11(t, name);
    let (chunks, texts, defs) = (format!("cs_{name}_chunks"), format!("cs_{name}_texts"), format!("cs_{name}_defs"));
    let add: Vec<String> = TEXT_COLUMNS.iter().map(|(c, ty)| format!("ADD COLUMN {c} {ty}")).collect();
    let absolute = |field: &str| {
        format!(
            "CASE WHEN jsonb_typeof(s->'{field}') = 'number'
                  THEN to_jsonb(((s->>'{field}')::int8 + c.line_start) % 4294967296) ELSE s->'{field}' END"
        )
    };
    let set: Vec<String> = TEXT_COLUMNS
        .iter()
        .map(|(col, _)| match *col {
            "symbol_details" => format!(
                "symbol_details = (SELECT COALESCE(jsonb_agg(s || jsonb_build_object('start_line', {}, 'end_line', {})
                                                   ORDER BY n), '[]'::jsonb)
                                   FROM jsonb_array_elements(x.symbol_details) WITH ORDINALITY AS e(s, n))",
                absolute("start_line"),
                absolute("end_line")
            ),
            _ => format!("{col} = x.{col}"),
        })
        .collect();
    let sql = format!(
        "ALTER TABLE {chunks} {add};
         UPDATE {chunks} c SET {set} FROM {texts} x WHERE x.id = c.text_id;
         ALTER TABLE {chunks} ALTER COLUMN language SET NOT NULL, ALTER COLUMN content SET NOT NULL,
             ALTER COLUMN parse_status SET NOT NULL, ALTER COLUMN embed_hash SET NOT NULL,
             ALTER COLUMN keywords SET NOT NULL, ALTER COLUMN keywords SET STORAGE MAIN;
         DO $dim$ DECLARE dimension int; BEGIN
             SELECT atttypmod INTO dimension FROM pg_attribute WHERE attrelid = '{texts}'::regclass AND attname = 'embedding';
             IF dimension > 0 THEN
                 EXECUTE format('ALTER TABLE {chunks} ALTER COLUMN embedding TYPE vector(%s)', dimension);
                 CREATE INDEX cs_{name}_c_hnsw ON {chunks} USING hnsw (embedding vector_cosine_ops);
             END IF;
         END $dim$;
         ALTER TABLE {defs} ADD COLUMN path text, ADD COLUMN file_id bigint REFERENCES cs_{name}_files(id) ON DELETE CASCADE;
         UPDATE {defs} d SET path = c.path, file_id = c.file_id,
             line_start = (d.line_start + c.line_start) % 4294967296, line_end = (d.line_end + c.line_start) % 4294967296
             FROM {chunks} c WHERE c.text_id = d.text_id;
         ALTER TABLE {defs} ALTER COLUMN line_start TYPE integer, ALTER COLUMN line_end TYPE integer,
             ALTER COLUMN path SET NOT NULL, ALTER COLUMN file_id SET NOT NULL, DROP COLUMN text_id;
         ALTER TABLE {chunks} DROP COLUMN text_id;
         DROP TABLE {texts};
         CREATE INDEX cs_{name}_c_kw ON {chunks} USING gin (keywords);
         CREATE INDEX cs_{name}_c_hash ON {chunks} (embed_hash);
         CREATE INDEX cs_{name}_c_pending ON {chunks} (id) WHERE embedding IS NULL;
         CREATE INDEX cs_{name}_c_sym ON {chunks} USING gin (symbol_keys);
         CREATE INDEX cs_{name}_d_path ON {defs} (path, line_start);
         CREATE INDEX cs_{name}_d_file ON {defs} (file_id);
         UPDATE cocosearch_indexes SET schema_version = 10 WHERE name = '{name}';",
        add = add.join(", "),
        set = set.join(", "),
    );
    t.sql().batch_execute(&sql).expect("downgrade to schema 10");
}

/// Turns the tables of index `name` (schema 12) back into schema 8's: files keyed by path, the
/// chunks and graph rows pointing at it by path, no snapshots, no keyword length per file.
fn downgrade_to_v8(t: &TestCtx, name: &str) {
    downgrade_to_v10(t, name);
    let mut sql = format!(
        "DROP TABLE cs_{name}_members, cs_{name}_snapshots;
         ALTER TABLE cs_{name}_files DROP COLUMN keyword_length;
         ALTER TABLE cs_{name}_files DROP CONSTRAINT cs_{name}_files_path_content_hash_key;\n"
    );
    for table in ["chunks", "defs", "refs", "imports"] {
        sql.push_str(&format!("ALTER TABLE cs_{name}_{table} DROP COLUMN file_id;\n"));
    }
    sql.push_str(&format!(
        "ALTER TABLE cs_{name}_files DROP COLUMN id; ALTER TABLE cs_{name}_files ADD PRIMARY KEY (path);\n"
    ));
    for table in ["chunks", "defs", "refs", "imports"] {
        sql.push_str(&format!(
            "ALTER TABLE cs_{name}_{table} ADD FOREIGN KEY (path) REFERENCES cs_{name}_files(path) ON DELETE CASCADE;\n"
        ));
    }
    sql.push_str(&format!("UPDATE cocosearch_indexes SET schema_version = 8 WHERE name = '{name}';"));
    t.sql().batch_execute(&sql).expect("downgrade to schema 8");
}

/// What PostgreSQL says of the tables of index `name`, with the name taken out: each table's
/// columns (type, not null, default, identity, storage), constraints and indexes.
fn table_shapes(t: &TestCtx, name: &str) -> Vec<String> {
    let mut shapes = Vec::new();
    let mut sql = t.sql();
    for table in ["files", "texts", "chunks", "terms", "defs", "text_refs", "refs", "imports", "snapshots", "members"] {
        let table = format!("cs_{name}_{table}");
        let rows = sql
            .query(
                "SELECT 'column ' || attname || ' ' || format_type(atttypid, atttypmod) || ' not null ' || attnotnull
                        || ' identity ' || attidentity::text || ' storage ' || attstorage::text
                        || ' default ' || COALESCE(pg_get_expr(d.adbin, d.adrelid), '-')
                 FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                 WHERE a.attrelid = $1::text::regclass AND a.attnum > 0 AND NOT a.attisdropped
                 UNION ALL
                 SELECT * FROM (SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
                                WHERE conrelid = $1::text::regclass ORDER BY conname) c
                 UNION ALL
                 SELECT * FROM (SELECT 'index ' || indexdef FROM pg_indexes WHERE tablename = $1::text ORDER BY indexname) i",
                &[&table],
            )
            .expect("describe table");
        shapes.push(format!("table {table}"));
        shapes.extend(rows.iter().map(|r| r.get::<_, String>(0)));
    }
    shapes.into_iter().map(|line| line.replace(&format!("cs_{name}_"), "cs_NAME_")).collect()
}

cstest!(an_index_upgraded_from_schema_8_is_one_made_at_9, postgres, |t| {
    let store = t.store(Backend::Postgres);
    let files = vec![
        file("a.py", vec![chunk("def alpha():\n    return 1").vector(&[1.0, 0.0, 0.0])]),
        file("b.py", vec![chunk("def beta():\n    return 2")]),
    ];
    for name in ["made", "old"] {
        index_with_test_model(&*store, name, t.path());
        store.writer(name).expect("writer").replace_files(&files).expect("write");
    }
    let before = all_chunks(store.as_ref(), "old");
    let states = store.reader("old").expect("reader").file_states(None).expect("states");
    downgrade_to_v8(&t, "old");
    t.sql()
        .batch_execute("UPDATE cocosearch_indexes SET git_commit = 'abc123', git_branch = 'main' WHERE name = 'old'")
        .expect("record git state");
    store.migrate().expect("upgrade");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"), "the same tables, keys and indexes");
    assert_eq!(all_chunks(store.as_ref(), "old"), before, "the chunks survive the upgrade");
    let reader = store.reader("old").expect("reader");
    assert_eq!(reader.file_states(None).expect("states"), states, "every file is in the one snapshot");
    let snapshots = reader.snapshots(SnapshotCounts::Counted).expect("snapshots");
    assert_eq!(snapshots.len(), 1, "{snapshots:?}");
    let one = &snapshots[0];
    assert_eq!(
        (one.name.as_str(), one.origin, one.current, one.files, one.shared_with_current),
        ("working-tree", SnapshotOrigin::WorkingTree, true, 2, 2)
    );
    assert_eq!((one.git_commit.as_deref(), one.git_branch.as_deref()), (Some("abc123"), Some("main")));
    assert_eq!(one.worktree.as_deref(), Some(t.path().to_string_lossy().as_ref()));
    // Writes after the upgrade go to that snapshot.
    store.writer("old").expect("writer").replace_files(&files[1..]).expect("write again");
    assert_eq!(store.reader("old").expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots")[0].files, 2);
    // Migration 9 leaves an index already at the new shape as it is.
    let made = store.reader("made").expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots");
    t.sql().batch_execute("UPDATE cocosearch_indexes SET schema_version = 8 WHERE name = 'made'").expect("pretend");
    store.migrate().expect("again");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"));
    assert_eq!(store.reader("made").expect("reader").snapshots(SnapshotCounts::Counted).expect("snapshots"), made);
});

cstest!(an_index_upgraded_from_schema_10_is_one_made_at_11, postgres, |t| {
    let store = t.store(Backend::Postgres);
    // A symbol starting above its chunk (as a decorator's line would), symbols without lines,
    // vectors and chunks without.
    let mut decorated =
        chunk("def alpha():\n    return 1").defines(SymbolKind::Function, "alpha").vector(&[1.0, 0.0, 0.0]);
    decorated.body.symbols[0].start_line = Some(0);
    let files = vec![
        file(
            "a.py",
            vec![
                chunk("import os"),
                decorated,
                chunk("def beta():\n    return 2").defines(SymbolKind::Function, "beta"),
            ],
        ),
        file("b.py", vec![chunk("class K:\n    pass").defines(SymbolKind::Class, "K").vector(&[0.0, 1.0, 0.0])]),
    ];
    for name in ["made", "old"] {
        index_with_test_model(&*store, name, t.path());
        store.writer(name).expect("writer").replace_files(&files).expect("write");
    }
    let all_defs = DefQuery { limit: usize::MAX, ..DefQuery::default() };
    let read = |name: &str| {
        let reader = store.reader(name).expect("reader");
        let near = reader.vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 10, VectorAccuracy::Exact);
        (all_chunks(store.as_ref(), name), reader.definitions(&all_defs).expect("definitions"), near.expect("vectors"))
    };
    let before = read("old");
    assert_eq!(before.1.iter().map(|d| d.symbol.start_line).collect::<Vec<_>>(), vec![Some(0), Some(6), Some(1)]);
    downgrade_to_v10(&t, "old");
    store.migrate().expect("upgrade");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"), "the same tables, keys and indexes");
    assert_eq!(read("old"), before, "chunks, definitions and vectors read as before");
    let counts = store.reader("old").expect("reader").index_counts().expect("counts");
    assert_eq!(
        (counts.chunks, counts.stored_texts, counts.pending_embeddings),
        (4, 4, 2),
        "each old chunk its own text"
    );
    // Written again at 11, the files' texts are stored under their keys and the old ones go.
    store.writer("old").expect("writer").replace_files(&files).expect("write again");
    assert_eq!(read("old").1, before.1);
    assert_eq!(store.reader("old").expect("reader").index_counts().expect("counts").stored_texts, 4);
    // Migration 11 leaves an index already at the new shape as it is.
    t.sql().batch_execute("UPDATE cocosearch_indexes SET schema_version = 10 WHERE name = 'made'").expect("pretend");
    store.migrate().expect("again");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"));
    assert_eq!(read("made").1, before.1);
});

/// Terms whose document frequency in the index's term table differs from a count over the
/// chunks' keyword vectors, and terms kept with a frequency of zero (or less).
fn term_drift(t: &TestCtx, name: &str) -> (Vec<(String, i64, i64)>, i64) {
    let terms = format!("cs_{name}_terms");
    // One row per chunk, with its text's keywords: a text held twice counts twice.
    let chunks = format!(
        "(SELECT x.keywords, x.keyword_length FROM cs_{name}_chunks c JOIN cs_{name}_texts x ON x.id = c.text_id) c"
    );
    let drift = t
        .sql()
        .query(
            &format!(
                "WITH truth AS (
                     SELECT w AS term, count(*)::int8 AS df FROM {chunks}, unnest(tsvector_to_array(keywords)) AS w GROUP BY w
                     UNION ALL SELECT '', count(*)::int8 FROM {chunks}
                     UNION ALL SELECT '#length', sum(keyword_length)::int8 FROM {chunks}
                 )
                 SELECT COALESCE(s.term, truth.term), COALESCE(s.df, 0)::int8, COALESCE(truth.df, 0)
                 FROM {terms} s FULL JOIN truth ON truth.term = s.term
                 WHERE s.df > 0 AND COALESCE(s.df, 0) IS DISTINCT FROM COALESCE(truth.df, 0)
                    OR s.df IS NULL AND truth.df > 0
                 ORDER BY 1 LIMIT 20"
            ),
            &[],
        )
        .expect("compare terms")
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    let zero: i64 =
        t.sql().query_one(&format!("SELECT count(*) FROM {terms} WHERE df <= 0"), &[]).expect("count").get(0);
    (drift, zero)
}

// The term table against the chunks' own keyword vectors, row by row: no row left at zero
// (what the `Store` API cannot show: it answers only for terms some chunk holds).
cstest!(term_rows_stay_exact_through_edits_and_deletions, postgres, |t| {
    terms_project(&t);
    let name = t.index_name();
    index_json(&t, &["--no-embed"]);
    for (i, step) in term_edits().iter().enumerate() {
        step(&t);
        index_json(&t, &["--no-embed"]);
        let (drift, zero) = term_drift(&t, &name);
        assert!(drift.is_empty(), "after step {i}: df differs from the chunks' keywords: {drift:?}");
        assert_eq!(zero, 0, "after step {i}: terms with df 0 are deleted");
    }
});

cstest!(files_of_an_older_index_are_chunked_again_without_new_embeddings, postgres, |t| {
    chunky_project(&t);
    let name = t.index_name();
    index_json(&t, &[]);
    let before = chunk_snapshot(&t, &name);
    // As an index made before the chunking parameters were recorded: no column, version 5.
    t.sql()
        .batch_execute(&format!(
            "ALTER TABLE cs_{name}_files DROP COLUMN chunking;
             UPDATE cocosearch_indexes SET schema_version = 5 WHERE name = '{name}';"
        ))
        .expect("make the index look old");
    let json = index_json(&t, &[]);
    assert_eq!(json["files"]["rechunked"], 3, "{json}");
    assert_eq!(json["embeddings"]["requests"], 0, "the same chunks keep their vectors: {json}");
    assert_eq!(chunk_snapshot(&t, &name), before);
    let states = t.db_store().reader(&name).expect("reader").file_states(None).expect("file states");
    assert!(states.values().all(|s| s.chunking.is_some()), "every file records how it was cut: {states:?}");
    let again = index_json(&t, &[]);
    assert_eq!(again["files"]["unchanged"], 3, "{again}");
});

// The references on a chunk's lines, stored with its text (`cs_<name>_text_refs`, schema 12):
// what the tables hold as texts are shared, and the upgrade from schema 11, where every
// reference was its file's.

fn call(name: &str, line: u32, caller: Option<&str>) -> Reference {
    Reference { kind: RefKind::Call, name: name.into(), qualifier: None, line, caller: caller.map(str::to_string) }
}

/// `m.py`: an optional one-line header, a class calling two names on one line, and the same
/// call twice (one text, two places); references on those chunks' lines and on the blank
/// lines between them (on no chunk's lines). Without the header, the chunks start at lines 1,
/// 5 and 7; the header moves them two lines down.
fn module(header: bool) -> FileRecord {
    let mut chunks = Vec::new();
    if header {
        chunks.push(chunk("import os"));
    }
    chunks.push(
        chunk("class Request(Base):\n    def send(self):\n        return log(helper())")
            .defines(SymbolKind::Class, "Request")
            .defines(SymbolKind::Method, "Request.send"),
    );
    chunks.push(chunk("helper()"));
    chunks.push(chunk("helper()"));
    let mut f = file("m.py", chunks);
    let at = |line: u32| if header { line + 2 } else { line };
    let inherit = Reference { kind: RefKind::Inherit, ..call("Base", at(1), Some("Request")) };
    // On line 3, in file order: not the order of their names.
    f.refs = vec![
        inherit,
        call("log", at(3), Some("Request.send")),
        call("helper", at(3), Some("Request.send")),
        call("helper", at(4), None),
        call("helper", at(5), None),
        call("helper", at(6), None),
        call("helper", at(7), None),
    ];
    f
}

/// A reference as `line kind name caller`.
fn show(r: &Reference) -> String {
    format!("{} {} {} {}", r.line, r.kind.as_str(), r.name, r.caller.as_deref().unwrap_or("-"))
}

/// Every reference of index `name` read at `at`.
fn references(store: &dyn Store, name: &str, at: At) -> Vec<String> {
    let names = ["Base", "log", "helper"].map(String::from).to_vec();
    let found = store
        .reader_at(name, at)
        .expect("reader")
        .references(&RefQuery { names, limit: usize::MAX, ..RefQuery::default() })
        .expect("references");
    found.iter().map(|r| format!("{} {}", r.path, show(&r.reference))).collect()
}

/// What `references` should read of `f`: its references as the file lists them.
fn listed(f: &FileRecord) -> Vec<String> {
    f.refs.iter().map(|r| format!("{} {}", f.path, show(r))).collect()
}

/// How many rows index `name`'s text references and file references hold.
fn rows(t: &TestCtx, name: &str) -> (i64, i64) {
    let row = t
        .sql()
        .query_one(
            &format!("SELECT (SELECT count(*) FROM cs_{name}_text_refs), (SELECT count(*) FROM cs_{name}_refs)"),
            &[],
        )
        .expect("count references");
    (row.get(0), row.get(1))
}

fn named(name: &str) -> SnapshotSpec {
    SnapshotSpec {
        name: name.into(),
        origin: SnapshotOrigin::Named,
        git_commit: None,
        git_branch: None,
        worktree: "/work/tree".into(),
    }
}

cstest!(references_on_a_chunk_are_stored_once_with_its_text, postgres, |t| {
    let store = t.store(Backend::Postgres);
    index_with_test_model(&*store, "x", t.path());
    let (v1, v2) = (module(false), module(true));
    let w = store.writer("x").expect("writer");
    let first = w.begin_snapshot(&named("v1")).expect("v1").id;
    w.replace_files(std::slice::from_ref(&v1)).expect("write v1");
    // Three on the class's lines and one on the call held twice; lines 4 and 6 are no chunk's.
    assert_eq!(rows(&t, "x"), (4, 2));
    assert_eq!(references(&*store, "x", At::Current), listed(&v1), "each text's at both its places");
    w.begin_snapshot(&named("v2")).expect("v2");
    w.replace_files(std::slice::from_ref(&v2)).expect("write v2");
    // The chunks moved down with their references are the same texts: only the file's own
    // references are stored again.
    assert_eq!(rows(&t, "x"), (4, 4));
    assert_eq!(references(&*store, "x", At::Snapshot(first)), listed(&v1));
    assert_eq!(references(&*store, "x", At::Current), listed(&v2));
    let by_caller = RefQuery { callers: vec![("m.py".into(), "Request.send".into())], ..RefQuery::default() };
    let found = store.reader("x").expect("reader").references(&RefQuery { limit: 9, ..by_caller }).expect("callers");
    let found: Vec<(u32, &str)> = found.iter().map(|r| (r.reference.line, r.reference.name.as_str())).collect();
    assert_eq!(found, [(5, "log"), (5, "helper")], "a caller's references in file order");
    // A reference moved on the same lines makes another text.
    let mut moved = v2.clone();
    moved.refs[2].line -= 1;
    moved.refs.swap(1, 2);
    moved.size += 1;
    moved.hash[0] ^= 1;
    w.replace_files(std::slice::from_ref(&moved)).expect("write the move");
    assert_eq!(references(&*store, "x", At::Current), listed(&moved));
    assert_eq!(rows(&t, "x").0, 7, "the class's text again, with its three references");
    // Texts and files nothing holds any more take their references with them.
    w.delete_snapshots(&[first]).expect("delete v1");
    assert_eq!(rows(&t, "x"), (4, 2));
    w.remove_files(&["m.py".to_string()]).expect("remove");
    assert_eq!(rows(&t, "x"), (0, 0));
});

/// Turns the tables of index `name` (schema 12) back into schema 11's: every reference its
/// file's, at its absolute line, and the texts that held some under a key no text written at
/// 12 has (as 11 keyed a text without its references).
fn downgrade_to_v11(t: &TestCtx, name: &str) {
    t.sql()
        .batch_execute(&format!(
            "INSERT INTO cs_{name}_refs (path, line, kind, name, qualifier, caller, file_id)
                 SELECT c.path, r.line + c.line_start, r.kind, r.name, r.qualifier, r.caller, c.file_id
                 FROM cs_{name}_text_refs r JOIN cs_{name}_chunks c ON c.text_id = r.text_id
                 ORDER BY c.file_id, r.line + c.line_start, r.ordinal;
             UPDATE cs_{name}_texts SET key = '\\x01'::bytea || key WHERE id IN (SELECT text_id FROM cs_{name}_text_refs);
             DROP TABLE cs_{name}_text_refs;
             UPDATE cocosearch_indexes SET schema_version = 11 WHERE name = '{name}';"
        ))
        .expect("downgrade to schema 11");
}

cstest!(an_index_upgraded_from_schema_11_is_one_made_at_12, postgres, |t| {
    let store = t.store(Backend::Postgres);
    let files = [module(false)];
    for name in ["made", "old"] {
        index_with_test_model(&*store, name, t.path());
        store.writer(name).expect("writer").replace_files(&files).expect("write");
    }
    downgrade_to_v11(&t, "old");
    let file_refs: i64 = t.sql().query_one("SELECT count(*) FROM cs_old_refs", &[]).expect("count").get(0);
    assert_eq!(file_refs, 7, "every reference its file's at schema 11");
    store.migrate().expect("upgrade");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"), "the same tables, keys and indexes");
    // The references stay their file's (the old texts hold none) and read as before.
    assert_eq!(rows(&t, "old"), (0, 7));
    assert_eq!(references(&*store, "old", At::Current), listed(&files[0]));
    // Written again at 12, those on the chunks' lines go with new texts.
    store.writer("old").expect("writer").replace_files(&files).expect("write again");
    assert_eq!(rows(&t, "old"), (4, 2));
    assert_eq!(references(&*store, "old", At::Current), listed(&files[0]));
    // Migration 12 leaves an index already at the new shape as it is.
    t.sql().batch_execute("UPDATE cocosearch_indexes SET schema_version = 11 WHERE name = 'made'").expect("pretend");
    store.migrate().expect("again");
    assert_eq!(table_shapes(&t, "old"), table_shapes(&t, "made"));
    assert_eq!((rows(&t, "made"), references(&*store, "made", At::Current)), ((4, 2), listed(&files[0])));
});
