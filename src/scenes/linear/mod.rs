//! The Linear scene: `output = input @ weight.T + bias`, with `weight` stored `(out, in)`. The
//! forward animation lights one input row and one weight row, then the output cell they make;
//! the backward one sends each `output.grad` cell back into `weight.grad`, `bias.grad` and
//! `input.grad`, and SGD steps move the parameters.

use crate::field::Field;
use crate::flag::Flag;
use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::issue_list::IssueList;
use crate::param::Param;
use crate::seed_field::SeedField;
use crate::shell::{SceneModel, SceneShell};
use leptos::prelude::*;
use rowflow_core::ops::loss::Loss;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::linear::State;

/// The input layouts a learner can pick: (rank, label).
const RANKS: [(usize, fn() -> String); 3] =
    [(1, || t!("linear-rank-vector")), (2, || t!("linear-rank-batch")), (3, || t!("linear-rank-3d"))];

#[component]
pub fn LinearScene() -> impl IntoView {
    let model = SceneModel::<State>::new();
    let SceneModel { state, view: computed, pass, playhead, focus, marks, .. } = model;
    let transposed = RwSignal::new(false);
    let backward = model.backward();
    let lead = move |dim: usize| {
        let value =
            Signal::derive(move || state.with(|s| s.lead().get(dim).map(ToString::to_string).unwrap_or_default()));
        let field = format!("input.shape[{dim}]");
        view! { <Field label=field.clone() value=value on_commit=model.on_field(field) /> }
    };
    let reseed = Callback::new(move |seed: String| model.apply(Edit::Reinit { seed }));

    let weight = Memo::new(move |_| state.with(|s| GridData::floats(&s.weight)));
    // Only while it is on show.
    let weight_t = Memo::new(move |_| match transposed.get() {
        true => state.with(|s| s.weight_t().map(|t| GridData::floats(&t)).unwrap_or_default()),
        false => GridData::default(),
    });
    let bias = Memo::new(move |_| state.with(|s| GridData::floats(&s.bias)));
    let input = Memo::new(move |_| state.with(|s| GridData::floats(&s.input)));
    let stale = Memo::new(move |_| computed.with(|c| c.output.is_none()));
    // While PyTorch would raise, the last output that ran stays on screen.
    let output = Memo::new(move |last: Option<&GridData>| {
        computed.with(|c| c.output.as_ref().map(GridData::floats)).or_else(|| last.cloned()).unwrap_or_default()
    });
    let has_bias = Memo::new(move |_| state.with(|s| s.has_bias));
    let rank = Memo::new(move |_| state.with(|s| s.input.dim()));

    // The gradient cell the learner clicked, for its sum.
    let grad_focus = RwSignal::new(None::<(&'static str, Vec<usize>)>);
    let focus_on =
        |name: &'static str| Some(Callback::new(move |index: Vec<usize>| grad_focus.set(Some((name, index)))));
    // Each tensor's gradient under its numbers, in the backward pass.
    let weight_grad =
        model.grad_of("weight.grad", |c| c.grads.as_ref().map(|g| g.weight.clone()), focus_on("weight.grad"));
    let bias_grad =
        model.grad_of("bias.grad", |c| c.grads.as_ref().and_then(|g| g.bias.clone()), focus_on("bias.grad"));
    let input_grad = model.grad_of("input.grad", |c| c.grads.as_ref().map(|g| g.input.clone()), focus_on("input.grad"));
    let output_grad = model.grad_of("output.grad", |c| c.output_grad.clone(), focus_on("output.grad"));
    let mse = Memo::new(move |_| state.with(|s| matches!(s.learning.loss, Loss::Mse { .. })));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => GridData::floats(target),
            Loss::Sum => GridData::default(),
        })
    });
    let learn_panel = move || model.learn();
    // Forward: the focused output cell, else the cell the current step writes, else the first.
    // Backward: the gradient cell clicked, else the first of the weight.grad row the step
    // writes, else weight.grad[0, 0]: the sum backward makes there.
    let formula = Signal::derive(move || {
        computed.with(|c| {
            let step = playhead.get().checked_sub(1).and_then(|k| c.trace_of(pass.get()).steps.get(k));
            if backward.get() {
                let row = step
                    .and_then(|s| s.writes_to("weight.grad").next())
                    .and_then(|w| w.index.first().copied().flatten());
                let written = row.map(|i| ("weight.grad", vec![i, 0]));
                let cells = [grad_focus.get(), written, Some(("weight.grad", vec![0, 0]))];
                return cells.into_iter().flatten().find_map(|(tensor, index)| c.formula(tensor, &index));
            }
            let written = step.and_then(|s| s.writes.first()).map(|w| {
                let mut index: Vec<usize> = w.index.iter().map(|i| i.unwrap_or(0)).collect();
                index.resize(c.output.as_ref().map_or(0, |y| y.dim()), 0);
                index
            });
            let first = c.output.as_ref().map(|y| vec![0; y.dim()]);
            [focus.get(), written, first].into_iter().flatten().find_map(|index| c.formula("output", &index))
        })
    });

    view! {
        <SceneShell model=model title=t!("linear-title")>
            <p class="caption lede">{move || computed.with(|c| crate::l10n::say(&c.lede))}</p>
            <p class="lin-call">
                <code>{move || computed.with(|c| format!("linear = {}", c.module))}</code>
                // A note: a name on a plain span or p may be read instead of its text.
                <span class="shape-eq" role="note" aria-label=t!("linear-shape-equation")>
                    {move || computed.with(|c| c.shape_equation.clone())}
                </span>
            </p>

            <IssueList issues=Signal::derive(move || computed.with(|c| c.issues.clone())) />
            <div class="lin-pass">
                {move || backward.get().then(learn_panel)}
            </div>
            <div class="tensors lin-flow" class:batched=move || { rank.get() > 1 }>
                <div class="lin-column">
                    <Param name="input" data=input grad=input_grad />
                    {move || match transposed.get() {
                        false => view! { <Param name="weight" data=weight grad=weight_grad.clone() /> }.into_any(),
                        // weight.T's cells are not weight.grad's: its gradient shows with weight.
                        true => view! { <Param name="weight.T" data=weight_t /> }.into_any(),
                    }}
                    <p class="lin-note">
                        {move || computed.with(|c| crate::l10n::say(&c.weight_note))}
                        {move || transposed.get().then(|| format!(" {}", t!("linear-shown-transposed")))}
                    </p>
                    <Flag checked=transposed on_toggle=Callback::new(move |on| transposed.set(on))>
                        " "
                        {t!("linear-show-transposed")}
                    </Flag>
                </div>
                <div class="lin-column">
                    {move || match has_bias.get() {
                        true => view! { <Param name="bias" data=bias grad=bias_grad.clone() /> }.into_any(),
                        false => view! { <p class="lin-no-bias"><code>"bias=False"</code>{t!("linear-no-bias")}</p> }.into_any(),
                    }}
                    <div class="lin-output" class:stale=move || stale.get()>
                        <Grid name="output" data=output marks=marks on_focus=model.on_focus() grad=Some(output_grad) />
                        {move || stale.get().then(|| view! {
                            <p class="stale-note">{t!("linear-stale")}</p>
                        })}
                    </div>
                    {move || (backward.get() && mse.get()).then(|| view! {
                        <Param name="target" data=target />
                    })}
                </div>
            </div>

            <div class="lin-formula">
                <h2>{t!("linear-formula-heading")}</h2>
                <FormulaView formula=formula />
                <p class="hint">{t!("linear-formula-hint")}</p>
            </div>

            <div class="lin-controls scene-settings">
                <fieldset>
                    <legend>{t!("linear-layer-legend")}</legend>
                    {model.field("in_features", |s| s.in_features().to_string())}
                    {model.field("out_features", |s| s.out_features().to_string())}
                    <Flag checked=has_bias on_toggle=model.on_flag("bias")>" bias"</Flag>
                    <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone().unwrap_or_else(|| "0".into()))) />
                </fieldset>
                <fieldset>
                    <legend>{t!("linear-input-legend")}</legend>
                    <div class="lin-ranks" role="radiogroup" aria-label=t!("linear-input-layout")>
                        {RANKS
                            .map(|(r, text)| {
                                view! {
                                    <label class="flag">
                                        <input
                                            type="radio"
                                            name="linear-rank"
                                            prop:checked=move || rank.get() == r
                                            on:change=move |_| {
                                                let _ = model.apply(Edit::field("input.dim", &r.to_string()));
                                            }
                                        />
                                        " "
                                        {text()}
                                    </label>
                                }
                            })
                            .collect_view()}
                    </div>
                    {move || (0..rank.get().saturating_sub(1)).map(lead).collect_view()}
                </fieldset>
            </div>

            {model.timeline()}
        </SceneShell>
    }
}
