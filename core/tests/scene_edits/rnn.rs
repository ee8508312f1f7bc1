//! The RNN scene under any sequence of its controls. Its invariants: every size stays within the
//! scene's limits, there is one length per sequence, and the parameters are always what `nn.RNN`
//! builds for the config (names and shapes); the run is stale exactly when PyTorch would raise,
//! else `output` and `h_n` have the shapes PyTorch documents and every parameter has a `.grad` of
//! its own shape.

use crate::common::gen::{cell_text, paste_text, size_field, text};
use crate::{cell, field, flag, learning_edits, Driven};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::ops::rnn::RnnConfig;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::rnn::{Source, State, MAX_BATCH, MAX_FEATURES, MAX_LAYERS, MAX_SEQ_LEN, MAX_VOCAB};
use rowflow_core::trace::{Phase, MAX_STEPS};

const LIMITS: &[usize] = &[MAX_FEATURES, MAX_LAYERS, MAX_BATCH, MAX_SEQ_LEN, MAX_VOCAB];
const SIZES: &[&str] =
    &["input_size", "hidden_size", "num_layers", "batch", "seq_len", "features", "num_embeddings", "nope"];
const FLAGS: &[&str] = &["bidirectional", "bias", "batch_first", "packed", "enforce_sorted", "h0", "nope"];

/// Every tensor name the scene can hold (each parameter up to the layer limit, both directions),
/// the computed ones, and one that never exists.
fn names() -> Vec<String> {
    let all = RnnConfig { num_layers: MAX_LAYERS, bidirectional: true, ..RnnConfig::new(1, 1) };
    let params = all.param_shapes().into_iter().map(|(n, _)| n);
    let others = ["input", "ids", "emb.weight", "h0", "lengths", "output", "h_n", "h_l0", "target", ""];
    params.chain(others.map(String::from)).collect()
}

/// A tensor by name, or the `k`-th parameter the model has when the action runs (most names in
/// `names()` belong to configs the scene is not in).
#[derive(Clone, Debug)]
pub enum Name {
    Fixed(String),
    Param(usize),
}

impl Name {
    fn of(&self, s: &State) -> String {
        let params = &s.model.params;
        match self {
            Name::Fixed(name) => name.clone(),
            Name::Param(k) => params.get(k % params.len().max(1)).map_or(String::new(), |(n, _)| n.clone()),
        }
    }
}

/// A cell typed or pasted into (by a name only known once the action runs), or any other edit.
#[derive(Clone, Debug)]
pub enum Action {
    Cell { name: Name, index: usize, text: String, paste: bool },
    Edit(Edit),
}

fn action() -> impl Strategy<Value = Action> {
    let name =
        || prop_oneof![prop::sample::select(names()).prop_map(Name::Fixed), any::<usize>().prop_map(Name::Param)];
    let cell_of = |paste| move |(name, index, text)| Action::Cell { name, index, text, paste };
    let act = prop::sample::select(vec!["tanh", "relu", "'relu'", "\"tanh\"", " relu ", "sigmoid", "Tanh"]);
    let edit = prop_oneof![
        3 => (prop::sample::select(SIZES), size_field(LIMITS)).prop_map(|(f, t)| Edit::field(f, &t)),
        3 => (prop::sample::select(FLAGS), any::<bool>()).prop_map(|(f, on)| Edit::flag(f, on)),
        1 => field("nonlinearity", prop_oneof![act.prop_map(String::from), text(LIMITS)]),
        1 => field("padding_value", text(LIMITS)),
        1 => flag("h_n_in_loss"),
        1 => (cell(), cell_text(LIMITS)).prop_map(|(i, t)| Edit::cell("target", i, &t)),
        9 => learning_edits::<State>(),
    ];
    prop_oneof![
        6 => (name(), cell(), cell_text(LIMITS)).prop_map(cell_of(false)),
        2 => (name(), cell(), paste_text(LIMITS)).prop_map(cell_of(true)),
        19 => edit.prop_map(Action::Edit),
    ]
}

