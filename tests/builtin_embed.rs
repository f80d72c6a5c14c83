//! The in-process embedders with real weights: MiniLM in f32 gives the MiniLM server's
//! vectors, MiniLM with 8-bit layers (the default where the CPU has integer dot products) gives
//! the f32 vectors' directions on real code, the static model gives sensible ones, and
//! `embedding.modelPath` works with no cache and no network.

use std::path::Path;

use cocosearch::config::{EmbeddingSettings, Origin, Provider, registry};
use cocosearch::embed::builtin::{Precision, TransformerEmbedder};
use cocosearch::embed::{self, BuiltinEmbedder, Embedder, Progress};

use crate::cstest;
use crate::support::{TEST_MODEL, TestCtx, models, run, services, stdlib};

/// Settings for the builtin provider on a local model directory.
fn local(dir: &Path) -> EmbeddingSettings {
    EmbeddingSettings {
        provider: Provider::Builtin,
        model: "nomic-embed-text".into(),
        output_dimension: None,
        base_url: None,
        api_key: None,
        batch_size: 32,
        concurrency: 2,
        timeout: 60,
        query_timeout: 30,
        model_path: Some(dir.to_path_buf()),
        model_dirs: Vec::new(),
        // Nothing may be downloaded: a hub that does not answer.
        hub_url: "http://127.0.0.1:9".into(),
        model_origin: Origin::Default,
    }
}

fn server() -> Box<dyn Embedder> {
    embed::from_settings(
        &EmbeddingSettings {
            provider: Provider::Ollama,
            model: TEST_MODEL.into(),
            base_url: Some(services().ollama_url.clone()),
            hub_url: registry::DEFAULT_HUB_URL.into(),
            model_path: None,
            model_dirs: Vec::new(),
            model_origin: Origin::Configured,
            ..local(Path::new("/nonexistent"))
        },
        Progress::Hidden,
    )
    .expect("the ollama provider")
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (na * nb)
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

/// A text far longer than MiniLM's 256 tokens: about 900 words of code and prose.
fn long_text() -> String {
    let mut text = String::from("def parse_cookie_header(header):\n");
    for i in 0..150 {
        text.push_str(&format!("    value_{i} = header.split(';')[{i}].strip()  # morsel number {i}\n"));
    }
    text
}

const TEXTS: &[&str] = &[
    "where are http cookies parsed",
    "def add(a, b):\n    return a + b\n",
    "class Request:\n    \"\"\"An HTTP request with headers, cookies and a body.\"\"\"\n",
    "naïve café — Grüße aus Köln; 日本語のテキスト; Ελληνικά; emoji 🚀🔥 and a tab\there",
    "x",
];

#[test]
fn in_process_minilm_in_f32_matches_the_minilm_server() {
    let reference = TransformerEmbedder::load_with(&models().minilm, Precision::F32).expect("MiniLM loads");
    assert_eq!((reference.dimension(), reference.max_tokens()), (384, 256));

    let mut texts: Vec<String> = TEXTS.iter().map(|t| t.to_string()).collect();
    texts.push(long_text());
    let ours = reference.embed(&texts).expect("in-process vectors");
    let theirs = server().embed(&texts).expect("the MiniLM server's vectors");
    for ((text, a), b) in texts.iter().zip(&ours).zip(&theirs) {
        assert_eq!(a.len(), 384);
        assert!((norm(a) - 1.0).abs() < 1e-4, "not normalised: {}", norm(a));
        let c = cosine(a, b);
        assert!(c >= 0.9999, "cosine {c} for {:?}", text.chars().take(60).collect::<String>());
    }

    // Text past the 256th token is cut, as sentence-transformers cuts it: a different tail
    // changes nothing.
    let mut longer = long_text();
    longer.push_str("    raise SomethingCompletelyDifferent('unrelated words about astronomy and tea')\n");
    let tail = reference.embed(&[longer]).expect("embed");
    assert!(cosine(&tail[0], &ours[ours.len() - 1]) > 0.99999, "the text after token 256 was read");

    // A text batched with others gets the vector it gets alone.
    let alone = reference.embed(&[TEXTS[1].to_string()]).expect("alone");
    assert!(cosine(&alone[0], &ours[1]) > 0.99999, "batching changed a vector: {}", cosine(&alone[0], &ours[1]));
}

/// Pieces of about 900 bytes (a chunk's size) of the standard library's `json` and `http`.
fn real_code(count: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    for package in ["json", "http"] {
        let mut files: Vec<_> = std::fs::read_dir(stdlib().join(package))
            .expect("the stdlib package")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("read");
            let lines: Vec<&str> = text.lines().collect();
            let mut piece = String::new();
            for line in lines {
                piece.push_str(line);
                piece.push('\n');
                if piece.len() >= 900 {
                    pieces.push(std::mem::take(&mut piece));
                }
            }
        }
    }
    let step = (pieces.len() / count).max(1);
    pieces.into_iter().step_by(step).take(count).collect()
}

