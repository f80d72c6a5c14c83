//! Embeddings: the [`Embedder`] trait and its providers (Ollama, OpenAI-compatible, and the
//! built-in in-process models of [`builtin`]).
//!
//! An embedder turns a batch of texts into vectors. It owns retries (exponential backoff on
//! connection errors, timeouts and server errors — never on "model not found") and knows the
//! model's limits ([`ModelInfo`]); how many requests are in flight at once is the caller's
//! choice (`embedding.concurrency`), because only the caller sees the whole workload.
//!
//! The providers speak HTTP through async clients; [`Embedder`] is synchronous and drives them
//! on a small shared runtime. Architecture invariant: callers inside an async runtime (the MCP
//! server) call embedders from blocking threads (`spawn_blocking`), never from a task.

pub mod builtin;
mod ollama;
mod openai;

use std::sync::OnceLock;
use std::time::Duration;

pub use builtin::BuiltinEmbedder;
pub use ollama::OllamaEmbedder;
pub use openai::OpenAiEmbedder;

use crate::config::{EmbeddingSettings, Provider};

/// What a probe learned about the configured model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelInfo {
    /// The model name as configured.
    pub model: String,
    /// The length of the vectors it returns.
    pub dimension: usize,
    /// How many tokens of input it reads, when the server says.
    pub context_tokens: Option<usize>,
}

/// What the server says about a model without computing an embedding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ModelLimits {
    /// The vector length, when the server reports it.
    pub dimension: Option<usize>,
    /// How many tokens of input it reads, when the server reports it.
    pub context_tokens: Option<usize>,
}

impl ModelLimits {
    /// The longest text, in bytes, worth sending: longer input would be cut or refused.
    pub fn max_input_bytes(&self) -> usize {
        self.context_tokens.unwrap_or(DEFAULT_CONTEXT_TOKENS) * CHARS_PER_TOKEN
    }
}

/// Characters per token assumed when turning a token limit into a character limit. Code and
/// identifiers tokenize densely with WordPiece/BPE vocabularies, so this errs low.
pub const CHARS_PER_TOKEN: usize = 3;

/// Context assumed for models whose server does not report one.
pub const DEFAULT_CONTEXT_TOKENS: usize = 512;

impl ModelInfo {
    /// The longest text, in bytes, worth sending: longer input would be cut or refused.
    pub fn max_input_bytes(&self) -> usize {
        self.context_tokens.unwrap_or(DEFAULT_CONTEXT_TOKENS) * CHARS_PER_TOKEN
    }
}

/// Who and where, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedderInfo {
    /// `ollama` or `openai`.
    pub provider: &'static str,
    /// The model name.
    pub model: String,
    /// The server's base URL (credentials redacted).
    pub url: String,
}

/// An embedding failure, with the fix.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EmbedError {
    /// The server cannot be reached (connection refused, DNS, timeout on connect).
    #[error("{provider} not reachable at {url} ({reason}) — {hint}")]
    Unreachable {
        /// Provider display name.
        provider: &'static str,
        /// Base URL.
        url: String,
        /// Why.
        reason: String,
        /// What to do.
        hint: String,
    },
    /// The model is not available on the server.
    #[error("model {model} not found — {hint}")]
    ModelNotFound {
        /// The model.
        model: String,
        /// What to do (`run \`ollama pull X\``).
        hint: String,
    },
    /// The server rejected our credentials.
    #[error("{url} rejected the API key ({reason}) — set COCOSEARCH_EMBEDDING_API_KEY (embedding.apiKey)")]
    Auth {
        /// Base URL.
        url: String,
        /// The server's message.
        reason: String,
    },
    /// The input was too long for the model even after truncation.
    #[error("input too long for the model: {0}")]
    TooLong(String),
    /// The request timed out.
    #[error("embedding request timed out after {0:?} — raise embedding.timeout or lower embedding.batchSize")]
    Timeout(Duration),
    /// The server failed (5xx or an unexpected answer), after retries.
    #[error("embedding server error: {0}")]
    Server(String),
    /// A built-in model could not be downloaded, verified or run; the text says why and
    /// what to do.
    #[error("{0}")]
    Model(String),
}

impl EmbedError {
    /// Whether trying again may help.
    pub fn is_retryable(&self) -> bool {
        matches!(self, EmbedError::Unreachable { .. } | EmbedError::Timeout(_) | EmbedError::Server(_))
    }
}

