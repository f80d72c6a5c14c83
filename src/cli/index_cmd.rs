//! `cocosearch index`, `list` and `clear`.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use anyhow::Context as _;
use serde_json::json;

use super::args::{ClearArgs, IndexArgs, ListArgs, TaskRetention};
use super::output::{
    errln, number, pad, plural, print, print_json, skipped_summary, to_stderr, visible, visible_lines,
};
use super::{Context, Exit, failed};
use crate::config::{ConfigError, ProjectDirRule};
use crate::wire;
use crate::workspace::here::{HereRun, Vectors};
use crate::workspace::indexes::{self, Fresh, IndexMeta, Phase, Progress, RunStatus, Summary, human_duration};
use crate::workspace::{Error, ErrorKind};

/// `cocosearch index`.
pub fn index(ctx: &Context, args: &IndexArgs) -> anyhow::Result<Exit> {
    if !args.allow_any_dir {
        refuse_unsafe_root(ctx, &ctx.config.project_root)?;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    install_interrupt_handler(ctx, Arc::clone(&cancel));
    let progress = Arc::new(Progress::default());
    let draw = match (ctx.ui.quiet, ctx.ui.stderr_tty && !args.json) {
        (true, _) => None,
        (false, true) => Some(Drawing::Bar),
        (false, false) => Some(Drawing::NoticesOnly),
    };
    // Dropping `stop` ends the drawing at once, not at its next tick: a run with nothing to do
    // takes less than one.
    let (stop, stopped) = mpsc::channel::<()>();
    let drawer = draw.map(|draw| spawn_progress(Arc::clone(&progress), stopped, draw));
    let result = ctx.workspace().index_here(HereRun {
        fresh: if args.fresh { Fresh::Rebuild } else { Fresh::Keep },
        vectors: if args.no_embed { Vectors::Deferred } else { Vectors::Computed },
        snapshot: args.snapshot.clone(),
        progress: Arc::clone(&progress),
        cancel,
    });
    drop(stop);
    if let Some(handle) = drawer {
        let _ = handle.join();
    }
    let summary = result.map_err(failed)?;
    if args.json {
        print_json(&wire::summary_json(&summary))?;
    } else if !ctx.ui.quiet {
        to_stderr(&render_summary(ctx, &summary));
    }
    if summary.status == RunStatus::Interrupted {
        if !ctx.ui.quiet {
            errln!("interrupted — run `cocosearch index` again to resume; finished files are kept");
        }
        return Ok(Exit::Interrupted);
    }
    Ok(Exit::Success)
}

/// Refuses a root nobody indexes on purpose (the filesystem root, system, home and credentials
/// directories): what `index` and `watch` check unless `--allow-any-dir`.
pub(super) fn refuse_unsafe_root(ctx: &Context, root: &std::path::Path) -> Result<(), ConfigError> {
    match ProjectDirRule::from_env(&ctx.env, &[]).check(root) {
        Ok(()) => Ok(()),
        Err(reason) => Err(ConfigError::UnsafeProject { dir: root.to_path_buf(), reason }),
    }
}

/// First Ctrl-C: finish the current batch and stop cleanly. Second: leave at once (what was
/// committed stays consistent either way).
fn install_interrupt_handler(ctx: &Context, cancel: Arc<AtomicBool>) {
    let (quiet, leave) = (ctx.ui.quiet, ctx.leave);
    let _ = ctrlc::set_handler(move || {
        if cancel.swap(true, Ordering::SeqCst) {
            leave(Exit::Interrupted);
        }
        if !quiet {
            errln!("\nstopping after the current batch… (Ctrl-C again to quit now)");
        }
    });
}

/// What the progress thread draws on stderr.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Drawing {
    /// A live bar (a terminal), with notices above it.
    Bar,
    /// Only the notices, as lines (a pipe or a log; `--json` keeps stdout for the summary).
    NoticesOnly,
}

