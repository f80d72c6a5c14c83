//! The guard in front of every route the HTTP server hosts (the MCP endpoint and the
//! dashboard alike): it checks the `Origin` and `Host` headers and the token.
//!
//! The MCP specification asks servers to validate `Origin` against DNS rebinding: a web page
//! in a browser must not reach a local server. Browser origins are accepted only when they are
//! loopback (`http://localhost:5173`), listed in `mcp.allowedOrigins`, or the server's own
//! origin (`http://` + a `Host` that passed its check: the dashboard's page calling its API);
//! requests without `Origin` (every non-browser client) pass. `Host` must be loopback, the
//! bound address, or a listed origin's host, unless the server is bound to all interfaces on
//! purpose. When `mcp.token` (`COCOSEARCH_MCP_TOKEN`) is set, every request needs
//! `Authorization: Bearer <token>` or, from a browser, the token cookie: a `GET` with
//! `?token=<token>` (the link `cocosearch dashboard` opens) is redirected to the same address
//! without it, setting an `HttpOnly`, `SameSite=Strict` cookie that holds a value derived from
//! the token (never the token itself), named after the port because cookies ignore ports.
//!

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// What the guard lets through.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    /// The bearer token every request must carry, if any.
    pub token: Option<String>,
    /// Extra accepted origins (`https://app.example.com`, `http://host:*`, or `*`).
    pub allowed_origins: Vec<String>,
    /// The address the server is bound to.
    pub bind_host: String,
    /// The name of the cookie a browser keeps the token in ([`token_cookie_name`]).
    pub cookie: String,
}

/// The token cookie of the server on `port`: one per port, since browsers send a host's
/// cookies to all its ports and two servers may have different tokens.
pub(crate) fn token_cookie_name(port: u16) -> String {
    format!("cocosearch_token_{port}")
}

/// The cookie value that proves the token: derived from it, so the cookie jar never holds the
/// token that `Authorization: Bearer` takes.
fn cookie_value(token: &str) -> String {
    blake3::derive_key("cocosearch 2026 dashboard token cookie", token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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

    /// Whether the request carries the token, as a bearer header or as the token cookie
    /// (always true without a token).
    pub fn authorized(&self, headers: &HeaderMap) -> bool {
        let Some(token) = &self.token else { return true };
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim);
        if given.is_some_and(|g| constant_time_eq(g.as_bytes(), token.as_bytes())) {
            return true;
        }
        let expected = cookie_value(token);
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| name == self.cookie && constant_time_eq(value.as_bytes(), expected.as_bytes()))
    }

    /// Whether `origin` is this server's own origin, as the browser names it: `http://` and
    /// the `Host` header (which the caller has checked).
    fn same_origin(origin: &str, host: Option<&str>) -> bool {
        host.is_some_and(|host| origin.trim().eq_ignore_ascii_case(&format!("http://{host}")))
    }

    /// For a `GET` carrying `?token=` equal to the token: the redirect to the same address
    /// without it, setting the token cookie. A wrong `?token=` gets nothing here (the request
    /// then fails the token check).
    fn token_link(&self, request: &Request) -> Option<Response> {
        let token = self.token.as_ref()?;
        if request.method() != Method::GET {
            return None;
        }
        let query = request.uri().query()?;
        let pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        let given = pairs.iter().find(|(k, _)| k == "token")?;
        if !constant_time_eq(given.1.as_bytes(), token.as_bytes()) {
            return None;
        }
        let rest: Vec<&(String, String)> = pairs.iter().filter(|(k, _)| k != "token").collect();
        let mut location = request.uri().path().to_string();
        if !rest.is_empty() {
            location.push('?');
            location.push_str(&url::form_urlencoded::Serializer::new(String::new()).extend_pairs(rest).finish());
        }
        let cookie = format!("{}={}; HttpOnly; SameSite=Strict; Path=/", self.cookie, cookie_value(token));
        Some((StatusCode::SEE_OTHER, [(header::LOCATION, location), (header::SET_COOKIE, cookie)]).into_response())
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

pub(crate) async fn guard(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let host_ok = host.is_none_or(|h| guard.host_allowed(h));
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("(not text)");
        let own = host_ok && Guard::same_origin(origin, host);
        if !own && !guard.origin_allowed(origin) {
            tracing::warn!(origin, "rejected a request from a foreign origin");
            let message = format!(
                "origin {origin} is not allowed: browser origins must be loopback or listed in mcp.allowedOrigins (COCOSEARCH_MCP_ALLOWED_ORIGINS)"
            );
            return (StatusCode::FORBIDDEN, axum::Json(json!({ "error": message }))).into_response();
        }
    }
    if let Some(host) = host
        && !host_ok
    {
        let message =
            format!("host {host} is not allowed: use a loopback address, or list its origin in mcp.allowedOrigins");
        return (StatusCode::FORBIDDEN, axum::Json(json!({ "error": message }))).into_response();
    }
    if let Some(redirect) = guard.token_link(&request) {
        return redirect;
    }
    if !guard.authorized(headers) {
        return unauthorized(headers);
    }
    next.run(request).await
}

