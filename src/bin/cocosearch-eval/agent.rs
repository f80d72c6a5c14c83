//! Agent cost (`--agent-cost`): what a scripted agent reads to reach the code a task changes,
//! with search and without it. Tokens are counted with one tokenizer, OpenAI's `cl100k_base`
//! BPE (`tiktoken-rs`, ranks compiled in), over UTF-8 text (invalid bytes replaced).
//!
//! **Targets** (the changed code, at the base commit, in the base index):
//! * SWE-bench tasks: each `gold_functions` entry but `<module>`, found by qualified name among
//!   the definitions the index holds for its file (its line span; an entry naming a class
//!   covers the class). A gold file none of whose
//!   entries is found (only `<module>`, or a name the index does not define) is a target whole.
//! * Commit tasks: the lines `git diff -U0 base commit` removes or modifies in each gold file
//!   (for a pure insertion, the two base lines around it). Each changed line maps to the
//!   innermost function or method of the base index that encloses it (an insertion: that
//!   encloses both lines around it); the changed lines no function encloses are targets
//!   themselves, as runs of consecutive lines.
//!
//! **The agent**: one `search_code` call, limit 10, the query as the task gives it, built as the
//! MCP tool builds it (`workspace::search::request_of(Front::Mcp, …)` with the project's settings: smart context,
//! `search.maxContextLines`, no definitions). It reads the results in order; a result is a hit
//! when its path is a target's file and its lines (as shown) overlap the target's lines.
//! * Search tokens: the MCP text content up to and including the first hit — the compact JSON
//!   of `wire::search_json` (what `search_code` returns and `CallToolResult::structured` puts in
//!   its text content) with `results` cut after that hit; with no hit, all ten results. The
//!   `project`, `freshness` and `notes` fields `search_code` adds are not counted (they do not
//!   depend on the ranking).
//! * Fallback (grep and read), when no result is a hit: the query's identifiers
//!   ([`identifiers`]) are grepped as whole words, literally, case-sensitively, over the files
//!   the index walks (`cocosearch::grep`, ripgrep's matcher); the agent reads the list of
//!   matching files (`rg -l`: paths, one a line, in path order; its tokens count) and then each
//!   listed file whole, in that order, until it has read a gold file. When no listed file is a
//!   gold file (or no identifier matches), it then reads the list of every file the index
//!   walks and each file not yet read, in path order, until a gold file.
//!   The second ordering reported ("by matches") reads the listed files by the number of
//!   identifiers each matches, most first (path order among equals), then the same.
//! * A task's total: the search tokens, plus the fallback's when the search had no hit. The
//!   ratio is Σ total / Σ fallback alone (the fallback's tokens for every task, as if the agent
//!   had not searched).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::Context as _;
use cocosearch::chunk::SymbolKind;
use cocosearch::config::Config;
use cocosearch::grep::{Case, GrepRequest, Pattern, Polarity, Report, Syntax};
use cocosearch::search::{Hit, Mode, SearchRequest, SearchResponse, Searcher, Tuning};
use cocosearch::store::{DefQuery, IndexReader, StoredDef};
use cocosearch::wire::budget::{self, Page};
use cocosearch::workspace::Front;
use cocosearch::workspace::inputs::{PageOptions, SearchOptions};

use crate::repos::Changed;
use crate::{EvalMode, Setup};

/// Results the agent asks for.
pub const LIMIT: usize = 10;
/// Identifiers grepped at most (the first ones in the query).
pub const MAX_IDENTIFIERS: usize = 10;
/// The MCP tool's bounds (`mcp::tools::MAX_LIMIT`, `MAX_CONTEXT`).
/// The tokenizer's name, for the report.
pub const TOKENIZER: &str = "cl100k_base (tiktoken-rs)";

/// Tokens of `text`.
pub fn tokens(text: &str) -> usize {
    tiktoken_rs::cl100k_base_singleton().count_ordinary(text)
}

/// Lines of one file the task changed (or the whole file: `start` 1, `end` u32::MAX).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Target {
    pub path: String,
    pub start: u32,
    pub end: u32,
    /// The function's qualified name; `None` for lines no function encloses, or a whole file.
    pub name: Option<String>,
}

impl Target {
    fn whole(path: &str) -> Target {
        Target { path: path.to_string(), start: 1, end: u32::MAX, name: None }
    }

    /// Whether a result at `path`, lines `start..=end`, shows some of it.
    pub fn shown_by(&self, path: &str, start: u32, end: u32) -> bool {
        self.path == path && start <= self.end && self.start <= end
    }
}

