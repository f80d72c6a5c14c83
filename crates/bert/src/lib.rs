//! A BERT-family sentence encoder (all-MiniLM-L6-v2, bge-small) for the CPU, built for
//! throughput on a few cores.
//!
//! What makes it fast, each measured against candle's BERT on the same weights (see cocosearch's
//! docs/embeddings.md):
//! - **8-bit matrix products** where the CPU multiplies 8-bit integers natively (AVX-512 VNNI):
//!   the four linear layers of every block run on int8 weights (per output channel scales) and
//!   int8 activations (per token scales), accumulated exactly in i32. Attention stays f32.
//!   Vectors agree with f32 to a cosine of 0.996 or better on real code.
//! - **No padding**: the texts of a batch are packed token after token; linear layers see only
//!   real tokens, and attention runs per text over its own tokens, so no mask is needed.
//! - **Fused element-wise passes** compiled per instruction set (layer norm, GELU with a
//!   polynomial erf, softmax), on buffers allocated once per batch.
//!
//! Weights are read one tensor at a time from `model.safetensors`, so the f32 file never sits in
//! memory whole; the word embeddings are kept as f16.

mod encoder;
mod int8;
mod linear;
mod ops;
mod weights;

pub use encoder::Encoder;

use serde::Deserialize;

/// The fields of a BERT `config.json` the encoder reads.
#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    #[serde(default = "default_layer_norm_eps")]
    pub layer_norm_eps: f64,
    #[serde(default = "default_hidden_act")]
    pub hidden_act: String,
}

fn default_layer_norm_eps() -> f64 {
    1e-12
}

fn default_hidden_act() -> String {
    "gelu".to_owned()
}

/// How token states become one vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// The mean over the text's tokens.
    Mean,
    /// The first token (`[CLS]`).
    Cls,
}

/// The arithmetic of the linear layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// 8-bit weights and activations, i32 accumulation.
    Int8,
    /// f32 throughout: the reference.
    F32,
}

impl Precision {
    /// 8-bit where the CPU has integer dot products (AVX-512 VNNI), else f32: without them an
    /// 8-bit product is no faster than an f32 one.
    pub fn fastest() -> Precision {
        if int8::has_fast_kernel() { Precision::Int8 } else { Precision::F32 }
    }
}

/// Why a model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("not a safetensors file: {0}")]
    Format(String),
    #[error("tensor {name}: {reason}")]
    Tensor { name: String, reason: String },
    #[error("unsupported model: {0}")]
    Unsupported(String),
}
