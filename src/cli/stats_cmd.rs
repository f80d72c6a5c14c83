//! `cocosearch stats`: tables for people, the documented JSON for programs.

use std::fmt::Write as _;

use super::args::StatsArgs;
use super::output::{bytes, errln, number, pad, plural, print, print_json, skipped_summary, visible};
use super::{Context, Exit, failed};
use crate::wire;
use crate::workspace::indexes::all_stats;
use crate::workspace::stats::{IndexStats, RunStatus, SymbolKind};
use crate::workspace::{Caller, IndexName, IndexRef, Need, Scan};

/// Failing files listed by `-v`.
const VERBOSE_FAILING: usize = 10;
/// Failing files listed by `--show-failures`.
const ALL_FAILING: usize = 10_000;

/// `cocosearch stats`.
pub fn stats(ctx: &Context, args: &StatsArgs) -> anyhow::Result<Exit> {
    let workspace = ctx.workspace();
    let (store, choice) = workspace.store_and_choice(&ctx.config.settings.database).map_err(failed)?;
    let failing = if args.show_failures {
        ALL_FAILING
    } else if ctx.ui.verbose > 0 {
        VERBOSE_FAILING
    } else {
        0
    };
    let all: Vec<IndexStats> = if args.all {
        all_stats(&workspace, args.staleness_threshold, failing).map_err(failed)?
    } else {
        let name = args.index.index_name.clone().or_else(|| args.name.clone());
        let index = IndexRef { name: IndexName { index_name: name }, at: args.at.clone() };
        let target = workspace.open(Caller::Command, &index, Need::Index).map_err(failed)?;
        vec![target.stats(args.staleness_threshold, failing, Scan::Tree).map_err(failed)?]
    };
    if args.json {
        let value = if args.all {
            serde_json::Value::Array(all.iter().map(wire::stats_json).collect())
        } else {
            all.first().map_or(serde_json::Value::Null, wire::stats_json)
        };
        print_json(&value)?;
        return Ok(Exit::Success);
    }
    if all.is_empty() {
        errln!("no indexes yet — run `cocosearch index` in a project");
        return Ok(Exit::Success);
    }
    let detail = if ctx.ui.verbose > 0 { Detail::Verbose } else { Detail::Brief };
    let failures = if args.show_failures { Failures::All } else { Failures::Top };
    let mut out = String::new();
    let _ = writeln!(out, "{} {choice}, {}", ctx.ui.dim().apply_to("store"), store.location());
    for (i, s) in all.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render(ctx, s, detail, failures, &mut out);
    }
    print(&out)?;
    Ok(Exit::Success)
}

fn bar(percent: f64, width: usize) -> String {
    let filled = ((percent / 100.0) * width as f64).round() as usize;
    format!("{}{}", "█".repeat(filled.min(width)), "░".repeat(width - filled.min(width)))
}

fn short(commit: &Option<String>) -> String {
    commit.as_deref().map_or("?".to_string(), |c| c.chars().take(10).collect())
}

/// How much `stats` shows of an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// The summary (the default).
    Brief,
    /// Also the changed paths and parse health (`-v`).
    Verbose,
}

/// Which failing files `stats` lists, when it lists any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failures {
    /// The most failing ones, with their first error.
    Top,
    /// All of them, with up to five errors each (`--show-failures`).
    All,
}

/// One index's statistics for people, section by section.
fn render(ctx: &Context, s: &IndexStats, detail: Detail, failures: Failures, out: &mut String) {
    render_summary(ctx, s, out);
    render_git(ctx, s, out);
    render_freshness(ctx, s, detail, out);
    render_languages(ctx, s, out);
    if detail == Detail::Verbose {
        render_parse_health(ctx, s, out);
    }
    if !s.failing_files.is_empty() {
        render_failures(ctx, s, failures, out);
    }
}

