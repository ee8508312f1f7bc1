use super::*;

impl State {
    pub(crate) fn new(preset: &str, config: RnnConfig, source: Source, lengths: Vec<i64>) -> Option<Self> {
        let model = Model {
            config,
            params: Vec::new(),
            source,
            h0: None,
            packed: false,
            lengths: Ids::vector(lengths),
            enforce_sorted: true,
            padding_value: 0.0,
        };
        let mut s = Self {
            preset: preset.into(),
            edited: false,
            seed: "0".into(),
            model,
            last_good: None,
            learning: Learning::default(),
            h_n_in_loss: false,
        };
        s.model.redraw("0", true).ok()?;
        Some(s)
    }

    /// The exact tensors of a preset, drawn with `torch.manual_seed(0)`.
    pub fn preset(id: &str) -> Option<State> {
        let steps = |pairs: &[f32]| pairs.iter().flat_map(|&v| [v, v]).collect::<Vec<_>>();
        match id {
            "rnn_2_5_batch_first" => {
                let input = Tensor::new(vec![3, 2, 2], steps(&[11., 12., 21., 22., 31., 32.])).ok()?;
                let config = RnnConfig { batch_first: true, ..RnnConfig::new(2, 5) };
                Self::new(id, config, Source::Tensor(input), vec![2; 3])
            }
            "rnn_2x3_bi_packed" => {
                // Seq-first (L, N, H_in): the four sequences side by side, padded with 1.0.
                let input = Tensor::new(vec![2, 4, 2], steps(&[11., 21., 31., 41., 12., 22., 1., 1.])).ok()?;
                let config = RnnConfig { num_layers: 2, bidirectional: true, ..RnnConfig::new(2, 3) };
                let mut s = Self::new(id, config, Source::Tensor(input), vec![2, 2, 1, 1])?;
                (s.model.packed, s.model.padding_value) = (true, 1.0);
                Some(s)
            }
            "embedding_to_rnn" => {
                let ids = Ids::new(vec![2, 3], vec![1, 2, 3, 4, 5, 6]).ok()?;
                let source = Source::Embedding { ids, weight: Tensor::zeros(vec![10, 4]).ok()? };
                let config = RnnConfig { batch_first: true, ..RnnConfig::new(4, 3) };
                Self::new(id, config, source, vec![3; 2])
            }
            "vanishing_long_tanh" => {
                // The input of the fixture rnn_tanh_long_sequence_vanishing: (12, 1, 1), seq-first.
                let input = Tensor::new(vec![12, 1, 1], VANISHING_INPUT.to_vec()).ok()?;
                let mut s = Self::new(id, RnnConfig::new(1, 2), Source::Tensor(input), vec![12])?;
                s.model.redraw("5", true).ok()?;
                s.seed = "5".into();
                // The loss only at the last step: mse against the output itself elsewhere, 0 there,
                // so the chart shows how little of it reaches the early steps.
                let mut target = s.model.run().ok()?.output;
                target.data_mut()[22..].fill(0.0);
                s.learning.loss = Loss::Mse { target };
                Some(s)
            }
            "exploding_relu" => {
                let input = Tensor::new(vec![10, 1, 1], vec![1.0; 10]).ok()?;
                let config = RnnConfig { nonlinearity: Nonlinearity::Relu, ..RnnConfig::new(1, 2) };
                let mut s = Self::new(id, config, Source::Tensor(input), vec![10])?;
                let w_hh = s.model.params.iter_mut().find(|(n, _)| n == "weight_hh_l0")?;
                w_hh.1 = Tensor::new(vec![2, 2], vec![1.5, 0.5, 0.5, 1.5]).ok()?;
                Some(s)
            }
            _ => None,
        }
    }

    /// Applies a change to the model; keeps the model that ran last if this one won't. A saved
    /// scene that does not fit the limits takes no changes: a preset replaces it.
    pub(super) fn change(&mut self, f: impl FnOnce(&mut Model, &str) -> Result<(), String>) -> Result<(), String> {
        if let Some(why) = self.model.damaged() {
            return Err(format!("{why}: choose a preset to start again"));
        }
        let before = self.model.clone();
        if let Err(e) = f(&mut self.model, &self.seed) {
            self.model = before;
            return Err(e);
        }
        self.edited = true;
        self.learning.forget();
        if let (Loss::Mse { target }, Ok(run)) = (&self.learning.loss, self.model.run()) {
            if target.shape() != run.output.shape() {
                self.learning.use_mse(true, run.output.shape())?;
            }
        }
        if self.model.run().is_ok() {
            self.last_good = None;
        } else if self.last_good.is_none() && before.run().is_ok() {
            self.last_good = Some(before);
        }
        Ok(())
    }

