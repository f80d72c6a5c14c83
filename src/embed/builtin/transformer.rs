//! The transformer embedder: BERT-family safetensors (all-MiniLM-L6-v2, bge-small) run
//! in-process with candle, with sentence-transformers' exact semantics.
//!
//! sentence-transformers embeds a text by tokenizing it with special tokens, cutting it at
//! `max_seq_length` (sentence_bert_config.json; 256 for MiniLM) or else the model's position
//! limit, running the encoder, pooling as `1_Pooling/config.json` says (the mean over the
//! attention mask for MiniLM, the first token for bge) and L2-normalising. This file does
//! the same, so its vectors match the MiniLM server's (scripts/ollama_minilm.py) and
//! sentence-transformers' to float rounding.
//!
//! Speed: a transformer on CPU is bound by its matrix products. Texts are sorted by length
//! and batched under a token budget, so padding is small; batches run as rayon tasks and
//! candle's matrix products split over the same rayon pool, which keeps both cores busy
//! without oversubscribing them.

use std::path::Path;

use candle_core::{D, DType, Device, IndexOp, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config, DTYPE};
use rayon::prelude::*;
use serde::Deserialize;
use tokenizers::{Tokenizer, TruncationDirection, TruncationParams, TruncationStrategy};

use super::ModelError;

/// Padded tokens per batch (rows × longest row). Measured on 2 cores (MiniLM, 97 chunks of
/// `json`): 4,096 cost 15.6 s of CPU and 610 MB, because each attention matrix of a full batch
/// (rows × 12 heads × width²) is 50 MB, past glibc's mmap threshold, so every operation took
/// fresh pages from the kernel (a fifth of the time in page faults); 1,024 cost 13.4 s and
/// 276 MB, and 512 leaves the cores idle between matrix products (15.1 s).
const TOKEN_BUDGET: usize = 1024;
/// Texts per batch at most, whatever their length.
const MAX_BATCH: usize = 64;

/// Sets up the process for transformer inference; a binary calls it first in `main`, with the
/// environment it read (`config::Env`).
///
/// - candle's element-wise operations run on the calling thread, unless the user set
///   `CANDLE_NUM_THREADS`. Batches already run in parallel ([`TransformerEmbedder::embed`]);
///   candle's own pool takes one caller at a time and its workers spin while they wait, so two
///   batches at once spent a sixth of MiniLM's CPU spinning. Measured on 2 cores (97 chunks of
///   `json`, three runs each): 13.9 s of CPU and 7.3–7.7 s wall with candle's pool, 12.2 s
///   and 6.1–6.8 s without. candle reads the variable once, when its pool is first used.
/// - glibc's allocator keeps freed blocks up to 32 MB in its heaps instead of returning them
///   to the kernel: every tensor operation allocates its output afresh, and with the dynamic
///   defaults about a sixth of the CPU went to page faults on new pages (2.2–2.7 s of system
///   time in the run above, 0.3 s with these settings, peak memory unchanged).
///
/// # Safety
/// Sets an environment variable and allocator options: no other thread may be running.
pub unsafe fn configure_process(env: &crate::config::Env) {
    if env.get("CANDLE_NUM_THREADS").is_none() {
        // SAFETY: the caller guarantees that no other thread reads or writes the environment.
        unsafe { std::env::set_var("CANDLE_NUM_THREADS", "1") };
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; no allocation is in flight elsewhere.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

/// How token states become one vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pooling {
    /// The mean over the real (unpadded) tokens.
    Mean,
    /// The first token (`[CLS]`).
    Cls,
}

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
    model: BertModel,
    tokenizer: Tokenizer,
    pooling: Pooling,
    max_tokens: usize,
    dimension: usize,
    pad_id: u32,
}

