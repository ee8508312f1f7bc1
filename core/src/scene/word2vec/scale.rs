//! word2vec at real scale, off the page's thread (the `trainer` worker): a corpus of 100,000
//! tokens and more trained the way word2vec.c and gensim train it, so that their words per second
//! can be set side by side (`tools/time_word2vec.py`). The scene's loss, pair by pair:
//! `-F.logsigmoid((u * v).sum()) - F.logsigmoid(-(n * v).sum(-1)).sum()`, an SGD step on the rows
//! it read as soon as its gradient is known (no batch, no `.grad` tables: only those rows move),
//! the learning rate falling linearly from `alpha` to `min_alpha` over the run. The tables start as
//! they do: `in_embed` = `(torch.rand(V, D) - 0.5) / D` from `torch.manual_seed(seed)`, `out_embed`
//! zeros (the scene's `N(0, 1)` rows are far too long for D = 100 at this learning rate).

use super::corpus::Corpus;
use crate::ops::matmul::{axpy, dot};
use crate::tensor::Tensor;
use crate::torch_rng::Generator;
use serde::{Deserialize, Serialize};

/// What to train. The text is one sentence per line, read as the scene reads its corpus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub text: String,
    pub cbow: bool,
    pub dim: usize,
    pub window: usize,
    pub negatives: usize,
    pub epochs: usize,
    pub min_count: usize,
    pub seed: u64,
}

impl Request {
    /// The work `tools/time_word2vec.py` times: gensim's window and negatives (5 and 5), D = 100,
    /// one epoch, every word kept.
    pub fn new(text: String, cbow: bool) -> Self {
        Self { text, cbow, dim: 100, window: 5, negatives: 5, epochs: 1, min_count: 1, seed: 0 }
    }
}

/// What the trainer says, in order (after `WORKER_READY`): `Read` once, `Progress` as it goes, then
/// `Trained` or `Refused`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Report {
    Read {
        tokens: usize,
        vocab: usize,
        sentences: usize,
    },
    Progress(Progress),
    /// The run's last figures and `in_embed` (V, D), row by row.
    Trained {
        progress: Progress,
        words: Vec<String>,
        in_embed: Vec<f32>,
    },
    Refused(String),
}

/// Where a run is: words trained (each token once per epoch), seconds of training, the mean loss
/// of the pairs since the last report.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub words: usize,
    pub of: usize,
    pub seconds: f64,
    pub loss: f64,
}

impl Progress {
    pub fn words_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.words as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// gensim's and PyTorch's words per second on the same work, measured by hand on the machine
/// rowflow is built on (`tools/time_word2vec.py --json`), shown beside the browser's own.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Reference {
    pub machine: String,
    pub tokens: usize,
    pub dim: usize,
    pub window: usize,
    pub negatives: usize,
    pub epochs: usize,
    pub gensim: Timed,
    pub torch: Timed,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Timed {
    /// The library and its version, as the script printed them.
    pub by: String,
    pub words_per_second: f64,
}

impl Reference {
    pub fn stored() -> Option<Self> {
        serde_json::from_str(include_str!("timings.json")).ok()
    }

