//! The Embedding scene: `nn.Embedding` is a lookup. Each id picks one row of the `(V, D)` table
//! `weight` and copies it to the output, so ids of shape `(*)` give an output `(*, D)`. Nothing
//! is multiplied and nothing is transposed, unlike a `Linear` without bias.
//!
//! The learner edits the table, the ids (1-D, or batch × sequence), the sizes, `padding_idx`,
//! `from_pretrained`/`freeze` and `sparse`, or re-draws the table with `torch.manual_seed`.

use super::contract::{Scene, View};
use super::learn::Learning;
use super::{check_seed, check_shape, label, parse_size, paste, resize, set_cell, set_float, Factor, Formula, Issue};
use crate::edit::{parse_float, parse_id, parse_int};
use crate::ops::embedding::{check_indices, Embedding, EmbeddingGrads, IdsDtype};
use crate::ops::loss::Loss;
use crate::ops::Named;
use crate::say::Say;
use crate::tensor::py_shape;
use crate::tensor::{unravel, Ids, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Phase, Trace};
use crate::TorchError;
use serde::{Deserialize, Serialize};

mod compute;
pub use compute::*;
mod contract;
mod state;

/// (id, label) of every preset; the first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("seed123_4x5", "torch.manual_seed(123); nn.Embedding(4, 5), ids [2, 3, 1]"),
    ("pretrained_5x4", "nn.Embedding.from_pretrained(5 × 4 table, row i = i), ids (2, 4)"),
    ("padding_10x3", "nn.Embedding(10, 3, padding_idx=1), ids (2, 4)"),
    ("big_1000x30", "torch.manual_seed(0); nn.Embedding(1000, 30), ids (2, 3)"),
];

/// Table sizes stay small enough to autosave and to draw.
pub const MAX_NUM_EMBEDDINGS: usize = 10_000;
pub const MAX_EMBEDDING_DIM: usize = 512;
pub const MAX_TABLE: usize = 100_000;
/// Ids per dimension, and in all.
pub const MAX_IDS: usize = 1024;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The preset this state started from.
    pub preset: String,
    /// The table, `(num_embeddings, embedding_dim)`.
    pub weight: Tensor,
    /// The ids, `(n,)` or `(batch, seq)`. May hold ids out of range: they are reported, not refused.
    pub input: Ids,
    /// The ids' dtype. The ids are whole numbers whatever it is; a float dtype is reported, as
    /// PyTorch raises on it. New in format 3: older saves read as `torch.long`.
    #[serde(default)]
    pub dtype: IdsDtype,
    /// As the learner wrote it: negative counts from the end; out of range is reported.
    pub padding_idx: Option<i64>,
    /// The table was handed over with `nn.Embedding.from_pretrained` rather than drawn by init.
    pub from_pretrained: bool,
    /// `from_pretrained(..., freeze=True)`: the table gets no gradient.
    pub freeze: bool,
    /// `sparse=True`: the gradient will hold only the looked-up rows.
    pub sparse: bool,
    /// The output of the last state PyTorch could run, shown while the current one raises.
    #[serde(default = "empty")]
    pub last_good: Tensor,
    /// The loss that starts backward, and the SGD steps taken on `weight`.
    #[serde(default)]
    pub learning: Learning,
    /// The `torch.manual_seed` the table was last drawn with (`None` for a table given by hand);
    /// the PyTorch panel uses it once it has checked that it still gives the table on show.
    #[serde(default)]
    pub seed: Option<String>,
}

fn empty() -> Tensor {
    Tensor::vector(Vec::new())
}

impl Default for State {
    fn default() -> Self {
        Self::preset(PRESETS[0].0).unwrap_or_else(|| Self::new("", empty(), Ids::vector(Vec::new())))
    }
}

/// One id's lookup: `input[at]` selects `weight[row]`, copied to `output[at]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub at: Vec<usize>,
    pub row: usize,
}

impl Pick {
    /// `output[1] ← weight[3]`
    pub fn arrow(&self) -> String {
        format!("{} ← weight[{}]", label("output", &self.at), self.row)
    }
    /// `input[1] = 3 selects weight[3], copied to output[1]`
    pub fn describe(&self) -> Say {
        let (input, output) = (label("input", &self.at), label("output", &self.at));
        crate::say!("embedding-step-pick", input = input, row = self.row.to_string(), output = output)
    }
}

/// Why a frozen table has no gradient; also why SGD refuses to step it. The backward timeline
/// says it as `embedding-caption-frozen`, the same English.
pub const FROZEN: &str = "from_pretrained(freeze=True) sets weight.requires_grad=False, so backward \
     computes no weight.grad and SGD has nothing to step.";

/// `AssertionError: ...` or `IndexError: ...` with a plain-words hint.
fn issue(tensor: &str, cell: Option<usize>, error: TorchError, hint: String) -> Issue {
    Issue { tensor: tensor.into(), cell, error, hint }
}

#[cfg(test)]
mod tests;
