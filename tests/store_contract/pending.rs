//! Chunks awaiting their vectors, the fill-in, and vectors reused by embed hash.

use std::collections::HashSet;

use cocosearch::store::{SearchFilter, VectorAccuracy};

use super::records::{ChunkExt, chunk, cosine, file};
use super::{Fixture, contract_tests};
use crate::support::all_chunks;

contract_tests!(chunks_without_vectors_await_them_in_id_order, a_stored_vector_serves_every_chunk_of_the_same_text,);

fn chunks_without_vectors_await_them_in_id_order(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let mut with_context = chunk("    def method(self):\n        return 1");
    with_context.body.context = "class Outer:\n    class Inner:".into();
    let files = [
        file("a.py", vec![chunk("def a():\n    return 1").vector(&[1.0, 0.0, 0.0]), chunk("def a2():\n    pass")]),
        file("b.rs", vec![chunk("fn b() {}"), with_context.clone()]),
        file("c.md", vec![chunk("# Title").vector(&[0.0, 1.0, 0.0]), chunk("Some prose.")]),
    ];
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 4);

    let pending = s.reader("x").expect("reader").pending_chunks(0, 100).expect("pending");
    let ids: Vec<i64> = pending.iter().map(|p| p.id).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "pending chunks come by id");
    let seen: Vec<(&str, &str, &str)> =
        pending.iter().map(|p| (p.path.as_str(), p.language.as_str(), p.content.as_str())).collect();
    let mut seen_sorted = seen.clone();
    seen_sorted.sort();
    assert_eq!(
        seen_sorted,
        vec![
            ("a.py", "python", "def a2():\n    pass"),
            ("b.rs", "rust", "    def method(self):\n        return 1"),
            ("b.rs", "rust", "fn b() {}"),
            ("c.md", "markdown", "Some prose."),
        ]
    );
    let ctx = pending.iter().find(|p| p.content.contains("method")).expect("method");
    assert_eq!(ctx.context, with_context.body.context);

    // Paging: `after_id` and `limit` walk the same list.
    let mut paged = Vec::new();
    let mut after = 0;
    loop {
        let page = s.reader("x").expect("reader").pending_chunks(after, 3).expect("page");
        assert!(page.len() <= 3);
        let Some(last) = page.last() else { break };
        after = last.id;
        paged.extend(page.iter().map(|p| p.id));
    }
    assert_eq!(paged, ids);
    assert!(s.reader("x").expect("reader").pending_chunks(ids[3], 10).expect("past the end").is_empty());
    assert_eq!(s.reader("x").expect("reader").pending_chunks(ids[1], 10).expect("after the second").len(), 2);

    // Filling in two of them.
    s.writer("x")
        .expect("writer")
        .set_embeddings(&[(ids[0], vec![0.0, 0.0, 1.0]), (ids[2], vec![0.6, 0.8, 0.0])])
        .expect("fill");
    s.writer("x").expect("writer").set_embeddings(&[]).expect("fill nothing");
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 2);
    let left: Vec<i64> =
        s.reader("x").expect("reader").pending_chunks(0, 100).expect("pending").iter().map(|p| p.id).collect();
    assert_eq!(left, vec![ids[1], ids[3]]);
    let hits = s
        .reader("x")
        .expect("reader")
        .vector_search(&[0.0, 0.0, 1.0], &SearchFilter::default(), 10, VectorAccuracy::Exact)
        .expect("search");
    assert_eq!(hits.len(), 4, "two written with vectors, two filled in: {hits:?}");
    assert_eq!(hits[0].id, ids[0]);
    assert!((hits[0].score - 1.0).abs() < 1e-5, "{hits:?}");
    let filled = hits.iter().find(|h| h.id == ids[2]).expect("filled chunk found");
    assert!((filled.score - cosine(&[0.0, 0.0, 1.0], &[0.6, 0.8, 0.0])).abs() < 1e-5, "{filled:?}");
    assert_eq!(s.reader("x").expect("reader").index_counts().expect("counts").pending_embeddings, 2);

    let rest: Vec<(i64, Vec<f32>)> = left.iter().map(|&id| (id, vec![1.0, 1.0, 1.0])).collect();
    s.writer("x").expect("writer").set_embeddings(&rest).expect("fill the rest");
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 0);
    assert!(s.reader("x").expect("reader").pending_chunks(0, 100).expect("pending").is_empty());
}

