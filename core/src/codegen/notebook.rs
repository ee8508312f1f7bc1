//! A scene as a Jupyter notebook: the PyTorch panel's script cut at its sections into code cells,
//! each after a markdown cell that says what it does in the scene's own words (its view model's
//! notes and the captions of its timelines). Run top to bottom, the cells print the numbers on
//! the page. nbformat 4.5, which `core/tests/notebook.rs` checks against the official schema.

use super::{Numbers, Script, Section};
use crate::ops::loss::Loss;
use crate::scene::contract::{Scene, View};
use crate::scene::{embedding, linear, one_hot, rnn, train, word2vec};
use crate::trace::Phase;
use serde_json::{json, Value};

/// A scene whose PyTorch panel makes a notebook.
pub trait Notebook: Scene {
    /// What the scene says of this state besides its timelines, as plain text: the notebook
    /// opens with it.
    fn intro(view: &Self::View) -> Vec<String>;
    /// What the scene says beside the tensors a section computes, as plain text.
    fn notes(_view: &Self::View, _section: Section) -> Vec<String> {
        Vec::new()
    }
    /// The scene's script, from this state and its `view`; `steps` is how many SGD steps
    /// Train's runs (the others take none).
    fn script(&self, view: &Self::View, steps: usize, numbers: Numbers) -> Script;
}

/// A timeline this long or shorter has every step's caption in the notebook; a longer one its
/// first [`HEAD`] and its last.
const LISTED: usize = 12;
const HEAD: usize = 5;

/// The notebook (`.ipynb` JSON) of the scene in `state`, under the page's `title`; `steps` as for
/// [`Notebook::script`].
pub fn notebook<S: Notebook>(state: &S, title: &str, steps: usize) -> String {
    notebook_of(state, &state.compute(), title, steps)
}

