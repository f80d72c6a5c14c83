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
use crate::chunk::{Language, SymbolKind};
use crate::config::validate_index_name;
use crate::stats::{self, IndexStats, StatsOptions};
use crate::store::{IndexMeta, RunRecord, StoreError};
use crate::wire;
use crate::workspace::Workspace;
use crate::workspace::indexes::{all_stats, delete_index};

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
                "backend": store.backend(),
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
            // The code graph (its own issue) adds `/api/graph`; until then the page has no panel.
            "graph": false,
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

/// `GET /api/indexes/{name}`: one index's statistics with its most failing files, recent runs
/// and running job.
pub(crate) async fn detail(State(web): State<Web>, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    valid_name(&name)?;
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let store = shared.default_store()?;
        let meta = store.get_index(&name)?.ok_or_else(|| no_index(&name))?;
        let servable = shared.dir_rule.check(&meta.root).is_ok();
        let indexing = if servable {
            crate::workspace::project::index_project(shared, &name)?.config.settings.indexing
        } else {
            shared.options.config.settings.indexing.clone()
        };
        let options = StatsOptions {
            staleness_days: 7,
            failing_files: FAILING_FILES,
            scan: servable,
            at: crate::store::At::Current,
        };
        let stats =
            stats::collect_cached(store.as_ref(), &name, &indexing, options, &shared.counts).map_err(|e| match e {
                stats::StatsError::Store(StoreError::IndexNotFound(_)) => no_index(&name),
                stats::StatsError::Store(other) => ApiError::from(other),
            })?;
        let mut value = enrich(shared, &stats);
        value["runs"] = store.reader(&name)?.runs(RUNS)?.iter().map(run_json).collect();
        Ok(Json(value))
    })
    .await
}

/// `DELETE /api/indexes/{name}`: deletes the index under its write lock. 409 while a job of
/// this server or a run of another process writes it.
pub(crate) async fn delete(State(web): State<Web>, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    valid_name(&name)?;
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        if shared.default_store()?.get_index(&name)?.is_none() {
            return Err(no_index(&name));
        }
        if let Some(job) = shared.jobs.latest(&name).filter(|j| j.is_running()) {
            return Err(ApiError::new(
                axum::http::StatusCode::CONFLICT,
                format!("index {name} is being indexed by {} — wait for it to end before deleting the index", job.id),
            ));
        }
        delete_index(shared, &name)?;
        tracing::info!(index = %name, "index deleted from the dashboard");
        Ok(Json(json!({ "deleted": [name] })))
    })
    .await
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

/// 400 unless `name` is a valid index name.
pub(crate) fn valid_name(name: &str) -> Result<(), ApiError> {
    validate_index_name(name).map_err(|m| ApiError::bad_request(format!("index name {name:?}: {m}")))
}

/// The index `name` if it exists (404) and this server reads its root (403): the project rule
/// refuses an index built with `--allow-any-dir` of a system or home directory.
pub(crate) fn servable(shared: &Workspace, name: &str) -> Result<IndexMeta, ApiError> {
    let meta = shared.default_store()?.get_index(name)?.ok_or_else(|| no_index(name))?;
    if let Err(reason) = shared.dir_rule.check(&meta.root) {
        return Err(ApiError::forbidden(format!(
            "this server does not serve index {name}: {reason} — indexes of such directories are for the command line only"
        )));
    }
    Ok(meta)
}

/// 404 for an index that does not exist.
pub(crate) fn no_index(name: &str) -> ApiError {
    ApiError::not_found(format!("no index named {name} — GET /api/indexes lists the existing ones"))
}
