//! What a chunk says about itself: every field read back as written, the symbols it defines
//! found by name, and their definition spans.

use std::collections::{BTreeSet, HashMap};

use cocosearch::chunk::{ParseStatus, SymbolKind};
use cocosearch::store::glob::PathGlob;
use cocosearch::store::{ChunkBody, SearchFilter, SymbolRecord};

use super::records::{ChunkExt, chunk, file};
use super::{Fixture, contract_tests};
use crate::support::all_chunks;

contract_tests!(
    chunks_read_back_every_field,
    symbols_are_found_by_name_and_qualified_name,
    definition_spans_by_file_and_qualified_name,
    the_chunks_of_files_are_read_by_path,
);

fn chunks_read_back_every_field(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let full = ChunkBody {
        byte_start: 0,
        byte_end: 0,
        line_start: 0,
        line_end: 0,
        content: "    def get(self, key: str) -> \"Value\":\n        return self._d.get(key)  # ünïcödé ✓ 日本".into(),
        symbol_type: Some(SymbolKind::Method),
        symbol_name: Some("get".into()),
        qualified_name: Some("Session.Cache.get".into()),
        signature: Some("def get(self, key: str) -> \"Value\":".into()),
        symbols: vec![
            SymbolRecord {
                kind: SymbolKind::Method,
                name: "get".into(),
                qualified_name: "Session.Cache.get".into(),
                signature: "def get(self, key: str) -> \"Value\":".into(),
                parent: Some("Session.Cache".into()),
                start_line: Some(11),
                end_line: Some(12),
                params: vec!["self".into(), "key: str".into()],
                bases: Vec::new(),
            },
            SymbolRecord {
                kind: SymbolKind::Constant,
                name: "LIMIT".into(),
                qualified_name: "Session.Cache.LIMIT".into(),
                signature: "LIMIT = 3".into(),
                parent: None,
                start_line: None,
                end_line: None,
                params: Vec::new(),
                bases: Vec::new(),
            },
        ],
        context: "class Session:\n    class Cache:".into(),
        enclosing: Some("Session.Cache".into()),
        parse_status: ParseStatus::Partial,
    };
    let mut rich = chunk(&full.content);
    rich.body = full.clone();
    rich.parent = Some("Session.Cache".into());
    let statuses = [ParseStatus::Ok, ParseStatus::Error, ParseStatus::Unsupported];
    let plain: Vec<_> = statuses.iter().map(|st| chunk(&format!("plain {st}")).status(*st)).collect();
    let mut chunks = vec![rich];
    chunks.extend(plain);
    let record = file("pkg/session.py", chunks);
    s.writer("x").expect("writer").replace_files(std::slice::from_ref(&record)).expect("write");

    let stored = all_chunks(s.as_ref(), "x");
    assert_eq!(stored.len(), 4);
    for (i, (got, written)) in stored.iter().zip(&record.chunks).enumerate() {
        assert_eq!(got.path, "pkg/session.py");
        assert_eq!(got.language, "python");
        assert_eq!(got.ordinal, i as u32);
        assert_eq!(got.body, written.body, "chunk {i} reads back as written");
    }
    assert_eq!(stored[0].body.symbols[0].start_line, Some(11), "recorded lines are kept, not recomputed");
    assert_eq!(stored[0].body.symbols[1].start_line, Some(1), "the builder's lines for the constant");
    assert_eq!(
        stored.iter().map(|c| c.body.parse_status).collect::<Vec<_>>(),
        vec![ParseStatus::Partial, ParseStatus::Ok, ParseStatus::Error, ParseStatus::Unsupported]
    );
    // The ranges are those of the file's text (the builder joins chunks by a blank line).
    let text = record.chunks.iter().map(|c| c.body.content.as_str()).collect::<Vec<_>>().join("\n\n");
    for c in &stored {
        assert_eq!(&text[c.body.byte_start as usize..c.body.byte_end as usize], c.body.content);
    }

    // Any order; missing ids are skipped.
    let ids: Vec<i64> = stored.iter().map(|c| c.id).collect();
    let missing = ids.iter().max().expect("ids") + 1000;
    let mut some = s.reader("x").expect("reader").chunks(&[ids[2], missing, ids[0]]).expect("chunks");
    some.sort_by_key(|c| c.ordinal);
    assert_eq!(some, vec![stored[0].clone(), stored[2].clone()]);
    assert!(s.reader("x").expect("reader").chunks(&[]).expect("no ids").is_empty());
    assert!(s.reader("x").expect("reader").chunks(&[missing]).expect("missing").is_empty());
}

