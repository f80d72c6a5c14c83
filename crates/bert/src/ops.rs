//! The element-wise passes between matrix products. Each is a plain loop that the compiler
//! vectorizes; `multiversion` compiles it once per instruction set and picks one at run time,
//! so a binary built for any x86-64 still uses AVX-512 where the CPU has it.

use multiversion::multiversion;

/// 1.5 · 2²³: adding it to a float of magnitude below 2²² rounds it to an integer (ties to
/// even) held in the low mantissa bits, so rounding and conversion to an integer vectorize (Rust's
/// saturating `as i32` does not: it checks every lane for NaN and overflow).
const ROUNDER: f32 = 12_582_912.0;

/// `x` rounded to the nearest integer (|x| < 2²²), as a float and as an integer.
#[inline(always)]
fn round(x: f32) -> (f32, i32) {
    let t = x + ROUNDER;
    (t - ROUNDER, t.to_bits() as i32 - ROUNDER.to_bits() as i32)
}

/// `e^x` to about 2e-7 relative error, in arithmetic that vectorizes (no libm call): 2^n by the
/// exponent bits, e^r on |r| ≤ ln2/2 by its Taylor polynomial of degree 6.
#[inline(always)]
fn exp(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    let x = x.clamp(-87.0, 88.0);
    let (n, bits) = round(x * std::f32::consts::LOG2_E);
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    p * f32::from_bits(((bits + 127) as u32) << 23)
}

/// Lanes of the reductions below: independent partial results the compiler keeps in vector
/// registers (a float reduction in one accumulator cannot be vectorized: it would reorder the
/// additions).
const LANES: usize = 16;

/// Folds `x` into `LANES` partial results with `step`, then the partials with `combine`.
#[inline(always)]
fn reduce(x: &[f32], init: f32, step: impl Fn(f32, f32) -> f32, combine: impl Fn(f32, f32) -> f32) -> f32 {
    let mut acc = [init; LANES];
    let chunks = x.chunks_exact(LANES);
    let tail = chunks.remainder();
    for chunk in chunks {
        for (a, &v) in acc.iter_mut().zip(chunk) {
            *a = step(*a, v);
        }
    }
    for (a, &v) in acc.iter_mut().zip(tail) {
        *a = step(*a, v);
    }
    acc.into_iter().fold(init, combine)
}

#[inline(always)]
fn sum(x: &[f32]) -> f32 {
    reduce(x, 0.0, |a, v| a + v, |a, v| a + v)
}

#[inline(always)]
fn sum_of_squares(x: &[f32]) -> f32 {
    reduce(x, 0.0, |a, v| a + v * v, |a, v| a + v)
}

#[inline(always)]
fn max(x: &[f32]) -> f32 {
    let larger = |a: f32, v: f32| if v > a { v } else { a };
    reduce(x, f32::NEG_INFINITY, larger, larger)
}

#[inline(always)]
fn max_abs(x: &[f32]) -> f32 {
    reduce(x, 0.0, |a, v| if v.abs() > a { v.abs() } else { a }, |a, v| if v > a { v } else { a })
}

/// GELU with the exact erf, as BERT defines it: x·Φ(x) = max(x, 0) − |x|·erfc(|x|/√2)/2, with
/// erfc from Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512vl+avx2+fma", "x86_64+avx2+fma", "aarch64+neon"))]
pub fn gelu(x: &mut [f32]) {
    const P: f32 = 0.327_591_1 / std::f32::consts::SQRT_2;
    const A: [f32; 5] = [0.254_829_6, -0.284_496_74, 1.421_413_8, -1.453_152, 1.061_405_4];
    for v in x.iter_mut() {
        let a = v.abs();
        let t = 1.0 / (1.0 + P * a);
        let poly = t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4]))));
        let tail = 0.5 * a * poly * exp(-0.5 * a * a);
        *v = v.max(0.0) - tail;
    }
}

/// Each row of `x` (rows of `width`) normalised to zero mean and unit variance, then scaled.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512vl+avx2+fma", "x86_64+avx2+fma", "aarch64+neon"))]
pub fn layer_norm(x: &mut [f32], gamma: &[f32], beta: &[f32], eps: f32) {
    let width = gamma.len();
    for row in x.chunks_exact_mut(width) {
        let mean = sum(row) / width as f32;
        row.iter_mut().for_each(|v| *v -= mean);
        let var = sum_of_squares(row) / width as f32;
        let inv = 1.0 / (var + eps).sqrt();
        for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *v = *v * inv * g + b;
        }
    }
}

/// `x += y`, element by element.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512vl+avx2+fma", "x86_64+avx2+fma", "aarch64+neon"))]
pub fn add(x: &mut [f32], y: &[f32]) {
    for (a, b) in x.iter_mut().zip(y) {
        *a += b;
    }
}

/// Adds `bias` to every row of `x`.
pub fn add_rows(x: &mut [f32], bias: &[f32]) {
    for row in x.chunks_exact_mut(bias.len()) {
        add(row, bias);
    }
}

