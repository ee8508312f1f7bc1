//! How backward makes a clicked `.grad` cell: every weight and bias of a cell sums, over each
//! sequence `b` and each step `t` it ran, the gradient at the cell's pre-activation `da`; the
//! input and `h0` gather it back through the weights that read them, and an embedding's row the
//! input's rows its id was copied to.

use super::*;

impl Run {
    /// `da_l0[t, b, j]`: `dL/dh_t[b, j]` times the nonlinearity's slope at `h_t[b, j]` (`1 − h²`
    /// for tanh, `h > 0` for relu), the gradient at the cell's pre-activation.
    pub(super) fn da(&self, bw: &Backward, layer: usize, d: usize, t: usize, b: usize, j: usize) -> Factor {
        let (k, h_t) = (layer * self.dirs() + d, self.state(layer, d, t, b, j));
        let slope = match self.rnn.config.nonlinearity {
            Nonlinearity::Tanh => 1.0 - h_t * h_t,
            Nonlinearity::Relu => f32::from(u8::from(h_t > 0.0)),
        };
        Factor::new(label(&lane("da", layer, d), &[t, b, j]), bw.hidden_grads.get(&[k, t, b, j]).unwrap_or(0.0) * slope)
    }

    /// `x_t[b, j]` of a layer: `input` for the first, the states of the layer below (both
    /// directions side by side) for the others.
    pub(super) fn x_factor(&self, layer: usize, t: usize, b: usize, j: usize) -> Option<Factor> {
        let h = self.hidden();
        match layer {
            0 => {
                let at = [&self.at(t, b)[..], &[j]].concat();
                Some(Factor::new(label("input", &at), self.input.get(&at)?))
            }
            _ => {
                let (dj, jj) = (j / h, j % h);
                Some(Factor::new(label(&state_name(layer - 1, dj), &[t, b, jj]), self.state(layer - 1, dj, t, b, jj)))
            }
        }
    }

    /// `h_{t−1}[b, j]` of direction `d`: the state before, or `h0` (zeros when not given) on a
    /// sequence's first step in that direction.
    pub(super) fn prev_factor(&self, layer: usize, d: usize, t: usize, b: usize, j: usize) -> Factor {
        match self.prev(d, t, b) {
            Some(p) => Factor::new(label(&state_name(layer, d), &[p, b, j]), self.state(layer, d, p, b, j)),
            None => {
                let k = layer * self.dirs() + d;
                let h0 = self.h0.as_ref().and_then(|h0| h0.get(&[k, b, j])).unwrap_or(0.0);
                Factor::new(label("h0", &[k, b, j]), h0)
            }
        }
    }

    /// `weight_ih_l0.grad[j, i] = Σ_{b, t} da_l0[t, b, j]·x_t[b, i]`, `weight_hh_l0.grad[j, i] =
    /// Σ da_l0[t, b, j]·h_{t−1}[b, i]`, `bias_ih_l0.grad[j] = bias_hh_l0.grad[j] = Σ
    /// da_l0[t, b, j]`; `input.grad[t, b, i] = Σ_{d, j} da_l0[t, b, j]·weight_ih_l0[j, i]` and
    /// `h0.grad[k, b, i] = Σ_j da[t₀, b, j]·weight_hh[j, i]` at the sequence's first step;
    /// `emb.weight.grad[id, j] = Σ input.grad[.., .., j]` over the places `ids` holds `id`. `None`
    /// out of range.
    pub fn grad_formula(&self, bw: &Backward, tensor: &str, index: &[usize]) -> Option<Formula> {
        let param = tensor.strip_suffix(".grad")?;
        let value = find(&bw.grads, param)?.get(index)?;
        let (products, constants) = match (param, index) {
            ("input", &[u0, u1, i]) => {
                let [t, b] = if self.rnn.config.batch_first { [u1, u0] } else { [u0, u1] };
                // Padding past a sequence's end was read by no cell.
                let dirs = if t < *self.lengths.get(b)? { 0..self.dirs() } else { 0..0 };
                (self.through(bw, "ih", dirs.map(|d| (0, d)), [t, b], i)?, Vec::new())
            }
            ("emb.weight", &[id, j]) => {
                let (ids, input) = (self.ids.as_ref()?, find(&bw.grads, "input")?);
                let places =
                    (0..ids.numel()).map(|p| unravel(p, ids.shape())).filter(|at| ids.get(at) == Some(id as i64));
                let rows = places.map(|at| {
                    let at = [&at[..], &[j]].concat();
                    Some(Factor::new(label("input.grad", &at), input.get(&at)?))
                });
                (Vec::new(), rows.collect::<Option<_>>()?)
            }
            ("h0", &[k, b, i]) => {
                let (layer, d) = (k / self.dirs(), k % self.dirs());
                let first = [0, self.lengths.get(b)?.checked_sub(1)?][d];
                (self.through(bw, "hh", [(layer, d)], [first, b], i)?, Vec::new())
            }
            _ => {
                let (kind, lane) = param.split_once("_l")?;
                let (layer, d) = lane.strip_suffix("_reverse").map_or((lane, 0), |l| (l, 1));
                let layer: usize = layer.parse().ok()?;
                if layer >= self.rnn.config.num_layers || d >= self.dirs() {
                    return None;
                }
                let steps = (0..self.batch()).flat_map(|b| (0..self.lengths[b]).map(move |t| (t, b)));
                match (kind, index) {
                    ("weight_ih", &[j, i]) => {
                        let products =
                            steps.map(|(t, b)| Some((self.da(bw, layer, d, t, b, j), self.x_factor(layer, t, b, i)?)));
                        (products.collect::<Option<_>>()?, Vec::new())
                    }
                    ("weight_hh", &[j, i]) => {
                        let products =
                            steps.map(|(t, b)| (self.da(bw, layer, d, t, b, j), self.prev_factor(layer, d, t, b, i)));
                        (products.collect(), Vec::new())
                    }
                    ("bias_ih" | "bias_hh", &[j]) => {
                        (Vec::new(), steps.map(|(t, b)| self.da(bw, layer, d, t, b, j)).collect())
                    }
                    _ => return None,
                }
            }
        };
        Some(Formula { target: label(tensor, index), func: None, products, constants, value, zeros: 0 })
    }

    /// `Σ_{lane, j} da[t, b, j]·weight_{which}[j, i]` over `lanes` (`(layer, direction)`): what
    /// the cells of those lanes at step `t` send back to column `i` of what they read.
    pub(super) fn through(
        &self,
        bw: &Backward,
        which: &str,
        lanes: impl IntoIterator<Item = (usize, usize)>,
        [t, b]: [usize; 2],
        i: usize,
    ) -> Option<Vec<(Factor, Factor)>> {
        let mut products = Vec::new();
        for (layer, d) in lanes {
            let name = lane(&format!("weight_{which}"), layer, d);
            let w = self.param(name.clone())?;
            for j in 0..self.hidden() {
                products.push((self.da(bw, layer, d, t, b, j), Factor::new(label(&name, &[j, i]), w.get(&[j, i])?)));
            }
        }
        Some(products)
    }
}
