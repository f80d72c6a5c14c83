//! The JSON shapes of the code graph's answers: `cocosearch symbol|refs|deps|impact|path|
//! outline --json` and the MCP graph tools emit the same objects, so a script and an agent
//! read one format.
//!
//! Every list carries `truncated`; every answer that found nothing carries `closest` (the
//! index's nearest names or paths) and a `hint` sentence saying what to try.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::graph::{
    CHAIN_TIME_LIMIT, CallChain, ChainSearch, Definition, DepEdge, DependenciesAnswer, DepsAnswer, FileImpact,
    FilePath, Impacted, OutlineAnswer, RefHit, RefsAnswer, SourceAnswer, SymbolAnswer, SymbolImpact, SymbolMatch,
};

/// A definition.
pub fn definition_json(d: &Definition) -> Value {
    json!({
        "path": d.path,
        "start_line": d.start_line,
        "end_line": d.end_line,
        "language": d.language,
        "kind": d.kind,
        "name": d.name,
        "qualified_name": d.qualified_name,
        "signature": d.signature,
        "parent": d.parent,
        "params": d.params,
        "bases": d.bases,
        "stale": d.stale,
    })
}

/// The sentence for an answer that found nothing.
pub fn not_found_hint(what: &str, query: &str, closest: &[String]) -> String {
    if closest.is_empty() {
        format!(
            "no {what} matches `{query}` and nothing similar is indexed — check the spelling, or run `cocosearch index` if the code is new"
        )
    } else {
        format!("no {what} matches `{query}` — closest: {}", closest.join(", "))
    }
}

fn hint(found: bool, what: &str, query: &str, closest: &[String]) -> Value {
    if found { Value::Null } else { Value::String(not_found_hint(what, query, closest)) }
}

/// `cocosearch symbol` / `find_symbol`.
pub fn symbol_json(a: &SymbolAnswer) -> Value {
    json!({
        "query": a.query,
        "results": a.definitions.iter().map(|(d, m)| {
            let mut v = definition_json(d);
            v["match"] = json!(m.as_str());
            v["why"] = json!(why(*m, &a.query, d));
            v
        }).collect::<Vec<_>>(),
        "resolution": a.resolution().as_str(),
        "truncated": a.truncated,
        "closest": a.closest,
        "hint": hint(!a.definitions.is_empty(), "definition", &a.query, &a.closest),
    })
}

/// Whether a one-name search named a definition: `state` (resolved, ambiguous, not_found), the
/// candidates best first with why each is one, and the closest names when none is.
pub fn resolution_json(a: &SymbolAnswer) -> Value {
    json!({
        "state": a.resolution().as_str(),
        "candidates": a.definitions.iter().map(|(d, m)| json!({
            "path": d.path,
            "lines": format!("{}-{}", d.start_line, d.end_line),
            "name": d.qualified_name,
            "kind": d.kind,
            "why": why(*m, &a.query, d),
        })).collect::<Vec<_>>(),
        "did_you_mean": a.closest,
    })
}

/// Why a definition matched the name asked for.
fn why(m: SymbolMatch, query: &str, d: &Definition) -> String {
    match m {
        SymbolMatch::Exact => format!("named {query}"),
        SymbolMatch::Qualified => format!("{} ends with {query}", d.qualified_name),
        SymbolMatch::Fuzzy => format!("{} contains {query}", d.qualified_name),
    }
}

fn caller_json(r: &RefHit) -> Value {
    match (&r.caller_definition, &r.caller) {
        (Some(d), _) => json!({
            "qualified_name": d.qualified_name,
            "kind": d.kind,
            "start_line": d.start_line,
            "end_line": d.end_line,
            "signature": d.signature,
        }),
        (None, Some(name)) => json!({ "qualified_name": name }),
        (None, None) => Value::Null,
    }
}

/// One reference.
pub fn ref_json(r: &RefHit) -> Value {
    json!({
        "path": r.path,
        "line": r.line,
        "language": r.language,
        "kind": r.kind,
        "name": r.name,
        "qualifier": r.qualifier,
        "caller": caller_json(r),
        "target": r.target.as_ref().map(|(path, name)| json!({"path": path, "qualified_name": name})),
        "certainty": r.certainty.as_str(),
        "stale": r.stale,
    })
}

