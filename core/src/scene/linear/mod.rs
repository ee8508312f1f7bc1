//! The Linear scene: `nn.Linear(in_features, out_features, bias)` on one vector, a batch or a
//! 3-D batch. It answers "is the input a row or a column?": `weight` is stored
//! `(out_features, in_features)`, every row of `input` is one sample, and
//! `output = input @ weight.T + bias`; a 1-D input is a single row, which is why `weight @ x`
//! gives the same numbers for one vector, and leading dimensions `(*, in) → (*, out)` are carried
//! along untouched.

use super::contract::{Scene, View};
use super::learn::Learning;
use super::{check_seed, check_shape, label, paste, resize, set_float, Factor, Formula, Issue};
use crate::edit::{parse_float, parse_int};
use crate::ops::linear::{Linear, LinearGrads};
use crate::ops::loss::Loss;
use crate::ops::Named;
use crate::tensor::{numel, py_shape, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Marks, Phase, Span, Trace};
use crate::TorchError;
use serde::{Deserialize, Serialize};

mod compute;
mod state;
pub use compute::*;
mod contract;

/// Every size a learner sets (features, batch sizes) is at most this, so the cells stay readable
/// and a typo can't freeze the page.
pub const MAX_SIZE: usize = 64;

/// (id, label) of every preset; the first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("vector_6_to_10", "Linear(6, 10), one vector (6,)"),
    ("batch_6_to_10", "Linear(6, 10), a batch (2, 6)"),
    ("fixed_2_to_3_3d", "Linear(2, 3), chosen weights, 3-D input"),
];

/// One call on PyTorch's generator after `torch.manual_seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// `torch.randn(*shape)`
    Randn(&'static [usize]),
    /// `torch.rand(*shape)`
    Rand(&'static [usize]),
    /// `nn.Linear(in_features, out_features)` (with its bias)
    Linear(usize, usize),
}

/// How PyTorch made a preset: `torch.manual_seed(seed)`, then `draws` in order on that one
/// generator. The last tensor drawn is the input and the last `Linear` is the layer; earlier draws
/// only move the generator on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub seed: u32,
    pub draws: &'static [Draw],
}

/// `torch.manual_seed(0); x = torch.randn(6); linear = nn.Linear(6, 10)`.
const VECTOR: Recipe = Recipe { seed: 0, draws: &[Draw::Randn(&[6]), Draw::Linear(6, 10)] };

/// The vector preset's calls, then `x = torch.rand(2, 6); linear = nn.Linear(6, 10)` on the same
/// generator.
const BATCH: Recipe =
    Recipe { seed: 0, draws: &[Draw::Randn(&[6]), Draw::Linear(6, 10), Draw::Rand(&[2, 6]), Draw::Linear(6, 10)] };

/// The recipe that reproduces a seeded preset bit for bit (`None` for hand-picked numbers).
pub fn recipe(preset: &str) -> Option<Recipe> {
    match preset {
        "vector_6_to_10" => Some(VECTOR),
        "batch_6_to_10" => Some(BATCH),
        _ => None,
    }
}

/// A layer and what it is applied to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The preset the numbers came from.
    pub preset: String,
    /// `(out_features, in_features)`: row `i` holds the numbers that make output feature `i`.
    pub weight: Tensor,
    /// `(out_features)`; kept while `has_bias` is off, so turning it back on restores it.
    pub bias: Tensor,
    /// `nn.Linear(..., bias=True)`.
    pub has_bias: bool,
    /// `(in_features)`, `(N, in_features)` or `(B, N, in_features)`.
    pub input: Tensor,
    /// The loss that starts backward, and the SGD steps taken on `weight` and `bias`.
    #[serde(default)]
    pub learning: Learning,
    /// The `torch.manual_seed` of the last re-init (a seeded preset's is in its recipe); the
    /// PyTorch panel uses it once it has checked that it still gives the numbers on show.
    #[serde(default)]
    pub seed: Option<String>,
}

impl Default for State {
    fn default() -> Self {
        Self::preset(PRESETS[0].0).expect("the default preset is seeded by a valid recipe")
    }
}

impl Recipe {
    /// Replays the draws on a fresh generator.
    fn run(&self, preset: &str) -> Option<State> {
        let mut g = Generator::manual_seed(self.seed.into()).ok()?;
        let (mut input, mut layer) = (None, None);
        for draw in self.draws {
            match *draw {
                Draw::Randn(shape) => input = Some(g.randn(shape)),
                Draw::Rand(shape) => input = Some(g.rand(shape)),
                Draw::Linear(inf, outf) => layer = Some(g.linear(inf, outf, true)),
            }
        }
        let (weight, bias) = layer?;
        Some(State {
            preset: preset.into(),
            weight,
            bias: bias?,
            has_bias: true,
            input: input?,
            learning: Learning::default(),
            seed: None,
        })
    }
}

/// The hint for a damaged save whose parameters don't fit together.
const MISSHAPEN: &str =
    "a Linear layer needs weight (out_features, in_features) and bias (out_features,): pick a preset to start again";

fn issue(tensor: &str, cell: Option<usize>, error: TorchError, hint: &str) -> Issue {
    Issue { tensor: tensor.into(), cell, error, hint: hint.into() }
}

/// A 2-D tensor's transpose (a damaged weight of another rank has none to show).
fn transpose(t: &Tensor) -> Result<Tensor, String> {
    match t.dim() {
        2 => t.t().map_err(|e| e.to_string()),
        n => Err(format!("weight should be 2-D, got {n}-D")),
    }
}

/// `resize` with new cells 0.
fn resized(t: &Tensor, dim: usize, n: usize) -> Result<Tensor, String> {
    resize(t, dim, n, 0.0)
}

fn size(text: &str) -> Result<usize, String> {
    super::parse_size(text, MAX_SIZE)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_notes;
