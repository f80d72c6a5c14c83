//! `GET /api/info`, `GET /api/indexes`, `GET /api/indexes/{name}` and
//! `DELETE /api/indexes/{name}`: what the server runs on, every index's statistics (the JSON of
//! `cocosearch stats --json`, from [`crate::stats::collect`]) with its running job, and deleting
//! an index under its write lock.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

use super::{ApiError, Web, blocking};
use crate::wire;
use crate::workspace::indexes::{RunRecord, all_stats, delete_index, index_stats, runs};
use crate::workspace::snapshots::SnapshotCounts;
use crate::workspace::stats::{IndexStats, Language, SymbolKind};
use crate::workspace::{Caller, IndexRef, Need, Workspace};

/// Failing files listed for one index.
const FAILING_FILES: usize = 10;
/// Runs listed for one index.
const RUNS: usize = 10;

/// `GET /api/info`: the version, the store in use, the embedder (not probed: `/health` does
/// that), whether "open in editor" can work, and the filter values the search form offers.
pub(crate) async fn info(State(web): State<Web>) -> Result<Json<Value>, ApiError> {
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let settings = &shared.options.config.settings;
        let store = match shared.store_and_choice(&settings.database) {
            Ok((store, choice)) => json!({
                "backend": store.backend().as_str(),
                "choice": choice.to_string(),
                "location": store.location(),
            }),
            Err(e) => json!({ "error": crate::config::redact_text(&e.to_string()) }),
        };
        let embedding = &settings.embedding;
        let embedder = match shared.embedder(embedding) {
            Some(e) => {
                let info = e.info();
                json!({ "provider": info.provider, "model": info.model, "url": info.url })
            }
            None => json!({ "provider": "none" }),
        };
        Ok(Json(json!({
            "version": env!("CARGO_PKG_VERSION"),
            "store": store,
            "embedder": embedder,
            "editor": super::editor::configured(&shared.options.env).map(|e| e.program),
            "languages": Language::all().iter().map(|l| l.name()).collect::<Vec<_>>(),
            "symbol_types": SymbolKind::all().iter().map(|k| k.as_str()).collect::<Vec<_>>(),
            // `/api/graph` answers: the viewer shows a file's imports, a symbol its graph.
            "graph": true,
        })))
    })
    .await
}

/// `GET /health`: version, database and embedder reachability, and the live MCP sessions when
/// the server serves MCP. 200 when the database answers (an unreachable embedder degrades
/// search to keywords), 503 when it does not.
pub(crate) async fn health(State(web): State<Web>) -> Response {
    let shared = Arc::clone(&web.shared);
    match web.shared.blocking(move || shared.health()).await {
        Ok(health) => {
            let (body, reachable) = wire::health_json(&health);
            let code = if reachable { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
            (code, Json(body)).into_response()
        }
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// `GET /api/stats`: the JSON of `cocosearch stats --json --all`; 503 when the store cannot
/// be read.
pub(crate) async fn stats(State(web): State<Web>) -> Response {
    let shared = Arc::clone(&web.shared);
    match web.shared.blocking(move || all_stats(&shared, 7, 0)).await {
        Ok(Ok(all)) => Json(Value::Array(all.iter().map(wire::stats_json).collect())).into_response(),
        Ok(Err(e)) | Err(e) => (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "error": e.message }))).into_response(),
    }
}

/// `GET /api/indexes`: every index of the store, as `cocosearch stats --json --all` prints it,
/// each with `servable` (whether this server reads its files) and its running `job`.
pub(crate) async fn list(State(web): State<Web>) -> Result<Json<Value>, ApiError> {
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let all = all_stats(shared, 7, 0)?;
        let indexes: Vec<Value> = all.iter().map(|s| enrich(shared, s)).collect();
        Ok(Json(json!({ "indexes": indexes })))
    })
    .await
}

/// `GET /api/indexes/{name}`: one index's statistics with its most failing files, recent runs,
/// snapshots and running job.
pub(crate) async fn detail(State(web): State<Web>, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let name = valid(shared, &name)?;
        let stats = index_stats(shared, &name, FAILING_FILES)?;
        let mut value = enrich(shared, &stats);
        value["runs"] = runs(shared, &name, RUNS)?.iter().map(run_json).collect();
        if shared.servable(&name, &stats.root).is_ok() {
            let target = shared.open(Caller::Browser, &IndexRef::named(&name), Need::Index)?;
            value["snapshots"] =
                wire::snapshots_json(&name, &target.snapshots(SnapshotCounts::Uncounted)?)["snapshots"].take();
        }
        Ok(Json(value))
    })
    .await
}

/// `DELETE /api/indexes/{name}`: deletes the index under its write lock. 409 while a job of
/// this server or a run of another process writes it.
pub(crate) async fn delete(State(web): State<Web>, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let name = valid(shared, &name)?;
        delete_index(shared, &name)?;
        tracing::info!(index = %name, "index deleted from the dashboard");
        Ok(Json(json!({ "deleted": [name] })))
    })
    .await
}

/// `name` when it is a valid index name (400 otherwise).
fn valid(shared: &Workspace, name: &str) -> Result<String, ApiError> {
    Ok(shared.check_index_name(name)?.to_string())
}

/// The stats JSON with what the page needs besides.
fn enrich(shared: &Workspace, stats: &IndexStats) -> Value {
    let mut value = wire::stats_json(stats);
    value["servable"] = json!(shared.dir_rule.check(&stats.root).is_ok());
    value["job"] =
        shared.jobs.latest(&stats.name).filter(|j| j.is_running()).map_or(Value::Null, |j| wire::job_json(&j.report()));
    value
}

fn run_json(r: &RunRecord) -> Value {
    let time = |t| humantime::format_rfc3339_seconds(t).to_string();
    json!({
        "id": r.id,
        "kind": r.kind,
        "status": r.status,
        "started_at": time(r.started_at),
        "finished_at": r.finished_at.map(time),
        "summary": r.summary,
    })
}
