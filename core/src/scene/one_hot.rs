//! The One-hot × Linear scene: is an embedding the same as a one-hot vector times a weight
//! matrix?
//!
//! Yes, exactly: `F.one_hot(input, V)` fed to `Linear(V, D, bias=False)` whose weight is
//! `emb.weight.T` gives `emb(input)` to the bit, because each output number is a sum with a single
//! nonzero product, `1·w`, and adding zeros changes nothing. But the Linear does ids×V×D
//! multiply-adds where the lookup copies ids×D numbers. The scene shows both ways side by side,
//! checks them with `torch.equal`, counts the work, and times both ways (the app holds the clock).
//!
//! One timeline plays both ways, id by id in row-major order: the lookup (`input[k]` picks
//! `emb.weight[id]`, copied to `emb(input)[k]`), then `F.one_hot` (`input[k]` → `one_hot[k]`), then
//! the Linear's D steps (`one_hot[k]` · `linear.weight[j]` → `linear(one_hot)[k, j]`), or one
//! step per row when the Linear summarises.

use super::contract::{Edit, Scene, View};
use super::learn::Learning;
use super::{
    check_preset, check_seed, check_shape, label, parse_size, resize, set_float, set_int, Factor, Formula, Issue,
    MAX_NUMEL,
};
use crate::edit::{parse_float, parse_int};
use crate::error::{Result as TorchResult, TorchError};
use crate::ops::embedding::Embedding;
use crate::ops::loss::Loss;
use crate::ops::one_hot::{count_zeros, one_hot, Cost, OneHotLinear};
use crate::ops::Named;
use crate::tensor::py_shape;
use crate::tensor::{unravel, Ids, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Marks, Phase, Span, Step, Trace};
use serde::{Deserialize, Serialize};

/// The names the grids and the trace use.
pub const TABLE: &str = "emb.weight";
pub const INPUT: &str = "input";
pub const ONE_HOT: &str = "one_hot";
pub const LINEAR_WEIGHT: &str = "linear.weight";
pub const LOOKUP: &str = "emb(input)";
pub const LINEAR: &str = "linear(one_hot)";
/// The gradients' names, as PyTorch's `.grad` of each.
pub const TABLE_GRAD: &str = "emb.weight.grad";
pub const LINEAR_WEIGHT_GRAD: &str = "linear.weight.grad";
pub const LOOKUP_GRAD: &str = "emb(input).grad";
pub const LINEAR_GRAD: &str = "linear(one_hot).grad";
/// The mse loss's target, the shape of either output.
pub const TARGET: &str = "target";

/// (id, label) of every preset; the first is the scene's default.
pub const PRESETS: &[(&str, &str)] = &[
    ("seed123", "Embedding(4, 5), seed 123, ids [2, 3, 1]"),
    ("vocab10_dim3_batch", "Embedding(10, 3), seed 11, ids (2, 3)"),
];

/// The stops of the V slider: from what fits as cells to a real vocabulary.
pub const VOCAB_SIZES: &[usize] = &[4, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000];
/// The stops of the D slider.
pub const DIM_SIZES: &[usize] = &[3, 5, 8, 16, 32, 64, 128, 256];
/// At most this many ids, so `input` stays a row of cells.
pub const MAX_IDS: usize = 64;
/// The one-hot way's multiply-adds per pass are capped so that a recompute stays interactive.
pub const MAX_WORK: usize = 1 << 26;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub preset: String,
    /// The `torch.manual_seed` the table was drawn with; new cells come from it when V or D grows.
    pub seed: String,
    /// `emb.weight` `(V, D)`; `linear.weight` is its transpose.
    pub table: Tensor,
    /// `input`: ids of any shape, as typed, possibly out of range.
    pub ids: Ids,
    /// The last `ids` both ways accepted: their outputs stay on show while `input` has a bad id.
    pub good_ids: Ids,
    /// The loss on the outputs and the SGD steps on `emb.weight` (the Linear's weight is its
    /// transpose, so it moves with it).
    #[serde(default)]
    pub learning: Learning,
}

impl Default for State {
    fn default() -> Self {
        Self::preset(PRESETS[0].0).expect("the default preset is valid")
    }
}

impl State {
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
            INPUT => set_int(&mut self.ids, index, text).map(|()| self.settle()),
            TARGET => self.learning.edit_target(index, text),
            other => Err(read_only(other)),
        }
    }

    /// Pastes a block with its top-left at cell `index`; all or nothing.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        match tensor {
            TABLE => super::paste(&mut self.table, index, text, parse_float).map(|()| self.learning.forget()),
            INPUT => super::paste(&mut self.ids, index, text, parse_int).map(|()| self.settle()),
            TARGET => match &mut self.learning.loss {
                Loss::Mse { target } => super::paste(target, index, text, parse_float),
                Loss::Sum => Err("the sum loss has no target".into()),
            },
            other => Err(read_only(other)),
        }
    }

    /// `torch.manual_seed(seed); nn.Embedding(V, D)`: a fresh table of the same size.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        let seed = Generator::parse_seed(seed).map_err(|e| e.to_string())?;
        let (v, d) = self.sizes();
        self.table = draw(seed, v, d)?;
        self.seed = seed.to_string();
        self.learning.forget();
        Ok(())
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

    /// The V slider's stops that fit with the current D and ids, with the current V among them.
    pub fn vocab_choices(&self) -> Vec<usize> {
        let (v, d) = self.sizes();
        choices(VOCAB_SIZES, v, |v| check_sizes(v, d, self.ids.numel()).is_ok())
    }

    /// The D slider's stops that fit with the current V and ids, with the current D among them.
    pub fn dim_choices(&self) -> Vec<usize> {
        let (v, d) = self.sizes();
        choices(DIM_SIZES, d, |d| check_sizes(v, d, self.ids.numel()).is_ok())
    }

    /// The table at a new size: the overlap keeps its numbers, new cells get what
    /// `torch.manual_seed(seed); nn.Embedding(V, D)` has there.
    fn resize_table(&mut self, v: usize, d: usize) -> Result<(), String> {
        check_sizes(v, d, self.ids.numel())?;
        let seed = Generator::parse_seed(&self.seed).map_err(|e| e.to_string())?;
        let mut table = draw(seed, v, d)?;
        let (v0, d0) = self.sizes();
        for i in 0..v.min(v0) {
            table.data_mut()[i * d..][..d.min(d0)].copy_from_slice(&self.table.data()[i * d0..][..d.min(d0)]);
        }
        self.table = table;
        self.learning.forget();
        self.settle();
        Ok(())
    }

    /// Remembers `input` as the last good ids when both ways accept it, and keeps an mse
    /// target the outputs' shape (a fresh zero target when that shape changed).
    fn settle(&mut self) {
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
                return Computed { ways: None, pass: None, backward: None, issues: vec![issue], shape_equation }
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
        Computed { ways: Some(ways), pass, backward, issues, shape_equation }
    }

    /// Both modules, after the checks a hand-edited saved state could fail.
    fn ways(&self) -> Result<Ways, Issue> {
        let (v, d) = self.sizes();
        let damaged = |tensor: &str, why: String| Issue {
            tensor: tensor.into(),
            cell: None,
            error: TorchError::value(why),
            hint: "This saved scene is damaged; pick a preset to start again.".into(),
        };
        if self.table.dim() != 2 || v == 0 || d == 0 {
            return Err(damaged(TABLE, "emb.weight must be a non-empty (V, D) table".into()));
        }
        for ids in [&self.ids, &self.good_ids] {
            if ids.numel() == 0 || ids.numel() > MAX_IDS {
                return Err(damaged(INPUT, format!("input must hold 1 to {MAX_IDS} ids")));
            }
            check_sizes(v, d, ids.numel()).map_err(|why| damaged(TABLE, why))?;
        }
        let emb = Embedding::new(self.table.clone(), None).map_err(|e| damaged(TABLE, e.message))?;
        let linear = OneHotLinear::from_table(&self.table).map_err(|e| damaged(TABLE, e.message))?;
        Ok(Ways { emb, linear })
    }
}

/// `torch.manual_seed(seed); nn.Embedding(v, d).weight`.
fn draw(seed: i128, v: usize, d: usize) -> Result<Tensor, String> {
    Generator::manual_seed(seed).and_then(|mut g| g.embedding(v, d, None)).map_err(|e| e.to_string())
}

fn in_range(ids: &Ids, v: usize) -> bool {
    ids.data().iter().all(|&id| (0..v as i64).contains(&id))
}

/// Why a `(v, d)` table with `n` ids is too big for the browser, if it is.
fn check_sizes(v: usize, d: usize, n: usize) -> Result<(), String> {
    let over = |a: usize, b: usize, max: usize| a.checked_mul(b).is_none_or(|x| x > max);
    if over(v, d, MAX_NUMEL) {
        Err(format!("emb.weight would hold {v} × {d} numbers; this lab holds at most {MAX_NUMEL}"))
    } else if over(n, v, MAX_NUMEL) {
        Err(format!("one_hot would hold {n} × {v} numbers; this lab holds at most {MAX_NUMEL}"))
    } else if over(n * v, d, MAX_WORK) {
        Err(format!("{n} ids × {v} × {d} is too many multiply-adds for one pass here (at most {MAX_WORK})"))
    } else {
        Ok(())
    }
}

