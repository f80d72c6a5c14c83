//! The task tools through a real MCP client (the Python SDK, `tests/mcp/client.py`'s `tasks`
//! scenario): create, two status changes, a branch and a commit linked, lists by status and
//! by branch, a search, get with the history in order; every invalid input refused with the
//! field named and nothing written; the tasks still there for a new server after a re-index.

use serde_json::{Value, json};

use crate::mcp_server::{root, scenario, text};
use crate::support::{TestCtx, run};
use crate::tasks_cli::git_project;

fn ids(answer: &Value) -> Vec<&str> {
    answer["json"]["tasks"].as_array().expect("tasks").iter().filter_map(|t| t["id"].as_str()).collect()
}

#[test]
fn tasks_through_a_real_mcp_client_survive_a_restart_and_a_reindex() {
    let t = TestCtx::new("mcp_tasks");
    let commit = git_project(&t);
    let project = root(&t);
    let out = run(t.cmd_db(), &["index", "-q", "--no-embed"]);
    assert_eq!(out.code, 0, "{out:?}");
    let server = t.cmd_db();
    let r = scenario(
        &server,
        "tasks",
        &["--project", &project, "--cwd", &project, "--branch", "fix/retry", "--commit", &commit],
    );
    for step in ["create", "doing", "done", "link", "other", "by_status", "todo", "by_branch", "search", "get"] {
        assert_eq!(r[step]["is_error"], false, "{step}: {}", r[step]);
    }
    let id = r["create"]["json"]["id"].as_str().expect("id").to_string();
    assert_eq!(r["create"]["json"]["status"], "need to be done");
    assert_eq!(r["create"]["json"]["planning_references"], json!(["docs/plan.md"]));
    assert_eq!(r["create"]["json"]["project"]["root"], project.as_str(), "the client's root is the project");
    assert_eq!(r["doing"]["json"]["notes"], "started");
    assert_eq!(ids(&r["by_status"]), [id.as_str()]);
    assert_eq!(ids(&r["todo"]), [r["other"]["json"]["id"].as_str().expect("id")]);
    assert_eq!(ids(&r["by_branch"]), [id.as_str()]);
    assert_eq!(ids(&r["search"]), [id.as_str()]);
    let got = &r["get"]["json"];
    assert_eq!(got["status"], "complete");
    assert_eq!(got["branches"], json!(["fix/retry"]));
    assert_eq!(got["commits"], json!([commit]));
    let steps: Vec<(Value, Value)> = got["status_history"]
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
        ]
    );

    let expected = [
        ("empty_title", "title is empty"),
        ("long_title", "title has 201 characters"),
        ("unknown_status", "status \"finished\" is not a status — use one of: need to be done, in progress, complete"),
        ("short_commit", "39 hexadecimal digits"),
        ("non_hex_commit", "is not hexadecimal"),
        ("outside_plan", "outside the project"),
        ("absolute_plan", "outside the project"),
        ("missing_plan", "does not exist"),
        ("limit_0", "`limit` must be at least 1"),
        ("limit_101", "`limit` must be at most 100"),
        ("unknown_task", "no task 00000000-0000-4000-8000-000000000000"),
    ];
    for (name, message) in expected {
        let answer = &r["invalid"][name];
        assert_eq!(answer["is_error"], true, "{name}: {answer}");
        assert!(text(answer).contains(message), "{name} should say {message:?}: {}", text(answer));
    }
    assert_eq!(ids(&r["after"]).len(), 2, "nothing was written: {}", r["after"]);
    assert_eq!(r["get_after"]["json"], r["get"]["json"], "the task is as it was");

    // Another server process after a re-index and a rebuild finds the same tasks.
    for args in [&["index", "-q", "--no-embed"][..], &["index", "-q", "--no-embed", "--fresh"]] {
        let out = run(t.cmd_db(), args);
        assert_eq!(out.code, 0, "{out:?}");
    }
    let calls = json!([
        {"tool": "get_task", "args": {"task_id": id}},
        {"tool": "list_tasks", "args": {"branch": "fix/retry"}},
    ])
    .to_string();
    let again = scenario(&server, "calls", &["--project", &project, "--cwd", &project, "--calls", &calls]);
    let results = again["results"].as_array().expect("results");
    let mut before = r["get"]["json"].clone();
    let mut after = results[0]["json"].clone();
    for v in [&mut before, &mut after] {
        v.as_object_mut().expect("object").remove("project");
    }
    assert_eq!(after, before, "a new server reads the same task");
    assert_eq!(ids(&results[1]), [id.as_str()]);
}
