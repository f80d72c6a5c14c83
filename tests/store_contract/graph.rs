//! The code graph in the store: definitions (the symbols of the chunks), references and
//! imports written with their file, read back by name, caller, file and target, replaced and
//! removed with the file, and imports of a removed file turned missing.

use cocosearch::chunk::{ImportKind, RefKind, Reference, SymbolKind};
use cocosearch::store::glob::PathGlob;
use cocosearch::store::{
    DefQuery, FileRecord, ImportQuery, ImportRecord, ImportTarget, IndexWriter, RefQuery, Resolution, StoredImport,
};

use super::records::{ChunkExt, chunk, file};
use super::{Fixture, contract_tests};

contract_tests!(
    definitions_are_the_symbols_of_the_chunks,
    definition_queries_match_names_literally,
    references_by_name_and_by_caller,
    imports_by_file_by_target_and_all,
    rewriting_a_file_replaces_only_its_graph,
    removing_a_file_makes_imports_of_it_missing,
    import_targets_change_by_id,
    dropping_an_index_drops_its_graph,
);

fn reference(kind: RefKind, name: &str, qualifier: Option<&str>, line: u32, caller: Option<&str>) -> Reference {
    Reference {
        kind,
        name: name.into(),
        qualifier: qualifier.map(str::to_string),
        line,
        caller: caller.map(str::to_string),
    }
}

fn import(spec: &str, name: Option<&str>, line: u32, target: Option<&str>, resolution: Resolution) -> ImportRecord {
    ImportRecord {
        kind: ImportKind::Import,
        spec: spec.into(),
        name: name.map(str::to_string),
        alias: None,
        line,
        target: target.map(str::to_string),
        resolution,
    }
}

/// `file` with these imports and references.
fn with_graph(mut f: FileRecord, imports: Vec<ImportRecord>, refs: Vec<Reference>) -> FileRecord {
    f.imports = imports;
    f.refs = refs;
    f
}

/// A small project: `pkg/models.py` defines a class with a method; `pkg/api.py` imports it
/// and calls it; `app.ts` imports a package.
fn project() -> Vec<FileRecord> {
    let mut send = chunk("class Request(Base):\n    def send(self, timeout=None):\n        return self.prepare()")
        .defines(SymbolKind::Class, "Request")
        .defines(SymbolKind::Method, "Request.send");
    send.body.symbols[0].bases = vec!["Base".into()];
    send.body.symbols[1].params = vec!["self".into(), "timeout".into()];
    let models = with_graph(
        file(
            "pkg/models.py",
            vec![send, chunk("DEFAULT_TIMEOUT = 3").defines(SymbolKind::Constant, "DEFAULT_TIMEOUT")],
        ),
        vec![import(".base", Some("Base"), 1, Some("pkg/base.py"), Resolution::Exact)],
        vec![
            reference(RefKind::Inherit, "Base", None, 1, Some("Request")),
            reference(RefKind::Call, "prepare", Some("self"), 3, Some("Request.send")),
        ],
    );
    let api = with_graph(
        file(
            "pkg/api.py",
            vec![chunk("def get(url):\n    return Request().send()").defines(SymbolKind::Function, "get")],
        ),
        vec![
            import(".models", Some("Request"), 1, Some("pkg/models.py"), Resolution::Exact),
            import("os", None, 2, None, Resolution::External),
        ],
        vec![
            reference(RefKind::Call, "Request", None, 2, Some("get")),
            reference(RefKind::Call, "send", Some("<expr>"), 2, Some("get")),
        ],
    );
    let base = file("pkg/base.py", vec![chunk("class Base:\n    pass").defines(SymbolKind::Class, "Base")]);
    let ts = with_graph(
        file("web/app.ts", vec![chunk("export function send(x: number) {}").defines(SymbolKind::Function, "send")]),
        vec![import("react", Some("default"), 1, None, Resolution::External)],
        vec![reference(RefKind::Call, "send", None, 1, None)],
    );
    vec![models, api, base, ts]
}

