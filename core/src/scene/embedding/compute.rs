use super::*;
use crate::say;
use crate::say::Say;

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
    pub captions: Vec<Say>,
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
impl Computed {
    /// `output[k.., j] = weight[id, j]`: a lookup cell is a copy, one constant and no product.
    /// `weight.grad[r, j] = Σ output.grad[k.., j]` over the ids that looked row `r` up (none
    /// for the padding row): backward's sum, no product either.
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        if tensor == "weight.grad" {
            return self.grad_formula(index);
        }
        let (j, at) = index.split_last()?;
        let pick = self.picks.iter().find(|p| tensor == "output" && p.at == at)?;
        let value = self.output.get(index)?;
        Some(Formula {
            target: label("output", index),
            func: None,
            products: Vec::new(),
            constants: vec![Factor::new(label("weight", &[pick.row, *j]), value)],
            value,
            zeros: 0,
        })
    }

    fn grad_formula(&self, index: &[usize]) -> Option<Formula> {
        let (&[r, j], up) = (index, self.upstream.as_ref()?) else { return None };
        let value = self.grads.as_ref()?.weight.as_ref()?.get(index)?;
        let added = self.back_picks.iter().filter(|(p, _)| p.row == r).map(|(p, _)| {
            let at = [&p.at[..], &[j]].concat();
            Some(Factor::new(label("output.grad", &at), up.get(&at)?))
        });
        let constants = added.collect::<Option<_>>()?;
        Some(Formula {
            target: label("weight.grad", index),
            func: None,
            products: Vec::new(),
            constants,
            value,
            zeros: 0,
        })
    }

    /// The current step in plain words, for the timeline (`playhead` steps done): "input[1] = 3
    /// selects weight[3], copied to output[1]".
    pub fn describe(&self, playhead: usize) -> Say {
        if self.stale {
            return say!("embedding-caption-stale");
        }
        if self.trace.summarised {
            return say!("embedding-caption-all-at-once", ids = self.picks.len());
        }
        match playhead.checked_sub(1).and_then(|i| self.picks.get(i)) {
            Some(pick) => pick.describe(),
            None => say!("embedding-caption-forward", ids = self.picks.len(), lookups = self.trace.len()),
        }
    }
}

impl Computed {
    /// The current backward step in plain words (`playhead` steps done), its ways, most said
    /// first: "weight.grad[2] += output.grad[0, 0]: input[0, 0] = 2 looked that row up."
    pub fn describe_backward(&self, playhead: usize, padding_idx: Option<usize>) -> Vec<Say> {
        if self.no_grad.is_some() {
            return vec![say!("embedding-caption-frozen")];
        }
        if self.stale {
            return vec![say!("embedding-caption-stale-backward")];
        }
        if let Some(e) = &self.loss_error {
            return vec![say!("embedding-caption-no-backward", error = e)];
        }
        if self.backward.summarised {
            return vec![say!("embedding-caption-backward-at-once")];
        }
        match playhead.checked_sub(1).and_then(|i| self.back_picks.get(i)) {
            Some((pick, again)) => {
                let (grad, row) = (label("output.grad", &pick.at), pick.row.to_string());
                vec![match again {
                    true => say!("embedding-step-grad-again", row = row, grad = grad),
                    false => say!("embedding-step-grad", row = row, grad = grad, input = label("input", &pick.at)),
                }]
            }
            None => {
                let rows = self.backward.len();
                let full = match padding_idx {
                    None => say!("embedding-caption-backward", rows = rows),
                    Some(p) => say!("embedding-caption-backward-padding", rows = rows, padding = p.to_string()),
                };
                vec![full, say!("embedding-caption-backward-short", rows = rows)]
            }
        }
    }
}
