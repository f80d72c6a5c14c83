//! `cocosearch task add | list | show | update | done | log`: the project's tasks over the
//! task service ([`crate::tasks::Tasks`]), printed for people or as the JSON of `wire`
//! (`--json`), the same shapes as the MCP task tools.
//!
//! A value the service refuses (a title of 201 characters, an unknown status, a short commit
//! id, a planning document outside the project, a limit of 0) is a usage error (exit 2) and
//! writes nothing; an unknown task id is a failure (exit 1).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::SystemTime;

use super::output::{errln, plural, print, print_json, visible, visible_lines};
use super::task_args::{
    TaskAddArgs, TaskCommand, TaskCommon, TaskDoneArgs, TaskIdArgs, TaskLinkArgs, TaskListArgs, TaskShowArgs,
    TaskUpdateArgs,
};
use super::{Context, Exit, UsageError, failed};
use crate::wire;
use crate::workspace::tasks::{
    ChangedFile, CommitFiles, Detail, LinkKind, TaskCode, TaskFilter, TaskInput, TaskRecord, TaskStatus, TaskUpdate,
    validate,
};
use crate::workspace::{Caller, IndexRef, Need, Target};

/// Runs one task command.
pub fn run(ctx: &Context, command: &TaskCommand) -> anyhow::Result<Exit> {
    match command {
        TaskCommand::Add(a) => add(ctx, a),
        TaskCommand::List(a) => list(ctx, a),
        TaskCommand::Show(a) => show(ctx, a),
        TaskCommand::Update(a) => update(ctx, a),
        TaskCommand::Done(a) => done(ctx, a),
        TaskCommand::Log(a) => log(ctx, a),
    }
}

/// The project whose tasks a command works on (another index's project is checked against
/// its own root).
fn open(ctx: &Context, common: &TaskCommon) -> anyhow::Result<Target> {
    ctx.workspace().open(Caller::Command, &IndexRef::from(common.index.clone()), Need::Project).map_err(failed)
}

/// What `--here` links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Here {
    /// The branch only: a new task starts from HEAD, which is not its change.
    Branch,
    /// The branch and HEAD, a commit of the task's work.
    BranchAndHead,
}

/// The branch and commit to link: the flags, else with `--here` the current branch and, as
/// `here` says, HEAD.
fn links(target: &Target, args: &TaskLinkArgs, here: Here) -> anyhow::Result<(Option<String>, Option<String>)> {
    if !args.here {
        return Ok((args.branch.clone(), args.commit.clone()));
    }
    let root = &target.project.root;
    let head = target.head().ok_or_else(|| {
        UsageError(format!("--here: {} is not in a git repository — pass --branch and --commit", root.display()))
    })?;
    if here == Here::Branch {
        let branch = args.branch.clone().or(head.branch);
        if branch.is_none() {
            return Err(UsageError("--here: HEAD is on no branch — pass --branch".into()).into());
        }
        return Ok((branch, args.commit.clone()));
    }
    let commit = args.commit.clone().or(head.commit);
    if commit.is_none() {
        return Err(UsageError("--here: HEAD has no commit yet — commit first, or pass --commit".into()).into());
    }
    Ok((args.branch.clone().or(head.branch), commit))
}

/// `--plan` paths as the service takes them: relative ones are from the working directory.
fn plans(ctx: &Context, paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| ctx.cwd.join(p).display().to_string()).collect()
}

fn add(ctx: &Context, args: &TaskAddArgs) -> anyhow::Result<Exit> {
    let opened = open(ctx, &args.common)?;
    let (branch, commit) = links(&opened, &args.links, Here::Branch)?;
    let input = TaskInput {
        title: args.title.clone(),
        description: args.description.clone(),
        notes: args.notes.clone(),
        planning_references: plans(ctx, &args.plans),
        branch,
        commit,
    };
    let task = opened.tasks()?.create(&input).map_err(failed)?;
    emit(&args.common, &task, || format!("created {}", line(ctx, &task)))
}

fn list(ctx: &Context, args: &TaskListArgs) -> anyhow::Result<Exit> {
    let opened = open(ctx, &args.common)?;
    let branch = match args.here {
        true => Some(
            opened
                .head()
                .and_then(|h| h.branch)
                .ok_or_else(|| UsageError("--here: not on a git branch — pass --branch".into()))?,
        ),
        false => args.branch.clone(),
    };
    let filter = TaskFilter { status: args.status.clone(), branch, text: args.search.clone(), limit: args.limit };
    let tasks = opened.tasks()?.list(&filter).map_err(failed)?;
    if args.common.json {
        let status = filter.status.as_deref().map(validate::status).transpose().map_err(failed)?;
        let limit = validate::limit(filter.limit).map_err(failed)?;
        print_json(&wire::tasks_json(&tasks, status, filter.branch.as_deref(), limit))?;
        return Ok(Exit::Success);
    }
    if tasks.is_empty() && !ctx.ui.quiet {
        errln!("no tasks — `cocosearch task add TITLE` records one");
    }
    let mut out = String::new();
    for task in &tasks {
        let _ = writeln!(out, "{}", line(ctx, task));
    }
    print(&out)?;
    Ok(Exit::Success)
}

