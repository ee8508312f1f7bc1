//! word2vec with negative sampling, as a PyTorch user writes it: two tables,
//! `in_embed = nn.Embedding(V, D)` and `out_embed = nn.Embedding(V, D)`. Skip-gram predicts a
//! context word from its centre, `v = in_embed(centre)`; CBOW predicts the centre from its context,
//! `v = in_embed(context).mean(1)`. Then, for the word to predict and K negatives drawn for it,
//!
//! ```text
//! u = out_embed(target)                   (B, D)
//! n = out_embed(negatives)                (B, K, D)
//! pos = (u * v).sum(-1)                   (B,)
//! neg = (n * v.unsqueeze(1)).sum(-1)      (B, K)
//! loss = (-F.logsigmoid(pos) - F.logsigmoid(-neg).sum(-1)).mean()
//! ```
//!
//! inputs `(B, C)` (skip-gram: C = 1, the centre), target `(B,)`, negatives `(B, K)`. Only the rows
//! a pair looks up get gradient: that is how the tables learn.

use crate::error::{Result, TorchError};
use crate::ops::embedding::{same_dim, Embedding};
use crate::ops::linear::dot;
use crate::tensor::{Ids, Tensor};
use crate::trace::{Phase, Span, Step, Trace, MAX_STEPS};

#[derive(Clone, Debug, PartialEq)]
pub struct Word2Vec {
    /// `(V, D)`: the vectors a word gets as input, the ones kept as its embedding.
    pub in_embed: Embedding,
    /// `(V, D)`: the vectors a word gets as the one to predict.
    pub out_embed: Embedding,
}

/// The pairs of one step. CBOW's contexts are as long as the sentence allows (a word at its
/// edge has fewer neighbours), so each pair says how many of its row's ids are its context.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// `(B, C)`: row `b` holds pair `b`'s context in its first `lengths[b]` ids (skip-gram: C = 1,
    /// the centre); the rest repeat its first id and are never read.
    pub inputs: Ids,
    /// `(B,)`, each in `1..=C`.
    pub lengths: Vec<usize>,
    /// `(B,)`: the word to predict.
    pub target: Ids,
    /// `(B, K)`: the words drawn against it.
    pub negatives: Ids,
}

impl Batch {
    /// Pairs whose contexts all have C ids: `in_embed(inputs).mean(1)`.
    pub fn full(inputs: Ids, target: Ids, negatives: Ids) -> Self {
        let c = inputs.shape().get(1).copied().unwrap_or(0);
        Self { lengths: vec![c; inputs.shape().first().copied().unwrap_or(0)], inputs, target, negatives }
    }

    /// Pairs from ragged contexts (each non-empty) and `k` negatives each.
    pub fn ragged(contexts: &[Vec<i64>], target: Vec<i64>, negatives: Vec<i64>, k: usize) -> Result<Self> {
        let c = contexts.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let padded = contexts.iter().flat_map(|ctx| (0..c).map(|q| ctx.get(q).or(ctx.first()).copied().unwrap_or(0)));
        let b = contexts.len();
        Ok(Self {
            inputs: Ids::new(vec![b, c], padded.collect())?,
            lengths: contexts.iter().map(|ctx| ctx.len().max(1)).collect(),
            target: Ids::new(vec![target.len()], target)?,
            negatives: Ids::new(vec![negatives.len() / k.max(1), k], negatives)?,
        })
    }

    /// `(B, C, K)`. The pairs are cut from a corpus, so they always agree; a caller's slip is
    /// said as `(u * v)` would say it.
    fn sizes(&self) -> Result<(usize, usize, usize)> {
        match (self.inputs.shape(), self.target.shape(), self.negatives.shape()) {
            ([b, c], [bt], [bn, k])
                if b == bt
                    && b == bn
                    && *c > 0
                    && self.lengths.len() == *b
                    && self.lengths.iter().all(|l| (1..=*c).contains(l)) =>
            {
                Ok((*b, *c, *k))
            }
            (i, t, _) => Err(TorchError::runtime(format!(
                "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension 0",
                t.first().copied().unwrap_or(0),
                i.first().copied().unwrap_or(0)
            ))),
        }
    }

    /// Pair `p`'s context ids.
    pub fn context(&self, p: usize) -> &[i64] {
        let c = self.inputs.shape().get(1).copied().unwrap_or(0);
        &self.inputs.data()[p * c..p * c + self.lengths.get(p).copied().unwrap_or(0)]
    }
}

