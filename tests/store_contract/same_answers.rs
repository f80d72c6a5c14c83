//! Both backends, filled with the same records, answer every query alike: the same keyword
//! candidates with the same counts, the same vector hits in the same order with the same
//! scores, the same symbols, statistics and counts. Chunk ids differ between stores, so
//! chunks are compared by their place (path, ordinal).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use cocosearch::chunk::{ParseStatus, SymbolKind};
use cocosearch::discover::SkipReason;
use cocosearch::store::glob::{NameGlob, PathGlob};
use cocosearch::store::{
    Backend, FileRecord, KeywordQuery, KeywordTerm, NewIndex, SearchFilter, Store, VectorAccuracy,
};

use super::DIMENSION;
use super::records::{ChunkExt, chunk, error_at, file, skipped};
use crate::support::{TestCtx, all_chunks};

type Place = (String, u32);

/// A deterministic pseudo-random vector (xorshift), so no two chunks tie.
fn vector(seed: u64) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..DIMENSION)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// A corpus touching every feature: languages, symbols of many kinds, parse statuses, pending
/// and embedded chunks, repeated words, skipped files.
fn corpus() -> Vec<FileRecord> {
    let words = ["retry", "upload", "parse", "header", "user", "store", "cache", "query", "error", "render"];
    let kinds = [SymbolKind::Function, SymbolKind::Class, SymbolKind::Method, SymbolKind::Struct, SymbolKind::Heading];
    let dirs = ["src", "src/net", "web", "docs", "tests"];
    let exts = ["py", "rs", "js", "md", "go"];
    let mut files = Vec::new();
    for i in 0..30u64 {
        let path = format!("{}/f{i:02}.{}", dirs[(i % 5) as usize], exts[((i / 5) % 5) as usize]);
        let chunks = (0..(1 + i % 4))
            .map(|j| {
                let a = words[((i + j) % 10) as usize];
                let b = words[((i * 3 + j) % 10) as usize];
                let name = format!("{a}_{b}_{i}_{j}");
                let text = format!("def {name}({b}):\n    {a}({b}) # {a} then {b} {a}\n    return {a}_{b}");
                let kind = kinds[((i + j) % 5) as usize];
                let mut c = chunk(&text).defines(kind, &format!("Owner{i}.{name}"));
                if (i + j) % 3 != 0 {
                    c = c.vector(&vector(i * 10 + j + 1));
                }
                if (i + j) % 7 == 0 {
                    c = c.status(ParseStatus::Partial);
                }
                c
            })
            .collect();
        let mut f = file(&path, chunks);
        if f.parse_status == Some(ParseStatus::Partial) {
            f.parse_errors = vec![error_at(2, 4)];
        }
        files.push(f);
    }
    files.push(file(
        "notes.txt",
        vec![chunk("retry notes").keywords(&"retry ".repeat(300)).status(ParseStatus::Unsupported)],
    ));
    files.push(skipped("blob.bin", SkipReason::Binary));
    files
}

fn fill(store: &dyn Store, files: &[FileRecord]) {
    store
        .create_index(&NewIndex {
            name: "same".into(),
            root: "/same".into(),
            provider: "ollama".into(),
            model: None,
            dimension: None,
            context_tokens: None,
        })
        .expect("create");
    store.writer("same").expect("writer").set_model("test-model", DIMENSION).expect("model");
    // In two batches with a replacement and a removal, so the statistics went through updates.
    let (first, second) = files.split_at(files.len() / 2);
    store.writer("same").expect("writer").replace_files(first).expect("write first half");
    store
        .writer("same")
        .expect("writer")
        .replace_files(&[file("src/f00.py", vec![chunk("placeholder")])])
        .expect("placeholder");
    store.writer("same").expect("writer").replace_files(second).expect("write second half");
    store.writer("same").expect("writer").replace_files(&first[..1]).expect("restore f00");
    store
        .writer("same")
        .expect("writer")
        .replace_files(&[file("gone.py", vec![chunk("def gone():\n    pass")])])
        .expect("gone");
    assert_eq!(store.writer("same").expect("writer").remove_files(&["gone.py".to_string()]).expect("remove"), 1);
}

