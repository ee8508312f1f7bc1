//! What every scene is: a saved state that takes [`Edit`]s, learns with one [`Learning`], and
//! computes once into a view model the shared shell reads. A storm, a tour step, a link and a test
//! all drive a scene through `apply`, so they speak the same language as the learner's clicks.

use super::learn::Learning;
use super::share::Shared;
use super::{Formula, Issue};
use crate::ops::Named;
use crate::tensor::Tensor;
use crate::trace::{Marks, Phase, Trace};
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// One thing a learner does to a scene. Tensors and fields go by the names the views show
/// (`weight`, `input`, `target`; `in_features`, `input.shape[0]`, `nonlinearity`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit {
    /// Types `text` into flat cell `index` of `tensor`.
    Cell { tensor: String, index: usize, text: String },
    /// Pastes a block (spreadsheet cells or a Python literal) with its top-left at `index`.
    Paste { tensor: String, index: usize, text: String },
    /// Types into a setting: a size, `padding_idx`, `nonlinearity`, the input's rank.
    Field { field: String, text: String },
    /// Turns an option (`bias`, `batch_first`, `sparse`, ...) on or off.
    Flag { flag: String, on: bool },
    /// `torch.manual_seed(seed)`, then the layer drawn again.
    Reinit { seed: String },
    /// One of the scene's presets, whole.
    Preset { id: String },
    /// `mse` against a target of the output's shape (zeros to start), or back to `sum`.
    Loss { mse: bool },
    /// `torch.optim.SGD(lr=...)` as typed.
    Lr { text: String },
    /// One SGD step: `param -= lr * param.grad` on every parameter with a gradient.
    Step,
    /// Up to `steps` SGD steps (at most [`MAX_RUN`]), stopping at the first refusal.
    Run { steps: usize },
    /// Back one step.
    Undo,
    /// Back to the parameters before the first step.
    Reset,
}

impl Edit {
    pub fn cell(tensor: &str, index: usize, text: &str) -> Self {
        Edit::Cell { tensor: tensor.into(), index, text: text.into() }
    }
    pub fn paste(tensor: &str, index: usize, text: &str) -> Self {
        Edit::Paste { tensor: tensor.into(), index, text: text.into() }
    }
    pub fn field(field: &str, text: &str) -> Self {
        Edit::Field { field: field.into(), text: text.into() }
    }
    pub fn flag(flag: &str, on: bool) -> Self {
        Edit::Flag { flag: flag.into(), on }
    }
}

/// Steps one `Run` may take, so a typo can't freeze the page.
pub const MAX_RUN: usize = 1000;

