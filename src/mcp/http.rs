//! The MCP server's HTTP routes: `/mcp` (rmcp's streamable HTTP service), `/health` and
//! `/api/stats`, mounted on the workspace's HTTP server behind its guard.
//!
//! Before rmcp, `/mcp` has a gate of its own: a POST body that is not a JSON-RPC message gets
//! 400 with a JSON-RPC error (rmcp would answer 415, which blames the content type), and an
//! `initialize` that would open a session past `mcp.maxSessions` gets 503 with a JSON-RPC
//! error naming the setting.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};

use super::server::{CocoServer, Departure};
use super::sessions::{Sessions, full_message};
use crate::store::VectorSupport;
use crate::workspace::{HttpServer, McpEndpoint, Workspace, indexes};

/// The largest request body `/mcp` reads: rmcp's own limit.
const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The `/mcp` gate (see the module documentation).
async fn gate(State(sessions): State<Arc<Sessions>>, request: Request, next: Next) -> Response {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().unwrap_or_default().trim().eq_ignore_ascii_case("application/json"));
    // Other methods and content types are rmcp's to answer (405, 415).
    if request.method() != Method::POST || !json {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY_BYTES).await else {
        let message = format!("the request body exceeds {MAX_BODY_BYTES} bytes, or could not be read");
        return rpc_error(StatusCode::PAYLOAD_TOO_LARGE, Value::Null, -32600, &message);
    };
    let message = match serde_json::from_slice::<ClientJsonRpcMessage>(&bytes) {
        Ok(message) => message,
        Err(e) if e.is_syntax() || e.is_eof() => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                -32700,
                &format!("parse error: the body is not JSON ({e})"),
            );
        }
        Err(e) => {
            let message = format!("invalid request: the body is not a JSON-RPC 2.0 message ({e})");
            return rpc_error(StatusCode::BAD_REQUEST, Value::Null, -32600, &message);
        }
    };
    let opens_session = !parts.headers.contains_key("mcp-session-id")
        && matches!(&message, ClientJsonRpcMessage::Request(r) if matches!(r.request, ClientRequest::InitializeRequest(_)));
    let request = Request::from_parts(parts, Body::from(bytes));
    if !opens_session {
        return next.run(request).await;
    }
    let Some(admission) = sessions.admit() else {
        tracing::warn!(max = sessions.max, "refused a new MCP session: mcp.maxSessions are alive");
        let id = match &message {
            ClientJsonRpcMessage::Request(r) => serde_json::to_value(&r.id).unwrap_or(Value::Null),
            _ => Value::Null,
        };
        return rpc_error(StatusCode::SERVICE_UNAVAILABLE, id, -32000, &full_message(sessions.max));
    };
    // rmcp has created the session and answered the handshake once the response head exists.
    let response = next.run(request).await;
    drop(admission);
    response
}

/// A JSON-RPC error answer with this HTTP status.
fn rpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

/// What the routes other than `/mcp` read.
#[derive(Clone)]
struct App {
    shared: Arc<Workspace>,
    sessions: Arc<Sessions>,
}

/// The MCP routes for `server`: `/health`, `/api/stats` and, when `endpoint` says so, `/mcp`.
/// The guard and the accept loop are the server's.
pub fn routes(server: &HttpServer, endpoint: McpEndpoint) -> Router {
    let shared = server.workspace();
    let mcp = &shared.options.config.settings.mcp;
    // Counted by `/health` even when `/mcp` is not served.
    let sessions = Arc::new(Sessions::new(mcp.max_sessions, Duration::from_secs(mcp.session_idle_timeout)));
    let mut app = Router::new()
        .route("/health", get(health))
        .route("/api/stats", get(api_stats))
        .with_state(App { shared: Arc::clone(&shared), sessions: Arc::clone(&sessions) });
    if endpoint == McpEndpoint::Served {
        let config = StreamableHttpServerConfig::default()
            // The guard checks Host for every route (and knows about --host); rmcp's own check
            // would only cover /mcp and only loopback names.
            .disable_allowed_hosts()
            .with_max_request_body_bytes(MAX_BODY_BYTES)
            .with_cancellation_token(server.shutdown_token());
        let (handlers, open, stopping) = (Arc::clone(&shared), Arc::clone(&sessions), server.shutdown_token());
        let service = StreamableHttpService::new(
            move || {
                let departure = Departure::Session { sessions: Arc::clone(&open), stopping: stopping.clone() };
                Ok(CocoServer::new(Arc::clone(&handlers), departure))
            },
            Arc::clone(&sessions),
            config,
        );
        let service = Router::new()
            .route_service("/mcp", service)
            .layer(middleware::from_fn_with_state(Arc::clone(&sessions), gate));
        app = app.merge(service);
    }
    app
}

