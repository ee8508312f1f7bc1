//! The Linear scene under any sequence of its controls. Its invariants: `weight` is
//! `(out_features, in_features)` and `bias` `(out_features,)`, both sizes in `1..=MAX_SIZE`; the
//! input is 1-D to 3-D and its last size is `in_features`, so nothing can go wrong: there is always
//! an output `(*, out_features)`, a loss, and grads shaped like what they are the grads of.

use crate::common::gen::size_field;
use crate::{field, flag, shared_edits, Driven};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::linear::{State, MAX_SIZE};
use rowflow_core::trace::{Phase, MAX_STEPS};

/// The names `edit` and `paste` accept, and some they refuse.
const EDITABLE: &[&str] = &["weight", "weight.T", "bias", "input", "target"];
const OTHER: &[&str] = &["output", "weight.grad", "", "Weight"];
const LIMITS: &[usize] = &[MAX_SIZE];

fn edit() -> impl Strategy<Value = Edit> {
    let lead = prop::sample::select(vec!["input.shape[0]", "input.shape[1]", "input.shape[2]"]);
    prop_oneof![
        15 => shared_edits::<State>(EDITABLE, OTHER, LIMITS),
        1 => field("in_features", size_field(LIMITS)),
        1 => field("out_features", size_field(LIMITS)),
        1 => flag("bias"),
        1 => field("input.dim", (0usize..5).prop_map(|r| r.to_string())),
        1 => (lead, size_field(LIMITS)).prop_map(|(f, t)| Edit::field(f, &t)),
    ]
}

impl Driven for State {
    fn invariants(&self) -> Result<(), TestCaseError> {
        let (inf, outf) = (self.in_features(), self.out_features());
        let size = 1..=MAX_SIZE;
        prop_assert!(self.weight.dim() == 2 && size.contains(&inf) && size.contains(&outf), "{:?}", self.weight);
        prop_assert_eq!(self.bias.shape(), &[outf][..]);
        prop_assert!((1..=3).contains(&self.input.dim()) && self.lead().iter().all(|n| size.contains(n)));
        prop_assert_eq!(self.input.last_dim(), inf);
        let c = self.compute();
        prop_assert!(c.issues.is_empty(), "{:?}", c.issues);
        let out = c.output.as_ref().expect("an output when there are no issues");
        prop_assert_eq!(out.shape(), &self.output_shape()[..]);
        prop_assert!(c.loss.is_some());
        let g = c.grads.as_ref().expect("grads when there are no issues");
        prop_assert_eq!(g.weight.shape(), self.weight.shape());
        prop_assert_eq!(g.bias.as_ref().map(|b| b.shape()), self.has_bias.then_some(self.bias.shape()));
        prop_assert_eq!(g.input.shape(), self.input.shape());
        prop_assert!(c.trace.len() <= MAX_STEPS && c.backward.len() == c.trace.len());
        let last: Vec<usize> = out.shape().iter().map(|n| n - 1).collect();
        for index in [vec![0; out.dim()], last, vec![0; out.dim() + 1], vec![usize::MAX; out.dim()]] {
            if let Some(f) = c.formula("output", &index) {
                prop_assert_eq!(Some(f.value.to_bits()), out.get(&index).map(f32::to_bits));
            }
        }
        for playhead in [0, 1, c.trace.len(), c.trace.len() + 1, usize::MAX] {
            for phase in [Phase::Forward, Phase::Backward] {
                let _ = (c.describe_in(phase, playhead), c.marks_in(phase, playhead));
            }
        }
        let _ = (self.weight_t(), codegen::linear(self));
        Ok(())
    }
}

crate::takes_any_edits!(linear_scene_takes_any_edits, edit(), State::apply);