/// `cocosearch refs` / `get_dependents`.
pub fn refs_json(a: &RefsAnswer) -> Value {
    json!({
        "query": a.query,
        "definitions": a.definitions.iter().map(definition_json).collect::<Vec<_>>(),
        "results": a.references.iter().map(ref_json).collect::<Vec<_>>(),
        "exact": a.references.iter().filter(|r| r.certainty == crate::graph::Certainty::Exact).count(),
        "truncated": a.truncated,
        "closest": a.closest,
        "hint": hint(!a.references.is_empty() || !a.definitions.is_empty(), "definition or use", &a.query, &a.closest),
    })
}

/// `get_dependencies`: what a symbol uses.
pub fn dependencies_json(a: &DependenciesAnswer) -> Value {
    json!({
        "query": a.query,
        "definitions": a.definitions.iter().map(definition_json).collect::<Vec<_>>(),
        "results": a.dependencies.iter().map(|d| json!({
            "name": d.name,
            "kind": d.kind,
            "qualifier": d.qualifier,
            "line": d.line,
            "count": d.count,
            "definition": d.definition.as_ref().map(definition_json),
            "certainty": d.certainty.as_str(),
        })).collect::<Vec<_>>(),
        "truncated": a.truncated,
        "closest": a.closest,
        "hint": hint(!a.definitions.is_empty(), "definition", &a.query, &a.closest),
    })
}

fn impacted_json(i: &Impacted) -> Value {
    json!({
        "depth": i.depth,
        "path": i.path,
        "definition": i.definition.as_ref().map(definition_json),
        "uses": i.uses,
        "line": i.line,
        "certainty": i.certainty.as_str(),
    })
}

/// Counts by depth, `{"1": 3, "2": 7}`.
fn by_depth(depths: impl Iterator<Item = usize>) -> Value {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for d in depths {
        *counts.entry(d).or_default() += 1;
    }
    Value::Object(counts.into_iter().map(|(d, n)| (d.to_string(), json!(n))).collect())
}

/// `cocosearch impact SYMBOL` / `get_change_impact`.
pub fn symbol_impact_json(a: &SymbolImpact) -> Value {
    json!({
        "query": a.query,
        "target": "symbol",
        "definitions": a.definitions.iter().map(definition_json).collect::<Vec<_>>(),
        "direct": a.direct.iter().map(impacted_json).collect::<Vec<_>>(),
        "transitive": a.transitive.iter().map(impacted_json).collect::<Vec<_>>(),
        "by_depth": by_depth(a.direct.iter().chain(&a.transitive).map(|i| i.depth)),
        "truncated_direct": a.truncated_direct,
        "truncated_transitive": a.truncated_transitive,
        "truncated": a.truncated_direct || a.truncated_transitive,
        "closest": a.closest,
        "hint": hint(!a.definitions.is_empty(), "definition", &a.query, &a.closest),
    })
}

/// One import edge.
pub fn edge_json(e: &DepEdge) -> Value {
    json!({
        "from": e.from,
        "to": e.to,
        "package": e.to.as_deref().is_some_and(|t| t.ends_with('/')),
        "kind": e.kind,
        "spec": e.spec,
        "name": e.name,
        "line": e.line,
        "resolved": e.resolution.is_resolved(),
        "resolution": e.resolution,
        "depth": e.depth,
        "first": e.first,
    })
}

/// `cocosearch deps` / `get_file_dependencies`.
pub fn deps_json(a: &DepsAnswer, depth: usize) -> Value {
    json!({
        "file": a.query,
        "roots": a.roots,
        "depth": depth,
        "edges": a.edges.iter().map(edge_json).collect::<Vec<_>>(),
        "files": a.files.iter().map(|f| json!({"path": f.path, "depth": f.depth, "stale": f.stale})).collect::<Vec<_>>(),
        "external": a.edges.iter().filter(|e| e.to.is_none()).map(|e| e.spec.clone()).collect::<std::collections::BTreeSet<_>>(),
        "truncated": a.truncated,
        "closest": a.closest,
        "hint": hint(!a.roots.is_empty(), "indexed file", &a.query, &a.closest),
    })
}

