use super::*;
use crate::say;
use crate::say::Say;

/// The two modules over the same numbers: `nn.Embedding` with `emb.weight`, and the one-hot
/// Linear whose weight is its transpose.
#[derive(Clone, Debug, PartialEq)]
pub struct Ways {
    pub emb: Embedding,
    pub linear: OneHotLinear,
}

/// Both ways run on one set of ids.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    /// The ids these outputs come from: `input`, or its last good value while it has a bad id.
    pub ids: Ids,
    /// Set when `ids` is the last good value rather than `input`.
    pub stale: bool,
    /// `F.one_hot(ids, V)`, `(*, V)` of 0/1, kept as its ids.
    pub one_hot: OneHot,
    /// `emb(input)`, `(*, D)`.
    pub lookup: Tensor,
    /// `linear(one_hot)`, `(*, D)`, as the dense product gives it (`OneHotLinear::picked`).
    pub linear: Tensor,
    /// The single timeline of both ways (see the module doc).
    pub trace: Trace,
    pub cost: Cost,
    /// Where `torch.equal(emb(input), linear(one_hot))` fails first (flat index), if anywhere.
    pub mismatch: Option<usize>,
}

/// What a pass has done up to a playhead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Numbers the lookup copied.
    pub copies: usize,
    /// The one-hot Linear's multiply-adds, and how many of them multiplied by 0.
    pub multiply_adds: usize,
    pub zero_products: usize,
}

impl Pass {
    pub(super) fn new(ways: &Ways, ids: &Ids, stale: bool) -> TorchResult<Pass> {
        let lookup = ways.emb.forward(ids)?;
        let linear = ways.linear.picked(ids)?;
        // `==` as torch.equal compares: nan never equals, -0.0 equals 0.0.
        let mismatch = lookup.data().iter().zip(linear.data()).position(|(a, b)| a != b);
        Ok(Pass {
            one_hot: OneHot::new(ids, ways.linear.num_classes() as i64)?,
            trace: timeline(ways, ids)?,
            cost: ways.linear.cost(ids),
            ids: ids.clone(),
            stale,
            lookup,
            linear,
            mismatch,
        })
    }

    pub(super) fn vocab(&self) -> usize {
        self.one_hot.num_classes()
    }
    pub(super) fn dim(&self) -> usize {
        self.lookup.last_dim()
    }

    /// The id at a full index of `ids`.
    fn id_at(&self, at: &[Option<usize>]) -> Option<i64> {
        let at: Option<Vec<usize>> = at.iter().copied().collect();
        self.ids.get(&at?)
    }

    /// The step the playhead is on (playhead `k`: steps `0..k` have run).
    pub(super) fn current(&self, playhead: usize) -> Option<&Step> {
        self.trace.steps.get(playhead.checked_sub(1)?)
    }

    /// How many numbers of `tensor` a step's write covers.
    pub(super) fn cells(&self, span: &Span) -> usize {
        let shape = if span.tensor == LOOKUP { self.lookup.shape() } else { self.linear.shape() };
        shape.get(span.index.len()..).map_or(0, |rest| rest.iter().product())
    }

    /// The work of steps `0..playhead`, counted as the cost counts it.
    pub fn work_at(&self, playhead: usize) -> Work {
        let (v, mut work) = (self.vocab(), Work::default());
        for span in self.trace.steps.iter().take(playhead).flat_map(|s| &s.writes) {
            let n = self.cells(span);
            match span.tensor.as_str() {
                LOOKUP => work.copies += n,
                LINEAR => {
                    work.multiply_adds += n * v;
                    work.zero_products += n * v.saturating_sub(1);
                }
                _ => {}
            }
        }
        work
    }

    /// Whether cell `index` of `one_hot` or `linear.weight` enters a product by zero in the
    /// current step: every column but the id's, whose product is the one that counts.
    pub fn zero_product(&self, playhead: usize, tensor: &str, index: &[usize]) -> bool {
        let Some(step) = self.current(playhead).filter(|s| s.writes.iter().any(|w| w.tensor == LINEAR)) else {
            return false;
        };
        let id = step.reads_from(ONE_HOT).find_map(|row| self.id_at(&row.index));
        let read = step.reads.iter().any(|s| s.contains(tensor, index));
        read && [ONE_HOT, LINEAR_WEIGHT].contains(&tensor) && index.last().map(|&c| c as i64) != id
    }

