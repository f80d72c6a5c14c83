//! `cocosearch search`: one query, or an interactive loop with `-i`.

use std::fmt::Write as _;

use super::args::SearchArgs;
use super::output::{errln, number, plural, print, visible, visible_lines};
use super::{Context, Exit, UsageError, failed};
use crate::wire;
use crate::wire::budget::{self, Page};
use crate::workspace::inputs::{SearchMode, SearchOptions};
use crate::workspace::search::{
    Analysis, Hit, SearchAnswer, SearchError, SearchRequest, SearchResponse, Verdict, skipped,
};
use crate::workspace::stats::{Following, SearchFreshness};
use crate::workspace::{Caller, IndexRef};

/// `cocosearch search`.
pub fn search(ctx: &Context, args: &SearchArgs) -> anyhow::Result<Exit> {
    // Usage errors first, before any connection: they are the command line's fault (exit 2).
    if !args.interactive && args.query.as_deref().is_some_and(|q| q.trim().is_empty()) {
        return Err(UsageError(SearchError::EmptyQuery.to_string()).into());
    }
    if args.interactive {
        return interactive(ctx, args.index.clone(), args.options.clone());
    }
    let query = args.query.clone().unwrap_or_default();
    let answer = ctx.workspace().search(Caller::Command, &args.index, &query, &args.options).map_err(failed)?;
    let (response, freshness) = (&answer.response, &answer.freshness);
    let layout = Layout::of(args);
    // JSON only when asked: piped output stays text, as rg's does.
    let budget = args.options.page.max_tokens.map(|max_tokens| Budget { max_tokens, skipped: skipped(&args.options) });
    let (text, footer) = match layout {
        Layout::Json => (json(&answer, budget), None),
        Layout::Files => (files(response), None),
        Layout::Compact => compact(ctx, response, budget),
        Layout::Full => render(ctx, response, budget),
    };
    print(&text)?;
    if let Some(footer) = footer.filter(|_| !ctx.ui.quiet) {
        errln!("{}", ctx.ui.dim().apply_to(footer));
    }
    for w in &response.warnings {
        if !ctx.ui.quiet {
            errln!("{} {}", console::style("warning:").yellow().bold(), visible_lines(w));
        }
    }
    if !ctx.ui.quiet
        && let Some(hint) = &answer.grep_hint
    {
        errln!("{} {}", console::style("hint:").cyan().bold(), visible_lines(hint));
    }
    if let Some(resolution) = answer.resolution.as_ref().filter(|_| !ctx.ui.quiet && layout != Layout::Json) {
        let line = wire::resolution_text(&wire::resolution_json(resolution));
        errln!("{} {}", console::style("name").cyan().bold(), visible_lines(line.trim_end()));
    }
    // A name's resolution says its own did-you-mean.
    if !ctx.ui.quiet && !answer.did_you_mean.is_empty() && answer.resolution.is_none() {
        let names: Vec<String> = answer.did_you_mean.iter().map(|n| format!("`{}`", visible(n))).collect();
        errln!("{} did you mean {}?", console::style("hint:").cyan().bold(), names.join(", "));
    }
    if let Some(f) = freshness
        && !ctx.ui.quiet
        && layout != Layout::Json
    {
        let state = wire::search_freshness_state(f);
        // Full results always say it; the terse layouts only when it matters.
        if layout == Layout::Full || state == "behind" || f.pending_embeddings > 0 {
            errln!("{}", ctx.ui.dim().apply_to(freshness_line(f)));
        }
    }
    Ok(Exit::Success)
}

