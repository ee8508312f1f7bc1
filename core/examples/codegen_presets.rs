//! Writes every preset's PyTorch script and notebook (and some edited states) with what the scene
//! computes, for `tools/check_codegen.py` and `tools/check_notebooks.py` to run under real torch.
//! By hand only, never in CI:
//!
//!     cargo run -p rowflow-core --example codegen_presets -- /tmp/codegen
//!     /tmp/torchenv/bin/python tools/check_codegen.py /tmp/codegen
//!     /tmp/torchenv/bin/python tools/check_notebooks.py /tmp/codegen
//!
//! Each case is `<name>.py`, `<name>.ipynb` and `<name>.json`: `{"scene", "error": {"type", "message"} | null,
//! "exact": {expr: tensor}, "close": {expr: tensor}, "none": [expr], "truth": {expr: bool}}`,
//! where each `expr` is Python evaluated in the script's namespace after it ran (see the names in
//! `rowflow_core::codegen`), `exact` must match bit for bit and `close` within 1e-5.

use rowflow_core::codegen::{self, Notebook};
use rowflow_core::ops::loss::Loss;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::word2vec::task::{Start, Task};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
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
    // The same ids whatever integer dtype they are written with.
    k.exact("ids.long()", ints(&s.input));
    k.truth.insert(format!("ids.dtype == {}", s.dtype.name()), json!(true));
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
    k.exact("one_hot", floats(&pass.one_hot.dense().expect("one_hot of a preset").map(|x| x as f32)));
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
    // What the page shows, printed before "Run N steps": the output and the loss on show.
    k.close("output", floats(&c.output));
    k.close("loss", scalar(c.loss.expect("a loss")));
    // Then the N steps of "Run N steps", from there.
    let losses = Tensor::vector(after.learning.losses[before..].to_vec());
    k.close("torch.tensor(losses)", floats(&losses));
    let factors =
        [("model.user_factors.weight", &after.user_factors), ("model.movie_factors.weight", &after.movie_factors)];
    for (expr, t) in factors {
        // With no step the factors are the ones on show, seeded, replayed or written out:
        // exact; each `.grad` is then the page's too.
        match steps {
            0 => k.exact(expr, floats(t)),
            _ => k.close(expr, floats(t)),
        }
    }
    if steps == 0 {
        for (name, g) in &c.grads {
            k.close(&format!("model.{name}.grad"), floats(g));
        }
    }
    k
}

/// The next step's batch, scores, loss and gradients; then the task: its `fc` and random table as
/// `torch.manual_seed(seed + 1)` draws them, each start's last loss, and the fine-tuned table.
fn word2vec_case(s: &word2vec::State) -> Case {
    let c = s.compute();
    assert!(c.issues.is_empty(), "every word2vec case trains: {:?}", c.issues);
    let mut k = Case::default();
    k.exact("in_embed.weight", floats(&s.in_embed));
    k.exact("out_embed.weight", floats(&s.out_embed));
    k.exact("negatives", ints(&c.negatives));
    if s.cbow {
        k.exact("centres", ints(&c.target));
    } else {
        let centres = c.pairs.iter().map(|p| p.input[0]).collect();
        k.exact("centres", ints(&Ids::vector(centres)));
        k.exact("context", ints(&c.target));
    }
    k.close("v", floats(&c.v));
    k.close("pos", floats(&c.pos));
    k.close("neg", floats(&c.neg));
    k.close("loss", scalar(c.loss.expect("a loss")));
    for (name, g) in &c.grads {
        k.close(&format!("{name}.grad"), floats(g));
    }
    let labels = Tensor::vector(c.task_lines.iter().map(|&i| s.labels.data()[i]).collect());
    k.exact("labels", floats(&labels));
    let task = Task { sentences: &[], labels: &labels, seed: s.seed_value(), lr: s.task_lr(), steps: s.task_steps };
    let (fc, random) = task.init(c.words.len(), s.dim()).expect("the task's init");
    k.exact("fc_start.weight", floats(&fc.weight));
    k.exact("fc_start.bias", floats(fc.bias.as_ref().expect("fc has a bias")));
    k.exact("random_start", floats(&random));
    for run in &c.runs {
        k.close(&format!("task_losses['{}']", run.start.id()), scalar(*run.losses.last().expect("a loss")));
    }
    // The script trains the starts in order: `emb` is then the fine-tuned table.
    k.close("emb.weight", floats(&c.run(Start::FineTuned).expect("a fine-tuned run").table));
    k
}

/// A case as the learner makes it: its name and its edits, played on the state the case before
/// left, so a case that starts afresh opens with [`preset`].
type Edited = (&'static str, Vec<Edit>);

/// The two edits with a `String` that `Edit` has no constructor for.
fn preset(id: &str) -> Edit {
    Edit::Preset { id: id.into() }
}

fn reinit(seed: &str) -> Edit {
    Edit::Reinit { seed: seed.into() }
}

/// Plays `edits` on `s`; a refused one means the case no longer shows what its name says.
fn play<S: Scene>(s: &mut S, name: &str, edits: &[Edit]) {
    for edit in edits {
        s.apply(edit).unwrap_or_else(|why| panic!("{}_{name}: {edit:?} refused: {why}", S::NAME));
    }
}

/// The folder the cases go to, and how many went.
struct Out<'a> {
    dir: &'a Path,
    n: usize,
}

