use super::*;
use crate::say;
use crate::say::{Arg, Say};

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
    pub lede: Say,
    /// Why weight is `(out, in)`.
    pub weight_note: Say,
    /// The loss value (`output.sum()` or `F.mse_loss(output, target)`), `None` when it can't run.
    pub loss: Option<f32>,
    /// `dL/doutput`: ones for `sum`, `2·(output − target)/N` for `mse`.
    pub output_grad: Option<Tensor>,
    /// `weight.grad`, `bias.grad` (with a bias) and `input.grad`, as PyTorch's backward leaves them.
    pub grads: Option<LinearGrads>,
    /// The backward pass, one step per output cell from the last to the first.
    pub backward: Trace,
    pub(super) state: State,
}

impl Computed {
    /// How a cell of `output` or of a gradient is made, with the numbers plugged in.
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        match tensor {
            "output" => self.output_formula(index),
            "weight.grad" | "bias.grad" | "input.grad" => self.grad_formula(tensor, index),
            _ => None,
        }
    }

    /// `output[n, i] = Σ_k input[n, k]·weight[i, k] + bias[i]`.
    fn output_formula(&self, index: &[usize]) -> Option<Formula> {
        let value = self.output.as_ref()?.get(index)?;
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
        Some(Formula { target: label("output", index), func: None, products, constants, value, zeros: 0 })
    }

    /// The sums backward makes, over every input row `n`: `weight.grad[i, k] = Σ_n
    /// output.grad[n, i]·input[n, k]`, `bias.grad[i] = Σ_n output.grad[n, i]`, `input.grad[n, k] =
    /// Σ_i output.grad[n, i]·weight[i, k]`.
    fn grad_formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        let (up, grads, s) = (self.output_grad.as_ref()?, self.grads.as_ref()?, &self.state);
        let out = s.out_features();
        // The leading index of every output row: `[]` for a vector, `[n]` for a batch.
        let rows: Vec<Vec<usize>> = (0..up.numel() / out.max(1))
            .map(|r| {
                let mut at = crate::tensor::unravel(r * out, up.shape());
                at.pop();
                at
            })
            .collect();
        let g = |lead: &[usize], i: usize| {
            let at = [lead, &[i]].concat();
            Some(Factor::new(label("output.grad", &at), up.get(&at)?))
        };
        let (products, constants, value) = match (tensor, index) {
            ("weight.grad", &[i, k]) => {
                let products = rows.iter().map(|n| {
                    let at = [&n[..], &[k]].concat();
                    Some((g(n, i)?, Factor::new(label("input", &at), s.input.get(&at)?)))
                });
                (products.collect::<Option<_>>()?, Vec::new(), grads.weight.get(index)?)
            }
            ("bias.grad", &[i]) => {
                let terms = rows.iter().map(|n| g(n, i)).collect::<Option<_>>()?;
                (Vec::new(), terms, grads.bias.as_ref()?.get(index)?)
            }
            ("input.grad", [lead @ .., k]) => {
                let products = (0..out)
                    .map(|i| Some((g(lead, i)?, Factor::new(label("weight", &[i, *k]), s.weight.get(&[i, *k])?))));
                (products.collect::<Option<_>>()?, Vec::new(), grads.input.get(index)?)
            }
            _ => return None,
        };
        Some(Formula { target: label(tensor, index), func: None, products, constants, value, zeros: 0 })
    }

    /// What lights up at `playhead` going forward.
    pub fn marks_at(&self, playhead: usize) -> Marks {
        self.marks_in(Phase::Forward, playhead)
    }

    /// The trace the timeline plays for `phase`.
    pub fn trace_of(&self, phase: Phase) -> &Trace {
        match phase {
            Phase::Forward => &self.trace,
            Phase::Backward => &self.backward,
        }
    }

    /// What lights up at `playhead` of `phase`: the trace's marks, with each `weight` row also
    /// marked as the column of `weight.T` it becomes.
    pub fn marks_in(&self, phase: Phase, playhead: usize) -> Marks {
        let mut marks = self.trace_of(phase).marks_at(playhead);
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

    /// `describe` of the forward or the backward trace: the ways to say it, the most said first.
    pub fn describe_in(&self, phase: Phase, playhead: usize) -> Vec<Say> {
        match phase {
            Phase::Forward => vec![self.describe(playhead)],
            Phase::Backward => self.describe_backward(playhead),
        }
    }

    /// A backward step in words, the ways to say it, the most said first: `output.grad[3] =
    /// 1.0000 flows back into row 3 of weight.grad (times the input), bias.grad[3] and input.grad
    /// (times row 3 of weight).` in English; then without the value (it is on screen in
    /// output.grad), then without the "times" parts, for a batch's longer names.
    pub fn describe_backward(&self, playhead: usize) -> Vec<Say> {
        let Some(step) = playhead.checked_sub(1).and_then(|i| self.backward.steps.get(i)) else {
            if self.backward.is_empty() {
                return vec![say!("linear-caption-no-gradient")];
            }
            let unit = if self.backward.summarised { "row" } else { "cell" };
            return vec![match self.state.has_bias {
                true => say!("linear-caption-backward", unit = unit),
                false => say!("linear-caption-backward-no-bias", unit = unit),
            }];
        };
        let span = |tensor: &str, list: &[Span]| list.iter().find(|s| s.tensor == tensor).cloned();
        let g = span("output.grad", &step.reads).map(|s| s.to_string()).unwrap_or_default();
        let at: Option<Vec<usize>> = step.reads.first().and_then(|s| s.index.iter().copied().collect());
        let value = match (&self.output_grad, at) {
            (Some(up), Some(at)) if !self.backward.summarised => up.get(&at).map(crate::format::short),
            _ => None,
        };
        let x = rows(span("input", &step.reads), say!("linear-caption-the-input").into());
        let w = rows(span("weight", &step.reads), "weight".into());
        let into = rows(span("weight.grad", &step.writes), "weight.grad".into());
        let bias = span("bias.grad", &step.writes).filter(|_| self.state.has_bias).map(|b| b.to_string());
        let dx = rows(span("input.grad", &step.writes), "input.grad".into());
        let said = |value: Option<&String>| match (value, &bias) {
            (Some(value), Some(bias)) => say!(
                "linear-step-backward-value",
                grad = &g,
                value = value,
                into = into.clone(),
                x = x.clone(),
                bias = bias,
                dx = dx.clone(),
                w = w.clone()
            ),
            (Some(value), None) => say!(
                "linear-step-backward-value-no-bias",
                grad = &g,
                value = value,
                into = into.clone(),
                x = x.clone(),
                dx = dx.clone(),
                w = w.clone()
            ),
            (None, Some(bias)) => say!(
                "linear-step-backward",
                grad = &g,
                into = into.clone(),
                x = x.clone(),
                bias = bias,
                dx = dx.clone(),
                w = w.clone()
            ),
            (None, None) => say!(
                "linear-step-backward-no-bias",
                grad = &g,
                into = into.clone(),
                x = x.clone(),
                dx = dx.clone(),
                w = w.clone()
            ),
        };
        // The value is on screen in output.grad; a batch's longer names may leave no room for it,
        // nor for what each gradient is multiplied by.
        let mut ways: Vec<Say> = value.iter().map(|v| said(Some(v))).collect();
        ways.push(said(None));
        ways.push(match &bias {
            Some(bias) => {
                say!("linear-step-backward-short", grad = &g, into = into.clone(), bias = bias, dx = dx.clone())
            }
            None => say!("linear-step-backward-short-no-bias", grad = &g, into = into.clone(), dx = dx.clone()),
        });
        ways
    }

    /// The step that has just run at `playhead`, in words: `output[1, 3]: input row 1 times row
    /// 3 of weight, number by number, summed, plus bias[3] = 0.1234.` in English.
    pub fn describe(&self, playhead: usize) -> Say {
        let Some(step) = playhead.checked_sub(1).and_then(|i| self.trace.steps.get(i)) else {
            return match self.trace.summarised {
                _ if self.trace.is_empty() => say!("linear-caption-no-shapes"),
                true => say!("linear-caption-forward-rows"),
                false => say!("linear-caption-forward-cells"),
            };
        };
        let read = |name: &str| step.reads_from(name).next().cloned();
        let x = rows(read("input"), say!("linear-caption-the-input").into());
        let bias = read("bias").map(|b| b.to_string());
        let target = step.writes.first();
        let value = target
            .and_then(|t| t.index.iter().copied().collect::<Option<Vec<usize>>>())
            .and_then(|at| self.output.as_ref()?.get(&at))
            .map(crate::format::short);
        let target = target.map(ToString::to_string).unwrap_or_default();
        if self.trace.summarised {
            return match bias {
                Some(bias) => say!("linear-step-forward-rows", target = target, x = x, bias = bias),
                None => say!("linear-step-forward-rows-no-bias", target = target, x = x),
            };
        }
        let w = rows(read("weight"), "weight".into());
        match (bias, value) {
            (Some(bias), Some(value)) => {
                say!("linear-step-forward", target = target, x = x, w = w, bias = bias, value = value)
            }
            (None, Some(value)) => say!("linear-step-forward-no-bias", target = target, x = x, w = w, value = value),
            (Some(bias), None) => say!("linear-step-forward-no-value", target = target, x = x, w = w, bias = bias),
            (None, None) => say!("linear-step-forward-bare", target = target, x = x, w = w),
        }
    }
}

/// A span in words: `weight[3]` → `row 3 of weight`, `input[1]` → `input row 1`, the whole
/// tensor → `whole` (`the input`, `weight`).
fn rows(span: Option<Span>, whole: Arg) -> Arg {
    match span.filter(|s| !s.index.is_empty()) {
        None => whole,
        Some(Span { tensor, index }) => match (tensor.as_str(), index.as_slice()) {
            ("weight" | "weight.grad", [Some(i)]) => {
                say!("linear-caption-row-of", row = i.to_string(), tensor = tensor).into()
            }
            (_, [Some(i)]) => say!("linear-caption-tensor-row", tensor = tensor, row = i.to_string()).into(),
            _ => Span { tensor, index }.to_string().into(),
        },
    }
}