/// One line: how fresh the searched index is, and how many chunks wait for vectors.
fn freshness_line(f: &SearchFreshness) -> String {
    let state = match (&f.watcher, f.files_behind()) {
        (Some(w), _) if w.following == Following::Live => format!("kept fresh by {}", visible(&w.process)),
        (Some(w), n) => format!(
            "being brought up to date by {} ({} file{} changed since the last update)",
            visible(&w.process),
            number(n),
            if n == 1 { "" } else { "s" }
        ),
        (None, 0) if f.freshness.commit_drift || f.freshness.branch_drift => {
            "HEAD moved since the last update — `cocosearch index` (or `cocosearch watch` to keep it fresh)".to_string()
        }
        (None, 0) => "fresh".to_string(),
        (None, n) => format!(
            "{} file{} changed since the last update — `cocosearch index` (or `cocosearch watch` to keep it fresh)",
            number(n),
            if n == 1 { "" } else { "s" }
        ),
    };
    let pending = match f.pending_embeddings {
        0 => String::new(),
        n => format!(" · {} awaiting vectors (found by keyword only until then)", plural(n, "chunk")),
    };
    format!("index {}: {state}{pending}", f.index)
}

/// `cocosearch analyze`: the search `search` runs, with what each stage did.
pub fn analyze(ctx: &Context, args: &SearchArgs) -> anyhow::Result<Exit> {
    let query = args.query.clone().unwrap_or_default();
    if query.trim().is_empty() {
        return Err(UsageError(SearchError::EmptyQuery.to_string()).into());
    }
    let (_, request, analysis) =
        ctx.workspace().analyze(Caller::Command, &args.index, &query, &args.options).map_err(failed)?;
    if args.json {
        let mut text = serde_json::to_string_pretty(&wire::analysis_json(&request, &analysis)).unwrap_or_default();
        text.push('\n');
        print(&text)?;
    } else {
        print(&render_analysis(ctx, &request, &analysis))?;
    }
    for w in &analysis.response.warnings {
        if !ctx.ui.quiet {
            errln!("{} {}", console::style("warning:").yellow().bold(), visible_lines(w));
        }
    }
    Ok(Exit::Success)
}

fn render_analysis(ctx: &Context, request: &SearchRequest, a: &Analysis) -> String {
    let mut out = String::new();
    let r = &a.reading;
    let head = |text: &str| ctx.ui.bold().apply_to(text.to_string()).to_string();
    let label = |text: &str| format!("  {}", ctx.ui.dim().apply_to(format!("{text:<10}")));
    let _ = writeln!(out, "{} {:?}", head("Query"), visible(&request.query));
    let _ = writeln!(out, "{}{} · {} words · {}", label("read as"), r.kind.as_str(), r.words, r.length);
    let terms = if r.terms.is_empty() { "(none)".to_string() } else { r.terms.join(", ") };
    let _ = writeln!(out, "{}{} (up to {} kept, the rarest first)", label("keywords"), visible(&terms), r.max_terms);
    if !r.symbol_names.is_empty() {
        let _ =
            writeln!(out, "{}{} → definitions {}", label("names"), visible(&r.symbol_names.join(", ")), r.definitions);
    }
    let _ = writeln!(
        out,
        "{}vector {} · keyword {} · rank damping k {} · by score {}",
        label("fusion"),
        r.weights.0,
        r.weights.1,
        r.damping,
        r.by_score
    );
    let _ = writeln!(out, "\n{}", head("Legs"));
    for leg in &a.legs {
        let _ = writeln!(
            out,
            "  {} {}",
            ctx.ui.bold().apply_to(leg.leg.as_str()),
            ctx.ui.dim().apply_to(format!("({}; weight {}; {} found)", leg.index, leg.weight, leg.found))
        );
        for (i, e) in leg.top.iter().enumerate() {
            let score = e.score.map(|s| format!("{s:.3}")).unwrap_or_default();
            let _ = writeln!(out, "    {:>2}  {:>7}  {}", i + 1, score, visible(&e.path));
        }
    }
    let _ = writeln!(out, "\n{}", head("Fused"));
    for (i, f) in a.fused.iter().enumerate() {
        let parts: Vec<String> = [("vec", f.vector), ("kw", f.keyword)]
            .iter()
            .filter_map(|(l, v)| v.map(|v| format!("{l} {v:.2}")))
            .collect();
        let _ = writeln!(
            out,
            "    {:>2}  {:>6.3}  {}  {}",
            i + 1,
            f.score,
            visible(&f.path),
            ctx.ui.dim().apply_to(parts.join(" · "))
        );
    }
    let t = &a.timings;
    let _ = writeln!(
        out,
        "\n{} analyse {:.1} ms · retrieve {:.1} ms · fuse {:.1} ms · assemble {:.1} ms",
        head("Timings"),
        t.analyse_ms,
        t.retrieve_ms,
        t.fuse_ms,
        t.assemble_ms
    );
    let _ = writeln!(out, "\n{} {} mode", head("Hits"), a.response.mode);
    out.push_str(&compact(ctx, &a.response, None).0);
    out
}

