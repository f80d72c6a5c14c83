//! 8-bit matrix products: `out = x · Wᵀ` with x quantized per row (token) and W per output
//! channel, both symmetric to [-127, 127], accumulated exactly in i32.
//!
//! AVX-512 VNNI's `vpdpbusd` multiplies unsigned by signed bytes, four at a time into each of
//! sixteen i32 lanes: activations are stored shifted by +128 (as u8), and the shift's
//! contribution, 128 · Σₖ W[j][k], is subtracted per column afterwards.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Columns per packed group: one 512-bit register of i32 accumulators.
const GROUP: usize = 16;
/// Rows and column groups of one register tile: 6 × 4 accumulators, 4 weight registers and a
/// broadcast leave 3 of the 32 registers free.
const TILE_ROWS: usize = 6;
const TILE_GROUPS: usize = 4;

/// Whether this CPU has the integer dot products the fast kernel needs.
pub fn has_fast_kernel() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A weight matrix `[n][k]` in 8 bits, packed for the kernel.
pub struct PackedWeights {
    pub n: usize,
    pub k: usize,
    /// `k` rounded up to a multiple of 4.
    k4: usize,
    /// Group-major: for each 16 columns, for each 4 of k, 16 × 4 bytes (column, then k).
    packed: Vec<i8>,
    /// Per column: the scale back to f32.
    pub scale: Vec<f32>,
    /// Per column: 128 · Σₖ W[j][k] in the quantized units.
    pub shift: Vec<i32>,
}

impl PackedWeights {
    /// Quantizes `w`, row-major `[n][k]` (PyTorch's linear layout: one row per output).
    pub fn quantize(w: &[f32], n: usize, k: usize) -> PackedWeights {
        let k4 = k.div_ceil(4) * 4;
        let groups = n.div_ceil(GROUP);
        let mut packed = vec![0i8; groups * GROUP * k4];
        let mut scale = vec![0f32; n];
        let mut shift = vec![0i32; n];
        for j in 0..n {
            let row = &w[j * k..(j + 1) * k];
            let max = row.iter().fold(0f32, |m, v| m.max(v.abs()));
            let s = if max > 0.0 { max / 127.0 } else { 1.0 };
            scale[j] = s;
            let (g, c) = (j / GROUP, j % GROUP);
            let mut sum = 0i32;
            for (kk, &v) in row.iter().enumerate() {
                let q = (v / s).round().clamp(-127.0, 127.0) as i8;
                sum += i32::from(q);
                packed[(g * k4 + kk / 4 * 4) * GROUP + c * 4 + kk % 4] = q;
            }
            shift[j] = 128 * sum;
        }
        PackedWeights { n, k, k4, packed, scale, shift }
    }

    /// The quantized weight at column `j`, input `kk` (for the portable kernel and tests).
    fn at(&self, j: usize, kk: usize) -> i8 {
        self.packed[((j / GROUP) * self.k4 + kk / 4 * 4) * GROUP + (j % GROUP) * 4 + kk % 4]
    }

    /// Bytes per quantized input row.
    pub fn row_bytes(&self) -> usize {
        self.k4
    }
}

/// `acc[i][j] = Σₖ a[i][k] · W[j][k]` for `m` rows of `a` (u8, `w.row_bytes()` each).
pub fn matmul(a: &[u8], m: usize, w: &PackedWeights, acc: &mut [i32]) {
    debug_assert!(a.len() >= m * w.k4 && acc.len() >= m * w.n);
    #[cfg(target_arch = "x86_64")]
    if w.n.is_multiple_of(GROUP) && has_fast_kernel() {
        // SAFETY: the CPU has the features (checked above); the lengths were checked above and
        // every tile stays inside `a`, `w.packed` and `acc`.
        unsafe { vnni::matmul(a, m, w, acc) };
        return;
    }
    portable(a, m, w, acc);
}