fn definitions_are_the_symbols_of_the_chunks(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let files = project();
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let all = s
        .reader("x")
        .expect("reader")
        .definitions(&DefQuery { limit: usize::MAX, ..DefQuery::default() })
        .expect("all");
    let expected: Vec<(String, String)> = files
        .iter()
        .flat_map(|f| {
            f.chunks
                .iter()
                .flat_map(move |c| c.body.symbols.iter().map(move |s| (f.path.clone(), s.qualified_name.clone())))
        })
        .collect();
    let mut expected_sorted = expected.clone();
    expected_sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let got: Vec<(String, String)> = all.iter().map(|d| (d.path.clone(), d.symbol.qualified_name.clone())).collect();
    assert_eq!(got, expected_sorted, "every symbol of every chunk, by path and line");

    let request = all.iter().find(|d| d.symbol.qualified_name == "Request").expect("class");
    let written = &files[0].chunks[0].body.symbols[0];
    assert_eq!(&request.symbol, written, "a definition reads back as its symbol was written");
    assert_eq!(request.language, "python");
    let send = all.iter().find(|d| d.symbol.qualified_name == "Request.send").expect("method");
    assert_eq!(send.symbol.params, vec!["self", "timeout"]);
    assert_eq!(send.symbol.parent.as_deref(), Some("Request"));
    assert_eq!(
        s.reader("x")
            .expect("reader")
            .definitions(&DefQuery { limit: 2, ..DefQuery::default() })
            .expect("limited")
            .len(),
        2
    );

    let mut names = s.reader("x").expect("reader").definition_names().expect("names");
    names.sort();
    let mut expected_names: Vec<String> = expected.into_iter().map(|(_, n)| n).collect();
    expected_names.sort();
    expected_names.dedup();
    assert_eq!(names, expected_names);
}

fn definition_queries_match_names_literally(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let odd = file(
        "odd.rs",
        vec![
            chunk("fn a() {}").defines(SymbolKind::Function, "Store::a_b"),
            chunk("fn b() {}").defines(SymbolKind::Function, "Store::axb"),
            chunk("fn c() {}").defines(SymbolKind::Function, "Store::a%b"),
            chunk("fn d() {}").defines_named(SymbolKind::Function, "it's.*", "Store::it's.*"),
        ],
    );
    let mut files = project();
    files.push(odd);
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let find = |q: DefQuery| -> Vec<String> {
        s.reader("x")
            .expect("reader")
            .definitions(&DefQuery { limit: usize::MAX, ..q })
            .expect("query")
            .into_iter()
            .map(|d| format!("{}:{}", d.path, d.symbol.qualified_name))
            .collect()
    };
    let names = |n: &[&str]| DefQuery { names: n.iter().map(|s| s.to_string()).collect(), ..DefQuery::default() };
    // By own name or qualified name, case-insensitive, `::` and `.` alike.
    assert_eq!(find(names(&["send"])), vec!["pkg/models.py:Request.send", "web/app.ts:send"]);
    assert_eq!(find(names(&["request.send"])), vec!["pkg/models.py:Request.send"]);
    assert_eq!(find(names(&["store.a_b"])), vec!["odd.rs:Store::a_b"]);
    assert_eq!(find(names(&["a_b", "axb"])), vec!["odd.rs:Store::a_b", "odd.rs:Store::axb"]);
    // Contains is literal: `_`, `%`, `.`, `*` and quotes are not patterns.
    let contains = |t: &str| DefQuery { contains: Some(t.into()), ..DefQuery::default() };
    assert_eq!(find(contains("a_b")), vec!["odd.rs:Store::a_b"]);
    assert_eq!(find(contains("a%b")), vec!["odd.rs:Store::a%b"]);
    assert_eq!(find(contains("it's.*")), vec!["odd.rs:Store::it's.*"]);
    assert_eq!(find(contains("%")), vec!["odd.rs:Store::a%b"]);
    assert_eq!(find(contains("quest.se")), vec!["pkg/models.py:Request.send"]);
    // Files, kinds, languages and path globs narrow.
    let q = DefQuery { paths: vec!["pkg/models.py".into()], kinds: vec![SymbolKind::Constant], ..DefQuery::default() };
    assert_eq!(find(q), vec!["pkg/models.py:DEFAULT_TIMEOUT"]);
    let q = DefQuery { languages: vec!["typescript".into()], ..DefQuery::default() };
    assert_eq!(find(q), vec!["web/app.ts:send"]);
    let q = DefQuery { path_glob: Some(PathGlob::new("pkg/a*.py").expect("glob")), ..DefQuery::default() };
    assert_eq!(find(q), vec!["pkg/api.py:get"]);
    assert_eq!(find(names(&["nothing"])), Vec::<String>::new());
}

