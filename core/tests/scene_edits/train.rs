//! The Train scene under any sequence of its controls. Its invariants: 1 to `MAX_RATINGS` ratings;
//! two factor tables of one `n_factors` within the limits; the loss curve stays bounded;
//! the predictions are stale exactly when PyTorch would raise (then they are the last good ones),
//! else one score per rating, a loss, and a `.grad` shaped like each table.

use crate::common::gen::size_field;
use crate::{field, same, shared_edits, Driven};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::scene::contract::{Edit, Scene, MAX_RUN};
use rowflow_core::scene::learn::MAX_LOSSES;
use rowflow_core::scene::train::{State, MAX_FACTORS, MAX_RATINGS, MAX_ROWS};
use rowflow_core::trace::{Phase, MAX_STEPS};

/// The names `edit` and `paste` accept, and some they refuse.
const EDITABLE: &[&str] = &["ratings", "user_factors.weight", "movie_factors.weight"];
const OTHER: &[&str] = &["output", "target", ""];
const LIMITS: &[usize] = &[MAX_ROWS, MAX_FACTORS, MAX_RATINGS];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        15 => shared_edits::<State>(EDITABLE, OTHER, LIMITS),
        1 => field("ratings", size_field(LIMITS)),
        1 => field("n_users", size_field(LIMITS)),
        1 => field("n_movies", size_field(LIMITS)),
        1 => field("n_factors", size_field(LIMITS)),
        // Steps are cheap here: long runs find a diverging loss curve and the history's cap.
        1 => prop::sample::select(vec![MAX_RUN, MAX_RUN + 1, usize::MAX]).prop_map(|steps| Edit::Run { steps }),
    ]
}

impl Driven for State {
    fn invariants(&self) -> Result<(), TestCaseError> {
        let (r, f) = (self.ratings.len(), self.n_factors());
        prop_assert!((1..=MAX_RATINGS).contains(&r) && (1..=MAX_FACTORS).contains(&f));
        prop_assert!((1..=MAX_ROWS).contains(&self.n_users()) && (1..=MAX_ROWS).contains(&self.n_movies()));
        prop_assert_eq!(self.user_factors.shape(), &[self.n_users(), f][..]);
        prop_assert_eq!(self.movie_factors.shape(), &[self.n_movies(), f][..]);
        prop_assert!(self.learning.losses.len() <= MAX_LOSSES);
        let c = self.compute();
        prop_assert_eq!(c.stale, !c.issues.is_empty(), "{:?}", c.issues);
        prop_assert_eq!(c.loss_curve.len(), self.learning.losses.len() + usize::from(!c.stale));
        prop_assert!(c.forward.len() <= MAX_STEPS && c.backward.len() == c.forward.len());
        if c.stale {
            prop_assert!(same(&c.output, &self.last_good), "stale predictions are the last good ones");
        } else {
            prop_assert_eq!(c.output.shape(), &[r][..]);
            prop_assert!(c.loss.is_some());
            let shapes: Vec<(&str, &[usize])> = c.grads.iter().map(|(n, g)| (n.as_str(), g.shape())).collect();
            let want = [
                ("user_factors.weight", self.user_factors.shape()),
                ("movie_factors.weight", self.movie_factors.shape()),
            ];
            prop_assert_eq!(shapes, want);
        }
        for index in [&[0][..], &[r - 1], &[r], &[usize::MAX], &[0, 0]] {
            let _ = c.formula("output", index);
        }
        for playhead in [0, 1, c.forward.len(), c.forward.len() + 1, usize::MAX] {
            for phase in [Phase::Forward, Phase::Backward] {
                let _ = (c.describe(phase, playhead), c.trace_of(phase).marks_at(playhead));
            }
        }
        let _ = codegen::train(self, 3);
        Ok(())
    }
}

crate::takes_any_edits!(train_scene_takes_any_edits, edit(), State::apply);
