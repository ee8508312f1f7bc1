//! What the word2vec scene shows of a state: the vocabulary, the sentence the next step trains
//! on and its pairs, the scores, loss and gradients of that step, which rows it reads and moves,
//! the task's three starts, and both tables compared.

use super::compare::{neighbours, pca, Map, Neighbour};
use super::corpus::Pair;
use super::state::State;
use super::task::{Run, Start, Task};
use super::{IN, OUT};
use crate::format::short;
use crate::ops::{distinct_rows, Named};
use crate::say::Say;
use crate::scene::{label, Factor, Formula, Issue};
use crate::tensor::{Ids, Tensor};
use crate::trace::{Phase, Trace};
use crate::TorchError;

/// Everything the view shows, computed from the state.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// The vocabulary: `words[id]`, `counts[id]`.
    pub words: Vec<String>,
    pub counts: Vec<usize>,
    /// Words below `min_count`, with their counts.
    pub dropped: Vec<(String, usize)>,
    pub tokens: usize,
    /// The line the next step trains on, and its words as read (ids in the vocabulary, or
    /// `None` for a word left out).
    pub sentence: Option<usize>,
    pub sentence_words: Vec<(String, Option<i64>)>,
    /// The step's pairs, positions in `sentence_words`' in-vocabulary words.
    pub pairs: Vec<Pair>,
    /// The batch: `input` (B, C) ids, `target` (B,), `negatives` (B, K).
    pub input: Ids,
    pub target: Ids,
    pub negatives: Ids,
    /// `(B,)` and `(B, K)` scores, and the gradient backward starts from.
    pub pos: Tensor,
    pub neg: Tensor,
    pub pos_grad: Tensor,
    pub neg_grad: Tensor,
    /// `(B, D)`: the centre's row or the context's mean.
    pub v: Tensor,
    pub loss: Option<f32>,
    pub loss_curve: Vec<f32>,
    /// `in_embed.weight` and `out_embed.weight`'s `.grad`.
    pub grads: Named,
    /// Rows the step reads (and moves) in each table.
    pub rows_in: Vec<usize>,
    pub rows_out: Vec<usize>,
    /// Rows the last step moved.
    pub changed_in: Vec<usize>,
    pub changed_out: Vec<usize>,
    pub forward: Trace,
    pub backward: Trace,
    /// The task from each start; `runs[k].start == Start::ALL[k]`.
    pub runs: Vec<Run>,
    /// The sentences the task learns from (lines with a word in the vocabulary).
    pub task_lines: Vec<usize>,
    /// Nearest words to the chosen word, in word2vec's `in_embed` and in the task's table.
    pub near_word2vec: Vec<Neighbour>,
    pub near_task: Vec<Neighbour>,
    pub map_word2vec: Map,
    pub map_task: Map,
    pub issues: Vec<Issue>,
    pub shape_equation: String,
    /// What the step and the task come to, said in the learner's language by the page and the
    /// notebook.
    pub captions: Vec<Say>,
    /// What a formula needs: the tables.
    tables: [Tensor; 2],
}

fn issue(tensor: &str, message: String, hint: &str) -> Issue {
    Issue { tensor: tensor.into(), cell: None, error: TorchError::runtime(message), hint: hint.into() }
}

impl State {
    fn changed_rows(&self, name: &str) -> Vec<usize> {
        let d = self.dim().max(1);
        let mut rows: Vec<usize> = self.learning.changed_in(name).iter().map(|i| i / d).collect();
        rows.dedup();
        rows
    }

