use super::*;
use crate::say;
use crate::say::Say;

impl Run {
    pub(super) fn dirs(&self) -> usize {
        self.rnn.config.num_directions()
    }
    pub(super) fn hidden(&self) -> usize {
        self.rnn.config.hidden_size
    }
    /// The time steps `T` (`max(lengths)` when packed).
    pub fn steps_len(&self) -> usize {
        self.lengths.iter().copied().max().unwrap_or(0)
    }
    pub fn batch(&self) -> usize {
        self.lengths.len()
    }
    /// `(t, b)` as `input` and `output` index it: `[b, t]` when batch_first.
    pub fn at(&self, t: usize, b: usize) -> [usize; 2] {
        if self.rnn.config.batch_first {
            [b, t]
        } else {
            [t, b]
        }
    }
    /// The step before `t` for sequence `b` in direction `d`; `None` on its first (reads h0).
    pub(super) fn prev(&self, d: usize, t: usize, b: usize) -> Option<usize> {
        [t.checked_sub(1), Some(t + 1).filter(|&s| s < self.lengths[b])][d]
    }
    /// Where direction `d` ends for sequence `b`: its `h_n`.
    pub(super) fn end(&self, d: usize, b: usize) -> usize {
        [self.lengths[b].saturating_sub(1), 0][d]
    }
    pub(super) fn state(&self, layer: usize, d: usize, t: usize, b: usize, i: usize) -> f32 {
        let k = layer * self.dirs() + d;
        self.states.get(k).and_then(|(_, s)| s.get(&[t, b, i])).unwrap_or(0.0)
    }
    pub(super) fn param(&self, name: String) -> Option<&Tensor> {
        find(&self.rnn.params, &name)
    }

    /// The unrolled diagram as sequence `b` goes through it: one lane per layer and direction.
    pub fn lanes(&self, b: usize) -> Vec<Lane> {
        let (dirs, h, layers) = (self.dirs(), self.hidden(), self.rnn.config.num_layers);
        if b >= self.batch() {
            return Vec::new();
        }
        let lane = |layer: usize, d: usize| {
            let (name, k) = (state_name(layer, d), layer * dirs + d);
            let cell = |t: usize| {
                let skipped = t >= self.lengths[b];
                let x = match layer {
                    0 => label("input", &self.at(t, b)),
                    _ => {
                        let below = (0..dirs).map(|d| label(&state_name(layer - 1, d), &[t, b]));
                        below.collect::<Vec<_>>().join(" | ")
                    }
                };
                let prev = self.prev(d, t, b);
                CellBox {
                    t,
                    values: if skipped { Vec::new() } else { (0..h).map(|i| self.state(layer, d, t, b, i)).collect() },
                    skipped,
                    x,
                    prev: prev.map_or_else(|| label("h0", &[k, b]), |p| label(&name, &[p, b])),
                    first: !skipped && prev.is_none(),
                    last: !skipped && t == self.end(d, b),
                }
            };
            Lane { layer, direction: d, k, cells: (0..self.steps_len()).map(cell).collect(), name }
        };
        (0..layers).flat_map(|l| (0..dirs).map(move |d| (l, d))).map(|(l, d)| lane(l, d)).collect()
    }

    /// `input[b, t]` (the RNN's input) of sequence `b`.
    pub fn x(&self, t: usize, b: usize) -> Vec<f32> {
        let [r0, r1] = self.at(t, b);
        (0..self.input.last_dim()).filter_map(|j| self.input.get(&[r0, r1, j])).collect()
    }

    /// Which cell computed an element of `output`, `h_n` or a state, as `(layer, direction, t,
    /// b, unit)`; `None` for padding or an index out of range.
    fn cell_of(&self, tensor: &str, index: &[usize]) -> Option<(usize, usize, usize, usize, usize)> {
        let (dirs, h) = (self.dirs(), self.hidden());
        match (tensor, index) {
            ("output", &[a, b, f]) => {
                let [t, b] = if self.rnn.config.batch_first { [b, a] } else { [a, b] };
                let ok = b < self.batch() && t < self.lengths[b] && f < dirs * h;
                ok.then(|| (self.rnn.config.num_layers - 1, f / h, t, b, f % h))
            }
            ("h_n", &[k, b, i]) => {
                let ok = k < self.states.len() && b < self.batch() && i < h && self.lengths[b] > 0;
                ok.then(|| (k / dirs, k % dirs, self.end(k % dirs, b), b, i))
            }
            (name, &[t, b, i]) => {
                let k = self.states.iter().position(|(n, _)| n == name)?;
                let ok = b < self.batch() && t < self.lengths[b] && i < h;
                ok.then(|| (k / dirs, k % dirs, t, b, i))
            }
            _ => None,
        }
    }

