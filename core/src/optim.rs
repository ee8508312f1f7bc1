//! `torch.optim.SGD` (no momentum, no weight decay): `param ← param − lr · param.grad`, which
//! PyTorch computes as `param.add_(grad, alpha=-lr)`: one fused multiply-add per element in
//! float32.

use crate::error::{Result, TorchError};
use crate::fma::fma;
use crate::tensor::Tensor;
use wide::u32x4;

/// Numbers of a gradient looked at together for a run of +0.
const RUN: usize = 16;

/// One SGD step on one parameter, in place; the flat indices of the numbers it moved (whose bits
/// changed), for the view to mark.
pub fn sgd_step(param: &mut Tensor, grad: &Tensor, lr: f64) -> Result<Vec<usize>> {
    if param.shape() != grad.shape() {
        return Err(TorchError::runtime(format!(
            "The size of tensor a ({}) must match the size of tensor b ({})",
            param.numel(),
            grad.numel()
        )));
    }
    let alpha = -lr as f32;
    // A gradient of +0 moves nothing while α is finite and not positive: +0·α is -0, and p + -0
    // is p, whatever p is (-0 and nan included). A dense gradient at real scale is +0 but in a
    // few rows, so runs of +0 are found four lanes at a time and skipped: wasm has no fused
    // multiply-add instruction (`fma` is a few), and a branch per number was most of a step there.
    let still = alpha.is_finite() && alpha.is_sign_negative();
    Ok(param.write_some(|data| {
        let mut moved = Vec::new();
        for (k, (ps, gs)) in data.chunks_mut(RUN).zip(grad.data().chunks(RUN)).enumerate() {
            if still && plus_zeros(gs) {
                continue;
            }
            for (i, (p, &g)) in ps.iter_mut().zip(gs).enumerate() {
                let new = fma(g, alpha, *p);
                if new.to_bits() != p.to_bits() {
                    moved.push(k * RUN + i);
                }
                *p = new;
            }
        }
        moved
    }))
}

/// Whether every number is +0, bit for bit (-0 moves a parameter of -0 to +0).
fn plus_zeros(gs: &[f32]) -> bool {
    let (chunks, tail) = gs.as_chunks::<4>();
    let bits = chunks.iter().fold(u32x4::ZERO, |bits, c| bits | u32x4::new(c.map(f32::to_bits)));
    bits == u32x4::ZERO && tail.iter().all(|g| g.to_bits() == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_against_the_gradient() {
        let mut p = Tensor::vector(vec![1.0, -2.0, 0.5, 3.0]);
        let moved = sgd_step(&mut p, &Tensor::vector(vec![0.5, -1.0, 0.0, 1e-9]), 0.1).unwrap();
        assert_eq!(p.data(), [0.95, -1.9, 0.5, 3.0]);
        assert_eq!(moved, [0, 1], "a step too small to change a number's bits moves nothing");
        assert!(sgd_step(&mut p, &Tensor::vector(vec![1.0]), 0.1).is_err());
    }

    #[test]
    fn a_zero_gradient_moves_nothing_as_the_fused_multiply_add_would() {
        let (nan, inf) = (f32::NAN, f32::INFINITY);
        let params = [0.0, -0.0, 1.5, -inf, nan, f32::MIN_POSITIVE / 2.0];
        for lr in [0.1, 0.0, -0.0, -0.1, 1e39, f64::INFINITY, f64::NAN] {
            for g in [0.0, -0.0] {
                let mut p = Tensor::vector(params.to_vec());
                let moved = sgd_step(&mut p, &Tensor::vector(vec![g; params.len()]), lr).unwrap();
                let want: Vec<u32> = params.iter().map(|&x| g.mul_add(-lr as f32, x).to_bits()).collect();
                let got: Vec<u32> = p.data().iter().map(|x| x.to_bits()).collect();
                // nan's bits aside (a fused multiply-add may quiet it): nan stays nan.
                let same = |(a, b): (&u32, &u32)| a == b || f32::from_bits(*a).is_nan() && f32::from_bits(*b).is_nan();
                assert!(want.iter().zip(&got).all(same), "lr {lr}, grad {g}: {got:x?} vs {want:x?}");
                let changed = params.iter().zip(&got).enumerate().filter(|(_, (x, b))| x.to_bits() != **b);
                assert_eq!(moved, changed.map(|(i, _)| i).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn runs_of_plus_zero_are_skipped_and_nothing_else() {
        // A -0 in a run of +0 still moves a -0 parameter to +0; a run's tail is looked at too.
        for n in [16, 37, 40] {
            let params: Vec<f32> = (0..n).map(|i| if i == 3 { -0.0 } else { i as f32 * 0.37 - 5.0 }).collect();
            let mut grads = vec![0.0f32; n];
            grads[3] = -0.0;
            grads[n - 1] = 0.5;
            let mut p = Tensor::vector(params.clone());
            let moved = sgd_step(&mut p, &Tensor::vector(grads.clone()), 0.1).unwrap();
            let want: Vec<u32> = params.iter().zip(&grads).map(|(x, g)| g.mul_add(-0.1, *x).to_bits()).collect();
            assert_eq!(p.data().iter().map(|x| x.to_bits()).collect::<Vec<_>>(), want);
            assert_eq!(moved, [3, n - 1]);
        }
    }
}