/// The stops that `fits`, with `current` inserted in order.
fn choices(stops: &[usize], current: usize, fits: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut out: Vec<usize> = stops.iter().copied().filter(|&s| fits(s)).collect();
    if let Err(at) = out.binary_search(&current) {
        out.insert(at, current);
    }
    out
}

fn read_only(tensor: &str) -> String {
    match tensor {
        ONE_HOT => "one_hot is F.one_hot(input): change input instead".into(),
        LINEAR_WEIGHT => "linear.weight is emb.weight.T: change emb.weight instead".into(),
        LOOKUP | LINEAR => format!("{tensor} is computed: change emb.weight or input"),
        _ => format!("no tensor named {tensor} here"),
    }
}

/// `emb.weight (4, 5)[input (3,)] → (3, 5) = one_hot (3, 4) @ linear.weight.T (4, 5) → (3, 5)`.
fn shape_equation(v: usize, d: usize, ids: &[usize]) -> String {
    let with = |last: usize| py_shape(&[ids, &[last]].concat());
    format!(
        "{TABLE} {}[{INPUT} {}] → {}  =  {ONE_HOT} {} @ {LINEAR_WEIGHT}.T {} → {}",
        py_shape(&[v, d]),
        py_shape(ids),
        with(d),
        with(v),
        py_shape(&[v, d]),
        with(d)
    )
}

/// One issue per way for every id outside `[0, V)`, pinned on its cell with PyTorch's message
/// for that id.
fn id_issues(ids: &Ids, v: usize) -> Vec<Issue> {
    let last = v.saturating_sub(1);
    let mut issues = Vec::new();
    for (k, &id) in ids.data().iter().enumerate().filter(|(_, &id)| !(0..v as i64).contains(&id)) {
        issues.push(Issue {
            tensor: INPUT.into(),
            cell: Some(k),
            error: TorchError::index("index out of range in self"),
            hint: format!("{TABLE} has rows 0 … {last}, so id {id} selects nothing."),
        });
        let error = match id < 0 {
            true => TorchError::runtime("Class values must be non-negative."),
            false => TorchError::runtime("Class values must be smaller than num_classes."),
        };
        let hint = format!("F.one_hot(input, num_classes={v}) has columns 0 … {last}, none for id {id}.");
        issues.push(Issue { tensor: INPUT.into(), cell: Some(k), error, hint });
    }
    issues
}

/// The two modules over the same numbers: `nn.Embedding` with `emb.weight`, and the one-hot
/// Linear whose weight is its transpose.
#[derive(Clone, Debug, PartialEq)]
pub struct Ways {
    pub emb: Embedding,
    pub linear: OneHotLinear,
}

/// Both ways run on one set of ids.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    /// The ids these outputs come from: `input`, or its last good value while it has a bad id.
    pub ids: Ids,
    /// Set when `ids` is the last good value rather than `input`.
    pub stale: bool,
    /// `F.one_hot(ids, V)`, `(*, V)` of 0/1.
    pub one_hot: Ids,
    /// `emb(input)`, `(*, D)`.
    pub lookup: Tensor,
    /// `linear(one_hot)`, `(*, D)`.
    pub linear: Tensor,
    /// The single timeline of both ways (see the module doc).
    pub trace: Trace,
    pub cost: Cost,
    /// Where `torch.equal(emb(input), linear(one_hot))` fails first (flat index), if anywhere.
    pub mismatch: Option<usize>,
}

/// What a pass has done up to a playhead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Numbers the lookup copied.
    pub copies: usize,
    /// The one-hot Linear's multiply-adds, and how many of them multiplied by 0.
    pub multiply_adds: usize,
    pub zero_products: usize,
}

impl Pass {
    fn new(ways: &Ways, ids: &Ids, stale: bool) -> TorchResult<Pass> {
        let lookup = ways.emb.forward(ids)?;
        let linear = ways.linear.forward(ids)?;
        // `==` as torch.equal compares: nan never equals, -0.0 equals 0.0.
        let mismatch = lookup.data().iter().zip(linear.data()).position(|(a, b)| a != b);
        Ok(Pass {
            one_hot: one_hot(ids, ways.linear.num_classes() as i64)?,
            trace: timeline(ways, ids)?,
            cost: ways.linear.cost(ids),
            ids: ids.clone(),
            stale,
            lookup,
            linear,
            mismatch,
        })
    }

    fn vocab(&self) -> usize {
        self.one_hot.last_dim()
    }
    fn dim(&self) -> usize {
        self.lookup.last_dim()
    }

    /// The id at a full index of `ids`.
    fn id_at(&self, at: &[Option<usize>]) -> Option<i64> {
        let at: Option<Vec<usize>> = at.iter().copied().collect();
        self.ids.get(&at?)
    }

    /// The step the playhead is on (playhead `k`: steps `0..k` have run).
    fn current(&self, playhead: usize) -> Option<&Step> {
        self.trace.steps.get(playhead.checked_sub(1)?)
    }

    /// How many numbers of `tensor` a step's write covers.
    fn cells(&self, span: &Span) -> usize {
        let shape = if span.tensor == LOOKUP { self.lookup.shape() } else { self.linear.shape() };
        shape.get(span.index.len()..).map_or(0, |rest| rest.iter().product())
    }

    /// The work of steps `0..playhead`, counted as the cost counts it.
    pub fn work_at(&self, playhead: usize) -> Work {
        let (v, mut work) = (self.vocab(), Work::default());
        for span in self.trace.steps.iter().take(playhead).flat_map(|s| &s.writes) {
            let n = self.cells(span);
            match span.tensor.as_str() {
                LOOKUP => work.copies += n,
                LINEAR => {
                    work.multiply_adds += n * v;
                    work.zero_products += n * v.saturating_sub(1);
                }
                _ => {}
            }
        }
        work
    }

    /// Whether cell `index` of `one_hot` or `linear.weight` enters a product by zero in the
    /// current step: every column but the id's, whose product is the one that counts.
    pub fn zero_product(&self, playhead: usize, tensor: &str, index: &[usize]) -> bool {
        let Some(step) = self.current(playhead).filter(|s| s.writes.iter().any(|w| w.tensor == LINEAR)) else {
            return false;
        };
        let id = step.reads_from(ONE_HOT).find_map(|row| self.id_at(&row.index));
        let read = step.reads.iter().any(|s| s.contains(tensor, index));
        read && [ONE_HOT, LINEAR_WEIGHT].contains(&tensor) && index.last().map(|&c| c as i64) != id
    }

    /// The current step in plain words.
    pub fn describe(&self, playhead: usize) -> String {
        let Some(write) = self.current(playhead).and_then(|s| s.writes.first()) else {
            return format!(
                "Step through it: each id is looked up in {TABLE}, then one-hot encoded and multiplied \
                 through the Linear."
            );
        };
        let (v, d) = (self.vocab(), self.dim());
        let at: Vec<usize> = write.index.iter().map_while(|i| *i).collect();
        let id = self.id_at(&write.index[..write.index.len().min(self.ids.dim())]);
        match (write.tensor.as_str(), id) {
            (LOOKUP, Some(id)) => format!(
                "{} = {TABLE}[{id}]: {} = {id} picks row {id} and copies its {d} numbers. No arithmetic.",
                label(LOOKUP, &at),
                label(INPUT, &at)
            ),
            (LOOKUP, None) => format!("{LOOKUP}: every id copies its row of {TABLE}, {d} numbers each."),
            (ONE_HOT, Some(id)) => format!(
                "{} = F.one_hot({} = {id}): {v} numbers, a 1 in column {id} and 0 everywhere else.",
                label(ONE_HOT, &at),
                label(INPUT, &at)
            ),
            (ONE_HOT, None) => format!("{ONE_HOT} = F.one_hot(input, num_classes={v}): one row per id, one 1 each."),
            (LINEAR, Some(id)) if at.len() > self.ids.dim() => {
                let j = at[at.len() - 1];
                let w = self.linear.get(&at).unwrap_or(f32::NAN);
                format!(
                    "{} = {} · {}: {v} products, {} of them 0 × w = 0; the 1 in column {id} keeps \
                     {} = {}.",
                    label(LINEAR, &at),
                    label(ONE_HOT, &at[..at.len() - 1]),
                    label(LINEAR_WEIGHT, &[j]),
                    v - 1,
                    label(LINEAR_WEIGHT, &[j, id as usize]),
                    crate::format::short(w)
                )
            }
            (LINEAR, _) => format!(
                "{} = one_hot row @ {LINEAR_WEIGHT}.T: {} multiply-adds, {} of them by 0.",
                label(LINEAR, &at),
                grouped(v * d),
                grouped(v.saturating_sub(1) * d)
            ),
            _ => write.to_string(),
        }
    }

