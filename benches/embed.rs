//! Embedding benchmark (not a test): the built-in embedders against the MiniLM server, in one
//! run, on the same corpus, through the real binary.
//!
//!   cargo bench --bench embed
//!   cargo bench --bench embed -- --quick   # MiniLM in-process vs served on 500 texts only
//!   COCOSEARCH_BENCH_PREVIOUS=/path/to/older/cocosearch cargo bench --bench embed
//!
//! The corpus is six packages of this machine's Python standard library (asyncio, email,
//! http, json, logging, unittest; about 5,000 chunks). Each embedder indexes it from nothing
//! into its own embedded store: the static model (COCOSEARCH_TEST_STATIC_MODEL), MiniLM
//! in-process (COCOSEARCH_TEST_MINILM_DIR) and MiniLM behind a private server without cache
//! (scripts/ollama_minilm.py, the same weights). Printed per embedder: chunks embedded, the
//! time the pipeline waited for vectors and chunks/s over it, the run's wall and CPU time and
//! peak memory; with COCOSEARCH_BENCH_PREVIOUS, the same index by another build of the binary
//! (the default embedder), side by side. Then where in-process MiniLM spends its time
//! (tokenizing vs the encoder, how many cores it keeps busy). Also: a one-file edit with static
//! vectors (only its changed chunks are embedded), the whole standard library indexed from
//! nothing with static vectors (wall time and peak memory), and MiniLM side by side on the same
//! 500 chunk-sized texts: in-process as shipped (8-bit where the CPU has integer dot products),
//! in-process in f32 and the server, with the cosine of the shipped vectors to f32's over 1,000
//! texts.

mod common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use common::*;

use cocosearch::config::{EmbeddingSettings, Origin, Provider, registry};
use cocosearch::embed::builtin::{Precision, TransformerEmbedder};
use cocosearch::embed::{BuiltinEmbedder, Embedder, Progress};

fn model_dirs() -> (PathBuf, PathBuf) {
    let get = |k: &str| std::env::var(k).ok().map(PathBuf::from);
    if let (Some(minilm), Some(stat)) = (get("COCOSEARCH_TEST_MINILM_DIR"), get("COCOSEARCH_TEST_STATIC_MODEL")) {
        return (minilm, stat);
    }
    let out = std::process::Command::new("python3")
        .arg(root().join("scripts/testenv.py"))
        .args(["models", "--json"])
        .output()
        .expect("run scripts/testenv.py models");
    assert!(out.status.success(), "testenv.py models failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("testenv JSON");
    let path = |k: &str| PathBuf::from(v[k].as_str().unwrap_or_else(|| panic!("no {k}")));
    (path("COCOSEARCH_TEST_MINILM_DIR"), path("COCOSEARCH_TEST_STATIC_MODEL"))
}

/// The binary on the corpus with an embedded store of its own and these embedding settings.
fn index_with(corpus: &Path, store: &Path, env: &[(&str, String)]) -> Measured {
    index_with_binary(Path::new(env!("CARGO_BIN_EXE_cocosearch")), corpus, store, env)
}

/// `binary index --json` on the corpus, as [`index_with`].
fn index_with_binary(binary: &Path, corpus: &Path, store: &Path, env: &[(&str, String)]) -> Measured {
    let mut cmd = std::process::Command::new(binary);
    cmd.current_dir(corpus);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("COCOSEARCH_") {
            cmd.env_remove(key);
        }
    }
    cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite").env("COCOSEARCH_DATABASE_PATH", store);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.args(["index", "--json"]);
    measure(&mut cmd)
}

