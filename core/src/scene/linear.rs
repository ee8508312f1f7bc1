//! The Linear scene: `nn.Linear(in_features, out_features, bias)` on one vector, a batch or a
//! 3-D batch. It answers "is the input a row or a column?": `weight` is stored
//! `(out_features, in_features)`, every row of `input` is one sample, and
//! `output = input @ weight.T + bias`; a 1-D input is a single row, which is why `weight @ x`
//! gives the same numbers for one vector, and leading dimensions `(*, in) → (*, out)` are carried
//! along untouched.

use super::{label, paste, resize, set_float, Factor, Formula, Issue};
use crate::edit::parse_float;
use crate::ops::linear::Linear;
use crate::tensor::{numel, Tensor};
use crate::torch_rng::Generator;
use crate::trace::{Marks, Span, Trace};
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

    /// Types `text` into one cell of `weight`, `weight.T`, `bias` or `input`.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(tensor, |t| set_float(t, index, text))
    }

    /// Pastes a block with its top-left at `index`; all or nothing.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.change(tensor, |t| paste(t, index, text, parse_float))
    }

    /// `weight` as the learner may picture it, `(in_features, out_features)`: column `i` is
    /// weight row `i`. Only a view; the layer stores `weight`.
    pub fn weight_t(&self) -> Result<Tensor, String> {
        transpose(&self.weight)
    }

    /// Applies `f` to the named tensor; `weight.T` edits land in `weight`, transposed back.
    fn change(&mut self, name: &str, f: impl FnOnce(&mut Tensor) -> Result<(), String>) -> Result<(), String> {
        if name != "weight.T" {
            return f(self.tensor_mut(name)?);
        }
        let mut t = self.weight_t()?;
        f(&mut t)?;
        self.weight = transpose(&t)?;
        Ok(())
    }

    fn tensor_mut(&mut self, name: &str) -> Result<&mut Tensor, String> {
        match name {
            "weight" => Ok(&mut self.weight),
            "bias" if self.has_bias => Ok(&mut self.bias),
            "bias" => Err("this layer has no bias (bias=False): turn bias on to edit it".into()),
            "input" => Ok(&mut self.input),
            _ => Err(format!("the Linear scene has no tensor named {name}")),
        }
    }

    /// `torch.manual_seed(seed); nn.Linear(in, out, bias)`: fresh weight and bias, exactly as
    /// PyTorch draws them. The input is not the layer's, so it stays.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        let mut g = Generator::parse_seed(seed).and_then(Generator::manual_seed).map_err(|e| e.to_string())?;
        let (weight, bias) = g.linear(self.in_features(), self.out_features(), self.has_bias);
        self.weight = weight;
        if let Some(bias) = bias {
            self.bias = bias;
        }
        Ok(())
    }

    /// Changes `in_features`: `weight`'s columns and `input`'s last dimension move together,
    /// since each input row is multiplied by each weight row. New cells are 0.
    pub fn set_in_features(&mut self, text: &str) -> Result<(), String> {
        let n = size(text)?;
        let weight = resized(&self.weight, 1, n)?;
        self.input = resized(&self.input, self.input.dim().saturating_sub(1), n)?;
        self.weight = weight;
        Ok(())
    }

    /// Changes `out_features`: one `weight` row and one `bias` entry per output feature.
    pub fn set_out_features(&mut self, text: &str) -> Result<(), String> {
        let n = size(text)?;
        let weight = resized(&self.weight, 0, n)?;
        self.bias = resized(&self.bias, 0, n)?;
        self.weight = weight;
        Ok(())
    }

    pub fn set_bias(&mut self, on: bool) {
        self.has_bias = on;
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
        Ok(())
    }

    /// Resizes leading dimension `dim` of the input (`N` of `(N, in)`; `B` or `N` of
    /// `(B, N, in)`). New rows are 0.
    pub fn set_lead(&mut self, dim: usize, text: &str) -> Result<(), String> {
        if dim >= self.lead().len() {
            return Err(format!("the input has no leading dimension {dim}"));
        }
        self.input = resized(&self.input, dim, size(text)?)?;
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
        let (output, trace, issues) = match run {
            Ok((y, trace)) => (Some(y), trace, Vec::new()),
            Err(issue) => (None, Trace::default(), vec![issue]),
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
            state: self.clone(),
        }
    }

    /// `input (2, 6) @ weight.T (6, 10) + bias (10,) → output (2, 10)`; a vector is read the
    /// other way round, `weight (10, 6) @ input (6,) + …`, and said to be the same computation.
    fn shape_equation(&self, output: Option<&Tensor>, issue: Option<&Issue>) -> String {
        let (w, x) = (self.weight.shape(), self.input.shape());
        let bias = if self.has_bias { format!(" + bias {}", tuple(self.bias.shape())) } else { String::new() };
        let wt = format!("weight.T {}", tuple(&w.iter().rev().copied().collect::<Vec<_>>()));
        let batched = format!("input {} @ {wt}{bias}", tuple(x));
        let Some(y) = output else {
            return match issue.map(|i| i.tensor.as_str()) {
                Some("input") => {
                    format!("{batched}: cannot multiply, {} ≠ {}", self.input.last_dim(), self.in_features())
                }
                _ => format!("{batched}: no output until the problem shown is fixed"),
            };
        };
        let y = format!("output {}", tuple(y.shape()));
        if x.len() == 1 {
            format!("weight {} @ input {}{bias} → {y}, the same computation as {batched}", tuple(w), tuple(x))
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
                lead = tuple(lead),
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
        Some(State { preset: preset.into(), weight, bias: bias?, has_bias: true, input: input? })
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

/// A shape as Python prints a tuple: `(2, 6)`, `(6,)`.
fn tuple(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
    format!("({}{})", dims.join(", "), if shape.len() == 1 { "," } else { "" })
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
