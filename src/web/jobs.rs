//! `POST /api/jobs` (re-index or rebuild an index), `GET /api/jobs`, `GET /api/jobs/{id}` and
//! `GET /api/jobs/{id}/events`: the workspace's index jobs (the ones the MCP tools report), started and followed from the page.
//!
//! A job takes the index's write lock before it exists, exactly as `index_codebase` does, so an
//! index another process is writing is refused at once (409, with the reason). Progress is
//! streamed as server-sent events: `progress` whenever the job's counters move (at most every
//! [`TICK`]), then one `done` carrying the final summary, then the stream ends.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_core::Stream;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{ApiError, Web, blocking};
use crate::wire;
use crate::workspace::indexes::{Fresh, JobSpec, start_job};
use crate::workspace::jobs::Job;

/// How often a running job's progress is looked at.
const TICK: Duration = Duration::from_millis(250);

/// `{"index": NAME, "fresh": false}`.
#[derive(Debug, Deserialize)]
pub(crate) struct StartRequest {
    index: String,
    #[serde(default)]
    fresh: bool,
}

/// `POST /api/jobs`: starts re-indexing (or, with `fresh`, rebuilding) an index from its
/// recorded root and its project's configuration; answers 202 with the job at once. A job of
/// this server already running for the index is returned instead (`"started": false`).
pub(crate) async fn start(
    State(web): State<Web>,
    request: Result<Json<StartRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    // A body that is not a job request is answered in the API's JSON error shape, like every
    // other refusal, not with axum's plain-text rejection.
    let Json(request) = request.map_err(|rejection| {
        ApiError::bad_request(format!(
            "the body is not a job request ({}) — send JSON like {{\"index\": \"NAME\", \"fresh\": false}}",
            rejection.body_text()
        ))
    })?;
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let project = shared.index_project(shared.check_index_name(&request.index)?)?;
        let fresh = if request.fresh { Fresh::Rebuild } else { Fresh::Keep };
        let spec = JobSpec { index: request.index.clone(), fresh };
        let (job, started) = start_job(shared, &project, spec)?;
        tracing::info!(job = %job.id, index = %job.index, fresh = job.fresh, started, "index job from the dashboard");
        Ok((StatusCode::ACCEPTED, Json(json!({ "started": started, "job": wire::job_json(&job.report()) }))))
    })
    .await
}

/// `GET /api/jobs`: the jobs of this server, newest first.
pub(crate) async fn list(State(web): State<Web>) -> Json<Value> {
    let jobs: Vec<Value> = web.shared.jobs.all().iter().rev().map(|j| wire::job_json(&j.report())).collect();
    Json(json!({ "jobs": jobs }))
}

/// `GET /api/jobs/{id}`.
pub(crate) async fn get(State(web): State<Web>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(wire::job_json(&find(&web, &id)?.report())))
}

/// `GET /api/jobs/{id}/events`: the job's progress as server-sent events.
pub(crate) async fn events(
    State(web): State<Web>,
    Path(id): Path<String>,
) -> Result<impl axum::response::IntoResponse, ApiError> {
    let job = find(&web, &id)?;
    let (tx, rx) = mpsc::channel(4);
    tokio::spawn(follow(job, tx, web.shutdown.clone()));
    Ok(Sse::new(Events(rx)).keep_alive(KeepAlive::default()))
}

fn find(web: &Web, id: &str) -> Result<Arc<Job>, ApiError> {
    web.shared
        .jobs
        .by_id(id)
        .ok_or_else(|| ApiError::not_found(format!("no job {id:?} in this server — GET /api/jobs lists them")))
}

/// Sends `job`'s progress into `tx` until it is over, the client has gone, or the server stops.
async fn follow(job: Arc<Job>, tx: mpsc::Sender<Event>, shutdown: tokio_util::sync::CancellationToken) {
    let mut last = None;
    loop {
        let value = wire::job_json(&job.report());
        if !job.is_running() {
            let _ = tx.send(Event::default().event("done").data(value.to_string())).await;
            return;
        }
        let moved = (value["state"].clone(), value["percent"].clone(), value["message"].clone());
        if last.as_ref() != Some(&moved) {
            if tx.send(Event::default().event("progress").data(value.to_string())).await.is_err() {
                return;
            }
            last = Some(moved);
        }
        tokio::select! {
            () = tokio::time::sleep(TICK) => {}
            () = job.wait() => {}
            () = tx.closed() => return,
            () = shutdown.cancelled() => return,
        }
    }
}

/// The receiving end of [`follow`], as the stream `Sse` sends.
struct Events(mpsc::Receiver<Event>);

impl Stream for Events {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx).map(|event| event.map(Ok))
    }
}
