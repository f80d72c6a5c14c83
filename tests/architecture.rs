//! The structural claims of ARCHITECTURE.md, checked on the source text: a claim the code
//! breaks fails here with the file and line, instead of waiting for a reviewer.

use std::path::{Path, PathBuf};

/// `src/lib.rs`'s modules in data-flow order; a module uses only modules before it.
const ORDER: [&str; 17] = [
    "config",
    "discover",
    "chunk",
    "embed",
    "store",
    "index",
    "search",
    "graph",
    "grep",
    "stats",
    "tasks",
    "workspace",
    "wire",
    "setup",
    "mcp",
    "web",
    "cli",
];

/// The presenters, on one floor: none uses another.
const PRESENTERS: [&str; 3] = ["mcp", "web", "cli"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("tests") {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of `file` that are code: comments dropped, and nothing from a `#[cfg(test)]`
/// module on (unit tests may reach anything).
fn code_lines(file: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        let code = line.split(" //").next().unwrap_or(line);
        out.push((i + 1, code.to_string()));
    }
    out
}

/// Whether `line` names module `m` of the crate (`crate::m::`, `crate::m;`, `crate::{m, …}`).
fn names_module(line: &str, m: &str) -> bool {
    let direct = format!("crate::{m}");
    let mut rest = line;
    while let Some(at) = rest.find(&direct) {
        let after = &rest[at + direct.len()..];
        if !after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            return true;
        }
        rest = after;
    }
    line.split("crate::{").skip(1).any(|group| {
        group.split('}').next().unwrap_or("").split(',').any(|item| item.trim().split("::").next() == Some(m))
    })
}

#[test]
fn lib_declares_the_modules_in_data_flow_order() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("lib.rs");
    let declared: Vec<&str> =
        lib.lines().filter_map(|l| l.strip_prefix("pub mod ").and_then(|m| m.strip_suffix(';'))).collect();
    assert_eq!(declared, ORDER, "src/lib.rs declares its modules in this order");
}

