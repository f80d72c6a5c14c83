//! The dashboard's JSON API and its guard, against the real binary, a real store (embedded;
//! deleting an index also on PostgreSQL, in the end-to-end set) and the real MiniLM embedding
//! server (or the fake one where a run must be held back).

use std::net::UdpSocket;

use serde_json::{Value, json};

use super::{Server, enc, git, http};
use crate::cstest;
use crate::support::fake_ollama::FakeOllama;
use crate::support::{run, start_held_run, write_sample_project};

fn index(mut cmd: std::process::Command) {
    cmd.args(["index", "-q"]);
    let out = run(cmd, &[]);
    assert_eq!(out.code, 0, "{out:?}");
}

/// `v` without the fields that measure time or the cache rather than the answer.
fn answer_of(mut v: Value) -> Value {
    let object = v.as_object_mut().expect("an object");
    object.remove("took_ms");
    object.remove("cached_embedding");
    // Measured when each answer was made (the watcher may have caught up in between); the
    // fields it has are compared on their own.
    let freshness = object.remove("freshness").expect("every answer says how fresh it is");
    assert_eq!(freshness["index"], object["indexes"][0], "{freshness}");
    assert!(freshness["pending_embeddings"].is_u64() && freshness["state"].is_string(), "{freshness}");
    v
}

cstest!(api_lists_indexes_with_the_statistics_of_the_command_line, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let name = t.index_name();
    let server = Server::dashboard(t.cmd_embedded(), &[]);

    let (status, info) = server.get_json("/api/info");
    assert_eq!(status, 200, "{info}");
    assert_eq!(info["store"]["backend"], "sqlite", "{info}");
    assert!(info["languages"].as_array().is_some_and(|l| l.contains(&json!("python"))), "{info}");
    assert!(info["symbol_types"].as_array().is_some_and(|l| l.contains(&json!("function"))), "{info}");

    let (status, list) = server.get_json("/api/indexes");
    assert_eq!(status, 200, "{list}");
    let indexes = list["indexes"].as_array().expect("indexes");
    assert_eq!(indexes.len(), 1, "{list}");
    let listed = &indexes[0];
    let cli = run(t.cmd_embedded(), &["stats", "--json"]).json();
    for key in
        ["name", "root", "files", "chunks", "pending_embeddings", "lines", "backend", "languages", "symbols_by_type"]
    {
        assert_eq!(listed[key], cli[key], "{key}: {listed} vs {cli}");
    }
    assert_eq!(listed["files"], 3);
    assert_eq!(listed["servable"], true);
    assert_eq!(listed["job"], Value::Null);
    assert_eq!(listed["freshness"]["stale"], false, "{listed}");

    let (status, detail) = server.get_json(&format!("/api/indexes/{name}"));
    assert_eq!(status, 200, "{detail}");
    assert_eq!(detail["chunks"], cli["chunks"]);
    assert_eq!(detail["runs"][0]["status"], "completed", "{detail}");
    assert!(detail["failing_files"].is_array(), "{detail}");

    let (status, missing) = server.get_json("/api/indexes/nope");
    assert_eq!(status, 404, "{missing}");
    assert!(missing["error"].as_str().is_some_and(|e| e.contains("no index named nope")), "{missing}");
    assert_eq!(server.get_json("/api/indexes/Bad-Name").0, 400);
});