/// A scene: its presets, its edits, its learning and its one computation.
pub trait Scene: Shared + Default + PartialEq + Debug + Send + Sync + 'static {
    /// Everything the views show of one state.
    type View: View + Send + Sync + 'static;
    /// The localStorage key and route of the scene (`linear` → `rowflow.linear`, `#/linear`).
    const NAME: &'static str;
    /// (id, label) of every preset; the first is the default.
    const PRESETS: &'static [(&'static str, &'static str)];
    /// The loss, when the scene's model fixes it (Train's mse against the ratings): no other
    /// loss can be picked. `None`: `sum` or `mse` against an editable target.
    const FIXED_LOSS: Option<&'static str> = None;

    /// The exact tensors of a preset.
    fn preset(id: &str) -> Option<Self>;
    /// The preset the numbers on show came from, or "" when the scene marks them as edited.
    fn preset_id(&self) -> &str;
    /// The scene's own edits: cells, pastes, fields, flags and re-init. The rest is `apply`'s.
    fn change(&mut self, edit: &Edit) -> Result<(), String>;
    /// Outputs, gradients, loss, issues, traces and their captions, from this state. Never panics.
    fn compute(&self) -> Self::View;

    fn learning(&self) -> &Learning;
    /// The output's shape, which an mse target takes.
    fn output_shape(&self) -> Vec<usize>;
    /// The loss and every trainable parameter's `.grad`, or why backward can't run.
    fn grads(&self) -> Result<(f32, Named), String>;
    /// The learning and the parameters it steps, borrowed together.
    fn params(&mut self) -> (&mut Learning, Vec<(&str, &mut Tensor)>);
    /// After a step, undo or reset moved the parameters.
    fn settle(&mut self) {}

    /// `mse` against a target of the output's shape (zeros to start), or back to `sum`.
    fn set_loss(&mut self, mse: bool) -> Result<(), String> {
        if let Some(loss) = Self::FIXED_LOSS {
            return if mse { Ok(()) } else { Err(format!("this scene always learns with {loss}")) };
        }
        let shape = self.output_shape();
        self.params().0.use_mse(mse, &shape)
    }

    /// `loss.backward(); optimizer.step()`; refused, with the state untouched, while PyTorch
    /// would raise.
    fn step(&mut self) -> Result<(), String> {
        let (loss, grads) = self.grads()?;
        let (learning, mut params) = self.params();
        learning.step(&mut params, &grads, loss)?;
        self.settle();
        Ok(())
    }

    fn undo(&mut self) -> Result<(), String> {
        let (learning, mut params) = self.params();
        learning.undo(&mut params)?;
        self.settle();
        Ok(())
    }

    fn reset(&mut self) -> Result<(), String> {
        let (learning, mut params) = self.params();
        learning.reset(&mut params);
        self.settle();
        Ok(())
    }

    /// Any edit. A refused one (`Err`, with the reason) leaves the state as it was, except a
    /// `Run` that took some steps before one was refused: it says how many in `Ok`.
    fn apply(&mut self, edit: &Edit) -> Result<(), String> {
        match edit {
            Edit::Preset { id } => {
                *self = Self::preset(id).ok_or_else(|| format!("this scene has no preset {id:?}"))?;
                Ok(())
            }
            Edit::Loss { mse } => self.set_loss(*mse),
            Edit::Lr { text } => self.params().0.set_lr(text),
            Edit::Step => self.step(),
            Edit::Run { steps } => {
                for k in 0..(*steps).min(MAX_RUN) {
                    if let Err(e) = self.step() {
                        return if k == 0 { Err(e) } else { Ok(()) };
                    }
                }
                Ok(())
            }
            Edit::Undo => self.undo(),
            Edit::Reset => self.reset(),
            edit => self.change(edit),
        }
    }
}

/// What the shared shell reads of any scene's view model: the problems, the loss, and each
/// pass's steps with what lights up and the caption of each.
pub trait View {
    fn issues(&self) -> &[Issue];
    /// `None` while backward can't run.
    fn loss(&self) -> Option<f32>;
    /// The trace the timeline of `phase` plays; `None` while that pass can't run.
    fn trace(&self, phase: Phase) -> Option<&Trace>;
    /// How many steps the timeline of `phase` has.
    fn steps(&self, phase: Phase) -> usize {
        self.trace(phase).map_or(0, Trace::len)
    }
    /// What lights up after `playhead` steps of `phase`.
    fn marks(&self, phase: Phase, playhead: usize) -> Marks {
        self.trace(phase).map(|t| t.marks_at(playhead)).unwrap_or_default()
    }
    /// The caption of the step at `playhead`.
    fn describe(&self, phase: Phase, playhead: usize) -> String;
    /// How the cell `index` of an output or gradient is computed, with the numbers plugged in.
    fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula>;
}

/// The part of `impl Scene` every scene writes alike: its name and presets, and its state's own
/// `preset`, `compute` and `learning` (each scene module has `State`, `Computed` and `PRESETS`).
macro_rules! scene_common {
    ($name:literal) => {
        type View = Computed;
        const NAME: &'static str = $name;
        const PRESETS: &'static [(&'static str, &'static str)] = PRESETS;

        fn preset(id: &str) -> Option<Self> {
            State::preset(id)
        }

        fn compute(&self) -> Computed {
            State::compute(self)
        }

        fn learning(&self) -> &Learning {
            &self.learning
        }
    };
}
pub(crate) use scene_common;