/// `cocosearch impact FILE` / `get_file_dependents`.
pub fn file_impact_json(a: &FileImpact) -> Value {
    json!({
        "file": a.query,
        "target": "file",
        "roots": a.roots,
        "results": a.files.iter().map(|f| json!({
            "path": f.path,
            "depth": f.depth,
            "via": f.via,
            "line": f.line,
            "spec": f.spec,
            "resolution": f.resolution,
            "stale": f.stale,
        })).collect::<Vec<_>>(),
        "by_depth": by_depth(a.files.iter().map(|f| f.depth)),
        "truncated": a.truncated,
        "closest": a.closest,
        "hint": hint(!a.roots.is_empty(), "indexed file", &a.query, &a.closest),
    })
}

/// `cocosearch path` between two files.
pub fn file_path_json(a: &FilePath) -> Value {
    json!({
        "from": a.from,
        "to": a.to,
        "kind": "dependency",
        "found": !a.edges.is_empty(),
        "edges": a.edges.iter().map(edge_json).collect::<Vec<_>>(),
    })
}

/// What a call-chain search that stopped at its time limit says.
pub fn chain_time_limit_hint(from: &str, to: &str) -> String {
    format!(
        "no chain of calls from `{from}` to `{to}` was found within the search's time limit ({:.1} s): these names are common, so name the ends more precisely (`Class.method`, `module.function`) or ask for fewer calls",
        CHAIN_TIME_LIMIT.as_secs_f64()
    )
}

/// `cocosearch path` between two symbols / `get_call_chain`.
pub fn call_chain_json(a: &CallChain) -> Value {
    let hint = if !a.unknown.is_empty() {
        Value::String(not_found_hint("definition", &a.unknown.join("`, `"), &a.closest))
    } else if a.hops.is_empty() && a.search == ChainSearch::TimeLimit {
        Value::String(chain_time_limit_hint(&a.from, &a.to))
    } else if a.hops.is_empty() {
        Value::String(format!(
            "no chain of calls leads from `{}` to `{}` in the index (dynamic calls and calls through values of unknown type may be missing)",
            a.from, a.to
        ))
    } else {
        Value::Null
    };
    json!({
        "from": a.from,
        "to": a.to,
        "kind": "call",
        "found": !a.hops.is_empty(),
        "search": match a.search {
            ChainSearch::Complete => "complete",
            ChainSearch::TimeLimit => "time_limit",
        },
        "hops": a.hops.iter().map(|h| json!({
            "from": definition_json(&h.from),
            "to": definition_json(&h.to),
            "line": h.line,
            "certainty": h.certainty.as_str(),
        })).collect::<Vec<_>>(),
        "closest": a.closest,
        "hint": hint,
    })
}

/// `cocosearch outline` / `get_file_structure`.
pub fn outline_json(a: &OutlineAnswer) -> Value {
    json!({
        "file": a.path,
        "found": a.found,
        "language": a.language,
        "stale": a.stale,
        "definitions": a.definitions.iter().map(|(d, depth)| {
            let mut v = definition_json(d);
            v["depth"] = json!(depth);
            v
        }).collect::<Vec<_>>(),
        "imports": a.imports.iter().map(|i| json!({
            "line": i.line,
            "kind": i.kind,
            "spec": i.spec,
            "name": i.name,
            "alias": i.alias,
            "target": i.target,
            "resolved": i.resolution.is_resolved(),
            "resolution": i.resolution,
        })).collect::<Vec<_>>(),
        "closest": a.closest,
        "hint": hint(a.found, "indexed file", &a.path, &a.closest),
    })
}

/// `get_function_source` / `get_class_source`.
pub fn source_json(a: &SourceAnswer) -> Value {
    json!({
        "query": a.query,
        "found": a.definition.is_some(),
        "definition": a.definition.as_ref().map(definition_json),
        "content": a.content,
        "truncated_lines": a.truncated_lines,
        "others": a.others.iter().map(definition_json).collect::<Vec<_>>(),
        "warning": a.warning,
        "closest": a.closest,
        "hint": hint(a.definition.is_some(), "definition", &a.query, &a.closest),
    })
}