    /// Whether `request` is the work these figures are for (skip-gram, the same sizes).
    pub fn matches(&self, request: &Request) -> bool {
        !request.cbow
            && (self.dim, self.window, self.negatives, self.epochs)
                == (request.dim, request.window, request.negatives, request.epochs)
    }
}

/// gensim's learning rate, falling linearly to its floor over every word of every epoch.
const ALPHA: f32 = 0.025;
const MIN_ALPHA: f32 = 0.0001;
/// Seconds between reports: often enough to look live, rarely enough to cost nothing.
const EVERY: f64 = 0.1;
/// The largest `dim` offered: the table's floats must fit a page's memory many times over.
pub const MAX_DIM: usize = 1000;

/// Trains as `request` says, calling `report` as it goes; `now()` is seconds on any clock.
pub fn train(request: &Request, now: &dyn Fn() -> f64, report: &mut dyn FnMut(Report)) {
    let corpus = Corpus::read(&request.text, request.min_count);
    let (v, d) = (corpus.vocab(), request.dim);
    if v < 2 || !(1..=MAX_DIM).contains(&d) || request.window == 0 || request.epochs == 0 {
        return report(Report::Refused(format!(
            "nothing to train: {v} words seen at least {} times, dim {d} (1 to {MAX_DIM}), window {}, epochs {}",
            request.min_count, request.window, request.epochs
        )));
    }
    report(Report::Read { tokens: corpus.tokens, vocab: v, sentences: corpus.sentences.len() });
    let mut g = match Generator::manual_seed(i128::from(request.seed)) {
        Ok(g) => g,
        Err(e) => return report(Report::Refused(e.to_string())),
    };
    let mut in_embed = g.rand(&[v, d]).data().iter().map(|x| (x - 0.5) / d as f32).collect::<Vec<_>>();
    let mut out_embed = vec![0.0f32; v * d];
    let noise = corpus.noise();
    let sigmoid = Sigmoid::new();
    let total = noise.last().copied().unwrap_or(0.0);
    let mut draw = || {
        let u = f64::from(g.random()) / 4_294_967_296.0 * total;
        noise.partition_point(|&c| c <= u).min(v - 1)
    };

    let of: usize = corpus.sentences.iter().map(Vec::len).sum::<usize>() * request.epochs;
    let start = now();
    let (mut words, mut loss, mut pairs, mut last, mut unclocked) = (0usize, Loss::NONE, 0usize, start, 0usize);
    let (mut h, mut grad_h) = (vec![0.0f32; d], vec![0.0f32; d]);
    let mut targets = Vec::with_capacity(request.negatives + 1);
    let send = |words, loss: &mut Loss, pairs: &mut usize, at: f64| {
        let p = Progress { words, of, seconds: at - start, loss: loss.total() / (*pairs).max(1) as f64 };
        (*loss, *pairs) = (Loss::NONE, 0);
        p
    };
    for _ in 0..request.epochs {
        for sentence in &corpus.sentences {
            let lr = ALPHA - (ALPHA - MIN_ALPHA) * words as f32 / of as f32;
            for (i, &centre) in sentence.iter().enumerate() {
                let near = i.saturating_sub(request.window)..(i + request.window + 1).min(sentence.len());
                let near = near.filter(|&j| j != i).map(|j| sentence[j] as usize);
                if request.cbow {
                    // h = the context rows' mean; each gets 1/n of h's gradient.
                    let context: Vec<usize> = near.collect();
                    if context.is_empty() {
                        continue;
                    }
                    h.fill(0.0);
                    let share = 1.0 / context.len() as f32;
                    for &c in &context {
                        axpy(&mut h, share, &in_embed[c * d..][..d]);
                    }
                    targets.clear();
                    targets.push(centre as usize);
                    targets.extend((0..request.negatives).map(|_| draw()));
                    step(&h, &mut grad_h, &mut out_embed, &targets, d, lr, &sigmoid, &mut loss);
                    for &c in &context {
                        axpy(&mut in_embed[c * d..][..d], share, &grad_h);
                    }
                    pairs += 1;
                } else {
                    for context in near {
                        targets.clear();
                        targets.push(context);
                        targets.extend((0..request.negatives).map(|_| draw()));
                        let row = &mut in_embed[centre as usize * d..][..d];
                        step(row, &mut grad_h, &mut out_embed, &targets, d, lr, &sigmoid, &mut loss);
                        axpy(row, 1.0, &grad_h);
                        pairs += 1;
                    }
                }
            }
            words += sentence.len();
            unclocked += sentence.len();
            // The clock is read every thousand words or so, not every sentence.
            if unclocked >= 1000 {
                unclocked = 0;
                let at = now();
                if at - last >= EVERY {
                    last = at;
                    report(Report::Progress(send(words, &mut loss, &mut pairs, at)));
                }
            }
        }
    }
    let progress = send(words, &mut loss, &mut pairs, now());
    report(Report::Trained { progress, words: corpus.words, in_embed });
}

/// σ as word2vec.c and gensim read it: from a table of `SIGMOID` values over (−`MAX_Z`, `MAX_Z`),
/// 0 or 1 beyond (an exponential for each of a pair's six scores is a fifth of the time).
struct Sigmoid([f32; SIGMOID]);
const SIGMOID: usize = 1000;
const MAX_Z: f32 = 6.0;

impl Sigmoid {
    fn new() -> Self {
        Self(std::array::from_fn(|i| {
            let z = (i as f32 / SIGMOID as f32 * 2.0 - 1.0) * MAX_Z;
            1.0 / (1.0 + libm::expf(-z))
        }))
    }

    /// σ(z) for |z| < `MAX_Z`.
    fn at(&self, z: f32) -> f32 {
        self.0[(((z + MAX_Z) * (SIGMOID as f32 / MAX_Z / 2.0)) as usize).min(SIGMOID - 1)]
    }
}

/// The loss of many scores: `-logsigmoid(z)` each, the logarithms taken once for many as the log
/// of their product (beyond ±`MAX_Z`, `-z` or 0, as the table's σ of 0 or 1 says).
#[derive(Clone, Copy)]
struct Loss {
    linear: f64,
    product: f64,
}

impl Loss {
    const NONE: Self = Self { linear: 0.0, product: 1.0 };

    fn add(&mut self, sigmoid: f64) {
        // Each factor is at least σ(−6) ≈ 0.0025: far from underflow between logarithms.
        self.product *= sigmoid;
        if self.product < 1e-250 {
            self.linear -= self.product.ln();
            self.product = 1.0;
        }
    }