/// What one batch of pairs computes.
#[derive(Clone, Debug, PartialEq)]
pub struct Forward {
    /// `(B, D)`: the centre's row (skip-gram) or the context rows' mean (CBOW).
    pub v: Tensor,
    /// `(B,)`
    pub pos: Tensor,
    /// `(B, K)`
    pub neg: Tensor,
    pub loss: f32,
}

impl Forward {
    /// `pos.grad = (σ(pos) − 1)/B` and `neg.grad = σ(neg)/B`: where backward starts.
    pub fn score_grads(&self) -> (Tensor, Tensor) {
        let b = self.pos.numel().max(1) as f32;
        (self.pos.map(|x| (sigmoid(x) - 1.0) / b), self.neg.map(|x| sigmoid(x) / b))
    }
}

/// `.grad` of both tables, zeros but for the rows the pairs looked up.
#[derive(Clone, Debug, PartialEq)]
pub struct Grads {
    /// The loss they are the gradient of, so a step need not run forward again.
    pub loss: f32,
    pub in_embed: Tensor,
    pub out_embed: Tensor,
}

impl Word2Vec {
    pub fn new(in_embed: Tensor, out_embed: Tensor) -> Result<Self> {
        let (i, o) = (Embedding::new(in_embed, None)?, Embedding::new(out_embed, None)?);
        // Where PyTorch finds out: `(u * v)`, u from out_embed.
        same_dim(&o, &i)?;
        Ok(Self { in_embed: i, out_embed: o })
    }

    pub fn forward(&self, batch: &Batch) -> Result<Forward> {
        Ok(self.run(batch)?.0)
    }

    /// `forward`, with the rows `u` and `n` it looked up: backward reads them again.
    fn run(&self, batch: &Batch) -> Result<(Forward, Tensor, Tensor)> {
        let (b, c, k) = batch.sizes()?;
        let d = self.in_embed.embedding_dim();
        let rows = self.in_embed.forward(&batch.inputs)?;
        // `.mean(0)` of each context: the sum, then divided by its length (skip-gram's 1 leaves the row).
        let v: Vec<f32> = (0..b)
            .flat_map(|p| {
                let (rows, len) = (&rows.data()[p * c * d..(p + 1) * c * d], batch.lengths[p]);
                (0..d).map(move |j| (0..len).fold(0.0f32, |acc, q| acc + rows[q * d + j]) / len as f32)
            })
            .collect();
        let (u, n) = (self.out_embed.forward(&batch.target)?, self.out_embed.forward(&batch.negatives)?);
        let pos: Vec<f32> = (0..b).map(|p| dot(&u.data()[p * d..(p + 1) * d], &v[p * d..(p + 1) * d])).collect();
        let neg: Vec<f32> = (0..b * k)
            .map(|q| dot(&n.data()[q * d..(q + 1) * d], &v[q / k.max(1) * d..(q / k.max(1) + 1) * d]))
            .collect();
        let per_pair =
            (0..b).map(|p| -logsigmoid(pos[p]) - neg[p * k..(p + 1) * k].iter().map(|&x| logsigmoid(-x)).sum::<f32>());
        let loss = per_pair.sum::<f32>() / b as f32;
        let f = Forward {
            v: Tensor::new(vec![b, d], v)?,
            pos: Tensor::vector(pos),
            neg: Tensor::new(vec![b, k], neg)?,
            loss,
        };
        Ok((f, u, n))
    }