/// The definitions of `paths` in the index of these kinds (empty: every kind), by file.
fn definitions(reader: &dyn IndexReader, paths: &[String], kinds: &[SymbolKind]) -> anyhow::Result<Vec<StoredDef>> {
    let query = DefQuery { paths: paths.to_vec(), kinds: kinds.to_vec(), limit: 1_000_000, ..DefQuery::default() };
    Ok(reader.definitions(&query)?)
}

const CALLABLE: &[SymbolKind] = &[SymbolKind::Function, SymbolKind::Method];

/// SWE-bench targets: the gold functions' spans; a gold file with none found is whole.
/// Returns the targets and the entries not found (besides `<module>`).
pub fn function_targets(
    reader: &dyn IndexReader,
    gold_files: &[String],
    gold_functions: &[String],
) -> anyhow::Result<(Vec<Target>, Vec<String>)> {
    // A gold entry can name a class (a change in its body outside any method).
    let defs = definitions(reader, gold_files, &[])?;
    let mut targets = Vec::new();
    let mut unresolved = Vec::new();
    for gold in gold_functions {
        let Some((path, name)) = gold.split_once("::") else { continue };
        if name == "<module>" {
            continue;
        }
        let found: Vec<&StoredDef> = defs
            .iter()
            .filter(|d| d.path == path && d.symbol.qualified_name.replace("::", ".") == name.replace("::", "."))
            .collect();
        if found.is_empty() {
            unresolved.push(gold.clone());
        }
        for d in found {
            if let (Some(start), Some(end)) = (d.symbol.start_line, d.symbol.end_line) {
                targets.push(Target { path: path.to_string(), start, end, name: Some(name.to_string()) });
            }
        }
    }
    for file in gold_files {
        if !targets.iter().any(|t| &t.path == file) {
            targets.push(Target::whole(file));
        }
    }
    targets.sort();
    targets.dedup();
    Ok((targets, unresolved))
}

/// A function's span and name, for [`enclosing_targets`].
#[derive(Debug, Clone)]
pub struct Span {
    pub name: String,
    pub start: u32,
    pub end: u32,
}

/// The targets of one file's changed lines: for each changed line the innermost span that
/// encloses it, and runs of the lines none encloses.
pub fn enclosing_targets(path: &str, changed: &[Changed], spans: &[Span]) -> Vec<Target> {
    let innermost = |first: u32, last: u32| {
        spans.iter().filter(|s| s.start <= first && last <= s.end).min_by_key(|s| (s.end - s.start, s.start))
    };
    let mut targets: Vec<Target> = Vec::new();
    let mut outside: Vec<u32> = Vec::new();
    let mut take = |first: u32, last: u32, outside: &mut Vec<u32>| match innermost(first, last) {
        Some(s) => {
            targets.push(Target { path: path.to_string(), start: s.start, end: s.end, name: Some(s.name.clone()) })
        }
        None => outside.extend(first..=last),
    };
    for change in changed {
        match *change {
            Changed::Lines(start, end) => (start..=end).for_each(|line| take(line, line, &mut outside)),
            Changed::After(0) => take(1, 1, &mut outside),
            Changed::After(line) => take(line, line + 1, &mut outside),
        }
    }
    outside.sort_unstable();
    outside.dedup();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for line in outside {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == line => *end = line,
            _ => runs.push((line, line)),
        }
    }
    targets.extend(runs.into_iter().map(|(start, end)| Target { path: path.to_string(), start, end, name: None }));
    targets.sort();
    targets.dedup();
    targets
}

/// Commit targets: each gold file's changed lines mapped to the base index's functions.
pub fn diff_targets(reader: &dyn IndexReader, changed: &BTreeMap<String, Vec<Changed>>) -> anyhow::Result<Vec<Target>> {
    let paths: Vec<String> = changed.keys().cloned().collect();
    let defs = definitions(reader, &paths, CALLABLE)?;
    let mut targets = Vec::new();
    for (path, lines) in changed {
        let spans: Vec<Span> = defs
            .iter()
            .filter(|d| &d.path == path)
            .filter_map(|d| {
                Some(Span {
                    name: d.symbol.qualified_name.clone(),
                    start: d.symbol.start_line?,
                    end: d.symbol.end_line?,
                })
            })
            .collect();
        targets.extend(enclosing_targets(path, lines, &spans));
    }
    Ok(targets)
}

