//! The Linear scene: `nn.Linear(in_features, out_features, bias)` on one vector, a batch or a
//! 3-D batch. It answers "is the input a row or a column?": `weight` is stored
//! `(out_features, in_features)`, every row of `input` is one sample, and
//! `output = input @ weight.T + bias`; a 1-D input is a single row, which is why `weight @ x`
//! gives the same numbers for one vector, and leading dimensions `(*, in) → (*, out)` are carried
//! along untouched.

use super::contract::{Edit, Scene, View};
use super::learn::Learning;
use super::{check_preset, check_seed, check_shape, label, paste, resize, set_float, Factor, Formula, Issue};
use crate::edit::{parse_float, parse_int};
use crate::ops::linear::{Linear, LinearGrads};
use crate::ops::loss::Loss;
use crate::ops::Named;
use crate::tensor::{numel, py_shape, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Marks, Phase, Span, Trace};
use crate::TorchError;
use serde::{Deserialize, Serialize};

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

impl State {
    /// The exact tensors of the seed material.
    pub fn preset(id: &str) -> Option<State> {
        if let Some(recipe) = recipe(id) {
            return recipe.run(id);
        }
        if id != "fixed_2_to_3_3d" {
            return None;
        }
        Some(State {
            preset: id.into(),
            weight: Tensor::new(vec![3, 2], vec![0., 0., 0., 1., 1., 0.]).ok()?,
            bias: Tensor::vector(vec![1., 1., 1.]),
            has_bias: true,
            input: Tensor::new(vec![2, 3, 2], [1., 1., 2., 2., 3., 3.].repeat(2)).ok()?,
            learning: Learning::default(),
            seed: None,
        })
    }

    pub fn in_features(&self) -> usize {
        self.weight.shape().get(1).copied().unwrap_or(0)
    }

    pub fn out_features(&self) -> usize {
        self.weight.shape().first().copied().unwrap_or(0)
    }

    /// The input's leading sizes: `[]` for a vector, `[N]` for a batch, `[B, N]` for 3-D.
    pub fn lead(&self) -> &[usize] {
        self.input.shape().split_last().map_or(&[], |(_, lead)| lead)
    }

