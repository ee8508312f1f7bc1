//! The Embedding scene: `nn.Embedding` is a lookup. Each id picks one row of the `(V, D)` table
//! `weight` and copies it to the output, so ids of shape `(*)` give an output `(*, D)`. Nothing
//! is multiplied and nothing is transposed, unlike a `Linear` without bias.
//!
//! The learner edits the table, the ids (1-D, or batch × sequence), the sizes, `padding_idx`,
//! `from_pretrained`/`freeze` and `sparse`, or re-draws the table with `torch.manual_seed`.

use super::contract::{Edit, Scene, View};
use super::learn::Learning;
use super::{
    check_preset, check_seed, check_shape, label, parse_size, paste, resize, set_float, set_int, Factor, Formula, Issue,
};
use crate::edit::{parse_float, parse_int};
use crate::ops::embedding::{Embedding, EmbeddingGrads};
use crate::ops::loss::Loss;
use crate::ops::Named;
use crate::tensor::py_shape;
use crate::tensor::{unravel, Ids, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Marks, Phase, Trace};
use crate::TorchError;
use serde::{Deserialize, Serialize};

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
    pub fn describe(&self) -> String {
        let (input, output) = (label("input", &self.at), label("output", &self.at));
        format!("{input} = {row} selects weight[{row}], copied to {output}", row = self.row)
    }
}

/// Everything the view shows, computed from the state.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// `weight[input]`, or the last good output while `issues` is not empty.
    pub output: Tensor,
    /// The output is the last good one: PyTorch would raise on the current state.
    pub stale: bool,
    /// One step per id (empty while stale).
    pub trace: Trace,
    /// The row each id selected, in input order (empty while stale).
    pub picks: Vec<Pick>,
    pub issues: Vec<Issue>,
    /// `input (2, 4) → weight[input] → output (2, 4, 4)`
    pub shape_equation: String,
    /// The PyTorch call that builds this table: `nn.Embedding(10, 3, padding_idx=1)`.
    pub module: String,
    /// Short plain-words notes on what the learner sees.
    pub captions: Vec<String>,
    /// The loss on the output (`None` while stale or while the target does not fit).
    pub loss: Option<f32>,
    /// `output.grad`, `dL/doutput`: where backward starts.
    pub upstream: Option<Tensor>,
    /// `weight.grad`, dense, and with `sparse=True` PyTorch's COO list too. `None` while stale.
    pub grads: Option<EmbeddingGrads>,
    /// One step per id that sends gradient: `output.grad[k]` added into `weight.grad[id]`.
    pub backward: Trace,
    /// The lookups the backward steps undo, in step order, each with whether it adds onto a row
    /// an earlier id already wrote (`+=`).
    pub back_picks: Vec<(Pick, bool)>,
    /// Why there is no gradient at all (`from_pretrained(freeze=True)`), if so.
    pub no_grad: Option<String>,
    /// Why backward could not run (the mse target does not fit, say), if so.
    pub loss_error: Option<String>,
    /// The row `padding_idx` names, which backward leaves at zero.
    pub padding_row: Option<usize>,
}

/// Why a frozen table has no gradient; also why SGD refuses to step it.
pub const FROZEN: &str = "from_pretrained(freeze=True) sets weight.requires_grad=False, so backward \
     computes no weight.grad and SGD has nothing to step.";

/// `AssertionError: ...` or `IndexError: ...` with a plain-words hint.
fn issue(tensor: &str, cell: Option<usize>, error: TorchError, hint: String) -> Issue {
    Issue { tensor: tensor.into(), cell, error, hint }
}

