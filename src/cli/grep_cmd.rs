//! `cocosearch grep`: ripgrep's output — `path:line:column:text`, or grouped under a heading
//! per file on a terminal — over the project's files.

use std::io::Write;
use std::ops::ControlFlow;

use console::Style;

use super::args::GrepArgs;
use super::output::{errln, visible, visible_bytes, visible_lines};
use super::{Context, Exit, failed};
use crate::wire;
use crate::workspace::grep::{Definitions, FileMatches, GrepRequest, GrepSummary, GrepTarget, LineKind, Report};
use crate::workspace::{Caller, Front};

/// `cocosearch grep`.
pub fn grep(ctx: &Context, args: &GrepArgs) -> anyhow::Result<Exit> {
    let request = request(ctx, args)?;
    let wants_symbols = args.json || args.symbols;
    let definitions = if wants_symbols { Definitions::FromIndex } else { Definitions::Skip };
    let target = ctx.workspace().open_grep(Caller::Command, &args.index, definitions).map_err(failed)?;
    if args.list_files {
        return list_files(&target, &request);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut printer = Printer::new(ctx, args, &request);
    let mut failed_write: Option<std::io::Error> = None;
    if args.json {
        write!(out, "{{\"pattern\":{},\"results\":[", serde_json::json!(request.pattern.patterns))?;
    }
    let quiet = ctx.ui.quiet;
    let outcome = target.run(&request, |file| {
        if quiet {
            return ControlFlow::Break(());
        }
        match printer.file(&mut out, &file) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                failed_write = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Some(e) = failed_write {
        return Err(e.into());
    }
    let summary = outcome.map_err(failed)?;
    if args.json {
        writeln!(out, "\n],\"summary\":{}}}", wire::grep_summary_json(&summary))?;
    }
    out.flush()?;
    report(ctx, &summary);
    Ok(if summary.files_matched > 0 { Exit::Success } else { Exit::Failure })
}

/// The engine's request from the flags.
fn request(ctx: &Context, args: &GrepArgs) -> anyhow::Result<GrepRequest> {
    let mut paths = args.paths.clone();
    // With -e, or --files (which takes no pattern), every positional argument is a path.
    let patterns = if args.regexp.is_empty() && !args.list_files {
        args.pattern.clone().into_iter().collect()
    } else {
        paths.splice(0..0, args.pattern.iter().map(std::path::PathBuf::from));
        args.regexp.clone()
    };
    let mut request = args.options.request(patterns, scope(ctx, paths), Front::Command).map_err(failed)?;
    // -q: only the exit code is wanted, so the first match is enough.
    request.limit = ctx.ui.quiet.then_some(1);
    Ok(request)
}

/// The paths to search: those named, relative to where the command runs (`..` taken
/// lexically); none named, the working directory when it lies below the project root, as rg
/// searches where it runs.
fn scope(ctx: &Context, paths: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
    if paths.is_empty() {
        let below = ctx.cwd != ctx.config.project_root && ctx.cwd.starts_with(&ctx.config.project_root);
        return if below { vec![ctx.cwd.clone()] } else { Vec::new() };
    }
    paths
        .into_iter()
        .map(|p| {
            let mut out = std::path::PathBuf::new();
            for part in ctx.cwd.join(p).components() {
                match part {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::CurDir => {}
                    other => out.push(other),
                }
            }
            out
        })
        .collect()
}

/// `--files`: the files a grep would search.
fn list_files(target: &GrepTarget, request: &GrepRequest) -> anyhow::Result<Exit> {
    let files = target.list_files(request).map_err(failed)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for file in &files {
        writeln!(out, "{}", visible(file))?;
    }
    out.flush()?;
    Ok(if files.is_empty() { Exit::Failure } else { Exit::Success })
}

/// What the user should know besides the matches, on stderr.
fn report(ctx: &Context, summary: &GrepSummary) {
    if ctx.ui.quiet {
        return;
    }
    let warn = console::style("warning:").yellow().bold();
    for path in &summary.outside {
        errln!("{warn} {} lies outside the project — not searched", visible_lines(&path.display().to_string()));
    }
    if ctx.ui.verbose > 0 || summary.files_searched == 0 {
        let skipped: Vec<String> =
            summary.skipped.0.iter().map(|(reason, n)| format!("{n} {}", reason.label())).collect();
        errln!(
            "{} files searched, {} matched, {} lines in {:.0} ms{}",
            summary.files_searched,
            summary.files_matched,
            summary.matched_lines,
            summary.took_ms,
            if skipped.is_empty() { String::new() } else { format!("; skipped: {}", skipped.join(", ")) }
        );
    }
}

/// Writes files as rg does.
struct Printer {
    heading: bool,
    json: bool,
    symbols: bool,
    context: bool,
    after: usize,
    report: Report,
    /// Something was written already (separators go between files).
    started: bool,
    path: Style,
    number: Style,
    matched: Style,
    symbol: Style,
}

impl Printer {
    fn new(ctx: &Context, args: &GrepArgs, request: &GrepRequest) -> Printer {
        Printer {
            heading: args.heading || (ctx.ui.stdout_tty && !args.no_heading),
            json: args.json,
            symbols: args.symbols,
            context: request.before > 0 || request.after > 0,
            after: request.after,
            report: request.report,
            started: false,
            path: Style::new().magenta(),
            number: Style::new().green(),
            matched: Style::new().red().bold(),
            symbol: Style::new().cyan(),
        }
    }

    fn file(&mut self, out: &mut impl Write, file: &FileMatches) -> std::io::Result<()> {
        if self.json {
            for hit in wire::grep_file_json(file, self.after) {
                write!(out, "{}\n{}", if self.started { "," } else { "" }, hit)?;
                self.started = true;
            }
            return Ok(());
        }
        let path = self.label(&file.path, &self.path);
        match self.report {
            Report::Files => return writeln!(out, "{path}"),
            Report::Count => return writeln!(out, "{path}:{}", file.count),
            Report::Lines => {}
        }
        if self.heading {
            if self.started {
                writeln!(out)?;
            }
            writeln!(out, "{path}")?;
        } else if self.context && self.started {
            writeln!(out, "--")?;
        }
        self.started = true;
        let prefix = if self.heading { String::new() } else { path };
        let mut shown_symbol: Option<&str> = None;
        let mut ordinal = 0;
        for line in &file.lines {
            if line.gap_before {
                writeln!(out, "--")?;
            }
            let number = self.number.apply_to(line.number).to_string();
            let sep = |c: char| if prefix.is_empty() { String::new() } else { format!("{prefix}{c}") };
            match &line.kind {
                LineKind::Context => {
                    write!(out, "{}{number}-", sep('-'))?;
                    self.put(out, &line.text, None)?;
                    writeln!(out)?;
                }
                LineKind::Match { column, ranges, .. } => {
                    if self.symbols
                        && let Some(Some(def)) = file.enclosing.get(ordinal)
                        && shown_symbol != Some(def.qualified_name.as_str())
                    {
                        let text = format!(
                            "{}-{}: {} {}",
                            def.start_line,
                            def.end_line,
                            def.kind.as_str(),
                            def.qualified_name
                        );
                        writeln!(out, "{}{}", sep(':'), self.label(&text, &self.symbol))?;
                        shown_symbol = Some(def.qualified_name.as_str());
                    }
                    ordinal += 1;
                    let column = column.map(|c| format!("{c}:")).unwrap_or_default();
                    write!(out, "{}{number}:{column}", sep(':'))?;
                    self.highlighted(out, &line.text, ranges)?;
                    writeln!(out)?;
                }
            }
        }
        Ok(())
    }

    /// Writes `text` with its matches coloured when colour is on.
    fn highlighted(&self, out: &mut impl Write, text: &[u8], ranges: &[std::ops::Range<usize>]) -> std::io::Result<()> {
        if !console::colors_enabled() || ranges.is_empty() {
            return self.put(out, text, None);
        }
        let mut at = 0;
        for r in ranges {
            if r.is_empty() || r.start < at || r.end > text.len() {
                continue;
            }
            self.put(out, &text[at..r.start], None)?;
            self.put(out, &text[r.clone()], Some(&self.matched))?;
            at = r.end;
        }
        self.put(out, &text[at..], None)
    }

    /// Writes `text` with its control and invisible characters escaped, on a terminal or piped
    /// (a file's bytes must not drive the terminal the output ends in); bytes that are not
    /// UTF-8 stay as rg writes them ([`visible_bytes`]).
    fn put(&self, out: &mut impl Write, text: &[u8], style: Option<&Style>) -> std::io::Result<()> {
        let shown = visible_bytes(text);
        match style {
            Some(style) => write!(out, "{}", style.apply_to(String::from_utf8_lossy(&shown))),
            None => out.write_all(&shown),
        }
    }

    /// A path or label as shown, its control and invisible characters escaped.
    fn label(&self, text: &str, style: &Style) -> String {
        style.apply_to(visible(text)).to_string()
    }
}
