use super::*;
use crate::ops::distinct_rows;
use crate::say;
use crate::say::Say;

/// The backward pass of both ways under one loss (the outputs are equal, so is its gradient).
#[derive(Clone, Debug, PartialEq)]
pub struct Backward {
    pub loss: f32,
    /// `dL/doutput`, the same for `emb(input)` and `linear(one_hot)`.
    pub upstream: Tensor,
    /// `emb.weight.grad` `(V, D)`: the upstream rows added into the looked-up rows.
    pub emb_grad: Tensor,
    /// `linear.weight.grad` `(D, V)`: dense, zero outside the used columns.
    pub linear_grad: Tensor,
    /// The ids the gradient comes from.
    pub ids: Ids,
    pub trace: Trace,
    /// Whether the loss is `mse` (for the words).
    pub mse: bool,
}

/// The loss on `emb(input)` and what it sends back: its value, `dL/doutput`, `emb.weight.grad`.
/// The one-hot way's output is the same numbers, and so is its upstream.
pub(super) fn lookup_backward(
    emb: &Embedding,
    ids: &Ids,
    lookup: &Tensor,
    loss: &Loss,
) -> std::result::Result<(f32, Tensor, Tensor), TorchError> {
    let upstream = loss.backward(lookup)?;
    let value = loss.forward(lookup)?;
    let grad = emb.backward(ids, &upstream)?.weight.ok_or_else(|| TorchError::runtime("emb.weight has no gradient"))?;
    Ok((value, upstream, grad))
}

/// The gradients' bookkeeping: what each way writes and how much of its gradient is zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GradCounts {
    /// Entries of the dense `linear.weight.grad` computed (`D×V`), from ids×D×V multiply-adds.
    pub linear_written: usize,
    pub linear_multiply_adds: usize,
    pub linear_zeros: usize,
    /// Numbers the lookup adds into rows of `emb.weight.grad` (ids×D), and the rows touched.
    pub lookup_adds: usize,
    pub rows_touched: usize,
    pub emb_zeros: usize,
}

impl Backward {
    pub(super) fn new(ways: &Ways, pass: &Pass, loss: &Loss) -> std::result::Result<Backward, TorchError> {
        let (value, upstream, emb_grad) = lookup_backward(&ways.emb, &pass.ids, &pass.lookup, loss)?;
        let linear_grad = ways.linear.picked_grad(&pass.ids, &upstream)?;
        let mut trace = backward_timeline(ways, &pass.ids)?;
        if let (Loss::Mse { .. }, Some(first)) = (loss, trace.steps.first_mut()) {
            first.reads.push(Span::whole(TARGET));
        }
        Ok(Backward {
            loss: value,
            upstream,
            emb_grad,
            linear_grad,
            ids: pass.ids.clone(),
            trace,
            mse: matches!(loss, Loss::Mse { .. }),
        })
    }

    pub fn counts(&self) -> GradCounts {
        let (d, v) = match self.linear_grad.shape() {
            &[d, v] => (d, v),
            _ => (0, 0),
        };
        let rows = distinct_rows(self.ids.data().iter().map(|&i| i as usize), v);
        GradCounts {
            linear_written: d * v,
            linear_multiply_adds: self.ids.numel() * d * v,
            linear_zeros: self.linear_grad.extent().zeros,
            lookup_adds: self.ids.numel() * d,
            rows_touched: rows.len(),
            emb_zeros: self.emb_grad.extent().zeros,
        }
    }

    /// The counts in words, one line per way: the Linear's (`linear.weight.grad is dense (5, 4):
    /// all 20 entries written …`) and the lookup's (`emb.weight.grad: 3 ids × 5 = 15 numbers added
    /// into 3 looked-up rows; …`).
    pub fn count_captions(&self) -> (Say, Say) {
        let c = self.counts();
        let (v, d) = match self.emb_grad.shape() {
            &[v, d] => (v, d),
            _ => (0, 0),
        };
        let linear = say!(
            "one-hot-note-linear-grad",
            d = d.to_string(),
            v = v.to_string(),
            written = grouped(c.linear_written),
            multiply_adds = grouped(c.linear_multiply_adds),
            zeros = grouped(c.linear_zeros)
        );
        let lookup = say!(
            "one-hot-note-table-grad",
            ids = self.ids.numel(),
            d = d.to_string(),
            adds = grouped(c.lookup_adds),
            rows = c.rows_touched,
            zeros = grouped(c.emb_zeros)
        );
        (linear, lookup)
    }

