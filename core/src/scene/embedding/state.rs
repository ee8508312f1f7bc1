use super::*;
use crate::say;

impl State {
    /// How an id cell is read: its hint names the rows of `weight`.
    fn id_parser(&self) -> impl Fn(&str) -> Result<i64, String> {
        let rows = self.weight.shape().first().copied().unwrap_or(0);
        move |t| parse_id(t, rows)
    }

    /// A drawn (not pretrained) table looking up `input`, flags at PyTorch's defaults.
    pub(super) fn new(preset: &str, weight: Tensor, input: Ids) -> Self {
        Self {
            preset: preset.into(),
            weight,
            input,
            dtype: IdsDtype::Long,
            padding_idx: None,
            from_pretrained: false,
            freeze: true,
            sparse: false,
            last_good: empty(),
            learning: Learning::default(),
            seed: None,
        }
    }

    /// The exact tensors of a preset.
    pub fn preset(id: &str) -> Option<State> {
        // `torch.manual_seed(seed); nn.Embedding(v, d, padding_idx=pad)`
        let drawn = |seed: i128, v, d, pad| Generator::manual_seed(seed).and_then(|mut g| g.embedding(v, d, pad)).ok();
        let batch = Ids::new(vec![2, 4], vec![2, 4, 3, 1, 2, 0, 1, 1]).ok()?;
        let mut s = match id {
            "seed123_4x5" => {
                Self { seed: Some("123".into()), ..Self::new(id, drawn(123, 4, 5, None)?, Ids::vector(vec![2, 3, 1])) }
            }
            "pretrained_5x4" => {
                let table = Tensor::new(vec![5, 4], (0..5).flat_map(|i| [i as f32; 4]).collect()).ok()?;
                let mut s = Self::new(id, table, batch);
                s.from_pretrained = true;
                s
            }
            "padding_10x3" => {
                let mut s = Self::new(id, drawn(0, 10, 3, Some(1))?, batch);
                (s.padding_idx, s.seed) = (Some(1), Some("0".into()));
                s
            }
            "big_1000x30" => {
                let ids = Ids::new(vec![2, 3], vec![1, 999, 42, 7, 7, 500]).ok()?;
                Self { seed: Some("0".into()), ..Self::new(id, drawn(0, 1000, 30, None)?, ids) }
            }
            _ => return None,
        };
        s.settle();
        Some(s)
    }

    /// The row `padding_idx` points at, once made non-negative (`None` if unset or out of range).
    pub fn padding_row(&self) -> Option<usize> {
        self.module().ok().and_then(|m| m.padding_idx)
    }

    pub fn num_embeddings(&self) -> usize {
        self.weight.shape().first().copied().unwrap_or(0)
    }
    pub fn embedding_dim(&self) -> usize {
        self.weight.shape().get(1).copied().unwrap_or(0)
    }

    /// The module as PyTorch would build it, with `padding_idx` checked.
    pub(super) fn module(&self) -> Result<Embedding, TorchError> {
        let mut m = Embedding::new(self.weight.clone(), self.padding_idx)?;
        m.sparse = self.sparse;
        m.freeze = self.from_pretrained && self.freeze;
        Ok(m)
    }

    /// Remembers the output whenever PyTorch can run the current state.
    pub(super) fn settle(&mut self) {
        if let Ok(out) = self.module().and_then(|m| check_indices(self.dtype).and_then(|_| m.forward(&self.input))) {
            // An mse target follows the output's shape (zeros when the shape changes).
            if matches!(&self.learning.loss, Loss::Mse { target } if target.shape() != out.shape()) {
                let _ = self.learning.use_mse(true, out.shape());
            }
            self.last_good = out;
        }
    }