#[test]
fn the_default_minilm_points_where_f32_points_on_real_code() {
    let default = BuiltinEmbedder::new(&local(&models().minilm), Progress::Hidden);
    let limits = default.limits().expect("MiniLM loads");
    assert_eq!((limits.dimension, limits.context_tokens), (Some(384), Some(256)));
    let reference = TransformerEmbedder::load_with(&models().minilm, Precision::F32).expect("MiniLM loads");

    let texts = real_code(150);
    assert_eq!(texts.len(), 150);
    let ours = default.embed(&texts).expect("default vectors");
    let exact = reference.embed(&texts).expect("f32 vectors");
    let worst = ours.iter().zip(&exact).map(|(a, b)| cosine(a, b)).fold(1.0f32, f32::min);
    eprintln!("precision {:?}: worst cosine to f32 over 150 chunks {worst:.6}", Precision::fastest());
    assert!(worst >= 0.99, "worst cosine {worst}");
    for v in &ours {
        assert!((norm(v) - 1.0).abs() < 1e-4, "not normalised: {}", norm(v));
    }

    // A text batched with others gets the vector it gets alone (8-bit scales are per token).
    let alone = default.embed_query(&texts[3]).expect("query");
    assert!(cosine(&alone, &ours[3]) > 0.99999, "batching changed a vector: {}", cosine(&alone, &ours[3]));
}

