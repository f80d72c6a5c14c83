//! Vector search (cosine scores, best first, exact and usual alike) and the search filters:
//! applied before the top-k cut, and meaning exactly what `store::glob` says they mean.

use std::collections::BTreeSet;

use cocosearch::chunk::SymbolKind;
use cocosearch::store::glob::{NameGlob, PathGlob};
use cocosearch::store::{FileRecord, KeywordQuery, KeywordTerm, SearchFilter, VectorAccuracy};

use super::records::{ChunkExt, chunk, cosine, file, spread};
use super::{Fixture, contract_tests};

contract_tests!(
    vector_search_scores_by_cosine_best_first,
    filters_apply_before_the_top_k_cut,
    path_globs_match_what_the_reference_matches,
    name_globs_match_what_the_reference_matches,
    a_large_index_finds_new_and_changed_vectors_and_never_removed_ones,
);

const BOTH: [VectorAccuracy; 2] = [VectorAccuracy::Exact, VectorAccuracy::Usual];

fn vector_search_scores_by_cosine_best_first(f: &Fixture) {
    let s = &f.store;
    f.index("v");
    let vectors: [[f32; 3]; 8] = [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [3.0, 1.0, 0.2],
        [0.7, 0.7, 0.1],
        [-1.0, 0.2, 0.0],
        [0.2, 0.9, 0.4],
        [5.0, 5.0, 5.0],
    ];
    let files: Vec<FileRecord> = vectors
        .iter()
        .enumerate()
        .map(|(i, v)| file(&format!("f{i}.py"), vec![chunk(&format!("v{i} = {i}")).vector(v)]))
        .chain([file("none.py", vec![chunk("no_vector = 1")])])
        .collect();
    s.writer("v").expect("writer").replace_files(&files).expect("write");
    let query = [0.9f32, 0.3, 0.1];
    let mut expected: Vec<(String, f64)> =
        vectors.iter().enumerate().map(|(i, v)| (format!("f{i}.py"), cosine(&query, v))).collect();
    expected.sort_by(|a, b| b.1.total_cmp(&a.1));

    for accuracy in BOTH {
        let hits = s
            .reader("v")
            .expect("reader")
            .vector_search(&query, &SearchFilter::default(), 5, accuracy)
            .expect("search");
        assert_eq!(hits.len(), 5, "{accuracy:?}: the limit");
        for (hit, (path, score)) in hits.iter().zip(&expected) {
            assert_eq!(&hit.path, path, "{accuracy:?}: {hits:?}");
            assert!((hit.score - score).abs() < 1e-5, "{accuracy:?}: {path} scored {} not {score}", hit.score);
        }
        let all = s
            .reader("v")
            .expect("reader")
            .vector_search(&query, &SearchFilter::default(), 100, accuracy)
            .expect("search all");
        assert_eq!(all.len(), vectors.len(), "{accuracy:?}: a chunk without a vector is never a hit");
        let chunks =
            s.reader("v").expect("reader").chunks(&all.iter().map(|h| h.id).collect::<Vec<_>>()).expect("chunks");
        for hit in &all {
            let c = chunks.iter().find(|c| c.id == hit.id).expect("hit chunk");
            assert_eq!(c.path, hit.path, "a hit's path is its chunk's");
        }
    }
    // The opposite direction scores -1: cosine similarity, not a distance.
    let hits = s
        .reader("v")
        .expect("reader")
        .vector_search(&[1.0, 0.0, 0.0], &SearchFilter::default(), 100, VectorAccuracy::Exact)
        .expect("search");
    let last = hits.last().expect("hits");
    assert_eq!(last.path, "f5.py");
    assert!((last.score - cosine(&[1.0, 0.0, 0.0], &[-1.0, 0.2, 0.0])).abs() < 1e-5, "{last:?}");
}

/// A target of the filter tests: far from the query, unlike the noise.
struct Target {
    path: &'static str,
    kind: SymbolKind,
    name: &'static str,
    vector: [f32; 3],
}

