//! `GET /api/file`, `POST /api/open` and `GET /api/graph`: an indexed file's content for the
//! viewer, opening it in the user's editor, and (once the code graph exists) its neighbours.
//!
//! Security invariant: a file is served only when its index's recorded root passes the project
//! rule, the path is relative and stays inside the root through every link
//! ([`ProjectFiles::resolve`]), and the index holds it — so a sensitive file the walk skipped
//! (`.env`, keys) is never shown, even though it lies inside the root. The editor is started
//! only for such a file and only for a client on this machine (a loopback peer).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::indexes::{servable, valid_name};
use super::{ApiError, Web, blocking};
use crate::chunk::Language;
use crate::discover::{ProjectFiles, ReadRefused};
use crate::store::FileState;
use crate::workspace::Workspace;

/// Files larger than this are not shown, whatever `indexing.maxFileSize` allowed.
const MAX_SHOWN_BYTES: u64 = 4 * 1024 * 1024;

/// `?index=NAME&path=REL`.
#[derive(Debug, Deserialize)]
pub(crate) struct FileQuery {
    index: String,
    path: String,
}

/// An indexed file the server may read.
struct Target {
    files: ProjectFiles,
    canonical: PathBuf,
    state: FileState,
}

/// `GET /api/file?index=NAME&path=REL`: the file's text as it is on disk now, its language,
/// and whether it changed since it was indexed (`stale`).
pub(crate) async fn file(State(web): State<Web>, Query(q): Query<FileQuery>) -> Result<Json<Value>, ApiError> {
    valid_name(&q.index)?;
    blocking(&Arc::clone(&web.shared), move || {
        let target = indexed_file(&web.shared, &q.index, &q.path)?;
        let (bytes, meta) = target.files.read(&q.path, MAX_SHOWN_BYTES).map_err(|e| refusal(&q.path, e))?;
        if bytes.len() as u64 > MAX_SHOWN_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("{} is larger than {} MiB: open it in your editor", q.path, MAX_SHOWN_BYTES >> 20),
            ));
        }
        let not_text = || {
            ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!("{} is no longer UTF-8 text (it changed since it was indexed)", q.path),
            )
        };
        if bytes.contains(&0) {
            return Err(not_text());
        }
        let content = String::from_utf8(bytes).map_err(|_| not_text())?;
        let head: String = content.chars().take(512).collect();
        let language = Language::detect(std::path::Path::new(&q.path), &head).map_or("text", Language::name);
        let stale = meta.len() != target.state.size || crate::discover::mtime_ns(&meta) != target.state.mtime_ns;
        Ok(Json(json!({
            "index": q.index,
            "path": q.path,
            "language": language,
            "bytes": meta.len(),
            "lines": content.lines().count(),
            "stale": stale,
            "content": content,
        })))
    })
    .await
}

/// `{"index", "path", "line"}`.
#[derive(Debug, Deserialize)]
pub(crate) struct OpenRequest {
    index: String,
    path: String,
    line: Option<u32>,
}

/// `POST /api/open`: starts the user's editor on the file at the line. Loopback clients only:
/// the editor opens on the machine that runs the server.
pub(crate) async fn open(
    State(web): State<Web>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Json(request): Json<OpenRequest>,
) -> Result<Json<Value>, ApiError> {
    if !peer.ip().is_loopback() {
        return Err(ApiError::forbidden(
            "open in editor is only for a browser on the machine that runs cocosearch (a loopback client)",
        ));
    }
    valid_name(&request.index)?;
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let Some(editor) = super::editor::configured(&shared.options.env) else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "no editor is configured: set COCOSEARCH_EDITOR (or VISUAL or EDITOR) in the environment of the server, e.g. COCOSEARCH_EDITOR=\"code\", and start it again",
            ));
        };
        let target = indexed_file(shared, &request.index, &request.path)?;
        let line = request.line.unwrap_or(1);
        let command = editor.open(&target.canonical, line, target.files.root()).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot run the editor {} (from {}): {e} — check that variable", editor.program, editor.variable),
            )
        })?;
        tracing::info!(?command, "opened an editor from the dashboard");
        Ok(Json(json!({ "opened": format!("{}:{line}", request.path), "command": command })))
    })
    .await
}

/// `GET /api/graph`: a file's dependencies and dependents. The code graph is its own piece of
/// work; until it exists this answers 404 with the reason, and the page shows no graph panel.
/// To add it: answer `{"dependencies": [{"path": …}], "dependents": [{"path": …}]}` here and set
/// `"graph": true` in `/api/info`; the viewer then shows the panel (`loadGraph` in `app.js`).
pub(crate) async fn graph() -> ApiError {
    ApiError::not_found(
        "no code graph: this version of cocosearch does not build one, so there are no dependencies to show",
    )
}

/// The file `path` of index `index`, if the server may read it (see the module documentation).
fn indexed_file(shared: &Workspace, index: &str, path: &str) -> Result<Target, ApiError> {
    let meta = servable(shared, index)?;
    let store = shared.default_store()?;
    let files = ProjectFiles::new(&meta.root).map_err(|e| {
        ApiError::not_found(format!("the root of index {index}, {}, cannot be read: {e}", meta.root.display()))
    })?;
    let canonical = files.resolve(path).map_err(|e| refusal(path, e))?;
    let state = store
        .reader(index)?
        .file_states(Some(&[path.to_string()]))?
        .remove(path)
        .filter(|s| s.skip_reason.is_none())
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "{path} is not in index {index} — only indexed files are shown (re-index if it is new)"
            ))
        })?;
    Ok(Target { files, canonical, state })
}

/// The answer for a path `ProjectFiles` refused.
fn refusal(path: &str, e: ReadRefused) -> ApiError {
    match e {
        ReadRefused::NotRelative(_) | ReadRefused::Outside(_) | ReadRefused::Loop(_) => ApiError::forbidden(format!(
            "refusing to read {path:?}: {e} — only files inside the index's root are shown"
        )),
        ReadRefused::NotAFile(_) | ReadRefused::Io { .. } => ApiError::not_found(e.to_string()),
    }
}
