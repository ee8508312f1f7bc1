use super::*;
use crate::say::Say;

impl State {
    /// The exact tensors of the seed material.
    pub fn preset(id: &str) -> Option<State> {
        if let Some(recipe) = recipe(id) {
            return recipe.run(id);
        }
        if id != "fixed_2_to_3_3d" {
            return None;
        }
        Some(State {
            preset: id.into(),
            weight: Tensor::new(vec![3, 2], vec![0., 0., 0., 1., 1., 0.]).ok()?,
            bias: Tensor::vector(vec![1., 1., 1.]),
            has_bias: true,
            input: Tensor::new(vec![2, 3, 2], [1., 1., 2., 2., 3., 3.].repeat(2)).ok()?,
            learning: Learning::default(),
            seed: None,
        })
    }

    /// `nn.Linear(6, 10)`, `nn.Linear(2, 3, bias=False)`.
    pub fn module_call(&self) -> String {
        let bias = if self.has_bias { "" } else { ", bias=False" };
        format!("nn.Linear({}, {}{bias})", self.in_features(), self.out_features())
    }

    pub fn in_features(&self) -> usize {
        self.weight.shape().get(1).copied().unwrap_or(0)
    }

    pub fn out_features(&self) -> usize {
        self.weight.shape().first().copied().unwrap_or(0)
    }

    /// The input's leading sizes: `[]` for a vector, `[N]` for a batch, `[B, N]` for 3-D.
    pub fn lead(&self) -> &[usize] {
        self.input.shape().split_last().map_or(&[], |(_, lead)| lead)
    }

