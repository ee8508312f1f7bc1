//! What a release writes of every scene and preset, and of states a learner makes from them
//! (edited, stepped, at real scale): its save, its link and its file, kept under
//! `tests/saves/format-N/<scene>/<case>.*` with the numbers it shows, so that every later
//! release opens each to the same numbers (`tests/saves.rs`). `examples/write_saves.rs` writes a
//! release's own.

use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::one_hot::{LINEAR, LOOKUP};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use rowflow_core::{Ids, Tensor};
use serde_json::{json, Map, Value};

/// Past this many numbers a tensor is kept as a hash of its bits, compared bit for bit: a
/// table at real scale is millions.
const WHOLE: usize = 4096;

/// Tensors by name, as kept.
pub type Shows = Vec<(String, Value)>;

/// What a scene shows that a save must bring back: the numbers it holds (`exact`), and what it
/// computes from them (`close`, as PyTorch's parity is).
pub trait Shown: Scene {
    /// Inputs and outputs by the names the grids show; the parameters, the loss and every
    /// `.grad` come from the contract (`numbers`).
    fn shown(&self) -> (Shows, Shows);

    /// The states kept of this scene beside its presets: (case, preset, edits).
    fn made() -> Vec<(&'static str, &'static str, Vec<Edit>)>;
}

/// Every case of scene `S`: each preset as it opens, then the states `made` from them.
pub fn cases<S: Shown>() -> Vec<(String, S)> {
    let mut out: Vec<(String, S)> =
        S::PRESETS.iter().map(|(id, _)| (id.to_string(), S::preset(id).expect("a preset builds"))).collect();
    for (case, preset, edits) in S::made() {
        let mut s = S::preset(preset).expect("a preset builds");
        for edit in &edits {
            s.apply(edit).unwrap_or_else(|e| panic!("{} {case}: {edit:?} refused: {e}", S::NAME));
        }
        out.push((case.to_string(), s));
    }
    out
}

/// The numbers of `s`, as `<case>.numbers.json` keeps them.
pub fn numbers<S: Shown>(s: &S) -> Value {
    let (mut exact, mut close) = s.shown();
    let mut params = s.clone();
    exact.extend(params.params().1.into_iter().map(|(name, t)| (name.to_string(), floats(t))));
    if let Ok((loss, grads)) = s.grads() {
        close.push(("loss".into(), floats(&Tensor::new(vec![], vec![loss]).expect("a scalar"))));
        close.extend(grads.iter().map(|(name, g)| (format!("{name}.grad"), floats(g))));
    }
    let map = |named: Shows| Value::Object(named.into_iter().collect::<Map<_, _>>());
    json!({ "exact": map(exact), "close": map(close) })
}

fn num(x: f32) -> Value {
    match x {
        x if x.is_nan() => json!("nan"),
        x if x.is_infinite() => json!(if x > 0.0 { "inf" } else { "-inf" }),
        x => json!(x as f64),
    }
}

/// A float tensor as kept: its numbers, or past [`WHOLE`] the FNV-1a hash of their bits.
pub fn floats(t: &Tensor) -> Value {
    match t.numel() {
        n if n > WHOLE => json!({"shape": t.shape(), "fnv": fnv(t.data().iter().map(|x| x.to_bits() as u64))}),
        _ => json!({"shape": t.shape(), "data": t.data().iter().map(|&x| num(x)).collect::<Vec<_>>()}),
    }
}

pub fn ints(t: &Ids) -> Value {
    match t.numel() {
        n if n > WHOLE => json!({"shape": t.shape(), "fnv": fnv(t.data().iter().map(|&x| x as u64))}),
        _ => json!({"shape": t.shape(), "data": t.data()}),
    }
}

