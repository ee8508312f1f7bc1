//! `nn.RNN`: `h_t = act(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)`, unrolled over time, per layer
//! and direction.
//!
//! Layer 0 reads the input, layer `l > 0` the previous layer's output (forward and reverse states
//! side by side). The reverse direction runs from the last step to the first, so
//! `output[t] = [h_t forward | h_t reverse]`. A packed batch (`pack_padded_sequence`) runs row `b`
//! only for `t < lengths[b]`; `backward` is backprop through time over the same steps.
//!
//! Trace naming: one step per RNN cell, `(layer, direction, t)` as [`Rnn::trace_cells`] lists
//! them. Hidden states are `h_l{l}` / `h_l{l}_reverse`, shape `(steps, batch, hidden)` whatever
//! `batch_first` (unbatched: `(steps, hidden)`); `input` and `output` are indexed as the user's
//! tensors (`input[:, t]` when batch_first). A step reads its layer input (`input[t]`, or
//! `h_l{l-1}[t]` and `h_l{l-1}_reverse[t]`), the previous state (`h_l{l}[t∓1]`, or
//! `h0[layer*D+dir]` on a first step) and its parameters; it writes its state, on the last layer
//! `output[t]` (the step's direction owns its half of the features, forward first), and
//! `h_n[layer*D+dir]` where the direction ends. When some packed rows have already ended, the
//! step names each active row instead (`input[t, b]`, `h0[k, b]`). Backward steps run in reverse
//! order with gradients named `<tensor>.grad`, and all accumulate: a step reads `output.grad[t]`
//! (or, below the last layer, `h_l{l}.grad[t]` as the layer above left it), the following step's
//! `h_l{l}.grad` or `h_n.grad[k]`, writes the completed `h_l{l}.grad[t]`, adds into every
//! parameter's `.grad` and into `input.grad[t]` (or `h_l{l-1}.grad[t]`), and `h0.grad[k]` on a
//! first step (`k = layer*D + dir`; h0 is named even when the zeros default is used). Past
//! `MAX_STEPS` cells the trace is summarised: one step per (layer, direction) on whole tensors.

use crate::error::{Result, TorchError};
use crate::ops::{find, Named};
use crate::tensor::{numel, shape_str, Tensor};
use crate::trace::{Phase, Span, Step, Trace, MAX_STEPS};
use serde::{Deserialize, Serialize};

mod backward;
mod trace;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nonlinearity {
    Tanh,
    Relu,
}

impl Nonlinearity {
    /// `tanh` or `relu`, as `nn.RNN(nonlinearity=...)` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Nonlinearity::Tanh => "tanh",
            Nonlinearity::Relu => "relu",
        }
    }
}

/// `nn.RNN`'s constructor arguments, by PyTorch's names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RnnConfig {
    pub input_size: usize,
    pub hidden_size: usize,
    pub num_layers: usize,
    pub nonlinearity: Nonlinearity,
    pub bias: bool,
    pub batch_first: bool,
    pub bidirectional: bool,
}

impl RnnConfig {
    /// `nn.RNN(input_size, hidden_size)` with PyTorch's defaults for the rest.
    pub fn new(input_size: usize, hidden_size: usize) -> Self {
        Self {
            input_size,
            hidden_size,
            num_layers: 1,
            nonlinearity: Nonlinearity::Tanh,
            bias: true,
            batch_first: false,
            bidirectional: false,
        }
    }

    pub fn num_directions(&self) -> usize {
        if self.bidirectional {
            2
        } else {
            1
        }
    }

