//! A table trained by a task: an `nn.Embedding` inside a small sentence classifier, as a PyTorch
//! user writes it.
//!
//! ```text
//! emb = nn.Embedding(V, D)            # or nn.Embedding.from_pretrained(w, freeze=...)
//! fc = nn.Linear(D, 1)
//! x = torch.stack([emb(s).mean(0) for s in sentences])   (S, D)
//! logits = fc(x).squeeze(1)                               (S,)
//! loss = F.binary_cross_entropy_with_logits(logits, labels)
//! ```
//!
//! sentences: S lists of ids, each of any length; labels `(S,)`. Only the rows of words in the
//! sentences get gradient: a word learns only from the labels of the sentences it is in.
//! An empty sentence is what PyTorch makes of it: the mean of no rows, `0/0`, a row of nan.

use crate::error::{Result, TorchError};
use crate::ops::embedding::Embedding;
use crate::ops::linear::Linear;
use crate::ops::loss::bce_with_logits;
use crate::ops::{distinct_rows, Named};
use crate::tensor::{Ids, Tensor};
use crate::trace::{Phase, Span, Step, Trace, MAX_STEPS};

#[derive(Clone, Debug, PartialEq)]
pub struct Classifier {
    /// `(V, D)`
    pub embedding: Embedding,
    /// `nn.Linear(D, 1)`: weight `(1, D)`, bias `(1,)`.
    pub fc: Linear,
    /// `from_pretrained(..., freeze=True)`: the table gets no gradient (so does `embedding.freeze`).
    pub freeze: bool,
}

/// What the sentences compute before the loss.
#[derive(Clone, Debug, PartialEq)]
pub struct Forward {
    /// `(S, D)`: each sentence's mean row.
    pub x: Tensor,
    /// `(S,)`: `fc(x).squeeze(1)` (left `(S, out)` by `squeeze(1)` when `fc` has more outputs).
    pub logits: Tensor,
}

impl Classifier {
    fn frozen(&self) -> bool {
        self.freeze || self.embedding.freeze
    }

    pub fn forward(&self, sentences: &[Vec<i64>]) -> Result<Forward> {
        if sentences.is_empty() {
            return Err(TorchError::runtime("stack expects a non-empty TensorList"));
        }
        let d = self.embedding.embedding_dim();
        let mut x = Vec::with_capacity(sentences.len() * d);
        for s in sentences {
            let rows = self.embedding.forward(&Ids::vector(s.clone()))?;
            let rows = rows.data();
            // `.mean(0)`: the rows' sum, then divided by the length.
            x.extend((0..d).map(|j| (0..s.len()).fold(0.0f32, |acc, q| acc + rows[q * d + j]) / s.len() as f32));
        }
        let x = Tensor::new(vec![sentences.len(), d], x)?;
        let out = self.fc.forward(&x)?;
        let logits = match self.fc.out_features() {
            1 => out.reshape(vec![sentences.len()])?,
            _ => out,
        };
        Ok(Forward { x, logits })
    }

    /// The loss and every `.grad`, in PyTorch's parameter order: `embedding.weight` (unless
    /// frozen), `fc.weight`, `fc.bias`. `dx[s]` comes from `fc`; each occurrence of a word in
    /// sentence s adds `dx[s]/len` into its row.
    pub fn backward(&self, sentences: &[Vec<i64>], labels: &Tensor) -> Result<(f32, Named)> {
        let f = self.forward(sentences)?;
        let (loss, dlogits) = bce_with_logits(&f.logits, labels)?;
        let up = dlogits.reshape(vec![sentences.len(), self.fc.out_features()])?;
        let g = self.fc.backward(&f.x, &up)?;
        let mut named = Named::new();
        if !self.frozen() {
            let d = self.embedding.embedding_dim();
            let dx = g.input.data();
            let spread = sentences.iter().enumerate().flat_map(|(k, s)| {
                s.iter().flat_map(move |_| dx[k * d..(k + 1) * d].iter().map(move |g| g / s.len() as f32))
            });
            let ids = Ids::vector(sentences.concat());
            let up = Tensor::new(vec![ids.numel(), d], spread.collect())?;
            named.extend(self.embedding.backward(&ids, &up)?.weight.map(|w| ("embedding.weight".into(), w)));
        }
        named.push(("fc.weight".into(), g.weight));
        named.extend(g.bias.map(|b| ("fc.bias".into(), b)));
        Ok((loss, named))
    }

    /// One step per sentence: its rows of `embedding.weight` make `x[s]`, which with `fc.weight`
    /// and `fc.bias` makes `logits[s]`.
    pub fn forward_trace(&self, sentences: &[Vec<i64>]) -> Result<Trace> {
        self.trace(sentences, Phase::Forward)
    }

    /// One step per sentence, last first: `logits.grad[s]` into `fc.weight.grad`, `fc.bias.grad`
    /// and exactly the rows of `embedding.weight.grad` the sentence looked up (none when frozen).
    pub fn backward_trace(&self, sentences: &[Vec<i64>]) -> Result<Trace> {
        self.trace(sentences, Phase::Backward)
    }

