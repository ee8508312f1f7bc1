use super::*;
use crate::scene::contract::scene_common;

impl Scene for State {
    scene_common!("rnn");

    /// None once edited: the numbers on show are no longer the preset's.
    fn preset_id(&self) -> &str {
        if self.edited {
            ""
        } else {
            &self.preset
        }
    }

    fn change(&mut self, edit: &Edit) -> Result<(), String> {
        match edit {
            Edit::Cell { tensor, index, text } if tensor == "target" => self.learning.edit_target(*index, text),
            Edit::Cell { tensor, index, text } => self.edit(tensor, *index, text),
            Edit::Paste { tensor, index, text } => self.paste(tensor, *index, text),
            Edit::Field { field, text } => match field.as_str() {
                "nonlinearity" => self.set_nonlinearity(text),
                "padding_value" => self.set_padding_value(text),
                size => self.set_size(size, text),
            },
            Edit::Flag { flag, on } if flag == "h_n_in_loss" => {
                self.set_h_n_in_loss(*on);
                Ok(())
            }
            Edit::Flag { flag, on } => self.set_flag(flag, *on),
            Edit::Reinit { seed } => self.reinit(seed),
            other => Err(format!("the RNN scene does not take {other:?}")),
        }
    }

    /// The mse target takes `output`'s shape; nothing has run while a field is bad.
    fn output_shape(&self) -> Vec<usize> {
        self.model.run().map(|run| run.output.shape().to_vec()).unwrap_or_default()
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
}

impl View for Computed {
    fn issues(&self) -> &[Issue] {
        &self.issues
    }
    fn loss(&self) -> Option<f32> {
        self.backward.as_ref().map(|b| b.loss)
    }
    fn trace(&self, phase: Phase) -> Option<&Trace> {
        Computed::trace(self, phase)
    }
    fn describe(&self, phase: Phase, playhead: usize) -> String {
        match phase {
            Phase::Forward => Computed::describe(self, playhead),
            Phase::Backward => self.describe_backward(playhead),
        }
    }
    fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        Computed::formula(self, tensor, index)
    }
}

impl crate::scene::share::Shared for State {
    fn forget_history(&mut self) {
        self.learning.forget();
    }

    fn check(&self) -> Result<(), String> {
        check_preset(&self.preset, PRESETS)?;
        check_seed(&self.seed)?;
        self.model.check()?;
        self.last_good.as_ref().map_or(Ok(()), Model::check)?;
        self.learning.check()
    }
}
