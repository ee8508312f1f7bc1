//! The losses a scene can put on its output: `output.sum()`, or `F.mse_loss(output, target)`
//! (the mean of squared differences); and a classifier's
//! `F.binary_cross_entropy_with_logits(logits, labels)`. Each gives its value and `dL/doutput`,
//! the upstream gradient every op's backward starts from.

use crate::error::{Result, TorchError};
use crate::tensor::{shape_str, Tensor};
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

/// `F.binary_cross_entropy_with_logits(logits, labels)`, mean reduction: the loss and
/// `dL/dlogits = (σ(x) − y)/N`. Each term is `max(x, 0) − x·y + log1p(e^−|x|)`, as PyTorch's
/// is, so no `|x|` overflows; the terms are added in f64 and rounded once. Labels are not
/// checked to be 0 or 1: PyTorch takes any float (a soft label).
pub fn bce_with_logits(logits: &Tensor, labels: &Tensor) -> Result<(f32, Tensor)> {
    if logits.shape() != labels.shape() {
        return Err(TorchError::value(format!(
            "Target size (torch.Size({})) must be the same as input size (torch.Size({}))",
            shape_str(labels.shape()),
            shape_str(logits.shape())
        )));
    }
    let pairs = || logits.data().iter().zip(labels.data());
    let terms: f64 = pairs().map(|(&x, &y)| (x.max(0.0) - x * y + (-x.abs()).exp().ln_1p()) as f64).sum();
    // The mean's backward hands each term `1/N` (in f32), which the loss's multiplies in.
    let n = logits.numel();
    let scale = 1.0 / n as f32;
    let grad = pairs().map(|(&x, &y)| (1.0 / (1.0 + (-x).exp()) - y) * scale).collect();
    Ok(((terms / n as f64) as f32, Tensor::new(logits.shape().to_vec(), grad)?))
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

    #[test]
    fn bce_with_logits_is_stable_and_checks_the_shape() {
        // x = 100, y = 0 costs 100; x = −100, y = 0 costs e^−100: the naive log(1 − σ(x)) is −inf.
        let (loss, g) = bce_with_logits(&Tensor::vector(vec![100.0, -100.0]), &Tensor::vector(vec![0.0, 0.0])).unwrap();
        assert_eq!(loss, 50.0);
        assert_eq!(g.data(), [0.5, 0.0]);
        let (loss, g) = bce_with_logits(&Tensor::vector(vec![0.0]), &Tensor::vector(vec![1.0])).unwrap();
        assert_eq!((loss, g.data()), (std::f32::consts::LN_2, &[-0.5][..]));
        let e = bce_with_logits(&Tensor::vector(vec![0.0; 4]), &Tensor::vector(vec![0.0; 3])).unwrap_err();
        let want = "ValueError: Target size (torch.Size([3])) must be the same as input size (torch.Size([4]))";
        assert_eq!(e.to_string(), want);
    }
}