fn references_by_name_and_by_caller(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let files = project();
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let find = |q: RefQuery| -> Vec<String> {
        s.reader("x")
            .expect("reader")
            .references(&RefQuery { limit: usize::MAX, ..q })
            .expect("query")
            .into_iter()
            .map(|r| {
                let q = r.reference.qualifier.map(|q| format!("{q}.")).unwrap_or_default();
                format!(
                    "{}:{} {} {q}{} in {}",
                    r.path,
                    r.reference.line,
                    r.reference.kind.as_str(),
                    r.reference.name,
                    r.reference.caller.unwrap_or_default()
                )
            })
            .collect()
    };
    let by_name = |n: &[&str]| RefQuery { names: n.iter().map(|s| s.to_string()).collect(), ..RefQuery::default() };
    assert_eq!(find(by_name(&["send"])), vec!["pkg/api.py:2 call <expr>.send in get", "web/app.ts:1 call send in "]);
    assert_eq!(find(by_name(&["Send"])), Vec::<String>::new(), "names are case-sensitive");
    assert_eq!(
        find(RefQuery { callers: vec![("pkg/api.py".into(), "get".into())], ..RefQuery::default() }),
        vec!["pkg/api.py:2 call Request in get", "pkg/api.py:2 call <expr>.send in get"],
        "a caller's references in source order"
    );
    assert_eq!(
        find(RefQuery {
            callers: vec![
                ("pkg/models.py".into(), "Request.send".into()),
                ("pkg/api.py".into(), "Request.send".into())
            ],
            ..RefQuery::default()
        }),
        vec!["pkg/models.py:3 call self.prepare in Request.send"],
        "a caller is named with its file"
    );
    let q = RefQuery { names: vec!["send".into()], languages: vec!["python".into()], ..RefQuery::default() };
    assert_eq!(find(q), vec!["pkg/api.py:2 call <expr>.send in get"]);
    let q = RefQuery {
        names: vec!["send".into()],
        path_glob: Some(PathGlob::new("web").expect("glob")),
        ..RefQuery::default()
    };
    assert_eq!(find(q), vec!["web/app.ts:1 call send in "]);
    assert_eq!(
        s.reader("x")
            .expect("reader")
            .references(&RefQuery { names: vec!["send".into()], limit: 1, ..RefQuery::default() })
            .expect("limit")
            .len(),
        1
    );
    assert_eq!(find(RefQuery::default()), Vec::<String>::new(), "a query naming nothing finds nothing");
    let stored = s.reader("x").expect("reader").references(&by_name(&["prepare"]).clone()).expect("one");
    assert!(stored.is_empty(), "limit 0 reads none");
}

fn summary(imports: &[StoredImport]) -> Vec<String> {
    imports
        .iter()
        .map(|i| {
            format!(
                "{}:{} {}{} -> {} {}",
                i.path,
                i.import.line,
                i.import.spec,
                i.import.name.as_deref().map(|n| format!("::{n}")).unwrap_or_default(),
                i.import.target.as_deref().unwrap_or("-"),
                i.import.resolution.as_str()
            )
        })
        .collect()
}