    /// The current step in plain words, the ways to say it, the most said first
    /// ([`crate::say::caption`]): `emb(input)[1] = emb.weight[3]: input[1] = 3 picks row 3 and
    /// copies its 5 numbers. No arithmetic.`, or, where that is too long, a shorter way.
    pub fn describe(&self, playhead: usize) -> Vec<Say> {
        let Some(write) = self.current(playhead).and_then(|s| s.writes.first()) else {
            return vec![say!("one-hot-caption-forward")];
        };
        let (v, d) = (self.vocab(), self.dim());
        let at: Vec<usize> = write.index.iter().map_while(|i| *i).collect();
        let id = self.id_at(&write.index[..write.index.len().min(self.ids.dim())]);
        match (write.tensor.as_str(), id) {
            (LOOKUP, Some(id)) => {
                let (out, input, id) = (label(LOOKUP, &at), label(INPUT, &at), id.to_string());
                vec![
                    say!("one-hot-step-lookup", out = &out, input = &input, id = &id, d = d),
                    say!("one-hot-step-lookup-short", out = out, input = input, id = id, d = d),
                ]
            }
            (LOOKUP, None) => vec![say!("one-hot-step-lookup-rows", d = d)],
            (ONE_HOT, Some(id)) => {
                let (out, input, id) = (label(ONE_HOT, &at), label(INPUT, &at), id.to_string());
                vec![say!("one-hot-step-one-hot", out = out, input = input, id = id, v = v)]
            }
            (ONE_HOT, None) => vec![say!("one-hot-step-one-hot-rows", v = v.to_string())],
            (LINEAR, Some(id)) if at.len() > self.ids.dim() => {
                let j = at[at.len() - 1];
                let w = crate::format::short(self.linear.get(&at).unwrap_or(f32::NAN));
                let (out, weight) = (label(LINEAR, &at), label(LINEAR_WEIGHT, &[j, id as usize]));
                let (j, id, zeros) = (j.to_string(), id.to_string(), v - 1);
                vec![
                    say!(
                        "one-hot-step-linear-cell",
                        out = &out,
                        v = v,
                        j = j,
                        zeros = zeros,
                        id = &id,
                        weight = &weight,
                        w = &w
                    ),
                    say!(
                        "one-hot-step-linear-cell-short",
                        out = &out,
                        v = v,
                        zeros = zeros,
                        id = id,
                        weight = &weight,
                        w = &w
                    ),
                    say!("one-hot-step-linear-cell-shortest", out = out, zeros = zeros, weight = weight, w = w),
                ]
            }
            (LINEAR, _) => vec![say!(
                "one-hot-step-linear-row",
                out = label(LINEAR, &at),
                multiply_adds = grouped(v * d),
                zeros = grouped(v.saturating_sub(1) * d)
            )],
            _ => vec![say!("one-hot-step-write", span = write.to_string())],
        }
    }

    /// `torch.equal(emb(input), linear(one_hot)) → True` (code, as PyTorch would print it) and
    /// why, in plain words: `Each number of linear(one_hot) is one 1 × w plus zeros, so it is w
    /// itself, to the last bit.`
    pub fn verdict(&self) -> (String, Say) {
        let answer = if self.mismatch.is_none() { "True" } else { "False" };
        let code = format!("torch.equal({LOOKUP}, {LINEAR}) → {answer}");
        let Some(i) = self.mismatch else {
            let signed_zero =
                self.lookup.data().iter().zip(self.linear.data()).any(|(a, b)| a.to_bits() != b.to_bits());
            return match signed_zero {
                true => (code, say!("one-hot-note-equal-signed-zero")),
                false => (code, say!("one-hot-note-equal")),
            };
        };
        let at = unravel(i, self.lookup.shape());
        let (a, b) = (self.lookup.data()[i], self.linear.data()[i]);
        let why = if a.is_nan() && b.is_nan() {
            say!("one-hot-note-nan-both", out = label(LOOKUP, &at))
        } else if b.is_nan() {
            say!(
                "one-hot-note-nan-linear",
                out = label(LINEAR, &at),
                weight = format!("{LINEAR_WEIGHT}[{}]", at[at.len() - 1])
            )
        } else {
            say!(
                "one-hot-note-differ",
                lookup = label(LOOKUP, &at),
                a = crate::format::short(a),
                linear = label(LINEAR, &at),
                b = crate::format::short(b)
            )
        };
        (code, why)
    }

    /// The verdict in one line, code then why (the notebook's): `torch.equal(emb(input),
    /// linear(one_hot)) → True: Each number of linear(one_hot) is …`.
    pub fn verdict_line(&self) -> Say {
        let (code, why) = self.verdict();
        say!("one-hot-note-verdict", code = code, why = why)
    }

    /// The cost counter in words: `The lookup copies 15 numbers. The one-hot way does 60
    /// multiply-adds, 45 of them by 0: 4× the work for the same result.`
    pub fn cost_caption(&self) -> Say {
        let c = self.cost;
        say!(
            "one-hot-note-cost",
            copies = grouped(c.lookup_copies),
            multiply_adds = grouped(c.one_hot_multiply_adds),
            zeros = grouped(c.zero_products),
            v = grouped(self.vocab())
        )
    }

    /// While `input` has a bad id: which ids the outputs on show come from (`The outputs are
    /// still those of the last valid input [2, 3, 1]; …`).
    pub fn stale_note(&self) -> Option<Say> {
        self.stale.then(|| {
            let ids: Vec<String> = self.ids.data().iter().map(|i| i.to_string()).collect();
            say!("one-hot-note-stale", ids = ids.join(", "))
        })
    }
}

/// One timeline for both ways, id by id: the lookup's step for `input[k]`, `F.one_hot`'s, then
/// the Linear's steps that write row k of `linear(one_hot)`.
pub(super) fn timeline(ways: &Ways, ids: &Ids) -> TorchResult<Trace> {
    let lookup = ways.emb.forward_trace(ids)?.renamed(&[("weight", TABLE), ("output", LOOKUP)]);
    let linear = ways.linear.forward_trace(ids)?.renamed(&[("output", LINEAR)]);
    let summarised = lookup.summarised || linear.summarised;
    let mut rest = linear.steps.into_iter().peekable();
    let mut steps = Vec::new();
    for look in lookup.steps {
        let row = look.writes.first().map(|w| w.index.clone()).unwrap_or_default();
        steps.push(look);
        steps.push(Step::forward(vec![Span::new(INPUT, row.clone())], Span::new(ONE_HOT, row.clone())));
        while let Some(step) = rest.next_if(|s| s.writes.first().is_some_and(|w| w.index.starts_with(&row))) {
            steps.push(step);
        }
    }
    steps.extend(rest);
    Ok(Trace { steps, summarised })
}
