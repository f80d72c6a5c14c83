//! `GET /api/grep`: `cocosearch grep --json` over HTTP, for the search box's grep mode. The
//! parameters are `q` (the pattern), `index` (whose project is searched), `lang`, `glob`,
//! `context`, `limit`, `ignore-case`, `fixed-strings` and `word`; the matches are
//! [`crate::wire::grep_hit_json`]'s, each with its `index`.

use std::ops::ControlFlow;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use serde_json::{Value, json};

use super::indexes::{servable, valid_name};
use super::{ApiError, Web, blocking};
use crate::chunk::Language;
use crate::grep::{Case, GrepRequest, Pattern, Polarity, Report, Syntax};
use crate::wire;
use crate::workspace::grep as service;
use crate::workspace::project::index_project;

/// The most matches one request may ask for, and the default.
const MAX_LIMIT: usize = 1000;
const DEFAULT_LIMIT: usize = 100;
/// The most context lines on each side.
const MAX_CONTEXT: usize = 20;
const KNOWN: &[&str] = &["q", "index", "lang", "glob", "context", "limit", "ignore-case", "fixed-strings", "word"];

/// `GET /api/grep?q=PATTERN&index=NAME&...`.
pub(crate) async fn grep(
    State(web): State<Web>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ApiError> {
    let (index, request, limit) = parse(&pairs)?;
    blocking(&Arc::clone(&web.shared), move || {
        let shared = &web.shared;
        servable(shared, &index)?;
        let project = index_project(shared, &index)?;
        let store = shared.store(&project.config.settings.database)?;
        let reader = service::project_index(&project.config, Some(&store));
        let mut results = Vec::new();
        let mut truncated = false;
        let summary = service::run(&project.config, &request, service::Files::OnDisk(reader.as_deref()), |file| {
            for mut hit in wire::grep_file_json(&file, request.after) {
                if results.len() >= limit {
                    truncated = true;
                    return ControlFlow::Break(());
                }
                hit["index"] = json!(index);
                results.push(hit);
            }
            ControlFlow::Continue(())
        })
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Json(json!({
            "pattern": request.pattern.patterns[0],
            "index": index,
            "results": results,
            "truncated": truncated || summary.cut,
            "summary": wire::grep_summary_json(&summary),
        })))
    })
    .await
}

/// The index, the request and the most matches to return, from the query string.
fn parse(pairs: &[(String, String)]) -> Result<(String, GrepRequest, usize), ApiError> {
    let (mut pattern, mut index, mut languages, mut globs) = (None, None, Vec::new(), Vec::new());
    let (mut context, mut limit) = (0, DEFAULT_LIMIT);
    let (mut case, mut syntax, mut word) = (Case::Sensitive, Syntax::Regex, false);
    for (name, value) in pairs {
        let number = |what: &str| -> Result<usize, ApiError> {
            value
                .trim()
                .parse()
                .map_err(|_| ApiError::bad_request(format!("{what}={value:?}: expected a whole number")))
        };
        let on = matches!(value.trim(), "" | "true" | "1" | "yes" | "on");
        match name.as_str() {
            "q" => pattern = Some(value.clone()).filter(|v| !v.is_empty()),
            "index" => index = Some(value.trim().to_string()).filter(|v| !v.is_empty()),
            "lang" => {
                for name in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    languages.push(
                        Language::from_name(name)
                            .ok_or_else(|| ApiError::bad_request(format!("unknown language {name:?}")))?,
                    );
                }
            }
            "glob" => globs.extend(value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)),
            "context" => context = number("context")?.min(MAX_CONTEXT),
            "limit" => limit = number("limit")?.clamp(1, MAX_LIMIT),
            "ignore-case" if on => case = Case::Insensitive,
            "fixed-strings" if on => syntax = Syntax::Fixed,
            "word" => word = on,
            "ignore-case" | "fixed-strings" => {}
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown parameter {other:?} — the parameters are {}",
                    KNOWN.join(", ")
                )));
            }
        }
    }
    let pattern = pattern.ok_or_else(|| ApiError::bad_request("give a pattern: ?q=PATTERN"))?;
    let index = index.ok_or_else(|| ApiError::bad_request("name the index whose project to grep: ?index=NAME"))?;
    valid_name(&index)?;
    let request = GrepRequest {
        pattern: Pattern { patterns: vec![pattern], syntax, case, word, multiline: false },
        polarity: Polarity::Matching,
        before: context,
        after: context,
        max_count: None,
        report: Report::Lines,
        globs,
        languages,
        paths: Vec::new(),
        limit: Some(limit as u64 + 1),
    };
    Ok((index, request, limit))
}
