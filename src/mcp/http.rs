//! The streamable HTTP transport: `/mcp` (rmcp's service), `/health` and `/api/stats`, behind
//! one guard that checks the `Origin` and `Host` headers and the bearer token.
//!
//! The MCP specification asks servers to validate `Origin` against DNS rebinding: a web page
//! in a browser must not reach a local server. Browser origins are accepted only when they are
//! loopback (`http://localhost:5173`) or listed in `mcp.allowedOrigins`; requests without
//! `Origin` (every non-browser client) pass. `Host` must be loopback, the bound address, or a
//! listed origin's host, unless the server is bound to all interfaces on purpose. When
//! `mcp.token` (`COCOSEARCH_MCP_TOKEN`) is set, every request needs
//! `Authorization: Bearer <token>`.
//!
//! Behind the guard, `/mcp` has a gate of its own before rmcp: a POST body that is not a
//! JSON-RPC message gets 400 with a JSON-RPC error (rmcp would answer 415, which blames the
//! content type), and an `initialize` that would open a session past `mcp.maxSessions` gets
//! 503 with a JSON-RPC error naming the setting.

use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::manage;
use super::server::CocoServer;
use super::sessions::{Sessions, full_message};
use super::state::Shared;
use crate::store::VectorSupport;

/// What the guard lets through.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    /// The bearer token every request must carry, if any.
    pub token: Option<String>,
    /// Extra accepted origins (`https://app.example.com`, `http://host:*`, or `*`).
    pub allowed_origins: Vec<String>,
    /// The address the server is bound to.
    pub bind_host: String,
}

impl Guard {
    /// Whether a browser at `origin` may call the server.
    pub fn origin_allowed(&self, origin: &str) -> bool {
        let origin = origin.trim();
        if self.allowed_origins.iter().any(|a| a == "*" || a.eq_ignore_ascii_case(origin)) {
            return true;
        }
        let Ok(url) = url::Url::parse(origin) else { return false };
        if url.host().is_some_and(|h| is_loopback(&h.to_string())) {
            return true;
        }
        let serialized = url.origin().ascii_serialization();
        self.allowed_origins.iter().any(|allowed| {
            match allowed.strip_suffix(":*") {
                // `http://host:*`: any port.
                Some(prefix) => url::Url::parse(prefix).is_ok_and(|a| {
                    a.scheme() == url.scheme()
                        && a.host_str().map(str::to_lowercase) == url.host_str().map(str::to_lowercase)
                }),
                None => url::Url::parse(allowed).is_ok_and(|a| a.origin().ascii_serialization() == serialized),
            }
        })
    }

    /// Whether the `Host` header names this server.
    pub fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host);
        if is_loopback(&name)
            || is_unspecified(&self.bind_host)
            || name.eq_ignore_ascii_case(&host_name(&self.bind_host))
        {
            return true;
        }
        self.allowed_origins
            .iter()
            .filter_map(|o| url::Url::parse(o.trim_end_matches(":*")).ok())
            .any(|u| u.host_str().is_some_and(|h| h.eq_ignore_ascii_case(&name)))
    }

    /// Whether the request carries the token (always true without one).
    pub fn authorized(&self, headers: &HeaderMap) -> bool {
        let Some(token) = &self.token else { return true };
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim);
        given.is_some_and(|g| constant_time_eq(g.as_bytes(), token.as_bytes()))
    }
}

/// `localhost:3000` → `localhost`, `[::1]:3000` → `::1`.
fn host_name(host: &str) -> String {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default().to_lowercase();
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.chars().all(|c| c.is_ascii_digit()) => name.to_lowercase(),
        _ => host.to_lowercase(),
    }
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']').to_lowercase();
    host == "localhost" || host.ends_with(".localhost") || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn is_unspecified(host: &str) -> bool {
    host_name(host).parse::<IpAddr>().is_ok_and(|ip| ip.is_unspecified())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn guard(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("(not text)");
        if !guard.origin_allowed(origin) {
            tracing::warn!(origin, "rejected a request from a foreign origin");
            let message = format!(
                "origin {origin} is not allowed: browser origins must be loopback or listed in mcp.allowedOrigins (COCOSEARCH_MCP_ALLOWED_ORIGINS)"
            );
            return (StatusCode::FORBIDDEN, axum::Json(json!({ "error": message }))).into_response();
        }
    }
    if let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok())
        && !guard.host_allowed(host)
    {
        let message =
            format!("host {host} is not allowed: use a loopback address, or list its origin in mcp.allowedOrigins");
        return (StatusCode::FORBIDDEN, axum::Json(json!({ "error": message }))).into_response();
    }
    if !guard.authorized(headers) {
        let message = "missing or wrong bearer token: send `Authorization: Bearer <mcp.token>`";
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            axum::Json(json!({ "error": message })),
        )
            .into_response();
    }
    next.run(request).await
}

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
    shared: Arc<Shared>,
    sessions: Arc<Sessions>,
}

