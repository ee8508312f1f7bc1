//! `torch.optim.SGD` (no momentum, no weight decay): `param ← param − lr · param.grad`, which
//! PyTorch computes as `param.add_(grad, alpha=-lr)`: one fused multiply-add per element in
//! float32.

use crate::error::{Result, TorchError};
use crate::tensor::Tensor;

/// One SGD step on one parameter, in place.
pub fn sgd_step(param: &mut Tensor, grad: &Tensor, lr: f64) -> Result<()> {
    if param.shape() != grad.shape() {
        return Err(TorchError::runtime(format!(
            "The size of tensor a ({}) must match the size of tensor b ({})",
            param.numel(),
            grad.numel()
        )));
    }
    let alpha = -lr as f32;
    for (p, &g) in param.data_mut().iter_mut().zip(grad.data()) {
        *p = g.mul_add(alpha, *p);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_against_the_gradient() {
        let mut p = Tensor::vector(vec![1.0, -2.0, 0.5]);
        sgd_step(&mut p, &Tensor::vector(vec![0.5, -1.0, 0.0]), 0.1).unwrap();
        assert_eq!(p.data(), [0.95, -1.9, 0.5]);
        assert!(sgd_step(&mut p, &Tensor::vector(vec![1.0]), 0.1).is_err());
    }
}
