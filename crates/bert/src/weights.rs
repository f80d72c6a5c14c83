//! Reads tensors from a `.safetensors` file one at a time: an 8-byte little-endian header length,
//! a JSON header naming each tensor's dtype, shape and byte range, then the data. Reading by
//! range keeps the f32 file out of memory; only the tensor being converted is held.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use half::{bf16, f16};
use serde::Deserialize;

use crate::LoadError;

#[derive(Debug, Deserialize)]
struct TensorInfo {
    dtype: String,
    shape: Vec<usize>,
    data_offsets: (u64, u64),
}

/// An open weights file and its table of contents.
pub struct Weights {
    file: File,
    data_start: u64,
    tensors: HashMap<String, TensorInfo>,
    /// `bert.` for checkpoints saved from `BertForMaskedLM` and the like, else empty.
    prefix: &'static str,
}

/// Rows read per call when a large tensor is streamed (about 1.5 MB of f32 for MiniLM).
const ROWS_PER_READ: usize = 1024;

impl Weights {
    pub fn open(path: &Path) -> Result<Weights, LoadError> {
        let mut file = File::open(path)?;
        let mut len = [0u8; 8];
        file.read_exact(&mut len)?;
        let header_len = u64::from_le_bytes(len);
        if header_len > 100 << 20 {
            return Err(LoadError::Format(format!("a header of {header_len} bytes")));
        }
        let mut header = vec![0u8; header_len as usize];
        file.read_exact(&mut header)?;
        let raw: HashMap<String, serde_json::Value> =
            serde_json::from_slice(&header).map_err(|e| LoadError::Format(e.to_string()))?;
        let mut tensors = HashMap::new();
        for (name, value) in raw {
            if name == "__metadata__" {
                continue;
            }
            let info: TensorInfo =
                serde_json::from_value(value).map_err(|e| LoadError::Format(format!("{name}: {e}")))?;
            tensors.insert(name, info);
        }
        let prefix = if tensors.contains_key("bert.embeddings.word_embeddings.weight") { "bert." } else { "" };
        Ok(Weights { file, data_start: 8 + header_len, tensors, prefix })
    }

    fn info(&self, name: &str) -> Result<(&TensorInfo, String), LoadError> {
        let full = format!("{}{name}", self.prefix);
        match self.tensors.get(&full) {
            Some(info) => Ok((info, full)),
            None => Err(LoadError::Tensor { name: full, reason: "missing".into() }),
        }
    }

    /// The tensor's shape, checked against what the configuration implies.
    pub fn expect_shape(&self, name: &str, shape: &[usize]) -> Result<(), LoadError> {
        let (info, full) = self.info(name)?;
        if info.shape != shape {
            return Err(LoadError::Tensor {
                name: full,
                reason: format!("shape {:?}, expected {shape:?}", info.shape),
            });
        }
        Ok(())
    }

    /// The whole tensor as f32.
    pub fn f32(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, LoadError> {
        let mut out = Vec::with_capacity(shape.iter().product());
        self.stream(name, shape, |rows| out.extend_from_slice(rows))?;
        Ok(out)
    }

    /// The tensor as f16, converted in pieces (the word embeddings: 47 MB as f32, 23 MB so).
    pub fn f16(&self, name: &str, shape: &[usize]) -> Result<Vec<f16>, LoadError> {
        let mut out = Vec::with_capacity(shape.iter().product());
        self.stream(name, shape, |rows| out.extend(rows.iter().map(|&v| f16::from_f32(v))))?;
        Ok(out)
    }

    /// Calls `each` with consecutive pieces of the tensor (whole rows) as f32.
    fn stream(&self, name: &str, shape: &[usize], mut each: impl FnMut(&[f32])) -> Result<(), LoadError> {
        self.expect_shape(name, shape)?;
        let (info, full) = self.info(name)?;
        let bad = |reason: String| LoadError::Tensor { name: full.clone(), reason };
        let width = match info.dtype.as_str() {
            "F32" => 4,
            "F16" | "BF16" => 2,
            other => return Err(bad(format!("dtype {other}: expected F32, F16 or BF16"))),
        };
        let count: usize = shape.iter().product();
        let (start, end) = info.data_offsets;
        if end.checked_sub(start) != Some((count * width) as u64) {
            return Err(bad(format!("{} bytes for {count} values", end.saturating_sub(start))));
        }
        let row = shape.last().copied().unwrap_or(1).max(1);
        let step = row * ROWS_PER_READ;
        let mut bytes = vec![0u8; step.min(count) * width];
        let mut values = Vec::with_capacity(step.min(count));
        let mut done = 0;
        while done < count {
            let n = step.min(count - done);
            let buf = &mut bytes[..n * width];
            let mut file = &self.file;
            file.seek(SeekFrom::Start(self.data_start + start + (done * width) as u64))?;
            file.read_exact(buf)?;
            values.clear();
            match info.dtype.as_str() {
                "F32" => values.extend(buf.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))),
                "F16" => values.extend(buf.chunks_exact(2).map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32())),
                _ => values.extend(buf.chunks_exact(2).map(|b| bf16::from_le_bytes([b[0], b[1]]).to_f32())),
            }
            each(&values);
            done += n;
        }
        Ok(())
    }
}
