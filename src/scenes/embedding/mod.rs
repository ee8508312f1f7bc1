//! The Embedding scene: each id picks one row of `weight`, and that row is copied to the output.
//! The forward animation lights the row an id selects and flies a copy of it to its place in
//! the output; backward lists where each `output.grad` row adds into `weight.grad`.

mod flight;
mod grads;
mod settings;

use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::param::Param;
use crate::shell::{SceneModel, SceneShell};
use flight::Flight;
use grads::{GradFlow, OutputGrad, WeightGrad};
use leptos::prelude::*;
use rowflow_core::scene::embedding::State;
use settings::Settings;

/// At most this many `output[k] ← weight[id]` lines are listed; the rest are counted.
const LISTED: usize = 48;

/// "done", "current" or "" for list item `i` (0-based) at playhead `k` (1-based).
fn progress(i: usize, k: usize) -> &'static str {
    match (i + 1).cmp(&k) {
        std::cmp::Ordering::Less => "done",
        std::cmp::Ordering::Equal => "current",
        std::cmp::Ordering::Greater => "",
    }
}

#[component]
pub fn EmbeddingScene() -> impl IntoView {
    let model = SceneModel::<State>::new();
    let SceneModel { state, view: computed, playhead, focus, marks, .. } = model;
    let backward = model.backward();
    let weight = Memo::new(move |_| state.with(|s| GridData::floats(&s.weight)));
    let input = Memo::new(move |_| state.with(|s| GridData::ids(&s.input)));
    let output = Memo::new(move |_| computed.with(|c| GridData::floats(&c.output)));
    let stale = Memo::new(move |_| computed.with(|c| c.stale));
    // The focused output cell, else the first number of the row being copied right now;
    // backward, the weight.grad cell clicked, else the sum that makes the row being added into
    // (or the first one).
    let grad_focus = RwSignal::new(None::<Vec<usize>>);
    let formula = Signal::derive(move || {
        computed.with(|c| {
            if backward.get() {
                let k = playhead.get().saturating_sub(1);
                let row = c.back_picks.get(k).or(c.back_picks.first()).map(|(p, _)| vec![p.row, 0]);
                return [grad_focus.get(), row].into_iter().flatten().find_map(|at| c.formula("weight.grad", &at));
            }
            let current =
                playhead.get().checked_sub(1).and_then(|k| c.picks.get(k)).map(|p| [&p.at[..], &[0]].concat());
            focus.get().or(current).and_then(|index| c.formula("output", &index))
        })
    });

    // The gradients under the numbers, in the backward pass (a table too large for cells shows
    // its own, `WeightGrad`).
    let on_grad = Callback::new(move |at| grad_focus.set(Some(at)));
    let weight_grad = model.grad_of("weight.grad", |c| c.grads.as_ref().and_then(|g| g.weight.clone()), Some(on_grad));
    let output_grad = model.grad_of("output.grad", |c| c.upstream.clone(), None);

    let scene = NodeRef::<leptos::html::Section>::new();
    let flight = RwSignal::new(None::<Flight>);
    Effect::new(move |_| {
        let k = playhead.get();
        let v = state.with_untracked(State::num_embeddings);
        let plan = if backward.get() { Flight::plan_back } else { Flight::plan };
        let next = scene.get().and_then(|el| computed.with_untracked(|c| plan(&el, c, k, v)));
        flight.update(|f| *f = next.map(|n| n.after(f.as_ref())));
    });

    let picks = move || {
        computed.with(|c| {
            let k = if backward.get() { 0 } else { playhead.get() };
            let shown = c.picks.iter().take(LISTED).enumerate();
            let shown = shown.map(|(i, p)| view! { <li class=progress(i, k)>{p.arrow()}</li> });
            let more = c.picks.len().saturating_sub(LISTED);
            let more = (more > 0).then(|| view! { <li class="more">{t!("embedding-more", more = more)}</li> });
            let none = c.stale.then(|| view! { <li>{t!("embedding-no-picks")}</li> });
            view! { {shown.collect_view()} {more} {none} }
        })
    };
    let captions = move || {
        computed.with(|c| c.captions[1..].iter().map(|t| view! { <li>{crate::l10n::say(t)}</li> }).collect_view())
    };

    view! {
        <SceneShell model=model title=t!("embedding-title") node_ref=scene>
            <p class="lede">{move || computed.with(|c| crate::l10n::say(&c.captions[0]))}</p>
            <p class="call">
                <code>{move || computed.with(|c| format!("emb = {}", c.module))}</code>
                <span class="shape-equation">{move || computed.with(|c| c.shape_equation.clone())}</span>
            </p>

            <div class="tensors emb-flow">
                <Param name="input" data=input />
                <Param name="weight" data=weight grad=weight_grad />
                {move || backward.get().then(|| view! { <WeightGrad on_focus=on_grad /> })}
                <div class="emb-output" class:stale=stale>
                    <Grid name="output" data=output marks=marks on_focus=model.on_focus() grad=Some(output_grad) />
                    {move || stale.get().then(|| view! {
                        <p class="stale-note">
                            {t!("embedding-stale")}
                        </p>
                    })}
                </div>
                {move || backward.get().then(|| view! { <OutputGrad /> })}
            </div>
            {move || flight.get().map(Flight::view)}

            <div class="emb-explain">
                // Going backward, where each row's gradient goes takes the place of the rows selected.
                {move || match backward.get() {
                    false => view! {
                        <div>
                            <h2>{t!("embedding-rows-selected")}</h2>
                            <ol class="picks" aria-label=t!("embedding-rows-selected")>{picks}</ol>
                        </div>
                    }
                    .into_any(),
                    true => view! { <GradFlow /> }.into_any(),
                }}
                <div>
                    <h2>{t!("embedding-formula-heading")}</h2>
                    <FormulaView formula=formula />
                    {move || formula.with(Option::is_none).then(|| view! {
                        <p class="hint">
                            {t!("embedding-formula-hint")}
                        </p>
                    })}
                </div>
            </div>
            // The lookup's notes; going backward, the gradient's list above says its part.
            {move || (!backward.get()).then(|| view! { <ul class="captions">{captions}</ul> })}

            <Settings />
            <div class="emb-pass">
                {move || backward.get().then(|| model.learn())}
            </div>
            {model.timeline()}
        </SceneShell>
    }
}