fn act(s: &mut State, action: &Action) -> Result<(), String> {
    match action {
        Action::Cell { name, index, text, paste: false } => s.apply(&Edit::cell(&name.of(s), *index, text)),
        Action::Cell { name, index, text, paste: true } => s.apply(&Edit::paste(&name.of(s), *index, text)),
        Action::Edit(edit) => s.apply(edit),
    }
}

impl Driven for State {
    fn invariants(&self) -> Result<(), TestCaseError> {
        let (m, c) = (&self.model, &self.model.config);
        let (n, dirs, h) = (m.batch(), c.num_directions(), c.hidden_size);
        let within = |x: usize, max: usize| (1..=max).contains(&x);
        prop_assert!(within(c.input_size, MAX_FEATURES) && within(h, MAX_FEATURES) && within(c.num_layers, MAX_LAYERS));
        prop_assert!(within(n, MAX_BATCH) && within(m.seq_len(), MAX_SEQ_LEN) && within(m.features(), MAX_FEATURES));
        prop_assert!(m.num_embeddings().is_none_or(|v| within(v, MAX_VOCAB)));
        prop_assert_eq!(m.lengths.shape(), &[n][..]);
        let shapes: Vec<(String, Vec<usize>)> = m.params.iter().map(|(n, t)| (n.clone(), t.shape().to_vec())).collect();
        prop_assert_eq!(shapes, c.param_shapes(), "the parameters are nn.RNN's for this config");
        let comp = self.compute();
        prop_assert_eq!(comp.stale, !comp.issues.is_empty(), "{:?}", comp.issues);
        if !comp.stale {
            let run = comp.run.as_ref().expect("a run when PyTorch does not raise");
            let t = if m.packed { m.lengths.data().iter().copied().max().unwrap_or(0) as usize } else { m.seq_len() };
            let out = if c.batch_first { [n, t, dirs * h] } else { [t, n, dirs * h] };
            prop_assert_eq!(run.output.shape(), &out[..]);
            prop_assert_eq!(run.h_n.shape(), &[c.num_layers * dirs, n, h][..]);
            prop_assert!(run.trace.len() <= MAX_STEPS + MAX_STEPS);
            let b = comp.backward.as_ref().expect("backward whenever forward runs (the target follows the output)");
            for (name, p) in &m.params {
                prop_assert_eq!(comp.grad(name).map(|g| g.shape()), Some(p.shape()), "{}.grad", name);
            }
            prop_assert_eq!(comp.grad("input").map(|g| g.shape()), Some(run.input.shape()));
            prop_assert_eq!(comp.grad("h0").map(|g| g.shape()), m.h0.as_ref().map(|h0| h0.shape()));
            if let Source::Embedding { weight, .. } = &m.source {
                prop_assert_eq!(comp.grad("emb.weight").map(|g| g.shape()), Some(weight.shape()));
            }
            prop_assert_eq!(b.norms.len(), c.num_layers * dirs);
        }
        for name in names() {
            let _ = (comp.formula(&name, &[0, 0, 0]), comp.formula(&name, &[0, 0]), comp.grad(&name));
            let _ = (comp.cell_issues(&name), comp.notes(&name), self.changed(&name));
        }
        let len = comp.trace(Phase::Forward).map_or(0, |t| t.len());
        for playhead in [0, 1, len / 2, len, len + 1, usize::MAX] {
            let _ = (comp.describe(playhead), comp.describe_backward(playhead));
            for b in 0..n {
                let _ = comp.backward_formula(playhead, b);
                let _ = comp.run.as_ref().map(|r| r.step_formula(playhead, b));
            }
        }
        for phase in [Phase::Forward, Phase::Backward] {
            let _ = (comp.trace(phase), comp.step_of(phase, 0, 0, 0));
        }
        if let Some(run) = &comp.run {
            for b in 0..=run.batch() {
                let _ = (run.lanes(b), run.x(0, b), run.at(0, b));
            }
        }
        let _ = (self.size("nope"), codegen::rnn(self));
        Ok(())
    }
}

crate::takes_any_edits!(rnn_scene_takes_any_edits, action(), act);
