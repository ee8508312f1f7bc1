//! Guided lessons: a few steps over one scene that answer one learner's question. Each step sets
//! the scene (the same typed edits a learner makes, then the pass, the playhead and the focused
//! output cell), marks what to look at, and says it in a sentence or two. Lessons are data, each
//! scene's `lessons.json`. A caption names its numbers by where they are on screen
//! (`{output[0, 1]}`, `{weight.grad[2, 0]}`, `{loss}`) and its facts by name (`{module}`,
//! `{input.shape}`, `{loss_fn}`, `{lr}`, `{padding_idx}`), and is filled from the scene it
//! describes, at the step's pass and playhead, so what it says is what the learner sees.

use crate::format::{full, short};
use crate::ops::loss::Loss;
use crate::say::{Arg, Say};
use crate::scene::contract::{Edit, Scene, View};
use crate::tensor::py_shape;
use crate::trace::{Phase, Span};
use serde::Deserialize;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its name in a link: `#/embedding?lesson=lookup`.
    pub id: String,
    pub title: String,
    /// The question it answers, as learners ask it.
    pub question: String,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Applied after every earlier step's: a lesson starts from a preset.
    #[serde(default)]
    pub edits: Vec<Edit>,
    #[serde(default)]
    pub pass: Phase,
    #[serde(default)]
    pub playhead: Playhead,
    /// The output cell whose formula is shown.
    #[serde(default)]
    pub focus: Option<Vec<usize>>,
    /// What to look at: tensors or parts of them, as `weight[2]` or `output[0, 3]`.
    #[serde(default)]
    pub look: Vec<String>,
    /// One or two plain sentences, with `{tensor[index]}` for a number on screen.
    pub say: String,
}

/// How far into its pass a step plays: `3`, or `"end"`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playhead {
    At(usize),
    Named(End),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum End {
    End,
}

/// Read by hand: as an untagged enum it would bring serde's buffering of any value, code that
/// every scene's link downloads.
impl<'de> Deserialize<'de> for Playhead {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct StepOrEnd;
        impl serde::de::Visitor<'_> for StepOrEnd {
            type Value = Playhead;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(r#"a step number or "end""#)
            }
            fn visit_u64<E: serde::de::Error>(self, k: u64) -> Result<Playhead, E> {
                let k = usize::try_from(k).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(k), &self))?;
                Ok(Playhead::At(k))
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Playhead, E> {
                match text {
                    "end" => Ok(Playhead::Named(End::End)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(text), &self)),
                }
            }
        }
        d.deserialize_any(StepOrEnd)
    }
}

impl Default for Playhead {
    fn default() -> Self {
        Playhead::At(0)
    }
}

// `LINKS`: each scene's name and its lessons' (id, title), from build.rs.
include!(concat!(env!("OUT_DIR"), "/lesson_links.rs"));

/// A scene's lessons as (id, title), read from its `lessons.json` when the core is built: its
/// links, without reading the lessons whole.
pub fn links<S: Scene>() -> &'static [(&'static str, &'static str)] {
    LINKS.iter().find(|(scene, _)| *scene == S::NAME).map_or(&[], |(_, links)| links)
}

/// The message of lesson `lesson` of the scene at `route` (`one-hot`): its title; `-question`
/// and `-step-<k>` (from 1) after it name its question and its steps' words (l10n/<lang>/, whose
/// English tools/l10n.mjs writes from `lessons.json`).
pub fn message(route: &str, lesson: &str) -> String {
    format!("lesson-{route}-{lesson}")
}

/// The lessons of a scene (its `lessons.json`, which the tests read whole).
pub fn of<S: Scene>() -> Vec<Lesson> {
    serde_json::from_str(S::LESSONS).unwrap_or_default()
}

/// The lesson of a scene that a link names.
pub fn find<S: Scene>(id: &str) -> Option<Lesson> {
    of::<S>().into_iter().find(|l| l.id == id)
}

impl Lesson {
    /// The scene at step `k` (0-based): every edit up to it, in order, on the scene's default.
    pub fn scene_at<S: Scene>(&self, k: usize) -> Result<S, String> {
        let mut scene = S::default();
        for (i, step) in self.steps.iter().take(k + 1).enumerate() {
            for edit in &step.edits {
                scene.apply(edit).map_err(|why| format!("step {}: {why}", i + 1))?;
            }
        }
        Ok(scene)
    }