    /// Every parameter's name and shape in `named_parameters()` order, which is also the order
    /// `reset_parameters` draws them in.
    pub fn param_shapes(&self) -> Vec<(String, Vec<usize>)> {
        let h = self.hidden_size;
        let mut shapes = Vec::new();
        for layer in 0..self.num_layers {
            let in_l = if layer == 0 { self.input_size } else { h * self.num_directions() };
            for dir in 0..self.num_directions() {
                let sfx = if dir == 1 { "_reverse" } else { "" };
                shapes.push((format!("weight_ih_l{layer}{sfx}"), vec![h, in_l]));
                shapes.push((format!("weight_hh_l{layer}{sfx}"), vec![h, h]));
                if self.bias {
                    shapes.push((format!("bias_ih_l{layer}{sfx}"), vec![h]));
                    shapes.push((format!("bias_hh_l{layer}{sfx}"), vec![h]));
                }
            }
        }
        shapes
    }
}

impl Nonlinearity {
    fn apply(self, x: f32) -> f32 {
        match self {
            Nonlinearity::Tanh => libm::tanhf(x),
            Nonlinearity::Relu if x <= 0.0 => 0.0, // NaN stays NaN, as in torch.relu
            Nonlinearity::Relu => x,
        }
    }
    /// `grad · act'` from the result `y`, as `tanh_backward` and `threshold_backward(y > 0)`.
    fn backward(self, y: f32, grad: f32) -> f32 {
        match self {
            Nonlinearity::Tanh => grad * (1.0 - y * y),
            Nonlinearity::Relu if y > 0.0 => grad,
            Nonlinearity::Relu => 0.0,
        }
    }
}

