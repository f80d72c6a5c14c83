//! The static embedder: a model2vec model (one vector per token, mean-pooled) via
//! `model2vec-rs`, the official Rust implementation.
//!
//! A static model does no attention and no matrix products: a text's vector is the mean of
//! its tokens' rows, normalised. Tokenizing dominates the cost, so batches are spread over
//! every core with rayon; a chunk takes tens of microseconds.

use std::path::Path;

use model2vec_rs::model::StaticModel;
use rayon::prelude::*;

use super::ModelError;

/// Tokens read per text. A static model has no positional limit; model2vec's own default
/// is 512, far above a chunk (about 1,000 bytes of code is 250–400 tokens), and cutting
/// there keeps the cost of a pathological chunk (one huge line) bounded.
pub const MAX_TOKENS: usize = 512;

/// Texts per rayon task: large enough that scheduling costs nothing, small enough that a
/// batch of a few hundred chunks still spreads over the cores.
const TEXTS_PER_TASK: usize = 16;

/// A loaded static model.
pub struct StaticEmbedder {
    model: StaticModel,
}

impl StaticEmbedder {
    /// Loads the model in `dir` (`tokenizer.json`, `model.safetensors`, `config.json`).
    pub fn load(dir: &Path) -> Result<StaticEmbedder, ModelError> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|e| ModelError::Load { path: path.clone(), reason: e.to_string() })
        };
        let (tokenizer, weights, config) = (read("tokenizer.json")?, read("model.safetensors")?, read("config.json")?);
        // Vectors are always normalised, whatever the model's config says: the stores score
        // by dot product of unit vectors.
        let model = StaticModel::from_bytes(tokenizer, weights, config, Some(true))
            .map_err(|e| ModelError::Load { path: dir.to_path_buf(), reason: format!("{e:#}") })?;
        Ok(StaticEmbedder { model })
    }

    /// The vector length.
    pub fn dimension(&self) -> usize {
        self.model.dim()
    }

    /// One vector per text, in order, computed on all cores.
    pub fn embed(&self, texts: &[String]) -> Vec<Vec<f32>> {
        texts
            .par_chunks(TEXTS_PER_TASK)
            .flat_map_iter(|chunk| self.model.encode_with_args(chunk, Some(MAX_TOKENS), chunk.len()))
            .collect()
    }
}