    /// Types `text` into one cell of `weight`, `weight.T`, `bias`, `input` or the mse `target`.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(tensor, |t| set_float(t, index, text))
    }

    /// Pastes a block with its top-left at `index`; all or nothing.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(tensor, |t| paste(t, index, text, parse_float))
    }

    /// The output's shape, `(*, out_features)`.
    pub fn output_shape(&self) -> Vec<usize> {
        [self.lead(), &[self.out_features()]].concat()
    }

    /// The loss value, `dL/doutput` and every `.grad`, or the problem that stops backward.
    fn backward_pass(&self) -> Result<(f32, Tensor, LinearGrads), Issue> {
        let layer = self.layer()?;
        let output = layer.forward(&self.input).map_err(|e| issue("input", None, e, "fix the forward pass first"))?;
        let (loss, upstream) = self.learning.loss_of(&output).map_err(|e| {
            issue("target", None, e, "the target must have the output's shape: pick the mse loss again")
        })?;
        let grads = layer.backward(&self.input, &upstream).map_err(|e| issue("output", None, e, ""))?;
        Ok((loss, upstream, grads))
    }

    /// After the output's shape changes, an mse target starts again as zeros of the new shape.
    fn refit_target(&mut self) {
        let shape = self.output_shape();
        if let Loss::Mse { target } = &self.learning.loss {
            if target.shape() != shape.as_slice() {
                let _ = self.learning.use_mse(true, &shape);
            }
        }
    }

    /// `weight` as the learner may picture it, `(in_features, out_features)`: column `i` is
    /// weight row `i`. Only a view; the layer stores `weight`.
    pub fn weight_t(&self) -> Result<Tensor, String> {
        transpose(&self.weight)
    }

    /// Applies `f` to the named tensor; `weight.T` edits land in `weight`, transposed back.
    fn change(&mut self, name: &str, f: impl FnOnce(&mut Tensor) -> Result<(), String>) -> Result<(), String> {
        if name != "weight.T" {
            f(self.tensor_mut(name)?)?;
            if matches!(name, "weight" | "bias") {
                self.learning.forget();
            }
            return Ok(());
        }
        let mut t = self.weight_t()?;
        f(&mut t)?;
        self.weight = transpose(&t)?;
        self.learning.forget();
        Ok(())
    }

    fn tensor_mut(&mut self, name: &str) -> Result<&mut Tensor, String> {
        match name {
            "weight" => Ok(&mut self.weight),
            "bias" if self.has_bias => Ok(&mut self.bias),
            "bias" => Err("this layer has no bias (bias=False): turn bias on to edit it".into()),
            "input" => Ok(&mut self.input),
            "target" => match &mut self.learning.loss {
                Loss::Mse { target } => Ok(target),
                Loss::Sum => Err("the sum loss has no target: pick mse to set one".into()),
            },
            _ => Err(format!("the Linear scene has no tensor named {name}")),
        }
    }

    /// `torch.manual_seed(seed); nn.Linear(in, out, bias)`: fresh weight and bias, exactly as
    /// PyTorch draws them. The input is not the layer's, so it stays.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        let seed = Generator::parse_seed(seed).map_err(|e| e.to_string())?;
        let mut g = Generator::manual_seed(seed).map_err(|e| e.to_string())?;
        let (weight, bias) = g.linear(self.in_features(), self.out_features(), self.has_bias);
        self.weight = weight;
        if let Some(bias) = bias {
            self.bias = bias;
        }
        self.seed = Some(seed.to_string());
        self.learning.forget();
        Ok(())
    }

    /// Changes `in_features`: `weight`'s columns and `input`'s last dimension move together,
    /// since each input row is multiplied by each weight row. New cells are 0.
    pub fn set_in_features(&mut self, text: &str) -> Result<(), String> {
        let n = size(text)?;
        let weight = resized(&self.weight, 1, n)?;
        self.input = resized(&self.input, self.input.dim().saturating_sub(1), n)?;
        self.weight = weight;
        self.learning.forget();
        Ok(())
    }

    /// Changes `out_features`: one `weight` row and one `bias` entry per output feature.
    pub fn set_out_features(&mut self, text: &str) -> Result<(), String> {
        let n = size(text)?;
        let weight = resized(&self.weight, 0, n)?;
        self.bias = resized(&self.bias, 0, n)?;
        self.weight = weight;
        self.learning.forget();
        self.refit_target();
        Ok(())
    }

    pub fn set_bias(&mut self, on: bool) {
        self.has_bias = on;
        self.learning.forget();
    }

    /// The input as a vector `(in)` (rank 1), a batch `(N, in)` (2) or a 3-D batch `(B, N, in)`
    /// (3). A new leading dimension has size 1 (the same numbers, one more bracket, as
    /// `unsqueeze(0)`); a dropped one keeps its first slice.
    pub fn set_rank(&mut self, rank: usize) -> Result<(), String> {
        if !(1..=3).contains(&rank) {
            return Err("the input is a vector (1-D), a batch (2-D) or a 3-D batch".into());
        }
        let mut shape = self.input.shape().to_vec();
        while shape.len() < rank {
            shape.insert(0, 1);
        }
        let keep = shape.len() - rank;
        shape.drain(..keep);
        let len = numel(&shape).unwrap_or(0);
        let data = self.input.data()[..len].to_vec();
        self.input = Tensor::new(shape, data).map_err(|e| e.to_string())?;
        self.refit_target();
        Ok(())
    }

    /// Resizes leading dimension `dim` of the input (`N` of `(N, in)`; `B` or `N` of
    /// `(B, N, in)`). New rows are 0.
    pub fn set_lead(&mut self, dim: usize, text: &str) -> Result<(), String> {
        if dim >= self.lead().len() {
            return Err(format!("the input has no leading dimension {dim}"));
        }
        self.input = resized(&self.input, dim, size(text)?)?;
        self.refit_target();
        Ok(())
    }

    /// The layer as the op sees it, or the problem pinned to the tensor that causes it.
    fn layer(&self) -> Result<Linear, Issue> {
        let bias = self.has_bias.then(|| self.bias.clone());
        Linear::new(self.weight.clone(), bias).map_err(|e| {
            let tensor = if self.weight.dim() == 2 { "bias" } else { "weight" };
            issue(tensor, None, e, MISSHAPEN)
        })
    }

    /// Output, trace, shape equation and explanations; never panics, whatever the state.
    pub fn compute(&self) -> Computed {
        let run = self.layer().and_then(|layer| {
            let output = layer.forward(&self.input).and_then(|y| Ok((y, layer.forward_trace(self.input.shape())?)));
            output.map_err(|e| {
                let last = self.input.last_dim();
                let hint = format!(
                    "input's last dimension is {last} but in_features is {}: they must be equal \
                     (set in_features, or resize the input)",
                    self.in_features()
                );
                issue("input", last.checked_sub(1), e, &hint)
            })
        });
        let (output, trace, mut issues) = match run {
            Ok((y, trace)) => (Some(y), trace, Vec::new()),
            Err(issue) => (None, Trace::default(), vec![issue]),
        };
        let backward = match output {
            None => None,
            Some(_) => match self.backward_pass() {
                Ok(b) => Some(b),
                Err(issue) => {
                    issues.push(issue);
                    None
                }
            },
        };
        let backward_trace = match &backward {
            Some(_) => self.layer().ok().and_then(|l| l.backward_trace(self.input.shape()).ok()).unwrap_or_default(),
            None => Trace::default(),
        };
        let (loss, output_grad, grads) = match backward {
            Some((loss, upstream, grads)) => (Some(loss), Some(upstream), Some(grads)),
            None => (None, None, None),
        };
        Computed {
            shape_equation: self.shape_equation(output.as_ref(), issues.first()),
            lede: self.lede(),
            weight_note: self.weight_note(),
            module: format!(
                "nn.Linear({}, {}{})",
                self.in_features(),
                self.out_features(),
                if self.has_bias { "" } else { ", bias=False" }
            ),
            output,
            trace,
            issues,
            loss,
            output_grad,
            grads,
            backward: backward_trace,
            state: self.clone(),
        }
    }

    /// `input (2, 6) @ weight.T (6, 10) + bias (10,) → output (2, 10)`; a vector is read the
    /// other way round, `weight (10, 6) @ input (6,) + …`, and said to be the same computation.
    fn shape_equation(&self, output: Option<&Tensor>, issue: Option<&Issue>) -> String {
        let (w, x) = (self.weight.shape(), self.input.shape());
        let bias = if self.has_bias { format!(" + bias {}", py_shape(self.bias.shape())) } else { String::new() };
        let wt = format!("weight.T {}", py_shape(&w.iter().rev().copied().collect::<Vec<_>>()));
        let batched = format!("input {} @ {wt}{bias}", py_shape(x));
        let Some(y) = output else {
            return match issue.map(|i| i.tensor.as_str()) {
                Some("input") => {
                    format!("{batched}: cannot multiply, {} ≠ {}", self.input.last_dim(), self.in_features())
                }
                _ => format!("{batched}: no output until the problem shown is fixed"),
            };
        };
        let y = format!("output {}", py_shape(y.shape()));
        if x.len() == 1 {
            format!("weight {} @ input {}{bias} → {y}, the same computation as {batched}", py_shape(w), py_shape(x))
        } else {
            format!("{batched} → {y}")
        }
    }

    /// Why `weight` is `(out, in)`: one row per output feature.
    fn weight_note(&self) -> String {
        let (inf, outf) = (self.in_features(), self.out_features());
        format!(
            "weight is stored (out_features, in_features) = ({outf}, {inf}): row i holds the {inf} numbers \
             that make output feature i."
        )
    }

    /// The answer for this input layout, in plain words: what is a row, what `@` does with it.
    fn lede(&self) -> String {
        let (inf, outf, last) = (self.in_features(), self.out_features(), self.input.last_dim());
        let (bias_i, bias) = if self.has_bias { (" + bias[i]", " + bias") } else { ("", "") };
        match *self.lead() {
            [] => format!(
                "A 1-D input is one sample, a single row: output[i] = input · weight[i]{bias_i}. \
                 That is weight @ input{bias}, and input @ weight.T{bias} gives the same {outf} numbers."
            ),
            [n] => {
                let other_way = if n == inf {
                    "The other way round, weight @ input, would also run here, but it treats input's columns as \
                     samples and gives other numbers."
                        .to_string()
                } else {
                    format!(
                        "The other way round, weight @ input fails: mat1 and mat2 shapes cannot be multiplied \
                         ({outf}x{inf} and {n}x{last})."
                    )
                };
                format!(
                    "Each of the {n} rows of input is one sample with its own output row: output[n, i] = \
                     input[n] · weight[i]{bias_i}, all at once as input @ weight.T{bias}. {other_way}"
                )
            }
            ref lead => format!(
                "The leading dims {lead} are carried along: all {} rows of length {inf} go through the same \
                 weight, and output keeps {lead}, ending in out_features = {outf} instead of in_features = {inf}.",
                lead.iter().product::<usize>(),
                lead = py_shape(lead),
            ),
        }
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

/// Everything the view shows, computed from one state.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// `(*, out_features)`; `None` when the state can't run (see `issues`): the view keeps
    /// showing its last good output.
    pub output: Option<Tensor>,
    /// One step per output cell (per output row when there are too many).
    pub trace: Trace,
    pub issues: Vec<Issue>,
    /// `nn.Linear(6, 10)`, `nn.Linear(2, 3, bias=False)`
    pub module: String,
    pub shape_equation: String,
    /// The answer for this input layout: what a row is and what `@` does with it.
    pub lede: String,
    /// Why weight is `(out, in)`.
    pub weight_note: String,
    /// The loss value (`output.sum()` or `F.mse_loss(output, target)`), `None` when it can't run.
    pub loss: Option<f32>,
    /// `dL/doutput`: ones for `sum`, `2·(output − target)/N` for `mse`.
    pub output_grad: Option<Tensor>,
    /// `weight.grad`, `bias.grad` (with a bias) and `input.grad`, as PyTorch's backward leaves them.
    pub grads: Option<LinearGrads>,
    /// The backward pass, one step per output cell from the last to the first.
    pub backward: Trace,
    state: State,
}