fn show(ctx: &Context, args: &TaskShowArgs) -> anyhow::Result<Exit> {
    let opened = open(ctx, &args.common)?;
    let tasks = opened.tasks()?;
    let task = tasks.get(&args.id).map_err(failed)?;
    let detail = if args.full { Detail::Full } else { Detail::Summary };
    let code = tasks.code(&task, detail).map_err(failed)?;
    if args.common.json {
        print_json(&wire::task_code_json(&task, &code))?;
        return Ok(Exit::Success);
    }
    let mut out = details(ctx, &task);
    code_text(ctx, &code, detail, &mut out);
    if !args.full && code.commits.iter().any(|c| c.truncated || !c.files.is_empty()) {
        let more =
            format!("`cocosearch task show {} --full` lists every file with its definitions and importers", task.id);
        let _ = writeln!(out, "{}", ctx.ui.dim().apply_to(more));
    }
    print(&out)?;
    Ok(Exit::Success)
}

fn update(ctx: &Context, args: &TaskUpdateArgs) -> anyhow::Result<Exit> {
    let opened = open(ctx, &args.common)?;
    let (branch, commit) = links(&opened, &args.links, Here::BranchAndHead)?;
    let change = TaskUpdate {
        title: args.title.clone(),
        description: args.description.clone(),
        notes: args.notes.clone(),
        status: args.status.clone(),
        branch,
        commit,
        planning_references: plans(ctx, &args.plans),
    };
    let task = opened.tasks()?.update(&args.id, &change).map_err(failed)?;
    emit(&args.common, &task, || format!("updated {}", line(ctx, &task)))
}

fn done(ctx: &Context, args: &TaskDoneArgs) -> anyhow::Result<Exit> {
    let opened = open(ctx, &args.common)?;
    let (branch, commit) = links(&opened, &args.links, Here::BranchAndHead)?;
    let change = TaskUpdate { notes: args.notes.clone(), branch, commit, ..TaskUpdate::default() };
    let task = opened.tasks()?.complete(&args.id, change).map_err(failed)?;
    emit(&args.common, &task, || format!("completed {}", line(ctx, &task)))
}

