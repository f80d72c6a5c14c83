//! Indexing benchmark (not a test): prints throughput and memory on real code nobody here wrote.
//!
//!   cargo bench --bench index            # everything
//!   cargo bench --bench index -- --quick # skip the embedding-throughput run (several minutes)
//!
//! 1. The whole Python standard library (without site-packages), embedder off: files/s and
//!    chunks/s for parse + chunk + store, and peak memory.
//! 2. Six stdlib packages (asyncio, email, http, json, logging, unittest) with real MiniLM
//!    embeddings from a private server without cache: embedding chunks/s and peak memory.
//! 3. The same six packages: re-index with nothing changed, and after a one-file edit.

mod common;

use common::*;

fn summary(m: &Measured) -> serde_json::Value {
    assert_eq!(m.code, 0, "cocosearch failed:\n{}", m.stderr);
    serde_json::from_str(&m.stdout).unwrap_or_else(|e| panic!("summary JSON ({e}): {}", m.stdout))
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let services = services();
    let stdlib = stdlib();
    let work = tempfile::tempdir().expect("tempdir");
    println!(
        "cocosearch indexing benchmark — release binary, {} cores",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    // 1. Whole standard library, keyword-only.
    let db = database(&services.admin_url, "bench_index", true);
    let index_stdlib = || {
        let mut cmd = cocosearch(&stdlib, &db, &services.ollama_url);
        // The path is explicit: without it the project root is the enclosing git repository
        // (pyenv's own checkout, which ignores its `versions/`).
        cmd.arg("index").arg(&stdlib).args(["--json", "--no-embed", "-e", "site-packages", "--name", "stdlib"]);
        cmd
    };
    let m = measure(&mut index_stdlib());
    let s = summary(&m);
    let files = s["files"]["added"].as_f64().unwrap_or(0.0);
    let chunks = s["chunks"]["written"].as_f64().unwrap_or(0.0);
    let secs = m.wall.as_secs_f64();
    println!("\n[1] Python stdlib without site-packages ({}), embedder off", stdlib.display());
    println!("    {files:.0} files, {chunks:.0} chunks in {secs:.2} s (process wall time)");
    println!(
        "    {:.0} files/s, {:.0} chunks/s (parse + chunk + store), peak RSS {:.0} MB",
        files / secs,
        chunks / secs,
        m.peak_rss_mb
    );
    let m = measure(&mut index_stdlib());
    println!("    re-index with nothing changed: {:.3} s, peak RSS {:.0} MB", m.wall.as_secs_f64(), m.peak_rss_mb);

    // The six-package corpus, copied so it can be edited.
    let corpus = work.path().join("six");
    for package in ["asyncio", "email", "http", "json", "logging", "unittest"] {
        copy_tree(&stdlib.join(package), &corpus.join(package));
    }
    std::fs::create_dir(corpus.join(".git")).expect("mark the corpus as a project");

    // 2. Embedding throughput, private server without cache.
    let db = database(&services.admin_url, "bench_index_six", true);
    let (private_url, mut private) = if quick {
        (services.ollama_url.clone(), None)
    } else {
        let (url, child) = private_minilm();
        (url, Some(child))
    };
    let m = measure(cocosearch(&corpus, &db, &private_url).args(["index", "--json"]));
    let s = summary(&m);
    let chunks = s["chunks"]["written"].as_f64().unwrap_or(0.0);
    let embedded = s["embeddings"]["computed"].as_f64().unwrap_or(0.0);
    let embed_secs = s["embeddings"]["elapsed_ms"].as_f64().unwrap_or(0.0) / 1000.0;
    println!(
        "\n[2] Six packages ({} files), real MiniLM embeddings{}",
        s["files"]["added"],
        if quick { " (shared cached server: --quick)" } else { ", private server, no cache" }
    );
    println!(
        "    {chunks:.0} chunks, {embedded:.0} vectors in {:.1} s; embedder busy {embed_secs:.1} s",
        m.wall.as_secs_f64()
    );
    println!("    embedding {:.1} chunks/s, peak RSS {:.0} MB", embedded / embed_secs.max(1e-9), m.peak_rss_mb);
    if let Some(child) = private.as_mut() {
        let _ = child.kill();
        let _ = child.wait();
    }

    // 3. Incremental runs on the six packages (shared server; nothing or little to embed).
    let mut no_change = Vec::new();
    for _ in 0..7 {
        let m = measure(cocosearch(&corpus, &db, &services.ollama_url).args(["index", "--json"]));
        let s = summary(&m);
        assert_eq!(s["embeddings"]["requests"], 0, "a no-change run must not embed");
        no_change.push(m.wall.as_secs_f64() * 1000.0);
    }
    println!("\n[3] Six packages, incremental");
    println!(
        "    re-index, nothing changed: median {:.0} ms, max {:.0} ms over 7 runs (0 embedding requests)",
        percentile(&mut no_change.clone(), 50.0),
        percentile(&mut no_change, 100.0)
    );
    let mut edits = Vec::new();
    let target = corpus.join("json/decoder.py");
    for i in 0..5 {
        let text = std::fs::read_to_string(&target).expect("read");
        let edited = text.replacen(
            "def py_scanstring(",
            &format!("def _bench_helper_{i}():\n    return {i}\n\n\ndef py_scanstring("),
            1,
        );
        std::fs::write(&target, edited).expect("edit");
        let m = measure(cocosearch(&corpus, &db, &services.ollama_url).args(["index", "--json"]));
        let s = summary(&m);
        let embed_ms = s["embeddings"]["elapsed_ms"].as_f64().unwrap_or(0.0);
        edits.push((m.wall.as_secs_f64() * 1000.0, embed_ms, s["embeddings"]["computed"].as_u64().unwrap_or(0)));
    }
    let mut without: Vec<f64> = edits.iter().map(|(w, e, _)| w - e).collect();
    println!(
        "    one-file edit: median {:.0} ms wall, {:.0} ms without embedding ({} changed chunks embedded per run: {:?})",
        percentile(&mut edits.iter().map(|e| e.0).collect::<Vec<_>>(), 50.0),
        percentile(&mut without, 50.0),
        edits.first().map_or(0, |e| e.2),
        edits.iter().map(|e| e.2).collect::<Vec<_>>()
    );
}