impl Computed {
    /// `output[n, i] = Σ_k input[n, k]·weight[i, k] + bias[i]` with the numbers plugged in.
    pub fn formula(&self, output: &str, index: &[usize]) -> Option<Formula> {
        let y = self.output.as_ref().filter(|_| output == "output")?;
        let value = y.get(index)?;
        let (&i, row) = index.split_last()?;
        let s = &self.state;
        let products = (0..s.in_features())
            .map(|k| {
                let at = [row, &[k]].concat();
                let x = Factor::new(label("input", &at), s.input.get(&at)?);
                Some((x, Factor::new(label("weight", &[i, k]), s.weight.get(&[i, k])?)))
            })
            .collect::<Option<_>>()?;
        let constants = match s.has_bias {
            true => vec![Factor::new(label("bias", &[i]), s.bias.get(&[i])?)],
            false => Vec::new(),
        };
        Some(Formula { target: label("output", index), func: None, products, constants, value })
    }

    /// What lights up at `playhead`: the trace's marks, with each `weight` row also marked as
    /// the column of `weight.T` it becomes.
    pub fn marks_at(&self, playhead: usize) -> Marks {
        let mut marks = self.trace.marks_at(playhead);
        for spans in [&mut marks.read, &mut marks.write, &mut marks.done] {
            let columns: Vec<Span> = spans
                .iter()
                .filter(|s| s.tensor == "weight")
                .map(|s| Span::new("weight.T", [&[None], &s.index[..]].concat()))
                .collect();
            spans.extend(columns);
        }
        marks
    }

    /// The trace the timeline plays for `phase`.
    pub fn trace_of(&self, phase: Phase) -> &Trace {
        match phase {
            Phase::Forward => &self.trace,
            Phase::Backward => &self.backward,
        }
    }

    /// `marks_at` of the forward or the backward trace.
    pub fn marks_in(&self, phase: Phase, playhead: usize) -> Marks {
        match phase {
            Phase::Forward => self.marks_at(playhead),
            Phase::Backward => {
                let backward = Computed { trace: self.backward.clone(), ..self.clone() };
                backward.marks_at(playhead)
            }
        }
    }

    /// `describe` of the forward or the backward trace.
    pub fn describe_in(&self, phase: Phase, playhead: usize) -> String {
        match phase {
            Phase::Forward => self.describe(playhead),
            Phase::Backward => self.describe_backward(playhead),
        }
    }

    /// A backward step in words: `output.grad[0, 3] = 1 flows back: weight.grad[3] += 1 ·
    /// input[0], bias.grad[3] += 1, input.grad[0] += 1 · weight[3]`.
    pub fn describe_backward(&self, playhead: usize) -> String {
        let Some(step) = playhead.checked_sub(1).and_then(|i| self.backward.steps.get(i)) else {
            return match self.backward.is_empty() {
                true => "No gradient until the forward pass and the loss can run.".into(),
                false => format!(
                    "Step forward: the loss sends output.grad back, from the last output {} to the first,                      adding into weight.grad, {}input.grad.",
                    if self.backward.summarised { "row" } else { "cell" },
                    if self.state.has_bias { "bias.grad and " } else { "" }
                ),
            };
        };
        let name = |tensor: &str, list: &[Span]| {
            list.iter().find(|s| s.tensor == tensor).map(ToString::to_string).unwrap_or_default()
        };
        let g = name("output.grad", &step.reads);
        let at: Option<Vec<usize>> = step.reads.first().and_then(|s| s.index.iter().copied().collect());
        let value = match (&self.output_grad, at) {
            (Some(up), Some(at)) if !self.backward.summarised => {
                up.get(&at).map(|v| format!(" = {}", crate::format::short(v))).unwrap_or_default()
            }
            _ => String::new(),
        };
        let (x, w) = (name("input", &step.reads), name("weight", &step.reads));
        let mut parts = vec![format!("{} += {g} · {x}", name("weight.grad", &step.writes))];
        if self.state.has_bias {
            parts.push(format!("{} += {g}", name("bias.grad", &step.writes)));
        }
        parts.push(format!("{} += {g} · {w}", name("input.grad", &step.writes)));
        format!("{g}{value} flows back: {}", parts.join(", "))
    }

