//! The code graph commands: `symbol`, `refs`, `deps`, `impact`, `path` and `outline`.
//!
//! Each opens the project's index (or `--index`), asks the [`Graph`] engine, and prints the
//! answer for people (coloured, one line per item, trees for dependencies) or as the JSON of
//! `wire` (`--json`, or when piped). Nothing found is an answer, not an error: exit code 0
//! with the closest names; a missing index is a failure (1); a bad flag or a path outside
//! the project is a usage error (2).

use std::fmt::Write as _;
use std::path::Path;

use super::args::{DepsArgs, GraphArgs, ImpactArgs, OutlineArgs, PathArgs, RefsArgs, SymbolArgs};
use super::output::{errln, print, print_json, visible, visible_lines};
use super::{Context, Exit, UsageError, failed};
use crate::wire;
use crate::workspace::graph::{Certainty, ChainSearch, Definition, DepEdge, Graph, Resolution, Scope, name_given};
use crate::workspace::graphs::Graphs;
use crate::workspace::inputs::IndexList;
use crate::workspace::languages::Language;
use crate::workspace::{Caller, Front, Need, Target};

/// Levels of symbol impact followed when `--depth` is not given.
const SYMBOL_DEPTH: usize = 3;

/// The index a graph command reads, opened through the workspace.
fn open(ctx: &Context, args: &GraphArgs) -> anyhow::Result<(Target, Graph)> {
    let target = ctx.workspace().open(Caller::Command, &args.index, Need::Index).map_err(failed)?;
    let graph = target.graph().map_err(failed)?;
    Ok((target, graph))
}

fn scope(args: &GraphArgs) -> anyhow::Result<Scope> {
    args.options.scope(Front::Command).map_err(failed)
}

/// JSON when asked; text otherwise, on a terminal or piped (as rg's output is).
fn as_json(_ctx: &Context, args: &GraphArgs) -> bool {
    args.json
}

fn limit(args: &GraphArgs) -> usize {
    args.options.limit()
}

/// A file argument as the engine takes it: a path that exists from the working directory
/// becomes absolute (the engine makes it relative to the project root); anything else (a
/// path from the root, a bare file name) is passed as written.
fn file_arg(ctx: &Context, written: &str) -> String {
    let here = ctx.cwd.join(written);
    if here.exists()
        && let Ok(absolute) = here.canonicalize()
    {
        return absolute.display().to_string();
    }
    written.to_string()
}

/// Whether an argument names a file rather than a symbol: it has a `/`, exists on disk, or
/// has the extension of a known language (`os.py`; `Request.send` has none).
fn is_file_arg(ctx: &Context, written: &str) -> bool {
    written.contains('/')
        || written.contains('\\')
        || ctx.cwd.join(written).exists()
        || (Language::detect(Path::new(written), "").is_some() && !written.contains("::"))
}

fn hint_line(ctx: &Context, text: &str) -> String {
    format!("{}\n", ctx.ui.dim().apply_to(visible(text)))
}

fn location(path: &str, start: u32, end: u32) -> String {
    let mut loc = format!("{}", console::style(format!("{}:{start}", visible(path))).magenta().bold());
    if end > start {
        loc.push_str(&format!("{}", console::Style::new().dim().apply_to(format!("-{end}"))));
    }
    loc
}

fn stale_mark(stale: bool) -> String {
    if stale { format!("  {}", console::style("changed since indexed").yellow()) } else { String::new() }
}

fn definition_line(ctx: &Context, d: &Definition) -> String {
    format!(
        "{}  {} {}  {}{}",
        location(&d.path, d.start_line, d.end_line),
        ctx.ui.dim().apply_to(d.kind.as_str()),
        console::style(visible(&d.qualified_name)).cyan(),
        visible(&d.signature),
        stale_mark(d.stale)
    )
}

fn certainty_mark(ctx: &Context, c: Certainty) -> String {
    match c {
        Certainty::Exact => String::new(),
        Certainty::Heuristic => format!("  {}", ctx.ui.dim().apply_to("(heuristic)")),
    }
}

