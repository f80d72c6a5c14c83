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