    /// The step that has just run at `playhead`, in words: `output[0, 3] = input[0] · weight[3] +
    /// bias[3]`.
    pub fn describe(&self, playhead: usize) -> String {
        let Some(step) = playhead.checked_sub(1).and_then(|i| self.trace.steps.get(i)) else {
            return match self.trace.summarised {
                _ if self.trace.is_empty() => "Nothing to compute until the shapes fit.".into(),
                true => "Step forward: each step computes one whole row of output.".into(),
                false => {
                    "Step forward: each step computes one output cell from one input row and one weight row.".into()
                }
            };
        };
        let read = |name: &str| step.reads_from(name).next().map(ToString::to_string);
        let (x, w) = (read("input").unwrap_or_default(), read("weight").unwrap_or_default());
        let product = if self.trace.summarised { format!("{x} @ {w}.T") } else { format!("{x} · {w}") };
        let bias = read("bias").map(|b| format!(" + {b}")).unwrap_or_default();
        let target = step.writes.first().map(ToString::to_string).unwrap_or_default();
        format!("{target} = {product}{bias}")
    }
}

/// The hint for a damaged save whose parameters don't fit together.
const MISSHAPEN: &str =
    "a Linear layer needs weight (out_features, in_features) and bias (out_features,): pick a preset to start again";

fn issue(tensor: &str, cell: Option<usize>, error: TorchError, hint: &str) -> Issue {
    Issue { tensor: tensor.into(), cell, error, hint: hint.into() }
}

/// A 2-D tensor's transpose.
fn transpose(t: &Tensor) -> Result<Tensor, String> {
    let &[rows, cols] = t.shape() else { return Err(format!("weight should be 2-D, got {}-D", t.dim())) };
    let data = (0..cols * rows).map(|j| t.data()[(j % rows) * cols + j / rows]).collect();
    Tensor::new(vec![cols, rows], data).map_err(|e| e.to_string())
}

/// `resize` with new cells 0.
fn resized(t: &Tensor, dim: usize, n: usize) -> Result<Tensor, String> {
    resize(t, dim, n, 0.0)
}

fn size(text: &str) -> Result<usize, String> {
    super::parse_size(text, MAX_SIZE)
}

impl Scene for State {
    type View = Computed;
    const NAME: &'static str = "linear";
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
                "in_features" => self.set_in_features(text),
                "out_features" => self.set_out_features(text),
                "input.dim" => self.set_rank(usize::try_from(parse_int(text)?).unwrap_or(0)),
                other => match lead_dim(other) {
                    Some(dim) => self.set_lead(dim, text),
                    None => Err(format!("the Linear scene has no field {other}")),
                },
            },
            Edit::Flag { flag, on } if flag == "bias" => {
                self.set_bias(*on);
                Ok(())
            }
            Edit::Reinit { seed } => self.reinit(seed),
            other => Err(format!("the Linear scene does not take {other:?}")),
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

    fn grads(&self) -> Result<(f32, Named), String> {
        let (loss, _, grads) = self.backward_pass().map_err(|e| format!("{}. {}", e.error, e.hint))?;
        let mut named = vec![("weight".to_string(), grads.weight)];
        named.extend(grads.bias.map(|b| ("bias".to_string(), b)));
        Ok((loss, named))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        let Self { weight, bias, has_bias, learning, .. } = self;
        let mut params = vec![("weight", weight)];
        if *has_bias {
            params.push(("bias", bias));
        }
        (learning, params)
    }
}

/// `input.shape[1]` → 1.
fn lead_dim(field: &str) -> Option<usize> {
    field.strip_prefix("input.shape[")?.strip_suffix(']')?.parse().ok()
}

