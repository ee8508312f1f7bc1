//! The One-hot × Linear scene: is an embedding the same as a one-hot vector times a weight
//! matrix?
//!
//! Yes, exactly: `F.one_hot(input, V)` fed to `Linear(V, D, bias=False)` whose weight is
//! `emb.weight.T` gives `emb(input)` to the bit, because each output number is a sum with a single
//! nonzero product, `1·w`, and adding zeros changes nothing. But the Linear does ids×V×D
//! multiply-adds where the lookup copies ids×D numbers. The scene shows both ways side by side,
//! checks them with `torch.equal`, counts the work, and times both ways (the app holds the clock).
//! The numbers on show come from `OneHotLinear::picked` and `picked_grad`, the dense way's bits
//! without its products by zero (at 50,000 × 64 with 20 ids, 64 M multiply-adds each way); the
//! timing panel runs the dense way itself.
//!
//! One timeline plays both ways, id by id in row-major order: the lookup (`input[k]` picks
//! `emb.weight[id]`, copied to `emb(input)[k]`), then `F.one_hot` (`input[k]` → `one_hot[k]`), then
//! the Linear's D steps (`one_hot[k]` · `linear.weight[j]` → `linear(one_hot)[k, j]`), or one
//! step per row when the Linear summarises.

use super::contract::{Scene, View};
use super::learn::Learning;
use super::{
    check_seed, check_shape, label, parse_size, resize, set_cell, set_float, Factor, Formula, Issue, MAX_NUMEL,
};
use crate::edit::{parse_float, parse_id};
use crate::error::{Result as TorchResult, TorchError};
use crate::format::grouped;
use crate::ops::embedding::Embedding;
use crate::ops::loss::Loss;
use crate::ops::one_hot::{Cost, OneHot, OneHotLinear};
use crate::ops::Named;
use crate::tensor::py_shape;
use crate::tensor::{unravel, Ids, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Phase, Span, Step, Trace};
use serde::{Deserialize, Serialize};

mod forward;
mod runs;
mod saved;
pub use saved::draws_in;
mod state;
pub use forward::*;
pub use state::prepare;
mod backward;
pub use backward::*;
mod compute;
pub use compute::*;
mod timing;
pub use timing::*;
mod contract;

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
pub const DIM_SIZES: &[usize] = &[3, 5, 8, 16, 32, 64, 128, 256, 300];
/// At most this many ids (past 400 `input` is a heat map); fewer where their one_hot, ids × V
/// numbers, would pass `MAX_NUMEL`.
pub const MAX_IDS: usize = 1_024;
/// The one-hot way's multiply-adds per pass are capped so that a recompute stays interactive
/// even the dense way, which a table or a gradient holding an inf or a nan takes.
pub const MAX_WORK: usize = 1 << 26;

/// Saved and linked as `saved::Saved`: the table as its seed's draw and the cells set since.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "saved::Saved")]
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
    pub learning: Learning,
    /// `torch.manual_seed(seed); nn.Embedding(V, D)` as drawn, what a save writes the table against.
    drawn: saved::Drawn,
}

impl Default for State {
    fn default() -> Self {
        Self::preset(PRESETS[0].0).expect("the default preset is valid")
    }
}

/// `torch.manual_seed(seed); nn.Embedding(v, d).weight`.
fn draw(seed: i128, v: usize, d: usize) -> Result<Tensor, String> {
    Generator::manual_seed(seed).and_then(|mut g| g.embedding(v, d, None)).map_err(|e| e.to_string())
}

/// A table of more numbers than this is drawn in the page's worker. On the page, ~3 ms: a change
/// of size also computes and draws the scene anew in the same task, and all of it must stay well
/// under the 50 ms of a long task (50,000 × 5 drawn here made that task 55–110 ms).
pub const DRAW_ON_PAGE: usize = 1 << 16;

/// `torch.manual_seed(seed); nn.Embedding(v, d).weight`, asked of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draw {
    pub seed: String,
    pub v: usize,
    pub d: usize,
}

/// A table drawn elsewhere made ready to become the scene's (`State::ready_drawn`, `State::land`).
#[derive(Clone, Debug)]
pub struct Landing {
    seed: String,
    drawn: Tensor,
    /// The table to show: the draw with the table on show over it (a resize), or the draw
    /// itself (a new seed).
    table: Tensor,
    /// The table on show a resize's draw went under; `None` for a new seed's, which replaces it.
    under: Option<Tensor>,
}

impl Draw {
    /// The seed, or why the scene would not draw this: sizes past its limits, a seed torch refuses.
    pub fn check(&self) -> Result<i128, String> {
        check_sizes(self.v, self.d, 0)?;
        Generator::parse_seed(&self.seed).map_err(|e| e.to_string())
    }

    /// Whether the page draws this itself, or asks its worker (`DRAW_ON_PAGE`).
    pub fn on_page(&self) -> bool {
        self.v.saturating_mul(self.d) <= DRAW_ON_PAGE
    }

    /// The table, within the sizes the scene allows; one drawn elsewhere if `with_drawn` has it.
    pub fn run(&self) -> Result<Tensor, String> {
        let seed = self.check()?;
        let elsewhere = DRAWN_ELSEWHERE.with_borrow(|t| t.iter().find(|(d, _)| d == self).map(|(_, t)| t.clone()));
        elsewhere.map_or_else(|| draw(seed, self.v, self.d), Ok)
    }
}

thread_local! {
    /// The tables `with_drawn` hands in while its `f` runs.
    static DRAWN_ELSEWHERE: std::cell::RefCell<Vec<(Draw, Tensor)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with `tables`, draws made elsewhere (the page's worker), standing in for `Draw::run`
/// of the same draws: a save read at real scale then draws nothing on the page.
pub fn with_drawn<T>(tables: Vec<(Draw, Tensor)>, f: impl FnOnce() -> T) -> T {
    DRAWN_ELSEWHERE.set(tables);
    let out = f();
    DRAWN_ELSEWHERE.take();
    out
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

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_captions;
#[cfg(test)]
mod tests_saved;
#[cfg(test)]
mod tests_sizes;
#[cfg(test)]
mod tests_steps;