fn spawn_progress(progress: Arc<Progress>, stopped: mpsc::Receiver<()>, draw: Drawing) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let bar = indicatif::ProgressBar::new(0);
        let target = match draw {
            Drawing::Bar => indicatif::ProgressDrawTarget::stderr_with_hz(8),
            Drawing::NoticesOnly => indicatif::ProgressDrawTarget::hidden(),
        };
        bar.set_draw_target(target);
        let style =
            indicatif::ProgressStyle::with_template("{spinner} {prefix:>9} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> ");
        bar.set_style(style);
        let say = |bar: &indicatif::ProgressBar| {
            for notice in progress.take_notices() {
                let line = format!("{} {}", console::style("note:").cyan().bold(), visible_lines(&notice));
                match draw {
                    Drawing::Bar => bar.println(line),
                    Drawing::NoticesOnly => errln!("{line}"),
                }
            }
        };
        loop {
            say(&bar);
            let get = Progress::get;
            match progress.phase() {
                Phase::Starting => bar.set_prefix("starting"),
                Phase::Discovering => {
                    bar.set_prefix("walking");
                    bar.set_message(format!("{} files found", get(&progress.discovered)));
                }
                Phase::Indexing => {
                    bar.set_prefix("indexing");
                    bar.set_length(get(&progress.to_index));
                    bar.set_position(get(&progress.written));
                    bar.set_message(format!(
                        "files · {} parsed · {} chunks",
                        get(&progress.parsed),
                        get(&progress.chunks)
                    ));
                }
                Phase::Embedding => {
                    bar.set_prefix("vectors");
                    bar.set_length(get(&progress.to_embed));
                    bar.set_position(get(&progress.embedded));
                    // The ETA is the run's own: a fixed total over a moving-window rate.
                    let eta = progress.eta().map_or_else(String::new, |d| format!(", ~{} left", human_duration(d)));
                    bar.set_message(format!("chunks · keyword search covers all files{eta}"));
                }
                Phase::Optimizing => {
                    bar.set_prefix("organising");
                    bar.set_message("vectors for search");
                }
                Phase::Finished => break,
            }
            match stopped.recv_timeout(Duration::from_millis(100)) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        say(&bar);
        bar.finish_and_clear();
    })
}

fn render_summary(ctx: &Context, s: &Summary) -> String {
    let mut out = String::new();
    let bold = ctx.ui.bold();
    let secs = s.run.elapsed_ms as f64 / 1000.0;
    let (heading, within) =
        if s.status == RunStatus::Interrupted { ("Interrupted", "after") } else { ("Indexed", "in") };
    let root = s.root.display().to_string();
    let _ =
        writeln!(out, "{} {} {within} {secs:.2}s ({}, {})", bold.apply_to(heading), s.index, s.kind, visible(&root));
    let f = &s.run.files;
    let rechunked = if f.rechunked > 0 { format!(" · {} re-chunked", number(f.rechunked)) } else { String::new() };
    let reused = if f.reused > 0 { format!(" · {} from other snapshots", number(f.reused)) } else { String::new() };
    let shared =
        if f.shared > 0 { format!(" · {} read from the shared index", number(f.shared)) } else { String::new() };
    if let Some(snapshot) = &s.snapshot {
        let collected = if s.collected.snapshots > 0 {
            format!(
                " · {} deleted ({} only they held)",
                plural(s.collected.snapshots, "older snapshot"),
                plural(s.collected.files, "file")
            )
        } else {
            String::new()
        };
        let _ = writeln!(out, "  snapshot {} ({}){collected}", snapshot.name, snapshot.origin.as_str());
    }
    let _ = writeln!(
        out,
        "  files    {} found{shared} · {} added · {} modified{rechunked}{reused} · {} unchanged · {} removed",
        number(f.discovered),
        number(f.added),
        number(f.modified),
        number(f.unchanged),
        number(f.removed)
    );
    if let Some(skipped) = skipped_summary(&s.run.skipped) {
        let _ = writeln!(out, "  skipped  {skipped}");
    }
    let chunks = &s.run.chunks;
    let statuses: Vec<String> = chunks.by_status.iter().map(|(k, v)| format!("{} {k}", number(*v))).collect();
    let _ = writeln!(
        out,
        "  chunks   {} written{} · {:.0} chunks/s",
        number(chunks.written),
        if statuses.is_empty() { String::new() } else { format!(" ({})", statuses.join(" · ")) },
        s.run.chunks_per_second
    );
    let e = &s.run.embeddings;
    match &e.model {
        Some(model) => {
            let dims = e.dimension.map(|d| format!(", {d} dims")).unwrap_or_default();
            let pending = if e.pending > 0 {
                console::style(format!("{} awaiting", number(e.pending))).yellow().to_string()
            } else {
                "0 awaiting".to_string()
            };
            let _ = writeln!(
                out,
                "  vectors  {} computed in {} ({}{dims}) · {pending}",
                number(e.computed),
                plural(e.requests, "request"),
                visible(model)
            );
        }
        None => {
            let _ = writeln!(out, "  vectors  none (embeddings off: keyword search only)");
        }
    }
    for w in &s.run.warnings {
        // Warnings name files of the project: their control characters are escaped.
        let _ = writeln!(out, "{} {}", console::style("warning:").yellow().bold(), visible_lines(w));
    }
    out
}