    /// `torch.equal(emb(input), linear(one_hot)) → True` and why, in plain words.
    pub fn verdict(&self) -> (String, String) {
        let answer = if self.mismatch.is_none() { "True" } else { "False" };
        let code = format!("torch.equal({LOOKUP}, {LINEAR}) → {answer}");
        let Some(i) = self.mismatch else {
            let signed_zero =
                self.lookup.data().iter().zip(self.linear.data()).any(|(a, b)| a.to_bits() != b.to_bits());
            let why = "Each number of linear(one_hot) is one 1 × w plus zeros, so it is w itself, to the last bit.";
            return match signed_zero {
                true => {
                    (code, format!("{why} Only the sign of a zero can differ: the sum 0 + (−0) is +0, and −0 == 0."))
                }
                false => (code, why.into()),
            };
        };
        let at = unravel(i, self.lookup.shape());
        let (a, b) = (self.lookup.data()[i], self.linear.data()[i]);
        let why = if a.is_nan() && b.is_nan() {
            format!("{} is nan both ways, and nan never equals nan.", label(LOOKUP, &at))
        } else if b.is_nan() {
            format!(
                "{} is nan: its sum multiplies an inf or nan of {LINEAR_WEIGHT}[{}] by 0, and 0 × inf = nan. \
                 The lookup never reads that number.",
                label(LINEAR, &at),
                at[at.len() - 1]
            )
        } else {
            format!(
                "{} = {} but {} = {}.",
                label(LOOKUP, &at),
                crate::format::short(a),
                label(LINEAR, &at),
                crate::format::short(b)
            )
        };
        (code, why)
    }

    /// The cost counter in words.
    pub fn cost_caption(&self) -> String {
        let c = self.cost;
        format!(
            "The lookup copies {} numbers. The one-hot way does {} multiply-adds, {} of them by 0: {}× the work \
             for the same result.",
            grouped(c.lookup_copies),
            grouped(c.one_hot_multiply_adds),
            grouped(c.zero_products),
            grouped(self.vocab())
        )
    }

    /// While `input` has a bad id: which ids the outputs on show come from.
    pub fn stale_note(&self) -> Option<String> {
        self.stale.then(|| {
            let ids: Vec<String> = self.ids.data().iter().map(|i| i.to_string()).collect();
            format!(
                "The outputs are still those of the last valid input [{}]; fix the marked id to update them.",
                ids.join(", ")
            )
        })
    }
}

/// One timeline for both ways, id by id: the lookup's step for `input[k]`, `F.one_hot`'s, then
/// the Linear's steps that write row k of `linear(one_hot)`.
fn timeline(ways: &Ways, ids: &Ids) -> TorchResult<Trace> {
    let lookup = ways.emb.forward_trace(ids)?.renamed(&[("weight", TABLE), ("output", LOOKUP)]);
    let linear = ways.linear.forward_trace(ids)?.renamed(&[("output", LINEAR)]);
    let summarised = lookup.summarised || linear.summarised;
    let mut rest = linear.steps.into_iter().peekable();
    let mut steps = Vec::new();
    for look in lookup.steps {
        let row = look.writes.first().map(|w| w.index.clone()).unwrap_or_default();
        steps.push(look);
        steps.push(Step::forward(vec![Span::new(INPUT, row.clone())], Span::new(ONE_HOT, row.clone())));
        while let Some(step) = rest.next_if(|s| s.writes.first().is_some_and(|w| w.index.starts_with(&row))) {
            steps.push(step);
        }
    }
    steps.extend(rest);
    Ok(Trace { steps, summarised })
}

/// The backward pass of both ways under one loss (the outputs are equal, so is its gradient).
#[derive(Clone, Debug, PartialEq)]
pub struct Backward {
    pub loss: f32,
    /// `dL/doutput`, the same for `emb(input)` and `linear(one_hot)`.
    pub upstream: Tensor,
    /// `emb.weight.grad` `(V, D)`: the upstream rows added into the looked-up rows.
    pub emb_grad: Tensor,
    /// `linear.weight.grad` `(D, V)`: dense, zero outside the used columns.
    pub linear_grad: Tensor,
    /// The ids the gradient comes from.
    pub ids: Ids,
    pub trace: Trace,
    /// Whether the loss is `mse` (for the words).
    pub mse: bool,
}

/// The gradients' bookkeeping: what each way writes and how much of its gradient is zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GradCounts {
    /// Entries of the dense `linear.weight.grad` computed (`D×V`), from ids×D×V multiply-adds.
    pub linear_written: usize,
    pub linear_multiply_adds: usize,
    pub linear_zeros: usize,
    /// Numbers the lookup adds into rows of `emb.weight.grad` (ids×D), and the rows touched.
    pub lookup_adds: usize,
    pub rows_touched: usize,
    pub emb_zeros: usize,
}

impl Backward {
    fn new(ways: &Ways, pass: &Pass, loss: &Loss) -> std::result::Result<Backward, TorchError> {
        let upstream = loss.backward(&pass.lookup)?;
        let value = loss.forward(&pass.lookup)?;
        let emb = ways.emb.backward(&pass.ids, &upstream)?;
        let emb_grad = emb.weight.ok_or_else(|| TorchError::runtime("emb.weight has no gradient"))?;
        let linear_grad = ways.linear.backward(&pass.ids, &upstream)?.weight;
        let mut trace = backward_timeline(ways, &pass.ids)?;
        if let (Loss::Mse { .. }, Some(first)) = (loss, trace.steps.first_mut()) {
            first.reads.push(Span::whole(TARGET));
        }
        Ok(Backward {
            loss: value,
            upstream,
            emb_grad,
            linear_grad,
            ids: pass.ids.clone(),
            trace,
            mse: matches!(loss, Loss::Mse { .. }),
        })
    }

    pub fn counts(&self) -> GradCounts {
        let (d, v) = match self.linear_grad.shape() {
            &[d, v] => (d, v),
            _ => (0, 0),
        };
        let mut rows: Vec<i64> = self.ids.data().to_vec();
        rows.sort_unstable();
        rows.dedup();
        GradCounts {
            linear_written: d * v,
            linear_multiply_adds: self.ids.numel() * d * v,
            linear_zeros: count_zeros(&self.linear_grad),
            lookup_adds: self.ids.numel() * d,
            rows_touched: rows.len(),
            emb_zeros: count_zeros(&self.emb_grad),
        }
    }

    /// The counts in words, one line per way.
    pub fn count_captions(&self) -> (String, String) {
        let c = self.counts();
        let (v, d) = match self.emb_grad.shape() {
            &[v, d] => (v, d),
            _ => (0, 0),
        };
        let linear = format!(
            "{LINEAR_WEIGHT_GRAD} is dense ({d}, {v}): all {} entries written ({} multiply-adds), {} of them 0, \
             the columns no id uses.",
            grouped(c.linear_written),
            grouped(c.linear_multiply_adds),
            grouped(c.linear_zeros)
        );
        let lookup = format!(
            "{TABLE_GRAD}: {} ids × {d} = {} numbers added into {} looked-up rows; the other {} entries stay 0, \
             never written.",
            grouped(self.ids.numel()),
            grouped(c.lookup_adds),
            grouped(c.rows_touched),
            grouped(c.emb_zeros)
        );
        (linear, lookup)
    }

    /// The loss in PyTorch's words with its value.
    pub fn loss_text(&self) -> String {
        let f = if self.mse { "F.mse_loss(output, target)" } else { "output.sum()" };
        format!("loss = {f} = {}", crate::format::short(self.loss))
    }

    fn current(&self, playhead: usize) -> Option<&Step> {
        self.trace.steps.get(playhead.checked_sub(1)?)
    }

    /// The id whose one-hot row a Linear backward step reads.
    fn id_of(&self, step: &Step) -> Option<i64> {
        let row = step.reads_from(ONE_HOT).next()?;
        let at: Option<Vec<usize>> = row.index.iter().copied().collect();
        self.ids.get(&at?)
    }

    /// Whether cell `index` of `linear.weight.grad` (or `one_hot`) gets a `g × 0` in the current
    /// step: every column but the id's.
    pub fn zero_product(&self, playhead: usize, tensor: &str, index: &[usize]) -> bool {
        let Some(step) = self.current(playhead).filter(|s| s.writes.iter().any(|w| w.tensor == LINEAR_WEIGHT_GRAD))
        else {
            return false;
        };
        let touched = step.reads.iter().chain(&step.writes).any(|s| s.contains(tensor, index));
        touched
            && [ONE_HOT, LINEAR_WEIGHT_GRAD].contains(&tensor)
            && index.last().map(|&c| c as i64) != self.id_of(step)
    }

