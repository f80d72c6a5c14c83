//! The MCP server's HTTP route: `/mcp` (rmcp's streamable HTTP service), mounted on the
//! workspace's HTTP server behind its guard. Its sessions are counted in the workspace, whose
//! `/health` (the dashboard's route, served by every server) reports them.
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
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};

use super::server::{CocoServer, Departure};
use super::sessions::{Sessions, full_message};
use crate::workspace::HttpServer;
use crate::workspace::health::LiveSessions;

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

/// The MCP endpoint for `server`: `/mcp`. The guard and the accept loop are the server's.
pub fn routes(server: &HttpServer) -> Router {
    let shared = server.workspace();
    let mcp = &shared.options.config.settings.mcp;
    let sessions = Arc::new(Sessions::new(mcp.max_sessions, Duration::from_secs(mcp.session_idle_timeout)));
    shared.count_sessions(Arc::clone(&sessions) as Arc<dyn LiveSessions>);
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
    Router::new().route_service("/mcp", service).layer(middleware::from_fn_with_state(sessions, gate))
}
