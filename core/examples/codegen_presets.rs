//! Writes every preset's PyTorch script (and some edited states) with what the scene computes,
//! for `tools/check_codegen.py` to run under real torch. By hand only, never in CI:
//!
//!     cargo run -p rowflow-core --example codegen_presets -- /tmp/codegen
//!     /tmp/torchenv/bin/python tools/check_codegen.py /tmp/codegen
//!
//! Each case is `<name>.py` and `<name>.json`: `{"scene", "error": {"type", "message"} | null,
//! "exact": {expr: tensor}, "close": {expr: tensor}, "none": [expr], "truth": {expr: bool}}`,
//! where each `expr` is Python evaluated in the script's namespace after it ran (see the names in
//! `rowflow_core::codegen`), `exact` must match bit for bit and `close` within 1e-5.

use rowflow_core::codegen;
use rowflow_core::ops::loss::Loss;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train};
use rowflow_core::tensor::{Ids, Tensor};
use rowflow_core::TorchError;
use serde_json::{json, Map, Value};
use std::path::Path;

/// A case as the checker reads it.
#[derive(Default)]
struct Case {
    error: Option<TorchError>,
    exact: Map<String, Value>,
    close: Map<String, Value>,
    none: Vec<String>,
    truth: Map<String, Value>,
}

fn num(x: f32) -> Value {
    match x {
        x if x.is_nan() => json!("nan"),
        x if x.is_infinite() => json!(if x > 0.0 { "inf" } else { "-inf" }),
        x => json!(x as f64),
    }
}

fn floats(t: &Tensor) -> Value {
    json!({"shape": t.shape(), "dtype": "float32", "data": t.data().iter().map(|&x| num(x)).collect::<Vec<_>>()})
}

fn ints(t: &Ids) -> Value {
    json!({"shape": t.shape(), "dtype": "int64", "data": t.data()})
}

fn scalar(x: f32) -> Value {
    floats(&Tensor::new(vec![], vec![x]).unwrap())
}

impl Case {
    fn exact(&mut self, expr: &str, v: Value) {
        self.exact.insert(expr.into(), v);
    }
    fn close(&mut self, expr: &str, v: Value) {
        self.close.insert(expr.into(), v);
    }
    /// The mse target, when there is one.
    fn target(&mut self, loss: &Loss) {
        if let Loss::Mse { target } = loss {
            self.exact("target", floats(target));
        }
    }
    fn failing(error: &TorchError) -> Self {
        Case { error: Some(error.clone()), ..Case::default() }
    }
}

fn linear_case(s: &linear::State) -> Case {
    let c = s.compute();
    let (Some(output), Some(loss), Some(g)) = (&c.output, c.loss, &c.grads) else {
        return Case::failing(&c.issues[0].error);
    };
    let mut k = Case::default();
    k.exact("linear.weight", floats(&s.weight));
    k.exact("x", floats(&s.input));
    k.target(&s.learning.loss);
    k.close("output", floats(output));
    k.close("loss", scalar(loss));
    k.close("linear.weight.grad", floats(&g.weight));
    k.close("x.grad", floats(&g.input));
    match &g.bias {
        Some(b) => {
            k.exact("linear.bias", floats(&s.bias));
            k.close("linear.bias.grad", floats(b));
        }
        None => k.none.push("linear.bias".into()),
    }
    k
}

fn embedding_case(s: &embedding::State) -> Case {
    let c = s.compute();
    if c.stale {
        return Case::failing(&c.issues[0].error);
    }
    let mut k = Case::default();
    k.exact("emb.weight", floats(&s.weight));
    k.exact("ids", ints(&s.input));
    k.exact("output", floats(&c.output));
    k.target(&s.learning.loss);
    k.close("loss", scalar(c.loss.expect("a loss")));
    let g = c.grads.expect("grads");
    match (&g.weight, &g.sparse) {
        (None, _) => k.none.push("emb.weight.grad".into()),
        (Some(w), Some(sp)) => {
            k.close("emb.weight.grad.to_dense()", floats(w));
            k.exact("emb.weight.grad._indices()[0]", ints(&Ids::vector(sp.indices.clone())));
            k.close("emb.weight.grad._values()", floats(&sp.values));
        }
        (Some(w), None) => k.close("emb.weight.grad", floats(w)),
    }
    k
}

