//! The OpenAI-compatible provider: `POST {baseUrl}/embeddings`, which OpenAI, OpenRouter,
//! LM Studio, vLLM, TEI and Infinity all speak. It serves providers `openai` and `openrouter`.

use serde::Deserialize;

use super::{EmbedError, Embedder, EmbedderInfo, ModelInfo, ModelLimits, RequestKind};
use crate::config::{EmbeddingSettings, redact_text, redact_url};

/// Embeds with an OpenAI-compatible server.
pub struct OpenAiEmbedder {
    /// `openai` or `openrouter`, as configured.
    provider: &'static str,
    work: reqwest::Client,
    quick: reqwest::Client,
    /// For query embeddings.
    query: reqwest::Client,
    endpoint: String,
    model: String,
    dimensions: Option<u32>,
    api_key: Option<String>,
    url: String,
    timeouts: super::Timeouts,
}

#[derive(Deserialize)]
struct Response {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    index: usize,
    embedding: Vec<f32>,
}

impl OpenAiEmbedder {
    /// An embedder for `settings`; does not connect.
    pub fn new(settings: &EmbeddingSettings) -> OpenAiEmbedder {
        let base = settings.effective_base_url().trim_end_matches('/');
        let timeouts = super::Timeouts::new(settings);
        OpenAiEmbedder {
            provider: settings.provider.as_str(),
            work: super::http_client(timeouts.of(RequestKind::Batch)),
            quick: super::http_client(timeouts.of(RequestKind::Probe)),
            query: super::http_client(timeouts.of(RequestKind::Query)),
            endpoint: format!("{base}/embeddings"),
            model: settings.model.clone(),
            dimensions: settings.output_dimension,
            api_key: settings.api_key.clone(),
            url: redact_url(base),
            timeouts,
        }
    }

    fn embed_once(&self, kind: RequestKind, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let client = match kind {
            RequestKind::Probe => &self.quick,
            RequestKind::Batch => &self.work,
            RequestKind::Query => &self.query,
        };
        let mut body = serde_json::json!({ "model": self.model, "input": texts });
        if let Some(d) = self.dimensions {
            body["dimensions"] = d.into();
        }
        let mut request = client.post(&self.endpoint).json(&body);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let result = super::runtime().block_on(async {
            let response = request.send().await?;
            let status = response.status();
            let text = response.text().await?;
            Ok::<_, reqwest::Error>((status, text))
        });
        let (status, text) = result.map_err(|e| self.transport_error(&e, kind))?;
        if !status.is_success() {
            return Err(self.status_error(status, &text));
        }
        let mut parsed: Response = serde_json::from_str(&text)
            .map_err(|e| EmbedError::Server(format!("unexpected answer from {}: {e}", self.url)))?;
        parsed.data.sort_by_key(|item| item.index);
        if parsed.data.len() != texts.len() {
            return Err(EmbedError::Server(format!("asked for {} embeddings, got {}", texts.len(), parsed.data.len())));
        }
        let vectors: Vec<Vec<f32>> = parsed.data.into_iter().map(|item| item.embedding).collect();
        super::check_vectors(&vectors, self.dimensions.map(|d| d as usize))
            .map_err(|fault| fault.into_error(&self.model, || super::OUTPUT_DIMENSION_WHY.into()))?;
        Ok(vectors)
    }

    fn transport_error(&self, e: &reqwest::Error, kind: RequestKind) -> EmbedError {
        if e.is_timeout() && !e.is_connect() {
            return EmbedError::Timeout { kind, after: self.timeouts.of(kind) };
        }
        EmbedError::Unreachable {
            provider: "embedding server",
            url: self.url.clone(),
            reason: super::transport_reason(e),
            hint: "start it, or fix embedding.baseUrl (COCOSEARCH_EMBEDDING_BASE_URL)".into(),
        }
    }

    fn status_error(&self, status: reqwest::StatusCode, body: &str) -> EmbedError {
        let message = serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|v| {
                let error = v.get("error")?;
                error.get("message").or(Some(error)).and_then(|m| m.as_str()).map(str::to_string)
            })
            .unwrap_or_else(|| body.chars().take(300).collect());
        // Servers echo requests in their errors; the URL they quote may carry credentials.
        let message = redact_text(&message);
        let lower = message.to_lowercase();
        match status.as_u16() {
            401 | 403 => EmbedError::Auth { url: self.url.clone(), reason: message },
            404 => EmbedError::ModelNotFound {
                model: self.model.clone(),
                hint: format!("check embedding.model, or the server at {} ({message})", self.url),
            },
            400 | 413 | 422 if lower.contains("model") && (lower.contains("not") || lower.contains("exist")) => {
                EmbedError::ModelNotFound {
                    model: self.model.clone(),
                    hint: format!("check embedding.model ({message})"),
                }
            }
            400 | 413 | 422 => EmbedError::TooLong(message),
            _ => EmbedError::Server(format!("HTTP {status}: {message}")),
        }
    }
}

impl Embedder for OpenAiEmbedder {
    fn info(&self) -> EmbedderInfo {
        EmbedderInfo { provider: self.provider, model: self.model.clone(), url: self.url.clone() }
    }

    fn probe(&self) -> Result<ModelInfo, EmbedError> {
        let vectors = self.embed_once(RequestKind::Probe, &["cocosearch dimension probe".to_string()])?;
        let dimension = vectors.first().map_or(0, Vec::len);
        if dimension == 0 {
            return Err(EmbedError::Server(format!("{} returned an empty vector for model {}", self.url, self.model)));
        }
        Ok(ModelInfo { model: self.model.clone(), dimension, context_tokens: None })
    }

    fn limits(&self) -> Result<ModelLimits, EmbedError> {
        // The OpenAI API has no cheap model-description endpoint that every compatible server
        // implements; the dimension is learned from the first real batch.
        Ok(ModelLimits { dimension: self.dimensions.map(|d| d as usize), context_tokens: None })
    }

    fn embed_query(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let mut vectors = self.embed_once(RequestKind::Query, &[text.to_string()])?;
        vectors.pop().ok_or_else(|| EmbedError::Server("no query vector in the answer".into()))
    }

    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        super::with_retries(|| self.embed_once(RequestKind::Batch, texts))
    }
}
