//! The Ollama provider, through `ollama-rs`: batched `/api/embed`, `/api/show` for limits.

use ollama_rs::Ollama;
use ollama_rs::error::OllamaError;
use ollama_rs::generation::embeddings::request::{EmbeddingsInput, GenerateEmbeddingsRequest};

use super::{EmbedError, Embedder, EmbedderInfo, ModelInfo, ModelLimits, RequestKind};
use crate::config::{EmbeddingSettings, redact_text, redact_url};

/// Embeds with a local or remote Ollama.
pub struct OllamaEmbedder {
    /// For embedding batches, with the configured timeout.
    work: Ollama,
    /// For probes, with a short timeout.
    quick: Ollama,
    /// For query embeddings.
    query: Ollama,
    model: String,
    dimensions: Option<u32>,
    url: String,
    timeouts: super::Timeouts,
}

impl OllamaEmbedder {
    /// An embedder for `settings`; does not connect.
    pub fn new(settings: &EmbeddingSettings) -> OllamaEmbedder {
        let mut base = settings.effective_base_url().to_string();
        // ollama-rs appends `api/embed` to the URL as is: a path needs its trailing slash.
        if !base.ends_with('/') {
            base.push('/');
        }
        let timeouts = super::Timeouts::new(settings);
        let build = |timeout| {
            let builder = Ollama::builder().reqwest_client(super::http_client(timeout));
            match url::Url::parse(&base) {
                Ok(url) => builder.url(url).build(),
                Err(_) => builder.build(),
            }
        };
        OllamaEmbedder {
            work: build(timeouts.of(RequestKind::Batch)),
            quick: build(timeouts.of(RequestKind::Probe)),
            query: build(timeouts.of(RequestKind::Query)),
            model: settings.model.clone(),
            dimensions: settings.output_dimension,
            url: redact_url(settings.effective_base_url()),
            timeouts,
        }
    }

    fn request(&self, texts: &[String]) -> GenerateEmbeddingsRequest {
        let request = GenerateEmbeddingsRequest::new(self.model.clone(), EmbeddingsInput::Multiple(texts.to_vec()))
            .truncate(true);
        match self.dimensions {
            Some(d) => request.dimensions(d),
            None => request,
        }
    }

    fn classify(&self, e: OllamaError, kind: RequestKind) -> EmbedError {
        match e {
            OllamaError::ReqwestError(e) if e.is_timeout() && !e.is_connect() => {
                EmbedError::Timeout { kind, after: self.timeouts.of(kind) }
            }
            OllamaError::ReqwestError(e) if e.is_connect() || e.is_timeout() || e.is_request() => {
                EmbedError::Unreachable {
                    provider: "Ollama",
                    url: self.url.clone(),
                    reason: super::transport_reason(&e),
                    hint: "start it (`ollama serve`), or `docker compose up -d`".into(),
                }
            }
            OllamaError::ReqwestError(e) => EmbedError::Server(super::transport_reason(&e)),
            OllamaError::Other(body) => {
                let message = serde_json::from_str::<serde_json::Value>(&body)
                    .ok()
                    .and_then(|v| v.get("error").and_then(|m| m.as_str()).map(str::to_string))
                    .unwrap_or(body);
                let message = redact_text(&message);
                let lower = message.to_lowercase();
                if lower.contains("not found") {
                    EmbedError::ModelNotFound {
                        model: self.model.clone(),
                        hint: format!("run `ollama pull {}`", self.model),
                    }
                } else if lower.contains("exceeds") || lower.contains("context length") {
                    EmbedError::TooLong(message)
                } else {
                    EmbedError::Server(message)
                }
            }
            OllamaError::JsonError(e) => EmbedError::Server(format!("unexpected answer from {}: {e}", self.url)),
            other => EmbedError::Server(redact_text(&format!("{other:?}"))),
        }
    }

    fn embed_once(&self, kind: RequestKind, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let client = match kind {
            RequestKind::Probe => &self.quick,
            RequestKind::Batch => &self.work,
            RequestKind::Query => &self.query,
        };
        let response = super::runtime()
            .block_on(client.generate_embeddings(self.request(texts)))
            .map_err(|e| self.classify(e, kind))?;
        if response.embeddings.len() != texts.len() {
            return Err(EmbedError::Server(format!(
                "asked for {} embeddings, got {}",
                texts.len(),
                response.embeddings.len()
            )));
        }
        super::check_vectors(&response.embeddings, self.dimensions.map(|d| d as usize))
            .map_err(|fault| fault.into_error(&self.model, || super::OUTPUT_DIMENSION_WHY.into()))?;
        Ok(response.embeddings)
    }
}

impl Embedder for OllamaEmbedder {
    fn info(&self) -> EmbedderInfo {
        EmbedderInfo { provider: "ollama", model: self.model.clone(), url: self.url.clone() }
    }

    fn probe(&self) -> Result<ModelInfo, EmbedError> {
        let limits = self.limits()?;
        let vectors = self.embed_once(RequestKind::Probe, &["cocosearch dimension probe".to_string()])?;
        let dimension = vectors.first().map_or(0, Vec::len);
        if dimension == 0 {
            return Err(EmbedError::Server(format!("{} returned an empty vector for model {}", self.url, self.model)));
        }
        Ok(ModelInfo { model: self.model.clone(), dimension, context_tokens: limits.context_tokens })
    }

    fn limits(&self) -> Result<ModelLimits, EmbedError> {
        let show = super::runtime()
            .block_on(self.quick.show_model_info(self.model.clone()))
            .map_err(|e| self.classify(e, RequestKind::Probe))?;
        let info_number = |suffix: &str| {
            show.model_info
                .iter()
                .filter(|(k, _)| k.ends_with(suffix))
                .find_map(|(_, v)| v.as_u64())
                .map(|n| n as usize)
        };
        // `num_ctx` in the model's parameters is what the runner actually allocates.
        let num_ctx = show
            .parameters
            .lines()
            .find_map(|l| l.trim().strip_prefix("num_ctx").and_then(|n| n.trim().parse::<usize>().ok()));
        let context_tokens = match (info_number(".context_length"), num_ctx) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let dimension = match self.dimensions {
            Some(d) => Some(d as usize),
            None => info_number(".embedding_length"),
        };
        Ok(ModelLimits { dimension, context_tokens })
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