fn transpose(t: &Tensor) -> Tensor {
    let (r, c) = (t.shape()[0], t.shape()[1]);
    Tensor::new(vec![c, r], (0..r * c).map(|j| t.data()[(j % r) * c + j / r]).collect()).unwrap()
}

fn one_hot_case(s: &one_hot::State) -> Case {
    let c = s.compute();
    if let Some(issue) = c.issues.first() {
        return Case::failing(&issue.error);
    }
    let (pass, b) = (c.pass.expect("a pass"), c.backward.expect("a backward"));
    let mut k = Case::default();
    k.exact("emb.weight", floats(&s.table));
    k.exact("linear.weight", floats(&transpose(&s.table)));
    k.exact("ids", ints(&s.ids));
    k.exact("one_hot", floats(&pass.one_hot.map(|x| x as f32)));
    k.exact("output", floats(&pass.lookup));
    k.exact("output_linear", floats(&pass.linear));
    k.truth.insert("torch.equal(output, output_linear)".into(), json!(pass.mismatch.is_none()));
    k.target(&s.learning.loss);
    k.close("loss", scalar(b.loss));
    k.close("loss_linear", scalar(b.loss));
    k.close("emb.weight.grad", floats(&b.emb_grad));
    k.close("linear.weight.grad", floats(&b.linear_grad));
    k
}

fn rnn_case(s: &rnn::State) -> Case {
    let c = s.compute();
    if c.stale {
        return Case::failing(&c.issues[0].error);
    }
    let (run, b) = (c.run.expect("a run"), c.backward.expect("a backward"));
    let m = &s.model;
    let mut k = Case::default();
    for (name, t) in &m.params {
        k.exact(&format!("rnn.{name}"), floats(t));
    }
    match &m.source {
        rnn::Source::Tensor(x) => k.exact("x", floats(x)),
        rnn::Source::Embedding { ids, weight } => {
            k.exact("ids", ints(ids));
            k.exact("emb.weight", floats(weight));
            k.exact("x", floats(&run.input));
        }
    }
    if let Some(h0) = &m.h0 {
        k.exact("h0", floats(h0));
    }
    k.target(&s.learning.loss);
    k.close("output", floats(&run.output));
    k.close("h_n", floats(&run.h_n));
    k.close("loss", scalar(b.loss));
    for (name, g) in &b.grads {
        let expr = match name.as_str() {
            "input" => "x.grad".to_string(),
            "h0" | "emb.weight" => format!("{name}.grad"),
            _ => format!("rnn.{name}.grad"),
        };
        k.close(&expr, floats(g));
    }
    k
}

fn train_case(s: &train::State, steps: usize) -> Case {
    let c = s.compute();
    if c.stale {
        return Case::failing(&c.issues[0].error);
    }
    let mut after = s.clone();
    let before = after.learning.losses.len();
    after.apply(&Edit::Run { steps }).unwrap();
    assert_eq!(after.learning.losses.len(), before + steps, "the scene takes every step");
    let mut k = Case::default();
    let pairs = s.ratings.iter().flat_map(|r| [r.user, r.movie]).collect();
    k.exact("x", ints(&Ids::new(vec![s.ratings.len(), 2], pairs).unwrap()));
    k.exact("target", floats(&Tensor::vector(s.ratings.iter().map(|r| r.rating).collect())));
    let losses = Tensor::vector(after.learning.losses[before..].to_vec());
    k.close("torch.tensor(losses)", floats(&losses));
    let factors =
        [("model.user_factors.weight", &after.user_factors), ("model.movie_factors.weight", &after.movie_factors)];
    for (expr, t) in factors {
        // With no step the factors are the ones the script builds: those must be exact.
        match steps {
            0 => k.exact(expr, floats(t)),
            _ => k.close(expr, floats(t)),
        }
    }
    let now = after.compute();
    k.close("output", floats(&now.output));
    k.close("loss", scalar(now.loss.expect("a loss")));
    k
}

