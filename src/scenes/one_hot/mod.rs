//! The One-hot × Linear scene: the same ids and table both ways, side by side. On the left
//! `nn.Embedding` copies the row each id picks; on the right `F.one_hot` then
//! `Linear(V, D, bias=False)` with `linear.weight = emb.weight.T` computes the same numbers, one
//! nonzero product per sum. The core checks `torch.equal` and counts the work; this view times
//! both ways in a Web Worker as V and D grow past what fits as cells, and at real scale.

mod cost;
mod drawer;
mod restore;
mod scale;
mod timer;
mod writer;

use crate::field::Field;
use crate::formula::FormulaView;
use crate::grid::{Grad, Grid, GridData, HEATMAP_CELLS};
use crate::issue_list::IssueList;
use crate::param::Param;
use crate::seed_field::SeedField;
use crate::shell::{SceneModel, SceneShell};
use crate::storage::Before;
use cost::CostPanel;
use drawer::{Change, Drawer};
use leptos::prelude::*;
use restore::Restored;
use rowflow_core::format::grouped;
use rowflow_core::ops::loss::Loss;
use rowflow_core::say::Say;
use rowflow_core::scene::one_hot::{
    Backward, Pass, State, INPUT, LINEAR, LINEAR_GRAD, LINEAR_WEIGHT, LINEAR_WEIGHT_GRAD, LOOKUP, LOOKUP_GRAD, MAX_IDS,
    ONE_HOT, TABLE, TABLE_GRAD, TARGET,
};
use rowflow_core::Tensor;
use scale::ScalePanel;
use writer::Writer;

/// The scene, once the table a save or link at real scale needs is drawn (`Restored`).
#[component]
pub fn OneHotScene() -> impl IntoView {
    view! {
        <Restored>
            <Lab />
        </Restored>
    }
}