impl TransformerEmbedder {
    /// Loads the model in `dir`: `config.json`, `tokenizer.json`, `model.safetensors`, and when
    /// present `sentence_bert_config.json` and `1_Pooling/config.json`.
    pub fn load(dir: &Path) -> Result<TransformerEmbedder, ModelError> {
        let failed = |path: &Path, reason: String| ModelError::Load { path: path.to_path_buf(), reason };
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|e| failed(&path, e.to_string()))
        };
        let config_path = dir.join("config.json");
        let config: Config = serde_json::from_slice(&read("config.json")?)
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
        let pad_id = tokenizer.get_padding().map(|p| p.pad_id).or_else(|| tokenizer.token_to_id("[PAD]")).unwrap_or(0);

        let weights_path = dir.join("model.safetensors");
        let weights = read("model.safetensors")?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DTYPE, &Device::Cpu)
            .map_err(|e| failed(&weights_path, e.to_string()))?;
        let model = BertModel::load(vb, &config).map_err(|e| failed(&weights_path, e.to_string()))?;
        Ok(TransformerEmbedder { model, tokenizer, pooling, max_tokens, dimension: config.hidden_size, pad_id })
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
                let vectors = self.forward(&rows).map_err(|e| ModelError::Inference(e.to_string()))?;
                Ok(batch.iter().copied().zip(vectors).collect())
            })
            .collect::<Result<_, ModelError>>()?;
        let mut out = vec![Vec::new(); texts.len()];
        for (i, v) in results.into_iter().flatten() {
            out[i] = v;
        }
        Ok(out)
    }

    /// Runs one padded batch through the encoder, pools and normalises.
    fn forward(&self, rows: &[&[u32]]) -> candle_core::Result<Vec<Vec<f32>>> {
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut ids = Vec::with_capacity(rows.len() * width);
        let mut mask = Vec::with_capacity(rows.len() * width);
        for row in rows {
            ids.extend_from_slice(row);
            ids.extend(std::iter::repeat_n(self.pad_id, width - row.len()));
            mask.extend(std::iter::repeat_n(1u32, row.len()));
            mask.extend(std::iter::repeat_n(0u32, width - row.len()));
        }
        let device = Device::Cpu;
        let ids = Tensor::from_vec(ids, (rows.len(), width), &device)?;
        let mask = Tensor::from_vec(mask, (rows.len(), width), &device)?;
        let types = ids.zeros_like()?;
        let states = self.model.forward(&ids, &types, Some(&mask))?;
        let pooled = match self.pooling {
            Pooling::Mean => {
                let weights = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
                let summed = states.broadcast_mul(&weights)?.sum(1)?;
                let counts = weights.sum(1)?.clamp(1e-9f32, f32::MAX)?;
                summed.broadcast_div(&counts)?
            }
            Pooling::Cls => states.i((.., 0))?,
        };
        let norms = pooled.sqr()?.sum_keepdim(D::Minus1)?.sqrt()?.clamp(1e-12f32, f32::MAX)?;
        pooled.broadcast_div(&norms)?.to_vec2::<f32>()
    }
}

/// Groups text indices into batches of similar length: longest first (the slowest batches
/// start while the pool is empty), each under [`TOKEN_BUDGET`] padded tokens.
fn plan_batches(ids: &[&[u32]]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(ids[i].len()));
    let mut batches: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    let mut width = 0;
    for i in order {
        let len = ids[i].len().max(1);
        let new_width = width.max(len);
        if !current.is_empty() && (new_width * (current.len() + 1) > TOKEN_BUDGET || current.len() >= MAX_BATCH) {
            batches.push(std::mem::take(&mut current));
            width = 0;
        }
        width = width.max(len);
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
    fn batches_hold_similar_lengths_under_the_budget() {
        // 3,000 texts (an index run's worth) of 5 to 256 tokens in a scrambled order.
        let lens: Vec<usize> = (0..3000u64).map(|i| 5 + ((i * 7919) % 252) as usize).collect();
        let rows: Vec<Vec<u32>> = lens.iter().map(|&n| vec![1; n]).collect();
        let ids: Vec<&[u32]> = rows.iter().map(Vec::as_slice).collect();
        let batches = plan_batches(&ids);
        let mut seen: Vec<usize> = batches.iter().flatten().copied().collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..lens.len()).collect::<Vec<_>>());
        let mut padded = 0;
        for batch in &batches {
            let width = batch.iter().map(|&i| lens[i]).max().unwrap_or(0);
            assert!(width * batch.len() <= TOKEN_BUDGET && batch.len() <= MAX_BATCH, "{batch:?}");
            padded += width * batch.len();
        }
        let real: usize = lens.iter().sum();
        assert!(padded * 100 <= real * 105, "padding wastes {padded} for {real} tokens");
        // Longest first: the first batch holds the longest text.
        assert!(batches[0].iter().any(|&i| lens[i] == 256));
    }
}
