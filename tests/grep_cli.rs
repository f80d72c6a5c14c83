//! `cocosearch grep` against ripgrep itself (Debian's `rg`, installed by
//! `scripts/testenv.py`; the tests fail, never skip, without it): the same output, line for
//! line, on a copy of part of this machine's Python standard library, for literal, regex,
//! case-insensitive, word, multi-line, inverted and context searches. Then hostile inputs,
//! each with its outcome, the JSON with the index's definitions, and `grep_code` through a
//! real MCP client.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cstest;
use crate::mcp_server::{root, scenario};
use crate::support::{TestCtx, copy_tree, run, stdlib};

/// The rg binary: `COCOSEARCH_TEST_RG` (set by `testenv.py run`), else `rg` on PATH; a panic
/// naming the fix when neither runs.
pub(crate) fn rg() -> &'static Path {
    static RG: OnceLock<PathBuf> = OnceLock::new();
    RG.get_or_init(|| {
        let rg = PathBuf::from(std::env::var("COCOSEARCH_TEST_RG").unwrap_or_else(|_| "rg".into()));
        let works = Command::new(&rg).arg("--version").output().is_ok_and(|o| o.status.success());
        assert!(
            works,
            "ripgrep ({}) is not installed: run the tests through `python3 scripts/testenv.py run -- cargo test`, which installs Debian's ripgrep, or set COCOSEARCH_TEST_RG",
            rg.display()
        );
        rg
    })
}

/// The standard library packages copied into the project: enough real code (thousands of
/// lines, docstrings, odd formatting) to exercise the matcher, small enough for a debug build.
const STDLIB_PARTS: [&str; 6] = ["json", "email", "http", "logging", "asyncio", "unittest"];

/// The project's output and rg's for `args`, rg given exactly the files cocosearch searches
/// in cocosearch's order (`--sort path` keeps them in it). A last argument naming a directory
/// of the project is a path for cocosearch and chooses rg's files.
fn both(t: &TestCtx, files: &[String], args: &[&str]) -> (String, String) {
    let ours = run(t.cmd(), &[&["grep"], args].concat());
    let (args, files): (&[&str], Vec<&String>) = match args.split_last() {
        Some((dir, rest)) if t.path().join(dir).is_dir() => {
            (rest, files.iter().filter(|f| f.starts_with(&format!("{dir}/"))).collect())
        }
        _ => (args, files.iter().collect()),
    };
    assert!(ours.code == 0 || ours.code == 1, "{args:?}: {ours:?}");
    let theirs = Command::new(rg())
        .current_dir(t.path())
        .args(["-n", "--column", "--no-heading", "--color", "never", "--sort", "path"])
        .args(args)
        .arg("--")
        .args(files)
        .output()
        .expect("run rg");
    (ours.stdout, String::from_utf8_lossy(&theirs.stdout).into_owned())
}