    /// Types `text` into one cell of `weight`, `weight.T`, `bias`, `input` or the mse `target`.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(tensor, |t| set_float(t, index, text))
    }

    /// Pastes a block with its top-left at `index`; all or nothing.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(tensor, |t| paste(t, index, text, parse_float))
    }

    /// The output's shape, `(*, out_features)`.
    pub fn output_shape(&self) -> Vec<usize> {
        [self.lead(), &[self.out_features()]].concat()
    }

    /// The loss value, `dL/doutput` and every `.grad`, or the problem that stops backward.
    pub(super) fn backward_pass(&self) -> Result<(f32, Tensor, LinearGrads), Issue> {
        let layer = self.layer()?;
        let output = layer.forward(&self.input).map_err(|e| issue("input", None, e, "fix the forward pass first"))?;
        let (loss, upstream) = self.learning.loss_of(&output).map_err(|e| {
            issue("target", None, e, "the target must have the output's shape: pick the mse loss again")
        })?;
        let grads = layer.backward(&self.input, &upstream).map_err(|e| issue("output", None, e, ""))?;
        Ok((loss, upstream, grads))
    }

    /// After the output's shape changes, an mse target starts again as zeros of the new shape.
    fn refit_target(&mut self) {
        let shape = self.output_shape();
        if let Loss::Mse { target } = &self.learning.loss {
            if target.shape() != shape.as_slice() {
                let _ = self.learning.use_mse(true, &shape);
            }
        }
    }

    /// `weight` as the learner may picture it, `(in_features, out_features)`: column `i` is
    /// weight row `i`. Only a view; the layer stores `weight`.
    pub fn weight_t(&self) -> Result<Tensor, String> {
        transpose(&self.weight)
    }

    /// Applies `f` to the named tensor; `weight.T` edits land in `weight`, transposed back.
    pub(super) fn change(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut Tensor) -> Result<(), String>,
    ) -> Result<(), String> {
        if name != "weight.T" {
            f(self.tensor_mut(name)?)?;
            if matches!(name, "weight" | "bias") {
                self.learning.forget();
            }
            return Ok(());
        }
        let mut t = self.weight_t()?;
        f(&mut t)?;
        self.weight = transpose(&t)?;
        self.learning.forget();
        Ok(())
    }

    fn tensor_mut(&mut self, name: &str) -> Result<&mut Tensor, String> {
        match name {
            "weight" => Ok(&mut self.weight),
            "bias" if self.has_bias => Ok(&mut self.bias),
            "bias" => Err("this layer has no bias (bias=False): turn bias on to edit it".into()),
            "input" => Ok(&mut self.input),
            "target" => match &mut self.learning.loss {
                Loss::Mse { target } => Ok(target),
                Loss::Sum => Err("the sum loss has no target: pick mse to set one".into()),
            },
            _ => Err(format!("the Linear scene has no tensor named {name}")),
        }
    }

    /// `torch.manual_seed(seed); nn.Linear(in, out, bias)`: fresh weight and bias, exactly as
    /// PyTorch draws them. The input is not the layer's, so it stays.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        let seed = Generator::parse_seed(seed).map_err(|e| e.to_string())?;
        let mut g = Generator::manual_seed(seed).map_err(|e| e.to_string())?;
        let (weight, bias) = g.linear(self.in_features(), self.out_features(), self.has_bias);
        self.weight = weight;
        if let Some(bias) = bias {
            self.bias = bias;
        }
        self.seed = Some(seed.to_string());
        self.learning.forget();
        Ok(())
    }

    /// Changes `in_features`: `weight`'s columns and `input`'s last dimension move together,
    /// since each input row is multiplied by each weight row. New cells are 0.
    pub fn set_in_features(&mut self, text: &str) -> Result<(), String> {
        let n = size(text)?;
        let weight = resized(&self.weight, 1, n)?;
        self.input = resized(&self.input, self.input.dim().saturating_sub(1), n)?;
        self.weight = weight;
        self.learning.forget();
        Ok(())
    }

    /// Changes `out_features`: one `weight` row and one `bias` entry per output feature.
    pub fn set_out_features(&mut self, text: &str) -> Result<(), String> {
        let n = size(text)?;
        let weight = resized(&self.weight, 0, n)?;
        self.bias = resized(&self.bias, 0, n)?;
        self.weight = weight;
        self.learning.forget();
        self.refit_target();
        Ok(())
    }

    pub fn set_bias(&mut self, on: bool) {
        self.has_bias = on;
        self.learning.forget();
    }

    /// The input as a vector `(in)` (rank 1), a batch `(N, in)` (2) or a 3-D batch `(B, N, in)`
    /// (3). A new leading dimension has size 1 (the same numbers, one more bracket, as
    /// `unsqueeze(0)`); a dropped one keeps its first slice.
    pub fn set_rank(&mut self, rank: usize) -> Result<(), String> {
        if !(1..=3).contains(&rank) {
            return Err("the input is a vector (1-D), a batch (2-D) or a 3-D batch".into());
        }
        let mut shape = self.input.shape().to_vec();
        while shape.len() < rank {
            shape.insert(0, 1);
        }
        let keep = shape.len() - rank;
        shape.drain(..keep);
        let len = numel(&shape).unwrap_or(0);
        let data = self.input.data()[..len].to_vec();
        self.input = Tensor::new(shape, data).map_err(|e| e.to_string())?;
        self.refit_target();
        Ok(())
    }

    /// Resizes leading dimension `dim` of the input (`N` of `(N, in)`; `B` or `N` of
    /// `(B, N, in)`). New rows are 0.
    pub fn set_lead(&mut self, dim: usize, text: &str) -> Result<(), String> {
        if dim >= self.lead().len() {
            return Err(format!("the input has no leading dimension {dim}"));
        }
        self.input = resized(&self.input, dim, size(text)?)?;
        self.refit_target();
        Ok(())
    }

    /// The layer as the op sees it, or the problem pinned to the tensor that causes it.
    pub(super) fn layer(&self) -> Result<Linear, Issue> {
        let bias = self.has_bias.then(|| self.bias.clone());
        Linear::new(self.weight.clone(), bias).map_err(|e| {
            let tensor = if self.weight.dim() == 2 { "bias" } else { "weight" };
            issue(tensor, None, e, MISSHAPEN)
        })
    }

    /// Output, trace, shape equation and explanations; never panics, whatever the state.
    pub fn compute(&self) -> Computed {
        let run = self.layer().and_then(|layer| {
            let output = layer.forward(&self.input).and_then(|y| Ok((y, layer.forward_trace(self.input.shape())?)));
            output.map_err(|e| {
                let last = self.input.last_dim();
                let hint = format!(
                    "input's last dimension is {last} but in_features is {}: they must be equal \
                     (set in_features, or resize the input)",
                    self.in_features()
                );
                issue("input", last.checked_sub(1), e, &hint)
            })
        });
        let (output, trace, mut issues) = match run {
            Ok((y, trace)) => (Some(y), trace, Vec::new()),
            Err(issue) => (None, Trace::default(), vec![issue]),
        };
        let backward = match output {
            None => None,
            Some(_) => match self.backward_pass() {
                Ok(b) => Some(b),
                Err(issue) => {
                    issues.push(issue);
                    None
                }
            },
        };
        let backward_trace = match &backward {
            Some(_) => self.layer().ok().and_then(|l| l.backward_trace(self.input.shape()).ok()).unwrap_or_default(),
            None => Trace::default(),
        };
        let (loss, output_grad, grads) = match backward {
            Some((loss, upstream, grads)) => (Some(loss), Some(upstream), Some(grads)),
            None => (None, None, None),
        };
        Computed {
            shape_equation: self.shape_equation(output.as_ref(), issues.first()),
            lede: self.lede(),
            weight_note: self.weight_note(),
            module: self.module_call(),
            output,
            trace,
            issues,
            loss,
            output_grad,
            grads,
            backward: backward_trace,
            state: self.clone(),
        }
    }

    /// `input (2, 6) @ weight.T (6, 10) + bias (10,) → output (2, 10)`; a vector is read the
    /// other way round, `weight (10, 6) @ input (6,) + …`, and said to be the same computation.
    pub(super) fn shape_equation(&self, output: Option<&Tensor>, issue: Option<&Issue>) -> String {
        let (w, x) = (self.weight.shape(), self.input.shape());
        let bias = if self.has_bias { format!(" + bias {}", py_shape(self.bias.shape())) } else { String::new() };
        let wt = format!("weight.T {}", py_shape(&w.iter().rev().copied().collect::<Vec<_>>()));
        let batched = format!("input {} @ {wt}{bias}", py_shape(x));
        let Some(y) = output else {
            return match issue.map(|i| i.tensor.as_str()) {
                Some("input") => {
                    format!("{batched}: cannot multiply, {} ≠ {}", self.input.last_dim(), self.in_features())
                }
                _ => format!("{batched}: no output until the problem shown is fixed"),
            };
        };
        let y = format!("output {}", py_shape(y.shape()));
        if x.len() == 1 {
            format!("weight {} @ input {}{bias} → {y}, the same computation as {batched}", py_shape(w), py_shape(x))
        } else {
            format!("{batched} → {y}")
        }
    }

    /// Why `weight` is `(out, in)`: one row per output feature: `weight is stored (out_features,
    /// in_features) = (10, 6): row i holds the 6 numbers that make output feature i.` in English.
    pub(super) fn weight_note(&self) -> Say {
        let (inf, outf) = (self.in_features(), self.out_features());
        crate::say!("linear-note-weight", shape = format!("({outf}, {inf})"), n = inf)
    }

    /// The answer for this input layout, in plain words: what is a row, what `@` does with it.
    pub(super) fn lede(&self) -> Say {
        let (inf, outf, last) = (self.in_features(), self.out_features(), self.input.last_dim());
        let (bias_i, bias) = if self.has_bias { (" + bias[i]", " + bias") } else { ("", "") };
        match *self.lead() {
            [] => crate::say!("linear-note-lede-vector", bias_i = bias_i, bias = bias, out = outf),
            [n] => {
                let other_way = match n == inf {
                    true => crate::say!("linear-note-other-way-runs"),
                    false => crate::say!(
                        "linear-note-other-way-fails",
                        error = format!("mm: mat1 and mat2 shapes cannot be multiplied ({outf}x{inf} and {n}x{last})")
                    ),
                };
                crate::say!("linear-note-lede-batch", n = n, bias_i = bias_i, bias = bias, other_way = other_way)
            }
            ref lead => crate::say!(
                "linear-note-lede-batches",
                lead = py_shape(lead),
                rows = lead.iter().product::<usize>(),
                in_features = inf.to_string(),
                out_features = outf.to_string()
            ),
        }
    }
}