impl Out<'_> {
    fn write(&mut self, name: &str, scene: &str, (script, notebook): (String, String), case: Case) {
        let json = json!({
            "scene": scene,
            "error": case.error.map(|e| json!({"type": e.kind.name(), "message": e.message})),
            "exact": case.exact,
            "close": case.close,
            "none": case.none,
            "truth": case.truth,
        });
        std::fs::write(self.dir.join(format!("{name}.py")), script).unwrap();
        std::fs::write(self.dir.join(format!("{name}.ipynb")), notebook).unwrap();
        std::fs::write(self.dir.join(format!("{name}.json")), serde_json::to_string_pretty(&json).unwrap()).unwrap();
        self.n += 1;
    }

    /// Every preset of `S` as it is, then `cases` in order, each written as `script`, notebook
    /// and `case`.
    fn scene<S: Notebook>(&mut self, script: fn(&S) -> String, case: fn(&S) -> Case, cases: Vec<Edited>) {
        let mut write = |name: &str, s: &S| {
            let files = (script(s), codegen::notebook(s, S::NAME, 0));
            self.write(&format!("{}_{name}", S::NAME), S::NAME, files, case(s))
        };
        for (id, _) in S::PRESETS {
            write(id, &S::preset(id).unwrap());
        }
        let mut s = S::default();
        for (name, edits) in cases {
            play(&mut s, name, &edits);
            write(name, &s);
        }
    }

    /// Train's script takes how many steps it runs, so each of its cases names that too.
    fn train(&mut self, name: &str, s: &train::State, steps: usize) {
        let files = (codegen::train(s, steps), codegen::notebook(s, "train", steps));
        self.write(&format!("train_{name}_{steps}"), "train", files, train_case(s, steps));
    }
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: codegen_presets <output folder>");
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut out = Out { dir, n: 0 };
    let mse = Edit::Loss { mse: true };
    let cases = vec![
        (
            "vector_stepped_edited_input",
            vec![preset("vector_6_to_10"), Edit::Step, Edit::Step, Edit::cell("input", 1, "-0")],
        ),
        (
            "batch_no_bias_mse",
            vec![preset("batch_6_to_10"), Edit::flag("bias", false), mse.clone(), Edit::cell("target", 3, "1.5")],
        ),
        (
            "fixed_special_floats",
            vec![
                preset("fixed_2_to_3_3d"),
                Edit::paste("weight", 0, "[[1e-45, -0], [3.4028235e38, 0.1], [7.038531e-26, -2.5]]"),
            ],
        ),
        (
            "vector_nan_inf",
            vec![preset("vector_6_to_10"), Edit::cell("weight", 0, "nan"), Edit::cell("input", 1, "inf")],
        ),
        ("reinit_seed7", vec![preset("batch_6_to_10"), reinit("7")]),
        ("reinit_seed7_edited_bias", vec![Edit::cell("bias", 2, "0.5")]),
    ];
    out.scene(codegen::linear, linear_case, cases);
    // No edit sets the input's last dimension apart from in_features, so these two are built whole.
    let batch = linear::State::preset("batch_6_to_10").unwrap();
    let misshapen = [
        ("error_vector_shape", linear::State { input: Tensor::vector(vec![1.0; 5]), ..linear::State::default() }),
        ("error_batch_shape", linear::State { input: Tensor::zeros(vec![2, 5]).unwrap(), ..batch }),
    ];
    for (name, s) in misshapen {
        let files = (codegen::linear(&s), codegen::notebook(&s, "linear", 0));
        out.write(&format!("linear_{name}"), "linear", files, linear_case(&s));
    }

    let cases = vec![
        ("reinit_seed2024", vec![preset("seed123_4x5"), reinit("2024")]),
        ("seed123_sparse_repeat", vec![preset("seed123_4x5"), Edit::flag("sparse", true), Edit::cell("input", 0, "3")]),
        ("error_id_too_large", vec![preset("seed123_4x5"), Edit::cell("input", 1, "4")]),
        ("error_id_negative", vec![preset("seed123_4x5"), Edit::cell("input", 0, "-1")]),
        (
            "padding_negative_sparse_mse",
            vec![
                preset("padding_10x3"),
                Edit::field("padding_idx", "-9"),
                Edit::flag("sparse", true),
                mse.clone(),
                Edit::cell("target", 4, "2"),
            ],
        ),
        ("padding_stepped", vec![Edit::Step]),
        ("error_padding_idx", vec![preset("seed123_4x5"), Edit::field("padding_idx", "-5")]),
        (
            "pretrained_trainable_padding",
            vec![preset("pretrained_5x4"), Edit::flag("freeze", false), Edit::field("padding_idx", "0")],
        ),
        ("error_float_ids", vec![preset("padding_10x3"), Edit::field("dtype", "torch.float")]),
        ("int_ids_stepped", vec![preset("seed123_4x5"), Edit::field("dtype", "torch.int"), Edit::Step]),
    ];
    out.scene(codegen::embedding, embedding_case, cases);

    let cases = vec![
        ("batch_mse_stepped", vec![preset("vocab10_dim3_batch"), mse.clone(), Edit::Step]),
        ("vocab20_seed3", vec![preset("seed123"), Edit::field("V", "20"), reinit("3")]),
        (
            "vocab2000_dim8_kept_edited_stepped",
            vec![
                preset("seed123"),
                Edit::cell("emb.weight", 7, "0.5"),
                Edit::field("D", "8"),
                Edit::field("V", "2000"),
                Edit::cell("emb.weight", 15_999, "2.5"),
                Edit::Step,
            ],
        ),
        ("error_id_too_large", vec![preset("seed123"), Edit::cell("input", 2, "4")]),
    ];
    out.scene(codegen::one_hot, one_hot_case, cases);

    let cases = vec![
        (
            "batch_first_h0_h_n_loss",
            vec![
                preset("rnn_2_5_batch_first"),
                Edit::flag("h0", true),
                Edit::cell("h0", 3, "0.5"),
                Edit::flag("h_n_in_loss", true),
            ],
        ),
        ("packed_h_n_loss", vec![preset("rnn_2x3_bi_packed"), Edit::flag("h_n_in_loss", true)]),
        (
            "packed_unsorted_batch_first_h0_mse",
            vec![
                Edit::flag("enforce_sorted", false),
                Edit::flag("batch_first", true),
                Edit::cell("lengths", 1, "1"),
                Edit::cell("lengths", 2, "2"),
                Edit::flag("h0", true),
                Edit::cell("h0", 5, "-1"),
                mse,
            ],
        ),
        ("packed_unsorted_stepped", vec![Edit::Step]),
        ("embedding_stepped", vec![preset("embedding_to_rnn"), Edit::flag("h_n_in_loss", true), Edit::Step]),
        (
            "relu_no_bias_two_layers",
            vec![preset("exploding_relu"), Edit::flag("bias", false), Edit::field("num_layers", "2")],
        ),
        ("error_lengths_not_sorted", vec![preset("rnn_2x3_bi_packed"), Edit::cell("lengths", 0, "1")]),
        ("error_bad_id", vec![preset("embedding_to_rnn"), Edit::cell("ids", 4, "10")]),
        ("error_input_size", vec![preset("rnn_2_5_batch_first"), Edit::field("features", "3")]),
    ];
    out.scene(codegen::rnn, rnn_case, cases);

    for (id, _) in train::PRESETS {
        for steps in [0, 1, 20] {
            out.train(id, &train::State::preset(id).unwrap(), steps);
        }
    }
    let mut s = train::State::default();
    let cases: [(_, _, Vec<Edit>); 5] = [
        // The page after 1 and 20 steps, replayed from the seed: what the script prints is it.
        ("tiny_after_1", 0, vec![preset("tiny_factors2"), Edit::Step]),
        ("tiny_after_20", 0, vec![preset("tiny_factors2"), Edit::Run { steps: 20 }]),
        ("tiny_stepped_lr", 10, vec![preset("tiny_factors2"), Edit::Run { steps: 7 }, Edit::Lr { text: ".05".into() }]),
        (
            "tiny_edited",
            5,
            vec![
                preset("tiny_factors2"),
                Edit::cell("movie_factors.weight", 3, "-0.125"),
                Edit::cell("ratings", 5, "3.5"),
            ],
        ),
        ("error_movie_id", 3, vec![preset("tiny_factors2"), Edit::cell("ratings", 4, "6")]),
    ];
    for (name, steps, edits) in cases {
        play(&mut s, name, &edits);
        out.train(name, &s, steps);
    }

    let cases = vec![
        ("skip_gram_after_1", vec![preset("skip_gram"), Edit::Step]),
        ("skip_gram_after_20", vec![preset("skip_gram"), Edit::Run { steps: 20 }]),
        ("cbow_after_1", vec![preset("cbow"), Edit::Step]),
        ("cbow_after_20", vec![preset("cbow"), Edit::Run { steps: 20 }]),
        (
            "cbow_resized_reseeded_edited",
            vec![
                preset("cbow"),
                Edit::field("window", "3"),
                Edit::field("negatives", "5"),
                Edit::field("min_count", "1"),
                Edit::field("embedding_dim", "4"),
                reinit("7"),
                Edit::field("task_lr", "0.5"),
                Edit::field("task_steps", "40"),
                Edit::cell("labels", 3, "1"),
                Edit::cell("out_embed.weight", 5, "0.25"),
                Edit::Step,
            ],
        ),
        (
            "skip_gram_edited_table",
            vec![preset("skip_gram"), Edit::Run { steps: 3 }, Edit::cell("in_embed.weight", 0, "-0")],
        ),
    ];
    out.scene(codegen::word2vec, word2vec_case, cases);
    println!("wrote {} cases to {}", out.n, dir.display());
}
