//! The index registry and the store itself: create, read, list, drop and make again; the model
//! and context recorded per index; names; independence of indexes; health; migrations.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use cocosearch::chunk::SymbolKind;
use cocosearch::store::{
    KeywordQuery, KeywordTerm, NewIndex, SearchFilter, StoreError, VectorAccuracy, VectorSupport, keyword_length,
};

use super::records::{ChunkExt, chunk, expected_terms, file};
use super::{DIMENSION, Fixture, contract_tests};
use crate::support::TestCtx;

contract_tests!(
    indexes_are_created_read_listed_and_dropped,
    a_dropped_index_is_made_again_empty,
    model_and_context_are_recorded,
    invalid_names_are_refused_and_missing_indexes_named,
    indexes_keep_to_themselves,
    the_store_says_what_it_is_and_that_it_does_vectors,
    migrating_again_keeps_every_index_and_its_data,
    concurrent_migrations_all_succeed,
);

fn new_index(name: &str, root: &str) -> NewIndex {
    NewIndex {
        name: name.to_string(),
        root: PathBuf::from(root),
        provider: "ollama".into(),
        model: Some("some-model".into()),
        dimension: None,
        context_tokens: Some(2048),
    }
}

fn indexes_are_created_read_listed_and_dropped(f: &Fixture) {
    let s = &f.store;
    assert_eq!(s.list_indexes().expect("list"), vec![], "a new store has no index");
    assert_eq!(s.get_index("beta").expect("get"), None);
    let before = SystemTime::now() - Duration::from_secs(300);
    let beta = s.create_index(&new_index("beta", "/projects/beta")).expect("create beta");
    let alpha =
        s.create_index(&NewIndex { dimension: Some(3), ..new_index("alpha", "/projects/alpha") }).expect("alpha");
    assert_eq!(beta.name, "beta");
    assert_eq!(beta.root, PathBuf::from("/projects/beta"));
    assert_eq!(beta.provider, "ollama");
    assert_eq!(beta.model.as_deref(), Some("some-model"));
    assert_eq!(beta.dimension, None);
    assert_eq!(beta.context_tokens, Some(2048));
    assert_eq!((beta.git_commit.as_deref(), beta.git_branch.as_deref()), (None, None));
    assert!(beta.created_at > before && beta.updated_at >= beta.created_at, "{beta:?}");
    assert_eq!(alpha.dimension, Some(3), "a dimension known at creation is recorded");

    assert_eq!(s.get_index("beta").expect("get"), Some(beta.clone()), "create returns what get reads");
    let names: Vec<String> = s.list_indexes().expect("list").into_iter().map(|m| m.name).collect();
    assert_eq!(names, vec!["alpha", "beta"], "listed by name");

    assert!(s.writer("beta").expect("writer").drop_index().expect("drop"), "dropping an index that exists says so");
    assert!(!s.writer("beta").expect("writer").drop_index().expect("drop again"), "dropping it again finds none");
    assert!(!s.writer("never_made").expect("writer").drop_index().expect("drop absent"));
    assert_eq!(s.get_index("beta").expect("get"), None);
    let names: Vec<String> = s.list_indexes().expect("list").into_iter().map(|m| m.name).collect();
    assert_eq!(names, vec!["alpha"]);
}

fn a_dropped_index_is_made_again_empty(f: &Fixture) {
    let s = &f.store;
    f.index("again");
    let files = [file("a.py", vec![chunk("def checksum(data):\n    return sum(data)").vector(&[1.0, 0.0, 0.0])])];
    s.writer("again").expect("writer").replace_files(&files).expect("write");
    let run = s.writer("again").expect("writer").start_run(cocosearch::store::RunKind::Full).expect("run");
    assert!(run > 0);
    assert!(s.writer("again").expect("writer").drop_index().expect("drop"));

    let meta = f.index("again");
    assert_eq!(meta.name, "again");
    assert!(
        s.reader("again").expect("reader").file_states(None).expect("states").is_empty(),
        "no file survives the drop"
    );
    assert_eq!(s.reader("again").expect("reader").count_pending().expect("pending"), 0);
    let counts = s.reader("again").expect("reader").index_counts().expect("counts");
    assert_eq!((counts.files, counts.chunks, counts.lines), (0, 0, 0), "{counts:?}");
    let stats = s.reader("again").expect("reader").term_stats(&["checksum".to_string()]).expect("term stats");
    assert_eq!((stats.chunks, stats.total_length, stats.df.len()), (0, 0, 0), "{stats:?}");
    let hits = s
        .reader("again")
        .expect("reader")
        .vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 10, VectorAccuracy::Exact)
        .expect("vector search");
    assert!(hits.is_empty(), "{hits:?}");
    assert!(s.reader("again").expect("reader").embedded_hashes().expect("hashes").is_empty());
    assert!(s.reader("again").expect("reader").runs(10).expect("runs").is_empty(), "the runs went with the index");

    // And it works like any new index.
    s.writer("again").expect("writer").replace_files(&files).expect("write again");
    assert_eq!(s.reader("again").expect("reader").index_counts().expect("counts").chunks, 1);
}

