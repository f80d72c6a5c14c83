//! Tasks: created with their first history step, changed with the status history kept in
//! order, linked to branches, commits and planning documents (each link once), listed by
//! status, branch, id prefix and words, counted, kept per project, outliving a dropped index
//! and a reopened store, and deleted only when asked.

use std::time::{Duration, SystemTime};

use cocosearch::store::{
    LinkKind, NewTask, StoreError, TaskChange, TaskLink, TaskQuery, TaskStatus, TaskStore, search_words,
};

use super::{Fixture, contract_tests};

contract_tests!(
    tasks_keep_their_fields_history_and_links,
    tasks_are_listed_by_status_branch_prefix_and_words,
    tasks_belong_to_their_project_and_outlive_the_index,
    a_missing_task_is_none_and_bad_project_names_are_refused,
);

const A: &str = "0a1b2c3d-0000-4000-8000-000000000001";
const B: &str = "0a1b2c3d-0000-4000-8000-000000000002";
const C: &str = "1f000000-0000-4000-8000-000000000003";
const COMMIT: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

fn new_task(id: &str, title: &str) -> NewTask {
    NewTask { id: id.into(), title: title.into(), description: None, notes: None, links: Vec::new() }
}

fn link(kind: LinkKind, value: &str) -> TaskLink {
    TaskLink { kind, value: value.into() }
}

fn status(s: TaskStatus) -> TaskChange {
    TaskChange { status: Some(s), ..TaskChange::default() }
}

fn tasks_keep_their_fields_history_and_links(f: &Fixture) {
    let tasks = f.store.tasks("proj").expect("tasks");
    let before = SystemTime::now() - Duration::from_secs(300);
    let created = tasks
        .create(&NewTask {
            description: Some("Retry uploads".into()),
            notes: Some("see the plan".into()),
            links: vec![link(LinkKind::Plan, "docs/plan.md")],
            ..new_task(A, "Fix the upload retry")
        })
        .expect("create");
    assert_eq!(created.id, A);
    assert_eq!(created.project, "proj");
    assert_eq!(created.title, "Fix the upload retry");
    assert_eq!(created.description.as_deref(), Some("Retry uploads"));
    assert_eq!(created.notes.as_deref(), Some("see the plan"));
    assert_eq!(created.status, TaskStatus::NeedToBeDone, "a new task needs to be done");
    assert!(created.created_at > before && created.updated_at == created.created_at, "{created:?}");
    assert_eq!(created.history.len(), 1, "creation is the first step: {created:?}");
    assert_eq!((created.history[0].from, created.history[0].to), (None, TaskStatus::NeedToBeDone));
    assert_eq!(created.linked(LinkKind::Plan), ["docs/plan.md"]);
    assert_eq!(tasks.get(A).expect("get"), Some(created.clone()), "create returns what get reads");

    let doing = tasks.update(A, &status(TaskStatus::InProgress)).expect("update").expect("exists");
    assert_eq!(doing.status, TaskStatus::InProgress);
    assert!(doing.updated_at >= created.updated_at);
    let same = tasks.update(A, &status(TaskStatus::InProgress)).expect("update").expect("exists");
    assert_eq!(same.history.len(), 2, "the same status again is no change: {same:?}");
    let linked = tasks
        .update(
            A,
            &TaskChange {
                notes: Some("halfway".into()),
                links: vec![link(LinkKind::Branch, "fix/retry"), link(LinkKind::Commit, COMMIT)],
                ..TaskChange::default()
            },
        )
        .expect("link")
        .expect("exists");
    assert_eq!(linked.notes.as_deref(), Some("halfway"), "notes replaced");
    assert_eq!(linked.description.as_deref(), Some("Retry uploads"), "a field not given is kept");
    assert_eq!(linked.title, "Fix the upload retry");
    let again = tasks
        .update(
            A,
            &TaskChange {
                status: Some(TaskStatus::Complete),
                title: Some("Fix upload retries".into()),
                links: vec![link(LinkKind::Branch, "fix/retry"), link(LinkKind::Commit, COMMIT)],
                ..TaskChange::default()
            },
        )
        .expect("complete")
        .expect("exists");
    assert_eq!(again.title, "Fix upload retries");
    assert_eq!(again.linked(LinkKind::Branch), ["fix/retry"], "a link is kept once");
    assert_eq!(again.linked(LinkKind::Commit), [COMMIT]);
    assert_eq!(again.linked(LinkKind::Plan), ["docs/plan.md"]);
    let steps: Vec<(Option<TaskStatus>, TaskStatus)> = again.history.iter().map(|h| (h.from, h.to)).collect();
    assert_eq!(
        steps,
        [
            (None, TaskStatus::NeedToBeDone),
            (Some(TaskStatus::NeedToBeDone), TaskStatus::InProgress),
            (Some(TaskStatus::InProgress), TaskStatus::Complete),
        ],
        "history in order"
    );
    assert!(again.history.windows(2).all(|w| w[0].at <= w[1].at), "{again:?}");
    assert_eq!(tasks.get(A).expect("get"), Some(again), "update returns what get reads");
}