    /// The current backward step in plain words.
    pub fn describe(&self, playhead: usize) -> String {
        let Some(step) = self.current(playhead) else {
            return format!(
                "Step through backward: the loss gives each output cell its gradient; the Linear writes \
                 all of {LINEAR_WEIGHT_GRAD}, the lookup adds into the looked-up rows of {TABLE_GRAD}."
            );
        };
        let Some(write) = step.writes.first() else { return String::new() };
        let (v, d) = match self.emb_grad.shape() {
            &[v, d] => (v, d),
            _ => (0, 0),
        };
        let at: Vec<usize> = write.index.iter().map_while(|i| *i).collect();
        match write.tensor.as_str() {
            LOOKUP_GRAD => match self.mse {
                false => format!("{}: d loss / d output = 1 for every cell of both outputs.", self.loss_text()),
                true => format!(
                    "{}: d loss / d output = 2·(output − target)/{} for every cell of both outputs.",
                    self.loss_text(),
                    self.upstream.numel()
                ),
            },
            LINEAR_WEIGHT_GRAD => {
                let Some(out) = step.reads_from(LINEAR_GRAD).next() else { return write.to_string() };
                let o: Vec<usize> = out.index.iter().map_while(|i| *i).collect();
                let id = self.id_of(step);
                match (at.as_slice(), id) {
                    (&[j], Some(id)) => format!(
                        "{} += {} · {}: all {v} numbers of the row written, {} of them g × 0 = 0; only \
                         {} gets {}.",
                        label(LINEAR_WEIGHT_GRAD, &[j]),
                        label(LINEAR_GRAD, &o),
                        label(ONE_HOT, &o[..o.len().saturating_sub(1)]),
                        v.saturating_sub(1),
                        label(LINEAR_WEIGHT_GRAD, &[j, id as usize]),
                        crate::format::short(self.upstream.get(&o).unwrap_or(f32::NAN))
                    ),
                    _ => format!(
                        "{LINEAR_WEIGHT_GRAD} += {}ᵀ · {}: all {} numbers written, one column of them nonzero.",
                        label(LINEAR_GRAD, &o),
                        label(ONE_HOT, &o),
                        grouped(v * d)
                    ),
                }
            }
            TABLE_GRAD => {
                let Some(out) = step.reads_from(LOOKUP_GRAD).next() else { return write.to_string() };
                let k: Vec<usize> = out.index.iter().map_while(|i| *i).collect();
                let id = at.first().copied().unwrap_or(0);
                let again = match step.accumulate {
                    true => format!(" Row {id} already holds an earlier id's gradient: this adds to it."),
                    false => String::new(),
                };
                format!(
                    "{} += {}: {} = {id}, so its {d} numbers are added into row {id} only; no other row \
                     is written.{again}",
                    label(TABLE_GRAD, &[id]),
                    label(LOOKUP_GRAD, &k),
                    label(INPUT, &k)
                )
            }
            _ => write.to_string(),
        }
    }
}

/// One backward timeline for both ways: the loss gives both outputs their gradient, then id by
/// id the Linear's steps that write `linear.weight.grad` from row k of `linear(one_hot).grad`
/// (each writing a whole row of the dense gradient), then the lookup's add of
/// `emb(input).grad[k]` into `emb.weight.grad[id]`. The Linear computes no `one_hot.grad`:
/// `one_hot` is made from integer ids and needs none.
fn backward_timeline(ways: &Ways, ids: &Ids) -> TorchResult<Trace> {
    let lookup = ways.emb.backward_trace(ids)?.renamed(&[("weight.grad", TABLE_GRAD), ("output.grad", LOOKUP_GRAD)]);
    let mut linear = ways.linear.backward_trace(ids)?.renamed(&[("output.grad", LINEAR_GRAD)]);
    for step in &mut linear.steps {
        step.reads.retain(|s| s.tensor != LINEAR_WEIGHT);
        step.writes.retain(|s| s.tensor != "one_hot.grad");
    }
    let outputs = [LOOKUP, LINEAR].map(Span::whole).to_vec();
    let mut steps = vec![Step::backward(outputs, Span::whole(LOOKUP_GRAD), false)];
    steps[0].writes.push(Span::whole(LINEAR_GRAD));
    for look in lookup.steps {
        let row = look.reads.first().map(|r| r.index.clone()).unwrap_or_default();
        let of_row = |s: &&Step| s.reads.first().is_some_and(|r| r.index.starts_with(&row));
        steps.extend(linear.steps.iter().filter(of_row).cloned());
        steps.push(look);
    }
    Ok(Trace { steps, summarised: lookup.summarised || linear.summarised })
}

/// Everything the view shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// `None` only for a damaged saved state (then `issues` says why).
    pub ways: Option<Ways>,
    /// `None` when there are no ids both ways accept.
    pub pass: Option<Pass>,
    /// The loss and both ways' gradients, `None` without a pass (or when the target no longer
    /// fits: `issues` says why).
    pub backward: Option<Backward>,
    /// Bad ids pinned to their `input` cell, PyTorch's message from each way.
    pub issues: Vec<Issue>,
    pub shape_equation: String,
}

impl Computed {
    /// The tensor the grid of this name shows.
    pub fn tensor(&self, name: &str) -> Option<&Tensor> {
        match name {
            TABLE => self.ways.as_ref().map(|w| &w.emb.weight),
            LINEAR_WEIGHT => self.ways.as_ref().map(|w| &w.linear.linear.weight),
            LOOKUP => self.pass.as_ref().map(|p| &p.lookup),
            LINEAR => self.pass.as_ref().map(|p| &p.linear),
            TABLE_GRAD => self.backward.as_ref().map(|b| &b.emb_grad),
            LINEAR_WEIGHT_GRAD => self.backward.as_ref().map(|b| &b.linear_grad),
            LOOKUP_GRAD | LINEAR_GRAD => self.backward.as_ref().map(|b| &b.upstream),
            _ => None,
        }
    }

    /// The computation of one output cell with its numbers: `linear(one_hot)[k, j]` is the sum
    /// over every column v of `one_hot[k, v]·linear.weight[j, v]` (all products, V−1 of them by
    /// 0); `emb(input)[k, j]` is the copy of `emb.weight[id, j]`.
    pub fn formula(&self, output: &str, index: &[usize]) -> Option<Formula> {
        let (ways, pass) = (self.ways.as_ref()?, self.pass.as_ref()?);
        let (&j, row) = index.split_last()?;
        let id = usize::try_from(pass.ids.get(row)?).ok()?;
        match output {
            LOOKUP => Some(Formula {
                target: label(LOOKUP, index),
                func: None,
                products: Vec::new(),
                constants: vec![Factor::new(label(TABLE, &[id, j]), ways.emb.weight.get(&[id, j])?)],
                value: pass.lookup.get(index)?,
            }),
            LINEAR => {
                let w = &ways.linear.linear.weight;
                let products = (0..pass.vocab())
                    .map(|v| {
                        let at = [row, &[v]].concat();
                        let x = Factor::new(label(ONE_HOT, &at), pass.one_hot.get(&at)? as f32);
                        Some((x, Factor::new(label(LINEAR_WEIGHT, &[j, v]), w.get(&[j, v])?)))
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(Formula {
                    target: label(LINEAR, index),
                    func: None,
                    products,
                    constants: Vec::new(),
                    value: pass.linear.get(index)?,
                })
            }
            _ => None,
        }
    }

    /// Times both ways on the ids on show: each runs repeatedly until `budget_ms` of `now` (the
    /// view's clock, in ms) has passed. The modules are built beforehand, as a model would hold
    /// them; the one-hot way's time includes `F.one_hot`, which it cannot do without. A quarter
    /// budget of each, unmeasured, comes first, so that neither pays for the browser's warm-up.
    pub fn time(&self, mut now: impl FnMut() -> f64, budget_ms: f64) -> Option<Timing> {
        let (ways, pass) = (self.ways.as_ref()?, self.pass.as_ref()?);
        let lookup = || ways.emb.forward(&pass.ids);
        let one_hot = || ways.linear.forward(&pass.ids);
        per_call(&mut now, budget_ms / 4.0, lookup);
        per_call(&mut now, budget_ms / 4.0, one_hot);
        let lookup = per_call(&mut now, budget_ms, lookup);
        let one_hot = per_call(&mut now, budget_ms, one_hot);
        Some(Timing { lookup_ms: lookup.0, lookup_calls: lookup.1, one_hot_ms: one_hot.0, one_hot_calls: one_hot.1 })
    }
}

/// Milliseconds per call of `work`, repeated until `budget_ms` has passed (or a stuck clock has
/// seen a million calls), and the number of calls.
fn per_call<T>(now: &mut impl FnMut() -> f64, budget_ms: f64, mut work: impl FnMut() -> T) -> (f64, u32) {
    let start = now();
    let mut calls = 0u32;
    loop {
        std::hint::black_box(work());
        calls += 1;
        let elapsed = now() - start;
        if elapsed >= budget_ms || calls >= 1_000_000 {
            return (elapsed / calls as f64, calls);
        }
    }
}

/// Both ways timed in the browser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub lookup_ms: f64,
    pub lookup_calls: u32,
    pub one_hot_ms: f64,
    pub one_hot_calls: u32,
}

impl Timing {
    /// How many times longer the one-hot way takes.
    pub fn ratio(&self) -> f64 {
        self.one_hot_ms / self.lookup_ms.max(f64::MIN_POSITIVE)
    }