    /// Types one cell of a tensor named as PyTorch names it (`weight_hh_l0`, `input`, `ids`,
    /// `emb.weight`, `h0`, `lengths`) or of the mse `target`.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        if tensor == "target" {
            return self.learning.edit_target(index, text);
        }
        self.change(|m, _| {
            if let Some(t) = m.float_mut(tensor) {
                return set_float(t, index, text);
            }
            let parse = m.int_parser(tensor);
            if let Some(t) = m.ids_mut(tensor) {
                return set_cell(t, index, text, parse);
            }
            Err(m.not_editable(tensor))
        })
    }

    /// Pastes a block (spreadsheet cells or a Python literal) with its top-left at `index`.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(|m, _| {
            if let Some(t) = m.float_mut(tensor) {
                return paste(t, index, text, parse_float);
            }
            let parse = m.int_parser(tensor);
            if let Some(t) = m.ids_mut(tensor) {
                return paste(t, index, text, parse);
            }
            Err(m.not_editable(tensor))
        })
    }

    /// `torch.manual_seed(seed)`, then the modules again: every parameter (and `emb.weight`) is
    /// PyTorch's init for that seed.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        let parsed = Generator::parse_seed(seed).map_err(|e| e.to_string())?.to_string();
        self.change(|m, _| m.redraw(&parsed, true))?;
        self.seed = parsed;
        Ok(())
    }

    /// A size field: `input_size`, `hidden_size`, `num_layers` (re-draw the parameters with the
    /// seed), `batch`, `seq_len` (resize the input, lengths and h0), `features` (the input's
    /// last size, or `D` of the embedding, alone: a mismatch shows PyTorch's error),
    /// `num_embeddings` (the embedding's `V`).
    pub fn set_size(&mut self, field: &str, text: &str) -> Result<(), String> {
        let max = match field {
            "num_layers" => MAX_LAYERS,
            "batch" => MAX_BATCH,
            "seq_len" => MAX_SEQ_LEN,
            "num_embeddings" => MAX_VOCAB,
            _ => MAX_FEATURES,
        };
        let n = parse_size(text, max)?;
        self.change(|m, seed| match field {
            "input_size" => {
                m.reconfigure(seed, |c| c.input_size = n)?;
                m.set_features(seed, n)
            }
            "hidden_size" => m.reconfigure(seed, |c| c.hidden_size = n),
            "num_layers" => m.reconfigure(seed, |c| c.num_layers = n),
            "batch" => m.set_batch(n),
            "seq_len" => m.set_seq_len(n),
            "features" => m.set_features(seed, n),
            "num_embeddings" => match &mut m.source {
                Source::Embedding { weight, .. } => {
                    *weight = resize(weight, 0, n, 0.0)?;
                    m.redraw(seed, true)
                }
                Source::Tensor(_) => Err("num_embeddings belongs to the Embedding → RNN preset".into()),
            },
            _ => Err(format!("no size named {field}")),
        })
    }

    /// The current value of a size field.
    pub fn size(&self, field: &str) -> usize {
        let (m, c) = (&self.model, &self.model.config);
        match field {
            "input_size" => c.input_size,
            "hidden_size" => c.hidden_size,
            "num_layers" => c.num_layers,
            "batch" => m.batch(),
            "seq_len" => m.seq_len(),
            "features" => m.features(),
            "num_embeddings" => m.num_embeddings().unwrap_or(0),
            _ => 0,
        }
    }

    /// A switch: `bidirectional`, `bias` (re-draw the parameters), `batch_first` (the input is
    /// transposed so every sequence stays itself), `packed`, `enforce_sorted`, `h0` (zeros, the
    /// same as PyTorch's default, ready to edit).
    pub fn set_flag(&mut self, field: &str, on: bool) -> Result<(), String> {
        self.change(|m, seed| {
            match field {
                "bidirectional" => m.reconfigure(seed, |c| c.bidirectional = on)?,
                "bias" => m.reconfigure(seed, |c| c.bias = on)?,
                "batch_first" => m.set_batch_first(on),
                "packed" => m.packed = on,
                "enforce_sorted" => m.enforce_sorted = on,
                "h0" => {
                    let c = &m.config;
                    let shape = vec![c.num_layers * c.num_directions(), m.batch(), c.hidden_size];
                    m.h0 = on.then(|| Tensor::zeros(shape)).transpose().map_err(|e| e.to_string())?;
                }
                _ => return Err(format!("no switch named {field}")),
            }
            Ok(())
        })
    }

    /// `nonlinearity='tanh'` or `'relu'`.
    pub fn set_nonlinearity(&mut self, text: &str) -> Result<(), String> {
        let act = match text.trim().trim_matches(['\'', '"']) {
            "tanh" => Nonlinearity::Tanh,
            "relu" => Nonlinearity::Relu,
            t => return Err(format!("Unknown nonlinearity '{t}'. Select from 'tanh' or 'relu'.")),
        };
        self.change(|m, _| {
            m.config.nonlinearity = act;
            Ok(())
        })
    }

    /// `pad_packed_sequence(..., padding_value=...)`.
    pub fn set_padding_value(&mut self, text: &str) -> Result<(), String> {
        let v = parse_float(text)?;
        self.change(|m, _| {
            m.padding_value = v;
            Ok(())
        })
    }

    /// Everything the view shows. Never panics: when PyTorch would raise, the issues say why
    /// and the last good run stays.
    pub fn compute(&self) -> Computed {
        let (run, issues, stale) = match self.model.run() {
            Ok(run) => (Some(run), Vec::new(), false),
            Err(issues) => (self.last_good.as_ref().and_then(|m| m.run().ok()), issues, true),
        };
        let (backward, backward_issue) = match (&run, stale) {
            (Some(run), false) => match self.backward(run) {
                Ok(b) => (Some(b), None),
                Err(e) => (None, Some(e)),
            },
            _ => (None, Some("No backward while PyTorch raises on the forward call.".into())),
        };
        let m = &self.model;
        Computed {
            run,
            stale,
            issues,
            shape_equation: m.shape_equation(),
            module: m.module_call(),
            rule: m.rule(),
            output_caption: m.output_caption(),
            h_n_caption: m.h_n_caption(),
            packing_caption: m.packing_caption(),
            loss: backward.as_ref().map(|b| b.loss),
            backward,
            backward_issue,
        }
    }

    /// `.grad` of the current model's run: the loss, backward through time.
    pub(super) fn backward(&self, run: &Run) -> Result<Backward, String> {
        let loss = loss(&self.learning.loss, &run.output, &run.h_n, self.h_n_in_loss);
        let (value, upstream, up_h_n) = loss.map_err(|e| e.to_string())?;
        let emb = match &self.model.source {
            Source::Embedding { weight, .. } => Some(weight),
            Source::Tensor(_) => None,
        };
        run.backward(self.model.packing().as_ref(), emb, value, &upstream, &up_h_n).map_err(|e| e.to_string())
    }

    /// Adds `h_n.sum()` to the loss, or takes it out. The parameters stay, so undo still works.
    pub fn set_h_n_in_loss(&mut self, on: bool) {
        self.h_n_in_loss = on;
    }

    /// The cells of a parameter the last SGD step changed.
    pub fn changed(&self, name: &str) -> Vec<usize> {
        self.learning.changed_in(name)
    }
}

/// `L = loss(output) [+ h_n.sum()]`: its value, `dL/doutput` and `dL/dh_n` (zeros without `h_n`,
/// the shape of `h_n` either way). The two terms are added in f32, as PyTorch adds two scalars.
pub fn loss(
    output_loss: &Loss,
    output: &Tensor,
    h_n: &Tensor,
    with_h_n: bool,
) -> Result<(f32, Tensor, Tensor), TorchError> {
    let (value, upstream) = (output_loss.forward(output)?, output_loss.backward(output)?);
    match with_h_n {
        true => Ok((value + Loss::Sum.forward(h_n)?, upstream, Loss::Sum.backward(h_n)?)),
        false => Ok((value, upstream, Tensor::zeros(h_n.shape().to_vec())?)),
    }
}

/// What SGD updates: the RNN's parameters and, for an embedding source, `emb.weight`.
pub(super) fn trainable(m: &mut Model) -> Vec<(&str, &mut Tensor)> {
    let mut v: Vec<(&str, &mut Tensor)> = m.params.iter_mut().map(|(n, t)| (n.as_str(), t)).collect();
    if let Source::Embedding { weight, .. } = &mut m.source {
        v.push(("emb.weight", weight));
    }
    v
}
