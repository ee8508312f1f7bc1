use super::*;
use crate::format::full;
use crate::say;
use crate::say::Say;

impl Model {
    /// Which dimension of the input (and ids) is the batch and which is time.
    pub(super) fn dims(&self) -> (usize, usize) {
        if self.config.batch_first {
            (0, 1)
        } else {
            (1, 0)
        }
    }

    /// `(N, L)` or `(L, N)`: the input's leading shape.
    pub(super) fn lead(&self) -> &[usize] {
        let s = match &self.source {
            Source::Tensor(t) => t.shape(),
            Source::Embedding { ids, .. } => ids.shape(),
        };
        &s[..s.len().min(2)]
    }

    pub fn batch(&self) -> usize {
        self.lead().get(self.dims().0).copied().unwrap_or(0)
    }
    pub fn seq_len(&self) -> usize {
        self.lead().get(self.dims().1).copied().unwrap_or(0)
    }
    /// Numbers per time step of the input: its last size, or the embedding's `D`.
    pub fn features(&self) -> usize {
        match &self.source {
            Source::Tensor(t) => t.shape().get(2).copied().unwrap_or(0),
            Source::Embedding { weight, .. } => weight.shape().get(1).copied().unwrap_or(0),
        }
    }
    pub fn num_embeddings(&self) -> Option<usize> {
        match &self.source {
            Source::Embedding { weight, .. } => weight.shape().first().copied(),
            Source::Tensor(_) => None,
        }
    }

    /// `torch.manual_seed(seed)`, then `nn.Embedding(V, D)` (kept only if `emb`; it still draws
    /// first) and `nn.RNN(...)`.
    pub(super) fn redraw(&mut self, seed: &str, emb: bool) -> Result<(), String> {
        let seed = Generator::parse_seed(seed).map_err(|e| e.to_string())?;
        let mut g = Generator::manual_seed(seed).map_err(|e| e.to_string())?;
        let (v, d) = (self.num_embeddings(), self.features());
        if let Source::Embedding { weight, .. } = &mut self.source {
            let drawn = g.embedding(v.unwrap_or(0), d, None).map_err(|e| e.to_string())?;
            if emb {
                *weight = drawn;
            }
        }
        self.params = g.rnn(&self.config);
        Ok(())
    }

    /// `h0` for a new config: row `layer·D + direction` keeps its numbers where that layer,
    /// direction and unit still exist; the rest is 0.
    fn remap_h0(&mut self, old: &RnnConfig) {
        let (c, n) = (&self.config, self.batch());
        let Some(h0) = &self.h0 else { return };
        let (dirs, old_dirs, h) = (c.num_directions(), old.num_directions(), c.hidden_size);
        let at = |k: usize, b: usize, i: usize| {
            let (l, d) = (k / dirs, k % dirs);
            let kept = l < old.num_layers && d < old_dirs && i < old.hidden_size;
            kept.then(|| h0.get(&[l * old_dirs + d, b, i])).flatten().unwrap_or(0.0)
        };
        let k = c.num_layers * dirs;
        let data = (0..k).flat_map(|k| (0..n).flat_map(move |b| (0..h).map(move |i| at(k, b, i)))).collect();
        self.h0 = Tensor::new(vec![k, n, h], data).ok();
    }

    /// A config change that re-shapes the parameters: drawn again with the seed.
    pub(super) fn reconfigure(&mut self, seed: &str, change: impl FnOnce(&mut RnnConfig)) -> Result<(), String> {
        let old = self.config.clone();
        change(&mut self.config);
        self.redraw(seed, false)?;
        self.remap_h0(&old);
        Ok(())
    }

    /// Resizes dimension `dim` of the input (or ids; new ids are 0, new inputs 0.0).
    fn resize_source(&mut self, dim: usize, n: usize) -> Result<(), String> {
        match &mut self.source {
            Source::Tensor(t) => *t = resize(t, dim, n, 0.0)?,
            Source::Embedding { ids, .. } if dim < 2 => *ids = resize(ids, dim, n, 0)?,
            Source::Embedding { weight, .. } => *weight = resize(weight, 1, n, 0.0)?,
        }
        Ok(())
    }

    pub(super) fn set_features(&mut self, seed: &str, n: usize) -> Result<(), String> {
        self.resize_source(2, n)?;
        if let Source::Embedding { .. } = self.source {
            self.redraw(seed, true)?;
        }
        Ok(())
    }

