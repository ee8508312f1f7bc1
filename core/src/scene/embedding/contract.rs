use super::*;
use crate::say::Say;
use crate::scene::contract::{id_at, scene_common, under_way, view_common};

impl Scene for State {
    scene_common!("embedding");
    const LESSONS: &'static str = include_str!("lessons.json");

    fn field(&mut self, field: &str, text: &str) -> Result<(), String> {
        match field {
            "num_embeddings" => self.set_num_embeddings(text),
            "embedding_dim" => self.set_embedding_dim(text),
            "padding_idx" => self.set_padding_idx(text),
            "dtype" => self.set_dtype(text),
            "input.shape[0]" => self.set_input_size(0, text),
            "input.shape[1]" => self.set_input_size(1, text),
            other => Err(format!("the Embedding scene has no field {other}")),
        }
    }

    fn flag(&mut self, flag: &str, on: bool) -> Result<(), String> {
        match flag {
            "from_pretrained" => self.from_pretrained = on,
            "freeze" => self.freeze = on,
            "sparse" => self.sparse = on,
            "batched" => self.set_batched(on),
            other => return Err(format!("the Embedding scene has no option {other}")),
        }
        Ok(())
    }

    fn output_shape(&self) -> Vec<usize> {
        [self.input.shape(), &[self.embedding_dim()]].concat()
    }

    fn fact(&self, _view: &Self::View, name: &str) -> Option<String> {
        match name {
            "module" => Some(self.module_call()),
            "input.shape" => Some(py_shape(self.input.shape())),
            "padding_idx" => Some(self.padding_idx.map_or("None".into(), |p| p.to_string())),
            "dtype" => Some(self.dtype.name().into()),
            _ => id_at(&self.input, name),
        }
    }

    /// Refused when the table is frozen (with the reason) or while PyTorch would raise.
    fn grads(&self) -> Result<(f32, Named), String> {
        let c = self.compute();
        if let Some(why) = c.no_grad {
            return Err(why);
        }
        if let Some(e) = c.loss_error {
            return Err(e);
        }
        let grad =
            c.grads.and_then(|g| g.weight).ok_or("PyTorch raises on the current inputs: fix what is marked first")?;
        Ok((c.loss.unwrap_or(f32::NAN), vec![("weight".to_string(), grad)]))
    }

    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>) {
        (&mut self.learning, vec![("weight", &mut self.weight)])
    }

    /// `weight.grad` from the `output.grad` rows sent back so far.
    fn grad_at(&self, view: &Computed, tensor: &str, playhead: usize) -> Option<Tensor> {
        let ok = tensor == "weight.grad" && under_way(&view.backward, playhead, self.weight.numel());
        let upstream = view.backward.sent(playhead, "output.grad", view.upstream.as_ref().filter(|_| ok)?);
        self.module().ok()?.backward(&self.input, &upstream).ok()?.weight
    }

    fn settle(&mut self) {
        State::settle(self);
    }

    fn limits(&self) -> Result<(), String> {
        check_shape("weight", &self.weight, 2..=2, MAX_NUM_EMBEDDINGS.max(MAX_EMBEDDING_DIM))?;
        let (v, d) = (self.weight.shape()[0], self.weight.shape()[1]);
        if v > MAX_NUM_EMBEDDINGS || d > MAX_EMBEDDING_DIM || v * d > MAX_TABLE {
            return Err(format!(
                "weight is {v} × {d}; this scene allows at most {MAX_NUM_EMBEDDINGS} × {MAX_EMBEDDING_DIM} and \
                 {MAX_TABLE} numbers"
            ));
        }
        check_shape("input", &self.input, 1..=2, MAX_IDS)?;
        check_shape("the last output", &self.last_good, 1..=3, MAX_IDS.max(MAX_EMBEDDING_DIM))?;
        if self.input.numel() > MAX_IDS || self.last_good.numel() > MAX_IDS * MAX_EMBEDDING_DIM {
            return Err(format!("it holds more than {MAX_IDS} ids"));
        }
        self.seed.as_deref().map_or(Ok(()), check_seed)
    }
}

impl View for Computed {
    view_common!();

    fn trace(&self, phase: Phase) -> Option<&Trace> {
        Some(match phase {
            Phase::Forward => &self.trace,
            Phase::Backward => &self.backward,
        })
    }

    fn describe(&self, phase: Phase, playhead: usize) -> Vec<Say> {
        match phase {
            Phase::Forward => vec![Computed::describe(self, playhead)],
            Phase::Backward => self.describe_backward(playhead, self.padding_row),
        }
    }
}