    fn total(self) -> f64 {
        self.linear - self.product.ln()
    }
}

/// One pair: `v` against `targets[0]` (label 1) and the negatives (label 0). Moves each target's
/// row of `out` by `-lr ×` its gradient and leaves `-lr ×` v's gradient in `grad_v`, for the caller
/// to add once every target has read `v` unchanged.
#[allow(clippy::too_many_arguments)]
fn step(
    v: &[f32],
    grad_v: &mut [f32],
    out: &mut [f32],
    targets: &[usize],
    d: usize,
    lr: f32,
    sigmoid: &Sigmoid,
    loss: &mut Loss,
) {
    grad_v.fill(0.0);
    for (k, &t) in targets.iter().enumerate() {
        let u = &mut out[t * d..][..d];
        // z = ±(u · v), so that the loss is -logsigmoid(z) for the positive and the negatives alike,
        // and dloss/d(u · v) = ∓(1 - σ(z)).
        let z = if k == 0 { dot(u, v) } else { -dot(u, v) };
        let pull = if z >= MAX_Z {
            continue;
        } else if z <= -MAX_Z {
            loss.linear -= f64::from(z);
            1.0
        } else {
            let s = sigmoid.at(z);
            loss.add(f64::from(s));
            1.0 - s
        };
        let g = lr * if k == 0 { pull } else { -pull };
        axpy(grad_v, g, u);
        axpy(u, g, v);
    }
}

/// A trained `in_embed` as a (V, D) tensor, for the scene's neighbours and map.
pub fn table(in_embed: Vec<f32>, v: usize) -> Option<Tensor> {
    let d = in_embed.len().checked_div(v)?;
    Tensor::new(vec![v, d], in_embed).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::word2vec::compare::neighbours;

    fn run(request: &Request) -> Vec<Report> {
        let clock = std::cell::Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 0.05);
            clock.get()
        };
        let mut said = Vec::new();
        train(request, &now, &mut |r| said.push(r));
        said
    }

    /// Two topics, praise and complaint in the same places, a few thousand tokens.
    fn corpus() -> String {
        let mut g = Generator::manual_seed(1).unwrap();
        let mut pick = |words: &[&'static str]| words[g.random() as usize % words.len()];
        let (good, bad) = (["great", "wonderful", "lovely", "superb"], ["awful", "terrible", "boring", "bland"]);
        (0..3000)
            .map(|_| {
                let noun = pick(&["film", "movie", "soup", "pasta", "plot", "cake"]);
                let adj = if pick(&["+", "-"]) == "+" { pick(&good) } else { pick(&bad) };
                format!("the {noun} was really {adj}\n")
            })
            .collect()
    }

    #[test]
    fn it_reads_then_reports_then_hands_back_a_trained_table() {
        for cbow in [false, true] {
            let said = run(&Request { min_count: 1, epochs: 5, dim: 20, ..Request::new(corpus(), cbow) });
            assert_eq!(said[0], Report::Read { tokens: 15000, vocab: 17, sentences: 3000 });
            let Some(Report::Trained { progress, words, in_embed }) = said.last() else { panic!("{said:?}") };
            assert_eq!((progress.words, progress.of), (75000, 75000));
            let losses: Vec<f64> =
                said.iter().filter_map(|r| if let Report::Progress(p) = r { Some(p.loss) } else { None }).collect();
            assert!(losses.len() > 3, "{losses:?}");
            assert!(losses.last() < losses.first(), "the loss falls: {losses:?}");
            let t = table(in_embed.clone(), words.len()).unwrap();
            let at = |w: &str| words.iter().position(|x| x == w).unwrap();
            let near: Vec<String> = neighbours(&t, words, at("great"), 3).into_iter().map(|n| n.word).collect();
            assert!(
                near.iter()
                    .all(|w| ["wonderful", "lovely", "superb", "awful", "terrible", "boring", "bland"]
                        .contains(&w.as_str())),
                "{near:?}"
            );
        }
    }

    #[test]
    fn the_same_seed_trains_the_same_table() {
        let r = Request { min_count: 1, ..Request::new(corpus(), false) };
        assert_eq!(run(&r).last(), run(&r).last());
    }

    #[test]
    fn too_few_words_or_a_bad_size_is_refused_in_words() {
        let said = run(&Request { min_count: 2, ..Request::new("just one line here".into(), false) });
        assert!(matches!(&said[..], [Report::Refused(why)] if why.contains("0 words")), "{said:?}");
        let said = run(&Request { dim: 0, min_count: 1, ..Request::new(corpus(), false) });
        assert!(matches!(&said[..], [Report::Refused(why)] if why.contains("dim 0")), "{said:?}");
    }
}
