//! What every scene is: a saved state that takes [`Edit`]s, learns with one [`Learning`], and
//! computes once into a view model the shared shell reads. A storm, a tour step, a link and a test
//! all drive a scene through `apply`, so they speak the same language as the learner's clicks.

use super::learn::Learning;
use super::{check_preset, Formula, Issue};
use crate::ops::Named;
use crate::tensor::Tensor;
use crate::trace::{Marks, Phase, Trace};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
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

/// The dimension an `input.shape[d]` field sizes: `input.shape[1]` → 1.
pub fn input_dim(field: &str) -> Option<usize> {
    field.strip_prefix("input.shape[")?.strip_suffix(']')?.parse().ok()
}

/// Steps one `Run` may take, so a typo can't freeze the page.
pub const MAX_RUN: usize = 1000;

/// A scene: its presets, its edits, its learning and its one computation.
pub trait Scene: Clone + Serialize + DeserializeOwned + Default + PartialEq + Debug + Send + Sync + 'static {
    /// Everything the views show of one state.
    type View: View + Send + Sync + 'static;
    /// The localStorage key and route of the scene (`linear` → `rowflow.linear`, `#/linear`).
    const NAME: &'static str;
    /// (id, label) of every preset; the first is the default.
    const PRESETS: &'static [(&'static str, &'static str)];
    /// The loss, when the scene's model fixes it (Train's mse against the ratings): no other
    /// loss can be picked. `None`: `sum` or `mse` against an editable target.
    const FIXED_LOSS: Option<&'static str> = None;
    /// Its guided lessons: the JSON of [`crate::lesson::Lesson`]s, the scene's `lessons.json`.
    const LESSONS: &'static str;

    /// The exact tensors of a preset.
    fn preset(id: &str) -> Option<Self>;
    /// The preset the numbers on show came from, or "" when the scene marks them as edited.
    fn preset_id(&self) -> &str;
    /// Types `text` into flat cell `index` of `tensor` (the mse `target` included).
    fn cell(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String>;
    /// Pastes a block with its top-left at `index`; all or nothing.
    fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String>;
    /// `torch.manual_seed(seed)`, then the parameters drawn again.
    fn reinit(&mut self, seed: &str) -> Result<(), String>;
    /// Types into a setting of the scene's own (a size, `padding_idx`, `nonlinearity`).
    fn field(&mut self, field: &str, _text: &str) -> Result<(), String> {
        Err(format!("this scene has no field {field}"))
    }
    /// Turns one of the scene's options on or off.
    fn flag(&mut self, flag: &str, _on: bool) -> Result<(), String> {
        Err(format!("this scene has no option {flag}"))
    }
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
    /// Makes ahead what the first `compute` of a state read from text (a file, work brought
    /// back) would make for itself, so that a page can do it in a task of its own: One-hot's
    /// table's extent and transpose, 12.8 MB at real scale.
    fn prepare(&self) {}
    /// A fact about the state a lesson's words name (`module`, `input.shape`, `padding_idx`,
    /// `batch_first`, `nonlinearity`), as the scene's code writes it; `lr`, `loss_fn` and the
    /// output's and parameters' shapes are every scene's (`lesson`).
    fn fact(&self, _view: &Self::View, _name: &str) -> Option<String> {
        None
    }
    /// The `.grad` named `tensor` as the backward pass has built it after `playhead` of its
    /// steps, while it is under way (`1..steps`), for a gradient that adds up step by step: a
    /// repeated id's row holds 1, then 2. `None`: the grids show the whole gradient, as at the
    /// pass's start and end, and in scenes whose steps each write their cells whole.
    fn grad_at(&self, _view: &Self::View, _tensor: &str, _playhead: usize) -> Option<Tensor> {
        None
    }
    /// Whether a decoded state keeps the scene's own limits (sizes, seed): a save, file or link
    /// that does not is refused. The preset and the learning are checked for every scene.
    fn limits(&self) -> Result<(), String>;
    /// What a link or file leaves out: the steps, which only the sender can undo or reset to.
    fn forget_steps(&mut self) {
        self.params().0.forget();
    }

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
            Edit::Cell { tensor, index, text } => self.cell(tensor, *index, text),
            Edit::Paste { tensor, index, text } => self.paste(tensor, *index, text),
            Edit::Field { field, text } => self.field(field, text),
            Edit::Flag { flag, on } => self.flag(flag, *on),
            Edit::Reinit { seed } => self.reinit(seed),
        }
    }
}

