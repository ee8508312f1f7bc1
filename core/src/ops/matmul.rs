//! `x · wᵀ`, the dense product behind `Linear` (and so behind one-hot × `Linear`).
//!
//! x `(rows, k)`, w `(cols, k)` → `(rows, cols)`, float32. Each row of `w` is read once for up to
//! four rows of `x`, a cache-sized slice of k at a time, and every dot product keeps eight partial
//! sums in one `wide::f32x8`: two f32x4 multiply-adds per step, wasm `simd128` in the browser
//! build (`.cargo/config.toml`), SSE natively, scalar code where neither is enabled. Partial sums
//! add in another order than a left-to-right sum, as PyTorch's own sgemm does (the fixtures'
//! tolerance holds); products by zero add exactly nothing, so a one-hot row picks its column's
//! value unchanged (`torch.equal` to the lookup; a −0.0 weight comes out as +0.0).

/// Partial sums per dot product: one `f32x8`, two f32x4 registers.
const LANES: usize = 8;
/// Rows of `x` that share one pass over a row of `w`.
const ROWS: usize = 4;
/// Columns of `x` and `w` taken at a time: `cols` rows of this many floats stay in cache.
const DEPTH: usize = 2048;

use wide::{f32x4, f32x8};

/// `y[n, i] = Σ_j x[n, j]·w[i, j]` for `x (rows, k)`, `w (cols, k)`.
pub fn matmul_t(x: &[f32], w: &[f32], (rows, cols, k): (usize, usize, usize)) -> Vec<f32> {
    debug_assert_eq!((x.len(), w.len()), (rows * k, cols * k));
    let mut y = vec![0.0f32; rows * cols];
    // A slice of k at a time, so that the slice of `w` it reads stays in cache while every block
    // of rows passes over it.
    for k0 in (0..k).step_by(DEPTH) {
        let depth = DEPTH.min(k - k0);
        for n in (0..rows).step_by(ROWS) {
            let block = ROWS.min(rows - n);
            // A short last block repeats its last row rather than branching in the inner loop.
            let xs: [&[f32]; ROWS] = std::array::from_fn(|r| &x[(n + r.min(block - 1)) * k + k0..][..depth]);
            for i in 0..cols {
                let sums = dots(&xs, &w[i * k + k0..][..depth]);
                for (r, sum) in sums.into_iter().take(block).enumerate() {
                    y[(n + r) * cols + i] += sum;
                }
            }
        }
    }
    y
}

/// `y += a·x`, four lanes at a time: the row update of `Linear`'s dense `weight.grad`. Each lane
/// does what the plain loop does (a product, then a sum, no fused multiply-add), so the bits
/// are the same.
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    let (ys, y_tail) = y.as_chunks_mut::<4>();
    let (xs, x_tail) = x.as_chunks::<4>();
    // Made once, outside the loop: at the core's opt-level "s" a splat in it is not hoisted.
    let a4 = f32x4::splat(a);
    for (y, x) in ys.iter_mut().zip(xs) {
        *y = (f32x4::new(*y) + a4 * f32x4::new(*x)).to_array();
    }
    for (y, x) in y_tail.iter_mut().zip(x_tail) {
        *y += a * x;
    }
}

/// `Σ a[k]·b[k]` in eight partial sums: the one dot product of a row with a row, for word2vec at
/// real scale (`scene::word2vec::scale`), where order to the bit matters less than speed.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let ((ac, a_tail), (bc, b_tail)) = (a.as_chunks::<LANES>(), b.as_chunks::<LANES>());
    let sum = ac.iter().zip(bc).fold(f32x8::ZERO, |s, (a, b)| s + f32x8::new(*a) * f32x8::new(*b));
    sum.reduce_add() + a_tail.iter().zip(b_tail).fold(0.0f32, |s, (x, y)| s + x * y)
}

