//! Wire formats: the JSON shapes of the workspace's answers, which every presenter emits —
//! `cocosearch … --json`, the MCP tools and the dashboard's API — so an agent sees exactly what
//! a script and a browser see.
//!
//! Architecture invariant: `search`, `graph`, `store`, `stats` and `workspace` return plain
//! structs; the JSON shapes of search hits, index listings and code graph answers are defined
//! here, once, and used by `cli`, `mcp` and `web` (an API boundary: scripts and agents parse
//! them).

mod analysis;
pub mod budget;
mod compact;
mod graph;
mod grep;
mod health;
mod jobs;
mod snapshots;
mod stats;
mod tasks;

use serde_json::json;

pub use graph::{
    call_chain_json, chain_time_limit_hint, definition_json, dependencies_json, deps_json, edge_json, file_impact_json,
    file_path_json, not_found_hint, outline_json, ref_json, refs_json, resolution_json, source_json,
    symbol_impact_json, symbol_json,
};

pub use analysis::analysis_json;
pub use compact::{
    HitForm, compact_hit_json, compact_response_json, compact_search_json, compact_search_text, cut_hit, hit_preview,
    resolution_text, search_fit,
};
pub use grep::{GrepHit, grep_file_json, grep_hit_json, grep_hits, grep_summary_json};
pub use health::health_json;
pub use jobs::job_json;
pub use snapshots::{snapshot_json, snapshots_deleted_json, snapshots_json};
pub use stats::{search_freshness_json, search_freshness_state, stats_json, summary_json, watcher_json};
pub use tasks::{task_code_json, task_json, tasks_json};

use crate::search::{Hit, RankedDefinition, SearchRequest, SearchResponse};
use crate::store::IndexMeta;
use crate::workspace::search::SearchAnswer;

/// A search answer: the query, what ran, and the hits (`cocosearch search --json`).
pub fn search_json(request: &SearchRequest, response: &SearchResponse) -> serde_json::Value {
    let mut out = json!({
        "query": request.query,
        "indexes": request.indexes,
        "mode": response.mode,
        "query_kind": response.kind.as_str(),
        "degraded": response.degraded,
        "verdict": response.verdict.as_str(),
        "warnings": response.warnings,
        "took_ms": (response.took_ms * 10.0).round() / 10.0,
        "cached_embedding": response.cached_embedding,
        "results": response.hits.iter().map(hit_json).collect::<Vec<_>>(),
    });
    if request.definitions > 0 {
        out["definitions"] = response.definitions.iter().map(ranked_definition_json).collect();
    }
    out
}

/// A search answer as every front end sends it (`cocosearch search --json`, `search_code`,
/// `/api/search`): [`search_json`], each hit cut by `max_lines` with its `truncated_lines`,
/// each hit's file neighbours when asked (`deps`), and how fresh the index is. (The grep hint
/// is each front end's to place: stderr, the tool's notes, the page.)
pub fn search_answer_json(answer: &SearchAnswer) -> serde_json::Value {
    let mut value = search_json(&answer.request, &answer.response);
    if let Some(results) = value.get_mut("results").and_then(serde_json::Value::as_array_mut) {
        for (result, cut) in results.iter_mut().zip(&answer.cut_lines) {
            if *cut > 0 {
                result["truncated_lines"] = json!(cut);
            }
        }
        for (result, n) in results.iter_mut().zip(answer.neighbours.iter().flatten()) {
            if let Some(n) = n {
                result["deps"] = json!({ "imports": n.imports, "imported_by": n.imported_by });
            }
        }
    }
    value["freshness"] = answer.freshness.as_ref().map_or(serde_json::Value::Null, search_freshness_json);
    value["did_you_mean"] = json!(answer.did_you_mean);
    if let Some(resolution) = &answer.resolution {
        value["resolution"] = resolution_json(resolution);
    }
    value
}

/// A score to 4 decimals: more says nothing and makes output noisy.
fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// One ranked definition.
pub fn ranked_definition_json(d: &RankedDefinition) -> serde_json::Value {
    json!({
        "index": d.index,
        "path": d.path,
        "name": d.name,
        "kind": d.kind,
        "start_line": d.start_line,
        "end_line": d.end_line,
        "score": round4(d.score),
    })
}

/// One hit.
pub fn hit_json(h: &Hit) -> serde_json::Value {
    json!({
        "index": h.index,
        "path": h.path,
        "start_line": h.start_line,
        "end_line": h.end_line,
        "language": h.language,
        "symbol": h.symbol_name.as_ref().map(|name| json!({
            "type": h.symbol_type,
            "name": name,
            "qualified_name": h.qualified_name,
            "signature": h.signature,
        })),
        "symbols": h.symbols,
        "enclosing": h.enclosing,
        "score": round4(h.score),
        "vector_score": h.vector_score.map(round4),
        "keyword_score": h.keyword_score.map(round4),
        "parse_status": h.parse_status,
        "stale": h.stale,
        "content": h.content,
        "before": h.before,
        "after": h.after,
    })
}

/// One index of `cocosearch list --json`.
pub fn index_json(m: &IndexMeta) -> serde_json::Value {
    json!({
        "name": m.name,
        "root": m.root,
        "provider": m.provider,
        "model": m.model,
        "dimension": m.dimension,
        "created_at": humantime::format_rfc3339_seconds(m.created_at).to_string(),
        "updated_at": humantime::format_rfc3339_seconds(m.updated_at).to_string(),
        "git_commit": m.git_commit,
        "git_branch": m.git_branch,
    })
}
