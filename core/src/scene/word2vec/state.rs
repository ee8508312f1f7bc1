//! The word2vec scene's saved state and the edits a learner makes to it.

use super::corpus::{negatives, pairs, Corpus, Pair};
use super::task::Start;
use super::{
    CORPUS, IN, MAX_CHARS, MAX_DIM, MAX_NEGATIVES, MAX_SENTENCES, MAX_TASK_STEPS, MAX_TASK_WORK, MAX_VOCAB, MAX_WINDOW,
    OUT, PRESETS,
};
use crate::edit::parse_float;
use crate::ops::word2vec::{Batch, Word2Vec};
use crate::scene::learn::Learning;
use crate::scene::{parse_size, paste, set_float};
use crate::tensor::Tensor;
use crate::torch_rng::Generator;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The preset this state started from.
    pub preset: String,
    /// The `torch.manual_seed` both tables were drawn from, as typed.
    pub seed: String,
    /// One sentence per line, as typed.
    pub corpus: String,
    /// `(S,)`: one label per line of the corpus, the task's target (1 praise, 0 complaint).
    pub labels: Tensor,
    /// CBOW (predict the centre from its context) rather than skip-gram.
    pub cbow: bool,
    /// How many words either side of the centre are its context.
    pub window: usize,
    /// `K`: negatives drawn per pair.
    pub negatives: usize,
    /// Words seen fewer times are left out of the vocabulary.
    pub min_count: usize,
    /// `(V, D)`
    pub in_embed: Tensor,
    /// `(V, D)`
    pub out_embed: Tensor,
    /// word2vec's `lr`, steps, undo and loss curve.
    pub learning: Learning,
    /// The task's `lr` and how many full-batch steps each of its starts takes.
    pub task_lr: String,
    pub task_steps: usize,
    /// Which of the task's tables the comparison shows: `random`, `frozen` or `fine_tune`.
    pub start: String,
    /// The word whose neighbours are listed.
    pub word: String,
}

impl Default for State {
    fn default() -> Self {
        Self::preset(PRESETS[0].0).unwrap_or_else(|| Self::new("", false))
    }
}

/// One word2vec step's worth: the sentence it trains on, its pairs and the batch they make.
pub(super) struct Pass {
    pub corpus: Corpus,
    /// Line of the corpus the step trains on.
    pub sentence: usize,
    pub pairs: Vec<Pair>,
    pub batch: Batch,
    pub model: Word2Vec,
}

/// `torch.manual_seed(seed); in_embed = nn.Embedding(V, D); out_embed = nn.Embedding(V, D)`.
fn draw(seed: &str, vocab: usize, dim: usize) -> Result<(Tensor, Tensor), String> {
    let mut g = Generator::parse_seed(seed).and_then(Generator::manual_seed).map_err(|e| e.to_string())?;
    let i = g.embedding(vocab, dim, None).map_err(|e| e.to_string())?;
    Ok((i, g.embedding(vocab, dim, None).map_err(|e| e.to_string())?))
}

impl State {
    pub fn preset(id: &str) -> Option<State> {
        let cbow = match id {
            "skip_gram" => false,
            "cbow" => true,
            _ => return None,
        };
        let mut s = Self::new(id, cbow);
        let corpus = CORPUS.iter().map(|(_, line)| *line).collect::<Vec<_>>().join("\n");
        s.labels = Tensor::vector(CORPUS.iter().map(|(label, _)| *label).collect());
        s.set_corpus(&corpus).ok()?;
        s.word = "great".into();
        s.preset = id.into();
        Some(s)
    }

    fn new(preset: &str, cbow: bool) -> Self {
        let empty = || Tensor::new(vec![0, 8], Vec::new()).unwrap_or_else(|_| Tensor::vector(Vec::new()));
        Self {
            preset: preset.into(),
            seed: "0".into(),
            corpus: String::new(),
            labels: Tensor::vector(Vec::new()),
            cbow,
            window: 2,
            negatives: 3,
            min_count: 2,
            in_embed: empty(),
            out_embed: empty(),
            learning: Learning { lr: "0.5".into(), ..Learning::default() },
            task_lr: "2".into(),
            task_steps: 150,
            start: Start::Random.id().into(),
            word: String::new(),
        }
    }

    pub fn dim(&self) -> usize {
        self.in_embed.shape().get(1).copied().unwrap_or(0)
    }

    pub fn corpus(&self) -> Corpus {
        Corpus::read(&self.corpus, self.min_count)
    }

