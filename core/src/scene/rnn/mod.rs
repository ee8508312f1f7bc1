//! The RNN scene: what `nn.RNN` returns. Every cell computes
//! `h_t = act(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)`; `output` is the last layer's `h_t` at
//! every time step, `h_n` every layer's and direction's final state.
//!
//! The learner edits the input (typed, or `emb(ids)` from an `nn.Embedding`), every parameter by
//! its PyTorch name, an optional `h0`, the config (`input_size`, `hidden_size`, `num_layers`,
//! `bidirectional`, `batch_first`, `nonlinearity`, `bias`) and packing (`lengths`,
//! `enforce_sorted`, `padding_value`). A size change re-runs `torch.manual_seed(seed)` and the
//! constructors, so the parameters are always what PyTorch would build; inputs keep what fits.

use super::contract::{Scene, View};
use super::learn::Learning;
use super::{
    check_preset, check_seed, check_shape, label, parse_size, paste, resize, set_cell, set_float, Factor, Formula,
    Issue,
};
use crate::edit::{parse_float, parse_id, parse_int};
use crate::ops::embedding::Embedding;
use crate::ops::loss::Loss;
use crate::ops::rnn::{Cell, Nonlinearity, Packing, Rnn, RnnConfig};
use crate::ops::{find, Named};
use crate::tensor::py_shape;
use crate::tensor::{unravel, Ids, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Phase, Trace};
use crate::TorchError;
use serde::{Deserialize, Serialize};

mod compute;
pub use compute::*;
mod model;
mod state;
pub use state::*;
mod contract;
mod grads;
mod run;

/// (id, label) of every preset; the first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("rnn_2_5_batch_first", "nn.RNN(2, 5, batch_first=True) on a (3, 2, 2) batch"),
    ("rnn_2x3_bi_packed", "nn.RNN(2, 3, num_layers=2, bidirectional=True), packed lengths [2, 2, 1, 1]"),
    ("embedding_to_rnn", "nn.Embedding(10, 4) → nn.RNN(4, 3, batch_first=True), ids (2, 3)"),
    ("vanishing_long_tanh", "Vanishing gradient: nn.RNN(1, 2) (seed 5), tanh, 12 steps"),
    (
        "exploding_relu",
        "Exploding gradient: nn.RNN(1, 2, nonlinearity='relu'), weight_hh_l0 = [[1.5, 0.5], [0.5, 1.5]], 10 steps",
    ),
];

/// Limits that keep every cell of the unrolled diagram on screen.
pub const MAX_FEATURES: usize = 16;
pub const MAX_LAYERS: usize = 3;
pub const MAX_BATCH: usize = 8;
pub const MAX_SEQ_LEN: usize = 16;
pub const MAX_VOCAB: usize = 50;

/// The input of the `vanishing_long_tanh` preset (PyTorch's fixture rnn_tanh_long_sequence_vanishing).
#[allow(clippy::excessive_precision)]
const VANISHING_INPUT: [f32; 12] = [
    0.41921865940093994,
    -0.0798543244600296,
    0.9264108538627625,
    0.8156775236129761,
    0.49518901109695435,
    -0.16431698203086853,
    -0.6779621839523315,
    -1.0591074228286743,
    0.7476966381072998,
    0.23891741037368774,
    -0.39215022325515747,
    0.15191489458084106,
];

/// Where the RNN's input comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Source {
    /// Typed in: `(N, L, features)` when batch_first, else `(L, N, features)`.
    Tensor(Tensor),
    /// `emb(ids)`: ids `(N, L)` (batch_first) or `(L, N)` looked up in `emb.weight` `(V, D)`.
    Embedding { ids: Ids, weight: Tensor },
}

/// What `nn.RNN` is built from and called with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    pub config: RnnConfig,
    /// By PyTorch's names, in `named_parameters()` order.
    pub params: Named,
    pub source: Source,
    /// `(D·num_layers, N, H_out)`; `None` is PyTorch's zeros default.
    pub h0: Option<Tensor>,
    /// Whether the input goes through `pack_padded_sequence(input, lengths, ...)`.
    pub packed: bool,
    /// One length per sequence, kept even while unpacked.
    pub lengths: Ids,
    pub enforce_sorted: bool,
    /// What `pad_packed_sequence` writes past each sequence's length.
    #[serde(with = "crate::tensor::json_f32")]
    pub padding_value: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The preset this state started from.
    pub preset: String,
    /// Changed since the preset was picked.
    #[serde(default)]
    pub edited: bool,
    /// The `torch.manual_seed` the parameters were drawn with.
    pub seed: String,
    pub model: Model,
    /// The last model PyTorch could run, shown while the current one raises.
    #[serde(default)]
    pub last_good: Option<Model>,
    /// The loss that starts backward, and the SGD steps taken.
    #[serde(default)]
    pub learning: Learning,
    /// `h_n.sum()` is added to the loss, so gradient also enters at each sequence's last step.
    #[serde(default)]
    pub h_n_in_loss: bool,
}

