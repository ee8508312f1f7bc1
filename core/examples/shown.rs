//! What a scene shows for a state, as the core computes it: the e2e storm
//! (tests/e2e/storm.test.mjs) reads a page's saved state, runs it through this, and checks that
//! every number on screen is the core's.
//!
//!     echo '{"scene": "linear", "state": {...}}' | cargo run -q -p rowflow-core --example shown
//!
//! Prints `{"cells": {"output[0, 1]": ["0.1234", "0.12345678"], ...}}`: each cell's label (as the
//! grids label them) with its short and full text, for the state's tensors and what compute()
//! makes of them, or `{"error": "..."}` when the state is refused (a save that a scene wrote must
//! never be). Outputs a view keeps from an earlier state (Linear's while PyTorch raises) are left
//! out, since the state alone does not hold them.

use rowflow_core::format::{full, short};
use rowflow_core::scene::share::{decode, Shared};
use rowflow_core::scene::{embedding, label, linear, one_hot, rnn, train, word2vec};
use rowflow_core::tensor::unravel;
use rowflow_core::{Ids, Tensor};
use serde_json::{json, Map, Value};
use std::io::Read;

/// Tensors past this many numbers are drawn as heat maps, without cells (src/grid.rs).
const HEATMAP_CELLS: usize = 400;

#[derive(Default)]
struct Cells(Map<String, Value>);

impl Cells {
    fn floats(&mut self, name: &str, t: &Tensor) {
        self.add(name, t.shape(), t.data(), |x| [short(x), full(x)]);
    }
    fn ids(&mut self, name: &str, t: &Ids) {
        self.add(name, t.shape(), t.data(), |i| [i.to_string(), i.to_string()]);
    }
    fn named(&mut self, named: &[(String, Tensor)], suffix: &str) {
        for (name, t) in named {
            self.floats(&format!("{name}{suffix}"), t);
        }
    }
    fn add<T: Copy>(&mut self, name: &str, shape: &[usize], data: &[T], text: impl Fn(T) -> [String; 2]) {
        if data.len() > HEATMAP_CELLS {
            return;
        }
        for (i, &x) in data.iter().enumerate() {
            self.0.insert(label(name, &unravel(i, shape)), json!(text(x)));
        }
    }
}

fn linear(s: &linear::State, cells: &mut Cells) {
    let c = s.compute();
    cells.floats("weight", &s.weight);
    cells.floats("input", &s.input);
    if s.has_bias {
        cells.floats("bias", &s.bias);
    }
    if let Some(y) = &c.output {
        cells.floats("output", y);
    }
    if let (Some(up), Some(g)) = (&c.output_grad, &c.grads) {
        cells.floats("output.grad", up);
        cells.floats("weight.grad", &g.weight);
        cells.floats("input.grad", &g.input);
        if let Some(b) = &g.bias {
            cells.floats("bias.grad", b);
        }
    }
}

fn embedding(s: &embedding::State, cells: &mut Cells) {
    let c = s.compute();
    cells.floats("weight", &s.weight);
    cells.ids("input", &s.input);
    cells.floats("output", &c.output);
    if let Some(up) = &c.upstream {
        cells.floats("output.grad", up);
    }
    if let Some(w) = c.grads.as_ref().and_then(|g| g.weight.as_ref()) {
        cells.floats("weight.grad", w);
    }
}

fn one_hot(s: &one_hot::State, cells: &mut Cells) {
    let c = s.compute();
    cells.ids(one_hot::INPUT, &s.ids);
    for name in [
        one_hot::TABLE,
        one_hot::LINEAR_WEIGHT,
        one_hot::LOOKUP,
        one_hot::LINEAR,
        one_hot::TABLE_GRAD,
        one_hot::LINEAR_WEIGHT_GRAD,
        one_hot::LOOKUP_GRAD,
        one_hot::LINEAR_GRAD,
    ] {
        if let Some(t) = c.tensor(name) {
            cells.floats(name, t);
        }
    }
    if let Some(one_hot) = c.pass.as_ref().and_then(|p| p.one_hot.dense().ok()) {
        cells.ids(one_hot::ONE_HOT, &one_hot);
    }
}

fn rnn(s: &rnn::State, cells: &mut Cells) {
    let c = s.compute();
    cells.named(&s.model.params, "");
    if let Some(run) = &c.run {
        cells.floats("output", &run.output);
        cells.floats("h_n", &run.h_n);
    }
    if let Some(b) = &c.backward {
        cells.named(&b.grads, ".grad");
    }
}

fn train(s: &train::State, cells: &mut Cells) {
    let c = s.compute();
    cells.floats("user_factors.weight", &s.user_factors);
    cells.floats("movie_factors.weight", &s.movie_factors);
    cells.floats("output", &c.output);
    if !c.stale {
        cells.floats("output.grad", &c.output_grad);
        cells.named(&c.grads, ".grad");
    }
}

fn word2vec(s: &word2vec::State, cells: &mut Cells) {
    let c = s.compute();
    cells.floats("in_embed.weight", &s.in_embed);
    cells.floats("out_embed.weight", &s.out_embed);
    cells.floats("labels", &s.labels);
    cells.floats("pos", &c.pos);
    cells.floats("neg", &c.neg);
    cells.floats("pos.grad", &c.pos_grad);
    cells.floats("neg.grad", &c.neg_grad);
    cells.named(&c.grads, ".grad");
}

fn show<S: Shared>(state: &Value, f: fn(&S, &mut Cells)) -> Value {
    match decode::<S>(&state.to_string()) {
        Ok(s) => {
            let mut cells = Cells::default();
            f(&s, &mut cells);
            json!({ "cells": cells.0 })
        }
        Err(e) => json!({ "error": e }),
    }
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let input: Value = serde_json::from_str(&text).expect("a JSON object");
    let state = &input["state"];
    let out = match input["scene"].as_str() {
        Some("linear") => show(state, linear),
        Some("embedding") => show(state, embedding),
        Some("one_hot") => show(state, one_hot),
        Some("rnn") => show(state, rnn),
        Some("train") => show(state, train),
        Some("word2vec") => show(state, word2vec),
        other => json!({ "error": format!("no scene {other:?}") }),
    };
    println!("{out}");
}