impl State {
    /// A drawn (not pretrained) table looking up `input`, flags at PyTorch's defaults.
    fn new(preset: &str, weight: Tensor, input: Ids) -> Self {
        Self {
            preset: preset.into(),
            weight,
            input,
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
    fn module(&self) -> Result<Embedding, TorchError> {
        let mut m = Embedding::new(self.weight.clone(), self.padding_idx)?;
        m.sparse = self.sparse;
        m.freeze = self.from_pretrained && self.freeze;
        Ok(m)
    }

    /// Remembers the output whenever PyTorch can run the current state.
    fn settle(&mut self) {
        if let Ok(out) = self.module().and_then(|m| m.forward(&self.input)) {
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
            "input" => set_int(&mut self.input, index, text)?,
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
            "input" => paste(&mut self.input, index, text, parse_int)?,
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
    fn resize_table(&mut self, dim: usize, n: usize) -> Result<(), String> {
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
    fn issues(&self) -> Vec<Issue> {
        let v = self.num_embeddings();
        if self.weight.dim() != 2 {
            let e = TorchError::assertion("Embeddings parameter is expected to be 2-dimensional");
            return vec![issue("weight", None, e, "weight must be (num_embeddings, embedding_dim)".into())];
        }
        if let Err(e) = Embedding::new(self.weight.clone(), self.padding_idx) {
            let hint = format!("padding_idx must be in -{v}..{}; negative counts from the end", v as i64 - 1);
            return vec![issue("padding_idx", None, e, hint)];
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
    fn backward(
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
    fn module_call(&self) -> String {
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

    fn captions(&self, picks: &[Pick]) -> Vec<String> {
        let (v, d) = (self.num_embeddings(), self.embedding_dim());
        let n = self.input.numel();
        let mut out = vec![
            "Each id picks one row of weight and copies it to the output. Nothing is multiplied.".to_string(),
            format!(
                "weight is ({v}, {d}): row i belongs to id i and is used as stored, with no transpose \
                 (a Linear's weight is (out, in) and gets transposed)."
            ),
            format!(
                "The output keeps the ids' shape {} and adds {d} numbers per id: {}.",
                py_shape(self.input.shape()),
                py_shape(&[self.input.shape(), &[d]].concat())
            ),
        ];
        let mut rows: Vec<usize> = picks.iter().map(|p| p.row).collect();
        rows.sort_unstable();
        let mut repeated: Vec<String> = rows.windows(2).filter(|w| w[0] == w[1]).map(|w| w[0].to_string()).collect();
        repeated.dedup();
        match repeated.len() {
            0 => {}
            1 => out.push(format!("Id {} appears more than once: its row is copied to each place.", repeated[0])),
            _ => out
                .push(format!("Ids {} appear more than once: each row is copied to each place.", repeated.join(", "))),
        }
        if let Ok(Some(p)) = self.module().map(|m| m.padding_idx) {
            let start = match self.from_pretrained {
                true => "from_pretrained keeps it as given",
                false => "nn.Embedding fills it with zeros",
            };
            out.push(format!(
                "weight[{p}] is the padding row: {start}, and it never gets gradient, so training never moves it."
            ));
        }
        if self.from_pretrained {
            out.push(match self.freeze {
                true => "freeze=True: the table is fixed (requires_grad=False); no gradient reaches it.".into(),
                false => "freeze=False: the table keeps learning like a fresh nn.Embedding.".into(),
            });
        }
        if self.sparse {
            out.push("sparse=True: weight.grad will hold only the looked-up rows.".into());
        }
        if v > 10 * n {
            out.push(format!(
                "The table holds {v} × {d} = {} numbers; this lookup copies only {n} × {d} = {} of them.",
                v.saturating_mul(d),
                n.saturating_mul(d)
            ));
        }
        out
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

impl Computed {
    /// `output[k.., j] = weight[id, j]`: a lookup cell is a copy, one constant and no product.
    pub fn formula(&self, output: &str, index: &[usize]) -> Option<Formula> {
        let (j, at) = index.split_last()?;
        let pick = self.picks.iter().find(|p| output == "output" && p.at == at)?;
        let value = self.output.get(index)?;
        Some(Formula {
            target: label("output", index),
            func: None,
            products: Vec::new(),
            constants: vec![Factor::new(label("weight", &[pick.row, *j]), value)],
            value,
        })
    }

    /// The current step in plain words, for the timeline (`playhead` steps done).
    pub fn describe(&self, playhead: usize) -> String {
        if self.stale {
            return "PyTorch would raise here, so there is nothing to play: fix the marked cell.".into();
        }
        if self.trace.summarised {
            return format!("All {} ids look up their rows of weight at once.", self.picks.len());
        }
        match playhead.checked_sub(1).and_then(|i| self.picks.get(i)) {
            Some(pick) => pick.describe(),
            None => format!(
                "{} ids, {} lookups: step forward to watch each id pick its row.",
                self.picks.len(),
                self.trace.len()
            ),
        }
    }
}

impl Computed {
    /// The current backward step in plain words (`playhead` steps done).
    pub fn describe_backward(&self, playhead: usize, padding_idx: Option<usize>) -> String {
        if let Some(why) = &self.no_grad {
            return why.clone();
        }
        if self.stale {
            return "PyTorch would raise here, so there is no backward pass: fix the marked cell.".into();
        }
        if let Some(e) = &self.loss_error {
            return format!("Backward cannot start: {e}");
        }
        if self.backward.summarised {
            return "Every output row's gradient is added into the weight.grad row its id selected, at once.".into();
        }
        let padding = padding_idx.map_or(String::new(), |p| {
            format!(" weight.grad[{p}] is the padding row: id {p} sends no gradient, so it stays zero.")
        });
        match playhead.checked_sub(1).and_then(|i| self.back_picks.get(i)) {
            Some((pick, again)) => {
                let (grad, row) = (label("output.grad", &pick.at), pick.row);
                match again {
                    true => {
                        format!("weight.grad[{row}] += {grad}: id {row} was looked up before, so its gradient adds up.")
                    }
                    false => format!(
                        "weight.grad[{row}] += {grad}: {} = {row} looked that row up.",
                        label("input", &pick.at)
                    ),
                }
            }
            None => format!(
                "{} gradient rows flow back: each output.grad row is added into the weight.grad row its id \
                 selected; rows no id selected stay zero.{padding}",
                self.backward.len()
            ),
        }
    }
}

impl Scene for State {
    type View = Computed;
    const NAME: &'static str = "embedding";
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
                "num_embeddings" => self.set_num_embeddings(text),
                "embedding_dim" => self.set_embedding_dim(text),
                "padding_idx" => self.set_padding_idx(text),
                "input.shape[0]" => self.set_input_size(0, text),
                "input.shape[1]" => self.set_input_size(1, text),
                other => Err(format!("the Embedding scene has no field {other}")),
            },
            Edit::Flag { flag, on } => {
                match flag.as_str() {
                    "from_pretrained" => self.from_pretrained = *on,
                    "freeze" => self.freeze = *on,
                    "sparse" => self.sparse = *on,
                    "batched" => self.set_batched(*on),
                    other => return Err(format!("the Embedding scene has no option {other}")),
                }
                Ok(())
            }
            Edit::Reinit { seed } => self.reinit(seed),
            other => Err(format!("the Embedding scene does not take {other:?}")),
        }
    }

    fn compute(&self) -> Computed {
        State::compute(self)
    }

    fn learning(&self) -> &Learning {
        &self.learning
    }

    fn output_shape(&self) -> Vec<usize> {
        [self.input.shape(), &[self.embedding_dim()]].concat()
    }

    /// Refused when the table is frozen (with the reason) or while PyTorch would raise.
    fn grads(&self) -> Result<(f32, Named), String> {
        let c = self.compute();
        if let Some(why) = c.no_grad {
            return Err(why);
        }
        if let Some(e) = c.loss_error {
            return Err(e);
        }
        let grad =
            c.grads.and_then(|g| g.weight).ok_or("PyTorch raises on the current inputs: fix the marked cell first")?;
        Ok((c.loss.unwrap_or(f32::NAN), vec![("weight".to_string(), grad)]))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        (&mut self.learning, vec![("weight", &mut self.weight)])
    }

    fn settle(&mut self) {
        State::settle(self);
    }
}

impl View for Computed {
    fn issues(&self) -> &[Issue] {
        &self.issues
    }
    fn loss(&self) -> Option<f32> {
        self.loss
    }
    fn steps(&self, phase: Phase) -> usize {
        match phase {
            Phase::Forward => self.trace.len(),
            Phase::Backward => self.backward.len(),
        }
    }
    fn marks(&self, phase: Phase, playhead: usize) -> Marks {
        match phase {
            Phase::Forward => self.trace.marks_at(playhead),
            Phase::Backward => self.backward.marks_at(playhead),
        }
    }
    fn describe(&self, phase: Phase, playhead: usize) -> String {
        match phase {
            Phase::Forward => Computed::describe(self, playhead),
            Phase::Backward => self.describe_backward(playhead, self.padding_row),
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
        check_shape("weight", &self.weight, 2..=2, MAX_NUM_EMBEDDINGS.max(MAX_EMBEDDING_DIM))?;
        let (v, d) = (self.weight.shape()[0], self.weight.shape()[1]);
        if v > MAX_NUM_EMBEDDINGS || d > MAX_EMBEDDING_DIM || v * d > MAX_TABLE {
            return Err(format!(
                "weight is {v} × {d}; this scene allows at most {MAX_NUM_EMBEDDINGS} × {MAX_EMBEDDING_DIM} and \
                 {MAX_TABLE} numbers"
            ));
        }
        check_shape("input", &self.input, 1..=2, MAX_IDS)?;
        check_shape("the last output", &self.last_good, 1..=3, MAX_IDS.max(MAX_EMBEDDING_DIM))?;
        if self.input.numel() > MAX_IDS || self.last_good.numel() > MAX_IDS * MAX_EMBEDDING_DIM {
            return Err(format!("it holds more than {MAX_IDS} ids"));
        }
        self.seed.as_deref().map_or(Ok(()), check_seed)?;
        self.learning.check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::short;
    use crate::scene::contract::{Edit, Scene};
    use crate::scene::fixtures::{fixture, floats, ints, shape};
    use crate::trace::Mark;

    fn bits(xs: &[f32]) -> Vec<u32> {
        xs.iter().map(|x| x.to_bits()).collect()
    }

    /// A preset against its fixture: the table bit for bit, the ids, and the output.
    fn matches_fixture(preset: &str, name: &str) {
        let (s, f) = (State::preset(preset).unwrap(), fixture(name));
        assert_eq!(s.weight.shape(), shape(&f["params"]["weight"]));
        assert_eq!(bits(s.weight.data()), bits(&floats(&f["params"]["weight"])), "{preset} table");
        assert_eq!(s.input.shape(), shape(&f["input"]));
        let ids: Vec<i64> = f["input"]["data"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
        assert_eq!(s.input.data(), ids);
        let c = s.compute();
        assert!(c.issues.is_empty() && !c.stale);
        assert_eq!(c.output.shape(), shape(&f["output"]));
        assert_eq!(bits(c.output.data()), bits(&floats(&f["output"])), "{preset} output");
        assert_eq!(s.padding_idx, f["config"]["padding_idx"].as_i64());
        assert_eq!(s.from_pretrained, f["config"]["from_pretrained"].as_bool().unwrap_or(false));
    }

    /// The preset built from a fixture's own table, ids and config (not one of the presets).
    fn from_fixture(name: &str) -> (State, serde_json::Value) {
        let f = fixture(name);
        let weight = Tensor::new(shape(&f["params"]["weight"]), floats(&f["params"]["weight"])).unwrap();
        let input = Ids::new(shape(&f["input"]), ints(&f["input"])).unwrap();
        let mut s = State::new(name, weight, input);
        let flag = |k: &str| f["config"][k].as_bool();
        s.padding_idx = f["config"]["padding_idx"].as_i64();
        s.sparse = flag("sparse").unwrap_or(false);
        s.from_pretrained = flag("from_pretrained").unwrap_or(false);
        s.freeze = flag("freeze").unwrap_or(true);
        s.settle();
        (s, f)
    }

    fn close(got: &[f32], want: &[f32], what: &str) {
        assert_eq!(got.len(), want.len(), "{what}: length");
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            assert!((g - w).abs() <= 1e-5 + 1e-5 * w.abs(), "{what}[{k}]: {g} vs PyTorch {w}");
        }
    }

    /// `weight.grad` for the fixture's own (random) upstream, through the scene's module.
    fn grad_for_upstream(s: &State, f: &serde_json::Value) -> EmbeddingGrads {
        let up = Tensor::new(shape(&f["upstream"]), floats(&f["upstream"])).unwrap();
        s.module().unwrap().backward(&s.input, &up).unwrap()
    }

    #[test]
    fn grads_equal_pytorch_for_the_fixtures_upstream() {
        for (preset, name) in [
            ("seed123_4x5", "seed_embedding_4x5_seed123_idx_2_3_1"),
            ("padding_10x3", "seed_embedding_10x3_padding_idx_1"),
        ] {
            let (s, f) = (State::preset(preset).unwrap(), fixture(name));
            let g = grad_for_upstream(&s, &f).weight.unwrap();
            close(g.data(), &floats(&f["grads"]["weight"]), name);
        }
        for name in ["embedding_duplicates_accumulate_grad", "embedding_from_pretrained_trainable"] {
            let (s, f) = from_fixture(name);
            close(grad_for_upstream(&s, &f).weight.unwrap().data(), &floats(&f["grads"]["weight"]), name);
        }
        // sparse=True: PyTorch's uncoalesced COO list, one entry per id in input order.
        let (s, f) = from_fixture("embedding_sparse_grad");
        let g = grad_for_upstream(&s, &f);
        close(g.weight.unwrap().data(), &floats(&f["grads"]["weight"]), "sparse dense");
        let sp = g.sparse.unwrap();
        assert_eq!(sp.indices, ints(&f["sparse_grad"]["indices"]));
        assert_eq!(sp.values.shape(), shape(&f["sparse_grad"]["values"]));
        close(sp.values.data(), &floats(&f["sparse_grad"]["values"]), "sparse values");
        assert_eq!(sp.coalesced_rows(), ints(&f["sparse_grad"]["coalesced_rows"]));
    }

    #[test]
    fn sum_loss_grad_counts_the_ids() {
        let c = State::default().compute();
        assert_eq!(c.loss, Some(c.output.data().iter().map(|&x| x as f64).sum::<f64>() as f32));
        assert_eq!(c.upstream.as_ref().unwrap().data(), [1.0; 15]);
        let g = c.grads.unwrap().weight.unwrap();
        assert_eq!(g.data()[..5], [0.0; 5]);
        assert_eq!(g.data()[5..], [1.0; 15]);
        assert!(c.no_grad.is_none() && c.loss_error.is_none());
        // Ids [2, 4, 3, 1, 2, 0, 1, 1] with padding_idx=1: row r gets its count, row 1 none.
        let c = State::preset("padding_10x3").unwrap().compute();
        let g = c.grads.clone().unwrap().weight.unwrap();
        let rows: Vec<f32> = (0..10).map(|r| g.data()[r * 3]).collect();
        assert_eq!(rows, [1.0, 0.0, 2.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert!(c.describe_backward(0, Some(1)).contains("weight.grad[1] is the padding row"));
        // The duplicates fixture: id 1 three times.
        let (s, _) = from_fixture("embedding_duplicates_accumulate_grad");
        let g = s.compute().grads.unwrap().weight.unwrap();
        assert_eq!(g.data()[4..8], [3.0; 4]);
    }

    #[test]
    fn mse_loss_matches_pytorch_with_padding() {
        let (mut s, f) = from_fixture("embedding_mse_loss_padding");
        s.apply(&Edit::Loss { mse: true }).unwrap();
        s.edit("target", 1, "-0.17916560173034668").unwrap();
        let target = Tensor::new(shape(&f["loss"]["target"]), floats(&f["loss"]["target"])).unwrap();
        assert!(
            matches!(&s.learning.loss, Loss::Mse { target: t } if t.data()[1] == target.data()[1] && t.data()[0] == 0.0)
        );
        s.learning.loss = Loss::Mse { target };
        let c = s.compute();
        let want = f["loss"]["value"].as_f64().unwrap() as f32;
        assert!((c.loss.unwrap() - want).abs() < 1e-5, "{:?} vs {want}", c.loss);
        close(c.upstream.as_ref().unwrap().data(), &floats(&f["upstream"]), "mse upstream");
        close(c.grads.unwrap().weight.unwrap().data(), &floats(&f["grads"]["weight"]), "mse grads");
        // The target follows the output's shape.
        s.set_embedding_dim("2").unwrap();
        assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [2, 3, 2]));
        assert!(s.compute().loss_error.is_none());
        s.apply(&Edit::Loss { mse: false }).unwrap();
        assert!(s.edit("target", 0, "1").is_err());
    }

    #[test]
    fn backward_trace_accumulates_repeats_and_skips_padding() {
        let c = State::preset("padding_10x3").unwrap().compute();
        // 8 ids, three of them the padding id 1: 5 steps.
        assert_eq!(c.backward.len(), 5);
        let m = c.backward.marks_at(5);
        assert_eq!(m.phase, Some(crate::trace::Phase::Backward));
        assert_eq!(m.of("output.grad", &[1, 1, 0]), Some(Mark::Read));
        assert_eq!(m.of("weight.grad", &[0, 2]), Some(Mark::Write));
        assert_eq!(m.of("weight.grad", &[2, 0]), Some(Mark::Done));
        let steps: Vec<(usize, bool)> = c.back_picks.iter().map(|(p, a)| (p.row, *a)).collect();
        assert_eq!(steps, [(2, false), (4, false), (3, false), (2, true), (0, false)]);
        assert_eq!(
            c.describe_backward(1, Some(1)),
            "weight.grad[2] += output.grad[0, 0]: input[0, 0] = 2 looked that row up."
        );
        assert_eq!(
            c.describe_backward(4, Some(1)),
            "weight.grad[2] += output.grad[1, 0]: id 2 was looked up before, so its gradient adds up."
        );
    }

    #[test]
    fn frozen_table_has_no_grad_and_refuses_to_step() {
        let mut s = State::preset("pretrained_5x4").unwrap();
        let c = s.compute();
        assert_eq!(c.grads.as_ref().map(|g| g.weight.is_none()), Some(true));
        assert!(c.backward.is_empty());
        assert!(c.no_grad.as_ref().unwrap().contains("requires_grad=False"));
        assert!(c.describe_backward(0, None).contains("requires_grad=False"));
        let before = s.clone();
        assert!(s.apply(&Edit::Step).unwrap_err().contains("requires_grad=False"));
        assert_eq!(s, before);
        s.apply(&Edit::flag("freeze", false)).unwrap();
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.learning.steps, 1);
    }

    #[test]
    fn sgd_moves_exactly_the_looked_up_rows_undo_and_reset() {
        let mut s = State::default();
        let w0 = s.weight.clone();
        s.apply(&Edit::Lr { text: "0.1".into() }).unwrap();
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.learning.changed_in("weight"), (5..20).collect::<Vec<_>>());
        assert_eq!(s.weight.data()[..5], w0.data()[..5]);
        for k in 5..20 {
            assert_eq!(s.weight.data()[k], 1.0f32.mul_add(-0.1, w0.data()[k]));
        }
        // The output follows the stepped table.
        assert_eq!(s.compute().output.data()[..5], s.weight.data()[10..15]);
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.learning.steps, 2);
        s.undo().unwrap();
        assert_eq!(s.learning.steps, 1);
        assert!(s.learning.changed_in("weight").is_empty());
        s.reset().unwrap();
        assert_eq!((&s.weight, s.learning.steps), (&w0, 0));
        assert!(s.undo().is_err());
        // The padding row and rows no id picks never move; a repeated id moves twice as far.
        let mut p = State::preset("padding_10x3").unwrap();
        let w = p.weight.clone();
        p.apply(&Edit::Step).unwrap();
        let rows: Vec<usize> = p.learning.changed_in("weight").iter().map(|i| i / 3).collect();
        assert_eq!(rows, [0, 0, 0, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
        assert_eq!(p.weight.data()[6], 2.0f32.mul_add(-0.1, w.data()[6]));
        // An edit of the table forgets the steps, so undo cannot silently throw it away.
        p.edit("weight", 0, "1").unwrap();
        assert_eq!(p.learning.steps, 0);
        assert!(p.undo().is_err());
        assert!(p.apply(&Edit::Lr { text: "-1".into() }).unwrap_err().contains("Invalid learning rate"));
        // While PyTorch raises there is nothing to step.
        p.edit("input", 0, "10").unwrap();
        assert!(p.apply(&Edit::Step).is_err());
        let c = p.compute();
        assert!(c.grads.is_none() && c.loss.is_none() && c.backward.is_empty());
    }

    #[test]
    fn sparse_grad_is_the_uncoalesced_coo_list() {
        let mut s = State::preset("padding_10x3").unwrap();
        s.apply(&Edit::flag("sparse", true)).unwrap();
        let c = s.compute();
        let sp = c.grads.unwrap().sparse.unwrap();
        assert_eq!(sp.indices, [2, 4, 3, 2, 0]);
        assert_eq!(sp.values.shape(), [5, 3]);
        assert_eq!(sp.coalesced_rows(), [0, 2, 3, 4]);
    }

    #[test]
    fn old_autosaves_without_learning_still_load() {
        let mut v: serde_json::Value = serde_json::from_str(&super::super::to_json(&State::default())).unwrap();
        v.as_object_mut().unwrap().remove("learning");
        let s: State = super::super::from_json(&v.to_string()).unwrap();
        assert_eq!(s, State::default());
    }

    #[test]
    fn presets_reproduce_pytorch() {
        matches_fixture("seed123_4x5", "seed_embedding_4x5_seed123_idx_2_3_1");
        matches_fixture("pretrained_5x4", "seed_embedding_from_pretrained_batch");
        matches_fixture("padding_10x3", "seed_embedding_10x3_padding_idx_1");
        assert_eq!(State::default().preset, "seed123_4x5");
        let row0: Vec<String> = State::default().compute().output.data()[..5].iter().map(|&x| short(x)).collect();
        assert_eq!(row0, ["0.6957", "-1.8061", "-1.1589", "0.3255", "-0.6315"]);
        for (id, _) in PRESETS {
            assert_eq!(State::preset(id).unwrap().preset, *id);
        }
        assert!(State::preset("nope").is_none());
    }

    #[test]
    fn big_table_is_seed_0_and_rows_are_copied() {
        let s = State::preset("big_1000x30").unwrap();
        let mut g = Generator::manual_seed(0).unwrap();
        assert_eq!(s.weight, g.embedding(1000, 30, None).unwrap());
        let c = s.compute();
        assert_eq!(c.output.shape(), [2, 3, 30]);
        assert_eq!(c.output.data()[30..60], s.weight.data()[999 * 30..1000 * 30]);
        assert_eq!(c.shape_equation, "input (2, 3) → weight[input] → output (2, 3, 30)");
        assert!(c.captions.iter().any(|t| t.contains("30000 numbers") && t.contains("6 × 30 = 180")));
        assert!(c.captions.iter().any(|t| t.contains("Id 7 appears more than once")));
    }

    #[test]
    fn shape_equation_module_and_captions() {
        let c = State::default().compute();
        assert_eq!(c.shape_equation, "input (3,) → weight[input] → output (3, 5)");
        assert_eq!(c.module, "nn.Embedding(4, 5)");
        assert!(c.captions[0].contains("Nothing is multiplied"));
        let c = State::preset("pretrained_5x4").unwrap().compute();
        assert_eq!(c.shape_equation, "input (2, 4) → weight[input] → output (2, 4, 4)");
        assert_eq!(c.module, "nn.Embedding.from_pretrained(weight, freeze=True)");
        assert!(c.captions.iter().any(|t| t.starts_with("freeze=True")));
        let c = State::preset("padding_10x3").unwrap().compute();
        assert_eq!(c.module, "nn.Embedding(10, 3, padding_idx=1)");
        assert!(c.captions.iter().any(|t| t.contains("weight[1] is the padding row") && t.contains("zeros")));
    }

    #[test]
    fn edits_change_the_output_and_bad_text_changes_nothing() {
        let mut s = State::default();
        s.edit("weight", 2 * 5 + 1, "7.5").unwrap();
        assert_eq!(s.compute().output.get(&[0, 1]), Some(7.5));
        let before = s.clone();
        assert_eq!(s.edit("weight", 0, "abc"), Err("could not convert string to float: 'abc'".into()));
        assert_eq!(s.edit("input", 0, "1.5"), Err("invalid literal for int() with base 10: '1.5'".into()));
        assert!(s.edit("output", 0, "1").is_err());
        assert!(s.edit("weight", 99, "1").is_err());
        assert_eq!(s, before);
        s.edit("input", 0, "0").unwrap();
        assert_eq!(s.compute().output.data()[..5], s.weight.data()[..5]);
        s.paste("input", 0, "[3, 3]").unwrap();
        assert_eq!(s.input.data(), [3, 3, 1]);
        assert!(s.paste("input", 2, "1 2").unwrap_err().contains("does not fit"));
        s.paste("weight", 0, "1\t2\n3\t4").unwrap();
        assert_eq!(s.weight.data()[5..7], [3.0, 4.0]);
    }

    #[test]
    fn an_id_out_of_range_is_pinned_and_the_last_output_stays() {
        let mut s = State::default();
        let good = s.compute().output;
        s.edit("input", 1, "4").unwrap();
        s.edit("input", 2, "-1").unwrap();
        let c = s.compute();
        assert!(c.stale && c.trace.is_empty() && c.picks.is_empty());
        assert_eq!(c.output, good);
        let cells: Vec<_> = c.issues.iter().map(|i| (i.tensor.as_str(), i.cell)).collect();
        assert_eq!(cells, [("input", Some(1)), ("input", Some(2))]);
        assert_eq!(c.issues[0].error.to_string(), "IndexError: index out of range in self");
        assert_eq!(c.issues[0].hint, "ids must be in 0..3; this table has 4 rows");
        assert!(c.formula("output", &[0, 0]).is_none());
        assert!(c.describe(1).contains("fix the marked cell"));
        // A weight edit while broken does not pretend to run.
        s.edit("weight", 0, "9").unwrap();
        assert_eq!(s.compute().output, good);
        s.edit("input", 1, "3").unwrap();
        s.edit("input", 2, "0").unwrap();
        let c = s.compute();
        assert!(!c.stale && c.issues.is_empty());
        assert_eq!(c.output.get(&[2, 0]), Some(9.0));
    }

    #[test]
    fn padding_idx_counts_from_the_end_zeroes_a_drawn_row_and_is_checked() {
        let mut s = State::default();
        s.set_padding_idx("-1").unwrap();
        assert_eq!(s.padding_idx, Some(-1));
        assert_eq!(s.weight.data()[15..20], [0.0; 5]);
        assert_eq!(s.compute().module, "nn.Embedding(4, 5, padding_idx=-1)");
        // Same as PyTorch: torch.manual_seed(123); nn.Embedding(4, 5, padding_idx=-1).
        s.reinit("123").unwrap();
        let mut g = Generator::manual_seed(123).unwrap();
        assert_eq!(s.weight, g.embedding(4, 5, Some(-1)).unwrap());
        let good = s.compute().output;
        s.set_padding_idx("4").unwrap();
        let c = s.compute();
        assert!(c.stale);
        assert_eq!(c.output, good);
        assert_eq!(c.issues.len(), 1);
        assert_eq!((c.issues[0].tensor.as_str(), c.issues[0].cell), ("padding_idx", None));
        assert_eq!(c.issues[0].error.to_string(), "AssertionError: Padding_idx must be within num_embeddings");
        assert_eq!(c.issues[0].hint, "padding_idx must be in -4..3; negative counts from the end");
        assert!(s.reinit("1").unwrap_err().contains("Padding_idx must be within num_embeddings"));
        assert!(s.set_padding_idx("one").is_err());
        assert_eq!(s.padding_idx, Some(4));
        s.set_padding_idx("None").unwrap();
        assert!(s.compute().issues.is_empty());
        // A pretrained table keeps its padding row.
        let mut p = State::preset("pretrained_5x4").unwrap();
        p.set_padding_idx("2").unwrap();
        assert_eq!(p.weight.data()[8..12], [2.0; 4]);
        assert_eq!(p.compute().module, "nn.Embedding.from_pretrained(weight, freeze=True, padding_idx=2)");
    }

    #[test]
    fn resizes_keep_the_overlap() {
        let mut s = State::default();
        let w = s.weight.clone();
        s.set_num_embeddings("6").unwrap();
        assert_eq!(s.weight.shape(), [6, 5]);
        assert_eq!(s.weight.data()[..20], w.data()[..]);
        assert_eq!(s.weight.data()[20..], [0.0; 10]);
        s.set_embedding_dim("2").unwrap();
        assert_eq!(s.weight.data()[..4], [w.data()[0], w.data()[1], w.data()[5], w.data()[6]]);
        assert_eq!(s.compute().output.shape(), [3, 2]);
        assert_eq!(s.set_embedding_dim("0"), Err("choose a size from 1 to 512".into()));
        s.set_num_embeddings("1000").unwrap();
        assert!(s.set_embedding_dim("200").unwrap_err().contains("at most 100000 numbers"));
        assert_eq!(s.weight.shape(), [1000, 2]);
        // Shrinking below an id in use is PyTorch's IndexError on that id.
        s.set_num_embeddings("2").unwrap();
        let c = s.compute();
        assert_eq!(c.issues.iter().map(|i| i.cell).collect::<Vec<_>>(), [Some(0), Some(1)]);
    }

    #[test]
    fn ids_go_from_a_sequence_to_a_batch_and_back() {
        let mut s = State::default();
        s.set_batched(true);
        assert_eq!(s.input.shape(), [1, 3]);
        s.set_input_size(0, "2").unwrap();
        assert_eq!(s.input.data(), [2, 3, 1, 0, 0, 0]);
        s.set_input_size(1, "2").unwrap();
        assert_eq!(s.input.data(), [2, 3, 0, 0]);
        let c = s.compute();
        assert_eq!(c.output.shape(), [2, 2, 5]);
        assert_eq!(c.picks[1].arrow(), "output[0, 1] ← weight[3]");
        s.set_batched(false);
        assert_eq!(s.input.shape(), [4]);
        assert!(s.set_input_size(0, "2000").is_err());
        assert!(s.set_input_size(0, "x").is_err());
    }

    #[test]
    fn formula_is_a_copy_of_one_weight() {
        let c = State::default().compute();
        let f = c.formula("output", &[1, 2]).unwrap();
        assert_eq!(f.target, "output[1, 2]");
        assert!(f.products.is_empty() && f.func.is_none());
        assert_eq!(f.constants, [Factor::new("weight[3, 2]", f.value)]);
        assert_eq!(short(f.value), "-1.4096");
        assert!(c.formula("output", &[3, 0]).is_none());
        assert!(c.formula("output", &[0, 5]).is_none());
        assert!(c.formula("weight", &[0, 0]).is_none());
        assert!(c.formula("output", &[]).is_none());
        let c = State::preset("pretrained_5x4").unwrap().compute();
        assert_eq!(c.formula("output", &[1, 1, 3]).unwrap().constants[0].name, "weight[0, 3]");
    }

    #[test]
    fn trace_lights_each_row_then_writes_it() {
        let c = State::default().compute();
        assert_eq!(c.trace.len(), 3);
        let m = c.trace.marks_at(2);
        assert_eq!(m.of("weight", &[3, 4]), Some(Mark::Read));
        assert_eq!(m.of("input", &[1]), Some(Mark::Read));
        assert_eq!(m.of("output", &[1, 0]), Some(Mark::Write));
        assert_eq!(m.of("output", &[0, 0]), Some(Mark::Done));
        assert_eq!(m.of("weight", &[2, 0]), None);
        assert_eq!(c.describe(2), "input[1] = 3 selects weight[3], copied to output[1]");
        assert!(c.describe(0).starts_with("3 ids, 3 lookups"));
        let c = State::preset("pretrained_5x4").unwrap().compute();
        assert_eq!(c.describe(6), "input[1, 1] = 0 selects weight[0], copied to output[1, 1]");
        let rows: Vec<usize> = c.picks.iter().map(|p| p.row).collect();
        assert_eq!(rows, [2, 4, 3, 1, 2, 0, 1, 1]);
    }

    #[test]
    fn reinit_draws_like_torch_and_reports_bad_seeds() {
        let mut s = State::preset("pretrained_5x4").unwrap();
        s.reinit("42").unwrap();
        assert!(!s.from_pretrained);
        assert_eq!(s.weight, Generator::manual_seed(42).unwrap().embedding(5, 4, None).unwrap());
        let before = s.clone();
        assert_eq!(s.reinit("1.5"), Err("ValueError: invalid literal for int() with base 10: '1.5'".into()));
        assert_eq!(s.reinit("99999999999999999999999"), Err("RuntimeError: Overflow when unpacking long".into()));
        assert_eq!(s, before);
    }

    #[test]
    fn flags_show_in_the_module_call() {
        let mut s = State::preset("pretrained_5x4").unwrap();
        s.apply(&Edit::flag("freeze", false)).unwrap();
        s.apply(&Edit::flag("sparse", true)).unwrap();
        let c = s.compute();
        assert_eq!(c.module, "nn.Embedding.from_pretrained(weight, freeze=False, sparse=True)");
        assert!(c.captions.iter().any(|t| t.starts_with("sparse=True")));
        s.apply(&Edit::flag("from_pretrained", false)).unwrap();
        assert_eq!(s.compute().module, "nn.Embedding(5, 4, sparse=True)");
    }

    #[test]
    fn state_survives_json_and_hostile_states_do_not_panic() {
        let s = State::preset("padding_10x3").unwrap();
        assert_eq!(super::super::from_json::<State>(&super::super::to_json(&s)).unwrap(), s);
        let flags = r#""from_pretrained":true,"freeze":true,"sparse":false"#;
        let hostile = [
            // No rows, and a padding_idx that points at none.
            (r#"{"shape":[0,3],"data":[]}"#, r#"{"shape":[2],"data":[0,1]}"#, "0"),
            // A 1-D table and 0-d ids.
            (r#"{"shape":[3],"data":[1,2,3]}"#, r#"{"shape":[],"data":[0]}"#, "null"),
            // Ids and padding_idx at the ends of int64.
            (
                r#"{"shape":[2,2],"data":[1,2,3,4]}"#,
                r#"{"shape":[2],"data":[9223372036854775807,-9223372036854775808]}"#,
                "-9223372036854775808",
            ),
        ];
        for (weight, input, padding) in hostile {
            let text = format!(r#"{{"preset":"x","weight":{weight},"input":{input},"padding_idx":{padding},{flags}}}"#);
            let mut s: State = super::super::from_json(&text).unwrap();
            let c = s.compute();
            assert!(c.stale || c.issues.is_empty());
            let _ = (c.formula("output", &[0, 0]), c.describe(1));
            let _ = (s.set_num_embeddings("3"), s.set_embedding_dim("2"), s.set_padding_idx("-1"), s.reinit("0"));
            let _ = (s.set_input_size(1, "2"), s.edit("weight", 0, "1"), s.edit("input", 0, "1"));
            s.set_batched(true);
            s.compute();
        }
    }
}