/// `GET /health`: version, database and embedder reachability, and the live MCP sessions. 200
/// when the database answers (an unreachable embedder degrades search to keywords), 503 when
/// it does not.
async fn health(State(App { shared, sessions }): State<App>) -> Response {
    let gate = Arc::clone(&shared);
    let checked = gate.blocking(move || {
        let settings = &shared.options.config.settings;
        let opened = shared.store_and_choice(&settings.database);
        let database = match opened.and_then(|(s, choice)| Ok((s.health()?, s, choice))) {
            Ok((h, store, choice)) => json!({
                "reachable": true,
                "backend": store.backend(),
                "backend_choice": choice.to_string(),
                "location": store.location(),
                "engine": h.engine,
                "vectors": match h.vectors {
                    VectorSupport::Ready(how) => how,
                    VectorSupport::OnFirstIndex(how) => format!("{how} (set up by the first index)"),
                    VectorSupport::Unavailable { problem, .. } => problem,
                },
            }),
            Err(e) => json!({ "reachable": false, "error": e.to_string() }),
        };
        let embedding = &settings.embedding;
        let embedder = match shared.embedder(embedding) {
            None => json!({ "reachable": true, "provider": "none", "note": "embeddings are off: keyword search only" }),
            Some(e) => {
                let info = e.info();
                match e.probe() {
                    Ok(m) => json!({ "reachable": true, "provider": info.provider, "model": m.model, "url": info.url, "dimension": m.dimension }),
                    Err(err) => json!({ "reachable": false, "provider": info.provider, "model": info.model, "url": info.url, "error": err.to_string() }),
                }
            }
        };
        (database, embedder)
    })
    .await;
    let (database, embedder) = match checked {
        Ok(pair) => pair,
        Err(e) => {
            return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(json!({ "error": e.to_string() }))).into_response();
        }
    };
    let db_ok = database["reachable"] == Value::Bool(true);
    let embed_ok = embedder["reachable"] == Value::Bool(true);
    let status = match (db_ok, embed_ok) {
        (true, true) => "ok",
        (true, false) => "degraded",
        (false, _) => "unavailable",
    };
    let code = if db_ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    let body = json!({
        "status": status,
        "version": env!("CARGO_PKG_VERSION"),
        "database": database,
        "embedder": embedder,
        "sessions": {
            "live": sessions.live(),
            "max": sessions.max,
            "idle_timeout_seconds": sessions.idle_timeout.as_secs(),
        },
    });
    (code, axum::Json(body)).into_response()
}

/// `GET /api/stats`: the JSON of `cocosearch stats --json --all`.
async fn api_stats(State(App { shared, .. }): State<App>) -> Response {
    let gate = Arc::clone(&shared);
    let result = gate.blocking(move || indexes::all_stats(&shared)).await;
    match result {
        Ok(Ok(all)) => axum::Json(Value::Array(all.iter().map(crate::wire::stats_json).collect())).into_response(),
        Ok(Err(e)) | Err(e) => {
            (StatusCode::SERVICE_UNAVAILABLE, axum::Json(json!({ "error": e.message }))).into_response()
        }
    }
}