    /// `Lookup 0.000412 ms per call, one-hot × Linear 21.3 ms per call: 51,699× the lookup's time.`
    pub fn caption(&self) -> String {
        let r = self.ratio();
        let ratio = if r >= 10.0 { grouped(r.round() as usize) } else { format!("{r:.1}") };
        format!(
            "Lookup {} ms per call, one-hot × Linear {} ms per call: {ratio}× the lookup's time.",
            significant(self.lookup_ms),
            significant(self.one_hot_ms),
        )
    }
}

/// A count with its thousands marked, as read aloud: `9,600,000`.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Three significant digits: `0.000412`, `21.3`, `1530`.
fn significant(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return format!("{x}");
    }
    let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

impl Scene for State {
    type View = Computed;
    const NAME: &'static str = "one_hot";
    const PRESETS: &'static [(&'static str, &'static str)] = PRESETS;

    fn preset(id: &str) -> Option<Self> {
        State::preset(id)
    }

    fn preset_id(&self) -> &str {
        &self.preset
    }

    fn change(&mut self, edit: &Edit) -> Result<(), String> {
        match edit {
            Edit::Cell { tensor, index, text } => self.edit(tensor, *index, text),
            Edit::Paste { tensor, index, text } => self.paste(tensor, *index, text),
            Edit::Field { field, text } => match field.as_str() {
                "V" => self.set_vocab(text),
                "D" => self.set_dim(text),
                other => match ids_dim(other) {
                    Some(dim) => self.resize_ids(dim, text),
                    None => Err(format!("the one-hot scene has no field {other}")),
                },
            },
            Edit::Reinit { seed } => self.reinit(seed),
            other => Err(format!("the one-hot scene does not take {other:?}")),
        }
    }

    fn compute(&self) -> Computed {
        State::compute(self)
    }

    fn learning(&self) -> &Learning {
        &self.learning
    }

    fn output_shape(&self) -> Vec<usize> {
        State::output_shape(self)
    }

    /// `emb.weight`'s gradient (`linear.weight` is its transpose and moves the same numbers).
    /// Refused while `input` has a bad id, since the gradient on show is then for other ids.
    fn grads(&self) -> Result<(f32, Named), String> {
        let c = self.compute();
        if c.issues.iter().any(|i| i.tensor == INPUT) {
            return Err("fix the marked ids first: the gradient is for the ids on show".into());
        }
        match (c.backward, c.issues.first()) {
            (Some(b), _) => Ok((b.loss, vec![(TABLE.to_string(), b.emb_grad)])),
            (None, Some(issue)) => Err(issue.error.to_string()),
            (None, None) => Err("no gradient to step with".into()),
        }
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        (&mut self.learning, vec![(TABLE, &mut self.table)])
    }
}

/// `input.shape[1]` → 1.
fn ids_dim(field: &str) -> Option<usize> {
    field.strip_prefix("input.shape[")?.strip_suffix(']')?.parse().ok()
}

impl View for Computed {
    fn issues(&self) -> &[Issue] {
        &self.issues
    }
    fn loss(&self) -> Option<f32> {
        self.backward.as_ref().map(|b| b.loss)
    }
    fn steps(&self, phase: Phase) -> usize {
        match phase {
            Phase::Forward => self.pass.as_ref().map_or(0, |p| p.trace.len()),
            Phase::Backward => self.backward.as_ref().map_or(0, |b| b.trace.len()),
        }
    }
    fn marks(&self, phase: Phase, playhead: usize) -> Marks {
        let marks = match phase {
            Phase::Forward => self.pass.as_ref().map(|p| p.trace.marks_at(playhead)),
            Phase::Backward => self.backward.as_ref().map(|b| b.trace.marks_at(playhead)),
        };
        marks.unwrap_or_default()
    }
    fn describe(&self, phase: Phase, playhead: usize) -> String {
        let text = match phase {
            Phase::Forward => self.pass.as_ref().map(|p| p.describe(playhead)),
            Phase::Backward => self.backward.as_ref().map(|b| b.describe(playhead)),
        };
        text.unwrap_or_default()
    }
    fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        Computed::formula(self, tensor, index)
    }
}

impl super::share::Shared for State {
    fn forget_history(&mut self) {
        self.learning.forget();
    }