/// The graphs of the index named and of `--indexes`, the warnings about those left out
/// printed.
fn open_graphs(ctx: &Context, args: &GraphArgs, indexes: &IndexList) -> anyhow::Result<Graphs> {
    let graphs = ctx.workspace().open_graphs(Caller::Command, &args.index, &indexes.index_names).map_err(failed)?;
    for warning in &graphs.warnings {
        errln!("{} {}", console::style("warning:").yellow().bold(), visible_lines(warning));
    }
    Ok(graphs)
}

/// `value` naming the index (or indexes) read and, when several, each of its `key` results'.
fn with_indexes(mut value: serde_json::Value, graphs: &Graphs, tagged: &[(&str, &[String])]) -> serde_json::Value {
    value["index"] = serde_json::json!(graphs.first().0.index);
    if graphs.several() {
        value["indexes"] = serde_json::json!(graphs.names());
        for (key, indexes) in tagged {
            if let Some(items) = value[*key].as_array_mut() {
                for (item, index) in items.iter_mut().zip(indexes.iter()) {
                    item["index"] = serde_json::json!(index);
                }
            }
        }
    }
    value
}

/// A result's index in text output, when several are read.
fn index_mark(ctx: &Context, graphs: &Graphs, index: &str) -> String {
    if graphs.several() {
        format!("{}  ", ctx.ui.dim().apply_to(format!("[{}]", visible(index))))
    } else {
        String::new()
    }
}

/// `cocosearch symbol`.
pub fn symbol(ctx: &Context, args: &SymbolArgs) -> anyhow::Result<Exit> {
    let kinds = args.kinds.kinds(Front::Command).map_err(failed)?;
    name_given(&args.name, "the symbol name", Front::Command).map_err(failed)?;
    let graphs = open_graphs(ctx, &args.graph, &args.indexes)?;
    let (scope, limit) = (scope(&args.graph)?, limit(&args.graph));
    let merged = graphs.symbols(limit, |graph| graph.find_symbol(&args.name, &kinds, &scope, limit)).map_err(failed)?;
    let answer = &merged.answer;
    if as_json(ctx, &args.graph) {
        print_json(&with_indexes(wire::symbol_json(answer), &graphs, &[("results", &merged.indexes)]))?;
        return Ok(Exit::Success);
    }
    let mut out = String::new();
    for ((d, _), index) in answer.definitions.iter().zip(&merged.indexes) {
        let _ = writeln!(out, "{}{}", index_mark(ctx, &graphs, index), definition_line(ctx, d));
    }
    if answer.definitions.is_empty() {
        out.push_str(&hint_line(ctx, &wire::not_found_hint("definition", &answer.query, &answer.closest)));
    } else if answer.truncated {
        out.push_str(&hint_line(ctx, "… more definitions match; raise --limit or narrow with --kind, --lang, --path"));
    }
    print(&out)?;
    Ok(Exit::Success)
}

fn with_index(mut value: serde_json::Value, opened: &Target) -> serde_json::Value {
    value["index"] = serde_json::json!(opened.index);
    value
}

