//! The Linear scene under any sequence of its controls. Its invariants: `weight` is
//! `(out_features, in_features)` and `bias` `(out_features,)`, both sizes in `1..=MAX_SIZE`; the
//! input is 1-D to 3-D and its last size is `in_features`, so nothing can go wrong: there is always
//! an output `(*, out_features)`, a loss, and grads shaped like what they are the grads of.

use crate::common::gen::{cell_text, lr_text, paste_text, preset_id, seed_text, size_field};
use crate::{actions, cell, drive, name, switch, Scene, CASES};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::scene::linear::{State, MAX_SIZE, PRESETS};
use rowflow_core::trace::{Phase, MAX_STEPS};

/// The names `edit` and `paste` accept, and some they refuse.
const EDITABLE: &[&str] = &["weight", "weight.T", "bias", "input", "target"];
const OTHER: &[&str] = &["output", "weight.grad", "", "Weight"];
const LIMITS: &[usize] = &[MAX_SIZE];

#[derive(Clone, Debug)]
pub enum Action {
    Edit(&'static str, usize, String),
    Paste(&'static str, usize, String),
    InFeatures(String),
    OutFeatures(String),
    Bias(bool),
    Rank(usize),
    Lead(usize, String),
    Reinit(String),
    Lr(String),
    Mse(bool),
    Step,
    Undo,
    Reset,
    Preset(&'static str),
}

fn action() -> impl Strategy<Value = Action> {
    let tensor = || name(EDITABLE, OTHER);
    prop_oneof![
        6 => (tensor(), cell(), cell_text(LIMITS)).prop_map(|(n, i, t)| Action::Edit(n, i, t)),
        2 => (tensor(), cell(), paste_text(LIMITS)).prop_map(|(n, i, t)| Action::Paste(n, i, t)),
        1 => size_field(LIMITS).prop_map(Action::InFeatures),
        1 => size_field(LIMITS).prop_map(Action::OutFeatures),
        1 => any::<bool>().prop_map(Action::Bias),
        1 => (0usize..5).prop_map(Action::Rank),
        1 => (0usize..3, size_field(LIMITS)).prop_map(|(d, t)| Action::Lead(d, t)),
        1 => seed_text().prop_map(Action::Reinit),
        1 => lr_text().prop_map(Action::Lr),
        1 => any::<bool>().prop_map(Action::Mse),
        2 => Just(Action::Step),
        1 => Just(Action::Undo),
        1 => Just(Action::Reset),
        1 => preset_id(PRESETS).prop_map(Action::Preset),
    ]
}

impl Scene for State {
    type Action = Action;

    fn apply(&mut self, action: &Action) -> Result<(), String> {
        match action {
            Action::Edit(name, i, t) => self.edit(name, *i, t),
            Action::Paste(name, i, t) => self.paste(name, *i, t),
            Action::InFeatures(t) => self.set_in_features(t),
            Action::OutFeatures(t) => self.set_out_features(t),
            Action::Bias(on) => {
                self.set_bias(*on);
                Ok(())
            }
            Action::Rank(rank) => self.set_rank(*rank),
            Action::Lead(dim, t) => self.set_lead(*dim, t),
            Action::Reinit(seed) => self.reinit(seed),
            Action::Lr(t) => self.set_lr(t),
            Action::Mse(on) => self.set_mse(*on),
            Action::Step => self.sgd_step(),
            Action::Undo => self.undo(),
            Action::Reset => {
                self.reset();
                Ok(())
            }
            Action::Preset(id) => switch(self, State::preset(id)),
        }
    }

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

    fn unsaved(&mut self) {
        self.learning.history.clear();
    }
}

proptest! {
    #![proptest_config(crate::common::gen::config(CASES, file!()))]

    #[test]
    fn linear_scene_takes_any_edits(start in prop::option::of(preset_id(PRESETS)), actions in actions(action())) {
        drive(start.and_then(State::preset).unwrap_or_default(), &actions)?;
    }
}
