//! Embeddings: the [`Embedder`] trait and its providers (Ollama, OpenAI-compatible, and the
//! built-in in-process models of [`builtin`]).
//!
//! An embedder turns a batch of texts into vectors. It owns retries (exponential backoff on
//! connection errors, timeouts and server errors — never on "model not found"), checks every
//! answer ([`check_vectors`]: no empty, non-finite or ragged vectors, and the configured
//! dimension) so nothing unusable reaches the store or the query cache, and knows the
//! model's limits ([`ModelInfo`]); how many requests are in flight at once is the caller's
//! choice (`embedding.concurrency`), because only the caller sees the whole workload.
//!
//! The providers speak HTTP through async clients; [`Embedder`] is synchronous and drives them
//! on a small shared runtime. Architecture invariant: callers inside an async runtime (the MCP
//! server) call embedders from blocking threads (`spawn_blocking`), never from a task.

pub mod builtin;
pub mod choose;
mod ollama;
mod openai;
pub mod rewrite;

use std::sync::OnceLock;
use std::time::Duration;

pub use builtin::BuiltinEmbedder;
pub use ollama::OllamaEmbedder;
pub use openai::OpenAiEmbedder;

use crate::config::{EmbeddingSettings, Provider, redact_text};

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
    #[error("{}", timeout_message(*kind, *after))]
    Timeout {
        /// Which request.
        kind: RequestKind,
        /// The limit it ran into.
        after: Duration,
    },
    /// The server failed (5xx or an unexpected answer), after retries.
    #[error("embedding server error: {0}")]
    Server(String),
    /// A built-in model could not be downloaded, verified or run; the text says why and
    /// what to do.
    #[error("{0}")]
    Model(String),
    /// The server answered with vectors nothing can use: empty, not finite, or of different
    /// lengths in one answer.
    #[error("the embedding server returned unusable vectors for {model} ({problem}) — check the model it serves")]
    Unusable {
        /// The model.
        model: String,
        /// What is wrong with them.
        problem: String,
    },
    /// The server answered with vectors of another length than the one expected.
    #[error("the embedding server returned {got}-dimensional vectors for {model}, but {expected} are expected: {why}")]
    WrongDimension {
        /// The model.
        model: String,
        /// The length received.
        got: usize,
        /// The length expected.
        expected: usize,
        /// Where the expectation comes from, and the fix.
        why: String,
    },
}

impl EmbedError {
    /// Whether trying again may help.
    pub fn is_retryable(&self) -> bool {
        matches!(self, EmbedError::Unreachable { .. } | EmbedError::Timeout { .. } | EmbedError::Server(_))
    }
}

/// What is wrong with the vectors of one answer (see [`check_vectors`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VectorFault {
    /// Empty, not finite, or of different lengths within the answer.
    Unusable(String),
    /// All of one length, but not the expected one.
    Dimension {
        /// The length received.
        got: usize,
        /// The length expected.
        expected: usize,
    },
}

impl VectorFault {
    /// The error for `model`; `why` says where an expected dimension came from and the fix.
    pub fn into_error(self, model: &str, why: impl FnOnce() -> String) -> EmbedError {
        match self {
            VectorFault::Unusable(problem) => EmbedError::Unusable { model: model.to_string(), problem },
            VectorFault::Dimension { got, expected } => {
                EmbedError::WrongDimension { model: model.to_string(), got, expected, why: why() }
            }
        }
    }
}

/// Checks the vectors of one answer before anyone stores, caches or searches with them: each
/// non-empty, every value finite, all of one length, and that length `expected` when it is
/// known. A vector that fails would poison what it is stored in — a NaN makes every cosine
/// distance NaN, a wrong length makes every vector search of the index fail.
pub fn check_vectors(vectors: &[Vec<f32>], expected: Option<usize>) -> Result<(), VectorFault> {
    let Some(first) = vectors.first() else { return Ok(()) };
    let len = first.len();
    if len == 0 {
        return Err(VectorFault::Unusable("an empty vector".into()));
    }
    if let Some(other) = vectors.iter().map(Vec::len).find(|&l| l != len) {
        return Err(VectorFault::Unusable(format!("vectors of {len} and {other} dimensions in one answer")));
    }
    if vectors.iter().flatten().any(|x| !x.is_finite()) {
        return Err(VectorFault::Unusable("values that are not finite numbers".into()));
    }
    match expected {
        Some(expected) if expected != len => Err(VectorFault::Dimension { got: len, expected }),
        _ => Ok(()),
    }
}

/// Why a provider expects vectors of `embedding.outputDimension`, and the fix.
const OUTPUT_DIMENSION_WHY: &str =
    "embedding.outputDimension asks for that many — unset it, or use a model that can shorten its vectors";

/// The kinds of request an embedder sends; each waits under its own limit, which its timeout
/// message names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// A model check or dimension probe (a fixed, short limit).
    Probe,
    /// A batch of an index run (`embedding.timeout`).
    Batch,
    /// A search's query (`embedding.queryTimeout`).
    Query,
}