/// `cocosearch list`.
pub fn list(ctx: &Context, args: &ListArgs) -> anyhow::Result<Exit> {
    let indexes = indexes::list(&ctx.workspace()).map_err(failed)?;
    if args.json {
        let items: Vec<_> = indexes.iter().map(wire::index_json).collect();
        print_json(&json!(items))?;
        return Ok(Exit::Success);
    }
    if indexes.is_empty() {
        errln!("no indexes yet — run `cocosearch index` in a project");
        return Ok(Exit::Success);
    }
    let model_of = |m: &IndexMeta| match (&m.model, m.dimension) {
        (Some(model), Some(d)) => format!("{model} ({d})"),
        (Some(model), None) => model.clone(),
        (None, _) => "keyword only".to_string(),
    };
    // Each column as wide as its widest cell, two spaces apart: no two cells ever touch.
    let width = indexes.iter().map(|m| console::measure_text_width(&visible(&m.name))).max().unwrap_or(0).max(4) + 2;
    let model_width =
        indexes.iter().map(|m| console::measure_text_width(&visible(&model_of(m)))).max().unwrap_or(0).max(5) + 2;
    let mut out = format!("{}{}{}\n", pad("NAME", width), pad("MODEL", model_width), "ROOT");
    for m in &indexes {
        let root = m.root.display().to_string();
        let _ = writeln!(
            out,
            "{}{}{}",
            pad(&visible(&m.name), width),
            pad(&visible(&model_of(m)), model_width),
            visible(&root)
        );
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// `cocosearch clear`.
pub fn clear(ctx: &Context, args: &ClearArgs) -> anyhow::Result<Exit> {
    match clear_indexes(ctx, args) {
        Err(e) if args.all && e.downcast_ref::<Error>().is_some_and(|e| e.kind == ErrorKind::Damaged) => {
            recreate_store(ctx, args, &e)
        }
        done => done,
    }
}

/// `clear --all` on a damaged embedded store: its indexes cannot be deleted one by one, so
/// the file is replaced by an empty store.
fn recreate_store(ctx: &Context, args: &ClearArgs, damage: &anyhow::Error) -> anyhow::Result<Exit> {
    errln!("cocosearch: {damage}");
    if !confirmed(ctx, args, "Delete the damaged store with every index in it and create an empty one?", "the store")? {
        return Ok(Exit::Failure);
    }
    let file = indexes::recreate_damaged(&ctx.workspace()).map_err(failed)?;
    if args.json {
        print_json(&json!({ "deleted": "all", "recreated": file.display().to_string() }))?;
    } else if !ctx.ui.quiet {
        errln!("deleted the damaged store and created an empty one at {}", file.display());
    }
    Ok(Exit::Success)
}

/// Asks before deleting, unless `--force`; refuses without a terminal to ask on.
fn confirmed(ctx: &Context, args: &ClearArgs, prompt: &str, what: &str) -> anyhow::Result<bool> {
    if args.force {
        return Ok(true);
    }
    if !ctx.ui.stderr_tty {
        anyhow::bail!("refusing to delete {what} without confirmation — pass --force");
    }
    let confirmed = dialoguer::Confirm::with_theme(&dialoguer::theme::ColorfulTheme::default())
        .with_prompt(prompt)
        .default(false)
        .interact()
        .context("reading the confirmation")?;
    if !confirmed {
        errln!("nothing deleted");
    }
    Ok(confirmed)
}

fn clear_indexes(ctx: &Context, args: &ClearArgs) -> anyhow::Result<Exit> {
    let workspace = ctx.workspace();
    let listed = indexes::list(&workspace).map_err(failed)?;
    let names: Vec<String> = match &args.name {
        Some(name) => {
            if !listed.iter().any(|m| &m.name == name) {
                let mean = crate::config::did_you_mean(name, listed.iter().map(|m| m.name.as_str()));
                anyhow::bail!(
                    "no index named {name} — {}`cocosearch list` shows the indexes",
                    mean.map(|m| format!("{m} ")).unwrap_or_default()
                );
            }
            vec![name.clone()]
        }
        None => listed.into_iter().map(|m| m.name).collect(),
    };
    if names.is_empty() {
        errln!("no indexes to delete");
        return Ok(Exit::Success);
    }
    let prompt = if names.len() == 1 {
        format!("Delete index {}? This cannot be undone", names[0])
    } else {
        format!("Delete {} indexes ({})? This cannot be undone", names.len(), names.join(", "))
    };
    if !confirmed(ctx, args, &prompt, &names.join(", "))? {
        return Ok(Exit::Failure);
    }
    // Tasks are the project's, not the index's: they go only when asked.
    let tasks = if args.tasks == TaskRetention::Delete { indexes::Tasks::Delete } else { indexes::Tasks::Keep };
    let cleared = indexes::clear(&workspace, &names, tasks).map_err(failed)?;
    if args.json {
        print_json(&json!({ "deleted": cleared.deleted, "tasks_deleted": cleared.tasks_deleted }))?;
    } else if !ctx.ui.quiet && !cleared.deleted.is_empty() {
        errln!("deleted {}", cleared.deleted.join(", "));
        if args.tasks == TaskRetention::Delete {
            errln!("deleted {} task(s)", cleared.tasks_deleted);
        }
    }
    match cleared.busy.as_slice() {
        [] => Ok(Exit::Success),
        [one] => anyhow::bail!(
            "index {one} is being written by another run (`cocosearch index`, or an MCP server's index job) — wait for it to finish, then try again"
        ),
        many => anyhow::bail!(
            "indexes {} are being written by other runs — wait for them to finish, then try again",
            many.join(", ")
        ),
    }
}