    pub fn start(&self) -> Start {
        Start::parse(&self.start).unwrap_or(Start::Random)
    }

    /// The seed as `torch.manual_seed` takes it (checked when typed and when read).
    pub fn seed_value(&self) -> i128 {
        Generator::parse_seed(&self.seed).unwrap_or(0)
    }

    pub fn task_lr(&self) -> f64 {
        parse_float(&self.task_lr).map_or(0.5, f64::from)
    }

    /// The lines that have pairs, in order: step `t` trains on the `t mod n`-th.
    pub(super) fn trainable(&self, corpus: &Corpus) -> Vec<usize> {
        let has_pairs = |s: &Vec<i64>| !pairs(s, self.window, self.cbow).is_empty();
        corpus.sentences.iter().enumerate().filter(|(_, s)| has_pairs(s)).map(|(i, _)| i).collect()
    }

    /// The seed of the negatives the next step draws: the scene's, plus the steps taken (modulo
    /// 2^64, the range `manual_seed` takes).
    pub(super) fn sampler_seed(&self) -> i128 {
        (self.seed_value() as u64).wrapping_add(self.learning.steps as u64) as i128
    }

    /// The next step's batch, or why there is none.
    pub(super) fn pass(&self) -> Result<Pass, String> {
        let corpus = self.corpus();
        let trainable = self.trainable(&corpus);
        if trainable.is_empty() {
            return Err(format!(
                "no sentence has two words of the vocabulary within {} of each other: no pair to train on",
                crate::format::count(self.window, "word")
            ));
        }
        let sentence = trainable[self.learning.steps % trainable.len()];
        let pairs = pairs(&corpus.sentences[sentence], self.window, self.cbow);
        let k = self.negatives;
        let drawn = negatives(&corpus.noise(), pairs.len(), k, self.sampler_seed());
        let contexts: Vec<Vec<i64>> = pairs.iter().map(|p| p.input.clone()).collect();
        let targets = pairs.iter().map(|p| p.target).collect();
        let e = |e: crate::TorchError| e.to_string();
        let batch = Batch::ragged(&contexts, targets, drawn, k).map_err(e)?;
        let model = Word2Vec::new(self.in_embed.clone(), self.out_embed.clone()).map_err(e)?;
        Ok(Pass { corpus, sentence, pairs, batch, model })
    }

    /// Tables drawn again from the seed at the corpus's vocabulary and `dim`; steps forgotten.
    fn redraw(&mut self, seed: &str, dim: usize) -> Result<(), String> {
        let (i, o) = draw(seed, self.corpus().vocab(), dim)?;
        self.seed = seed.trim().to_string();
        (self.in_embed, self.out_embed) = (i, o);
        self.learning.forget();
        Ok(())
    }

    /// New text, or a new `min_count`: a vocabulary of other words draws new tables; the same
    /// words keep theirs (and the steps). Labels follow the lines, new ones 0.
    fn reread(&mut self, corpus: &str, min_count: usize) -> Result<(), String> {
        if corpus.chars().count() > MAX_CHARS {
            return Err(format!("the corpus holds at most {MAX_CHARS} characters"));
        }
        let lines = corpus.lines().count();
        if lines > MAX_SENTENCES {
            return Err(format!("the corpus holds at most {MAX_SENTENCES} lines"));
        }
        let (before, after) = (self.corpus().words, Corpus::read(corpus, min_count));
        if after.vocab() > MAX_VOCAB {
            return Err(format!("{} words; this scene keeps at most {MAX_VOCAB} (raise min_count)", after.vocab()));
        }
        let mut labels = self.labels.data().to_vec();
        labels.resize(lines, 0.0);
        (self.corpus, self.min_count, self.labels) = (corpus.to_string(), min_count, Tensor::vector(labels));
        if after.words != before || self.in_embed.shape().first() != Some(&after.vocab()) {
            self.redraw(&self.seed.clone(), self.dim().max(1))?;
        }
        if self.word.is_empty() || after.id(&self.word).is_none() {
            self.word = after.words.first().cloned().unwrap_or_default();
        }
        Ok(())
    }

    pub fn set_corpus(&mut self, text: &str) -> Result<(), String> {
        self.reread(text, self.min_count)
    }