cstest!(api_freshness_names_files_changed_on_disk_and_a_moved_git_head, |t| {
    write_sample_project(&t);
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "first"]);
    let indexed = git(t.path(), &["rev-parse", "HEAD"]);
    index(t.cmd_embedded());
    let server = Server::dashboard(t.cmd_embedded(), &["--no-watch"]);
    let (status, list) = server.get_json("/api/indexes");
    assert_eq!(status, 200, "{list}");
    let listed = &list["indexes"][0];
    assert_eq!((listed["git_commit"].as_str(), listed["git_branch"].as_str()), (Some(indexed.as_str()), Some("main")));
    let f = &listed["freshness"];
    assert_eq!((f["stale"].as_bool(), f["commit_drift"].as_bool()), (Some(false), Some(false)), "{listed}");
    assert_eq!(f["head_commit"].as_str(), Some(indexed.as_str()), "{listed}");

    // A file changed, one added, and a new commit: the page's freshness names all three.
    t.write("src/users.py", "class UserStore:\n    \"\"\"Keeps users on disk now.\"\"\"\n");
    t.write("src/orders.py", "def total(order):\n    return sum(order)\n");
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "second"]);
    let head = git(t.path(), &["rev-parse", "HEAD"]);
    let (_, list) = server.get_json("/api/indexes");
    let f = &list["indexes"][0]["freshness"];
    assert_eq!(f["stale"], true, "{f}");
    assert_eq!((f["commit_drift"].as_bool(), f["branch_drift"].as_bool()), (Some(true), Some(false)), "{f}");
    assert_eq!((f["head_commit"].as_str(), f["head_branch"].as_str()), (Some(head.as_str()), Some("main")), "{f}");
    assert_eq!(f["modified"]["paths"], json!(["src/users.py"]), "{f}");
    assert_eq!(f["added"]["paths"], json!(["src/orders.py"]), "{f}");
    let name = t.index_name();
    let (_, detail) = server.get_json(&format!("/api/indexes/{name}"));
    assert_eq!(detail["freshness"]["commit_drift"], true, "{detail}");
});

cstest!(api_counts_kept_by_the_server_follow_runs_of_other_processes, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let server = Server::dashboard(t.cmd_embedded(), &[]);
    let counts = || {
        let (status, list) = server.get_json("/api/indexes");
        assert_eq!(status, 200, "{list}");
        let listed = &list["indexes"][0];
        (listed["files"].as_u64(), listed["chunks"].as_u64(), listed["languages"].to_string())
    };
    let before = counts();
    assert_eq!(before.0, Some(3));
    assert_eq!(counts(), before, "the same index, the same counts");

    // A run of the command line, not of this server: the counts the server keeps are renewed.
    t.write("src/orders.py", "def total(order):\n    \"\"\"Sum an order.\"\"\"\n    return sum(order)\n");
    t.write("docs/notes.md", "# Notes\n\nWhat the orders module does.\n");
    index(t.cmd_embedded());
    let after = counts();
    let cli = run(t.cmd_embedded(), &["stats", "--json"]).json();
    assert_eq!((after.0, after.1), (cli["files"].as_u64(), cli["chunks"].as_u64()), "{after:?} vs {cli}");
    assert_eq!(after.0, Some(5), "{after:?}");
    assert_eq!(after.2, cli["languages"].to_string());

    // Deleted and built again from the command line: new counts, never the old ones.
    std::fs::remove_file(t.path().join("docs/notes.md")).expect("remove");
    let out = run(t.cmd_embedded(), &["index", "--fresh", "-q"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(counts().0, Some(4));
});

cstest!(api_search_answers_what_the_command_line_answers, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let name = t.index_name();
    let server = Server::dashboard(t.cmd_embedded(), &[]);
    let query = "upload a file and retry when it fails";

    for (flags, params) in [
        (vec!["--lang", "python"], "&lang=python"),
        (vec!["--keyword", "-C", "1"], "&keyword&context=1"),
        (vec!["--path", "web/**", "--no-hybrid"], "&path=web%2F**&no-hybrid=true"),
    ] {
        let mut args = vec!["search", query, "--json"];
        args.extend(&flags);
        let cli = run(t.cmd_embedded(), &args);
        assert_eq!(cli.code, 0, "{cli:?}");
        let (status, api) = server.get_json(&format!("/api/search?q={}&index={name}{params}", enc(query)));
        assert_eq!(status, 200, "{api}");
        assert_eq!(answer_of(api), answer_of(cli.json()), "{flags:?}");
    }
    let (_, hits) = server.get_json(&format!("/api/search?q={}&index={name}", enc(query)));
    assert_eq!(hits["results"][0]["path"], "src/uploads.py", "{hits}");

    // Mistakes are named, with the status a client can act on.
    for (params, status, words) in [
        (format!("index={name}"), 400, "query is empty"),
        (format!("q=x&index={name}&langs=py"), 400, "unknown parameter \"langs\""),
        (format!("q=x&index={name}&hybrid&keyword"), 400, "hybrid cannot be used with keyword"),
        (format!("q=x&index={name}&lang=klingon"), 400, "klingon"),
        ("q=x".to_string(), 400, "name the index"),
        ("q=x&index=nope".to_string(), 404, "no index named nope"),
    ] {
        let (got, body) = server.get_json(&format!("/api/search?{params}"));
        assert_eq!(got, status, "{params}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| e.contains(words)), "{params}: {body}");
    }
});

cstest!(api_grep_answers_what_grep_json_answers_with_definitions, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let name = t.index_name();
    let server = Server::dashboard(t.cmd_embedded(), &[]);
    let cli = run(t.cmd_embedded(), &["grep", "--json", "-C", "1", "-t", "python", r"self\.users"]);
    assert_eq!(cli.code, 0, "{cli:?}");
    let (status, api) = server.get_json(&format!("/api/grep?q={}&index={name}&context=1&lang=py", enc(r"self\.users")));
    assert_eq!(status, 200, "{api}");
    let mut ours = cli.json()["results"].clone();
    for hit in ours.as_array_mut().expect("results") {
        hit["index"] = Value::from(name.clone());
    }
    assert_eq!(api["results"], ours, "{api}");
    assert_eq!(api["results"][1]["symbol"]["qualified_name"], "UserStore.get_user_by_id", "{api}");
    let (status, cut) = server.get_json(&format!("/api/grep?q=def&index={name}&limit=1"));
    assert_eq!((status, cut["truncated"].as_bool()), (200, Some(true)), "{cut}");
    let (status, bad) = server.get_json(&format!("/api/grep?q=%28&index={name}"));
    assert_eq!(status, 400, "{bad}");
    assert!(bad["error"].as_str().is_some_and(|e| e.contains("invalid pattern")), "{bad}");
});