const TARGETS: [Target; 3] = [
    Target { path: "wanted/deep/t1.rs", kind: SymbolKind::Class, name: "TargetWidget", vector: [0.1, 1.0, 0.2] },
    Target { path: "wanted/t2.rs", kind: SymbolKind::Function, name: "target_fn", vector: [0.05, 0.3, 1.0] },
    Target { path: "docs/t3.md", kind: SymbolKind::Heading, name: "Target notes", vector: [-0.2, 1.0, 0.0] },
];

fn filters_apply_before_the_top_k_cut(f: &Fixture) {
    // 150 noise chunks all nearer the query than any target, and all saying `needle` more
    // often: without a filter the top-k (and the keyword candidate cap) is noise only, so a
    // filter applied after the cut would find nothing.
    let s = &f.store;
    f.index("x");
    let query = [1.0f32, 0.0, 0.0];
    let mut files: Vec<FileRecord> = (0..150)
        .map(|i| {
            let v = [1.0, i as f32 / 100.0, 0.0];
            file(&format!("noise/n{i:03}.py"), vec![chunk(&format!("needle = {i}  # needle needle")).vector(&v)])
        })
        .collect();
    for t in &TARGETS {
        let c = chunk(&format!("needle here: {}", t.name)).vector(&t.vector).defines_named(t.kind, t.name, t.name);
        files.push(file(t.path, vec![c]));
    }
    s.writer("x").expect("writer").replace_files(&files).expect("write");

    let filter = |languages: &[&str], glob: Option<&str>, kinds: &[SymbolKind], names: Option<&str>| SearchFilter {
        languages: languages.iter().map(|l| l.to_string()).collect(),
        path_glob: glob.map(|g| PathGlob::new(g).expect("glob")),
        symbol_types: kinds.to_vec(),
        symbol_name_glob: names.map(|g| NameGlob::new(g).expect("glob")),
    };
    let cases: Vec<(&str, SearchFilter, Vec<&str>)> = vec![
        ("language", filter(&["rust"], None, &[], None), vec!["wanted/deep/t1.rs", "wanted/t2.rs"]),
        (
            "languages",
            filter(&["rust", "markdown"], None, &[], None),
            vec![TARGETS[0].path, TARGETS[1].path, TARGETS[2].path],
        ),
        ("path glob", filter(&[], Some("wanted/"), &[], None), vec!["wanted/deep/t1.rs", "wanted/t2.rs"]),
        ("file glob", filter(&[], Some("*.md"), &[], None), vec!["docs/t3.md"]),
        ("symbol type", filter(&[], None, &[SymbolKind::Class], None), vec!["wanted/deep/t1.rs"]),
        (
            "symbol types",
            filter(&[], None, &[SymbolKind::Heading, SymbolKind::Function], None),
            vec!["wanted/t2.rs", "docs/t3.md"],
        ),
        (
            "symbol name",
            filter(&[], None, &[], Some("target*")),
            vec![TARGETS[0].path, TARGETS[1].path, TARGETS[2].path],
        ),
        (
            "all at once",
            filter(&["rust"], Some("wanted/**"), &[SymbolKind::Function], Some("*_fn")),
            vec!["wanted/t2.rs"],
        ),
        ("nothing matches", filter(&["go"], None, &[], None), vec![]),
    ];
    for (what, filter, expected) in &cases {
        let mut by_score: Vec<(&str, f64)> = TARGETS
            .iter()
            .filter(|t| expected.contains(&t.path))
            .map(|t| (t.path, cosine(&query, &t.vector)))
            .collect();
        by_score.sort_by(|a, b| b.1.total_cmp(&a.1));
        let expected_order: Vec<&str> = by_score.iter().map(|(p, _)| *p).collect();
        for accuracy in BOTH {
            let hits = s.reader("x").expect("reader").vector_search(&query, filter, 5, accuracy).expect("search");
            let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
            assert_eq!(paths, expected_order, "{what}, {accuracy:?}");
        }
        let keyword = KeywordQuery {
            terms: vec![KeywordTerm::Word("needle".into())],
            select: vec![vec![0]],
            max_candidates: Some(5),
        };
        let found: BTreeSet<String> = s
            .reader("x")
            .expect("reader")
            .keyword_candidates(&keyword, filter)
            .expect("keywords")
            .into_iter()
            .map(|c| c.path)
            .collect();
        let wanted: BTreeSet<String> = expected.iter().map(|p| p.to_string()).collect();
        assert_eq!(found, wanted, "{what}: keyword candidates");
    }

    // A filter that keeps the noise returns its best, in order, up to the limit.
    for accuracy in BOTH {
        let hits = s
            .reader("x")
            .expect("reader")
            .vector_search(&query, &filter(&["python"], None, &[], None), 5, accuracy)
            .expect("search");
        let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
        let expected: Vec<String> = (0..5).map(|i| format!("noise/n{i:03}.py")).collect();
        assert_eq!(paths, expected, "{accuracy:?}");
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score), "{accuracy:?}: best first {hits:?}");
    }
}