fn fnv(words: impl Iterator<Item = u64>) -> String {
    let hash = words.fold(0xcbf2_9ce4_8422_2325_u64, |h, w| (h ^ w).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

fn some(name: &str, t: Option<&Tensor>) -> Shows {
    t.map(|t| (name.to_string(), floats(t))).into_iter().collect()
}

impl Shown for linear::State {
    fn shown(&self) -> (Shows, Shows) {
        (vec![("input".into(), floats(&self.input))], some("output", self.compute().output.as_ref()))
    }

    fn made() -> Vec<(&'static str, &'static str, Vec<Edit>)> {
        vec![
            ("edited", "batch_6_to_10", vec![Edit::cell("weight", 0, "7.5"), Edit::field("out_features", "4")]),
            ("no_bias_3d", "fixed_2_to_3_3d", vec![Edit::flag("bias", false), Edit::cell("input", 5, "-2")]),
            (
                "stepped_mse",
                "vector_6_to_10",
                vec![
                    Edit::Loss { mse: true },
                    Edit::cell("target", 3, "1.5"),
                    Edit::Lr { text: "0.05".into() },
                    Edit::Run { steps: 3 },
                ],
            ),
            ("reseeded", "vector_6_to_10", vec![Edit::Reinit { seed: "7".into() }, Edit::Step]),
        ]
    }
}

impl Shown for embedding::State {
    fn shown(&self) -> (Shows, Shows) {
        let c = self.compute();
        (vec![("input".into(), ints(&self.input))], vec![("output".into(), floats(&c.output))])
    }

    fn made() -> Vec<(&'static str, &'static str, Vec<Edit>)> {
        vec![
            ("edited", "seed123_4x5", vec![Edit::cell("weight", 3, "-2.5"), Edit::cell("input", 1, "0")]),
            ("padding_stepped", "padding_10x3", vec![Edit::Run { steps: 3 }]),
            ("sparse_mse", "seed123_4x5", vec![Edit::flag("sparse", true), Edit::Loss { mse: true }, Edit::Step]),
            // Format 3: the ids' dtype. Float ids raise, so this shows no loss and no grads.
            ("float_ids", "seed123_4x5", vec![Edit::Step, Edit::field("dtype", "torch.float")]),
        ]
    }
}

impl Shown for one_hot::State {
    fn shown(&self) -> (Shows, Shows) {
        let c = self.compute();
        let out = [LOOKUP, LINEAR].iter().flat_map(|name| some(name, c.tensor(name))).collect();
        (vec![("input".into(), ints(&self.ids))], out)
    }

    fn made() -> Vec<(&'static str, &'static str, Vec<Edit>)> {
        vec![
            ("edited", "seed123", vec![Edit::cell("input", 0, "0"), Edit::field("D", "7")]),
            ("stepped_mse", "vocab10_dim3_batch", vec![Edit::Loss { mse: true }, Edit::Run { steps: 2 }]),
            (
                "real_scale",
                "seed123",
                vec![
                    Edit::field("V", "50000"),
                    Edit::field("D", "8"),
                    Edit::Reinit { seed: "7".into() },
                    Edit::cell("input", 1, "49999"),
                    Edit::Step,
                ],
            ),
        ]
    }
}

impl Shown for rnn::State {
    fn shown(&self) -> (Shows, Shows) {
        let run = self.model.run();
        let mut exact = some("input", run.as_ref().ok().map(|r| &r.input));
        exact.extend(some("h0", self.model.h0.as_ref()));
        exact.push(("lengths".into(), ints(&self.model.lengths)));
        let close = match &run {
            Ok(r) => vec![("output".into(), floats(&r.output)), ("h_n".into(), floats(&r.h_n))],
            Err(_) => Vec::new(),
        };
        (exact, close)
    }

    fn made() -> Vec<(&'static str, &'static str, Vec<Edit>)> {
        vec![
            (
                "edited",
                "rnn_2_5_batch_first",
                vec![
                    Edit::cell("weight_ih_l0", 0, "0.75"),
                    Edit::field("hidden_size", "3"),
                    Edit::field("nonlinearity", "relu"),
                ],
            ),
            ("h_n_in_loss_stepped", "rnn_2x3_bi_packed", vec![Edit::flag("h_n_in_loss", true), Edit::Run { steps: 2 }]),
            ("embedding_stepped", "embedding_to_rnn", vec![Edit::Loss { mse: true }, Edit::Step]),
        ]
    }
}

impl Shown for train::State {
    fn shown(&self) -> (Shows, Shows) {
        let ratings: Vec<f32> = self.ratings.iter().flat_map(|r| [r.user as f32, r.movie as f32, r.rating]).collect();
        let ratings = Tensor::new(vec![self.ratings.len(), 3], ratings).expect("(R, 3)");
        let losses = Tensor::vector(self.learning.losses.clone());
        let exact = vec![("ratings".into(), floats(&ratings)), ("losses".into(), floats(&losses))];
        (exact, vec![("output".into(), floats(&self.compute().output))])
    }

    fn made() -> Vec<(&'static str, &'static str, Vec<Edit>)> {
        vec![
            ("stepped", "tiny_factors2", vec![Edit::Run { steps: 5 }]),
            (
                "edited",
                "factors3_lr05",
                vec![Edit::cell("ratings", 2, "4.5"), Edit::field("n_factors", "4"), Edit::Step],
            ),
        ]
    }
}

/// Its tables and the pass's loss and grads come from the contract; the corpus is text.
impl Shown for word2vec::State {
    fn shown(&self) -> (Shows, Shows) {
        (Vec::new(), Vec::new())
    }

    fn made() -> Vec<(&'static str, &'static str, Vec<Edit>)> {
        vec![
            ("stepped", "skip_gram", vec![Edit::Run { steps: 3 }]),
            (
                "edited",
                "cbow",
                vec![
                    Edit::field("corpus", "the film was great\nthe soup was awful\nthe film was awful"),
                    Edit::field("window", "1"),
                    Edit::cell("in_embed.weight", 2, "0.5"),
                    Edit::Step,
                ],
            ),
        ]
    }
}