    /// Everything a lesson must be to be played: 5 to 12 steps from a preset, each step's edits
    /// taken, its playhead inside its pass, its focus a cell of the output, what it looks at
    /// written as tensors, and every number it names one the scene shows.
    pub fn check<S: Scene>(&self) -> Result<(), String> {
        if !(5..=12).contains(&self.steps.len()) {
            return Err(format!("{} steps; a lesson has 5 to 12", self.steps.len()));
        }
        if !matches!(self.steps[0].edits.first(), Some(Edit::Preset { .. })) {
            return Err("its first step does not start from a preset".into());
        }
        for (k, step) in self.steps.iter().enumerate() {
            let at = |why: String| format!("step {}: {why}", k + 1);
            let scene = self.scene_at::<S>(k)?;
            let view = scene.compute();
            if let Playhead::At(p) = step.playhead {
                let n = view.steps(step.pass);
                if p > n {
                    return Err(at(format!("playhead {p} is past the {n} steps of its pass")));
                }
            }
            if let Some(cell) = &step.focus {
                let shape = scene.output_shape();
                if cell.len() != shape.len() || cell.iter().zip(&shape).any(|(i, n)| i >= n) {
                    return Err(at(format!("focus {cell:?} is not a cell of the output {shape:?}")));
                }
            }
            for look in &step.look {
                look.parse::<Span>().map_err(at)?;
            }
            step.say(&scene, &view).map_err(at)?;
            step.shows_what_it_says(view.trace(step.pass)).map_err(at)?;
        }
        Ok(())
    }
}

/// `(3, 2, 2)`, `nn.Linear(6, 10)`, `padding_idx=1`: a fact written into a caption by hand, which a
/// change of the scene would leave saying something else.
fn written_fact(text: &str) -> Option<&str> {
    let tuple = text.match_indices('(').find_map(|(i, _)| {
        let inside = &text[i + 1..i + text[i..].find(')')?];
        let numbers = inside.split(',').map(str::trim).filter(|p| !p.is_empty());
        (!inside.is_empty() && numbers.clone().all(|p| p.parse::<usize>().is_ok())).then_some(&text[i..])
    });
    let call = text.match_indices("nn.").find_map(|(i, _)| {
        let name = text[i..].find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_'))?;
        text[i + name..].starts_with('(').then_some(&text[i..])
    });
    let named = ["padding_idx=", "batch_first=", "nonlinearity=", "lr="];
    tuple.or(call).or_else(|| named.iter().find_map(|n| text.find(n).map(|i| &text[i..])))
}

impl Step {
    /// What the step outlines is what its words name, and the other way round; the cell its
    /// playhead lights is one the words quote; and its facts are read from the scene.
    fn shows_what_it_says(&self, trace: Option<&crate::trace::Trace>) -> Result<(), String> {
        let looks = self.look();
        if let Some(look) = looks.iter().find(|l| !self.say.contains(&l.tensor)) {
            return Err(format!("it outlines {look}, which its words do not name"));
        }
        let quoted = self.quoted();
        for q in &quoted {
            let index: Vec<usize> = q.index.iter().map(|i| i.unwrap_or(0)).collect();
            if !looks.iter().any(|l| l.contains(&q.tensor, &index)) {
                return Err(format!("its words quote {q}, which it does not outline"));
            }
        }
        if let Some(fact) = written_fact(&self.say) {
            return Err(format!("its words write a fact by hand: {fact:?}; name it in braces"));
        }
        let Some(trace) = trace else { return Ok(()) };
        let k = self.playhead(trace.len());
        // The quoted cells the pass writes (one no step writes, a row never looked up, is as it was).
        let writes = |step: &crate::trace::Step, (q, i): &(&Span, Vec<usize>)| {
            step.writes.iter().any(|w| w.contains(&q.tensor, i))
        };
        let cells: Vec<(&Span, Vec<usize>)> = quoted
            .iter()
            .map(|q| (q, q.index.iter().map(|i| i.unwrap_or(0)).collect()))
            .filter(|cell| trace.steps.iter().any(|s| writes(s, cell)))
            .collect();
        if cells.is_empty() {
            return Ok(());
        }
        let Some(current) = k.checked_sub(1).and_then(|k| trace.steps.get(k)) else {
            return Err("it quotes a cell the pass writes, but its playhead is before the pass".into());
        };
        if !cells.iter().any(|c| writes(current, c)) {
            return Err(format!("its playhead ({k}) lights none of the cells it quotes"));
        }
        for cell in &cells {
            if !trace.steps[..k].iter().any(|s| writes(s, cell)) {
                return Err(format!("it quotes {} before the pass writes it", cell.0));
            }
        }
        Ok(())
    }
}

