//! Writes the seed corpus of the cargo-fuzz targets in `fuzz/` (run by `scripts/fuzz`, by hand):
//!
//!     cargo run -p rowflow-core --example fuzz_seeds -- fuzz/corpus
//!
//! `<dir>/link_and_file/`: every preset of every scene as its share link, its exported file and
//! compact JSON, also after an SGD step and with the mse loss, and a few hostile links;
//! `<dir>/paste/`: spreadsheet blocks
//! and Python literals; `<dir>/numbers/`: what a learner types into a cell or a size field.
//! Generated rather than committed, so the seeds follow the scenes' format as it changes.

use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::share::{to_file, to_link, to_save, Shared};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, to_json, train};
use serde_json::{json, Value};
use std::fs;
use std::path::Path;

/// Seeds larger than this (the 1000 × 30 table) would make every run of the target slow; the
/// fuzzer's inputs stay below it too (`scripts/fuzz` passes it as `-max_len`).
const MAX_SEED: usize = 8 << 10;

fn main() -> std::io::Result<()> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "fuzz/corpus".into());
    let dir = Path::new(&dir);
    let mut n = 0;
    let mut seed = |target: &str, name: String, bytes: &[u8]| -> std::io::Result<()> {
        if bytes.len() > MAX_SEED {
            return Ok(());
        }
        fs::create_dir_all(dir.join(target))?;
        n += 1;
        fs::write(dir.join(target).join(format!("seed-{name}")), bytes)
    };

    for (name, scene) in scenes() {
        seed("link_and_file", format!("{name}.link"), scene.0.as_bytes())?;
        seed("link_and_file", format!("{name}.file"), scene.1.as_bytes())?;
        seed("link_and_file", format!("{name}.json"), scene.2.as_bytes())?;
    }
    for (name, json) in hostile() {
        seed("link_and_file", format!("hostile-{name}.json"), json.as_bytes())?;
    }
    for (i, text) in PASTES.iter().enumerate() {
        for (pick, index) in [(3u8, 0u64), (5, 1), (9, 4)] {
            let mut bytes = vec![pick];
            bytes.extend(index.to_le_bytes());
            bytes.extend(text.as_bytes());
            seed("paste", format!("{i}-{pick}"), &bytes)?;
        }
    }
    for (i, text) in NUMBERS.iter().enumerate() {
        seed("numbers", format!("{i}"), text.as_bytes())?;
    }
    println!("{n} seeds in {}", dir.display());
    Ok(())
}

/// A scene as (link, file, compact JSON).
fn shared<S: Shared>(s: &S) -> (String, String, String) {
    (to_link(s), to_file(s), to_save(&s.shared()))
}

/// Every preset of every scene, plus some learned and mse states.
fn scenes() -> Vec<(String, (String, String, String))> {
    let mut out = Vec::new();
    for (id, _) in linear::PRESETS {
        let mut s = linear::State::preset(id).expect("a preset");
        out.push((format!("linear-{id}"), shared(&s)));
        let _ = s.apply(&Edit::Loss { mse: true });
        let _ = s.apply(&Edit::Step);
        out.push((format!("linear-{id}-mse-stepped"), shared(&s)));
    }
    for (id, _) in embedding::PRESETS {
        let mut s = embedding::State::preset(id).expect("a preset");
        out.push((format!("embedding-{id}"), shared(&s)));
        let _ = s.apply(&Edit::Step);
        out.push((format!("embedding-{id}-stepped"), shared(&s)));
    }
    for (id, _) in one_hot::PRESETS {
        let mut s = one_hot::State::preset(id).expect("a preset");
        out.push((format!("one_hot-{id}"), shared(&s)));
        let _ = s.apply(&Edit::Step);
        out.push((format!("one_hot-{id}-stepped"), shared(&s)));
    }
    for (id, _) in rnn::PRESETS {
        let mut s = rnn::State::preset(id).expect("a preset");
        out.push((format!("rnn-{id}"), shared(&s)));
        s.set_h_n_in_loss(true);
        let _ = s.apply(&Edit::Step);
        out.push((format!("rnn-{id}-h_n-stepped"), shared(&s)));
    }
    for (id, _) in train::PRESETS {
        let mut s = train::State::preset(id).expect("a preset");
        out.push((format!("train-{id}"), shared(&s)));
        let _ = s.apply(&Edit::Run { steps: 3 });
        out.push((format!("train-{id}-run3"), shared(&s)));
    }
    out
}

/// Hand-made links the fuzzer took long to find: tensors that hold no numbers but claim sizes
/// no control makes, an RNN of 10⁹ layers, a learning rate and a parameter name that are code.
fn hostile() -> Vec<(&'static str, String)> {
    let edit = |json: String, pointer: &str, value: Value| {
        let mut v: Value = serde_json::from_str(&json).expect("a scene's JSON");
        *v.pointer_mut(pointer).expect("a field of the scene") = value;
        v.to_string()
    };
    let empty = |shape: Value| json!({"shape": shape, "data": []});
    let linear = to_json(&linear::State::default());
    let linear = edit(linear, "/weight", empty(json!([1_000_000_000, 0])));
    let linear = edit(linear, "/input", empty(json!([1, 0])));
    let rnn = to_json(&rnn::State::default());
    let train = to_json(&train::State::default());
    vec![
        ("linear-wide", edit(linear, "/has_bias", json!(false))),
        ("embedding-wide", edit(to_json(&embedding::State::default()), "/weight", empty(json!([0, 1_000_000_000])))),
        ("rnn-layers", edit(rnn.clone(), "/model/config/num_layers", json!(1_000_000_000))),
        ("rnn-name", edit(rnn, "/model/params/0/0", json!("weight_ih_l0\nimport os"))),
        ("train-wide", edit(train.clone(), "/user_factors", empty(json!([1_000_000_000, 0])))),
        ("train-lr", edit(train, "/lr", json!("0.1)\nimport os  #"))),
    ]
}

/// What a spreadsheet or a Python session puts on the clipboard.
const PASTES: &[&str] = &[
    "1\t2\n3\t4\n",
    "1,2,3\r\n4,5,6\r\n",
    "0.5 -1.25 nan\ninf -inf 1e-3",
    "[[1, 2], [3, 4]]",
    "[0.1, -0.2, 3]",
    "tensor([0.5, -1.])",
    "tensor([[ 0.1940,  2.1614], [-0.1721,  0.8491]], requires_grad=True)",
    "torch.tensor([[[1,1],[2,2]],[[3,3],[4,4]]], dtype=torch.float32)",
    "tensor([2, 3, 1])",
    "[[0, 1_000], [-3, 7]]",
    "1\t\t2\n\n3",
];

/// What is typed into a cell or a size field.
const NUMBERS: &[&str] = &[
    "1.5",
    " -2e-3 ",
    "1_000",
    "nan",
    "-inf",
    "Infinity",
    "+3",
    ".5",
    "5.",
    "1e500",
    "7.038531e-26",
    "0.1",
    "-0.0",
    "64",
    "10000",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "007",
    "abc",
    "",
];
