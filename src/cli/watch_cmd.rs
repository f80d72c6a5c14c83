//! `cocosearch watch`: the live index in the foreground, one line per batch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::json;

use super::args::WatchArgs;
use super::output::{errln, number, plural, print, visible, visible_lines};
use super::{Context, Exit, failed};
use crate::wire;
use crate::workspace::here::{Update, Vectors as Computed};
use crate::workspace::indexes::Summary;

/// `cocosearch watch`.
pub fn watch(ctx: &Context, args: &WatchArgs) -> anyhow::Result<Exit> {
    if !args.allow_any_dir {
        super::index_cmd::refuse_unsafe_root(ctx, &ctx.config.project_root)?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (handler_stop, leave) = (Arc::clone(&stop), ctx.leave);
    let _ = ctrlc::set_handler(move || {
        if handler_stop.swap(true, Ordering::SeqCst) {
            leave(Exit::Interrupted);
        }
    });
    let output = if args.json { Output::JsonLines } else { Output::Lines { quiet: ctx.ui.quiet } };
    let asked = if args.no_embed { Computed::Deferred } else { Computed::Computed };
    let workspace = ctx.workspace();
    let vectors = match workspace.vectors_here(asked).map_err(failed)? {
        Computed::Computed => Vectors::Background,
        Computed::Deferred => Vectors::Off,
    };
    let printer = Arc::new(Printer { output, vectors, last_vectors: Mutex::new(None) });
    let report_printer = Arc::clone(&printer);
    let watching =
        workspace.watch_here(asked, Arc::new(move |update| report_printer.print(&update))).map_err(failed)?;
    while !stop.load(Ordering::Relaxed) && watching.is_running() {
        std::thread::sleep(Duration::from_millis(100));
    }
    if !ctx.ui.quiet && !args.json {
        errln!("stopping: the current batch finishes, everything indexed is kept");
    }
    drop(watching);
    Ok(Exit::Success)
}

/// How updates are printed.
#[derive(Clone, Copy)]
enum Output {
    /// One line per update on stderr, for people.
    Lines { quiet: bool },
    /// One JSON object per update on stdout.
    JsonLines,
}

/// Whether the watcher computes vectors, for what the lines say about waiting chunks.
#[derive(Clone, Copy)]
enum Vectors {
    Background,
    Off,
}

struct Printer {
    output: Output,
    vectors: Vectors,
    /// When vector progress was last printed: at most one such line per interval.
    last_vectors: Mutex<Option<Instant>>,
}

/// Vector progress is printed at most this often (and when the last chunk is done).
const VECTOR_LINES_EVERY: Duration = Duration::from_secs(10);

impl Printer {
    fn print(&self, update: &Update) {
        if let Update::Vectors { remaining, .. } = update {
            let mut last = self.last_vectors.lock().unwrap_or_else(PoisonError::into_inner);
            if *remaining > 0 && last.is_some_and(|t| t.elapsed() < VECTOR_LINES_EVERY) {
                return;
            }
            *last = Some(Instant::now());
        }
        match self.output {
            Output::Lines { quiet: true } => {}
            Output::Lines { quiet: false } => errln!("{}", line(update, self.vectors)),
            Output::JsonLines => {
                // A reader that went away loses the lines; the watch goes on until Ctrl-C.
                let _ = print(&format!("{}\n", json_line(update)));
            }
        }
    }
}

fn clock() -> String {
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    now.get(11..19).unwrap_or(&now).to_string()
}

fn line(update: &Update, vectors: Vectors) -> String {
    let time = console::style(clock()).dim();
    match update {
        Update::Started { summary, directories, mode } => {
            let f = &summary.run.files;
            format!(
                "{time} watching {} as index {}: {} ({} added · {} modified · {} removed since the last run){} — {} by {}; Ctrl-C to stop",
                visible(&summary.root.display().to_string()),
                summary.index,
                plural(f.discovered, "file"),
                number(f.added),
                number(f.modified),
                number(f.removed),
                pending(summary, vectors),
                plural(*directories as u64, "directory"),
                mode.describe()
            )
        }
        Update::Indexed { summary, paths, latency, switched } => {
            let f = &summary.run.files;
            let what = match paths {
                0 => "the whole project".to_string(),
                n => plural(*n as u64, "changed path"),
            };
            // After a checkout the counts are against the snapshot switched to, which may have
            // held every file as it is now: saying which one keeps "0 modified" from reading as
            // a change that was lost.
            let (checkout, unchanged) = match (switched, &summary.snapshot) {
                (true, Some(snapshot)) => {
                    // A detached HEAD's snapshot is named by its commit already.
                    let commit = match summary.git_commit.as_deref() {
                        Some(c) if !c.starts_with(&snapshot.name) => format!(" ({})", c.get(..8).unwrap_or(c)),
                        _ => String::new(),
                    };
                    (
                        format!(", a checkout of snapshot {}{commit}", snapshot.name),
                        format!(" · {} unchanged", number(f.unchanged)),
                    )
                }
                _ => (String::new(), String::new()),
            };
            let reused =
                if f.reused > 0 { format!(" · {} from other snapshots", number(f.reused)) } else { String::new() };
            format!(
                "{time} {what}{checkout}: {} added · {} modified{reused} · {} removed{unchanged} · {} written in {} ms{}",
                number(f.added),
                number(f.modified),
                number(f.removed),
                plural(summary.run.chunks.written, "chunk"),
                latency.as_millis(),
                pending(summary, vectors)
            )
        }
        Update::Rescan(reason) => format!("{time} {reason}: comparing the whole project with the index"),
        Update::Waiting => format!("{time} another run was writing the index; this batch waited for it"),
        Update::Vectors { remaining: 0, .. } => format!("{time} vectors: every chunk has one"),
        Update::Vectors { remaining, .. } => format!("{time} vectors: {} still waiting", plural(*remaining, "chunk")),
        Update::Failed(message) => {
            format!("{time} {} {}", console::style("warning:").yellow().bold(), visible_lines(message))
        }
    }
}

fn pending(summary: &Summary, vectors: Vectors) -> String {
    match (summary.run.embeddings.pending, vectors) {
        (0, _) => String::new(),
        (n, Vectors::Background) => format!(" · {} awaiting vectors (computed in the background)", plural(n, "chunk")),
        (n, Vectors::Off) => format!(" · {} without vectors (--no-embed: keyword search)", plural(n, "chunk")),
    }
}

fn json_line(update: &Update) -> serde_json::Value {
    match update {
        Update::Started { summary, directories, mode } => json!({
            "event": "started",
            "directories": directories,
            "mode": format!("{mode:?}").to_lowercase(),
            "summary": wire::summary_json(summary),
        }),
        Update::Indexed { summary, paths, latency, switched } => json!({
            "event": "indexed",
            "paths": paths,
            "switched_snapshot": switched,
            "latency_ms": latency.as_millis() as u64,
            "summary": wire::summary_json(summary),
        }),
        Update::Rescan(reason) => json!({"event": "rescan", "reason": reason}),
        Update::Waiting => json!({"event": "waited_for_writer"}),
        Update::Vectors { embedded, remaining } => {
            json!({"event": "vectors", "embedded": embedded, "remaining": remaining})
        }
        Update::Failed(message) => json!({"event": "failed", "error": message}),
    }
}
