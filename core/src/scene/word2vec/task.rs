//! The same vocabulary trained by a task instead: `nn.Embedding` inside a sentence classifier
//! (the mean of a sentence's rows → `nn.Linear(D, 1)` → `F.binary_cross_entropy_with_logits`
//! against its label), by the same SGD, from three starts side by side: a random table, word2vec's
//! table frozen (`from_pretrained(w, freeze=True)`), and word2vec's table fine-tuned
//! (`freeze=False`). `torch.manual_seed(seed + 1)` draws `fc` first, then the random table, so the
//! three share one `fc` and differ only in their start.

use crate::ops::classifier::Classifier;
use crate::ops::embedding::Embedding;
use crate::ops::linear::Linear;
use crate::ops::{find, Named};
use crate::optim::sgd_step;
use crate::tensor::Tensor;
use crate::torch_rng::Generator;

/// Where the task's table starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Random,
    Frozen,
    FineTuned,
}

impl Start {
    pub const ALL: [Start; 3] = [Start::Random, Start::Frozen, Start::FineTuned];

    /// As a field's text and a save hold it.
    pub fn id(self) -> &'static str {
        match self {
            Start::Random => "random",
            Start::Frozen => "frozen",
            Start::FineTuned => "fine_tune",
        }
    }

    pub fn parse(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|s| s.id() == text.trim())
            .ok_or_else(|| format!("start is one of random, frozen, fine_tune, not {:?}", text.trim()))
    }
}

/// One start trained for the task's steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub start: Start,
    /// The loss before each step, then after the last: `steps + 1` values.
    pub losses: Vec<f32>,
    /// The table after training (the frozen one is word2vec's, unmoved).
    pub table: Tensor,
    /// `torch.sigmoid(logits)` per sentence after training.
    pub probs: Vec<f32>,
}

/// What the task needs: the sentences that have a word in the vocabulary and their labels.
pub struct Task<'a> {
    pub sentences: &'a [Vec<i64>],
    pub labels: &'a Tensor,
    pub seed: i128,
    pub lr: f64,
    pub steps: usize,
}

impl Task<'_> {
    /// `fc` and the random table, as `torch.manual_seed(seed + 1)` draws them.
    pub fn init(&self, vocab: usize, dim: usize) -> Result<(Linear, Tensor), String> {
        let mut g = Generator::manual_seed(self.seed + 1).map_err(|e| e.to_string())?;
        let (w, b) = g.linear(dim, 1, true);
        let fc = Linear::new(w, b).map_err(|e| e.to_string())?;
        Ok((fc, g.embedding(vocab, dim, None).map_err(|e| e.to_string())?))
    }

    /// Each start trained from word2vec's `pretrained` table.
    pub fn runs(&self, pretrained: &Tensor) -> Result<Vec<Run>, String> {
        let shape = pretrained.shape();
        let (fc, random) = self.init(shape[0], shape.get(1).copied().unwrap_or(0))?;
        Start::ALL.into_iter().map(|start| self.run(start, &fc, &random, pretrained)).collect()
    }

    fn run(&self, start: Start, fc: &Linear, random: &Tensor, pretrained: &Tensor) -> Result<Run, String> {
        let e = |e: crate::TorchError| e.to_string();
        let table = if start == Start::Random { random } else { pretrained };
        let mut embedding = Embedding::new(table.clone(), None).map_err(e)?;
        embedding.freeze = start == Start::Frozen;
        let mut model = Classifier { embedding, fc: fc.clone(), freeze: start == Start::Frozen };
        let mut losses = Vec::with_capacity(self.steps + 1);
        for _ in 0..self.steps {
            let (loss, grads) = model.backward(self.sentences, self.labels).map_err(e)?;
            losses.push(loss);
            step(&mut model, &grads, self.lr).map_err(e)?;
        }
        let (loss, _) = model.backward(self.sentences, self.labels).map_err(e)?;
        losses.push(loss);
        let logits = model.forward(self.sentences).map_err(e)?.logits;
        let probs = logits.data().iter().map(|&x| 1.0 / (1.0 + (-x).exp())).collect();
        Ok(Run { start, losses, table: model.embedding.weight, probs })
    }
}

/// `opt.step()` on every parameter with a `.grad` (a frozen table has none).
fn step(model: &mut Classifier, grads: &Named, lr: f64) -> crate::error::Result<()> {
    if let Some(g) = find(grads, "embedding.weight") {
        sgd_step(&mut model.embedding.weight, g, lr)?;
    }
    if let Some(g) = find(grads, "fc.weight") {
        sgd_step(&mut model.fc.weight, g, lr)?;
    }
    if let (Some(g), Some(b)) = (find(grads, "fc.bias"), model.fc.bias.as_mut()) {
        sgd_step(b, g, lr)?;
    }
    Ok(())
}
