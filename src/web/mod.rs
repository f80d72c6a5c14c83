//! The web dashboard: a page to see, search and manage every index in a browser, and the JSON
//! API under `/api/` that it uses.
//!
//! Like the MCP server and the command line, this is a presenter over the workspace
//! ([`crate::workspace`]): index statistics, searches, greps, the code graph, index jobs and
//! files are the workspace's answers, shaped by [`crate::wire`] exactly as the command line's
//! `--json`, and every query string is parsed by the command line's own parser from the
//! options the workspace declares. Its [`routes`] are mounted on the workspace's HTTP server:
//! `cocosearch mcp --transport http` serves them beside `/mcp`, and `cocosearch dashboard`
//! serves them alone. Both share that server's process state, guard (Origin, Host, token) and
//! accept loop (header timeout).
//!
//! The page (`assets/`: one HTML file, one stylesheet, the app's script and a small syntax
//! highlighter) is compiled into the binary: no CDN, no build step, and it works offline.
//!
//! Architecture invariant: the API reads files only inside indexed roots that pass
//! `config::ProjectDirRule`, only files the index holds, and only through `ProjectFiles`, so
//! `../`, absolute paths and symbolic links out of the root are refused.
//! Architecture invariant: every write (re-index, rebuild, delete) takes the index's write lock,
//! as the CLI does; a busy index is refused with 409 and the reason, never queued.
//! Architecture invariant: the store and the embedders are called only on blocking threads.

mod assets;
mod editor;
mod files;
mod graph;
mod grep;
mod indexes;
mod jobs;
mod search;
mod tasks;

use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::workspace::{Error, ErrorKind, HttpServer, Workspace};

/// The dashboard and its API, to mount on `server`: they share its state and guard.
pub fn routes(server: &HttpServer) -> Router {
    router(Web { shared: server.workspace(), shutdown: server.shutdown_token() })
}

/// What every handler reads.
#[derive(Clone)]
pub(crate) struct Web {
    /// The server's process state: stores, embedders, caches, jobs.
    pub shared: Arc<Workspace>,
    /// Cancelled on shutdown: event streams end with it.
    pub shutdown: CancellationToken,
}

/// The page, its assets and the API.
fn router(web: Web) -> Router {
    Router::new()
        .route("/", get(assets::to_dashboard))
        .route("/dashboard", get(assets::page))
        .route("/dashboard/", get(assets::page))
        .route("/dashboard/assets/{file}", get(assets::asset))
        .route("/health", get(indexes::health))
        .route("/api/stats", get(indexes::stats))
        .route("/api/info", get(indexes::info))
        .route("/api/indexes", get(indexes::list))
        .route("/api/indexes/{name}", get(indexes::detail).delete(indexes::delete))
        .route("/api/search", get(search::search))
        .route("/api/grep", get(grep::grep))
        .route("/api/file", get(files::file))
        .route("/api/open", post(files::open))
        .route("/api/graph", get(graph::graph))
        .route("/api/tasks", get(tasks::list))
        .route("/api/jobs", get(jobs::list).post(jobs::start))
        .route("/api/jobs/{id}", get(jobs::get))
        .route("/api/jobs/{id}/events", get(jobs::events))
        .with_state(web)
}

/// An API failure: the status and a message naming the thing and the fix, as
/// `{"error": "..."}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// A failure with this status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: crate::config::redact_text(&message.into()) }
    }

    /// 400: the request makes no sense.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 403: the request names something the server does not serve.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such index, file or job.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        let status = match e.kind {
            ErrorKind::Usage => StatusCode::BAD_REQUEST,
            ErrorKind::Refused => StatusCode::FORBIDDEN,
            ErrorKind::Busy => StatusCode::CONFLICT,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Damaged | ErrorKind::Other => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.message)
    }
}

impl From<crate::workspace::graph::GraphError> for ApiError {
    fn from(e: crate::workspace::graph::GraphError) -> Self {
        ApiError::from(Error::from(e))
    }
}

/// Runs `work` on a blocking thread (the store and the embedders block).
pub(crate) async fn blocking<T: Send + 'static>(
    workspace: &crate::workspace::Workspace,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    workspace
        .blocking(work)
        .await
        .unwrap_or_else(|e| Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string())))
}