    /// Everything the view shows. Never panics: what cannot run says why in `issues`.
    pub fn compute(&self) -> Computed {
        let mut issues = Vec::new();
        let pass = self
            .pass()
            .map_err(|e| issues.push(issue("corpus", e, "write sentences of two or more words, one per line")))
            .ok();
        let run = pass.as_ref().and_then(|p| {
            let f = p.model.forward(&p.batch).map_err(|e| issues.push(issue(IN, e.to_string(), ""))).ok()?;
            let g = p.model.backward(&p.batch).ok()?;
            let traces = (p.model.forward_trace(&p.batch).ok()?, p.model.backward_trace(&p.batch).ok()?);
            Some((f, g, traces))
        });
        let corpus = pass.as_ref().map_or_else(|| self.corpus(), |p| p.corpus.clone());
        let task_lines: Vec<usize> = (0..corpus.sentences.len()).filter(|&i| !corpus.sentences[i].is_empty()).collect();
        let sentences: Vec<Vec<i64>> = task_lines.iter().map(|&i| corpus.sentences[i].clone()).collect();
        let labels =
            Tensor::vector(task_lines.iter().map(|&i| self.labels.data().get(i).copied().unwrap_or(0.0)).collect());
        let task = Task {
            sentences: &sentences,
            labels: &labels,
            seed: self.seed_value(),
            lr: self.task_lr(),
            steps: self.task_steps,
        };
        let runs = if sentences.is_empty() {
            Vec::new()
        } else {
            task.runs(&self.in_embed).unwrap_or_else(|e| {
                issues.push(issue("labels", e, "the task needs a label for every sentence"));
                Vec::new()
            })
        };
        let word = corpus.id(&self.word);
        let chosen = runs.iter().find(|r| r.start == self.start());
        let (near_word2vec, near_task) = match word {
            Some(w) => (
                neighbours(&self.in_embed, &corpus.words, w, 5),
                chosen.map(|r| neighbours(&r.table, &corpus.words, w, 5)).unwrap_or_default(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        let (map_word2vec, map_task) =
            (pca(&self.in_embed, &corpus.words), chosen.map(|r| pca(&r.table, &corpus.words)).unwrap_or_default());
        let sentence = pass.as_ref().map(|p| p.sentence);
        let line = sentence.and_then(|s| self.corpus.lines().nth(s)).unwrap_or_default();
        let sentence_words = super::corpus::words(line)
            .map(|w| {
                let id = corpus.id(&w).map(|i| i as i64);
                (w, id)
            })
            .collect();
        let mut loss_curve = self.learning.losses.clone();
        loss_curve.extend(run.as_ref().map(|(f, ..)| f.loss));
        let empty = || Tensor::vector(Vec::new());
        let no_ids = || Ids::new(vec![0], Vec::new()).unwrap_or_else(|_| Ids::vector(Vec::new()));
        let (rows_in, rows_out) = pass.as_ref().map_or_else(Default::default, |p| {
            (
                distinct_rows(p.pairs.iter().flat_map(|q| q.input.iter().map(|&i| i as usize)), corpus.vocab()),
                distinct_rows(
                    p.batch.target.data().iter().chain(p.batch.negatives.data()).map(|&i| i as usize),
                    corpus.vocab(),
                ),
            )
        });
        let b = pass.as_ref().map_or(0, |p| p.pairs.len());
        let captions = self.captions(&corpus, &runs, b);
        let (f, g, (forward, backward)) = match run {
            Some((f, g, t)) => (Some(f), Some(g), t),
            None => (None, None, Default::default()),
        };
        let (pos_grad, neg_grad) = f.as_ref().map_or_else(|| (empty(), empty()), |f| f.score_grads());
        Computed {
            words: corpus.words.clone(),
            counts: corpus.counts.clone(),
            dropped: corpus.dropped.clone(),
            tokens: corpus.tokens,
            sentence,
            sentence_words,
            pairs: pass.as_ref().map(|p| p.pairs.clone()).unwrap_or_default(),
            input: pass.as_ref().map_or_else(no_ids, |p| p.batch.inputs.clone()),
            target: pass.as_ref().map_or_else(no_ids, |p| p.batch.target.clone()),
            negatives: pass.as_ref().map_or_else(no_ids, |p| p.batch.negatives.clone()),
            pos: f.as_ref().map_or_else(empty, |f| f.pos.clone()),
            neg: f.as_ref().map_or_else(empty, |f| f.neg.clone()),
            v: f.as_ref().map_or_else(empty, |f| f.v.clone()),
            pos_grad,
            neg_grad,
            loss: f.as_ref().map(|f| f.loss),
            loss_curve,
            grads: g.map(|g| vec![(IN.to_string(), g.in_embed), (OUT.to_string(), g.out_embed)]).unwrap_or_default(),
            rows_in,
            rows_out,
            changed_in: self.changed_rows(IN),
            changed_out: self.changed_rows(OUT),
            forward,
            backward,
            runs,
            task_lines,
            near_word2vec,
            near_task,
            map_word2vec,
            map_task,
            issues,
            shape_equation: format!(
                "{} ({b}, D) · out_embed(target) ({b}, D) → pos ({b},), neg ({b}, {}) → loss",
                if self.cbow { "in_embed(context).mean" } else { "in_embed(centre)" },
                self.negatives
            ),
            captions,
            tables: [self.in_embed.clone(), self.out_embed.clone()],
        }
    }

    fn captions(&self, corpus: &super::corpus::Corpus, runs: &[Run], b: usize) -> Vec<Say> {
        let mut out = vec![crate::say!(
            "word2vec-caption-step",
            model = if self.cbow { "cbow" } else { "skip-gram" },
            pairs = b,
            rows = corpus.vocab(),
        )];
        if let [random, frozen, tuned] = runs {
            let last = |r: &Run| r.losses.last().map_or("?".into(), |&l| short(l));
            out.push(crate::say!(
                "word2vec-caption-task",
                steps = self.task_steps,
                random = last(random),
                frozen = last(frozen),
                fine_tuned = last(tuned),
            ));
        }
        out
    }
}

impl Computed {
    pub fn trace_of(&self, phase: Phase) -> &Trace {
        match phase {
            Phase::Forward => &self.forward,
            Phase::Backward => &self.backward,
        }
    }

    pub fn run(&self, start: Start) -> Option<&Run> {
        self.runs.iter().find(|r| r.start == start)
    }

    /// `pos[b] = Σ_j out_embed.weight[target, j]·v[b, j]`, and `neg[b, q]` with the q-th negative.
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        let (row, b, value) = match (tensor, index) {
            ("pos", &[b]) => (*self.target.data().get(b)?, b, self.pos.get(&[b])?),
            ("neg", &[b, q]) => {
                (*self.negatives.data().get(b * self.negatives.shape().get(1)? + q)?, b, self.neg.get(&[b, q])?)
            }
            _ => return None,
        };
        let [input, out] = &self.tables;
        let d = out.shape().get(1).copied().unwrap_or(0);
        let row = row as usize;
        // Skip-gram's v is the centre's own row: name it so.
        let centre = self.pairs.get(b).filter(|p| p.input.len() == 1).map(|p| p.input[0] as usize);
        let products = (0..d)
            .map(|j| {
                let u = Factor::new(label(OUT, &[row, j]), out.get(&[row, j])?);
                let v = match centre {
                    Some(c) => Factor::new(label(IN, &[c, j]), input.get(&[c, j])?),
                    None => Factor::new(label("v", &[b, j]), self.v.get(&[b, j])?),
                };
                Some((u, v))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Formula { target: label(tensor, index), func: None, products, constants: Vec::new(), value, zeros: 0 })
    }

    fn word(&self, id: i64) -> &str {
        usize::try_from(id).ok().and_then(|i| self.words.get(i)).map_or("?", String::as_str)
    }

    /// The timeline's words for the step at `playhead` of a pass: the ways to say it, the most said
    /// first, as "Pair 0: the → film: pos[0] = 6.4601; the negatives with, would, scenes make
    /// neg[0]." in English.
    pub fn describe(&self, pass: Phase, playhead: usize) -> Vec<Say> {
        let trace = self.trace_of(pass);
        let n = trace.len();
        if n == 0 {
            return vec![crate::say!("word2vec-step-nothing")];
        }
        let Some(p) =
            playhead.checked_sub(1).and_then(|k| trace.steps.get(k)).and_then(|s| s.writes.first()).and_then(|w| {
                match pass {
                    Phase::Forward => w.index.first().copied().flatten(),
                    // Backward writes rows; the pair is the step's own (last first).
                    Phase::Backward => Some(n - playhead),
                }
            })
        else {
            return vec![match pass {
                Phase::Forward => crate::say!("word2vec-step-forward-overview", steps = n),
                Phase::Backward => crate::say!("word2vec-step-backward-overview", steps = n),
            }];
        };
        let Some(pair) = self.pairs.get(p) else { return Vec::new() };
        let words = |ids: &[i64]| ids.iter().map(|&i| self.word(i)).collect::<Vec<_>>().join(", ");
        let k = self.negatives.shape().get(1).copied().unwrap_or(0);
        let negatives = words(&self.negatives.data()[p * k..(p + 1) * k]);
        let (input, target) = (words(&pair.input), self.word(pair.target));
        // CBOW's input is the mean of the context's rows, skip-gram's the centre's one row.
        let kind = if pair.input.len() > 1 { "mean" } else { "word" };
        let at = p.to_string();
        // Shorter ways for a language, or words, that the whole sentence does not fit: the
        // negatives counted, then the pair's score or gradient alone.
        match pass {
            Phase::Forward => {
                let pos = self.pos.get(&[p]).map_or("?".into(), short);
                vec![
                    crate::say!(
                        "word2vec-step-forward",
                        pair = &at,
                        kind = kind,
                        input = &input,
                        target = target,
                        pos = &pos,
                        negatives = negatives,
                    ),
                    crate::say!(
                        "word2vec-step-forward-counted",
                        pair = &at,
                        kind = kind,
                        input = &input,
                        target = target,
                        pos = &pos,
                        count = k,
                    ),
                    crate::say!("word2vec-step-forward-short", pair = &at, target = target, pos = pos),
                ]
            }
            Phase::Backward => {
                let grad = self.pos_grad.get(&[p]).map_or("?".into(), short);
                vec![
                    crate::say!(
                        "word2vec-step-backward",
                        pair = &at,
                        kind = kind,
                        input = &input,
                        target = target,
                        grad = &grad,
                        negatives = negatives,
                    ),
                    crate::say!(
                        "word2vec-step-backward-counted",
                        pair = &at,
                        kind = kind,
                        input = &input,
                        target = target,
                        grad = &grad,
                        count = k,
                    ),
                    crate::say!("word2vec-step-backward-short", pair = &at, grad = grad),
                ]
            }
        }
    }
}
