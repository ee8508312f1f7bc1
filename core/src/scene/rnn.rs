//! The RNN scene: what `nn.RNN` returns. Every cell computes
//! `h_t = act(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)`; `output` is the last layer's `h_t` at
//! every time step, `h_n` every layer's and direction's final state.
//!
//! The learner edits the input (typed, or `emb(ids)` from an `nn.Embedding`), every parameter by
//! its PyTorch name, an optional `h0`, the config (`input_size`, `hidden_size`, `num_layers`,
//! `bidirectional`, `batch_first`, `nonlinearity`, `bias`) and packing (`lengths`,
//! `enforce_sorted`, `padding_value`). A size change re-runs `torch.manual_seed(seed)` and the
//! constructors, so the parameters are always what PyTorch would build; inputs keep what fits.

use super::contract::{Edit, Scene, View};
use super::learn::Learning;
use super::{
    check_preset, check_seed, check_shape, label, parse_size, paste, resize, set_float, set_int, Factor, Formula, Issue,
};
use crate::edit::{parse_float, parse_int};
use crate::ops::embedding::Embedding;
use crate::ops::loss::Loss;
use crate::ops::rnn::{Cell, Nonlinearity, Packing, Rnn, RnnConfig};
use crate::ops::{find, Named};
use crate::tensor::py_shape;
use crate::tensor::{unravel, Ids, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Marks, Phase, Trace};
use crate::TorchError;
use serde::{Deserialize, Serialize};

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

#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// The current model's run, or the last good one while `stale`; `None` if none ever ran.
    pub run: Option<Run>,
    pub stale: bool,
    pub issues: Vec<Issue>,
    /// `input (3, 2, 2) [(N, L, H_in)] → output (3, 2, 5) [(N, L, D·H_out)], h_n ...`
    pub shape_equation: String,
    /// `nn.RNN(2, 5, batch_first=True)`
    pub module: String,
    /// What every cell computes: `h_t = tanh(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)`.
    pub rule: String,
    pub output_caption: String,
    pub h_n_caption: String,
    /// What packing does here (empty when not packed).
    pub packing_caption: String,
    /// The backward pass of the loss (`None` while PyTorch raises, see `backward_issue`).
    pub backward: Option<Backward>,
    pub backward_issue: Option<String>,
}

/// Backprop through time of the loss on `output` and, when chosen, `h_n`.
#[derive(Clone, Debug, PartialEq)]
pub struct Backward {
    pub loss: f32,
    /// `dL/doutput`: ones for the sum loss, `2·(output − target)/numel` for mse.
    pub upstream: Tensor,
    /// `dL/dh_n`: ones when `h_n.sum()` is in the loss, zeros when it is not.
    pub upstream_h_n: Tensor,
    pub h_n_in_loss: bool,
    /// `.grad` by the tensor's name: every parameter, `input`, `emb.weight` (embedding source)
    /// and `h0` (when given).
    pub grads: Named,
    /// `dL/dh_t`: `(num_layers·D, T, N, H_out)`, 0 where a sequence has ended.
    pub hidden_grads: Tensor,
    /// `‖dL/dh_t‖` (over the batch and the units) per lane (`h_l0`, `h_l0_reverse`, ...) and step.
    pub norms: Vec<(String, Vec<f32>)>,
    /// The backward trace: the cells last to first, then the embedding's gradient rows.
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
    format!("h_l{layer}{}", ["", "_reverse"][direction])
}

fn py_list<T: ToString>(xs: &[T]) -> String {
    format!("[{}]", xs.iter().map(T::to_string).collect::<Vec<_>>().join(", "))
}

