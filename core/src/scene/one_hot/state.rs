use super::*;

impl State {
    /// How an id cell is read: its hint names the rows of the table.
    fn id_parser(&self) -> impl Fn(&str) -> Result<i64, String> {
        let rows = self.table.shape().first().copied().unwrap_or(0);
        move |t| parse_id(t, rows)
    }

    /// The exact tensors of the seed material: `torch.manual_seed(s); nn.Embedding(V, D)` and
    /// the ids learners fed it.
    pub fn preset(id: &str) -> Option<State> {
        let (seed, v, d, ids) = match id {
            "seed123" => (123, 4, 5, Ids::vector(vec![2, 3, 1])),
            "vocab10_dim3_batch" => (11, 10, 3, Ids::new(vec![2, 3], vec![9, 0, 4, 4, 4, 1]).ok()?),
            _ => return None,
        };
        let table = Generator::manual_seed(seed).ok()?.embedding(v, d, None).ok()?;
        Some(State {
            preset: id.into(),
            seed: seed.to_string(),
            drawn: saved::Drawn::of(&table),
            table,
            good_ids: ids.clone(),
            ids,
            learning: Learning::default(),
        })
    }

    /// `(V, D)` of the table; `(0, 0)` for one that is not 2-D, which `compute` reports.
    pub fn sizes(&self) -> (usize, usize) {
        match self.table.shape() {
            &[v, d] => (v, d),
            _ => (0, 0),
        }
    }

