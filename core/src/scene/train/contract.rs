//! The Train scene on the shared contract: its edits, its parameters for `Learning`, what the
//! shell reads of its view model, and the limits a save or link must keep.

use super::{Computed, State, MAX_FACTORS, MAX_RATINGS, MAX_ROWS, MOVIES, PRESETS, USERS};
use crate::ops::{find, Named};
use crate::say::Say;
use crate::scene::contract::{scene_common, view_common, Scene, View};
use crate::scene::learn::Learning;
use crate::scene::{check_seed, check_shape, Formula, Issue};
use crate::tensor::Tensor;
use crate::trace::{Phase, Trace};

impl Scene for State {
    scene_common!("train");
    const LESSONS: &'static str = include_str!("lessons.json");
    const FIXED_LOSS: Option<&'static str> = Some("F.mse_loss(output, ratings)");

    fn field(&mut self, field: &str, text: &str) -> Result<(), String> {
        self.set_size(field, text)
    }

    fn output_shape(&self) -> Vec<usize> {
        vec![self.ratings.len()]
    }

    fn fact(&self, _view: &Self::View, name: &str) -> Option<String> {
        let (users, movies) = (self.user_factors.shape(), self.movie_factors.shape());
        match name {
            "module" => {
                Some(format!("DotProduct({}, {}, {})", users[0], movies[0], users.get(1).copied().unwrap_or(0)))
            }
            "ratings" => Some(self.ratings.len().to_string()),
            "seed" => Some(self.seed.clone()),
            _ => None,
        }
    }

    fn grads(&self) -> Result<(f32, Named), String> {
        let p = self.pass()?;
        for name in [USERS, MOVIES] {
            find(&p.grads, name).ok_or_else(|| format!("{name} has no gradient"))?;
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

    /// A link keeps the loss curve: how the factors got here is what this scene shows.
    fn forget_steps(&mut self) {
        self.learning.history.clear();
    }

    fn limits(&self) -> Result<(), String> {
        check_seed(&self.seed)?;
        check_shape(USERS, &self.user_factors, 2..=2, MAX_ROWS)?;
        check_shape(MOVIES, &self.movie_factors, 2..=2, MAX_ROWS)?;
        check_shape("the last output", &self.last_good, 1..=1, MAX_RATINGS)?;
        let counts = [
            ("n_factors", self.n_factors().max(self.movie_factors.shape()[1]), MAX_FACTORS),
            ("ratings", self.ratings.len(), MAX_RATINGS),
        ];
        match counts.into_iter().find(|&(_, n, max)| n > max) {
            Some((name, n, max)) => Err(format!("{name} is {n}; this scene allows at most {max}")),
            None => Ok(()),
        }
    }
}

impl View for Computed {
    view_common!();

    fn trace(&self, phase: Phase) -> Option<&Trace> {
        Some(self.trace_of(phase))
    }

    fn describe(&self, phase: Phase, playhead: usize) -> Vec<Say> {
        Computed::describe(self, phase, playhead)
    }
}
