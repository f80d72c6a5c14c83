//! Tasks through the command line: `cocosearch task add | list | show | update | done | log`
//! in a real git repository, with the index and without, on both backends; every invalid
//! input refused with the field named and nothing written; tasks outliving a re-index, a
//! rebuild and `clear`, and deleted by `clear --tasks delete`.

use serde_json::Value;

use crate::cstest;
use crate::dashboard::git;
use crate::support::{Run, TestCtx, run};

/// A git repository in the test's directory: a first commit with an upload module, an app
/// importing it and a plan; a second that changes the upload module only. Returns the second
/// commit's id.
pub(crate) fn git_project(t: &TestCtx) -> String {
    // TestCtx's directory holds an empty `.git` (a root marker); make it a real repository.
    std::fs::remove_dir_all(t.path().join(".git")).expect("remove the marker .git");
    git(t.path(), &["init", "-q"]);
    git(t.path(), &["checkout", "-q", "-b", "work"]);
    t.write("src/upload.py", "def upload(path):\n    return send(path)\n");
    t.write("src/app.py", "from upload import upload\n\n\ndef main():\n    upload('a')\n");
    t.write("docs/plan.md", "# Plan\n\nRetry failed uploads.\n");
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-q", "-m", "first"]);
    t.write(
        "src/upload.py",
        "def upload(path):\n    return upload_with_retry(path)\n\n\ndef upload_with_retry(path, retries=3):\n    return send(path)\n",
    );
    git(t.path(), &["commit", "-q", "-am", "retry uploads"]);
    git(t.path(), &["rev-parse", "HEAD"])
}

fn ok(out: &Run) -> Value {
    assert_eq!(out.code, 0, "{out:?}");
    out.json()
}

fn task(t: &TestCtx, args: &[&str]) -> Run {
    let mut all = vec!["task"];
    all.extend_from_slice(args);
    run(t.cmd_db(), &all)
}

fn ids(list: &Value) -> Vec<String> {
    list["tasks"].as_array().expect("tasks").iter().map(|t| t["id"].as_str().expect("id").to_string()).collect()
}

fn all_tasks(t: &TestCtx) -> Value {
    ok(&task(t, &["list", "--limit", "100", "--json"]))
}

