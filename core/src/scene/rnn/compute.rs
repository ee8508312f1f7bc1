use super::*;
use crate::say::Say;

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
    /// What `output` holds: `output (3, 2, 5): h_t at every time step, for every sequence.`
    pub output_caption: Say,
    /// What `h_n` holds and which part of `output` it equals.
    pub h_n_caption: Say,
    /// What packing does here (`None` when not packed).
    pub packing_caption: Option<Say>,
    /// The backward pass of the loss (`None` while PyTorch raises, see `backward_issue`).
    pub backward: Option<Backward>,
    pub backward_issue: Option<String>,
    /// `backward`'s loss, where the shell reads every scene's.
    pub loss: Option<f32>,
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
impl Computed {
    /// The formula of a focused cell of `output`, `h_n`, a hidden state or `input`, or of a
    /// gradient going backward (`weight_ih_l0.grad`, `input.grad`, ...).
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        let run = self.run.as_ref()?;
        match tensor.ends_with(".grad") {
            true => run.grad_formula(self.backward.as_ref()?, tensor, index),
            false => run.formula(tensor, index),
        }
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

    /// The backward step at `playhead`, in plain words (its ways, most said first); without a
    /// backward pass, why (`backward_issue`).
    pub fn describe_backward(&self, playhead: usize) -> Vec<Say> {
        match (&self.run, &self.backward) {
            (Some(r), Some(b)) => r.describe_backward(b, playhead),
            // What `State::compute` says in `backward_issue` when the forward call raises.
            _ if self.stale || self.run.is_none() => vec![crate::say!("rnn-caption-no-backward")],
            // The loss raised: PyTorch's words.
            _ => {
                let error = self.backward_issue.clone().unwrap_or_default();
                vec![crate::say!("rnn-caption-backward-raises", error = error)]
            }
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

    /// The forward step at `playhead`, in plain words (its ways, most said first).
    pub fn describe(&self, playhead: usize) -> Vec<Say> {
        self.run.as_ref().map_or_else(|| vec![crate::say!("rnn-caption-nothing-run")], |r| r.describe(playhead))
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
