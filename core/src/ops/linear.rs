//! `nn.Linear`: `y = x Wᵀ + b`, the weight stored `(out_features, in_features)`.
//!
//! input `(*, in_features)` → output `(*, out_features)`; a 1-D input is one row, so the result
//! is `W @ x + b`. Every leading dimension is carried along.

use crate::error::{Result, TorchError};
use crate::format::Extent;
use crate::ops::matmul::{axpy, matmul_t};
use crate::tensor::{numel, unravel, Tensor};
use crate::trace::{Span, Step, Trace, MAX_STEPS};

/// Columns of `weight.grad` made at a time: every input row's slice of them stays in cache.
const COLUMNS: usize = 2048;

#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    /// `(out_features, in_features)`
    pub weight: Tensor,
    /// `(out_features)`
    pub bias: Option<Tensor>,
}

/// `.grad` of everything `backward` reaches.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearGrads {
    pub weight: Tensor,
    pub bias: Option<Tensor>,
    pub input: Tensor,
}

/// What `nn.Linear(in_features, out_features, bias)` sees an input of `input_shape` as: its
/// rows, every leading index flattened, or the error PyTorch raises. Shapes only, so a pasted
/// error's sizes can be checked without making its tensors.
pub fn input_rows(in_features: usize, out_features: usize, bias: bool, input_shape: &[usize]) -> Result<usize> {
    let Some((&last, lead)) = input_shape.split_last() else {
        return Err(TorchError::runtime("both arguments to linear need to be at least 1D, but they are 0D and 2D"));
    };
    let rows = numel(lead).unwrap_or(usize::MAX);
    if last != in_features {
        let op = if bias { "addmm: " } else { "mm: " };
        return Err(TorchError::runtime(format!(
            "{op}mat1 and mat2 shapes cannot be multiplied ({rows}x{last} and {in_features}x{out_features})"
        )));
    }
    Ok(rows)
}

impl Linear {
    pub fn new(weight: Tensor, bias: Option<Tensor>) -> Result<Self> {
        if weight.dim() != 2 {
            return Err(TorchError::runtime(format!(
                "weight should be 2-D (out_features, in_features), got {}-D",
                weight.dim()
            )));
        }
        if let Some(b) = &bias {
            if b.shape() != [weight.shape()[0]] {
                return Err(TorchError::runtime(format!(
                    "bias should have shape ({},), got {:?}",
                    weight.shape()[0],
                    b.shape()
                )));
            }
        }
        Ok(Self { weight, bias })
    }

    pub fn in_features(&self) -> usize {
        self.weight.shape()[1]
    }
    pub fn out_features(&self) -> usize {
        self.weight.shape()[0]
    }

    /// The rows the input is seen as (every leading index flattened), or PyTorch's error.
    fn rows(&self, input_shape: &[usize]) -> Result<usize> {
        input_rows(self.in_features(), self.out_features(), self.bias.is_some(), input_shape)
    }

    fn output_shape(&self, input_shape: &[usize]) -> Vec<usize> {
        let mut shape = input_shape[..input_shape.len() - 1].to_vec();
        shape.push(self.out_features());
        shape
    }

    /// `input (*, in) → output (*, out)`: `output[n, i] = Σ_k input[n, k]·weight[i, k] + bias[i]`.
    pub fn forward(&self, input: &Tensor) -> Result<Tensor> {
        let rows = self.rows(input.shape())?;
        let (inf, outf) = (self.in_features(), self.out_features());
        let mut y = matmul_t(input.data(), self.weight.data(), (rows, outf, inf));
        if let Some(b) = &self.bias {
            // `max(1)`: with no output features there are no rows to add to.
            for row in y.chunks_exact_mut(outf.max(1)) {
                row.iter_mut().zip(b.data()).for_each(|(y, b)| *y += b);
            }
        }
        Tensor::new(self.output_shape(input.shape()), y)
    }

    /// Given `upstream = dL/doutput (*, out)`: `weight.grad = upstreamᵀ·input`,
    /// `bias.grad = Σ_n upstream[n]`, `input.grad = upstream·weight`.
    pub fn backward(&self, input: &Tensor, upstream: &Tensor) -> Result<LinearGrads> {
        let weight = self.weight_grad(input, upstream)?;
        let rows = self.rows(input.shape())?;
        let (inf, outf) = (self.in_features(), self.out_features());
        let (w, g) = (self.weight.data(), upstream.data());
        let mut gb = vec![0.0f32; outf];
        let mut gx = vec![0.0f32; rows * inf];
        for n in 0..rows {
            for i in 0..outf {
                let gni = g[n * outf + i];
                gb[i] += gni;
                for k in 0..inf {
                    gx[n * inf + k] += gni * w[i * inf + k];
                }
            }
        }
        Ok(LinearGrads {
            weight,
            bias: self.bias.as_ref().map(|_| Tensor::vector(gb)),
            input: Tensor::new(input.shape().to_vec(), gx)?,
        })
    }

