//! Guided lessons: a few steps over one scene that answer one learner's question. Each step sets
//! the scene (the same typed edits a learner makes, then the pass, the playhead and the focused
//! output cell), marks what to look at, and says it in a sentence or two. Lessons are data, each
//! scene's `lessons.json`. A caption names its numbers by where they are on screen
//! (`{output[0, 1]}`, `{weight.grad[2, 0]}`, `{loss}`) and is filled from the scene it describes,
//! so what it says is what the learner sees.

use crate::format::short;
use crate::scene::contract::{Edit, Scene, View};
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

    /// What the step says, each `{name[index]}` replaced by the number the scene shows there,
    /// printed as the grids print it.
    pub fn say<S: Scene>(&self, scene: &S, view: &S::View) -> Result<String, String> {
        let mut said = String::new();
        let mut rest = self.say.as_str();
        while let Some((before, after)) = rest.split_once('{') {
            let (name, after) = after.split_once('}').ok_or("a { without its }")?;
            let span: Span = name.parse()?;
            let x = value(scene, view, &span).ok_or_else(|| format!("{{{name}}} is no number on show"))?;
            said.push_str(before);
            said.push_str(&short(x));
            rest = after;
        }
        said.push_str(rest);
        Ok(said)
    }
}

/// The number at one cell a caption names: the loss, an output, a parameter or a `.grad`.
fn value<S: Scene>(scene: &S, view: &S::View, span: &Span) -> Option<f32> {
    let index: Vec<usize> = span.index.iter().copied().collect::<Option<_>>()?;
    if span.tensor == "loss" {
        return view.loss().filter(|_| index.is_empty());
    }
    if let Some(param) = span.tensor.strip_suffix(".grad") {
        let (_, grads) = scene.grads().ok()?;
        return grads.iter().find(|(n, _)| n == param)?.1.get(&index);
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
    fn a_caption_naming_nothing_on_show_is_refused() {
        let scene = State::default();
        let view = scene.compute();
        for bad in ["{output[99]}", "{nope[0]}", "{weight[1]}", "{output[3]", "{weight.grad[:, 1]}"] {
            assert!(step(bad).say(&scene, &view).is_err(), "{bad}");
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
