use super::*;
use crate::say::Say;
use crate::scene::contract::{scene_common, view_common};

impl Scene for State {
    scene_common!(@edited "rnn");
    const LESSONS: &'static str = include_str!("lessons.json");

    /// None once edited: the numbers on show are no longer the preset's.
    fn preset_id(&self) -> &str {
        if self.edited {
            ""
        } else {
            &self.preset
        }
    }

    fn field(&mut self, field: &str, text: &str) -> Result<(), String> {
        match field {
            "nonlinearity" => self.set_nonlinearity(text),
            "padding_value" => self.set_padding_value(text),
            size => self.set_size(size, text),
        }
    }

    fn flag(&mut self, flag: &str, on: bool) -> Result<(), String> {
        if flag == "h_n_in_loss" {
            self.set_h_n_in_loss(on);
            return Ok(());
        }
        self.set_flag(flag, on)
    }

    /// The mse target takes `output`'s shape; nothing has run while a field is bad.
    fn output_shape(&self) -> Vec<usize> {
        self.model.run().map(|run| run.output.shape().to_vec()).unwrap_or_default()
    }

    fn fact(&self, _view: &Self::View, name: &str) -> Option<String> {
        let c = &self.model.config;
        let py = |b: bool| if b { "True" } else { "False" }.to_string();
        match name {
            "module" => Some(self.model.module_call()),
            "input.shape" => self.model.run().ok().map(|r| py_shape(r.input.shape())),
            "h_n.shape" => self.model.run().ok().map(|r| py_shape(r.h_n.shape())),
            "batch_first" => Some(py(c.batch_first)),
            "nonlinearity" => Some(c.nonlinearity.name().to_string()),
            "loss_fn" => {
                let loss = match &self.learning.loss {
                    Loss::Sum => "output.sum()",
                    Loss::Mse { .. } => "F.mse_loss(output, target)",
                };
                Some(if self.h_n_in_loss { format!("{loss} + h_n.sum()") } else { loss.to_string() })
            }
            _ => None,
        }
    }

    /// Every parameter's gradient (and `emb.weight`'s).
    fn grads(&self) -> Result<(f32, Named), String> {
        let run = self.model.run().map_err(|_| "fix the marked field first: nothing has run".to_string())?;
        let back = self.backward(&run)?;
        Ok((back.loss, back.grads))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        (&mut self.learning, trainable(&mut self.model))
    }

    /// The numbers are no longer a preset's or the seed's.
    fn step(&mut self) -> Result<(), String> {
        let (loss, grads) = self.grads()?;
        self.learning.step(&mut trainable(&mut self.model), &grads, loss)?;
        self.edited = true;
        Ok(())
    }

    /// The preset is checked even while edited: it is what a preset change starts from.
    fn limits(&self) -> Result<(), String> {
        check_preset(&self.preset, PRESETS)?;
        check_seed(&self.seed)?;
        self.model.check()?;
        self.last_good.as_ref().map_or(Ok(()), Model::check)
    }
}

impl View for Computed {
    view_common!();

    fn trace(&self, phase: Phase) -> Option<&Trace> {
        Computed::trace(self, phase)
    }

    fn describe(&self, phase: Phase, playhead: usize) -> Vec<Say> {
        match phase {
            Phase::Forward => Computed::describe(self, playhead),
            Phase::Backward => self.describe_backward(playhead),
        }
    }

    /// ‖dL/dh_t‖ of the step's cell against the smallest and largest of the pass, on a log scale
    /// (an overflowed one is the largest).
    fn flow_weight(&self, phase: Phase, playhead: usize) -> Option<f32> {
        let b = self.backward.as_ref().filter(|_| phase == Phase::Backward)?;
        let StepKind::Cell(cell) = b.steps.get(playhead.checked_sub(1)?)? else { return None };
        let lane = state_name(cell.layer, cell.direction);
        let norm = *b.norms.iter().find(|(name, _)| *name == lane)?.1.get(cell.t?)?;
        let logs = b.norms.iter().flat_map(|(_, n)| n).filter(|n| **n > 0.0 && n.is_finite()).map(|n| n.ln());
        let (lo, hi) = logs.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
        Some(match norm {
            n if !n.is_finite() => 1.0,
            n if n <= 0.0 || hi <= lo => {
                if n > 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
            n => (n.ln() - lo) / (hi - lo),
        })
    }
}
