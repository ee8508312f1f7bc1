//! The One-hot × Linear scene: the same ids and table both ways, side by side. On the left
//! `nn.Embedding` copies the row each id picks; on the right `F.one_hot` then
//! `Linear(V, D, bias=False)` with `linear.weight = emb.weight.T` computes the same numbers, one
//! nonzero product per sum. The core checks `torch.equal` and counts the work; this view times
//! both ways in the browser as V and D grow past what fits as cells.

use crate::code_panel::CodePanel;
use crate::field::Field;
use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::issue_list::IssueList;
use crate::presets::Presets;
use crate::seed_field::SeedField;
use crate::share_panel::SharePanel;
use crate::storage::{change, on_cell, on_preset, use_scene};
use crate::timeline::Timeline;
use crate::PassToggle;
use leptos::prelude::*;
use rowflow_core::codegen;
use rowflow_core::ops::loss::Loss;
use rowflow_core::ops::one_hot::Cost;
use rowflow_core::scene::one_hot::{
    grouped, Backward, Pass, State, Timing, Work, INPUT, LINEAR, LINEAR_GRAD, LINEAR_WEIGHT, LINEAR_WEIGHT_GRAD,
    LOOKUP, LOOKUP_GRAD, MAX_IDS, ONE_HOT, PRESETS, TABLE, TABLE_GRAD, TARGET,
};
use rowflow_core::Phase;
use std::time::Duration;

/// Each way is repeated until this much time has passed, so the clock's coarse ticks don't matter.
const TIMING_BUDGET_MS: f64 = 20.0;