/// `pack_padded_sequence(input, lengths, batch_first, enforce_sorted)` before the RNN and
/// `pad_packed_sequence(..., padding_value)` after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Packing {
    pub lengths: Vec<i64>,
    pub enforce_sorted: bool,
    pub padding_value: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rnn {
    pub config: RnnConfig,
    /// By PyTorch's names, in `param_shapes()` order (`new` puts them so).
    pub params: Named,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RnnOutput {
    /// `(L, N, D*H)`, `(N, L, D*H)` batch_first, `(L, D*H)` unbatched; packed, L = max(lengths).
    pub output: Tensor,
    /// `(num_layers*D, N, H)`, `(num_layers*D, H)` unbatched.
    pub h_n: Tensor,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RnnGrads {
    pub params: Named,
    pub input: Tensor,
    pub h0: Option<Tensor>,
    /// dL/dh_t (from the output or layer above, and from step t±1), `(num_layers*D, L, N, H)`
    /// (`(num_layers*D, L, H)` unbatched); 0 past a packed row's length.
    pub hidden_grads: Tensor,
}

/// The RNN cell a trace step shows; `t: None` in a summarised trace (every step at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub layer: usize,
    pub direction: usize,
    pub t: Option<usize>,
}

/// A checked call: `steps` time steps of `batch` rows, row `b` running while `t < len(b)`.
struct Plan {
    seq_len: usize,
    steps: usize,
    batch: usize,
    unbatched: bool,
    lengths: Option<Vec<usize>>,
}

impl Plan {
    fn len(&self, b: usize) -> usize {
        self.lengths.as_ref().map_or(self.steps, |l| l[b])
    }
    fn active(&self, t: usize) -> Vec<usize> {
        (0..self.batch).filter(|&b| t < self.len(b)).collect()
    }
    /// The time order of direction `d`: forward 0..T, reverse T-1..0.
    fn times(&self, d: usize) -> Vec<usize> {
        (0..self.steps).map(|i| [i, self.steps - 1 - i][d]).collect()
    }
    /// Row `b`'s step before `t` in direction `d`; `None` on its first step, which reads h0.
    fn prev(&self, d: usize, t: usize, b: usize) -> Option<usize> {
        [t.checked_sub(1), Some(t + 1).filter(|&s| s < self.len(b))][d]
    }
    /// Row `b`'s step after `t`; `None` on its last step, which makes h_n.
    fn next(&self, d: usize, t: usize, b: usize) -> Option<usize> {
        [Some(t + 1).filter(|&s| s < self.len(b)), t.checked_sub(1)][d]
    }
    /// Each running `(t, b)` as (row of a `(T, N, ·)` buffer, row of the user's tensor whose time
    /// dim is `len` long, `(N, len, ·)` when batch_first).
    fn rows(&self, batch_first: bool, len: usize) -> Vec<(usize, usize)> {
        let n = self.batch;
        let user = |t, b| if batch_first { b * len + t } else { t * n + b };
        (0..self.steps).flat_map(|t| self.active(t).into_iter().map(move |b| (t * n + b, user(t, b)))).collect()
    }
}

/// `Σ_j w[i, j]·v[j] + b[i]`, one unit of `addmm`.
fn affine(w: &[f32], b: Option<&[f32]>, i: usize, v: &[f32]) -> f32 {
    let dot = w[i * v.len()..][..v.len()].iter().zip(v).fold(0.0f32, |s, (w, x)| s + w * x);
    b.map_or(dot, |b| dot + b[i])
}

fn runtime(message: impl Into<String>) -> TorchError {
    TorchError::runtime(message)
}

/// `pack_padded_sequence`'s checks in its order; the lengths as step counts.
fn pack_lengths(shape: &[usize], batch_first: bool, p: &Packing) -> Result<Vec<usize>> {
    if shape.len() < 2 {
        let n = shape.len().max(1);
        return Err(TorchError::index(format!(
            "Dimension out of range (expected to be in range of [-{n}, {}], but got 1)",
            n - 1
        )));
    }
    if numel(shape) == Some(0) {
        return Err(runtime("Cannot pack empty tensors."));
    }
    let (seq_len, batch) = if batch_first { (shape[1], shape[0]) } else { (shape[0], shape[1]) };
    if p.lengths.len() != batch {
        let got = p.lengths.len();
        return Err(runtime(format!(
            "Expected `len(lengths)` to be equal to batch_size, but got {got} (batch_size={batch})"
        )));
    }
    // PyTorch checks the last length once sorted in decreasing order (`enforce_sorted=False`
    // sorts them first): the least.
    let last = if p.enforce_sorted { p.lengths.last() } else { p.lengths.iter().min() };
    if last.is_some_and(|&l| l <= 0) {
        return Err(runtime(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0",
        ));
    }
    if p.enforce_sorted && p.lengths.windows(2).any(|w| w[1] > w[0]) {
        return Err(runtime(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass \
             `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement if you \
             do not need ONNX exportability.",
        ));
    }
    if let Some(l) = p.lengths.iter().find(|&&l| l as u64 > seq_len as u64) {
        return Err(runtime(format!(
            "Found a length of {l} in 'lengths', longer than the input's {seq_len} time steps"
        )));
    }
    Ok(p.lengths.iter().map(|&l| l as usize).collect())
}

impl Rnn {
    /// Checks every parameter name/shape against `config.param_shapes()`, keeping that order.
    pub fn new(config: RnnConfig, params: Named) -> Result<Self> {
        let expected = config.param_shapes();
        if let Some((name, _)) = params.iter().find(|(n, _)| !expected.iter().any(|(e, _)| e == n)) {
            return Err(runtime(format!("RNN has no parameter named '{name}'")));
        }
        let params = expected.iter().filter_map(|(n, _)| find(&params, n).map(|t| (n.clone(), t.clone())));
        let rnn = Self { params: params.collect(), config };
        rnn.check()?;
        Ok(rnn)
    }

    /// The config is one `nn.RNN` accepts and `params` match it, in order (the fields are pub).
    fn check(&self) -> Result<()> {
        let c = &self.config;
        if c.hidden_size == 0 {
            return Err(TorchError::value("hidden_size must be greater than zero"));
        }
        if c.num_layers == 0 {
            return Err(TorchError::value("num_layers must be greater than zero"));
        }
        let expected = c.param_shapes();
        for (i, (name, shape)) in expected.iter().enumerate() {
            let (want, got) = (shape_str(shape), self.params.get(i).filter(|(n, _)| n == name));
            match got.map(|(_, t)| t.shape()) {
                None => return Err(runtime(format!("RNN is missing parameter '{name}' of shape {want}"))),
                Some(s) if s != &shape[..] => {
                    return Err(runtime(format!(
                        "RNN parameter '{name}' should have shape {want}, got {}",
                        shape_str(s)
                    )))
                }
                _ => {}
            }
        }
        match self.params.get(expected.len()) {
            Some((name, _)) => Err(runtime(format!("RNN has no parameter named '{name}'"))),
            None => Ok(()),
        }
    }

    /// Parameter `j` (`weight_ih`, `weight_hh`, `bias_ih`, `bias_hh`) of cell `k = layer*D + dir`.
    fn param(&self, k: usize, j: usize) -> Option<&[f32]> {
        let per = if self.config.bias { 4 } else { 2 };
        (j < per).then(|| self.params[k * per + j].1.data())
    }

    /// PyTorch's checks on a call, in its order: `pack_padded_sequence`'s, then `RNN.forward`'s.
    fn plan(&self, shape: &[usize], h0: Option<&[usize]>, packing: Option<&Packing>) -> Result<Plan> {
        self.check()?;
        plan(&self.config, shape, h0, packing)
    }

    /// The shapes of `output` and `h_n`.
    fn shapes(&self, plan: &Plan) -> (Vec<usize>, Vec<usize>) {
        let c = &self.config;
        let (t, n, h, k) = (plan.steps, plan.batch, c.hidden_size, c.num_layers * c.num_directions());
        match (plan.unbatched, c.batch_first) {
            (true, _) => (vec![t, c.num_directions() * h], vec![k, h]),
            (false, true) => (vec![n, t, c.num_directions() * h], vec![k, n, h]),
            (false, false) => (vec![t, n, c.num_directions() * h], vec![k, n, h]),
        }
    }

    /// Runs every cell. Returns what backward needs, the layer inputs `xs[l]` `(T, N, in_l)` and
    /// states `hs[layer*D+dir]` `(T, N, H)` (0 where a row has ended), and h_n.
    fn unroll(&self, plan: &Plan, input: &Tensor, h0: &[f32]) -> (Vec<Vec<f32>>, Vec<Vec<f32>>, Vec<f32>) {
        let c = &self.config;
        let (h, n, dirs, steps) = (c.hidden_size, plan.batch, c.num_directions(), plan.steps);
        let mut x = vec![0.0; steps * n * c.input_size];
        for (r, u) in plan.rows(c.batch_first, plan.seq_len) {
            x[r * c.input_size..][..c.input_size].copy_from_slice(&input.data()[u * c.input_size..][..c.input_size]);
        }
        let (mut xs, mut hs, mut h_n) = (vec![x], Vec::new(), h0.to_vec());
        for l in 0..c.num_layers {
            let in_l = if l == 0 { c.input_size } else { dirs * h };
            for d in 0..dirs {
                let k = l * dirs + d;
                let [w_ih, w_hh] = [0, 1].map(|j| self.param(k, j).unwrap_or_default());
                let (b_ih, b_hh) = (self.param(k, 2), self.param(k, 3));
                let state = &mut h_n[k * n * h..][..n * h];
                let mut out = vec![0.0; steps * n * h];
                for t in plan.times(d) {
                    for b in plan.active(t) {
                        let (x, prev) = (&xs[l][(t * n + b) * in_l..][..in_l], &state[b * h..][..h]);
                        let act = |i| c.nonlinearity.apply(affine(w_hh, b_hh, i, prev) + affine(w_ih, b_ih, i, x));
                        let new: Vec<f32> = (0..h).map(act).collect();
                        state[b * h..][..h].copy_from_slice(&new);
                        out[(t * n + b) * h..][..h].copy_from_slice(&new);
                    }
                }
                hs.push(out);
            }
            let layer = &hs[l * dirs..];
            let concat = (0..steps * n).flat_map(|r| layer.iter().flat_map(move |s| &s[r * h..][..h]));
            xs.push(concat.copied().collect()); // the next layer's input; the last one's is output
        }
        (xs, hs, h_n)
    }

    fn h0_data(&self, h0: Option<&Tensor>, plan: &Plan) -> Vec<f32> {
        let c = &self.config;
        let zeros = || vec![0.0; c.num_layers * c.num_directions() * plan.batch * c.hidden_size];
        h0.map_or_else(zeros, |h| h.data().to_vec())
    }

    /// `output` (`padding_value` past each packed row's length) and `h_n`.
    pub fn forward(&self, input: &Tensor, h0: Option<&Tensor>, packing: Option<&Packing>) -> Result<RnnOutput> {
        let plan = self.plan(input.shape(), h0.map(Tensor::shape), packing)?;
        let (xs, _, h_n) = self.unroll(&plan, input, &self.h0_data(h0, &plan));
        let (out_shape, h_n_shape) = self.shapes(&plan);
        let mut output = Tensor::full(out_shape, packing.map_or(0.0, |p| p.padding_value))?;
        let w = self.config.num_directions() * self.config.hidden_size;
        for (r, u) in plan.rows(self.config.batch_first, plan.steps) {
            output.data_mut()[u * w..][..w].copy_from_slice(&xs[self.config.num_layers][r * w..][..w]);
        }
        Ok(RnnOutput { output, h_n: Tensor::new(h_n_shape, h_n)? })
    }
}

/// The error `nn.RNN` built from `c` raises when called on an input of `shape` (and an `h0` of
/// that shape), if any. Shapes only, so a pasted error's sizes can be checked without tensors.
pub fn check_call(c: &RnnConfig, shape: &[usize], h0: Option<&[usize]>) -> Result<()> {
    plan(c, shape, h0, None).map(|_| ())
}

/// PyTorch's checks on a call, in its order: `pack_padded_sequence`'s, then `RNN.forward`'s.
fn plan(c: &RnnConfig, shape: &[usize], h0: Option<&[usize]>, packing: Option<&Packing>) -> Result<Plan> {
    let lengths = packing.map(|p| pack_lengths(shape, c.batch_first, p)).transpose()?;
    if lengths.is_some() && shape.len() != 3 {
        return Err(runtime(format!("input must have 2 dimensions, got {}", shape.len() - 1)));
    }
    if !(2..=3).contains(&shape.len()) {
        let d = shape.len();
        return Err(TorchError::value(format!("RNN: Expected input to be 2D or 3D, got {d}D tensor instead")));
    }
    let unbatched = shape.len() == 2;
    let (kind, dims) = if unbatched { ("unbatched", 2) } else { ("batched", 3) };
    if let Some(h) = h0.filter(|h| h.len() != dims && (unbatched || lengths.is_none())) {
        let got = h.len();
        return Err(runtime(format!("For {kind} {dims}-D input, hx should also be {dims}-D but got {got}-D tensor")));
    }
    let h0 = h0.map(|h| if unbatched { vec![h[0], 1, h[1]] } else { h.to_vec() });
    if shape[shape.len() - 1] != c.input_size {
        let (want, got) = (c.input_size, shape[shape.len() - 1]);
        return Err(runtime(format!("input.size(-1) must be equal to input_size. Expected {want}, got {got}")));
    }
    let (seq_len, batch) = match (unbatched, c.batch_first) {
        (true, _) => (shape[0], 1),
        (false, true) => (shape[1], shape[0]),
        (false, false) => (shape[0], shape[1]),
    };
    let [k, n, hs] = [c.num_layers * c.num_directions(), batch, c.hidden_size];
    if let Some(h) = h0.filter(|h| h[..] != [k, n, hs]) {
        return Err(runtime(format!("Expected hidden size ({k}, {n}, {hs}), got {}", shape_str(&h))));
    }
    if lengths.is_none() && seq_len == 0 {
        return Err(runtime("Expected sequence length to be larger than 0 in RNN"));
    }
    let steps = lengths.as_ref().map_or(seq_len, |l| l.iter().copied().max().unwrap_or(0));
    Ok(Plan { seq_len, steps, batch, unbatched, lengths })
}

#[cfg(test)]
mod tests;