/// The name, root, model, sizes, symbols, creation and last run.
fn render_summary(ctx: &Context, s: &IndexStats, out: &mut String) {
    let ui = &ctx.ui;
    let label = |text: &str| ui.dim().apply_to(format!("  {text:<10} ")).to_string();
    // Paths, branch names and the model come from the project and its git metadata: their
    // control characters are escaped, never written raw to the terminal.
    let root = s.root.display().to_string();
    let _ = writeln!(out, "{}  {}", ui.bold().apply_to(&s.name), visible(&root));
    let model = match (&s.model, s.dimension) {
        (Some(m), Some(d)) => format!("{m} ({d} dims, {})", s.provider),
        (Some(m), None) => format!("{m} ({}; dimension not known yet)", s.provider),
        (None, _) => "none (keyword search only)".to_string(),
    };
    let _ = writeln!(out, "{}{}", label("model"), visible(&model));
    let _ = writeln!(
        out,
        "{}{} · {} · {} · {} in {}",
        label("indexed"),
        plural(s.files, "file"),
        plural(s.chunks, "chunk"),
        plural(s.lines, "line"),
        bytes(s.storage_bytes),
        s.backend.product()
    );
    if let Some(shared) = &s.shared {
        let _ = writeln!(
            out,
            "{}{} at {} · {} read from it · {} changed or gone here (indexed above, or not at all)",
            label("shared"),
            shared.index,
            visible(&shared.location),
            plural(shared.files, "file"),
            plural(shared.shadowed, "file")
        );
    }
    if s.stored_texts != s.chunks {
        // Snapshots (or a text repeated in a file) share texts: what the store holds.
        let texts = plural(s.stored_texts, "chunk text");
        let _ = writeln!(out, "{}{texts}, each stored once for every snapshot holding it", label("texts"));
    }
    if s.model.is_some() {
        let embedded = s.chunks - s.pending_embeddings.min(s.chunks);
        let pending = if s.pending_embeddings > 0 {
            let fix = if s.watcher.is_some() {
                "a watcher runs: computed in the background unless it was started with --no-embed"
            } else {
                "run `cocosearch index`"
            };
            console::style(format!("{} awaiting — {fix}", number(s.pending_embeddings))).yellow().to_string()
        } else {
            "0 awaiting".to_string()
        };
        let _ = writeln!(out, "{}{} embedded · {pending}", label("vectors"), number(embedded));
    }
    if !s.symbols_by_type.is_empty() {
        let mut kinds: Vec<(&SymbolKind, &u64)> = s.symbols_by_type.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1));
        let text: Vec<String> = kinds.iter().map(|(k, n)| format!("{} {k}", number(**n))).collect();
        let _ = writeln!(out, "{}{}", label("symbols"), wrap(&text.join(" · "), 86, 13));
    }
    let _ = writeln!(out, "{}{}", label("created"), s.created_at);
    if let Some(run) = &s.last_run {
        let took = run.duration_ms.map(|ms| format!("{:.1} s, ", ms as f64 / 1000.0)).unwrap_or_default();
        let status = if run.status == RunStatus::Completed {
            String::new()
        } else {
            format!(" {}", console::style(run.status).yellow())
        };
        let _ = writeln!(
            out,
            "{}{} {}{status} ({took}+{} ~{} -{} files)",
            label("last run"),
            run.kind,
            run.finished_at.as_deref().unwrap_or(&run.started_at),
            run.files_added,
            run.files_modified,
            run.files_removed
        );
    }
}

/// The branch and commit indexed, and HEAD when it moved.
fn render_git(ctx: &Context, s: &IndexStats, out: &mut String) {
    let ui = &ctx.ui;
    let label = |text: &str| ui.dim().apply_to(format!("  {text:<10} ")).to_string();
    let f = &s.freshness;
    if s.git_commit.is_some() || f.head_commit.is_some() {
        let indexed = format!("{} @ {}", s.git_branch.as_deref().unwrap_or("detached"), short(&s.git_commit));
        let indexed = visible(&indexed);
        let head = format!("{} @ {}", f.head_branch.as_deref().unwrap_or("detached"), short(&f.head_commit));
        let head = visible(&head).into_owned();
        let drift = if f.commit_drift || f.branch_drift {
            format!(" (HEAD is {})", console::style(head).yellow())
        } else {
            String::new()
        };
        let _ = writeln!(out, "{}{indexed}{drift}", label("git"));
    }
}

/// How far the index is behind the tree, and what was skipped.
fn render_freshness(ctx: &Context, s: &IndexStats, detail: Detail, out: &mut String) {
    let ui = &ctx.ui;
    let label = |text: &str| ui.dim().apply_to(format!("  {text:<10} ")).to_string();
    let f = &s.freshness;
    let mut behind = Vec::new();
    for (n, what) in [(f.added.count, "added"), (f.modified.count, "modified"), (f.removed.count, "removed")] {
        if n > 0 {
            behind.push(format!("{} {what}", number(n)));
        }
    }
    if f.commit_drift || f.branch_drift {
        behind.push("HEAD moved".to_string());
    }
    if f.stale_by_age {
        behind.push(format!("{:.0} days old (threshold {})", f.age_days.unwrap_or(0.0), f.threshold_days));
    }
    match &s.watcher {
        Some(w) => {
            let _ = writeln!(
                out,
                "{}{} watched by {} since {}: changes are indexed as they are saved",
                label("watcher"),
                ui.ok(),
                visible(&w.process),
                w.since
            );
        }
        None => {
            let _ = writeln!(out, "{}none (`cocosearch watch` keeps it fresh as files change)", label("watcher"));
        }
    }
    let scan =
        if f.scanned { format!("scanned in {} ms", f.scan_ms) } else { "root not found, not scanned".to_string() };
    if behind.is_empty() {
        let _ = writeln!(out, "{}{} up to date ({scan})", label("freshness"), ui.ok());
    } else {
        let _ = writeln!(
            out,
            "{}{} {} — run `cocosearch index` ({scan})",
            label("freshness"),
            ui.fail(),
            console::style(behind.join(" · ")).yellow()
        );
        if detail == Detail::Verbose {
            for (set, sign) in [(&f.added, "+"), (&f.modified, "~"), (&f.removed, "-")] {
                for p in &set.paths {
                    let _ = writeln!(out, "{}{sign} {}", " ".repeat(13), visible(p));
                }
            }
        }
    }
    if let Some(skipped) = skipped_summary(&s.skipped) {
        let _ = writeln!(out, "{}{skipped}", label("skipped"));
    }
    // Name what a count of sensitive files hides (never its content): `.env`, `id_rsa`.
    let sensitive = &s.freshness.sensitive;
    if !sensitive.paths.is_empty() {
        let more = sensitive.count.saturating_sub(sensitive.paths.len() as u64);
        let listed: Vec<String> = sensitive.paths.iter().map(|p| visible(p).into_owned()).collect();
        let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
        let _ = writeln!(
            out,
            "{}{}{tail} {}",
            label("sensitive"),
            listed.join(", "),
            ui.dim().apply_to("(never indexed; indexing.includeSensitive lets a path in)")
        );
    }
}