cstest!(api_file_serves_only_indexed_files_inside_the_root, |t| {
    write_sample_project(&t);
    let outside = tempfile::tempdir().expect("outside");
    std::fs::write(outside.path().join("secret.txt"), "OUTSIDE-SECRET\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), t.path().join("src/leak.py")).expect("symlink");
    t.write(".env", "API_KEY=ENV-SECRET\n");
    index(t.cmd_embedded());
    let name = t.index_name();
    let server = Server::dashboard(t.cmd_embedded(), &[]);

    let (status, file) = server.get_json(&format!("/api/file?index={name}&path=src/users.py"));
    assert_eq!(status, 200, "{file}");
    assert_eq!(file["content"], std::fs::read_to_string(t.path().join("src/users.py")).expect("read").as_str());
    assert_eq!((file["language"].as_str(), file["stale"].as_bool()), (Some("python"), Some(false)), "{file}");

    let outside_name = outside.path().file_name().expect("name").to_string_lossy().into_owned();
    for (path, status) in [
        (format!("../{outside_name}/secret.txt"), 403),
        ("src/../../etc/passwd".to_string(), 403),
        ("/etc/passwd".to_string(), 403),
        ("src/leak.py".to_string(), 403),
        (".env".to_string(), 404),
        ("src/missing.py".to_string(), 404),
    ] {
        let reply = server.get(&format!("/api/file?index={name}&path={}", enc(&path)));
        assert_eq!(reply.status, status, "{path}: {}", reply.body);
        assert!(!reply.body.contains("SECRET"), "{path}: {}", reply.body);
    }

    // A file changed since indexing is served as it is now, flagged stale.
    t.write("src/users.py", "class UserStore:\n    pass\n");
    let (_, file) = server.get_json(&format!("/api/file?index={name}&path=src/users.py"));
    assert_eq!((file["content"].as_str(), file["stale"].as_bool()), (Some("class UserStore:\n    pass\n"), Some(true)));
});

cstest!(api_serves_nothing_from_a_root_the_project_rule_refuses, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let name = t.index_name();
    // With HOME at the project, its root is "your home directory": counts only, no files.
    let mut cmd = t.cmd_embedded();
    cmd.env("HOME", t.path());
    let server = Server::dashboard(cmd, &[]);
    let (_, list) = server.get_json("/api/indexes");
    assert_eq!(list["indexes"][0]["servable"], false, "{list}");
    assert_eq!(list["indexes"][0]["files"], 3, "{list}");
    let reply = server.get(&format!("/api/file?index={name}&path=src/users.py"));
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(reply.body.contains("home directory"), "{}", reply.body);
    let (status, body) = server.send_json("POST", "/api/jobs", &json!({ "index": name }));
    assert_eq!(status, 403, "{body}");
    let (status, body) = server.get_json(&format!("/api/search?q=upload&index={name}"));
    assert_eq!(status, 403, "{body}");
    assert!(body["error"].as_str().is_some_and(|e| e.contains("does not serve")), "{body}");
});

