//! What every scene shares on screen, written once over the core's `Scene` contract: the model
//! of the scene on show (its saved state, the one computation of it, the pass and playhead the
//! learner is looking at), and the frame every scene has: the header with presets and sharing,
//! the learning controls, the timeline and the PyTorch panel. A scene adds its own diagram.

use crate::address;
use crate::code_panel::{CodePanel, Elsewhere, Written};
use crate::field::Field;
use crate::flow::{Flows, StepFlows};
use crate::grid::{Grad, GridData};
use crate::l10n;
use crate::learn_panel::LearnPanel;
use crate::lesson_panel::{LessonLinks, LessonPanel};
use crate::more::{self, Asked};
use crate::presets::Presets;
use crate::runner::Runner;
use crate::share_panel::SharePanel;
use crate::storage::use_scene;
use crate::timeline::Timeline;
use leptos::prelude::*;
use rowflow_core::codegen::{self, File};
use rowflow_core::lesson::{self, Lesson};
use rowflow_core::ops::loss::Loss;
use rowflow_core::say;
use rowflow_core::scene::contract::{Edit, Scene, View};
use rowflow_core::scene::learn::Learning;
use rowflow_core::scene::Issue;
use rowflow_core::{Marks, Phase, Span, Tensor};

/// A scene on screen. Data flows one way: an edit goes through `apply` to the state, the core
/// computes the view model once per state, and views read it.
pub struct SceneModel<S: Scene> {
    pub scene: crate::storage::Scene<S>,
    pub state: RwSignal<S>,
    /// `compute()` of the state: once per change, however many views read it.
    pub view: Memo<S::View>,
    pub pass: RwSignal<Phase>,
    pub playhead: RwSignal<usize>,
    /// The output cell the learner clicked, for the formula.
    pub focus: RwSignal<Option<Vec<usize>>>,
    /// What lights up at the playhead: once per step, not once per cell that asks.
    pub marks: Memo<Marks>,
    /// "Run N steps" as typed.
    pub run_n: RwSignal<String>,
    /// A run of N steps going on.
    pub runner: Runner<S>,
    /// The lesson playing and its step (0-based), if one is.
    pub lesson: RwSignal<Option<(Lesson, usize)>>,
}

impl<S: Scene> Clone for SceneModel<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Scene> Copy for SceneModel<S> {}

impl<S: Asked> SceneModel<S> {
    /// The scene restored from its save (or a link), and computed.
    pub fn new() -> Self {
        let scene = use_scene::<S>(leak(crate::storage::key(S::NAME)));
        let state = scene.state;
        // A new state is a new view model: comparing two would cost more than it saves.
        let view = Memo::new_with_compare(move |_| state.with(S::compute), |_, _| true);
        let pass = RwSignal::new(Phase::Forward);
        let playhead = RwSignal::new(0usize);
        let marks = Memo::new(move |_| view.with(|v| v.marks(pass.get(), playhead.get())));
        let (focus, run_n) = (RwSignal::new(None), RwSignal::new("20".to_string()));
        // A run left mid-way: its steps are written, and on show should the page come back.
        let keep = move |s: S| {
            scene.write_now(s.clone());
            state.try_set(s);
        };
        let (lesson, runner) = (RwSignal::new(None), Runner::new(state, keep));
        Self { scene, state, view, pass, playhead, focus, marks, run_n, runner, lesson }
    }

    /// Any edit, through the core, on a copy: a refused one changes nothing and says why. The
    /// learner's own edit during a lesson makes the scene theirs: the lesson is left first.
    pub fn apply(&self, edit: Edit) -> Result<(), String> {
        self.update(|s| s.apply(&edit))
    }