    /// The loss in PyTorch's words with its value.
    pub fn loss_text(&self) -> String {
        let f = if self.mse { "F.mse_loss(output, target)" } else { "output.sum()" };
        format!("loss = {f} = {}", crate::format::short(self.loss))
    }

    pub(super) fn current(&self, playhead: usize) -> Option<&Step> {
        self.trace.steps.get(playhead.checked_sub(1)?)
    }

    /// The cell `[id, j]` of `emb.weight.grad` the step at `playhead` writes (a lookup step: its
    /// row's first), or its twin `linear.weight.grad[j, id]`; the first id's before any.
    pub fn grad_cell(&self, playhead: usize) -> Option<[usize; 2]> {
        let first = || Some([usize::try_from(*self.ids.data().first()?).ok()?, 0]);
        let Some(step) = self.current(playhead) else { return first() };
        let write = step.writes.first()?;
        let id = match write.tensor.as_str() {
            TABLE_GRAD => write.index.first().copied().flatten(),
            _ => self.id_of(step).and_then(|id| usize::try_from(id).ok()),
        };
        let j = match write.tensor.as_str() {
            LINEAR_WEIGHT_GRAD => write.index.first().copied().flatten(),
            _ => Some(0),
        };
        id.zip(j).map(|(id, j)| [id, j]).or_else(first)
    }

    /// `emb.weight.grad[r, j]`: the `emb(input).grad[k.., j]` of every id `k` equal to `r`,
    /// added; `linear.weight.grad[j, v]`: every id's `linear(one_hot).grad[k.., j] ·
    /// one_hot[k.., v]`, all but the ids equal to `v` by zero. The same sum, the long way.
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        let positions = (0..self.ids.numel()).map(|k| unravel(k, self.ids.shape()));
        match (tensor, index) {
            (TABLE_GRAD, &[r, j]) => {
                let picks = positions.filter(|at| self.ids.get(at) == Some(r as i64));
                let added = picks.map(|at| {
                    let at = [&at[..], &[j]].concat();
                    Some(Factor::new(label(LOOKUP_GRAD, &at), self.upstream.get(&at)?))
                });
                let constants = added.collect::<Option<_>>()?;
                let value = self.emb_grad.get(index)?;
                Some(Formula {
                    target: label(TABLE_GRAD, index),
                    func: None,
                    products: Vec::new(),
                    constants,
                    value,
                    zeros: 0,
                })
            }
            (LINEAR_WEIGHT_GRAD, &[j, v]) => {
                let products = positions.map(|at| {
                    let g = [&at[..], &[j]].concat();
                    let hot = f32::from(u8::from(self.ids.get(&at)? == v as i64));
                    let x = Factor::new(label(ONE_HOT, &[&at[..], &[v]].concat()), hot);
                    Some((Factor::new(label(LINEAR_GRAD, &g), self.upstream.get(&g)?), x))
                });
                let products = products.collect::<Option<_>>()?;
                let value = self.linear_grad.get(index)?;
                let target = label(LINEAR_WEIGHT_GRAD, index);
                Some(Formula { target, func: None, products, constants: Vec::new(), value, zeros: 0 })
            }
            _ => None,
        }
    }

    /// The id whose one-hot row a Linear backward step reads.
    fn id_of(&self, step: &Step) -> Option<i64> {
        let row = step.reads_from(ONE_HOT).next()?;
        let at: Option<Vec<usize>> = row.index.iter().copied().collect();
        self.ids.get(&at?)
    }

    /// Whether cell `index` of `linear.weight.grad` (or `one_hot`) gets a `g × 0` in the current
    /// step: every column but the id's.
    pub fn zero_product(&self, playhead: usize, tensor: &str, index: &[usize]) -> bool {
        let Some(step) = self.current(playhead).filter(|s| s.writes.iter().any(|w| w.tensor == LINEAR_WEIGHT_GRAD))
        else {
            return false;
        };
        let touched = step.reads.iter().chain(&step.writes).any(|s| s.contains(tensor, index));
        touched
            && [ONE_HOT, LINEAR_WEIGHT_GRAD].contains(&tensor)
            && index.last().map(|&c| c as i64) != self.id_of(step)
    }

    /// The current backward step in plain words, the ways to say it, the most said first
    /// ([`crate::say::caption`]): `emb.weight.grad[2] += emb(input).grad[0] (input[0] = 2): 5
    /// numbers into row 2 only.`, or, where a way is too long, a shorter one.
    pub fn describe(&self, playhead: usize) -> Vec<Say> {
        let Some(step) = self.current(playhead) else {
            return vec![say!("one-hot-caption-backward"), say!("one-hot-caption-backward-short")];
        };
        let Some(write) = step.writes.first() else { return Vec::new() };
        let (v, d) = match self.emb_grad.shape() {
            &[v, d] => (v, d),
            _ => (0, 0),
        };
        let at: Vec<usize> = write.index.iter().map_while(|i| *i).collect();
        let span = || vec![say!("one-hot-step-write", span = write.to_string())];
        match write.tensor.as_str() {
            LOOKUP_GRAD => match self.mse {
                false => vec![say!("one-hot-step-loss-sum", loss = self.loss_text())],
                true => {
                    vec![say!("one-hot-step-loss-mse", loss = self.loss_text(), n = self.upstream.numel().to_string())]
                }
            },
            LINEAR_WEIGHT_GRAD => {
                let Some(out) = step.reads_from(LINEAR_GRAD).next() else { return span() };
                let o: Vec<usize> = out.index.iter().map_while(|i| *i).collect();
                let id = self.id_of(step);
                match (at.as_slice(), id) {
                    (&[j], Some(id)) => {
                        let (j, id, zeros) = (j.to_string(), id.to_string(), v.saturating_sub(1));
                        let (grad, g) =
                            (label(LINEAR_GRAD, &o), crate::format::short(self.upstream.get(&o).unwrap_or(f32::NAN)));
                        vec![
                            say!(
                                "one-hot-step-weight-grad-row",
                                j = &j,
                                v = v,
                                zeros = zeros,
                                id = &id,
                                grad = grad,
                                g = &g
                            ),
                            say!("one-hot-step-weight-grad-row-short", j = j, v = v, zeros = zeros, id = id, g = g),
                        ]
                    }
                    _ => vec![say!(
                        "one-hot-step-weight-grad",
                        grad = label(LINEAR_GRAD, &o),
                        one_hot = label(ONE_HOT, &o),
                        count = grouped(v * d)
                    )],
                }
            }
            TABLE_GRAD => {
                let Some(out) = step.reads_from(LOOKUP_GRAD).next() else { return span() };
                let k: Vec<usize> = out.index.iter().map_while(|i| *i).collect();
                let id = at.first().copied().unwrap_or(0);
                let (grad, out, input, id) =
                    (label(TABLE_GRAD, &[id]), label(LOOKUP_GRAD, &k), label(INPUT, &k), id.to_string());
                match step.accumulate {
                    false => {
                        vec![say!("one-hot-step-table-grad", grad = grad, out = out, input = input, id = id, d = d)]
                    }
                    true => vec![
                        say!(
                            "one-hot-step-table-grad-again",
                            grad = &grad,
                            out = &out,
                            input = &input,
                            id = &id,
                            d = d
                        ),
                        say!(
                            "one-hot-step-table-grad-again-short",
                            grad = &grad,
                            out = &out,
                            input = input,
                            id = &id,
                            d = d
                        ),
                        say!("one-hot-step-table-grad-again-shortest", grad = grad, out = out, id = id),
                    ],
                }
            }
            _ => span(),
        }
    }
}

