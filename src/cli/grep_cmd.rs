//! `cocosearch grep`: ripgrep's output — `path:line:column:text`, or grouped under a heading
//! per file on a terminal — over the project's files.

use std::io::Write;
use std::ops::ControlFlow;

use console::Style;

use super::args::{GrepArgs, SortBy};
use super::output::{errln, plural, visible, visible_bytes, visible_lines};
use super::{Context, Exit, UsageError, failed};
use crate::wire;
use crate::workspace::grep::{
    Definitions, FileError, FileMatches, GrepRequest, GrepSummary, GrepTarget, GrepTargets, LineKind, Order, Report,
    Sort,
};
use crate::workspace::{Caller, Front};

/// `cocosearch grep`.
pub fn grep(ctx: &Context, args: &GrepArgs) -> anyhow::Result<Exit> {
    if args.pcre2 {
        return Err(UsageError(PCRE2_REFUSED.into()).into());
    }
    let (request, typed) = request(ctx, args)?;
    let wants_symbols = args.json || args.symbols;
    let definitions = if wants_symbols { Definitions::FromIndex } else { Definitions::Skip };
    let targets = ctx
        .workspace()
        .open_greps(Caller::Command, &args.index, &args.options.indexes.index_names, definitions)
        .map_err(failed)?;
    if targets.several() && !typed.is_empty() {
        return Err(UsageError(SEVERAL_WITH_PATHS.into()).into());
    }
    for warning in &targets.warnings {
        errln!("{} {}", console::style("warning:").yellow().bold(), visible_lines(warning));
    }
    if args.list_files {
        return list_files(ctx, &targets, &request, &typed);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut printer = Printer::new(ctx, args, &request);
    let mut failed_write: Option<std::io::Error> = None;
    if args.json {
        write!(out, "{{\"pattern\":{},\"results\":[", serde_json::json!(request.pattern.patterns))?;
    }
    let quiet = ctx.ui.quiet;
    let several = targets.several();
    let outcome = targets.run(&request, |target, mut file| {
        if quiet {
            return ControlFlow::Break(());
        }
        if several {
            file.path = shown_path(ctx, target, &file.path);
            printer.index = Some(target.index.clone());
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
    tell_errors(&summary.errors, &typed);
    // rg's exit status: 2 when something could not be searched (unless -q found a match),
    // else 0 when something matched, 1 when nothing did.
    Ok(match (summary.errors.is_empty(), summary.files_matched > 0) {
        (false, true) if quiet => Exit::Success,
        (false, _) => Exit::Usage,
        (true, true) => Exit::Success,
        (true, false) => Exit::Failure,
    })
}

/// Why paths and `--indexes` do not go together.
const SEVERAL_WITH_PATHS: &str = "--indexes greps whole projects, and a path belongs to one of them — narrow with -g GLOB, or grep one project with -n NAME and the paths";

/// A file of one of several projects as the user can open it: its path from where the command
/// runs when the project lies below it, else its absolute path (as rg prints the files of a
/// directory it was given).
fn shown_path(ctx: &Context, target: &GrepTarget, path: &str) -> String {
    let full = target.project.root.join(path);
    full.strip_prefix(&ctx.cwd).unwrap_or(&full).display().to_string()
}

/// Why `-P` is refused, and what to do instead.
const PCRE2_REFUSED: &str = "-P/--pcre2: cocosearch grep matches with ripgrep's default engine (Rust's regex: linear time, no look-around, no backreferences) and has no PCRE2 — rewrite the pattern without look-around or backreferences, or run `rg -P` for this one";

/// Paths as the command line spelled them, by the path handed to the workspace: an error
/// about a path names it as the user typed it, as rg does.
type Typed = Vec<(std::path::PathBuf, String)>;

/// The engine's request from the flags, and the paths as typed.
fn request(ctx: &Context, args: &GrepArgs) -> anyhow::Result<(GrepRequest, Typed)> {
    let mut paths = args.paths.clone();
    // With -e, or --files (which takes no pattern), every positional argument is a path.
    let patterns = if args.regexp.is_empty() && !args.list_files {
        args.pattern.clone().into_iter().collect()
    } else {
        paths.splice(0..0, args.pattern.iter().map(std::path::PathBuf::from));
        args.regexp.clone()
    };
    let typed: Typed = paths.iter().map(|p| (absolute(ctx, p), p.display().to_string())).collect();
    let mut request = args.options.request(patterns, scope(ctx, paths), Front::Command).map_err(failed)?;
    // -q: only the exit code is wanted, so the first match is enough.
    request.limit = ctx.ui.quiet.then_some(1);
    request.sort = match (args.sort, args.sortr) {
        (_, Some(by)) => Sort { by: order(by), reverse: true },
        (Some(by), None) => Sort { by: order(by), reverse: false },
        (None, None) => Sort::default(),
    };
    request.replace = args.replace.as_ref().map(|r| r.as_bytes().to_vec());
    Ok((request, typed))
}

/// rg's sort order as the engine's.
fn order(by: SortBy) -> Order {
    match by {
        SortBy::Path | SortBy::None => Order::Path,
        SortBy::Modified => Order::Modified,
        SortBy::Accessed => Order::Accessed,
        SortBy::Created => Order::Created,
    }
}

/// The paths to search: those named, relative to where the command runs (`..` taken
/// lexically); none named, the working directory when it lies below the project root, as rg
/// searches where it runs.
fn scope(ctx: &Context, paths: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
    if paths.is_empty() {
        let below = ctx.cwd != ctx.config.project_root && ctx.cwd.starts_with(&ctx.config.project_root);
        return if below { vec![ctx.cwd.clone()] } else { Vec::new() };
    }
    paths.iter().map(|p| absolute(ctx, p)).collect()
}

/// `path` from where the command runs, `..` taken lexically.
fn absolute(ctx: &Context, path: &std::path::Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for part in ctx.cwd.join(path).components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// `--files`: the files a grep would search.
fn list_files(ctx: &Context, targets: &GrepTargets, request: &GrepRequest, typed: &Typed) -> anyhow::Result<Exit> {
    let (mut files, mut errors) = (Vec::new(), Vec::new());
    for target in targets.targets() {
        let (listed, failed_paths) = target.list_files(request).map_err(failed)?;
        match targets.several() {
            true => files.extend(listed.iter().map(|path| shown_path(ctx, target, path))),
            false => files.extend(listed),
        }
        errors.extend(failed_paths);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for file in &files {
        writeln!(out, "{}", visible(file))?;
    }
    out.flush()?;
    tell_errors(&errors, typed);
    Ok(if !errors.is_empty() {
        Exit::Usage
    } else if files.is_empty() {
        Exit::Failure
    } else {
        Exit::Success
    })
}

/// Each path that could not be searched, and why, as rg tells it: `cocosearch: nosuch: No such
/// file or directory (os error 2)`.
fn tell_errors(errors: &[FileError], typed: &Typed) {
    for error in errors {
        let path = typed
            .iter()
            .find(|(absolute, _)| *absolute == error.path)
            .map_or_else(|| error.path.display().to_string(), |(_, typed)| typed.clone());
        errln!("cocosearch: {}: {}", visible(&path), visible(&error.message));
    }
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
    if ctx.ui.verbose > 0 || (summary.files_searched == 0 && summary.errors.is_empty()) {
        let skipped: Vec<String> =
            summary.skipped.0.iter().map(|(reason, n)| format!("{n} {}", reason.label())).collect();
        errln!(
            "{} searched, {} matched, {} in {:.0} ms{}",
            plural(summary.files_searched, "file"),
            summary.files_matched,
            plural(summary.matched_lines, "line"),
            summary.took_ms,
            if skipped.is_empty() { String::new() } else { format!("; skipped: {}", skipped.join(", ")) }
        );
    }
}

/// How a matching line is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EachMatch {
    /// The line once, at its first match's column.
    Line,
    /// The line once per match, at each one's column (`--vimgrep`).
    Whole,
    /// Each match's text alone, at its column (`-o`).
    Part,
}

/// Writes files as rg does.
struct Printer {
    heading: bool,
    json: bool,
    symbols: bool,
    context: bool,
    after: usize,
    report: Report,
    /// Line numbers shown (not `-N`).
    line_numbers: bool,
    /// Column numbers shown (not `-N` nor `--no-column`).
    columns: bool,
    each_match: EachMatch,
    /// Something was written already (separators go between files).
    started: bool,
    /// The index of the file printed, named in JSON when several are grepped.
    index: Option<String>,
    path: Style,
    number: Style,
    matched: Style,
    symbol: Style,
}

impl Printer {
    fn new(ctx: &Context, args: &GrepArgs, request: &GrepRequest) -> Printer {
        let each_match = match (args.only_matching, args.vimgrep) {
            (true, _) => EachMatch::Part,
            (false, true) => EachMatch::Whole,
            (false, false) => EachMatch::Line,
        };
        Printer {
            heading: !args.vimgrep && (args.heading || (ctx.ui.stdout_tty && !args.no_heading)),
            json: args.json,
            symbols: args.symbols,
            context: each_match == EachMatch::Line && (request.before > 0 || request.after > 0),
            after: request.after,
            report: request.report,
            line_numbers: !args.no_line_number,
            columns: !args.no_line_number && !args.no_column,
            each_match,
            started: false,
            index: None,
            path: Style::new().magenta(),
            number: Style::new().green(),
            matched: Style::new().red().bold(),
            symbol: Style::new().cyan(),
        }
    }

    fn file(&mut self, out: &mut impl Write, file: &FileMatches) -> std::io::Result<()> {
        if self.json {
            for mut hit in wire::grep_file_json(file, self.after) {
                if let Some(index) = &self.index {
                    hit["index"] = serde_json::json!(index);
                }
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
            if line.gap_before && self.context {
                writeln!(out, "--")?;
            }
            match &line.kind {
                LineKind::Context if self.each_match != EachMatch::Line => {}
                LineKind::Context => {
                    write!(out, "{}", self.location(&prefix, '-', line.number, None))?;
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
                        let sep = if prefix.is_empty() { String::new() } else { format!("{prefix}:") };
                        writeln!(out, "{sep}{}", self.label(&text, &self.symbol))?;
                        shown_symbol = Some(def.qualified_name.as_str());
                    }
                    ordinal += 1;
                    self.match_line(out, &prefix, line.number, &line.text, *column, ranges)?;
                }
            }
        }
        Ok(())
    }

    /// A matching line, once or once per match as [`EachMatch`] says.
    fn match_line(
        &self,
        out: &mut impl Write,
        prefix: &str,
        number: u64,
        text: &[u8],
        column: Option<u64>,
        ranges: &[std::ops::Range<usize>],
    ) -> std::io::Result<()> {
        if self.each_match == EachMatch::Line || (self.each_match == EachMatch::Whole && ranges.is_empty()) {
            write!(out, "{}", self.location(prefix, ':', number, column))?;
            self.highlighted(out, text, ranges)?;
            return writeln!(out);
        }
        for range in ranges.iter().filter(|r| r.end <= text.len()) {
            write!(out, "{}", self.location(prefix, ':', number, Some(range.start as u64 + 1)))?;
            match self.each_match {
                EachMatch::Part => {
                    let whole = 0..range.len();
                    self.highlighted(out, &text[range.clone()], std::slice::from_ref(&whole))?;
                }
                _ => self.highlighted(out, text, std::slice::from_ref(range))?,
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// `path:line:column:` as shown (`sep` after each part: `:` for a match, `-` for context),
    /// without the numbers `-N` and `--no-column` leave out.
    fn location(&self, prefix: &str, sep: char, number: u64, column: Option<u64>) -> String {
        let mut out = String::new();
        if !prefix.is_empty() {
            out.push_str(prefix);
            out.push(sep);
        }
        if self.line_numbers {
            out.push_str(&self.number.apply_to(number).to_string());
            out.push(sep);
        }
        if let Some(column) = column.filter(|_| self.columns) {
            out.push_str(&format!("{column}{sep}"));
        }
        out
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