impl Step {
    /// The playhead in a pass of `steps` steps.
    pub fn playhead(&self, steps: usize) -> usize {
        match self.playhead {
            Playhead::At(k) => k.min(steps),
            Playhead::Named(End::End) => steps,
        }
    }

    pub fn look(&self) -> Vec<Span> {
        self.look.iter().filter_map(|text| text.parse().ok()).collect()
    }

    /// What the step says in English (its `say`), each `{name[index]}` replaced by the number the
    /// scene shows there at the step's playhead, printed as the grids print it, and each
    /// `{fact}` by its text.
    pub fn say<S: Scene>(&self, scene: &S, view: &S::View) -> Result<String, String> {
        let mut said = String::new();
        let mut rest = self.say.as_str();
        let mut filled = self.filled(scene, view)?.into_iter();
        while let Some((before, after)) = rest.split_once('{') {
            let (_, after) = after.split_once('}').ok_or("a { without its }")?;
            said.push_str(before);
            said.push_str(&filled.next().map(|(_, text)| text).unwrap_or_default());
            rest = after;
        }
        said.push_str(rest);
        Ok(said)
    }

    /// What the step says as message `id` of the learner's language (`say`'s words, each
    /// `{name}` a variable: [`variable`]), with the same numbers and facts.
    pub fn said<S: Scene>(&self, id: String, scene: &S, view: &S::View) -> Result<Say, String> {
        let args = self.filled(scene, view)?.into_iter().map(|(name, text)| (variable(&name).into(), Arg::Text(text)));
        Ok(Say::new(id, args.collect()))
    }

    /// Each `{name}` of the words, in order, with the text it is filled with.
    fn filled<S: Scene>(&self, scene: &S, view: &S::View) -> Result<Vec<(String, String)>, String> {
        let at = self.playhead(view.steps(self.pass));
        let mut out = Vec::new();
        for part in self.say.split('{').skip(1) {
            let (name, _) = part.split_once('}').ok_or("a { without its }")?;
            // `{x:full}`: every digit, as a focused cell shows it (1e-5 prints as 0.0000).
            let (cell, digits) = match name.strip_suffix(":full") {
                Some(cell) => (cell, full as fn(f32) -> String),
                None => (name, short as fn(f32) -> String),
            };
            let text = match fact(scene, view, name) {
                Some(text) => text,
                None => {
                    let span: Span = cell.parse()?;
                    let x = value(scene, view, &span, (self.pass, at))
                        .ok_or_else(|| format!("{{{name}}} is no number on show"))?;
                    digits(x)
                }
            };
            out.push((name.to_string(), text));
        }
        Ok(out)
    }

    /// The cells the step's words quote, by where they are on screen.
    pub fn quoted(&self) -> Vec<Span> {
        let names = self.say.split('{').skip(1).filter_map(|p| p.split_once('}').map(|(name, _)| name));
        let cells = names.map(|n| n.strip_suffix(":full").unwrap_or(n));
        cells.filter(|n| n.contains('[')).filter_map(|n| n.parse().ok()).collect()
    }
}

/// The message variable of a step's `{name}`: every run of characters other than letters, digits
/// and `_` one `_`, none at the ends (`output[0, 1]` → `output_0_1`, `emb(input)[0, 0]:full` →
/// `emb_input_0_0_full`); tools/l10n.mjs writes English's lesson messages so.
pub fn variable(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        match c.is_ascii_alphanumeric() || c == '_' {
            true => out.push(c),
            false if !out.ends_with('_') => out.push('_'),
            false => {}
        }
    }
    out.trim_matches('_').to_string()
}

