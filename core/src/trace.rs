//! The trace: the ordered steps an op performs, at the grain a learner watches (an output cell, a
//! copied row, an RNN cell, a gradient row), each naming what it reads and what it writes. The
//! animations play it; tests ask it which rows were selected and where gradient landed.

use crate::tensor::{unravel, Tensor};
use serde::{Deserialize, Serialize};

/// Above this many steps an op describes its work in coarser summary steps (one per output row,
/// say) instead of materialising one step per cell.
pub const MAX_STEPS: usize = 4096;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    #[default]
    Forward,
    Backward,
}

/// A region of a named tensor, written as PyTorch indexes it: `weight[2]` is row 2,
/// `output[0, 3]` one cell, `input[:, 1]` (a `None`) every batch row at time 1. Dimensions past
/// the index are whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub tensor: String,
    pub index: Vec<Option<usize>>,
}

impl Span {
    pub fn new(tensor: impl Into<String>, index: Vec<Option<usize>>) -> Self {
        Self { tensor: tensor.into(), index }
    }
    /// The sub-tensor at these leading indices (a cell when every dim is given).
    pub fn at(tensor: impl Into<String>, index: &[usize]) -> Self {
        Self::new(tensor, index.iter().map(|&i| Some(i)).collect())
    }
    pub fn whole(tensor: impl Into<String>) -> Self {
        Self::new(tensor, Vec::new())
    }

    /// Whether the element at `index` of `tensor` lies inside this span.
    pub fn contains(&self, tensor: &str, index: &[usize]) -> bool {
        self.tensor == tensor
            && self.index.len() <= index.len()
            && self.index.iter().zip(index).all(|(s, &i)| s.is_none_or(|s| s == i))
    }
}

impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.index.is_empty() {
            return f.write_str(&self.tensor);
        }
        let parts: Vec<String> = self.index.iter().map(|i| i.map_or(":".to_string(), |i| i.to_string())).collect();
        write!(f, "{}[{}]", self.tensor, parts.join(", "))
    }
}

/// `weight[2]`, `output[0, 3]`, `input[:, 1]`, `weight.grad`: the text [`Span`]'s `Display` writes.
impl std::str::FromStr for Span {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("{text:?} is not a tensor or a part of one, like weight[2] or output[0, 3]");
        let (tensor, index) = match text.split_once('[') {
            None => (text, Vec::new()),
            Some((tensor, rest)) => {
                let inside = rest.strip_suffix(']').ok_or_else(bad)?;
                let parts = inside.split(',').map(|p| match p.trim() {
                    ":" => Ok(None),
                    n => n.parse().map(Some).map_err(|_| bad()),
                });
                (tensor, parts.collect::<Result<_, _>>()?)
            }
        };
        let named =
            !tensor.is_empty() && tensor.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '(' | ')'));
        named.then(|| Span::new(tensor, index)).ok_or_else(bad)
    }
}

/// One thing a learner sees happen: `reads` combine into `writes` (added into them when
/// `accumulate`, e.g. a repeated id's gradient row).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub phase: Phase,
    pub reads: Vec<Span>,
    pub writes: Vec<Span>,
    pub accumulate: bool,
}

impl Step {
    pub fn forward(reads: Vec<Span>, write: Span) -> Self {
        Self { phase: Phase::Forward, reads, writes: vec![write], accumulate: false }
    }
    pub fn backward(reads: Vec<Span>, write: Span, accumulate: bool) -> Self {
        Self { phase: Phase::Backward, reads, writes: vec![write], accumulate }
    }
    /// Where the step's numbers go, as edges a view draws from the cells read to the cells
    /// written (`from`, `to`). Backward, the gradient it starts from (its first `.grad` read)
    /// into every write, and any other gradient it reads (the next time step's, `h_n`'s) into the
    /// first write: what adds into the gradient it makes. Else (forward, and the loss that starts
    /// backward) every read into the first write, which the others copy (an RNN cell's `h` is
    /// also `output` and `h_n`).
    pub fn flows(&self) -> Vec<(&Span, &Span)> {
        let Some(first) = self.writes.first() else { return Vec::new() };
        let mut grads = self.reads.iter().filter(|r| r.tensor.ends_with(".grad"));
        match (self.phase, grads.next()) {
            (Phase::Backward, Some(source)) => {
                self.writes.iter().map(|w| (source, w)).chain(grads.map(|g| (g, first))).collect()
            }
            _ => {
                let copies = self.writes[1..].iter().map(|w| (first, w));
                self.reads.iter().map(|r| (r, first)).chain(copies).collect()
            }
        }
    }