    /// `dpos = (σ(pos) − 1)/B`, `dneg = σ(neg)/B`; `out_embed.weight.grad[target] += dpos·v`,
    /// `[negatives] += dneg·v`; `in_embed.weight.grad[context] += (dpos·u + Σ dneg·n)/len`.
    pub fn backward(&self, batch: &Batch) -> Result<Grads> {
        let (f, u, n) = self.run(batch)?;
        let (b, c, k) = batch.sizes()?;
        let d = self.in_embed.embedding_dim();
        let (dpos, dneg) = f.score_grads();
        let (dpos, dneg) = (dpos.data(), dneg.data());
        let v = f.v.data();
        let scaled = |g: &[f32], per: usize| -> Vec<f32> {
            g.iter()
                .enumerate()
                .flat_map(|(q, &g)| v[q / per * d..(q / per + 1) * d].iter().map(move |x| g * x))
                .collect()
        };
        let out_target = self.out_embed.backward(&batch.target, &Tensor::new(vec![b, d], scaled(dpos, 1))?)?.weight;
        let out_neg =
            self.out_embed.backward(&batch.negatives, &Tensor::new(vec![b, k, d], scaled(dneg, k.max(1)))?)?.weight;
        let dv = (0..b).flat_map(|p| {
            let (u, n, dneg) =
                (&u.data()[p * d..(p + 1) * d], &n.data()[p * k * d..(p + 1) * k * d], &dneg[p * k..(p + 1) * k]);
            // The broadcast's gradient summed over the K negatives, then the positive's added.
            let gp = dpos[p];
            (0..d).map(move |j| gp * u[j] + (0..k).fold(0.0f32, |acc, q| acc + dneg[q] * n[q * d + j]))
        });
        let dv: Vec<f32> = dv.collect();
        // Each context id gets its share of `dv`; a row's padding gets nothing.
        let spread = (0..b * c).flat_map(|q| {
            let (p, len) = (q / c, batch.lengths[q / c]);
            dv[p * d..(p + 1) * d].iter().map(move |g| if q % c < len { g / len as f32 } else { 0.0 })
        });
        let into = self.in_embed.backward(&batch.inputs, &Tensor::new(vec![b, c, d], spread.collect())?)?.weight;
        // Neither table is frozen here, so each backward gives its dense gradient.
        let dense = |g: Option<Tensor>, of: &Embedding| g.map_or_else(|| Tensor::zeros(of.weight.shape().to_vec()), Ok);
        let (mut out, neg) = (dense(out_target, &self.out_embed)?, dense(out_neg, &self.out_embed)?);
        out.data_mut().iter_mut().zip(neg.data()).for_each(|(x, y)| *x += y);
        Ok(Grads { loss: f.loss, in_embed: dense(into, &self.in_embed)?, out_embed: out })
    }

    /// One step per pair: its context rows of `in_embed.weight` and its target's and negatives'
    /// rows of `out_embed.weight` meet in `pos[b]` and `neg[b]`.
    pub fn forward_trace(&self, batch: &Batch) -> Result<Trace> {
        self.trace(batch, Phase::Forward)
    }

    /// One step per pair, last first: from `pos.grad[b]` and `neg.grad[b]` into exactly those rows.
    pub fn backward_trace(&self, batch: &Batch) -> Result<Trace> {
        let mut trace = self.trace(batch, Phase::Backward)?;
        trace.steps.reverse();
        Ok(trace)
    }

    fn trace(&self, batch: &Batch, phase: Phase) -> Result<Trace> {
        self.forward(batch)?;
        let (b, _, k) = batch.sizes()?;
        let rows = |ids: &[i64]| ids.iter().map(|&r| r as usize).collect::<Vec<_>>();
        let step = |p: usize| {
            let (ins, outs) = (
                rows(batch.context(p)),
                [rows(&batch.target.data()[p..=p]), rows(&batch.negatives.data()[p * k..(p + 1) * k])].concat(),
            );
            let table = |name: &str, rows: &[usize]| rows.iter().map(|&r| Span::at(name, &[r])).collect::<Vec<_>>();
            let scores = vec![Span::at("pos", &[p]), Span::at("neg", &[p])];
            match phase {
                Phase::Forward => {
                    let reads = [table("in_embed.weight", &ins), table("out_embed.weight", &outs)].concat();
                    Step { phase, reads, writes: scores, accumulate: false }
                }
                Phase::Backward => {
                    let grads = |s: &Span| Span { tensor: format!("{}.grad", s.tensor), index: s.index.clone() };
                    let reads = [
                        scores.iter().map(grads).collect(),
                        table("in_embed.weight", &ins),
                        table("out_embed.weight", &outs),
                    ]
                    .concat();
                    let writes = [table("in_embed.weight.grad", &ins), table("out_embed.weight.grad", &outs)].concat();
                    Step { phase, reads, writes, accumulate: true }
                }
            }
        };
        let steps: Vec<Step> = (0..b.min(MAX_STEPS)).map(step).collect();
        Ok(if b > MAX_STEPS { Trace::summary(steps) } else { Trace::new(steps) })
    }
}