fn report(label: &str, m: &Measured) -> f64 {
    assert_eq!(m.code, 0, "{label} failed:\n{}", m.stderr);
    let s: serde_json::Value = serde_json::from_str(&m.stdout).expect("summary JSON");
    let chunks = s["chunks"]["written"].as_f64().unwrap_or(0.0);
    let embedded = s["embeddings"]["computed"].as_f64().unwrap_or(0.0);
    let waited = s["embeddings"]["elapsed_ms"].as_f64().unwrap_or(0.0) / 1000.0;
    let rate = if waited > 0.0 { embedded / waited } else { f64::INFINITY };
    println!(
        "  {label:<24} {chunks:>6.0} chunks, {embedded:>6.0} embedded in {waited:>7.2} s = {rate:>8.1} chunks/s; run {:.2} s wall, {:.2} s CPU, peak RSS {:.0} MB",
        m.wall.as_secs_f64(),
        m.cpu.as_secs_f64(),
        m.peak_rss_mb
    );
    rate
}

fn main() {
    rusage_helper();
    // --quick: MiniLM in-process and served on 500 texts instead of indexing the corpus with
    // each (minutes on a busy machine).
    let quick = std::env::args().any(|a| a == "--quick");
    let services = services();
    let (minilm, static_model) = model_dirs();
    let stdlib = stdlib();
    let work = tempfile::tempdir().expect("tempdir");
    let corpus = work.path().join("six");
    for package in ["asyncio", "email", "http", "json", "logging", "unittest"] {
        copy_tree(&stdlib.join(package), &corpus.join(package));
    }
    std::fs::create_dir(corpus.join(".git")).expect("mark the corpus as a project");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "cocosearch embedding benchmark — release binary, {} cores, load average {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    println!("corpus: six stdlib packages of {}", stdlib.display());

    let store = |name: &str| work.path().join(name);
    let builtin = |dir: &Path| {
        vec![
            ("COCOSEARCH_EMBEDDING_PROVIDER", "builtin".to_string()),
            ("COCOSEARCH_EMBEDDING_MODEL_PATH", dir.display().to_string()),
        ]
    };
    let stat = index_with(&corpus, &store("static"), &builtin(&static_model));
    report("static (model2vec)", &stat);
    one_file_edit(&corpus, &store("static"), &builtin(&static_model));
    whole_stdlib_static(&stdlib, &store("stdlib"), &builtin(&static_model));
    let server = private_minilm();
    let url = server.url.clone();
    let served_url = url.clone();
    if quick {
        // The same texts through the MiniLMs, timed, and how close their vectors are.
        side_by_side(&minilm, &served_url, &corpus);
        drop(server);
        return;
    }
    let inproc = index_with(&corpus, &store("minilm"), &builtin(&minilm));
    report("MiniLM in-process", &inproc);
    if let Some(previous) = std::env::var_os("COCOSEARCH_BENCH_PREVIOUS") {
        let before = index_with_binary(Path::new(&previous), &corpus, &store("previous"), &builtin(&minilm));
        report("MiniLM, previous build", &before);
        println!(
            "  wall time of this build / the previous one: {:.2}",
            inproc.wall.as_secs_f64() / before.wall.as_secs_f64()
        );
    }
    let served = index_with(
        &corpus,
        &store("server"),
        &[
            ("COCOSEARCH_EMBEDDING_PROVIDER", "ollama".to_string()),
            ("COCOSEARCH_OLLAMA_URL", url.clone()),
            ("COCOSEARCH_EMBEDDING_MODEL", "all-minilm".to_string()),
        ],
    );
    report("MiniLM server (numpy)", &served);
    println!("  (the server's CPU is its own process's, not in the run's CPU figure)");
    side_by_side(&minilm, &served_url, &corpus);
    drop(server);
    let _ = services;

    where_minilm_spends_its_time(&minilm, &corpus);
}

/// A one-file edit on the indexed corpus: only the chunks that changed are embedded again.
fn one_file_edit(corpus: &Path, store: &Path, env: &[(&str, String)]) {
    let target = corpus.join("json/decoder.py");
    let text = std::fs::read_to_string(&target).expect("read json/decoder.py");
    std::fs::write(&target, format!("{text}\n\ndef bench_edit_marker(value):\n    return value * 2\n"))
        .expect("edit json/decoder.py");
    let m = index_with(corpus, store, env);
    assert_eq!(m.code, 0, "re-index failed:\n{}", m.stderr);
    let s: serde_json::Value = serde_json::from_str(&m.stdout).expect("summary JSON");
    println!(
        "  one-file edit (json/decoder.py): {} chunks written, {} embedded again, {:.2} s wall",
        s["chunks"]["written"],
        s["embeddings"]["computed"],
        m.wall.as_secs_f64()
    );
    std::fs::write(&target, text).expect("restore json/decoder.py");
}