/// A fact a caption names, as the scene's controls and code show it: the scene's own
/// (`module`, `padding_idx`, `batch_first`, …), then every scene's (`lr`, `loss_fn`, the
/// shapes of the output and the parameters).
fn fact<S: Scene>(scene: &S, view: &S::View, name: &str) -> Option<String> {
    if let Some(text) = scene.fact(view, name) {
        return Some(text);
    }
    let learning = scene.learning();
    match name {
        "lr" => Some(learning.lr.clone()),
        "loss_fn" => Some(match (S::FIXED_LOSS, &learning.loss) {
            (Some(fixed), _) => fixed.to_string(),
            (None, Loss::Sum) => "output.sum()".into(),
            (None, Loss::Mse { .. }) => "F.mse_loss(output, target)".into(),
        }),
        "output.shape" => Some(py_shape(&scene.output_shape())),
        _ => {
            let param = name.strip_suffix(".shape")?;
            let mut own = scene.clone();
            let shape = own.params().1.into_iter().find(|(n, _)| *n == param)?.1.shape().to_vec();
            Some(py_shape(&shape))
        }
    }
}

/// The number at one cell a caption names: the loss, an output, a parameter, the mse target or
/// a `.grad` as the grids show it at the step's pass and playhead (`at`).
fn value<S: Scene>(scene: &S, view: &S::View, span: &Span, at: (Phase, usize)) -> Option<f32> {
    let index: Vec<usize> = span.index.iter().copied().collect::<Option<_>>()?;
    if span.tensor == "loss" {
        return view.loss().filter(|_| index.is_empty());
    }
    if span.tensor == "target" {
        let Loss::Mse { target } = &scene.learning().loss else { return None };
        return target.get(&index);
    }
    if let Some(param) = span.tensor.strip_suffix(".grad") {
        let built = (at.0 == Phase::Backward).then(|| scene.grad_at(view, &span.tensor, at.1)).flatten();
        if let Some(g) = built {
            return g.get(&index);
        }
        let grads = scene.grads().map(|(_, grads)| grads).unwrap_or_default();
        if let Some((_, g)) = grads.iter().find(|(n, _)| n == param) {
            return g.get(&index);
        }
    }
    if let Some(f) = view.formula(&span.tensor, &index) {
        return Some(f.value);
    }
    let mut own = scene.clone();
    let (_, params) = own.params();
    params.into_iter().find(|(n, _)| *n == span.tensor)?.1.get(&index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::linear::State;

    fn step(say: &str) -> Step {
        serde_json::from_str(&format!(r#"{{"say": {say:?}}}"#)).unwrap()
    }

    #[test]
    fn captions_print_the_numbers_on_show() {
        let scene = State::default();
        let view = scene.compute();
        let out = view.formula("output", &[3]).unwrap().value;
        let said = step("output[3] is {output[3]}.").say(&scene, &view).unwrap();
        assert_eq!(said, format!("output[3] is {}.", short(out)));
        let w = scene.weight.get(&[1, 2]).unwrap();
        assert_eq!(step("{weight[1, 2]}").say(&scene, &view).unwrap(), short(w));
        let (loss, grads) = scene.grads().unwrap();
        assert_eq!(step("{loss}").say(&scene, &view).unwrap(), short(loss));
        let g = grads[0].1.get(&[0, 0]).unwrap();
        assert_eq!(step("{weight.grad[0, 0]}").say(&scene, &view).unwrap(), short(g));
    }

    #[test]
    fn in_another_language_a_step_gives_its_numbers_as_variables() {
        assert_eq!(variable("output[0, 1]"), "output_0_1");
        assert_eq!(variable("emb(input)[0, 0]:full"), "emb_input_0_0_full");
        assert_eq!(variable("weight.grad[2, 0]"), "weight_grad_2_0");
        let scene = State::default();
        let view = scene.compute();
        let out = short(view.formula("output", &[3]).unwrap().value);
        let said =
            step("output[3] is {output[3]}, of {module}.").said("lesson-x-step-1".into(), &scene, &view).unwrap();
        assert_eq!(said.id, "lesson-x-step-1");
        let module = scene.fact(&view, "module").unwrap();
        assert_eq!(said.args, vec![("output_3".into(), Arg::Text(out)), ("module".into(), Arg::Text(module))]);
    }

    #[test]
    fn a_caption_naming_nothing_on_show_is_refused() {
        let scene = State::default();
        let view = scene.compute();
        for bad in ["{output[99]}", "{nope[0]}", "{weight[1]}", "{output[3]", "{weight.grad[:, 1]}"] {
            assert!(step(bad).say(&scene, &view).is_err(), "{bad}");
        }
    }

    #[test]
    fn captions_name_facts_and_every_digit() {
        let scene = State::preset("batch_6_to_10").unwrap();
        let view = scene.compute();
        let said = step("{module}: {input.shape} → {output.shape}, {weight.shape}, lr {lr}, {loss_fn}.");
        assert_eq!(
            said.say(&scene, &view).unwrap(),
            "nn.Linear(6, 10): (2, 6) → (2, 10), (10, 6), lr 0.1, output.sum()."
        );
        let x = view.formula("output", &[1, 0]).unwrap().value;
        assert_eq!(step("{output[1, 0]:full}").say(&scene, &view).unwrap(), full(x));
        assert!(step("{nope.shape}").say(&scene, &view).is_err());
    }

    /// A backward step quotes a gradient as the grids show it at its playhead: a repeated id's
    /// row of weight.grad holds 1 after the first lookup, 2 after the second.
    #[test]
    fn a_backward_step_quotes_the_gradient_built_so_far() {
        use crate::scene::embedding;
        let scene = embedding::State::preset("padding_10x3").unwrap();
        let view = scene.compute();
        let at = |k: usize| {
            let s: Step = serde_json::from_str(&format!(
                r#"{{"pass": "Backward", "playhead": {k}, "say": "{{weight.grad[2, 0]}}"}}"#
            ))
            .unwrap();
            s.say(&scene, &view).unwrap()
        };
        assert_eq!([at(0), at(1), at(3), at(4), at(5)], ["2.0000", "1.0000", "1.0000", "2.0000", "2.0000"]);
    }

    #[test]
    fn a_step_outlines_what_it_says_and_lights_what_it_quotes() {
        let scene = State::default();
        let view = scene.compute();
        let check = |json: &str| {
            let s: Step = serde_json::from_str(json).unwrap();
            s.shows_what_it_says(view.trace(s.pass))
        };
        assert!(check(r#"{"playhead": 4, "look": ["output[3]"], "say": "output[3] = {output[3]}"}"#).is_ok());
        let errs = [
            (r#"{"playhead": 4, "look": ["output[3]", "bias"], "say": "output[3] = {output[3]}"}"#, "outlines bias"),
            (r#"{"playhead": 4, "look": ["weight"], "say": "output[3] of weight = {output[3]}"}"#, "does not outline"),
            (
                r#"{"playhead": 2, "look": ["output"], "say": "output[1] is {output[1]}, output[3] {output[3]}"}"#,
                "before the pass",
            ),
            (r#"{"playhead": 5, "look": ["output"], "say": "output[3] = {output[3]}"}"#, "lights none"),
            (r#"{"look": ["output"], "say": "output is (10,)"}"#, "by hand"),
            (r#"{"look": ["output"], "say": "nn.Linear(6, 10) makes output"}"#, "by hand"),
        ];
        for (json, why) in errs {
            assert!(check(json).unwrap_err().contains(why), "{json}: {why}");
        }
    }

    #[test]
    fn playheads_are_a_number_or_the_end() {
        let at: Step = serde_json::from_str(r#"{"say": "", "playhead": 3}"#).unwrap();
        let end: Step = serde_json::from_str(r#"{"say": "", "playhead": "end"}"#).unwrap();
        assert_eq!((at.playhead(10), at.playhead(2), end.playhead(10)), (3, 2, 10));
        assert!(serde_json::from_str::<Step>(r#"{"say": "", "playhead": "middle"}"#).is_err());
        assert!(serde_json::from_str::<Step>(r#"{"say": "", "pause": 1}"#).is_err());
    }
}