/// "sequence 2" / "sequences 2, 3"
fn sequences(bs: &[usize]) -> String {
    let list: Vec<String> = bs.iter().map(usize::to_string).collect();
    format!("sequence{} {}", if bs.len() == 1 { "" } else { "s" }, list.join(", "))
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

impl Model {
    /// Which dimension of the input (and ids) is the batch and which is time.
    fn dims(&self) -> (usize, usize) {
        if self.config.batch_first {
            (0, 1)
        } else {
            (1, 0)
        }
    }

    /// `(N, L)` or `(L, N)`: the input's leading shape.
    fn lead(&self) -> &[usize] {
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
    fn redraw(&mut self, seed: &str, emb: bool) -> Result<(), String> {
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
    fn reconfigure(&mut self, seed: &str, change: impl FnOnce(&mut RnnConfig)) -> Result<(), String> {
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

    fn set_features(&mut self, seed: &str, n: usize) -> Result<(), String> {
        self.resize_source(2, n)?;
        if let Source::Embedding { .. } = self.source {
            self.redraw(seed, true)?;
        }
        Ok(())
    }

    /// The batch size: new sequences are zeros with the full length.
    fn set_batch(&mut self, n: usize) -> Result<(), String> {
        let l = self.seq_len() as i64;
        self.resize_source(self.dims().0, n)?;
        self.lengths = resize(&self.lengths, 0, n, l)?;
        if let Some(h0) = &self.h0 {
            self.h0 = Some(resize(h0, 1, n, 0.0)?);
        }
        Ok(())
    }

    /// The number of time steps: lengths past it are cut to it.
    fn set_seq_len(&mut self, n: usize) -> Result<(), String> {
        self.resize_source(self.dims().1, n)?;
        self.lengths.data_mut().iter_mut().for_each(|l| *l = (*l).min(n as i64));
        Ok(())
    }

    fn set_batch_first(&mut self, on: bool) {
        if on != self.config.batch_first {
            self.config.batch_first = on;
            match &mut self.source {
                Source::Tensor(t) => *t = swap01(t),
                Source::Embedding { ids, .. } => *ids = swap01(ids),
            }
        }
    }

    fn float_mut(&mut self, name: &str) -> Option<&mut Tensor> {
        match (name, &mut self.source) {
            ("input", Source::Tensor(t)) => Some(t),
            ("emb.weight", Source::Embedding { weight, .. }) => Some(weight),
            ("h0", _) => self.h0.as_mut(),
            _ => self.params.iter_mut().find(|(n, _)| n == name).map(|(_, t)| t),
        }
    }

    fn ids_mut(&mut self, name: &str) -> Option<&mut Ids> {
        match (name, &mut self.source) {
            ("ids", Source::Embedding { ids, .. }) => Some(ids),
            ("lengths", _) => Some(&mut self.lengths),
            _ => None,
        }
    }

    /// Why a tensor can't be typed into.
    fn not_editable(&self, name: &str) -> String {
        match name {
            "input" => "input is emb(ids): edit ids or emb.weight instead".into(),
            "h0" => "h0 is not set: turn on h0 to give the first step a state".into(),
            _ => format!("{name} is computed, not typed"),
        }
    }

    fn packing(&self) -> Option<Packing> {
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
    fn blame(&self, e: TorchError) -> Issue {
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
    fn input(&self) -> Result<(Tensor, Option<Lookup>), Vec<Issue>> {
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

impl State {
    fn new(preset: &str, config: RnnConfig, source: Source, lengths: Vec<i64>) -> Option<Self> {
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
    fn change(&mut self, f: impl FnOnce(&mut Model, &str) -> Result<(), String>) -> Result<(), String> {
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
    /// `emb.weight`, `h0`, `lengths`).
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(|m, _| {
            if let Some(t) = m.float_mut(tensor) {
                return set_float(t, index, text);
            }
            if let Some(t) = m.ids_mut(tensor) {
                return set_int(t, index, text);
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
            if let Some(t) = m.ids_mut(tensor) {
                return paste(t, index, text, parse_int);
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
            backward,
            backward_issue,
        }
    }

    /// `.grad` of the current model's run: the loss, backward through time.
    fn backward(&self, run: &Run) -> Result<Backward, String> {
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
fn trainable(m: &mut Model) -> Vec<(&str, &mut Tensor)> {
    let mut v: Vec<(&str, &mut Tensor)> = m.params.iter_mut().map(|(n, t)| (n.as_str(), t)).collect();
    if let Source::Embedding { weight, .. } = &mut m.source {
        v.push(("emb.weight", weight));
    }
    v
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

    fn shapes(&self) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
        let c = &self.config;
        let (n, l, t) = (self.batch(), self.seq_len(), self.out_steps());
        let (dh, k) = (c.num_directions() * c.hidden_size, c.num_directions() * c.num_layers);
        let order = |a: usize, b: usize| if c.batch_first { [b, a] } else { [a, b] };
        let input = [&order(l, n)[..], &[self.features()]].concat();
        (input, [&order(t, n)[..], &[dh]].concat(), vec![k, n, c.hidden_size])
    }

    fn shape_equation(&self) -> String {
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
    fn module_call(&self) -> String {
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

    fn rule(&self) -> String {
        let c = &self.config;
        let act = match c.nonlinearity {
            Nonlinearity::Tanh => "tanh",
            Nonlinearity::Relu => "relu",
        };
        let (b_ih, b_hh) = if c.bias { (" + b_ih", " + b_hh") } else { ("", "") };
        format!("h_t = {act}(x_t W_ihᵀ{b_ih} + h_{{t-1}} W_hhᵀ{b_hh})")
    }

    fn output_caption(&self) -> String {
        let c = &self.config;
        let (_, shape, _) = self.shapes();
        let top = if c.num_layers > 1 { format!(" of the top layer (layer {})", c.num_layers - 1) } else { "".into() };
        let mut s = format!("output {}: h_t{top} at every time step, for every sequence.", py_shape(&shape));
        if c.bidirectional {
            let h = c.hidden_size;
            s += &format!(
                " Each step's {} numbers are [forward | reverse]: 0–{} from the forward pass, {}–{} from the reverse pass.",
                2 * h,
                h - 1,
                h,
                2 * h - 1
            );
        }
        if self.packed {
            s += &format!(" Past a sequence's own length it holds padding_value = {}.", self.padding_value);
        }
        s
    }

    fn h_n_caption(&self) -> String {
        let c = &self.config;
        let (_, _, shape) = self.shapes();
        let (dirs, k) = (c.num_directions(), c.num_directions() * c.num_layers);
        let last = if c.batch_first { "output[:, -1]" } else { "output[-1]" };
        let first = if c.batch_first { "output[:, 0]" } else { "output[0]" };
        let mut s = format!(
            "h_n {}: only the final state, one row per layer and direction ({} × {dirs} = {k}), for each \
             sequence; it has no time axis.",
            py_shape(&shape),
            c.num_layers
        );
        let ragged = self.packed && self.lengths.data().iter().any(|&l| (l as usize) < self.out_steps());
        let fwd = if ragged { "each sequence's own last step of output".to_string() } else { last.to_string() };
        s += &match dirs {
            1 => format!(" h_n[-1] equals {fwd}."),
            _ => format!(
                " h_n[-2] (forward) equals the first half of {fwd}; h_n[-1] (reverse) ends at t = 0, so it \
                 equals the second half of {first}."
            ),
        };
        if c.num_layers > 1 {
            s += &format!(" h_n[0] to h_n[{}] come from the lower layers, which output never shows.", k - dirs - 1);
        }
        s
    }

    fn packing_caption(&self) -> String {
        if !self.packed {
            return String::new();
        }
        let l = self.lengths.data();
        let short: Vec<String> = (0..l.len())
            .filter(|&b| l[b] > 0 && (l[b] as usize) < self.out_steps())
            .map(|b| format!("sequence {b} stops after t = {}", l[b] - 1))
            .collect();
        let mut s = format!(
            "Packed with lengths {}: each sequence runs only its own steps, and h_n holds each one's last step.",
            py_list(l)
        );
        if !short.is_empty() {
            s += &format!(" Here {}; its later cells are skipped.", short.join(", "));
        }
        s
    }
}

impl Run {
    fn dirs(&self) -> usize {
        self.rnn.config.num_directions()
    }
    fn hidden(&self) -> usize {
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
    fn prev(&self, d: usize, t: usize, b: usize) -> Option<usize> {
        [t.checked_sub(1), Some(t + 1).filter(|&s| s < self.lengths[b])][d]
    }
    /// Where direction `d` ends for sequence `b`: its `h_n`.
    fn end(&self, d: usize, b: usize) -> usize {
        [self.lengths[b].saturating_sub(1), 0][d]
    }
    fn state(&self, layer: usize, d: usize, t: usize, b: usize, i: usize) -> f32 {
        let k = layer * self.dirs() + d;
        self.states.get(k).and_then(|(_, s)| s.get(&[t, b, i])).unwrap_or(0.0)
    }
    fn param(&self, name: String) -> Option<&Tensor> {
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
                    prev: prev.map_or(label("h0", &[k, b]), |p| label(&name, &[p, b])),
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
            return Some(Formula { target, func: None, products: Vec::new(), constants, value });
        }
        let Some((layer, d, t, b, i)) = self.cell_of(tensor, index) else {
            let pad = self.padding_value.filter(|_| tensor == "output")?;
            let value = self.output.get(index)?;
            let constants = vec![Factor::new("padding_value", pad)];
            return Some(Formula { target, func: None, products: Vec::new(), constants, value });
        };
        let (dirs, h, sfx) = (self.dirs(), self.hidden(), ["", "_reverse"][d]);
        let k = layer * dirs + d;
        let x: Vec<Factor> = match layer {
            0 => {
                let [u0, u1] = self.at(t, b);
                let xs = self.x(t, b).into_iter().enumerate();
                xs.map(|(j, v)| Factor::new(label("input", &[u0, u1, j]), v)).collect()
            }
            _ => (0..dirs * h)
                .map(|j| {
                    let (dj, jj) = (j / h, j % h);
                    Factor::new(label(&state_name(layer - 1, dj), &[t, b, jj]), self.state(layer - 1, dj, t, b, jj))
                })
                .collect(),
        };
        let prev: Vec<Factor> = match self.prev(d, t, b) {
            Some(p) => (0..h)
                .map(|j| Factor::new(label(&state_name(layer, d), &[p, b, j]), self.state(layer, d, p, b, j)))
                .collect(),
            None => {
                let h0 = |j| self.h0.as_ref().and_then(|h0| h0.get(&[k, b, j])).unwrap_or(0.0);
                (0..h).map(|j| Factor::new(label("h0", &[k, b, j]), h0(j))).collect()
            }
        };
        let weights = |which: &str, with: Vec<Factor>| -> Option<Vec<(Factor, Factor)>> {
            let name = format!("weight_{which}_l{layer}{sfx}");
            let w = self.param(name.clone())?;
            let pairs = with.into_iter().enumerate();
            pairs.map(|(j, f)| Some((f, Factor::new(label(&name, &[i, j]), w.get(&[i, j])?)))).collect()
        };
        let products = [weights("ih", x)?, weights("hh", prev)?].concat();
        let constants = ["ih", "hh"]
            .iter()
            .filter_map(|which| {
                let name = format!("bias_{which}_l{layer}{sfx}");
                Some(Factor::new(label(&name, &[i]), self.param(name.clone())?.get(&[i])?))
            })
            .collect();
        let func = match self.rnn.config.nonlinearity {
            Nonlinearity::Tanh => "tanh",
            Nonlinearity::Relu => "relu",
        };
        let value = self.state(layer, d, t, b, i);
        Some(Formula { target, func: Some(func.into()), products, constants, value })
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
        let da = |layer: usize, d: usize, t: usize, j: usize| {
            let (k, h_t) = (layer * dirs + d, self.state(layer, d, t, b, j));
            let slope = match c.nonlinearity {
                Nonlinearity::Tanh => 1.0 - h_t * h_t,
                Nonlinearity::Relu => f32::from(u8::from(h_t > 0.0)),
            };
            let name = format!("da_l{layer}{}", ["", "_reverse"][d]);
            Factor::new(label(&name, &[t, b, j]), bw.hidden_grads.get(&[k, t, b, j]).unwrap_or(0.0) * slope)
        };
        let mut products = Vec::new();
        let mut constants = Vec::new();
        if layer + 1 == c.num_layers {
            let at = [&self.at(t, b)[..], &[d * h + i]].concat();
            constants.push(Factor::new(label("output.grad", &at), bw.upstream.get(&at)?));
        } else {
            for up in 0..dirs {
                let w_name = format!("weight_ih_l{}{}", layer + 1, ["", "_reverse"][up]);
                let w = self.param(w_name.clone())?;
                for j in 0..h {
                    let weight = Factor::new(label(&w_name, &[j, d * h + i]), w.get(&[j, d * h + i])?);
                    products.push((da(layer + 1, up, t, j), weight));
                }
            }
        }
        let next = [Some(t + 1).filter(|&n| n < self.lengths[b]), t.checked_sub(1)][d];
        match next {
            Some(n) => {
                let w_name = format!("weight_hh_l{layer}{}", ["", "_reverse"][d]);
                let w = self.param(w_name.clone())?;
                for j in 0..h {
                    products.push((da(layer, d, n, j), Factor::new(label(&w_name, &[j, i]), w.get(&[j, i])?)));
                }
            }
            None => constants.push(Factor::new(label("h_n.grad", &[k, b, i]), bw.upstream_h_n.get(&[k, b, i])?)),
        }
        let value = bw.hidden_grads.get(&[k, t, b, i])?;
        Some(Formula { target: label(&format!("{name}.grad"), &[t, b, i]), func: None, products, constants, value })
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

    /// The current backward step in plain words (`playhead` steps done).
    pub fn describe_backward(&self, b: &Backward, playhead: usize) -> String {
        let Some(step) = playhead.checked_sub(1).and_then(|i| b.steps.get(i)) else {
            let h_n = match b.h_n_in_loss {
                true => "h_n.grad = 1, entering each sequence's last cell",
                false => "h_n is not in the loss, so h_n.grad = 0",
            };
            return format!(
                "Step forward: the gradient starts at the loss (output.grad = dL/doutput; {h_n}) and flows back \
                 through every cell, the last one first."
            );
        };
        let cell = match step {
            StepKind::Lookup { at, id } => {
                return format!(
                    "{} = {id}: {} is added into row {id} of emb.weight.grad.",
                    label("ids", at),
                    label("input.grad", at)
                );
            }
            StepKind::Cell(cell) => *cell,
        };
        let (l, d, c) = (cell.layer, cell.direction, &self.rnn.config);
        let (name, sfx, dir) = (state_name(l, d), ["", "_reverse"][d], ["forward", "reverse"][d]);
        let Some(t) = cell.t else {
            return format!("layer {l}, {dir}: backward through every time step at once.");
        };
        let above =
            if l + 1 == c.num_layers { "output.grad".to_string() } else { format!("{name}.grad from layer {}", l + 1) };
        let next = [Some(t + 1).filter(|&n| n < self.steps_len()), t.checked_sub(1)][d];
        let later = match next {
            Some(n) => format!("what step {n} sent back"),
            None if b.h_n_in_loss => "h_n.grad (1, from h_n.sum() in the loss)".to_string(),
            None => "h_n.grad (0: h_n is not in the loss)".to_string(),
        };
        let act = match c.nonlinearity {
            Nonlinearity::Tanh => "(1 − h_t²)",
            Nonlinearity::Relu => "(h_t > 0)",
        };
        let below = if l == 0 { "input.grad".to_string() } else { format!("{}.grad", state_name(l - 1, 0)) };
        let bias =
            if c.bias { format!(", bias_ih_l{l}{sfx}.grad and bias_hh_l{l}{sfx}.grad += da") } else { String::new() };
        format!(
            "layer {l}, {dir}, t = {t} (backward): dL/dh_t = {above} + {later}; da = dL/dh_t · {act}. \
             weight_ih_l{l}{sfx}.grad += da·x_tᵀ, weight_hh_l{l}{sfx}.grad += da·h_(t−1)ᵀ{bias}; {below}[{t}] = da · \
             weight_ih_l{l}{sfx}, and da · weight_hh_l{l}{sfx} flows on to the previous step (h0.grad at the first)."
        )
    }

    /// The current step in plain words (`playhead` steps done).
    pub fn describe(&self, playhead: usize) -> String {
        let Some(step) = playhead.checked_sub(1).and_then(|i| self.steps.get(i)) else {
            return match &self.ids {
                Some(_) => "Step forward: first each id copies its row of emb.weight into input, then the RNN \
                            cells run."
                    .into(),
                None => "Step forward to run the first cell: layer 0, forward, t = 0.".into(),
            };
        };
        let cell = match step {
            StepKind::Lookup { at, id } => {
                return format!(
                    "{} = {id}: row {id} of emb.weight is copied to {}.",
                    label("ids", at),
                    label("input", at)
                );
            }
            StepKind::Cell(cell) => *cell,
        };
        let (l, d, dirs) = (cell.layer, cell.direction, self.dirs());
        let Some(t) = cell.t else {
            return format!("layer {l}, {}: every time step at once.", ["forward", "reverse"][d]);
        };
        let c = &self.rnn.config;
        let (name, k, sfx) = (state_name(l, d), l * dirs + d, ["", "_reverse"][d]);
        // `input` and `output` follow batch_first; the states are always (T, N, H_out).
        let at = |name: &str, t: usize| match c.batch_first && (name == "input" || name == "output") {
            true => format!("{name}[:, {t}]"),
            false => format!("{name}[{t}]"),
        };
        let x = match (l, dirs) {
            (0, _) => at("input", t),
            (_, 1) => at(&state_name(l - 1, 0), t),
            _ => format!("[{} | {}]", at(&state_name(l - 1, 0), t), at(&state_name(l - 1, 1), t)),
        };
        let (active, ended): (Vec<usize>, Vec<usize>) = (0..self.batch()).partition(|&b| t < self.lengths[b]);
        let (start, cont): (Vec<usize>, Vec<usize>) = active.iter().partition(|&&b| self.prev(d, t, b).is_none());
        let h0 = format!("h0[{k}]");
        let prev = match (cont.first().and_then(|&b| self.prev(d, t, b)), start.is_empty()) {
            (Some(p), true) => at(&name, p),
            (Some(p), false) => format!("{} ({h0} for {}, which start here)", at(&name, p), sequences(&start)),
            (None, _) => h0,
        };
        let bias = if c.bias { format!(" + bias_ih_l{l}{sfx} + bias_hh_l{l}{sfx}") } else { String::new() };
        let func = match c.nonlinearity {
            Nonlinearity::Tanh => "tanh",
            Nonlinearity::Relu => "relu",
        };
        let dir = ["forward", "reverse"][d];
        let mut s = format!(
            "layer {l}, {dir}, t = {t}: {name}[{t}] = {func}({x} · weight_ih_l{l}{sfx}ᵀ + {prev} · \
             weight_hh_l{l}{sfx}ᵀ{bias})"
        );
        let mut fills = Vec::new();
        if l + 1 == c.num_layers {
            let h = c.hidden_size;
            fills.push(format!("{} (features {}–{})", at("output", t), d * h, (d + 1) * h - 1));
        }
        let ending: Vec<usize> = active.iter().copied().filter(|&b| self.end(d, b) == t).collect();
        if ending.len() == self.batch() {
            fills.push(format!("h_n[{k}]"));
        } else if !ending.is_empty() {
            fills.push(format!("h_n[{k}] for {}", sequences(&ending)));
        }
        if !fills.is_empty() {
            s += &format!(". It fills {}", fills.join(" and "));
        }
        if !ended.is_empty() {
            s += &format!(". No step for {}: already ended", sequences(&ended));
        }
        s + "."
    }
}

impl Computed {
    /// The formula of a focused cell of `output`, `h_n` or a hidden state.
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        self.run.as_ref()?.formula(tensor, index)
    }

    /// The timeline step of cell `(layer, direction, t)` in a pass (`None` in a summarised trace).
    pub fn step_of(&self, phase: Phase, layer: usize, direction: usize, t: usize) -> Option<usize> {
        let want = StepKind::Cell(Cell { layer, direction, t: Some(t) });
        let steps = match phase {
            Phase::Forward => &self.run.as_ref()?.steps,
            Phase::Backward => &self.backward.as_ref()?.steps,
        };
        steps.iter().position(|s| *s == want)
    }

    pub fn backward_formula(&self, playhead: usize, b: usize) -> Option<Formula> {
        self.run.as_ref()?.backward_step_formula(self.backward.as_ref()?, playhead, b)
    }

    /// The backward step at `playhead`, in plain words.
    pub fn describe_backward(&self, playhead: usize) -> String {
        match (&self.run, &self.backward) {
            (Some(r), Some(b)) => r.describe_backward(b, playhead),
            _ => self.backward_issue.clone().unwrap_or_default(),
        }
    }

    /// The trace of a pass: forward, or backward from the loss.
    pub fn trace(&self, phase: Phase) -> Option<&Trace> {
        match phase {
            Phase::Forward => self.run.as_ref().map(|r| &r.trace),
            Phase::Backward => self.backward.as_ref().map(|b| &b.trace),
        }
    }

    /// `.grad` of a tensor (`weight_hh_l0`, `input`, `h0`, `emb.weight`).
    pub fn grad(&self, name: &str) -> Option<&Tensor> {
        find(&self.backward.as_ref()?.grads, name)
    }

    pub fn describe(&self, playhead: usize) -> String {
        self.run.as_ref().map_or_else(|| "Nothing has run yet: fix the marked field.".into(), |r| r.describe(playhead))
    }

    /// `(cell, message)` of the issues pinned to cells of `tensor`, for its grid.
    pub fn cell_issues(&self, tensor: &str) -> Vec<(usize, String)> {
        let of = self.issues.iter().filter(|i| i.tensor == tensor);
        of.filter_map(|i| Some((i.cell?, format!("{} {}", i.error, i.hint)))).collect()
    }

    /// Messages of the issues on `tensor` as a whole (no single cell to blame).
    pub fn notes(&self, tensor: &str) -> Vec<String> {
        let of = self.issues.iter().filter(|i| i.tensor == tensor && i.cell.is_none());
        of.map(|i| format!("{} {}", i.error, i.hint)).collect()
    }
}

impl Scene for State {
    type View = Computed;
    const NAME: &'static str = "rnn";
    const PRESETS: &'static [(&'static str, &'static str)] = PRESETS;

    fn preset(id: &str) -> Option<Self> {
        State::preset(id)
    }

    fn preset_id(&self) -> &str {
        &self.preset
    }

    fn change(&mut self, edit: &Edit) -> Result<(), String> {
        match edit {
            Edit::Cell { tensor, index, text } if tensor == "target" => self.learning.edit_target(*index, text),
            Edit::Cell { tensor, index, text } => self.edit(tensor, *index, text),
            Edit::Paste { tensor, index, text } => self.paste(tensor, *index, text),
            Edit::Field { field, text } => match field.as_str() {
                "nonlinearity" => self.set_nonlinearity(text),
                "padding_value" => self.set_padding_value(text),
                size => self.set_size(size, text),
            },
            Edit::Flag { flag, on } if flag == "h_n_in_loss" => {
                self.set_h_n_in_loss(*on);
                Ok(())
            }
            Edit::Flag { flag, on } => self.set_flag(flag, *on),
            Edit::Reinit { seed } => self.reinit(seed),
            other => Err(format!("the RNN scene does not take {other:?}")),
        }
    }

    fn compute(&self) -> Computed {
        State::compute(self)
    }

    fn learning(&self) -> &Learning {
        &self.learning
    }

    /// The mse target takes `output`'s shape; nothing has run while a field is bad.
    fn output_shape(&self) -> Vec<usize> {
        self.model.run().map(|run| run.output.shape().to_vec()).unwrap_or_default()
    }

    /// Every parameter's gradient (and `emb.weight`'s).
    fn grads(&self) -> Result<(f32, Named), String> {
        let run = self.model.run().map_err(|_| "fix the marked field first: nothing has run".to_string())?;
        let back = self.backward(&run)?;
        Ok((back.loss, back.grads))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        (&mut self.learning, trainable(&mut self.model))
    }

    /// The numbers are no longer a preset's or the seed's.
    fn step(&mut self) -> Result<(), String> {
        let (loss, grads) = self.grads()?;
        self.learning.step(&mut trainable(&mut self.model), &grads, loss)?;
        self.edited = true;
        Ok(())
    }
}

impl View for Computed {
    fn issues(&self) -> &[Issue] {
        &self.issues
    }
    fn loss(&self) -> Option<f32> {
        self.backward.as_ref().map(|b| b.loss)
    }
    fn steps(&self, phase: Phase) -> usize {
        self.trace(phase).map_or(0, Trace::len)
    }
    fn marks(&self, phase: Phase, playhead: usize) -> Marks {
        self.trace(phase).map(|t| t.marks_at(playhead)).unwrap_or_default()
    }
    fn describe(&self, phase: Phase, playhead: usize) -> String {
        match phase {
            Phase::Forward => Computed::describe(self, playhead),
            Phase::Backward => self.describe_backward(playhead),
        }
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
        self.model.check()?;
        self.last_good.as_ref().map_or(Ok(()), Model::check)?;
        self.learning.check()
    }
}

impl Model {
    /// Every size within the limits the scene's fields have, so that a decoded model draws its
    /// unrolled diagram on screen like one the learner built.
    fn check(&self) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::contract::{Edit, Scene};
    use crate::scene::fixtures::{fixture, floats};
    use crate::scene::{from_json, to_json};
    use crate::trace::Mark;
    use serde_json::Value;

    fn tensor(v: &Value) -> Tensor {
        serde_json::from_value(v.clone()).unwrap()
    }
    fn bits(t: &Tensor) -> Vec<u32> {
        t.data().iter().map(|x| x.to_bits()).collect()
    }
    fn close(what: &str, got: &Tensor, want: &Tensor) {
        assert_eq!(got.shape(), want.shape(), "{what} shape");
        for (a, b) in got.data().iter().zip(want.data()) {
            assert!((a - b).abs() <= 1e-5 + 1e-5 * b.abs(), "{what}: {a} vs {b}");
        }
    }

    /// The state's parameters are the fixture's bit for bit, and its run gives PyTorch's output
    /// and h_n.
    fn matches(s: &State, f: &Value) -> Run {
        for (name, t) in f["params"].as_object().unwrap() {
            assert_eq!(bits(find(&s.model.params, name).unwrap()), bits(&tensor(t)), "{name}");
        }
        assert_eq!(s.model.params.len(), f["params"].as_object().unwrap().len());
        let c = s.compute();
        assert!(c.issues.is_empty() && !c.stale, "{:?}", c.issues);
        let run = c.run.unwrap();
        close("output", &run.output, &tensor(&f["output"]));
        close("h_n", &run.h_n, &tensor(&f["h_n"]));
        run
    }

    fn names(run: &Run, step: usize, reads: bool) -> Vec<String> {
        let s = &run.trace.steps[step];
        (if reads { &s.reads } else { &s.writes }).iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn presets_reproduce_pytorch() {
        let f = fixture("seed_rnn_2_to_5_batch_first");
        let s = State::default();
        assert_eq!(s.preset, "rnn_2_5_batch_first");
        assert_eq!(Source::Tensor(tensor(&f["input"])), s.model.source);
        let run = matches(&s, &f);
        assert_eq!(crate::format::short(run.output.data()[0]), "0.9761");

        let f = fixture("seed_rnn_2x3_two_layers_bidirectional_packed");
        let s = State::preset("rnn_2x3_bi_packed").unwrap();
        assert_eq!(Source::Tensor(tensor(&f["input"])), s.model.source);
        assert_eq!(s.model.lengths.data(), [2, 2, 1, 1]);
        assert_eq!((s.model.packed, s.model.enforce_sorted, s.model.padding_value), (true, true, 1.0));
        let run = matches(&s, &f);
        assert_eq!(run.output.get(&[1, 3, 5]), Some(1.0)); // padded
        for (id, _) in PRESETS {
            assert_eq!(State::preset(id).unwrap().preset, *id);
        }
        assert!(State::preset("nope").is_none());
    }

    #[test]
    fn embedding_preset_looks_up_then_runs_with_the_same_generator() {
        let s = State::preset("embedding_to_rnn").unwrap();
        let mut g = Generator::manual_seed(0).unwrap();
        let table = g.embedding(10, 4, None).unwrap();
        let config = RnnConfig { batch_first: true, ..RnnConfig::new(4, 3) };
        assert_eq!(
            s.model.source,
            Source::Embedding { ids: Ids::new(vec![2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap(), weight: table.clone() }
        );
        assert_eq!(s.model.params, g.rnn(&config));
        let run = s.compute().run.unwrap();
        assert_eq!(run.input.shape(), [2, 3, 4]);
        assert_eq!(run.input.data()[4..8], table.data()[2 * 4..3 * 4]); // input[0, 1] = emb.weight[2]
        let rnn = Rnn::new(config, s.model.params.clone()).unwrap();
        assert_eq!(run.output, rnn.forward(&run.input, None, None).unwrap().output);
        assert_eq!(run.trace.len(), 6 + 3);
        assert_eq!(names(&run, 1, true), ["ids[0, 1]", "emb.weight[2]"]);
        assert_eq!(names(&run, 1, false), ["input[0, 1]"]);
        assert_eq!(names(&run, 6, true)[..2], ["input[:, 0]", "h0[0]"]);
        let m = run.trace.marks_at(2);
        assert_eq!((m.of("emb.weight", &[2, 3]), m.of("input", &[0, 1, 0])), (Some(Mark::Read), Some(Mark::Write)));
        assert_eq!(m.of("input", &[0, 0, 2]), Some(Mark::Done));
        assert_eq!(run.describe(2), "ids[0, 1] = 2: row 2 of emb.weight is copied to input[0, 1].");
        let f = run.step_formula(2, 0).unwrap();
        assert_eq!((f.target.as_str(), f.constants[0].name.as_str()), ("input[0, 1, 0]", "emb.weight[2, 0]"));
        assert_eq!(f.value, table.data()[8]);
        let f = run.step_formula(8, 1).unwrap();
        assert_eq!((f.target.as_str(), f.products[0].0.name.as_str()), ("h_l0[1, 1, 0]", "input[1, 1, 0]"));
        let c = s.compute();
        assert_eq!(
            c.shape_equation,
            "ids (2, 3) [(N, L)] → emb.weight[ids] → input (2, 3, 4) [(N, L, H_in)] → output (2, 3, 3) \
             [(N, L, D·H_out)], h_n (1, 2, 3) [(D·num_layers, N, H_out)]"
        );
    }

    #[test]
    fn setters_rebuild_pytorch_cases() {
        // nn.RNN(3, 4, nonlinearity='relu', bias=False), seq-first, with h0 (seed 3).
        let f = fixture("rnn_relu_no_bias_seq_first_h0");
        let mut s = State::default();
        s.set_flag("batch_first", false).unwrap();
        s.set_size("input_size", "3").unwrap();
        s.set_size("hidden_size", "4").unwrap();
        s.set_nonlinearity("relu").unwrap();
        s.set_flag("bias", false).unwrap();
        s.set_size("seq_len", "5").unwrap();
        s.set_size("batch", "2").unwrap();
        s.set_flag("h0", true).unwrap();
        s.reinit("3").unwrap();
        let text = |v: &Value| serde_json::to_string(&v["data"]).unwrap();
        s.paste("input", 0, &text(&f["input"])).unwrap_err(); // a flat list is one row: too wide
        let rows = |v: &Value, w: usize| {
            let t = tensor(v);
            let rows: Vec<String> = t.data().chunks(w).map(py_list).collect();
            format!("[{}]", rows.join(", "))
        };
        s.paste("input", 0, &rows(&f["input"], 3)).unwrap();
        s.paste("h0", 0, &rows(&f["h0"], 4)).unwrap();
        matches(&s, &f);
        assert_eq!(s.compute().module, "nn.RNN(3, 4, nonlinearity='relu', bias=False)");
        assert_eq!(s.compute().rule, "h_t = relu(x_t W_ihᵀ + h_{t-1} W_hhᵀ)");

        // Three layers, batch_first (seed 6).
        let f = fixture("rnn_three_layers_batch_first");
        let mut s = State::default();
        s.set_size("hidden_size", "3").unwrap();
        s.set_size("num_layers", "3").unwrap();
        s.set_size("batch", "2").unwrap();
        s.set_size("seq_len", "4").unwrap();
        s.reinit("6").unwrap();
        s.paste("input", 0, &rows(&f["input"], 2)).unwrap();
        let run = matches(&s, &f);
        assert_eq!(run.states.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["h_l0", "h_l1", "h_l2"]);

        // Packed, lengths not sorted, enforce_sorted=False (seed 7).
        let f = fixture("rnn_packed_unsorted");
        let mut s = State::default();
        s.set_size("hidden_size", "2").unwrap();
        s.set_size("seq_len", "4").unwrap();
        s.reinit("7").unwrap();
        s.paste("input", 0, &rows(&f["input"], 2)).unwrap();
        s.set_flag("packed", true).unwrap();
        s.paste("lengths", 0, &serde_json::to_string(&f["lengths"]["data"]).unwrap()).unwrap();
        let c = s.compute();
        assert_eq!(c.issues[0].error.message, fixture("pack_lengths_not_sorted")["error"]["message"]);
        assert_eq!((c.issues[0].tensor.as_str(), c.issues[0].cell), ("lengths", Some(1)));
        s.set_flag("enforce_sorted", false).unwrap();
        matches(&s, &f);
    }

    #[test]
    fn states_are_each_layers_h_t_and_feed_output_and_h_n() {
        let run = State::preset("rnn_2x3_bi_packed").unwrap().compute().run.unwrap();
        assert_eq!(run.states.len(), 4);
        let top = [&run.states[2].1, &run.states[3].1];
        for (t, b, f) in [(0, 0, 0), (1, 1, 4), (0, 3, 5), (0, 2, 1)] {
            assert_eq!(run.output.get(&[t, b, f]), top[f / 3].get(&[t, b, f % 3]), "output[{t}, {b}, {f}]");
        }
        // h_n[0] (layer 0 forward) is each sequence's own last step; h_n[1] (reverse) is t = 0.
        let (l0, l0r) = (&run.states[0].1, &run.states[1].1);
        assert_eq!(run.h_n.get(&[0, 0, 2]), l0.get(&[1, 0, 2]));
        assert_eq!(run.h_n.get(&[0, 3, 2]), l0.get(&[0, 3, 2]));
        assert_eq!(run.h_n.get(&[1, 3, 0]), l0r.get(&[0, 3, 0]));
        assert_eq!(l0.get(&[1, 3, 0]), Some(0.0)); // sequence 3 ended
    }

    #[test]
    fn formulas_name_every_number() {
        let c = State::default().compute();
        let f = c.formula("output", &[0, 1, 2]).unwrap();
        assert_eq!(f.target, "output[0, 1, 2]");
        assert_eq!(f.func.as_deref(), Some("tanh"));
        let names: Vec<String> = f.products.iter().map(|(a, b)| format!("{}·{}", a.name, b.name)).collect();
        assert_eq!(names[0], "input[0, 1, 0]·weight_ih_l0[2, 0]");
        assert_eq!(names[2], "h_l0[0, 0, 0]·weight_hh_l0[2, 0]");
        assert_eq!(names.len(), 2 + 5);
        let consts: Vec<&str> = f.constants.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(consts, ["bias_ih_l0[2]", "bias_hh_l0[2]"]);
        let run = c.run.as_ref().unwrap();
        assert_eq!(Some(f.value), run.output.get(&[0, 1, 2]));
        let sum = f.products.iter().map(|(a, b)| a.value * b.value).sum::<f32>()
            + f.constants.iter().map(|c| c.value).sum::<f32>();
        assert!((sum.tanh() - f.value).abs() < 1e-5);
        let first = c.formula("output", &[2, 0, 0]).unwrap();
        assert_eq!(first.products[2].0.name, "h0[0, 2, 0]");
        assert_eq!(first.products[2].0.value, 0.0);
        assert_eq!(c.formula("h_n", &[0, 2, 1]).unwrap().value, run.output.get(&[2, 1, 1]).unwrap());
        assert!(c.formula("output", &[3, 0, 0]).is_none());

        let c = State::preset("rnn_2x3_bi_packed").unwrap().compute();
        let pad = c.formula("output", &[1, 2, 0]).unwrap();
        assert_eq!(
            (pad.func, pad.products.len(), pad.constants[0].name.as_str(), pad.value),
            (None, 0, "padding_value", 1.0)
        );
        // Layer 1 reverse at t = 0 reads both halves of layer 0 and the reverse state at t = 1.
        let f = c.formula("output", &[0, 0, 4]).unwrap();
        let reads: Vec<&str> = f.products.iter().map(|(a, _)| a.name.as_str()).collect();
        assert_eq!(
            reads[..6],
            [
                "h_l0[0, 0, 0]",
                "h_l0[0, 0, 1]",
                "h_l0[0, 0, 2]",
                "h_l0_reverse[0, 0, 0]",
                "h_l0_reverse[0, 0, 1]",
                "h_l0_reverse[0, 0, 2]"
            ]
        );
        assert_eq!(reads[6], "h_l1_reverse[1, 0, 0]");
        assert_eq!(f.products[6].1.name, "weight_hh_l1_reverse[1, 0]");
        // Sequence 2 has one step: its reverse pass starts at t = 0 from h0.
        let f = c.formula("h_n", &[1, 2, 0]).unwrap();
        assert_eq!(f.products[2].0.name, "h0[1, 2, 0]");
        assert_eq!(Some(f.value), c.run.as_ref().unwrap().h_n.get(&[1, 2, 0]));
    }

    #[test]
    fn the_trace_lights_one_cell_per_step() {
        let run = State::default().compute().run.unwrap();
        assert_eq!(run.trace.len(), 2);
        let m = run.trace.marks_at(1);
        assert_eq!(m.of("input", &[2, 0, 1]), Some(Mark::Read));
        assert_eq!(m.of("input", &[2, 1, 1]), None);
        assert_eq!(m.of("output", &[1, 0, 4]), Some(Mark::Write));
        assert_eq!(m.of("h_n", &[0, 1, 4]), None);
        let m = run.trace.marks_at(2);
        assert_eq!((m.of("h_l0", &[0, 2, 0]), m.of("h_n", &[0, 1, 4])), (Some(Mark::Read), Some(Mark::Write)));
        assert_eq!(m.of("output", &[1, 0, 4]), Some(Mark::Done));
        assert_eq!(
            run.describe(2),
            "layer 0, forward, t = 1: h_l0[1] = tanh(input[:, 1] · weight_ih_l0ᵀ + h_l0[0] · weight_hh_l0ᵀ + \
             bias_ih_l0 + bias_hh_l0). It fills output[:, 1] (features 0–4) and h_n[0]."
        );
        assert!(run.describe(0).contains("layer 0, forward, t = 0"));

        let run = State::preset("rnn_2x3_bi_packed").unwrap().compute().run.unwrap();
        assert_eq!(run.trace.len(), 2 * 2 * 2);
        assert_eq!(
            run.describe(2),
            "layer 0, forward, t = 1: h_l0[1] = tanh(input[1] · weight_ih_l0ᵀ + h_l0[0] · weight_hh_l0ᵀ + bias_ih_l0 + \
             bias_hh_l0). It fills h_n[0] for sequences 0, 1. No step for sequences 2, 3: already ended."
        );
        assert!(run
            .describe(4)
            .contains("+ h_l0_reverse[1] (h0[1] for sequences 2, 3, which start here) · weight_hh_l0_reverseᵀ"));
        assert!(run.describe(4).contains("It fills h_n[1]."));
        assert!(run
            .describe(5)
            .starts_with("layer 1, forward, t = 0: h_l1[0] = tanh([h_l0[0] | h_l0_reverse[0]] · weight_ih_l1ᵀ"));
        assert!(run.describe(5).contains("It fills output[0] (features 0–2)"));
    }

    #[test]
    fn lanes_show_skipped_steps_of_a_packed_sequence() {
        let c = State::preset("rnn_2x3_bi_packed").unwrap().compute();
        let run = c.run.clone().unwrap();
        let lanes = run.lanes(2);
        assert_eq!(
            lanes.iter().map(|l| (l.name.as_str(), l.k)).collect::<Vec<_>>(),
            [("h_l0", 0), ("h_l0_reverse", 1), ("h_l1", 2), ("h_l1_reverse", 3)]
        );
        let l0 = &lanes[0].cells;
        assert_eq!((l0[0].first, l0[0].last, l0[0].skipped), (true, true, false));
        assert_eq!((l0[1].skipped, l0[1].values.len()), (true, 0));
        assert_eq!((c.step_of(Phase::Forward, 0, 0, 0), c.step_of(Phase::Forward, 0, 0, 1)), (Some(0), Some(1)));
        assert_eq!((l0[0].x.as_str(), l0[0].prev.as_str()), ("input[0, 2]", "h0[0, 2]"));
        let rev = &lanes[1].cells;
        assert_eq!((rev[0].first, rev[0].last, c.step_of(Phase::Forward, 0, 1, 0)), (true, true, Some(3)));
        assert_eq!(lanes[2].cells[0].x, "h_l0[0, 2] | h_l0_reverse[0, 2]");
        let rev = &run.lanes(0)[1].cells;
        assert_eq!((rev[1].first, rev[1].last, rev[0].first, rev[0].last), (true, false, false, true));
        assert_eq!(rev[0].prev, "h_l0_reverse[1, 0]");
        assert_eq!(rev[0].values, run.states[1].1.data()[..3]);
        assert!(run.lanes(4).is_empty());
        assert_eq!(run.x(1, 1), [22.0, 22.0]);
    }

    #[test]
    fn shapes_module_and_captions() {
        let c = State::default().compute();
        assert_eq!(
            c.shape_equation,
            "input (3, 2, 2) [(N, L, H_in)] → output (3, 2, 5) [(N, L, D·H_out)], h_n (1, 3, 5) [(D·num_layers, N, H_out)]"
        );
        assert_eq!(c.module, "nn.RNN(2, 5, batch_first=True)");
        assert_eq!(c.rule, "h_t = tanh(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)");
        assert!(c.output_caption.starts_with("output (3, 2, 5): h_t at every time step"));
        assert!(c.h_n_caption.contains("h_n[-1] equals output[:, -1]."));
        assert_eq!(c.packing_caption, "");
        let c = State::preset("rnn_2x3_bi_packed").unwrap().compute();
        assert_eq!(
            c.shape_equation,
            "input (2, 4, 2) [(L, N, H_in)] packed with lengths [2, 2, 1, 1] → output (2, 4, 6) [(max(lengths), N, \
             D·H_out)], h_n (4, 4, 3) [(D·num_layers, N, H_out)]"
        );
        assert_eq!(c.module, "nn.RNN(2, 3, num_layers=2, bidirectional=True)");
        assert!(
            c.output_caption.contains("of the top layer (layer 1)")
                && c.output_caption.contains("0–2 from the forward pass, 3–5 from the reverse pass")
                && c.output_caption.contains("padding_value = 1")
        );
        assert!(
            c.h_n_caption.contains("(2 × 2 = 4)")
                && c.h_n_caption.contains("first half of each sequence's own last step of output")
                && c.h_n_caption.contains("second half of output[0]")
                && c.h_n_caption.contains("h_n[0] to h_n[1] come from the lower layers")
        );
        assert!(c.packing_caption.contains("sequence 2 stops after t = 0, sequence 3 stops after t = 0"));
    }

    #[test]
    fn bad_text_changes_nothing() {
        let mut s = State::default();
        let before = s.clone();
        assert_eq!(s.edit("weight_ih_l0", 0, "abc"), Err("could not convert string to float: 'abc'".into()));
        assert!(s.edit("weight_ih_l0", 99, "1").is_err());
        assert!(s.edit("output", 0, "1").is_err());
        assert!(s.edit("h0", 0, "1").unwrap_err().contains("turn on h0"));
        assert!(s.edit("lengths", 0, "1.5").is_err());
        assert_eq!(s.set_size("hidden_size", "0"), Err("choose a size from 1 to 16".into()));
        assert!(s.set_size("num_layers", "4").is_err());
        assert!(s.set_size("num_embeddings", "5").is_err());
        assert!(s.set_nonlinearity("sigmoid").unwrap_err().starts_with("Unknown nonlinearity 'sigmoid'"));
        assert!(s.reinit("1.5").unwrap_err().starts_with("ValueError: invalid literal for int()"));
        assert!(s.set_padding_value("x").is_err());
        assert_eq!(s, before);
        assert!(!s.edited);
        s.edit("input", 0, "1").unwrap();
        assert!(s.edited && s.preset == "rnn_2_5_batch_first");
        let mut e = State::preset("embedding_to_rnn").unwrap();
        assert!(e.edit("input", 0, "1").unwrap_err().contains("edit ids or emb.weight"));
    }

    #[test]
    fn edits_change_the_output() {
        let mut s = State::default();
        s.edit("weight_ih_l0", 0, "0.5").unwrap();
        let run = s.compute().run.unwrap();
        let f = s.compute().formula("output", &[0, 0, 0]).unwrap();
        assert_eq!(f.products[0].1.value, 0.5);
        assert_eq!(Some(f.value), run.output.get(&[0, 0, 0]));
        assert_ne!(run.output, State::default().compute().run.unwrap().output);
        s.set_flag("h0", true).unwrap();
        assert_eq!(s.compute().run.unwrap().output, run.output); // zeros = the default
        s.edit("h0", 5 + 2, "0.7").unwrap();
        assert_eq!(s.compute().formula("output", &[1, 0, 0]).unwrap().products[4].0.value, 0.7);
        let mut e = State::preset("embedding_to_rnn").unwrap();
        e.edit("ids", 0, "9").unwrap();
        let run = e.compute().run.unwrap();
        assert_eq!(run.input.data()[..4], find_emb(&e).data()[36..40]);
        e.edit("emb.weight", 36, "2").unwrap();
        assert_eq!(e.compute().run.unwrap().input.data()[0], 2.0);
    }

    fn find_emb(s: &State) -> &Tensor {
        match &s.model.source {
            Source::Embedding { weight, .. } => weight,
            Source::Tensor(_) => panic!("no embedding"),
        }
    }

    #[test]
    fn problems_are_pinned_and_the_last_good_run_stays() {
        let mut s = State::default();
        let good = s.compute().run.unwrap().output;
        s.set_size("features", "4").unwrap();
        let c = s.compute();
        assert!(c.stale);
        assert_eq!(c.run.as_ref().unwrap().output, good);
        assert_eq!(c.notes("input"), ["RuntimeError: input.size(-1) must be equal to input_size. Expected 2, got 4 each time step brings 4 numbers, but the RNN was built with input_size = 2: make them equal"]);
        assert_eq!(c.issues[0].error.message, fixture("rnn_input_size_mismatch")["error"]["message"]);
        // Another edit while broken keeps the run that last worked.
        s.edit("weight_ih_l0", 0, "3").unwrap();
        assert_eq!(s.compute().run.unwrap().output, good);
        s.set_size("input_size", "4").unwrap();
        let c = s.compute();
        assert!(!c.stale && c.issues.is_empty() && s.last_good.is_none());
        assert_eq!(c.run.unwrap().input.shape(), [3, 2, 4]);

        let mut p = State::preset("rnn_2x3_bi_packed").unwrap();
        p.edit("lengths", 3, "0").unwrap();
        let c = p.compute();
        assert_eq!(c.cell_issues("lengths")[0].0, 3);
        assert!(c.cell_issues("lengths")[0].1.contains("greater than 0"));
        p.edit("lengths", 3, "1").unwrap();
        p.edit("lengths", 0, "3").unwrap();
        assert_eq!(p.compute().cell_issues("lengths")[0].0, 0);
        assert!(p.compute().issues[0].hint.contains("2 time steps"));
        p.edit("lengths", 0, "2").unwrap();
        assert!(p.compute().issues.is_empty());

        let mut e = State::preset("embedding_to_rnn").unwrap();
        e.edit("ids", 4, "10").unwrap();
        let c = e.compute();
        assert_eq!(
            c.cell_issues("ids"),
            [(
                4,
                "IndexError: index out of range in self ids pick rows of emb.weight, so they must be 0 to 9"
                    .to_string()
            )]
        );
        assert!(c.stale && c.run.is_some());
        e.set_size("num_embeddings", "11").unwrap();
        assert!(e.compute().issues.is_empty());
    }

    #[test]
    fn resizes_stay_linked() {
        let mut s = State::default();
        s.set_flag("h0", true).unwrap();
        s.edit("h0", 2, "0.25").unwrap(); // h0[0, 0, 2]
        s.set_size("batch", "4").unwrap();
        assert_eq!(s.model.lengths.data(), [2, 2, 2, 2]);
        assert_eq!(s.compute().run.unwrap().input.shape(), [4, 2, 2]);
        assert_eq!(s.model.h0.as_ref().unwrap().shape(), [1, 4, 5]);
        s.set_flag("bidirectional", true).unwrap();
        let h0 = s.model.h0.clone().unwrap();
        assert_eq!((h0.shape(), h0.get(&[0, 0, 2]), h0.get(&[1, 0, 2])), (&[2usize, 4, 5][..], Some(0.25), Some(0.0)));
        let config = s.model.config.clone();
        assert_eq!(s.model.params, Generator::manual_seed(0).unwrap().rnn(&config));
        s.set_size("hidden_size", "2").unwrap();
        assert_eq!(s.model.h0.as_ref().unwrap().get(&[0, 0, 1]), Some(0.0));
        s.set_size("num_layers", "2").unwrap();
        assert_eq!(s.model.params.len(), 16);
        assert_eq!(s.model.h0.as_ref().unwrap().shape(), [4, 4, 2]);
        s.set_size("seq_len", "1").unwrap();
        assert_eq!(s.model.lengths.data(), [1, 1, 1, 1]);
        let c = s.compute();
        assert!(c.issues.is_empty(), "{:?}", c.issues);
        assert_eq!(c.run.unwrap().output.shape(), [4, 1, 4]);
        assert_eq!((s.size("batch"), s.size("seq_len"), s.size("hidden_size"), s.size("num_layers")), (4, 1, 2, 2));
    }

    #[test]
    fn batch_first_transposes_the_same_sequences() {
        let mut s = State::default();
        let before = s.compute().run.unwrap();
        s.set_flag("batch_first", false).unwrap();
        let after = s.compute().run.unwrap();
        assert_eq!(after.input.shape(), [2, 3, 2]);
        assert_eq!(after.input.get(&[1, 0, 0]), Some(12.0));
        assert_eq!(after.output.get(&[1, 2, 3]), before.output.get(&[2, 1, 3]));
        assert_eq!(after.h_n, before.h_n);
        assert!(s.compute().shape_equation.starts_with("input (2, 3, 2) [(L, N, H_in)]"));
        let mut e = State::preset("embedding_to_rnn").unwrap();
        e.set_flag("batch_first", false).unwrap();
        let Source::Embedding { ids, .. } = &e.model.source else { panic!() };
        assert_eq!((ids.shape(), ids.data()), (&[3usize, 2][..], &[1i64, 4, 2, 5, 3, 6][..]));
    }

    #[test]
    fn reinit_is_torch_manual_seed() {
        let mut s = State::preset("embedding_to_rnn").unwrap();
        s.reinit("42").unwrap();
        assert_eq!(s.seed, "42");
        let mut g = Generator::manual_seed(42).unwrap();
        assert_eq!(find_emb(&s), &g.embedding(10, 4, None).unwrap());
        assert_eq!(s.model.params, g.rnn(&s.model.config));
        // An RNN size change keeps the (edited) table and re-draws the RNN after it.
        s.edit("emb.weight", 0, "5").unwrap();
        s.set_size("hidden_size", "2").unwrap();
        assert_eq!(find_emb(&s).data()[0], 5.0);
        let mut g = Generator::manual_seed(42).unwrap();
        g.embedding(10, 4, None).unwrap();
        assert_eq!(s.model.params, g.rnn(&s.model.config));
        s.set_size("input_size", "3").unwrap();
        let mut g = Generator::manual_seed(42).unwrap();
        assert_eq!(find_emb(&s), &g.embedding(10, 3, None).unwrap());
        assert!(s.compute().issues.is_empty());
    }

    #[test]
    fn relu_and_padding_value() {
        let mut s = State::preset("rnn_2x3_bi_packed").unwrap();
        s.set_padding_value("-2").unwrap();
        assert_eq!(s.compute().run.unwrap().output.get(&[1, 3, 0]), Some(-2.0));
        s.set_nonlinearity("'relu'").unwrap();
        let c = s.compute();
        assert!(c.run.as_ref().unwrap().states.iter().all(|(_, t)| t.data().iter().all(|&v| v >= 0.0)));
        assert_eq!(c.formula("output", &[0, 0, 0]).unwrap().func.as_deref(), Some("relu"));
        s.set_flag("packed", false).unwrap();
        assert_eq!(s.compute().run.unwrap().output.get(&[1, 3, 0]).map(|v| v >= 0.0), Some(true));
    }

    #[test]
    fn saved_scenes_round_trip_and_damaged_ones_never_panic() {
        for (id, _) in PRESETS {
            let s = State::preset(id).unwrap();
            assert_eq!(from_json::<State>(&to_json(&s)).unwrap(), s);
        }
        let mut s = State::default();
        s.model.config.num_layers = 1 << 40;
        let c = s.compute();
        assert_eq!(c.issues[0].tensor, "config");
        assert!(c.run.is_none() && c.stale);
        assert!(c.describe(1).contains("Nothing has run yet"));
        assert!(s.set_size("batch", "2").unwrap_err().contains("choose a preset"));
        let mut s = State::default();
        s.model.source = Source::Tensor(Tensor::vector(vec![1.0; 5]));
        assert!(s.compute().run.is_none());
        assert!(s.set_flag("batch_first", false).is_err());
        // Data that does not fit its shape is refused when read; lengths that miss the batch run nothing.
        let json = to_json(&State::default()).replacen("[11.0,11.0,12.0", "[11.0,12.0", 1);
        assert!(from_json::<State>(&json).is_err());
        let mut s = State::default();
        s.model.lengths = Ids::vector(vec![2; 5]);
        assert_eq!(s.compute().issues[0].tensor, "config");
        assert!(s.set_flag("batch_first", false).is_err() && s.reinit("1").is_err());
        let mut s = State::default();
        s.model.params.pop();
        assert!(s.compute().issues[0].error.message.contains("missing parameter 'bias_hh_l0'"));
    }

    /// The backward of a state's run with its own upstream (none of the loss plumbing).
    fn op_grads(s: &State, up: &Tensor, up_h_n: &Tensor) -> crate::ops::rnn::RnnGrads {
        let run = s.model.run().unwrap();
        run.rnn.backward(&run.input, run.h0.as_ref(), s.model.packing().as_ref(), up, up_h_n).unwrap()
    }

    #[test]
    fn vanishing_preset_reproduces_pytorchs_grads_and_norms() {
        let f = fixture("rnn_tanh_long_sequence_vanishing");
        let s = State::preset("vanishing_long_tanh").unwrap();
        assert_eq!(Source::Tensor(tensor(&f["input"])), s.model.source);
        let run = matches(&s, &f);
        let (up, up_h) = (tensor(&f["upstream"]["output"]), tensor(&f["upstream"]["h_n"]));
        let b = run.backward(None, None, 0.0, &up, &up_h).unwrap();
        for (name, want) in f["grads"].as_object().unwrap() {
            close(name, find(&b.grads, name).unwrap(), &tensor(want));
        }
        let want = tensor(&f["hidden_grads"]);
        assert_eq!(b.hidden_grads.data().len(), want.numel());
        for (a, w) in b.hidden_grads.data().iter().zip(want.data()) {
            assert!((a - w).abs() <= 1e-5 + 1e-5 * w.abs());
        }
        let norms: Vec<f64> = serde_json::from_value(f["hidden_grad_norms"].clone()).unwrap();
        assert_eq!(b.norms[0].0, "h_l0");
        for (a, w) in b.norms[0].1.iter().zip(&norms) {
            assert!((*a as f64 - w).abs() <= 1e-5 + 1e-5 * w.abs(), "{a} vs {w}");
        }
        // With the scene's own sum loss, the gradient fades going back in time.
        // The preset's loss is on the last step only: the gradient fades going back in time.
        let n = &s.compute().backward.unwrap().norms[0].1;
        assert!(n[..11].iter().all(|&x| x < n[11]), "{n:?}");
        assert!(n[0] < 1e-3 * n[11], "{n:?}");
    }

    #[test]
    fn exploding_preset_grows_going_back() {
        let s = State::preset("exploding_relu").unwrap();
        assert_eq!(find(&s.model.params, "weight_hh_l0").unwrap().data(), [1.5, 0.5, 0.5, 1.5]);
        let c = s.compute();
        assert!(c.issues.is_empty());
        let n = &c.backward.unwrap().norms[0].1;
        assert_eq!(n.len(), 10);
        assert!(n.windows(2).all(|w| w[0] > w[1]), "{n:?}");
        assert!(n[0] > 100.0 * n[9], "{n:?}");
    }

    #[test]
    fn sum_loss_is_the_op_backward_with_ones() {
        for (id, _) in PRESETS {
            let mut s = State::preset(id).unwrap();
            s.apply(&Edit::Loss { mse: false }).unwrap();
            let c = s.compute();
            let (run, b) = (c.run.as_ref().unwrap(), c.backward.as_ref().unwrap());
            let ones = Tensor::new(run.output.shape().to_vec(), vec![1.0; run.output.numel()]).unwrap();
            let g = op_grads(&s, &ones, &Tensor::zeros(run.h_n.shape().to_vec()).unwrap());
            for (name, t) in &g.params {
                assert_eq!(bits(c.grad(name).unwrap()), bits(t), "{id} {name}");
            }
            assert_eq!(bits(c.grad("input").unwrap()), bits(&g.input), "{id} input");
            assert_eq!(b.loss, run.output.data().iter().map(|&x| x as f64).sum::<f64>() as f32, "{id}");
            assert_eq!(b.trace.steps.iter().filter(|s| s.phase == Phase::Backward).count(), b.trace.len());
            assert_eq!(b.steps.len(), b.trace.len());
            assert!(!c.describe_backward(1).is_empty());
        }
        // Embedding → RNN: only looked-up rows of emb.weight get gradient.
        let c = State::preset("embedding_to_rnn").unwrap().compute();
        let g = c.grad("emb.weight").unwrap();
        for r in 0..10 {
            let row = &g.data()[r * 4..][..4];
            assert_eq!(row.iter().any(|&x| x != 0.0), (1..=6).contains(&r), "row {r}");
        }
        // The first backward step is the last cell, reading output.grad.
        let c = State::default().compute();
        let b = c.backward.as_ref().unwrap();
        assert_eq!(b.steps[0], StepKind::Cell(Cell { layer: 0, direction: 0, t: Some(1) }));
        assert_eq!(c.trace(Phase::Backward).unwrap().marks_at(1).phase, Some(Phase::Backward));
        assert!(b.trace.steps[0].reads.iter().any(|s| s.tensor == "output.grad"));
        assert!(c.describe_backward(1).contains("dL/dh_t = output.grad + h_n.grad (0: h_n is not in the loss)"));
        assert!(c.describe_backward(2).contains("output.grad + what step 1 sent back"));
    }

    #[test]
    fn h_n_in_the_loss_gives_pytorchs_grads() {
        let cases = [
            ("rnn_2_5_batch_first", "rnn_loss_output_and_h_n_sum"),
            ("rnn_2x3_bi_packed", "rnn_packed_bi_loss_output_and_h_n_sum"),
        ];
        for (id, name) in cases {
            let f = fixture(name);
            let mut s = State::preset(id).unwrap();
            s.set_h_n_in_loss(true);
            let c = s.compute();
            let b = c.backward.as_ref().unwrap();
            assert!((b.loss - f["loss"]["value"].as_f64().unwrap() as f32).abs() < 1e-4, "{name}");
            assert!(b.h_n_in_loss && b.upstream_h_n.data().iter().all(|&x| x == 1.0));
            for (grad, want) in f["grads"].as_object().unwrap() {
                let got = c.grad(grad).unwrap();
                for (g, w) in got.data().iter().zip(floats(want)) {
                    assert!((g - w).abs() <= 1e-5 + 1e-5 * w.abs(), "{name} {grad}: {g} vs {w}");
                }
            }
            assert!(c.describe_backward(0).contains("h_n.grad = 1"));
            // Without it, the last cell gets nothing from h_n.
            s.set_h_n_in_loss(false);
            assert!(!s.compute().backward.unwrap().h_n_in_loss);
        }
        let mut s = State::default();
        s.set_h_n_in_loss(true);
        assert!(s.compute().describe_backward(1).contains("output.grad + h_n.grad (1, from h_n.sum() in the loss)"));
    }

    #[test]
    fn backward_formulas_add_up_to_dl_dh() {
        for (id, _) in PRESETS {
            for with_h_n in [false, true] {
                let mut s = State::preset(id).unwrap();
                s.set_h_n_in_loss(with_h_n);
                let c = s.compute();
                let (r, bw) = (c.run.as_ref().unwrap(), c.backward.as_ref().unwrap());
                let (mut checked, lanes) = (0, r.states.len());
                for k in 0..lanes {
                    let (layer, d) = (k / r.dirs(), k % r.dirs());
                    for b in 0..r.batch() {
                        for t in 0..r.steps_len() {
                            for i in 0..r.hidden() {
                                let Some(f) = r.backward_formula(bw, layer, d, t, b, i) else {
                                    assert!(t >= r.lengths[b], "{id} {k} {t} {b} {i}");
                                    continue;
                                };
                                let terms = f.products.iter().map(|(a, w)| a.value as f64 * w.value as f64);
                                let sum: f64 = terms.chain(f.constants.iter().map(|c| c.value as f64)).sum();
                                let scale =
                                    f.products.iter().map(|(a, w)| (a.value * w.value).abs()).sum::<f32>() + 1.0;
                                assert!(
                                    (sum - f.value as f64).abs() <= 1e-5 * scale as f64,
                                    "{id} {}: {sum} vs {}",
                                    f.target,
                                    f.value
                                );
                                checked += 1;
                            }
                        }
                    }
                }
                assert!(checked > 0, "{id}");
            }
        }
        // The last cell of the default reads output.grad and h_n.grad; the one before reads da of the last.
        let mut s = State::default();
        s.set_h_n_in_loss(true);
        let c = s.compute();
        let f = c.backward_formula(1, 0).unwrap();
        assert_eq!(f.target, "h_l0.grad[1, 0, 0]");
        let names: Vec<&str> = f.constants.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["output.grad[0, 1, 0]", "h_n.grad[0, 0, 0]"]);
        let f = c.backward_formula(2, 0).unwrap();
        assert_eq!(
            (f.products[0].0.name.as_str(), f.products[0].1.name.as_str()),
            ("da_l0[1, 0, 0]", "weight_hh_l0[0, 0]")
        );
        // Clicking a cell finds its step in either pass: the last cell is the first going back.
        assert_eq!(c.step_of(Phase::Backward, 0, 0, 1), Some(0));
        assert_eq!(c.step_of(Phase::Forward, 0, 0, 1), Some(1));
    }

    #[test]
    fn mse_loss_against_an_editable_target() {
        let mut s = State::default();
        s.apply(&Edit::Loss { mse: true }).unwrap();
        s.apply(&Edit::cell("target", 0, "1")).unwrap();
        let c = s.compute();
        let (run, b) = (c.run.as_ref().unwrap(), c.backward.as_ref().unwrap());
        let n = run.output.numel() as f32;
        let o = run.output.data();
        assert!((b.upstream.data()[0] - 2.0 * (o[0] - 1.0) / n).abs() < 1e-7);
        assert!((b.upstream.data()[1] - 2.0 * o[1] / n).abs() < 1e-7);
        let want =
            o.iter().enumerate().map(|(i, &x)| ((x - if i == 0 { 1.0 } else { 0.0 }) as f64).powi(2)).sum::<f64>();
        assert!((b.loss as f64 - want / n as f64).abs() < 1e-6);
        // A size change keeps the target the output's shape.
        s.set_size("seq_len", "3").unwrap();
        let c = s.compute();
        assert!(c.backward.is_some(), "{:?}", c.backward_issue);
        s.apply(&Edit::Loss { mse: false }).unwrap();
        assert!(s.apply(&Edit::cell("target", 0, "1")).is_err());
    }

    #[test]
    fn sgd_steps_every_parameter_and_undoes() {
        let mut s = State::default();
        let before = s.model.params.clone();
        s.apply(&Edit::Lr { text: "0.5".into() }).unwrap();
        let grads = s.compute().backward.unwrap().grads;
        s.apply(&Edit::Step).unwrap();
        for (name, p) in &s.model.params {
            let (old, g) = (find(&before, name).unwrap(), find(&grads, name).unwrap());
            let want: Vec<f32> = old.data().iter().zip(g.data()).map(|(p, g)| p - 0.5 * g).collect();
            assert_eq!(p.data(), &want[..], "{name}");
            let moved: Vec<usize> = (0..p.numel()).filter(|&i| g.data()[i] != 0.0).collect();
            assert_eq!(s.changed(name), moved, "{name}");
        }
        assert_eq!(s.learning.steps, 1);
        s.apply(&Edit::Step).unwrap();
        s.undo().unwrap();
        s.reset().unwrap();
        assert_eq!(s.model.params, before);
        assert_eq!(s.learning.steps, 0);
        // An edit forgets the steps (undo would throw the edit away).
        s.apply(&Edit::Step).unwrap();
        s.edit("weight_hh_l0", 0, "0.25").unwrap();
        assert_eq!((s.learning.steps, s.changed("weight_hh_l0")), (0, vec![]));
        assert!(s.undo().is_err());
        // Embedding → RNN: only the looked-up rows of emb.weight move.
        let mut s = State::preset("embedding_to_rnn").unwrap();
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.changed("emb.weight"), (4..28).collect::<Vec<_>>());
        // Old autosaves (no learning) still load.
        let mut v: Value = serde_json::from_str(&to_json(&State::default())).unwrap();
        v.as_object_mut().unwrap().remove("learning");
        assert_eq!(from_json::<State>(&v.to_string()).unwrap(), State::default());
    }
}
