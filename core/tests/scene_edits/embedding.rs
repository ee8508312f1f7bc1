//! The Embedding scene under any sequence of its controls. Its invariants: the table is
//! `(num_embeddings, embedding_dim)` within the scene's limits, the ids are 1-D or 2-D and at most
//! `MAX_IDS`; the output is stale exactly when PyTorch would raise (then it is the last good one),
//! else it is `(*ids, embedding_dim)` with one pick per id, a loss and grads as PyTorch gives them:
//! none when frozen, the padding row never written, a sparse list with `sparse=True`.

use crate::common::gen::{size_field, text};
use crate::{field, flag, same, shared_edits, Driven};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::ops::embedding::IdsDtype;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::embedding::{State, MAX_EMBEDDING_DIM, MAX_IDS, MAX_NUM_EMBEDDINGS, MAX_TABLE};
use rowflow_core::trace::MAX_STEPS;

/// The names `edit` and `paste` accept, and some they refuse.
const EDITABLE: &[&str] = &["weight", "input", "target"];
const OTHER: &[&str] = &["padding_idx", "output", "weight.grad", ""];
const LIMITS: &[usize] = &[MAX_NUM_EMBEDDINGS, MAX_EMBEDDING_DIM, MAX_TABLE, MAX_IDS];

fn edit() -> impl Strategy<Value = Edit> {
    let padding = prop_oneof![text(LIMITS), Just("None".to_string()), (-12i64..12).prop_map(|p| p.to_string())];
    let ids = prop::sample::select(vec!["input.shape[0]", "input.shape[1]", "input.shape[2]"]);
    let dtype = prop_oneof![
        prop::sample::select(vec!["torch.long", "torch.int", "torch.float", "torch.double", "torch.float64"])
            .prop_map(String::from),
        text(LIMITS),
    ];
    prop_oneof![
        17 => shared_edits::<State>(EDITABLE, OTHER, LIMITS),
        1 => field("num_embeddings", size_field(LIMITS)),
        1 => field("embedding_dim", size_field(LIMITS)),
        2 => field("padding_idx", padding),
        1 => flag("from_pretrained"),
        1 => flag("freeze"),
        1 => flag("sparse"),
        1 => flag("batched"),
        1 => field("dtype", dtype),
        1 => (ids, size_field(LIMITS)).prop_map(|(f, t)| Edit::field(f, &t)),
    ]
}

impl Driven for State {
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
            prop_assert!(matches!(self.dtype, IdsDtype::Long | IdsDtype::Int), "float ids ran");
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
}

crate::takes_any_edits!(embedding_scene_takes_any_edits, edit(), State::apply);
