//! A hostile repository and hostile project names: nothing outside a project is ever read,
//! indexed or served — through the CLI and through a real MCP client over stdio and HTTP.
//!
//! The repository links to `/etc`, to the user's home (a fake `HOME` holding marker secrets, so
//! the test is hermetic), to `..`, round in a loop, and to a file outside. Every output is
//! checked for the markers and for a line of `/etc/passwd`.

use std::path::Path;
use std::process::Command;

use cocosearch::store::NewIndex;
use serde_json::{Value, json};

use crate::cstest;
use crate::mcp_server::{HttpServer, http, root, scenario, text};
use crate::store_contract::records::{chunk, file};
use crate::support::{TestCtx, run, write_sample_project};

/// Strings that live only outside the project: none may ever appear in an output.
const MARKERS: [&str; 4] = ["MARKER_OUTSIDE_FILE_7f3a", "MARKER_HOME_SECRET_91c2", "MARKER_SSH_KEY_55d1", "root:x:0:0"];

/// Panics if `output` holds anything from outside the project.
fn assert_clean(what: &str, output: &str) {
    for marker in MARKERS {
        assert!(!output.contains(marker), "{what} shows {marker:?} from outside the project:\n{output}");
    }
}

/// The directories around a hostile project, all inside one directory of their own (so that
/// even a regression following `..` walks only them): a file outside the project and a fake
/// home directory.
struct World {
    outside: tempfile::TempDir,
    home: tempfile::TempDir,
    /// Dropped last.
    _parent: tempfile::TempDir,
}

