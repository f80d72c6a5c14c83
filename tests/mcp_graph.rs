//! The code graph tools through a real MCP client (the Python SDK, `tests/mcp/client.py`), on
//! both backends: every graph tool on the corpus of `tests/fixtures/graph`, its caps and
//! notes, the answers for unknown names, and `include_deps` on `search_code`.

use cocosearch::store::Backend;
use serde_json::{Value, json};

use crate::graph_cli::write_corpus;
use crate::mcp_server::{root, scenario, text};
use crate::support::{TestCtx, run};

/// The tool calls, in one stdio session of a client whose root is the project.
fn calls(t: &TestCtx, backend: Backend, calls: &Value) -> Vec<Value> {
    let server = t.cmd_on(backend);
    let project = root(t);
    let calls = calls.to_string();
    let report = scenario(&server, "calls", &["--project", &project, "--cwd", &project, "--calls", &calls]);
    report["results"].as_array().expect("results").clone()
}

fn graph_tools(backend: Backend) {
    let t = TestCtx::new(&format!("mcp_graph_{backend}"));
    write_corpus(&t);
    let out = run(t.cmd_on(backend), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let answers = calls(
        &t,
        backend,
        &json!([
            {"tool": "find_symbol", "args": {"name": "Model.save"}},
            {"tool": "get_dependents", "args": {"name": "helper"}},
            {"tool": "get_dependencies", "args": {"name": "Model.save"}},
            {"tool": "get_change_impact", "args": {"name": "helper", "max_direct": 1}},
            {"tool": "get_call_chain", "args": {"from_name": "main", "to_name": "Model.validate"}},
            {"tool": "get_file_dependencies", "args": {"file_path": "app.py", "depth": 2}},
            {"tool": "get_file_dependents", "args": {"file_path": "pkg/base.py", "max_results": 2}},
            {"tool": "get_file_impact", "args": {"file_path": "pkg/base.py", "depth": 1}},
            {"tool": "get_file_structure", "args": {"file_path": "pkg/models.py"}},
            {"tool": "get_function_source", "args": {"name": "helper"}},
            {"tool": "get_class_source", "args": {"name": "Model", "max_lines": 2}},
            {"tool": "search_code", "args": {"query": "os.getcwd", "include_deps": true, "limit": 1}},
            {"tool": "find_symbol", "args": {"name": "hepler"}},
            {"tool": "get_file_dependencies", "args": {"file_path": "pkg/modles.py"}},
            {"tool": "find_symbol", "args": {"name": "%"}},
            {"tool": "find_symbol", "args": {"name": " "}},
        ]),
    );
    let [
        symbol,
        dependents,
        dependencies,
        impact,
        chain,
        file_deps,
        file_dependents,
        file_impact,
        structure,
        function,
        class,
        search,
        unknown,
        no_file,
        percent,
        empty,
    ] = answers.as_slice()
    else {
        panic!("one answer per call: {answers:#?}");
    };
    for a in &answers[..15] {
        assert_eq!(a["is_error"], false, "{a}");
        assert_eq!(a["json"], a["structured"], "the text and the structured content agree");
    }

    let found = &symbol["json"]["results"][0];
    assert_eq!(
        (found["path"].as_str(), found["start_line"].as_u64(), found["end_line"].as_u64()),
        (Some("pkg/models.py"), Some(6), Some(8))
    );
    assert_eq!((found["kind"].as_str(), found["signature"].as_str()), (Some("method"), Some("def save(self)")));

    let users: Vec<(&str, u64, &str, &str)> = dependents["json"]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap_or_default(),
                r["line"].as_u64().unwrap_or(0),
                r["caller"]["qualified_name"].as_str().unwrap_or_default(),
                r["certainty"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(users, vec![("app.py", 9, "main", "exact"), ("pkg/models.py", 8, "Model.save", "exact")]);

    let used: Vec<(&str, &str)> = dependencies["json"]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|d| {
            (d["definition"]["qualified_name"].as_str().unwrap_or("-"), d["certainty"].as_str().unwrap_or_default())
        })
        .collect();
    assert_eq!(used, vec![("Model.validate", "exact"), ("helper", "exact")]);

    // max_direct cuts the direct users and the note names that parameter.
    let direct: Vec<&str> = impact["json"]["direct"]
        .as_array()
        .expect("direct")
        .iter()
        .filter_map(|i| i["definition"]["qualified_name"].as_str())
        .collect();
    assert_eq!(direct, vec!["main"]);
    assert_eq!(
        (impact["json"]["truncated_direct"].as_bool(), impact["json"]["truncated_transitive"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(
        impact["json"]["notes"],
        json!(["the answer was cut at 1 results — raise max_direct (0 = up to 1000) or narrow the question"])
    );

    let hops: Vec<(&str, &str, &str)> = chain["json"]["hops"]
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

    let files: Vec<(&str, u64)> = file_deps["json"]["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| (f["path"].as_str().unwrap_or_default(), f["depth"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(files, vec![("pkg/__init__.py", 1), ("pkg/models.py", 1), ("pkg/base.py", 2)], "{file_deps}");
    // The asked file's own outside imports; deeper files' (`os`) would bury the project's.
    assert_eq!(file_deps["json"]["external"], json!(["pkg.gone"]));

    let by_depth = |a: &Value| -> Vec<(String, u64)> {
        a["json"]["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| (r["path"].as_str().unwrap_or_default().to_string(), r["depth"].as_u64().unwrap_or(0)))
            .collect()
    };
    assert_eq!(by_depth(file_dependents), vec![("pkg/models.py".into(), 1), ("README.md".into(), 2)]);
    assert_eq!(file_dependents["json"]["truncated"], true);
    assert_eq!(
        file_dependents["json"]["notes"],
        json!(["the answer was cut at 2 results — raise max_results (0 = up to 1000) or narrow the question"])
    );
    assert_eq!(by_depth(file_impact), vec![("pkg/models.py".into(), 1)], "the alias, one level deep");

    let outline: Vec<(&str, u64)> = structure["json"]["definitions"]
        .as_array()
        .expect("definitions")
        .iter()
        .map(|d| (d["qualified_name"].as_str().unwrap_or_default(), d["start_line"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(outline, vec![("Model", 5), ("Model.save", 6), ("Model.validate", 10), ("helper", 14)]);
    let imports: Vec<(&str, Option<&str>)> = structure["json"]["imports"]
        .as_array()
        .expect("imports")
        .iter()
        .map(|i| (i["spec"].as_str().unwrap_or_default(), i["target"].as_str()))
        .collect();
    assert_eq!(imports, vec![(".base", Some("pkg/base.py")), ("os", None)]);

    assert_eq!(function["json"]["content"], "def helper():\n    return os.getcwd()");
    assert_eq!(class["json"]["content"], "class Model(Base):\n    def save(self):");
    assert_eq!(class["json"]["notes"], json!(["5 more lines left out by max_lines"]));

    let hit = &search["json"]["results"][0];
    assert_eq!(hit["path"], "pkg/models.py", "{search}");
    assert_eq!(
        hit["deps"],
        json!({"imports": ["pkg/base.py"], "imported_by": ["README.md", "app.py", "pkg/__init__.py"]})
    );

    // Unknown names and files: an empty answer with the closest names; `%` is literal.
    assert_eq!(unknown["json"]["results"], json!([]));
    assert!(unknown["json"]["closest"].as_array().is_some_and(|c| c.iter().any(|n| n == "helper")), "{unknown}");
    assert!(text(unknown).contains("closest: "), "{unknown}");
    assert_eq!(no_file["json"]["roots"], json!([]));
    assert_eq!(no_file["json"]["closest"][0], "pkg/models.py", "{no_file}");
    assert_eq!(percent["json"]["results"], json!([]), "{percent}");
    assert_eq!(
        (empty["is_error"].as_bool(), text(empty)),
        (Some(true), "name is empty — pass a name such as send or Request.send")
    );
}

#[test]
fn graph_tools_through_an_mcp_client_sqlite() {
    graph_tools(Backend::Sqlite);
}

#[test]
fn graph_tools_through_an_mcp_client_postgres() {
    graph_tools(Backend::Postgres);
}