/// The identifiers an agent would grep for in `query`, first appearance first, at most
/// [`MAX_IDENTIFIERS`]. A word is a run of letters, digits, `_` and `.` (`::` counts as `.`),
/// with the dots at its ends dropped; a dotted word is judged segment by segment. A word (or
/// segment) of at least 3 characters that starts with a letter or `_` is an identifier when
/// * it has a `_` and a letter (snake_case, SCREAMING_CASE, `_private`), or
/// * it has an upper-case letter right after a lower-case one (camelCase, PascalCase), or an
///   acronym followed by a word (`HTTPServer`, `IOError`; not `URLs`), or
/// * it is followed by `(` (a call: `url()`; not a conventional commit's `fix(scope):`), or
/// * it lies between single backticks (`` `cite` ``).
///
/// Plain words (`Session`, `fix`, `HTTP`) are not: they are prose as often as code.
pub fn identifiers(query: &str) -> Vec<String> {
    let text = query.replace("::", ".");
    let chars: Vec<char> = text.chars().collect();
    let word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    // Backtick spans: a single backtick opens one, the next closes it (``` fences are not spans).
    let mut in_code = vec![false; chars.len()];
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' {
            let fence = chars.get(i + 1) == Some(&'`');
            if fence {
                while i < chars.len() && chars[i] == '`' {
                    i += 1;
                }
                continue;
            }
            if let Some(close) = (i + 1..chars.len()).find(|&j| chars[j] == '`' || chars[j] == '\n') {
                if chars[close] == '`' {
                    in_code[i + 1..close].iter_mut().for_each(|c| *c = true);
                }
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    let mut found: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !word_char(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && word_char(chars[i]) {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        let word = word.trim_matches('.');
        let call = chars.get(i) == Some(&'(') && !conventional_prefix(&chars, start, i);
        let code = in_code[start];
        let segments: Vec<&str> = word.split('.').filter(|s| !s.is_empty()).collect();
        let last = segments.len().saturating_sub(1);
        for (n, segment) in segments.iter().enumerate() {
            if shaped(segment, code || (call && n == last)) && !found.iter().any(|f| f == segment) {
                found.push(segment.to_string());
            }
        }
    }
    found.truncate(MAX_IDENTIFIERS);
    found
}

/// Whether the word at `start..end` opens a line as a conventional commit's type does
/// (`fix(stats): …`, `feat(api)!: …`): a label, not a call.
fn conventional_prefix(chars: &[char], start: usize, end: usize) -> bool {
    if start > 0 && chars[start - 1] != '\n' {
        return false;
    }
    let Some(close) = chars[end..].iter().position(|&c| c == ')' || c == '\n').map(|p| end + p) else { return false };
    let after = |n: usize| chars.get(close + n).copied();
    chars[close] == ')' && (after(1) == Some(':') || after(1) == Some('!') && after(2) == Some(':'))
}

/// Whether one word is identifier-shaped (see [`identifiers`]); `marked`: in backticks or called.
fn shaped(word: &str, marked: bool) -> bool {
    let chars: Vec<char> = word.chars().collect();
    if chars.len() < 3 || !chars[0].is_alphabetic() && chars[0] != '_' {
        return false;
    }
    if !chars.iter().all(|c| c.is_alphanumeric() || *c == '_') {
        return false;
    }
    let snake = chars.contains(&'_') && chars.iter().any(|c| c.is_alphabetic());
    // camelCase, PascalCase; or an acronym that a word follows (HTTPServer, IOError: not URLs).
    let camel = chars.windows(2).any(|w| w[0].is_lowercase() && w[1].is_uppercase())
        || chars
            .windows(4)
            .any(|w| w[0].is_uppercase() && w[1].is_uppercase() && w[2].is_lowercase() && w[3].is_lowercase());
    snake || camel || marked
}

/// What the grep-and-read fallback read.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Fallback {
    pub identifiers: Vec<String>,
    /// Files the identifiers matched.
    pub matched: usize,
    /// Tokens in path order, and with files read by identifiers matched.
    pub tokens: usize,
    pub tokens_by_matches: usize,
    /// Files read whole (path order).
    pub files_read: usize,
    /// No matched file was a gold file: the agent went on to the list of every file.
    pub listed_all: bool,
    /// A gold file was read at last (false: none is among the walked files).
    pub reached: bool,
}

/// Reads a file's tokens, cached by content.
#[derive(Default)]
pub struct FileTokens {
    by_hash: HashMap<[u8; 32], usize>,
}

impl FileTokens {
    fn of(&mut self, root: &Path, path: &str) -> usize {
        let Ok(bytes) = std::fs::read(root.join(path)) else { return 0 };
        let hash = *blake3::hash(&bytes).as_bytes();
        *self.by_hash.entry(hash).or_insert_with(|| tokens(&String::from_utf8_lossy(&bytes)))
    }
}

/// The cost of reading, in `order`, until a gold file; then, if none was, the list of `all`
/// files and the rest of them in path order. Returns (tokens, files read, listed all, reached).
pub fn read_until_gold(
    listing_tokens: usize,
    order: &[String],
    all: &[String],
    gold: &HashSet<String>,
    mut file_tokens: impl FnMut(&str) -> usize,
) -> (usize, usize, bool, bool) {
    let mut total = listing_tokens;
    let mut read = 0;
    for path in order {
        total += file_tokens(path);
        read += 1;
        if gold.contains(path) {
            return (total, read, false, true);
        }
    }
    total += tokens(&all.join("\n"));
    let done: HashSet<&String> = order.iter().collect();
    for path in all.iter().filter(|p| !done.contains(p)) {
        total += file_tokens(path);
        read += 1;
        if gold.contains(path) {
            return (total, read, true, true);
        }
    }
    (total, read, true, false)
}

/// The fallback for one task.
fn fallback(
    config: &Config,
    root: &Path,
    query: &str,
    gold: &HashSet<String>,
    files: &mut FileTokens,
) -> anyhow::Result<Fallback> {
    let options = cocosearch::workspace::grep::walk_options(root, &config.settings.indexing);
    let ids = identifiers(query);
    let grep_request = |patterns: Vec<String>| GrepRequest {
        pattern: Pattern { patterns, syntax: Syntax::Fixed, case: Case::Sensitive, word: true, multiline: false },
        polarity: Polarity::Matching,
        before: 0,
        after: 0,
        max_count: None,
        report: Report::Files,
        globs: Vec::new(),
        languages: Vec::new(),
        paths: Vec::new(),
        limit: None,
        sort: cocosearch::grep::Sort::default(),
        replace: None,
    };
    // Per identifier, to order by matches; the listing is their union in path order.
    let mut matches: BTreeMap<String, usize> = BTreeMap::new();
    for id in &ids {
        cocosearch::grep::grep(&options, &grep_request(vec![id.clone()]), |m| {
            *matches.entry(m.path).or_default() += 1;
            ControlFlow::Continue(())
        })?;
    }
    let listed: Vec<String> = matches.keys().cloned().collect();
    let listing_tokens = if listed.is_empty() { 0 } else { tokens(&listed.join("\n")) };
    let (all, _) = cocosearch::grep::files(&options, &grep_request(vec![String::new()]))?;
    let mut by_matches = listed.clone();
    by_matches.sort_by(|a, b| matches[b].cmp(&matches[a]).then(a.cmp(b)));
    let (tokens_path, files_read, listed_all, reached) =
        read_until_gold(listing_tokens, &listed, &all, gold, |p| files.of(root, p));
    let (tokens_by_matches, ..) = read_until_gold(listing_tokens, &by_matches, &all, gold, |p| files.of(root, p));
    Ok(Fallback {
        identifiers: ids,
        matched: listed.len(),
        tokens: tokens_path,
        tokens_by_matches,
        files_read,
        listed_all,
        reached,
    })
}

/// The search half: the rank of the first hit (0-based) and the tokens read up to it (all
/// results when none), and the tokens of the whole answer.
pub fn search_tokens(answer: &serde_json::Value, hits: &[Hit], targets: &[Target]) -> (Option<usize>, usize, usize) {
    let first = hits.iter().position(|h| targets.iter().any(|t| t.shown_by(&h.path, h.start_line, h.end_line)));
    let whole = tokens(&answer.to_string());
    let read = match first {
        Some(rank) => {
            let mut cut = answer.clone();
            if let Some(results) = cut.get_mut("results").and_then(|r| r.as_array_mut()) {
                results.truncate(rank + 1);
            }
            tokens(&cut.to_string())
        }
        None => whole,
    };
    (first, read, whole)
}

/// One search of a task.
struct Run<'a> {
    setup: &'a Setup,
    config: &'a Config,
    index: &'a str,
    query: &'a str,
    mode: Mode,
    tuning: Tuning,
    targets: &'a [Target],
}