/// The application: `/mcp`, `/health`, `/api/stats`, all behind the guard.
pub(crate) fn router(
    shared: Arc<Shared>,
    sessions: Arc<Sessions>,
    guard_config: Guard,
    ct: CancellationToken,
) -> Router {
    let config = StreamableHttpServerConfig::default()
        // The guard checks Host for every route (and knows about --host); rmcp's own check
        // would only cover /mcp and only loopback names.
        .disable_allowed_hosts()
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(ct);
    let handlers = Arc::clone(&shared);
    let mcp =
        StreamableHttpService::new(move || Ok(CocoServer::new(Arc::clone(&handlers))), Arc::clone(&sessions), config);
    let mcp =
        Router::new().route_service("/mcp", mcp).layer(middleware::from_fn_with_state(Arc::clone(&sessions), gate));
    Router::new()
        .route("/health", get(health))
        .route("/api/stats", get(api_stats))
        .with_state(App { shared, sessions })
        .merge(mcp)
        .layer(middleware::from_fn_with_state(Arc::new(guard_config), guard))
}

/// `GET /health`: version, database and embedder reachability, and the live MCP sessions. 200
/// when the database answers (an unreachable embedder degrades search to keywords), 503 when
/// it does not.
async fn health(State(App { shared, sessions }): State<App>) -> Response {
    let checked = tokio::task::spawn_blocking(move || {
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
    let result = tokio::task::spawn_blocking(move || manage::all_stats(&shared)).await;
    match result {
        Ok(Ok(all)) => axum::Json(serde_json::to_value(all).unwrap_or_default()).into_response(),
        Ok(Err(e)) => (StatusCode::SERVICE_UNAVAILABLE, axum::Json(json!({ "error": e.message }))).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(json!({ "error": e.to_string() }))).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(origins: &[&str], bind: &str, token: Option<&str>) -> Guard {
        Guard {
            token: token.map(str::to_string),
            allowed_origins: origins.iter().map(|s| s.to_string()).collect(),
            bind_host: bind.to_string(),
        }
    }

    #[test]
    fn origins() {
        let g = guard(&["https://app.example.com", "http://tools.internal:*"], "127.0.0.1", None);
        for ok in [
            "http://localhost:5173",
            "http://127.0.0.1",
            "http://[::1]:8080",
            "https://app.example.com",
            "https://app.example.com:443",
            "http://tools.internal:9999",
        ] {
            assert!(g.origin_allowed(ok), "{ok}");
        }
        for bad in ["https://evil.example", "http://app.example.com", "null", "https://app.example.com:8443", "garbage"]
        {
            assert!(!g.origin_allowed(bad), "{bad}");
        }
        assert!(guard(&["*"], "127.0.0.1", None).origin_allowed("https://evil.example"));
    }

    #[test]
    fn hosts() {
        let g = guard(&["https://app.example.com"], "127.0.0.1", None);
        for ok in ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "app.example.com"] {
            assert!(g.host_allowed(ok), "{ok}");
        }
        assert!(!g.host_allowed("evil.example:3000"));
        assert!(guard(&[], "0.0.0.0", None).host_allowed("192.168.1.20:3000"));
        assert!(guard(&[], "10.0.0.5", None).host_allowed("10.0.0.5:3000"));
    }

    #[test]
    fn token() {
        let mut headers = HeaderMap::new();
        assert!(guard(&[], "127.0.0.1", None).authorized(&headers));
        let g = guard(&[], "127.0.0.1", Some("s3cret"));
        assert!(!g.authorized(&headers));
        headers.insert(header::AUTHORIZATION, "Bearer nope".parse().expect("header"));
        assert!(!g.authorized(&headers));
        headers.insert(header::AUTHORIZATION, "Bearer s3cret".parse().expect("header"));
        assert!(g.authorized(&headers));
    }
}
