//! Task benchmark (not a test): 10,000 tasks of one project, then the latency of the task
//! queries the CLI and the MCP tools make, on both store backends side by side.
//!
//!   cargo bench --bench tasks [-- --only sqlite|postgres] [-- --tasks N]
//!
//! The tasks are written through the task service (`cocosearch::tasks::Tasks`, the code path
//! of `create_task` and `update_task` without the process or the protocol): each created,
//! two in three moved to `in progress` and one in three on to `complete` (each step in the
//! status history), each linked to one of 50 branches and to a commit. Then each query runs
//! 300 times after a warm-up, on random tasks: `get` by whole id and by an 8-character prefix,
//! `list` (50 most recent), by status, by branch, with `limit` 100, and `search_tasks` by one
//! word. Target (the Codebase MCP server's): list and get p95 well under 100 ms.

mod common;

use std::time::Instant;

use cocosearch::tasks::{TaskFilter, TaskInput, TaskUpdate, Tasks};
use common::*;

/// Queries per measurement.
const SAMPLES: usize = 300;
/// Branches the tasks are spread over.
const BRANCHES: usize = 50;

/// A small deterministic generator: the same tasks and the same picks on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

const WORDS: [&str; 12] =
    ["upload", "retry", "parser", "index", "search", "cache", "graph", "docs", "config", "server", "token", "vector"];

fn fill(tasks: &Tasks<'_>, count: usize) -> (Vec<String>, f64, f64) {
    let mut rng = Lcg(7);
    let mut ids = Vec::with_capacity(count);
    let mut create_ms = Vec::with_capacity(count);
    let mut update_ms = Vec::with_capacity(count);
    for i in 0..count {
        let (a, b) = (WORDS[rng.next(WORDS.len())], WORDS[rng.next(WORDS.len())]);
        let started = Instant::now();
        let task = tasks
            .create(&TaskInput {
                title: format!("Task {i}: {a} {b}"),
                description: Some(format!("Make the {a} handle {b} properly (task {i}).")),
                notes: None,
                planning_references: vec!["docs/plan.md".into()],
                branch: Some(format!("feature/{}", i % BRANCHES)),
                commit: Some(format!("{:040x}", (i as u128) * 0x9e37_79b9_7f4a_7c15)),
            })
            .expect("create a task");
        create_ms.push(started.elapsed().as_secs_f64() * 1000.0);
        let steps: &[&str] = match i % 3 {
            0 => &[],
            1 => &["in progress"],
            _ => &["in progress", "complete"],
        };
        for status in steps {
            let started = Instant::now();
            tasks
                .update(&task.id, &TaskUpdate { status: Some((*status).into()), ..TaskUpdate::default() })
                .expect("update a task");
            update_ms.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        ids.push(task.id);
    }
    (ids, pct(&create_ms, 95.0), pct(&update_ms, 95.0))
}

/// Median and p95 in milliseconds of [`SAMPLES`] runs of `f`, after five warm-up runs; and
/// the results of the last run.
fn latency(mut f: impl FnMut(usize) -> usize) -> (f64, f64, usize) {
    for i in 0..5 {
        f(i);
    }
    let mut found = 0;
    let mut samples: Vec<f64> = (0..SAMPLES)
        .map(|i| {
            let started = Instant::now();
            found = std::hint::black_box(f(i));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    (percentile(&mut samples, 50.0), percentile(&mut samples, 95.0), found)
}

fn main() {
    let services = services();
    let count: usize = arg_value("--tasks").map_or(10_000, |n| n.parse().expect("--tasks N"));
    banner("tasks");
    println!("{count} tasks of one project, then get/list/search latency");
    let project = tempfile::tempdir().expect("project dir");
    std::fs::create_dir_all(project.path().join("docs")).expect("docs");
    std::fs::write(project.path().join("docs/plan.md"), "# plan\n").expect("plan");
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut columns = Vec::new();
    for backend in backends() {
        let target = Target::on(backend, &services, "tasks", Start::Fresh);
        let store = target.store(4);
        let tasks = Tasks::open(store.as_ref(), "bench_tasks", project.path()).expect("open the tasks");
        let started = Instant::now();
        let (ids, create_p95, update_p95) = fill(&tasks, count);
        let fill_s = started.elapsed().as_secs_f64();
        println!(
            "  {}: wrote {count} tasks in {fill_s:.1} s (create p95 {create_p95:.2} ms, status change p95 {update_p95:.2} ms)",
            target.label()
        );
        columns.push(target.label());
        let mut rng = Lcg(42);
        let picks: Vec<String> = (0..SAMPLES + 5).map(|_| ids[rng.next(ids.len())].clone()).collect();
        let filter = |status: Option<&str>, branch: Option<String>, text: Option<&str>, limit: Option<u32>| {
            TaskFilter { status: status.map(str::to_string), branch, text: text.map(str::to_string), limit }
        };
        let measured: Vec<(&str, (f64, f64, usize))> = vec![
            ("get_task (whole id)", latency(|i| tasks.get(&picks[i]).map(|_| 1).expect("get"))),
            ("get_task (8-character prefix)", latency(|i| tasks.get(&picks[i][..8]).map(|_| 1).expect("get"))),
            ("list_tasks (default: 50)", latency(|_| tasks.list(&filter(None, None, None, None)).expect("list").len())),
            (
                "list_tasks status=in progress",
                latency(|_| tasks.list(&filter(Some("in progress"), None, None, None)).expect("list").len()),
            ),
            (
                "list_tasks branch=feature/N",
                latency(|i| {
                    let branch = format!("feature/{}", i % BRANCHES);
                    tasks.list(&filter(None, Some(branch), None, None)).expect("list").len()
                }),
            ),
            (
                "list_tasks limit=100",
                latency(|_| tasks.list(&filter(None, None, None, Some(100))).expect("list").len()),
            ),
            (
                "search_tasks one word",
                latency(|i| tasks.list(&filter(None, None, Some(WORDS[i % WORDS.len()]), None)).expect("search").len()),
            ),
        ];
        for (label, (median, p95, found)) in measured {
            println!("    {label:<34} {found:>4} results   median {median:7.2} ms   p95 {p95:7.2} ms");
            let cell = format!("{median:.2} / {p95:.2}");
            match rows.iter_mut().find(|(l, _)| l == label) {
                Some((_, cells)) => cells.push(cell),
                None => rows.push((label.to_string(), vec![cell])),
            }
        }
    }
    let mut table = Table::new("query (ms, median / p95)", &columns);
    for (label, cells) in rows {
        table.row(&label, cells);
    }
    table.print(&format!("task queries, {count} tasks"));
}