    /// The batch size: new sequences are zeros with the full length.
    pub(super) fn set_batch(&mut self, n: usize) -> Result<(), String> {
        let l = self.seq_len() as i64;
        self.resize_source(self.dims().0, n)?;
        self.lengths = resize(&self.lengths, 0, n, l)?;
        if let Some(h0) = &self.h0 {
            self.h0 = Some(resize(h0, 1, n, 0.0)?);
        }
        Ok(())
    }

    /// The number of time steps: lengths past it are cut to it.
    pub(super) fn set_seq_len(&mut self, n: usize) -> Result<(), String> {
        self.resize_source(self.dims().1, n)?;
        self.lengths.data_mut().iter_mut().for_each(|l| *l = (*l).min(n as i64));
        Ok(())
    }

    pub(super) fn set_batch_first(&mut self, on: bool) {
        if on != self.config.batch_first {
            self.config.batch_first = on;
            match &mut self.source {
                Source::Tensor(t) => *t = swap01(t),
                Source::Embedding { ids, .. } => *ids = swap01(ids),
            }
        }
    }

    pub(super) fn float_mut(&mut self, name: &str) -> Option<&mut Tensor> {
        match (name, &mut self.source) {
            ("input", Source::Tensor(t)) => Some(t),
            ("emb.weight", Source::Embedding { weight, .. }) => Some(weight),
            ("h0", _) => self.h0.as_mut(),
            _ => self.params.iter_mut().find(|(n, _)| n == name).map(|(_, t)| t),
        }
    }

    pub(super) fn ids_mut(&mut self, name: &str) -> Option<&mut Ids> {
        match (name, &mut self.source) {
            ("ids", Source::Embedding { ids, .. }) => Some(ids),
            ("lengths", _) => Some(&mut self.lengths),
            _ => None,
        }
    }

    /// How an int tensor's cell is read: `ids` name rows of emb.weight, `lengths` are counts.
    pub(super) fn int_parser(&self, name: &str) -> impl Fn(&str) -> Result<i64, String> {
        let rows = self.num_embeddings().filter(|_| name == "ids");
        move |t| rows.map_or_else(|| parse_int(t), |rows| parse_id(t, rows))
    }

    /// Why a tensor can't be typed into.
    pub(super) fn not_editable(&self, name: &str) -> String {
        match name {
            "input" => "input is emb(ids): edit ids or emb.weight instead".into(),
            "h0" => "h0 is not set: turn on h0 to give the first step a state".into(),
            _ => format!("{name} is computed, not typed"),
        }
    }

    pub(super) fn packing(&self) -> Option<Packing> {
        self.packed.then(|| Packing {
            lengths: self.lengths.data().to_vec(),
            enforce_sorted: self.enforce_sorted,
            padding_value: self.padding_value,
        })
    }

    /// Sizes and ranks a saved scene may claim but the setters never make; checked before
    /// anything runs or changes.
    pub(crate) fn damaged(&self) -> Option<String> {
        let c = &self.config;
        let sizes = [c.input_size, c.hidden_size, self.features()].iter().all(|&n| n <= MAX_FEATURES)
            && c.num_layers <= MAX_LAYERS
            && self.batch() <= MAX_BATCH
            && self.seq_len() <= MAX_SEQ_LEN
            && self.num_embeddings().is_none_or(|v| v <= MAX_VOCAB);
        let ranks = match &self.source {
            Source::Tensor(t) => t.dim() == 3,
            Source::Embedding { ids, weight } => ids.dim() == 2 && weight.dim() == 2,
        };
        let lengths = self.lengths.dim() == 1 && self.lengths.numel() == self.batch();
        (!(sizes && ranks && lengths)).then(|| "this saved scene does not fit the RNN scene's limits".into())
    }

    /// Pins an error of the call to the field or cell that causes it, with a plain hint.
    pub(super) fn blame(&self, e: TorchError) -> Issue {
        let m = e.message.clone();
        let l = self.lengths.data();
        let first = |bad: &dyn Fn(usize) -> bool| (0..l.len()).find(|&i| bad(i));
        let steps = self.seq_len();
        if m.contains("input_size") {
            let (got, want) = (self.features(), self.config.input_size);
            let at = if let Source::Embedding { .. } = self.source { "emb.weight" } else { "input" };
            let hint = format!(
                "each time step brings {got} numbers, but the RNN was built with input_size = {want}: make them equal"
            );
            issue(at, None, e, hint)
        } else if m.starts_with("Length of all samples") {
            issue("lengths", first(&|i| l[i] <= 0), e, "every sequence needs at least one time step")
        } else if m.contains("sorted in decreasing order") {
            let hint = "enforce_sorted needs the longest sequence first: sort them, or turn enforce_sorted off";
            issue("lengths", first(&|i| i > 0 && l[i] > l[i - 1]), e, hint)
        } else if m.contains("longer than") {
            let hint = format!("the input has {steps} time steps, so no sequence can be longer");
            issue("lengths", first(&|i| l[i] > steps as i64), e, hint)
        } else if m.contains("hidden size") || m.contains("hx") {
            issue("h0", None, e, "h0 must be (D·num_layers, N, H_out)")
        } else {
            issue("input", None, e, "PyTorch refuses this call")
        }
    }