impl Run<'_> {
    /// The search `search_code` runs with this limit and offset.
    fn search(&self, limit: usize, offset: usize) -> anyhow::Result<(SearchRequest, SearchResponse)> {
        let page = PageOptions { max_tokens: None, offset: Some(offset) };
        let options = SearchOptions { limit: Some(limit), page, ..SearchOptions::default() };
        let mut request = cocosearch::workspace::search::request_of(Front::Mcp, self.config, self.query, &options);
        request.indexes = vec![self.index.to_string()];
        request.mode = self.mode;
        let setup = self.setup;
        let searcher = Searcher {
            store: setup.store.as_ref(),
            embedders: &setup.embedders,
            cache: &setup.cache,
            tuning: self.tuning,
        };
        let mut response = searcher.search(&request)?;
        // The searcher returns the first offset + limit hits; the tool skips the offset.
        response.hits.drain(..offset.min(response.hits.len()));
        Ok((request, response))
    }
}

/// The name of a mode's runs within a budget.
fn budgeted(mode: &str, budget: usize) -> String {
    format!("{mode}-{}k", budget as f64 / 1000.0)
}

/// Pages read at most when the hit is always in `more`.
const MAX_PAGES: usize = 3;

/// The budgeted agent: search_code's compact answer within `max_tokens` (its text), read up to
/// the first result showing a target; when none does but a hit left out (`more`) is at a
/// target, the next page, and so on. Returns the rank of the hit (0-based, over all pages),
/// the tokens read, and the first page's tokens.
fn compact_pages(run: &Run, max_tokens: usize, limit: usize) -> anyhow::Result<(Option<usize>, usize, usize)> {
    let (mut offset, mut read, mut first_page) = (0, 0, None);
    for _ in 0..MAX_PAGES {
        let (request, response) = run.search(limit, offset)?;
        let mut value = cocosearch::wire::compact_response_json(&request, &response);
        let fit = cocosearch::wire::search_fit(offset, Some(&cocosearch::wire::compact_search_text));
        let paged = budget::fit(&mut value, &fit, Page { max_tokens, offset: 0 });
        let whole = tokens(&cocosearch::wire::compact_search_text(&value));
        first_page.get_or_insert(whole);
        let shows = |item: &serde_json::Value| {
            let (path, lines) = (item["path"].as_str().unwrap_or_default(), item["lines"].as_str().unwrap_or_default());
            let (start, end) = lines.split_once('-').unwrap_or((lines, lines));
            let (start, end) = (start.parse().unwrap_or(0), end.parse().unwrap_or(0));
            run.targets.iter().any(|t| t.shown_by(path, start, end))
        };
        let results = value["results"].as_array().cloned().unwrap_or_default();
        if let Some(rank) = results.iter().position(shows) {
            let mut cut = value.clone();
            cut["results"] = serde_json::Value::Array(results[..=rank].to_vec());
            if let Some(object) = cut.as_object_mut() {
                object.remove("more");
            }
            read += tokens(&cocosearch::wire::compact_search_text(&cut));
            return Ok((Some(offset + rank), read, first_page.unwrap_or(whole)));
        }
        read += whole;
        let previewed = value["more"].as_array().is_some_and(|more| more.iter().any(shows));
        match paged.next_offset {
            Some(next) if previewed => offset = next,
            _ => break,
        }
    }
    Ok((None, read, first_page.unwrap_or(0)))
}

