//! The Linear scene: `output = input @ weight.T + bias`, with `weight` stored `(out, in)`. The
//! forward animation lights one input row and one weight row, then the output cell they make;
//! the backward one sends each `output.grad` cell back into `weight.grad`, `bias.grad` and
//! `input.grad`, and SGD steps move the parameters.

use crate::code_panel::CodePanel;
use crate::field::Field;
use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::issue_list::IssueList;
use crate::learn_panel::LearnPanel;
use crate::pass_toggle::PassToggle;
use crate::presets::Presets;
use crate::seed_field::SeedField;
use crate::share_panel::SharePanel;
use crate::storage::{change, on_cell, on_preset, use_scene};
use crate::timeline::Timeline;
use leptos::prelude::*;
use rowflow_core::codegen;
use rowflow_core::ops::loss::Loss;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::linear::{State, PRESETS};
use rowflow_core::{Phase, Tensor};

/// The input layouts a learner can pick: (rank, label).
const RANKS: [(usize, &str); 3] = [(1, "one vector (in,)"), (2, "a batch (N, in)"), (3, "3-D (B, N, in)")];

#[component]
pub fn LinearScene() -> impl IntoView {
    let scene = use_scene::<State>("rowflow.linear");
    let state = scene.state;
    let computed = Memo::new(move |_| state.with(State::compute));
    let playhead = RwSignal::new(0usize);
    let focus = RwSignal::new(None::<Vec<usize>>);
    let transposed = RwSignal::new(false);
    let pass = RwSignal::new(Phase::Forward);
    let backward = Memo::new(move |_| pass.get() == Phase::Backward);
    // Each pass plays its own trace from the start.
    Effect::watch(move || pass.get(), move |_, _, _| playhead.set(0), false);

    let edit = move |tensor: &'static str| on_cell(state, move |s, i, t| s.edit(tensor, i, t));
    let paste = move |tensor: &'static str| on_cell(state, move |s, i, t| s.paste(tensor, i, t));
    let field = move |set: fn(&mut State, &str) -> Result<(), String>| {
        Callback::new(move |text: String| change(state, |s| set(s, &text)))
    };
    let lead = move |dim: usize| {
        let value =
            Signal::derive(move || state.with(|s| s.lead().get(dim).map(ToString::to_string).unwrap_or_default()));
        let commit = Callback::new(move |text: String| change(state, |s| s.set_lead(dim, &text)));
        view! { <Field label=format!("input.shape[{dim}]") value=value on_commit=commit /> }
    };
    let pick = on_preset(state, State::preset, move || {
        playhead.set(0);
        focus.set(None);
    });
    let reseed = Callback::new(move |seed: String| change(state, |s| s.reinit(&seed)));

    let marks = Signal::derive(move || computed.with(|c| c.marks_in(pass.get(), playhead.get())));
    let pinned = move |tensor: &'static str| {
        Signal::derive(move || {
            computed.with(|c| {
                let issues = c.issues.iter().filter(|i| i.tensor == tensor);
                issues.filter_map(|i| Some((i.cell?, format!("{}. {}", i.error, i.hint)))).collect::<Vec<_>>()
            })
        })
    };

    let weight = Memo::new(move |_| state.with(|s| GridData::floats(&s.weight)));
    let weight_t = Memo::new(move |_| state.with(|s| s.weight_t().map(|t| GridData::floats(&t)).unwrap_or_default()));
    let bias = Memo::new(move |_| state.with(|s| GridData::floats(&s.bias)));
    let input = Memo::new(move |_| state.with(|s| GridData::floats(&s.input)));
    let stale = Memo::new(move |_| computed.with(|c| c.output.is_none()));
    // While PyTorch would raise, the last output that ran stays on screen.
    let output = Memo::new(move |last: Option<&GridData>| {
        computed.with(|c| c.output.as_ref().map(GridData::floats)).or_else(|| last.cloned()).unwrap_or_default()
    });
    let has_bias = Memo::new(move |_| state.with(|s| s.has_bias));
    let rank = Memo::new(move |_| state.with(|s| s.input.dim()));
    let len = Signal::derive(move || computed.with(|c| c.trace_of(pass.get()).len()));
    let describe = Signal::derive(move || computed.with(|c| c.describe_in(pass.get(), playhead.get())));

    // Gradients: while backward can't run, the last ones that did stay on screen.
    let grad = move |pick: fn(&rowflow_core::scene::linear::Computed) -> Option<&Tensor>| {
        Memo::new(move |last: Option<&GridData>| {
            computed.with(|c| pick(c).map(GridData::floats)).or_else(|| last.cloned()).unwrap_or_default()
        })
    };
    let weight_grad = grad(|c| c.grads.as_ref().map(|g| &g.weight));
    let bias_grad = grad(|c| c.grads.as_ref().and_then(|g| g.bias.as_ref()));
    let input_grad = grad(|c| c.grads.as_ref().map(|g| &g.input));
    let output_grad = grad(|c| c.output_grad.as_ref());
    let mse = Memo::new(move |_| state.with(|s| matches!(s.learning.loss, Loss::Mse { .. })));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => GridData::floats(target),
            Loss::Sum => GridData::default(),
        })
    });
    let changed = move |name: &'static str| Signal::derive(move || state.with(|s| s.learning.changed_in(name)));
    let learn = move |edit: Edit| Callback::new(move |()| change(state, |s| s.apply(&edit)));
    let learn_panel = move || {
        view! {
            <LearnPanel
                mse=Signal::derive(move || mse.get())
                loss=Signal::derive(move || computed.with(|c| c.loss))
                lr=Signal::derive(move || state.with(|s| s.learning.lr.clone()))
                steps=Signal::derive(move || state.with(|s| s.learning.steps))
                on_loss=Callback::new(move |mse: bool| change(state, |s| s.apply(&Edit::Loss { mse })))
                on_lr=Callback::new(move |text: String| change(state, |s| s.apply(&Edit::Lr { text })))
                on_step=learn(Edit::Step)
                on_undo=learn(Edit::Undo)
                on_reset=learn(Edit::Reset)
            />
        }
    };
    let grad_grid = move |name: &'static str, data: Memo<GridData>| {
        move || backward.get().then(|| view! { <Grid name=name data=data marks=marks /> })
    };
    // The focused output cell, else the cell the current step writes, else the first one.
    let formula = Signal::derive(move || {
        computed.with(|c| {
            let step = playhead.get().checked_sub(1).and_then(|k| c.trace_of(pass.get()).steps.get(k));
            // Forward: the output cell being written; backward: the one whose gradient flows back.
            let cell = step.and_then(|s| match s.phase {
                Phase::Forward => s.writes.first(),
                Phase::Backward => s.reads.first(),
            });
            let written = cell.map(|w| {
                let mut index: Vec<usize> = w.index.iter().map(|i| i.unwrap_or(0)).collect();
                index.resize(c.output.as_ref().map_or(0, |y| y.dim()), 0);
                index
            });
            let first = c.output.as_ref().map(|y| vec![0; y.dim()]);
            [focus.get(), written, first].into_iter().flatten().find_map(|index| c.formula("output", &index))
        })
    });

    view! {
        <section class="scene linear" aria-labelledby="linear-title">
            <header class="scene-bar">
                <h1 id="linear-title">"nn.Linear: every input row meets every weight row"</h1>
                <Presets presets=PRESETS current=Signal::derive(move || state.with(|s| s.preset.clone())) on_pick=pick />
                <SharePanel scene=scene />
            </header>
            <p class="caption lede">{move || computed.with(|c| c.lede.clone())}</p>
            <p class="lin-call">
                <code>{move || computed.with(|c| format!("linear = {}", c.module))}</code>
                // A note: a name on a plain span or p may be read instead of its text.
                <span class="shape-eq" role="note" aria-label="Shape equation">
                    {move || computed.with(|c| c.shape_equation.clone())}
                </span>
            </p>

            <IssueList issues=Signal::derive(move || computed.with(|c| c.issues.clone())) />
            <div class="lin-pass">
                <PassToggle pass=pass />
                {move || backward.get().then(learn_panel)}
            </div>
            <div class="tensors lin-flow">
                <div class="lin-column">
                    <div class="lin-pair">
                        <Grid name="input" data=input on_edit=edit("input") on_paste=paste("input") marks=marks issues=pinned("input") />
                        {grad_grid("input.grad", input_grad)}
                    </div>
                    <div class="lin-pair">
                        {move || match transposed.get() {
                            false => view! {
                                <Grid
                                    name="weight"
                                    data=weight
                                    on_edit=edit("weight")
                                    on_paste=paste("weight")
                                    marks=marks
                                    issues=pinned("weight")
                                    changed=changed("weight")
                                />
                            }
                            .into_any(),
                            true => view! {
                                <Grid name="weight.T" data=weight_t on_edit=edit("weight.T") on_paste=paste("weight.T") marks=marks />
                            }
                            .into_any(),
                        }}
                        {grad_grid("weight.grad", weight_grad)}
                    </div>
                    <p class="lin-note">
                        {move || computed.with(|c| c.weight_note.clone())}
                        {move || transposed.get().then_some(" Shown here as weight.T: column i is that row.")}
                    </p>
                    <label class="flag">
                        <input
                            type="checkbox"
                            prop:checked=move || transposed.get()
                            on:change=move |ev| transposed.set(event_target_checked(&ev))
                        />
                        " show weight as weight.T (in, out)"
                    </label>
                </div>
                <div class="lin-column">
                    {move || match has_bias.get() {
                        true => view! {
                            <div class="lin-pair">
                                <Grid
                                    name="bias"
                                    data=bias
                                    on_edit=edit("bias")
                                    on_paste=paste("bias")
                                    marks=marks
                                    issues=pinned("bias")
                                    changed=changed("bias")
                                />
                                {grad_grid("bias.grad", bias_grad)}
                            </div>
                        }
                        .into_any(),
                        false => view! { <p class="lin-no-bias"><code>"bias=False"</code>": nothing is added."</p> }.into_any(),
                    }}
                    <div class="lin-output lin-pair" class:stale=move || stale.get()>
                        <Grid name="output" data=output marks=marks on_focus=Callback::new(move |i: Vec<usize>| focus.set(Some(i))) />
                        {grad_grid("output.grad", output_grad)}
                        {move || stale.get().then(|| view! {
                            <p class="stale-note">"PyTorch raises on these shapes, so this is the last output that ran."</p>
                        })}
                    </div>
                    {move || (backward.get() && mse.get()).then(|| view! {
                        <Grid name="target" data=target on_edit=edit("target") on_paste=paste("target") marks=marks issues=pinned("target") />
                    })}
                </div>
            </div>

            <div class="lin-formula">
                <h2>"Where a number comes from"</h2>
                <FormulaView formula=formula />
                <p class="hint">"Click an output cell, or step the animation, to see its sum."</p>
            </div>

            <div class="lin-controls">
                <fieldset>
                    <legend>"Change the layer"</legend>
                    <Field
                        label="in_features"
                        value=Signal::derive(move || state.with(|s| s.in_features().to_string()))
                        on_commit=field(State::set_in_features)
                    />
                    <Field
                        label="out_features"
                        value=Signal::derive(move || state.with(|s| s.out_features().to_string()))
                        on_commit=field(State::set_out_features)
                    />
                    <label class="flag">
                        <input
                            type="checkbox"
                            prop:checked=move || has_bias.get()
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                let _ = change(state, |s| {
                                    s.set_bias(on);
                                    Ok(())
                                });
                            }
                        />
                        " bias"
                    </label>
                    <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone().unwrap_or_else(|| "0".into()))) />
                </fieldset>
                <fieldset>
                    <legend>"Change the input"</legend>
                    <div class="lin-ranks" role="radiogroup" aria-label="Input layout">
                        {RANKS
                            .map(|(r, text)| {
                                view! {
                                    <label class="flag">
                                        <input
                                            type="radio"
                                            name="linear-rank"
                                            prop:checked=move || rank.get() == r
                                            on:change=move |_| {
                                                let _ = change(state, |s| s.set_rank(r));
                                            }
                                        />
                                        " "
                                        {text}
                                    </label>
                                }
                            })
                            .collect_view()}
                    </div>
                    {move || (0..rank.get().saturating_sub(1)).map(lead).collect_view()}
                </fieldset>
            </div>

            <Timeline len=len playhead=playhead describe=describe />
            <CodePanel code=Signal::derive(move || state.with(codegen::linear)) />
        </section>
    }
}