    /// Types `text` into one cell of `emb.weight` or `input`; the other tensors are derived.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        match tensor {
            TABLE => set_float(&mut self.table, index, text).map(|()| self.learning.forget()),
            INPUT => {
                let parse = self.id_parser();
                set_cell(&mut self.ids, index, text, parse).map(|()| self.settle())
            }
            TARGET => self.learning.edit_target(index, text),
            other => Err(read_only(other)),
        }
    }

    /// Pastes a block with its top-left at cell `index`; all or nothing.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        match tensor {
            TABLE => crate::scene::paste(&mut self.table, index, text, parse_float).map(|()| self.learning.forget()),
            INPUT => {
                let parse = self.id_parser();
                crate::scene::paste(&mut self.ids, index, text, parse).map(|()| self.settle())
            }
            TARGET => match &mut self.learning.loss {
                Loss::Mse { target } => crate::scene::paste(target, index, text, parse_float),
                Loss::Sum => Err("the sum loss has no target".into()),
            },
            other => Err(read_only(other)),
        }
    }

    /// `torch.manual_seed(seed); nn.Embedding(V, D)`: a fresh table of the same size.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        let (v, d) = self.sizes();
        let drawn = Draw { seed: seed.into(), v, d }.run()?;
        self.land(self.ready_reinit(seed, drawn)?)
    }

    /// `reinit` with `drawn`, `torch.manual_seed(seed); nn.Embedding(V, D).weight` drawn
    /// elsewhere (the page's worker, at real scale), made ready as `ready_drawn` makes a resize.
    pub fn ready_reinit(&self, seed: &str, drawn: Tensor) -> Result<Landing, String> {
        let seed = Generator::parse_seed(seed).map_err(|e| e.to_string())?.to_string();
        self.check_same_sizes(&drawn)?;
        Ok(ready(seed, drawn.clone(), drawn, None))
    }

    /// Sets V, the number of rows of `emb.weight` (columns of `one_hot` and `linear.weight`).
    pub fn set_vocab(&mut self, text: &str) -> Result<(), String> {
        let v = parse_size(text, VOCAB_SIZES[VOCAB_SIZES.len() - 1])?;
        self.resize_table(v, self.sizes().1)
    }

    /// Sets D, the length of each embedding row (the Linear's `out_features`).
    pub fn set_dim(&mut self, text: &str) -> Result<(), String> {
        let d = parse_size(text, DIM_SIZES[DIM_SIZES.len() - 1])?;
        self.resize_table(self.sizes().0, d)
    }

    /// Sets the length of dimension `dim` of `input`; new ids are 0.
    pub fn resize_ids(&mut self, dim: usize, text: &str) -> Result<(), String> {
        let ids = resize(&self.ids, dim, parse_size(text, MAX_IDS)?, 0)?;
        if ids.numel() > MAX_IDS {
            return Err(format!("at most {MAX_IDS} ids"));
        }
        let (v, d) = self.sizes();
        check_sizes(v, d, ids.numel())?;
        self.ids = ids;
        self.settle();
        Ok(())
    }

    /// The V slider's stops that fit with `d` and the ids on show, with `v` among them: `(v, d)`
    /// the table's sizes, or those still being drawn.
    pub fn vocab_choices(&self, (v, d): (usize, usize)) -> Vec<usize> {
        choices(VOCAB_SIZES, v, |v| check_sizes(v, d, self.ids.numel()).is_ok())
    }

    /// The D slider's stops that fit with `v` and the ids on show, with `d` among them.
    pub fn dim_choices(&self, (v, d): (usize, usize)) -> Vec<usize> {
        choices(DIM_SIZES, d, |d| check_sizes(v, d, self.ids.numel()).is_ok())
    }

    /// The table at a new size: the overlap keeps its numbers, new cells get what
    /// `torch.manual_seed(seed); nn.Embedding(V, D)` has there.
    pub fn resize_table(&mut self, v: usize, d: usize) -> Result<(), String> {
        self.check_resize(v, d)?;
        let draw = Draw { seed: self.seed.clone(), v, d };
        self.resize_drawn(&draw.seed, draw.run()?)
    }

    /// Why the table can't be `(v, d)` with the ids on show, if it can't.
    pub fn check_resize(&self, v: usize, d: usize) -> Result<(), String> {
        check_sizes(v, d, self.ids.numel())
    }

    /// `resize_table` with `drawn`, `torch.manual_seed(seed); nn.Embedding(V, D).weight` drawn
    /// elsewhere (the page's worker, for a table too big to draw without a pause); refused
    /// if the seed has changed since.
    pub fn resize_drawn(&mut self, seed: &str, drawn: Tensor) -> Result<(), String> {
        let ready = self.ready_drawn(seed, drawn)?;
        self.land(ready)
    }

    /// `resize_drawn`'s copies, made from the table on show without changing it: a page makes
    /// them in one task and the table the scene's (`land`) in the next, so the task that
    /// computes and draws the new table does not also copy it (~10 ms at 50,000 × 64).
    pub fn ready_drawn(&self, seed: &str, drawn: Tensor) -> Result<Landing, String> {
        self.check_drawn(seed, &drawn)?;
        Ok(ready(seed.into(), self.over(&drawn), drawn, Some(self.table.clone())))
    }

    /// Makes a table made ready by `ready_drawn` or `ready_reinit` the scene's; one a resize
    /// went under and edited since keeps its edits.
    pub fn land(&mut self, ready: Landing) -> Result<(), String> {
        let Landing { seed, drawn, table, under } = ready;
        match &under {
            Some(_) => self.check_drawn(&seed, &drawn)?,
            None => self.check_same_sizes(&drawn)?,
        }
        // A table written since no longer shares its data with the one the draw went under:
        // only then is it copied over again (comparing numbers would read 12.8 MB here at
        // real scale).
        self.table = match under {
            Some(from) if !self.table.shares_data(&from) => self.over(&drawn),
            _ => table,
        };
        self.drawn = saved::Drawn::of(&drawn);
        self.seed = seed;
        self.learning.forget();
        self.settle();
        Ok(())
    }

    /// A new seed's table must be the size of the one it replaces.
    fn check_same_sizes(&self, drawn: &Tensor) -> Result<(), String> {
        let (v, d) = self.sizes();
        match drawn.shape() == [v, d] {
            true => Ok(()),
            false => Err(format!("{TABLE} is {} now, not {}", py_shape(&[v, d]), py_shape(drawn.shape()))),
        }
    }

    fn check_drawn(&self, seed: &str, drawn: &Tensor) -> Result<(), String> {
        let &[v, d] = drawn.shape() else { return Err(format!("{TABLE} must be 2-D")) };
        if seed != self.seed {
            return Err(format!("the seed is {} now, not {seed}", self.seed));
        }
        self.check_resize(v, d)
    }

    /// `drawn` with the table on show over it where they overlap.
    fn over(&self, drawn: &Tensor) -> Tensor {
        let mut table = drawn.clone();
        let (&[v, d], (v0, d0)) = (drawn.shape(), self.sizes()) else { return table };
        // Both slices taken once, not once a row: in the site's build `data_mut` is a call into
        // another part of the wasm, 50,000 of them at V = 50,000.
        let (to, from) = (table.data_mut(), self.table.data());
        for i in 0..v.min(v0) {
            to[i * d..][..d.min(d0)].copy_from_slice(&from[i * d0..][..d.min(d0)]);
        }
        table
    }

    /// Remembers `input` as the last good ids when both ways accept it, and keeps an mse
    /// target the outputs' shape (a fresh zero target when that shape changed).
    pub(super) fn settle(&mut self) {
        if in_range(&self.ids, self.sizes().0) {
            self.good_ids = self.ids.clone();
        }
        let shape = self.output_shape();
        if let Loss::Mse { target } = &self.learning.loss {
            if target.shape() != shape.as_slice() {
                let _ = self.learning.use_mse(true, &shape);
            }
        }
    }

    /// The shape of either output on show, `(*input.shape, D)`; while `input` has a bad id the
    /// outputs (and the mse target) are those of the last good ids.
    pub fn output_shape(&self) -> Vec<usize> {
        let ids = if in_range(&self.ids, self.sizes().0) { &self.ids } else { &self.good_ids };
        [ids.shape(), &[self.sizes().1]].concat()
    }

    /// Flat indices the last step changed in `emb.weight`, or in `linear.weight` (the same
    /// numbers, transposed).
    pub fn changed(&self, tensor: &str) -> Vec<usize> {
        let cells = self.learning.changed_in(TABLE);
        let (v, d) = self.sizes();
        match tensor {
            TABLE => cells,
            LINEAR_WEIGHT if d > 0 => cells.iter().map(|&i| (i % d) * v + i / d).collect(),
            _ => Vec::new(),
        }
    }

    /// Both ways on `input` (or on the last good ids while `input` has a bad one), never
    /// panicking, whatever a saved state holds.
    pub fn compute(&self) -> Computed {
        let (v, d) = self.sizes();
        let shape_equation = shape_equation(v, d, self.ids.shape());
        let ways = match self.ways() {
            Ok(ways) => ways,
            Err(issue) => {
                let issues = vec![issue];
                return Computed { ways: None, pass: None, backward: None, loss: None, issues, shape_equation };
            }
        };
        let mut issues = id_issues(&self.ids, v);
        let ids = if issues.is_empty() { &self.ids } else { &self.good_ids };
        let pass = match Pass::new(&ways, ids, !issues.is_empty()) {
            Ok(pass) => Some(pass),
            // The last good ids no longer fit a smaller table: the id issues already say why.
            Err(_) if !issues.is_empty() => None,
            Err(error) => {
                issues.push(Issue { tensor: INPUT.into(), cell: None, error, hint: String::new() });
                None
            }
        };
        let backward = match &pass {
            Some(p) => match Backward::new(&ways, p, &self.learning.loss) {
                Ok(b) => Some(b),
                Err(error) => {
                    issues.push(Issue { tensor: TARGET.into(), cell: None, error, hint: String::new() });
                    None
                }
            },
            None => None,
        };
        let loss = backward.as_ref().map(|b| b.loss);
        Computed { ways: Some(ways), pass, backward, loss, issues, shape_equation }
    }

    /// Both modules, after the checks a hand-edited saved state could fail.
    pub(super) fn ways(&self) -> Result<Ways, Issue> {
        let emb = self.emb()?;
        let linear = OneHotLinear::from_table(&self.table).map_err(|e| damaged(TABLE, e.message))?;
        Ok(Ways { emb, linear })
    }

    /// The lookup's module alone, after the same checks: a step needs no `linear.weight`.
    pub(super) fn emb(&self) -> Result<Embedding, Issue> {
        let (v, d) = self.sizes();
        if self.table.dim() != 2 || v == 0 || d == 0 {
            return Err(damaged(TABLE, "emb.weight must be a non-empty (V, D) table".into()));
        }
        for ids in [&self.ids, &self.good_ids] {
            if ids.numel() == 0 || ids.numel() > MAX_IDS {
                return Err(damaged(INPUT, format!("input must hold 1 to {MAX_IDS} ids")));
            }
            check_sizes(v, d, ids.numel()).map_err(|why| damaged(TABLE, why))?;
        }
        Embedding::new(self.table.clone(), None).map_err(|e| damaged(TABLE, e.message))
    }
}

fn damaged(tensor: &str, why: String) -> Issue {
    Issue {
        tensor: tensor.into(),
        cell: None,
        error: TorchError::value(why),
        hint: "This saved scene is damaged; pick a preset to start again.".into(),
    }
}

/// A table drawn elsewhere, made ready (`prepare`) in the task that receives it.
fn ready(seed: String, table: Tensor, drawn: Tensor, under: Option<Tensor>) -> Landing {
    prepare(&table);
    Landing { seed, drawn, table, under }
}

/// Makes a table's extent and `linear.weight` (its transpose) ahead, kept with its numbers and
/// shared by its clones: the task that then shows it, 12.8 MB at 50,000 × 64, finds both made.
pub fn prepare(table: &Tensor) {
    table.extent();
    // A 2-D table always has a transpose; it is only made here ahead of its use.
    let _ = table.t();
}