fn imports_by_file_by_target_and_all(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let files = project();
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let all = s.reader("x").expect("reader").imports(&ImportQuery::default()).expect("all");
    assert_eq!(
        summary(&all),
        vec![
            "pkg/api.py:1 .models::Request -> pkg/models.py exact",
            "pkg/api.py:2 os -> - external",
            "pkg/models.py:1 .base::Base -> pkg/base.py exact",
            "web/app.ts:1 react::default -> - external",
        ]
    );
    assert_eq!(all[0].language, "python");
    assert_eq!(all[0].import, files[1].imports[0], "an import reads back as written");
    let from = s
        .reader("x")
        .expect("reader")
        .imports(&ImportQuery { from: Some(vec!["pkg/models.py".into()]), targets: None })
        .expect("from");
    assert_eq!(summary(&from), vec!["pkg/models.py:1 .base::Base -> pkg/base.py exact"]);
    let to = s
        .reader("x")
        .expect("reader")
        .imports(&ImportQuery { from: None, targets: Some(vec!["pkg/models.py".into(), "pkg/base.py".into()]) })
        .expect("to");
    assert_eq!(
        summary(&to),
        vec![
            "pkg/api.py:1 .models::Request -> pkg/models.py exact",
            "pkg/models.py:1 .base::Base -> pkg/base.py exact"
        ]
    );
    let none =
        s.reader("x").expect("reader").imports(&ImportQuery { from: Some(Vec::new()), targets: None }).expect("none");
    assert!(none.is_empty());
}

fn rewriting_a_file_replaces_only_its_graph(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let files = project();
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    let others_before = (
        s.reader("x")
            .expect("reader")
            .imports(&ImportQuery { from: Some(vec!["pkg/models.py".into()]), targets: None })
            .expect("i"),
        s.reader("x")
            .expect("reader")
            .references(&RefQuery {
                names: vec!["prepare".into(), "Base".into()],
                limit: usize::MAX,
                ..RefQuery::default()
            })
            .expect("r"),
        s.reader("x")
            .expect("reader")
            .definitions(&DefQuery { paths: vec!["pkg/models.py".into()], limit: usize::MAX, ..DefQuery::default() })
            .expect("d"),
    );
    let api = with_graph(
        file("pkg/api.py", vec![chunk("def post(url):\n    return send()").defines(SymbolKind::Function, "post")]),
        vec![import(".sessions", Some("send"), 1, None, Resolution::Missing)],
        vec![reference(RefKind::Call, "send", None, 2, Some("post"))],
    );
    s.writer("x").expect("writer").replace_files(&[api]).expect("rewrite");
    let api_imports = s
        .reader("x")
        .expect("reader")
        .imports(&ImportQuery { from: Some(vec!["pkg/api.py".into()]), targets: None })
        .expect("api");
    assert_eq!(summary(&api_imports), vec!["pkg/api.py:1 .sessions::send -> - missing"]);
    let api_refs = s
        .reader("x")
        .expect("reader")
        .references(&RefQuery {
            callers: vec![("pkg/api.py".into(), "get".into()), ("pkg/api.py".into(), "post".into())],
            limit: usize::MAX,
            ..RefQuery::default()
        })
        .expect("refs");
    assert_eq!(
        api_refs.iter().map(|r| (r.reference.name.as_str(), r.reference.caller.as_deref())).collect::<Vec<_>>(),
        vec![("send", Some("post"))]
    );
    let api_defs = s
        .reader("x")
        .expect("reader")
        .definitions(&DefQuery { paths: vec!["pkg/api.py".into()], limit: usize::MAX, ..DefQuery::default() })
        .expect("defs");
    assert_eq!(api_defs.iter().map(|d| d.symbol.qualified_name.as_str()).collect::<Vec<_>>(), vec!["post"]);
    let others_after = (
        s.reader("x")
            .expect("reader")
            .imports(&ImportQuery { from: Some(vec!["pkg/models.py".into()]), targets: None })
            .expect("i"),
        s.reader("x")
            .expect("reader")
            .references(&RefQuery {
                names: vec!["prepare".into(), "Base".into()],
                limit: usize::MAX,
                ..RefQuery::default()
            })
            .expect("r"),
        s.reader("x")
            .expect("reader")
            .definitions(&DefQuery { paths: vec!["pkg/models.py".into()], limit: usize::MAX, ..DefQuery::default() })
            .expect("d"),
    );
    assert_eq!(others_before, others_after, "another file's graph is untouched");
}