fn symbol_corpus(f: &Fixture) {
    f.index("x");
    let files = vec![
        file(
            "src/users.py",
            vec![
                chunk("class UserStore:\n    pass").defines(SymbolKind::Class, "UserStore"),
                chunk("    def get_user_by_id(self, user_id):\n        return self.users.get(user_id)")
                    .defines(SymbolKind::Method, "UserStore.get_user_by_id"),
                chunk("# get_user_by_id is mentioned, not defined"),
            ],
        ),
        file(
            "src/lexer.rs",
            vec![chunk("pub fn new() -> Lexer {\n    Lexer {}\n}").defines(SymbolKind::Function, "lexer::new")],
        ),
        file(
            "web/app.js",
            vec![chunk("function getUserById(id) {\n  return db[id];\n}").defines(SymbolKind::Function, "getUserById")],
        ),
        file(
            "src/two.py",
            vec![
                chunk("def first():\n    pass\n\ndef second():\n    pass")
                    .defines(SymbolKind::Function, "first")
                    .defines(SymbolKind::Function, "second"),
            ],
        ),
    ];
    f.store.writer("x").expect("writer").replace_files(&files).expect("write");
}

fn symbols_are_found_by_name_and_qualified_name(f: &Fixture) {
    symbol_corpus(f);
    let s = &f.store;
    let find = |names: &[&str], filter: &SearchFilter| -> BTreeSet<(String, String)> {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let hits = s.reader("x").expect("reader").symbol_search(&names, filter, 50).expect("symbol search");
        assert!(hits.iter().all(|h| h.score == 1.0), "a symbol match scores 1: {hits:?}");
        let chunks =
            s.reader("x").expect("reader").chunks(&hits.iter().map(|h| h.id).collect::<Vec<_>>()).expect("chunks");
        assert_eq!(chunks.len(), hits.len(), "a chunk is found once");
        for h in &hits {
            assert_eq!(Some(&h.path), chunks.iter().find(|c| c.id == h.id).map(|c| &c.path));
        }
        chunks.into_iter().map(|c| (c.path, c.body.symbols[0].qualified_name.clone())).collect()
    };
    let pair = |p: &str, q: &str| (p.to_string(), q.to_string());
    let all = SearchFilter::default();
    assert_eq!(find(&["get_user_by_id"], &all), BTreeSet::from([pair("src/users.py", "UserStore.get_user_by_id")]));
    assert_eq!(
        find(&["userstore.get_user_by_id"], &all),
        BTreeSet::from([pair("src/users.py", "UserStore.get_user_by_id")]),
        "the qualified name, lowercase"
    );
    assert_eq!(find(&["getuserbyid"], &all), BTreeSet::from([pair("web/app.js", "getUserById")]));
    assert_eq!(find(&["lexer::new"], &all), BTreeSet::from([pair("src/lexer.rs", "lexer::new")]));
    assert_eq!(find(&["lexer.new"], &all), BTreeSet::from([pair("src/lexer.rs", "lexer::new")]), "`::` spelled `.`");
    assert_eq!(find(&["new"], &all), BTreeSet::from([pair("src/lexer.rs", "lexer::new")]));
    assert_eq!(find(&["second"], &all), BTreeSet::from([pair("src/two.py", "first")]), "any symbol of the chunk");
    assert_eq!(find(&["userstore", "new", "nothing"], &all).len(), 2);
    assert!(find(&["user"], &all).is_empty(), "names match whole");
    assert!(find(&[], &all).is_empty());
    assert!(find(&["GetUserById"], &all).is_empty(), "names are given lowercase");

    // Filters, and the limit.
    let py = SearchFilter { languages: vec!["python".into()], ..SearchFilter::default() };
    assert_eq!(find(&["getuserbyid", "get_user_by_id"], &py).len(), 1);
    let web = SearchFilter { path_glob: Some(PathGlob::new("web/").expect("glob")), ..SearchFilter::default() };
    assert_eq!(find(&["getuserbyid", "get_user_by_id"], &web), BTreeSet::from([pair("web/app.js", "getUserById")]));
    let classes = SearchFilter { symbol_types: vec![SymbolKind::Class], ..SearchFilter::default() };
    assert_eq!(find(&["userstore", "get_user_by_id"], &classes), BTreeSet::from([pair("src/users.py", "UserStore")]));
    let names = vec!["userstore".to_string(), "new".to_string(), "first".to_string()];
    assert_eq!(s.reader("x").expect("reader").symbol_search(&names, &all, 2).expect("limited").len(), 2);
}