    /// `weight.grad` `(out_features, in_features)` alone: all autograd computes when the input
    /// needs no gradient, as `F.one_hot(ids).float()` does not.
    pub fn weight_grad(&self, input: &Tensor, upstream: &Tensor) -> Result<Tensor> {
        let rows = self.rows(input.shape())?;
        check_upstream(upstream, &self.output_shape(input.shape()))?;
        let (inf, outf) = (self.in_features(), self.out_features());
        let (x, g) = (input.data(), upstream.data());
        // Input row by input row into zeros, as autograd adds, but a block of columns at a time:
        // at (64, 50,000) with 20 one-hot rows, the block of every input row stays in cache
        // while each gradient row adds them in (a whole gradient row at a time read all 4 MB
        // of input again for each of the 64).
        let (mut gw, mut extent) = (vec![0.0f32; outf * inf], Extent::zeros(0));
        for j in (0..inf).step_by(COLUMNS) {
            let width = COLUMNS.min(inf - j);
            for i in 0..outf {
                let gw = &mut gw[i * inf + j..][..width];
                for n in 0..rows {
                    axpy(gw, g[n * outf + i], &x[n * inf + j..][..width]);
                }
                extent = extent.and(Extent::of(gw));
            }
        }
        Ok(Tensor::new(vec![outf, inf], gw)?.with_extent(extent))
    }

    /// One step per output cell: row n of `input` and row i of `weight` (plus `bias[i]`) make
    /// `output[n, i]`; one step per output row when that would be too many.
    pub fn forward_trace(&self, input_shape: &[usize]) -> Result<Trace> {
        let rows = self.rows(input_shape)?;
        let lead = &input_shape[..input_shape.len() - 1];
        let outf = self.out_features();
        if rows.saturating_mul(outf) > MAX_STEPS {
            let steps = (0..rows.min(MAX_STEPS))
                .map(|n| {
                    let at = unravel(n, lead);
                    let mut reads = vec![Span::at("input", &at), Span::whole("weight")];
                    reads.extend(self.bias.as_ref().map(|_| Span::whole("bias")));
                    Step::forward(reads, Span::at("output", &at))
                })
                .collect();
            return Ok(Trace::summary(steps));
        }
        // No output features, no cells, however many rows the shape claims.
        let rows = if outf == 0 { 0 } else { rows };
        let mut steps = Vec::with_capacity(rows * outf);
        for n in 0..rows {
            let at = unravel(n, lead);
            for i in 0..outf {
                let mut reads = vec![Span::at("input", &at), Span::at("weight", &[i])];
                reads.extend(self.bias.as_ref().map(|_| Span::at("bias", &[i])));
                steps.push(Step::forward(reads, Span::at("output", &[at.as_slice(), &[i]].concat())));
            }
        }
        Ok(Trace::new(steps))
    }

    /// One step per output cell, from the last to the first: `output.grad[n, i]` adds
    /// `· input[n]` into `weight.grad[i]`, itself into `bias.grad[i]`, and `· weight[i]` into
    /// `input.grad[n]`.
    pub fn backward_trace(&self, input_shape: &[usize]) -> Result<Trace> {
        let forward = self.forward_trace(input_shape)?;
        let steps = forward
            .steps
            .iter()
            .rev()
            .map(|f| {
                let out = &f.writes[0];
                // A cell step writes `output[n.., i]`; a summary step a whole row `output[n..]`.
                let lead = if forward.summarised { out.index.len() } else { out.index.len().saturating_sub(1) };
                let row = Span::new("input", out.index[..lead].to_vec());
                let unit = if forward.summarised { None } else { out.index.last().copied().flatten() };
                let w = |name: &str| match unit {
                    Some(i) => Span::at(name, &[i]),
                    None => Span::whole(name),
                };
                let mut writes = vec![w("weight.grad")];
                writes.extend(self.bias.as_ref().map(|_| w("bias.grad")));
                writes.push(Span::new("input.grad", row.index.clone()));
                Step {
                    phase: crate::trace::Phase::Backward,
                    reads: vec![Span::new("output.grad", out.index.clone()), row, w("weight")],
                    writes,
                    accumulate: true,
                }
            })
            .collect();
        Ok(Trace { steps, summarised: forward.summarised })
    }
}

/// `Σ a[k]·b[k]` in float32, in order.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).fold(0.0f32, |acc, (x, y)| acc + x * y)
}

