//! The word2vec scene on the shared contract: its edits, its parameters for `Learning`, what the
//! shell reads of its view model, and the limits a save or link must keep.

use super::{Computed, State, IN, OUT, PRESETS};
use crate::ops::Named;
use crate::say::Say;
use crate::scene::contract::{scene_common, view_common, Scene, View};
use crate::scene::learn::Learning;
use crate::scene::{check_seed, Formula, Issue};
use crate::tensor::Tensor;
use crate::trace::{Phase, Trace};

impl Scene for State {
    scene_common!("word2vec");
    const LESSONS: &'static str = include_str!("lessons.json");
    const FIXED_LOSS: Option<&'static str> = Some("(-F.logsigmoid(pos) - F.logsigmoid(-neg).sum(-1)).mean()");

    fn field(&mut self, field: &str, text: &str) -> Result<(), String> {
        self.set_field(field, text)
    }

    fn flag(&mut self, flag: &str, on: bool) -> Result<(), String> {
        match flag {
            "cbow" => {
                self.cbow = on;
                Ok(())
            }
            other => Err(format!("the word2vec scene has no option {other}")),
        }
    }

    fn output_shape(&self) -> Vec<usize> {
        self.pass().map_or(vec![0], |p| vec![p.pairs.len()])
    }

    /// Facts of the view a lesson's words read (the step's sentence, the neighbours, the task's
    /// losses), besides the settings.
    fn fact(&self, view: &Computed, name: &str) -> Option<String> {
        let words =
            |near: &[super::compare::Neighbour]| near.iter().take(3).map(|n| n.word.clone()).collect::<Vec<_>>();
        match name {
            "model" => Some(if self.cbow { "CBOW" } else { "skip-gram" }.into()),
            "window" => Some(self.window.to_string()),
            "negatives" => Some(self.negatives.to_string()),
            "seed" => Some(self.seed.clone()),
            "word" => Some(self.word.clone()),
            "task_steps" => Some(self.task_steps.to_string()),
            "steps" => Some(self.learning.steps.to_string()),
            "sentence" => Some(view.sentence_words.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>().join(" ")),
            "pairs" => Some(view.pairs.len().to_string()),
            "near_word2vec" => Some(words(&view.near_word2vec).join(", ")),
            "near_task" => Some(words(&view.near_task).join(", ")),
            _ => {
                let start = name.strip_prefix("task_loss_")?;
                let run = view.runs.iter().find(|r| r.start.id() == start)?;
                run.losses.last().map(|&l| crate::format::short(l))
            }
        }
    }

    fn grads(&self) -> Result<(f32, Named), String> {
        let p = self.pass()?;
        let g = p.model.backward(&p.batch).map_err(|e| e.to_string())?;
        Ok((g.loss, vec![(IN.into(), g.in_embed), (OUT.into(), g.out_embed)]))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        let Self { in_embed, out_embed, learning, .. } = self;
        (learning, vec![(IN, in_embed), (OUT, out_embed)])
    }

    /// Back to the seeded start: the tables drawn again from the seed, the steps forgotten.
    fn reset(&mut self) -> Result<(), String> {
        self.reinit(&self.seed.clone())
    }

    /// A link keeps the loss curve: how the tables got here is what this scene shows.
    fn forget_steps(&mut self) {
        self.learning.history.clear();
    }

    fn limits(&self) -> Result<(), String> {
        check_seed(&self.seed)?;
        self.sizes_ok()
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