/// One task's agent cost in one mode.
#[derive(Debug, Clone, serde::Serialize)]
struct Row {
    instance_id: String,
    group: String,
    /// 1-based rank of the first hit within the 10 results.
    found_at: Option<usize>,
    search_tokens: usize,
    answer_tokens: usize,
    total_tokens: usize,
    total_tokens_by_matches: usize,
    fallback: Fallback,
    targets: Vec<Target>,
}

/// The agent-cost runs of one evaluation: rows by mode, and their files.
#[derive(Default)]
pub struct AgentCost {
    rows: BTreeMap<String, Vec<Row>>,
    outputs: BTreeMap<String, std::fs::File>,
    /// The budgets (`max_tokens`) of the compact answers tried, and their searches' limit.
    budgets: Vec<usize>,
    budget_limit: usize,
    files: FileTokens,
    /// Tasks whose targets include a whole file (no function found for it).
    whole_file_tasks: Vec<String>,
    unresolved: Vec<String>,
}

impl AgentCost {
    pub fn new(
        setup: &Setup,
        out: &str,
        modes: &[EvalMode],
        budgets: &[usize],
        budget_limit: usize,
    ) -> anyhow::Result<AgentCost> {
        let mut cost = AgentCost { budgets: budgets.to_vec(), budget_limit, ..AgentCost::default() };
        for (mode, _, _) in modes {
            for name in std::iter::once(mode.to_string()).chain(budgets.iter().map(|b| budgeted(mode, *b))) {
                let path = setup.cwd.join(format!("{out}-agent-{name}.jsonl"));
                let file = std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
                cost.outputs.insert(name, file);
            }
        }
        Ok(cost)
    }