cstest!(api_reindex_streams_progress_then_the_summary_and_new_counts, |t| {
    write_sample_project(&t);
    let fake = FakeOllama::start(384);
    let mut cmd = t.cmd_embedded();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    index(cmd);
    let name = t.index_name();
    let mut cmd = t.cmd_embedded();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let server = Server::dashboard(cmd, &["--no-watch"]);

    // Held at its first embedding, the job is running and its stream shows it.
    t.write(
        "src/payments.py",
        "def charge(card, amount):\n    \"\"\"Charge a card.\"\"\"\n    return gateway.charge(card, amount)\n",
    );
    t.write("src/refunds.py", "def refund(payment):\n    return gateway.refund(payment)\n");
    fake.behaviour.close();
    let (status, started) = server.send_json("POST", "/api/jobs", &json!({ "index": name }));
    assert_eq!(status, 202, "{started}");
    assert_eq!(started["started"], true, "{started}");
    let id = started["job"]["job_id"].as_str().expect("job id").to_string();
    // A second start while it runs is the same job.
    let (status, again) = server.send_json("POST", "/api/jobs", &json!({ "index": name }));
    assert_eq!((status, again["started"].clone(), again["job"]["job_id"].clone()), (202, json!(false), json!(id)));
    // The embedding answers go once the stream has shown the running job.
    let events = server.events_then(&format!("/api/jobs/{id}/events"), || fake.behaviour.open());
    let kinds: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(kinds.last(), Some(&"done"), "{events:?}");
    assert!(kinds.iter().filter(|k| **k == "progress").count() >= 1, "{events:?}");
    assert!(events.iter().filter(|(e, _)| e == "progress").all(|(_, j)| j["state"] == "running"), "{events:?}");
    let done = &events.last().expect("done").1;
    assert_eq!(done["state"], "completed", "{done}");
    assert_eq!(done["summary"]["files"]["added"], 2, "{done}");

    let (_, detail) = server.get_json(&format!("/api/indexes/{name}"));
    assert_eq!(detail["files"], 5, "{detail}");
    assert_eq!(detail["runs"][0]["kind"], "incremental", "{detail}");
    let (_, jobs) = server.get_json("/api/jobs");
    assert_eq!(jobs["jobs"][0]["job_id"], json!(id), "{jobs}");

    // Rebuild: the index is deleted and built again, under the same lock.
    let (status, rebuilt) = server.send_json("POST", "/api/jobs", &json!({ "index": name, "fresh": true }));
    assert_eq!(status, 202, "{rebuilt}");
    let id = rebuilt["job"]["job_id"].as_str().expect("job id");
    let events = server.events(&format!("/api/jobs/{id}/events"));
    let done = &events.last().expect("done").1;
    assert_eq!((done["state"].as_str(), done["summary"]["kind"].as_str()), (Some("completed"), Some("full")), "{done}");
    assert_eq!(done["summary"]["files"]["added"], 5, "{done}");
    assert_eq!(server.get_json("/api/jobs/job-99").0, 404);
});

