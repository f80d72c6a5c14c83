//! `cocosearch config ...`: sources, errors, and the service checks against real services.

use crate::cstest;
use crate::support::{TEST_MODEL, run, services};

cstest!(show_names_the_source_of_each_value, |t| {
    t.write("cocosearch.yaml", "indexName: fromfile\nsearch:\n  resultLimit: 7\nembedding:\n  model: filemodel\n");
    let mut cmd = t.cmd();
    cmd.env("COCOSEARCH_EMBEDDING_MODEL", "envmodel");
    let out = run(cmd, &["config", "show", "--json", "--set", "search.resultLimit=3"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    let setting = |key: &str| {
        json["settings"]
            .as_array()
            .expect("settings")
            .iter()
            .find(|s| s["key"] == key)
            .cloned()
            .unwrap_or_else(|| panic!("{key} missing"))
    };
    assert_eq!(setting("indexName")["value"], "fromfile");
    assert_eq!(setting("indexName")["source"], "file cocosearch.yaml:1");
    assert_eq!(setting("embedding.model")["value"], "envmodel");
    assert_eq!(setting("embedding.model")["source"], "env COCOSEARCH_EMBEDDING_MODEL");
    assert_eq!(setting("search.resultLimit")["value"], 3);
    assert_eq!(setting("search.resultLimit")["source"], "cli --set search.resultLimit");
    assert_eq!(setting("database.url")["source"], "default");
    assert_eq!(setting("database.url")["value"], "postgresql://cocosearch:***@localhost:5432/cocosearch");
    assert_eq!(json["config_file"]["origin"], "discovered");

    // The human table says the same.
    let mut cmd = t.cmd();
    cmd.env("COCOSEARCH_EMBEDDING_MODEL", "envmodel");
    let out = run(cmd, &["config", "show", "--set", "search.resultLimit=3"]);
    let line = |key: &str| out.stdout.lines().find(|l| l.trim_start().starts_with(key)).unwrap_or_default().to_string();
    assert!(line("search.resultLimit").ends_with("cli --set search.resultLimit"), "{out:?}");
    assert!(line("embedding.model ").ends_with("env COCOSEARCH_EMBEDDING_MODEL"), "{out:?}");
    assert!(line("indexName").ends_with("file cocosearch.yaml:1"), "{out:?}");
});

cstest!(dedicated_flags_count_as_cli, |t| {
    let out = run(t.cmd(), &["config", "show", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let mut cmd = t.cmd();
    cmd.env("COCOSEARCH_MCP_PORT", "4000");
    let out = run(cmd, &["config", "show", "--json", "--set", "mcp.port=5000"]);
    let port = out.json()["settings"]
        .as_array()
        .expect("settings")
        .iter()
        .find(|s| s["key"] == "mcp.port")
        .cloned()
        .expect("mcp.port");
    assert_eq!(port["value"], 5000);
    assert_eq!(port["source_kind"], "cli");
});

cstest!(unknown_yaml_key_names_file_line_and_suggestion, |t| {
    t.write("cocosearch.yaml", "indexName: x\nsearch:\n  resultLimt: 5\n");
    let out = run(t.cmd(), &["config", "show"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("cocosearch.yaml:3: unknown key `search.resultLimt` — did you mean `search.resultLimit`?"),
        "{out:?}"
    );
    // Every command reads the same configuration, so every command refuses it.
    let out = run(t.cmd(), &["config", "check"]);
    assert_eq!(out.code, 2, "{out:?}");
});

cstest!(wrong_types_and_values_exit_2, |t| {
    t.write("cocosearch.yaml", "search:\n  resultLimit: many\n");
    let out = run(t.cmd(), &["config", "show"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("cocosearch.yaml:2: `search.resultLimit`: expected a non-negative integer"), "{out:?}");

    t.write("cocosearch.yaml", "embedding:\n  provider: olama\n");
    let out = run(t.cmd(), &["config", "show"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("did you mean `ollama`?"), "{out:?}");

    std::fs::remove_file(t.path().join("cocosearch.yaml")).expect("rm");
    let mut cmd = t.cmd();
    cmd.env("COCOSEARCH_DATABASE_URL", "mysql://root:pw@localhost/db");
    let out = run(cmd, &["config", "show"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("environment variable COCOSEARCH_DATABASE_URL: `database.url`: expected a postgresql:// URL"),
        "{out:?}"
    );
});

cstest!(check_with_database_up_and_embedder_down, |t| {
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port();
    // Trust authentication ignores the password, so it can be a canary: it must never show.
    let url = t.db_url().replacen("postgres@", "postgres:canary-pw-123@", 1);
    let mut cmd = t.cmd();
    cmd.env("COCOSEARCH_DATABASE_URL", &url).env("COCOSEARCH_OLLAMA_URL", format!("http://127.0.0.1:{port}"));
    let started = std::time::Instant::now();
    let out = run(cmd, &["config", "check"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(started.elapsed().as_secs() < 15, "a dead embedder must answer in seconds");
    assert!(out.stdout.contains("✓ PostgreSQL 16"), "{out:?}");
    assert!(out.stdout.contains("✓ vector search: pgvector 0.8"), "{out:?}");
    assert!(out.stdout.contains("✓ backend postgres (auto: database.url is set)"), "{out:?}");
    assert!(out.stdout.contains(&format!("✗ Ollama not reachable at http://127.0.0.1:{port}")), "{out:?}");
    assert!(out.stdout.contains("docker compose up -d"), "{out:?}");
    assert!(!out.stdout.contains("canary-pw-123") && !out.stderr.contains("canary-pw-123"), "{out:?}");
    assert!(out.stdout.contains("postgres:***@"), "{out:?}");
});

cstest!(check_passes_with_everything_up, |t| {
    let out = run(t.cmd_db(), &["config", "check", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["ok"], true);
    let model =
        json["checks"].as_array().expect("checks").iter().find(|c| c["name"] == "model").cloned().expect("model check");
    assert_eq!(model["message"], format!("model {TEST_MODEL} available (384 dimensions, context 256 tokens)"));
});

cstest!(check_reports_a_missing_model_with_the_pull_hint, |t| {
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_MODEL", "nomic-embed-text");
    let out = run(cmd, &["config", "check", "--json"]);
    assert_eq!(out.code, 1, "{out:?}");
    let json = out.json();
    let model =
        json["checks"].as_array().expect("checks").iter().find(|c| c["name"] == "model").cloned().expect("model check");
    assert_eq!(model["ok"], false);
    assert_eq!(model["message"], "model nomic-embed-text not found");
    assert_eq!(model["fix"], "run `ollama pull nomic-embed-text`");
    let _ = services();
});

cstest!(path_and_init, |t| {
    let out = run(t.cmd(), &["config", "path"]);
    assert_eq!((out.code, out.stdout.trim()), (0, "none"), "{out:?}");
    let out = run(t.cmd(), &["config", "init"]);
    assert_eq!(out.code, 0, "{out:?}");
    let written = std::fs::read_to_string(t.path().join("cocosearch.yaml")).expect("init wrote the file");
    assert!(written.contains("indexName: "), "{written}");
    let out = run(t.cmd(), &["config", "path", "--json"]);
    assert_eq!(out.json()["origin"], "discovered");
    let out = run(t.cmd(), &["config", "init"]);
    assert_eq!(out.code, 1, "init must not overwrite: {out:?}");
    assert!(out.stderr.contains("--force"), "{out:?}");
    // The starter file is valid configuration.
    let out = run(t.cmd(), &["config", "show"]);
    assert_eq!(out.code, 0, "{out:?}");
});

cstest!(secrets_in_urls_never_print_in_any_form, |t| {
    // A password as a query parameter of the database URL and as the userinfo of the embedding
    // server's URL: neither may show, in clear or encoded, on any stream of any command.
    const SECRET: &str = "s3cr!t-Pw";
    let encoded = "s3cr%21t-Pw";
    let dead = || std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("port").port();
    // The form an `Authorization: Basic` header would carry in a trace log.
    let basic = base64(format!("user:{SECRET}").as_bytes());
    let forms = [SECRET.to_string(), encoded.to_string(), basic, "s3cr".to_string()];
    let live_db = format!("{}?password={encoded}", t.db_url());
    let dead_db = format!("postgresql://u@127.0.0.1:{}/db?sslmode=disable&PassWord={encoded}", dead());
    let live_embedder =
        crate::support::services().ollama_url.replacen("http://", &format!("http://user:{encoded}@"), 1);
    let dead_embedder = format!("http://user:{encoded}@127.0.0.1:{}/", dead());
    t.write("src/app.py", "def handler():\n    return 1\n");

    let cases: &[(&str, &str, &[&str])] = &[
        (&live_db, &live_embedder, &["config", "show"]),
        (&live_db, &live_embedder, &["config", "show", "--json"]),
        (&live_db, &live_embedder, &["config", "check"]),
        (&live_db, &live_embedder, &["config", "check", "--json"]),
        (&dead_db, &dead_embedder, &["config", "check"]),
        (&dead_db, &live_embedder, &["index", "-vvv"]),
        (&dead_db, &live_embedder, &["search", "handler", "-vvv"]),
        (&live_db, &dead_embedder, &["index", "-vvv"]),
        (&live_db, &dead_embedder, &["search", "handler", "-vvv"]),
        (&live_db, &dead_embedder, &["search", "handler", "--json"]),
    ];
    for (db, embedder, args) in cases {
        let mut cmd = t.cmd();
        cmd.env("COCOSEARCH_DATABASE_URL", db)
            .env("COCOSEARCH_EMBEDDING_BASE_URL", embedder)
            .env("COCOSEARCH_EMBEDDING_MODEL", TEST_MODEL);
        let out = run(cmd, args);
        for form in &forms {
            assert!(!out.stdout.contains(form.as_str()), "{args:?} printed {form:?} on stdout: {out:?}");
            assert!(!out.stderr.contains(form.as_str()), "{args:?} printed {form:?} on stderr: {out:?}");
        }
        if args[..2] == ["config", "show"] {
            assert_eq!(out.code, 0, "{out:?}");
            assert!(out.stdout.contains("password=***"), "the database URL is shown, redacted: {out:?}");
            assert!(out.stdout.contains("http://user:***@127.0.0.1"), "the embedding URL is shown, redacted: {out:?}");
        }
    }
});

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

cstest!(a_database_url_the_driver_cannot_use_is_a_configuration_error, |t| {
    // Not an outage: nothing to start, a URL to fix (exit 2), whichever command meets it.
    for (query, fragment) in [
        ("sslmode=bogus", "invalid value for option `sslmode` (cocosearch accepts sslmode=disable or sslmode=prefer)"),
        ("sslmode=require", "asks for TLS (sslmode=require), which cocosearch does not speak"),
    ] {
        for args in [&["search", "anything"][..], &["index"], &["config", "check"]] {
            let mut cmd = t.cmd();
            cmd.env("COCOSEARCH_DATABASE_URL", format!("{}?{query}", t.db_url()));
            let out = run(cmd, args);
            let text = format!("{}{}", out.stdout, out.stderr);
            assert!(text.contains("the PostgreSQL store setting database.url is invalid"), "{args:?} {query}: {out:?}");
            assert!(text.contains(fragment), "{args:?} {query}: {out:?}");
            assert!(!text.contains("cannot connect to PostgreSQL"), "{args:?} {query}: {out:?}");
            let expected = if args[0] == "config" { 1 } else { 2 };
            assert_eq!(out.code, expected, "{args:?} {query}: {out:?}");
        }
    }
});

// Issue 25, item 7: `config check` showed ✓ for an embedded store that could never be created.
cstest!(check_fails_for_a_store_path_that_cannot_work, |t| {
    let scratch = tempfile::tempdir().expect("scratch");
    let a_file = scratch.path().join("plain-file");
    std::fs::write(&a_file, "not a directory").expect("write");
    let db_is_a_dir = scratch.path().join("store");
    std::fs::create_dir_all(db_is_a_dir.join("cocosearch.db")).expect("mkdir");
    let below_a_file = a_file.join("store");
    for (path, says) in
        [(&a_file, "is not a directory"), (&db_is_a_dir, "is not a file"), (&below_a_file, "is not a directory")]
    {
        let mut cmd = t.cmd_embedded();
        cmd.env("COCOSEARCH_DATABASE_PATH", path);
        let out = run(cmd, &["config", "check", "--json"]);
        assert_eq!(out.code, 1, "{path:?}: {out:?}");
        let store = out.json()["checks"].as_array().expect("checks").iter().find(|c| c["name"] == "store").cloned();
        let store = store.expect("store check");
        assert_eq!(store["ok"], false, "{path:?}: {store}");
        assert!(store["message"].as_str().is_some_and(|m| m.contains(says)), "{path:?}: {store}");
    }
    // A directory that does not exist yet is fine: the first index creates it.
    let mut cmd = t.cmd_embedded();
    cmd.env("COCOSEARCH_DATABASE_PATH", scratch.path().join("new/store"));
    let out = run(cmd, &["config", "check", "--json"]);
    let store = out.json()["checks"].as_array().expect("checks").iter().find(|c| c["name"] == "store").cloned();
    assert_eq!(store.expect("store check")["ok"], true, "{out:?}");
});