fn tasks_are_listed_by_status_branch_prefix_and_words(f: &Fixture) {
    let tasks = f.store.tasks("proj").expect("tasks");
    tasks.create(&new_task(A, "Parse YAML anchors")).expect("a");
    std::thread::sleep(Duration::from_millis(5));
    tasks
        .create(&NewTask { description: Some("Ünïcode in the description".into()), ..new_task(B, "Speed up search") })
        .expect("b");
    std::thread::sleep(Duration::from_millis(5));
    tasks.create(&new_task(C, "Document the yaml loader")).expect("c");
    std::thread::sleep(Duration::from_millis(5));
    tasks
        .update(
            B,
            &TaskChange {
                status: Some(TaskStatus::InProgress),
                links: vec![link(LinkKind::Branch, "perf")],
                ..TaskChange::default()
            },
        )
        .expect("b")
        .expect("exists");
    let ids =
        |query: &TaskQuery| -> Vec<String> { tasks.list(query).expect("list").into_iter().map(|t| t.id).collect() };
    assert_eq!(ids(&TaskQuery::all(100)), [B, C, A], "most recently changed first");
    assert_eq!(ids(&TaskQuery::all(2)), [B, C], "limit");
    let todo = TaskQuery { status: Some(TaskStatus::NeedToBeDone), ..TaskQuery::all(100) };
    assert_eq!(ids(&todo), [C, A]);
    let done = TaskQuery { status: Some(TaskStatus::Complete), ..TaskQuery::all(100) };
    assert_eq!(ids(&done), Vec::<String>::new());
    let perf = TaskQuery { branch: Some("perf".into()), ..TaskQuery::all(100) };
    assert_eq!(ids(&perf), [B]);
    let perf_todo = TaskQuery { status: Some(TaskStatus::NeedToBeDone), ..perf.clone() };
    assert_eq!(ids(&perf_todo), Vec::<String>::new(), "filters combine");
    let prefix = TaskQuery { id_prefix: Some("0a1b".into()), ..TaskQuery::all(100) };
    assert_eq!(ids(&prefix), [B, A]);
    let yaml = TaskQuery { words: search_words("YAML"), ..TaskQuery::all(100) };
    assert_eq!(ids(&yaml), [C, A], "words match any case");
    let both = TaskQuery { words: search_words("yaml  PARSE"), ..TaskQuery::all(100) };
    assert_eq!(ids(&both), [A], "every word must match");
    let unicode = TaskQuery { words: search_words("ÜNÏCODE"), ..TaskQuery::all(100) };
    assert_eq!(ids(&unicode), [B], "descriptions are searched, case folded beyond ASCII");
    let wild = TaskQuery { words: search_words("%"), ..TaskQuery::all(100) };
    assert_eq!(ids(&wild), Vec::<String>::new(), "no word is a pattern");
    let counts = tasks.counts().expect("counts");
    assert_eq!(counts, [(TaskStatus::NeedToBeDone, 2), (TaskStatus::InProgress, 1)]);
}

fn tasks_belong_to_their_project_and_outlive_the_index(f: &Fixture) {
    f.index("proj");
    let tasks = f.store.tasks("proj").expect("tasks");
    tasks.create(&new_task(A, "Mine")).expect("create");
    let other = f.store.tasks("other").expect("tasks");
    other.create(&new_task(B, "Theirs")).expect("create");
    assert_eq!(other.get(A).expect("get"), None, "another project's task is not there");
    assert_eq!(other.update(A, &status(TaskStatus::Complete)).expect("update"), None);
    assert_eq!(tasks.get(A).expect("get").map(|t| t.status), Some(TaskStatus::NeedToBeDone), "nothing changed");

    assert!(f.store.writer("proj").expect("writer").drop_index().expect("drop"));
    let reopened = f.reopen();
    let kept = reopened.tasks("proj").expect("tasks").get(A).expect("get").expect("kept");
    assert_eq!(kept.title, "Mine", "a dropped index and a reopened store keep the tasks");

    assert_eq!(reopened.tasks("proj").expect("tasks").delete_all().expect("delete"), 1);
    assert_eq!(reopened.tasks("proj").expect("tasks").list(&TaskQuery::all(100)).expect("list"), vec![]);
    assert!(reopened.tasks("other").expect("tasks").get(B).expect("get").is_some(), "other projects keep theirs");
}

fn a_missing_task_is_none_and_bad_project_names_are_refused(f: &Fixture) {
    let tasks: Box<dyn TaskStore> = f.store.tasks("proj").expect("tasks");
    assert_eq!(tasks.get(A).expect("get"), None);
    assert_eq!(tasks.update(A, &status(TaskStatus::Complete)).expect("update"), None);
    assert_eq!(tasks.delete_all().expect("delete"), 0);
    assert_eq!(tasks.counts().expect("counts"), vec![]);
    for bad in ["", "Bad-Name", "x; DROP TABLE tasks"] {
        assert!(matches!(f.store.tasks(bad), Err(StoreError::InvalidName(_))), "{bad:?}");
    }
}
