use super::*;
use crate::say::Say;
use crate::scene::contract::{id_at, input_dim, scene_common, under_way, view_common};

impl Scene for State {
    scene_common!("one_hot");
    const LESSONS: &'static str = include_str!("lessons.json");

    fn field(&mut self, field: &str, text: &str) -> Result<(), String> {
        match field {
            "V" => self.set_vocab(text),
            "D" => self.set_dim(text),
            other => match input_dim(other) {
                Some(dim) => self.resize_ids(dim, text),
                None => Err(format!("the one-hot scene has no field {other}")),
            },
        }
    }

    fn output_shape(&self) -> Vec<usize> {
        State::output_shape(self)
    }

    fn fact(&self, _view: &Self::View, name: &str) -> Option<String> {
        match name {
            "input.shape" => Some(py_shape(self.ids.shape())),
            "linear.weight.shape" => Some(py_shape(&[self.table.shape()[1], self.table.shape()[0]])),
            _ => id_at(&self.ids, name),
        }
    }

    /// `emb.weight`'s gradient (`linear.weight` is its transpose and moves the same numbers),
    /// as `compute` finds it, but from the lookup alone: the one-hot way's dense pass and
    /// gradient would be made only to be dropped (~15 ms at 50,000 × 64). Refused while
    /// `input` has a bad id, since the gradient on show is then for other ids.
    fn grads(&self) -> Result<(f32, Named), String> {
        const FIX: &str = "fix the marked ids first: the gradient is for the ids on show";
        let emb = self.emb().map_err(|i| if i.tensor == INPUT { FIX.into() } else { i.error.to_string() })?;
        // The lookup refuses exactly the ids outside the table.
        let lookup = emb.forward(&self.ids).map_err(|_| FIX.to_string())?;
        let (loss, _, grad) =
            lookup_backward(&emb, &self.ids, &lookup, &self.learning.loss).map_err(|e| e.to_string())?;
        Ok((loss, vec![(TABLE.to_string(), grad)]))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        (&mut self.learning, vec![(TABLE, &mut self.table)])
    }

    /// Each way's weight gradient from what its own output's gradient has sent back so far.
    fn grad_at(&self, view: &Computed, tensor: &str, playhead: usize) -> Option<Tensor> {
        let (ways, back) = (view.ways.as_ref()?, view.backward.as_ref()?);
        if !under_way(&back.trace, playhead, self.table.numel()) {
            return None;
        }
        match tensor {
            TABLE_GRAD => {
                ways.emb.backward(&back.ids, &back.trace.sent(playhead, LOOKUP_GRAD, &back.upstream)).ok()?.weight
            }
            LINEAR_WEIGHT_GRAD => {
                ways.linear.picked_grad(&back.ids, &back.trace.sent(playhead, LINEAR_GRAD, &back.upstream)).ok()
            }
            _ => None,
        }
    }

    fn prepare(&self) {
        prepare(&self.table);
    }

    fn limits(&self) -> Result<(), String> {
        check_seed(&self.seed)?;
        let (max_v, max_d) = (VOCAB_SIZES[VOCAB_SIZES.len() - 1], DIM_SIZES[DIM_SIZES.len() - 1]);
        check_shape(TABLE, &self.table, 2..=2, max_v)?;
        let (v, d) = self.sizes();
        if d > max_d {
            return Err(format!("{TABLE} is {v} × {d}; this scene allows D up to {max_d}"));
        }
        for ids in [&self.ids, &self.good_ids] {
            check_shape(INPUT, ids, 0..=4, MAX_IDS)?;
            if ids.numel() > MAX_IDS {
                return Err(format!("it holds {} ids; this scene allows at most {MAX_IDS}", ids.numel()));
            }
        }
        check_sizes(v, d, self.ids.numel())
    }
}

impl View for Computed {
    view_common!();

    fn trace(&self, phase: Phase) -> Option<&Trace> {
        match phase {
            Phase::Forward => self.pass.as_ref().map(|p| &p.trace),
            Phase::Backward => self.backward.as_ref().map(|b| &b.trace),
        }
    }

    fn describe(&self, phase: Phase, playhead: usize) -> Vec<Say> {
        let ways = match phase {
            Phase::Forward => self.pass.as_ref().map(|p| p.describe(playhead)),
            Phase::Backward => self.backward.as_ref().map(|b| b.describe(playhead)),
        };
        ways.unwrap_or_default()
    }
}
