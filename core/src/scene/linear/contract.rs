use super::*;
use crate::scene::contract::scene_common;

impl Scene for State {
    scene_common!("linear");

    fn preset_id(&self) -> &str {
        &self.preset
    }

    fn change(&mut self, edit: &Edit) -> Result<(), String> {
        match edit {
            Edit::Cell { tensor, index, text } => self.edit(tensor, *index, text),
            Edit::Paste { tensor, index, text } => self.paste(tensor, *index, text),
            Edit::Field { field, text } => match field.as_str() {
                "in_features" => self.set_in_features(text),
                "out_features" => self.set_out_features(text),
                "input.dim" => self.set_rank(usize::try_from(parse_int(text)?).unwrap_or(0)),
                other => match lead_dim(other) {
                    Some(dim) => self.set_lead(dim, text),
                    None => Err(format!("the Linear scene has no field {other}")),
                },
            },
            Edit::Flag { flag, on } if flag == "bias" => {
                self.set_bias(*on);
                Ok(())
            }
            Edit::Reinit { seed } => self.reinit(seed),
            other => Err(format!("the Linear scene does not take {other:?}")),
        }
    }

    fn output_shape(&self) -> Vec<usize> {
        State::output_shape(self)
    }

    fn grads(&self) -> Result<(f32, Named), String> {
        let (loss, _, grads) = self.backward_pass().map_err(|e| format!("{}. {}", e.error, e.hint))?;
        let mut named = vec![("weight".to_string(), grads.weight)];
        named.extend(grads.bias.map(|b| ("bias".to_string(), b)));
        Ok((loss, named))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        let Self { weight, bias, has_bias, learning, .. } = self;
        let mut params = vec![("weight", weight)];
        if *has_bias {
            params.push(("bias", bias));
        }
        (learning, params)
    }
}

/// `input.shape[1]` → 1.
fn lead_dim(field: &str) -> Option<usize> {
    field.strip_prefix("input.shape[")?.strip_suffix(']')?.parse().ok()
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
    /// With `weight.T` lit where `weight` is.
    fn marks(&self, phase: Phase, playhead: usize) -> Marks {
        self.marks_in(phase, playhead)
    }
    fn describe(&self, phase: Phase, playhead: usize) -> String {
        self.describe_in(phase, playhead)
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
        check_shape("weight", &self.weight, 2..=2, MAX_SIZE)?;
        check_shape("bias", &self.bias, 1..=1, MAX_SIZE)?;
        check_shape("input", &self.input, 1..=3, MAX_SIZE)?;
        self.seed.as_deref().map_or(Ok(()), check_seed)?;
        self.learning.check()
    }
}