/// Paths and globs of `store::glob`'s own tests: the globset reference against each backend.
const PATHS: &[&str] = &[
    "README.md",
    "docs/README.md",
    "docs/README.md/x",
    "src/api",
    "src/api/mod.rs",
    "src/apis/x.rs",
    "src/lib.rs",
    "src/a/b/c.rs",
    "a/src/lib.rs",
    "tests",
    "tests/x.py",
    "pkg/tests/x.py",
    "x.py",
    "a/b.py",
    "a.pyc",
    "web/app.ts",
    "web/app.tsx",
    "test_x.go",
    "a/test_y.go",
    "b.c",
    "ab.c",
    "weird[1].txt",
    "dot.dir/x",
    "a+b/c",
    "Caps/Mixed.PY",
    "space dir/a b.py",
];

const GLOBS: &[&str] = &[
    "*.py",
    "README.md",
    "src/api",
    "tests/",
    "./tests",
    "src/**/*.rs",
    "src/*.rs",
    "**/*.rs",
    "*.{ts,tsx}",
    "[!a]*.c",
    "test_*",
    "a/**",
    "?.py",
    "weird\\[1\\].txt",
    "dot.dir",
    "a+b/**",
    "**/tests/**",
    "a**b.c",
    "**",
    "*.PY",
    "space dir",
    "[a-b].c",
    "src/{api,lib.rs}",
];

fn needle_corpus(f: &Fixture, files: Vec<FileRecord>) {
    f.index("g");
    f.store.writer("g").expect("writer").replace_files(&files).expect("write");
}

fn found(f: &Fixture, filter: &SearchFilter) -> (BTreeSet<String>, BTreeSet<String>) {
    let vector: BTreeSet<String> = f
        .store
        .reader("g")
        .expect("reader")
        .vector_search(&[1.0, 0.0, 0.0], filter, 1000, VectorAccuracy::Exact)
        .expect("vector search")
        .into_iter()
        .map(|h| h.path)
        .collect();
    let query =
        KeywordQuery { terms: vec![KeywordTerm::Word("needle".into())], select: vec![vec![0]], max_candidates: None };
    let keyword: BTreeSet<String> = f
        .store
        .reader("g")
        .expect("reader")
        .keyword_candidates(&query, filter)
        .expect("keywords")
        .into_iter()
        .map(|c| c.path)
        .collect();
    (vector, keyword)
}

