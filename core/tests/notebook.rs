//! Every preset's notebook of every scene (and some edited, stepped and failing states) is a
//! valid Jupyter notebook by the official nbformat v4.5 schema (`nbformat/`, from the `nbformat`
//! package), its code cells are the PyTorch panel's script, and its markdown holds the scene's
//! captions.

use jsonschema::Validator;
use rowflow_core::codegen::{self, Notebook};
use rowflow_core::say::{caption, write};
use rowflow_core::scene::contract::{Edit, Scene, View};
use rowflow_core::scene::{embedding, linear, one_hot, rnn, train};
use rowflow_core::Phase;
use serde_json::Value;

fn schema() -> Validator {
    let text = include_str!("nbformat/nbformat.v4.5.schema.json");
    jsonschema::draft4::new(&serde_json::from_str(text).expect("the schema is JSON")).expect("a draft 4 schema")
}

/// Markdown as it reads: a backslash before ASCII punctuation shows the character alone.
fn shown(markdown: &str) -> String {
    let mut out = String::new();
    let mut chars = markdown.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn source(cell: &Value) -> String {
    cell["source"].as_array().expect("source is a list of lines").iter().map(|l| l.as_str().unwrap()).collect()
}

/// `state`'s notebook is valid, its code is `panel`, and its markdown says where it comes from and
/// what the timelines' captions say.
fn check<S: Notebook>(schema: &Validator, name: &str, state: &S, steps: usize, panel: &str) {
    let text = codegen::notebook(state, "A scene", steps);
    let nb: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let errors: Vec<String> = schema.iter_errors(&nb).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{name}: {errors:#?}");
    assert_eq!((&nb["nbformat"], &nb["nbformat_minor"]), (&4.into(), &5.into()), "{name}");
    assert_eq!(nb["metadata"]["kernelspec"]["name"], "python3", "{name}");

    let cells = nb["cells"].as_array().unwrap();
    let code: Vec<String> = cells.iter().filter(|c| c["cell_type"] == "code").map(source).collect();
    assert!(code.len() >= 3, "{name}: build, forward and backward or SGD");
    assert_eq!(code.join("\n\n") + "\n", panel, "{name}: the code cells, a blank line apart, are the panel's script");
    let markdown: Vec<String> = cells.iter().filter(|c| c["cell_type"] == "markdown").map(source).collect();
    assert_eq!(markdown.len(), code.len() + 1, "{name}: an opening, then one before each code cell");
    assert!(cells[0]["cell_type"] == "markdown" && markdown[0].starts_with("# A scene\n"), "{name}");
    let words = shown(&markdown.join("\n"));
    assert!(words.contains("print the numbers the page shows"), "{name}: {words}");
    match S::PRESETS.iter().find(|(id, _)| *id == state.preset_id()) {
        Some((_, label)) => assert!(words.contains(&format!("the preset “{label}”")), "{name}: {words}"),
        None => assert!(words.contains("no preset"), "{name}: {words}"),
    }
    let view = state.compute();
    for phase in [Phase::Forward, Phase::Backward] {
        let n = view.steps(phase);
        for k in [0, 1, n] {
            let caption = one_line(&caption(&view.describe(phase, k), write));
            assert!(words.contains(&caption), "{name}: no {phase:?} caption {k} {caption:?} in\n{words}");
        }
    }
}

#[test]
fn every_notebook_is_valid_and_holds_the_panels_code_and_the_scenes_captions() {
    let schema = schema();
    let mut n = 0;
    for (id, _) in linear::PRESETS {
        let s = linear::State::preset(id).unwrap();
        check(&schema, id, &s, 0, &codegen::linear(&s));
        n += 1;
    }
    for (id, _) in embedding::PRESETS {
        let s = embedding::State::preset(id).unwrap();
        check(&schema, id, &s, 0, &codegen::embedding(&s));
        n += 1;
    }
    for (id, _) in one_hot::PRESETS {
        let s = one_hot::State::preset(id).unwrap();
        check(&schema, id, &s, 0, &codegen::one_hot(&s));
        n += 1;
    }
    for (id, _) in rnn::PRESETS {
        let s = rnn::State::preset(id).unwrap();
        check(&schema, id, &s, 0, &codegen::rnn(&s));
        n += 1;
    }
    for (id, _) in train::PRESETS {
        let s = train::State::preset(id).unwrap();
        for steps in [0, 1, 20] {
            check(&schema, id, &s, steps, &codegen::train(&s, steps));
            n += 1;
        }
    }
    assert!(n >= 20, "{n} notebooks");
}

/// A scene after `edits`, each of which it takes.
fn edited<S: Scene>(edits: &[Edit]) -> S {
    let mut s = S::default();
    for e in edits {
        s.apply(e).unwrap_or_else(|err| panic!("{e:?}: {err}"));
    }
    s
}

#[test]
fn edited_stepped_and_failing_states_make_valid_notebooks_too() {
    let schema = schema();
    let mse = Edit::Loss { mse: true };
    let s: linear::State =
        edited(&[Edit::cell("weight", 0, "nan"), Edit::flag("bias", false), mse.clone(), Edit::Step]);
    check(&schema, "linear edited", &s, 0, &codegen::linear(&s));
    let s: embedding::State = edited(&[Edit::flag("sparse", true), Edit::Step, Edit::cell("input", 0, "-1")]);
    check(&schema, "embedding bad id", &s, 0, &codegen::embedding(&s));
    let s: embedding::State = edited(&[Edit::Preset { id: "pretrained_5x4".into() }]);
    check(&schema, "embedding frozen", &s, 0, &codegen::embedding(&s));
    let s: one_hot::State = edited(&[Edit::cell("input", 0, "99")]);
    check(&schema, "one_hot bad id", &s, 0, &codegen::one_hot(&s));
    let s: rnn::State = edited(&[Edit::Preset { id: "rnn_2x3_bi_packed".into() }, Edit::cell("lengths", 0, "1")]);
    check(&schema, "rnn lengths not sorted", &s, 0, &codegen::rnn(&s));
    let s: rnn::State = edited(&[Edit::flag("h0", true), Edit::flag("h_n_in_loss", true), mse, Edit::Step]);
    check(&schema, "rnn h0 stepped", &s, 0, &codegen::rnn(&s));
    let s: train::State = edited(&[Edit::Run { steps: 5 }, Edit::Lr { text: ".5".into() }]);
    check(&schema, "train stepped, lr .5", &s, 3, &codegen::train(&s, 3));
    let s: train::State = edited(&[Edit::cell("ratings", 4, "6")]);
    check(&schema, "train bad movie", &s, 2, &codegen::train(&s, 2));
}

#[test]
fn the_schema_refuses_what_it_should() {
    let schema = schema();
    let good: Value = serde_json::from_str(&codegen::notebook(&linear::State::default(), "t", 0)).unwrap();
    assert!(schema.is_valid(&good));
    let mut no_id = good.clone();
    no_id["cells"][1].as_object_mut().unwrap().remove("id");
    assert!(!schema.is_valid(&no_id), "nbformat 4.5 cells need an id");
    let mut bad_id = good.clone();
    bad_id["cells"][1]["id"] = "no spaces allowed".into();
    assert!(!schema.is_valid(&bad_id));
    let mut no_outputs = good;
    no_outputs["cells"][2].as_object_mut().unwrap().remove("outputs");
    assert!(!schema.is_valid(&no_outputs), "a code cell has outputs");
}