    /// What the RNN reads: the typed input, or `emb(ids)` with its lookup trace (named as the
    /// scene names things) and every bad id pinned.
    pub(super) fn input(&self) -> Result<(Tensor, Option<Lookup>), Vec<Issue>> {
        let (ids, weight) = match &self.source {
            Source::Tensor(t) => return Ok((t.clone(), None)),
            Source::Embedding { ids, weight } => (ids, weight),
        };
        let emb = Embedding::new(weight.clone(), None)
            .map_err(|e| vec![issue("emb.weight", None, e, "emb.weight must be (num_embeddings, embedding_dim)")])?;
        let lookup = || -> Result<_, TorchError> {
            let names = [("input", "ids"), ("weight", "emb.weight"), ("output", "input")];
            Ok((emb.forward(ids)?, Some((ids.clone(), emb.forward_trace(ids)?.renamed(&names)))))
        };
        lookup().map_err(|e| {
            let hint = format!("ids pick rows of emb.weight, so they must be 0 to {}", emb.num_embeddings() as i64 - 1);
            emb.bad_ids(ids).into_iter().map(|k| issue("ids", Some(k), e.clone(), hint.clone())).collect()
        })
    }

    /// Runs `nn.RNN` as PyTorch would, or says why PyTorch would raise.
    pub fn run(&self) -> Result<Run, Vec<Issue>> {
        if let Some(why) = self.damaged() {
            return Err(vec![issue("config", None, TorchError::value(why), "choose a preset to start again")]);
        }
        let (input, lookup) = self.input()?;
        let rnn = Rnn::new(self.config.clone(), self.params.clone()).map_err(|e| vec![self.blame(e)])?;
        let packing = self.packing();
        let (h0, packing) = (self.h0.as_ref(), packing.as_ref());
        let run = || -> Result<Run, TorchError> {
            let out = rnn.forward(&input, h0, packing)?;
            let (ids, lookups) = lookup.clone().unzip();
            let cells = rnn.trace_cells(input.shape(), packing)?;
            let cells_trace = rnn.forward_trace(input.shape(), packing)?;
            let id_steps = ids.iter().flat_map(|ids| {
                let at = |k| unravel(k, ids.shape());
                ids.data().iter().enumerate().map(move |(k, &id)| StepKind::Lookup { at: at(k), id })
            });
            let steps = id_steps.chain(cells.into_iter().map(StepKind::Cell)).collect();
            let lookups = lookups.unwrap_or_default();
            let trace = Trace {
                summarised: lookups.summarised || cells_trace.summarised,
                steps: [lookups.steps, cells_trace.steps].concat(),
            };
            let t = out.output.shape()[self.dims().1];
            let lengths = match packing {
                Some(p) => p.lengths.iter().map(|&l| l as usize).collect(),
                None => vec![t; self.batch()],
            };
            let states = layer_states(&rnn, &input, h0, packing, &lengths)?;
            Ok(Run {
                rnn: rnn.clone(),
                input: input.clone(),
                ids,
                h0: h0.cloned(),
                output: out.output,
                h_n: out.h_n,
                states,
                lengths,
                padding_value: packing.map(|p| p.padding_value),
                trace,
                steps,
            })
        };
        run().map_err(|e| vec![self.blame(e)])
    }
}

