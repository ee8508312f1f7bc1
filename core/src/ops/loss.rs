//! The losses a scene can put on its output: `output.sum()`, or `F.mse_loss(output, target)`
//! (the mean of squared differences). Each gives its value and `dL/doutput`, the upstream
//! gradient every op's backward starts from.

use crate::error::{Result, TorchError};
use crate::tensor::Tensor;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Loss {
    Sum,
    Mse { target: Tensor },
}

impl Loss {
    /// The loss value, accumulated in f64 and rounded once (PyTorch's reductions are more
    /// accurate than a naive f32 running sum).
    pub fn forward(&self, output: &Tensor) -> Result<f32> {
        match self {
            Loss::Sum => Ok(output.data().iter().map(|&x| x as f64).sum::<f64>() as f32),
            Loss::Mse { target } => {
                check_same_shape(output, target)?;
                let se: f64 = output.data().iter().zip(target.data()).map(|(&o, &t)| ((o - t) as f64).powi(2)).sum();
                Ok((se / output.numel() as f64) as f32)
            }
        }
    }

    /// `dL/doutput`: ones for `sum`; `2·(output − target)/N` for `mse`.
    pub fn backward(&self, output: &Tensor) -> Result<Tensor> {
        match self {
            Loss::Sum => Tensor::full(output.shape().to_vec(), 1.0),
            Loss::Mse { target } => {
                check_same_shape(output, target)?;
                let scale = 2.0 / output.numel() as f32;
                let g = output.data().iter().zip(target.data()).map(|(&o, &t)| scale * (o - t));
                Tensor::new(output.shape().to_vec(), g.collect())
            }
        }
    }
}

/// mse_loss here wants the target in the output's own shape; where PyTorch would refuse to
/// broadcast it gives its message, otherwise a plain one.
fn check_same_shape(output: &Tensor, target: &Tensor) -> Result<()> {
    let (a, b) = (output.shape(), target.shape());
    if a == b {
        return Ok(());
    }
    let mismatch = a.iter().rev().zip(b.iter().rev()).enumerate().find(|(_, (x, y))| x != y && **x != 1 && **y != 1);
    Err(TorchError::runtime(match mismatch {
        Some((k, (x, y))) => format!(
            "The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton dimension {}",
            a.len().max(b.len()) - 1 - k
        ),
        None => format!("target shape {b:?} must equal the output shape {a:?}"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mse_value_and_gradient() {
        let out = Tensor::vector(vec![1.0, 2.0, 4.0]);
        let loss = Loss::Mse { target: Tensor::vector(vec![1.0, 0.0, 1.0]) };
        assert_eq!(loss.forward(&out).unwrap(), 13.0 / 3.0);
        assert_eq!(loss.backward(&out).unwrap().data(), [0.0, 4.0 / 3.0, 2.0]);
        assert_eq!(Loss::Sum.backward(&out).unwrap().data(), [1.0; 3]);
    }

    #[test]
    fn mse_shape_mismatch_is_pytorchs_message() {
        let loss = Loss::Mse { target: Tensor::vector(vec![0.0; 4]) };
        let e = loss.forward(&Tensor::vector(vec![0.0; 3])).unwrap_err();
        assert_eq!(
            e.message,
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"
        );
    }
}