cstest!(tasks_are_tracked_through_the_cli, both_backends, |t| {
    let commit = git_project(&t);
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");

    let created = ok(&task(
        &t,
        &["add", "Retry failed uploads", "-d", "uploads give up after one error", "--plan", "docs/plan.md", "--json"],
    ));
    let id = created["id"].as_str().expect("id").to_string();
    assert_eq!(created["status"], "need to be done");
    assert_eq!(created["planning_references"], serde_json::json!(["docs/plan.md"]));
    ok(&task(&t, &["update", &id, "--status", "in progress", "--json"]));
    ok(&task(&t, &["update", &id[..8], "--status", "complete", "--json"]));
    let linked = ok(&task(&t, &["update", &id, "--branch", "fix/retry", "--commit", &commit, "--json"]));
    assert_eq!(linked["branches"], serde_json::json!(["fix/retry"]));
    assert_eq!(linked["commits"], serde_json::json!([commit]));
    let other = ok(&task(&t, &["add", "Unrelated", "--json"]));

    assert_eq!(ids(&ok(&task(&t, &["list", "--status", "complete", "--json"]))), [id.as_str()]);
    assert_eq!(ids(&ok(&task(&t, &["list", "-s", "todo", "--json"]))), [other["id"].as_str().expect("id")]);
    assert_eq!(ids(&ok(&task(&t, &["list", "--branch", "fix/retry", "--json"]))), [id.as_str()]);
    assert_eq!(ids(&ok(&task(&t, &["list", "--search", "UPLOADS retry", "--json"]))), [id.as_str()]);

    let shown = ok(&task(&t, &["show", &id, "--json"]));
    let steps: Vec<(Value, Value)> = shown["status_history"]
        .as_array()
        .expect("history")
        .iter()
        .map(|h| (h["from_status"].clone(), h["to_status"].clone()))
        .collect();
    assert_eq!(
        steps,
        [
            (Value::Null, "need to be done".into()),
            ("need to be done".into(), "in progress".into()),
            ("in progress".into(), "complete".into()),
        ],
        "{shown:#}"
    );
    // The commit changed src/upload.py only: it is listed with its symbols now and the file
    // importing it.
    let files = shown["code"]["commits"][0]["files"].as_array().expect("files");
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().expect("path")).collect();
    assert_eq!(paths, ["src/upload.py"], "{shown:#}");
    assert_eq!(files[0]["change"], "modified");
    assert_eq!(files[0]["indexed"], true);
    let symbols: Vec<&str> =
        files[0]["symbols"].as_array().expect("symbols").iter().filter_map(|s| s["name"].as_str()).collect();
    assert!(symbols.contains(&"upload_with_retry"), "{symbols:?}");
    let impact: Vec<&str> =
        files[0]["impact"].as_array().expect("impact").iter().filter_map(|i| i["path"].as_str()).collect();
    assert_eq!(impact, ["src/app.py"], "{shown:#}");
    assert_eq!(shown["code"]["planning_references"], serde_json::json!([{ "path": "docs/plan.md", "exists": true }]));
    let text = task(&t, &["show", &id]);
    assert!(
        text.code == 0 && text.stdout.contains("src/upload.py") && text.stdout.contains("2 definitions"),
        "{text:?}"
    );
    let text = task(&t, &["show", &id, "--full"]);
    assert!(
        text.code == 0 && text.stdout.contains("src/upload.py") && text.stdout.contains("upload_with_retry"),
        "{text:?}"
    );

    // Each invalid input is refused, naming the field, and writes nothing.
    let before = all_tasks(&t);
    let long = "x".repeat(201);
    let short = "a".repeat(39);
    let not_hex = "g".repeat(40);
    let refused: [(&[&str], &str); 9] = [
        (&["add", ""], "title is empty"),
        (&["add", &long], "title has 201 characters"),
        (&["update", &id, "--status", "finished"], "status \"finished\" is not a status"),
        (&["update", &id, "--commit", &short], "39 hexadecimal digits"),
        (&["update", &id, "--commit", &not_hex], "not hexadecimal"),
        (&["add", "Escape", "--plan", "../outside.md"], "outside the project"),
        (&["add", "Missing", "--plan", "docs/nope.md"], "does not exist"),
        (&["list", "--limit", "0"], "limit must be 1 to 100, got 0"),
        (&["list", "--limit", "101"], "limit must be 1 to 100, got 101"),
    ];
    for (args, message) in refused {
        let out = task(&t, args);
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        assert!(out.stderr.contains(message), "{args:?} should say {message:?}: {out:?}");
    }
    let unknown = task(&t, &["show", "00000000-0000-4000-8000-000000000000"]);
    assert_eq!(unknown.code, 1, "{unknown:?}");
    assert!(unknown.stderr.contains("no task"), "{unknown:?}");
    assert_eq!(all_tasks(&t), before, "nothing was written");

    // Tasks outlive a re-index, a rebuild and `clear`; `clear --tasks delete` takes them.
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed", "--fresh"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(all_tasks(&t), before, "a re-index and a rebuild keep the tasks");
    let name = t.index_name();
    let cleared = ok(&run(t.cmd_db(), &["clear", &name, "--force", "--json"]));
    assert_eq!(cleared["tasks_deleted"], 0);
    assert_eq!(all_tasks(&t), before, "clear keeps the tasks");
    let shown = ok(&task(&t, &["show", &id, "--json"]));
    assert!(shown["code"]["note"].as_str().is_some_and(|n| n.contains("no index")), "{shown:#}");
    assert_eq!(shown["code"]["commits"][0]["files"][0]["path"], "src/upload.py", "git still tells the files");
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let cleared = ok(&run(t.cmd_db(), &["clear", &name, "--force", "--tasks", "delete", "--json"]));
    assert_eq!(cleared["tasks_deleted"], 2, "{cleared}");
    assert_eq!(ids(&all_tasks(&t)), Vec::<String>::new());
});

cstest!(task_here_links_the_current_branch_and_head_and_done_completes, |t| {
    let commit = git_project(&t);
    // A new task links the branch; the commit it starts from is not its change.
    let added = ok(&task(&t, &["add", "Ship it", "--here", "--json"]));
    assert_eq!(added["branches"], serde_json::json!(["work"]));
    assert_eq!(added["commits"], serde_json::json!([]));
    let id = added["id"].as_str().expect("id");
    assert_eq!(ids(&ok(&task(&t, &["list", "--here", "--json"]))), [id]);
    let done = ok(&task(&t, &["done", id, "--notes", "shipped", "--here", "--json"]));
    assert_eq!(done["status"], "complete");
    assert_eq!(done["notes"], "shipped");
    assert_eq!(done["commits"], serde_json::json!([commit]), "done --here links the work's commit");
    let log = ok(&task(&t, &["log", id, "--json"]));
    assert_eq!(log["status_history"].as_array().map(Vec::len), Some(2), "{log}");
    let text = task(&t, &["log", id]);
    assert!(
        text.stdout.contains("need to be done → complete") && text.stdout.contains("linked branch work"),
        "{text:?}"
    );
    // A plan document that is later removed is reported, not dropped.
    let planned = ok(&task(&t, &["add", "Planned", "--plan", "docs/plan.md", "--json"]));
    std::fs::remove_file(t.path().join("docs/plan.md")).expect("remove the plan");
    let shown = ok(&task(&t, &["show", planned["id"].as_str().expect("id"), "--json"]));
    assert_eq!(shown["code"]["planning_references"], serde_json::json!([{ "path": "docs/plan.md", "exists": false }]));
    let text = task(&t, &["show", planned["id"].as_str().expect("id")]);
    assert!(text.stdout.contains("docs/plan.md") && text.stdout.contains("(missing)"), "{text:?}");
});