    pub fn note_unresolved(&mut self, instance_id: &str, targets: &[Target], unresolved: Vec<String>) {
        if targets.iter().any(|t| t.end == u32::MAX) {
            self.whole_file_tasks.push(instance_id.to_string());
        }
        self.unresolved.extend(unresolved);
    }

    /// Runs the agent on one task in every mode.
    #[allow(
        clippy::too_many_arguments,
        reason = "one task's setup, query, mode, tuning and targets: a struct would only rename them"
    )]
    pub fn task(
        &mut self,
        setup: &Setup,
        config: &Config,
        index: &str,
        root: &Path,
        (instance_id, group, query): (&str, &str, &str),
        gold_files: &[String],
        targets: &[Target],
        modes: &[EvalMode],
    ) -> anyhow::Result<()> {
        let gold: HashSet<String> = gold_files.iter().cloned().collect();
        let fallback = fallback(config, root, query, &gold, &mut self.files)?;
        for (name, mode, tuning) in modes {
            let run = Run { setup, config, index, query, mode: *mode, tuning: *tuning, targets };
            let mut reads = vec![(name.to_string(), self.search(&run)?)];
            for &budget in &self.budgets {
                reads.push((budgeted(name, budget), compact_pages(&run, budget, self.budget_limit)?));
            }
            for (name, (first, search, whole)) in reads {
                let (total, total_by_matches) = match first {
                    Some(_) => (search, search),
                    None => (search + fallback.tokens, search + fallback.tokens_by_matches),
                };
                let row = Row {
                    instance_id: instance_id.to_string(),
                    group: group.to_string(),
                    found_at: first.map(|r| r + 1),
                    search_tokens: search,
                    answer_tokens: whole,
                    total_tokens: total,
                    total_tokens_by_matches: total_by_matches,
                    fallback: fallback.clone(),
                    targets: targets.to_vec(),
                };
                writeln!(self.outputs.get_mut(&name).context("agent output")?, "{}", serde_json::to_string(&row)?)?;
                self.rows.entry(name).or_default().push(row);
            }
        }
        Ok(())
    }

    /// The unbudgeted answer: `search_json`, read up to the first hit.
    fn search(&self, run: &Run) -> anyhow::Result<(Option<usize>, usize, usize)> {
        let (request, response) = run.search(LIMIT, 0)?;
        let answer = cocosearch::wire::search_json(&request, &response);
        Ok(search_tokens(&answer, &response.hits, run.targets))
    }

    /// Prints the tables: by mode, pooled and by group.
    pub fn report(&self, suite: &str) {
        println!("\nAgent cost ({suite}): search_code limit {LIMIT}, else grep and read; tokens: {TOKENIZER}");
        println!(
            "  found = a result within {LIMIT} shows changed lines; tok found / tok missed = mean total tokens \
             of those tasks; fallback = mean tokens of grep and read alone; Σ ratio = Σ total / Σ fallback alone \
             (grep's order; by-matches order in brackets); median = the median of the tasks' total / fallback"
        );
        println!(
            "  {:<10} {:<18} {:>4} {:>7} {:>10} {:>12} {:>13} {:>13} {:>8} {:>10}",
            "mode", "group", "n", "found%", "tok found", "tok missed", "fallback", "Σ ratio", "median", "mean rank"
        );
        for (mode, rows) in &self.rows {
            let mut groups: Vec<&str> = rows.iter().map(|r| r.group.as_str()).collect();
            groups.sort_unstable();
            groups.dedup();
            let all: Vec<&Row> = rows.iter().collect();
            print_row(mode, "all", &all);
            if groups.len() > 1 {
                for group in groups {
                    let some: Vec<&Row> = rows.iter().filter(|r| r.group == group).collect();
                    print_row(mode, group, &some);
                }
            }
        }
        if let Some(rows) = self.rows.values().next() {
            let n = rows.len();
            let listed_all = rows.iter().filter(|r| r.fallback.listed_all).count();
            let unreached = rows.iter().filter(|r| !r.fallback.reached).count();
            let no_ids = rows.iter().filter(|r| r.fallback.identifiers.is_empty()).count();
            let targets: usize = rows.iter().map(|r| r.targets.len()).sum();
            let named = rows.iter().flat_map(|r| &r.targets).filter(|t| t.name.is_some()).count();
            println!(
                "  fallback: {no_ids} of {n} queries have no identifier; for {listed_all} no matched file is a gold \
                 file (the agent went on to every file in path order); {unreached} never reach a gold file"
            );
            println!(
                "  targets: {targets} ({named} functions or methods, the rest lines outside one or whole files); \
                 {} tasks have a whole gold file as a target",
                self.whole_file_tasks.len()
            );
            if !self.unresolved.is_empty() {
                println!(
                    "  gold functions the base index does not define ({}): {}",
                    self.unresolved.len(),
                    self.unresolved.join(", ")
                );
            }
        }
    }
}

