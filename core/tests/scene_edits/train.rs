//! The Train scene under any sequence of its controls. Its invariants: 1 to `MAX_RATINGS` ratings;
//! two factor tables of one `n_factors` within the limits; the loss curve stays bounded;
//! the predictions are stale exactly when PyTorch would raise (then they are the last good ones),
//! else one score per rating, a loss, and a `.grad` shaped like each table.

use crate::common::gen::{cell_text, lr_text, paste_text, preset_id, seed_text, size_field};
use crate::{actions, cell, drive, name, same, switch, Driven, CASES};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::scene::train::{State, MAX_FACTORS, MAX_LOSSES, MAX_RATINGS, MAX_ROWS, MAX_RUN, PRESETS};
use rowflow_core::trace::MAX_STEPS;

/// The names `edit` and `paste` accept, and some they refuse.
const EDITABLE: &[&str] = &["ratings", "user_factors.weight", "movie_factors.weight"];
const OTHER: &[&str] = &["output", "target", ""];
const LIMITS: &[usize] = &[MAX_ROWS, MAX_FACTORS, MAX_RATINGS];

#[derive(Clone, Debug)]
pub enum Action {
    Edit(&'static str, usize, String),
    Paste(&'static str, usize, String),
    Ratings(String),
    Lr(String),
    Users(String),
    Movies(String),
    Factors(String),
    Reinit(String),
    Reset,
    Step,
    Run(usize),
    Undo,
    Preset(&'static str),
}

fn action() -> impl Strategy<Value = Action> {
    let tensor = || name(EDITABLE, OTHER);
    let steps = prop_oneof![8 => 0usize..6, 1 => prop::sample::select(vec![MAX_RUN, MAX_RUN + 1, usize::MAX])];
    prop_oneof![
        6 => (tensor(), cell(), cell_text(LIMITS)).prop_map(|(n, i, t)| Action::Edit(n, i, t)),
        2 => (tensor(), cell(), paste_text(LIMITS)).prop_map(|(n, i, t)| Action::Paste(n, i, t)),
        1 => size_field(LIMITS).prop_map(Action::Ratings),
        1 => lr_text().prop_map(Action::Lr),
        1 => size_field(LIMITS).prop_map(Action::Users),
        1 => size_field(LIMITS).prop_map(Action::Movies),
        1 => size_field(LIMITS).prop_map(Action::Factors),
        1 => seed_text().prop_map(Action::Reinit),
        1 => Just(Action::Reset),
        2 => Just(Action::Step),
        1 => steps.prop_map(Action::Run),
        1 => Just(Action::Undo),
        1 => preset_id(PRESETS).prop_map(Action::Preset),
    ]
}

impl Driven for State {
    type Action = Action;

    fn act(&mut self, action: &Action) -> Result<(), String> {
        match action {
            Action::Edit(name, i, t) => self.edit(name, *i, t),
            Action::Paste(name, i, t) => self.paste(name, *i, t),
            Action::Ratings(t) => self.set_n_ratings(t),
            Action::Lr(t) => self.set_lr(t),
            Action::Users(t) => self.set_n_users(t),
            Action::Movies(t) => self.set_n_movies(t),
            Action::Factors(t) => self.set_n_factors(t),
            Action::Reinit(seed) => self.reinit(seed),
            Action::Reset => self.reset(),
            Action::Step => self.step().map(|_| ()),
            Action::Run(n) => self.run(*n).map(|_| ()),
            Action::Undo => self.undo(),
            Action::Preset(id) => switch(self, State::preset(id)),
        }
    }

    fn invariants(&self) -> Result<(), TestCaseError> {
        let (r, f) = (self.ratings.len(), self.n_factors());
        prop_assert!((1..=MAX_RATINGS).contains(&r) && (1..=MAX_FACTORS).contains(&f));
        prop_assert!((1..=MAX_ROWS).contains(&self.n_users()) && (1..=MAX_ROWS).contains(&self.n_movies()));
        prop_assert_eq!(self.user_factors.shape(), &[self.n_users(), f][..]);
        prop_assert_eq!(self.movie_factors.shape(), &[self.n_movies(), f][..]);
        prop_assert!(self.losses.len() <= MAX_LOSSES);
        let c = self.compute();
        prop_assert_eq!(c.stale, !c.issues.is_empty(), "{:?}", c.issues);
        prop_assert_eq!(c.loss_curve.len(), self.losses.len() + usize::from(!c.stale));
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
        let _ = codegen::train(self, 3);
        Ok(())
    }

    fn unsaved(&mut self) {
        self.history.clear();
    }
}

proptest! {
    #![proptest_config(crate::common::gen::config(CASES, file!()))]

    #[test]
    fn train_scene_takes_any_edits(start in prop::option::of(preset_id(PRESETS)), actions in actions(action())) {
        drive(start.and_then(State::preset).unwrap_or_default(), &actions)?;
    }
}