    /// `output[0, 1, 2] = tanh(Σ_j x_t[j]·W_ih[i, j] + b_ih[i] + Σ_j h_{t-1}[j]·W_hh[i, j] +
    /// b_hh[i])` with every number named; a padded output cell is `padding_value`.
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        let target = label(tensor, index);
        if let (Some(ids), "input", [at @ .., j]) = (&self.ids, tensor, index) {
            // Embedding → RNN: an input number is a copy of emb.weight[id, j].
            let (id, value) = (ids.get(at)?, self.input.get(index)?);
            let constants = vec![Factor::new(label("emb.weight", &[id as usize, *j]), value)];
            return Some(Formula { target, func: None, products: Vec::new(), constants, value, zeros: 0 });
        }
        let Some((layer, d, t, b, i)) = self.cell_of(tensor, index) else {
            let pad = self.padding_value.filter(|_| tensor == "output")?;
            let value = self.output.get(index)?;
            let constants = vec![Factor::new("padding_value", pad)];
            return Some(Formula { target, func: None, products: Vec::new(), constants, value, zeros: 0 });
        };
        let h = self.hidden();
        let width = [self.input.last_dim(), self.dirs() * h][usize::from(layer > 0)];
        let x: Vec<Factor> = (0..width).map(|j| self.x_factor(layer, t, b, j)).collect::<Option<_>>()?;
        let prev: Vec<Factor> = (0..h).map(|j| self.prev_factor(layer, d, t, b, j)).collect();
        let weights = |which: &str, with: Vec<Factor>| -> Option<Vec<(Factor, Factor)>> {
            let name = lane(&format!("weight_{which}"), layer, d);
            let w = self.param(name.clone())?;
            let pairs = with.into_iter().enumerate();
            pairs.map(|(j, f)| Some((f, Factor::new(label(&name, &[i, j]), w.get(&[i, j])?)))).collect()
        };
        let products = [weights("ih", x)?, weights("hh", prev)?].concat();
        let constants = ["ih", "hh"]
            .iter()
            .filter_map(|which| {
                let name = lane(&format!("bias_{which}"), layer, d);
                Some(Factor::new(label(&name, &[i]), self.param(name.clone())?.get(&[i])?))
            })
            .collect();
        let func = Some(self.rnn.config.nonlinearity.name().into());
        let value = self.state(layer, d, t, b, i);
        Some(Formula { target, func, products, constants, value, zeros: 0 })
    }

    /// The formula of the current step (`playhead` steps done) as sequence `b` sees it: its
    /// first number.
    pub fn step_formula(&self, playhead: usize, b: usize) -> Option<Formula> {
        match self.steps.get(playhead.checked_sub(1)?)? {
            StepKind::Lookup { at, .. } => self.formula("input", &[&at[..], &[0]].concat()),
            StepKind::Cell(Cell { layer, direction, t: Some(t) }) => {
                self.formula(&state_name(*layer, *direction), &[*t, b, 0])
            }
            StepKind::Cell(_) => None,
        }
    }

    /// How `dL/dh_t[b, i]` of a cell is made going backward: what the output (top layer) or the
    /// layer above sends down, plus what the next step in its direction sends back through
    /// `weight_hh` (or `h_n.grad` where the sequence ends). `da` is the gradient at a step's
    /// pre-activation: its `dL/dh` times `1 − h²` (tanh) or `h > 0` (relu).
    pub fn backward_formula(
        &self,
        bw: &Backward,
        layer: usize,
        d: usize,
        t: usize,
        b: usize,
        i: usize,
    ) -> Option<Formula> {
        let (dirs, h, c) = (self.dirs(), self.hidden(), &self.rnn.config);
        if b >= self.batch() || t >= self.lengths[b] || i >= h {
            return None;
        }
        let k = layer * dirs + d;
        let name = state_name(layer, d);
        let mut products = Vec::new();
        let mut constants = Vec::new();
        if layer + 1 == c.num_layers {
            let at = [&self.at(t, b)[..], &[d * h + i]].concat();
            constants.push(Factor::new(label("output.grad", &at), bw.upstream.get(&at)?));
        } else {
            // The layer above read this unit as column d·H + i of its input.
            products.extend(self.through(bw, "ih", (0..dirs).map(|up| (layer + 1, up)), [t, b], d * h + i)?);
        }
        let next = [Some(t + 1).filter(|&n| n < self.lengths[b]), t.checked_sub(1)][d];
        match next {
            Some(n) => products.extend(self.through(bw, "hh", [(layer, d)], [n, b], i)?),
            None => constants.push(Factor::new(label("h_n.grad", &[k, b, i]), bw.upstream_h_n.get(&[k, b, i])?)),
        }
        let value = bw.hidden_grads.get(&[k, t, b, i])?;
        Some(Formula {
            target: label(&format!("{name}.grad"), &[t, b, i]),
            func: None,
            products,
            constants,
            value,
            zeros: 0,
        })
    }

    /// The backward formula of the current backward step (`playhead` steps done) as sequence
    /// `b` sees it: its first unit.
    pub fn backward_step_formula(&self, bw: &Backward, playhead: usize, b: usize) -> Option<Formula> {
        match bw.steps.get(playhead.checked_sub(1)?)? {
            StepKind::Cell(Cell { layer, direction, t: Some(t) }) => {
                self.backward_formula(bw, *layer, *direction, *t, b, 0)
            }
            _ => None,
        }
    }

    /// Backprop through time with these upstream gradients (`L = Σ output·upstream +
    /// Σ h_n·upstream_h_n`), and through the embedding when `emb` is its weight.
    pub fn backward(
        &self,
        packing: Option<&Packing>,
        emb: Option<&Tensor>,
        loss: f32,
        upstream: &Tensor,
        upstream_h_n: &Tensor,
    ) -> Result<Backward, TorchError> {
        let g = self.rnn.backward(&self.input, self.h0.as_ref(), packing, upstream, upstream_h_n)?;
        let mut grads = g.params;
        grads.push(("input".into(), g.input.clone()));
        if let Some(h0) = g.h0 {
            grads.push(("h0".into(), h0));
        }
        let cells = self.rnn.trace_cells(self.input.shape(), packing)?;
        let mut steps: Vec<StepKind> = cells.into_iter().rev().map(StepKind::Cell).collect();
        let mut trace = self.rnn.backward_trace(self.input.shape(), packing)?;
        if let (Some(weight), Some(ids)) = (emb, &self.ids) {
            let e = Embedding::new(weight.clone(), None)?;
            if let Some(w) = e.backward(ids, &g.input)?.weight {
                grads.push(("emb.weight".into(), w));
            }
            let names = [("output.grad", "input.grad"), ("weight.grad", "emb.weight.grad")];
            let lookups = e.backward_trace(ids)?.renamed(&names);
            trace.summarised |= lookups.summarised;
            trace.steps.extend(lookups.steps);
            let at = |k| unravel(k, ids.shape());
            steps.extend(ids.data().iter().enumerate().map(|(k, &id)| StepKind::Lookup { at: at(k), id }));
        }
        let hg = &g.hidden_grads;
        let (lanes, t_len) = (hg.shape()[0], hg.shape()[1]);
        let per_t = hg.numel() / (lanes * t_len).max(1);
        let norm = |k: usize, t: usize| {
            let xs = &hg.data()[(k * t_len + t) * per_t..][..per_t];
            xs.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt() as f32
        };
        let norms = self
            .states
            .iter()
            .enumerate()
            .map(|(k, (name, _))| (name.clone(), (0..t_len).map(|t| norm(k, t)).collect()));
        let norms = norms.collect();
        Ok(Backward {
            loss,
            upstream: upstream.clone(),
            upstream_h_n: upstream_h_n.clone(),
            h_n_in_loss: upstream_h_n.data().iter().any(|&x| x != 0.0),
            grads,
            hidden_grads: g.hidden_grads,
            norms,
            trace,
            steps,
        })
    }

    /// The current backward step in plain words (`playhead` steps done): where the step's
    /// gradient comes from and where it goes (the parameters' grads left out when that is too
    /// long); the sums are the cells' formulas. In English:
    /// `h_l0[1]: gradient from output.grad[:, 1], times tanh's slope, adds into weight and bias
    /// grads, input.grad[:, 1] and t = 0.`
    pub fn describe_backward(&self, b: &Backward, playhead: usize) -> Vec<Say> {
        let Some(step) = playhead.checked_sub(1).and_then(|i| b.steps.get(i)) else {
            let h_n = if b.h_n_in_loss { "in" } else { "out" };
            return vec![say!("rnn-caption-backward-start", h_n = h_n)];
        };
        let cell = match step {
            StepKind::Lookup { at, id } => return vec![lookup_words(at, *id, Phase::Backward)],
            StepKind::Cell(cell) => *cell,
        };
        let (l, d, c) = (cell.layer, cell.direction, &self.rnn.config);
        let name = state_name(l, d);
        let Some(t) = cell.t else {
            return vec![say!("rnn-step-backward-every-t", lane = name)];
        };
        // From output.grad or the layer above; to input.grad or the layer below.
        let (from, above) = match l + 1 == c.num_layers {
            true => ("output", self.slice("output.grad", t)),
            false => ("layer", (l + 1).to_string()),
        };
        let (to, below) = match l {
            0 => ("input", self.slice("input.grad", t)),
            _ => ("layer", (l - 1).to_string()),
        };
        // The steps after and before t in the direction's own order.
        let (next, prev) = (Some(t + 1).filter(|&n| n < self.steps_len()), t.checked_sub(1));
        let (later, earlier) = [(next, prev), (prev, next)][d];
        let (also, later) = match (later, b.h_n_in_loss) {
            (Some(later), _) => ("later", later.to_string()),
            (None, true) => ("h-n", String::new()),
            (None, false) => ("none", String::new()),
        };
        let back = match earlier {
            Some(earlier) => format!("t = {earlier}"),
            None => format!("h0.grad[{}]", l * self.dirs() + d),
        };
        let (t, func) = (t.to_string(), c.nonlinearity.name());
        vec![
            say!(
                "rnn-step-backward",
                lane = &name,
                t = &t,
                from = from,
                above = &above,
                also = also,
                later = &later,
                func = func,
                bias = if c.bias { "yes" } else { "no" },
                to = to,
                below = &below,
                back = &back,
            ),
            // Without the parameters' grads (their cells are marked).
            say!(
                "rnn-step-backward-short",
                lane = name,
                t = t,
                from = from,
                above = above,
                also = also,
                later = later,
                func = func,
                to = to,
                below = below,
                back = back,
            ),
        ]
    }

    /// The current step in plain words (`playhead` steps done); the rule itself is `rule`. Its
    /// ways: the lead (`h_l0[1]: input[:, 1] and h_l0[0] times their weights, plus biases, through
    /// tanh.`), then as many of the sentences that say less (which sequences have no step, what
    /// output and h_n it is, which sequences start from h0) as fit.
    pub fn describe(&self, playhead: usize) -> Vec<Say> {
        let Some(step) = playhead.checked_sub(1).and_then(|i| self.steps.get(i)) else {
            return vec![match &self.ids {
                Some(_) => say!("rnn-caption-start-lookup"),
                None => say!("rnn-caption-start"),
            }];
        };
        let cell = match step {
            StepKind::Lookup { at, id } => return vec![lookup_words(at, *id, Phase::Forward)],
            StepKind::Cell(cell) => *cell,
        };
        let (l, d, dirs) = (cell.layer, cell.direction, self.dirs());
        let name = state_name(l, d);
        let Some(t) = cell.t else {
            return vec![say!("rnn-step-every-t", lane = name)];
        };
        let c = &self.rnn.config;
        let k = l * dirs + d;
        // What comes in: input's slice, or the layer below's h.
        let (x_from, x) = match l {
            0 => ("input", self.slice("input", t)),
            _ => ("layer", format!("h[{t}]")),
        };
        let (active, ended): (Vec<usize>, Vec<usize>) = (0..self.batch()).partition(|&b| t < self.lengths[b]);
        let (start, cont): (Vec<usize>, Vec<usize>) = active.iter().partition(|&&b| self.prev(d, t, b).is_none());
        let (first, prev) = match cont.first().and_then(|&b| self.prev(d, t, b)) {
            Some(p) => ("no", format!("{name}[{p}]")),
            None => ("yes", format!("h0[{k}]")),
        };
        let lead = say!(
            "rnn-step-cell",
            lane = &name,
            t = t.to_string(),
            x_from = x_from,
            layer = l.saturating_sub(1).to_string(),
            x = x,
            first = first,
            prev = prev,
            bias = if c.bias { "yes" } else { "no" },
            func = c.nonlinearity.name(),
        );
        // What the state is: a slice of output (half of it, bidirectional), h_n's row (for some
        // sequences only, when they end at different steps).
        let output = (l + 1 == c.num_layers).then_some(if dirs == 1 { "whole" } else { "half" });
        let ending: Vec<usize> = active.iter().copied().filter(|&b| self.end(d, b) == t).collect();
        let h_n = match ending.len() {
            n if n == self.batch() => Some("all"),
            0 => None,
            _ => Some("some"),
        };
        let (slice, row) = (self.slice("output", t), format!("h_n[{k}]"));
        let (count, seqs) = sequences(&ending);
        let it_is = match (output, h_n) {
            (Some(output), Some(h_n)) => Some(say!(
                "rnn-step-it-is-both",
                output = output,
                slice = slice,
                h_n = h_n,
                row = row,
                count = count,
                sequences = seqs,
            )),
            (Some(output), None) => Some(say!("rnn-step-it-is-output", output = output, slice = slice)),
            (None, Some(h_n)) => {
                Some(say!("rnn-step-it-is-h-n", h_n = h_n, row = row, count = count, sequences = seqs))
            }
            (None, None) => None,
        };
        let more = [
            (!ended.is_empty()).then(|| {
                let (count, sequences) = sequences(&ended);
                let direction = ["forward", "reverse"][d];
                say!("rnn-step-no-step", count = count, sequences = sequences, direction = direction)
            }),
            it_is,
            (!start.is_empty() && !cont.is_empty()).then(|| {
                let (count, sequences) = sequences(&start);
                say!("rnn-step-start-from-h0", count = count, sequences = sequences, k = k.to_string())
            }),
        ];
        ways(lead, more.into_iter().flatten().collect())
    }

    /// `input[2]`, or `input[:, 2]` when batch_first puts the batch first (`input`, `output`
    /// and their grads; the states are always (T, N, H_out)).
    fn slice(&self, name: &str, t: usize) -> String {
        match self.rnn.config.batch_first {
            true => format!("{name}[:, {t}]"),
            false => format!("{name}[{t}]"),
        }
    }
}

/// An id's step: its row of `emb.weight` copied to `input`, or `input.grad` added back into it:
/// `ids[0, 1] = 2: row 2 of emb.weight is copied to input[0, 1].`
fn lookup_words(at: &[usize], id: i64, phase: Phase) -> Say {
    let (ids, id) = (label("ids", at), id.to_string());
    match phase {
        Phase::Forward => say!("rnn-step-lookup", ids = ids, id = id, input = label("input", at)),
        Phase::Backward => say!("rnn-step-lookup-backward", ids = ids, id = id, input_grad = label("input.grad", at)),
    }
}

/// A caption's ways, most said first: `lead` and every choice of `more` (sentences that say
/// less, the first most worth saying), in the order that makes the first that fits `lead` then
/// each of `more` while it still fits; `lead` alone last.
pub(super) fn ways(lead: Say, more: Vec<Say>) -> Vec<Say> {
    let n = more.len();
    let chosen = |mask: usize| more.iter().enumerate().filter(move |(i, _)| mask >> (n - 1 - i) & 1 == 1);
    let way = |mask: usize| {
        chosen(mask).fold(lead.clone(), |said, (_, next)| say!("rnn-step-then", first = said, next = next.clone()))
    };
    (0..1usize << n).rev().map(way).collect()
}