    fn check(&self) -> Result<(), String> {
        check_preset(&self.preset, PRESETS)?;
        check_seed(&self.seed)?;
        let (max_v, max_d) = (VOCAB_SIZES[VOCAB_SIZES.len() - 1], DIM_SIZES[DIM_SIZES.len() - 1]);
        check_shape(TABLE, &self.table, 2..=2, max_v)?;
        let (v, d) = self.sizes();
        if d > max_d {
            return Err(format!("{TABLE} is {v} × {d}; this scene allows D up to {max_d}"));
        }
        for ids in [&self.ids, &self.good_ids] {
            check_shape(INPUT, ids, 0..=4, MAX_IDS)?;
            if ids.numel() > MAX_IDS {
                return Err(format!("it holds {} ids; this scene allows at most {MAX_IDS}", ids.numel()));
            }
        }
        check_sizes(v, d, self.ids.numel())?;
        self.learning.check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::contract::{Edit, Scene};
    use crate::scene::fixtures::{fixture, floats, ints, shape};
    use crate::trace::Mark;

    #[test]
    fn presets_reproduce_pytorch() {
        for (preset, file) in [
            ("seed123", "seed_one_hot_linear_equals_embedding"),
            ("vocab10_dim3_batch", "one_hot_linear_vocab_10_dim_3_batch"),
        ] {
            let f = fixture(file);
            let s = State::preset(preset).unwrap();
            // The seeded table is bit for bit PyTorch's, and the Linear's weight its transpose.
            assert_eq!(s.table.data(), floats(&f["embedding_equivalent"]["weight"]), "{preset}");
            assert_eq!(s.ids.data(), ints(&f["input"]));
            let c = s.compute();
            assert!(c.issues.is_empty());
            assert_eq!(c.tensor(LINEAR_WEIGHT).unwrap().data(), floats(&f["params"]["weight"]));
            let p = c.pass.as_ref().unwrap();
            assert_eq!(p.one_hot.shape(), shape(&f["one_hot"]));
            assert_eq!(p.one_hot.data(), ints(&f["one_hot"]));
            assert_eq!(p.linear.shape(), shape(&f["output"]));
            assert_eq!(p.linear.data(), floats(&f["output"]));
            assert_eq!(p.lookup.data(), floats(&f["output"]));
            assert_eq!(p.cost.lookup_copies as u64, f["cost"]["lookup_copies"].as_u64().unwrap());
            assert_eq!(p.cost.one_hot_multiply_adds as u64, f["cost"]["one_hot_multiply_adds"].as_u64().unwrap());
            assert_eq!(p.verdict().0, "torch.equal(emb(input), linear(one_hot)) → True");
            assert!(!p.stale);
        }
        assert_eq!(State::default(), State::preset("seed123").unwrap());
        assert!(State::preset("nope").is_none());
    }

    /// `(V, D)` → `(D, V)`.
    fn transposed(t: &Tensor) -> Tensor {
        crate::ops::one_hot::transpose(t).unwrap()
    }

    #[test]
    fn backward_matches_pytorch_both_ways() {
        for (preset, file) in [
            ("seed123", "seed_one_hot_linear_equals_embedding"),
            ("vocab10_dim3_batch", "one_hot_linear_vocab_10_dim_3_batch"),
        ] {
            let f = fixture(file);
            let s = State::preset(preset).unwrap();
            let c = s.compute();
            let (ways, pass) = (c.ways.as_ref().unwrap(), c.pass.as_ref().unwrap());
            // The fixtures' random upstream, as a loss would give it.
            let up = Tensor::new(shape(&f["upstream"]), floats(&f["upstream"])).unwrap();
            let emb = ways.emb.backward(&pass.ids, &up).unwrap().weight.unwrap();
            let lin = ways.linear.backward(&pass.ids, &up).unwrap().weight;
            let close = |a: &[f32], b: &[f32]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
            assert!(close(lin.data(), &floats(&f["grads"]["weight"])), "{preset}");
            assert!(close(emb.data(), &floats(&f["embedding_equivalent"]["grad_weight"])), "{preset}");
            let nonzero = lin.numel() - count_zeros(&lin);
            assert_eq!(nonzero as u64, f["cost"]["nonzero_grad_entries_linear"].as_u64().unwrap());

            // The sum loss: linear.weight.grad is emb.weight.grad transposed, nonzero in
            // unique ids × D entries.
            let b = c.backward.as_ref().unwrap();
            assert_eq!(b.linear_grad, transposed(&b.emb_grad), "{preset}");
            let mut unique = pass.ids.data().to_vec();
            unique.sort_unstable();
            unique.dedup();
            let d = s.sizes().1;
            let counts = b.counts();
            assert_eq!(counts.linear_written - counts.linear_zeros, unique.len() * d);
            assert_eq!(counts.rows_touched, unique.len());
            assert_eq!(counts.lookup_adds, pass.ids.numel() * d);
            assert_eq!(b.loss, pass.lookup.data().iter().map(|&x| x as f64).sum::<f64>() as f32);
        }
    }

    #[test]
    fn sum_loss_gives_ones_in_the_used_rows_and_counts() {
        let c = State::default().compute();
        let b = c.backward.as_ref().unwrap();
        // ids [2, 3, 1]: rows 1, 2, 3 all ones, row 0 zero; linear.weight.grad column 0 zero.
        assert_eq!(b.emb_grad.data()[..5], [0.0; 5]);
        assert!(b.emb_grad.data()[5..].iter().all(|&x| x == 1.0));
        assert!((0..5).all(|j| b.linear_grad.get(&[j, 0]) == Some(0.0)));
        assert_eq!(c.tensor(LINEAR_WEIGHT_GRAD).unwrap().shape(), [5, 4]);
        let (linear, lookup) = b.count_captions();
        assert!(linear.contains("dense (5, 4): all 20 entries written (60 multiply-adds), 5 of them 0"), "{linear}");
        assert!(lookup.contains("3 ids × 5 = 15 numbers added into 3 looked-up rows; the other 5 entries"), "{lookup}");
        // A repeated id adds: id 4 three times in the batch preset.
        let b = State::preset("vocab10_dim3_batch").unwrap().compute().backward.unwrap();
        assert_eq!(b.emb_grad.get(&[4, 0]), Some(3.0));
        assert_eq!(b.counts().emb_zeros, (10 - 4) * 3);
    }

    #[test]
    fn mse_loss_against_an_editable_target() {
        let mut s = State::default();
        s.apply(&Edit::Loss { mse: true }).unwrap();
        s.edit(TARGET, 0, "1").unwrap();
        let c = s.compute();
        let (p, b) = (c.pass.as_ref().unwrap(), c.backward.as_ref().unwrap());
        let n = p.lookup.numel() as f32;
        let want = 2.0 * (p.lookup.data()[0] - 1.0) / n;
        assert!((b.upstream.data()[0] - want).abs() < 1e-6);
        assert!((b.emb_grad.get(&[2, 0]).unwrap() - want).abs() < 1e-6);
        assert_eq!(b.linear_grad, transposed(&b.emb_grad));
        assert!(b.loss_text().starts_with("loss = F.mse_loss(output, target) = "));
        assert!(b.trace.steps[0].reads.iter().any(|r| r.tensor == TARGET));
        // More ids: the target follows the outputs' shape.
        s.resize_ids(0, "4").unwrap();
        assert!(s.compute().backward.is_some());
        assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [4, 5]));
        s.apply(&Edit::Loss { mse: false }).unwrap();
        assert!(s.edit(TARGET, 0, "1").is_err());
    }

    #[test]
    fn the_mse_target_fits_the_outputs_on_show_while_an_id_is_bad() {
        let mut s = State::default();
        s.apply(&Edit::Loss { mse: true }).unwrap();
        s.edit(INPUT, 0, "4").unwrap();
        s.resize_ids(0, "1").unwrap();
        // Both ways still show the last good ids (3,): the target keeps their shape.
        let c = s.compute();
        assert!(c.issues.iter().all(|i| i.tensor == INPUT), "{:?}", c.issues);
        assert_eq!(c.backward.unwrap().upstream.shape(), [3, 5]);
        s.apply(&Edit::Loss { mse: true }).unwrap();
        assert!(s.compute().backward.is_some());
        s.edit(INPUT, 0, "2").unwrap();
        assert_eq!(s.compute().backward.unwrap().upstream.shape(), [1, 5]);
    }

    #[test]
    fn sgd_moves_only_the_looked_up_rows_and_undoes() {
        let mut s = State::default();
        let before = s.table.clone();
        s.apply(&Edit::Lr { text: "0.5".into() }).unwrap();
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.learning.steps, 1);
        // Rows 1, 2, 3 (ids 2, 3, 1) move by −0.5 × 1; row 0 stays.
        assert_eq!(s.changed(TABLE), (5..20).collect::<Vec<_>>());
        assert_eq!(s.table.data()[..5], before.data()[..5]);
        assert_eq!(s.table.get(&[2, 1]), Some(before.get(&[2, 1]).unwrap() - 0.5));
        // linear.weight is the transpose: every column but 0 moved.
        let mut cols: Vec<usize> = (0..5).flat_map(|j| (1..4).map(move |v| j * 4 + v)).collect();
        cols.sort_unstable();
        let mut got = s.changed(LINEAR_WEIGHT);
        got.sort_unstable();
        assert_eq!(got, cols);
        s.apply(&Edit::Step).unwrap();
        s.undo().unwrap();
        assert_eq!(s.learning.steps, 1);
        s.reset().unwrap();
        assert_eq!(s.table, before);
        // The batch preset: id 4 three times moves row 4 by 3 × lr; rows 2, 3, 5 … 8 stay.
        let mut b = State::preset("vocab10_dim3_batch").unwrap();
        let old = b.table.clone();
        b.apply(&Edit::Step).unwrap();
        let rows: Vec<usize> = b.changed(TABLE).iter().map(|i| i / 3).collect();
        assert_eq!(rows, [0, 0, 0, 1, 1, 1, 4, 4, 4, 9, 9, 9]);
        assert!((b.table.get(&[4, 0]).unwrap() - (old.get(&[4, 0]).unwrap() - 0.3)).abs() < 1e-6);
        // An edit forgets the steps; a bad id refuses a step.
        b.edit(TABLE, 0, "1").unwrap();
        assert_eq!((b.learning.steps, b.changed(TABLE).len()), (0, 0));
        b.edit(INPUT, 0, "12").unwrap();
        assert!(b.apply(&Edit::Step).unwrap_err().contains("fix the marked ids"));
    }

    #[test]
    fn backward_timeline_goes_from_the_loss_to_each_gradient() {
        let c = State::default().compute();
        let b = c.backward.as_ref().unwrap();
        let t = &b.trace;
        assert_eq!(t.len(), 1 + 3 * (5 + 1));
        assert!(t.steps.iter().all(|s| s.phase == crate::trace::Phase::Backward));
        let w = |i: usize| t.steps[i].writes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
        assert_eq!(w(0), "emb(input).grad linear(one_hot).grad");
        assert_eq!(w(1), "linear.weight.grad[4]");
        assert_eq!(w(5), "linear.weight.grad[0]");
        assert_eq!(w(6), "emb.weight.grad[2]");
        assert_eq!(w(7), "linear.weight.grad[4]");
        let m = t.marks_at(2);
        assert_eq!(m.phase, Some(crate::trace::Phase::Backward));
        assert_eq!(m.of(LINEAR_GRAD, &[0, 4]), Some(Mark::Read));
        assert_eq!(m.of(ONE_HOT, &[0, 1]), Some(Mark::Read));
        assert_eq!(m.of(LINEAR_WEIGHT_GRAD, &[4, 3]), Some(Mark::Write));
        assert_eq!(m.of(LOOKUP_GRAD, &[1, 1]), Some(Mark::Done));
        assert!(b.zero_product(2, LINEAR_WEIGHT_GRAD, &[4, 3]));
        assert!(!b.zero_product(2, LINEAR_WEIGHT_GRAD, &[4, 2]), "id 2's column gets g");
        assert!(!b.zero_product(7, TABLE_GRAD, &[2, 0]));
        assert!(b.describe(0).starts_with("Step through backward"));
        assert_eq!(
            b.describe(1),
            "loss = output.sum() = -5.4086: d loss / d output = 1 for every cell of both outputs."
        );
        assert!(b.describe(2).starts_with("linear.weight.grad[4] += linear(one_hot).grad[0, 4] · one_hot[0]: all 4"));
        assert!(b.describe(2).ends_with("only linear.weight.grad[4, 2] gets 1.0000."), "{}", b.describe(2));
        assert!(b.describe(7).starts_with("emb.weight.grad[2] += emb(input).grad[0]: input[0] = 2"));
        // The batch preset: id 4 is input[1, 1] too (its second add, step 21): it accumulates.
        let b = State::preset("vocab10_dim3_batch").unwrap().compute().backward.unwrap();
        assert_eq!(b.trace.len(), 1 + 6 * (3 + 1));
        assert!(b.describe(21).contains("already holds an earlier id's gradient"));
    }

    #[test]
    fn shape_equation_names_both_ways() {
        let c = State::preset("vocab10_dim3_batch").unwrap().compute();
        assert_eq!(
            c.shape_equation,
            "emb.weight (10, 3)[input (2, 3)] → (2, 3, 3)  =  one_hot (2, 3, 10) @ linear.weight.T (10, 3) → (2, 3, 3)"
        );
        assert!(State::default().compute().shape_equation.contains("[input (3,)] → (3, 5)"));
    }

    #[test]
    fn edits_flow_through_both_ways() {
        let mut s = State::default();
        s.edit(TABLE, 2 * 5 + 1, "7.5").unwrap(); // emb.weight[2, 1]
        let c = s.compute();
        assert_eq!(c.tensor(LINEAR_WEIGHT).unwrap().get(&[1, 2]), Some(7.5));
        let p = c.pass.unwrap();
        assert_eq!(p.lookup.get(&[0, 1]), Some(7.5));
        assert_eq!(p.linear.get(&[0, 1]), Some(7.5));
        s.edit(INPUT, 0, "0").unwrap();
        assert_eq!(s.compute().pass.unwrap().one_hot.data()[..4], [1, 0, 0, 0]);
        let before = s.clone();
        assert_eq!(s.edit(TABLE, 0, "x"), Err("could not convert string to float: 'x'".into()));
        assert!(s.edit(ONE_HOT, 0, "1").unwrap_err().contains("change input"));
        assert!(s.edit(LINEAR_WEIGHT, 0, "1").unwrap_err().contains("change emb.weight"));
        assert!(s.edit(LINEAR, 0, "1").is_err());
        assert!(s.edit(INPUT, 0, "1.5").is_err());
        assert_eq!(s, before);
        s.paste(TABLE, 0, "[[1, 2], [3, 4]]").unwrap();
        assert_eq!(s.table.data()[5..7], [3.0, 4.0]);
        s.paste(INPUT, 1, "1\t1").unwrap();
        assert_eq!(s.ids.data(), [0, 1, 1]);
        assert!(s.paste(INPUT, 2, "1 1").is_err());
    }

    #[test]
    fn bad_ids_are_pinned_and_the_last_good_outputs_stay() {
        let mut s = State::default();
        let good = s.compute().pass.unwrap().linear;
        s.edit(INPUT, 1, "7").unwrap();
        s.edit(INPUT, 2, "-1").unwrap();
        let c = s.compute();
        let errors: Vec<(Option<usize>, String)> = c.issues.iter().map(|i| (i.cell, i.error.to_string())).collect();
        assert_eq!(
            errors,
            [
                (Some(1), "IndexError: index out of range in self".into()),
                (Some(1), "RuntimeError: Class values must be smaller than num_classes.".into()),
                (Some(2), "IndexError: index out of range in self".into()),
                (Some(2), "RuntimeError: Class values must be non-negative.".into()),
            ]
        );
        assert!(c.issues.iter().all(|i| i.tensor == INPUT));
        assert!(c.issues[0].hint.contains("rows 0 … 3"));
        let p = c.pass.unwrap();
        assert!(p.stale);
        assert_eq!(p.linear, good);
        assert_eq!(p.ids.data(), [2, 3, 1]);
        assert!(p.stale_note().unwrap().contains("[2, 3, 1]"));
        // Fixing the ids brings the outputs back up to date.
        s.edit(INPUT, 1, "0").unwrap();
        s.edit(INPUT, 2, "0").unwrap();
        let p = s.compute().pass.unwrap();
        assert!(!p.stale && p.stale_note().is_none());
        assert_eq!(p.ids.data(), [2, 0, 0]);
    }

    #[test]
    fn linked_resizes_keep_the_numbers_and_draw_new_ones_from_the_seed() {
        let mut s = State::default();
        let old = s.table.clone();
        s.set_vocab("10").unwrap();
        assert_eq!(s.table.shape(), [10, 5]);
        assert_eq!(s.table.data()[..20], old.data()[..]);
        let fresh = Generator::manual_seed(123).unwrap().embedding(10, 5, None).unwrap();
        assert_eq!(s.table.data()[20..], fresh.data()[20..]);
        let c = s.compute();
        let p = c.pass.as_ref().unwrap();
        assert_eq!((p.one_hot.shape(), p.linear.shape()), (&[3, 10][..], &[3, 5][..]));
        assert_eq!(c.tensor(LINEAR_WEIGHT).unwrap().shape(), [5, 10]);
        assert_eq!(p.cost.one_hot_multiply_adds, 3 * 10 * 5);

        s.set_dim("3").unwrap();
        assert_eq!(s.table.get(&[3, 2]), old.get(&[3, 2]));
        assert_eq!(s.compute().pass.unwrap().lookup.shape(), [3, 3]);

        s.resize_ids(0, "5").unwrap();
        assert_eq!(s.ids.data(), [2, 3, 1, 0, 0]);
        assert_eq!(s.compute().pass.unwrap().linear.shape(), [5, 3]);

        // Shrinking V below an id: PyTorch's errors on that id, and no outputs to keep.
        s.set_vocab("2").unwrap();
        let c = s.compute();
        assert_eq!(c.issues.iter().filter_map(|i| i.cell).collect::<Vec<_>>(), [0, 0, 1, 1]);
        assert!(c.pass.is_none());

        assert!(s.set_vocab("0").is_err());
        assert!(s.set_dim("257").is_err());
        assert!(s.resize_ids(0, "65").is_err());
        assert!(s.resize_ids(3, "2").is_err());
    }

    #[test]
    fn sizes_stay_within_what_the_browser_holds() {
        let mut s = State::default();
        s.set_vocab("50000").unwrap();
        assert!(s.set_dim("256").unwrap_err().contains("at most"));
        assert_eq!(s.table.shape(), [50_000, 5]);
        assert_eq!(*s.dim_choices().last().unwrap(), 64);
        assert_eq!(*s.vocab_choices().last().unwrap(), 50_000);
        let c = s.compute();
        let p = c.pass.unwrap();
        assert_eq!(p.cost.zero_products, 3 * 49_999 * 5);
        assert!(p.cost_caption().contains("does 750,000 multiply-adds, 749,985 of them by 0: 50,000× the work"));
        assert_eq!([grouped(0), grouped(999), grouped(1000), grouped(1_234_567)], ["0", "999", "1,000", "1,234,567"]);
        s.set_vocab("16").unwrap();
        assert_eq!(s.vocab_choices()[..3], [4, 10, 16]);
    }

    #[test]
    fn reinit_draws_pytorchs_table() {
        let mut s = State::preset("vocab10_dim3_batch").unwrap();
        s.reinit("123").unwrap();
        let want = Generator::manual_seed(123).unwrap().embedding(10, 3, None).unwrap();
        assert_eq!(s.table, want);
        assert_eq!(s.seed, "123");
        assert_eq!(s.reinit("1.5"), Err("ValueError: invalid literal for int() with base 10: '1.5'".into()));
        assert_eq!(s.reinit("18446744073709551616"), Err("RuntimeError: Overflow when unpacking long".into()));
        assert_eq!(s.table, want);
    }

    #[test]
    fn one_timeline_plays_both_ways_id_by_id() {
        let c = State::default().compute();
        let p = c.pass.as_ref().unwrap();
        let t = &p.trace;
        assert_eq!(t.len(), 3 * (2 + 5));
        let w = |i: usize| t.steps[i].writes[0].to_string();
        assert_eq!(
            [w(0), w(1), w(2), w(6), w(7)],
            ["emb(input)[0]", "one_hot[0]", "linear(one_hot)[0, 0]", "linear(one_hot)[0, 4]", "emb(input)[1]"]
        );
        // The lookup of id 3 reads input[1] and row 3 of the table.
        let m = t.marks_at(8);
        assert_eq!(m.of(TABLE, &[3, 4]), Some(Mark::Read));
        assert_eq!(m.of(INPUT, &[1]), Some(Mark::Read));
        assert_eq!(m.of(LOOKUP, &[1, 0]), Some(Mark::Write));
        assert_eq!(m.of(LINEAR, &[0, 4]), Some(Mark::Done));
        assert_eq!(m.of(TABLE, &[2, 0]), None);
        // linear(one_hot)[1, 2] reads one_hot[1] and linear.weight[2].
        let m = t.marks_at(12);
        assert_eq!(m.of(ONE_HOT, &[1, 0]), Some(Mark::Read));
        assert_eq!(m.of(LINEAR_WEIGHT, &[2, 3]), Some(Mark::Read));
        assert_eq!(m.of(LINEAR, &[1, 2]), Some(Mark::Write));
        assert!(p
            .describe(12)
            .starts_with("linear(one_hot)[1, 2] = one_hot[1] · linear.weight[2]: 4 products, 3 of them"));
        assert!(p.describe(12).ends_with("linear.weight[2, 3] = -1.4096."));
        assert!(p.describe(8).starts_with("emb(input)[1] = emb.weight[3]: input[1] = 3 picks row 3"));
        assert!(p.describe(9).contains("a 1 in column 3"));
        assert!(p.describe(0).starts_with("Step through it"));

        let b = State::preset("vocab10_dim3_batch").unwrap().compute();
        let t = &b.pass.as_ref().unwrap().trace;
        assert_eq!(t.len(), 6 * (2 + 3));
        assert_eq!(t.steps[5].writes[0].to_string(), "emb(input)[0, 1]");
        assert_eq!(t.steps[29].writes[0].to_string(), "linear(one_hot)[1, 2, 2]");
    }

    #[test]
    fn zero_products_are_dimmed_and_counted() {
        let p = State::default().compute().pass.unwrap();
        // Step 12 is linear(one_hot)[1, 2]: id 3, so column 3 is the one product that counts.
        assert!(p.zero_product(12, LINEAR_WEIGHT, &[2, 0]));
        assert!(p.zero_product(12, ONE_HOT, &[1, 1]));
        assert!(!p.zero_product(12, LINEAR_WEIGHT, &[2, 3]));
        assert!(!p.zero_product(12, ONE_HOT, &[1, 3]));
        assert!(!p.zero_product(12, LINEAR_WEIGHT, &[1, 0]), "not read in this step");
        assert!(!p.zero_product(8, TABLE, &[3, 0]), "a lookup multiplies nothing");
        assert_eq!(p.work_at(0), Work::default());
        assert_eq!(p.work_at(12), Work { copies: 10, multiply_adds: 4 * 8, zero_products: 3 * 8 });
        let all = p.work_at(p.trace.len());
        assert_eq!(
            (all.copies, all.multiply_adds, all.zero_products),
            (p.cost.lookup_copies, p.cost.one_hot_multiply_adds, p.cost.zero_products)
        );
        assert!(p.cost_caption().contains("60 multiply-adds, 45 of them by 0: 4×"));
    }

    #[test]
    fn large_linears_play_one_step_per_row() {
        let mut s = State::default();
        s.set_dim("256").unwrap();
        s.resize_ids(0, "20").unwrap(); // 20 × 256 output cells > MAX_STEPS
        let p = s.compute().pass.unwrap();
        assert!(p.trace.summarised);
        assert_eq!(p.trace.len(), 20 * 3);
        assert_eq!(p.trace.steps[2].writes[0].to_string(), "linear(one_hot)[0]");
        assert_eq!(p.work_at(3), Work { copies: 256, multiply_adds: 4 * 256, zero_products: 3 * 256 });
        assert!(p.describe(3).contains("1,024 multiply-adds, 768 of them by 0"));
        assert!(p.zero_product(3, LINEAR_WEIGHT, &[100, 1]));
        assert!(!p.zero_product(3, LINEAR_WEIGHT, &[100, 2]));
        // Backward too: one Linear step per row of linear(one_hot).grad, each writing all of
        // linear.weight.grad.
        let b = s.compute().backward.unwrap();
        assert_eq!(b.trace.len(), 1 + 20 * 2);
        assert_eq!(b.trace.steps[1].writes[0].to_string(), "linear.weight.grad");
        assert!(b.describe(2).contains("all 1,024 numbers written"), "{}", b.describe(2));
    }

    #[test]
    fn formulas_show_every_product_and_the_copy() {
        let c = State::default().compute();
        let f = c.formula(LINEAR, &[0, 1]).unwrap();
        assert_eq!(f.target, "linear(one_hot)[0, 1]");
        assert_eq!(f.products.len(), 4);
        assert_eq!(f.products[2].0, Factor::new("one_hot[0, 2]", 1.0));
        assert_eq!(f.products[2].1.name, "linear.weight[1, 2]");
        assert_eq!(f.products.iter().filter(|(x, _)| x.value == 0.0).count(), 3);
        assert_eq!(crate::format::short(f.value), "-1.8061");
        let g = c.formula(LOOKUP, &[0, 1]).unwrap();
        assert_eq!(g.constants, [Factor::new("emb.weight[2, 1]", f.value)]);
        assert!(g.products.is_empty());
        assert!(c.formula(LOOKUP, &[3, 0]).is_none());
        assert!(c.formula(ONE_HOT, &[0, 0]).is_none());
        let b = State::preset("vocab10_dim3_batch").unwrap().compute();
        assert_eq!(b.formula(LINEAR, &[1, 2, 0]).unwrap().products[1].0.value, 1.0);
    }

    #[test]
    fn torch_equal_fails_where_zero_meets_inf_or_nan() {
        let mut s = State::default();
        s.edit(TABLE, 0, "inf").unwrap(); // emb.weight[0, 0], a row no id selects
        let p = s.compute().pass.unwrap();
        assert_eq!(p.mismatch, Some(0));
        let (code, why) = p.verdict();
        assert!(code.ends_with("False"));
        assert!(why.starts_with("linear(one_hot)[0, 0] is nan") && why.contains("0 × inf = nan"));
        s.edit(TABLE, 0, "0").unwrap();
        s.edit(TABLE, 10, "nan").unwrap(); // emb.weight[2, 0], looked up by input[0]
        let (_, why) = s.compute().pass.unwrap().verdict();
        assert!(why.contains("nan never equals nan"));
        s.edit(TABLE, 10, "-0").unwrap();
        let (code, why) = s.compute().pass.unwrap().verdict();
        assert!(code.ends_with("True") && why.contains("−0 == 0"));
    }

    #[test]
    fn damaged_saved_states_are_reported_not_panicked_on() {
        // Tensors that read fine but can't be this scene's: a 1-D table, an empty one, no ids.
        for table in [Tensor::vector(vec![0.5; 20]), Tensor::zeros(vec![0, 5]).unwrap()] {
            let mut s = State { table, ..State::default() };
            let c = s.compute();
            assert!(c.ways.is_none() && c.pass.is_none());
            assert_eq!(c.issues[0].tensor, TABLE);
            assert!(c.issues[0].hint.contains("pick a preset"));
            // Every setter still answers without panicking.
            let _ = (s.set_dim("3"), s.set_vocab("4"), s.resize_ids(0, "2"), s.reinit("1"), s.edit(TABLE, 0, "1"));
            s.compute();
        }
        let s = State { ids: serde_json::from_str(r#"{"shape":[0],"data":[]}"#).unwrap(), ..State::default() };
        assert_eq!(s.compute().issues[0].tensor, INPUT);
        let many = State { ids: Ids::vector(vec![0; MAX_IDS + 1]), ..State::default() };
        assert_eq!(many.compute().issues[0].tensor, INPUT);
        let json = crate::scene::to_json(&State::default());
        assert_eq!(crate::scene::from_json::<State>(&json), Ok(State::default()));
    }

    /// A cell text or a size: small ids and sizes, some out of range, some not numbers at all.
    fn text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![(-3i64..60).prop_map(|n| n.to_string()), "[a-z.+-]{0,4}", Just("inf".to_string())]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Whatever a learner does, nothing panics, every view query answers, and a finite table
        /// gives torch.equal → True.
        #[test]
        fn any_edits_keep_the_scene_whole(ops in proptest::collection::vec((0u8..10, 0usize..70, text()), 0..12)) {
            let mut s = State::default();
            for (op, i, text) in ops {
                let _ = match op {
                    0 => s.edit(TABLE, i, &text),
                    1 => s.edit(INPUT, i % 8, &text),
                    2 => s.set_vocab(&text),
                    3 => s.set_dim(&text),
                    4 => s.resize_ids(i % 2, &text),
                    5 => s.paste(INPUT, i % 4, &text),
                    6 => s.apply(&Edit::Loss { mse: i % 2 == 0 }),
                    7 => s.edit(TARGET, i, &text),
                    8 => s.apply(&Edit::Step),
                    _ => s.undo(),
                };
            }
            let c = s.compute();
            let Some(p) = &c.pass else { return Ok(()) };
            for playhead in 0..=p.trace.len() + 1 {
                p.describe(playhead);
                p.work_at(playhead);
                p.zero_product(playhead, LINEAR_WEIGHT, &[0, 0]);
            }
            for index in (0..p.linear.numel()).map(|k| unravel(k, p.linear.shape())) {
                proptest::prop_assert!(c.formula(LINEAR, &index).is_some() && c.formula(LOOKUP, &index).is_some());
            }
            let finite = s.table.data().iter().all(|x| x.is_finite());
            proptest::prop_assert!(!finite || p.mismatch.is_none());
            proptest::prop_assert_eq!(p.work_at(p.trace.len()).multiply_adds, p.cost.one_hot_multiply_adds);
            if let Some(b) = &c.backward {
                for playhead in 0..=b.trace.len() + 1 {
                    b.describe(playhead);
                    b.zero_product(playhead, LINEAR_WEIGHT_GRAD, &[0, 0]);
                }
                b.count_captions();
                let same = crate::ops::one_hot::transpose(&b.emb_grad).unwrap() == b.linear_grad;
                proptest::prop_assert!(same || !b.upstream.data().iter().all(|x| x.is_finite()));
            }
        }
    }

    #[test]
    fn timing_repeats_until_the_budget_is_spent() {
        let c = State::default().compute();
        let mut clock = 0.0;
        let t = c
            .time(
                || {
                    clock += 0.5;
                    clock
                },
                20.0,
            )
            .unwrap();
        // Each call of the fake clock advances 0.5 ms: 40 calls fill 20 ms, after 10 to warm up.
        assert_eq!((t.lookup_calls, t.one_hot_calls), (40, 40));
        assert_eq!(t.lookup_ms, 0.5);
        assert_eq!(t.ratio(), 1.0);
        // A clock that never moves still ends.
        assert_eq!(per_call(&mut || 0.0, 20.0, || ()), (0.0, 1_000_000));
        let t = Timing { lookup_ms: 0.000412, lookup_calls: 1, one_hot_ms: 21.3, one_hot_calls: 1 };
        assert_eq!(
            t.caption(),
            "Lookup 0.000412 ms per call, one-hot × Linear 21.3 ms per call: 51,699× the lookup's time."
        );
        let t = Timing { lookup_ms: 0.004, lookup_calls: 1, one_hot_ms: 0.00213, one_hot_calls: 1 };
        assert!(t.caption().ends_with("0.00213 ms per call: 0.5× the lookup's time."));
    }
}