fn model_and_context_are_recorded(f: &Fixture) {
    let s = &f.store;
    let created =
        s.create_index(&NewIndex { model: None, context_tokens: None, ..new_index("m", "/p") }).expect("create");
    assert_eq!((created.model.as_deref(), created.dimension, created.context_tokens), (None, None, None));
    s.writer("m").expect("writer").set_model("test-model", DIMENSION).expect("set model");
    s.writer("m").expect("writer").set_context(512).expect("set context");
    let meta = s.get_index("m").expect("get").expect("exists");
    assert_eq!(meta.model.as_deref(), Some("test-model"));
    assert_eq!(meta.dimension, Some(DIMENSION));
    assert_eq!(meta.context_tokens, Some(512));
    assert_eq!((meta.name, meta.root, meta.created_at), (created.name, created.root, created.created_at));
    // Vector search is ready for that dimension.
    s.writer("m")
        .expect("writer")
        .replace_files(&[file("v.py", vec![chunk("x = 1").vector(&[0.0, 1.0, 0.0])])])
        .expect("write");
    let hits = s
        .reader("m")
        .expect("reader")
        .vector_search(&[0.0, 1.0, 0.0], &SearchFilter::default(), 5, VectorAccuracy::Usual)
        .expect("search");
    assert_eq!(hits.len(), 1, "{hits:?}");
}

fn invalid_names_are_refused_and_missing_indexes_named(f: &Fixture) {
    let s = &f.store;
    for bad in ["Bad-Name", "x\"; DROP TABLE y; --", "", "9lives"] {
        let err = s.create_index(&new_index(bad, "/p")).expect_err(bad);
        assert!(matches!(err, StoreError::InvalidName(_)), "{bad:?}: {err}");
    }
    assert!(s.list_indexes().expect("list").is_empty(), "nothing was registered");

    let missing = "not_there";
    let named = |what: &str, r: Result<(), StoreError>| match r {
        Err(StoreError::IndexNotFound(name)) => assert_eq!(name, missing, "{what}"),
        other => panic!("{what} on a missing index: {other:?}"),
    };
    named("file_states", s.reader(missing).expect("reader").file_states(None).map(drop));
    named("replace_files", s.writer(missing).expect("writer").replace_files(&[file("a.py", vec![chunk("x = 1")])]));
    named("count_pending", s.reader(missing).expect("reader").count_pending().map(drop));
    named("index_counts", s.reader(missing).expect("reader").index_counts().map(drop));
    named(
        "vector_search",
        s.reader(missing)
            .expect("reader")
            .vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 3, VectorAccuracy::Usual)
            .map(drop),
    );
    let query =
        KeywordQuery { terms: vec![KeywordTerm::Word("x".into())], select: vec![vec![0]], max_candidates: None };
    named(
        "keyword_candidates",
        s.reader(missing).expect("reader").keyword_candidates(&query, &SearchFilter::default()).map(drop),
    );
    named("chunks", s.reader(missing).expect("reader").chunks(&[1]).map(drop));
}

