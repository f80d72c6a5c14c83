//! The transformer embedder: BERT-family safetensors (all-MiniLM-L6-v2, bge-small) run
//! in-process by `cocosearch-bert` (crates/bert), with sentence-transformers' semantics.
//!
//! sentence-transformers embeds a text by tokenizing it with special tokens, cutting it at
//! `max_seq_length` (sentence_bert_config.json; 256 for MiniLM) or else the model's position
//! limit, running the encoder, pooling as `1_Pooling/config.json` says (the mean over the
//! attention mask for MiniLM, the first token for bge) and L2-normalising. This file does
//! the same. In f32 its vectors match the MiniLM server's (scripts/ollama_minilm.py) and
//! sentence-transformers' to float rounding; with 8-bit linear layers (the default where the
//! CPU has integer dot products) to a cosine of 0.996 or better on real code.
//!
//! Speed: a transformer on CPU is bound by its matrix products. Texts are batched under a
//! token budget (the encoder packs them without padding) and batches run as rayon tasks,
//! each on one thread, which keeps every core busy without oversubscribing them.

use std::path::Path;

use cocosearch_bert::{Encoder, Pooling, Precision};
use rayon::prelude::*;
use serde::Deserialize;
use tokenizers::{Tokenizer, TruncationDirection, TruncationParams, TruncationStrategy};

use super::ModelError;

/// Tokens per batch (the encoder packs texts without padding). Measured on 2 cores (MiniLM,
/// 8-bit, the `json` package): larger batches give the matrix products more rows per weight
/// panel, smaller ones let both cores share the work of a few texts.
const TOKEN_BUDGET: usize = 1024;
/// Texts per batch at most, whatever their length.
const MAX_BATCH: usize = 64;

#[derive(Deserialize)]
struct SentenceBertConfig {
    max_seq_length: Option<usize>,
}

#[derive(Deserialize)]
struct PoolingConfig {
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
}

/// A loaded transformer model.
pub struct TransformerEmbedder {
    encoder: Encoder,
    tokenizer: Tokenizer,
    pooling: Pooling,
    max_tokens: usize,
    dimension: usize,
}

impl TransformerEmbedder {
    /// Loads the model in `dir`: `config.json`, `tokenizer.json`, `model.safetensors`, and when
    /// present `sentence_bert_config.json` and `1_Pooling/config.json`.
    pub fn load(dir: &Path) -> Result<TransformerEmbedder, ModelError> {
        Self::load_with(dir, Precision::fastest())
    }

    /// Loads the model with linear layers in the given precision (f32 is the reference the
    /// 8-bit layers are checked against).
    pub fn load_with(dir: &Path, precision: Precision) -> Result<TransformerEmbedder, ModelError> {
        let failed = |path: &Path, reason: String| ModelError::Load { path: path.to_path_buf(), reason };
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|e| failed(&path, e.to_string()))
        };
        let config_path = dir.join("config.json");
        let config: cocosearch_bert::Config = serde_json::from_slice(&read("config.json")?)
            .map_err(|e| failed(&config_path, format!("not a BERT configuration: {e}")))?;
        let optional = |name: &str| std::fs::read(dir.join(name)).ok();
        let st_limit = optional("sentence_bert_config.json")
            .and_then(|b| serde_json::from_slice::<SentenceBertConfig>(&b).ok())
            .and_then(|c| c.max_seq_length);
        let max_tokens = st_limit.unwrap_or(config.max_position_embeddings).min(config.max_position_embeddings);
        let pooling =
            match optional("1_Pooling/config.json").and_then(|b| serde_json::from_slice::<PoolingConfig>(&b).ok()) {
                Some(p) if p.pooling_mode_cls_token && !p.pooling_mode_mean_tokens => Pooling::Cls,
                _ => Pooling::Mean,
            };

        let tokenizer_path = dir.join("tokenizer.json");
        let mut tokenizer =
            Tokenizer::from_file(&tokenizer_path).map_err(|e| failed(&tokenizer_path, e.to_string()))?;
        // tokenizer.json of sentence-transformers models pads and cuts at a fixed 128; padding
        // is done per batch here, and the cut is the model's.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                strategy: TruncationStrategy::LongestFirst,
                stride: 0,
                direction: TruncationDirection::Right,
            }))
            .map_err(|e| failed(&tokenizer_path, e.to_string()))?;

        let weights_path = dir.join("model.safetensors");
        let encoder =
            Encoder::load(&config, &weights_path, precision).map_err(|e| failed(&weights_path, e.to_string()))?;
        Ok(TransformerEmbedder { encoder, tokenizer, pooling, max_tokens, dimension: config.hidden_size })
    }

    /// The vector length.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Tokens read per text, special tokens included.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// One vector per text, in order.
    pub fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ModelError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| ModelError::Inference(format!("tokenizing: {e}")))?;
        let ids: Vec<&[u32]> = encodings.iter().map(|e| e.get_ids()).collect();
        let batches = plan_batches(&ids);
        let results: Vec<Vec<(usize, Vec<f32>)>> = batches
            .par_iter()
            .map(|batch| {
                let rows: Vec<&[u32]> = batch.iter().map(|&i| ids[i]).collect();
                batch.iter().copied().zip(self.encoder.embed(&rows, self.pooling)).collect()
            })
            .collect();
        let mut out = vec![Vec::new(); texts.len()];
        for (i, v) in results.into_iter().flatten() {
            out[i] = v;
        }
        Ok(out)
    }
}

/// Groups text indices into batches of similar length: longest first (the slowest batches
/// start while the pool is empty), each under [`TOKEN_BUDGET`] tokens.
fn plan_batches(ids: &[&[u32]]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(ids[i].len()));
    let mut batches: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    let mut tokens = 0;
    for i in order {
        let len = ids[i].len().max(1);
        if !current.is_empty() && (tokens + len > TOKEN_BUDGET || current.len() >= MAX_BATCH) {
            batches.push(std::mem::take(&mut current));
            tokens = 0;
        }
        tokens += len;
        current.push(i);
    }
    if !current.is_empty() {
        batches.push(current);
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_hold_every_text_once_under_the_budget() {
        // 3,000 texts (an index run's worth) of 5 to 256 tokens in a scrambled order.
        let lens: Vec<usize> = (0..3000u64).map(|i| 5 + ((i * 7919) % 252) as usize).collect();
        let rows: Vec<Vec<u32>> = lens.iter().map(|&n| vec![1; n]).collect();
        let ids: Vec<&[u32]> = rows.iter().map(Vec::as_slice).collect();
        let batches = plan_batches(&ids);
        let mut seen: Vec<usize> = batches.iter().flatten().copied().collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..lens.len()).collect::<Vec<_>>());
        for batch in &batches {
            let tokens: usize = batch.iter().map(|&i| lens[i]).sum();
            assert!(tokens <= TOKEN_BUDGET && batch.len() <= MAX_BATCH, "{batch:?}");
        }
        // Full batches: the budget is used, not left to a few long texts.
        let real: usize = lens.iter().sum();
        assert!(
            batches.len() * TOKEN_BUDGET <= real * 110 / 100 + TOKEN_BUDGET,
            "{} batches for {real} tokens",
            batches.len()
        );
        // Longest first: the first batch holds the longest text.
        assert!(batches[0].iter().any(|&i| lens[i] == 256));
    }
}
