//! Saves that last: every save, link and file a release of rowflow wrote (`saves/format-N/`,
//! written by `examples/write_saves.rs`) opens in this release to the numbers it showed then.
//! Each is one test; one that no longer opens fails here, not in a learner's browser.

mod common;

use common::saves::{numbers, Shown};
use common::{close, shape, Tol};
use libtest_mimic::{Arguments, Failed, Trial};
use rowflow_core::scene::share::{decode, from_file, from_link, Shared};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use rowflow_core::Tensor;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What a save, link or file shows computed from its numbers: as close as PyTorch's parity.
const TOL: Tol = Tol { atol: 1e-5, rtol: 1e-5 };

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/saves");
    let mut trials = Vec::new();
    for format in sorted(&root) {
        for scene in sorted(&format) {
            for numbers in sorted(&scene).into_iter().filter(|p| name(p).ends_with(".numbers.json")) {
                let case = name(&numbers).trim_end_matches(".numbers.json").to_string();
                for kind in ["save.json", "link", "file.json"] {
                    let path = scene.join(format!("{case}.{kind}"));
                    if !path.exists() {
                        continue;
                    }
                    let (scene, numbers) = (name(&scene), numbers.clone());
                    let id = format!("{}/{scene}/{case}.{kind}", name(&format));
                    trials.push(Trial::test(id, move || open(&scene, kind, &path, &numbers).map_err(Failed::from)));
                }
            }
        }
    }
    // format-1 alone is 93: a folder moved or emptied is a failure, not a pass.
    assert!(trials.len() >= 93, "the committed saves are all here ({} found)", trials.len());
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

fn sorted(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("a folder").map(|e| e.expect("an entry").path()).collect();
    paths.sort();
    paths
}

fn name(path: &Path) -> String {
    path.file_name().expect("a name").to_string_lossy().into_owned()
}

fn open(scene: &str, kind: &str, path: &Path, numbers: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let want: Value = serde_json::from_str(&std::fs::read_to_string(numbers).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    match scene {
        "linear" => same::<linear::State>(kind, &text, &want),
        "embedding" => same::<embedding::State>(kind, &text, &want),
        "one_hot" => same::<one_hot::State>(kind, &text, &want),
        "rnn" => same::<rnn::State>(kind, &text, &want),
        "train" => same::<train::State>(kind, &text, &want),
        "word2vec" => same::<word2vec::State>(kind, &text, &want),
        other => Err(format!("no scene {other}")),
    }
}

/// Reads `text` as the app reads a save, a link or a file, and compares what it shows.
fn same<S: Shown + Shared>(kind: &str, text: &str, want: &Value) -> Result<(), String> {
    let s: S = match kind {
        "save.json" => decode(text),
        "link" => from_link(text),
        _ => from_file(text),
    }
    .map_err(|why| format!("does not open: {why}"))?;
    let got = numbers(&s);
    for part in ["exact", "close"] {
        let (got, want) = (&got[part], &want[part]);
        let names = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
        if names(got) != names(want) {
            return Err(format!("{part}: shows {:?}, showed {:?}", names(got), names(want)));
        }
        for (name, w) in want.as_object().into_iter().flatten() {
            let g = &got[name];
            match (part, w.get("data")) {
                // Within the tolerance; what the state holds, ids and hashed bits, as written
                // (`-0.0` is not `0.0`).
                ("close", Some(_)) => close(name, &floats(g)?, &floats(w)?, TOL)?,
                _ if written(g) != written(w) => return Err(format!("{name}: {g}, was {w}")),
                _ => {}
            }
        }
    }
    Ok(())
}

/// A tensor as kept, `nan` and `inf` as PyTorch prints them.
fn floats(v: &Value) -> Result<Tensor, String> {
    let data = v["data"].as_array().ok_or("no data")?.iter().map(|x| match x.as_str() {
        Some("nan") => Ok(f32::NAN),
        Some("inf") => Ok(f32::INFINITY),
        Some("-inf") => Ok(f32::NEG_INFINITY),
        _ => x.as_f64().map(|x| x as f32).ok_or_else(|| format!("not a float: {x}")),
    });
    Tensor::new(shape(&v["shape"])?, data.collect::<Result<_, String>>()?).map_err(|e| e.to_string())
}

/// A value as JSON text: `-0.0` and `0.0`, equal as numbers, are not the same number on show.
fn written(v: &Value) -> String {
    v.to_string()
}
