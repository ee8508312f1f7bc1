//! Every preset's PyTorch script (and a few edited states) is valid Python: `ast.parse` by the
//! `python3` on PATH. Torch is not needed: nothing is imported or run.

use rowflow_core::codegen;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use std::io::Write;
use std::process::{Command, Stdio};

/// What `ast.parse` says of each script: one `python3` for all, fed `name\0script\0...`.
const PARSE_ALL: &str = r#"
import ast, sys
parts = sys.stdin.read().split("\0")
for name, source in zip(parts[0::2], parts[1::2]):
    try:
        ast.parse(source)
    except SyntaxError as e:
        print(f"{name}: {e}")
"#;

/// The scripts `ast.parse` refuses, with its message (`python3` on PATH; torch not needed).
fn not_python(scripts: &[(String, String)]) -> Vec<String> {
    let mut child = Command::new("python3")
        .args(["-c", PARSE_ALL])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is on PATH");
    let mut stdin = child.stdin.take().unwrap();
    for (name, py) in scripts {
        write!(stdin, "{name}\0{py}\0").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect()
}

/// Every script at once, one name each.
fn scripts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut add = |name: String, py: String| out.push((name, py));
    for (id, _) in linear::PRESETS {
        add(format!("linear {id}"), codegen::linear(&linear::State::preset(id).unwrap()));
    }
    for (id, _) in embedding::PRESETS {
        add(format!("embedding {id}"), codegen::embedding(&embedding::State::preset(id).unwrap()));
    }
    for (id, _) in one_hot::PRESETS {
        add(format!("one_hot {id}"), codegen::one_hot(&one_hot::State::preset(id).unwrap()));
    }
    for (id, _) in rnn::PRESETS {
        add(format!("rnn {id}"), codegen::rnn(&rnn::State::preset(id).unwrap()));
    }
    for (id, _) in train::PRESETS {
        for steps in [0, 1, 20] {
            add(format!("train {id} {steps}"), codegen::train(&train::State::preset(id).unwrap(), steps));
        }
    }

    // Edited: special floats, a step, no bias, mse, bad ids, packing and h0.
    let mut s = linear::State::default();
    for (k, v) in ["nan", "-inf", "inf", "-0", "1e-45", "3.4028235e38"].iter().enumerate() {
        s.edit("weight", k, v).unwrap();
    }
    s.set_bias(false);
    s.apply(&Edit::Loss { mse: true }).unwrap();
    add("linear special floats".into(), codegen::linear(&s));
    let mut s = linear::State::preset("fixed_2_to_3_3d").unwrap();
    s.apply(&Edit::Step).unwrap();
    s.set_in_features("5").unwrap();
    add("linear stepped and resized".into(), codegen::linear(&s));

    let mut s = embedding::State::preset("padding_10x3").unwrap();
    s.apply(&Edit::flag("sparse", true)).unwrap();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.apply(&Edit::Step).unwrap();
    add("embedding sparse mse stepped".into(), codegen::embedding(&s));
    let mut s = embedding::State::default();
    s.edit("input", 0, "-1").unwrap();
    add("embedding bad id".into(), codegen::embedding(&s));

    let mut s = one_hot::State::default();
    s.edit("input", 0, "99").unwrap();
    add("one_hot bad id".into(), codegen::one_hot(&s));

    let mut s = rnn::State::preset("rnn_2x3_bi_packed").unwrap();
    s.set_flag("h0", true).unwrap();
    s.set_flag("batch_first", true).unwrap();
    s.set_flag("enforce_sorted", false).unwrap();
    s.set_h_n_in_loss(true);
    s.apply(&Edit::Step).unwrap();
    add("rnn packed h0 batch_first stepped".into(), codegen::rnn(&s));
    let mut s = rnn::State::preset("embedding_to_rnn").unwrap();
    s.set_size("features", "5").unwrap();
    add("rnn input_size mismatch".into(), codegen::rnn(&s));

    let mut s = train::State::default();
    s.apply(&Edit::Run { steps: 5 }).unwrap();
    s.apply(&Edit::Lr { text: ".5".into() }).unwrap();
    add("train stepped".into(), codegen::train(&s, 3));
    let mut s = train::State::default();
    s.apply(&Edit::field("n_factors", "3")).unwrap();
    s.edit("ratings", 2, "nan").unwrap();
    add("train nan rating".into(), codegen::train(&s, 2));

    for (id, _) in word2vec::PRESETS {
        let mut s = word2vec::State::preset(id).unwrap();
        add(format!("word2vec {id}"), codegen::word2vec(&s));
        s.apply(&Edit::Run { steps: 3 }).unwrap();
        add(format!("word2vec {id} stepped"), codegen::word2vec(&s));
    }
    let mut s = word2vec::State::default();
    s.apply(&Edit::field("corpus", "it's \"quoted\" text\nand more")).unwrap();
    add("word2vec quoted words".into(), codegen::word2vec(&s));
    s.apply(&Edit::field("corpus", "")).unwrap();
    add("word2vec no pairs".into(), codegen::word2vec(&s));
    out
}

#[test]
fn every_script_is_valid_python() {
    let all = scripts();
    assert!(all.len() >= 29, "{} scripts", all.len());
    for (name, py) in &all {
        assert!(py.starts_with("import torch\nfrom torch import nn\n"), "{name}");
        assert!(!py.contains("numpy"), "{name}");
    }
    assert_eq!(not_python(&all), Vec::<String>::new());
}

#[test]
fn the_parse_check_can_fail() {
    let broken = [("broken".to_string(), "x = torch.tensor([1.0, 2.0)\n".to_string())];
    let ok = [("fine".to_string(), "x = [float('nan'), -0.0, 1e-45]\n".to_string())];
    assert_eq!(not_python(&broken).len(), 1);
    assert!(not_python(&ok).is_empty());
}