/// The gradient fed into a backward must have the output's shape.
pub(crate) fn check_upstream(upstream: &Tensor, output_shape: &[usize]) -> Result<()> {
    if upstream.shape() == output_shape {
        Ok(())
    } else {
        Err(TorchError::runtime(format!(
            "Mismatch in shape: grad_output[0] has a shape of torch.Size({}) and output[0] has a shape of torch.Size({}).",
            crate::tensor::shape_str(upstream.shape()),
            crate::tensor::shape_str(output_shape)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_linear() -> Linear {
        // nn.Linear(2, 3) with weight [[0,0],[0,1],[1,0]], bias [1,1,1] (seed material).
        Linear::new(
            Tensor::new(vec![3, 2], vec![0., 0., 0., 1., 1., 0.]).unwrap(),
            Some(Tensor::vector(vec![1., 1., 1.])),
        )
        .unwrap()
    }

    #[test]
    fn the_weight_gradient_comes_with_the_extent_a_pass_would_find() {
        let x = Tensor::new(vec![2, 2], vec![1., 0., 2., -3.]).unwrap();
        let upstream = Tensor::new(vec![2, 3], vec![1., 0., f32::NAN, 0.5, -0., 2.]).unwrap();
        let g = seed_linear().weight_grad(&x, &upstream).unwrap();
        // Rows [2, -1.5], [0, 0] (its products ±0) and [nan, nan].
        assert_eq!(g.extent(), Extent { largest: 2.0, finite: false, zeros: 2 });
        assert_eq!(g.extent(), Extent::of(g.data()));
    }

    #[test]
    fn the_weight_gradient_adds_input_rows_in_order_across_column_blocks() {
        // Wider than two blocks, with -0.0, nan and inf among the numbers: the same bits as
        // adding each input row in turn, a product then a sum, cell by cell.
        let (rows, inf, outf) = (3, 2 * COLUMNS + 37, 2);
        let num = |k: usize| match k % 11 {
            0 => -0.0,
            7 if k.is_multiple_of(5) => f32::NAN,
            9 if k.is_multiple_of(7) => f32::INFINITY,
            _ => (k as f32 * 0.618).sin(),
        };
        let x = Tensor::new(vec![rows, inf], (0..rows * inf).map(num).collect()).unwrap();
        let up = Tensor::new(vec![rows, outf], vec![0.5, -0.0, 1e-3, 2.0, -1.5, 3.0]).unwrap();
        let m = Linear::new(Tensor::zeros(vec![outf, inf]).unwrap(), None).unwrap();
        let got = m.weight_grad(&x, &up).unwrap();
        let want: Vec<u32> = (0..outf * inf)
            .map(|c| (0..rows).fold(0.0f32, |s, n| s + up.data()[n * outf + c / inf] * x.data()[n * inf + c % inf]))
            .map(f32::to_bits)
            .collect();
        assert!(got.data().iter().map(|v| v.to_bits()).eq(want), "the same bits, cell by cell");
        assert_eq!(got.extent(), Extent::of(got.data()));
    }

    #[test]
    fn carries_leading_dims() {
        let x = Tensor::new(vec![2, 3, 2], vec![1., 1., 2., 2., 3., 3., 1., 1., 2., 2., 3., 3.]).unwrap();
        let y = seed_linear().forward(&x).unwrap();
        assert_eq!(y.shape(), [2, 3, 3]);
        assert_eq!(&y.data()[..9], [1., 2., 2., 1., 3., 3., 1., 4., 4.]);
    }

    #[test]
    fn vector_input_is_w_at_x() {
        let y = seed_linear().forward(&Tensor::vector(vec![5., 7.])).unwrap();
        assert_eq!(y.shape(), [3]);
        assert_eq!(y.data(), [1., 8., 6.]);
    }

    #[test]
    fn shape_errors_are_pytorchs() {
        let l = seed_linear();
        let e = l.forward(&Tensor::zeros(vec![4, 5]).unwrap()).unwrap_err();
        assert_eq!(e.to_string(), "RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (4x5 and 2x3)");
        let e = l.forward(&Tensor::zeros(vec![]).unwrap()).unwrap_err();
        assert!(e.message.contains("at least 1D"));
    }

    #[test]
    fn trace_reads_the_row_and_writes_the_cell() {
        let t = seed_linear().forward_trace(&[2, 3, 2]).unwrap();
        assert_eq!(t.len(), 18);
        let s = &t.steps[4]; // n = (0, 1), i = 1
        assert_eq!(s.reads[0].to_string(), "input[0, 1]");
        assert_eq!(s.reads[1].to_string(), "weight[1]");
        assert_eq!(s.writes[0].to_string(), "output[0, 1, 1]");
        let b = seed_linear().backward_trace(&[2, 3, 2]).unwrap();
        assert_eq!(b.steps[0].writes[0].to_string(), "weight.grad[2]");
        assert_eq!(b.steps[0].writes[2].to_string(), "input.grad[1, 2]");
    }

    #[test]
    fn no_output_features_no_steps_whatever_the_rows() {
        let l = Linear::new(Tensor::zeros(vec![0, 2]).unwrap(), None).unwrap();
        assert!(l.forward_trace(&[usize::MAX, 2]).unwrap().is_empty());
        assert!(l.backward_trace(&[1 << 40, 3, 2]).unwrap().is_empty());
    }

    #[test]
    fn large_traces_are_summarised_per_row() {
        let l = Linear::new(Tensor::zeros(vec![100, 3]).unwrap(), None).unwrap();
        let t = l.forward_trace(&[50, 3]).unwrap();
        assert!(t.summarised);
        assert_eq!(t.len(), 50);
        assert_eq!(t.steps[7].writes[0].to_string(), "output[7]");
        let b = l.backward_trace(&[50, 3]).unwrap();
        assert_eq!(b.steps[0].writes.last().unwrap().to_string(), "input.grad[49]");
        assert_eq!(b.steps[0].reads[1].to_string(), "input[49]");
    }
}