/// Every layer's states, by running the stack one layer at a time: layer `l` is a one-layer RNN
/// (its own parameters) on layer `l-1`'s output, so its output holds exactly its `h_t`.
fn layer_states(
    rnn: &Rnn,
    input: &Tensor,
    h0: Option<&Tensor>,
    packing: Option<&Packing>,
    lengths: &[usize],
) -> Result<Named, TorchError> {
    let c = &rnn.config;
    let (dirs, h, n) = (c.num_directions(), c.hidden_size, lengths.len());
    let per = rnn.params.len() / (c.num_layers * dirs);
    let t_max = lengths.iter().copied().max().unwrap_or(0);
    let (mut x, mut states) = (input.clone(), Vec::new());
    for l in 0..c.num_layers {
        let config = RnnConfig { input_size: x.last_dim(), num_layers: 1, ..c.clone() };
        let own = rnn.params[l * dirs * per..][..dirs * per].iter();
        let params = config.param_shapes().into_iter().zip(own).map(|((name, _), (_, t))| (name, t.clone()));
        let h0 = h0.map(|h0| Tensor::new(vec![dirs, n, h], h0.data()[l * dirs * n * h..][..dirs * n * h].to_vec()));
        let out = Rnn::new(config, params.collect())?.forward(&x, h0.transpose()?.as_ref(), packing)?.output;
        for d in 0..dirs {
            let at = |t: usize, b: usize, i: usize| {
                let [r0, r1] = if c.batch_first { [b, t] } else { [t, b] };
                (t < lengths[b]).then(|| out.get(&[r0, r1, d * h + i])).flatten().unwrap_or(0.0)
            };
            let data = (0..t_max).flat_map(|t| (0..n).flat_map(move |b| (0..h).map(move |i| at(t, b, i))));
            states.push((state_name(l, d), Tensor::new(vec![t_max, n, h], data.collect())?));
        }
        x = out;
    }
    Ok(states)
}

impl Model {
    /// `T`: the time steps the output has (`max(lengths)` when packed).
    fn out_steps(&self) -> usize {
        let longest = self.lengths.data().iter().copied().max().unwrap_or(0).max(0) as usize;
        if self.packed {
            longest
        } else {
            self.seq_len()
        }
    }

    pub(super) fn shapes(&self) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
        let c = &self.config;
        let (n, l, t) = (self.batch(), self.seq_len(), self.out_steps());
        let (dh, k) = (c.num_directions() * c.hidden_size, c.num_directions() * c.num_layers);
        let order = |a: usize, b: usize| if c.batch_first { [b, a] } else { [a, b] };
        let input = [&order(l, n)[..], &[self.features()]].concat();
        (input, [&order(t, n)[..], &[dh]].concat(), vec![k, n, c.hidden_size])
    }

    pub(super) fn shape_equation(&self) -> String {
        let (input, output, h_n) = self.shapes();
        let bf = self.config.batch_first;
        let lead = |l: &str| if bf { format!("N, {l}") } else { format!("{l}, N") };
        let t = if self.packed { "max(lengths)" } else { "L" };
        let input = match &self.source {
            Source::Tensor(_) => format!("input {} [({}, H_in)]", py_shape(&input), lead("L")),
            Source::Embedding { ids, .. } => format!(
                "ids {} [({})] → emb.weight[ids] → input {} [({}, H_in)]",
                py_shape(ids.shape()),
                lead("L"),
                py_shape(&input),
                lead("L")
            ),
        };
        let packed =
            if self.packed { format!(" packed with lengths {}", py_list(self.lengths.data())) } else { "".into() };
        format!(
            "{input}{packed} → output {} [({}, D·H_out)], h_n {} [(D·num_layers, N, H_out)]",
            py_shape(&output),
            lead(t),
            py_shape(&h_n)
        )
    }

    /// `nn.RNN(2, 3, num_layers=2, bidirectional=True)`: only what differs from the defaults.
    pub(super) fn module_call(&self) -> String {
        let c = &self.config;
        let mut args = vec![c.input_size.to_string(), c.hidden_size.to_string()];
        let py = |b: bool| if b { "True" } else { "False" };
        args.extend((c.num_layers != 1).then(|| format!("num_layers={}", c.num_layers)));
        args.extend((c.nonlinearity == Nonlinearity::Relu).then(|| "nonlinearity='relu'".to_string()));
        args.extend((!c.bias).then(|| format!("bias={}", py(c.bias))));
        args.extend(c.batch_first.then(|| "batch_first=True".to_string()));
        args.extend(c.bidirectional.then(|| "bidirectional=True".to_string()));
        format!("nn.RNN({})", args.join(", "))
    }

    pub(super) fn rule(&self) -> String {
        let c = &self.config;
        let act = c.nonlinearity.name();
        let (b_ih, b_hh) = if c.bias { (" + b_ih", " + b_hh") } else { ("", "") };
        format!("h_t = {act}(x_t W_ihᵀ{b_ih} + h_{{t-1}} W_hhᵀ{b_hh})")
    }

    /// `output (3, 2, 5): h_t at every time step, for every sequence.`, then what a bidirectional
    /// RNN's halves are and what a packed sequence's padding holds.
    pub(super) fn output_caption(&self) -> Say {
        let c = &self.config;
        let (_, shape, _) = self.shapes();
        let layers = if c.num_layers > 1 { "many" } else { "one" };
        let top = c.num_layers.saturating_sub(1).to_string();
        let mut said = say!("rnn-note-output", shape = py_shape(&shape), layers = layers, top = top);
        if c.bidirectional {
            let h = c.hidden_size;
            let halves = say!(
                "rnn-note-output-directions",
                width = 2 * h,
                last_forward = (h - 1).to_string(),
                first_reverse = h.to_string(),
                last_reverse = (2 * h - 1).to_string()
            );
            said = then(said, halves);
        }
        if self.packed {
            said = then(said, say!("rnn-note-output-padding", value = full(self.padding_value)));
        }
        said
    }

    /// `h_n (1, 3, 5): only the final state, …; it has no time axis.`, then which part of
    /// `output` each of its last rows equals and where the others come from.
    pub(super) fn h_n_caption(&self) -> Say {
        let c = &self.config;
        let (_, _, shape) = self.shapes();
        let (dirs, k) = (c.num_directions(), c.num_directions() * c.num_layers);
        let last = if c.batch_first { "output[:, -1]" } else { "output[-1]" };
        let first = if c.batch_first { "output[:, 0]" } else { "output[0]" };
        let lead = say!("rnn-note-h-n", shape = py_shape(&shape), layers = c.num_layers, directions = dirs, rows = k);
        let ragged = self.packed && self.lengths.data().iter().any(|&l| (l as usize) < self.out_steps());
        let ragged = if ragged { "yes" } else { "no" };
        let mut said = then(
            lead,
            match dirs {
                1 => say!("rnn-note-h-n-last", ragged = ragged, last = last),
                _ => say!("rnn-note-h-n-both", ragged = ragged, last = last, first = first),
            },
        );
        if c.num_layers > 1 {
            said = then(said, say!("rnn-note-h-n-lower", last = (k - dirs - 1).to_string()));
        }
        said
    }

    /// What packing does here (`None` when not packed): `Packed with lengths [2, 1]: …`, then
    /// which sequences stop early.
    pub(super) fn packing_caption(&self) -> Option<Say> {
        if !self.packed {
            return None;
        }
        let l = self.lengths.data();
        let short = (0..l.len())
            .filter(|&b| l[b] > 0 && (l[b] as usize) < self.out_steps())
            .map(|b| say!("rnn-note-stops", sequence = b.to_string(), t = (l[b] - 1).to_string()))
            .reduce(|list, next| say!("rnn-note-list", first = list, next = next));
        let lead = say!("rnn-note-packed", lengths = py_list(l));
        Some(match short {
            Some(stops) => then(lead, say!("rnn-note-skipped", stops = stops)),
            None => lead,
        })
    }
}

