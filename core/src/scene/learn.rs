//! Learning in a scene: a loss on the output (`sum`, or `mse` against an editable target) whose
//! gradient starts the backward pass, and SGD steps on the parameters (`param -= lr * param.grad`)
//! with a step counter, undo and reset.

use super::history::{History, Snapshot};
use super::{set_float, MAX_NUMEL};
use crate::error::TorchError;
use crate::ops::loss::Loss;
use crate::ops::{find, Named};
use crate::optim::sgd_step;
use crate::tensor::{Element, Tensor};
use serde::{Deserialize, Serialize};

/// Why undo has nothing left: it only remembers steps taken since the page was opened.
pub const NOTHING_TO_UNDO: &str =
    "nothing to undo: undo remembers the steps taken since this page was opened (Reset goes back to the start)";

/// The loss curve keeps the latest this many steps.
pub const MAX_LOSSES: usize = 10_000;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Learning {
    pub loss: Loss,
    /// As the learner typed it.
    pub lr: String,
    /// What each step still undoable changed. In memory only: a save or a link holds the scene,
    /// not its past.
    #[serde(skip)]
    pub history: History<Undo>,
    /// The parameters before the first step: what reset returns to.
    pub start: Option<Named>,
    /// Steps taken since the start (history may hold fewer).
    pub steps: usize,
    /// Per parameter, the flat indices the last step changed.
    pub changed: Vec<(String, Vec<usize>)>,
    /// The loss of each step taken (measured before its update), oldest first.
    #[serde(with = "json_floats")]
    pub losses: Vec<f32>,
}

/// Losses saved like tensor data, so a diverged `nan` or `inf` survives a save.
pub(crate) mod json_floats {
    use crate::tensor::{Element, Json};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(xs: &[f32], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(xs.iter().map(|x| x.to_json()))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
        let raw = Vec::<Json>::deserialize(d)?;
        raw.into_iter().map(|j| f32::from_json(j).map_err(D::Error::custom)).collect()
    }
}

/// Field by field, the losses compared as tensors compare their numbers (`Element::same`): a
/// diverged step's `nan` equals itself, so a state that holds one is the same state when looked
/// at again (a derived `==` made it differ from its own copy).
impl PartialEq for Learning {
    fn eq(&self, other: &Self) -> bool {
        let Self { loss, lr, history, start, steps, changed, losses } = self;
        let same_losses =
            losses.len() == other.losses.len() && losses.iter().zip(&other.losses).all(|(&a, &b)| a.same(b));
        *loss == other.loss
            && *lr == other.lr
            && *history == other.history
            && *start == other.start
            && *steps == other.steps
            && *changed == other.changed
            && same_losses
    }
}

impl Default for Learning {
    fn default() -> Self {
        Self {
            loss: Loss::Sum,
            lr: "0.1".into(),
            history: History::default(),
            start: None,
            steps: 0,
            changed: Vec::new(),
            losses: Vec::new(),
        }
    }
}

impl Learning {
    /// `torch.optim.SGD` refuses a negative rate with this message; we also refuse non-numbers.
    pub fn set_lr(&mut self, text: &str) -> Result<(), String> {
        let lr = crate::edit::parse_float(text)?;
        if !(lr >= 0.0 && lr.is_finite()) {
            return Err(format!("ValueError: Invalid learning rate: {}", text.trim()));
        }
        self.lr = text.trim().to_string();
        Ok(())
    }

    pub fn lr(&self) -> f64 {
        crate::edit::parse_float(&self.lr).map_or(0.1, f64::from)
    }

    /// `mse` against a target of the output's shape (zeros to start), or back to `sum`.
    pub fn use_mse(&mut self, mse: bool, output_shape: &[usize]) -> Result<(), String> {
        self.loss = match mse {
            false => Loss::Sum,
            true if output_shape.iter().product::<usize>() > MAX_NUMEL => return Err("the output is too large".into()),
            true => Loss::Mse { target: Tensor::zeros(output_shape.to_vec()).map_err(|e| e.to_string())? },
        };
        Ok(())
    }

    /// Types into the mse target.
    pub fn edit_target(&mut self, index: usize, text: &str) -> Result<(), String> {
        match &mut self.loss {
            Loss::Mse { target } => set_float(target, index, text),
            Loss::Sum => Err("the sum loss has no target".into()),
        }
    }

    /// The loss value and `dL/doutput`, PyTorch's error if the target no longer fits.
    pub fn loss_of(&self, output: &Tensor) -> Result<(f32, Tensor), TorchError> {
        Ok((self.loss.forward(output)?, self.loss.backward(output)?))
    }