impl Default for State {
    fn default() -> Self {
        Self::preset(PRESETS[0].0).expect("the default preset builds")
    }
}

/// One timeline step: an id's lookup (Embedding → RNN) or an RNN cell.
#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    Lookup { at: Vec<usize>, id: i64 },
    Cell(Cell),
}

/// One box of the unrolled diagram: cell `(layer, direction, t)` as sequence `b` sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct CellBox {
    pub t: usize,
    /// `h_t` of sequence `b` (empty when skipped).
    pub values: Vec<f32>,
    /// Sequence `b` has ended (packed): this cell does not run for it.
    pub skipped: bool,
    /// What flows in: `input[0, 1]` or `h_l0[1, 0]`, and `h_l0[0, 0]` or `h0[0, 0]`.
    pub x: String,
    pub prev: String,
    /// Sequence `b` starts here (reads `h0`) / ends here (its `h_t` is `h_n`).
    pub first: bool,
    pub last: bool,
}

/// One row of the unrolled diagram: a layer's direction, its cells by time.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub layer: usize,
    pub direction: usize,
    /// The state's name in the trace: `h_l0`, `h_l1_reverse`.
    pub name: String,
    /// Its row of `h0` and `h_n`: `layer·D + direction`.
    pub k: usize,
    pub cells: Vec<CellBox>,
}

/// Everything a successful call gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub rnn: Rnn,
    /// What the RNN reads (`emb(ids)` for an embedding source).
    pub input: Tensor,
    pub ids: Option<Ids>,
    pub h0: Option<Tensor>,
    pub output: Tensor,
    pub h_n: Tensor,
    /// `h_l0`, `h_l0_reverse`, `h_l1`, ...: `(T, N, H_out)` each, 0 where a sequence has ended.
    pub states: Named,
    /// Each sequence's length (all `T` unpacked).
    pub lengths: Vec<usize>,
    pub padding_value: Option<f32>,
    /// The forward trace: the lookups, then one step per RNN cell.
    pub trace: Trace,
    pub steps: Vec<StepKind>,
}

/// The ids of an embedding source and the trace of their lookups.
type Lookup = (Ids, Trace);

fn issue(tensor: &str, cell: Option<usize>, error: TorchError, hint: impl Into<String>) -> Issue {
    Issue { tensor: tensor.into(), cell, error, hint: hint.into() }
}

/// `h_l0`, `h_l1_reverse`: the op's trace names of a layer's states.
fn state_name(layer: usize, direction: usize) -> String {
    lane("h", layer, direction)
}

/// What belongs to one layer and direction, named as PyTorch names it: `weight_ih_l0`,
/// `bias_hh_l1_reverse`, `da_l0`.
fn lane(what: &str, layer: usize, direction: usize) -> String {
    format!("{what}_l{layer}{}", ["", "_reverse"][direction])
}

fn py_list<T: ToString>(xs: &[T]) -> String {
    format!("[{}]", xs.iter().map(T::to_string).collect::<Vec<_>>().join(", "))
}

/// How many sequences, and which: `(2, "2, 3")` (a caption says "sequences 2, 3").
fn sequences(bs: &[usize]) -> (usize, String) {
    let list: Vec<String> = bs.iter().map(usize::to_string).collect();
    (bs.len(), list.join(", "))
}

/// A 2-D or 3-D tensor with its first two dimensions swapped (batch_first ↔ seq-first).
fn swap01<T: Copy>(t: &Tensor<T>) -> Tensor<T> {
    let s = t.shape();
    if s.len() < 2 {
        return t.clone();
    }
    let (a, b, inner) = (s[0], s[1], s[2..].iter().product::<usize>());
    let data = (0..b).flat_map(|j| (0..a).flat_map(move |i| (0..inner).map(move |k| (i * b + j) * inner + k)));
    let data = data.map(|o| t.data()[o]).collect();
    let shape = [&[b, a], &s[2..]].concat();
    Tensor::new(shape, data).unwrap_or_else(|_| t.clone())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_backward;