#[component]
pub fn OneHotScene() -> impl IntoView {
    let scene = use_scene::<State>("rowflow.one_hot");
    let state = scene.state;
    let computed = Memo::new(move |_| state.with(State::compute));
    let playhead = RwSignal::new(0usize);
    let focus = RwSignal::new(None::<Vec<usize>>);
    // Which trace the timeline plays; switching starts it from the beginning.
    let phase = RwSignal::new(Phase::Forward);
    let backward_on = Memo::new(move |_| phase.get() == Phase::Backward);
    Effect::new(move |_| {
        phase.track();
        playhead.set(0);
    });

    let edit = move |tensor: &'static str| on_cell(state, move |s, i, t| s.edit(tensor, i, t));
    let paste = move |tensor: &'static str| on_cell(state, move |s, i, t| s.paste(tensor, i, t));
    let setter = move |set: fn(&mut State, &str) -> Result<(), String>| {
        Callback::new(move |text: String| change(state, |s| set(s, &text)))
    };
    let pick = on_preset(state, State::preset, move || {
        playhead.set(0);
        focus.set(None);
    });
    let reseed = Callback::new(move |seed: String| change(state, |s| s.reinit(&seed)));

    let pass = move |f: &dyn Fn(&Pass) -> String| computed.with(|c| c.pass.as_ref().map(f).unwrap_or_default());
    let back = move |f: &dyn Fn(&Backward) -> String| computed.with(|c| c.backward.as_ref().map(f).unwrap_or_default());
    let marks = Memo::new(move |_| {
        computed.with(|c| match backward_on.get() {
            false => c.pass.as_ref().map(|p| p.trace.marks_at(playhead.get())).unwrap_or_default(),
            true => c.backward.as_ref().map(|b| b.trace.marks_at(playhead.get())).unwrap_or_default(),
        })
    });
    let len = Signal::derive(move || {
        computed.with(|c| match backward_on.get() {
            false => c.pass.as_ref().map_or(0, |p| p.trace.len()),
            true => c.backward.as_ref().map_or(0, |b| b.trace.len()),
        })
    });
    let describe = Signal::derive(move || match backward_on.get() {
        false => pass(&|p| p.describe(playhead.get())),
        true => back(&|b| b.describe(playhead.get())),
    });
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
    let (table_grad, linear_weight_grad) = (of(TABLE_GRAD), of(LINEAR_WEIGHT_GRAD));
    let (lookup_grad, linear_grad) = (of(LOOKUP_GRAD), of(LINEAR_GRAD));
    let has_backward = Memo::new(move |_| backward_on.get() && computed.with(|c| c.backward.is_some()));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => Some(GridData::floats(target)),
            Loss::Sum => None,
        })
    });
    let changed = move |name: &'static str| Signal::derive(move || state.with(|s| s.changed(name)));
    let one_hot =
        Memo::new(move |_| computed.with(|c| c.pass.as_ref().map(|p| GridData::ids(&p.one_hot)).unwrap_or_default()));
    let has_pass = Memo::new(move |_| computed.with(|c| c.pass.is_some()));
    let on_focus = Callback::new(move |i: Vec<usize>| focus.set(Some(i)));

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
    let formula = move |output: &'static str| {
        Signal::derive(move || formula_at.get().and_then(|i| computed.with(|c| c.formula(output, &i))))
    };

    // The cells of `one_hot` and `linear.weight` the current step multiplies by zero, as the core says.
    let zero = move |name: &'static str| {
        Callback::new(move |index: Vec<usize>| {
            computed.with(|c| match backward_on.get() {
                false => c.pass.as_ref().is_some_and(|p| p.zero_product(playhead.get(), name, &index)),
                true => c.backward.as_ref().is_some_and(|b| b.zero_product(playhead.get(), name, &index)),
            })
        })
    };

    // Learning: the loss, the rate, and SGD steps on emb.weight.
    let learn_panel = view! {
        {crate::shell::learn_panel(state, computed, RwSignal::new("20".into()))}
        <p class="hint">
            "One loss for both outputs (they are equal). SGD steps " <code>"emb.weight"</code> "; "
            <code>"linear.weight"</code> " is its transpose, so it moves the same numbers: the looked-up rows, "
            "which are the used columns."
        </p>
    };

    // Both ways timed afresh whenever a size changes, after the page has painted.
    let timing = RwSignal::new(None::<Timing>);
    let round = RwSignal::new(0u32);
    let time_now = move || {
        timing.set(None);
        round.update(|r| *r += 1);
        let this = round.get_untracked();
        set_timeout(
            move || {
                // A newer size, or the scene gone (signals disposed): nothing to time.
                if round.try_get_untracked() != Some(this) {
                    return;
                }
                let Some(perf) = web_sys::window().and_then(|w| w.performance()) else { return };
                let measured = computed.try_with_untracked(|c| c.time(|| perf.now(), TIMING_BUDGET_MS)).flatten();
                timing.try_set(measured);
            },
            Duration::from_millis(60),
        );
    };
    let sizes = Memo::new(move |_| state.with(|s| (s.sizes(), s.ids.shape().to_vec())));
    Effect::new(move |_| {
        sizes.track();
        time_now();
    });

    let ids_fields = move || {
        let shape = sizes.get().1;
        let name = |d: usize| match shape.len() {
            1 => "number of ids".to_string(),
            _ => format!("input.shape[{d}]"),
        };
        (0..shape.len())
            .map(|d| {
                let value = Signal::derive(move || {
                    state.with(|s| s.ids.shape().get(d).map(ToString::to_string).unwrap_or_default())
                });
                let commit = Callback::new(move |text: String| change(state, |s| s.resize_ids(d, &text)));
                view! { <Field label=name(d) value=value on_commit=commit /> }
            })
            .collect_view()
    };

    // The forward work so far against the whole: bars to scale and the counts in words. Going
    // backward, the forward pass has run in full.
    let work = Memo::new(move |_| {
        computed.with(|c| {
            let p = c.pass.as_ref()?;
            let at = if backward_on.get() { p.trace.len() } else { playhead.get() };
            Some((p.work_at(at), p.cost))
        })
    });
    let width = move |part: fn(&(Work, Cost)) -> (usize, usize)| {
        move || {
            let (part, of) = work.with(|w| w.as_ref().map_or((0, 1), part));
            format!("{:.3}%", 100.0 * part as f64 / of.max(1) as f64)
        }
    };
    let count = move |part: fn(&(Work, Cost)) -> (usize, usize)| {
        move || work.with(|w| w.as_ref().map(part)).map(|(n, of)| format!("{} of {}", grouped(n), grouped(of)))
    };
    let bars = view! {
        <div class="oh-bars" aria-hidden="true">
            <div class="oh-bar-row">
                <span class="oh-bar-name">"lookup"</span>
                <div class="oh-bar lookup" style:width=width(|(_, c)| (c.lookup_copies, c.one_hot_multiply_adds))>
                    <div class="oh-fill" style:width=width(|(w, c)| (w.copies, c.lookup_copies))></div>
                </div>
            </div>
            <div class="oh-bar-row">
                <span class="oh-bar-name">"one-hot"</span>
                <div class="oh-bar linear">
                    <div class="oh-useful" style:width=width(|(_, c)| (c.lookup_copies, c.one_hot_multiply_adds))></div>
                    <div class="oh-fill" style:width=width(|(w, c)| (w.multiply_adds, c.one_hot_multiply_adds))></div>
                </div>
            </div>
        </div>
        <p class="hint">
            "To scale: solid, the products that count (one per number, as many as the lookup copies); "
            "hatched, the products by 0; blue, what the animation has done so far."
        </p>
        <dl class="oh-counts">
            <dt>"numbers copied"</dt>
            <dd>{count(|(w, c)| (w.copies, c.lookup_copies))}</dd>
            <dt>"multiply-adds"</dt>
            <dd>{count(|(w, c)| (w.multiply_adds, c.one_hot_multiply_adds))}</dd>
            <dt>"… of them × 0"</dt>
            <dd>{count(|(w, c)| (w.zero_products, c.zero_products))}</dd>
        </dl>
    };

    let stale = Memo::new(move |_| computed.with(|c| c.pass.as_ref().is_some_and(|p| p.stale)));
    view! {
        <section class="scene one-hot" aria-labelledby="one-hot-title">
            <header class="scene-bar">
                <h1 id="one-hot-title">"One-hot × Linear: the long way round to an embedding"</h1>
                <Presets presets=PRESETS current=Signal::derive(move || state.with(|s| s.preset.clone())) on_pick=pick />
                <SharePanel scene=scene />
            </header>
            <p class="caption lede">
                "An embedding looks each id's row up. A one-hot row times " <code>"linear.weight"</code> " = "
                <code>"emb.weight.T"</code> " gives the very same numbers, but every number costs V multiply-adds, "
                "all but one of them times zero."
            </p>
            // A note: a name on a plain span or p may be read instead of its text.
            <p class="shape-eq" role="note" aria-label="Shape equation">{move || computed.with(|c| c.shape_equation.clone())}</p>

            <IssueList issues=Signal::derive(move || computed.with(|c| c.issues.clone())) />
            <div class="oh-input">
                <Grid name=INPUT data=input on_edit=edit(INPUT) on_paste=paste(INPUT) marks=marks issues=input_issues />
                <div class="oh-input-side">
                    <div class="oh-fields">
                        {ids_fields}
                        <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone())) />
                    </div>
                    <p class="hint">{format!("Ids 0 … V−1, up to {MAX_IDS} of them; both ways read the same ids.")}</p>
                </div>
            </div>

            <div class="oh-ways">
                <div class="oh-way">
                    <h2>"nn.Embedding: look the row up"</h2>
                    <Grid
                        name=TABLE
                        data=table
                        on_edit=edit(TABLE)
                        on_paste=paste(TABLE)
                        marks=marks
                        changed=changed(TABLE)
                    />
                    <Show when=move || has_backward.get()>
                        <div class="oh-grad">
                            <Grid name=TABLE_GRAD data=table_grad marks=marks />
                            <p class="oh-grad-count">{move || back(&|b| b.count_captions().1)}</p>
                        </div>
                    </Show>
                    <Show when=move || has_pass.get() fallback=no_outputs>
                        <div class="oh-output" class:stale=move || stale.get()>
                            <Grid name=LOOKUP data=lookup marks=marks on_focus=on_focus />
                        </div>
                    </Show>
                    <Show when=move || has_backward.get()>
                        <Grid name=LOOKUP_GRAD data=lookup_grad marks=marks />
                    </Show>
                </div>
                <div class="oh-way">
                    <h2>"F.one_hot, then nn.Linear(V, D, bias=False)"</h2>
                    <Show when=move || has_pass.get() fallback=no_outputs>
                        <Grid name=ONE_HOT data=one_hot marks=marks dim=zero(ONE_HOT) />
                    </Show>
                    <Grid
                        name=LINEAR_WEIGHT
                        data=linear_weight
                        marks=marks
                        dim=zero(LINEAR_WEIGHT)
                        changed=changed(LINEAR_WEIGHT)
                    />
                    <p class="hint">"= emb.weight.T: row j holds column j of the table. Edit emb.weight to change it."</p>
                    <Show when=move || has_backward.get()>
                        <div class="oh-grad">
                            <Grid
                                name=LINEAR_WEIGHT_GRAD
                                data=linear_weight_grad
                                marks=marks
                                dim=zero(LINEAR_WEIGHT_GRAD)
                            />
                            <p class="oh-grad-count">{move || back(&|b| b.count_captions().0)}</p>
                        </div>
                    </Show>
                    <Show when=move || has_pass.get()>
                        <div class="oh-output" class:stale=move || stale.get()>
                            <Grid name=LINEAR data=linear marks=marks on_focus=on_focus />
                        </div>
                    </Show>
                    <Show when=move || has_backward.get()>
                        <Grid name=LINEAR_GRAD data=linear_grad marks=marks />
                    </Show>
                </div>
                {move || computed.with(|c| c.pass.as_ref().and_then(|p| p.stale_note())).map(|n| view! { <p class="stale-note">{n}</p> })}
            </div>

            <section class="oh-verdict" aria-label="Equality check">
                <p class="oh-equal">
                    <code class:false=move || computed.with(|c| c.pass.as_ref().is_some_and(|p| p.mismatch.is_some()))>
                        {move || pass(&|p| p.verdict().0)}
                    </code>
                </p>
                <p>{move || pass(&|p| p.verdict().1)}</p>
            </section>

            <section class="oh-learn" aria-label="Backward and learning">
                <PassToggle pass=phase />
                {learn_panel}
                <Show when=move || target.with(Option::is_some)>
                    <Grid
                        name=TARGET
                        data=Signal::derive(move || target.get().unwrap_or_default())
                        on_edit=edit(TARGET)
                        on_paste=paste(TARGET)
                        marks=marks
                    />
                </Show>
                <p class="oh-loss">{move || back(&|b| b.loss_text())}</p>
            </section>

            <Timeline len=len playhead=playhead describe=describe />

            <section class="oh-formulas" aria-label="Where a number comes from">
                <h2>"Where a number comes from, both ways"</h2>
                <FormulaView formula=formula(LOOKUP) />
                <FormulaView formula=formula(LINEAR) />
                <p class="hint">"Click an output cell, or step the animation, to see both for that number."</p>
            </section>

            <section class="oh-cost" aria-label="Work">
                <h2>"The work, counted"</h2>
                <p>{move || pass(&|p| p.cost_caption())}</p>
                {bars}
                <h2>"Grow V and D, and time both ways in this browser"</h2>
                <div class="oh-sliders">
                    <SizeSlider
                        label="V (num_embeddings = num_classes)"
                        choices=Signal::derive(move || state.with(State::vocab_choices))
                        value=Signal::derive(move || sizes.get().0 .0)
                        on_pick=setter(State::set_vocab)
                    />
                    <SizeSlider
                        label="D (embedding_dim = out_features)"
                        choices=Signal::derive(move || state.with(State::dim_choices))
                        value=Signal::derive(move || sizes.get().0 .1)
                        on_pick=setter(State::set_dim)
                    />
                </div>
                <p class="oh-timing" role="status">
                    {move || timing.get().map_or("Timing both ways…".to_string(), |t| t.caption())}
                </p>
                <button type="button" on:click=move |_| time_now()>"Time again"</button>
                <p class="hint">
                    "New rows and columns come from torch.manual_seed; past 400 numbers a tensor is drawn as a heat map."
                </p>
            </section>
            <CodePanel code=Signal::derive(move || state.with(codegen::one_hot)) />
        </section>
    }
}