/// Both ways side by side, their work counted, and both timed at real scale.
#[component]
fn Lab() -> impl IntoView {
    let model = SceneModel::<State>::new();
    let SceneModel { state, view: computed, playhead, focus, marks, .. } = model;
    let backward_on = model.backward();
    // Re-init, the size sliders, a file and work brought back draw in the worker at real scale.
    let drawer = Drawer::new(model);
    let reseed = Callback::new(move |seed: String| drawer.reseed(seed));
    provide_context(Before(Callback::new(move |(text, read)| drawer.open(text, read))));
    // Copy code and the notebook, when the panel leaves numbers out, are written in the worker.
    Writer::provide(model);
    let pass = move |f: &dyn Fn(&Pass) -> String| computed.with(|c| c.pass.as_ref().map(f).unwrap_or_default());
    let back = move |f: &dyn Fn(&Backward) -> String| computed.with(|c| c.backward.as_ref().map(f).unwrap_or_default());
    // Both ways' messages for a bad id share its cell; the first hint says why in plain words.
    let input_issues = Signal::derive(move || {
        computed.with(|c| {
            let mut by_cell: Vec<(usize, Vec<String>, String)> = Vec::new();
            for issue in c.issues.iter().filter(|i| i.tensor == INPUT) {
                let Some(cell) = issue.cell else { continue };
                match by_cell.iter_mut().find(|(k, _, _)| *k == cell) {
                    Some((_, errors, _)) => errors.push(issue.error.to_string()),
                    None => by_cell.push((cell, vec![issue.error.to_string()], issue.hint.clone())),
                }
            }
            by_cell
                .into_iter()
                .map(|(k, errors, hint)| (k, format!("{} {hint}", errors.join(" · "))))
                .collect::<Vec<_>>()
        })
    });

    let input = Memo::new(move |_| state.with(|s| GridData::ids(&s.ids)));
    let table = Memo::new(move |_| state.with(|s| GridData::floats(&s.table)));
    let of = move |name: &'static str| {
        Memo::new(move |_| computed.with(|c| c.tensor(name).map(GridData::floats).unwrap_or_default()))
    };
    let (linear_weight, lookup, linear) = (of(LINEAR_WEIGHT), of(LOOKUP), of(LINEAR));
    // The gradients as built so far while backward plays.
    let grad_of =
        |g: Memo<Option<Tensor>>| Memo::new(move |_| g.with(|g| g.as_ref().map(GridData::floats).unwrap_or_default()));
    let table_grad = grad_of(model.grad(TABLE_GRAD, |c| c.tensor(TABLE_GRAD).cloned()));
    let linear_weight_grad = grad_of(model.grad(LINEAR_WEIGHT_GRAD, |c| c.tensor(LINEAR_WEIGHT_GRAD).cloned()));
    let (lookup_grad, linear_grad) = (of(LOOKUP_GRAD), of(LINEAR_GRAD));
    let has_backward = Memo::new(move |_| backward_on.get() && computed.with(|c| c.backward.is_some()));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => Some(GridData::floats(target)),
            Loss::Sum => None,
        })
    });
    let changed = move |name: &'static str| Memo::new(move |_| state.with(|s| s.changed(name)));
    let one_hot = Memo::new(move |_| {
        computed.with(|c| c.pass.as_ref().map(|p| GridData::one_hot(&p.one_hot)).unwrap_or_default())
    });
    let has_pass = Memo::new(move |_| computed.with(|c| c.pass.is_some()));
    let on_focus = model.on_focus();

    // The focused output cell, else the cell the current step writes, else the first: both ways.
    let formula_at = Memo::new(move |_| {
        computed.with(|c| {
            let p = c.pass.as_ref()?;
            let rank = p.lookup.dim();
            let at = if backward_on.get() { 0 } else { playhead.get() };
            let step = at.checked_sub(1).and_then(|k| p.trace.steps.get(k));
            let written = step.and_then(|s| s.writes.iter().find(|w| w.tensor == LINEAR || w.tensor == LOOKUP));
            let written = written.map(|w| {
                let mut index: Vec<usize> = w.index.iter().map(|i| i.unwrap_or(0)).collect();
                index.resize(rank, 0);
                index
            });
            [focus.get(), written, Some(vec![0; rank])].into_iter().flatten().find(|i| p.lookup.get(i).is_some())
        })
    });
    // Backward: the gradient cell clicked (as `[id, j]` of emb.weight.grad), else the one the
    // step writes; both ways' sums for it, emb.weight.grad[id, j] and linear.weight.grad[j, id].
    let grad_focus = RwSignal::new(None::<[usize; 2]>);
    let grad_at = Memo::new(move |_| {
        let step = computed.with(|c| c.backward.as_ref().and_then(|b| b.grad_cell(playhead.get())));
        grad_focus.get().or(step)
    });
    let formula = move |output: &'static str| {
        Signal::derive(move || match backward_on.get() {
            false => formula_at.get().and_then(|i| computed.with(|c| c.formula(output, &i))),
            true => grad_at.get().and_then(|[id, j]| {
                let (grad, at) = if output == LOOKUP { (TABLE_GRAD, [id, j]) } else { (LINEAR_WEIGHT_GRAD, [j, id]) };
                computed.with(|c| c.formula(grad, &at))
            }),
        })
    };

    // The cells of `one_hot` and `linear.weight` the current step multiplies by zero, as the core says.
    let zero = move |name: &'static str| {
        Some(Callback::new(move |index: Vec<usize>| {
            computed.with(|c| match backward_on.get() {
                false => c.pass.as_ref().is_some_and(|p| p.zero_product(playhead.get(), name, &index)),
                true => c.backward.as_ref().is_some_and(|b| b.zero_product(playhead.get(), name, &index)),
            })
        }))
    };
    // Both ways' counts, made and said once per change: each counts the zeros of a dense gradient.
    let counts = Memo::new(move |_| {
        let said = |(linear, lookup): (Say, Say)| (crate::l10n::say(&linear), crate::l10n::say(&lookup));
        computed.with(|c| c.backward.as_ref().map(Backward::count_captions).map(said))
    });
    // A gradient cell focused or clicked: both ways' sums for it.
    let on_grad = move |name: &'static str| {
        Callback::new(move |at: Vec<usize>| {
            if let &[a, b] = at.as_slice() {
                grad_focus.set(Some(if name == TABLE_GRAD { [a, b] } else { [b, a] }));
            }
        })
    };
    // Each way's gradients under its numbers, going backward.
    let table_grad_in = model.grad_of(TABLE_GRAD, |c| c.tensor(TABLE_GRAD).cloned(), Some(on_grad(TABLE_GRAD)));
    let linear_weight_grad_in = Grad {
        dim: zero(LINEAR_WEIGHT_GRAD),
        ..model.grad_of(
            LINEAR_WEIGHT_GRAD,
            |c| c.tensor(LINEAR_WEIGHT_GRAD).cloned(),
            Some(on_grad(LINEAR_WEIGHT_GRAD)),
        )
    };
    let lookup_grad_in = model.grad_of(LOOKUP_GRAD, |c| c.tensor(LOOKUP_GRAD).cloned(), None);
    let linear_grad_in = model.grad_of(LINEAR_GRAD, |c| c.tensor(LINEAR_GRAD).cloned(), None);
    // A way's weight gradient: how many of its numbers backward wrote, and its own heat map where
    // the table is too large for cells to hold it under their numbers.
    let grad = move |name: &'static str, data: Memo<GridData>, count: fn(&(String, String)) -> &String, dim| {
        let big = Memo::new(move |_| data.with(|d| d.numel() > HEATMAP_CELLS));
        view! {
            <Show when=move || has_backward.get()>
                <div class="oh-grad">
                    <Show when=move || big.get()>
                        <Grid name=name data=data marks=marks dim=dim on_focus=on_grad(name) />
                    </Show>
                    <p class="oh-grad-count">{move || counts.with(|c| c.as_ref().map(count).cloned())}</p>
                </div>
            </Show>
        }
    };

    // Learning: the loss, the rate, and SGD steps on emb.weight.
    let learn_panel = view! {
        {model.learn()}
        // The message holds its own `<code>` elements, placed where each language puts them.
        <p class="hint" inner_html=t!("one-hot-learn-hint")></p>
    };

    let shape = Memo::new(move |_| state.with(|s| s.ids.shape().to_vec()));
    let ids_fields = move || {
        let shape = shape.get();
        let name = |d: usize| match shape.len() {
            1 => t!("one-hot-ids-count"),
            _ => format!("input.shape[{d}]"),
        };
        (0..shape.len())
            .map(|d| {
                let value = Signal::derive(move || {
                    state.with(|s| s.ids.shape().get(d).map(ToString::to_string).unwrap_or_default())
                });
                view! { <Field label=name(d) value=value on_commit=model.on_field(format!("input.shape[{d}]")) /> }
            })
            .collect_view()
    };

    let stale = Memo::new(move |_| computed.with(|c| c.pass.as_ref().is_some_and(|p| p.stale)));
    // A way's output with its gradient under its numbers going backward (beside it, as a heat
    // map, past what cells hold).
    let outputs =
        move |name: &'static str, data: Memo<GridData>, grad_name: &'static str, grad: Memo<GridData>, inside: Grad| {
            let big = Memo::new(move |_| grad.with(|d| d.numel() > HEATMAP_CELLS));
            view! {
                <Show when=move || has_pass.get()>
                    <div class="oh-output" class:stale=move || stale.get()>
                        <Grid name=name data=data marks=marks on_focus=on_focus grad=Some(inside.clone()) />
                    </div>
                </Show>
                <Show when=move || has_backward.get() && big.get()>
                    <Grid name=grad_name data=grad marks=marks />
                </Show>
            }
        };
    view! {
        <SceneShell model=model title=t!("one-hot-title")>
            // The message holds its own `<code>` elements, placed where each language puts them.
            <p class="caption lede" inner_html=t!("one-hot-lede")></p>
            // A note: a name on a plain span or p may be read instead of its text.
            <p class="shape-eq" role="note" aria-label=t!("one-hot-shape-equation")>{move || computed.with(|c| c.shape_equation.clone())}</p>

            {drawer.status(Change::Open)}
            <IssueList issues=Signal::derive(move || computed.with(|c| c.issues.clone())) />
            <div class="oh-input">
                <Grid name=INPUT data=input on_edit=model.on_cell(INPUT) on_paste=model.on_paste(INPUT) marks=marks issues=input_issues />
                <div class="oh-input-side scene-settings">
                    <div class="oh-fields">
                        {ids_fields}
                        <SeedField on_seed=reseed seed=drawer.seed() />
                    </div>
                    {drawer.status(Change::Seed)}
                    <p class="hint">
                        {t!("one-hot-ids-hint", max = grouped(MAX_IDS))}
                    </p>
                </div>
            </div>

            <div class="oh-ways">
                <div class="oh-way">
                    <h2>{t!("one-hot-lookup-heading")}</h2>
                    <Param name=TABLE data=table changed=changed(TABLE) grad=table_grad_in />
                    {grad(TABLE_GRAD, table_grad, |(_, lookup)| lookup, None)}
                    {move || (!has_pass.get()).then(no_outputs)}
                    {outputs(LOOKUP, lookup, LOOKUP_GRAD, lookup_grad, lookup_grad_in)}
                </div>
                <div class="oh-way">
                    <h2>{t!("one-hot-linear-heading")}</h2>
                    // The product's factors: a box of their own only on the projector, where one_hot
                    // stands beside linear.weight (style/one_hot.css).
                    <div class="oh-factors">
                        <Show when=move || has_pass.get() fallback=no_outputs>
                            <Grid name=ONE_HOT data=one_hot marks=marks dim=zero(ONE_HOT) />
                        </Show>
                        <Grid
                            name=LINEAR_WEIGHT
                            data=linear_weight
                            marks=marks
                            dim=zero(LINEAR_WEIGHT)
                            changed=changed(LINEAR_WEIGHT)
                            grad=Some(linear_weight_grad_in)
                        />
                        <p class="hint">{t!("one-hot-weight-hint")}</p>
                        {grad(LINEAR_WEIGHT_GRAD, linear_weight_grad, |(linear, _)| linear, zero(LINEAR_WEIGHT_GRAD))}
                    </div>
                    {outputs(LINEAR, linear, LINEAR_GRAD, linear_grad, linear_grad_in)}
                </div>
                {move || computed.with(|c| c.pass.as_ref().and_then(|p| p.stale_note())).map(|n| view! { <p class="stale-note">{crate::l10n::say(&n)}</p> })}
            </div>

            <section class="oh-verdict" aria-label=t!("one-hot-verdict")>
                <p class="oh-equal">
                    <code class:false=move || computed.with(|c| c.pass.as_ref().is_some_and(|p| p.mismatch.is_some()))>
                        {move || pass(&|p| p.verdict().0)}
                    </code>
                </p>
                <p>{move || pass(&|p| crate::l10n::say(&p.verdict().1))}</p>
            </section>

            <section class="oh-learn" aria-label=t!("one-hot-learn")>
                {learn_panel}
                <Show when=move || target.with(Option::is_some)>
                    <Param name=TARGET data=Signal::derive(move || target.get().unwrap_or_default()) />
                </Show>
                <p class="oh-loss">{move || back(&|b| b.loss_text())}</p>
            </section>

            {model.timeline()}

            <section class="oh-formulas" aria-label=t!("one-hot-formulas")>
                <h2>{t!("one-hot-formulas-heading")}</h2>
                <FormulaView formula=formula(LOOKUP) />
                <FormulaView formula=formula(LINEAR) />
                <p class="hint">
                    {move || match backward_on.get() {
                        false => t!("one-hot-formulas-hint-forward"),
                        true => t!("one-hot-formulas-hint-backward"),
                    }}
                </p>
            </section>

            <CostPanel drawer=drawer />
            <ScalePanel />
        </SceneShell>
    }
}

fn no_outputs() -> impl IntoView {
    view! { <p class="stale-note">{t!("one-hot-no-outputs")}</p> }
}