/// Files, chunks and lines per language.
fn render_languages(ctx: &Context, s: &IndexStats, out: &mut String) {
    let ui = &ctx.ui;
    let _ = writeln!(out, "\n{}", ui.bold().apply_to("Languages"));
    let _ = writeln!(out, "  {}{}{}LINES", pad("LANGUAGE", 14), pad("FILES", 9), pad("CHUNKS", 10));
    for l in &s.languages {
        let _ = writeln!(
            out,
            "  {}{}{}{}",
            pad(&l.language, 14),
            pad(&number(l.files), 9),
            pad(&number(l.chunks), 10),
            number(l.lines)
        );
    }
}

/// Chunks by parse status per language, with a bar (`-v`).
fn render_parse_health(ctx: &Context, s: &IndexStats, out: &mut String) {
    let ui = &ctx.ui;
    let overall = s.parse_health.ok_percent.map_or("–".to_string(), |p| format!("{p:.1}% ok"));
    let _ = writeln!(out, "\n{}  {}", ui.bold().apply_to("Parse health"), overall);
    let _ = writeln!(
        out,
        "  {}{}{}{}{}HEALTH",
        pad("LANGUAGE", 14),
        pad("OK", 9),
        pad("PARTIAL", 9),
        pad("ERROR", 8),
        pad("UNSUPPORTED", 13),
    );
    for l in &s.parse_health.languages {
        let health = match l.ok_percent {
            Some(p) => {
                let style = if p >= 99.0 {
                    console::Style::new().green()
                } else if p >= 90.0 {
                    console::Style::new().yellow()
                } else {
                    console::Style::new().red()
                };
                format!("{} {}", style.apply_to(bar(p, 20)), style.apply_to(format!("{p:>5.1}%")))
            }
            None => ui.dim().apply_to("no grammar").to_string(),
        };
        let _ = writeln!(
            out,
            "  {}{}{}{}{}{health}",
            pad(&l.language, 14),
            pad(&number(l.ok), 9),
            pad(&number(l.partial), 9),
            pad(&number(l.error), 8),
            pad(&number(l.unsupported), 13)
        );
    }
}

/// The files whose chunks failed to parse.
fn render_failures(ctx: &Context, s: &IndexStats, failures: Failures, out: &mut String) {
    let ui = &ctx.ui;
    let title = if failures == Failures::All { "Parse failures" } else { "Most failing files" };
    let _ = writeln!(out, "\n{}", ui.bold().apply_to(title));
    for file in &s.failing_files {
        let positions: Vec<String> = file
            .errors
            .iter()
            .take(if failures == Failures::All { 5 } else { 1 })
            .map(|e| format!("{}:{}", e.line, e.column))
            .collect();
        let _ = writeln!(
            out,
            "  {}  {} {} {}/{} chunks  {}",
            console::style(visible(&file.path)).magenta(),
            ui.dim().apply_to(visible(&file.language)),
            console::style(file.status.as_str()).yellow(),
            file.failing_chunks,
            file.chunks,
            ui.dim().apply_to(if positions.is_empty() {
                String::new()
            } else {
                format!("at {}", positions.join(", "))
            })
        );
    }
}

/// Wraps `text` at ` · ` separators to `width`, indenting continuation lines by `indent`.
fn wrap(text: &str, width: usize, indent: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for (i, part) in text.split(" · ").enumerate() {
        if i > 0 {
            if line_len + 3 + part.len() > width {
                out.push_str(" ·\n");
                out.push_str(&" ".repeat(indent));
                line_len = 0;
            } else {
                out.push_str(" · ");
                line_len += 3;
            }
        }
        out.push_str(part);
        line_len += part.len();
    }
    out
}