impl View for Computed {
    fn issues(&self) -> &[Issue] {
        &self.issues
    }
    fn loss(&self) -> Option<f32> {
        self.loss
    }
    fn steps(&self, phase: Phase) -> usize {
        self.trace_of(phase).len()
    }
    fn marks(&self, phase: Phase, playhead: usize) -> Marks {
        self.marks_in(phase, playhead)
    }
    fn describe(&self, phase: Phase, playhead: usize) -> String {
        self.describe_in(phase, playhead)
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
        check_shape("weight", &self.weight, 2..=2, MAX_SIZE)?;
        check_shape("bias", &self.bias, 1..=1, MAX_SIZE)?;
        check_shape("input", &self.input, 1..=3, MAX_SIZE)?;
        self.seed.as_deref().map_or(Ok(()), check_seed)?;
        self.learning.check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::fixtures::fixture;
    use crate::scene::{from_json, to_json};
    use crate::trace::Mark;
    use serde_json::Value;

    fn tensor(v: &Value) -> Tensor {
        let shape = v["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap() as usize).collect();
        let data = v["data"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
        Tensor::new(shape, data).unwrap()
    }

    fn bits(t: &Tensor) -> (Vec<usize>, Vec<u32>) {
        (t.shape().to_vec(), t.data().iter().map(|x| x.to_bits()).collect())
    }

    fn close(got: &Tensor, want: &Tensor) {
        assert_eq!(got.shape(), want.shape());
        for (a, b) in got.data().iter().zip(want.data()) {
            assert!((a - b).abs() <= 1e-5 + 1e-5 * b.abs(), "{got:?} vs {want:?}");
        }
    }

    fn preset(id: &str) -> State {
        State::preset(id).unwrap()
    }

    #[test]
    fn presets_are_the_fixtures_bit_for_bit() {
        let cases = [
            ("vector_6_to_10", "seed_linear_6_to_10_vector"),
            ("batch_6_to_10", "seed_linear_6_to_10_batch2"),
            ("fixed_2_to_3_3d", "seed_linear_2_to_3_fixed_weights_3d_input"),
        ];
        assert_eq!(PRESETS.iter().map(|p| p.0).collect::<Vec<_>>(), cases.map(|c| c.0));
        for (id, name) in cases {
            let (s, f) = (preset(id), fixture(name));
            assert_eq!(bits(&s.weight), bits(&tensor(&f["params"]["weight"])), "{id} weight");
            assert_eq!(bits(&s.bias), bits(&tensor(&f["params"]["bias"])), "{id} bias");
            assert_eq!(bits(&s.input), bits(&tensor(&f["input"])), "{id} input");
            let c = s.compute();
            assert!(c.issues.is_empty());
            close(c.output.as_ref().unwrap(), &tensor(&f["output"]));
        }
        assert_eq!(State::default(), preset("vector_6_to_10"));
        assert_eq!(recipe("fixed_2_to_3_3d"), None);
        assert!(State::preset("nope").is_none());
    }

    #[test]
    fn reinit_is_nn_linear_after_manual_seed() {
        let mut s = State::default();
        s.reinit("42").unwrap();
        let f = fixture("init_seed42_linear_and_rnn");
        let params = &f["modules"][0]["params"];
        assert_eq!(bits(&s.weight), bits(&tensor(&params["weight"])));
        assert_eq!(bits(&s.bias), bits(&tensor(&params["bias"])));
        assert_eq!(bits(&s.input), bits(&preset("vector_6_to_10").input), "the input is not the layer's");

        let f = fixture("init_seed123_linear_4_to_5_no_bias");
        s.set_in_features("4").unwrap();
        s.set_out_features("5").unwrap();
        s.set_bias(false);
        let bias = s.bias.clone();
        s.reinit(" 123").unwrap();
        assert_eq!(bits(&s.weight), bits(&tensor(&f["modules"][0]["params"]["weight"])));
        assert_eq!(s.bias, bias, "bias=False draws no bias");

        let before = s.clone();
        assert_eq!(s.reinit("1.5").unwrap_err(), "ValueError: invalid literal for int() with base 10: '1.5'");
        assert_eq!(s.reinit("18446744073709551616").unwrap_err(), "RuntimeError: Overflow when unpacking long");
        assert_eq!(s, before);
    }

    #[test]
    fn cell_edits_and_pastes() {
        let mut s = preset("fixed_2_to_3_3d");
        s.edit("weight", 1, "2").unwrap();
        assert_eq!(s.compute().output.unwrap().data()[..3], [3., 2., 2.], "[1, 1] · [0, 2] + 1 = 3");
        s.edit("bias", 0, "-1.5").unwrap();
        s.edit("input", 11, "10").unwrap();
        assert_eq!(s.compute().output.unwrap().get(&[1, 2, 0]), Some(18.5), "[3, 10] · [0, 2] - 1.5");

        let before = s.clone();
        assert_eq!(s.edit("weight", 0, "abc").unwrap_err(), "could not convert string to float: 'abc'");
        assert_eq!(s.edit("weight", 6, "1").unwrap_err(), "no such cell");
        assert!(s.edit("output", 0, "1").unwrap_err().contains("no tensor named output"));
        s.set_bias(false);
        assert!(s.edit("bias", 0, "1").unwrap_err().contains("bias=False"));
        s.set_bias(true);
        assert_eq!(s, before, "bad edits change nothing");

        s.paste("weight", 2, "[[5, 6], [7, 8]]").unwrap();
        assert_eq!(s.weight.data(), [0., 2., 5., 6., 7., 8.]);
        assert!(s.paste("weight", 4, "1 2\n3 4").unwrap_err().contains("does not fit"));
    }

    #[test]
    fn weight_t_is_a_transposed_view_of_weight() {
        let mut s = preset("fixed_2_to_3_3d");
        let t = s.weight_t().unwrap();
        assert_eq!((t.shape(), t.data()), (&[2, 3][..], &[0., 0., 1., 0., 1., 0.][..]));
        s.edit("weight.T", 2, "7").unwrap(); // weight.T[0, 2] is weight[2, 0]
        assert_eq!(s.weight.get(&[2, 0]), Some(7.0));
        s.paste("weight.T", 3, "4 5 6").unwrap(); // weight.T[1] is weight[:, 1]
        assert_eq!(s.weight.data(), [0., 4., 0., 5., 7., 6.]);
        assert!(s.edit("weight.T", 6, "1").is_err());
        s.weight = Tensor::zeros(vec![6]).unwrap();
        assert_eq!(s.weight_t().unwrap_err(), "weight should be 2-D, got 1-D");
    }

    #[test]
    fn in_features_resizes_weight_columns_and_input_together() {
        let mut s = preset("batch_6_to_10");
        let (w, x) = (s.weight.clone(), s.input.clone());
        s.set_in_features("4").unwrap();
        assert_eq!((s.weight.shape(), s.input.shape()), (&[10, 4][..], &[2, 4][..]));
        assert_eq!(s.weight.get(&[9, 3]), w.get(&[9, 3]));
        assert_eq!(s.input.get(&[1, 3]), x.get(&[1, 3]));
        s.set_in_features("7").unwrap();
        assert_eq!((s.weight.get(&[0, 6]), s.input.get(&[1, 5])), (Some(0.0), Some(0.0)));
        assert!(s.compute().issues.is_empty());

        s.set_out_features("3").unwrap();
        assert_eq!((s.weight.shape(), s.bias.shape()), (&[3, 7][..], &[3][..]));
        assert_eq!(s.compute().output.unwrap().shape(), [2, 3]);

        let before = s.clone();
        for bad in ["0", "65", "-2", "two", ""] {
            assert!(s.set_in_features(bad).is_err(), "{bad}");
            assert!(s.set_out_features(bad).is_err(), "{bad}");
        }
        assert_eq!(s.set_in_features("65").unwrap_err(), "choose a size from 1 to 64");
        assert_eq!(s, before);
    }

    #[test]
    fn rank_changes_keep_the_numbers() {
        let mut s = State::default();
        let vector_out = s.compute().output.unwrap();
        s.set_rank(2).unwrap();
        assert_eq!(s.input.shape(), [1, 6]);
        let batch_out = s.compute().output.unwrap();
        assert_eq!(batch_out.shape(), [1, 10]);
        assert_eq!(batch_out.data(), vector_out.data(), "a vector is a batch of one row");
        s.set_lead(0, "3").unwrap();
        assert_eq!(s.input.shape(), [3, 6]);
        assert_eq!(s.input.data()[6..], [0.0; 12]);
        s.set_rank(3).unwrap();
        assert_eq!(s.input.shape(), [1, 3, 6]);
        s.set_lead(0, "2").unwrap();
        assert_eq!(s.compute().output.unwrap().shape(), [2, 3, 10]);
        assert!(s.set_lead(2, "2").unwrap_err().contains("no leading dimension 2"));
        assert!(s.set_lead(1, "65").is_err());
        assert!(s.set_rank(4).is_err() && s.set_rank(0).is_err());

        let mut s = preset("fixed_2_to_3_3d");
        s.set_rank(1).unwrap();
        assert_eq!(s.input.data(), [1., 1.], "keeps input[0, 0]");
        assert_eq!(s.lead(), [0usize; 0]);
    }

    #[test]
    fn inconsistent_saves_are_pinned_never_panic() {
        let mut s = preset("batch_6_to_10");
        s.input = Tensor::zeros(vec![2, 5]).unwrap();
        let c = s.compute();
        assert_eq!(c.output, None);
        assert!(c.trace.is_empty());
        let issue = &c.issues[0];
        assert_eq!((issue.tensor.as_str(), issue.cell), ("input", Some(4)));
        assert_eq!(
            issue.error.to_string(),
            "RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)"
        );
        assert!(issue.hint.contains("in_features is 6"));
        assert!(c.shape_equation.ends_with("(6, 10) + bias (10,): cannot multiply, 5 ≠ 6"));
        assert_eq!(c.formula("output", &[0, 0]), None);
        assert_eq!(c.describe(1), "Nothing to compute until the shapes fit.");
        s.set_in_features("5").unwrap();
        assert!(s.compute().issues.is_empty(), "setting in_features repairs it");

        // A tensor whose data does not fill its shape is refused when the save is read.
        let json = to_json(&preset("vector_6_to_10")).replace(r#""shape":[10,6]"#, r#""shape":[10,7]"#);
        assert!(from_json::<State>(&json).unwrap_err().contains("invalid for input of size 60"));
        let mut s = preset("vector_6_to_10");
        s.bias = Tensor::zeros(vec![4]).unwrap();
        s.weight = Tensor::zeros(vec![10, 6]).unwrap();
        assert_eq!(s.compute().issues[0].tensor, "bias");
        s.weight = Tensor::zeros(vec![60]).unwrap();
        assert_eq!(s.compute().issues[0].tensor, "weight");
        s.input = Tensor::zeros(vec![]).unwrap();
        s.weight = Tensor::zeros(vec![10, 6]).unwrap();
        s.set_bias(false);
        assert!(s.compute().issues[0].error.message.contains("at least 1D"));
        assert!(s.set_rank(2).is_ok(), "a 0-d input becomes a batch");
    }

    #[test]
    fn formula_plugs_in_the_numbers() {
        let c = preset("batch_6_to_10").compute();
        let f = c.formula("output", &[1, 3]).unwrap();
        assert_eq!(f.target, "output[1, 3]");
        assert_eq!(f.products.len(), 6);
        assert_eq!((f.products[2].0.name.as_str(), f.products[2].1.name.as_str()), ("input[1, 2]", "weight[3, 2]"));
        assert_eq!(f.constants[0].name, "bias[3]");
        assert_eq!(f.value, c.output.as_ref().unwrap().get(&[1, 3]).unwrap());
        let sum = f.products.iter().fold(0.0f32, |acc, (x, w)| acc + x.value * w.value) + f.constants[0].value;
        assert_eq!(sum, f.value);
        assert_eq!(c.formula("output", &[2, 0]), None);
        assert_eq!(c.formula("weight", &[0, 0]), None);
        assert_eq!(c.formula("output", &[]), None);

        let mut s = State::default();
        s.set_bias(false);
        let f = s.compute().formula("output", &[9]).unwrap();
        assert_eq!(f.products[5].0.name, "input[5]");
        assert!(f.constants.is_empty());
        let f = preset("fixed_2_to_3_3d").compute().formula("output", &[1, 2, 1]).unwrap();
        assert_eq!((f.products[1].0.name.as_str(), f.value), ("input[1, 2, 1]", 4.0));
    }

    #[test]
    fn the_trace_lights_a_weight_row_and_an_input_row() {
        let c = preset("batch_6_to_10").compute();
        assert_eq!(c.trace.len(), 20);
        let m = c.trace.marks_at(14); // step 13: output[1, 3]
        assert_eq!(m.of("weight", &[3, 5]), Some(Mark::Read));
        assert_eq!(m.of("weight", &[2, 5]), None);
        assert_eq!(m.of("input", &[1, 0]), Some(Mark::Read));
        assert_eq!(m.of("input", &[0, 0]), None);
        assert_eq!(m.of("bias", &[3]), Some(Mark::Read));
        assert_eq!(m.of("output", &[1, 3]), Some(Mark::Write));
        assert_eq!(m.of("output", &[1, 2]), Some(Mark::Done));
        assert_eq!(m.of("output", &[1, 4]), None);
        assert_eq!(c.describe(14), "output[1, 3] = input[1] · weight[3] + bias[3]");
        let m = c.marks_at(14);
        assert_eq!(m.of("weight.T", &[5, 3]), Some(Mark::Read), "weight row 3 is weight.T column 3");
        assert_eq!(m.of("weight.T", &[3, 5]), None);
        assert_eq!(m.of("weight", &[3, 0]), Some(Mark::Read));
        assert_eq!(m.of("output", &[0, 9]), Some(Mark::Done));
        assert!(c.describe(0).starts_with("Step forward"));

        let c = State::default().compute();
        assert_eq!(c.describe(4), "output[3] = input · weight[3] + bias[3]");
        assert_eq!(c.trace.marks_at(4).of("input", &[5]), Some(Mark::Read));
        assert_eq!(
            preset("fixed_2_to_3_3d").compute().describe(18),
            "output[1, 2, 2] = input[1, 2] · weight[2] + bias[2]"
        );

        let mut s = State::default();
        s.set_rank(3).unwrap();
        s.set_lead(0, "64").unwrap();
        s.set_lead(1, "64").unwrap();
        s.set_bias(false);
        let c = s.compute();
        assert!(c.trace.summarised);
        assert_eq!(c.describe(2), "output[0, 1] = input[0, 1] @ weight.T");
        assert!(c.describe(0).contains("one whole row"));
    }

    #[test]
    fn shape_equations_and_explanations() {
        let c = State::default().compute();
        assert_eq!(c.module, "nn.Linear(6, 10)");
        assert_eq!(
            c.shape_equation,
            "weight (10, 6) @ input (6,) + bias (10,) → output (10,), the same computation as \
             input (6,) @ weight.T (6, 10) + bias (10,)"
        );
        assert!(c.weight_note.contains("(10, 6): row i holds the 6 numbers"));
        assert!(c.lede.contains("weight @ input + bias, and input @ weight.T + bias gives the same 10 numbers"));
        let c = preset("batch_6_to_10").compute();
        assert_eq!(c.shape_equation, "input (2, 6) @ weight.T (6, 10) + bias (10,) → output (2, 10)");
        assert!(c.lede.contains("(10x6 and 2x6)"));
        let mut s = preset("fixed_2_to_3_3d");
        assert!(s.compute().lede.contains("(2, 3) are carried along: all 6 rows of length 2"));
        s.set_bias(false);
        let c = s.compute();
        assert_eq!(c.shape_equation, "input (2, 3, 2) @ weight.T (2, 3) → output (2, 3, 3)");
        assert_eq!(c.module, "nn.Linear(2, 3, bias=False)");
        let mut s = preset("batch_6_to_10");
        s.set_lead(0, "6").unwrap();
        assert!(s.compute().lede.contains("would also run here"));
    }

    /// A state holding a fixture's layer and input.
    fn from_fixture(f: &Value) -> State {
        State {
            preset: String::new(),
            weight: tensor(&f["params"]["weight"]),
            bias: tensor(&f["params"]["bias"]),
            has_bias: true,
            input: tensor(&f["input"]),
            learning: Learning::default(),
            seed: None,
        }
    }

    #[test]
    fn mse_grads_are_pytorchs() {
        let f = fixture("linear_mse_loss");
        let mut s = from_fixture(&f);
        s.apply(&Edit::Loss { mse: true }).unwrap();
        let target = tensor(&f["loss"]["target"]);
        for (i, x) in target.data().iter().enumerate() {
            s.edit("target", i, &format!("{x:e}")).unwrap();
        }
        let c = s.compute();
        assert!(c.issues.is_empty());
        let want = f["loss"]["value"].as_f64().unwrap() as f32;
        assert!((c.loss.unwrap() - want).abs() < 1e-5, "{:?} vs {want}", c.loss);
        close(c.output_grad.as_ref().unwrap(), &tensor(&f["upstream"]));
        let g = c.grads.unwrap();
        close(&g.weight, &tensor(&f["grads"]["weight"]));
        close(g.bias.as_ref().unwrap(), &tensor(&f["grads"]["bias"]));
        close(&g.input, &tensor(&f["grads"]["input"]));
    }

    /// The seed fixtures' grads use a random `upstream`; an mse target of
    /// `output − upstream·numel/2` makes exactly that the loss's gradient.
    #[test]
    fn preset_grads_are_pytorchs_for_their_upstream() {
        for (id, name) in [
            ("vector_6_to_10", "seed_linear_6_to_10_vector"),
            ("batch_6_to_10", "seed_linear_6_to_10_batch2"),
            ("fixed_2_to_3_3d", "seed_linear_2_to_3_fixed_weights_3d_input"),
        ] {
            let (mut s, f) = (preset(id), fixture(name));
            let up = tensor(&f["upstream"]);
            let y = s.compute().output.unwrap();
            let half = y.numel() as f64 / 2.0;
            s.apply(&Edit::Loss { mse: true }).unwrap();
            for (i, (o, u)) in y.data().iter().zip(up.data()).enumerate() {
                s.edit("target", i, &format!("{:e}", (*o as f64 - *u as f64 * half) as f32)).unwrap();
            }
            let g = s.compute().grads.unwrap();
            close(&g.weight, &tensor(&f["grads"]["weight"]));
            close(g.bias.as_ref().unwrap(), &tensor(&f["grads"]["bias"]));
            close(&g.input, &tensor(&f["grads"]["input"]));
        }
    }

    #[test]
    fn sum_loss_grads_have_a_closed_form() {
        for (id, _) in PRESETS {
            let s = preset(id);
            let c = s.compute();
            let g = c.grads.unwrap();
            let (inf, outf) = (s.in_features(), s.out_features());
            let rows = s.input.numel() / inf;
            assert_eq!(c.loss.unwrap(), c.output.unwrap().data().iter().map(|&x| x as f64).sum::<f64>() as f32);
            for i in 0..outf {
                for k in 0..inf {
                    let want: f32 = (0..rows).map(|n| s.input.data()[n * inf + k]).sum();
                    assert!((g.weight.data()[i * inf + k] - want).abs() < 1e-5, "{id} weight.grad[{i}, {k}]");
                }
                assert_eq!(g.bias.as_ref().unwrap().data()[i], rows as f32);
            }
            for n in 0..rows {
                for k in 0..inf {
                    let want: f32 = (0..outf).map(|i| s.weight.data()[i * inf + k]).sum();
                    assert!((g.input.data()[n * inf + k] - want).abs() < 1e-5, "{id} input.grad[{n}, {k}]");
                }
            }
        }
        let c = preset("fixed_2_to_3_3d").compute();
        let g = c.grads.unwrap();
        assert_eq!(g.weight.data(), [12.0; 6]);
        assert_eq!(g.bias.unwrap().data(), [6.0; 3]);
        assert_eq!(g.input.data(), [1.0; 12]);
        let mut s = preset("fixed_2_to_3_3d");
        s.set_bias(false);
        assert_eq!(s.compute().grads.unwrap().bias, None);
    }

    #[test]
    fn sgd_changes_exactly_the_cells_with_gradient() {
        let mut s = preset("fixed_2_to_3_3d");
        // Zero input column 1: weight.grad[:, 1] = 0, so only weight column 0 and bias move.
        for n in 0..6 {
            s.edit("input", 2 * n + 1, "0").unwrap();
        }
        s.apply(&Edit::Lr { text: "0.5".into() }).unwrap();
        let before = s.clone();
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.learning.steps, 1);
        assert_eq!(s.learning.changed_in("weight"), [0, 2, 4]);
        assert_eq!(s.learning.changed_in("bias"), [0, 1, 2]);
        // weight.grad[:, 0] = Σ input[..., 0] = 12; bias.grad = 6.
        assert_eq!(s.weight.data(), [-6., 0., -6., 1., -5., 0.]);
        assert_eq!(s.bias.data(), [-2.; 3]);
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.learning.steps, 2);
        s.undo().unwrap();
        assert_eq!(s.weight.data(), [-6., 0., -6., 1., -5., 0.]);
        assert!(s.learning.changed.is_empty());
        s.reset().unwrap();
        assert_eq!((&s.weight, &s.bias, s.learning.steps), (&before.weight, &before.bias, 0));
        assert!(s.undo().is_err());

        // bias=False: only weight steps; an edit of a parameter forgets the steps.
        s.set_bias(false);
        s.apply(&Edit::Step).unwrap();
        assert_eq!(s.learning.changed_in("bias"), Vec::<usize>::new());
        assert_eq!(s.bias, before.bias);
        s.edit("weight", 1, "3").unwrap();
        assert_eq!((s.learning.steps, s.learning.history.len()), (0, 0));
        s.apply(&Edit::Step).unwrap();
        s.edit("input", 0, "3").unwrap();
        assert_eq!(s.learning.steps, 1, "the input is not a parameter");
        assert_eq!(s.apply(&Edit::Lr { text: "-1".into() }).unwrap_err(), "ValueError: Invalid learning rate: -1");
    }

    #[test]
    fn the_mse_target_follows_the_output_shape() {
        let mut s = preset("batch_6_to_10");
        assert!(s.edit("target", 0, "1").unwrap_err().contains("no target"));
        s.apply(&Edit::Loss { mse: true }).unwrap();
        s.edit("target", 19, "1").unwrap();
        assert!(s.edit("target", 20, "1").is_err());
        s.set_lead(0, "3").unwrap();
        assert!(s.compute().issues.is_empty());
        assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [3, 10]));
        s.set_out_features("4").unwrap();
        s.set_rank(1).unwrap();
        assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [4]));
        // A damaged save whose target no longer fits: pinned on target, no gradient, no panic.
        s.learning.loss = Loss::Mse { target: Tensor::zeros(vec![7]).unwrap() };
        let c = s.compute();
        assert!(c.output.is_some() && c.grads.is_none() && c.loss.is_none());
        assert_eq!(c.issues[0].tensor, "target");
        assert!(c.backward.is_empty());
        assert!(s.apply(&Edit::Step).is_err());
        s.apply(&Edit::Loss { mse: false }).unwrap();
        assert!(s.compute().issues.is_empty());
        // Saves from before learning existed still load.
        let json = to_json(&preset("vector_6_to_10"));
        let old = serde_json::to_string(&{
            let mut v: Value = serde_json::from_str(&json).unwrap();
            v.as_object_mut().unwrap().remove("learning");
            v
        })
        .unwrap();
        assert_eq!(from_json::<State>(&old), Ok(preset("vector_6_to_10")));
    }

    #[test]
    fn the_backward_trace_runs_from_the_last_output_cell() {
        let c = preset("batch_6_to_10").compute();
        assert_eq!(c.trace_of(Phase::Backward).len(), 20);
        let m = c.marks_in(Phase::Backward, 1); // output.grad[1, 9]
        assert_eq!(m.phase, Some(Phase::Backward));
        assert_eq!(m.of("output.grad", &[1, 9]), Some(Mark::Read));
        assert_eq!(m.of("input", &[1, 2]), Some(Mark::Read));
        assert_eq!(m.of("weight", &[9, 0]), Some(Mark::Read));
        assert_eq!(m.of("weight.T", &[0, 9]), Some(Mark::Read));
        assert_eq!(m.of("weight.grad", &[9, 5]), Some(Mark::Write));
        assert_eq!(m.of("bias.grad", &[9]), Some(Mark::Write));
        assert_eq!(m.of("input.grad", &[1, 0]), Some(Mark::Write));
        assert_eq!(m.of("input.grad", &[0, 0]), None);
        assert_eq!(c.marks_in(Phase::Backward, 2).of("weight.grad", &[9, 0]), Some(Mark::Done));
        assert_eq!(c.marks_in(Phase::Forward, 14), c.marks_at(14));
        assert_eq!(
            c.describe_in(Phase::Backward, 1),
            "output.grad[1, 9] = 1.0000 flows back: weight.grad[9] += output.grad[1, 9] · input[1], \
             bias.grad[9] += output.grad[1, 9], input.grad[1] += output.grad[1, 9] · weight[9]"
        );
        assert!(c.describe_in(Phase::Backward, 0).starts_with("Step forward: the loss sends output.grad back"));
        assert_eq!(c.describe_in(Phase::Forward, 14), c.describe(14));
        let mut s = State::default();
        s.set_bias(false);
        let d = s.compute().describe_backward(10);
        assert_eq!(d, "output.grad[0] = 1.0000 flows back: weight.grad[0] += output.grad[0] · input, input.grad += output.grad[0] · weight[0]");
        let mut s = preset("batch_6_to_10");
        s.input = Tensor::zeros(vec![2, 5]).unwrap();
        assert!(s.compute().describe_backward(0).starts_with("No gradient"));
    }

    proptest::proptest! {
        /// Whatever a learner does with the controls, the layer still runs and the output has
        /// the input's leading dims and out_features.
        #[test]
        fn controls_keep_the_layer_runnable(
            ops in proptest::collection::vec((0u8..6, 0usize..40, -1i64..12), 0..12)
        ) {
            let mut s = State::default();
            for (op, a, b) in ops {
                let text = if b == 11 { "65".to_string() } else { b.to_string() };
                let _ = match op {
                    0 => s.set_in_features(&text),
                    1 => s.set_out_features(&text),
                    2 => s.set_rank(a % 5),
                    3 => s.set_lead(a % 3, &text),
                    4 => {
                        s.set_bias(a % 2 == 0);
                        Ok(())
                    }
                    _ => s.edit(["weight", "weight.T", "bias", "input"][a % 4], a, &text),
                };
            }
            let c = s.compute();
            proptest::prop_assert!(c.issues.is_empty());
            let want = [s.lead(), &[s.out_features()]].concat();
            proptest::prop_assert_eq!(c.output.map(|y| y.shape().to_vec()), Some(want));
            proptest::prop_assert_eq!(s.input.last_dim(), s.in_features());
        }
    }

    #[test]
    fn state_round_trips_as_json() {
        let mut s = preset("fixed_2_to_3_3d");
        s.set_bias(false);
        assert_eq!(from_json::<State>(&to_json(&s)), Ok(s));
        assert!(from_json::<State>("{\"weight\": 3}").is_err());
    }
}
