//! `GET /api/tasks?index=NAME`: the tasks of an index's project by status, each with its
//! branches, commits and planning documents (the JSON of `cocosearch task list --json`), for
//! the index page's task board.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{ApiError, Web, blocking};
use crate::wire;
use crate::workspace::tasks::{TaskFilter, TaskStatus, validate};
use crate::workspace::{Caller, Error, IndexRef, Need};

/// The query string of `/api/tasks`.
#[derive(Debug, Deserialize)]
pub(crate) struct TasksQuery {
    /// The index whose project's tasks to list.
    index: String,
    /// Tasks per status, 1 to 100 (default 50).
    limit: Option<u32>,
}

/// `GET /api/tasks?index=NAME[&limit=N]`: `{"index", "counts": {status: n}, "by_status":
/// {status: [task]}}`, statuses in the order work goes.
pub(crate) async fn list(State(web): State<Web>, Query(q): Query<TasksQuery>) -> Result<Json<Value>, ApiError> {
    let limit = validate::limit(q.limit).map_err(|e| ApiError::bad_request(e.to_string()))?;
    blocking(&Arc::clone(&web.shared), move || {
        let target = web.shared.open(Caller::Browser, &IndexRef::named(&q.index), Need::Index)?;
        let tasks = target.tasks()?;
        let mut counts = Map::new();
        for (status, n) in tasks.counts().map_err(failed)? {
            counts.insert(status.as_str().into(), json!(n));
        }
        let mut by_status = Map::new();
        for status in TaskStatus::ALL {
            let filter = TaskFilter {
                status: Some(status.as_str().into()),
                branch: None,
                text: None,
                limit: u32::try_from(limit).ok(),
            };
            let listed = tasks.list(&filter).map_err(failed)?;
            by_status.insert(status.as_str().into(), json!(listed.iter().map(wire::task_json).collect::<Vec<_>>()));
        }
        Ok(Json(json!({ "index": q.index, "counts": counts, "by_status": by_status, "limit": limit })))
    })
    .await
}

fn failed(e: impl Into<Error>) -> ApiError {
    ApiError::from(e.into())
}