#[test]
fn a_module_uses_only_the_modules_before_it_and_a_presenter_no_other() {
    let mut wrong = Vec::new();
    for (i, m) in ORDER.iter().enumerate() {
        for file in rust_files(&root().join("src").join(m)) {
            for (n, line) in code_lines(&file) {
                for (j, other) in ORDER.iter().enumerate() {
                    let sideways = PRESENTERS.contains(m) && PRESENTERS.contains(other) && m != other;
                    if (j > i || sideways) && names_module(&line, other) {
                        wrong.push(format!("{}:{n}: {m} uses {other}: {}", file.display(), line.trim()));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "upward or sideways imports:\n{}", wrong.join("\n"));
}

/// The code lines under `dirs` (relative to the crate root), outside `except`, for which
/// `offends` holds, as `path:line: text`.
fn offending_lines(dirs: &[&str], except: &[&str], offends: impl Fn(&str) -> bool) -> Vec<String> {
    let mut wrong = Vec::new();
    for dir in dirs {
        for file in rust_files(&root().join(dir)) {
            if except.iter().any(|e| file.starts_with(root().join(e))) {
                continue;
            }
            for (n, line) in code_lines(&file) {
                if offends(&line) {
                    wrong.push(format!("{}:{n}: {}", file.display(), line.trim()));
                }
            }
        }
    }
    wrong
}

/// Whether `line` holds any of `needles`.
fn holds(line: &str, needles: &[&str]) -> bool {
    needles.iter().any(|n| line.contains(n))
}

const SQL: [&str; 4] = ["SELECT ", "INSERT INTO", "CREATE TABLE", "DELETE FROM"];

#[test]
fn only_config_reads_the_environment() {
    let reads = ["env::var(", "env::var_os(", "env::vars(", "env::vars_os(", "env::current_dir("];
    let wrong = offending_lines(&["src"], &["src/config"], |line| holds(line, &reads));
    assert!(wrong.is_empty(), "environment read outside config::Env:\n{}", wrong.join("\n"));
}

#[test]
fn only_the_builtin_embedders_use_the_encoder_crate_and_it_uses_nothing_of_cocosearch() {
    let wrong = offending_lines(&["src"], &["src/embed/builtin"], |line| line.contains("cocosearch_bert"));
    assert!(wrong.is_empty(), "cocosearch_bert used outside embed::builtin:\n{}", wrong.join("\n"));
    let wrong = offending_lines(&["crates/bert"], &[], |line| line.contains("cocosearch::"));
    assert!(wrong.is_empty(), "the encoder crate uses cocosearch:\n{}", wrong.join("\n"));
}

#[test]
fn only_store_names_a_backend_type_or_writes_sql() {
    let backends = ["store::sqlite", "store::postgres", "SqliteStore", "PgStore"];
    let wrong = offending_lines(&["src"], &["src/store"], |line| holds(line, &backends) || holds(line, &SQL));
    assert!(wrong.is_empty(), "a backend named or SQL written outside store:\n{}", wrong.join("\n"));
}

#[test]
fn only_the_store_tests_use_sql() {
    // shared_index.rs provisions PostgreSQL roles and grants as a DBA would (a read-only role's
    // `GRANT SELECT`); it reads what cocosearch stores only through the binary.
    let store_tests = [
        "tests/store_pg.rs",
        "tests/store_sqlite.rs",
        "tests/store_contract",
        "tests/architecture.rs",
        "tests/shared_index.rs",
    ];
    let wrong = offending_lines(&["tests"], &store_tests, |line| holds(line, &SQL) || line.contains(".execute_batch("));
    assert!(wrong.is_empty(), "SQL outside the store tests:\n{}", wrong.join("\n"));
}

#[test]
fn the_engine_defines_no_json_and_anyhow_stays_at_the_edge() {
    let engine = ["src/search", "src/graph", "src/stats", "src/index", "src/tasks"];
    let mut wrong = offending_lines(&engine, &[], |line| holds(line, &["Serialize", "json!("]));
    wrong.extend(offending_lines(&["src"], &["src/cli", "src/bin", "src/main.rs"], |line| line.contains("anyhow")));
    assert!(wrong.is_empty(), "JSON defined by the engine, or anyhow below the edge:\n{}", wrong.join("\n"));
}

#[test]
fn only_the_language_modules_decide_by_language() {
    let wrong = offending_lines(&["src"], &["src/chunk/lang"], |line| {
        line.match_indices("Language::").any(|(at, _)| {
            let name: String = line[at + "Language::".len()..].chars().take_while(|c| c.is_alphanumeric()).collect();
            name.starts_with(|c: char| c.is_ascii_uppercase()) && name != "COUNT"
        })
    });
    assert!(wrong.is_empty(), "a rule decided by language outside chunk/lang:\n{}", wrong.join("\n"));
}

/// The engine's modules: presenters reach them only through `workspace` (and `wire`).
const ENGINE: [&str; 10] =
    ["discover", "chunk", "embed", "store", "index", "search", "graph", "grep", "stats", "tasks"];

/// Presenter files that use an engine module directly, each with the modules and the reason
/// (ARCHITECTURE.md lists the same).
const PRESENTER_EXCEPTIONS: [(&str, &[&str], &str); 4] = [
    (
        "src/cli/config_cmd.rs",
        &["embed", "store"],
        "`config show|check` describe what the engine would do with a configuration before any request",
    ),
    ("src/cli/in_force.rs", &["embed", "store"], "`config show|check|init` name the embedder the rule chooses"),
    (
        "src/cli/model_cmd.rs",
        &["embed"],
        "`model download|list` manage the built-in models' files, the command line's alone",
    ),
    ("src/cli/mod.rs", &["store"], "the exit code of a store configuration error the configuration commands raise"),
];

#[test]
fn presenters_reach_the_engine_only_through_the_workspace() {
    let mut wrong = Vec::new();
    for presenter in PRESENTERS {
        for file in rust_files(&root().join("src").join(presenter)) {
            let relative = file.strip_prefix(root()).expect("under the root").to_string_lossy().into_owned();
            let allowed: &[&str] =
                PRESENTER_EXCEPTIONS.iter().find(|(f, ..)| *f == relative).map_or(&[], |(_, modules, _)| modules);
            for (n, line) in code_lines(&file) {
                for module in ENGINE.iter().filter(|m| !allowed.contains(m)) {
                    if names_module(&line, module) {
                        wrong.push(format!("{relative}:{n}: {presenter} uses {module}: {}", line.trim()));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "a presenter reaches the engine past the workspace:\n{}", wrong.join("\n"));
}

#[test]
fn the_presenter_exceptions_are_in_the_architecture_document() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    for (file, modules, _) in PRESENTER_EXCEPTIONS {
        let name = file.trim_start_matches("src/");
        assert!(doc.contains(&format!("`{name}`")), "ARCHITECTURE.md does not list the exception {file} ({modules:?})");
    }
}

#[test]
fn only_the_workspace_builds_a_searcher_or_resolves_a_snapshot() {
    // The evaluation and the benchmarks measure the engine itself, with tunings the product
    // never sets: they build their searchers.
    let measuring = ["src/search", "src/bin", "src/workspace/search.rs"];
    // (grep's `-> Searcher {` is ripgrep's searcher, returned.)
    let mut wrong =
        offending_lines(&["src"], &measuring, |line| line.contains("Searcher {") && !line.contains("-> Searcher"));
    wrong.extend(offending_lines(&["src"], &["src/workspace"], |line| line.contains("snapshots::resolve(")));
    assert!(wrong.is_empty(), "a searcher built or a snapshot resolved outside the workspace:\n{}", wrong.join("\n"));
}

#[test]
fn only_the_binary_ends_the_process() {
    let wrong = offending_lines(&["src"], &["src/main.rs"], |line| line.contains("process::exit("));
    assert!(wrong.is_empty(), "process::exit outside main.rs (return an Exit instead):\n{}", wrong.join("\n"));
}

/// Every `.rs` file under `dir`, tests and fixtures included.
fn all_rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("fixtures") {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_file_says_what_it_is_and_every_allow_why() {
    let mut wrong = Vec::new();
    for dir in ["src", "tests", "benches"] {
        for file in all_rust_files(&root().join(dir)) {
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            if !text.starts_with("//!") {
                wrong.push(format!("{}: does not open with a //! comment", file.display()));
            }
            for (at, _) in text.match_indices("allow(") {
                let before = &text[..at];
                if !(before.ends_with("#[") || before.ends_with("#![")) {
                    continue;
                }
                // The attribute may span lines (rustfmt wraps a long reason).
                let attribute = text[at..].split(")]").next().unwrap_or_default();
                if !attribute.contains("reason =") {
                    let line = before.lines().count();
                    wrong.push(format!("{}:{line}: an allow without `reason = \"…\"`: {attribute}", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "tidy:\n{}", wrong.join("\n"));
}
