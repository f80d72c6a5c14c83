//! `GET /api/search`: `cocosearch search --json` over HTTP. The parameters are the command's
//! flags by their long names (`q` is the query): `index`, `indexes`, `limit`, `min-score`,
//! `lang`, `path`, `symbol-type`, `symbol-name`, `hybrid`, `no-hybrid`, `keyword`,
//! `before-context`, `after-context`, `context`, `no-smart`, `no-cache`, `definitions`; the answer is
//! [`crate::wire::search_json`], the same JSON.
//!
//! The index's own project configuration supplies the defaults (`search.resultLimit`,
//! `search.minScore`, smart context, `linkedIndexes` when one `index` is named), as the CLI
//! run in that project would.

use axum::Json;
use axum::extract::{Query, State};
use serde_json::Value;
use std::sync::Arc;

use super::indexes::{servable, valid_name};
use super::{ApiError, Web, blocking};
use crate::search::{FilterSpec, Mode, SearchError, Searcher};
use crate::store::StoreError;
use crate::wire;
use crate::workspace::project::index_project;
use crate::workspace::search::{self as request, Bounds, CacheUse, Embedders, SearchInput};

/// The most results one request may ask for.
const MAX_LIMIT: usize = 200;
/// The most context lines one request may ask for on each side.
const MAX_CONTEXT: usize = 100;
/// The parameters, as the page and docs/dashboard.md name them.
const KNOWN: &[&str] = &[
    "q",
    "index",
    "indexes",
    "limit",
    "min-score",
    "lang",
    "path",
    "symbol-type",
    "symbol-name",
    "hybrid",
    "no-hybrid",
    "keyword",
    "before-context",
    "after-context",
    "context",
    "no-smart",
    "no-cache",
    "definitions",
];

/// The flags of one request, parsed.
#[derive(Debug, Default)]
struct Params {
    query: String,
    index: Option<String>,
    indexes: Vec<String>,
    limit: Option<usize>,
    min_score: Option<f64>,
    langs: Vec<String>,
    path: Option<String>,
    symbol_types: Vec<String>,
    symbol_name: Option<String>,
    hybrid: bool,
    no_hybrid: bool,
    keyword: bool,
    before: Option<usize>,
    after: Option<usize>,
    context: Option<usize>,
    no_smart: bool,
    no_cache: bool,
    definitions: Option<usize>,
}

/// `GET /api/search?q=...&index=NAME&...`.
pub(crate) async fn search(
    State(web): State<Web>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ApiError> {
    let params = parse(&pairs)?;
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        let first = params.indexes.first().or(params.index.as_ref()).cloned().ok_or_else(|| {
            ApiError::bad_request("name the index to search: ?index=NAME (GET /api/indexes lists them)")
        })?;
        servable(shared, &first)?;
        let project = index_project(shared, &first)?;
        let settings = &project.config.settings;
        let indexes = if params.indexes.is_empty() {
            request::with_linked(first, &project.config)
        } else {
            params.indexes.clone()
        };
        for name in &indexes[1..] {
            servable(shared, name)?;
        }
        let input = SearchInput {
            query: params.query.clone(),
            indexes,
            limit: params.limit,
            min_score: params.min_score,
            mode: if params.keyword {
                Mode::Keyword
            } else if params.no_hybrid {
                Mode::Vector
            } else if params.hybrid {
                Mode::Hybrid
            } else {
                Mode::Auto
            },
            filter: FilterSpec {
                languages: params.langs.clone(),
                path_glob: params.path.clone(),
                symbol_types: params.symbol_types.clone(),
                symbol_name_glob: params.symbol_name.clone(),
            },
            before: params.before,
            after: params.after,
            around: params.context,
            smart: params.no_smart.then_some(false),
            max_lines: None,
            cache: if params.no_cache { CacheUse::Refresh } else { CacheUse::Read },
            definitions: params.definitions.filter(|&n| n > 0),
            at: crate::store::At::Current,
        };
        let request = request::request(&project.config, input, Bounds { limit: MAX_LIMIT, context: MAX_CONTEXT });
        let store = shared.store(&settings.database)?;
        // Each index is searched with its own model, as in `search_code`.
        let embedders = Embedders { workspace: shared, settings: &settings.embedding };
        let searcher =
            Searcher { store: store.as_ref(), embedders: &embedders, cache: &shared.cache, tuning: Default::default() };
        let response = searcher.search(&request).map_err(|e| match e {
            SearchError::InvalidFilter(message) => ApiError::bad_request(message),
            SearchError::EmptyQuery | SearchError::QueryTooLong(_) => ApiError::bad_request(e.to_string()),
            SearchError::Store(StoreError::IndexNotFound(name)) => super::indexes::no_index(&name),
            SearchError::Store(other) => ApiError::from(other),
        })?;
        let mut answer = wire::search_json(&request, &response);
        // How fresh the answer is, as the command line and `search_code` say it.
        let freshness = request
            .indexes
            .first()
            .and_then(|index| shared.search_freshness(std::sync::Arc::clone(&store), index, &settings.indexing));
        answer["freshness"] = freshness.as_ref().map_or(serde_json::Value::Null, wire::search_freshness_json);
        Ok(Json(answer))
    })
    .await
}

