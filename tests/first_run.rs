//! The first run needs nothing but the binary: with no database settings at all, `index` and
//! `search` use the embedded store in the user's data directory; a configured URL means
//! PostgreSQL.

use crate::cstest;
use crate::support::{TEST_MODEL, TestCtx, run, services, write_sample_project};

/// The binary with no database settings, an empty home and data directory of its own, and the
/// test embedding server (embeddings are not the store's business).
fn fresh_user(t: &TestCtx) -> (std::process::Command, std::path::PathBuf) {
    // Outside the project: a project holding the home directory is refused.
    let home = t.embedded_dir().join("home");
    let data = t.embedded_dir().join("data");
    std::fs::create_dir_all(&home).expect("home");
    let mut cmd = t.cmd();
    cmd.env("HOME", &home)
        .env("XDG_DATA_HOME", &data)
        .env("COCOSEARCH_OLLAMA_URL", &services().ollama_url)
        .env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
    (cmd, data.join("cocosearch"))
}

cstest!(index_and_search_work_with_nothing_configured, |t| {
    // The rule probes PostgreSQL's default address; this test means "no server there".
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", 5432)).is_err(),
        "this test needs nothing listening on localhost:5432 (PostgreSQL's default port)"
    );
    write_sample_project(&t);
    let (cmd, store_dir) = fresh_user(&t);
    let out = run(cmd, &["index"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.contains("no server at localhost:5432: keeping indexes in the embedded store at"),
        "the first run says where the indexes went: {out:?}"
    );
    assert!(store_dir.join("cocosearch.db").is_file(), "{}", store_dir.display());

    let (cmd, _) = fresh_user(&t);
    let out = run(cmd, &["search", "retry failed uploads", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stderr.contains("embedded store at"), "the notice is given once: {out:?}");
    let json = out.json();
    assert_eq!(json["mode"], "hybrid", "{json}");
    assert_eq!(json["results"][0]["path"], "src/uploads.py", "{json}");

    let (cmd, _) = fresh_user(&t);
    let out = run(cmd, &["config", "show", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let backend = out.json()["backend"].as_str().unwrap_or_default().to_string();
    assert!(backend.starts_with("sqlite (auto: the embedded store exists at"), "{backend}");
});

cstest!(a_configured_url_means_postgres, postgres, |t| {
    let (mut cmd, store_dir) = fresh_user(&t);
    cmd.env("COCOSEARCH_DATABASE_URL", t.db_url());
    let out = run(cmd, &["config", "show", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["backend"], "postgres (auto: database.url is set)");
    write_sample_project(&t);
    let (mut cmd, _) = fresh_user(&t);
    cmd.env("COCOSEARCH_DATABASE_URL", t.db_url());
    let out = run(cmd, &["index", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!store_dir.exists(), "no embedded store is created when PostgreSQL is configured");
    // The index is in the configured database: `list` there shows it, and only it.
    let out = run(t.cmd_pg(), &["list", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let names: Vec<String> = out
        .json()
        .as_array()
        .expect("list")
        .iter()
        .map(|i| i["name"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(names, vec![t.index_name()], "{out:?}");
});
