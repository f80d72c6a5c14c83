//! The store under the real binary: `cocosearch index` killed with `kill -9` half-way through its
//! vectors, then run again, leaves exactly what a clean index of the same tree holds, checked
//! through the store.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Stdio;
use std::time::{Duration, Instant};

use cocosearch::store::{SearchFilter, StoredChunk, VectorAccuracy};

use super::{Fixture, contract_tests};
use crate::support::{all_chunks, run};

contract_tests!(kill_9_midway_then_rerun_equals_a_clean_index);

fn index_json(f: &Fixture, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["index", "--json"];
    all.extend_from_slice(args);
    let out = run(f.t.cmd_on(f.backend), &all);
    assert_eq!(out.code, 0, "{out:?}");
    out.json()
}

/// Each chunk's similarity to a fixed direction: a fingerprint of its stored vector.
fn vector_fingerprints(f: &Fixture, index: &str, chunks: &[StoredChunk]) -> BTreeMap<(String, u32), f64> {
    let dimension = f.store.get_index(index).expect("get").and_then(|m| m.dimension).expect("dimension") as usize;
    let query: Vec<f32> = (0..dimension).map(|i| ((i * 7919) % 13) as f32 - 6.0).collect();
    let hits = f
        .store
        .reader(index)
        .expect("reader")
        .vector_search(&query, &SearchFilter::default(), chunks.len() + 1, VectorAccuracy::Exact)
        .expect("vector search");
    assert_eq!(hits.len(), chunks.len(), "every chunk has a vector");
    hits.iter()
        .map(|h| {
            let c = chunks.iter().find(|c| c.id == h.id).expect("hit is a chunk");
            ((c.path.clone(), c.ordinal), h.score)
        })
        .collect()
}

fn kill_9_midway_then_rerun_equals_a_clean_index(f: &Fixture) {
    let t = &f.t;
    // Enough new text that embedding takes a while (a nonce defeats the embedding server's
    // cache), and small batches so files are committed one group at a time.
    let nonce = format!("{}-{:?}", std::process::id(), Instant::now());
    for i in 0..40 {
        let body: String = (0..6)
            .map(|j| format!("def f{i}_{j}(x):\n    \"\"\"Step {j} of task {i}, run {nonce}.\"\"\"\n    return x * {j} + {i}\n\n\n"))
            .collect();
        t.write(&format!("mod{i:02}.py"), body);
    }
    let name = t.index_name();
    let mut child = t
        .cmd_on(f.backend)
        .args(["index", "-q", "--set", "embedding.batchSize=2", "--set", "embedding.concurrency=1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // The run writes every file first, then computes vectors page by page: the kill lands in
    // the vector phase, after some pages and before the last.
    let counts = || f.store.reader(&name).and_then(|r| r.index_counts()).ok();
    let deadline = Instant::now() + Duration::from_secs(60);
    while counts().is_none_or(|c| c.chunks == 0 || c.pending_embeddings == c.chunks) && Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("`cocosearch index` ended before it could be killed ({status})");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill -9");
    let _ = child.wait();
    let at_kill = counts().expect("counts");
    assert_eq!(at_kill.files, 40, "every file is written before any vector");
    assert!(
        at_kill.pending_embeddings > 0 && at_kill.pending_embeddings < at_kill.chunks,
        "the kill must land half-way through the vectors ({} of {} waiting)",
        at_kill.pending_embeddings,
        at_kill.chunks
    );

    let resumed = index_json(f, &[]);
    assert_eq!(resumed["status"], "completed", "{resumed}");
    let after_resume = all_chunks(f.store.as_ref(), &name);
    assert_eq!(f.store.reader(&name).expect("reader").count_pending().expect("pending"), 0);
    let places: BTreeSet<(&str, u32)> = after_resume.iter().map(|c| (c.path.as_str(), c.ordinal)).collect();
    assert_eq!(places.len(), after_resume.len(), "no chunk is stored twice");

    // A clean index of the same tree, under another name, is identical.
    let clean = index_json(f, &["--index", "clean_copy"]);
    assert_eq!(clean["status"], "completed");
    let reference = all_chunks(f.store.as_ref(), "clean_copy");
    assert_eq!(after_resume.len(), reference.len(), "chunk counts differ");
    for (resumed, clean) in after_resume.iter().zip(&reference) {
        assert_eq!((&resumed.path, resumed.ordinal, &resumed.body), (&clean.path, clean.ordinal, &clean.body));
    }
    assert_eq!(
        f.store.reader(&name).expect("reader").file_states(None).expect("states"),
        f.store.reader("clean_copy").expect("reader").file_states(None).expect("states")
    );
    let terms: Vec<String> = {
        let all: BTreeSet<String> =
            reference.iter().flat_map(|c| cocosearch::chunk::keywords::terms(&c.body.content)).collect();
        all.into_iter().collect()
    };
    assert_eq!(
        f.store.reader(&name).expect("reader").term_stats(&terms).expect("stats"),
        f.store.reader("clean_copy").expect("reader").term_stats(&terms).expect("stats"),
        "term statistics survive the kill"
    );
    let resumed_vectors = vector_fingerprints(f, &name, &after_resume);
    let clean_vectors = vector_fingerprints(f, "clean_copy", &reference);
    for (place, score) in &clean_vectors {
        let other = resumed_vectors[place];
        assert!((other - score).abs() < 1e-3, "{place:?}: the vector differs ({other} vs {score})");
    }
}
