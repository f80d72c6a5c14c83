//! `GET /api/file` and `POST /api/open`: an indexed file's content for the viewer, and opening
//! it in the user's editor.
//!
//! Security invariant: a file is served only as the workspace serves one
//! ([`crate::workspace::Target::indexed_file`]: a servable root, a path inside it through every
//! link, a file the index holds). The editor is started only for such a file and only for a
//! client on this machine (a loopback peer).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, Web, blocking};
use crate::workspace::files::{IndexedFile, Unshown};
use crate::workspace::{Caller, IndexRef, Need, Workspace};

/// Files larger than this are not shown, whatever `indexing.maxFileSize` allowed.
const MAX_SHOWN_BYTES: u64 = 4 * 1024 * 1024;

/// `?index=NAME&path=REL`.
#[derive(Debug, Deserialize)]
pub(crate) struct FileQuery {
    index: String,
    path: String,
}

/// `GET /api/file?index=NAME&path=REL`: the file's text as it is on disk now, its language,
/// and whether it changed since it was indexed (`stale`).
pub(crate) async fn file(State(web): State<Web>, Query(q): Query<FileQuery>) -> Result<Json<Value>, ApiError> {
    blocking(&Arc::clone(&web.shared), move || {
        let file = indexed_file(&web.shared, &q.index, &q.path)?;
        let text = file.text(MAX_SHOWN_BYTES).map_err(|e| match e {
            Unshown::TooLarge(limit) => ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("{} is larger than {} MiB: open it in your editor", q.path, limit >> 20),
            ),
            Unshown::NotText => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!("{} is no longer UTF-8 text (it changed since it was indexed)", q.path),
            ),
            Unshown::Refused(e) => e.into(),
        })?;
        Ok(Json(json!({
            "index": q.index,
            "path": q.path,
            "language": text.language,
            "bytes": text.bytes,
            "lines": text.content.lines().count(),
            "stale": text.stale,
            "content": text.content,
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
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let Some(editor) = super::editor::configured(&shared.options.env) else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "no editor is configured: set COCOSEARCH_EDITOR (or VISUAL or EDITOR) in the environment of the server, e.g. COCOSEARCH_EDITOR=\"code\", and start it again",
            ));
        };
        let file = indexed_file(shared, &request.index, &request.path)?;
        let line = request.line.unwrap_or(1);
        let command = editor.open(&file.canonical, line, file.root()).map_err(|e| {
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

/// The file `path` of index `index`, if the server may read it.
fn indexed_file(shared: &Arc<Workspace>, index: &str, path: &str) -> Result<IndexedFile, ApiError> {
    let target = shared.open(Caller::Browser, &IndexRef::named(index), Need::Index)?;
    Ok(target.indexed_file(path)?)
}
