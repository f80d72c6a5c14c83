//! A linear layer, `y = x · Wᵀ + b`, in the precision the encoder was loaded with.

use crate::int8::{self, PackedWeights};
use crate::{Precision, ops};

pub enum Linear {
    F32 { weight: Vec<f32>, bias: Vec<f32>, n: usize, k: usize },
    Int8 { weight: PackedWeights, bias: Vec<f32> },
}

/// Buffers one batch reuses across layers.
#[derive(Default)]
pub struct Scratch {
    quantized: Vec<u8>,
    row_scales: Vec<f32>,
    sums: Vec<i32>,
}

impl Linear {
    /// `weight` is row-major `[n][k]` (one row per output), as PyTorch stores it.
    pub fn new(weight: Vec<f32>, bias: Vec<f32>, n: usize, k: usize, precision: Precision) -> Linear {
        match precision {
            Precision::F32 => Linear::F32 { weight, bias, n, k },
            Precision::Int8 => Linear::Int8 { weight: PackedWeights::quantize(&weight, n, k), bias },
        }
    }

    pub fn outputs(&self) -> usize {
        match self {
            Linear::F32 { n, .. } => *n,
            Linear::Int8 { weight, .. } => weight.n,
        }
    }

    /// `out[m][n] = x[m][k] · Wᵀ + b`.
    pub fn apply(&self, x: &[f32], m: usize, out: &mut [f32], scratch: &mut Scratch) {
        match self {
            Linear::F32 { weight, bias, n, k } => {
                let (n, k) = (*n, *k);
                // SAFETY: x is m × k, weight n × k and out m × n, all row-major, as the strides say.
                unsafe { matmul_f32(m, n, k, (out.as_mut_ptr(), n), (x.as_ptr(), k, 1), (weight.as_ptr(), 1, k)) };
                ops::add_rows(&mut out[..m * n], bias);
            }
            Linear::Int8 { weight, bias } => {
                let (n, k, row) = (weight.n, weight.k, weight.row_bytes());
                scratch.quantized.resize(m * row, 128);
                scratch.row_scales.resize(m, 0.0);
                scratch.sums.resize(m * n, 0);
                ops::quantize_rows(&x[..m * k], k, row, &mut scratch.quantized, &mut scratch.row_scales);
                int8::matmul(&scratch.quantized, m, weight, &mut scratch.sums);
                ops::dequantize_rows(
                    &scratch.sums[..m * n],
                    &scratch.row_scales,
                    &weight.scale,
                    &weight.shift,
                    bias,
                    &mut out[..m * n],
                );
            }
        }
    }
}

/// `dst[m][n] = lhs[m][k] · rhs[k][n]` in f32 on the calling thread. Each matrix is a pointer
/// and its strides in elements: `dst` (pointer, row stride; columns are contiguous), `lhs` and
/// `rhs` (pointer, row stride, column stride), so a transposed or interleaved operand needs no copy.
///
/// # Safety
/// Every element the shapes and strides address lies inside the matrix's allocation, and `dst`
/// overlaps neither operand.
pub(crate) unsafe fn matmul_f32(
    m: usize,
    n: usize,
    k: usize,
    dst: (*mut f32, usize),
    lhs: (*const f32, usize, usize),
    rhs: (*const f32, usize, usize),
) {
    let s = |x: usize| x as isize;
    // SAFETY: forwarded from the caller; beta = 1 and alpha unused (dst is not read).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.0,
            1,
            s(dst.1),
            false,
            lhs.0,
            s(lhs.2),
            s(lhs.1),
            rhs.0,
            s(rhs.2),
            s(rhs.1),
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        )
    };
}
