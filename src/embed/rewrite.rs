//! Query rewriting, CocoSearch's `controller`: a chat model turns a question into the words
//! and names that find its code, before the search runs.
//!
//! Off by default (`controller.enabled`). A rewrite is bounded by `controller.timeout`; on a
//! timeout, an unreachable server or an answer that is no query, the caller searches the query
//! as typed and says why (the search never fails because of its rewrite). It lives beside the
//! embedders because it talks to the same servers (Ollama, OpenAI-compatible) on the same
//! runtime.

use std::time::Duration;

use crate::config::{ControllerProvider, ControllerSettings, redact_url};

/// What the model is asked, before the query.
const INSTRUCTION: &str = "Rewrite the following code search query into a short search query for a code \
search engine: the identifiers, file names and technical words most likely to appear in the code that \
answers it. Answer with the rewritten query alone, on one line.";

/// The longest rewrite kept: a model that answers with an essay did not answer.
const MAX_REWRITE_CHARS: usize = 300;

/// Why a query was not rewritten.
#[derive(Debug, thiserror::Error)]
pub enum RewriteError {
    /// `controller.model` is not set.
    #[error(
        "controller.model is not set — name the chat model that rewrites queries, or set controller.enabled: false"
    )]
    NoModel,
    /// The server did not answer in time.
    #[error("the query rewrite took longer than {0} s (controller.timeout)")]
    Timeout(f64),
    /// The server could not be reached or failed.
    #[error("the query rewrite server at {url} failed: {reason}")]
    Server {
        /// Where, redacted.
        url: String,
        /// What happened.
        reason: String,
    },
    /// The answer held no usable query.
    #[error("the query rewrite answered no usable query")]
    NoQuery,
}

/// `query` rewritten by the model `settings` name.
pub fn rewrite(settings: &ControllerSettings, query: &str) -> Result<String, RewriteError> {
    let model = settings.model.as_deref().filter(|m| !m.trim().is_empty()).ok_or(RewriteError::NoModel)?;
    let base = settings.effective_base_url().trim_end_matches('/');
    let seconds = settings.timeout.max(0.001);
    let client = super::http_client(Duration::from_secs_f64(seconds));
    let prompt = format!("{INSTRUCTION}\n\nQuery: {query}");
    let (endpoint, body) = match settings.provider {
        ControllerProvider::Ollama => (
            format!("{base}/api/chat"),
            serde_json::json!({"model": model, "stream": false, "messages": [{"role": "user", "content": prompt}]}),
        ),
        ControllerProvider::Openai | ControllerProvider::Openrouter => (
            format!("{base}/chat/completions"),
            serde_json::json!({"model": model, "temperature": 0, "messages": [{"role": "user", "content": prompt}]}),
        ),
    };
    let mut request = client.post(&endpoint).json(&body);
    if let Some(key) = settings.api_key.as_deref().filter(|k| !k.is_empty()) {
        request = request.bearer_auth(key);
    }
    let server = |reason: String| RewriteError::Server { url: redact_url(base), reason };
    let answer = super::runtime().block_on(async {
        let response = request.send().await?;
        let status = response.status();
        Ok::<_, reqwest::Error>((status, response.text().await?))
    });
    let (status, text) = answer.map_err(|e| {
        if e.is_timeout() { RewriteError::Timeout(settings.timeout) } else { server(super::transport_reason(&e)) }
    })?;
    if !status.is_success() {
        return Err(server(format!("HTTP {status}")));
    }
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|_| RewriteError::NoQuery)?;
    let content = match settings.provider {
        ControllerProvider::Ollama => value["message"]["content"].as_str(),
        ControllerProvider::Openai | ControllerProvider::Openrouter => {
            value["choices"][0]["message"]["content"].as_str()
        }
    };
    cleaned(content.unwrap_or_default()).ok_or(RewriteError::NoQuery)
}

/// The query in a model's answer: its first non-empty line, without quotes or a `Query:`
/// label; none when empty or too long to be a query.
fn cleaned(answer: &str) -> Option<String> {
    let line = answer.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = line.strip_prefix("Query:").unwrap_or(line).trim();
    let line = line.trim_matches(|c| c == '"' || c == '\'' || c == '`').trim();
    (!line.is_empty() && line.chars().count() <= MAX_REWRITE_CHARS).then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_is_the_first_line_without_quotes_or_label() {
        assert_eq!(cleaned("\n  \"upload retry backoff\"\nbecause…").as_deref(), Some("upload retry backoff"));
        assert_eq!(cleaned("Query: `retry_upload`").as_deref(), Some("retry_upload"));
        assert_eq!(cleaned("   \n"), None);
        assert_eq!(cleaned(&"word ".repeat(100)), None);
    }
}