cstest!(api_refuses_to_write_an_index_another_run_is_writing, |t| {
    write_sample_project(&t);
    index(t.cmd_db());
    let name = t.index_name();
    // The fake embedder holds the CLI run (its first request has to be the run's own).
    let fake = FakeOllama::start(384);
    let mut cmd = t.cmd_db();
    cmd.env("COCOSEARCH_OLLAMA_URL", &fake.url);
    let server = Server::dashboard(cmd, &["--no-watch"]);
    t.write("src/extra.py", "def extra():\n    return 1\n");
    let held = start_held_run(&t, &fake);

    let (reindex, reindex_body) = server.send_json("POST", "/api/jobs", &json!({ "index": name }));
    let (rebuild, rebuild_body) = server.send_json("POST", "/api/jobs", &json!({ "index": name, "fresh": true }));
    let delete = http(server.port, "DELETE", &format!("/api/indexes/{name}"), &[], "");
    fake.behaviour.open();
    let held = held.wait_with_output().expect("wait for the held run");
    assert!(held.status.success(), "{}", String::from_utf8_lossy(&held.stderr));

    for (what, status, body) in [
        ("re-index", reindex, reindex_body.to_string()),
        ("rebuild", rebuild, rebuild_body.to_string()),
        ("delete", delete.status, delete.body.clone()),
    ] {
        assert_eq!(status, 409, "{what}: {body}");
        assert!(body.contains(&format!("index {name} is being written by another run")), "{what}: {body}");
    }
    // Nothing was lost: the run completed with its new file.
    let (_, detail) = server.get_json(&format!("/api/indexes/{name}"));
    assert_eq!(
        (detail["files"].as_u64(), detail["backend"].as_str()),
        (Some(4), Some(t.backend().as_str())),
        "{detail}"
    );
});

