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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nonlinearity {
    Tanh,
    Relu,
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
            Nonlinearity::Tanh => x.tanh(),
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
    let mut sorted = p.lengths.clone();
    if !p.enforce_sorted {
        sorted.sort_unstable_by(|a, b| b.cmp(a));
    }
    if sorted.last().is_some_and(|&l| l <= 0) {
        return Err(runtime(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0",
        ));
    }
    if sorted.windows(2).any(|w| w[1] > w[0]) {
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
        for (what, n) in [("hidden_size", c.hidden_size), ("num_layers", c.num_layers)] {
            if n == 0 {
                return Err(TorchError::value(format!("{what} must be greater than zero")));
            }
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
        let c = &self.config;
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
            return Err(runtime(format!(
                "For {kind} {dims}-D input, hx should also be {dims}-D but got {got}-D tensor"
            )));
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

    /// Backprop through time of `L = Σ output·upstream_output + Σ h_n·upstream_h_n`. At each
    /// step `g = dL/dh_t`, `da = g·act'`; `W_ih.grad += da xᵀ`, `W_hh.grad += da h_{t-1}ᵀ`,
    /// `b.grad += da`, `dL/dx_t = W_ihᵀ da`, `dL/dh_{t-1} = W_hhᵀ da`; layers top-down.
    pub fn backward(
        &self,
        input: &Tensor,
        h0: Option<&Tensor>,
        packing: Option<&Packing>,
        upstream_output: &Tensor,
        upstream_h_n: &Tensor,
    ) -> Result<RnnGrads> {
        let plan = self.plan(input.shape(), h0.map(Tensor::shape), packing)?;
        let (out_shape, h_n_shape) = self.shapes(&plan);
        for (i, (up, shape)) in [(upstream_output, out_shape), (upstream_h_n, h_n_shape)].iter().enumerate() {
            if up.shape() != &shape[..] {
                let (got, want) = (shape_str(up.shape()), shape_str(shape));
                return Err(runtime(format!(
                    "Mismatch in shape: grad_output[{i}] has a shape of torch.Size({got}) and output[{i}] has a shape \
                     of torch.Size({want})."
                )));
            }
        }
        let c = &self.config;
        let (h, n, dirs, steps) = (c.hidden_size, plan.batch, c.num_directions(), plan.steps);
        let h0_data = self.h0_data(h0, &plan);
        let (xs, hs, _) = self.unroll(&plan, input, &h0_data);
        let mut g_out = vec![0.0; steps * n * dirs * h]; // dL/d(layer output), none from padding
        for (r, u) in plan.rows(c.batch_first, steps) {
            g_out[r * dirs * h..][..dirs * h].copy_from_slice(&upstream_output.data()[u * dirs * h..][..dirs * h]);
        }
        let mut grads: Vec<Vec<f32>> = self.params.iter().map(|(_, t)| vec![0.0; t.numel()]).collect();
        let (mut hidden, mut dh0) = (vec![0.0; hs.len() * steps * n * h], vec![0.0; h0_data.len()]);
        for l in (0..c.num_layers).rev() {
            let in_l = if l == 0 { c.input_size } else { dirs * h };
            let mut g_in = vec![0.0; steps * n * in_l];
            for d in 0..dirs {
                let k = l * dirs + d;
                let [w_ih, w_hh] = [0, 1].map(|j| self.param(k, j).unwrap_or_default());
                let (mut gw_ih, mut gw_hh, mut gb) = (vec![0.0; h * in_l], vec![0.0; h * h], vec![0.0; h]);
                let dh = &mut dh0[k * n * h..][..n * h]; // dL/dh of the next step, then h0's
                dh.copy_from_slice(&upstream_h_n.data()[k * n * h..][..n * h]);
                for t in plan.times(d).into_iter().rev() {
                    for b in plan.active(t) {
                        let r = t * n + b;
                        let prev = match plan.prev(d, t, b) {
                            Some(s) => &hs[k][(s * n + b) * h..][..h],
                            None => &h0_data[(k * n + b) * h..][..h],
                        };
                        let x = &xs[l][r * in_l..][..in_l];
                        let mut da = vec![0.0f32; h];
                        for i in 0..h {
                            let g = g_out[r * dirs * h + d * h + i] + dh[b * h + i];
                            hidden[(k * steps * n + r) * h + i] = g;
                            da[i] = c.nonlinearity.backward(hs[k][r * h + i], g);
                            gb[i] += da[i];
                            gw_ih[i * in_l..][..in_l].iter_mut().zip(x).for_each(|(g, x)| *g += da[i] * x);
                            gw_hh[i * h..][..h].iter_mut().zip(prev).for_each(|(g, p)| *g += da[i] * p);
                        }
                        let back = |w: &[f32], j: usize, m: usize| (0..h).fold(0.0f32, |s, i| s + da[i] * w[i * m + j]);
                        (0..in_l).for_each(|j| g_in[r * in_l + j] += back(w_ih, j, in_l));
                        (0..h).for_each(|j| dh[b * h + j] = back(w_hh, j, h));
                    }
                }
                let per = grads.len() / hs.len();
                let slots = [gw_ih, gw_hh, gb.clone(), gb];
                grads[k * per..][..per].iter_mut().zip(slots).for_each(|(g, s)| *g = s);
            }
            g_out = g_in;
        }
        let mut g_input = Tensor::zeros(input.shape().to_vec())?;
        let w = c.input_size;
        for (r, u) in plan.rows(c.batch_first, plan.seq_len) {
            g_input.data_mut()[u * w..][..w].copy_from_slice(&g_out[r * w..][..w]);
        }
        let named = self.params.iter().zip(grads);
        let hidden_shape = if plan.unbatched { vec![hs.len(), steps, h] } else { vec![hs.len(), steps, n, h] };
        Ok(RnnGrads {
            params: named
                .map(|((name, t), g)| Ok((name.clone(), Tensor::new(t.shape().to_vec(), g)?)))
                .collect::<Result<_>>()?,
            input: g_input,
            h0: h0.map(|h| Tensor::new(h.shape().to_vec(), dh0)).transpose()?,
            hidden_grads: Tensor::new(hidden_shape, hidden)?,
        })
    }

    /// The cells in the order forward computes them: layer by layer, forward direction
    /// t = 0..T-1 then reverse t = T-1..0 (T = max(lengths) when packed). `forward_trace` step `i`
    /// is cell `i`, `backward_trace` step `i` cell `len-1-i`. Past `MAX_STEPS` cells, one cell per
    /// (layer, direction) with `t: None`.
    pub fn trace_cells(&self, input_shape: &[usize], packing: Option<&Packing>) -> Result<Vec<Cell>> {
        let plan = self.plan(input_shape, None, packing)?;
        let (layers, dirs) = (self.config.num_layers, self.config.num_directions());
        let whole = layers.saturating_mul(dirs).saturating_mul(plan.steps) > MAX_STEPS;
        let cells = (0..layers).flat_map(|layer| (0..dirs).map(move |direction| (layer, direction)));
        let cells = cells.flat_map(|(layer, direction)| match whole {
            true => vec![Cell { layer, direction, t: None }],
            false => plan.times(direction).into_iter().map(|t| Cell { layer, direction, t: Some(t) }).collect(),
        });
        Ok(cells.take(MAX_STEPS).collect())
    }

    pub fn forward_trace(&self, input_shape: &[usize], packing: Option<&Packing>) -> Result<Trace> {
        self.trace(input_shape, packing, Phase::Forward)
    }

    pub fn backward_trace(&self, input_shape: &[usize], packing: Option<&Packing>) -> Result<Trace> {
        self.trace(input_shape, packing, Phase::Backward)
    }

    fn trace(&self, input_shape: &[usize], packing: Option<&Packing>, phase: Phase) -> Result<Trace> {
        let plan = self.plan(input_shape, None, packing)?;
        let mut cells = self.trace_cells(input_shape, packing)?;
        let summarised = cells.first().is_some_and(|c| c.t.is_none());
        if phase == Phase::Backward {
            cells.reverse();
        }
        let steps = cells.iter().map(|cell| self.step(&plan, cell, phase)).collect();
        Ok(Trace { steps, summarised })
    }

    /// One cell's step, named as the module doc says.
    fn step(&self, plan: &Plan, cell: &Cell, phase: Phase) -> Step {
        let (c, l, d) = (&self.config, cell.layer, cell.direction);
        let (dirs, per) = (c.num_directions(), if c.bias { 4 } else { 2 });
        let k = l * dirs + d;
        let state = |l: usize, d: usize| format!("h_l{l}{}", ["", "_reverse"][d]);
        let (h, grad) = (state(l, d), |name: &str| format!("{name}.grad"));
        let inputs: Vec<String> = match l {
            0 => vec!["input".into()],
            _ => (0..dirs).map(|d| state(l - 1, d)).collect(),
        };
        let params: Vec<String> = c.param_shapes().into_iter().skip(k * per).take(per).map(|(n, _)| n).collect();
        // Unpacked, every row moves together and row 0 stands for them all (the shape may be huge).
        let batch = if plan.lengths.is_some() { plan.batch } else { plan.batch.min(1) };
        // `name` at `at` (a time step, or h0/h_n's row k; `None`: whole) over `rows`: one span when
        // every row takes part, else one per row. `input`/`output` follow batch_first.
        let spans = |name: &str, at: Option<usize>, rows: &[usize]| -> Vec<Span> {
            let bf = c.batch_first && !plan.unbatched && (name.starts_with("input") || name.starts_with("output"));
            let idx = |b: Option<usize>| if bf { vec![b, at] } else { [at].into_iter().chain(b.map(Some)).collect() };
            match (at, rows.len()) {
                (_, 0) => vec![],
                (None, _) => vec![Span::whole(name)],
                (Some(_), r) if r == batch => vec![Span::new(name, idx(None))],
                _ => rows.iter().map(|&b| Span::new(name, idx(Some(b)))).collect(),
            }
        };
        let t = cell.t;
        let active: Vec<usize> = (0..batch).filter(|&b| t.is_none_or(|t| t < plan.len(b))).collect();
        let split = |edge: &dyn Fn(usize, usize) -> Option<usize>| -> (Vec<usize>, Vec<usize>) {
            active.iter().copied().partition(|&b| t.is_none_or(|t| edge(t, b).is_none()))
        };
        let (first, cont) = split(&|t, b| plan.prev(d, t, b)); // rows starting here read h0
        let (ending, going) = split(&|t, b| plan.next(d, t, b)); // rows ending here write h_n
        let prev_t = t.and_then(|t| cont.first().and_then(|&b| plan.prev(d, t, b)));
        let next_t = t.and_then(|t| going.first().and_then(|&b| plan.next(d, t, b)));
        let mut reads: Vec<Span> = inputs.iter().flat_map(|n| spans(n, t, &active)).collect();
        let mut writes = spans(&h, t, &active);
        if phase == Phase::Forward {
            reads.extend([spans(&h, prev_t, &cont), spans("h0", Some(k), &first)].concat());
            reads.extend(params.iter().map(Span::whole));
            let output = if l + 1 == c.num_layers { spans("output", t, &active) } else { vec![] };
            writes.extend([output, spans("h_n", Some(k), &ending)].concat());
            return Step { phase, reads, writes, accumulate: false };
        }
        let from_above = if l + 1 == c.num_layers { "output".to_string() } else { h.clone() };
        let mut grad_reads = spans(&grad(&from_above), t, &active);
        grad_reads.extend([spans(&grad(&h), next_t, &going), spans("h_n.grad", Some(k), &ending)].concat());
        grad_reads.extend(writes); // h_t, for act'
        grad_reads.extend(params.iter().take(2).map(Span::whole));
        let mut grad_writes = spans(&grad(&h), t, &active);
        grad_writes.extend(params.iter().map(|n| Span::whole(grad(n))));
        grad_writes.extend(inputs.iter().flat_map(|n| spans(&grad(n), t, &active)));
        grad_writes.extend(spans("h0.grad", Some(k), &first));
        Step { phase, reads: grad_reads, writes: grad_writes, accumulate: true }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn fixtures(op: &str) -> Vec<Value> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/torch");
        let files = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
        let json = files.filter(|p| p.extension().is_some_and(|e| e == "json"));
        let cases = json.map(|p| serde_json::from_str::<Value>(&std::fs::read_to_string(p).unwrap()).unwrap());
        cases.filter(|c| c["op"] == op).collect()
    }

    fn from<T: serde::de::DeserializeOwned>(v: &Value) -> T {
        serde_json::from_value(v.clone()).unwrap()
    }

    /// A fixture's `config`, PyTorch's defaults for what it leaves out.
    fn config(v: &Value) -> RnnConfig {
        let mut c = json!({"num_layers": 1, "nonlinearity": "tanh", "bias": true});
        (c["batch_first"], c["bidirectional"]) = (false.into(), false.into());
        c.as_object_mut().unwrap().extend(v.as_object().unwrap().clone());
        from(&c)
    }

    fn packing(case: &Value) -> Option<Packing> {
        Some(Packing {
            lengths: from::<Tensor<i64>>(case.get("lengths")?).into_data(),
            enforce_sorted: case.get("enforce_sorted").is_none_or(|e| e == true),
            padding_value: case["padding_value"].as_f64().unwrap_or(0.0) as f32,
        })
    }

    fn rnn_of(case: &Value) -> Rnn {
        let params = case["params"].as_object().unwrap().iter().map(|(n, t)| (n.clone(), from(t)));
        Rnn::new(config(&case["config"]), params.collect()).unwrap()
    }

    #[test]
    fn gradients_match_finite_differences() {
        // Two layers, bidirectional, packed (lengths 2, 2, 1, 1), and a nonzero h0.
        let case =
            fixtures("rnn").into_iter().find(|c| c["name"] == "seed_rnn_2x3_two_layers_bidirectional_packed").unwrap();
        let (rnn, input, pack) = (rnn_of(&case), from::<Tensor>(&case["input"]), packing(&case).unwrap());
        let h0 = Tensor::new(vec![4, 4, 3], (0..48).map(|i| (i * 7 % 11) as f32 / 10.0 - 0.5).collect()).unwrap();
        let (up, up_h): (Tensor, Tensor) = (from(&case["upstream"]["output"]), from(&case["upstream"]["h_n"]));
        let g = rnn.backward(&input, Some(&h0), Some(&pack), &up, &up_h).unwrap();
        let dot = |a: &Tensor, b: &Tensor| a.data().iter().zip(b.data()).map(|(a, b)| (a * b) as f64).sum::<f64>();
        let loss = |rnn: &Rnn, x: &Tensor, h0: &Tensor| {
            let o = rnn.forward(x, Some(h0), Some(&pack)).unwrap();
            dot(&o.output, &up) + dot(&o.h_n, &up_h)
        };
        // (L(p + ε) - L(p - ε)) / 2ε for element j of what `at` picks out of (rnn, input, h0).
        let fd = |j: usize, at: &dyn Fn(&mut (Rnn, Tensor, Tensor)) -> &mut Tensor| {
            let eps = 1e-2;
            let [plus, minus] = [eps, -eps].map(|e| {
                let mut m = (rnn.clone(), input.clone(), h0.clone());
                at(&mut m).data_mut()[j] += e;
                loss(&m.0, &m.1, &m.2)
            });
            (plus - minus) / (2.0 * eps as f64)
        };
        let close = |what: String, fd: f64, an: f32| {
            assert!((fd - an as f64).abs() <= 1e-2 * (an.abs() as f64).max(1.0), "{what}: fd {fd} vs {an}");
        };
        for (p, j) in [(0, 1), (1, 4), (5, 2), (7, 0), (8, 11), (13, 8), (15, 2)] {
            close(rnn.params[p].0.clone(), fd(j, &|m| &mut m.0.params[p].1), g.params[p].1.data()[j]);
        }
        for j in [0, 3, 5, 9, 12, 15] {
            close(format!("input[{j}]"), fd(j, &|m| &mut m.1), g.input.data()[j]);
        }
        for j in [0, 4, 13, 20, 35, 47] {
            close(format!("h0[{j}]"), fd(j, &|m| &mut m.2), g.h0.as_ref().unwrap().data()[j]);
        }
        assert!(g.input.data()[(4 + 2) * 2..].iter().all(|&x| x == 0.0)); // rows 2, 3 at t = 1: padding
    }

    fn small(layers: usize, bidirectional: bool, batch_first: bool) -> Rnn {
        let config = RnnConfig { num_layers: layers, bidirectional, batch_first, ..RnnConfig::new(2, 3) };
        let params = config.param_shapes().into_iter().map(|(n, s)| (n, Tensor::full(s, 0.1).unwrap()));
        Rnn::new(config, params.collect()).unwrap()
    }

    fn names(spans: &[Span]) -> Vec<String> {
        spans.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn trace_has_one_step_per_cell_in_pytorch_order() {
        let rnn = small(2, true, false);
        let (t, cells) = (rnn.forward_trace(&[3, 2, 2], None).unwrap(), rnn.trace_cells(&[3, 2, 2], None).unwrap());
        assert_eq!((t.len(), t.summarised), (2 * 2 * 3, false));
        assert_eq!(cells[3], Cell { layer: 0, direction: 1, t: Some(2) });
        assert_eq!(names(&t.steps[0].reads[..2]), ["input[0]", "h0[0]"]);
        assert_eq!(names(&t.steps[1].reads[..2]), ["input[1]", "h_l0[0]"]);
        assert_eq!(names(&t.steps[3].reads[..2]), ["input[2]", "h0[1]"]);
        assert_eq!(names(&t.steps[6].reads[..3]), ["h_l0[0]", "h_l0_reverse[0]", "h0[2]"]);
        for (step, c) in t.steps.iter().zip(&cells) {
            let ends = c.t == Some([2, 0][c.direction]);
            let h_n = step.writes_to("h_n").map(|s| s.to_string()).next();
            assert_eq!(h_n, ends.then(|| format!("h_n[{}]", c.layer * 2 + c.direction)));
            assert_eq!(step.writes_to("output").count(), c.layer);
        }
        let b = rnn.backward_trace(&[3, 2, 2], None).unwrap();
        assert_eq!(b.len(), t.len());
        assert!(b.steps.iter().all(|s| s.accumulate && s.phase == Phase::Backward));
        assert_eq!(names(&b.steps[0].reads[..2]), ["output.grad[0]", "h_n.grad[3]"]); // l1 reverse, t = 0
        assert_eq!(b.steps[0].writes[0].to_string(), "h_l1_reverse.grad[0]");
        assert_eq!(b.steps[1].reads[1].to_string(), "h_l1_reverse.grad[0]");
        assert!(b.steps[0].writes_to("weight_hh_l1_reverse.grad").next().is_some());
        assert_eq!(names(&b.steps[11].writes[5..]), ["input.grad[0]", "h0.grad[0]"]);
    }

    #[test]
    fn packed_trace_names_the_rows_still_running() {
        let rnn = small(1, true, true);
        let pack = Packing { lengths: vec![1, 3], enforce_sorted: false, padding_value: 0.0 };
        let t = rnn.forward_trace(&[2, 4, 2], Some(&pack)).unwrap();
        assert_eq!(t.len(), 2 * 3); // max(lengths) steps per direction
        assert_eq!(names(&t.steps[0].reads[..2]), ["input[:, 0]", "h0[0]"]);
        assert_eq!(names(&t.steps[0].writes_to("h_n").cloned().collect::<Vec<_>>()), ["h_n[0, 0]"]);
        assert_eq!(names(&t.steps[1].reads[..2]), ["input[1, 1]", "h_l0[0, 1]"]);
        assert_eq!(names(&t.steps[3].reads[..2]), ["input[1, 2]", "h0[1, 1]"]);
        assert_eq!(names(&t.steps[5].reads[..3]), ["input[:, 0]", "h_l0_reverse[1, 1]", "h0[1, 0]"]);
        assert!(rnn.forward_trace(&[2, 5000, 2], None).unwrap().summarised);
    }

    #[test]
    fn unbatched_is_a_batch_of_one_and_packing_pads_to_the_longest() {
        let rnn = small(2, true, true);
        let x = Tensor::new(vec![3, 2], vec![0.5, -1.0, 2.0, 0.0, -0.3, 0.8]).unwrap();
        let one = rnn.forward(&x, None, None).unwrap();
        let batch = rnn.forward(&x.clone().reshape(vec![1, 3, 2]).unwrap(), None, None).unwrap();
        assert_eq!((one.output.shape(), one.h_n.shape()), (&[3usize, 6][..], &[4usize, 3][..]));
        assert_eq!((one.output.data(), one.h_n.data()), (batch.output.data(), batch.h_n.data()));
        let pack = Packing { lengths: vec![2, 1], enforce_sorted: true, padding_value: -9.0 };
        let x = Tensor::full(vec![2, 4, 2], 1.0).unwrap();
        let out = rnn.forward(&x, None, Some(&pack)).unwrap();
        assert_eq!(out.output.shape(), [2, 2, 6]); // pad_packed_sequence stops at max(lengths) = 2
        assert!(
            out.output.data()[18..].iter().all(|&v| v == -9.0) && out.output.data()[..18].iter().all(|&v| v != -9.0)
        );
        let g = rnn.backward(&x, None, Some(&pack), &Tensor::full(vec![2, 2, 6], 1.0).unwrap(), &out.h_n).unwrap();
        let nonzero: Vec<bool> = g.input.data().chunks(2).map(|r| r.iter().any(|&v| v != 0.0)).collect();
        assert_eq!(nonzero, [true, true, false, false, true, false, false, false]);
        // (b, t) rows, batch_first
    }

    #[test]
    fn bad_calls_are_errors_not_panics() {
        let rnn = small(1, false, false);
        let err = |x: &[usize], h0: Option<&[usize]>, lengths: Option<Vec<i64>>| {
            let h0 = h0.map(|s| Tensor::zeros(s.to_vec()).unwrap());
            let p = lengths.map(|lengths| Packing { lengths, enforce_sorted: true, padding_value: 0.0 });
            rnn.forward(&Tensor::zeros(x.to_vec()).unwrap(), h0.as_ref(), p.as_ref()).unwrap_err().to_string()
        };
        assert_eq!(
            err(&[1, 2, 3, 2], None, None),
            "ValueError: RNN: Expected input to be 2D or 3D, got 4D tensor instead"
        );
        assert_eq!(
            err(&[4, 2, 2], Some(&[1, 3, 3]), None),
            "RuntimeError: Expected hidden size (1, 2, 3), got [1, 3, 3]"
        );
        assert!(err(&[4, 2], Some(&[1, 2, 3]), None).contains("hx should also be 2-D but got 3-D"));
        assert!(err(&[0, 2, 2], None, None).contains("sequence length to be larger than 0"));
        assert!(err(&[4, 2, 2], None, Some(vec![2])).contains("got 1 (batch_size=2)"));
        assert!(err(&[4, 2, 2], None, Some(vec![2, 0])).contains("greater than 0"));
        assert!(err(&[4, 2, 2], None, Some(vec![5, 1])).contains("longer than"));
        assert!(err(&[0, 2, 2], None, Some(vec![1, 1])).contains("Cannot pack empty tensors."));
        assert!(err(&[4], None, Some(vec![1])).starts_with("IndexError"));
        assert!(Rnn::new(RnnConfig::new(2, 3), vec![])
            .unwrap_err()
            .message
            .contains("missing parameter 'weight_ih_l0'"));
        assert_eq!(rnn.forward(&Tensor::zeros(vec![2, 0, 2]).unwrap(), None, None).unwrap().output.shape(), [2, 0, 3]);
        let nan = Tensor::full(vec![2, 2], f32::NAN).unwrap();
        let out = rnn.forward(&nan, None, None).unwrap();
        assert_eq!((out.output.shape(), out.h_n.shape()), (&[2usize, 3][..], &[1usize, 3][..]));
        assert!(out.output.data().iter().all(|x| x.is_nan()));
        let g = rnn.backward(&nan, None, None, &out.output, &out.h_n).unwrap();
        assert_eq!(g.hidden_grads.shape(), [1, 2, 3]);
        assert!(rnn
            .backward(&nan, None, None, &out.h_n, &out.h_n)
            .unwrap_err()
            .message
            .starts_with("Mismatch in shape"));
        let huge = rnn.forward_trace(&[3, usize::MAX / 4, 2], None).unwrap(); // shapes only: nothing per row
        assert_eq!(names(&huge.steps[2].writes), ["h_l0[2]", "output[2]", "h_n[0]"]);
        assert!(rnn.backward_trace(&[usize::MAX, 1, 2], None).unwrap().summarised);
    }
}