/// The same product in plain integer arithmetic.
fn portable(a: &[u8], m: usize, w: &PackedWeights, acc: &mut [i32]) {
    for i in 0..m {
        let row = &a[i * w.k4..(i + 1) * w.k4];
        for j in 0..w.n {
            acc[i * w.n + j] = (0..w.k).map(|kk| i32::from(row[kk]) * i32::from(w.at(j, kk))).sum();
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod vnni {
    use super::*;

    /// # Safety
    /// The CPU has AVX-512F, BW and VNNI; `w.n` is a multiple of 16; `a` holds `m` rows of
    /// `w.k4` bytes and `acc` `m` rows of `w.n`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub unsafe fn matmul(a: &[u8], m: usize, w: &PackedWeights, acc: &mut [i32]) {
        let groups = w.n / GROUP;
        let mut g = 0;
        while g < groups {
            let width = (groups - g).min(TILE_GROUPS);
            let mut i = 0;
            while i < m {
                let rows = (m - i).min(TILE_ROWS);
                // SAFETY: rows i..i+rows and groups g..g+width are in bounds (the caller's contract).
                unsafe {
                    let a = a.as_ptr().add(i * w.k4);
                    let c = acc.as_mut_ptr().add(i * w.n + g * GROUP);
                    match (rows, width) {
                        (6, 4) => tile::<6, 4>(a, w, g, c),
                        (r, 4) => tile_rows::<4>(r, a, w, g, c),
                        (r, 3) => tile_rows::<3>(r, a, w, g, c),
                        (r, 2) => tile_rows::<2>(r, a, w, g, c),
                        (r, _) => tile_rows::<1>(r, a, w, g, c),
                    }
                }
                i += rows;
            }
            g += width;
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn tile_rows<const G: usize>(rows: usize, a: *const u8, w: &PackedWeights, g: usize, c: *mut i32) {
        // SAFETY: forwarded from `matmul`.
        unsafe {
            match rows {
                6 => tile::<6, G>(a, w, g, c),
                5 => tile::<5, G>(a, w, g, c),
                4 => tile::<4, G>(a, w, g, c),
                3 => tile::<3, G>(a, w, g, c),
                2 => tile::<2, G>(a, w, g, c),
                _ => tile::<1, G>(a, w, g, c),
            }
        }
    }

    /// One register tile: R rows × G groups of 16 columns, over all of k.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn tile<const R: usize, const G: usize>(a: *const u8, w: &PackedWeights, g: usize, c: *mut i32) {
        let mut sums = [[_mm512_setzero_si512(); G]; R];
        let panel = GROUP * w.k4;
        // SAFETY: the pointers stay within the rows and groups the caller checked.
        unsafe {
            let b = w.packed.as_ptr().add(g * panel);
            for step in 0..w.k4 / 4 {
                let mut cols = [_mm512_setzero_si512(); G];
                for (v, col) in cols.iter_mut().enumerate() {
                    *col = _mm512_loadu_si512(b.add(v * panel + step * 4 * GROUP).cast());
                }
                for (r, row) in sums.iter_mut().enumerate() {
                    let x = _mm512_set1_epi32(a.add(r * w.k4 + step * 4).cast::<i32>().read_unaligned());
                    for (sum, col) in row.iter_mut().zip(cols) {
                        *sum = _mm512_dpbusd_epi32(*sum, x, col);
                    }
                }
            }
            for (r, row) in sums.iter().enumerate() {
                for (v, sum) in row.iter().enumerate() {
                    _mm512_storeu_si512(c.add(r * w.n + v * GROUP).cast(), *sum);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator: the tests need varied values, not random ones.
    fn values(n: usize, seed: u32) -> Vec<f32> {
        let mut x = seed.wrapping_mul(2654435761).max(1);
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x % 2001) as f32 / 1000.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn the_fast_kernel_gives_the_portable_kernels_sums_exactly() {
        if !has_fast_kernel() {
            eprintln!("no AVX-512 VNNI on this CPU: the portable kernel is the only one");
        }
        // Every tile shape: 6-row tiles and a remainder of 1..5, 4-group tiles and a remainder.
        for (m, n, k) in [(13, 80, 37), (6, 64, 384), (1, 16, 4), (11, 112, 1536)] {
            let w = PackedWeights::quantize(&values(n * k, 1), n, k);
            let a: Vec<u8> = (0..m * w.k4).map(|i| (i * 37 % 256) as u8).collect();
            let mut fast = vec![0; m * n];
            let mut slow = vec![0; m * n];
            matmul(&a, m, &w, &mut fast);
            portable(&a, m, &w, &mut slow);
            assert_eq!(fast, slow, "m {m} n {n} k {k}");
        }
    }

    #[test]
    fn quantized_weights_stay_within_half_a_step() {
        let (n, k) = (16, 40);
        let w = values(n * k, 7);
        let q = PackedWeights::quantize(&w, n, k);
        for j in 0..n {
            for kk in 0..k {
                let back = f32::from(q.at(j, kk)) * q.scale[j];
                assert!((back - w[j * k + kk]).abs() <= q.scale[j] / 2.0 + 1e-6);
            }
        }
    }
}
