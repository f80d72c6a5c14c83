//! The storage foundation against the real PostgreSQL + pgvector server.

use cocosearch::config::DatabaseSettings;
use cocosearch::store::postgres::PgStore;
use cocosearch::store::{KeywordQuery, SearchFilter, Store, StoreError, VectorExtension, WeightedTerm};

use crate::cstest;
use crate::support::{TestCtx, run};

fn settings(url: &str) -> DatabaseSettings {
    DatabaseSettings { url: url.to_string(), pool_size: 2, connect_timeout: 3 }
}

fn store(t: &TestCtx) -> PgStore {
    PgStore::connect(&settings(&t.db_url())).expect("connect to the test database")
}

cstest!(pgvector_column_orders_by_cosine_distance, |t| {
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

cstest!(migrations_are_recorded_idempotent_and_concurrent, |t| {
    let url = t.db_url();
    // Several processes upgrading at once must serialise, not fail.
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            (0..4).map(|_| scope.spawn(|| PgStore::connect(&settings(&url)).and_then(|s| s.migrate()))).collect();
        for h in handles {
            h.join().expect("thread").expect("concurrent migrate");
        }
    });
    store(&t).migrate().expect("second migrate is a no-op");
    let mut sql = t.sql();
    let versions: Vec<i32> = sql
        .query("SELECT version FROM cocosearch_schema_migrations ORDER BY version", &[])
        .expect("read versions")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(versions, vec![1, 2]);
    let ext: String = sql
        .query_one("SELECT extversion FROM pg_extension WHERE extname = 'vector'", &[])
        .expect("vector installed")
        .get(0);
    assert!(ext.starts_with("0."), "pgvector version {ext}");
});

cstest!(health_reports_server_and_extension, |t| {
    let store = store(&t);
    let before = store.health().expect("health");
    assert!(before.server_version.starts_with("16"), "{before:?}");
    assert!(matches!(before.vector, VectorExtension::Available { can_create: true, .. }), "{before:?}");
    store.migrate().expect("migrate");
    assert!(matches!(store.health().expect("health").vector, VectorExtension::Installed(_)));
});

cstest!(connection_errors_say_what_to_do, |t| {
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
    assert!(matches!(err, StoreError::NoDatabase { .. }), "{err}");
    drop(t);
});

cstest!(any_command_upgrades_an_older_schema, |t| {
    store(&t).migrate().expect("migrate");
    // Roll the database back to schema version 1, as an older cocosearch left it.
    t.sql()
        .batch_execute(
            "ALTER TABLE cocosearch_indexes DROP COLUMN context_tokens;
             DELETE FROM cocosearch_schema_migrations WHERE version > 1;",
        )
        .expect("downgrade");
    let out = crate::support::run(t.cmd_db(), &["list", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let mut sql = t.sql();
    let version: i32 =
        sql.query_one("SELECT max(version) FROM cocosearch_schema_migrations", &[]).expect("version").get(0);
    assert_eq!(version, 2);
    let has_column: bool = sql
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'cocosearch_indexes' AND column_name = 'context_tokens')",
            &[],
        )
        .expect("column")
        .get(0);
    assert!(has_column);
});

cstest!(keyword_groups_select_candidates_and_every_term_scores, |t| {
    t.write("both.py", "def parse_header(line):\n    return line.strip()\n");
    t.write("parse_only.py", "def parse_body(text):\n    return text\n");
    t.write("header_only.py", "def header_value(h):\n    return h\n");
    t.write("neither.py", "def render(x):\n    return x\n");
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed", "--name", "kw"]);
    assert_eq!(out.code, 0, "{out:?}");
    let store = store(&t);
    let term = |w: &str| WeightedTerm { terms: vec![w.to_string()], weight: 1.0 };
    let capped = |select: Vec<Vec<usize>>, max_candidates: Option<u64>| {
        let query = KeywordQuery { terms: vec![term("parse"), term("header")], select, max_candidates };
        let hits = store.keyword_search("kw", &query, &SearchFilter::default(), 10).expect("keyword search");
        hits.into_iter().map(|h| h.path).collect::<Vec<_>>()
    };
    let paths = |select: Vec<Vec<usize>>| capped(select, None);
    // A pair selects chunks containing both terms.
    assert_eq!(paths(vec![vec![0, 1]]), vec!["both.py"]);
    // `header` selects; `parse` only scores, lifting the chunk that has both.
    assert_eq!(paths(vec![vec![1]]), vec!["both.py", "header_only.py"]);
    assert_eq!(paths(vec![vec![0], vec![1]]).len(), 3);
    assert!(paths(Vec::new()).is_empty(), "no group selects nothing");
    // The candidate cap bounds what is scored.
    assert_eq!(capped(vec![vec![0], vec![1]], Some(2)).len(), 2);

    // Definition spans recorded at indexing time, by file and qualified name.
    let wanted = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(p, k)| (p.to_string(), k.to_string())).collect()
    };
    let function = ["function".to_string()];
    let spans = store
        .symbol_spans("kw", &wanted(&[("both.py", "parse_header"), ("neither.py", "render")]), &function)
        .expect("spans");
    assert_eq!(spans.get("both.py"), Some(&vec![(1, 2)]), "{spans:?}");
    assert_eq!(spans.get("neither.py"), Some(&vec![(1, 2)]), "{spans:?}");
    // Another file's symbol, or another kind, is not found.
    let none = store.symbol_spans("kw", &wanted(&[("both.py", "render")]), &function).expect("spans");
    assert!(none.is_empty(), "{none:?}");
    let none =
        store.symbol_spans("kw", &wanted(&[("both.py", "parse_header")]), &["class".to_string()]).expect("spans");
    assert!(none.is_empty(), "{none:?}");
});

cstest!(prepared_statements_survive_an_index_made_again, |t| {
    // One connection, so the second round of queries reuses the statements of the first.
    let store = PgStore::connect(&DatabaseSettings { pool_size: 1, ..settings(&t.db_url()) }).expect("connect");
    let query = KeywordQuery {
        terms: vec![WeightedTerm { terms: vec!["checksum".into()], weight: 1.0 }],
        select: vec![vec![0]],
        max_candidates: None,
    };
    let found = |store: &PgStore| -> Vec<String> {
        let hits = store.keyword_search("again", &query, &SearchFilter::default(), 10).expect("keyword search");
        let ids: Vec<i64> = hits.iter().map(|h| h.id).collect();
        let chunks = store.chunks("again", &ids).expect("chunks");
        let paths: Vec<String> = chunks.iter().map(|c| c.path.clone()).collect();
        let states = store.file_states_of("again", &paths).expect("file states");
        assert_eq!(states.len(), paths.len(), "{states:?}");
        paths
    };
    t.write("first.py", "def checksum(data):\n    return sum(data)\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed", "--name", "again"]).code, 0);
    assert_eq!(found(&store), vec!["first.py"]);

    // Dropped and made again under the same name: new tables behind the same statements.
    let lock = store.lock_index("again").expect("lock");
    assert!(store.drop_index(lock.as_ref()).expect("drop"));
    drop(lock);
    std::fs::remove_file(t.path().join("first.py")).expect("remove");
    t.write("second.py", "def checksum(blob):\n    return hash(blob)\n");
    assert_eq!(run(t.cmd_db(), &["index", "-q", "--no-embed", "--name", "again"]).code, 0);
    assert_eq!(found(&store), vec!["second.py"]);
});
