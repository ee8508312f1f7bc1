//! The Embedding scene under any sequence of its controls. Its invariants: the table is
//! `(num_embeddings, embedding_dim)` within the scene's limits, the ids are 1-D or 2-D and at most
//! `MAX_IDS`; the output is stale exactly when PyTorch would raise (then it is the last good one),
//! else it is `(*ids, embedding_dim)` with one pick per id, a loss and grads as PyTorch gives them:
//! none when frozen, the padding row never written, a sparse list with `sparse=True`.

use crate::common::gen::{cell_text, lr_text, paste_text, preset_id, seed_text, size_field, text};
use crate::{actions, cell, drive, name, same, switch, Driven, CASES};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::embedding::{State, MAX_EMBEDDING_DIM, MAX_IDS, MAX_NUM_EMBEDDINGS, MAX_TABLE, PRESETS};
use rowflow_core::trace::MAX_STEPS;

/// The names `edit` and `paste` accept, and some they refuse.
const EDITABLE: &[&str] = &["weight", "input", "target"];
const OTHER: &[&str] = &["padding_idx", "output", "weight.grad", ""];
const LIMITS: &[usize] = &[MAX_NUM_EMBEDDINGS, MAX_EMBEDDING_DIM, MAX_TABLE, MAX_IDS];

#[derive(Clone, Debug)]
pub enum Action {
    Edit(&'static str, usize, String),
    Paste(&'static str, usize, String),
    NumEmbeddings(String),
    EmbeddingDim(String),
    PaddingIdx(String),
    FromPretrained(bool),
    Freeze(bool),
    Sparse(bool),
    Batched(bool),
    InputSize(usize, String),
    Reinit(String),
    Mse(bool),
    Lr(String),
    Step,
    Undo,
    Reset,
    Preset(&'static str),
}

fn action() -> impl Strategy<Value = Action> {
    let (tensor, text) = (|| name(EDITABLE, OTHER), || text(LIMITS));
    prop_oneof![
        6 => (tensor(), cell(), cell_text(LIMITS)).prop_map(|(n, i, t)| Action::Edit(n, i, t)),
        2 => (tensor(), cell(), paste_text(LIMITS)).prop_map(|(n, i, t)| Action::Paste(n, i, t)),
        1 => size_field(LIMITS).prop_map(Action::NumEmbeddings),
        1 => size_field(LIMITS).prop_map(Action::EmbeddingDim),
        2 => prop_oneof![text(), Just("None".to_string()), (-12i64..12).prop_map(|p| p.to_string())]
            .prop_map(Action::PaddingIdx),
        1 => any::<bool>().prop_map(Action::FromPretrained),
        1 => any::<bool>().prop_map(Action::Freeze),
        1 => any::<bool>().prop_map(Action::Sparse),
        1 => any::<bool>().prop_map(Action::Batched),
        1 => (0usize..3, size_field(LIMITS)).prop_map(|(d, t)| Action::InputSize(d, t)),
        1 => seed_text().prop_map(Action::Reinit),
        1 => any::<bool>().prop_map(Action::Mse),
        1 => lr_text().prop_map(Action::Lr),
        2 => Just(Action::Step),
        1 => Just(Action::Undo),
        1 => Just(Action::Reset),
        1 => preset_id(PRESETS).prop_map(Action::Preset),
    ]
}

impl Driven for State {
    type Action = Action;

    fn act(&mut self, action: &Action) -> Result<(), String> {
        match action {
            Action::Edit(name, i, t) => self.edit(name, *i, t),
            Action::Paste(name, i, t) => self.paste(name, *i, t),
            Action::NumEmbeddings(t) => self.set_num_embeddings(t),
            Action::EmbeddingDim(t) => self.set_embedding_dim(t),
            Action::PaddingIdx(t) => self.set_padding_idx(t),
            Action::FromPretrained(on) => self.apply(&Edit::flag("from_pretrained", *on)),
            Action::Freeze(on) => self.apply(&Edit::flag("freeze", *on)),
            Action::Sparse(on) => self.apply(&Edit::flag("sparse", *on)),
            Action::Batched(on) => self.apply(&Edit::flag("batched", *on)),
            Action::InputSize(dim, t) => self.set_input_size(*dim, t),
            Action::Reinit(seed) => self.reinit(seed),
            Action::Mse(on) => self.apply(&Edit::Loss { mse: *on }),
            Action::Lr(t) => self.apply(&Edit::Lr { text: t.into() }),
            Action::Step => self.apply(&Edit::Step),
            Action::Undo => self.undo(),
            Action::Reset => self.reset(),
            Action::Preset(id) => switch(self, State::preset(id)),
        }
    }

    fn invariants(&self) -> Result<(), TestCaseError> {
        let (v, d) = (self.num_embeddings(), self.embedding_dim());
        prop_assert!(self.weight.dim() == 2 && (1..=MAX_NUM_EMBEDDINGS).contains(&v), "{:?}", self.weight.shape());
        prop_assert!((1..=MAX_EMBEDDING_DIM).contains(&d) && v * d <= MAX_TABLE);
        prop_assert!((1..=2).contains(&self.input.dim()) && self.input.numel() <= MAX_IDS, "{:?}", self.input);
        let c = self.compute();
        prop_assert_eq!(c.stale, !c.issues.is_empty());
        prop_assert!(c.trace.len() <= MAX_STEPS && c.backward.len() <= MAX_STEPS);
        if c.stale {
            prop_assert!(same(&c.output, &self.last_good), "a stale output is the last good one");
        } else {
            prop_assert_eq!(c.output.shape(), &[self.input.shape(), &[d]].concat()[..]);
            prop_assert_eq!(c.picks.len(), self.input.numel());
            prop_assert!(c.loss_error.is_none(), "the target follows the output: {:?}", c.loss_error);
            let frozen = self.from_pretrained && self.freeze;
            let g = c.grads.as_ref().expect("grads when nothing is wrong");
            prop_assert_eq!(g.weight.is_none(), frozen);
            prop_assert_eq!(g.sparse.is_some(), self.sparse && !frozen);
            if let Some(w) = &g.weight {
                prop_assert_eq!(w.shape(), self.weight.shape());
                let padding = self.padding_row().map_or(&[][..], |p| &w.data()[p * d..][..d]);
                prop_assert!(padding.iter().all(|&x| x == 0.0), "the padding row got gradient");
            }
        }
        let first = vec![0; c.output.dim()];
        let _ = (c.formula("output", &first), c.formula("output", &[usize::MAX, 0]));
        for playhead in [0, 1, c.trace.len(), c.backward.len() + 1, usize::MAX] {
            let _ = (c.describe(playhead), c.describe_backward(playhead, self.padding_row()));
        }
        let _ = codegen::embedding(self);
        Ok(())
    }

    fn unsaved(&mut self) {
        self.learning.history.clear();
    }
}

proptest! {
    #![proptest_config(crate::common::gen::config(CASES, file!()))]

    #[test]
    fn embedding_scene_takes_any_edits(start in prop::option::of(preset_id(PRESETS)), actions in actions(action())) {
        drive(start.and_then(State::preset).unwrap_or_default(), &actions)?;
    }
}