    fn trace(&self, sentences: &[Vec<i64>], phase: Phase) -> Result<Trace> {
        self.forward(sentences)?;
        let bias = self.fc.bias.is_some();
        let step = |s: usize| {
            let rows: Vec<usize> = sentences[s].iter().map(|&r| r as usize).collect();
            let fc = |grad: &str| {
                let mut spans = vec![Span::whole(format!("fc.weight{grad}"))];
                spans.extend(bias.then(|| Span::whole(format!("fc.bias{grad}"))));
                spans
            };
            match phase {
                Phase::Forward => {
                    let reads = rows.iter().map(|&r| Span::at("embedding.weight", &[r])).chain(fc(""));
                    let writes = vec![Span::at("x", &[s]), Span::at("logits", &[s])];
                    Step { phase, reads: reads.collect(), writes, accumulate: false }
                }
                Phase::Backward => {
                    let reads = vec![Span::at("logits.grad", &[s]), Span::at("x", &[s]), Span::whole("fc.weight")];
                    // A word twice in the sentence is one row written (its two shares added).
                    let rows =
                        if self.frozen() { Vec::new() } else { distinct_rows(rows, self.embedding.num_embeddings()) };
                    let table = rows.iter().map(|&r| Span::at("embedding.weight.grad", &[r]));
                    let writes = fc(".grad").into_iter().chain(table);
                    Step { phase, reads, writes: writes.collect(), accumulate: true }
                }
            }
        };
        let order: Vec<usize> = match phase {
            Phase::Forward => (0..sentences.len()).collect(),
            Phase::Backward => (0..sentences.len()).rev().collect(),
        };
        let steps = order.into_iter().take(MAX_STEPS).map(step).collect();
        Ok(if sentences.len() > MAX_STEPS { Trace::summary(steps) } else { Trace::new(steps) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(freeze: bool) -> Classifier {
        let table = (0..20).map(|k| ((k * 7 % 11) as f32 - 5.0) / 10.0).collect();
        let embedding = Embedding::new(Tensor::new(vec![5, 4], table).unwrap(), None).unwrap();
        let fc =
            Linear::new(Tensor::new(vec![1, 4], vec![0.3, -0.2, 0.5, 0.1]).unwrap(), Some(Tensor::vector(vec![0.05])));
        Classifier { embedding, fc: fc.unwrap(), freeze }
    }

    fn data() -> (Vec<Vec<i64>>, Tensor) {
        (vec![vec![0, 1, 2], vec![2, 2], vec![1, 0, 3, 0]], Tensor::vector(vec![1.0, 0.0, 1.0]))
    }

    /// Finite differences of the loss agree with `backward` on every entry of every parameter.
    #[test]
    fn gradients_match_finite_differences_and_unread_rows_stay_zero() {
        let (sentences, labels) = data();
        let m = model(false);
        let (_, g) = m.backward(&sentences, &labels).unwrap();
        let names: Vec<&str> = g.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["embedding.weight", "fc.weight", "fc.bias"]);
        for (p, (name, grad)) in g.iter().enumerate() {
            for i in 0..grad.numel() {
                let nudged = |h: f32| {
                    let mut m = m.clone();
                    let w = [&mut m.embedding.weight, &mut m.fc.weight, m.fc.bias.as_mut().unwrap()];
                    w.into_iter().nth(p).unwrap().data_mut()[i] += h;
                    f64::from(m.backward(&sentences, &labels).unwrap().0)
                };
                let numeric = (nudged(1e-2) - nudged(-1e-2)) / 2e-2;
                assert!((numeric - f64::from(grad.data()[i])).abs() < 1e-3, "{name}[{i}]: {numeric} vs {grad:?}");
            }
        }
        // Row 4 is in no sentence.
        assert_eq!(&g[0].1.data()[16..], [0.0; 4]);
    }

    #[test]
    fn frozen_table_gets_no_gradient_and_no_trace_rows() {
        let (sentences, labels) = data();
        let (_, g) = model(true).backward(&sentences, &labels).unwrap();
        assert_eq!(g.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["fc.weight", "fc.bias"]);
        let t = model(true).backward_trace(&sentences).unwrap();
        assert!(t.steps.iter().all(|s| s.writes_to("embedding.weight.grad").next().is_none()));
    }

    #[test]
    fn backward_goes_last_sentence_first_into_its_rows() {
        let (sentences, _) = data();
        let t = model(false).backward_trace(&sentences).unwrap();
        let flows: Vec<String> = t.steps[0].flows().iter().map(|(a, b)| format!("{a}→{b}")).collect();
        let want = ["fc.weight.grad", "fc.bias.grad", "embedding.weight.grad[0]", "embedding.weight.grad[1]"]
            .map(|w| format!("logits.grad[2]→{w}"));
        assert_eq!(flows[..4], want);
        assert_eq!(flows[4], "logits.grad[2]→embedding.weight.grad[3]");
        let f = model(false).forward_trace(&sentences).unwrap();
        assert_eq!(
            f.steps[1].reads[..2].iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["embedding.weight[2]"; 2]
        );
    }

    #[test]
    fn a_bad_id_is_pytorchs_index_error_and_an_empty_sentence_is_nan() {
        let e = model(false).forward(&[vec![0], vec![5]]).unwrap_err();
        assert_eq!(e.to_string(), "IndexError: index out of range in self");
        let f = model(false).forward(&[vec![], vec![1]]).unwrap();
        assert!(f.x.data()[..4].iter().all(|v| v.is_nan()) && f.logits.data()[0].is_nan());
    }
}