fn path_globs_match_what_the_reference_matches(f: &Fixture) {
    let files: Vec<FileRecord> = PATHS
        .iter()
        .enumerate()
        .map(|(i, p)| file(p, vec![chunk("needle").keywords("needle").vector(&[1.0, i as f32 / 100.0, 0.0])]))
        .collect();
    needle_corpus(f, files);
    for glob in GLOBS {
        let g = PathGlob::new(glob).expect(glob);
        let expected: BTreeSet<String> = PATHS.iter().filter(|p| g.is_match(p)).map(|p| p.to_string()).collect();
        let filter = SearchFilter { path_glob: Some(g), ..SearchFilter::default() };
        let (vector, keyword) = found(f, &filter);
        assert_eq!(vector, expected, "glob {glob:?} in vector search");
        assert_eq!(keyword, expected, "glob {glob:?} in keyword candidates");
    }
}

fn name_globs_match_what_the_reference_matches(f: &Fixture) {
    // Own names as the chunkers produce them: methods qualified by their class, Rust paths,
    // Markdown headings with dots and colons.
    let symbols: &[(SymbolKind, &str, &str)] = &[
        (SymbolKind::Function, "get_user", "get_user"),
        (SymbolKind::Function, "GET_USER_BY_ID", "GET_USER_BY_ID"),
        (SymbolKind::Function, "forget_user", "forget_user"),
        (SymbolKind::Method, "getUser", "Session.getUser"),
        (SymbolKind::Method, "get", "Session.get"),
        (SymbolKind::Function, "new", "lexer::new"),
        (SymbolKind::Heading, "Release v1.2: notes", "Release v1.2: notes"),
        (SymbolKind::Heading, "FAQ", "Guide.FAQ"),
    ];
    let mut files: Vec<FileRecord> = symbols
        .iter()
        .enumerate()
        .map(|(i, (kind, name, qualified))| {
            let c = chunk("needle").keywords("needle").vector(&[1.0, i as f32 / 100.0, 0.0]);
            file(&format!("s{i}.txt"), vec![c.defines_named(*kind, name, qualified)])
        })
        .collect();
    // One chunk defining two symbols matches through either; one defines none.
    let two = chunk("needle")
        .keywords("needle")
        .vector(&[0.5, 0.5, 0.0])
        .defines(SymbolKind::Class, "Zeta")
        .defines(SymbolKind::Method, "Zeta.user_count");
    files.push(file("two.txt", vec![two]));
    files.push(file("none.txt", vec![chunk("needle").keywords("needle").vector(&[0.0, 1.0, 0.0])]));
    needle_corpus(f, files.clone());

    for glob in ["get_*", "*user*", "get?ser", "GET", "new", "release*", "*: notes", "Session.*", "[fg]*", "zeta", "*"]
    {
        let g = NameGlob::new(glob).expect(glob);
        let expected: BTreeSet<String> = files
            .iter()
            .filter(|file| file.chunks.iter().flat_map(|c| &c.body.symbols).any(|s| g.is_match(&s.name)))
            .map(|file| file.path.clone())
            .collect();
        let filter = SearchFilter { symbol_name_glob: Some(g), ..SearchFilter::default() };
        let (vector, keyword) = found(f, &filter);
        assert_eq!(vector, expected, "name glob {glob:?} in vector search");
        assert_eq!(keyword, expected, "name glob {glob:?} in keyword candidates");
    }
}

/// The paths of the usual (approximate) search's best `limit`, and their ids all distinct.
fn usual(f: &Fixture, query: &[f32], limit: usize) -> Vec<(String, i64, f64)> {
    let hits = f
        .store
        .reader("big")
        .expect("reader")
        .vector_search(query, &SearchFilter::default(), limit, VectorAccuracy::Usual)
        .expect("search");
    let ids: BTreeSet<i64> = hits.iter().map(|h| h.id).collect();
    assert_eq!(ids.len(), hits.len(), "no vector is scored twice: {hits:?}");
    assert_eq!(hits.len(), limit, "a large index fills the limit");
    hits.into_iter().map(|h| (h.path, h.id, h.score)).collect()
}