/// The dot products of `w` with each of `xs`, all the same length.
fn dots(xs: &[&[f32]; ROWS], w: &[f32]) -> [f32; ROWS] {
    let (wc, w_tail) = w.as_chunks::<LANES>();
    let n = wc.len();
    // Every row cut to the same number of chunks up front: no bounds checks in the loop.
    let [x0, x1, x2, x3] = xs.map(|x| &x.as_chunks::<LANES>().0[..n]);
    // Four named accumulators (not an array) stay in registers.
    let (mut a0, mut a1, mut a2, mut a3) = (f32x8::ZERO, f32x8::ZERO, f32x8::ZERO, f32x8::ZERO);
    for j in 0..n {
        let wj = f32x8::new(wc[j]);
        a0 += f32x8::new(x0[j]) * wj;
        a1 += f32x8::new(x1[j]) * wj;
        a2 += f32x8::new(x2[j]) * wj;
        a3 += f32x8::new(x3[j]) * wj;
    }
    let acc = [a0, a1, a2, a3];
    std::array::from_fn(|r| {
        let x_tail = &xs[r][n * LANES..];
        acc[r].reduce_add() + x_tail.iter().zip(w_tail).fold(0.0f32, |s, (x, w)| s + x * w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook sum, in float64: the reference the kernel must stay close to.
    fn reference(x: &[f32], w: &[f32], (rows, cols, k): (usize, usize, usize)) -> Vec<f64> {
        let mut y = Vec::new();
        for n in 0..rows {
            for i in 0..cols {
                y.push((0..k).map(|j| x[n * k + j] as f64 * w[i * k + j] as f64).sum());
            }
        }
        y
    }

    #[test]
    fn every_shape_matches_the_textbook_sum() {
        // Rows and k on both sides of the block (4) and lane (8) sizes, empty ones included.
        for rows in [0, 1, 3, 4, 5, 9] {
            for k in [0, 1, 7, 8, 9, 33] {
                let cols = 3;
                let x: Vec<f32> = (0..rows * k).map(|v| ((v * 37 % 11) as f32 - 5.0) / 4.0).collect();
                let w: Vec<f32> = (0..cols * k).map(|v| ((v * 53 % 13) as f32 - 6.0) / 8.0).collect();
                let got = matmul_t(&x, &w, (rows, cols, k));
                let want = reference(&x, &w, (rows, cols, k));
                assert_eq!(got.len(), rows * cols);
                for (g, w) in got.iter().zip(want) {
                    assert!((*g as f64 - w).abs() <= 1e-5 * (1.0 + w.abs()), "rows {rows} k {k}: {g} vs {w}");
                }
            }
        }
    }

    #[test]
    fn a_one_hot_row_picks_its_column_to_the_bit() {
        // k over one DEPTH: the picked value passes through the blocks' sums of zeros.
        let (rows, cols, k) = (3, 5, 5000);
        let w: Vec<f32> = (0..cols * k).map(|v| (v as f32 * 0.7341).sin() * 1e3).collect();
        let ids = [0, 4999, 2517];
        let mut x = vec![0.0f32; rows * k];
        for (n, id) in ids.iter().enumerate() {
            x[n * k + id] = 1.0;
        }
        let y = matmul_t(&x, &w, (rows, cols, k));
        for (n, id) in ids.iter().enumerate() {
            for i in 0..cols {
                assert_eq!(y[n * cols + i].to_bits(), w[i * k + id].to_bits());
            }
        }
    }

    #[test]
    fn axpy_is_the_plain_loop_to_the_bit() {
        for n in [0, 1, 3, 4, 5, 11] {
            let x: Vec<f32> = (0..n).map(|v| (v as f32 * 0.7341).sin() * 1e3).collect();
            let mut y: Vec<f32> = (0..n).map(|v| (v as f32 * 1.913).cos()).collect();
            let mut want = y.clone();
            let a = 0.3127f32;
            want.iter_mut().zip(&x).for_each(|(y, x)| *y += a * x);
            axpy(&mut y, a, &x);
            assert_eq!(
                y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn inf_and_nan_spread_as_in_a_plain_sum() {
        let x = [1.0, 0.0, 2.0, 1.0];
        let w = [f32::INFINITY, 1.0, 1.0, 1.0, f32::NAN, 1.0];
        let y = matmul_t(&x, &w, (2, 3, 2));
        assert_eq!(y[0], f32::INFINITY);
        assert_eq!(y[1], 1.0);
        assert!(y[2].is_nan());
        assert_eq!(y[3], f32::INFINITY);
    }
}