/// The whole standard library (without site-packages) indexed from nothing with static
/// vectors on the embedded store: wall time end to end and peak memory.
fn whole_stdlib_static(stdlib: &Path, store: &Path, env: &[(&str, String)]) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_cocosearch"));
    cmd.current_dir(stdlib);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("COCOSEARCH_") {
            cmd.env_remove(key);
        }
    }
    cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite").env("COCOSEARCH_DATABASE_PATH", store);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.arg("index").arg(stdlib).args(["--json", "-e", "site-packages", "--name", "stdlib"]);
    let m = measure(&mut cmd);
    println!("whole standard library ({}), static vectors, embedded store, from nothing:", stdlib.display());
    report("stdlib (static)", &m);
}

/// Settings for MiniLM in-process (`path`) or behind the server at `url`.
fn minilm_settings(provider: Provider, path: Option<PathBuf>, url: &str) -> EmbeddingSettings {
    EmbeddingSettings {
        provider,
        model: if path.is_some() { "all-minilm-l6-v2" } else { "all-minilm" }.into(),
        output_dimension: None,
        base_url: Some(url.to_string()),
        api_key: None,
        batch_size: 32,
        concurrency: 1,
        timeout: 300,
        query_timeout: 30,
        model_path: path,
        model_dirs: Vec::new(),
        hub_url: registry::DEFAULT_HUB_URL.into(),
        model_origin: Origin::Configured,
    }
}

/// Times `embed` on the texts: seconds and texts per second.
fn timed(texts: &[String], embed: impl Fn(&[String]) -> Vec<Vec<f32>>) -> (Vec<Vec<f32>>, f64) {
    let started = Instant::now();
    let vectors = embed(texts);
    let secs = started.elapsed().as_secs_f64();
    (vectors, texts.len() as f64 / secs)
}

/// The lowest and the mean cosine between two lists of vectors.
fn agreement(a: &[Vec<f32>], b: &[Vec<f32>]) -> (f64, f64) {
    let cosines: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(a, b)| {
            let dot: f64 = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum();
            let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
            dot / (norm(a) * norm(b))
        })
        .collect();
    let min = cosines.iter().copied().fold(f64::INFINITY, f64::min);
    (min, cosines.iter().sum::<f64>() / cosines.len().max(1) as f64)
}

/// MiniLM as shipped, MiniLM in f32 and the MiniLM server on the same 500 chunk-sized texts,
/// one after another in this run; then the shipped vectors against f32's on 1,000 texts.
fn side_by_side(dir: &Path, url: &str, corpus: &Path) {
    let texts = sample_texts(corpus, 1000);
    let first = &texts[..500.min(texts.len())];
    let shipped =
        BuiltinEmbedder::new(&minilm_settings(Provider::Builtin, Some(dir.to_path_buf()), url), Progress::Hidden);
    shipped.limits().expect("load MiniLM");
    let exact = TransformerEmbedder::load_with(dir, Precision::F32).expect("load MiniLM in f32");
    let server = cocosearch::embed::from_settings(&minilm_settings(Provider::Ollama, None, url), Progress::Hidden)
        .expect("ollama provider");
    // One warm-up text each: the first call pays for page faults and the server's first batch.
    let warm = [first[0].clone()];
    let _ = (shipped.embed(&warm), exact.embed(&warm), server.embed(&warm));

    let (ours, ours_rate) = timed(first, |t| shipped.embed(t).expect("in-process MiniLM"));
    let (_, exact_rate) = timed(first, |t| exact.embed(t).expect("in-process MiniLM, f32"));
    let (theirs, server_rate) =
        timed(first, |t| t.chunks(32).flat_map(|batch| server.embed(batch).expect("MiniLM server")).collect());
    let (server_min, server_mean) = agreement(&ours, &theirs);
    println!(
        "MiniLM on the same {} texts of ~900 bytes ({:?} linear layers as shipped on this CPU):",
        first.len(),
        Precision::fastest()
    );
    println!("  in-process, as shipped   {ours_rate:>6.1} texts/s  ({:.2}x the server)", ours_rate / server_rate);
    println!("  in-process, f32          {exact_rate:>6.1} texts/s  ({:.2}x the server)", exact_rate / server_rate);
    println!("  server (numpy, batches of 32) {server_rate:>6.1} texts/s");
    println!("  cosine, shipped vs the server: min {server_min:.6}, mean {server_mean:.6}");
    let all_ours = shipped.embed(&texts).expect("in-process MiniLM");
    let all_exact = exact.embed(&texts).expect("in-process MiniLM, f32");
    let (min, mean) = agreement(&all_ours, &all_exact);
    println!("  cosine, shipped vs f32 over {} texts: min {min:.6}, mean {mean:.6}", texts.len());
}