/// Turns texts into vectors.
pub trait Embedder: Send + Sync {
    /// Provider, model and URL, for messages.
    fn info(&self) -> EmbedderInfo;

    /// Checks the server answers and the model exists, and learns its dimension and context
    /// by embedding a probe text. Uses short timeouts: a dead host answers in seconds.
    fn probe(&self) -> Result<ModelInfo, EmbedError>;

    /// What the server reports about the model without embedding anything (no request at all
    /// for providers that have no such endpoint). Fails with [`EmbedError::ModelNotFound`]
    /// when the server knows the model is missing.
    fn limits(&self) -> Result<ModelLimits, EmbedError>;

    /// Embeds one batch, with retries. Returns one vector per text, in order.
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;

    /// Embeds a search query: one attempt with a short timeout, because a search that waits
    /// on a dead embedder is worse than keyword results now.
    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError>;
}

/// Whether a model download may draw a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// On stderr (indicatif hides it by itself when stderr is not a terminal).
    Stderr,
    /// Never: the MCP server (stdout carries the protocol, and nobody watches stderr), `-q`.
    Hidden,
}

/// The embedder the settings ask for, or `None` when embeddings are off (`provider: none`).
/// `progress` says whether a built-in model's first download may draw a progress bar.
pub fn from_settings(settings: &EmbeddingSettings, progress: Progress) -> Option<Box<dyn Embedder>> {
    match settings.provider {
        Provider::Ollama => Some(Box::new(OllamaEmbedder::new(settings))),
        Provider::Openai => Some(Box::new(OpenAiEmbedder::new(settings))),
        Provider::Builtin => Some(Box::new(BuiltinEmbedder::new(settings, progress))),
        Provider::None => None,
    }
}

/// The runtime the HTTP clients run on; shared by every embedder of the process.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("cocosearch-embed")
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("cannot start the embedding runtime: {e}"))
    })
}

/// How long a probe may take per request.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a query embedding may take. Longer than a probe: a local server that is busy
/// embedding an index run answers a query only after the batch in front of it, and waiting a
/// few seconds beats falling back to keyword-only results. A dead host still fails fast
/// ([`CONNECT_TIMEOUT`]).
const QUERY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait for a TCP connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Attempts per batch, including the first.
const ATTEMPTS: u32 = 4;
/// The first backoff; doubled after each retry.
const FIRST_BACKOFF: Duration = Duration::from_millis(250);

/// Runs `attempt` until it succeeds, fails for good, or runs out of attempts.
fn with_retries<T>(mut attempt: impl FnMut() -> Result<T, EmbedError>) -> Result<T, EmbedError> {
    let mut backoff = FIRST_BACKOFF;
    let mut tries = 1;
    loop {
        match attempt() {
            Err(e) if e.is_retryable() && tries < ATTEMPTS => {
                tracing::debug!(error = %e, ?backoff, "embedding request failed, retrying");
                std::thread::sleep(backoff);
                backoff *= 2;
                tries += 1;
            }
            other => return other,
        }
    }
}

/// An HTTP client with the given overall timeout; no TLS dependency on OpenSSL.
fn http_client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(CONNECT_TIMEOUT)
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// The short reason of a transport error: "connection refused", "timed out", ...
fn transport_reason(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        text = cause.to_string();
        source = cause.source();
    }
    let lower = text.to_lowercase();
    if lower.contains("refused") {
        "connection refused".into()
    } else if e.is_timeout() || lower.contains("timed out") {
        "timed out".into()
    } else if lower.contains("dns") || lower.contains("lookup") || lower.contains("resolve") {
        "unknown host".into()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_stop_on_permanent_errors() {
        let mut calls = 0;
        let result: Result<(), _> = with_retries(|| {
            calls += 1;
            Err(EmbedError::ModelNotFound { model: "m".into(), hint: "pull it".into() })
        });
        assert!(result.is_err());
        assert_eq!(calls, 1);
    }

    #[test]
    fn retries_recover_from_transient_errors() {
        let mut calls = 0;
        let result = with_retries(|| {
            calls += 1;
            if calls < 3 { Err(EmbedError::Server("503".into())) } else { Ok(calls) }
        });
        assert_eq!(result.ok(), Some(3));
    }
}