fn removing_a_file_makes_imports_of_it_missing(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    let mut files = project();
    files.push(with_graph(
        file("pkg/cli.py", vec![chunk("import pkg.models")]),
        vec![import("pkg.models", None, 1, Some("pkg/models.py"), Resolution::Exact)],
        Vec::new(),
    ));
    s.writer("x").expect("writer").replace_files(&files).expect("write");
    assert_eq!(s.writer("x").expect("writer").remove_files(&["pkg/models.py".into()]).expect("remove"), 1);
    let all = s.reader("x").expect("reader").imports(&ImportQuery::default()).expect("all");
    assert_eq!(
        summary(&all),
        vec![
            "pkg/api.py:1 .models::Request -> - missing",
            "pkg/api.py:2 os -> - external",
            "pkg/cli.py:1 pkg.models -> - missing",
            "web/app.ts:1 react::default -> - external",
        ],
        "the removed file's imports are gone; imports of it are missing"
    );
    let defs = s
        .reader("x")
        .expect("reader")
        .definitions(&DefQuery { paths: vec!["pkg/models.py".into()], limit: usize::MAX, ..DefQuery::default() })
        .expect("defs");
    assert!(defs.is_empty());
    let refs = s
        .reader("x")
        .expect("reader")
        .references(&RefQuery { names: vec!["prepare".into()], limit: usize::MAX, ..RefQuery::default() })
        .expect("refs");
    assert!(refs.is_empty());
    assert!(s.reader("x").expect("reader").definition_names().expect("names").iter().all(|n| n != "Request.send"));
}

fn import_targets_change_by_id(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    s.writer("x").expect("writer").replace_files(&project()).expect("write");
    let all = s.reader("x").expect("reader").imports(&ImportQuery::default()).expect("all");
    let os = all.iter().find(|i| i.import.spec == "os").expect("os");
    let gone_id = all.iter().map(|i| i.id).max().unwrap_or(0) + 1000;
    s.writer("x")
        .expect("writer")
        .set_import_targets(&[
            ImportTarget { id: os.id, target: Some("os/".into()), resolution: Resolution::Heuristic },
            ImportTarget { id: gone_id, target: Some("x.py".into()), resolution: Resolution::Exact },
        ])
        .expect("set");
    s.writer("x").expect("writer").set_import_targets(&[]).expect("nothing to set");
    let after = s.reader("x").expect("reader").imports(&ImportQuery::default()).expect("all");
    assert_eq!(after.len(), all.len(), "an unknown id adds nothing");
    for (a, b) in all.iter().zip(&after) {
        if a.id == os.id {
            assert_eq!((b.import.target.as_deref(), b.import.resolution), (Some("os/"), Resolution::Heuristic));
        } else {
            assert_eq!(a, b);
        }
    }
    let by_dir = s
        .reader("x")
        .expect("reader")
        .imports(&ImportQuery { from: None, targets: Some(vec!["os/".into()]) })
        .expect("dir");
    assert_eq!(by_dir.iter().map(|i| i.id).collect::<Vec<_>>(), vec![os.id]);
}

fn dropping_an_index_drops_its_graph(f: &Fixture) {
    let s = &f.store;
    f.index("x");
    s.writer("x").expect("writer").replace_files(&project()).expect("write");
    let lock: Box<dyn IndexWriter> = s.writer("x").expect("lock");
    assert!(lock.drop_index().expect("drop"));
    drop(lock);
    f.index("x");
    assert!(
        s.reader("x")
            .expect("reader")
            .definitions(&DefQuery { limit: usize::MAX, ..DefQuery::default() })
            .expect("defs")
            .is_empty()
    );
    assert!(s.reader("x").expect("reader").imports(&ImportQuery::default()).expect("imports").is_empty());
    assert!(s.reader("x").expect("reader").definition_names().expect("names").is_empty());
}
