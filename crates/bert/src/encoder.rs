//! The encoder: embeddings, then per block self-attention and a feed-forward layer, each
//! followed by a residual sum and a layer norm (post-norm BERT), then pooling.

use std::path::Path;

use half::f16;

use crate::linear::{Linear, Scratch, matmul_f32};
use crate::weights::Weights;
use crate::{Config, LoadError, Pooling, Precision, ops};

struct Norm {
    gamma: Vec<f32>,
    beta: Vec<f32>,
}

struct Block {
    /// Query, key and value in one product; the query's rows are pre-scaled by 1/√head_dim.
    qkv: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    up: Linear,
    down: Linear,
    output_norm: Norm,
}

/// A loaded model. `embed` takes `&self`: one encoder serves every thread.
pub struct Encoder {
    hidden: usize,
    heads: usize,
    head_dim: usize,
    max_positions: usize,
    eps: f32,
    precision: Precision,
    word: Vec<f16>,
    position: Vec<f32>,
    token_type: Vec<f32>,
    embedding_norm: Norm,
    blocks: Vec<Block>,
}

impl Encoder {
    /// Loads the weights at `path` (safetensors) for `config`.
    pub fn load(config: &Config, path: &Path, precision: Precision) -> Result<Encoder, LoadError> {
        let (h, inter) = (config.hidden_size, config.intermediate_size);
        if config.num_attention_heads == 0 || h % config.num_attention_heads != 0 {
            return Err(LoadError::Unsupported(format!("{} heads for a width of {h}", config.num_attention_heads)));
        }
        if config.hidden_act != "gelu" {
            return Err(LoadError::Unsupported(format!("activation {:?} (only gelu)", config.hidden_act)));
        }
        let w = Weights::open(path)?;
        let norm = |prefix: &str| -> Result<Norm, LoadError> {
            Ok(Norm { gamma: w.f32(&format!("{prefix}.weight"), &[h])?, beta: w.f32(&format!("{prefix}.bias"), &[h])? })
        };
        let linear = |prefix: &str, n: usize, k: usize| -> Result<Linear, LoadError> {
            let weight = w.f32(&format!("{prefix}.weight"), &[n, k])?;
            let bias = w.f32(&format!("{prefix}.bias"), &[n])?;
            Ok(Linear::new(weight, bias, n, k, precision))
        };
        let head_dim = h / config.num_attention_heads;
        let mut blocks = Vec::with_capacity(config.num_hidden_layers);
        for i in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let scale = 1.0 / (head_dim as f32).sqrt();
            let mut weight = Vec::with_capacity(3 * h * h);
            let mut bias = Vec::with_capacity(3 * h);
            for (part, factor) in [("query", scale), ("key", 1.0), ("value", 1.0)] {
                let name = format!("{p}.attention.self.{part}");
                weight.extend(w.f32(&format!("{name}.weight"), &[h, h])?.into_iter().map(|v| v * factor));
                bias.extend(w.f32(&format!("{name}.bias"), &[h])?.into_iter().map(|v| v * factor));
            }
            blocks.push(Block {
                qkv: Linear::new(weight, bias, 3 * h, h, precision),
                attention_out: linear(&format!("{p}.attention.output.dense"), h, h)?,
                attention_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                up: linear(&format!("{p}.intermediate.dense"), inter, h)?,
                down: linear(&format!("{p}.output.dense"), h, inter)?,
                output_norm: norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        let token_types = w.f32("embeddings.token_type_embeddings.weight", &[token_type_count(&w, h)?, h])?;
        Ok(Encoder {
            hidden: h,
            heads: config.num_attention_heads,
            head_dim,
            max_positions: config.max_position_embeddings,
            eps: config.layer_norm_eps as f32,
            precision,
            word: w.f16("embeddings.word_embeddings.weight", &[config.vocab_size, h])?,
            position: w.f32("embeddings.position_embeddings.weight", &[config.max_position_embeddings, h])?,
            token_type: token_types[..h].to_vec(),
            embedding_norm: norm("embeddings.LayerNorm")?,
            blocks,
        })
    }

    /// The vector length.
    pub fn hidden_size(&self) -> usize {
        self.hidden
    }

    /// The arithmetic of the linear layers.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// One pooled, L2-normalised vector per text of token ids (longer texts are cut at the
    /// model's position limit). Runs on the calling thread.
    pub fn embed(&self, texts: &[&[u32]], pooling: Pooling) -> Vec<Vec<f32>> {
        let h = self.hidden;
        let mut spans = Vec::with_capacity(texts.len());
        let mut total = 0;
        for text in texts {
            let n = text.len().min(self.max_positions);
            spans.push((total, n));
            total += n;
        }
        let mut x = self.embeddings(texts, total);
        let inter = self.blocks.first().map_or(0, |b| b.up.outputs());
        let longest = spans.iter().map(|s| s.1).max().unwrap_or(0);
        let mut qkv = vec![0f32; total * 3 * h];
        let mut context = vec![0f32; total * h];
        let mut up = vec![0f32; total * inter];
        let mut other = vec![0f32; total * h];
        let mut scores = vec![0f32; longest * longest];
        let mut scratch = Scratch::default();
        for block in &self.blocks {
            block.qkv.apply(&x, total, &mut qkv, &mut scratch);
            self.attention(&qkv, &spans, &mut context, &mut scores);
            block.attention_out.apply(&context, total, &mut other, &mut scratch);
            ops::add(&mut other, &x);
            ops::layer_norm(&mut other, &block.attention_norm.gamma, &block.attention_norm.beta, self.eps);
            std::mem::swap(&mut x, &mut other);
            block.up.apply(&x, total, &mut up, &mut scratch);
            ops::gelu(&mut up);
            block.down.apply(&up, total, &mut other, &mut scratch);
            ops::add(&mut other, &x);
            ops::layer_norm(&mut other, &block.output_norm.gamma, &block.output_norm.beta, self.eps);
            std::mem::swap(&mut x, &mut other);
        }
        spans.iter().map(|&(start, n)| pool(&x[start * h..(start + n) * h], h, pooling)).collect()
    }

    /// Word + position + token type (0) embeddings of every token, normalised.
    fn embeddings(&self, texts: &[&[u32]], total: usize) -> Vec<f32> {
        let h = self.hidden;
        let vocab = self.word.len() / h;
        let mut x = Vec::with_capacity(total * h);
        for text in texts {
            for (t, &id) in text.iter().take(self.max_positions).enumerate() {
                // The tokenizer only yields ids of its vocabulary; anything else reads as id 0.
                let id = if (id as usize) < vocab { id as usize } else { 0 };
                let word = &self.word[id * h..(id + 1) * h];
                let position = &self.position[t * h..(t + 1) * h];
                x.extend(word.iter().zip(position).zip(&self.token_type).map(|((w, p), k)| w.to_f32() + p + k));
            }
        }
        ops::layer_norm(&mut x, &self.embedding_norm.gamma, &self.embedding_norm.beta, self.eps);
        x
    }

    /// Scaled dot-product attention of each text over its own tokens, head by head, into
    /// `context` (rows of `hidden`, heads side by side).
    fn attention(&self, qkv: &[f32], spans: &[(usize, usize)], context: &mut [f32], scores: &mut [f32]) {
        let (h, d) = (self.hidden, self.head_dim);
        let stride = 3 * h;
        for &(start, n) in spans {
            if n == 0 {
                continue;
            }
            let scores = &mut scores[..n * n];
            let rows = &qkv[start * stride..(start + n) * stride];
            let out = &mut context[start * h..(start + n) * h];
            for head in 0..self.heads {
                // SAFETY: q, k and v of this head are columns head·d.. of the query, key and
                // value thirds of `rows` (n rows of `stride`); `scores` is n × n and `out` n rows
                // of h, of which this head writes columns head·d..(head + 1)·d.
                unsafe {
                    let q = rows.as_ptr().add(head * d);
                    let k = q.add(h);
                    let v = q.add(2 * h);
                    // scores = q · kᵀ (kᵀ: row stride 1, column stride `stride`)
                    matmul_f32(n, n, d, (scores.as_mut_ptr(), n), (q, stride, 1), (k, 1, stride));
                    ops::softmax_rows(scores, n);
                    // context = softmax(scores) · v
                    matmul_f32(n, d, n, (out.as_mut_ptr().add(head * d), h), (scores.as_ptr(), n, 1), (v, stride, 1));
                }
            }
        }
    }
}

/// The number of token types the checkpoint holds (2 for BERT; the encoder uses type 0).
fn token_type_count(w: &Weights, h: usize) -> Result<usize, LoadError> {
    for count in [2, 1] {
        if w.expect_shape("embeddings.token_type_embeddings.weight", &[count, h]).is_ok() {
            return Ok(count);
        }
    }
    w.expect_shape("embeddings.token_type_embeddings.weight", &[2, h]).map(|_| 2)
}

/// One text's token states (rows of `h`) pooled and L2-normalised.
fn pool(states: &[f32], h: usize, pooling: Pooling) -> Vec<f32> {
    let mut v = vec![0f32; h];
    let rows = states.len() / h;
    match pooling {
        Pooling::Cls => v.copy_from_slice(&states[..h.min(states.len())]),
        Pooling::Mean => {
            for row in states.chunks_exact(h) {
                ops::add(&mut v, row);
            }
            let inv = 1.0 / rows.max(1) as f32;
            v.iter_mut().for_each(|x| *x *= inv);
        }
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.iter_mut().for_each(|x| *x /= norm);
    v
}