/// Past the size where a backend organises its vectors for approximate search (the embedded
/// store's inverted lists and packs start at 20,000), vectors written, removed or re-embedded
/// after that organisation are still searched exactly as they are now.
fn a_large_index_finds_new_and_changed_vectors_and_never_removed_ones(f: &Fixture) {
    const FILES: usize = 210;
    const PER_FILE: usize = 100;
    let s = &f.store;
    f.index("big");
    let n = FILES * PER_FILE;
    let files: Vec<FileRecord> = (0..FILES)
        .map(|i| {
            let chunks = (0..PER_FILE)
                .map(|j| {
                    let k = i * PER_FILE + j;
                    chunk(&format!("v{k} = {k}")).vector(&spread((k * 7919) % n, n))
                })
                .collect();
            file(&format!("f{i}.py"), chunks)
        })
        .collect();
    for batch in files.chunks(30) {
        s.writer("big").expect("writer").replace_files(batch).expect("write");
    }
    s.writer("big").expect("writer").optimize().expect("organise");
    let query = [0.3f32, -0.5, 0.8];

    // A vector written after the organisation is found.
    s.writer("big")
        .expect("writer")
        .replace_files(&[file("new.py", vec![chunk("newest = 1").vector(&query)])])
        .expect("write new");
    let hits = usual(f, &query, 10);
    assert_eq!(hits[0].0, "new.py", "{hits:?}");
    assert!((hits[0].2 - 1.0).abs() < 1e-5);
    // …and still after the next organisation, which puts it in a list.
    s.writer("big").expect("writer").optimize().expect("organise again");
    assert_eq!(usual(f, &query, 10)[0].0, "new.py");

    // A removed vector is never a hit, and the limit is still filled.
    s.writer("big").expect("writer").remove_files(&["new.py".to_string()]).expect("remove");
    let hits = usual(f, &query, 10);
    assert!(hits.iter().all(|h| h.0 != "new.py"), "{hits:?}");

    // A re-embedded vector is scored by its new vector, once: the best hit turned away and a
    // far one turned towards the query.
    let best = hits[0].1;
    let far = s
        .reader("big")
        .expect("reader")
        .vector_search(&[-0.3, 0.5, -0.8], &SearchFilter::default(), 1, VectorAccuracy::Exact)
        .expect("far")[0]
        .id;
    let away: Vec<f32> = query.iter().map(|x| -x).collect();
    s.writer("big").expect("writer").set_embeddings(&[(best, away), (far, query.to_vec())]).expect("re-embed");
    for round in ["before", "after"] {
        let hits = usual(f, &query, 10);
        assert_eq!(hits[0].1, far, "{round} organising: {hits:?}");
        assert!((hits[0].2 - 1.0).abs() < 1e-5, "{round}: {hits:?}");
        assert!(hits.iter().all(|h| h.1 != best), "{round}: {hits:?}");
        s.writer("big").expect("writer").optimize().expect("organise after re-embedding");
    }

    // With a second snapshot every search is scoped to one; organised again, both snapshots
    // (the same files) still find exactly what the index did alone.
    let alone = usual(f, &query, 10);
    let w = s.writer("big").expect("writer");
    let spec = |name: &str| cocosearch::store::SnapshotSpec {
        name: name.into(),
        origin: cocosearch::store::SnapshotOrigin::Named,
        git_commit: None,
        git_branch: None,
        worktree: "/work/tree".into(),
    };
    let first = w.begin_snapshot(&spec("first")).expect("name the first snapshot").id;
    w.begin_snapshot(&spec("second")).expect("a second snapshot");
    w.optimize().expect("organise with two snapshots");
    assert_eq!(usual(f, &query, 10), alone, "at the current snapshot");
    let older = s
        .reader_at("big", cocosearch::store::At::Snapshot(first))
        .expect("reader at the first")
        .vector_search(&query, &SearchFilter::default(), 10, VectorAccuracy::Usual)
        .expect("search at the first");
    let older: Vec<(String, i64, f64)> = older.into_iter().map(|h| (h.path, h.id, h.score)).collect();
    assert_eq!(older, alone, "at the first snapshot");
}
