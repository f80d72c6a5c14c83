//! The JSON of `GET /health`: the workspace's [`Health`] checks, with the status a client acts
//! on (`ok`, `degraded` when only the embedder is down, `unavailable` when the store is).

use serde_json::{Value, json};

use crate::workspace::health::{DatabaseHealth, EmbedderHealth, Health};

/// `/health`'s body, and whether the store answered (the route's 200 or 503).
pub fn health_json(health: &Health) -> (Value, bool) {
    let database = match &health.database {
        DatabaseHealth::Reachable { backend, choice, location, engine, vectors } => json!({
            "reachable": true,
            "backend": backend,
            "backend_choice": choice,
            "location": location,
            "engine": engine,
            "vectors": vectors,
        }),
        DatabaseHealth::Unreachable(error) => json!({ "reachable": false, "error": error }),
    };
    let embedder = match &health.embedder {
        EmbedderHealth::Off => {
            json!({ "reachable": true, "provider": "none", "note": "embeddings are off: keyword search only" })
        }
        EmbedderHealth::Reachable { provider, model, url, dimension } => {
            json!({ "reachable": true, "provider": provider, "model": model, "url": url, "dimension": dimension })
        }
        EmbedderHealth::Unreachable { provider, model, url, error } => {
            json!({ "reachable": false, "provider": provider, "model": model, "url": url, "error": error })
        }
    };
    let db_ok = matches!(health.database, DatabaseHealth::Reachable { .. });
    let embed_ok = !matches!(health.embedder, EmbedderHealth::Unreachable { .. });
    let status = match (db_ok, embed_ok) {
        (true, true) => "ok",
        (true, false) => "degraded",
        (false, _) => "unavailable",
    };
    let mut body = json!({
        "status": status,
        "version": env!("CARGO_PKG_VERSION"),
        "database": database,
        "embedder": embedder,
    });
    if let Some(s) = &health.sessions {
        body["sessions"] = json!({ "live": s.live, "max": s.max, "idle_timeout_seconds": s.idle_timeout.as_secs() });
    }
    (body, db_ok)
}
