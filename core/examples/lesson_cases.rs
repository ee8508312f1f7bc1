//! Writes every number every lesson quotes, with the PyTorch panel's script of the scene at that
//! step, for `tools/check_codegen.py` to run under real torch: what a lesson says is what
//! PyTorch prints. By hand only, never in CI:
//!
//!     cargo run -p rowflow-core --example lesson_cases -- /tmp/lessons
//!     /tmp/torchenv/bin/python tools/check_codegen.py /tmp/lessons
//!
//! A gradient quoted while the backward pass is under way is a partial sum PyTorch never holds
//! (`Scene::grad_at`): it is listed in the case's `"partial"`, not checked.

use rowflow_core::codegen;
use rowflow_core::lesson::{self, Step};
use rowflow_core::scene::contract::Scene;
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train};
use serde_json::{json, Map, Value};
use std::path::Path;

/// A quoted tensor's name in the panel's script: (the lesson's name, Python's).
type Names = &'static [(&'static str, &'static str)];

/// `grads`: whether the script leaves the `.grad`s the lesson quotes (Train's trains on instead).
fn write<S: Scene>(dir: &Path, script: fn(&S) -> String, names: Names, grads: bool) -> usize {
    let mut n = 0;
    for l in lesson::of::<S>() {
        for (k, step) in l.steps.iter().enumerate() {
            let s: S = l.scene_at(k).expect("a lesson's step plays");
            let view = s.compute();
            let (mut close, mut partial) = (Map::new(), Vec::new());
            for q in step.quoted() {
                let Some(python) = python(&q.to_string(), names).filter(|p| grads || !p.contains(".grad")) else {
                    continue;
                };
                let one = Step { say: format!("{{{q}:full}}"), look: Vec::new(), ..step.clone() };
                let x: f32 = one.say(&s, &view).expect("a quoted number").parse().expect("digits");
                let at = step.playhead(rowflow_core::scene::contract::View::steps(&view, step.pass));
                if q.tensor.ends_with(".grad") && s.grad_at(&view, &q.tensor, at).is_some() {
                    partial.push(q.to_string());
                    continue;
                }
                close.insert(python, json!({"shape": [], "dtype": "float32", "data": [x as f64]}));
            }
            if let (true, Some(loss)) = (step.say.contains("{loss}"), rowflow_core::scene::contract::View::loss(&view))
            {
                close.insert("loss".into(), json!({"shape": [], "dtype": "float32", "data": [loss as f64]}));
            }
            let name = format!("{}_{}_{}", S::NAME, l.id.replace('-', "_"), k + 1);
            std::fs::write(dir.join(format!("{name}.py")), script(&s)).expect("the script");
            let case = json!({"scene": S::NAME, "error": null, "exact": {}, "close": Value::Object(close),
                "none": [], "truth": {}, "partial": partial});
            std::fs::write(dir.join(format!("{name}.json")), case.to_string()).expect("the case");
            n += 1;
        }
    }
    n
}

/// `weight.grad[2, 0]` → `linear.weight.grad[2, 0]`, by the script's names.
fn python(quoted: &str, names: Names) -> Option<String> {
    let (tensor, index) = quoted.split_once('[').unwrap_or((quoted, ""));
    let (base, grad) = match tensor.strip_suffix(".grad") {
        Some(base) => (base, ".grad"),
        None => (tensor, ""),
    };
    let (_, py) = names.iter().find(|(n, _)| *n == base)?;
    let index = if index.is_empty() { String::new() } else { format!("[{index}") };
    Some(format!("{py}{grad}{index}"))
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: lesson_cases <output folder>");
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("the folder");
    let rnn_params: Names = &[
        ("weight_ih_l0", "rnn.weight_ih_l0"),
        ("weight_hh_l0", "rnn.weight_hh_l0"),
        ("input", "x"),
        ("output", "output"),
        ("h_n", "h_n"),
        ("target", "target"),
    ];
    let n =
        write::<linear::State>(
            dir,
            codegen::linear,
            &[("weight", "linear.weight"), ("bias", "linear.bias"), ("input", "x"), ("output", "output")],
            true,
        ) + write::<embedding::State>(dir, codegen::embedding, &[("weight", "emb.weight"), ("output", "output")], true)
            + write::<one_hot::State>(
                dir,
                codegen::one_hot,
                &[
                    ("emb.weight", "emb.weight"),
                    ("linear.weight", "linear.weight"),
                    ("emb(input)", "output"),
                    ("linear(one_hot)", "output_linear"),
                ],
                true,
            )
            + write::<rnn::State>(dir, codegen::rnn, rnn_params, true)
            + write::<train::State>(
                dir,
                |s| codegen::train(s, 0),
                &[
                    ("user_factors.weight", "model.user_factors.weight"),
                    ("movie_factors.weight", "model.movie_factors.weight"),
                    ("output", "output"),
                ],
                false,
            );
    println!("wrote {n} lesson steps to {}", dir.display());
}