/// [`notebook`] from the `view` of `state` computed already: the page has it, and computing it
/// again at real scale is a pass of its own.
pub fn notebook_of<S: Notebook>(state: &S, view: &S::View, title: &str, steps: usize) -> String {
    let script = state.script(view, steps, Numbers::All);
    let mut cells = vec![markdown("intro", &opening(state, view, title, &script))];
    for (section, code) in &script.sections {
        let name = match section {
            Section::Build => "build",
            Section::Forward => "forward",
            Section::Backward => "backward",
            Section::Sgd => "sgd",
            Section::Task => "task",
        };
        let mut words = about(state, view, *section, steps);
        words.extend(S::notes(view, *section).iter().map(|n| paragraph(n)));
        cells.push(markdown(&format!("{name}-md"), &words.join("\n\n")));
        cells.push(json!({
            "cell_type": "code",
            "execution_count": null,
            "id": name,
            "metadata": {},
            "outputs": [],
            "source": lines(code),
        }));
    }
    let notebook = json!({
        "cells": cells,
        "metadata": {
            "kernelspec": { "display_name": "Python 3", "language": "python", "name": "python3" },
            "language_info": { "name": "python" },
            "rowflow": { "scene": S::NAME, "preset": state.preset_id(), "steps": steps },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    });
    format!("{notebook:#}\n")
}

/// The name a scene's notebook downloads as: `rowflow-one-hot.ipynb`.
pub fn file_name<S: Scene>() -> String {
    format!("rowflow-{}.ipynb", S::NAME.replace('_', "-"))
}

/// The title, where the numbers come from, the promise that they are the page's, the scene's
/// intro and PyTorch's error if it raises.
fn opening<S: Notebook>(state: &S, view: &S::View, title: &str, script: &Script) -> String {
    let route = S::NAME.replace('_', "-");
    let label = S::PRESETS.iter().find(|(id, _)| *id == state.preset_id()).map(|(_, label)| plain(label));
    let taken = state.learning().steps;
    let from = match label {
        Some(label) if S::preset(state.preset_id()).as_ref() == Some(state) => {
            format!("the preset “{label}” as it loads")
        }
        Some(label) => format!("the preset “{label}”, changed since (edits, a new seed or SGD steps)"),
        None => "the learner's own numbers (no preset)".into(),
    };
    let taken = match taken {
        0 => String::new(),
        1 => ", after 1 SGD step".into(),
        n => format!(", after {n} SGD steps"),
    };
    let mut parts = vec![
        format!("# {}", plain(title)),
        format!(
            "The PyTorch panel of rowflow's `#/{route}` scene on {from}{taken}. Run the cells from top to \
             bottom with PyTorch: they build the very tensors on the page and print the numbers the page \
             shows, computed by PyTorch itself."
        ),
    ];
    parts.extend(S::intro(view).iter().map(|t| paragraph(t)));
    if let Some(e) = &script.raises {
        parts.push(format!(
            "**PyTorch raises on this state:** {}. The page shows the same error, and the cell that runs \
             into it stops there.",
            plain(e.trim_end_matches('.'))
        ));
    }
    parts.join("\n\n")
}

/// What a section does, with the captions of the timeline it runs.
fn about<S: Scene>(state: &S, view: &S::View, section: Section, steps: usize) -> Vec<String> {
    match section {
        Section::Build => vec![
            "## Build".into(),
            "The modules and inputs with the numbers on the page: `torch.manual_seed` and the constructor \
             where they give those very bits, else the numbers written out so that float32 reads them back \
             exactly."
                .into(),
        ],
        Section::Forward => [vec!["## Forward".into()], timeline(view, Phase::Forward)].concat(),
        Section::Backward => {
            let loss = match (&state.learning().loss, S::FIXED_LOSS) {
                (_, Some(fixed)) => format!("`{fixed}`"),
                (Loss::Sum, None) => "`output.sum()`".into(),
                (Loss::Mse { .. }, None) => "`F.mse_loss(output, target)` against the target on the page".into(),
            };
            let value = view.loss().map(|l| format!(" The page shows loss = {}.", crate::format::short(l)));
            let what = format!(
                "The loss is {loss}, then `loss.backward()`: the cell prints the loss and every `.grad` on the \
                 page.{}",
                value.unwrap_or_default()
            );
            [vec!["## Loss and backward".into(), what], timeline(view, Phase::Backward)].concat()
        }
        Section::Sgd => {
            let lr = plain(&state.learning().lr);
            let what = format!(
                "“Run {steps} steps” on the page, in PyTorch: {steps} more steps of `torch.optim.SGD` \
                 (lr = {lr}) from the numbers above. Each runs forward, the loss and backward, then \
                 `opt.step()` moves every parameter by −lr × its `.grad`; it prints each step's loss, the \
                 first being the loss above."
            );
            vec!["## Run N steps".into(), what]
        }
        Section::Task => vec![
            "## The same vocabulary, trained by a task".into(),
            "A sentence classifier: the mean of a sentence's rows of an `nn.Embedding`, then `nn.Linear(D, 1)` \
             and `F.binary_cross_entropy_with_logits` against its label. It starts from a random table, from \
             word2vec's `in_embed` frozen, and from it fine-tuned, each with the same `fc`, and prints each \
             start's loss after its SGD steps: the page's three curves end there."
                .into(),
        ],
    }
}

/// What the scene says of a pass, then its timeline's captions as the page shows them: every
/// step of a short one, the first few and the last of a long one.
fn timeline<V: View>(view: &V, phase: Phase) -> Vec<String> {
    let mut out = Vec::new();
    let said = |k: usize| crate::say::caption(&view.describe(phase, k), crate::say::write);
    let overview = said(0);
    if !overview.trim().is_empty() {
        out.push(format!("> {}", paragraph(&overview)));
    }
    let n = view.steps(phase);
    if n == 0 {
        return out;
    }
    let pass = match phase {
        Phase::Forward => "forward",
        Phase::Backward => "backward",
    };
    out.push(format!("The page's timeline of the {pass} pass:"));
    let shown: Vec<usize> = if n <= LISTED { (1..=n).collect() } else { (1..=HEAD).chain([n]).collect() };
    let mut list = Vec::new();
    for (i, &k) in shown.iter().enumerate() {
        if i > 0 && k > shown[i - 1] + 1 {
            list.push(format!("- … (steps {} to {})", shown[i - 1] + 1, k - 1));
        }
        list.push(format!("- Step {k} of {n}: {}", plain(&said(k))));
    }
    out.push(list.join("\n"));
    out
}

/// A markdown cell.
fn markdown(id: &str, text: &str) -> Value {
    json!({ "cell_type": "markdown", "id": id, "metadata": {}, "source": lines(text) })
}

/// A cell's `source` as nbformat writes it: its lines, each but the last ending in `\n`.
fn lines(text: &str) -> Vec<&str> {
    text.strip_suffix('\n').unwrap_or(text).split_inclusive('\n').collect()
}

/// Text as markdown that shows it as it is, on one line: what markdown, HTML or Jupyter's math
/// would read in it (`*`, `_`, `[`, `<`, `&`, `$`, ...) escaped, since a link's text can reach a
/// caption.
fn plain(text: &str) -> String {
    let mut out = String::new();
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            if "\\`*_[]<>|~$&#".contains(c) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// [`plain`] text at the start of a line, where `- `, `+ ` or `1. ` would start a list.
fn paragraph(text: &str) -> String {
    let p = plain(text);
    let digits = p.bytes().take_while(u8::is_ascii_digit).count();
    let at = if p.starts_with(['-', '+']) {
        0
    } else if digits > 0 && p[digits..].starts_with(['.', ')']) {
        digits
    } else {
        return p;
    };
    format!("{}\\{}", &p[..at], &p[at..])
}

impl Notebook for linear::State {
    fn intro(v: &linear::Computed) -> Vec<String> {
        vec![
            crate::say::write(&v.lede),
            format!("linear = {}: {}", v.module, v.shape_equation),
            crate::say::write(&v.weight_note),
        ]
    }

    fn script(&self, view: &Self::View, _steps: usize, numbers: Numbers) -> Script {
        super::linear::sections(self, view, numbers)
    }
}

impl Notebook for embedding::State {
    fn intro(v: &embedding::Computed) -> Vec<String> {
        [vec![format!("emb = {}: {}", v.module, v.shape_equation)], v.captions.iter().map(crate::say::write).collect()]
            .concat()
    }

    fn script(&self, view: &Self::View, _steps: usize, numbers: Numbers) -> Script {
        super::embedding::sections(self, view, numbers)
    }
}

impl Notebook for one_hot::State {
    fn intro(v: &one_hot::Computed) -> Vec<String> {
        vec![v.shape_equation.clone()]
    }

    fn notes(v: &one_hot::Computed, section: Section) -> Vec<String> {
        match (section, &v.pass, &v.backward) {
            (Section::Forward, Some(pass), _) => {
                let notes = [vec![pass.cost_caption(), pass.verdict_line()], pass.stale_note().into_iter().collect()];
                notes.concat().iter().map(crate::say::write).collect()
            }
            (Section::Backward, _, Some(backward)) => {
                let (linear, lookup) = backward.count_captions();
                vec![crate::say::write(&lookup), crate::say::write(&linear)]
            }
            _ => Vec::new(),
        }
    }

    fn script(&self, view: &Self::View, _steps: usize, numbers: Numbers) -> Script {
        super::one_hot::sections(self, view, numbers)
    }
}

impl Notebook for rnn::State {
    fn intro(v: &rnn::Computed) -> Vec<String> {
        let mut out = vec![format!("rnn = {}: every cell computes {}", v.module, v.rule), v.shape_equation.clone()];
        out.extend(v.packing_caption.as_ref().map(crate::say::write));
        out
    }

    fn notes(v: &rnn::Computed, section: Section) -> Vec<String> {
        match section {
            Section::Forward => vec![crate::say::write(&v.output_caption), crate::say::write(&v.h_n_caption)],
            Section::Backward => v.backward_issue.iter().cloned().collect(),
            _ => Vec::new(),
        }
    }

    fn script(&self, view: &Self::View, _steps: usize, numbers: Numbers) -> Script {
        super::rnn::sections(self, view, numbers)
    }
}

impl Notebook for word2vec::State {
    fn intro(v: &word2vec::Computed) -> Vec<String> {
        [vec![v.shape_equation.clone()], v.captions.iter().map(crate::say::write).collect()].concat()
    }

    fn script(&self, view: &Self::View, _steps: usize, numbers: Numbers) -> Script {
        super::word2vec::sections(self, view, numbers)
    }
}

impl Notebook for train::State {
    fn intro(v: &train::Computed) -> Vec<String> {
        [vec![v.shape_equation.clone()], v.captions.iter().map(crate::say::write).collect()].concat()
    }

    fn script(&self, view: &Self::View, steps: usize, numbers: Numbers) -> Script {
        super::train::sections(self, view, steps, numbers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::contract::Edit;

    fn cells(nb: &str) -> Vec<Value> {
        let v: Value = serde_json::from_str(nb).unwrap();
        v["cells"].as_array().unwrap().clone()
    }

    fn source(cell: &Value) -> String {
        cell["source"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect()
    }

    /// The code cells, a blank line between each, are the panel's script.
    fn code_is_the_script<S: Notebook>(s: &S, steps: usize, panel: &str) {
        let nb = notebook(s, "A title", steps);
        let code: Vec<String> = cells(&nb).iter().filter(|c| c["cell_type"] == "code").map(source).collect();
        assert_eq!(code.join("\n\n") + "\n", panel, "{}", S::NAME);
    }

    #[test]
    fn every_preset_cuts_its_script_into_cells() {
        for (id, _) in linear::State::PRESETS {
            let s = linear::State::preset(id).unwrap();
            code_is_the_script(&s, 0, &crate::codegen::linear(&s));
        }
        for (id, _) in embedding::State::PRESETS {
            let s = embedding::State::preset(id).unwrap();
            code_is_the_script(&s, 0, &crate::codegen::embedding(&s));
        }
        for (id, _) in one_hot::State::PRESETS {
            let s = one_hot::State::preset(id).unwrap();
            code_is_the_script(&s, 0, &crate::codegen::one_hot(&s));
        }
        for (id, _) in rnn::State::PRESETS {
            let s = rnn::State::preset(id).unwrap();
            code_is_the_script(&s, 0, &crate::codegen::rnn(&s));
        }
        for (id, _) in train::State::PRESETS {
            let s = train::State::preset(id).unwrap();
            code_is_the_script(&s, 3, &crate::codegen::train(&s, 3));
        }
    }

    #[test]
    fn sections_come_in_the_order_they_run() {
        fn script<S: Notebook + Default>(steps: usize) -> Script {
            let s = S::default();
            s.script(&s.compute(), steps, Numbers::All)
        }
        let order = |script: Script| script.sections.iter().map(|(s, _)| *s).collect::<Vec<_>>();
        use Section::*;
        assert_eq!(order(script::<linear::State>(0)), [Build, Forward, Backward]);
        assert_eq!(order(script::<rnn::State>(0)), [Build, Forward, Backward]);
        assert_eq!(order(script::<train::State>(5)), [Build, Forward, Backward, Sgd]);
        let build = &script::<linear::State>(0).sections[0].1;
        assert!(build.starts_with("import torch\n") && build.contains("nn.Linear(6, 10)"), "{build}");
        let forward = &script::<linear::State>(0).sections[1].1;
        assert!(forward.starts_with("output = linear(x)"), "{forward}");
        let sgd = &script::<train::State>(5).sections[3].1;
        assert!(sgd.contains("losses = []\nfor step in range(5):"), "{sgd}");
    }

    #[test]
    fn markdown_says_where_the_numbers_come_from_in_the_scenes_words() {
        let s = embedding::State::preset("padding_10x3").unwrap();
        let nb = notebook(&s, "nn.Embedding is a lookup", 0);
        let md: Vec<String> = cells(&nb).iter().filter(|c| c["cell_type"] == "markdown").map(source).collect();
        assert!(md[0].starts_with("# nn.Embedding is a lookup\n\n"), "{}", md[0]);
        assert!(md[0].contains(
            "`#/embedding` scene on the preset “nn.Embedding(10, 3, padding\\_idx=1), ids (2, 4)” as it loads"
        ));
        assert!(md[0].contains("print the numbers the page shows"));
        let v = s.compute();
        let said = |phase, k| crate::say::caption(&View::describe(&v, phase, k), crate::say::write);
        assert!(md[2].starts_with("## Forward"), "{}", md[2]);
        assert!(md[2].contains(&paragraph(&said(Phase::Forward, 0))));
        assert!(md[2].contains(&format!("- Step 8 of 8: {}", plain(&said(Phase::Forward, 8)))));
        assert!(md[3].starts_with("## Loss and backward"), "{}", md[3]);
        assert!(md[3].contains("The loss is `output.sum()`"));
        assert!(md[3].contains(&paragraph(&said(Phase::Backward, 0))), "{}", md[3]);
        let mut stepped = s.clone();
        stepped.apply(&Edit::Step).unwrap();
        let md = source(&cells(&notebook(&stepped, "t", 0))[0]);
        assert!(md.contains("changed since (edits, a new seed or SGD steps), after 1 SGD step."), "{md}");
    }

    #[test]
    fn a_long_timeline_lists_its_first_steps_and_its_last() {
        let s = linear::State::preset("batch_6_to_10").unwrap();
        let forward = source(&cells(&notebook(&s, "t", 0))[3]);
        assert!(forward.contains("The page's timeline of the forward pass:"), "{forward}");
        assert!(forward.contains("- Step 5 of 20: ") && !forward.contains("- Step 6 of 20: "), "{forward}");
        assert!(forward.contains("- … (steps 6 to 19)\n- Step 20 of 20: output\\[1, 9\\]"), "{forward}");
    }

    #[test]
    fn train_prints_the_page_then_runs_n_steps_apart() {
        let nb = notebook(&train::State::default(), "Training", 7);
        let md: Vec<String> = cells(&nb).iter().filter(|c| c["cell_type"] == "markdown").map(source).collect();
        assert!(md[2].starts_with("## Forward") && md[2].contains("timeline of the forward pass"), "{}", md[2]);
        assert!(md[3].starts_with("## Loss and backward") && md[3].contains("timeline of the backward pass"));
        assert!(
            md[4].starts_with(
                "## Run N steps\n\n“Run 7 steps” on the page, in PyTorch: 7 more steps of `torch.optim.SGD` (lr = 0.1)"
            ),
            "{}",
            md[4]
        );
        let v: Value = serde_json::from_str(&nb).unwrap();
        assert_eq!(v["metadata"]["rowflow"], json!({ "scene": "train", "preset": "tiny_factors2", "steps": 7 }));
    }

    #[test]
    fn pytorchs_error_is_said_before_the_cells() {
        let mut s = embedding::State::default();
        s.apply(&Edit::cell("input", 0, "99")).unwrap();
        let intro = source(&cells(&notebook(&s, "t", 0))[0]);
        assert!(intro.contains("**PyTorch raises on this state:** IndexError: index out of range in self."), "{intro}");
    }

    #[test]
    fn cell_ids_are_unique_and_sources_are_lines() {
        let nb = notebook(&rnn::State::default(), "t", 0);
        let cells = cells(&nb);
        let ids: Vec<&str> = cells.iter().map(|c| c["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["intro", "build-md", "build", "forward-md", "forward", "backward-md", "backward"]);
        for c in &cells {
            let lines = c["source"].as_array().unwrap();
            let (last, rest) = lines.split_last().unwrap();
            assert!(
                rest.iter().all(|l| l.as_str().unwrap().ends_with('\n')) && !last.as_str().unwrap().ends_with('\n')
            );
        }
        assert_eq!(file_name::<one_hot::State>(), "rowflow-one-hot.ipynb");
    }

    #[test]
    fn text_stays_text_in_markdown() {
        assert_eq!(plain("a <b>x</b> & [y](z) *w* $m$ `c`"), r"a \<b\>x\</b\> \& \[y\](z) \*w\* \$m\$ \`c\`");
        assert_eq!(plain("# no heading\nnor line"), r"\# no heading nor line");
        assert_eq!(paragraph("- no list"), r"\- no list");
        assert_eq!(paragraph("12. no list, 3. here"), r"12\. no list, 3. here");
        assert_eq!(paragraph("12 is no list"), "12 is no list");
        assert_eq!(plain("lr 0.1"), "lr 0.1");
        assert_eq!(plain("dL/dh_t = a − b"), r"dL/dh\_t = a − b");
    }
}