    /// One SGD step on every parameter that has a gradient, taken at `loss`; remembers what it
    /// changed for undo, which cells moved, and the loss for the curve.
    pub fn step(&mut self, params: &mut [(&str, &mut Tensor)], grads: &Named, loss: f32) -> Result<(), String> {
        let before = snapshot(params);
        let lr = self.lr();
        let (mut changed, mut undo) = (Vec::new(), Vec::new());
        // `before` holds the parameters in their order.
        for ((name, p), (_, was)) in params.iter_mut().zip(&before) {
            let Some(g) = find(grads, name) else { continue };
            let moved = sgd_step(p, g, lr).map_err(|e| e.to_string())?;
            undo.push((name.to_string(), Was::of(was, &moved)));
            changed.push((name.to_string(), moved));
        }
        self.start.get_or_insert_with(|| before.clone());
        self.history.push(Undo(undo));
        self.steps += 1;
        self.changed = changed;
        self.losses.push(loss);
        self.losses.drain(..self.losses.len().saturating_sub(MAX_LOSSES));
        Ok(())
    }

    /// Back one step: the parameters as they were before it.
    pub fn undo(&mut self, params: &mut [(&str, &mut Tensor)]) -> Result<(), String> {
        let Undo(step) = self.history.pop().ok_or(NOTHING_TO_UNDO)?;
        for (name, p) in params.iter_mut() {
            if let Some((_, was)) = step.iter().find(|(n, _)| n == name) {
                was.put_back(p);
            }
        }
        self.steps = self.steps.saturating_sub(1);
        self.changed.clear();
        self.losses.pop();
        Ok(())
    }

    /// Back to the parameters before the first step.
    pub fn reset(&mut self, params: &mut [(&str, &mut Tensor)]) {
        if let Some(start) = self.start.take() {
            restore(params, &start);
        }
        self.history.clear();
        self.steps = 0;
        self.changed.clear();
        self.losses.clear();
    }

    /// Whether `lr` and the loss are ones the scene could have made: a decoded save or link
    /// is refused otherwise, so the panel never shows what it would not accept.
    pub fn check(&self) -> Result<(), String> {
        Learning::default().set_lr(&self.lr).map_err(|e| format!("lr: {e}"))?;
        if let Loss::Mse { target } = &self.loss {
            if target.numel() > MAX_NUMEL {
                return Err(format!("the mse target holds more than {MAX_NUMEL} numbers"));
            }
        }
        if self.losses.len() > MAX_LOSSES {
            return Err(format!("losses holds {} steps; this scene keeps at most {MAX_LOSSES}", self.losses.len()));
        }
        for (name, t) in self.start.iter().flatten() {
            if t.numel() > MAX_NUMEL {
                return Err(format!("the saved start of {name} holds more than {MAX_NUMEL} numbers"));
            }
        }
        Ok(())
    }

    /// Forget the steps (after an edit, undo would silently throw the edit away).
    pub fn forget(&mut self) {
        self.history.clear();
        self.start = None;
        self.steps = 0;
        self.changed.clear();
        self.losses.clear();
    }

    /// The cells of `name` the last step changed.
    pub fn changed_in(&self, name: &str) -> Vec<usize> {
        self.changed.iter().find(|(n, _)| n == name).map(|(_, c)| c.clone()).unwrap_or_default()
    }
}

/// What one step changed, parameter by parameter: undo puts it back.
#[derive(Clone, Debug)]
pub struct Undo(Vec<(String, Was)>);

/// One parameter before a step: the numbers of the cells it moved, so undo at real scale keeps
/// hundreds of steps that each moved a few rows of a 12.8 MB table, not two copies of it; or,
/// where it moved over a third of them (their indices would then cost more), the whole tensor as
/// it was: the numbers the step copied away from, held, not copied again.
#[derive(Clone, Debug)]
enum Was {
    Cells { at: Vec<usize>, numbers: Vec<f32> },
    Whole(Tensor),
}

impl Was {
    /// `before` is a snapshot's, with no transpose kept.
    fn of(before: &Tensor, moved: &[usize]) -> Self {
        match 3 * moved.len() > before.numel() {
            true => Was::Whole(before.clone()),
            false => Was::Cells { at: moved.to_vec(), numbers: moved.iter().map(|&i| before.data()[i]).collect() },
        }
    }

    /// Writes the numbers back (keeping a transpose made of the parameter up to date).
    fn put_back(&self, p: &mut Tensor) {
        match self {
            Was::Whole(t) => *p = t.clone(),
            Was::Cells { at, numbers } => {
                p.write_some(|data| {
                    // Edits that change a parameter's size forget the steps; never panic here.
                    let mut written = Vec::with_capacity(at.len());
                    for (&i, &x) in at.iter().zip(numbers) {
                        if let Some(cell) = data.get_mut(i) {
                            *cell = x;
                            written.push(i);
                        }
                    }
                    written
                });
            }
        }
    }
}

