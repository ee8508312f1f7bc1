use super::*;
use crate::format::count;

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

    /// The current step in plain words, for the timeline (`playhead` steps done).
    pub fn describe(&self, playhead: usize) -> String {
        if self.stale {
            return "PyTorch would raise here, so there is nothing to play: fix what is marked.".into();
        }
        if self.trace.summarised {
            return format!("All {} ids look up their rows of weight at once.", self.picks.len());
        }
        match playhead.checked_sub(1).and_then(|i| self.picks.get(i)) {
            Some(pick) => pick.describe(),
            None => format!(
                "{}, {}: step forward to watch each id pick its row.",
                count(self.picks.len(), "id"),
                count(self.trace.len(), "lookup")
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
            return "PyTorch would raise here, so there is no backward pass: fix what is marked.".into();
        }
        if let Some(e) = &self.loss_error {
            return format!("Backward cannot start: {e}");
        }
        if self.backward.summarised {
            return "Every output row's gradient is added into the weight.grad row its id selected, at once.".into();
        }
        let rest = padding_idx.map_or(" Rows no id selected stay zero.".into(), |p| {
            format!(" weight.grad[{p}] is the padding row: id {p} sends none.")
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
                "{} gradient rows flow back, each added into the weight.grad row its id selected.{rest}",
                self.backward.len()
            ),
        }
    }
}