cstest!(grep_matches_ripgrep_line_for_line_on_the_stdlib, |t| {
    let lib = stdlib();
    for part in STDLIB_PARTS {
        copy_tree(&lib.join(part), &t.path().join(part));
    }
    let listed = run(t.cmd(), &["grep", "--files"]);
    assert_eq!(listed.code, 0, "{listed:?}");
    let files: Vec<String> = listed.stdout.lines().map(str::to_string).collect();
    assert!(files.len() > 100, "{} files", files.len());
    let cases: &[&[&str]] = &[
        &["-F", "return None"],
        &["-F", "a.b"],
        &[r"^\s*def [a-z_]+\(self[,)]"],
        &[r"^class \w+\([A-Za-z.]*Error\):$"],
        &[r"[0-9]{3,}"],
        &["-i", "http/1\\.[01]"],
        &["-S", "timeout"],
        &["-S", "Timeout"],
        &["-w", "data"],
        &["-U", r#"\):\n\s+"""[A-Z]"#],
        &["-U", r"try:\n\s+import"],
        &["-v", "e", "json"],
        &["-v", "-m", "5", "^\\s"],
        &["-C", "2", "raise ValueError"],
        &["-A", "1", "-B", "3", "yield from"],
        &["-c", "self"],
        &["-l", "coroutine"],
        &["-m", "2", "return"],
        &["-e", "foo", "-e", "bar"],
        &["-w", "-i", "-C", "1", "Message"],
    ];
    for args in cases {
        let (ours, theirs) = both(&t, &files, args);
        assert!(!theirs.is_empty(), "{args:?}: rg found nothing; pick a pattern that matches");
        if ours != theirs {
            let first = ours.lines().zip(theirs.lines()).position(|(a, b)| a != b);
            let line = first.unwrap_or(ours.lines().count().min(theirs.lines().count()));
            panic!(
                "{args:?}: cocosearch and rg differ at output line {} ({} vs {} lines)\n  cocosearch: {:?}\n  rg:         {:?}",
                line + 1,
                ours.lines().count(),
                theirs.lines().count(),
                ours.lines().nth(line),
                theirs.lines().nth(line)
            );
        }
    }
});

cstest!(grep_hostile_inputs_each_have_a_clear_outcome, |t| {
    t.write("ok.py", "needle = 1\n");
    // A catastrophic pattern: refused for its size, with the limit.
    let big = run(t.cmd(), &["grep", "(a{100}){100}{100}"]);
    assert_eq!(big.code, 2, "{big:?}");
    assert!(big.stderr.contains("compiles to more than 10 MiB"), "{big:?}");
    // A pattern that backtracks exponentially elsewhere runs in linear time here.
    t.write("xs.txt", format!("{}\n", "x".repeat(100_000)));
    let started = Instant::now();
    let linear = run(t.cmd(), &["grep", "(x+x+)+y"]);
    assert_eq!(linear.code, 1, "{linear:?}");
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    // A binary file is skipped whole, even where the pattern lies before its first NUL.
    t.write("blob.txt", b"needle\n\0\x01\x02 needle\n");
    // Invalid UTF-8 is searched as bytes; piped output keeps them, JSON shows U+FFFD.
    t.write("latin1.txt", b"caf\xe9 needle\n");
    // A 5 MB line: over indexing.maxFileSize (1 MiB), so skipped as too large; found when the
    // cap is raised.
    t.write("huge.txt", format!("{}needle\n", "y".repeat(5 << 20)));
    // Links out of the project: a file and a directory.
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("secret.py"), "needle = 'outside'\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secret.py"), t.path().join("leak.py")).expect("symlink");
    std::os::unix::fs::symlink(outside.path(), t.path().join("out")).expect("symlink");
    // A FIFO: opening it would block forever.
    let fifo = t.path().join("pipe.py");
    let made = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: mkfifo on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(made.as_ptr(), 0o644) }, 0, "mkfifo");

    let all = within(t.cmd(), &["grep", "--verbose", "needle"], Duration::from_secs(60));
    assert_eq!(all.0, Some(0), "{all:?}");
    let mut lines: Vec<&[u8]> = all.1.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    lines.sort();
    assert_eq!(lines, [&b"latin1.txt:1:6:caf\xe9 needle"[..], b"ok.py:1:1:needle = 1"], "{all:?}");
    let stderr = String::from_utf8_lossy(&all.2);
    for reason in ["1 binary", "1 too large", "symlink outside project", "1 unreadable"] {
        assert!(stderr.contains(reason), "{reason}: {stderr}");
    }
    // Named explicitly, the FIFO and the links are still not opened, and a path outside the
    // project is refused by name.
    let named = within(t.cmd(), &["grep", "needle", "pipe.py", "leak.py", "out/secret.py"], Duration::from_secs(60));
    assert_eq!((named.0, named.1.as_slice()), (Some(1), &b""[..]), "{named:?}");
    let secret = outside.path().join("secret.py").display().to_string();
    let refused = run(t.cmd(), &["grep", "needle", &secret]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains("outside the project"), "{refused:?}");
    // The cap raised: the 5 MB line is searched, the match at its end.
    let raised = run(t.cmd(), &["--set", "indexing.maxFileSize=10000000", "grep", "needle", "huge.txt"]);
    assert_eq!(raised.code, 0, "{raised:?}");
    assert!(raised.stdout.starts_with(&format!("huge.txt:1:{}:yyy", (5 << 20) + 1)), "{}", &raised.stdout[..40]);
    // JSON: invalid UTF-8 shown as U+FFFD.
    let json = run(t.cmd(), &["grep", "--json", "caf"]);
    assert_eq!(json.json()["results"][0]["content"], "caf\u{fffd} needle", "{json:?}");
});

/// Runs cocosearch with `args`, killed after `limit` (a hang is a failure, not a stuck suite).
fn within(mut cmd: Command, args: &[&str], limit: Duration) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    cmd.args(args);
    let (code, out, err) = crate::support::bytes_within(cmd, limit);
    assert!(code.is_some(), "cocosearch {args:?} did not finish within {limit:?}");
    (code, out, err)
}