impl Snapshot for Undo {
    fn bytes(&self) -> usize {
        let bytes = |was: &Was| match was {
            Was::Cells { at, numbers } => at.len() * size_of::<usize>() + numbers.len() * 4,
            Was::Whole(t) => t.numel() * 4,
        };
        self.0.iter().map(|(_, was)| bytes(was)).sum()
    }
}

fn snapshot(params: &[(&str, &mut Tensor)]) -> Named {
    params.iter().map(|(n, t)| (n.to_string(), t.without_transpose())).collect()
}

fn restore(params: &mut [(&str, &mut Tensor)], saved: &Named) {
    for (name, p) in params.iter_mut() {
        if let Some(t) = find(saved, name) {
            **p = t.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_undo_and_reset() {
        let mut l = Learning::default();
        let mut w = Tensor::vector(vec![1.0, 2.0, 3.0]);
        let grads = vec![("weight".to_string(), Tensor::vector(vec![1.0, 0.0, -2.0]))];
        l.step(&mut [("weight", &mut w)], &grads, 1.0).unwrap();
        assert_eq!(w.data(), [0.9, 2.0, 3.2]);
        assert_eq!((l.steps, l.changed_in("weight")), (1, vec![0, 2]));
        l.step(&mut [("weight", &mut w)], &grads, 1.0).unwrap();
        l.undo(&mut [("weight", &mut w)]).unwrap();
        assert_eq!(w.data(), [0.9, 2.0, 3.2]);
        l.reset(&mut [("weight", &mut w)]);
        assert_eq!((w.data(), l.steps), (&[1.0, 2.0, 3.0][..], 0));
        assert!(l.undo(&mut [("weight", &mut w)]).is_err());
    }

    #[test]
    fn undo_puts_back_the_cells_a_step_moved_or_the_whole_tensor() {
        let mut l = Learning::default();
        let mut w = Tensor::new(vec![2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, -0.0]).unwrap();
        let start = w.clone();
        let transpose = |t: &Tensor| t.t().unwrap().data().to_vec();
        let was_t = transpose(&w);
        let grad = |g: Vec<f32>| vec![("weight".to_string(), Tensor::new(vec![2, 3], g).unwrap())];
        // One cell moved: kept as that cell; all moved: kept whole.
        l.step(&mut [("weight", &mut w)], &grad(vec![0.0, 0.0, 1.0, 0.0, 0.0, 0.0]), 1.0).unwrap();
        let after_one = w.clone();
        l.step(&mut [("weight", &mut w)], &grad(vec![1.0; 6]), 1.0).unwrap();
        assert_eq!(l.history.bytes(), (size_of::<usize>() + 4) + 6 * 4);
        l.undo(&mut [("weight", &mut w)]).unwrap();
        assert_eq!((&w, transpose(&w)), (&after_one, transpose(&after_one)));
        l.undo(&mut [("weight", &mut w)]).unwrap();
        // Bit for bit (-0.0 too), and the transpose made before the steps kept up to date.
        assert_eq!(
            w.data().iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            start.data().iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(transpose(&w), was_t);
        assert!(l.history.is_empty() && l.history.bytes() == 0);
    }

    #[test]
    fn a_diverged_loss_is_the_same_state_when_looked_at_again() {
        let l = Learning { losses: vec![1.5, f32::NAN, f32::INFINITY], ..Learning::default() };
        assert_eq!(l, l.clone());
        let mut other = l.clone();
        other.losses[1] = -f32::NAN;
        assert_ne!(l, other, "another NaN's bits are another number");
        other.losses[1] = f32::NAN;
        other.lr = "0.5".into();
        assert_ne!(l, other);
    }

    #[test]
    fn lr_and_loss_choice() {
        let mut l = Learning::default();
        assert_eq!(l.set_lr("-1").unwrap_err(), "ValueError: Invalid learning rate: -1");
        assert!(l.set_lr("abc").is_err());
        l.set_lr("0.5").unwrap();
        assert_eq!(l.lr(), 0.5);
        l.use_mse(true, &[2]).unwrap();
        l.edit_target(1, "3").unwrap();
        let (value, up) = l.loss_of(&Tensor::vector(vec![1.0, 1.0])).unwrap();
        assert_eq!((value, up.data()), (2.5, &[1.0, -2.0][..]));
        assert!(l.loss_of(&Tensor::vector(vec![1.0])).is_err());
    }
}
