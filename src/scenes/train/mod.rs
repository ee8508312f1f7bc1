//! The Train scene: the fastai `DotProduct` recommender learning from a tiny ratings table by SGD.
//! The learner steps once or many times and watches the loss curve fall, the rated rows move
//! (and only them), the factors drift on a scatter plot, and the gradient flow back on the
//! timeline. The shell gives it its header, learning controls, timeline and PyTorch panel.

mod charts;

use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::issue_list::IssueList;
use crate::param::Param;
use crate::seed_field::SeedField;
use crate::shell::{SceneModel, SceneShell};
use charts::{LossCurve, Scatter};
use leptos::prelude::*;
use rowflow_core::format::{full, short};
use rowflow_core::ops::find;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::train::{Computed, State};
use rowflow_core::{Phase, Tensor};

const USERS: &str = "user_factors.weight";
const MOVIES: &str = "movie_factors.weight";

#[component]
pub fn TrainScene() -> impl IntoView {
    let model = SceneModel::<State>::new();
    let SceneModel { state, view: computed, pass, playhead, focus, marks, .. } = model;
    let users = Memo::new(move |_| state.with(|s| GridData::floats(&s.user_factors)));
    let movies = Memo::new(move |_| state.with(|s| GridData::floats(&s.movie_factors)));
    let ratings = Memo::new(move |_| state.with(ratings_data));
    let output = Memo::new(move |_| computed.with(|c| GridData::floats(&c.output)));
    // Each table's gradient, and the predictions', under their numbers going backward.
    let user_grad = model.grad_of("user_factors.weight.grad", |c| find(&c.grads, USERS).cloned(), None);
    let movie_grad = model.grad_of("movie_factors.weight.grad", |c| find(&c.grads, MOVIES).cloned(), None);
    let output_grad = model.grad_of("output.grad", |c| Some(c.output_grad.clone()).filter(|g| g.numel() > 0), None);
    let stale = Memo::new(move |_| computed.with(|c| c.stale));
    let factors = Memo::new(move |_| state.with(State::n_factors));
    // Cells of the rows the last step changed, and a fade on the rows no rating uses.
    let changed = move |rows: fn(&Computed) -> &Vec<usize>| {
        Memo::new(move |_| {
            let f = factors.get();
            computed.with(|c| rows(c).iter().flat_map(|&r| r * f..(r + 1) * f).collect::<Vec<_>>())
        })
    };
    let unused = move |rows: fn(&Computed) -> &Vec<usize>| {
        Callback::new(move |index: Vec<usize>| {
            computed.with_untracked(|c| index.first().is_some_and(|r| !rows(c).contains(r)))
        })
    };
    // Backward: the sum that makes the user's gradient row the step adds into (or the first's).
    let formula = Signal::derive(move || {
        computed.with(|c| {
            if pass.get() == Phase::Backward {
                let step = playhead.get().checked_sub(1).and_then(|k| c.backward.steps.get(k));
                let written = step.or(c.backward.steps.first()).and_then(|s| s.writes.first());
                let user = written.and_then(|w| w.index.first().copied().flatten())?;
                return c.formula(&format!("{USERS}.grad"), &[user, 0]);
            }
            let current = (pass.get() == Phase::Forward)
                .then(|| playhead.get().checked_sub(1).filter(|&k| k < c.forward.len()).map(|k| vec![k]))
                .flatten();
            focus.get().or(current).and_then(|index| c.formula("output", &index))
        })
    });
    let loss_text = move || {
        computed.with(|c| match c.loss {
            Some(l) => t!("train-loss", loss = short(l)),
            None => t!("train-no-loss"),
        })
    };
    let captions =
        move || computed.with(|c| c.captions.iter().map(|t| view! { <li>{crate::l10n::say(t)}</li> }).collect_view());
    let reseed = Callback::new(move |seed: String| model.apply(Edit::Reinit { seed }));

    view! {
        <SceneShell
            model=model
            title=t!("train-title")
        >
            <p class="lede">
                {t!("train-lede-rows")}
                " "
                <code>"torch.manual_seed(S)"</code>
                {t!("train-lede-sgd")}
                " "
                <code>"param -= lr * param.grad"</code>
                {t!("train-lede-moved")}
            </p>
            <p class="call">
                <code>"pred = (user_factors(x[:, 0]) * movie_factors(x[:, 1])).sum(1)"</code>
                <span class="shape-equation">{move || computed.with(|c| c.shape_equation.clone())}</span>
            </p>
            <IssueList issues=Signal::derive(move || computed.with(|c| c.issues.clone())) />

            <div class="train-main">
                <div class="train-left">
                    <div class="train-controls controls">{model.learn()}</div>
                    <div class="train-controls controls scene-settings">
                        <fieldset>
                            <legend>{t!("train-model-legend")}</legend>
                            {model.field("n_users", |s| s.n_users().to_string())}
                            {model.field("n_movies", |s| s.n_movies().to_string())}
                            {model.field("n_factors", |s| s.n_factors().to_string())}
                            {model.field("ratings", |s| s.ratings.len().to_string())}
                            <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone())) />
                        </fieldset>
                    </div>

                    <div class="tensors train-flow">
                        <Param name="ratings" data=ratings />
                        <Param name=USERS data=users changed=changed(|c| &c.changed_users) dim=unused(|c| &c.touched_users) grad=user_grad />
                        <Param name=MOVIES data=movies changed=changed(|c| &c.changed_movies) dim=unused(|c| &c.touched_movies) grad=movie_grad />
                        <div class="train-output" class:stale=stale>
                            <Grid name="output" data=output marks=marks on_focus=model.on_focus() grad=Some(output_grad) />
                            <p class="loss" role="status" aria-label=t!("train-loss-label")>{loss_text}</p>
                            {move || stale.get().then(|| view! {
                                <p class="stale-note">
                                    {t!("train-stale")}
                                </p>
                            })}
                        </div>
                    </div>
                    <p class="hint moved-note">
                        {t!("train-moved-hint")}
                    </p>

                </div>
                <div class="train-charts">
                    <LossCurve computed=computed />
                    {move || (factors.get() == 2).then(|| view! { <Scatter computed=computed /> })}
                </div>

            </div>

            {move || (pass.get() == Phase::Backward).then(|| view! {
                <p class="hint train-grads">
                    {t!("train-grads-hint")}
                </p>
            })}

            <div class="train-explain">
                <div>
                    <h2>{t!("train-formula-heading")}</h2>
                    <FormulaView formula=formula />
                    {move || formula.with(Option::is_none).then(|| view! {
                        <p class="hint">{t!("train-formula-hint")}</p>
                    })}
                </div>
                <ul class="captions">{captions}</ul>
            </div>

            {model.timeline()}
        </SceneShell>
    }
}

/// The ratings as a `(R, 3)` table: user and movie ids, then the rating.
fn ratings_data(s: &State) -> GridData {
    let (mut short_texts, mut full_texts, mut values) = (Vec::new(), Vec::new(), Vec::new());
    for r in &s.ratings {
        let ids = [r.user.to_string(), r.movie.to_string()];
        short_texts.extend(ids.iter().cloned().chain([short(r.rating)]));
        full_texts.extend(ids.into_iter().chain([full(r.rating)]));
        values.extend([r.user as f32, r.movie as f32, r.rating]);
    }
    match Tensor::new(vec![s.ratings.len(), 3], values) {
        Ok(values) => GridData::new(short_texts, full_texts, values),
        Err(_) => GridData::default(),
    }
}