cstest!(api_delete_removes_the_index, both_backends, |t| {
    write_sample_project(&t);
    index(t.cmd_db());
    let name = t.index_name();
    let server = Server::dashboard(t.cmd_db(), &[]);
    let (_, list) = server.get_json("/api/indexes");
    assert_eq!(list["indexes"][0]["backend"], t.backend().as_str(), "{list}");
    let (status, search) = server.get_json(&format!("/api/search?q=get_user_by_id&index={name}"));
    assert_eq!((status, search["results"][0]["path"].as_str()), (200, Some("src/users.py")), "{search}");

    let reply = http(server.port, "DELETE", &format!("/api/indexes/{name}"), &[], "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(serde_json::from_str::<Value>(&reply.body).expect("JSON"), json!({ "deleted": [name] }));
    assert_eq!(server.get_json(&format!("/api/indexes/{name}")).0, 404);
    assert_eq!(server.get_json("/api/indexes").1, json!({ "indexes": [] }));
    assert_eq!(http(server.port, "DELETE", &format!("/api/indexes/{name}"), &[], "").status, 404);
});

cstest!(the_guard_refuses_foreign_origins_and_hosts_and_wants_the_token, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let mut cmd = t.cmd_embedded();
    cmd.env("COCOSEARCH_MCP_TOKEN", "s3cret token");
    let server = Server::dashboard(cmd, &[]);
    let port = server.port;
    let bearer = ("Authorization", "Bearer s3cret token");

    let foreign = http(port, "GET", "/api/indexes", &[bearer, ("Origin", "https://evil.example")], "");
    assert_eq!(foreign.status, 403, "{}", foreign.body);
    assert!(foreign.body.contains("origin https://evil.example is not allowed"), "{}", foreign.body);
    let rebinding = http(port, "GET", "/dashboard", &[bearer, ("Host", &format!("evil.example:{port}"))], "");
    assert_eq!(rebinding.status, 403, "{}", rebinding.body);
    let own_origin = format!("http://127.0.0.1:{port}");
    assert_eq!(http(port, "GET", "/api/indexes", &[bearer, ("Origin", &own_origin)], "").status, 200);

    // No token: JSON for programs, a page for browsers.
    let json_401 = server.get("/api/indexes");
    assert_eq!(json_401.status, 401, "{}", json_401.body);
    assert!(json_401.body.contains("missing or wrong token"), "{}", json_401.body);
    let page_401 = http(port, "GET", "/dashboard", &[("Accept", "text/html")], "");
    assert_eq!(page_401.status, 401);
    assert!(page_401.body.contains("needs its token") && !page_401.body.contains("s3cret"), "{}", page_401.body);
    assert_eq!(server.get("/dashboard?token=wrong").status, 401);

    // ?token= sets the cookie and leaves the token out of the address.
    let link = server.get(&format!("/dashboard?token={}&x=1", enc("s3cret token")));
    assert_eq!(link.status, 303, "{}", link.head);
    let head = link.head.to_lowercase();
    assert!(head.contains("location: /dashboard?x=1"), "{}", link.head);
    let cookie = link
        .head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: ").or_else(|| l.strip_prefix("Set-Cookie: ")))
        .expect("a cookie")
        .split(';')
        .next()
        .expect("name=value")
        .to_string();
    assert!(cookie.starts_with(&format!("cocosearch_token_{port}=")) && !cookie.contains("s3cret"), "{cookie}");
    assert!(head.contains("httponly") && head.contains("samesite=strict"), "{}", link.head);
    let page = http(port, "GET", "/dashboard", &[("Cookie", &cookie)], "");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>cocosearch</title>"), "{}", page.body);
    assert!(page.head.to_lowercase().contains("content-security-policy: default-src 'none'"), "{}", page.head);
    assert_eq!(http(port, "GET", "/api/indexes", &[("Cookie", &cookie)], "").status, 200);
    assert_eq!(http(port, "GET", "/api/indexes", &[("Cookie", &format!("{cookie}0"))], "").status, 401);
    assert!(!server.log().contains("s3cret"), "{}", server.log());
});

cstest!(the_page_and_its_assets_are_served_from_the_binary, |t| {
    let server = Server::dashboard(t.cmd_embedded(), &[]);
    let root = server.get("/");
    assert_eq!((root.status, root.head.contains("location: /dashboard")), (303, true), "{}", root.head);
    let page = server.get("/dashboard");
    assert_eq!(page.status, 200);
    for asset in ["app.js", "app.css", "highlight.js", "favicon.svg"] {
        assert!(page.body.contains(&format!("/dashboard/assets/{asset}")), "{asset}");
        let reply = server.get(&format!("/dashboard/assets/{asset}"));
        assert_eq!(reply.status, 200, "{asset}");
        // Nothing is loaded from elsewhere (the SVG namespace is a name, not a download).
        let body = reply.body.replace("http://www.w3.org/2000/svg", "");
        assert!(!body.contains("http://") && !body.contains("https://"), "{asset} names another server");
        let etag = reply.head.lines().find_map(|l| l.strip_prefix("etag: ")).expect("an ETag").to_string();
        let again = http(server.port, "GET", &format!("/dashboard/assets/{asset}"), &[("If-None-Match", &etag)], "");
        assert_eq!(again.status, 304, "{asset}");
    }
    assert_eq!(server.get("/dashboard/assets/nope.js").status, 404);
    // The code graph's route names what it needs.
    let (status, graph) = server.get_json("/api/graph?index=x&file=y");
    assert_eq!(status, 404);
    assert!(graph["error"].as_str().is_some_and(|e| e.contains("no index named x")), "{graph}");
});