/// One store and the places of its chunk ids.
struct Side {
    store: Arc<dyn Store>,
    places: HashMap<i64, Place>,
}

impl Side {
    fn place(&self, id: i64) -> Place {
        self.places.get(&id).cloned().unwrap_or_else(|| panic!("id {id} is no chunk of the index"))
    }

    fn keyword(&self, query: &KeywordQuery, filter: &SearchFilter) -> BTreeMap<Place, (u32, Vec<u32>)> {
        let found =
            self.store.reader("same").expect("reader").keyword_candidates(query, filter).expect("keyword candidates");
        found.into_iter().map(|c| (self.place(c.id), (c.length, c.frequencies))).collect()
    }

    fn vector(&self, query: &[f32], filter: &SearchFilter, accuracy: VectorAccuracy) -> Vec<(Place, f64)> {
        let hits = self
            .store
            .reader("same")
            .expect("reader")
            .vector_search(query, filter, 12, accuracy)
            .expect("vector search");
        hits.into_iter().map(|h| (self.place(h.id), h.score)).collect()
    }

    fn symbols(&self, names: &[String], filter: &SearchFilter) -> BTreeSet<Place> {
        let hits =
            self.store.reader("same").expect("reader").symbol_search(names, filter, 1000).expect("symbol search");
        hits.into_iter().map(|h| self.place(h.id)).collect()
    }
}

