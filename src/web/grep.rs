//! `GET /api/grep`: `cocosearch grep --json` over HTTP, for the search box's grep mode. The
//! parameters are `q` (the pattern), `index` (whose project is searched) and `at`, rg's options
//! by the command's long names as `workspace::grep::GrepOptions` declares them (`lang`, `glob`,
//! `context`, `ignore-case`, `fixed-strings`, `word`, ...), parsed by the command line's own
//! parser, and `limit`; the matches are [`crate::wire::grep_hit_json`]'s, each with its `index`.

use std::ops::ControlFlow;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use serde_json::{Value, json};

use super::{ApiError, Web, blocking};
use crate::wire;
use crate::workspace::grep::{Definitions, GrepOptions};
use crate::workspace::inputs::from_query;
use crate::workspace::{Caller, Front, IndexRef};

/// The most matches one request may ask for, and the default.
const MAX_LIMIT: usize = 1000;
const DEFAULT_LIMIT: usize = 100;

/// A grep's query string: `q`, the index, rg's options and how many matches.
#[derive(Debug, clap::Parser)]
#[command(name = "grep")]
struct Params {
    /// The pattern.
    #[arg(value_name = "PATTERN")]
    q: Vec<String>,
    #[command(flatten)]
    index: IndexRef,
    #[command(flatten)]
    options: GrepOptions,
    /// The most matches returned (default 100, at most 1000).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

/// `GET /api/grep?q=PATTERN&index=NAME&...`.
pub(crate) async fn grep(
    State(web): State<Web>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ApiError> {
    let params = from_query::<Params>(&pairs, "q")?;
    let pattern = params.q.join(" ");
    if pattern.is_empty() {
        return Err(ApiError::bad_request("give a pattern: ?q=PATTERN"));
    }
    let limit = params.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    blocking(&Arc::clone(&web.shared), move || {
        let names = &params.options.indexes.index_names;
        let targets = web.shared.open_greps(Caller::Browser, &params.index, names, Definitions::FromIndex)?;
        let mut request = params.options.request(vec![pattern.clone()], Vec::new(), Front::Dashboard)?;
        request.limit = Some(limit as u64 + 1);
        let mut results = Vec::new();
        let mut truncated = false;
        let summary = targets.run(&request, |target, file| {
            for mut hit in wire::grep_file_json(&file, request.after) {
                if results.len() >= limit {
                    truncated = true;
                    return ControlFlow::Break(());
                }
                hit["index"] = json!(target.index);
                results.push(hit);
            }
            ControlFlow::Continue(())
        })?;
        let indexes: Vec<&str> = targets.targets().iter().map(|t| t.index.as_str()).collect();
        Ok(Json(json!({
            "pattern": pattern,
            "index": indexes.first(),
            "indexes": indexes,
            "results": results,
            "truncated": truncated || summary.cut,
            "summary": wire::grep_summary_json(&summary),
            "warnings": targets.warnings,
        })))
    })
    .await
}
