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

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a model2vec model of a five-token vocabulary with 3-dimensional rows.
    fn tiny_model(dir: &Path, rows: &[[f32; 3]]) {
        let tokenizer = serde_json::json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": [{"id": 0, "content": "[UNK]", "single_word": false, "lstrip": false,
                              "rstrip": false, "normalized": false, "special": true}],
            "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                           "strip_accents": null, "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "post_processor": null,
            "decoder": null,
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100,
                      "vocab": {"[UNK]": 0, "http": 1, "cookie": 2, "parse": 3, "##s": 4}}
        });
        std::fs::write(dir.join("tokenizer.json"), tokenizer.to_string()).expect("tokenizer");
        // safetensors: an 8-byte little-endian header length, a JSON header, the raw data.
        let data: Vec<u8> = rows.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
        let header = serde_json::json!({
            "embeddings": {"dtype": "F32", "shape": [rows.len(), 3], "data_offsets": [0, data.len()]}
        })
        .to_string();
        let mut file = (header.len() as u64).to_le_bytes().to_vec();
        file.extend_from_slice(header.as_bytes());
        file.extend_from_slice(&data);
        std::fs::write(dir.join("model.safetensors"), file).expect("weights");
        // normalize: false here; the embedder normalises anyway.
        std::fs::write(dir.join("config.json"), r#"{"model_type": "model2vec", "normalize": false}"#).expect("config");
    }

    fn unit(v: [f32; 3]) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.iter().map(|x| x / n).collect()
    }

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn a_text_is_the_normalised_mean_of_its_known_tokens() {
        let dir = tempfile::tempdir().expect("tempdir");
        let rows = [[9.0, 9.0, 9.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 4.0], [2.0, 2.0, 2.0]];
        tiny_model(dir.path(), &rows);
        assert_eq!(super::super::ModelKind::detect(dir.path()).ok(), Some(super::super::ModelKind::Static));
        let model = StaticEmbedder::load(dir.path()).expect("load the tiny model");
        assert_eq!(model.dimension(), 3);
        let texts: Vec<String> = ["HTTP cookie", "parses", "http zzz", "zzz"].iter().map(|s| s.to_string()).collect();
        let vectors = model.embed(&texts);
        // "HTTP cookie": lowercased, the mean of rows 1 and 2, normalised.
        assert!(close(&vectors[0], &unit([0.5, 1.0, 0.0])), "{:?}", vectors[0]);
        // "parses" is parse + ##s.
        assert!(close(&vectors[1], &unit([1.0, 1.0, 3.0])), "{:?}", vectors[1]);
        // Unknown words do not count.
        assert!(close(&vectors[2], &unit([1.0, 0.0, 0.0])), "{:?}", vectors[2]);
        assert!(vectors[3].iter().all(|x| *x == 0.0), "nothing known, a zero vector: {:?}", vectors[3]);
    }

    #[test]
    fn a_broken_model_directory_is_a_load_error_naming_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        tiny_model(dir.path(), &[[1.0, 0.0, 0.0]; 5]);
        std::fs::write(dir.path().join("model.safetensors"), b"not safetensors").expect("write");
        let err = StaticEmbedder::load(dir.path()).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("cannot load the model at"), "{err}");
        std::fs::remove_file(dir.path().join("tokenizer.json")).expect("remove");
        let err = StaticEmbedder::load(dir.path()).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("tokenizer.json"), "{err}");
    }
}