cstest!(open_in_editor_runs_the_editor_for_indexed_files_and_loopback_clients_only, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let name = t.index_name();
    let tools = tempfile::tempdir().expect("tools");
    let record = tools.path().join("opened.txt");
    let editor = tools.path().join("editor.sh");
    std::fs::write(&editor, format!("#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\n", record.display())).expect("write");
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");

    let mut cmd = t.cmd_embedded();
    cmd.env("COCOSEARCH_EDITOR", format!("'{}' --line {{line}} {{file}}", editor.display())).env("EDITOR", "false");
    let server = Server::dashboard(cmd, &["--host", "0.0.0.0"]);
    let (status, info) = server.get_json("/api/info");
    assert_eq!((status, info["editor"].as_str()), (200, Some(editor.display().to_string().as_str())), "{info}");

    let (status, opened) =
        server.send_json("POST", "/api/open", &json!({ "index": name, "path": "src/users.py", "line": 7 }));
    assert_eq!(status, 200, "{opened}");
    let canonical = t.path().canonicalize().expect("root").join("src/users.py");
    // The editor runs detached: wait until it has written all three of its arguments.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let written = || std::fs::read_to_string(&record).unwrap_or_default();
    while written().lines().count() < 3 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(written(), format!("--line\n7\n{}\n", canonical.display()), "the editor ran with the file and line");

    // Outside the root, or not indexed: refused, and nothing runs.
    std::fs::remove_file(&record).expect("rm");
    for path in ["../x.py", "/etc/passwd", "src/none.py"] {
        let (status, body) = server.send_json("POST", "/api/open", &json!({ "index": name, "path": path, "line": 1 }));
        assert!(status == 403 || status == 404, "{path}: {status} {body}");
    }
    assert!(!record.exists());

    // From another machine (a non-loopback address of this one): refused.
    let probe =
        UdpSocket::bind("0.0.0.0:0").and_then(|s| s.connect("192.0.2.1:9").map(|()| s)).and_then(|s| s.local_addr());
    let local = probe.map(|a| a.ip()).ok().filter(|ip| !ip.is_loopback()).unwrap_or_else(|| {
        panic!("this test needs a non-loopback address on this machine to connect from, and found none")
    });
    let mut stream =
        std::net::TcpStream::connect((local, server.port)).expect("connect through a non-loopback address");
    let body = json!({ "index": name, "path": "src/users.py", "line": 1 }).to_string();
    let request = format!(
        "POST /api/open HTTP/1.1\r\nHost: {local}:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.port,
        body.len()
    );
    std::io::Write::write_all(&mut stream, request.as_bytes()).expect("send");
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).expect("read");
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    assert!(answer.contains("loopback"), "{answer}");
    assert!(!record.exists());
});

cstest!(the_mcp_http_server_serves_the_dashboard_too, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let server = Server::mcp(t.cmd_embedded());
    let page = server.get("/dashboard");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("/dashboard/assets/app.js"));
    let (status, list) = server.get_json("/api/indexes");
    assert_eq!((status, list["indexes"][0]["files"].as_u64()), (200, Some(3)), "{list}");
    // /mcp is still there (it wants a JSON-RPC POST).
    assert_eq!(http(server.port, "POST", "/mcp", &[("Content-Type", "application/json")], "{").status, 400);
});