fn indexes_keep_to_themselves(f: &Fixture) {
    let s = &f.store;
    f.index("one");
    f.index("two");
    let one = [file("same.py", vec![chunk("def alpha():\n    return 1").vector(&[1.0, 0.0, 0.0])])];
    let two = [
        file("same.py", vec![chunk("def beta():\n    return 2").vector(&[0.0, 1.0, 0.0])]),
        file("other.py", vec![chunk("def gamma():\n    return 3").defines(SymbolKind::Function, "gamma")]),
    ];
    s.writer("one").expect("writer").replace_files(&one).expect("write one");
    s.writer("two").expect("writer").replace_files(&two).expect("write two");

    assert_eq!(s.reader("one").expect("reader").file_states(None).expect("states").len(), 1);
    assert_eq!(s.reader("two").expect("reader").file_states(None).expect("states").len(), 2);
    assert_eq!(s.reader("one").expect("reader").count_pending().expect("pending"), 0);
    assert_eq!(s.reader("two").expect("reader").count_pending().expect("pending"), 1);
    let hits = s
        .reader("one")
        .expect("reader")
        .vector_search(&[0.0, 1.0, 0.0], &SearchFilter::default(), 10, VectorAccuracy::Exact)
        .expect("search");
    let chunks =
        s.reader("one").expect("reader").chunks(&hits.iter().map(|h| h.id).collect::<Vec<_>>()).expect("chunks");
    assert_eq!(chunks.len(), 1);
    assert!(chunks[0].body.content.contains("alpha"), "{chunks:?}");
    let stats =
        s.reader("one").expect("reader").term_stats(&["alpha".into(), "beta".into(), "gamma".into()]).expect("stats");
    let expected = expected_terms(&one);
    assert_eq!(stats.chunks, expected.chunks);
    assert_eq!(stats.total_length, expected.total_length);
    assert_eq!(stats.df.keys().collect::<Vec<_>>(), vec!["alpha"], "{stats:?}");
    assert!(
        s.reader("one")
            .expect("reader")
            .symbol_search(&["gamma".into()], &SearchFilter::default(), 5)
            .expect("symbols")
            .is_empty()
    );

    // Removing a path from one index leaves the same path in the other.
    assert_eq!(s.writer("two").expect("writer").remove_files(&["same.py".to_string()]).expect("remove"), 1);
    assert_eq!(s.reader("one").expect("reader").file_states(None).expect("states").len(), 1);
    assert!(s.writer("two").expect("writer").drop_index().expect("drop"));
    assert_eq!(s.reader("one").expect("reader").index_counts().expect("counts").chunks, 1);
    let length: u64 = one.iter().flat_map(|f| &f.chunks).map(|c| u64::from(keyword_length(&c.keywords))).sum();
    assert_eq!(s.reader("one").expect("reader").term_stats(&[]).expect("stats").total_length, length);
}

fn the_store_says_what_it_is_and_that_it_does_vectors(f: &Fixture) {
    let s = &f.store;
    assert_eq!(s.backend(), f.backend);
    assert!(!s.location().is_empty());
    let health = s.health().expect("health");
    assert!(!health.engine.is_empty(), "{health:?}");
    assert!(matches!(health.vectors, VectorSupport::Ready(_)), "a migrated store does vectors: {health:?}");
    assert_eq!(s.health().expect("health again"), health, "health changes nothing");
}

fn migrating_again_keeps_every_index_and_its_data(f: &Fixture) {
    let s = &f.store;
    f.index("kept");
    let files = [
        file("a.py", vec![chunk("def keep_me():\n    return 1").vector(&[1.0, 0.0, 0.0])]),
        file("b.py", vec![chunk("def pending_one():\n    return 2")]),
    ];
    s.writer("kept").expect("writer").replace_files(&files).expect("write");
    let run = s.writer("kept").expect("writer").start_run(cocosearch::store::RunKind::Full).expect("run");
    s.cache_query_vector("test-model", "q", &[0.5, 0.5, 0.0]).expect("cache");
    let meta = s.get_index("kept").expect("get").expect("exists");
    let states = s.reader("kept").expect("reader").file_states(None).expect("states");
    let counts = s.reader("kept").expect("reader").index_counts().expect("counts");
    let stats = s.reader("kept").expect("reader").term_stats(&["keep".into(), "pending".into()]).expect("stats");

    s.migrate().expect("migrate again");
    s.migrate().expect("and again");
    let other = f.reopen();
    for store in [s, &other] {
        assert_eq!(store.get_index("kept").expect("get"), Some(meta.clone()));
        assert_eq!(store.reader("kept").expect("reader").file_states(None).expect("states"), states);
        let mut after = store.reader("kept").expect("reader").index_counts().expect("counts");
        after.storage_bytes = counts.storage_bytes;
        assert_eq!(after, counts);
        assert_eq!(
            store.reader("kept").expect("reader").term_stats(&["keep".into(), "pending".into()]).expect("stats"),
            stats
        );
        assert_eq!(store.reader("kept").expect("reader").runs(5).expect("runs")[0].id, run);
        assert_eq!(store.cached_query_vector("test-model", "q").expect("cache"), Some(vec![0.5, 0.5, 0.0]));
        let hits = store
            .reader("kept")
            .expect("reader")
            .vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 5, VectorAccuracy::Exact)
            .expect("search");
        assert_eq!(hits.len(), 1, "{hits:?}");
    }
}

fn concurrent_migrations_all_succeed(f: &Fixture) {
    // A store nobody migrated yet, upgraded by several processes at once: they must serialise,
    // not fail. Each thread opens its own handle, as separate `cocosearch` processes would.
    let fresh = TestCtx::new(&format!("{}_fresh", f.backend));
    let settings = fresh.settings(f.backend);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| cocosearch::store::open(&settings).and_then(|o| o.store.migrate())))
            .collect();
        for h in handles {
            h.join().expect("thread").expect("concurrent migrate");
        }
    });
    let store = fresh.store(f.backend);
    store.create_index(&new_index("after", "/p")).expect("create after concurrent migrations");
    assert_eq!(store.list_indexes().expect("list").len(), 1);
}