fn a_stored_vector_serves_every_chunk_of_the_same_text(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    assert!(s.reader("x").expect("reader").embedded_hashes().expect("hashes").is_empty());
    let shared = chunk("def shared():\n    return 42").vector(&[0.0, 1.0, 0.0]);
    let lonely = chunk("def lonely():\n    return 0");
    s.writer("x")
        .expect("writer")
        .replace_files(&[file("a.py", vec![shared.clone(), lonely.clone()])])
        .expect("write a");
    assert_eq!(s.reader("x").expect("reader").embedded_hashes().expect("hashes"), HashSet::from([shared.embed_hash]));

    // The same text in another file, written without a vector, gets the stored one.
    let mut copy = shared.clone();
    copy.embedding = None;
    s.writer("x").expect("writer").replace_files(&[file("b.py", vec![copy.clone()])]).expect("write b");
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 1, "only `lonely` awaits a vector");
    let hits = s
        .reader("x")
        .expect("reader")
        .vector_search(&[0.0, 1.0, 0.0], &SearchFilter::default(), 10, VectorAccuracy::Exact)
        .expect("search");
    let mut paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(paths, vec!["a.py", "b.py"]);
    assert!(hits.iter().all(|h| (h.score - 1.0).abs() < 1e-5), "{hits:?}");

    // Rewriting a file whose unchanged chunk had a vector: the old row goes in the same call,
    // and its vector still serves the new one (an edit re-embeds only what changed).
    let edited = chunk("def added():\n    return 7");
    s.writer("x")
        .expect("writer")
        .replace_files(&[file("b.py", vec![edited.clone(), copy.clone()])])
        .expect("rewrite b");
    let b: Vec<_> = all_chunks(s.as_ref(), "x").into_iter().filter(|c| c.path == "b.py").collect();
    assert_eq!(b.len(), 2);
    let pending: Vec<String> =
        s.reader("x").expect("reader").pending_chunks(0, 10).expect("pending").into_iter().map(|p| p.content).collect();
    let mut pending_sorted = pending.clone();
    pending_sorted.sort();
    assert_eq!(pending_sorted, vec![edited.body.content.clone(), lonely.body.content.clone()]);
    // Even once no other chunk holds it: a.py goes, then b.py is rewritten again.
    assert_eq!(s.writer("x").expect("writer").remove_files(&["a.py".to_string()]).expect("remove a"), 1);
    s.writer("x")
        .expect("writer")
        .replace_files(&[file("b.py", vec![copy.clone(), edited.clone()])])
        .expect("rewrite b again");
    assert_eq!(
        s.reader("x").expect("reader").count_pending().expect("pending"),
        1,
        "the vector of `shared` survived its own replacement"
    );
    assert_eq!(s.reader("x").expect("reader").embedded_hashes().expect("hashes"), HashSet::from([shared.embed_hash]));

    // A vector filled in later serves later copies too.
    let id = s.reader("x").expect("reader").pending_chunks(0, 10).expect("pending")[0].id;
    s.writer("x").expect("writer").set_embeddings(&[(id, vec![1.0, 0.0, 0.0])]).expect("fill");
    assert_eq!(
        s.reader("x").expect("reader").embedded_hashes().expect("hashes"),
        HashSet::from([shared.embed_hash, edited.embed_hash])
    );
    s.writer("x").expect("writer").replace_files(&[file("c.py", vec![edited.clone()])]).expect("write c");
    assert_eq!(s.reader("x").expect("reader").count_pending().expect("pending"), 0);
    let hits = s
        .reader("x")
        .expect("reader")
        .vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 1, VectorAccuracy::Exact)
        .expect("search");
    assert!((hits[0].score - 1.0).abs() < 1e-5, "{hits:?}");
}