fn log(ctx: &Context, args: &TaskIdArgs) -> anyhow::Result<Exit> {
    let opened = open(ctx, &args.common)?;
    let task = opened.tasks()?.get(&args.id).map_err(failed)?;
    if args.common.json {
        let value = wire::task_json(&task);
        print_json(&serde_json::json!({
            "id": task.id,
            "title": task.title,
            "status_history": value["status_history"],
            "links": value["links"],
        }))?;
        return Ok(Exit::Success);
    }
    // History and links merged in time order: what happened to the task.
    let mut events: Vec<(SystemTime, String)> = task
        .history
        .iter()
        .map(|h| {
            let what = match h.from {
                None => format!("created as {}", h.to.as_str()),
                Some(from) => format!("{} → {}", from.as_str(), h.to.as_str()),
            };
            (h.at, what)
        })
        .collect();
    events.extend(
        task.links.iter().map(|l| (l.linked_at, format!("linked {} {}", l.link.kind.as_str(), visible(&l.link.value)))),
    );
    events.sort_by_key(|(at, _)| *at);
    let mut out = format!("{}\n", line(ctx, &task));
    for (at, what) in events {
        let _ = writeln!(out, "  {}  {what}", ctx.ui.dim().apply_to(humantime::format_rfc3339_seconds(at)));
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// Prints the task as JSON, or `text` on stdout.
fn emit(common: &TaskCommon, task: &TaskRecord, text: impl FnOnce() -> String) -> anyhow::Result<Exit> {
    if common.json {
        print_json(&wire::task_json(task))?;
    } else {
        print(&format!("{}\n", text()))?;
    }
    Ok(Exit::Success)
}

fn status_style(status: TaskStatus) -> console::Style {
    match status {
        TaskStatus::NeedToBeDone => console::Style::new().yellow(),
        TaskStatus::InProgress => console::Style::new().cyan(),
        TaskStatus::Complete => console::Style::new().green(),
    }
}

/// `id  status  title  [branches]` on one line.
fn line(ctx: &Context, task: &TaskRecord) -> String {
    let branches = task.linked(LinkKind::Branch);
    let mut text = format!(
        "{}  {:<15}  {}",
        ctx.ui.bold().apply_to(&task.id),
        status_style(task.status).apply_to(task.status.as_str()),
        visible(&task.title)
    );
    if !branches.is_empty() {
        let _ = write!(text, "  {}", ctx.ui.dim().apply_to(format!("[{}]", visible(&branches.join(", ")))));
    }
    text
}

fn details(ctx: &Context, task: &TaskRecord) -> String {
    let mut out = format!("{}\n", line(ctx, task));
    for (label, text) in [("description", &task.description), ("notes", &task.notes)] {
        if let Some(text) = text {
            let _ = writeln!(out, "{}\n  {}", ctx.ui.bold().apply_to(label), visible_lines(text).replace('\n', "\n  "));
        }
    }
    for (label, kind) in [("branches", LinkKind::Branch), ("commits", LinkKind::Commit)] {
        let values = task.linked(kind);
        if !values.is_empty() {
            let _ = writeln!(out, "{}  {}", ctx.ui.bold().apply_to(label), visible(&values.join(", ")));
        }
    }
    let _ = writeln!(
        out,
        "{}  created {}, updated {}",
        ctx.ui.bold().apply_to("dates"),
        humantime::format_rfc3339_seconds(task.created_at),
        humantime::format_rfc3339_seconds(task.updated_at)
    );
    out
}

fn code_text(ctx: &Context, code: &TaskCode, detail: Detail, out: &mut String) {
    for plan in &code.plans {
        let state = if plan.exists { String::new() } else { format!("  {}", console::style("(missing)").red()) };
        let _ = writeln!(out, "{}  {}{state}", ctx.ui.bold().apply_to("plan"), visible(&plan.path));
    }
    if let Some(note) = &code.index_note {
        let _ = writeln!(out, "{}", ctx.ui.dim().apply_to(note));
    }
    for commit in &code.commits {
        let _ = writeln!(out, "{} {}  {}", ctx.ui.bold().apply_to("commit"), commit.commit, changes_line(commit));
        if let Some(problem) = &commit.problem {
            let _ = writeln!(out, "  {}", console::style(visible(problem)).red());
        }
        for file in &commit.files {
            let _ = write!(
                out,
                "  {:<8} {}{}",
                file.change.as_str(),
                console::style(visible(&file.path)).magenta(),
                if file.indexed { "" } else { "  (not indexed)" }
            );
            match detail {
                Detail::Summary => file_counts(ctx, file, out),
                Detail::Full => file_details(ctx, file, out),
            }
        }
        if commit.truncated {
            let more = commit.changes.total().saturating_sub(commit.files.len());
            let _ = writeln!(out, "  {}", ctx.ui.dim().apply_to(format!("… {}", plural(more as u64, "more file"))));
        }
    }
}

/// `12 files changed: 3 added, 8 modified, 1 deleted`.
fn changes_line(commit: &CommitFiles) -> String {
    let c = &commit.changes;
    let parts: Vec<String> =
        [(c.added, "added"), (c.modified, "modified"), (c.deleted, "deleted"), (c.other, "changed")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
    match parts.is_empty() {
        true => "no files changed".to_string(),
        false => format!("{} changed: {}", plural(c.total() as u64, "file"), parts.join(", ")),
    }
}

/// The end of a file's summary line: how many definitions it holds and files import it.
fn file_counts(ctx: &Context, file: &ChangedFile, out: &mut String) {
    let mut parts = Vec::new();
    if file.indexed {
        parts.push(plural(file.symbols.len() as u64, "definition"));
    }
    if !file.impact.is_empty() {
        let more = if file.impact_truncated { "+" } else { "" };
        parts.push(format!("imported by {}{more}", plural(file.impact.len() as u64, "file")));
    }
    let tail = if parts.is_empty() { String::new() } else { format!("  {}", parts.join(" · ")) };
    let _ = writeln!(out, "{}", ctx.ui.dim().apply_to(tail));
}

/// A file's definitions and importers, a line each.
fn file_details(ctx: &Context, file: &ChangedFile, out: &mut String) {
    out.push('\n');
    for symbol in &file.symbols {
        let _ = writeln!(
            out,
            "      {} {}  {}",
            ctx.ui.dim().apply_to(symbol.kind.as_str()),
            visible(&symbol.qualified_name),
            ctx.ui.dim().apply_to(format!("{}-{}", symbol.start_line, symbol.end_line))
        );
    }
    if !file.impact.is_empty() {
        let names: Vec<String> = file.impact.iter().map(|i| visible(&i.path).into_owned()).collect();
        let more = if file.impact_truncated { ", …" } else { "" };
        let _ = writeln!(out, "      {} {}{more}", ctx.ui.dim().apply_to("imported by"), names.join(", "));
    }
}
