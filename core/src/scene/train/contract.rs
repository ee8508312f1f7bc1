//! The Train scene on the shared contract: its edits, its parameters for `Learning`, what the
//! shell reads of its view model, and the checks a save or link must pass.

use super::{Computed, State, MAX_FACTORS, MAX_RATINGS, MAX_ROWS, MOVIES, PRESETS, USERS};
use crate::ops::{find, Named};
use crate::scene::contract::{scene_common, Edit, Scene, View};
use crate::scene::learn::Learning;
use crate::scene::share::Shared;
use crate::scene::{check_preset, check_seed, check_shape, Formula, Issue};
use crate::tensor::Tensor;
use crate::trace::{Phase, Trace};

impl Scene for State {
    scene_common!("train");
    const FIXED_LOSS: Option<&'static str> = Some("F.mse_loss(output, ratings)");

    fn preset_id(&self) -> &str {
        &self.preset
    }

    fn change(&mut self, edit: &Edit) -> Result<(), String> {
        match edit {
            Edit::Cell { tensor, index, text } => self.edit(tensor, *index, text),
            Edit::Paste { tensor, index, text } => self.paste(tensor, *index, text),
            Edit::Field { field, text } => self.set_size(field, text),
            Edit::Reinit { seed } => self.reinit(seed),
            other => Err(format!("the Train scene does not take {other:?}")),
        }
    }

    fn output_shape(&self) -> Vec<usize> {
        vec![self.ratings.len()]
    }

    fn grads(&self) -> Result<(f32, Named), String> {
        let p = self.pass()?;
        for name in [USERS, MOVIES] {
            find(&p.grads, name).ok_or(format!("{name} has no gradient"))?;
        }
        Ok((p.loss, p.grads))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        let Self { user_factors, movie_factors, learning, .. } = self;
        (learning, vec![(USERS, user_factors), (MOVIES, movie_factors)])
    }

    fn settle(&mut self) {
        State::settle(self);
    }

    /// Back to the seeded start: the tables drawn again from the seed, the steps forgotten.
    fn reset(&mut self) -> Result<(), String> {
        self.reinit(&self.seed.clone())
    }
}

impl View for Computed {
    fn issues(&self) -> &[Issue] {
        &self.issues
    }
    fn loss(&self) -> Option<f32> {
        self.loss
    }
    fn trace(&self, phase: Phase) -> Option<&Trace> {
        Some(self.trace_of(phase))
    }
    fn describe(&self, phase: Phase, playhead: usize) -> String {
        Computed::describe(self, phase, playhead)
    }
    fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        Computed::formula(self, tensor, index)
    }
}

impl Shared for State {
    fn forget_history(&mut self) {
        self.learning.history.clear();
    }

    fn check(&self) -> Result<(), String> {
        check_preset(&self.preset, PRESETS)?;
        check_seed(&self.seed)?;
        check_shape(USERS, &self.user_factors, 2..=2, MAX_ROWS)?;
        check_shape(MOVIES, &self.movie_factors, 2..=2, MAX_ROWS)?;
        check_shape("the last output", &self.last_good, 1..=1, MAX_RATINGS)?;
        let counts = [
            ("n_factors", self.n_factors().max(self.movie_factors.shape()[1]), MAX_FACTORS),
            ("ratings", self.ratings.len(), MAX_RATINGS),
        ];
        if let Some((name, n, max)) = counts.into_iter().find(|&(_, n, max)| n > max) {
            return Err(format!("{name} is {n}; this scene allows at most {max}"));
        }
        self.learning.check()
    }
}