fn print_row(mode: &str, group: &str, rows: &[&Row]) {
    let n = rows.len();
    if n == 0 {
        return;
    }
    let found: Vec<&&Row> = rows.iter().filter(|r| r.found_at.is_some()).collect();
    let missed: Vec<&&Row> = rows.iter().filter(|r| r.found_at.is_none()).collect();
    let mean = |v: &[&&Row], f: &dyn Fn(&Row) -> usize| {
        if v.is_empty() { f64::NAN } else { v.iter().map(|r| f(r) as f64).sum::<f64>() / v.len() as f64 }
    };
    let total: usize = rows.iter().map(|r| r.total_tokens).sum();
    let total_by_matches: usize = rows.iter().map(|r| r.total_tokens_by_matches).sum();
    let alone: usize = rows.iter().map(|r| r.fallback.tokens).sum();
    let alone_by_matches: usize = rows.iter().map(|r| r.fallback.tokens_by_matches).sum();
    let rank = mean(&found, &|r| r.found_at.unwrap_or(0));
    // A few tasks whose fallback reads thousands of files weigh most in Σ: the median of the
    // tasks' own ratios says what a typical task saves.
    let mut ratios: Vec<f64> = rows.iter().map(|r| r.total_tokens as f64 / r.fallback.tokens.max(1) as f64).collect();
    ratios.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 { ratios[n / 2] } else { (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0 };
    println!(
        "  {mode:<10} {group:<18} {n:>4} {:>7.1} {:>10.0} {:>12.0} {:>13.0} {:>5.3} [{:.3}] {:>8.3} {:>10.1}",
        100.0 * found.len() as f64 / n as f64,
        mean(&found, &|r| r.total_tokens),
        mean(&missed, &|r| r.total_tokens),
        alone as f64 / n as f64,
        total as f64 / alone.max(1) as f64,
        total_by_matches as f64 / alone_by_matches.max(1) as f64,
        median,
        rank
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_code_shaped_words() {
        let query = "Fix: Register url as composure metadata function\n\n\
                     Added `url` to the `cite` declaration; url() was undefined when bash_it.sh \
                     was not loaded. Session.resolve_redirects and getUserById, HTTPServer too; \
                     not HTTP, URLs, Session or fix. requests.Session.send() and std::fs::read_to_string.\n\
                     ```bash\ncite _about _param\n```";
        assert_eq!(
            identifiers(query),
            vec![
                "url",
                "cite",
                "bash_it",
                "resolve_redirects",
                "getUserById",
                "HTTPServer",
                "send",
                "read_to_string",
                "_about",
                "_param"
            ]
        );
        assert!(identifiers("Show h4 headings in TOCs").is_empty());
        // A conventional commit's type is no call; a call on the first line still is.
        assert!(identifiers("fix(stats): use the cpu time\n\nfeat(api)!: more").is_empty());
        assert_eq!(identifiers("setup() fails offline"), vec!["setup"]);
        // At most MAX_IDENTIFIERS, in order of appearance.
        let many: String = (0..20).map(|i| format!("name_{i} ")).collect();
        assert_eq!(identifiers(&many).len(), MAX_IDENTIFIERS);
        assert_eq!(identifiers(&many)[0], "name_0");
    }

    #[test]
    fn changed_lines_map_to_the_innermost_enclosing_function() {
        let spans = vec![
            Span { name: "C".into(), start: 1, end: 40 },
            Span { name: "C.f".into(), start: 2, end: 10 },
            Span { name: "C.g".into(), start: 12, end: 20 },
            Span { name: "h".into(), start: 50, end: 60 },
        ];
        let t = |start, end, name: Option<&str>| Target { path: "a.py".into(), start, end, name: name.map(Into::into) };
        // Lines 5-6 in f; 11 between f and g (in C only: C is the innermost); 44-45 in nothing;
        // an insertion after 55 (in h); an insertion after 60 (h's last line, 61 outside).
        let changed = [Changed::Lines(5, 6), Changed::Lines(11, 11), Changed::Lines(44, 45), Changed::After(55)];
        assert_eq!(
            enclosing_targets("a.py", &changed, &spans),
            vec![t(1, 40, Some("C")), t(2, 10, Some("C.f")), t(44, 45, None), t(50, 60, Some("h"))]
        );
        assert_eq!(enclosing_targets("a.py", &[Changed::After(60)], &spans), vec![t(60, 61, None)]);
        assert_eq!(enclosing_targets("a.py", &[Changed::After(0)], &spans), vec![t(1, 40, Some("C"))]);
        // A change across f and g's gap: each line maps on its own.
        assert_eq!(
            enclosing_targets("a.py", &[Changed::Lines(10, 12)], &spans),
            vec![t(1, 40, Some("C")), t(2, 10, Some("C.f")), t(12, 20, Some("C.g"))]
        );
    }

    #[test]
    fn a_target_is_shown_by_overlapping_lines_of_its_file() {
        let target = Target { path: "a.py".into(), start: 10, end: 20, name: None };
        assert!(target.shown_by("a.py", 20, 30));
        assert!(target.shown_by("a.py", 1, 10));
        assert!(!target.shown_by("a.py", 21, 30));
        assert!(!target.shown_by("b.py", 10, 20));
        assert!(Target::whole("a.py").shown_by("a.py", 5000, 5001));
    }

    #[test]
    fn the_fallback_reads_until_a_gold_file() {
        let paths = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        let all = paths(&["a", "b", "c", "d", "e"]);
        let gold: HashSet<String> = ["d".to_string()].into();
        let size = |p: &str| (p.as_bytes()[0] - b'a' + 1) as usize * 100; // a 100 … e 500
        // Grep listed b, d, e: read b then d.
        assert_eq!(read_until_gold(7, &paths(&["b", "d", "e"]), &all, &gold, size), (7 + 200 + 400, 2, false, true));
        // Grep listed b and e only: both read, then the full listing and a, c, d.
        let listing = tokens("a\nb\nc\nd\ne");
        assert_eq!(
            read_until_gold(7, &paths(&["b", "e"]), &all, &gold, size),
            (7 + 200 + 500 + listing + 100 + 300 + 400, 5, true, true)
        );
        // A gold file outside the walk: everything is read.
        let gone: HashSet<String> = ["z".to_string()].into();
        assert_eq!(read_until_gold(0, &[], &all, &gone, size), (listing + 1500, 5, true, false));
    }

    #[test]
    fn search_tokens_stop_at_the_first_hit() {
        let hit = |path: &str, start: u32, end: u32| Hit {
            index: "i".into(),
            root: "/r".into(),
            path: path.into(),
            start_line: start,
            end_line: end,
            language: "python".into(),
            symbol_type: None,
            symbol_name: None,
            qualified_name: None,
            signature: None,
            symbols: vec![],
            enclosing: None,
            score: 1.0,
            vector_score: None,
            keyword_score: None,
            parse_status: cocosearch::chunk::ParseStatus::Ok,
            content: "def f():\n    return 1\n".into(),
            before: vec![],
            after: vec![],
            stale: false,
        };
        let hits = vec![hit("b.py", 1, 5), hit("a.py", 8, 12), hit("a.py", 30, 40)];
        let answer = serde_json::json!({
            "query": "q", "results": hits.iter().map(cocosearch::wire::hit_json).collect::<Vec<_>>()
        });
        let targets = vec![Target { path: "a.py".into(), start: 10, end: 20, name: None }];
        let (first, read, whole) = search_tokens(&answer, &hits, &targets);
        assert_eq!(first, Some(1));
        let mut two = answer.clone();
        two["results"].as_array_mut().unwrap().truncate(2);
        assert_eq!(read, tokens(&two.to_string()));
        assert_eq!(whole, tokens(&answer.to_string()));
        assert!(read < whole);
        // No hit: everything was read.
        let elsewhere = vec![Target { path: "c.py".into(), start: 1, end: 2, name: None }];
        assert_eq!(search_tokens(&answer, &hits, &elsewhere), (None, whole, whole));
        // The tokenizer is cl100k_base.
        assert_eq!(tokens("hello world"), 2);
    }
}