/// Each row of `s` (rows of `width`) replaced by its softmax.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512vl+avx2+fma", "x86_64+avx2+fma", "aarch64+neon"))]
pub fn softmax_rows(s: &mut [f32], width: usize) {
    for row in s.chunks_exact_mut(width) {
        let max = max(row);
        row.iter_mut().for_each(|v| *v = exp(*v - max));
        let inv = 1.0 / sum(row);
        for v in row.iter_mut() {
            *v *= inv;
        }
    }
}

/// Rows of `k` values to symmetric 8 bits, stored +128 as u8 in rows of `row_bytes` (the tail
/// past `k` is 128, zero), with each row's scale back to f32.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512vl+avx2+fma", "x86_64+avx2+fma", "aarch64+neon"))]
pub fn quantize_rows(x: &[f32], k: usize, row_bytes: usize, out: &mut [u8], scales: &mut [f32]) {
    for ((row, q), scale) in x.chunks_exact(k).zip(out.chunks_exact_mut(row_bytes)).zip(scales.iter_mut()) {
        let max = max_abs(row);
        let inv = if max > 0.0 { 127.0 / max } else { 0.0 };
        *scale = max / 127.0;
        for (b, v) in q.iter_mut().zip(row) {
            *b = (round(v * inv).1 + 128) as u8;
        }
        q[k..].fill(128);
    }
}

/// `out[i][j] = (sums[i][j] − shift[j]) · row_scale[i] · col_scale[j] + bias[j]`.
#[multiversion(targets("x86_64+avx512f+avx512bw+avx512vl+avx2+fma", "x86_64+avx2+fma", "aarch64+neon"))]
pub fn dequantize_rows(
    sums: &[i32],
    row_scales: &[f32],
    col_scales: &[f32],
    shift: &[i32],
    bias: &[f32],
    out: &mut [f32],
) {
    let n = col_scales.len();
    for ((sums, out), &rs) in sums.chunks_exact(n).zip(out.chunks_exact_mut(n)).zip(row_scales) {
        for ((((o, &s), &cs), &sh), &b) in out.iter_mut().zip(sums).zip(col_scales).zip(shift).zip(bias) {
            *o = (s - sh) as f32 * (rs * cs) + b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn erf(x: f64) -> f64 {
        // A high-precision series for the reference (|x| ≤ 6 converges fine in f64).
        let mut sum = 0.0f64;
        let mut term = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs().max(1e-300) || n < 3.0 {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -x * x / n;
            if n > 400.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    }

    #[test]
    fn exp_and_gelu_match_their_definitions() {
        for i in -800..=800 {
            let x = i as f32 / 10.0;
            let want = (x as f64).exp();
            assert!(((exp(x) as f64) - want).abs() <= want * 1e-6, "exp({x})");
        }
        let xs: Vec<f32> = (-600..=600).map(|i| i as f32 / 100.0).collect();
        let mut got = xs.clone();
        gelu(&mut got);
        for (x, g) in xs.iter().zip(got) {
            let x = *x as f64;
            let want = 0.5 * x * (1.0 + erf(x / std::f64::consts::SQRT_2));
            assert!((g as f64 - want).abs() < 1e-6, "gelu({x}) = {g}, want {want}");
        }
    }

    #[test]
    fn layer_norm_gives_zero_mean_and_unit_variance() {
        // 40 values: two full lanes of partial sums and a tail.
        let mut x: Vec<f32> = (0..40).map(|i| (i * i % 17) as f32 - 3.0).collect();
        layer_norm(&mut x, &[1.0; 40], &[0.0; 40], 0.0);
        let mean = x.iter().sum::<f32>() / 40.0;
        let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / 40.0;
        assert!(mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-4, "mean {mean}, variance {var}");
    }

    #[test]
    fn softmax_rows_sum_to_one_and_keep_order() {
        let mut s = vec![1.0, 2.0, 3.0, -50.0, 0.0, 50.0];
        softmax_rows(&mut s, 3);
        for row in s.chunks(3) {
            assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-6);
            assert!(row[0] < row[1] && row[1] < row[2]);
        }
        assert!((s[2] - 0.665_240_9).abs() < 1e-6);
    }

    #[test]
    fn quantized_rows_come_back_within_half_a_step() {
        let x: Vec<f32> = (0..10).map(|i| (i as f32 - 4.5) * 0.37).collect();
        let (mut q, mut scale) = (vec![0u8; 12], vec![0f32; 1]);
        quantize_rows(&x, 10, 12, &mut q, &mut scale);
        for (v, b) in x.iter().zip(&q) {
            let back = (i32::from(*b) - 128) as f32 * scale[0];
            assert!((back - v).abs() <= scale[0] / 2.0 + 1e-6);
        }
        assert_eq!(&q[10..], &[128, 128]);
    }
}
