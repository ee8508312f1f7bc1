//! The RNN scene: what comes out of `nn.RNN`. The unrolled diagram shows every cell of every
//! layer and direction; `output` (the top layer's `h_t` at every step) and `h_n` (each layer's and
//! direction's last state) sit beside it with captions saying which is which, and the parameters
//! under them, beside the cells that use them: going backward, a step's gradient runs from the
//! box it starts in to the parameters it adds into on one screen.

mod cells;
mod inputs;
mod params;
mod settings;

use crate::flag::Flag;
use crate::formula::FormulaView;
use crate::grid::{Grad, Grid, GridData};
use crate::param::Param;
use crate::shell::{SceneModel, SceneShell};
use cells::{GradNorms, Unrolled};
use inputs::Inputs;
use leptos::prelude::*;
use params::Params;
use rowflow_core::ops::loss::Loss;
use rowflow_core::ops::rnn::Nonlinearity;
use rowflow_core::scene::rnn::{Computed, State};
use rowflow_core::trace::Span;
use rowflow_core::{Marks, Phase};
use settings::Settings;

/// `<name>.grad` under the numbers of its tensor's grid, going backward; a gradient cell focused
/// or clicked shows its formula (`focus`).
fn grad_in(model: SceneModel<State>, name: &str, focus: RwSignal<Option<(String, Vec<usize>)>>) -> Option<Grad> {
    let key = name.to_string();
    let grad = format!("{name}.grad");
    Some(model.grad_of(grad.clone(), move |c| c.grad(&key).cloned(), Some(focus_cell(focus, grad))))
}

/// A grid's `on_focus`: its clicked cell, named by `tensor`, is the one the formula explains.
fn focus_cell(focus: RwSignal<Option<(String, Vec<usize>)>>, tensor: impl Into<String>) -> Callback<Vec<usize>> {
    let tensor = tensor.into();
    Callback::new(move |index: Vec<usize>| focus.set(Some((tensor.clone(), index))))
}