#[test]
fn both_backends_answer_alike() {
    let t = TestCtx::new("same_answers");
    let files = corpus();
    let sides: Vec<Side> = [Backend::Postgres, Backend::Sqlite]
        .into_iter()
        .map(|backend| {
            let store = t.store(backend);
            fill(store.as_ref(), &files);
            let places = all_chunks(store.as_ref(), "same").into_iter().map(|c| (c.id, (c.path, c.ordinal))).collect();
            Side { store, places }
        })
        .collect();
    let (pg, lite) = (&sides[0], &sides[1]);

    // What is stored.
    let bodies = |s: &Side| -> Vec<_> {
        all_chunks(s.store.as_ref(), "same").into_iter().map(|c| (c.path, c.ordinal, c.language, c.body)).collect()
    };
    assert_eq!(bodies(pg), bodies(lite), "stored chunks");
    let states = |s: &Side| s.store.reader("same").expect("reader").file_states(None).expect("states");
    assert_eq!(states(pg), states(lite), "file states");
    let counts = |s: &Side| {
        let mut c = s.store.reader("same").expect("reader").index_counts().expect("counts");
        c.storage_bytes = 0;
        c
    };
    assert_eq!(counts(pg), counts(lite), "index counts");
    assert_eq!(
        pg.store.reader("same").expect("reader").failing_files(100).expect("failing"),
        lite.store.reader("same").expect("reader").failing_files(100).expect("failing")
    );
    assert_eq!(
        pg.store.reader("same").expect("reader").count_pending().expect("p"),
        lite.store.reader("same").expect("reader").count_pending().expect("p")
    );
    assert_eq!(
        pg.store.reader("same").expect("reader").embedded_hashes().expect("h"),
        lite.store.reader("same").expect("reader").embedded_hashes().expect("h")
    );
    let terms: Vec<String> = files
        .iter()
        .flat_map(|f| &f.chunks)
        .flat_map(|c| c.keywords.split_ascii_whitespace().map(str::to_string))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .chain(["absent".to_string()])
        .collect();
    assert_eq!(
        pg.store.reader("same").expect("reader").term_stats(&terms).expect("s"),
        lite.store.reader("same").expect("reader").term_stats(&terms).expect("s")
    );

    // Queries, each with and without filters.
    let filters = [
        SearchFilter::default(),
        SearchFilter { languages: vec!["python".into(), "rust".into()], ..SearchFilter::default() },
        SearchFilter { path_glob: Some(PathGlob::new("src/").expect("glob")), ..SearchFilter::default() },
        SearchFilter { path_glob: Some(PathGlob::new("*.{md,go}").expect("glob")), ..SearchFilter::default() },
        SearchFilter { symbol_types: vec![SymbolKind::Method, SymbolKind::Heading], ..SearchFilter::default() },
        SearchFilter { symbol_name_glob: Some(NameGlob::new("retry_*").expect("glob")), ..SearchFilter::default() },
        SearchFilter {
            languages: vec!["python".into()],
            path_glob: Some(PathGlob::new("src/**").expect("glob")),
            symbol_types: vec![SymbolKind::Function],
            symbol_name_glob: Some(NameGlob::new("*_1?_*").expect("glob")),
        },
    ];
    let word = |w: &str| KeywordTerm::Word(w.to_string());
    let queries = [
        KeywordQuery { terms: vec![word("retry")], select: vec![vec![0]], max_candidates: None },
        KeywordQuery { terms: vec![word("retry"), word("user")], select: vec![vec![0, 1]], max_candidates: None },
        KeywordQuery {
            terms: vec![word("parse"), word("header"), word("user")],
            select: vec![vec![2]],
            max_candidates: None,
        },
        KeywordQuery {
            terms: vec![KeywordTerm::Phrase(vec!["retry".into(), "then".into()]), word("cache"), word("absent")],
            select: vec![vec![0], vec![1, 2]],
            max_candidates: None,
        },
    ];
    for (qi, query) in queries.iter().enumerate() {
        assert!(!pg.keyword(query, &filters[0]).is_empty(), "keyword query {qi} finds something");
        for (fi, filter) in filters.iter().enumerate() {
            assert_eq!(pg.keyword(query, filter), lite.keyword(query, filter), "keyword query {qi}, filter {fi}");
        }
    }
    for seed in [101u64, 202, 303] {
        let query = vector(seed);
        for (fi, filter) in filters.iter().enumerate() {
            for accuracy in [VectorAccuracy::Exact, VectorAccuracy::Usual] {
                let (a, b) = (pg.vector(&query, filter, accuracy), lite.vector(&query, filter, accuracy));
                let places = |hits: &[(Place, f64)]| hits.iter().map(|h| h.0.clone()).collect::<Vec<_>>();
                assert_eq!(places(&a), places(&b), "vector query {seed}, filter {fi}, {accuracy:?}");
                for ((place, x), (_, y)) in a.iter().zip(&b) {
                    assert!((x - y).abs() < 1e-5, "{place:?}: scores {x} and {y}");
                }
            }
        }
    }
    let symbols: Vec<_> = files.iter().flat_map(|f| &f.chunks).flat_map(|c| &c.body.symbols).collect();
    let names: Vec<String> = symbols
        .iter()
        .step_by(4)
        .map(|s| s.name.to_lowercase())
        .chain(symbols.iter().step_by(5).map(|s| s.qualified_name.to_lowercase()))
        .chain(["nothing".to_string()])
        .collect();
    assert!(!pg.symbols(&names, &filters[0]).is_empty());
    for (fi, filter) in filters.iter().enumerate() {
        assert_eq!(pg.symbols(&names, filter), lite.symbols(&names, filter), "symbol search, filter {fi}");
    }
    let wanted: Vec<(String, String)> = files
        .iter()
        .flat_map(|f| {
            f.chunks.iter().flat_map(move |c| {
                c.body.symbols.iter().map(move |s| (f.path.clone(), s.qualified_name.to_lowercase()))
            })
        })
        .step_by(3)
        .collect();
    let kinds = [SymbolKind::Function, SymbolKind::Method, SymbolKind::Heading];
    let spans = |s: &Side| {
        let mut spans = s.store.reader("same").expect("reader").symbol_spans(&wanted, &kinds).expect("spans");
        spans.values_mut().for_each(|v| v.sort_unstable());
        spans
    };
    assert_eq!(spans(pg), spans(lite), "definition spans");
}