fn timeout_message(kind: RequestKind, after: Duration) -> String {
    let secs = after.as_secs_f64();
    match kind {
        RequestKind::Probe => {
            format!(
                "the embedding server did not answer a short request within {secs}s — it may be overloaded; try again"
            )
        }
        RequestKind::Batch => {
            format!("embedding request timed out after {secs}s — raise embedding.timeout or lower embedding.batchSize")
        }
        RequestKind::Query => format!("the query embedding took longer than {secs}s — raise embedding.queryTimeout"),
    }
}

/// How long each kind of request may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Timeouts {
    batch: Duration,
    query: Duration,
}

impl Timeouts {
    fn new(settings: &EmbeddingSettings) -> Timeouts {
        Timeouts { batch: Duration::from_secs(settings.timeout), query: Duration::from_secs(settings.query_timeout) }
    }

    fn of(&self, kind: RequestKind) -> Duration {
        match kind {
            RequestKind::Probe => PROBE_TIMEOUT,
            RequestKind::Batch => self.batch,
            RequestKind::Query => self.query,
        }
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

    /// Embeds a search query: one attempt within `embedding.queryTimeout`, because a search
    /// that waits on a dead embedder is worse than keyword results now.
    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError>;

    /// How far the search may trust this model's nearest neighbours (see [`VectorTrust`]).
    fn trust(&self) -> VectorTrust {
        VectorTrust::Full
    }
}

/// How far a model's nearest neighbours can be trusted beside keywords. Measured, not guessed:
/// on the 62 pasted issues a static (model2vec) model's vectors pulled hybrid below keyword-only,
/// a transformer's lifted it (docs/evaluation.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorTrust {
    /// A transformer, or a server's model: weighted as the query asks.
    Full,
    /// A static model: one vector per token, no context; its vectors weigh less against a long
    /// description (`search::Tuning::long_query_weak_vectors`).
    Weak,
}

/// Whether a model download may draw a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// On stderr (indicatif hides it by itself when stderr is not a terminal).
    Stderr,
    /// Never: the MCP server (stdout carries the protocol, and nobody watches stderr), `-q`.
    Hidden,
}

/// The embedder the settings ask for, or `None` when embeddings are off (`provider: none`);
/// `auto` is resolved for a new index ([`choose`] decides for an existing one).
/// `progress` says whether a built-in model's first download may draw a progress bar.
pub fn from_settings(settings: &EmbeddingSettings, progress: Progress) -> Option<Box<dyn Embedder>> {
    match settings.provider {
        Provider::Ollama => Some(Box::new(OllamaEmbedder::new(settings))),
        // OpenRouter speaks OpenAI's API; only its default address differs.
        Provider::Openai | Provider::Openrouter => Some(Box::new(OpenAiEmbedder::new(settings))),
        Provider::Builtin => Some(Box::new(BuiltinEmbedder::new(settings, progress))),
        Provider::None => None,
        // Without an index to ask, auto means what it means for a new index.
        Provider::Auto => from_settings(&choose::for_new_index(settings), progress),
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

/// The short reason of a transport error: "connection refused", "timed out", ... reqwest's
/// texts quote the URL they called, credentials included, so whatever is kept is redacted.
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
        redact_text(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_are_checked_before_use() {
        let ok = vec![vec![0.5, -1.0, 0.0], vec![1.0, 2.0, 3.0]];
        assert_eq!(check_vectors(&ok, None), Ok(()));
        assert_eq!(check_vectors(&ok, Some(3)), Ok(()));
        assert_eq!(check_vectors(&[], Some(3)), Ok(()));
        assert_eq!(check_vectors(&ok, Some(384)), Err(VectorFault::Dimension { got: 3, expected: 384 }));
        let unusable = |v: Vec<Vec<f32>>| matches!(check_vectors(&v, None), Err(VectorFault::Unusable(_)));
        assert!(unusable(vec![vec![]]));
        assert!(unusable(vec![vec![1.0, f32::NAN]]));
        assert!(unusable(vec![vec![f32::INFINITY, 1.0]]));
        assert!(unusable(vec![vec![1.0, 2.0], vec![1.0]]));
        let e = VectorFault::Dimension { got: 3, expected: 384 }.into_error("m", || "because".into());
        assert_eq!(
            e.to_string(),
            "the embedding server returned 3-dimensional vectors for m, but 384 are expected: because"
        );
    }

    #[test]
    fn each_timeout_names_its_own_setting() {
        let message = |kind| EmbedError::Timeout { kind, after: Duration::from_millis(1500) }.to_string();
        assert_eq!(
            message(RequestKind::Query),
            "the query embedding took longer than 1.5s — raise embedding.queryTimeout"
        );
        assert!(message(RequestKind::Batch).contains("raise embedding.timeout"));
        assert!(!message(RequestKind::Probe).contains("embedding."));
    }

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
