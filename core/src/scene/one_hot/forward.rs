use super::*;

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

    /// The current step in plain words.
    pub fn describe(&self, playhead: usize) -> String {
        let Some(write) = self.current(playhead).and_then(|s| s.writes.first()) else {
            return format!(
                "Step through it: each id is looked up in {TABLE}, then one-hot encoded and multiplied \
                 through the Linear."
            );
        };
        let (v, d) = (self.vocab(), self.dim());
        let at: Vec<usize> = write.index.iter().map_while(|i| *i).collect();
        let id = self.id_at(&write.index[..write.index.len().min(self.ids.dim())]);
        match (write.tensor.as_str(), id) {
            (LOOKUP, Some(id)) => format!(
                "{} = {TABLE}[{id}]: {} = {id} picks row {id} and copies its {d} numbers. No arithmetic.",
                label(LOOKUP, &at),
                label(INPUT, &at)
            ),
            (LOOKUP, None) => format!("{LOOKUP}: every id copies its row of {TABLE}, {d} numbers each."),
            (ONE_HOT, Some(id)) => format!(
                "{} = F.one_hot({} = {id}): {v} numbers, a 1 in column {id} and 0 everywhere else.",
                label(ONE_HOT, &at),
                label(INPUT, &at)
            ),
            (ONE_HOT, None) => format!("{ONE_HOT} = F.one_hot(input, num_classes={v}): one row per id, one 1 each."),
            (LINEAR, Some(id)) if at.len() > self.ids.dim() => {
                let j = at[at.len() - 1];
                let w = self.linear.get(&at).unwrap_or(f32::NAN);
                format!(
                    "{}: {v} products with row {j} of {LINEAR_WEIGHT}, {} of them 0 × w; the 1 in column {id} \
                     keeps {} = {}.",
                    label(LINEAR, &at),
                    v - 1,
                    label(LINEAR_WEIGHT, &[j, id as usize]),
                    crate::format::short(w)
                )
            }
            (LINEAR, _) => format!(
                "{} = one_hot row @ {LINEAR_WEIGHT}.T: {} multiply-adds, {} of them by 0.",
                label(LINEAR, &at),
                grouped(v * d),
                grouped(v.saturating_sub(1) * d)
            ),
            _ => write.to_string(),
        }
    }

    /// `torch.equal(emb(input), linear(one_hot)) → True` and why, in plain words.
    pub fn verdict(&self) -> (String, String) {
        let answer = if self.mismatch.is_none() { "True" } else { "False" };
        let code = format!("torch.equal({LOOKUP}, {LINEAR}) → {answer}");
        let Some(i) = self.mismatch else {
            let signed_zero =
                self.lookup.data().iter().zip(self.linear.data()).any(|(a, b)| a.to_bits() != b.to_bits());
            let why = "Each number of linear(one_hot) is one 1 × w plus zeros, so it is w itself, to the last bit.";
            return match signed_zero {
                true => {
                    (code, format!("{why} Only the sign of a zero can differ: the sum 0 + (−0) is +0, and −0 == 0."))
                }
                false => (code, why.into()),
            };
        };
        let at = unravel(i, self.lookup.shape());
        let (a, b) = (self.lookup.data()[i], self.linear.data()[i]);
        let why = if a.is_nan() && b.is_nan() {
            format!("{} is nan both ways, and nan never equals nan.", label(LOOKUP, &at))
        } else if b.is_nan() {
            format!(
                "{} is nan: its sum multiplies an inf or nan of {LINEAR_WEIGHT}[{}] by 0, and 0 × inf = nan. \
                 The lookup never reads that number.",
                label(LINEAR, &at),
                at[at.len() - 1]
            )
        } else {
            format!(
                "{} = {} but {} = {}.",
                label(LOOKUP, &at),
                crate::format::short(a),
                label(LINEAR, &at),
                crate::format::short(b)
            )
        };
        (code, why)
    }

    /// The cost counter in words.
    pub fn cost_caption(&self) -> String {
        let c = self.cost;
        format!(
            "The lookup copies {} numbers. The one-hot way does {} multiply-adds, {} of them by 0: {}× the work \
             for the same result.",
            grouped(c.lookup_copies),
            grouped(c.one_hot_multiply_adds),
            grouped(c.zero_products),
            grouped(self.vocab())
        )
    }

    /// While `input` has a bad id: which ids the outputs on show come from.
    pub fn stale_note(&self) -> Option<String> {
        self.stale.then(|| {
            let ids: Vec<String> = self.ids.data().iter().map(|i| i.to_string()).collect();
            format!(
                "The outputs are still those of the last valid input [{}]; fix the marked id to update them.",
                ids.join(", ")
            )
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
