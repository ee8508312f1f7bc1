use super::*;
use crate::say::Say;
use crate::scene::contract::{input_dim, scene_common, view_common};

impl Scene for State {
    scene_common!("linear");
    const LESSONS: &'static str = include_str!("lessons.json");

    fn field(&mut self, field: &str, text: &str) -> Result<(), String> {
        match field {
            "in_features" => self.set_in_features(text),
            "out_features" => self.set_out_features(text),
            "input.dim" => self.set_rank(usize::try_from(parse_int(text)?).unwrap_or(0)),
            other => match input_dim(other) {
                Some(dim) => self.set_lead(dim, text),
                None => Err(format!("the Linear scene has no field {other}")),
            },
        }
    }

    fn flag(&mut self, flag: &str, on: bool) -> Result<(), String> {
        match flag {
            "bias" => {
                self.set_bias(on);
                Ok(())
            }
            other => Err(format!("the Linear scene has no option {other}")),
        }
    }

    fn output_shape(&self) -> Vec<usize> {
        State::output_shape(self)
    }

    fn fact(&self, _view: &Self::View, name: &str) -> Option<String> {
        match name {
            "module" => Some(self.module_call()),
            "input.shape" => Some(py_shape(self.input.shape())),
            _ => None,
        }
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

    fn limits(&self) -> Result<(), String> {
        check_shape("weight", &self.weight, 2..=2, MAX_SIZE)?;
        check_shape("bias", &self.bias, 1..=1, MAX_SIZE)?;
        check_shape("input", &self.input, 1..=3, MAX_SIZE)?;
        self.seed.as_deref().map_or(Ok(()), check_seed)
    }
}

impl View for Computed {
    view_common!();

    fn trace(&self, phase: Phase) -> Option<&Trace> {
        Some(self.trace_of(phase))
    }

    /// With `weight.T` lit where `weight` is.
    fn marks(&self, phase: Phase, playhead: usize) -> Marks {
        self.marks_in(phase, playhead)
    }

    fn describe(&self, phase: Phase, playhead: usize) -> Vec<Say> {
        self.describe_in(phase, playhead)
    }
}