/// Sentence `first`, then sentence `next`, of a note.
fn then(first: Say, next: Say) -> Say {
    say!("rnn-note-then", first = first, next = next)
}

impl Model {
    /// Every size within the limits the scene's fields have, so that a decoded model draws its
    /// unrolled diagram on screen like one the learner built.
    pub(super) fn check(&self) -> Result<(), String> {
        let c = &self.config;
        let sizes = [
            ("input_size", c.input_size, MAX_FEATURES),
            ("hidden_size", c.hidden_size, MAX_FEATURES),
            ("num_layers", c.num_layers, MAX_LAYERS),
            ("batch", self.batch(), MAX_BATCH),
            ("seq_len", self.seq_len(), MAX_SEQ_LEN),
            ("features", self.features(), MAX_FEATURES),
            ("num_embeddings", self.num_embeddings().unwrap_or(0), MAX_VOCAB),
            ("lengths", self.lengths.numel(), MAX_BATCH),
        ];
        if let Some((name, n, max)) = sizes.into_iter().find(|&(_, n, max)| n > max) {
            return Err(format!("{name} is {n}; this scene allows at most {max}"));
        }
        let most = MAX_SEQ_LEN.max(MAX_FEATURES).max(MAX_VOCAB).max(2 * MAX_FEATURES).max(2 * MAX_LAYERS);
        for (name, t) in &self.params {
            check_shape(name, t, 1..=2, most)?;
        }
        match &self.source {
            Source::Tensor(t) => check_shape("input", t, 2..=3, most)?,
            Source::Embedding { ids, weight } => {
                check_shape("input", ids, 1..=2, most)?;
                check_shape("emb.weight", weight, 2..=2, most)?;
            }
        }
        self.h0.as_ref().map_or(Ok(()), |h| check_shape("h0", h, 2..=3, most))
    }
}