    pub fn reads_from(&self, tensor: &str) -> impl Iterator<Item = &Span> + '_ {
        let tensor = tensor.to_owned();
        self.reads.iter().filter(move |s| s.tensor == tensor)
    }
    pub fn writes_to(&self, tensor: &str) -> impl Iterator<Item = &Span> + '_ {
        let tensor = tensor.to_owned();
        self.writes.iter().filter(move |s| s.tensor == tensor)
    }
}

/// The steps of one pass, in order. `summarised` is set when the op was too large for one step
/// per cell and each step covers a whole row or block instead.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub steps: Vec<Step>,
    pub summarised: bool,
}

impl Trace {
    pub fn new(steps: Vec<Step>) -> Self {
        Self { steps, summarised: false }
    }
    pub fn summary(steps: Vec<Step>) -> Self {
        Self { steps, summarised: true }
    }
    pub fn len(&self) -> usize {
        self.steps.len()
    }
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The same steps with tensors renamed, so an op's trace speaks the names a scene uses
    /// (`weight` → `linear.weight`).
    pub fn renamed(mut self, names: &[(&str, &str)]) -> Self {
        let spans = self.steps.iter_mut().flat_map(|s| s.reads.iter_mut().chain(s.writes.iter_mut()));
        for span in spans {
            if let Some((_, to)) = names.iter().find(|(from, _)| *from == span.tensor) {
                span.tensor = to.to_string();
            }
        }
        self
    }
}

/// What the views light up at a playhead: the current step's reads and writes, and everything
/// earlier steps wrote. Playhead `k` means steps `0..k` have run (0: none yet).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    pub read: Vec<Span>,
    pub write: Vec<Span>,
    pub done: Vec<Span>,
    /// The pass the current step belongs to, so views colour backward apart from forward.
    pub phase: Option<Phase>,
}

impl Marks {
    /// The mark of element `index` of `tensor`: the current write wins over a read over done.
    pub fn of(&self, tensor: &str, index: &[usize]) -> Option<Mark> {
        let hit = |spans: &[Span]| spans.iter().any(|s| s.contains(tensor, index));
        [(Mark::Write, &self.write), (Mark::Read, &self.read), (Mark::Done, &self.done)]
            .into_iter()
            .find(|(_, spans)| hit(spans))
            .map(|(m, _)| m)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Read,
    Write,
    Done,
}

impl Trace {
    /// `upstream`, the gradient named `name`, with only the cells the first `playhead` steps
    /// read kept and the rest 0: what backward has sent on so far, for a gradient that adds up
    /// step by step (a lookup's rows).
    pub fn sent(&self, playhead: usize, name: &str, upstream: &Tensor) -> Tensor {
        let read: Vec<&Span> = self.steps.iter().take(playhead).flat_map(|s| s.reads_from(name)).collect();
        let shape = upstream.shape();
        let kept = |k: usize| read.iter().any(|s| s.contains(name, &unravel(k, shape)));
        let data = upstream.data().iter().enumerate().map(|(k, &g)| if kept(k) { g } else { 0.0 }).collect();
        Tensor::new(shape.to_vec(), data).unwrap_or_else(|_| upstream.clone())
    }