    /// Types one cell of `weight` (a float), `input` (an id) or the mse `target`.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        match tensor {
            "weight" => {
                set_float(&mut self.weight, index, text)?;
                self.learning.forget();
            }
            "input" => {
                let parse = self.id_parser();
                set_cell(&mut self.input, index, text, parse)?
            }
            "target" => self.learning.edit_target(index, text)?,
            _ => return Err(format!("{tensor} cannot be edited here")),
        }
        self.settle();
        Ok(())
    }

    /// Pastes a block into `weight` or `input`, top-left at `index`.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        match tensor {
            "weight" => {
                paste(&mut self.weight, index, text, parse_float)?;
                self.learning.forget();
            }
            "input" => {
                let parse = self.id_parser();
                paste(&mut self.input, index, text, parse)?
            }
            "target" => match &mut self.learning.loss {
                Loss::Mse { target } => paste(target, index, text, parse_float)?,
                Loss::Sum => return Err("the sum loss has no target".into()),
            },
            _ => return Err(format!("{tensor} cannot be edited here")),
        }
        self.settle();
        Ok(())
    }

    /// `torch.manual_seed(seed); nn.Embedding(V, D, padding_idx)`: a fresh `normal(0, 1)` table
    /// with the padding row zeroed. The table is then drawn by init, not pretrained.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        let seed = Generator::parse_seed(seed).map_err(|e| e.to_string())?;
        let mut g = Generator::manual_seed(seed).map_err(|e| e.to_string())?;
        self.weight =
            g.embedding(self.num_embeddings(), self.embedding_dim(), self.padding_idx).map_err(|e| e.to_string())?;
        self.from_pretrained = false;
        self.seed = Some(seed.to_string());
        self.learning.forget();
        self.settle();
        Ok(())
    }

    /// Resizes the table: rows or columns that stay keep their numbers, new ones start at 0.
    pub(super) fn resize_table(&mut self, dim: usize, n: usize) -> Result<(), String> {
        let other = if dim == 0 { self.embedding_dim() } else { self.num_embeddings() };
        if n.saturating_mul(other) > MAX_TABLE {
            return Err(format!("at most {MAX_TABLE} numbers in the table ({n} × {other} is too many)"));
        }
        self.weight = resize(&self.weight, dim, n, 0.0)?;
        self.learning.forget();
        self.settle();
        Ok(())
    }

    /// `num_embeddings`: how many rows (ids) the table has.
    pub fn set_num_embeddings(&mut self, text: &str) -> Result<(), String> {
        self.resize_table(0, parse_size(text, MAX_NUM_EMBEDDINGS)?)
    }

    /// `embedding_dim`: how many numbers each row holds.
    pub fn set_embedding_dim(&mut self, text: &str) -> Result<(), String> {
        self.resize_table(1, parse_size(text, MAX_EMBEDDING_DIM)?)
    }

    /// `padding_idx`: `None` (or an empty field) or an int. `nn.Embedding` zeroes that row when
    /// it is built, so a drawn table gets it zeroed here too; a pretrained table keeps its row.
    /// Out of range is stored and reported, as PyTorch would raise.
    pub fn set_padding_idx(&mut self, text: &str) -> Result<(), String> {
        let t = text.trim();
        self.padding_idx = match t {
            "" | "None" => None,
            _ => Some(parse_int(t)?),
        };
        if let (Ok(m), false) = (self.module(), self.from_pretrained) {
            if let Some(p) = m.padding_idx {
                let d = self.embedding_dim();
                self.weight.data_mut()[p * d..(p + 1) * d].fill(0.0);
                self.learning.forget();
            }
        }
        self.settle();
        Ok(())
    }

    /// `ids.to(dtype)`: the same whole numbers as `torch.long`, `torch.int`, `torch.float` or
    /// `torch.double`.
    pub fn set_dtype(&mut self, text: &str) -> Result<(), String> {
        self.dtype = IdsDtype::parse(text)
            .ok_or_else(|| format!("the ids' dtype is one of {}", IdsDtype::ALL.map(IdsDtype::name).join(", ")))?;
        self.settle();
        Ok(())
    }

    /// Ids as one sequence `(n,)` or as a batch `(batch, seq)`: `(n,)` becomes `(1, n)`, and a
    /// batch is laid end to end, so no id is lost.
    pub fn set_batched(&mut self, batched: bool) {
        let n = self.input.numel();
        let shape = if batched { vec![1, n] } else { vec![n] };
        if batched != (self.input.dim() == 2) {
            if let Ok(ids) = self.input.clone().reshape(shape) {
                self.input = ids;
            }
        }
        self.settle();
    }

    /// The size of dimension `dim` of the ids (0 = batch or length, 1 = sequence length); new
    /// ids are 0.
    pub fn set_input_size(&mut self, dim: usize, text: &str) -> Result<(), String> {
        let n = parse_size(text, MAX_IDS)?;
        let rest = self.input.numel() / self.input.shape().get(dim).copied().unwrap_or(1).max(1);
        if n * rest > MAX_IDS {
            return Err(format!("at most {MAX_IDS} ids"));
        }
        self.input = resize(&self.input, dim, n, 0)?;
        self.settle();
        Ok(())
    }

    /// The issues PyTorch would raise on: a `padding_idx` outside the table, ids outside it.
    pub(super) fn issues(&self) -> Vec<Issue> {
        let v = self.num_embeddings();
        if self.weight.dim() != 2 {
            let e = TorchError::assertion("Embeddings parameter is expected to be 2-dimensional");
            return vec![issue("weight", None, e, "weight must be (num_embeddings, embedding_dim)".into())];
        }
        if let Err(e) = Embedding::new(self.weight.clone(), self.padding_idx) {
            let hint = format!("padding_idx must be in -{v}..{}; negative counts from the end", v as i64 - 1);
            return vec![issue("padding_idx", None, e, hint)];
        }
        if let Err(e) = check_indices(self.dtype) {
            let hint = format!(
                "nn.Embedding selects rows by id, so ids must be torch.long or torch.int, not {}: ids.long(), or pick torch.long as their dtype",
                self.dtype.name()
            );
            return vec![issue("input", None, e, hint)];
        }
        let emb = Embedding::new(self.weight.clone(), None);
        let bad = emb.map(|m| m.bad_ids(&self.input)).unwrap_or_default();
        let hint = format!("ids must be in 0..{}; this table has {v} rows", v as i64 - 1);
        bad.into_iter()
            .map(|k| issue("input", Some(k), TorchError::index("index out of range in self"), hint.clone()))
            .collect()
    }

    /// Everything the view shows. Never panics: when PyTorch would raise, the issues say why and
    /// the output stays at the last good one.
    pub fn compute(&self) -> Computed {
        let issues = self.issues();
        let run = self.module().and_then(|m| Ok((m.forward(&self.input)?, m.forward_trace(&self.input)?)));
        let (output, trace, stale) = match run {
            Ok((out, trace)) if issues.is_empty() => (out, trace, false),
            _ => (self.last_good.clone(), Trace::default(), true),
        };
        let picks = match stale {
            true => Vec::new(),
            false => {
                let ids = self.input.data().iter();
                ids.enumerate().map(|(k, &id)| Pick { at: unravel(k, self.input.shape()), row: id as usize }).collect()
            }
        };
        let out_shape = [self.input.shape(), &[self.embedding_dim()]].concat();
        let back = match stale {
            true => None,
            false => Some(self.backward(&output, &picks)),
        };
        let (loss, upstream, grads, backward, back_picks, loss_error) = match back {
            Some(Ok(b)) => (Some(b.0), Some(b.1), Some(b.2), b.3, b.4, None),
            Some(Err(e)) => (None, None, None, Trace::default(), Vec::new(), Some(e.to_string())),
            None => (None, None, None, Trace::default(), Vec::new(), None),
        };
        Computed {
            loss,
            upstream,
            grads,
            backward,
            back_picks,
            no_grad: (self.from_pretrained && self.freeze).then(|| FROZEN.to_string()),
            loss_error,
            padding_row: self.padding_row(),
            shape_equation: format!(
                "input {} → weight[input] → output {}",
                py_shape(self.input.shape()),
                py_shape(&out_shape)
            ),
            module: self.module_call(),
            captions: self.captions(&picks),
            output,
            stale,
            trace,
            picks,
            issues,
        }
    }

    /// The loss on `output`, `dL/doutput`, the gradients and the backward trace.
    #[allow(clippy::type_complexity)]
    pub(super) fn backward(
        &self,
        output: &Tensor,
        picks: &[Pick],
    ) -> Result<(f32, Tensor, EmbeddingGrads, Trace, Vec<(Pick, bool)>), TorchError> {
        let (loss, upstream) = self.learning.loss_of(output)?;
        let m = self.module()?;
        let grads = m.backward(&self.input, &upstream)?;
        let trace = m.backward_trace(&self.input)?;
        let sent = picks.iter().filter(|p| Some(p.row) != m.padding_idx);
        let back_picks = match trace.summarised {
            true => Vec::new(),
            false => sent.zip(&trace.steps).map(|(p, s)| (p.clone(), s.accumulate)).collect(),
        };
        Ok((loss, upstream, grads, trace, back_picks))
    }

    /// `nn.Embedding(10, 3, padding_idx=1, sparse=True)` or
    /// `nn.Embedding.from_pretrained(weight, freeze=True)`.
    pub(super) fn module_call(&self) -> String {
        let mut args = match self.from_pretrained {
            true => vec!["weight".to_string(), format!("freeze={}", py_bool(self.freeze))],
            false => vec![self.num_embeddings().to_string(), self.embedding_dim().to_string()],
        };
        args.extend(self.padding_idx.map(|p| format!("padding_idx={p}")));
        if self.sparse {
            args.push("sparse=True".into());
        }
        let call = if self.from_pretrained { "nn.Embedding.from_pretrained" } else { "nn.Embedding" };
        format!("{call}({})", args.join(", "))
    }

    pub(super) fn captions(&self, picks: &[Pick]) -> Vec<Say> {
        let (v, d) = (self.num_embeddings(), self.embedding_dim());
        let n = self.input.numel();
        let mut out = vec![
            say!("embedding-caption-lookup"),
            say!("embedding-caption-table", rows = v.to_string(), dim = d.to_string()),
            say!(
                "embedding-caption-output",
                ids_shape = py_shape(self.input.shape()),
                dim = d,
                shape = py_shape(&[self.input.shape(), &[d]].concat())
            ),
        ];
        // Each row's picks counted (not sorted: see `ops::distinct_rows`).
        let mut picked = vec![0usize; v];
        for p in picks {
            if let Some(n) = picked.get_mut(p.row) {
                *n += 1;
            }
        }
        let repeated: Vec<String> = (0..v).filter(|&r| picked[r] > 1).map(|r| r.to_string()).collect();
        match repeated.len() {
            0 => {}
            1 => out.push(say!("embedding-caption-repeated-one", id = &repeated[0])),
            _ => out.push(say!("embedding-caption-repeated", ids = repeated.join(", "))),
        }
        if let Ok(Some(p)) = self.module().map(|m| m.padding_idx) {
            let start = if self.from_pretrained { "pretrained" } else { "drawn" };
            out.push(say!("embedding-caption-padding", padding = p.to_string(), start = start));
        }
        if self.from_pretrained {
            out.push(match self.freeze {
                true => say!("embedding-caption-freeze"),
                false => say!("embedding-caption-no-freeze"),
            });
        }
        if self.sparse {
            out.push(say!("embedding-caption-sparse"));
        }
        if v > 10 * n {
            out.push(say!(
                "embedding-caption-big-table",
                rows = v.to_string(),
                dim = d.to_string(),
                numbers = v.saturating_mul(d),
                ids = n.to_string(),
                copied = n.saturating_mul(d)
            ));
        }
        out
    }
}

pub(super) fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}
