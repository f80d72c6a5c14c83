//! `GET /api/graph`: the code graph for the page, from the same engine and the same JSON as
//! `cocosearch symbol|refs|impact|deps --json`. With `symbol=NAME`: its definitions, the
//! references to it (each with its caller) and its impact (the users of its users, three levels
//! deep); with `file=PATH`: what the file imports and what imports it. `index` and `at` name
//! the index and snapshot, and `lang`, `path` and `limit` narrow the answer as the graph
//! commands' flags do; the query string is parsed by the command line's parser.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use serde_json::{Value, json};

use super::{ApiError, Web, blocking};
use crate::wire;
use crate::workspace::graph::GraphOptions;
use crate::workspace::inputs::from_query;
use crate::workspace::{Caller, Front, IndexRef, Need};

/// Levels of users a symbol's impact follows.
const IMPACT_DEPTH: usize = 3;

/// The graph's query string.
#[derive(Debug, clap::Parser)]
#[command(name = "graph")]
struct Params {
    #[command(flatten)]
    index: IndexRef,
    #[command(flatten)]
    options: GraphOptions,
    /// A symbol: its definitions, references and impact.
    #[arg(long, value_name = "NAME", conflicts_with = "file")]
    symbol: Option<String>,
    /// A file: what it imports and what imports it.
    #[arg(long, value_name = "PATH")]
    file: Option<String>,
}

/// `GET /api/graph?index=NAME&symbol=NAME` or `…&file=PATH`.
pub(crate) async fn graph(
    State(web): State<Web>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ApiError> {
    let params = from_query::<Params>(&pairs, "q")?;
    blocking(&Arc::clone(&web.shared), move || {
        let target = web.shared.open(Caller::Browser, &params.index, Need::Index)?;
        let graph = target.graph()?;
        let (scope, limit) = (params.options.scope(Front::Dashboard)?, params.options.limit());
        let mut answer = match (params.symbol.as_deref().map(str::trim), params.file.as_deref().map(str::trim)) {
            (Some(name), _) if !name.is_empty() => json!({
                "symbol": name,
                "definitions": wire::symbol_json(&graph.find_symbol(name, &[], &scope, limit)?),
                "references": wire::refs_json(&graph.references(name, &scope, limit)?),
                "impact": wire::symbol_impact_json(&graph.symbol_impact(name, IMPACT_DEPTH, limit, limit)?),
            }),
            (_, Some(file)) if !file.is_empty() => json!({
                "file": file,
                "dependencies": wire::deps_json(&graph.file_dependencies(file, 1, &scope, limit)?, 1),
                "dependents": wire::file_impact_json(&graph.file_dependents(file, Some(1), &scope, limit)?),
            }),
            _ => return Err(ApiError::bad_request("name a symbol (?symbol=NAME) or a file (?file=PATH)")),
        };
        answer["index"] = json!(target.index);
        answer["at"] = json!(target.snapshot.as_ref().map(|s| s.name.clone()));
        Ok(Json(answer))
    })
    .await
}
