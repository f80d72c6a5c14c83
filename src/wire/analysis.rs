//! The JSON of `cocosearch analyze --json` and the MCP tool `analyze_query`.

use serde_json::json;

use super::round4;
use crate::search::SearchRequest;
use crate::search::trace::Analysis;

/// How a search read its query, what each leg found, the fused order, the stages' times and
/// the search's own answer.
pub fn analysis_json(request: &SearchRequest, a: &Analysis) -> serde_json::Value {
    let r = &a.reading;
    let ms = |x: f64| (x * 10.0).round() / 10.0;
    json!({
        "query": request.query,
        "reading": {
            "kind": r.kind.as_str(),
            "words": r.words,
            "length": r.length,
            "terms": r.terms,
            "max_terms": r.max_terms,
            "symbol_names": r.symbol_names,
            "definitions": r.definitions,
            "weights": {"vector": r.weights.0, "keyword": r.weights.1},
            "rank_damping": r.damping,
            "by_score": r.by_score,
        },
        "legs": a.legs.iter().map(|l| json!({
            "index": l.index,
            "leg": l.leg.as_str(),
            "weight": l.weight,
            "found": l.found,
            "top": l.top.iter().map(|e| json!({"path": e.path, "score": e.score.map(round4)})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "fused": a.fused.iter().map(|f| json!({
            "index": f.index,
            "path": f.path,
            "chunk": f.chunk,
            "score": round4(f.score),
            "vector": f.vector.map(round4),
            "keyword": f.keyword.map(round4),
        })).collect::<Vec<_>>(),
        "timings_ms": {
            "analyse": ms(a.timings.analyse_ms),
            "retrieve": ms(a.timings.retrieve_ms),
            "fuse": ms(a.timings.fuse_ms),
            "assemble": ms(a.timings.assemble_ms),
        },
        "search": super::search_json(request, &a.response),
    })
}