fn no_outputs() -> impl IntoView {
    view! { <p class="stale-note">"No outputs: every id must be a row of emb.weight, 0 … V−1."</p> }
}

/// A slider over the sizes the core allows; the value shows while dragging and is set on
/// release, with the core's reason beside it if refused.
#[component]
fn SizeSlider(
    #[prop(into)] label: String,
    #[prop(into)] choices: Signal<Vec<usize>>,
    #[prop(into)] value: Signal<usize>,
    on_pick: Callback<String, Result<(), String>>,
) -> impl IntoView {
    let dragging = RwSignal::new(None::<usize>);
    let error = RwSignal::new(None::<String>);
    let position = move || choices.with(|c| c.iter().position(|&s| s == value.get()).unwrap_or(0));
    let at = move |ev: &leptos::ev::Event| {
        let k: usize = event_target_value(ev).parse().unwrap_or(0);
        choices.with_untracked(|c| c.get(k).copied())
    };
    let shown = move || dragging.get().unwrap_or_else(|| value.get());
    view! {
        <label class="oh-slider">
            <span class="oh-slider-name">{label.clone()}</span>
            <input
                type="range"
                min="0"
                max=move || choices.with(|c| c.len().saturating_sub(1))
                step="1"
                aria-label=label
                aria-valuetext=move || shown().to_string()
                prop:value=move || position().to_string()
                on:input=move |ev| dragging.set(at(&ev))
                on:change=move |ev| {
                    dragging.set(None);
                    if let Some(n) = at(&ev) {
                        error.set(on_pick.run(n.to_string()).err());
                    }
                }
            />
            <output class="oh-slider-value">{shown}</output>
            {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </label>
    }
}
