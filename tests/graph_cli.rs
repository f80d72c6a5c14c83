//! The code graph through the binary: a corpus with one small project per language
//! (`tests/fixtures/graph`) whose every import edge, reference and chain is known, checked
//! exactly on both backends; incremental edits and deletions; bad input.

use std::collections::BTreeSet;
use std::path::Path;

use cocosearch::store::Backend;
use serde_json::Value;

use crate::cstest;
use crate::support::{Run, TestCtx, run};

/// Copies the corpus into the test's project directory.
pub(crate) fn write_corpus(t: &TestCtx) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph");
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read fixture dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(&root).expect("inside").to_string_lossy().into_owned();
                t.write(&relative, std::fs::read(&path).expect("read fixture"));
            }
        }
    }
}

fn index(t: &TestCtx, backend: Backend) {
    let out = run(t.cmd_on(backend), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
}

fn json(t: &TestCtx, backend: Backend, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = run(t.cmd_on(backend), &all);
    assert_eq!(out.code, 0, "{all:?}: {out:?}");
    out.json()
}

/// Every import edge of the index: `from -> to resolution` (or `from -> (spec) resolution`).
fn edges(t: &TestCtx, backend: Backend) -> BTreeSet<String> {
    let deps = json(t, backend, &["deps", ".", "--limit", "1000"]);
    deps["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| {
            let to = match e["to"].as_str() {
                Some(to) => to.to_string(),
                None => format!("({})", e["spec"].as_str().unwrap_or_default()),
            };
            format!(
                "{} -> {to} {}",
                e["from"].as_str().unwrap_or_default(),
                e["resolution"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// The corpus's whole import graph, as the languages define it.
const EDGES: &[&str] = &[
    ".github/workflows/ci.yml -> (actions/checkout@v4) external",
    ".github/workflows/ci.yml -> .github/actions/setup/action.yml exact",
    ".github/workflows/ci.yml -> .github/workflows/deploy.yml exact",
    "README.md -> docs/guide.md exact",
    "README.md -> pkg/models.py exact",
    "app.py -> (pkg.gone) external",
    "app.py -> pkg/__init__.py exact",
    "app.py -> pkg/models.py exact",
    "c/main.c -> (<stdio.h>) external",
    "c/main.c -> c/util.h exact",
    "c/util.c -> c/util.h exact",
    "cs/App/Program.cs -> cs/App/Models/ heuristic",
    "docker/Dockerfile -> (alpine) external",
    "docker/Dockerfile -> (golang:1.22) external",
    "docker/compose.yml -> docker/common.yml exact",
    "docs/guide.md -> README.md exact",
    "go/cmd/main.go -> go/store/ exact",
    "infra/main.tf -> infra/modules/net/ exact",
    "java/src/main/java/com/demo/App.java -> java/src/main/java/com/demo/util/Helper.java exact",
    "kt/src/com/k/app/Main.kt -> kt/src/com/k/Tools.kt exact",
    "php/index.php -> php/src/Models/User.php exact",
    "pkg/__init__.py -> pkg/models.py exact",
    "pkg/cutter.py -> pkg/tools.py exact",
    "pkg/models.py -> (os) external",
    "pkg/models.py -> pkg/base.py exact",
    "ruby/app.rb -> ruby/lib/greeter.rb exact",
    "rust/src/lib.rs -> rust/src/lexer.rs exact",
    "rust/src/lib.rs -> rust/src/parser.rs exact",
    "rust/src/parser.rs -> rust/src/lexer.rs exact",
    "scala/src/com/s/Main.scala -> scala/src/com/s/Service.scala exact",
    "scripts/run.sh -> scripts/common.sh exact",
    "scripts/run.sh -> scripts/env.sh heuristic",
    "web/src/app.ts -> (react) external",
    "web/src/app.ts -> web/src/util.ts exact",
    "web/src/main.ts -> web/src/app.ts exact",
];

/// `path:line kind qualifier.name in caller certainty` for each use of `query`.
fn refs(t: &TestCtx, backend: Backend, query: &str) -> Vec<String> {
    let answer = json(t, backend, &["refs", query]);
    answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let used = match r["qualifier"].as_str() {
                Some(q) => format!("{q}.{}", r["name"].as_str().unwrap_or_default()),
                None => r["name"].as_str().unwrap_or_default().to_string(),
            };
            let caller = r["caller"]["qualified_name"].as_str().unwrap_or("-");
            format!(
                "{}:{} {} {used} in {caller} {}",
                r["path"].as_str().unwrap_or_default(),
                r["line"],
                r["kind"].as_str().unwrap_or_default(),
                r["certainty"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// The uses of a symbol in every language, as the languages' rules tie them.
fn check_references(t: &TestCtx, backend: Backend) {
    let cases: &[(&str, &[&str])] = &[
        ("helper", &["app.py:9 call helper in main exact", "pkg/models.py:8 call helper in Model.save exact"]),
        ("Model.validate", &["pkg/models.py:7 call self.validate in Model.save exact"]),
        ("Model", &["app.py:7 call Model in main exact"]),
        ("Base", &["pkg/models.py:5 inherit Base in Model exact"]),
        // Imported under an alias, called by it.
        ("shorten", &["pkg/cutter.py:5 call cut in trim exact"]),
        ("fmt", &["web/src/app.ts:5 call fmt in render exact"]),
        ("render", &["web/src/main.ts:3 call render in - exact"]),
        ("Open", &["go/cmd/main.go:6 call store.Open in main exact"]),
        ("Lexer::new", &["rust/src/parser.rs:4 call Lexer.new in parse exact"]),
        ("Helper.help", &["java/src/main/java/com/demo/App.java:7 call Helper.help in App.run exact"]),
        ("add", &["c/main.c:4 call add in main exact"]),
        ("setup", &["scripts/run.sh:3 call setup in - exact"]),
        ("find", &["php/index.php:5 call User.find in - exact"]),
        ("Tools", &["kt/src/com/k/app/Main.kt:5 call Tools in main exact"]),
        ("Service", &["scala/src/com/s/Main.scala:3 call Service in Main exact"]),
        ("variable.region", &["infra/main.tf:8 use var.region in resource.aws_s3_bucket.logs exact"]),
        ("aws_s3_bucket.logs", &["infra/main.tf:12 use resource.aws_s3_bucket.logs in output.arn exact"]),
        ("build", &["docker/Dockerfile:4 stage build in alpine exact"]),
        ("db", &["docker/compose.yml:3 depends_on db in web exact"]),
    ];
    for (query, expected) in cases {
        assert_eq!(refs(t, backend, query), *expected, "refs {query} on {backend}");
    }
}

fn graph_of_every_language(backend: Backend) {
    let t = TestCtx::new(&format!("graph_every_language_{backend}"));
    write_corpus(&t);
    index(&t, backend);
    let expected: BTreeSet<String> = EDGES.iter().map(|e| e.to_string()).collect();
    assert_eq!(edges(&t, backend), expected, "the import graph on {backend}");
    check_references(&t, backend);

    // Definitions by name, qualified name, impl form, part of one; parameters and bases.
    let symbol = json(&t, backend, &["symbol", "Model.save"]);
    let found = &symbol["results"][0];
    assert_eq!(
        (found["path"].as_str(), found["start_line"].as_u64(), found["end_line"].as_u64(), found["match"].as_str()),
        (Some("pkg/models.py"), Some(6), Some(8), Some("exact"))
    );
    assert_eq!(found["params"], serde_json::json!(["self"]));
    // Whether the name resolved: to one definition, to several (main in Python and Go), or to
    // none (a part of a name only).
    assert_eq!(symbol["resolution"], "resolved", "{symbol}");
    assert_eq!(json(&t, backend, &["symbol", "main"])["resolution"], "ambiguous");
    assert_eq!(json(&t, backend, &["symbol", "valid"])["resolution"], "not_found");
    let model = json(&t, backend, &["symbol", "Model", "--kind", "class"]);
    assert_eq!(model["results"][0]["bases"], serde_json::json!(["Base"]));
    let lexer = json(&t, backend, &["symbol", "impl Lexer::new"]);
    assert_eq!(lexer["results"][0]["qualified_name"], "Lexer::new");
    let dotted = json(&t, backend, &["symbol", "Lexer.new"]);
    assert_eq!(dotted["results"][0]["qualified_name"], "Lexer::new", "`.` and `::` are the same");
    let module = json(&t, backend, &["symbol", "models.Model.save"]);
    assert_eq!(
        (module["results"][0]["qualified_name"].as_str(), module["results"][0]["match"].as_str()),
        (Some("Model.save"), Some("qualified"))
    );
    let fuzzy = json(&t, backend, &["symbol", "valid"]);
    assert_eq!(
        (fuzzy["results"][0]["qualified_name"].as_str(), fuzzy["results"][0]["match"].as_str()),
        (Some("Model.validate"), Some("fuzzy"))
    );

    // Impact of a file (by depth) and of a symbol; chains of imports and of calls.
    let impact = json(&t, backend, &["impact", "pkg/base.py"]);
    let by_depth: Vec<(String, u64)> = impact["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| (r["path"].as_str().unwrap_or_default().to_string(), r["depth"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(
        by_depth,
        vec![
            ("pkg/models.py".into(), 1),
            ("README.md".into(), 2),
            ("app.py".into(), 2),
            ("pkg/__init__.py".into(), 2),
            ("docs/guide.md".into(), 3)
        ]
    );
    let shallow = json(&t, backend, &["impact", "pkg/base.py", "--depth", "1"]);
    assert_eq!(shallow["results"].as_array().map(Vec::len), Some(1));
    assert_eq!(shallow["truncated"], true, "deeper dependents exist");
    let users = json(&t, backend, &["impact", "helper"]);
    let direct: Vec<&str> = users["direct"]
        .as_array()
        .expect("direct")
        .iter()
        .filter_map(|i| i["definition"]["qualified_name"].as_str())
        .collect();
    assert_eq!(direct, vec!["main", "Model.save"]);
    let transitive: Vec<&str> = users["transitive"]
        .as_array()
        .expect("transitive")
        .iter()
        .filter_map(|i| i["definition"]["qualified_name"].as_str())
        .collect();
    // main calls Model.save, but main was reached first, directly.
    assert_eq!(transitive, Vec::<&str>::new());
    let chain = json(&t, backend, &["path", "app.py", "pkg/base.py"]);
    let hops: Vec<(&str, &str)> = chain["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| (e["from"].as_str().unwrap_or_default(), e["to"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(hops, vec![("app.py", "pkg/models.py"), ("pkg/models.py", "pkg/base.py")]);
    let calls = json(&t, backend, &["path", "main", "Model.validate"]);
    let hops: Vec<(&str, &str, &str)> = calls["hops"]
        .as_array()
        .expect("hops")
        .iter()
        .map(|h| {
            (
                h["from"]["qualified_name"].as_str().unwrap_or_default(),
                h["to"]["qualified_name"].as_str().unwrap_or_default(),
                h["certainty"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(hops, vec![("main", "Model.save", "heuristic"), ("Model.save", "Model.validate", "exact")]);
    let aliased = json(&t, backend, &["path", "trim", "shorten"]);
    assert_eq!(
        (aliased["hops"][0]["to"]["qualified_name"].as_str(), aliased["hops"][0]["certainty"].as_str()),
        (Some("shorten"), Some("exact")),
        "a call through an import alias: {aliased}"
    );

    // Outline: nested definitions and resolved imports.
    let outline = json(&t, backend, &["outline", "pkg/models.py"]);
    let defs: Vec<(String, u64)> = outline["definitions"]
        .as_array()
        .expect("definitions")
        .iter()
        .map(|d| (d["qualified_name"].as_str().unwrap_or_default().to_string(), d["depth"].as_u64().unwrap_or(9)))
        .collect();
    assert_eq!(
        defs,
        vec![("Model".into(), 0), ("Model.save".into(), 1), ("Model.validate".into(), 1), ("helper".into(), 0)]
    );
    let imports: Vec<(&str, Option<&str>)> = outline["imports"]
        .as_array()
        .expect("imports")
        .iter()
        .map(|i| (i["spec"].as_str().unwrap_or_default(), i["target"].as_str()))
        .collect();
    assert_eq!(imports, vec![(".base", Some("pkg/base.py")), ("os", None)]);
}

#[test]
fn graph_of_every_language_sqlite() {
    graph_of_every_language(Backend::Sqlite);
}

#[test]
fn graph_of_every_language_postgres() {
    graph_of_every_language(Backend::Postgres);
}

/// The graph rows of every file but `except`, by file: its edges and its references' lines.
fn rows_except(t: &TestCtx, backend: Backend, except: &str) -> BTreeSet<String> {
    edges(t, backend).into_iter().filter(|e| !e.starts_with(&format!("{except} "))).collect()
}

fn incremental(backend: Backend) {
    let t = TestCtx::new(&format!("graph_incremental_{backend}"));
    write_corpus(&t);
    index(&t, backend);

    // Editing a file changes its own edges and nobody else's.
    let others = rows_except(&t, backend, "app.py");
    t.write("app.py", "from pkg.base import Base\n\n\ndef main():\n    return Base()\n");
    index(&t, backend);
    assert_eq!(rows_except(&t, backend, "app.py"), others, "other files' edges are untouched");
    let app: BTreeSet<String> = edges(&t, backend).into_iter().filter(|e| e.starts_with("app.py ")).collect();
    assert_eq!(app, BTreeSet::from(["app.py -> pkg/base.py exact".to_string()]));
    assert_eq!(refs(&t, backend, "helper"), vec!["pkg/models.py:8 call helper in Model.save exact"]);
    assert_eq!(
        refs(&t, backend, "Base"),
        vec!["app.py:5 call Base in main exact", "pkg/models.py:5 inherit Base in Model exact"]
    );

    // Deleting a file removes its edges and turns imports of it into missing ones.
    std::fs::remove_file(t.path().join("pkg/base.py")).expect("remove");
    index(&t, backend);
    let after = edges(&t, backend);
    assert!(after.contains("pkg/models.py -> (.base) missing"), "{after:#?}");
    assert!(after.contains("app.py -> (pkg.base) external"), "an absolute import of a gone module: {after:#?}");
    assert!(!after.iter().any(|e| e.contains("pkg/base.py")), "{after:#?}");
    let gone = json(&t, backend, &["impact", "pkg/base.py"]);
    assert_eq!(gone["roots"], serde_json::json!([]));
    assert!(gone["hint"].as_str().is_some_and(|h| h.contains("no indexed file matches")), "{gone}");
    assert_eq!(json(&t, backend, &["symbol", "Base", "--kind", "class"])["results"], serde_json::json!([]));

    // The file comes back: the imports of it resolve again, though their files did not change.
    t.write("pkg/base.py", "class Base:\n    pass\n");
    index(&t, backend);
    let back = edges(&t, backend);
    assert!(back.contains("pkg/models.py -> pkg/base.py exact"), "{back:#?}");
    assert!(back.contains("app.py -> pkg/base.py exact"), "{back:#?}");
}

#[test]
fn incremental_edits_and_deletions_sqlite() {
    incremental(Backend::Sqlite);
}

#[test]
fn incremental_edits_and_deletions_postgres() {
    incremental(Backend::Postgres);
}

fn fails(out: &Run, code: i32, needle: &str) {
    assert_eq!(out.code, code, "{out:?}");
    assert!(out.stderr.contains(needle), "expected {needle:?} in {out:?}");
}

fn bad_input(backend: Backend) {
    let t = TestCtx::new(&format!("graph_bad_input_{backend}"));
    write_corpus(&t);
    // No index yet: a failure naming the fix.
    fails(&run(t.cmd_on(backend), &["symbol", "helper"]), 1, "cocosearch index");
    index(&t, backend);

    // Unknown names and files: exit 0, nothing found, the closest names.
    let unknown = json(&t, backend, &["symbol", "hepler"]);
    assert_eq!(unknown["results"], serde_json::json!([]));
    assert!(unknown["closest"].as_array().is_some_and(|c| c.iter().any(|n| n == "helper")), "{unknown}");
    assert!(unknown["hint"].as_str().is_some_and(|h| h.contains("helper")), "{unknown}");
    let no_refs = json(&t, backend, &["refs", "Modle.save"]);
    assert_eq!(no_refs["results"], serde_json::json!([]));
    assert!(no_refs["closest"].as_array().is_some_and(|c| c.iter().any(|n| n == "Model.save")), "{no_refs}");
    // A library function (no definition here) is found as written, qualifier included.
    let library = ["pkg/models.py:15 call os.getcwd in helper heuristic"];
    assert_eq!(refs(&t, backend, "os.getcwd"), library);
    assert_eq!(refs(&t, backend, "getcwd"), library);
    assert_eq!(refs(&t, backend, "sys.getcwd"), Vec::<String>::new(), "another module's getcwd");
    let no_file = json(&t, backend, &["deps", "pkg/modles.py"]);
    assert_eq!(no_file["roots"], serde_json::json!([]));
    assert!(no_file["closest"].as_array().is_some_and(|c| c.iter().any(|n| n == "pkg/models.py")), "{no_file}");
    let no_chain = json(&t, backend, &["path", "helper", "render"]);
    assert_eq!((no_chain["found"].as_bool(), no_chain["hops"].as_array().map(Vec::len)), (Some(false), Some(0)));
    let pretty = run(t.cmd_on(backend), &["--color", "always", "symbol", "hepler"]);
    assert_eq!(pretty.code, 0, "{pretty:?}");
    let line = console::strip_ansi_codes(&pretty.stdout).into_owned();
    assert!(line.starts_with("no definition matches `hepler` — closest: ") && line.contains(" helper,"), "{line}");

    // Regex and SQL metacharacters are literal: they match nothing here, and break nothing.
    // `_` is a wildcard to SQL's LIKE and `\\` its escape: literally, each is in one name.
    for (name, holder) in [("_", "resource.aws_s3_bucket.logs"), ("\\", "Demo\\Models")] {
        let answer = json(&t, backend, &["symbol", name]);
        let named: Vec<&str> = answer["results"]
            .as_array()
            .expect("results")
            .iter()
            .filter_map(|d| d["qualified_name"].as_str())
            .collect();
        assert_eq!(named, vec![holder], "{answer}");
        assert_eq!(json(&t, backend, &["refs", name])["results"], serde_json::json!([]));
    }
    for name in ["%", "help%", "h_lper", ".*", "help.*", "'; DROP TABLE x; --", "[a-z]+", "*"] {
        let answer = json(&t, backend, &["symbol", name]);
        assert_eq!(answer["results"], serde_json::json!([]), "{name}: {answer}");
        let uses = json(&t, backend, &["refs", name]);
        assert_eq!(uses["results"], serde_json::json!([]), "{name}: {uses}");
    }

    // Usage errors: exit 2 with what to do.
    fails(&run(t.cmd_on(backend), &["symbol", " "]), 2, "empty");
    fails(&run(t.cmd_on(backend), &["symbol", "x", "--kind", "gizmo"]), 2, "unknown kind");
    fails(&run(t.cmd_on(backend), &["refs", "x", "--lang", "klingon"]), 2, "unknown language");
    fails(&run(t.cmd_on(backend), &["deps", "/etc/passwd"]), 2, "outside the project");
    fails(&run(t.cmd_on(backend), &["deps", "../../etc/passwd"]), 2, "outside the project");
    fails(&run(t.cmd_on(backend), &["path", "app.py", "helper"]), 2, "not both files or both symbols");
    fails(&run(t.cmd_on(backend), &["outline", "x.py", "--index", "Bad Name"]), 2, "--index");
}

#[test]
fn bad_input_is_answered_or_refused_with_the_fix_sqlite() {
    bad_input(Backend::Sqlite);
}

#[test]
fn bad_input_is_answered_or_refused_with_the_fix_postgres() {
    bad_input(Backend::Postgres);
}

cstest!(pretty_output_for_people, |t| {
    write_corpus(&t);
    index(&t, Backend::Sqlite);
    let show = |args: &[&str]| {
        let mut all = vec!["--color", "always"];
        all.extend_from_slice(args);
        let out = run(t.cmd_on(Backend::Sqlite), &all);
        assert_eq!(out.code, 0, "{out:?}");
        console::strip_ansi_codes(&out.stdout).into_owned()
    };
    let deps = show(&["deps", "app.py", "--depth", "2"]);
    assert!(deps.starts_with("app.py\n"), "{deps}");
    assert!(deps.contains("├── pkg/__init__.py  import pkg Model, line 1"), "{deps}");
    assert!(deps.contains("│   └── pkg/models.py"), "{deps}");
    assert!(deps.contains("pkg.gone (external)"), "{deps}");
    let flat = show(&["deps", "app.py", "--depth", "2", "--flat"]);
    assert!(flat.contains(" 1  pkg/models.py") && flat.contains(" 2  pkg/base.py"), "{flat}");
    let refs = show(&["refs", "helper"]);
    assert!(refs.contains("app.py:9  in main  call helper"), "{refs}");
    let impact = show(&["impact", "pkg/base.py"]);
    assert!(impact.contains("depth 1 (1)") && impact.contains("depth 2 (3)"), "{impact}");
    let outline = show(&["outline", "pkg/models.py"]);
    assert!(outline.contains("5-11  class Model(Base)\n"), "{outline}");
    let symbol = show(&["symbol", "Model.save"]);
    assert!(symbol.contains("pkg/models.py:6-8  method Model.save  def save(self)"), "{symbol}");
});

// Issue 25, item 10: `impact --depth 0` answered with depth-1 results; 0 levels is refused.
cstest!(impact_and_deps_refuse_zero_levels, |t| {
    t.write("a.py", "def used():\n    return 1\n");
    t.write("b.py", "from a import used\n\n\ndef user():\n    return used()\n");
    index(&t, Backend::Sqlite);
    for args in
        [&["impact", "a.py", "--depth", "0"][..], &["impact", "used", "-d", "0"], &["deps", "b.py", "--depth", "0"]]
    {
        let out = run(t.cmd_on(Backend::Sqlite), args);
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        assert!(out.stderr.contains("--depth") && out.stderr.contains("at least 1"), "{args:?}: {out:?}");
    }
    let out = run(t.cmd_on(Backend::Sqlite), &["impact", "a.py", "--depth", "1", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
});

// Issue 25, item 4: a call-chain search between common names ran for minutes. It now stops at
// its time limit and says so; a deadline already passed shows that answer without waiting.
cstest!(a_call_chain_search_stops_at_its_time_limit_and_says_so, |t| {
    t.write(
        "a.py",
        "def start():\n    return middle()\n\n\ndef middle():\n    return end()\n\n\ndef end():\n    return 1\n",
    );
    index(&t, Backend::Sqlite);
    let store = t.db_store();
    let graph = cocosearch::graph::Graph::open(store.as_ref(), &t.index_name(), t.path()).expect("graph");
    let found = graph.call_chain("start", "end", 5).expect("chain");
    assert_eq!(found.hops.len(), 2, "{found:?}");
    assert_eq!(found.search, cocosearch::graph::ChainSearch::Complete);
    let stopped = graph
        .call_chain_until("start", "end", 5, cocosearch::graph::Stop::after(std::time::Duration::ZERO))
        .expect("chain");
    assert!(stopped.hops.is_empty(), "{stopped:?}");
    assert_eq!(stopped.search, cocosearch::graph::ChainSearch::TimeLimit);
    let json = cocosearch::wire::call_chain_json(&stopped);
    assert_eq!(json["search"], "time_limit", "{json}");
    assert!(json.to_string().contains("time limit"), "{json}");
    // A caller that has gone stops it too, long before its deadline.
    let gone = std::sync::atomic::AtomicBool::new(true);
    let stop = cocosearch::graph::Stop {
        at: std::time::Instant::now() + std::time::Duration::from_secs(3600),
        cancel: Some(&gone),
    };
    let cancelled = graph.call_chain_until("start", "end", 5, stop).expect("chain");
    assert_eq!(cancelled.search, cocosearch::graph::ChainSearch::TimeLimit, "{cancelled:?}");
});

// Issue 25, item 6: the closest names of a query cost time in the product of two lengths, with
// no cap: a 20,000-character name in `symbol` took 36 s. A name no identifier comes near gets
// no suggestions; an ordinary misspelling still gets them.
cstest!(a_name_longer_than_any_identifier_gets_no_suggestions, |t| {
    t.write("a.py", "def compute_total():\n    return 1\n");
    index(&t, Backend::Sqlite);
    let near = run(t.cmd_on(Backend::Sqlite), &["symbol", "compute_totl", "--json"]);
    assert_eq!(near.json()["closest"], serde_json::json!(["compute_total"]), "{near:?}");
    let long = format!("compute_total{}", "x".repeat(20_000));
    let far = run(t.cmd_on(Backend::Sqlite), &["symbol", &long, "--json"]);
    let answer = far.json();
    assert_eq!(answer["results"], serde_json::json!([]), "{far:?}");
    assert_eq!(answer["closest"], serde_json::json!([]), "no suggestions for a name past the cap");
    let file = run(t.cmd_on(Backend::Sqlite), &["deps", &format!("{long}.py"), "--json"]);
    assert!(file.stdout.len() + file.stderr.len() < 60_000, "the answer does not grow with the name either");
});