    /// A change the core makes that is not an `Edit` (a table drawn in a worker), the same way.
    /// A run of steps going on stops where it is, and the change follows its steps.
    pub fn update(&self, change: impl FnOnce(&mut S) -> Result<(), String>) -> Result<(), String> {
        self.leave_lesson();
        let ran = self.runner.stop(&t!("shell-run-stopped"));
        let mut s = ran.clone().unwrap_or_else(|| self.state.get_untracked());
        match change(&mut s) {
            Ok(()) => self.state.set(s),
            Err(e) => {
                if let Some(ran) = ran {
                    self.state.set(ran);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// "Run N steps": as many SGD steps, a slice of them per task (`Runner`).
    pub fn run(&self, steps: usize) -> Result<(), String> {
        self.leave_lesson();
        let state = self.state;
        self.runner.run(state.get_untracked(), steps, move |s| state.set(s))
    }

    /// Cancel on a run going on: the steps it took are kept.
    pub fn cancel_run(&self) {
        if let Some(s) = self.runner.stop(&t!("shell-run-cancelled")) {
            self.state.set(s);
        }
    }

    /// A grid's `on_edit`: typing into a cell of `tensor`.
    pub fn on_cell(&self, tensor: impl Into<String>) -> Callback<(usize, String), Result<(), String>> {
        let (model, tensor) = (*self, tensor.into());
        Callback::new(move |(index, text): (usize, String)| model.apply(Edit::cell(&tensor, index, &text)))
    }

    /// A grid's `on_paste`: a block into `tensor`.
    pub fn on_paste(&self, tensor: impl Into<String>) -> Callback<(usize, String), Result<(), String>> {
        let (model, tensor) = (*self, tensor.into());
        Callback::new(move |(index, text): (usize, String)| model.apply(Edit::paste(&tensor, index, &text)))
    }

    /// A setting's `on_commit`.
    pub fn on_field(&self, field: impl Into<String>) -> Callback<String, Result<(), String>> {
        let (model, field) = (*self, field.into());
        Callback::new(move |text: String| model.apply(Edit::Field { field: field.clone(), text }))
    }

    /// An option's checkbox.
    pub fn on_flag(&self, flag: &'static str) -> Callback<bool> {
        let model = *self;
        Callback::new(move |on: bool| {
            let _ = model.apply(Edit::flag(flag, on));
        })
    }

    /// A setting the learner types into, named as the scene's edits name it, showing `value`.
    pub fn field(&self, name: &'static str, value: fn(&S) -> String) -> impl IntoView {
        let state = self.state;
        view! { <Field label=name value=Signal::derive(move || state.with(value)) on_commit=self.on_field(name) /> }
    }

    /// The caption of the step at the playhead in the learner's language, said the longest way
    /// that fits the projector's two lines.
    pub fn describe(&self) -> Signal<String> {
        let (view, pass, playhead) = (self.view, self.pass, self.playhead);
        Signal::derive(move || view.with(|v| say::caption(&v.describe(pass.get(), playhead.get()), l10n::say)))
    }

    pub fn steps(&self) -> Signal<usize> {
        let (view, pass) = (self.view, self.pass);
        Signal::derive(move || view.with(|v| v.steps(pass.get())))
    }

    pub fn backward(&self) -> Memo<bool> {
        let pass = self.pass;
        Memo::new(move |_| pass.get() == Phase::Backward)
    }

    /// The `.grad` named `tensor` as its grid shows it: built so far while the backward pass
    /// plays (`Scene::grad_at`), else whole (`whole`, from the view model).
    pub fn grad(
        &self,
        tensor: impl Into<String>,
        whole: impl Fn(&S::View) -> Option<Tensor> + Send + Sync + 'static,
    ) -> Memo<Option<Tensor>> {
        let (state, view, pass, playhead, tensor) = (self.state, self.view, self.pass, self.playhead, tensor.into());
        Memo::new(move |_| {
            let built = match pass.get() {
                Phase::Backward => {
                    let k = playhead.get();
                    view.with(|v| state.with(|s| s.grad_at(v, &tensor, k)))
                }
                Phase::Forward => None,
            };
            built.or_else(|| view.with(&whole))
        })
    }

    /// The `.grad` named `tensor` for the grid of its tensor: under each number while the
    /// backward pass is on show, as built so far while it plays (`whole` reads it from the view
    /// model); `on_focus` hears a gradient cell focused or clicked.
    pub fn grad_of(
        &self,
        tensor: impl Into<String>,
        whole: impl Fn(&S::View) -> Option<Tensor> + Send + Sync + 'static,
        on_focus: Option<Callback<Vec<usize>>>,
    ) -> Grad {
        let name = tensor.into();
        let (g, backward) = (self.grad(name.clone(), whole), self.backward());
        let data = Memo::new(move |_| backward.get().then(|| g.with(|t| t.as_ref().map(GridData::floats))).flatten());
        Grad { name, data: data.into(), on_focus, dim: None }
    }

    /// An output grid's `on_focus`: the cell the formula explains.
    pub fn on_focus(&self) -> Callback<Vec<usize>> {
        let focus = self.focus;
        Callback::new(move |index: Vec<usize>| focus.set(Some(index)))
    }

    /// What the grids of the scene's tensors share, without the scene's type.
    fn editing(&self) -> Editing {
        let (model, view, state) = (*self, self.view, self.state);
        Editing {
            apply: Callback::new(move |edit: Edit| model.apply(edit)),
            marks: self.marks,
            issues: Memo::new(move |_| view.with(|v| v.issues().to_vec())),
            changed: Memo::new(move |_| state.with(|s| s.learning().changed.clone())),
        }
    }
}

impl<S: Asked> SceneModel<S> {
    /// Shows step `k` of `lesson`: its scene, pass, playhead and focus, and keeps the address
    /// on it so a reload or a copied link comes back here, and browser Back to the step before.
    /// Nothing is saved while it plays.
    pub fn play_lesson(&self, lesson: Lesson, k: usize) -> Result<(), String> {
        let step = lesson.steps.get(k).ok_or_else(|| t!("shell-no-such-step"))?.clone();
        let state = (more::loaded::<S>().ok_or_else(more::unloaded)?.scene_at)(&lesson, k)?;
        self.scene.held.set(true);
        self.state.set(state);
        self.pass.set(step.pass);
        self.playhead.set(step.playhead(self.view.with_untracked(|v| v.steps(step.pass))));
        self.focus.set(step.focus.clone());
        // A step of the lesson playing is a step of the tab's history; its first is not.
        let at = [("lesson", Some(lesson.id.clone())), ("step", Some((k + 1).to_string()))];
        match self.lesson.with_untracked(|l| l.as_ref().is_some_and(|(l, _)| l.id == lesson.id)) {
            true => address::push(&at),
            false => address::replace(&at),
        }
        self.lesson.set(Some((lesson, k)));
        Ok(())
    }

    /// Ends the lesson with the scene as it is, which becomes the learner's own (their saved
    /// work set aside first, to come back with "Back to my work").
    pub fn leave_lesson(&self) {
        if self.lesson.with_untracked(Option::is_some) {
            self.lesson.set(None);
            address::replace(&[("lesson", None), ("step", None)]);
            self.scene.keep("lesson");
        }
    }

    /// What the step on show says, its numbers read from the scene on show.
    pub fn lesson_says(&self) -> Signal<Option<String>> {
        let (lesson, state, view) = (self.lesson, self.state, self.view);
        Signal::derive(move || {
            lesson.with(|l| {
                let (lesson, k) = l.as_ref()?;
                let say = more::loaded::<S>()?.say;
                state.with(|s| view.with(|v| say(lesson, *k, s, v))).map(|said| l10n::say(&said))
            })
        })
    }

    /// The lesson a link asks for (`?lesson=id&step=n`), opened at that step (its part on
    /// demand came first); a link naming no lesson of this scene, or no step of it, says so.
    fn open_linked_lesson(&self) -> Option<String> {
        let id = address::param("lesson")?;
        let Some(lesson) = more::loaded::<S>().and_then(|m| (m.lesson)(&id)) else {
            address::replace(&[("lesson", None), ("step", None)]);
            return Some(t!("shell-link-no-lesson", characters = id.chars().count()));
        };
        let n = lesson.steps.len();
        let asked = address::param("step").map(|s| s.parse::<usize>().ok().filter(|k| (1..=n).contains(k)));
        let (k, note) = match asked {
            None => (0, None),
            Some(Some(k)) => (k - 1, None),
            Some(None) => (0, Some(t!("shell-link-no-step", steps = n))),
        };
        match self.play_lesson(lesson, k) {
            Ok(()) => note,
            Err(why) => Some(t!("shell-lesson-not-played", error = why)),
        }
    }
}

/// What a grid of one of the scene's own tensors needs of the scene, the same for every scene:
/// one copy of the grid code serves all five.
#[derive(Clone, Copy)]
pub struct Editing {
    pub apply: Callback<Edit, Result<(), String>>,
    pub marks: Memo<Marks>,
    pub issues: Memo<Vec<Issue>>,
    /// Per parameter, the cells the last SGD step moved.
    pub changed: Memo<Vec<(String, Vec<usize>)>>,
}

/// Storage keys live as long as the page.
fn leak(key: String) -> &'static str {
    Box::leak(key.into_boxed_str())
}

impl<S: Asked> SceneModel<S> {
    /// The scene's title with its presets and sharing. A preset replaces the scene and puts the
    /// view back at its start.
    pub fn header(&self, id: String, title: String) -> impl IntoView {
        let model = *self;
        let state = model.state;
        let pick = Callback::new(move |id: String| {
            if model.apply(Edit::Preset { id }).is_ok() {
                model.playhead.set(0);
                model.focus.set(None);
            }
        });
        let route = S::NAME.replace('_', "-");
        view! {
            <header class="scene-bar">
                <h1 id=id>{title}</h1>
                <Presets presets=S::PRESETS current=Signal::derive(move || state.with(|s| s.preset_id().to_string())) on_pick=pick />
                <LessonLinks route=route lessons={lesson::links::<S>()} />
                <SharePanel scene=model.scene />
            </header>
        }
    }

    /// The learning controls: the loss, lr, steps, undo and reset, all as edits.
    pub fn learn(&self) -> impl IntoView {
        let (model, state, view) = (*self, self.state, self.view);
        let learning = move |f: fn(&Learning) -> bool| Signal::derive(move || state.with(|s| f(s.learning())));
        view! {
            <LearnPanel
                apply=Callback::new(move |edit: Edit| model.apply(edit))
                run=Callback::new(move |steps: usize| model.run(steps))
                progress=model.runner.progress
                said=model.runner.said
                on_cancel=Callback::new(move |()| model.cancel_run())
                fixed_loss=S::FIXED_LOSS
                mse=learning(|l| matches!(l.loss, Loss::Mse { .. }))
                loss=Signal::derive(move || view.with(View::loss))
                lr=Signal::derive(move || state.with(|s| s.learning().lr.clone()))
                steps=Signal::derive(move || state.with(|s| s.learning().steps))
                can_undo=learning(|l| !l.history.is_empty())
                n=self.run_n
            />
        }
    }

    /// The timeline of the pass on show, with the caption of its current step.
    pub fn timeline(&self) -> impl IntoView {
        let lesson = self.lesson;
        let keys_taken = Signal::derive(move || lesson.with(Option::is_some));
        view! { <Timeline len=self.steps() playhead=self.playhead pass=self.pass describe=self.describe() keys_taken=keys_taken /> }
    }
}

/// The frame of a scene: its header, then the scene's own diagram and controls, then the
/// PyTorch panel. The model is in context for the components inside, and what every grid of
/// the scene's own tensors needs is there as [`Editing`].
#[component]
pub fn SceneShell<S: Asked>(
    model: SceneModel<S>,
    /// In the learner's language (`t!`).
    title: String,
    /// The section, for scenes that place things by their boxes.
    #[prop(optional)]
    node_ref: NodeRef<leptos::html::Section>,
    children: Children,
) -> impl IntoView {
    provide_context(model);
    provide_context(model.editing());
    let lesson = model.lesson;
    provide_context(Look(Memo::new(move |_| {
        lesson.with(|l| l.as_ref().map(|(l, k)| l.steps[*k].look()).unwrap_or_default())
    })));
    let note = model.open_linked_lesson();
    let go = Callback::new(move |k: usize| {
        if let Some((l, _)) = lesson.get_untracked() {
            let _ = model.play_lesson(l, k);
        }
    });
    // The script that reproduces the scene (Train's with as many steps as "Run N steps"): the
    // panel shows it, following every change, with a large literal left out; Copy code has it all,
    // written off the page where the scene can (`Elsewhere`) when the panel left numbers out. The
    // writing is in the scene's part on demand, asked for when the open panel first reads it.
    let steps = move || codegen::run_steps(&model.run_n.get());
    let part = RwSignal::new(more::loaded::<S>().map(Ok));
    let shown = Memo::new(move |_| {
        let steps = steps();
        match part.get() {
            Some(Ok(m)) => Ok(model.view.with(|view| model.state.with(|s| (m.script)(s, view, steps)))),
            Some(Err(())) => Err(t!("shell-script-unloaded", error = more::unloaded())),
            None => {
                leptos::task::spawn_local(async move {
                    part.try_set(Some(more::load::<S>().await.map_err(drop)));
                });
                Err(t!("shell-script-writing"))
            }
        }
    });
    let reopen = move |open: bool| {
        if open && part.get_untracked().is_some_and(|p| p.is_err()) {
            part.set(None);
        }
    };
    let elsewhere = use_context::<Elsewhere>();
    let write = move |file: File| {
        let steps = untrack(steps);
        match (elsewhere, part.get_untracked()) {
            (Some(Elsewhere(write)), _) if shown.with_untracked(|s| s.as_ref().is_ok_and(|s| s.left_out > 0)) => {
                write.run((file, steps))
            }
            (_, Some(Ok(m))) => Written::Now(
                model.view.with_untracked(|view| model.state.with_untracked(|s| (m.file)(&file, s, view, steps))),
            ),
            _ => model.written_later(file, steps),
        }
    };
    // Where the step on show sends its numbers, drawn over the scene.
    let flows = Memo::new(move |_| {
        let (pass, k) = (model.pass.get(), model.playhead.get());
        model.view.with(|v| {
            let step = v.trace(pass).and_then(|t| k.checked_sub(1).and_then(|i| t.steps.get(i)));
            step.map(|s| StepFlows {
                edges: s.flows().iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(),
                phase: Some(s.phase),
                weight: v.flow_weight(pass, k),
            })
            .unwrap_or_default()
        })
    });
    // `one_hot` → the class `one-hot` and the title's id `one-hot-title`, which names the section.
    let class = S::NAME.replace('_', "-");
    let id = format!("{class}-title");
    view! {
        <section class=format!("scene {class}{}", hidden_panels()) aria-labelledby=id.clone() node_ref=node_ref>
            <button type="button" class="skip-link" on:click=|_| focus_timeline()>{t!("shell-skip")}</button>
            {model.header(id.clone(), title.clone())}
            <LessonPanel
                lesson=lesson
                route=class.clone()
                says=model.lesson_says()
                note=note
                on_go=go
                on_leave=Callback::new(move |()| model.leave_lesson())
            />
            {children()}
            <Flows flows=flows section=node_ref />
            <CodePanel
                code=Signal::derive(move || shown.with(|s| s.as_ref().map_or_else(Clone::clone, |s| s.text())))
                on_open=Callback::new(reopen)
                copy=Callback::new(move |()| write(File::Script))
                notebook=Callback::new(move |()| (codegen::file_name::<S>(), write(File::Notebook { title: title.clone() })))
            />
        </section>
    }
}

impl<S: Asked> SceneModel<S> {
    /// `file` written once the scene's part on demand has come (Copy code or Download clicked
    /// before it did): the promise of its Blob, rejected by Cancel or if the part does not come.
    fn written_later(&self, file: File, steps: usize) -> Written {
        use wasm_bindgen::{JsCast, JsValue};
        let (mut resolve, mut reject) = (JsValue::UNDEFINED.unchecked_into(), JsValue::UNDEFINED.unchecked_into());
        let blob = js_sys::Promise::new(&mut |yes, no| (resolve, reject) = (yes, no));
        let refuse = StoredValue::new_local(reject.clone());
        let (view, state) = (self.view, self.state);
        let kind = match file {
            File::Script => "text/plain",
            File::Notebook { .. } => "application/json",
        };
        leptos::task::spawn_local(async move {
            let text = match more::load::<S>().await {
                Ok(m) => {
                    view.try_with_untracked(|v| state.try_with_untracked(|s| (m.file)(&file, s, v, steps))).flatten()
                }
                Err(more::Unloaded) => None,
            };
            let _ = match text.and_then(|text| crate::share_panel::utf8_blob(&text, kind)) {
                Some(blob) => resolve.call1(&JsValue::NULL, &blob),
                None => reject.call1(&JsValue::NULL, &more::unloaded().into()),
            };
        });
        let cancel = Callback::new(move |()| {
            let _ = refuse.with_value(|r| r.call1(&JsValue::NULL, &t!("shell-cancelled").into()));
        });
        Written::Later { blob, cancel }
    }
}

/// A keyboard's way past every grid to the timeline: its Play button takes the focus.
fn focus_timeline() {
    use wasm_bindgen::JsCast;
    let play = document().query_selector(".timeline .play").ok().flatten();
    if let Some(play) = play.and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = play.focus();
    }
}

/// The panels a class link hides (`?hide=code,settings,learn,share`), as the section's classes.
fn hidden_panels() -> String {
    let hide = address::param("hide").unwrap_or_default();
    let panels = hide.split(',').filter(|p| PANELS.iter().any(|(id, _)| id == p));
    panels.map(|p| format!(" hide-{p}")).collect()
}

/// A panel's name in the learner's language.
pub type Label = fn() -> String;

/// The panels a class link can hide, and what the share panel calls them.
pub const PANELS: &[(&str, Label)] = &[
    ("code", || t!("class-hide-code")),
    ("settings", || t!("class-hide-settings")),
    ("learn", || t!("class-hide-learn")),
    ("share", || t!("class-hide-share")),
];

/// What the lesson step on show asks the learner to look at; grids outline it.
#[derive(Clone, Copy)]
pub struct Look(pub Memo<Vec<Span>>);

/// The model of the scene around a component.
pub fn use_model<S: Asked>() -> SceneModel<S> {
    expect_context::<SceneModel<S>>()
}