    /// Types one label (a float; PyTorch's loss takes any) or one number of a table (which
    /// starts the steps again: they no longer lead here).
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.edit_tensor(tensor, |t| set_float(t, index, text))
    }

    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        self.edit_tensor(tensor, |t| paste(t, index, text, parse_float))
    }

    fn edit_tensor(&mut self, tensor: &str, f: impl FnOnce(&mut Tensor) -> Result<(), String>) -> Result<(), String> {
        match tensor {
            "labels" => f(&mut self.labels),
            IN | OUT => {
                let mut t = if tensor == IN { self.in_embed.clone() } else { self.out_embed.clone() };
                f(&mut t)?;
                *(if tensor == IN { &mut self.in_embed } else { &mut self.out_embed }) = t;
                self.learning.forget();
                Ok(())
            }
            _ => Err(format!("{tensor} cannot be edited here")),
        }
    }

    /// A setting by its name in the scene's code; refused, the state as it was, when the task
    /// would then be too much work to redo on every change.
    pub fn set_field(&mut self, field: &str, text: &str) -> Result<(), String> {
        let mut next = self.clone();
        next.set_field_unchecked(field, text)?;
        next.task_work()?;
        *self = next;
        Ok(())
    }

    /// What one change costs the task: its steps over every word in the vocabulary, per number.
    fn task_work(&self) -> Result<(), String> {
        let words: usize = self.corpus().sentences.iter().map(Vec::len).sum();
        let work = self.task_steps.saturating_mul(words).saturating_mul(self.dim());
        if work > MAX_TASK_WORK {
            return Err(format!(
                "task_steps × words × embedding_dim would be {}; this scene redoes the task on every change and allows at most {}",
                crate::format::grouped(work),
                crate::format::grouped(MAX_TASK_WORK)
            ));
        }
        Ok(())
    }

    fn set_field_unchecked(&mut self, field: &str, text: &str) -> Result<(), String> {
        match field {
            "corpus" => self.set_corpus(text)?,
            "min_count" => self.reread(&self.corpus.clone(), parse_size(text, 1000)?)?,
            "embedding_dim" => self.redraw(&self.seed.clone(), parse_size(text, MAX_DIM)?)?,
            "window" => self.window = parse_size(text, MAX_WINDOW)?,
            "negatives" => self.negatives = parse_size(text, MAX_NEGATIVES)?,
            "task_steps" => self.task_steps = parse_size(text, MAX_TASK_STEPS)?,
            "task_lr" => {
                let mut check = Learning::default();
                check.set_lr(text)?;
                self.task_lr = check.lr;
            }
            "start" => self.start = Start::parse(text)?.id().into(),
            "word" => {
                let corpus = self.corpus();
                let id = corpus.id(text).ok_or_else(|| {
                    format!(
                        "{:?} is not in the vocabulary (min_count = {} leaves out rarer words)",
                        text.trim(),
                        self.min_count
                    )
                })?;
                self.word = corpus.words[id].clone();
            }
            other => return Err(format!("the word2vec scene has no field {other}")),
        }
        Ok(())
    }

    /// `torch.manual_seed(seed)`, then both tables drawn again.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        self.redraw(seed, self.dim().max(1))
    }

    /// The sizes of a decoded state against the scene's limits.
    pub(super) fn sizes_ok(&self) -> Result<(), String> {
        let corpus = self.corpus();
        let checks = [
            ("the corpus's characters", self.corpus.chars().count(), MAX_CHARS),
            ("the corpus's lines", self.corpus.lines().count(), MAX_SENTENCES),
            ("labels", self.labels.numel(), MAX_SENTENCES),
            ("the vocabulary", corpus.vocab(), MAX_VOCAB),
            ("embedding_dim", self.dim(), MAX_DIM),
            ("window", self.window, MAX_WINDOW),
            ("negatives", self.negatives, MAX_NEGATIVES),
            ("task_steps", self.task_steps, MAX_TASK_STEPS),
        ];
        if let Some((name, n, max)) = checks.into_iter().find(|&(_, n, max)| n > max) {
            return Err(format!("{name} is {n}; this scene allows at most {max}"));
        }
        if self.window == 0 || self.negatives == 0 {
            return Err("window and negatives are at least 1".into());
        }
        for t in [&self.in_embed, &self.out_embed] {
            if t.shape() != [corpus.vocab(), self.dim()] {
                return Err(format!("a table's shape is not (V, D) of its corpus: {:?}", t.shape()));
            }
        }
        self.task_work()?;
        if self.labels.numel() != self.corpus.lines().count() {
            return Err("there is not one label per line".into());
        }
        Start::parse(&self.start)?;
        Learning::default().set_lr(&self.task_lr).map_err(|e| format!("task_lr: {e}"))
    }
}
