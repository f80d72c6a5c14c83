//! The page and its assets, compiled into the binary (`include_str!`): no CDN and no network,
//! so the dashboard works offline and is exactly what this version shipped.
//!
//! Each answer carries an `ETag` (a hash of the bytes) and `Cache-Control: no-cache`, so a
//! browser revalidates with a cheap 304 and never runs a stale script after an upgrade, and a
//! strict `Content-Security-Policy`: scripts, styles and connections from this server only.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};

/// One embedded file.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

/// The page is `index.html`; the others are under `/dashboard/assets/`.
const ASSETS: &[Asset] = &[
    Asset { name: "index.html", content_type: "text/html; charset=utf-8", body: include_str!("assets/index.html") },
    Asset { name: "app.css", content_type: "text/css; charset=utf-8", body: include_str!("assets/app.css") },
    Asset { name: "app.js", content_type: "text/javascript; charset=utf-8", body: include_str!("assets/app.js") },
    Asset {
        name: "highlight.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("assets/highlight.js"),
    },
    Asset { name: "favicon.svg", content_type: "image/svg+xml", body: include_str!("assets/favicon.svg") },
];

/// What the page may load: its own scripts, styles and API, SVG data images, nothing framed.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `GET /`: the dashboard.
pub(crate) async fn to_dashboard() -> Redirect {
    Redirect::to("/dashboard")
}

/// `GET /dashboard`: the page.
pub(crate) async fn page(headers: HeaderMap) -> Response {
    serve(0, &headers)
}

/// `GET /dashboard/assets/{file}`.
pub(crate) async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    match ASSETS.iter().position(|a| a.name == file && a.name != "index.html") {
        Some(i) => serve(i, &headers),
        None => (StatusCode::NOT_FOUND, format!("no asset {file:?}")).into_response(),
    }
}

/// The entity tags of [`ASSETS`], computed once.
fn etags() -> &'static [String] {
    static ETAGS: OnceLock<Vec<String>> = OnceLock::new();
    ETAGS.get_or_init(|| {
        ASSETS.iter().map(|a| format!("\"{}\"", &blake3::hash(a.body.as_bytes()).to_hex()[..16])).collect()
    })
}

fn serve(i: usize, headers: &HeaderMap) -> Response {
    let asset = &ASSETS[i];
    let etag = &etags()[i];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, asset.content_type)], asset.body).into_response()
    };
    let set = response.headers_mut();
    set.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(etag) {
        set.insert(header::ETAG, value);
    }
    set.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    set.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // The first address may carry ?token=: never send it on.
    set.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    set.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}