/// A hostile project: the sample project plus links to `/etc`, the fake home, `..`, a loop,
/// a file outside, and one link that stays inside.
fn hostile(name: &str) -> (TestCtx, World) {
    let parent = tempfile::tempdir().expect("parent dir");
    let t = TestCtx::new_in(name, parent.path(), cocosearch::store::Backend::Sqlite);
    write_sample_project(&t);
    let outside = tempfile::tempdir_in(parent.path()).expect("outside dir");
    std::fs::write(
        outside.path().join("leak.py"),
        "def leaked_upload_secret():\n    \"\"\"The upload token for retrying failed uploads.\"\"\"\n    return \"MARKER_OUTSIDE_FILE_7f3a\"\n",
    )
    .expect("write");
    let home = tempfile::tempdir_in(parent.path()).expect("fake home");
    std::fs::write(
        home.path().join("notes.py"),
        "# retry failed uploads with this token\nUPLOAD_RETRY_TOKEN = \"MARKER_HOME_SECRET_91c2\"\n",
    )
    .expect("write");
    std::fs::create_dir(home.path().join(".ssh")).expect("mkdir");
    std::fs::write(home.path().join(".ssh/id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nMARKER_SSH_KEY_55d1\n")
        .expect("write");
    let link = |target: &Path, name: &str| std::os::unix::fs::symlink(target, t.path().join(name)).expect("symlink");
    link(Path::new("/etc"), "etc_dir");
    link(home.path(), "home_dir");
    link(Path::new(".."), "up");
    link(Path::new("loop_b"), "loop_a");
    link(Path::new("loop_a"), "loop_b");
    link(&outside.path().join("leak.py"), "src/leak.py");
    link(Path::new("src/uploads.py"), "alias.py");
    (t, World { outside, home, _parent: parent })
}

/// The binary with the test's database and the fake home.
fn cmd(t: &TestCtx, world: &World) -> Command {
    let mut cmd = t.cmd_db();
    cmd.env("HOME", world.home.path());
    cmd
}

/// Runs the `calls` scenario: the tool calls in one session of a client listing `roots`.
pub(crate) fn calls(server: &Command, url: Option<&str>, project: &str, roots: &[&str], calls: &Value) -> Value {
    let elsewhere = tempfile::tempdir().expect("server cwd");
    let roots = json!(roots).to_string();
    let calls = calls.to_string();
    let mut args = vec!["--project", project, "--roots", &roots, "--calls", &calls];
    let cwd = elsewhere.path().display().to_string();
    match url {
        Some(url) => args.extend(["--url", url]),
        None => args.extend(["--cwd", &cwd]),
    }
    scenario(server, "calls", &args)
}

pub(crate) fn results(report: &Value) -> &Vec<Value> {
    report["results"].as_array().expect("results")
}

fn hit_paths(search: &Value) -> Vec<String> {
    search["json"]["results"]
        .as_array()
        .or_else(|| search["results"].as_array())
        .map(|r| r.iter().filter_map(|h| h["path"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// The skip counts every view reports for the hostile project.
fn assert_link_counts(skipped: &Value) {
    assert_eq!(skipped["symlink_outside"], 4, "etc_dir, home_dir, up, src/leak.py: {skipped}");
    assert_eq!(skipped["symlink_loop"], 2, "loop_a, loop_b: {skipped}");
    assert_eq!(skipped["symlink"], 1, "alias.py: {skipped}");
    assert!(skipped.get("unreadable").is_none(), "{skipped}");
}

#[test]
fn hostile_repository_nothing_outside_the_root_is_read_or_served() {
    let (t, world) = hostile("hostile_repository");

    // The CLI: index, stats, searches with filters and context lines.
    let out = run(cmd(&t, &world), &["index", "--json"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_clean("index", &format!("{out:?}"));
    let summary = out.json();
    assert_eq!(summary["files"]["added"], 3, "only the sample project's files: {summary}");
    assert_link_counts(&summary["skipped"]);
    let stats = run(cmd(&t, &world), &["stats", "--json"]);
    assert_eq!(stats.code, 0, "{stats:?}");
    assert_link_counts(&stats.json()["skipped"]);
    let stats = run(cmd(&t, &world), &["stats"]);
    for label in ["4 symlink outside project", "2 symlink loop"] {
        assert!(stats.stdout.contains(label), "{label}: {stats:?}");
    }
    let searches: [&[&str]; 5] = [
        &["search", "retry failed uploads token", "-C", "5"],
        &["search", "leaked upload secret", "--path", "src/leak.py"],
        &["search", "ssh private key", "--path", "home_dir/**"],
        &["search", "root user password", "--path", "etc_dir/*", "-A", "3"],
        &["search", "upload token", "--path", "up/**"],
    ];
    for args in searches {
        let out = run(cmd(&t, &world), &[args, &["--json"]].concat());
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert_clean(&format!("{args:?}"), &format!("{out:?}"));
        let found = hit_paths(&out.json());
        assert!(
            found.iter().all(|p| ["src/uploads.py", "src/users.py", "web/app.js"].contains(&p.as_str())),
            "{args:?}: {found:?}"
        );
    }

    // MCP, over stdio and HTTP: index again, search with path filters and context lines, ask
    // for stats, and try to index through the links.
    let project = root(&t);
    let through = |link: &str| format!("{project}/{link}");
    let session = json!([
        {"tool": "index_codebase", "wait": true},
        {"tool": "search_code", "args": {"query": "retry failed uploads token", "context_before": 5, "context_after": 5}},
        {"tool": "search_code", "args": {"query": "leaked upload secret", "path": "src/leak.py"}},
        {"tool": "search_code", "args": {"query": "ssh private key", "path": "home_dir/**"}},
        {"tool": "search_code", "args": {"query": "root user password", "path": "etc_dir/*", "context_after": 3}},
        {"tool": "search_code", "args": {"query": "upload token", "path": "up/**"}},
        {"tool": "index_stats"},
        {"tool": "index_codebase", "args": {"path": through("etc_dir")}},
        {"tool": "index_codebase", "args": {"path": through("home_dir")}},
        {"tool": "index_codebase", "args": {"path": through("home_dir/.ssh")}},
        {"tool": "index_codebase", "args": {"path": through("up")}},
    ]);
    let server = HttpServer::start(cmd(&t, &world), &[]);
    for url in [None, Some(server.url())] {
        let via = if url.is_some() { "http" } else { "stdio" };
        let r = calls(&cmd(&t, &world), url.as_deref(), &project, &[&project], &session);
        assert_clean(via, &r.to_string());
        let r = results(&r);
        let status = &r[0]["status"]["json"]["job"];
        assert_eq!(status["state"], "completed", "{via}: {status}");
        assert_link_counts(&status["summary"]["skipped"]);
        assert_eq!(hit_paths(&r[1])[0], "src/uploads.py", "{via}: {}", r[1]);
        for filtered in &r[2..6] {
            assert_eq!(filtered["is_error"], false, "{via}: {filtered}");
            assert_eq!(hit_paths(filtered), Vec::<String>::new(), "{via}: {filtered}");
        }
        assert_link_counts(&r[6]["json"]["skipped"]);
        for (refused, reason) in r[7..].iter().zip([
            "a system directory",
            "is your home directory",
            "credentials are kept",
            // `..`: the directory holding the project and the fake home.
            "holds your home directory",
        ]) {
            assert_eq!(refused["is_error"], true, "{via}: {refused}");
            assert!(text(refused).contains("refusing to index") && text(refused).contains(reason), "{via}: {refused}");
        }
    }

    // The HTTP server keeps the index fresh (indexing.watch): it would drop the file swapped
    // below at once (a link out of the project is skipped). Without a watcher:
    drop(server);
    // A file replaced by a link to a file outside after indexing: hits keep the text stored
    // when it was indexed, marked stale, with a warning, and no line read through the link.
    // The file linked to is long, with a marker on every line, so any line read through the
    // link (content, context before or after) would show one.
    let long: String = (1..=40).map(|i| format!("LINE_{i} = \"MARKER_OUTSIDE_FILE_7f3a\"\n")).collect();
    std::fs::write(world.outside.path().join("long.py"), long).expect("write");
    let users = t.path().join("src/users.py");
    std::fs::remove_file(&users).expect("remove");
    std::os::unix::fs::symlink(world.outside.path().join("long.py"), &users).expect("symlink");
    let out = run(cmd(&t, &world), &["search", "get_user_by_id", "--json", "-C", "3"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_clean("search after the swap", &format!("{out:?}"));
    let answer = out.json();
    let hit = &answer["results"][0];
    assert_eq!(hit["path"], "src/users.py", "{answer}");
    assert_eq!(hit["stale"], true, "{answer}");
    assert!(hit["content"].as_str().is_some_and(|c| c.contains("def get_user_by_id")), "{answer}");
    assert!(answer["warnings"].to_string().contains("src/users.py leads outside the project"), "{answer}");
    // Issue 25, item 10: the warning was said twice on stderr, once more as a log line (and
    // twice in the answer for two hits in the file). Now once in each: the JSON and stderr.
    assert_eq!(out.stderr.matches("leads outside").count(), 1, "{}", out.stderr);
    assert_eq!(answer["warnings"].to_string().matches("leads outside").count(), 1, "{answer}");
    let r = calls(
        &cmd(&t, &world),
        None,
        &project,
        &[&project],
        &json!([{"tool": "search_code", "args": {"query": "get_user_by_id", "context_before": 3, "context_after": 3}}]),
    );
    assert_clean("MCP search after the swap", &r.to_string());
    let search = &results(&r)[0]["json"];
    assert_eq!(search["results"][0]["path"], "src/users.py", "{search}");
    assert_eq!(search["results"][0]["stale"], true, "{search}");
    assert!(search["warnings"].to_string().contains("leads outside the project"), "{search}");
}

cstest!(project_confinement_applies_to_every_way_of_naming_a_project, |t| {
    write_sample_project(&t);
    let out = run(t.cmd_db(), &["index", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    // An index whose recorded root is /etc, as a command-line user could make one (`index /etc
    // --allow-any-dir`), and one recorded at /tmp, which holds every test's directories: it must
    // not make them indexable. Both are written through the `Store` API with a stand-in's file,
    // so the real /etc is never read.
    let stand_in = TestCtx::new("etc_stand_in");
    let passwd = "placeholder:x:1000:1000:password entry for uploads:/home/p:/bin/sh\n";
    stand_in.write("passwd", passwd);
    let tmp = std::env::temp_dir().canonicalize().expect("temp dir");
    for (name, recorded_root) in [("etc_copy", Path::new("/etc")), ("tmp_copy", tmp.as_path())] {
        let store = t.db_store();
        let new = NewIndex {
            name: name.to_string(),
            root: recorded_root.to_path_buf(),
            provider: "ollama".into(),
            model: Some(crate::support::TEST_MODEL.into()),
            dimension: None,
            context_tokens: None,
        };
        store.create_index(&new).unwrap_or_else(|e| panic!("create {name}: {e}"));
        store
            .writer(name)
            .expect("writer")
            .replace_files(&[file("passwd", vec![chunk(passwd)])])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let beside = stand_in.path().canonicalize().expect("canonical").display().to_string();

    let project = root(&t);
    let server = HttpServer::start(t.cmd_db(), &[]);

    // ?project=/etc: refused, whatever the tool.
    let etc_url = format!("{}?project=/etc", server.url());
    let r = calls(
        &t.cmd_db(),
        Some(&etc_url),
        &project,
        &[],
        &json!([{"tool": "search_code", "args": {"query": "root password"}}, {"tool": "index_codebase"}]),
    );
    assert_clean("?project=/etc", &r.to_string());
    for refused in results(&r) {
        assert_eq!(refused["is_error"], true, "{refused}\n{}", server.log());
        assert!(text(refused).contains("?project=/etc cannot be used: /etc is a system directory"), "{refused}");
    }

    // Afterwards, no other session (HTTP or stdio) may index or read /etc, not even through
    // an index recorded there.
    let others = json!([
        {"tool": "index_codebase", "args": {"path": "/etc"}},
        {"tool": "search_code", "args": {"query": "password entry", "index_name": "etc_copy", "context_after": 5}},
        {"tool": "search_code", "args": {"query": "password entry", "index_names": [crate::mcp_server::index_name(&t), "etc_copy"]}},
        {"tool": "index_stats", "args": {"index_name": "etc_copy"}},
        {"tool": "index_codebase", "args": {"index_name": "etc_copy"}},
        {"tool": "list_indexes"},
        {"tool": "index_codebase", "args": {"path": beside}},
    ]);
    for url in [Some(server.url()), None] {
        let via = if url.is_some() { "http" } else { "stdio" };
        let r = calls(&t.cmd_db(), url.as_deref(), &project, &[&project], &others);
        assert_clean(via, &r.to_string());
        let r = results(&r);
        assert!(text(&r[0]).contains("refusing to index /etc: /etc is a system directory"), "{via}: {}", r[0]);
        for refused in &r[1..5] {
            assert_eq!(refused["is_error"], true, "{via}: {refused}");
            assert!(text(refused).contains("index etc_copy: this server does not serve /etc"), "{via}: {refused}");
        }
        let roots: Vec<&str> =
            r[5]["json"]["indexes"].as_array().expect("indexes").iter().filter_map(|i| i["root"].as_str()).collect();
        assert_eq!(roots.iter().filter(|&&r| r == "/etc").count(), 1, "only the one made by hand: {roots:?}");
        assert!(text(&r[6]).contains("outside the workspace roots and the indexed directories"), "{via}: {}", r[6]);
    }

    // Client roots naming /etc are ignored, and the reason is given.
    let r = calls(
        &t.cmd_db(),
        Some(&server.url()),
        &project,
        &["/etc"],
        &json!([{"tool": "search_code", "args": {"query": "x"}}]),
    );
    let refused = &results(&r)[0];
    assert!(text(refused).contains("ignored roots: /etc: /etc is a system directory"), "{refused}");
    // /api/stats lists the index but does not walk /etc.
    let stats = http(server.port, "GET", "/api/stats", &[], "");
    assert_eq!(stats.status, 200, "{stats:?}");
    let all: Value = serde_json::from_str(&stats.body).expect("stats JSON");
    let etc = all.as_array().expect("array").iter().find(|s| s["name"] == "etc_copy").expect("etc_copy");
    assert_eq!(etc["freshness"]["scanned"], false, "{etc}");

    // mcp.allowedRoots narrows every session to the directories listed; a project's own
    // cocosearch.yaml cannot widen it.
    // (Untrusted, such a file may not set mcp keys at all: the server runs from elsewhere.)
    t.write("cocosearch.yaml", format!("mcp:\n  allowedRoots: [{project}]\n"));
    let server_dir = tempfile::tempdir().expect("server dir");
    let mut narrow = t.cmd_db();
    narrow.env("COCOSEARCH_MCP_ALLOWED_ROOTS", &beside).current_dir(server_dir.path());
    let narrow = HttpServer::start(narrow, &[]);
    let url = format!("{}?project={project}", narrow.url());
    let r = calls(&t.cmd_db(), Some(&url), &project, &[], &json!([{"tool": "search_code", "args": {"query": "x"}}]));
    let refused = &results(&r)[0];
    assert!(text(refused).contains(&format!("{project} is outside mcp.allowedRoots ({beside})")), "{refused}");
    std::fs::remove_file(t.path().join("cocosearch.yaml")).expect("remove");

    // The server's own defaults pass the same rule: COCOSEARCH_PROJECT_PATH, --project-from-cwd.
    let mut env_cmd = t.cmd_db();
    env_cmd.env("COCOSEARCH_PROJECT_PATH", "/etc");
    let search = json!([{"tool": "search_code", "args": {"query": "x"}}]);
    let r = calls(&env_cmd, None, &project, &[], &search);
    assert!(
        text(&results(&r)[0]).contains("COCOSEARCH_PROJECT_PATH (/etc) cannot be used: /etc is a system directory"),
        "{r}"
    );
    let r = scenario(
        &t.cmd_db(),
        "calls",
        &[
            "--project",
            &project,
            "--roots",
            "[]",
            "--calls",
            &search.to_string(),
            "--cwd",
            "/etc",
            "--server-arg=--project-from-cwd",
        ],
    );
    assert!(text(&results(&r)[0]).contains("the server's working directory /etc cannot be the project"), "{r}");

    // The CLI refuses too, unless told.
    let out = run(t.cmd_db(), &["index", "/etc"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("refusing to index /etc: /etc is a system directory")
            && out.stderr.contains("--allow-any-dir"),
        "{out:?}"
    );
    let home = tempfile::tempdir().expect("fake home");
    std::fs::write(home.path().join("notes.py"), "def note():\n    return 1\n").expect("write");
    let mut in_home = t.cmd_db();
    in_home.env("HOME", home.path()).current_dir(home.path());
    let out = run(in_home, &["index", "-q"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("is your home directory"), "{out:?}");
    let mut in_home = t.cmd_db();
    in_home.env("HOME", home.path()).current_dir(home.path());
    let out = run(in_home, &["index", "-q", "--allow-any-dir", "-n", "my_home"]);
    assert_eq!(out.code, 0, "{out:?}");
});

/// A listener that records every byte sent to it: the server a hostile repository would name.
struct Capture {
    url: String,
    received: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    connections: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Capture {
    fn start() -> Capture {
        use std::io::Read;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let received = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let connections = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (bytes, count) = (received.clone(), connections.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                stream.set_read_timeout(Some(std::time::Duration::from_millis(500))).expect("timeout");
                let mut buf = [0u8; 4096];
                while let Ok(n) = stream.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    bytes.lock().expect("bytes").extend_from_slice(&buf[..n]);
                }
            }
        });
        Capture { url, received, connections }
    }

    fn assert_untouched(&self, what: &str) {
        let received = String::from_utf8_lossy(&self.received.lock().expect("bytes")).into_owned();
        assert_eq!(self.connections.load(std::sync::atomic::Ordering::SeqCst), 0, "{what} reached it:\n{received}");
    }
}

/// The user's embedding key, which must never reach a server a repository chose.
const USER_KEY: &str = "sk-user-secret-4d2b";

// Issue 25, item 1: a cloned repository's cocosearch.yaml sent the user's API key (and the code)
// to a server of its choosing.
cstest!(a_cloned_repository_cannot_send_the_users_key_to_a_server_it_chooses, |t| {
    write_sample_project(&t);
    let capture = Capture::start();
    let trust_dir = tempfile::tempdir().expect("config dir");
    let cmd = || {
        let mut cmd = t.cmd();
        cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
            .env("COCOSEARCH_DATABASE_PATH", t.embedded_dir())
            .env("COCOSEARCH_EMBEDDING_API_KEY", USER_KEY)
            .env("XDG_CONFIG_HOME", trust_dir.path());
        cmd
    };
    let endpoint = format!("embedding:\n  provider: openai\n  model: m\n  baseUrl: {}/v1\n", capture.url);
    let files = [
        (endpoint.clone(), "embedding.baseUrl"),
        (
            "embedding:\n  provider: openai\n  model: m\n  apiKey: ${COCOSEARCH_EMBEDDING_API_KEY}\n".to_string(),
            "COCOSEARCH_EMBEDDING_API_KEY",
        ),
        ("indexName: x${COCOSEARCH_EMBEDDING_API_KEY}\n".to_string(), "COCOSEARCH_EMBEDDING_API_KEY"),
        (
            format!("database:\n  url: postgresql://u:p@{}/db\n", capture.url.trim_start_matches("http://")),
            "database.url",
        ),
        ("linkedIndexes: [someone_elses]\n".to_string(), "linkedIndexes"),
        ("mcp:\n  host: 0.0.0.0\n".to_string(), "mcp.host"),
    ];
    for (yaml, named) in &files {
        t.write("cocosearch.yaml", yaml);
        for args in [&["index"][..], &["search", "retry failed uploads"], &["config", "show"]] {
            let out = run(cmd(), args);
            // config show is how the file is read before it is trusted: it shows the file
            // without the keys it may not set, and names them.
            let (code, told) = match args[0] {
                "config" => (0, &out.stdout),
                _ => (2, &out.stderr),
            };
            assert_eq!(out.code, code, "{yaml}{args:?}: {out:?}");
            assert!(told.contains(named) && told.contains("cocosearch config trust"), "{args:?}: {out:?}");
            assert!(!format!("{out:?}").contains(USER_KEY), "{args:?} printed the key: {out:?}");
        }
    }
    capture.assert_untouched("the CLI");

    // An agent's index_codebase over MCP is refused the same way.
    t.write("cocosearch.yaml", &endpoint);
    let project = root(&t);
    let r = calls(&cmd(), None, &project, &[&project], &json!([{"tool": "index_codebase", "wait": true}]));
    let refused = &results(&r)[0];
    assert!(text(refused).contains("embedding.baseUrl") && text(refused).contains("not trusted"), "{r}");
    assert!(!r.to_string().contains(USER_KEY), "{r}");
    capture.assert_untouched("MCP index_codebase");

    // Once the user trusts the file as it is, its settings count; a change makes it untrusted again.
    let trusted = run(cmd(), &["config", "trust", "--json"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    assert_eq!(trusted.json()["status"], "trusted", "{trusted:?}");
    let show = run(cmd(), &["config", "show", "--json"]);
    assert_eq!(show.code, 0, "{show:?}");
    let base =
        show.json()["settings"].as_array().expect("settings").iter().find(|s| s["key"] == "embedding.baseUrl").cloned();
    assert_eq!(base.expect("baseUrl")["source_kind"], "file", "{show:?}");
    t.write("cocosearch.yaml", format!("{endpoint}# pulled a change\n"));
    let out = run(cmd(), &["index"]);
    assert_eq!(out.code, 2, "a changed file is untrusted again: {out:?}");
    let out = run(cmd(), &["config", "show"]);
    assert!(out.stdout.contains("not trusted, so not applied: embedding.baseUrl"), "{out:?}");
});

// Issue 25, item 5: a hub address with a password or a token was printed in clear by
// `config show` and in the indexing warning.
cstest!(hub_url_credentials_are_never_printed, |t| {
    write_sample_project(&t);
    let cmd = || {
        let mut cmd = t.cmd();
        cmd.env("COCOSEARCH_DATABASE_BACKEND", "sqlite")
            .env("COCOSEARCH_DATABASE_PATH", t.embedded_dir())
            .env("COCOSEARCH_EMBEDDING_PROVIDER", "builtin")
            .env("COCOSEARCH_EMBEDDING_HUB_URL", "http://mirror:hub-pass-77@127.0.0.1:9/hf?token=hub-token-88");
        cmd
    };
    for args in [&["config", "show"][..], &["config", "show", "--json"], &["index"], &["search", "upload"]] {
        let out = run(cmd(), args);
        let all = format!("{out:?}");
        assert!(!all.contains("hub-pass-77") && !all.contains("hub-token-88"), "{args:?} printed a secret: {all}");
        assert!(all.contains("127.0.0.1:9"), "{args:?} should still name the hub: {all}");
    }
});

/// The bytes of every file under `dir`.
fn tree_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .map(|e| match e.file_type() {
                Ok(kind) if kind.is_dir() => tree_size(&e.path()),
                Ok(_) => e.metadata().map_or(0, |m| m.len()),
                Err(_) => 0,
            })
            .sum()
    })
}

// Issue 25, item 2: each definition stored the qualified names of all its enclosing ones, so a
// file of deeply nested definitions grew the store with the square of the depth (a 139 KB Rust
// file gave 3.9 GB). Nested definitions must cost about what the same definitions side by side
// cost.
cstest!(nested_definitions_keep_the_store_linear_in_the_file, |t| {
    const DEPTH: usize = 3000;
    let nested = format!("{}fn f() {{}}\n{}", "mod m {\n".repeat(DEPTH), "}\n".repeat(DEPTH));
    // Each module its own name: the same text twice would be stored once (see `store::texts`).
    let flat: String = (0..DEPTH).map(|i| format!("mod m{i} {{\n}}\n")).chain(["fn f() {}\n".to_string()]).collect();
    let flat_project = TestCtx::new("nested_definitions_flat_twin");
    t.write("src/nested.rs", &nested);
    flat_project.write("src/nested.rs", &flat);
    for project in [&t, &flat_project] {
        let mut cmd = project.cmd_db();
        cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
        let indexed = run(cmd, &["index"]);
        assert_eq!(indexed.code, 0, "{indexed:?}");
    }
    let (nested_store, flat_store) = (tree_size(&t.embedded_dir()), tree_size(&flat_project.embedded_dir()));
    assert!(
        nested_store <= 2 * flat_store,
        "the nested file's store is {nested_store} bytes, the same definitions side by side {flat_store}"
    );
    let symbols = run(t.cmd_db(), &["symbol", "f", "--json"]).json();
    let name = symbols["results"][0]["qualified_name"].as_str().expect("the innermost function is found");
    assert!(name.starts_with('…') && name.ends_with("m::f") && name.len() < 64, "{name}");
});

// Issue 25, item 10: a 1 MiB query was searched and echoed back whole, past MCP clients'
// message limits. (100 KB here: a process argument holds at most 128 KiB.)
cstest!(an_oversized_query_is_refused_and_never_echoed, |t| {
    write_sample_project(&t);
    let project = t.path().display().to_string();
    let query = "retry failed uploads ".repeat(5_000);
    let session = json!([{"tool": "index_codebase", "wait": true}, {"tool": "search_code", "args": {"query": query}}]);
    let r = calls(&t.cmd_db(), None, &project, &[&project], &session);
    let answer = &results(&r)[1];
    assert_eq!(answer["is_error"], true, "{answer}");
    let said = answer.to_string();
    assert!(said.contains("the limit is 65536") && said.len() < 4_096, "{}", &said[..said.len().min(600)]);
    let cli = crate::support::run(t.cmd_db(), &["search", &query]);
    assert_ne!(cli.code, 0, "{}", &cli.stderr[..cli.stderr.len().min(600)]);
    assert!(cli.stderr.contains("the limit is 65536") && cli.stderr.len() < 4_096, "the CLI refuses it too");
});

// Issue 25, item 10: a repository's `.gitignore` of `*` silently emptied its index.
cstest!(an_ignore_file_that_empties_the_index_is_warned_about, |t| {
    for i in 0..30 {
        t.write(&format!("src/module_{i}.py"), format!("def function_{i}():\n    return {i}\n"));
    }
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
    let first = run(cmd, &["index", "--json"]);
    assert_eq!(first.code, 0, "{first:?}");
    assert_eq!(first.json()["warnings"], json!([]), "{first:?}");
    t.write(".gitignore", "*\n");
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_EMBEDDING_PROVIDER", "none");
    let emptied = run(cmd, &["index"]);
    assert_eq!(emptied.code, 0, "{emptied:?}");
    assert!(
        emptied.stderr.contains("removed 30 of the index's 30 files") && emptied.stderr.contains(".gitignore"),
        "{emptied:?}"
    );
});