/// Reads the query string the way clap reads the flags: unknown names, bad numbers and
/// conflicting modes are errors that say so.
fn parse(pairs: &[(String, String)]) -> Result<Params, ApiError> {
    let mut p = Params::default();
    let mut query = None;
    for (name, value) in pairs {
        let number = |what: &str| -> Result<usize, ApiError> {
            value
                .trim()
                .parse()
                .map_err(|_| ApiError::bad_request(format!("{what}={value:?}: expected a whole number")))
        };
        let flag = || -> Result<bool, ApiError> {
            match value.trim() {
                "" | "true" | "1" | "yes" | "on" => Ok(true),
                "false" | "0" | "no" | "off" => Ok(false),
                other => Err(ApiError::bad_request(format!("{name}={other:?}: expected true or false"))),
            }
        };
        let list = || value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let text = || Some(value.clone()).filter(|v| !v.trim().is_empty());
        match name.as_str() {
            "q" => query = Some(value.clone()),
            "index" => p.index = text(),
            "indexes" => p.indexes.extend(list()),
            "limit" => p.limit = Some(number("limit")?),
            "min-score" => {
                p.min_score = Some(value.trim().parse().map_err(|_| {
                    ApiError::bad_request(format!("min-score={value:?}: expected a number between 0 and 1"))
                })?)
            }
            "lang" => p.langs.extend(list()),
            "path" => p.path = text(),
            "symbol-type" => p.symbol_types.extend(list()),
            "symbol-name" => p.symbol_name = text(),
            "hybrid" => p.hybrid = flag()?,
            "no-hybrid" => p.no_hybrid = flag()?,
            "keyword" => p.keyword = flag()?,
            "before-context" => p.before = Some(number("before-context")?),
            "after-context" => p.after = Some(number("after-context")?),
            "context" => p.context = Some(number("context")?),
            "no-smart" => p.no_smart = flag()?,
            "no-cache" => p.no_cache = flag()?,
            "definitions" => p.definitions = Some(number("definitions")?),
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown parameter {other:?} — the parameters are {}",
                    KNOWN.join(", ")
                )));
            }
        }
    }
    p.query = query
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| ApiError::bad_request(format!("{} (?q=...)", SearchError::EmptyQuery)))?;
    for (a, b, set) in [
        ("hybrid", "no-hybrid", p.hybrid && p.no_hybrid),
        ("hybrid", "keyword", p.hybrid && p.keyword),
        ("no-hybrid", "keyword", p.no_hybrid && p.keyword),
    ] {
        if set {
            return Err(ApiError::bad_request(format!("{a} cannot be used with {b}: pick one mode")));
        }
    }
    for name in p.indexes.iter().chain(&p.index) {
        valid_name(name)?;
    }
    if p.min_score.is_some_and(|s| !(0.0..=1.0).contains(&s)) {
        return Err(ApiError::bad_request("min-score must be between 0 and 1"));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn flags_parse_like_the_command_line() {
        let p = parse(&pairs(&[
            ("q", "retry uploads"),
            ("index", "proj"),
            ("lang", "py, rs"),
            ("lang", "go"),
            ("symbol-type", "function"),
            ("keyword", ""),
            ("context", "3"),
            ("no-smart", "true"),
        ]))
        .expect("parses");
        assert_eq!(p.query, "retry uploads");
        assert_eq!(p.index.as_deref(), Some("proj"));
        assert_eq!(p.langs, ["py", "rs", "go"]);
        assert_eq!(p.symbol_types, ["function"]);
        assert!(p.keyword && p.no_smart && !p.hybrid);
        assert_eq!(p.context, Some(3));
    }

    #[test]
    fn mistakes_are_named() {
        let error = |items: &[(&str, &str)]| parse(&pairs(items)).expect_err("refused").message;
        assert!(error(&[("index", "p")]).contains("query is empty"));
        assert!(error(&[("q", "x"), ("langs", "py")]).contains("unknown parameter \"langs\""));
        assert!(error(&[("q", "x"), ("limit", "ten")]).contains("limit=\"ten\""));
        assert!(error(&[("q", "x"), ("hybrid", ""), ("keyword", "1")]).contains("hybrid cannot be used with keyword"));
        assert!(error(&[("q", "x"), ("index", "Bad-Name")]).contains("Bad-Name"));
        assert!(error(&[("q", "x"), ("min-score", "2")]).contains("between 0 and 1"));
    }
}