    pub fn marks_at(&self, playhead: usize) -> Marks {
        let Some(current) = playhead.checked_sub(1).and_then(|i| self.steps.get(i)) else {
            return Marks::default();
        };
        Marks {
            read: current.reads.clone(),
            write: current.writes.clone(),
            done: self.steps[..playhead - 1].iter().flat_map(|s| s.writes.iter().cloned()).collect(),
            phase: Some(current.phase),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_contains_by_leading_index_with_wildcards() {
        let row = Span::at("weight", &[2]);
        assert!(row.contains("weight", &[2, 0]));
        assert!(!row.contains("weight", &[1, 0]));
        assert!(!row.contains("bias", &[2]));
        let col = Span::new("input", vec![None, Some(1)]);
        assert!(col.contains("input", &[0, 1, 3]));
        assert!(!col.contains("input", &[0, 2, 3]));
        assert_eq!(col.to_string(), "input[:, 1]");
        assert_eq!(Span::at("output", &[0, 3]).to_string(), "output[0, 3]");
    }

    #[test]
    fn spans_read_back_from_their_text() {
        for text in ["weight", "weight.grad", "output[0, 3]", "input[:, 1]", "linear(one_hot)[2]"] {
            assert_eq!(text.parse::<Span>().unwrap().to_string(), text);
        }
        for bad in ["", "weight[", "weight[x]", "weight[1, -2]", "a b", "[1]"] {
            assert!(bad.parse::<Span>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn what_backward_has_sent_is_the_cells_read_so_far() {
        let step = |k: usize| Step::backward(vec![Span::at("output.grad", &[k])], Span::at("weight.grad", &[0]), true);
        let t = Trace::new(vec![step(2), step(0)]);
        let g = Tensor::new(vec![3, 2], vec![1., 2., 3., 4., 5., 6.]).unwrap();
        assert_eq!(t.sent(0, "output.grad", &g).data(), [0.; 6]);
        assert_eq!(t.sent(1, "output.grad", &g).data(), [0., 0., 0., 0., 5., 6.]);
        assert_eq!(t.sent(2, "output.grad", &g).data(), [1., 2., 0., 0., 5., 6.]);
        assert_eq!(t.sent(2, "target", &g).data(), [0.; 6]);
    }

    #[test]
    fn a_step_flows_from_what_it_reads_to_what_it_writes() {
        let span = |t: &str| t.parse::<Span>().unwrap();
        let fwd = Step {
            phase: Phase::Forward,
            reads: vec![span("input[0]"), span("h0[0]")],
            writes: vec![span("h[0]"), span("output[0]")],
            accumulate: false,
        };
        let names = |s: &Step| s.flows().iter().map(|(a, b)| format!("{a}→{b}")).collect::<Vec<_>>();
        assert_eq!(names(&fwd), ["input[0]→h[0]", "h0[0]→h[0]", "h[0]→output[0]"]);
        let back = Step {
            phase: Phase::Backward,
            reads: vec![span("output.grad[1]"), span("h.grad[2]"), span("weight")],
            writes: vec![span("h.grad[1]"), span("weight.grad")],
            accumulate: true,
        };
        assert_eq!(names(&back), ["output.grad[1]→h.grad[1]", "output.grad[1]→weight.grad", "h.grad[2]→h.grad[1]"]);
        let loss = Step::backward(vec![span("output")], span("output.grad"), false);
        assert_eq!(names(&loss), ["output→output.grad"]);
    }

    #[test]
    fn marks_follow_the_playhead() {
        let step = |w: usize| Step::forward(vec![Span::at("weight", &[w])], Span::at("output", &[w]));
        let t = Trace::new(vec![step(2), step(0)]);
        assert_eq!(t.marks_at(0), Marks::default());
        let m = t.marks_at(2);
        assert_eq!(m.of("weight", &[0, 1]), Some(Mark::Read));
        assert_eq!(m.of("output", &[0, 4]), Some(Mark::Write));
        assert_eq!(m.of("output", &[2, 0]), Some(Mark::Done));
        assert_eq!(m.of("weight", &[2, 0]), None);
        assert_eq!(t.marks_at(9), Marks::default());
    }
}