/// The id at `input[k, …]` as a lesson's words quote it (`name`), as text.
pub(crate) fn id_at(ids: &crate::tensor::Ids, name: &str) -> Option<String> {
    let span: crate::trace::Span = name.parse().ok()?;
    let index: Vec<usize> = span.index.iter().copied().collect::<Option<_>>()?;
    (span.tensor == "input").then(|| ids.get(&index)).flatten().map(|id| id.to_string())
}

/// Whether a gradient of `numel` numbers is shown as built so far at `playhead` of `trace`:
/// only while the pass is under way, at one step per cell, and small enough for cells (a table
/// at real scale is drawn whole, as a heat map).
pub(crate) fn under_way(trace: &Trace, playhead: usize, numel: usize) -> bool {
    (1..trace.len()).contains(&playhead) && !trace.summarised && numel <= crate::trace::MAX_STEPS
}

/// Every scene is shared alike: its preset and learning checked, then its own limits.
impl<S: Scene> super::share::Shared for S {
    fn forget_history(&mut self) {
        self.forget_steps();
    }

    fn check(&self) -> Result<(), String> {
        check_preset(self.preset_id(), S::PRESETS)?;
        self.limits()?;
        self.learning().check()
    }

    fn prepare(&self) {
        Scene::prepare(self);
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
    /// The caption of the step at `playhead`: the ways to say it, the most said first (a page
    /// shows the longest that fits two lines in the learner's language, [`crate::say::caption`]).
    fn describe(&self, phase: Phase, playhead: usize) -> Vec<crate::say::Say>;
    /// How the cell `index` of an output or gradient is computed, with the numbers plugged in.
    fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula>;
    /// How much flows in the step at `playhead`, from 0 to 1, where the scene measures it: RNN's
    /// ‖dL/dh_t‖ on a log scale, so a vanishing gradient draws thin and an exploding one thick.
    fn flow_weight(&self, _phase: Phase, _playhead: usize) -> Option<f32> {
        None
    }
}

/// The part of `impl Scene` every scene writes alike: its name and presets, the preset it came
/// from, and its state's own `preset`, `compute`, `learning`, `edit`, `paste` and `reinit` (each
/// scene module has `State`, `Computed` and `PRESETS`). `@edited` leaves `preset_id` to the
/// scene, for one that forgets its preset once edited.
macro_rules! scene_common {
    ($name:literal) => {
        $crate::scene::contract::scene_common!(@edited $name);

        fn preset_id(&self) -> &str {
            &self.preset
        }
    };
    (@edited $name:literal) => {
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

        fn cell(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
            State::edit(self, tensor, index, text)
        }

        fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
            State::paste(self, tensor, index, text)
        }

        fn reinit(&mut self, seed: &str) -> Result<(), String> {
            State::reinit(self, seed)
        }
    };
}
pub(crate) use scene_common;

/// The part of `impl View` every view model writes alike: its `issues` and `loss` fields and
/// its own `formula`.
macro_rules! view_common {
    () => {
        fn issues(&self) -> &[Issue] {
            &self.issues
        }

        fn loss(&self) -> Option<f32> {
            self.loss
        }

        fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
            Computed::formula(self, tensor, index)
        }
    };
}
pub(crate) use view_common;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{embedding, linear, one_hot, rnn, train, word2vec};

    /// Every preset is the one it names; the first is the default; no other id is one.
    fn presets_are_themselves<S: Scene>() {
        for (id, _) in S::PRESETS {
            assert_eq!(S::preset(id).unwrap().preset_id(), *id, "{}", S::NAME);
        }
        assert_eq!(S::default(), S::preset(S::PRESETS[0].0).unwrap(), "{}", S::NAME);
        assert!(S::preset("nope").is_none(), "{}", S::NAME);
    }

    #[test]
    fn every_scene_has_its_presets() {
        presets_are_themselves::<linear::State>();
        presets_are_themselves::<embedding::State>();
        presets_are_themselves::<one_hot::State>();
        presets_are_themselves::<rnn::State>();
        presets_are_themselves::<train::State>();
        presets_are_themselves::<word2vec::State>();
    }
}