/// Chunk-sized pieces (~900 bytes) of the corpus's Python files, in path order.
fn sample_texts(corpus: &Path, count: usize) -> Vec<String> {
    let mut texts = Vec::new();
    let mut files: Vec<PathBuf> = walk_py(corpus);
    files.sort();
    for file in files {
        let Ok(source) = std::fs::read_to_string(&file) else { continue };
        let mut rest = source.as_str();
        while rest.len() > 200 && texts.len() < count {
            let mut end = rest.len().min(900);
            while !rest.is_char_boundary(end) {
                end -= 1;
            }
            texts.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    texts
}

/// Tokenizing vs the encoder and the cores kept busy, on 256 chunk-sized texts.
fn where_minilm_spends_its_time(dir: &Path, corpus: &Path) {
    let texts = sample_texts(corpus, 256);
    let settings = EmbeddingSettings {
        provider: Provider::Builtin,
        model: "all-minilm-l6-v2".into(),
        output_dimension: None,
        base_url: None,
        api_key: None,
        batch_size: 32,
        concurrency: 1,
        timeout: 60,
        query_timeout: 30,
        model_path: Some(dir.to_path_buf()),
        model_dirs: Vec::new(),
        hub_url: registry::DEFAULT_HUB_URL.into(),
        model_origin: Origin::Configured,
    };
    let embedder = BuiltinEmbedder::new(&settings, Progress::Hidden);
    embedder.limits().expect("load MiniLM");
    let mut tokenizer = tokenizers::Tokenizer::from_file(dir.join("tokenizer.json")).expect("tokenizer");
    tokenizer.with_padding(None);
    let _ = tokenizer.with_truncation(Some(tokenizers::TruncationParams { max_length: 256, ..Default::default() }));
    let started = Instant::now();
    let encodings = tokenizer.encode_batch(texts.clone(), true).expect("tokenize");
    let tokenize = started.elapsed();
    let tokens: usize = encodings.iter().map(|e| e.len()).sum();
    println!("\nwhere in-process MiniLM spends its time ({} texts of ~900 bytes, {tokens} tokens):", texts.len());
    println!("  tokenizing them all: {:.3} s", tokenize.as_secs_f64());

    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let vectors = embedder.embed(&texts).expect("embed");
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_before;
    assert_eq!(vectors.len(), texts.len());
    println!(
        "  embedding them: {wall:.2} s wall, {cpu:.2} s CPU ({:.2} cores busy) = {:.1} texts/s, {:.0} tokens/s",
        cpu / wall,
        texts.len() as f64 / wall,
        tokens as f64 / wall
    );
}

/// User + system CPU seconds of this process so far.
fn cpu_seconds() -> f64 {
    // SAFETY: rusage is plain data; getrusage fills it for this process.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn walk_py(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk_py(&path));
        } else if path.extension().is_some_and(|e| e == "py") {
            out.push(path);
        }
    }
    out
}