cstest!(grep_json_names_the_definition_each_match_lies_in, |t| {
    t.write(
        "src/shop.py",
        "class Cart:\n    def add(self, item):\n        self.items.append(item)\n        return total(self.items)\n\n\ndef total(items):\n    return sum(i.price for i in items)\n",
    );
    // Without an index: matches, and no definitions.
    let bare = run(t.cmd_embedded(), &["grep", "--json", "-C", "1", "items"]);
    assert_eq!(bare.code, 0, "{bare:?}");
    let results = bare.json()["results"].as_array().expect("results").clone();
    assert_eq!(results.len(), 4, "{bare:?}");
    assert_eq!(results[0]["symbol"], Value::Null);
    let indexed = run(t.cmd_embedded(), &["index", "-q", "--no-embed"]);
    assert_eq!(indexed.code, 0, "{indexed:?}");
    let out = run(t.cmd_embedded(), &["grep", "--json", "-C", "1", "items"]);
    let answer = out.json();
    let first = &answer["results"][0];
    for field in [
        "path",
        "start_line",
        "end_line",
        "column",
        "language",
        "symbol",
        "enclosing",
        "content",
        "before",
        "after",
        "stale",
        "submatches",
    ] {
        assert!(first.get(field).is_some(), "{field} missing: {first}");
    }
    assert_eq!(first["path"], "src/shop.py");
    assert_eq!((first["start_line"].as_u64(), first["column"].as_u64()), (Some(3), Some(14)), "{first}");
    assert_eq!(first["symbol"]["qualified_name"], "Cart.add", "{first}");
    assert_eq!((first["symbol"]["start_line"].as_u64(), first["symbol"]["end_line"].as_u64()), (Some(2), Some(4)));
    assert_eq!(first["before"], json!(["    def add(self, item):"]));
    assert_eq!(answer["results"][2]["symbol"]["qualified_name"], "total", "{answer}");
    assert_eq!(answer["summary"]["files_matched"], 1);
    // The text form names them with --symbols.
    let text = run(t.cmd_embedded(), &["grep", "--symbols", "items"]);
    assert!(text.stdout.contains("src/shop.py:2-4: method Cart.add"), "{text:?}");
    // A file changed since indexing is stale: no definition named for it.
    t.write("src/shop.py", "# moved\nclass Cart:\n    def add(self, item):\n        self.items.append(item)\n");
    let stale = run(t.cmd_embedded(), &["grep", "--json", "items"]).json();
    assert_eq!((stale["results"][0]["stale"].as_bool(), &stale["results"][0]["symbol"]), (Some(true), &Value::Null));
    // search hands an identifier that also matches literally to grep.
    let search = run(t.cmd_embedded(), &["search", "--keyword", "total"]);
    assert!(search.stderr.contains("for every occurrence: `cocosearch grep -w total`"), "{search:?}");
});

cstest!(grep_code_through_a_real_mcp_client_is_capped_with_a_note, |t| {
    for i in 0..30 {
        t.write(
            &format!("pkg/mod_{i:02}.py"),
            format!("def handler_{i}(request):\n    # TODO: validate request {i}\n    return request\n"),
        );
    }
    let project = root(&t);
    let calls = json!([
        {"tool": "grep_code", "args": {"pattern": "TODO: \\w+", "max_results": 5}},
        {"tool": "search_codebase", "args": {"pattern": "request", "word": true, "max_chars": 600, "context_after": 1}},
        {"tool": "grep_code", "args": {"pattern": "def handler_1\\b", "context_after": 2, "max_lines": 1}},
        {"tool": "grep_code", "args": {"pattern": "(unclosed"}},
    ])
    .to_string();
    let report = scenario(&t.cmd_embedded(), "calls", &["--project", &project, "--cwd", &project, "--calls", &calls]);
    let results = report["results"].as_array().expect("results");
    let capped = &results[0]["json"];
    assert_eq!(capped["results"].as_array().map(Vec::len), Some(5), "{capped}");
    assert_eq!(capped["truncated"], true);
    assert!(capped["notes"].to_string().contains("results cut at max_results (5)"), "{capped}");
    assert_eq!(capped["results"][0]["path"], "pkg/mod_00.py");
    assert_eq!(capped["results"][0]["content"], "    # TODO: validate request 0");
    let budget = &results[1]["json"];
    assert_eq!(budget["truncated"], true, "{budget}");
    assert!(budget["notes"].to_string().contains("max_chars (600 characters)"), "{budget}");
    let chars: usize = budget["results"].as_array().expect("results").iter().map(|r| r.to_string().len()).sum();
    assert!(chars <= 600 && chars > 0, "{chars}");
    let lines = &results[2]["json"];
    assert_eq!(lines["results"][0]["after"], json!(["    # TODO: validate request 1"]), "{lines}");
    assert_eq!(lines["results"][0]["truncated_lines"], 1, "{lines}");
    assert_eq!(lines["truncated"], false, "{lines}");
    assert_eq!(results[3]["is_error"], true, "{}", results[3]);
    assert!(results[3]["text"].as_str().is_some_and(|t| t.contains("invalid pattern")), "{}", results[3]);
});