/// One backward timeline for both ways: the loss gives both outputs their gradient, then id by
/// id the Linear's steps that write `linear.weight.grad` from row k of `linear(one_hot).grad`
/// (each writing a whole row of the dense gradient), then the lookup's add of
/// `emb(input).grad[k]` into `emb.weight.grad[id]`. The Linear computes no `one_hot.grad`:
/// `one_hot` is made from integer ids and needs none.
fn backward_timeline(ways: &Ways, ids: &Ids) -> TorchResult<Trace> {
    let lookup = ways.emb.backward_trace(ids)?.renamed(&[("weight.grad", TABLE_GRAD), ("output.grad", LOOKUP_GRAD)]);
    let mut linear = ways.linear.backward_trace(ids)?.renamed(&[("output.grad", LINEAR_GRAD)]);
    for step in &mut linear.steps {
        step.reads.retain(|s| s.tensor != LINEAR_WEIGHT);
        step.writes.retain(|s| s.tensor != "one_hot.grad");
    }
    let outputs = [LOOKUP, LINEAR].map(Span::whole).to_vec();
    let mut steps = vec![Step::backward(outputs, Span::whole(LOOKUP_GRAD), false)];
    steps[0].writes.push(Span::whole(LINEAR_GRAD));
    for look in lookup.steps {
        let row = look.reads.first().map(|r| r.index.clone()).unwrap_or_default();
        let of_row = |s: &&Step| s.reads.first().is_some_and(|r| r.index.starts_with(&row));
        steps.extend(linear.steps.iter().filter(of_row).cloned());
        steps.push(look);
    }
    Ok(Trace { steps, summarised: lookup.summarised || linear.summarised })
}