fn write(dir: &Path, name: &str, scene: &str, script: String, case: Case) {
    let json = json!({
        "scene": scene,
        "error": case.error.map(|e| json!({"type": e.kind.name(), "message": e.message})),
        "exact": case.exact,
        "close": case.close,
        "none": case.none,
        "truth": case.truth,
    });
    std::fs::write(dir.join(format!("{name}.py")), script).unwrap();
    std::fs::write(dir.join(format!("{name}.json")), serde_json::to_string_pretty(&json).unwrap()).unwrap();
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: codegen_presets <output folder>");
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut n = 0;
    let mut linear = |name: &str, s: &linear::State| {
        write(dir, &format!("linear_{name}"), "linear", codegen::linear(s), linear_case(s));
        n += 1;
    };
    for (id, _) in linear::PRESETS {
        linear(id, &linear::State::preset(id).unwrap());
    }
    let mut s = linear::State::default();
    s.apply(&Edit::Step).unwrap();
    s.apply(&Edit::Step).unwrap();
    s.edit("input", 1, "-0").unwrap();
    linear("vector_stepped_edited_input", &s);
    let mut s = linear::State::preset("batch_6_to_10").unwrap();
    s.set_bias(false);
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.edit("target", 3, "1.5").unwrap();
    linear("batch_no_bias_mse", &s);
    let mut s = linear::State::preset("fixed_2_to_3_3d").unwrap();
    for (k, v) in ["1e-45", "-0", "3.4028235e38", "0.1", "7.038531e-26", "-2.5"].iter().enumerate() {
        s.edit("weight", k, v).unwrap();
    }
    linear("fixed_special_floats", &s);
    let mut s = linear::State::default();
    s.edit("weight", 0, "nan").unwrap();
    s.edit("input", 1, "inf").unwrap();
    linear("vector_nan_inf", &s);
    let s = linear::State { input: Tensor::vector(vec![1.0; 5]), ..linear::State::default() };
    linear("error_vector_shape", &s);
    let mut s = linear::State::preset("batch_6_to_10").unwrap();
    s.input = Tensor::zeros(vec![2, 5]).unwrap();
    linear("error_batch_shape", &s);
    let mut s = linear::State::preset("batch_6_to_10").unwrap();
    s.reinit("7").unwrap();
    linear("reinit_seed7", &s);
    s.edit("bias", 2, "0.5").unwrap();
    linear("reinit_seed7_edited_bias", &s);

    let mut emb = |name: &str, s: &embedding::State| {
        write(dir, &format!("embedding_{name}"), "embedding", codegen::embedding(s), embedding_case(s));
        n += 1;
    };
    for (id, _) in embedding::PRESETS {
        emb(id, &embedding::State::preset(id).unwrap());
    }
    let mut s = embedding::State::default();
    s.reinit("2024").unwrap();
    emb("reinit_seed2024", &s);
    let mut s = embedding::State::default();
    s.apply(&Edit::flag("sparse", true)).unwrap();
    s.edit("input", 0, "3").unwrap();
    emb("seed123_sparse_repeat", &s);
    let mut s = embedding::State::preset("padding_10x3").unwrap();
    s.set_padding_idx("-9").unwrap();
    s.apply(&Edit::flag("sparse", true)).unwrap();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.edit("target", 4, "2").unwrap();
    emb("padding_negative_sparse_mse", &s);
    s.apply(&Edit::Step).unwrap();
    emb("padding_stepped", &s);
    let mut s = embedding::State::preset("pretrained_5x4").unwrap();
    s.apply(&Edit::flag("freeze", false)).unwrap();
    s.set_padding_idx("0").unwrap();
    emb("pretrained_trainable_padding", &s);
    let mut s = embedding::State::default();
    s.edit("input", 1, "4").unwrap();
    emb("error_id_too_large", &s);
    let mut s = embedding::State::default();
    s.edit("input", 0, "-1").unwrap();
    emb("error_id_negative", &s);
    let mut s = embedding::State::default();
    s.set_padding_idx("-5").unwrap();
    emb("error_padding_idx", &s);

    let mut oh = |name: &str, s: &one_hot::State| {
        write(dir, &format!("one_hot_{name}"), "one_hot", codegen::one_hot(s), one_hot_case(s));
        n += 1;
    };
    for (id, _) in one_hot::PRESETS {
        oh(id, &one_hot::State::preset(id).unwrap());
    }
    let mut s = one_hot::State::preset("vocab10_dim3_batch").unwrap();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.apply(&Edit::Step).unwrap();
    oh("batch_mse_stepped", &s);
    let mut s = one_hot::State::default();
    s.set_vocab("20").unwrap();
    s.reinit("3").unwrap();
    oh("vocab20_seed3", &s);
    let mut s = one_hot::State::default();
    s.edit("input", 2, "4").unwrap();
    oh("error_id_too_large", &s);

    let mut rnn = |name: &str, s: &rnn::State| {
        write(dir, &format!("rnn_{name}"), "rnn", codegen::rnn(s), rnn_case(s));
        n += 1;
    };
    for (id, _) in rnn::PRESETS {
        rnn(id, &rnn::State::preset(id).unwrap());
    }
    let mut s = rnn::State::default();
    s.set_flag("h0", true).unwrap();
    s.edit("h0", 3, "0.5").unwrap();
    s.set_h_n_in_loss(true);
    rnn("batch_first_h0_h_n_loss", &s);
    let mut s = rnn::State::preset("rnn_2x3_bi_packed").unwrap();
    s.set_h_n_in_loss(true);
    rnn("packed_h_n_loss", &s);
    s.set_flag("enforce_sorted", false).unwrap();
    s.set_flag("batch_first", true).unwrap();
    s.edit("lengths", 1, "1").unwrap();
    s.edit("lengths", 2, "2").unwrap();
    s.set_flag("h0", true).unwrap();
    s.edit("h0", 5, "-1").unwrap();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    rnn("packed_unsorted_batch_first_h0_mse", &s);
    s.apply(&Edit::Step).unwrap();
    rnn("packed_unsorted_stepped", &s);
    let mut s = rnn::State::preset("embedding_to_rnn").unwrap();
    s.set_h_n_in_loss(true);
    s.apply(&Edit::Step).unwrap();
    rnn("embedding_stepped", &s);
    let mut s = rnn::State::preset("exploding_relu").unwrap();
    s.set_flag("bias", false).unwrap();
    s.set_size("num_layers", "2").unwrap();
    rnn("relu_no_bias_two_layers", &s);
    let mut s = rnn::State::preset("rnn_2x3_bi_packed").unwrap();
    s.edit("lengths", 0, "1").unwrap();
    rnn("error_lengths_not_sorted", &s);
    let mut s = rnn::State::preset("embedding_to_rnn").unwrap();
    s.edit("ids", 4, "10").unwrap();
    rnn("error_bad_id", &s);
    let mut s = rnn::State::default();
    s.set_size("features", "3").unwrap();
    rnn("error_input_size", &s);

    let mut tr = |name: &str, s: &train::State, steps: usize| {
        write(dir, &format!("train_{name}_{steps}"), "train", codegen::train(s, steps), train_case(s, steps));
        n += 1;
    };
    for (id, _) in train::PRESETS {
        for steps in [0, 1, 20] {
            tr(id, &train::State::preset(id).unwrap(), steps);
        }
    }
    let mut s = train::State::default();
    s.apply(&Edit::Run { steps: 7 }).unwrap();
    s.apply(&Edit::Lr { text: ".05".into() }).unwrap();
    tr("tiny_stepped_lr", &s, 10);
    let mut s = train::State::default();
    s.edit("movie_factors.weight", 3, "-0.125").unwrap();
    s.edit("ratings", 5, "3.5").unwrap();
    tr("tiny_edited", &s, 5);
    let mut s = train::State::default();
    s.edit("ratings", 4, "6").unwrap();
    tr("error_movie_id", &s, 3);
    println!("wrote {n} cases to {}", dir.display());
}