cstest!(the_dashboard_command_names_a_busy_port, |t| {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("address").port().to_string();
    let out = run(t.cmd_embedded(), &["dashboard", "--no-open", "--port", &port]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")), "{out:?}");
    assert!(out.stderr.contains("pick another port with --port") && !out.stderr.contains("mcp.port"), "{out:?}");
});

// Issue 25, item 10: `POST /api/jobs` with a body that is not JSON answered in plain text.
cstest!(api_jobs_answers_a_bad_body_in_json, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let server = Server::dashboard(t.cmd_embedded(), &[]);
    for body in ["{not json", "{\"fresh\": true}", "[1, 2]"] {
        let reply = http(server.port, "POST", "/api/jobs", &[("Content-Type", "application/json")], body);
        assert_eq!(reply.status, 400, "{body}: {}", reply.body);
        let answer: Value =
            serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{body}: not JSON ({e}): {}", reply.body));
        assert!(answer["error"].as_str().is_some_and(|e| e.contains("not a job request")), "{body}: {answer}");
    }
});

cstest!(the_dashboard_keeps_the_indexes_it_shows_fresh_and_says_so, |t| {
    write_sample_project(&t);
    index(t.cmd_embedded());
    let name = t.index_name();
    let server = Server::dashboard(t.cmd_embedded(), &[]);
    // The index is watched from the start, by this dashboard.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let detail = loop {
        let (_, detail) = server.get_json(&format!("/api/indexes/{name}"));
        if detail["watched_by"]["following"] == "live" {
            break detail;
        }
        assert!(std::time::Instant::now() < deadline, "never watched: {detail}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(
        detail["watched_by"]["process"].as_str().is_some_and(|p| p.starts_with("cocosearch dashboard")),
        "{detail}"
    );
    // A file saved now is found by the page's search without any re-index.
    t.write("src/refunds.py", "def refund_payment_token(order):\n    return order.total\n");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (_, answer) = server.get_json(&format!("/api/search?q=refund_payment_token&index={name}&keyword"));
        if answer["results"].as_array().is_some_and(|r| r.iter().any(|h| h["path"] == "src/refunds.py")) {
            assert_eq!(answer["freshness"]["state"], "live", "{answer}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the saved file never showed: {answer}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
});

cstest!(api_tasks_lists_the_projects_tasks_by_status_with_their_links, |t| {
    write_sample_project(&t);
    t.write("docs/plan.md", "# Plan\n");
    index(t.cmd_embedded());
    let name = t.index_name();
    let add = |title: &str, extra: &[&str]| {
        let mut args = vec!["task", "add", title, "--json"];
        args.extend_from_slice(extra);
        let out = run(t.cmd_embedded(), &args);
        assert_eq!(out.code, 0, "{out:?}");
        out.json()["id"].as_str().expect("id").to_string()
    };
    let planned = add("Retry uploads", &["--plan", "docs/plan.md", "--branch", "fix/retry"]);
    let doing = add("Speed up search", &[]);
    let out = run(t.cmd_embedded(), &["task", "update", &doing, "--status", "in progress"]);
    assert_eq!(out.code, 0, "{out:?}");
    let server = Server::dashboard(t.cmd_embedded(), &[]);

    let (status, tasks) = server.get_json(&format!("/api/tasks?index={name}"));
    assert_eq!(status, 200, "{tasks}");
    assert_eq!(tasks["counts"], json!({ "need to be done": 1, "in progress": 1 }), "{tasks}");
    let todo = &tasks["by_status"]["need to be done"][0];
    assert_eq!(todo["id"], planned.as_str());
    assert_eq!(todo["planning_references"], json!(["docs/plan.md"]));
    assert_eq!(todo["branches"], json!(["fix/retry"]));
    assert_eq!(tasks["by_status"]["in progress"][0]["id"], doing.as_str());
    assert_eq!(tasks["by_status"]["complete"], json!([]));

    let (status, bad) = server.get_json(&format!("/api/tasks?index={name}&limit=0"));
    assert_eq!(status, 400, "{bad}");
    assert!(bad["error"].as_str().is_some_and(|e| e.contains("limit must be 1 to 100")), "{bad}");
    let (status, missing) = server.get_json("/api/tasks?index=nope");
    assert_eq!(status, 404, "{missing}");
    let page = server.get("/dashboard/assets/app.js");
    assert!(page.body.contains("/api/tasks?index="), "the index page loads its task board");
});
