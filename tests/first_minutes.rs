//! The first ten minutes (issue 27): each friction a new user hit, named after it, through the
//! real binary on the embedded store.

use std::path::Path;

use crate::cstest;
use crate::support::{TEST_MODEL, TestCtx, models, run, services};

/// `cmd` on this test's embedded store, with the built-in model's hub out of reach.
fn offline(t: &TestCtx) -> std::process::Command {
    let mut cmd = t.cmd();
    cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
        .env("COCOSEARCH_DATABASE_PATH", t.embedded_dir())
        .env("COCOSEARCH_EMBEDDING_HUB_URL", "http://127.0.0.1:9");
    cmd
}

/// A copy of the model directory `from` at `to`: hard links where the file system allows.
fn copy_model(from: &Path, to: &Path) {
    for entry in walk(from) {
        let target = to.join(entry.strip_prefix(from).expect("inside"));
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        if std::fs::hard_link(&entry, &target).is_err() {
            std::fs::copy(&entry, &target).expect("copy model file");
        }
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read model dir").flatten() {
        let path = entry.path();
        if path.is_dir() { files.extend(walk(&path)) } else { files.push(path) }
    }
    files
}

// Friction 1. Offline, `index` suggests `embedding.modelPath`; pointed at a real copy of
// all-MiniLM-L6-v2 in a folder named `model` (a pip wheel's layout), the next run stopped with
// "built with all-minilm-l6-v2, but the configuration asks for model". A copy is recognised
// by its pinned weights, not by its folder's name.
cstest!(friction1_the_offline_fix_works_with_a_model_copy_named_model, |t| {
    t.write(
        "upload.py",
        "def upload(path):\n    \"\"\"Upload a file, retrying on failure.\"\"\"\n    return retry(path)\n",
    );
    let out = run(offline(&t), &["index"]);
    assert_eq!(out.code, 0, "offline, the run goes keyword-only: {out:?}");
    assert!(out.stderr.contains("embedding.modelPath"), "the fix is suggested: {out:?}");

    let copies = tempfile::tempdir().expect("dir");
    let model = copies.path().join("model");
    copy_model(&models().minilm, &model);
    let mut cmd = offline(&t);
    cmd.env("COCOSEARCH_EMBEDDING_MODEL_PATH", &model);
    let out = run(cmd, &["index", "--json"]);
    assert_eq!(out.code, 0, "the suggested fix works: {out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], "all-minilm-l6-v2", "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");

    let mut cmd = offline(&t);
    cmd.env("COCOSEARCH_EMBEDDING_MODEL_PATH", &model);
    let out = run(cmd, &["config", "check"]);
    assert!(out.stdout.contains("all-minilm-l6-v2"), "config check names the model, not the folder: {out:?}");
});

// Friction 2. `config init` hard-coded `provider: ollama, model: nomic-embed-text`: the index
// built with the built-in model then stopped with a model mismatch. The starter file sets the
// index name only and leaves every other key commented out at the value in force.
cstest!(friction2_config_init_keeps_the_embedder_in_force, |t| {
    t.write(
        "upload.py",
        "def upload(path):\n    \"\"\"Upload a file, retrying on failure.\"\"\"\n    return retry(path)\n",
    );
    let local = |t: &TestCtx| {
        let mut cmd = offline(t);
        cmd.env("COCOSEARCH_EMBEDDING_MODEL_PATH", &models().static_model);
        cmd
    };
    let out = run(local(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let before = run(local(&t), &["config", "show", "--json"]).json()["embedder"].clone();
    assert_eq!(before["provider"], "builtin", "{before}");

    let out = run(local(&t), &["config", "init"]);
    assert_eq!(out.code, 0, "{out:?}");
    let text = std::fs::read_to_string(t.path().join("cocosearch.yaml")).expect("starter file");
    let yaml: serde_yaml::Value = serde_yaml::from_str(&text).expect("valid YAML");
    let keys: Vec<&str> = yaml.as_mapping().expect("a mapping").keys().filter_map(|k| k.as_str()).collect();
    assert_eq!(keys, vec!["indexName"], "only the index name is set:\n{text}");
    assert!(!text.contains("nomic-embed-text") && text.contains("#   provider: \"auto\""), "{text}");
    assert!(text.contains("#   model: \"minilm-static\"") || text.contains("#   modelPath:"), "{text}");

    let out = run(local(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "the index keeps working after `config init`: {out:?}");
    let after = run(local(&t), &["config", "show", "--json"]).json()["embedder"].clone();
    assert_eq!(after, before, "the embedder in force is unchanged");
});

// Friction 3. `--help` said "Ollama by default" and "stored in PostgreSQL"; `config show` printed
// `nomic-embed-text` and an Ollama URL as what is in force while the index used the built-in
// MiniLM; `config check` said "the server is not reachable" about an in-process model.
cstest!(friction3_the_embedder_is_described_as_it_is_used, |t| {
    t.write("upload.py", "def upload(path):\n    return path\n");
    let help = run(t.cmd(), &["--help"]);
    assert!(!help.stdout.contains("Ollama by default") && help.stdout.contains("built-in model"), "{help:?}");

    let show = run(offline(&t), &["config", "show"]);
    assert_eq!(show.code, 0, "{show:?}");
    assert!(
        show.stdout.contains("Embedder:") && show.stdout.contains("builtin all-minilm-l6-v2, in-process"),
        "{show:?}"
    );
    let model_line = show.stdout.lines().find(|l| l.contains("embedding.model")).unwrap_or_default().to_string();
    assert!(model_line.contains("all-minilm-l6-v2") && !model_line.contains("nomic"), "{model_line}");
    let url_line = show.stdout.lines().find(|l| l.contains("embedding.baseUrl")).unwrap_or_default().to_string();
    assert!(url_line.contains("not used"), "{url_line}");

    let check = run(offline(&t), &["config", "check"]);
    assert!(!check.stdout.contains("server is not reachable"), "{check:?}");
    assert!(check.stdout.contains("in-process") && check.stdout.contains("not available"), "{check:?}");
});

// Friction 4. A real CocoSearch `cocosearch.yaml` stopped every command, one error per run: on
// its `controller:` section, then on `indexName: my-app`, then on a linked index `shared-lib`;
// `logging:` failed too, and `embedding.provider: openrouter` is CocoSearch's. Its keys that
// have an equivalent take effect, the others are named in one warning, and hyphenated index
// names are sanitized as directory names are.
cstest!(friction4_a_cocosearch_config_works_unchanged, |t| {
    let yaml = format!(
        "# A CocoSearch (Python) project file.\n\
         indexName: my-app\n\
         linkedIndexes:\n  - shared-lib\n  - Design.System\n\
         indexing:\n  includePatterns:\n    - \"*.py\"\n  excludePatterns:\n    - \"legacy/**\"\n  chunkSize: 1500\n  chunkOverlap: 300\n\
         search:\n  resultLimit: 7\n  minScore: 0.3\n\
         embedding:\n  provider: openrouter\n  model: {TEST_MODEL}\n  baseUrl: {}/v1\n\
         controller:\n  enabled: true\n  provider: ollama\n  model: qwen2.5:3b\n  timeout: 5.0\n\
         logging:\n  file: true\n",
        services().ollama_url
    );
    t.write("cocosearch.yaml", &yaml);
    t.write(
        "app/upload.py",
        "def upload(path):\n    \"\"\"Upload a file, retrying on failure.\"\"\"\n    return path\n",
    );
    t.write("legacy/old.py", "def old():\n    return 1\n");
    t.write("README.md", "# my app\n");
    let trust = tempfile::tempdir().expect("config dir");
    let cmd = || {
        let mut cmd = t.cmd();
        cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
            .env("COCOSEARCH_DATABASE_PATH", t.embedded_dir())
            .env("XDG_CONFIG_HOME", trust.path());
        cmd
    };
    // linkedIndexes and embedding.baseUrl decide where data goes: a project's file sets them
    // once trusted, as any file does.
    assert_eq!(run(cmd(), &["config", "trust"]).code, 0);
    let no_effect = "cocosearch.yaml: a CocoSearch setting with no effect here: logging.file";

    let out = run(cmd(), &["config", "show", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr.matches(no_effect).count(), 1, "one warning names the keys without effect: {out:?}");
    assert!(out.stderr.contains("indexName: index name `my-app` is used as `my_app`"), "{out:?}");
    assert!(out.stderr.contains("linkedIndexes: index name `shared-lib` is used as `shared_lib`"), "{out:?}");
    let json = out.json();
    let setting = |key: &str| {
        let found = json["settings"].as_array().expect("settings").iter().find(|s| s["key"] == key).cloned();
        found.unwrap_or_else(|| panic!("{key} missing: {json}"))
    };
    let expected = [
        ("indexName", serde_json::json!("my_app"), 2),
        ("linkedIndexes", serde_json::json!(["shared_lib", "design_system"]), 3),
        ("indexing.includePatterns", serde_json::json!(["*.py"]), 7),
        ("indexing.excludePatterns", serde_json::json!(["legacy/**"]), 9),
        ("indexing.chunkSize", serde_json::json!(1500), 11),
        ("indexing.chunkOverlap", serde_json::json!(300), 12),
        ("search.resultLimit", serde_json::json!(7), 14),
        ("search.minScore", serde_json::json!(0.3), 15),
        ("embedding.provider", serde_json::json!("openrouter"), 17),
        ("embedding.model", serde_json::json!(TEST_MODEL), 18),
        ("embedding.baseUrl", serde_json::json!(format!("{}/v1", services().ollama_url)), 19),
        ("controller.enabled", serde_json::json!(true), 21),
        ("controller.provider", serde_json::json!("ollama"), 22),
        ("controller.model", serde_json::json!("qwen2.5:3b"), 23),
        ("controller.timeout", serde_json::json!(5.0), 24),
    ];
    for (key, value, line) in expected {
        let s = setting(key);
        assert_eq!(s["value"], value, "{key}: {s}");
        assert_eq!(s["source"], format!("file cocosearch.yaml:{line}"), "{key}: {s}");
    }
    assert_eq!(json["embedder"]["provider"], "openrouter", "{json}");

    let out = run(cmd(), &["config", "check"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr.matches(no_effect).count(), 1, "{out:?}");

    let out = run(cmd(), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr.matches(no_effect).count(), 1, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["index"], "my_app", "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "the OpenAI-compatible embedder served openrouter: {summary}");
    let listed = run(cmd(), &["list", "--json"]);
    assert!(listed.stdout.contains("\"my_app\""), "{listed:?}");
});

// Friction 4, continued: a file with several mistakes took one run per mistake.
cstest!(friction4_every_problem_of_a_file_is_reported_in_one_run, |t| {
    t.write(
        "cocosearch.yaml",
        "indexName: x\nserach:\n  resultLimit: 5\nindexing:\n  chunkSiz: 100\nembedding:\n  providr: ollama\nsearch:\n  minScore: 2\n",
    );
    let out = run(t.cmd(), &["config", "show"]);
    assert_eq!(out.code, 2, "{out:?}");
    for problem in [
        "4 problems in the configuration",
        "cocosearch.yaml:2: unknown key `serach` — did you mean `search`?",
        "cocosearch.yaml:5: unknown key `indexing.chunkSiz` — did you mean `indexing.chunkSize`?",
        "cocosearch.yaml:7: unknown key `embedding.providr` — did you mean `embedding.provider`?",
        "cocosearch.yaml:9: `search.minScore`: must be between 0 and 1, found 2",
    ] {
        assert!(out.stderr.contains(problem), "{problem}: {out:?}");
    }
});

// Friction 4, continued: a flat `includePatterns:` (a key of the `indexing` section) got no hint.
cstest!(friction4_a_flat_key_is_pointed_to_its_section, |t| {
    t.write("cocosearch.yaml", "includePatterns:\n  - \"*.py\"\n");
    let out = run(t.cmd(), &["config", "show"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("cocosearch.yaml:1: unknown key `includePatterns` — did you mean `indexing.includePatterns`?"),
        "{out:?}"
    );
});

// Friction 7. In a project that is not a git repository, `search` from a subdirectory failed
// with "no index named sub" though the parent is indexed: the project is now the indexed root
// that contains the working directory.
cstest!(friction7_a_subdirectory_of_an_indexed_project_finds_its_index, |t| {
    std::fs::remove_dir(t.path().join(".git")).expect("not a git repository");
    t.write("upload.py", "def upload_with_retries(path):\n    return path\n");
    t.write("sub/deeper/other.py", "def other():\n    return 1\n");
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    let mut cmd = t.cmd_db();
    cmd.current_dir(t.path().join("sub/deeper"));
    let out = run(cmd, &["search", "--json", "--keyword", "upload_with_retries"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["results"][0]["path"], "upload.py", "{out:?}");
    // Named explicitly, another index is still another index.
    let mut cmd = t.cmd_db();
    cmd.current_dir(t.path().join("sub"));
    let out = run(cmd, &["search", "--index", "nothing_here", "upload"]);
    assert_ne!(out.code, 0, "{out:?}");
});

// Friction 5. Every hit printed its whole definition, with no compact or files-only mode; `-l`
// meant `--limit` where grep and rg mean files-with-matches; piping to `head` switched to JSON.
cstest!(friction5_search_output_fits_ripgrep_habits, |t| {
    t.write(
        "uploads.py",
        "def upload_with_retry(path):\n    for attempt in range(3):\n        send(path)\n    return path\n",
    );
    t.write("retry.py", "def retry_upload(path):\n    return upload_with_retry(path)\n");
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    // Piped, the output stays text; JSON is asked for.
    let piped = run(t.cmd_db(), &["search", "--keyword", "upload_with_retry"]);
    assert_eq!(piped.code, 0, "{piped:?}");
    assert!(piped.stdout.starts_with("uploads.py:1"), "{piped:?}");
    assert!(serde_json::from_str::<serde_json::Value>(&piped.stdout).is_err(), "{piped:?}");
    // `-l`: the files with hits, one per line, best first.
    let files = run(t.cmd_db(), &["search", "--keyword", "-l", "upload_with_retry"]);
    assert_eq!(files.stdout, "uploads.py\nretry.py\n", "{files:?}");
    // `--compact`: one line per hit.
    let compact = run(t.cmd_db(), &["search", "--keyword", "--compact", "upload_with_retry"]);
    let lines: Vec<&str> = compact.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{compact:?}");
    assert!(lines[0].starts_with("uploads.py:1") && lines[0].contains("function upload_with_retry"), "{compact:?}");
    // `--compact` keeps `--definitions` (issue 45).
    let with = run(t.cmd_db(), &["search", "--keyword", "--compact", "--definitions", "1", "upload_with_retry"]);
    assert!(with.stdout.contains("Definitions most likely meant"), "{with:?}");
    // `-m` limits, as rg's max count does.
    let one = run(t.cmd_db(), &["search", "--keyword", "-l", "-m", "1", "upload_with_retry"]);
    assert_eq!(one.stdout, "uploads.py\n", "{one:?}");
});

// Friction 8, the small things: `outline` printed `class class Foo`; `deps` resolved the
// standard library's `typing` to a project file named `typing.py`; `list` columns touched;
// offline indexing printed two warnings where one was promised; `stats` counted "1 sensitive"
// without naming the file; the install line installed the evaluation binary too.
cstest!(friction8_outline_deps_list_warnings_stats_and_install, |t| {
    t.write("c.py", "class Foo:\n    def bar(self):\n        return 1\n\n\ndef baz():\n    pass\n");
    t.write("typing.py", "X = 1\n");
    t.write("scripts/uses.py", "import typing\nfrom typing import List\n");
    t.write(".env", "TOKEN=not-for-indexing\n");
    let out = run(offline(&t), &["index"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr.matches("warning:").count(), 1, "one warning offline: {out:?}");

    let outline = run(offline(&t), &["outline", "c.py"]).stdout;
    assert!(outline.contains("class Foo") && !outline.contains("class class"), "{outline}");
    assert!(outline.contains("method bar(self)") && !outline.contains("method def"), "{outline}");

    let deps = run(offline(&t), &["deps", "scripts/uses.py", "--json"]).json();
    assert!(!deps.to_string().contains("\"typing.py\""), "the standard library's typing is not typing.py: {deps}");

    let stats = run(offline(&t), &["stats"]);
    assert!(stats.stdout.contains(".env"), "the sensitive file is named: {stats:?}");
    assert!(!stats.stdout.contains("not-for-indexing"), "never its content: {stats:?}");

    // A model name as wide as the old fixed column.
    let mut cmd = offline(&t);
    cmd.env("COCOSEARCH_EMBEDDING_MODEL_PATH", &models().minilm);
    assert_eq!(run(cmd, &["index", "-q", "--index", "wide_model_index"]).code, 0);
    let list = run(offline(&t), &["list"]).stdout;
    let row = list.lines().find(|l| l.starts_with("wide_model_index")).unwrap_or_default().to_string();
    assert!(row.contains("all-minilm-l6-v2 (384)  "), "columns never touch: {list}");

    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README");
    assert!(
        readme.contains("cargo install --locked --path . --bin cocosearch"),
        "the install line installs the tool alone"
    );
});

// `cocosearch analyze` and the MCP tool `analyze_query` (CocoSearch has both): how a query was
// read, each leg's first hits with their scores, the fused order and the stages' times.
cstest!(analyze_shows_how_a_query_was_read_and_ranked, |t| {
    t.write(
        "uploads.py",
        "def upload_with_retry(path):\n    \"\"\"Retry failed uploads.\"\"\"\n    return send(path)\n",
    );
    t.write("retry.py", "def backoff(attempt):\n    return 2 ** attempt\n");
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = run(t.cmd_db(), &["analyze", "--json", "upload_with_retry failed uploads"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["reading"]["kind"], "mixed", "{json}");
    assert!(json["reading"]["symbol_names"].to_string().contains("upload_with_retry"), "{json}");
    let legs: Vec<&str> = json["legs"].as_array().expect("legs").iter().filter_map(|l| l["leg"].as_str()).collect();
    assert!(legs.contains(&"keyword") && legs.contains(&"exact definitions"), "{legs:?}");
    assert_eq!(json["fused"][0]["path"], "uploads.py", "{json}");
    assert!(json["timings_ms"]["retrieve"].as_f64().is_some(), "{json}");
    assert_eq!(json["search"]["results"][0]["path"], "uploads.py", "{json}");
    let text = run(t.cmd_db(), &["analyze", "upload_with_retry failed uploads"]).stdout;
    for part in ["read as", "Legs", "Fused", "Timings", "Hits"] {
        assert!(text.contains(part), "{part} missing: {text}");
    }
    // `--index` and `--limit` mean what they mean for `search`, from any directory.
    let index = run(t.cmd_db(), &["stats", "--json"]).json()["name"].as_str().expect("index name").to_string();
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let mut cmd = t.cmd_db();
    cmd.current_dir(elsewhere.path());
    let out = run(cmd, &["analyze", "--json", "--index", &index, "--limit", "1", "failed uploads"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["search"]["results"].as_array().map(Vec::len), Some(1), "{out:?}");

    let project = t.path().display().to_string();
    let session = serde_json::json!([{"tool": "analyze_query", "args": {"query": "upload_with_retry"}}]);
    let report = crate::security::calls(&t.cmd_db(), None, &project, &[&project], &session);
    let answer = &crate::security::results(&report)[0]["json"];
    assert_eq!(answer["reading"]["kind"], "exact", "{answer}");
    assert_eq!(answer["search"]["results"][0]["path"], "uploads.py", "{answer}");
});

// Friction 6. Offline users had to export COCOSEARCH_EMBEDDING_MODEL_PATH in every shell and
// every MCP client's environment. A user configuration file sits between the defaults and the
// project's file, and `config show` names it as the source.
cstest!(friction6_a_user_configuration_file_applies_to_every_project, |t| {
    t.write(
        "upload.py",
        "def upload(path):\n    \"\"\"Upload a file, retrying on failure.\"\"\"\n    return retry(path)\n",
    );
    let user_file = t.user_config_dir().join("cocosearch/config.yaml");
    std::fs::create_dir_all(user_file.parent().expect("dir")).expect("mkdir");
    std::fs::write(
        &user_file,
        format!("embedding:\n  modelPath: {}\nsearch:\n  resultLimit: 7\n", models().static_model.display()),
    )
    .expect("user config");
    let out = run(offline(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], "minilm-static", "the user's model directory is used: {summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");

    let show = run(offline(&t), &["config", "show", "--json"]).json();
    assert_eq!(show["user_config_file"], serde_json::json!(user_file), "{show}");
    let limit =
        show["settings"].as_array().expect("settings").iter().find(|e| e["key"] == "search.resultLimit").cloned();
    let limit = limit.expect("search.resultLimit");
    assert_eq!(limit["value"], 7, "{limit}");
    assert!(limit["source"].as_str().is_some_and(|s| s.contains("config.yaml")), "{limit}");
    // The user's file ranks between the environment and the project's file.
    t.write("cocosearch.yaml", "search:\n  resultLimit: 5\n  minScore: 0.1\n");
    let show = run(offline(&t), &["config", "show", "--json"]).json();
    let value = |key: &str| {
        let found = show["settings"].as_array().expect("settings").iter().find(|e| e["key"] == key).cloned();
        found.expect("setting")["value"].clone()
    };
    assert_eq!(value("search.resultLimit"), 7, "the user's file wins over the project's");
    assert_eq!(value("search.minScore"), 0.1, "what the user's file leaves out, the project's sets");
    let mut cmd = offline(&t);
    cmd.env("COCOSEARCH_SEARCH_RESULT_LIMIT", "3");
    let show = run(cmd, &["config", "show", "--json"]).json();
    let limit =
        show["settings"].as_array().expect("settings").iter().find(|e| e["key"] == "search.resultLimit").cloned();
    assert_eq!(limit.expect("limit")["value"], 3, "the environment wins over the user's file");
    // A search embeds its query with the user's model: hybrid, not degraded.
    let found = run(offline(&t), &["search", "--json", "where are failed uploads retried"]).json();
    assert_eq!(found["mode"], "hybrid", "{found}");
    assert_eq!(found["degraded"], serde_json::Value::Null, "{found}");
});

// CocoSearch's query rewrite (the `controller` section): an LLM over an OpenAI-compatible
// endpoint rewrites the query before the search, within its timeout, falling back to the query
// as typed; `--no-rewrite` and search_code's `rewrite_query: false` skip it.
cstest!(friction4_the_controller_rewrites_queries_and_falls_back_on_timeout, |t| {
    t.write("uploads.py", "def upload_with_retry(path):\n    return send(path)\n");
    t.write("other.py", "def unrelated():\n    return 1\n");
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    let chat = crate::support::fake_chat::FakeChat::start("upload_with_retry", std::time::Duration::ZERO);
    let controller = |t: &TestCtx, url: &str, timeout: &str| {
        let mut cmd = t.cmd_db();
        cmd.env("COCOSEARCH_CONTROLLER_ENABLED", "true")
            .env("COCOSEARCH_CONTROLLER_PROVIDER", "openai")
            .env("COCOSEARCH_CONTROLLER_MODEL", "rewriter")
            .env("COCOSEARCH_CONTROLLER_BASE_URL", url)
            .env("COCOSEARCH_CONTROLLER_TIMEOUT", timeout);
        cmd
    };
    let out = run(controller(&t, &chat.url, "5"), &["search", "--json", "--keyword", "zzqq nothing matches this"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["query"], "upload_with_retry", "the rewritten query is searched: {json}");
    assert_eq!(json["results"][0]["path"], "uploads.py", "{json}");
    assert!(json["warnings"].to_string().contains("rewritten"), "{json}");
    assert!(
        chat.prompts.lock().expect("prompts")[0].contains("zzqq nothing matches this"),
        "the query reaches the model"
    );

    // --no-rewrite searches the query as typed, and the model is not asked.
    let asked = chat.prompts.lock().expect("prompts").len();
    let out = run(controller(&t, &chat.url, "5"), &["search", "--json", "--keyword", "--no-rewrite", "unrelated"]);
    assert_eq!(out.json()["query"], "unrelated");
    assert_eq!(chat.prompts.lock().expect("prompts").len(), asked);

    // A model slower than controller.timeout: the query as typed, with a warning naming the setting.
    let slow = crate::support::fake_chat::FakeChat::start("upload_with_retry", std::time::Duration::from_secs(3));
    let started = std::time::Instant::now();
    let out = run(controller(&t, &slow.url, "0.3"), &["search", "--json", "--keyword", "unrelated"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["query"], "unrelated", "{json}");
    assert_eq!(json["results"][0]["path"], "other.py", "{json}");
    assert!(json["warnings"].to_string().contains("controller.timeout"), "{json}");
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "the timeout bounds the wait");

    // Over MCP: the notes say so, and rewrite_query: false skips it.
    let project = t.path().display().to_string();
    let session = serde_json::json!([
        {"tool": "search_code", "args": {"query": "zzqq nothing matches this"}},
        {"tool": "search_code", "args": {"query": "unrelated", "rewrite_query": false}},
    ]);
    let report = crate::security::calls(&controller(&t, &chat.url, "5"), None, &project, &[&project], &session);
    let results = crate::security::results(&report);
    assert_eq!(results[0]["json"]["query"], "upload_with_retry", "{report}");
    assert!(results[0]["json"]["notes"].to_string().contains("rewritten"), "{report}");
    assert_eq!(results[1]["json"]["query"], "unrelated", "{report}");
});

/// The JSON events of a `cocosearch watch --json` as they come, and the process.
struct Watching {
    child: std::process::Child,
    events: std::sync::mpsc::Receiver<serde_json::Value>,
}

impl Watching {
    fn start(mut cmd: std::process::Command) -> Watching {
        use std::io::BufRead;
        let mut child = cmd
            .args(["watch", "--json"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn cocosearch watch");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, events) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                let Ok(event) = serde_json::from_str::<serde_json::Value>(&line) else { continue };
                if tx.send(event).is_err() {
                    break;
                }
            }
        });
        let watching = Watching { child, events };
        let started = watching.events.recv_timeout(std::time::Duration::from_secs(120)).expect("a first event");
        assert_eq!(started["event"], "started", "{started}");
        watching
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `probe` until it holds, for up to a minute; fails with what it saw last.
fn within_a_minute<T: std::fmt::Debug>(what: &str, mut probe: impl FnMut() -> (bool, T)) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (ok, seen) = probe();
        if ok {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{what}: not within a minute; last: {seen:#?}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

// Issue 46's first hour, end to end on one machine without network: the offline route
// (`embedding.modelPath` at MiniLM's files, for every project) with `index --no-embed` first,
// then `index` filling the vectors with that model; a second project on the other built-in
// model, searched with vectors; the first project watched across three checkouts, each
// snapshot with the commit `git rev-parse` names and freshness agreeing with the index.
cstest!(issue46_first_hour_offline_two_models_and_three_checkouts, |t| {
    use crate::support::{git, rev_parse};
    let user = |dir: &Path| {
        let mut cmd = offline(&t);
        cmd.current_dir(dir).env("COCOSEARCH_EMBEDDING_MODEL_PATH", &models().minilm);
        cmd
    };
    git(&t, &["init", "-q", "-b", "main"]);
    t.write(
        "src/upload.py",
        "def upload(path):\n    \"\"\"Upload a file, retrying on failure.\"\"\"\n    return retry(path)\n",
    );
    t.write("src/cookies.py", "def parse_cookie(header):\n    return dict(p.split('=') for p in header.split(';'))\n");
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "one"]);
    git(&t, &["tag", "v1"]);
    t.write("src/upload.py", "def upload(path, tries=3):\n    \"\"\"Upload a file, retrying on failure.\"\"\"\n    return retry(path, tries)\n");
    git(&t, &["commit", "-qam", "two"]);
    git(&t, &["checkout", "-qb", "stable", "v1"]);
    t.write(
        "src/retry.py",
        "def retry(call, tries=3):\n    \"\"\"Call again after a failure.\"\"\"\n    return call()\n",
    );
    git(&t, &["add", "-A"]);
    git(&t, &["commit", "-qm", "stable"]);
    git(&t, &["checkout", "-q", "main"]);

    // Offline: keyword first, then the vectors with the configured model.
    let out = run(user(t.path()), &["index", "--no-embed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = run(user(t.path()), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    assert_eq!(summary["embeddings"]["model"], "all-minilm-l6-v2", "{summary}");
    assert_eq!(summary["embeddings"]["pending"], 0, "{summary}");
    assert!(summary["embeddings"]["computed"].as_u64().unwrap_or(0) > 0, "{summary}");

    // A second project asks for the other built-in model, downloaded once.
    let hub =
        crate::support::fake_hub::FakeHub::start(&[("minishlab/potion-code-16M-v2", models().static_model.clone())]);
    let mut download = t.cmd();
    download.env("HF_ENDPOINT", &hub.url);
    assert_eq!(run(download, &["model", "download", "potion-code-16m"]).code, 0);
    let other = TestCtx::new("first_hour_other");
    other.write("cocosearch.yaml", "embedding:\n  model: potion-code-16m\n");
    other.write("web/session.py", "def read_session(cookie):\n    \"\"\"Look the session up by its cookie.\"\"\"\n    return SESSIONS.get(cookie)\n");
    let out = run(user(other.path()), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["embeddings"]["model"], "potion-code-16m", "{out:?}");
    let found = run(user(other.path()), &["search", "find the session of a cookie", "--json"]).json();
    assert_eq!((&found["mode"], &found["warnings"]), (&"hybrid".into(), &serde_json::json!([])), "{found}");

    // The first project under the watcher, across three checkouts.
    let watching = Watching::start(user(t.path()));
    for rev in ["stable", "v1", "main"] {
        git(&t, &["checkout", "-q", rev]);
        let head = rev_parse(&t, "HEAD");
        within_a_minute(&format!("{rev}: its snapshot is current, with its commit, and fresh"), || {
            let listed = run(user(t.path()), &["snapshots", "--json"]).json();
            let current = listed["snapshots"].as_array().and_then(|s| s.iter().find(|s| s["current"] == true)).cloned();
            let stats = run(user(t.path()), &["stats", "--json"]).json();
            let fresh = &stats["freshness"];
            let ok = current.as_ref().is_some_and(|c| c["commit"] == head.as_str())
                && fresh["stale"] == false
                && fresh["modified"]["count"] == 0;
            (ok, (current, fresh.clone()))
        });
    }
    let listed = run(user(t.path()), &["snapshots", "--json"]).json();
    for snapshot in listed["snapshots"].as_array().into_iter().flatten() {
        let name = snapshot["name"].as_str().unwrap_or_default();
        assert_eq!(snapshot["commit"], rev_parse(&t, name).as_str(), "{listed}");
    }
    // The vectors of what the checkouts brought are computed in the background.
    within_a_minute("every chunk has a vector", || {
        let stats = run(user(t.path()), &["stats", "--json"]).json();
        (stats["pending_embeddings"] == 0, stats["pending_embeddings"].clone())
    });
    let found = run(user(t.path()), &["search", "call again after a failure", "--json"]).json();
    assert_eq!(found["mode"], "hybrid", "{found}");
    drop(watching);

    // A task on a merge commit shows that merge's own change, bounded.
    git(&t, &["merge", "-q", "--no-ff", "-m", "merge stable", "stable"]);
    let merge = rev_parse(&t, "HEAD");
    let added = run(user(t.path()), &["task", "add", "Take the retry", "--commit", &merge, "--json"]);
    assert_eq!(added.code, 0, "{added:?}");
    let id = added.json()["id"].as_str().expect("task id").to_string();
    let shown = run(user(t.path()), &["task", "show", &id]);
    assert_eq!(shown.code, 0, "{shown:?}");
    assert!(shown.stdout.contains("src/retry.py") && !shown.stdout.contains("src/upload.py"), "{shown:?}");
    assert!(shown.stdout.lines().count() <= 25, "{shown:?}");

    // grep as rg is typed: -n -H --column, and a missing path is rg's error and exit 2.
    let grep = run(user(t.path()), &["grep", "-n", "-H", "--column", "def retry", "src"]);
    assert_eq!((grep.code, grep.stdout.as_str()), (0, "src/retry.py:1:1:def retry(call, tries=3):\n"), "{grep:?}");
    let missing = run(user(t.path()), &["grep", "retry", "nosuch"]);
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(missing.stderr.contains("nosuch: No such file or directory"), "{missing:?}");

    // A mistyped index name gets the name meant.
    let index = t.index_name();
    let typo = format!("{}x", &index[..index.len() - 1]);
    let stats = run(user(t.path()), &["stats", &typo]);
    assert_ne!(stats.code, 0, "{stats:?}");
    assert!(stats.stderr.contains(&format!("did you mean `{index}`?")), "{stats:?}");
});