/// The problems with `tensor` that no cell of it can show.
fn notes(model: SceneModel<State>, tensor: &'static str) -> impl Fn() -> AnyView + Send + Sync + 'static {
    move || {
        let notes = model.view.with(|c| c.notes(tensor));
        notes.into_iter().map(|m| view! { <p class="issue" role="alert">{m}</p> }).collect_view().into_any()
    }
}

#[component]
pub fn RnnScene() -> impl IntoView {
    let model = SceneModel::<State>::new();
    let SceneModel { state, view: computed, pass, playhead, marks, .. } = model;
    let backward = model.backward();
    let sequence = RwSignal::new(0usize);
    let focus = RwSignal::new(None::<(String, Vec<usize>)>);
    // A new preset starts from its first sequence.
    Effect::watch(move || state.with(|s| s.preset.clone()), move |_, _, _| sequence.set(0), false);
    // Stepping, going the other way (or picking a preset) shows the step's own formula again.
    Effect::new(move |_| {
        playhead.track();
        pass.track();
        focus.set(None);
    });

    let c = move |f: fn(&Computed) -> String| Signal::derive(move || computed.with(f));
    // Once per computation, however many parts of the diagram read it.
    let run = Memo::new(move |_| computed.with(|c| c.run.clone()));
    // The diagram's boxes hold values, not gradients: going backward, a box lights where its
    // `.grad` is read or written.
    let diagram_marks = Signal::derive(move || {
        let m = marks.get();
        if m.phase != Some(Phase::Backward) {
            return m;
        }
        let strip = |spans: Vec<Span>| -> Vec<Span> {
            let grads = spans.into_iter().filter_map(|s| {
                let t = s.tensor.strip_suffix(".grad")?.to_string();
                Some(Span { tensor: t, index: s.index })
            });
            grads.collect()
        };
        Marks { read: strip(m.read), write: strip(m.write), done: strip(m.done), phase: m.phase }
    });
    let formula = Signal::derive(move || {
        computed.with(|c| {
            let run = c.run.as_ref()?;
            match (focus.get(), pass.get()) {
                (Some((tensor, index)), _) => c.formula(&tensor, &index),
                (None, Phase::Forward) => run.step_formula(playhead.get(), sequence.get()),
                (None, Phase::Backward) => c.backward_formula(playhead.get(), sequence.get()),
            }
        })
    });
    // Backward: the loss and SGD.
    let mse = Memo::new(move |_| state.with(|s| matches!(s.learning.loss, Loss::Mse { .. })));
    let h_n_in_loss = Memo::new(move |_| state.with(|s| s.h_n_in_loss));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => GridData::floats(target),
            Loss::Sum => GridData::default(),
        })
    });
    // Shown in both passes, as the loss is part of forward: going backward does not move the page.
    let learn_panel = view! {
        {model.learn()}
        <div class="rnn-loss-note">
            <Flag checked=h_n_in_loss on_toggle=model.on_flag("h_n_in_loss")>
                " " {t!("rnn-loss-add")} <code>"h_n.sum()"</code> {t!("rnn-loss-add-end")}
            </Flag>
        </div>
        {move || backward.get().then(|| computed.with(|c| c.backward_issue.clone())).flatten().map(|m| view! { <p class="issue" role="alert">{m}</p> })}
    };
    // Where backward starts: each output's gradient under its numbers, and what it is (with
    // `h_n.sum()` in the loss or not).
    let output_grad = model.grad_of("output.grad", |c| c.backward.as_ref().map(|b| b.upstream.clone()), None);
    let h_n_grad = model.grad_of("h_n.grad", |c| c.backward.as_ref().map(|b| b.upstream_h_n.clone()), None);
    let upstream_note = move |caption: fn(bool) -> String| {
        move || {
            backward.get().then(|| view! { <p class="caption grad-caption">{move || caption(h_n_in_loss.get())}</p> })
        }
    };
    let io_grads = Memo::new(move |_| {
        computed.with(|c| (c.grad("input").cloned(), c.backward.as_ref().map(|b| b.upstream.clone())))
    });
    let norms =
        Signal::derive(move || computed.with(|c| c.backward.as_ref().map(|b| b.norms.clone()).unwrap_or_default()));
    let stale = Signal::derive(move || computed.with(|c| c.stale));
    let output =
        Memo::new(move |_| computed.with(|c| c.run.as_ref().map(|r| GridData::floats(&r.output)).unwrap_or_default()));
    let h_n =
        Memo::new(move |_| computed.with(|c| c.run.as_ref().map(|r| GridData::floats(&r.h_n)).unwrap_or_default()));
    let relu = Memo::new(move |_| state.with(|s| s.model.config.nonlinearity == Nonlinearity::Relu));

    view! {
        <SceneShell model=model title=t!("rnn-title")>
            <p class="rnn-call">
                <code>{move || computed.with(|c| format!("rnn = {}", c.module))}</code>
                " " {t!("rnn-every-cell")} " "
                <code class="rnn-rule">{c(|c| c.rule.clone())}</code>
            </p>
            // A note: a name on a plain span or p may be read instead of its text.
            <p class="shape-eq" role="note" aria-label=t!("rnn-shapes")>{c(|c| c.shape_equation.clone())}</p>

            <Settings />
            {notes(model, "config")}
            <div class="rnn-pass">{learn_panel}</div>

            <div class="rnn-main" class:backward=move || backward.get()>
                // The gradient's size along the chain, under the chain: the right column (output,
                // h_n and the parameters, with their gradients) is the taller one.
                <div class="rnn-left">
                <Unrolled
                    run=run
                    note=Signal::derive(move || computed.with(|c| c.packing_caption.as_ref().map(crate::l10n::say)))
                    grads=io_grads
                    sequence=sequence
                    marks=diagram_marks
                    on_cell=Callback::new(move |(layer, direction, t)| {
                        if let Some(step) = computed.with_untracked(|c| c.step_of(pass.get_untracked(), layer, direction, t)) {
                            playhead.set(step + 1);
                        }
                    })
                    on_pick=Callback::new(move |p| focus.set(Some(p)))
                />
                {move || backward.get().then(|| view! { <GradNorms norms=norms /> })}
                </div>
                <div class="rnn-results">
                    <div class="rnn-out" class:stale=stale>
                        <Grid name="output" data=output marks=marks on_focus=focus_cell(focus, "output") grad=Some(output_grad) />
                        <p class="caption">{c(|c| crate::l10n::say(&c.output_caption))}</p>
                        {upstream_note(|_| t!("rnn-output-grad-note"))}
                    </div>
                    {move || (backward.get() && mse.get()).then(|| view! {
                        <div class="rnn-out">
                            <Param name="target" data=target />
                            <p class="caption">{t!("rnn-target-note")}</p>
                        </div>
                    })}
                    <div class="rnn-out" class:stale=stale>
                        <Grid name="h_n" data=h_n marks=marks on_focus=focus_cell(focus, "h_n") grad=Some(h_n_grad) />
                        <p class="caption">{c(|c| crate::l10n::say(&c.h_n_caption))}</p>
                        {upstream_note(|in_loss| match in_loss {
                            true => t!("rnn-h-n-grad-in-loss"),
                            false => t!("rnn-h-n-grad-not-in-loss"),
                        })}
                    </div>
                    {move || stale.get().then(|| view! {
                        <p class="rnn-stale" role="status">
                            {t!("rnn-stale")}
                        </p>
                    })}
                    <Params focus=focus />
                </div>
            </div>
            // What goes in, with how the focused number is made beside it.
            <Inputs focus=focus>
                <FormulaView formula=formula />
                {move || (backward.get() && formula.with(Option::is_some)).then(|| view! {
                    <p class="rnn-hint">
                        {move || match relu.get() {
                            true => t!("rnn-da-relu"),
                            false => t!("rnn-da-tanh"),
                        }}
                    </p>
                })}
                {move || formula.with(Option::is_none).then(|| view! {
                    <p class="rnn-hint">{t!("rnn-formula-hint")}</p>
                })}
            </Inputs>
            {model.timeline()}
        </SceneShell>
    }
}