/// 401: JSON for programs, a short page for a person whose browser has no token cookie.
fn unauthorized(headers: &HeaderMap) -> Response {
    let message = "missing or wrong token: send `Authorization: Bearer <mcp.token>`, or open the address with ?token=<mcp.token> once in the browser";
    let wants_page =
        headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|accept| accept.contains("text/html"));
    if wants_page {
        let page = "<!doctype html><meta charset=utf-8><title>cocosearch: token needed</title>\
            <body style=\"font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem\">\
            <h1 style=\"font-size:1.3rem\">This cocosearch server needs its token</h1>\
            <p>Open the address that <code>cocosearch dashboard</code> printed, which ends in \
            <code>?token=…</code>, or add <code>?token=</code> and the value of <code>mcp.token</code> \
            (<code>COCOSEARCH_MCP_TOKEN</code>) to this address once. The browser then keeps a cookie for it.</p>";
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer"), (header::CONTENT_TYPE, "text/html; charset=utf-8")],
            page,
        )
            .into_response();
    }
    (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")], axum::Json(json!({ "error": message })))
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn guard(origins: &[&str], bind: &str, token: Option<&str>) -> Guard {
        Guard {
            token: token.map(str::to_string),
            allowed_origins: origins.iter().map(|s| s.to_string()).collect(),
            bind_host: bind.to_string(),
            cookie: token_cookie_name(3000),
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

    #[test]
    fn token_cookie() {
        let g = guard(&[], "127.0.0.1", Some("s3cret"));
        let with_cookie = |cookie: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::COOKIE, cookie.parse().expect("header"));
            g.authorized(&headers)
        };
        let value = cookie_value("s3cret");
        assert!(with_cookie(&format!("a=b; cocosearch_token_3000={value}")));
        // Another port's cookie, the token itself, or a wrong value do not pass.
        assert!(!with_cookie(&format!("cocosearch_token_3001={value}")));
        assert!(!with_cookie("cocosearch_token_3000=s3cret"));
        assert!(!with_cookie(&format!("cocosearch_token_3000={value}x")));
        assert_ne!(value, cookie_value("other"));
    }

    #[test]
    fn token_link_redirects_without_the_token() {
        let g = guard(&[], "127.0.0.1", Some("s3 cret"));
        let request = |uri: &str| Request::builder().uri(uri).body(Body::empty()).expect("request");
        let response = g.token_link(&request("/dashboard?token=s3+cret&x=1")).expect("redirect");
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        assert_eq!(response.headers()[header::LOCATION], "/dashboard?x=1");
        let cookie = response.headers()[header::SET_COOKIE].to_str().expect("text");
        assert!(
            cookie
                .starts_with(&format!("cocosearch_token_3000={}; HttpOnly; SameSite=Strict", cookie_value("s3 cret"))),
            "{cookie}"
        );
        assert!(g.token_link(&request("/dashboard?token=wrong")).is_none());
        assert!(g.token_link(&request("/dashboard")).is_none());
        assert!(guard(&[], "127.0.0.1", None).token_link(&request("/dashboard?token=x")).is_none());
    }

    #[test]
    fn same_origin_is_the_host_over_http() {
        assert!(Guard::same_origin("http://10.0.0.5:3001", Some("10.0.0.5:3001")));
        assert!(!Guard::same_origin("http://evil.example", Some("10.0.0.5:3001")));
        assert!(!Guard::same_origin("https://10.0.0.5:3001", Some("10.0.0.5:3001")));
        assert!(!Guard::same_origin("http://10.0.0.5:3001", None));
    }
}
