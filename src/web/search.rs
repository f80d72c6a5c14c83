//! `GET /api/search`: `cocosearch search --json` over HTTP. The parameters are the command's
//! flags by their long names (`q` is the query, `index` and `at` what it reads, and every search
//! option as `workspace::inputs` declares it: `limit`, `min-score`, `mode`, `lang`, ...), parsed
//! by the command line's own parser; the answer is [`crate::wire::search_answer_json`], the same
//! JSON, with the grep `hint` when there is one.
//!
//! The index's own project configuration supplies the defaults (`search.resultLimit`,
//! `search.minScore`, smart context, `linkedIndexes` when one `index` is named), as the CLI
//! run in that project would.

use axum::Json;
use axum::extract::{Query, State};
use serde_json::{Value, json};
use std::sync::Arc;

use super::{ApiError, Web, blocking};
use crate::wire;
use crate::workspace::inputs::{SearchOptions, from_query};
use crate::workspace::search::skipped;
use crate::workspace::{Caller, IndexRef};

/// A search's query string: `q` and the command's flags, declared where every front end's
/// search options are (`workspace::inputs`).
#[derive(Debug, clap::Parser)]
#[command(name = "search")]
struct Params {
    /// The query.
    #[arg(value_name = "QUERY")]
    q: Vec<String>,
    #[command(flatten)]
    index: IndexRef,
    #[command(flatten)]
    options: SearchOptions,
}

/// `GET /api/search?q=...&index=NAME&...`.
pub(crate) async fn search(
    State(web): State<Web>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ApiError> {
    let params = parse(&pairs)?;
    blocking(&Arc::clone(&web.shared), move || {
        let query = params.q.join(" ");
        let answer = web.shared.search(Caller::Browser, &params.index, &query, &params.options)?;
        let mut value = wire::search_answer_json(&answer);
        if let Some(hint) = &answer.grep_hint {
            value["hint"] = json!(hint);
        }
        if let Some(max_tokens) = params.options.page.max_tokens {
            let fit = wire::search_fit(skipped(&params.options), None);
            wire::budget::fit(&mut value, &fit, wire::budget::Page { max_tokens, offset: 0 });
        }
        Ok(Json(value))
    })
    .await
}

/// Reads the query string with the command line's parser: unknown names, bad numbers and
/// conflicting modes are errors that say so.
fn parse(pairs: &[(String, String)]) -> Result<Params, ApiError> {
    Ok(from_query::<Params>(pairs, "q")?)
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
            ("at", "v1.0"),
        ]))
        .expect("parses");
        assert_eq!(p.q, ["retry uploads"]);
        assert_eq!(p.index.name.index_name.as_deref(), Some("proj"));
        assert_eq!(p.index.at.as_deref(), Some("v1.0"));
        assert_eq!(p.options.files.language, ["py", " rs", "go"]);
        assert_eq!(p.options.symbol_type, ["function"]);
        assert!(p.options.keyword && !p.options.hybrid);
        assert_eq!(p.options.smart_context, Some(false));
        assert_eq!(p.options.around, Some(3));
        let off = parse(&pairs(&[("q", "x"), ("no-smart", "false"), ("keyword", "0")])).expect("parses");
        assert_eq!((off.options.smart_context, off.options.keyword), (None, false));
    }

    #[test]
    fn mistakes_are_named() {
        let error = |items: &[(&str, &str)]| parse(&pairs(items)).expect_err("refused").message;
        assert!(error(&[("q", "x"), ("langs", "py")]).contains("unknown parameter \"langs\" (did you mean \"lang\"?)"));
        assert!(error(&[("q", "x"), ("limit", "ten")]).contains("'ten' for 'limit'"));
        assert!(
            error(&[("q", "x"), ("hybrid", ""), ("keyword", "1")])
                .contains("hybrid cannot be used with keyword: pick one")
        );
        assert!(error(&[("q", "x"), ("keyword", "maybe")]).contains("keyword=\"maybe\": expected true or false"));
    }
}