/// How the hits are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Every hit with its lines (the default).
    Full,
    /// One line per hit (`--compact`).
    Compact,
    /// The files with hits, one per line (`--files`).
    Files,
    /// The response as JSON (`--json`).
    Json,
}

impl Layout {
    fn of(args: &SearchArgs) -> Layout {
        if args.json {
            Layout::Json
        } else if args.files {
            Layout::Files
        } else if args.compact {
            Layout::Compact
        } else {
            Layout::Full
        }
    }
}

/// The files with hits, best first, each once: what `rg -l` prints, for `xargs` and editors.
fn files(response: &SearchResponse) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    for hit in &response.hits {
        if seen.insert(hit.path.as_str()) {
            let _ = writeln!(out, "{}", visible(&hit.path));
        }
    }
    out
}

/// `--json`: the answer of `search --json`, within `--max-tokens` when given.
fn json(answer: &SearchAnswer, budget: Option<Budget>) -> String {
    let mut value = wire::search_answer_json(answer);
    if let Some(b) = budget {
        // Counted as printed: pretty.
        let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap_or_default();
        let fit = wire::search_fit(b.skipped, Some(&pretty));
        budget::fit(&mut value, &fit, Page { max_tokens: b.max_tokens, offset: 0 });
    }
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// One line per hit: `path:line`, the symbol it is about, its score.
fn compact(ctx: &Context, response: &SearchResponse, budget: Option<Budget>) -> (String, Option<String>) {
    let mut head = String::new();
    if response.verdict == Verdict::NoGoodMatch && !response.hits.is_empty() {
        let _ = writeln!(head, "{}", ctx.ui.dim().apply_to("no good match; the nearest hits:"));
    }
    let lines: Vec<String> = response.hits.iter().map(|hit| compact_line(ctx, hit)).collect();
    let (mut out, footer) = within(ctx, head, &lines, response, budget);
    definitions(ctx, response, &mut out);
    (out, footer)
}

/// A hit in one line: `path:start-end`, its label, its score.
fn compact_line(ctx: &Context, hit: &Hit) -> String {
    let location = format!("{}:{}-{}", visible(&hit.path), hit.start_line, hit.end_line);
    format!(
        "{}  {}  {}\n",
        console::style(&location).magenta().bold(),
        label(ctx, hit),
        ctx.ui.dim().apply_to(format!("{:.2}", hit.score))
    )
}

/// `--max-tokens` and the hits the search skipped (`--offset`).
#[derive(Debug, Clone, Copy)]
struct Budget {
    max_tokens: usize,
    skipped: usize,
}

/// `head` and the hits' `blocks`, within the budget when there is one: the blocks that fit
/// whole, then a line for each of the next while the budget lasts (tokens of the text as it
/// reads, without colours); and, when some were left out, a footer saying how to page on.
fn within(
    ctx: &Context,
    head: String,
    blocks: &[String],
    response: &SearchResponse,
    budget: Option<Budget>,
) -> (String, Option<String>) {
    let Some(b) = budget else { return (head + &blocks.concat(), None) };
    let plain = |s: &str| console::strip_ansi_codes(s).into_owned();
    let lines: Vec<String> = response.hits.iter().map(|h| compact_line(ctx, h)).collect();
    let (plain_blocks, plain_lines): (Vec<String>, Vec<String>) =
        (blocks.iter().map(|b| plain(b)).collect(), lines.iter().map(|l| plain(l)).collect());
    let (shown, previewed) = budget::fit_text(&plain(&head), &plain_blocks, &plain_lines, b.max_tokens);
    let all = plain(&head) + &plain_blocks.concat();
    let mut out = head + &blocks[..shown].concat();
    if shown == blocks.len() {
        return (out, None);
    }
    if previewed > 0 {
        let _ = writeln!(out, "{}", ctx.ui.dim().apply_to("more, not shown:"));
        out.push_str(&lines[shown..shown + previewed].concat());
    }
    let footer = format!(
        "{} of {} shown within --max-tokens {} ({} tokens in all); the rest: --offset {}",
        shown,
        plural(blocks.len() as u64, "hit"),
        number(b.max_tokens as u64),
        number(budget::tokens(&all) as u64),
        b.skipped + shown
    );
    (out, Some(footer))
}

/// What a hit is about: the definition it is (`method Blueprint.register`), or the one it lies
/// inside (`in Blueprint.register`) when it is a piece of a long one; empty for neither.
fn label(ctx: &Context, hit: &Hit) -> String {
    match (&hit.symbol_type, &hit.qualified_name, &hit.enclosing) {
        (Some(kind), Some(name), _) => {
            format!("{} {}", ctx.ui.dim().apply_to(kind.as_str()), console::style(visible(name)).cyan())
        }
        (_, _, Some(enclosing)) => {
            format!("{} {}", ctx.ui.dim().apply_to("in"), console::style(visible(enclosing)).cyan())
        }
        _ => String::new(),
    }
}

/// The ranked definitions (`--definitions N`), after the hits of either layout.
fn definitions(ctx: &Context, response: &SearchResponse, out: &mut String) {
    if response.definitions.is_empty() {
        return;
    }
    let _ = writeln!(out, "{}", console::style("Definitions most likely meant").bold());
    for d in &response.definitions {
        let location = format!("{}:{}-{}", visible(&d.path), d.start_line, d.end_line);
        let _ = writeln!(
            out,
            "  {}  {} {}  {}",
            console::style(location).magenta(),
            ctx.ui.dim().apply_to(d.kind.as_str()),
            console::style(visible(&d.name)).cyan(),
            console::style(format!("{:.2}", d.score)).green()
        );
    }
}

fn render(ctx: &Context, response: &SearchResponse, budget: Option<Budget>) -> (String, Option<String>) {
    let mut head = String::new();
    if response.hits.is_empty() {
        let _ = writeln!(head, "{}", ctx.ui.dim().apply_to("no results"));
        return (head, None);
    }
    if response.verdict == Verdict::NoGoodMatch {
        let _ = writeln!(
            head,
            "{} {}\n",
            console::style("no good match:").yellow().bold(),
            ctx.ui.dim().apply_to("no indexed code holds these words or defines this name; the nearest hits follow")
        );
    }
    let number_width =
        response.hits.iter().map(|h| (h.end_line as usize + h.after.len()).to_string().len()).max().unwrap_or(1);
    let blocks: Vec<String> = response.hits.iter().map(|hit| hit_block(ctx, response, hit, number_width)).collect();
    let (mut out, footer) = within(ctx, head, &blocks, response, budget);
    definitions(ctx, response, &mut out);
    (out, footer)
}

/// One hit with its lines, numbered.
fn hit_block(ctx: &Context, response: &SearchResponse, hit: &Hit, number_width: usize) -> String {
    let mut out = String::new();
    {
        // File names, symbols and content come from the indexed files: shown with their
        // control characters escaped, never raw (a hostile file could drive the terminal).
        let location = format!("{}:{}", visible(&hit.path), hit.start_line);
        let mut header = format!("{}", console::style(&location).magenta().bold());
        if hit.end_line > hit.start_line {
            let _ = write!(header, "{}", ctx.ui.dim().apply_to(format!("-{}", hit.end_line)));
        }
        let about = label(ctx, hit);
        if !about.is_empty() {
            let _ = write!(header, "  {about}");
        }
        let parts: Vec<String> = [("vec", hit.vector_score), ("kw", hit.keyword_score)]
            .iter()
            .filter_map(|(label, v)| v.map(|v| format!("{label} {v:.2}")))
            .collect();
        let _ = write!(header, "  {}", console::style(format!("{:.2}", hit.score)).green());
        if !parts.is_empty() {
            let _ = write!(header, "{}", ctx.ui.dim().apply_to(format!(" ({})", parts.join(" · "))));
        }
        if hit.stale {
            let _ = write!(header, "  {}", console::style("changed since indexed").yellow());
        }
        if hit.index.as_str() != response.hits[0].index.as_str() || response.hits.iter().any(|h| h.index != hit.index) {
            let _ = write!(header, "  {}", ctx.ui.dim().apply_to(format!("[{}]", visible(&hit.index))));
        }
        let _ = writeln!(out, "{header}");
        let mut line_no = hit.start_line as usize - hit.before.len();
        let gutter = |n: usize, main: bool| {
            let text = format!("{n:>number_width$} │ ");
            if main { ctx.ui.dim().apply_to(text).to_string() } else { console::style(text).dim().italic().to_string() }
        };
        for l in &hit.before {
            let _ = writeln!(out, "{}{}", gutter(line_no, false), ctx.ui.dim().apply_to(visible_lines(l)));
            line_no += 1;
        }
        for l in hit.content.lines() {
            let _ = writeln!(out, "{}{}", gutter(line_no, true), visible_lines(l));
            line_no += 1;
        }
        for l in &hit.after {
            let _ = writeln!(out, "{}{}", gutter(line_no, false), ctx.ui.dim().apply_to(visible_lines(l)));
            line_no += 1;
        }
        out.push('\n');
    }
    out
}

/// `search -i`: a loop of queries; `:lang`, `:limit`, `:index`, `:mode` change settings.
fn interactive(ctx: &Context, mut index: IndexRef, mut options: SearchOptions) -> anyhow::Result<Exit> {
    let mut history = dialoguer::BasicHistory::new().max_entries(200).no_duplicates(true);
    errln!(
        "{}",
        ctx.ui.dim().apply_to(
            "type a query; :lang go, :limit 20, :index NAME, :mode keyword|vector|hybrid|auto, :help; Ctrl-D leaves"
        )
    );
    let workspace = ctx.workspace();
    loop {
        let searched = match (&options.indexes.index_names[..], index.name()) {
            ([], Some(name)) => name.to_string(),
            ([], None) => ctx.config.index_name(),
            (names, _) => names.join(","),
        };
        let prompt = format!("search [{searched}]");
        let line: String =
            match dialoguer::Input::<String>::new().with_prompt(prompt).history_with(&mut history).interact_text() {
                Ok(line) => line,
                Err(_) => return Ok(Exit::Success),
            };
        let line = line.trim();
        if let Some(command) = line.strip_prefix(':') {
            let (name, value) = command.split_once(' ').map_or((command, ""), |(n, v)| (n, v.trim()));
            match name {
                "lang" => {
                    options.files.language = value.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect()
                }
                "limit" => match value.parse() {
                    Ok(n) if n > 0 => options.limit = Some(n),
                    _ => errln!("usage: :limit N (N ≥ 1)"),
                },
                "index" if !value.is_empty() => {
                    options.indexes.index_names = value.split(',').map(|n| n.trim().to_string()).collect();
                    index.name.index_name = None;
                }
                "path" => options.files.path = (!value.is_empty()).then(|| value.to_string()),
                "mode" => {
                    options.mode = Some(match value {
                        "keyword" => SearchMode::Keyword,
                        "vector" => SearchMode::Vector,
                        "hybrid" => SearchMode::Hybrid,
                        _ => SearchMode::Auto,
                    });
                    (options.hybrid, options.no_hybrid, options.keyword) = (false, false, false);
                }
                "q" | "quit" | "exit" => return Ok(Exit::Success),
                _ => errln!(
                    ":lang LANGS · :limit N · :index NAME[,NAME] · :path GLOB · :mode keyword|vector|hybrid|auto · :quit"
                ),
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        match workspace.search(Caller::Command, &index, line, &options) {
            Ok(answer) => {
                print(&render(ctx, &answer.response, None).0)?;
                for w in &answer.response.warnings {
                    errln!("{} {}", console::style("warning:").yellow().bold(), visible_lines(w));
                }
            }
            Err(e) => errln!("{} {}", console::style("error:").red().bold(), visible_lines(&e.message)),
        }
    }
}