/// `cocosearch refs`.
pub fn refs(ctx: &Context, args: &RefsArgs) -> anyhow::Result<Exit> {
    name_given(&args.name, "the symbol name", Front::Command).map_err(failed)?;
    let graphs = open_graphs(ctx, &args.graph, &args.indexes)?;
    let (scope, limit) = (scope(&args.graph)?, limit(&args.graph));
    let wanted = if args.exact { usize::MAX } else { limit };
    let merged = graphs.references(wanted, |graph| graph.references(&args.name, &scope, wanted)).map_err(failed)?;
    let (mut answer, mut indexes) = (merged.answer, merged.indexes);
    if args.exact {
        let exact: Vec<bool> = answer.references.iter().map(|r| r.certainty == Certainty::Exact).collect();
        let mut keep = exact.iter();
        answer.references.retain(|_| keep.next().copied().unwrap_or(false));
        let mut keep = exact.iter();
        indexes.retain(|_| keep.next().copied().unwrap_or(false));
        answer.truncated |= answer.references.len() > limit;
        answer.references.truncate(limit);
        indexes.truncate(limit);
    }
    if as_json(ctx, &args.graph) {
        let tagged: [(&str, &[String]); 2] = [("results", &indexes), ("definitions", &merged.definition_indexes)];
        print_json(&with_indexes(wire::refs_json(&answer), &graphs, &tagged))?;
        return Ok(Exit::Success);
    }
    let mut out = String::new();
    for (d, index) in answer.definitions.iter().zip(&merged.definition_indexes) {
        let mark = index_mark(ctx, &graphs, index);
        let _ = writeln!(out, "{mark}{} {}", ctx.ui.dim().apply_to("defined at"), definition_line(ctx, d));
    }
    for (r, index) in answer.references.iter().zip(&indexes) {
        let used = match &r.qualifier {
            Some(q) => format!("{}.{}", visible(q), visible(&r.name)),
            None => visible(&r.name).into_owned(),
        };
        let caller = match &r.caller {
            Some(c) => format!("in {}", console::style(visible(c)).cyan()),
            None => format!("{}", ctx.ui.dim().apply_to("at module level")),
        };
        let _ = writeln!(
            out,
            "{}{}  {caller}  {} {used}{}{}",
            index_mark(ctx, &graphs, index),
            location(&r.path, r.line, r.line),
            ctx.ui.dim().apply_to(r.kind.as_str()),
            certainty_mark(ctx, r.certainty),
            stale_mark(r.stale)
        );
    }
    if answer.references.is_empty() {
        let text = if answer.definitions.is_empty() {
            wire::not_found_hint("definition or use", &answer.query, &answer.closest)
        } else {
            format!("no uses of `{}` in the index", answer.query)
        };
        out.push_str(&hint_line(ctx, &text));
    } else if answer.truncated {
        out.push_str(&hint_line(ctx, "… more uses; raise --limit, or narrow with --exact, --lang, --path"));
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// An edge's target, as shown.
fn edge_target(ctx: &Context, e: &DepEdge) -> String {
    match &e.to {
        Some(t) => {
            let mut s = format!("{}", console::style(visible(t)).magenta());
            if e.resolution == Resolution::Heuristic {
                s.push_str(&format!(" {}", ctx.ui.dim().apply_to("(heuristic)")));
            }
            s
        }
        None => format!("{} {}", visible(&e.spec), ctx.ui.dim().apply_to(format!("({})", e.resolution.as_str()))),
    }
}

fn edge_note(ctx: &Context, e: &DepEdge) -> String {
    let what = match &e.name {
        Some(n) => format!("{} {}", visible(&e.spec), visible(n)),
        None => visible(&e.spec).into_owned(),
    };
    format!("{}", ctx.ui.dim().apply_to(format!("  {} {what}, line {}", e.kind.as_str(), e.line)))
}

/// `cocosearch deps`.
pub fn deps(ctx: &Context, args: &DepsArgs) -> anyhow::Result<Exit> {
    let (opened, graph) = open(ctx, &args.graph)?;
    let depth = args.depth;
    let answer = graph
        .file_dependencies(&file_arg(ctx, &args.file), depth, &scope(&args.graph)?, limit(&args.graph))
        .map_err(failed)?;
    if as_json(ctx, &args.graph) {
        let mut value = wire::deps_json(&answer, depth);
        value["file"] = serde_json::json!(args.file);
        print_json(&with_index(value, &opened))?;
        return Ok(Exit::Success);
    }
    let mut out = String::new();
    if answer.roots.is_empty() {
        out.push_str(&hint_line(ctx, &wire::not_found_hint("indexed file", &args.file, &answer.closest)));
        print(&out)?;
        return Ok(Exit::Success);
    }
    if args.flat {
        for f in &answer.files {
            let _ = writeln!(
                out,
                "{}  {}{}",
                ctx.ui.dim().apply_to(format!("{:>2}", f.depth)),
                visible(&f.path),
                stale_mark(f.stale)
            );
        }
        let external: std::collections::BTreeSet<&str> =
            answer.edges.iter().filter(|e| e.to.is_none()).map(|e| e.spec.as_str()).collect();
        if !external.is_empty() {
            let list: Vec<String> = external.iter().map(|s| visible(s).into_owned()).collect();
            let _ = writeln!(out, "{} {}", ctx.ui.dim().apply_to("outside the project:"), list.join(", "));
        }
    } else {
        for root in &answer.roots {
            let _ = writeln!(out, "{}", console::style(visible(root)).bold());
            tree(ctx, &answer.edges, root, "", 1, &mut out);
        }
    }
    if answer.files.is_empty() && answer.edges.is_empty() {
        out.push_str(&hint_line(ctx, "imports nothing the index knows"));
    } else if answer.truncated {
        out.push_str(&hint_line(ctx, "… more; raise --limit"));
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// Draws the imports of `from` at `depth` (one line per imported file or module, with the
/// names imported from it), and under each file first reached there, its own imports.
fn tree(ctx: &Context, edges: &[DepEdge], from: &str, indent: &str, depth: usize, out: &mut String) {
    // Edges of `from`, grouped by what they lead to, in order of first import.
    let mut groups: Vec<Vec<&DepEdge>> = Vec::new();
    for e in edges.iter().filter(|e| e.from == from && e.depth == depth) {
        let same = |g: &Vec<&DepEdge>| match (&g[0].to, &e.to) {
            (Some(a), Some(b)) => a == b,
            (None, None) => g[0].spec == e.spec,
            _ => false,
        };
        match groups.iter_mut().find(|g| same(g)) {
            Some(g) => g.push(e),
            None => groups.push(vec![e]),
        }
    }
    for (i, group) in groups.iter().enumerate() {
        let last = i + 1 == groups.len();
        let branch = if last { "└── " } else { "├── " };
        let e = group[0];
        let first = group.iter().any(|e| e.first);
        let repeat =
            if e.to.is_some() && !first { format!(" {}", ctx.ui.dim().apply_to("(above)")) } else { String::new() };
        let names: Vec<String> =
            group.iter().filter_map(|e| e.name.as_deref()).map(|n| visible(n).into_owned()).collect();
        let what = if names.is_empty() {
            visible(&e.spec).into_owned()
        } else {
            format!("{} {}", visible(&e.spec), names.join(", "))
        };
        let note = ctx.ui.dim().apply_to(format!("  {} {what}, line {}", e.kind.as_str(), e.line));
        let _ = writeln!(out, "{indent}{branch}{}{repeat}{note}", edge_target(ctx, e));
        if first && let Some(to) = &e.to {
            let next = format!("{indent}{}", if last { "    " } else { "│   " });
            let files: Vec<String> = if to.ends_with('/') {
                let dir = to.trim_end_matches('/');
                let below: std::collections::BTreeSet<String> = edges
                    .iter()
                    .filter(|c| c.depth == depth + 1 && crate::workspace::graph::dir_of(&c.from) == dir)
                    .map(|c| c.from.clone())
                    .collect();
                below.into_iter().collect()
            } else {
                vec![to.clone()]
            };
            for f in files {
                if to.ends_with('/') {
                    let _ = writeln!(out, "{next}{}", ctx.ui.dim().apply_to(visible(&f)));
                }
                tree(ctx, edges, &f, &next, depth + 1, out);
            }
        }
    }
}

/// `cocosearch impact`.
pub fn impact(ctx: &Context, args: &ImpactArgs) -> anyhow::Result<Exit> {
    let (opened, graph) = open(ctx, &args.graph)?;
    let limit = limit(&args.graph);
    let json = as_json(ctx, &args.graph);
    let mut out = String::new();
    if is_file_arg(ctx, &args.target) {
        let answer = graph
            .file_dependents(&file_arg(ctx, &args.target), args.depth, &scope(&args.graph)?, limit)
            .map_err(failed)?;
        if json {
            let mut value = wire::file_impact_json(&answer);
            value["file"] = serde_json::json!(args.target);
            print_json(&with_index(value, &opened))?;
            return Ok(Exit::Success);
        }
        if answer.roots.is_empty() {
            out.push_str(&hint_line(ctx, &wire::not_found_hint("indexed file", &args.target, &answer.closest)));
        } else if answer.files.is_empty() {
            out.push_str(&hint_line(ctx, &format!("nothing in the index imports {}", args.target)));
        }
        let mut depth = 0;
        for f in &answer.files {
            if f.depth != depth {
                depth = f.depth;
                let count = answer.files.iter().filter(|g| g.depth == depth).count();
                let _ = writeln!(out, "{}", ctx.ui.bold().apply_to(format!("depth {depth} ({count})")));
            }
            let heuristic = if f.resolution == Resolution::Heuristic {
                certainty_mark(ctx, Certainty::Heuristic)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  {}  {}{heuristic}{}",
                location(&f.path, f.line, f.line),
                ctx.ui.dim().apply_to(format!("imports {}", visible(&f.via))),
                stale_mark(f.stale)
            );
        }
        if answer.truncated {
            out.push_str(&hint_line(ctx, "… more; raise --limit or --depth"));
        }
    } else {
        let depth = args.depth.unwrap_or(SYMBOL_DEPTH);
        let answer = graph.symbol_impact(&args.target, depth, limit, limit).map_err(failed)?;
        if json {
            print_json(&with_index(wire::symbol_impact_json(&answer), &opened))?;
            return Ok(Exit::Success);
        }
        for d in &answer.definitions {
            let _ = writeln!(out, "{} {}", ctx.ui.dim().apply_to("changing"), definition_line(ctx, d));
        }
        if answer.definitions.is_empty() {
            out.push_str(&hint_line(ctx, &wire::not_found_hint("definition", &answer.query, &answer.closest)));
        } else if answer.direct.is_empty() {
            out.push_str(&hint_line(ctx, &format!("nothing in the index uses {}", args.target)));
        }
        let mut depth = 0;
        for i in answer.direct.iter().chain(&answer.transitive) {
            if i.depth != depth {
                depth = i.depth;
                let count = answer.direct.iter().chain(&answer.transitive).filter(|j| j.depth == depth).count();
                let _ = writeln!(out, "{}", ctx.ui.bold().apply_to(format!("depth {depth} ({count})")));
            }
            let who = match &i.definition {
                Some(d) => format!(
                    "{} {}",
                    ctx.ui.dim().apply_to(d.kind.as_str()),
                    console::style(visible(&d.qualified_name)).cyan()
                ),
                None => format!("{}", ctx.ui.dim().apply_to("module level")),
            };
            let _ = writeln!(
                out,
                "  {}  {who}  {}{}",
                location(&i.path, i.line, i.line),
                ctx.ui.dim().apply_to(format!("uses {}", visible(&i.uses))),
                certainty_mark(ctx, i.certainty)
            );
        }
        if answer.truncated_direct || answer.truncated_transitive {
            out.push_str(&hint_line(ctx, "… more; raise --limit or --depth"));
        }
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// `cocosearch path`.
pub fn path(ctx: &Context, args: &PathArgs) -> anyhow::Result<Exit> {
    let (opened, graph) = open(ctx, &args.graph)?;
    let json = as_json(ctx, &args.graph);
    let mut out = String::new();
    match (is_file_arg(ctx, &args.from), is_file_arg(ctx, &args.to)) {
        (true, true) => {
            let answer = graph
                .file_path(&file_arg(ctx, &args.from), &file_arg(ctx, &args.to), args.max_depth)
                .map_err(failed)?;
            if json {
                print_json(&with_index(wire::file_path_json(&answer), &opened))?;
                return Ok(Exit::Success);
            }
            if answer.edges.is_empty() {
                out.push_str(&hint_line(ctx, &format!("no chain of imports leads from {} to {}", args.from, args.to)));
            }
            for e in &answer.edges {
                let _ = writeln!(
                    out,
                    "{}  → {}{}",
                    location(&e.from, e.line, e.line),
                    edge_target(ctx, e),
                    edge_note(ctx, e)
                );
            }
        }
        (false, false) => {
            let answer = graph.call_chain(&args.from, &args.to, args.max_depth).map_err(failed)?;
            if json {
                print_json(&with_index(wire::call_chain_json(&answer), &opened))?;
                return Ok(Exit::Success);
            }
            if !answer.unknown.is_empty() {
                out.push_str(&hint_line(
                    ctx,
                    &wire::not_found_hint("definition", &answer.unknown.join("`, `"), &answer.closest),
                ));
            } else if answer.hops.is_empty() && answer.search == ChainSearch::TimeLimit {
                out.push_str(&hint_line(ctx, &wire::chain_time_limit_hint(&args.from, &args.to)));
            } else if answer.hops.is_empty() {
                out.push_str(&hint_line(ctx, &format!("no chain of calls leads from {} to {}", args.from, args.to)));
            }
            for h in &answer.hops {
                let _ = writeln!(
                    out,
                    "{}  {} calls {}{}",
                    location(&h.from.path, h.line, h.line),
                    console::style(visible(&h.from.qualified_name)).cyan(),
                    console::style(visible(&h.to.qualified_name)).cyan(),
                    certainty_mark(ctx, h.certainty)
                );
            }
        }
        _ => {
            return Err(UsageError(format!(
                "{} and {} are not both files or both symbols — give two files for a chain of imports, or two symbols for a chain of calls",
                args.from, args.to
            ))
            .into());
        }
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// `cocosearch outline`.
pub fn outline(ctx: &Context, args: &OutlineArgs) -> anyhow::Result<Exit> {
    let (opened, graph) = open(ctx, &args.graph)?;
    let answer = graph.outline(&file_arg(ctx, &args.file)).map_err(failed)?;
    if as_json(ctx, &args.graph) {
        print_json(&with_index(wire::outline_json(&answer), &opened))?;
        return Ok(Exit::Success);
    }
    let mut out = String::new();
    if !answer.found {
        out.push_str(&hint_line(ctx, &wire::not_found_hint("indexed file", &args.file, &answer.closest)));
        print(&out)?;
        return Ok(Exit::Success);
    }
    let _ = writeln!(out, "{}{}", console::style(visible(&answer.path)).bold(), stale_mark(answer.stale));
    if !answer.imports.is_empty() {
        let _ = writeln!(out, "{}", ctx.ui.dim().apply_to("imports"));
        for i in &answer.imports {
            let what = match (&i.name, &i.alias) {
                (Some(n), Some(a)) => format!("{} {n} as {a}", i.spec),
                (Some(n), None) => format!("{} {n}", i.spec),
                (None, Some(a)) => format!("{} as {a}", i.spec),
                (None, None) => i.spec.clone(),
            };
            let target = match &i.target {
                Some(t) => format!("→ {}", console::style(visible(t)).magenta()),
                None => format!("{}", ctx.ui.dim().apply_to(format!("({})", i.resolution.as_str()))),
            };
            let _ =
                writeln!(out, "  {}  {}  {target}", ctx.ui.dim().apply_to(format!("{:>5}", i.line)), visible(&what));
        }
    }
    for (d, depth) in &answer.definitions {
        let lines = if d.end_line > d.start_line {
            format!("{}-{}", d.start_line, d.end_line)
        } else {
            d.start_line.to_string()
        };
        let _ = writeln!(
            out,
            "  {}  {}{} {}",
            ctx.ui.dim().apply_to(format!("{lines:>9}")),
            "  ".repeat(*depth),
            ctx.ui.dim().apply_to(d.kind.as_str()),
            visible(without_keyword(&d.signature)),
        );
    }
    print(&out)?;
    Ok(Exit::Success)
}

/// A signature without the declaration keyword it starts with (`class Foo` → `Foo`, `def
/// bar(self)` → `bar(self)`): the outline prints the kind beside it, and `class class Foo`
/// says nothing twice. Modifiers (`pub`, `async`, `static`) are kept: they say something.
fn without_keyword(signature: &str) -> &str {
    const KEYWORDS: &[&str] = &[
        "class",
        "struct",
        "enum",
        "trait",
        "interface",
        "def",
        "fn",
        "func",
        "fun",
        "function",
        "defmodule",
        "module",
    ];
    match signature.split_once(' ') {
        Some((first, rest)) if KEYWORDS.contains(&first) && !rest.trim().is_empty() => rest.trim_start(),
        _ => signature,
    }
}