/// `F.logsigmoid`: `min(x, 0) − log1p(e^−|x|)`, finite however large `|x|` is.
fn logsigmoid(x: f32) -> f32 {
    x.min(0.0) - (-x.abs()).exp().ln_1p()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Word2Vec {
        let w = |data: Vec<f32>| Tensor::new(vec![4, 2], data).unwrap();
        Word2Vec::new(
            w(vec![0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8]),
            w(vec![0.2, -0.1, 0.3, 0.3, -0.4, 0.5, 0.6, -0.7]),
        )
        .unwrap()
    }

    fn ids(shape: Vec<usize>, data: Vec<i64>) -> Ids {
        Ids::new(shape, data).unwrap()
    }

    #[test]
    fn skip_gram_loss_is_the_mean_of_each_pairs_negative_log_likelihood() {
        let (inputs, target, negatives) = (ids(vec![1, 1], vec![0]), ids(vec![1], vec![1]), ids(vec![1, 1], vec![2]));
        let f = model().forward(&Batch::full(inputs, target, negatives)).unwrap();
        // v = (0.1, 0.2); pos = 0.1·0.3 + 0.2·0.3 = 0.09; neg = 0.1·−0.4 + 0.2·0.5 = 0.06.
        assert!((f.pos.data()[0] - 0.09).abs() < 1e-7 && (f.neg.data()[0] - 0.06).abs() < 1e-7);
        let want = -(1.0 / (1.0 + (-0.09f32).exp())).ln() - (1.0 / (1.0 + 0.06f32.exp())).ln();
        assert!((f.loss - want).abs() < 1e-6);
    }

    /// Finite differences of the loss agree with `backward` on every row, looked up or not.
    #[test]
    fn gradients_match_finite_differences_and_only_looked_up_rows_move() {
        let (inputs, target, negatives) =
            (ids(vec![2, 2], vec![0, 1, 2, 0]), ids(vec![2], vec![3, 1]), ids(vec![2, 2], vec![2, 3, 0, 0]));
        let (m, batch) = (model(), Batch::full(inputs, target, negatives));
        let g = m.backward(&batch).unwrap();
        let loss = |m: &Word2Vec| f64::from(m.forward(&batch).unwrap().loss);
        for table in 0..2 {
            for i in 0..8 {
                let nudged = |h: f32| {
                    let mut m = m.clone();
                    let w = if table == 0 { &mut m.in_embed.weight } else { &mut m.out_embed.weight };
                    w.data_mut()[i] += h;
                    loss(&m)
                };
                let numeric = (nudged(1e-2) - nudged(-1e-2)) / 2e-2;
                let analytic = [&g.in_embed, &g.out_embed][table].data()[i];
                assert!((numeric - f64::from(analytic)).abs() < 1e-3, "table {table} [{i}]: {numeric} vs {analytic}");
            }
        }
        // in_embed: rows 0, 1, 2 are inputs, row 3 never is.
        assert_eq!(&g.in_embed.data()[6..], [0.0, 0.0]);
    }

    #[test]
    fn a_step_names_the_rows_it_reads_and_moves() {
        let (inputs, target, negatives) =
            (ids(vec![1, 2], vec![0, 1]), ids(vec![1], vec![3]), ids(vec![1, 1], vec![2]));
        let t = model().backward_trace(&Batch::full(inputs, target, negatives)).unwrap();
        let writes: Vec<String> = t.steps[0].writes.iter().map(ToString::to_string).collect();
        assert_eq!(
            writes,
            [
                "in_embed.weight.grad[0]",
                "in_embed.weight.grad[1]",
                "out_embed.weight.grad[3]",
                "out_embed.weight.grad[2]"
            ]
        );
    }

    #[test]
    fn an_id_past_the_vocabulary_is_pytorchs_index_error() {
        let batch = Batch::full(ids(vec![1, 1], vec![4]), ids(vec![1], vec![0]), ids(vec![1, 1], vec![1]));
        let e = model().forward(&batch).unwrap_err();
        assert_eq!(e.to_string(), "IndexError: index out of range in self");
    }

    /// A CBOW context cut short by the sentence's edge averages only the words it has, and
    /// only they get gradient: the same as a full batch of that one pair.
    #[test]
    fn a_short_context_is_the_mean_of_its_own_words() {
        let m = model();
        let ragged = Batch::ragged(&[vec![0, 1], vec![2]], vec![3, 1], vec![2, 0], 1).unwrap();
        let alone = Batch::full(ids(vec![1, 1], vec![2]), ids(vec![1], vec![1]), ids(vec![1, 1], vec![0]));
        let (f, one) = (m.forward(&ragged).unwrap(), m.forward(&alone).unwrap());
        assert_eq!(f.v.data()[2..], one.v.data()[..]);
        assert_eq!(ragged.context(1), [2]);
        let g = m.backward(&ragged).unwrap();
        // Row 2's padding (a repeat of id 2) adds nothing: pair 1's whole share, halved by B = 2.
        let alone_g = m.backward(&alone).unwrap();
        assert!((g.in_embed.data()[4] - alone_g.in_embed.data()[4] / 2.0).abs() < 1e-7);
    }
}