#[test]
fn the_static_model_gives_normalised_vectors_that_rank_sensibly() {
    let model = BuiltinEmbedder::new(&local(&models().static_model), Progress::Hidden);
    let limits = model.limits().expect("the static model loads");
    assert_eq!(limits.dimension, Some(256));
    // A static model's neighbours weigh less against a long description (issue 26); MiniLM's
    // do not.
    assert_eq!(model.trust(), cocosearch::embed::VectorTrust::Weak);
    let minilm = BuiltinEmbedder::new(&local(&models().minilm), Progress::Hidden);
    assert_eq!(minilm.trust(), cocosearch::embed::VectorTrust::Full);
    let texts: Vec<String> = [
        "def parse_cookie(header):\n    \"\"\"Parse an HTTP Cookie header into a dict of morsels.\"\"\"\n    cookies = {}\n    for part in header.split(';'):\n        name, _, value = part.partition('=')\n        cookies[name.strip()] = value.strip()\n    return cookies\n",
        "def mean(values):\n    \"\"\"Arithmetic mean of a list of numbers.\"\"\"\n    return sum(values) / len(values)\n",
        "class RotatingFileHandler(logging.Handler):\n    \"\"\"Write log records to a file, rolling over at a size.\"\"\"\n",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    let vectors = model.embed(&texts).expect("embed");
    for v in &vectors {
        assert_eq!(v.len(), 256);
        assert!((norm(v) - 1.0).abs() < 1e-4, "not normalised: {}", norm(v));
    }
    let query = model.embed_query("where are http cookies parsed").expect("query");
    let (cookie, mean, logging) =
        (cosine(&query, &vectors[0]), cosine(&query, &vectors[1]), cosine(&query, &vectors[2]));
    assert!(cookie > mean && cookie > logging, "cookie {cookie}, mean {mean}, logging {logging}");
    // The same text in a batch and alone: the same vector.
    assert!(cosine(&model.embed_query(&texts[1]).expect("query"), &vectors[1]) > 0.99999);
    assert_eq!(model.info().model, "minilm-static", "a directory without a manifest is named after itself");
}

cstest!(model_path_indexes_and_searches_with_no_cache_and_no_network, |t| {
    crate::support::write_sample_project(&t);
    t.write(
        "web/cookies.py",
        "def parse_cookie(header):\n    \"\"\"Parse an HTTP Cookie header into a dict.\"\"\"\n    cookies = {}\n    for part in header.split(';'):\n        name, _, value = part.partition('=')\n        cookies[name.strip()] = value.strip()\n    return cookies\n",
    );
    let cache = tempfile::tempdir().expect("cache dir");
    let builtin = |t: &TestCtx| {
        let mut cmd = t.cmd();
        cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
            .env("COCOSEARCH_DATABASE_PATH", t.embedded_dir())
            .env("COCOSEARCH_EMBEDDING_PROVIDER", "builtin")
            .env("COCOSEARCH_EMBEDDING_MODEL_PATH", &models().static_model)
            .env("COCOSEARCH_EMBEDDING_HUB_URL", "http://127.0.0.1:9")
            .env("XDG_CACHE_HOME", cache.path());
        cmd
    };
    let out = run(builtin(&t), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let summary = out.json();
    let embeddings = &summary["embeddings"];
    assert!(embeddings["computed"].as_u64().unwrap_or(0) > 0, "{summary}");
    assert_eq!(embeddings["pending"], 0, "{summary}");
    // The directory has no manifest and no model is configured: it is named after itself.
    assert_eq!(embeddings["model"], "minilm-static", "{summary}");
    assert_eq!(embeddings["dimension"], 256, "{summary}");

    let out = run(builtin(&t), &["search", "where are http cookies parsed", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["mode"], "hybrid", "{json}");
    assert_eq!(json["results"][0]["path"], "web/cookies.py", "{json}");

    // Nothing was downloaded: the model cache holds no model, only the memory of the local
    // directory used (and, beside it, the hashes of the files it read).
    let models_dir = cache.path().join("cocosearch/models");
    let held: Vec<String> = std::fs::read_dir(&models_dir)
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    assert_eq!(held, ["local-models.json"], "nothing may be downloaded: {held:?}");
});

#[test]
fn embedding_never_waits_for_the_global_rayon_pool() {
    // The index pipeline parses on rayon's global pool, and those workers block on a full
    // channel while the embedding stage is behind. An embedder that needed the global pool
    // to make progress deadlocked the run (the six-package benchmark hung). Here every global
    // worker is blocked until the embedders answer.
    let embedders = [
        BuiltinEmbedder::new(&local(&models().static_model), Progress::Hidden),
        BuiltinEmbedder::new(&local(&models().minilm), Progress::Hidden),
    ];
    for e in &embedders {
        e.limits().expect("the model loads");
    }
    let workers = rayon::current_num_threads();
    let gate = std::sync::Arc::new((std::sync::Mutex::new(false), std::sync::Condvar::new()));
    let (blocked_tx, blocked_rx) = std::sync::mpsc::channel();
    for _ in 0..workers {
        let (gate, blocked) = (std::sync::Arc::clone(&gate), blocked_tx.clone());
        rayon::spawn(move || {
            let _ = blocked.send(());
            let (open, wake) = &*gate;
            let mut open = open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            while !*open {
                open = wake.wait(open).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        });
    }
    for _ in 0..workers {
        blocked_rx.recv().expect("a global worker is blocked");
    }
    let texts: Vec<String> = (0..200).map(|i| format!("def handler_{i}(request):\n    return {i}\n")).collect();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let counts: Vec<usize> = embedders.iter().map(|e| e.embed(&texts).map(|v| v.len()).unwrap_or(0)).collect();
        let _ = done_tx.send(counts);
    });
    // Generous: this guards against a hang, it does not measure speed.
    let answer = done_rx.recv_timeout(std::time::Duration::from_secs(300));
    let (open, wake) = &*gate;
    *open.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = true;
    wake.notify_all();
    let counts = answer.expect("the embedders waited for rayon's global pool, which the index pipeline keeps busy");
    assert_eq!(counts, vec![200, 200]);
}