fn definition_spans_by_file_and_qualified_name(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let files = vec![
        file(
            "both.py",
            vec![
                chunk("def parse_header(line):\n    return line.strip()").defines(SymbolKind::Function, "parse_header"),
            ],
        ),
        file("neither.py", vec![chunk("def render(x):\n    return x").defines(SymbolKind::Function, "render")]),
        file(
            "cls.py",
            vec![
                chunk("class Session:\n    x = 1").defines(SymbolKind::Class, "Session"),
                chunk("    def get(self):\n        return 1\n    # end").defines(SymbolKind::Method, "Session.get"),
            ],
        ),
    ];
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let wanted = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(p, k)| (p.to_string(), k.to_string())).collect()
    };
    let function = [SymbolKind::Function];
    let spans = s
        .reader("x")
        .expect("reader")
        .symbol_spans(&wanted(&[("both.py", "parse_header"), ("neither.py", "render")]), &function)
        .expect("spans");
    assert_eq!(spans, HashMap::from([("both.py".into(), vec![(1, 2)]), ("neither.py".into(), vec![(1, 2)])]));
    // Another file's symbol, or another kind, is not found.
    let none =
        s.reader("x").expect("reader").symbol_spans(&wanted(&[("both.py", "render")]), &function).expect("spans");
    assert!(none.is_empty(), "{none:?}");
    let none = s
        .reader("x")
        .expect("reader")
        .symbol_spans(&wanted(&[("both.py", "parse_header")]), &[SymbolKind::Class])
        .expect("spans");
    assert!(none.is_empty(), "{none:?}");
    // Qualified names, lowercase, from the chunk where each definition starts; several kinds.
    let spans = s
        .reader("x")
        .expect("reader")
        .symbol_spans(
            &wanted(&[("cls.py", "session.get"), ("cls.py", "session")]),
            &[SymbolKind::Class, SymbolKind::Method],
        )
        .expect("spans");
    let mut got = spans.get("cls.py").cloned().unwrap_or_default();
    got.sort_unstable();
    assert_eq!(got, vec![(1, 2), (4, 6)], "{spans:?}");
    let none = s
        .reader("x")
        .expect("reader")
        .symbol_spans(&wanted(&[("cls.py", "get")]), &[SymbolKind::Method])
        .expect("spans");
    assert!(none.is_empty(), "the own name is not the qualified name: {none:?}");
}

fn the_chunks_of_files_are_read_by_path(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    f.index("other");
    let records = vec![
        file("a.py", vec![chunk("def one():\n    pass"), chunk("def two():\n    pass")]),
        file("b.py", vec![chunk("def three():\n    pass")]),
        file("c.py", vec![chunk("def four():\n    pass")]),
    ];
    s.writer("x").expect("writer").replace_files(&records).expect("write");
    s.writer("other").expect("writer").replace_files(&records[..1]).expect("write other");
    let stored = all_chunks(s.as_ref(), "x");

    let mut got = s
        .reader("x")
        .expect("reader")
        .file_chunks(&["c.py".to_string(), "a.py".to_string(), "gone.py".to_string()])
        .expect("read");
    got.sort_by(|a, b| (&a.path, a.ordinal).cmp(&(&b.path, b.ordinal)));
    let wanted: Vec<_> = stored.iter().filter(|c| c.path != "b.py").cloned().collect();
    assert_eq!(got, wanted, "every chunk of the named files, read back whole; unknown paths skipped");
    assert!(s.reader("x").expect("reader").file_chunks(&[]).expect("no paths").is_empty());
    let only_other =
        s.reader("other").expect("reader").file_chunks(&["a.py".to_string(), "b.py".to_string()]).expect("other");
    assert_eq!(only_other.len(), 2, "another index's files are its own");
}
