//! The RNN scene: what comes out of `nn.RNN`. The unrolled diagram shows every cell of every
//! layer and direction; `output` (the top layer's `h_t` at every step) and `h_n` (each layer's and
//! direction's last state) sit side by side with captions saying which is which.

use super::rnn_cells as cells;
use crate::code_panel::CodePanel;
use crate::field::Field;
use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::pass_toggle::PassToggle;
use crate::presets::Presets;
use crate::seed_field::SeedField;
use crate::share_panel::SharePanel;
use crate::storage::{change, on_cell, on_preset, use_scene};
use crate::timeline::Timeline;
use cells::{GradNorms, Unrolled};
use leptos::prelude::*;
use rowflow_core::codegen;
use rowflow_core::ops::find;
use rowflow_core::ops::loss::Loss;
use rowflow_core::ops::rnn::Nonlinearity;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::rnn::{Backward, Computed, Source, State, PRESETS};
use rowflow_core::trace::Span;
use rowflow_core::{Marks, Phase};

/// Parameters start folded away once there are more than this many tensors of them.
const OPEN_PARAMS: usize = 4;

#[component]
pub fn RnnScene() -> impl IntoView {
    let scene = use_scene::<State>("rowflow.rnn");
    let state = scene.state;
    let computed = Memo::new(move |_| state.with(State::compute));
    let playhead = RwSignal::new(0usize);
    let sequence = RwSignal::new(0usize);
    let focus = RwSignal::new(None::<(String, Vec<usize>)>);
    let problem = RwSignal::new(None::<String>);
    let pass = RwSignal::new(Phase::Forward);
    let backward = Memo::new(move |_| pass.get() == Phase::Backward);
    // Each pass plays its own trace from the start.
    Effect::watch(move || pass.get(), move |_, _, _| playhead.set(0), false);

    let edit = move |tensor: String| on_cell(state, move |s, i, t| s.edit(&tensor, i, t));
    let paste = move |tensor: String| on_cell(state, move |s, i, t| s.paste(&tensor, i, t));
    let size =
        move |field: &'static str| Callback::new(move |text: String| change(state, |s| s.set_size(field, &text)));
    let flag = move |field: &'static str| {
        move |ev: leptos::ev::Event| {
            let on = event_target_checked(&ev);
            problem.set(change(state, |s| s.set_flag(field, on)).err());
        }
    };
    let pick = on_preset(state, State::preset, move || {
        playhead.set(0);
        sequence.set(0);
        focus.set(None);
    });
    let reseed = Callback::new(move |seed: String| change(state, |s| s.reinit(&seed)));
    let focus_on = move |tensor: &'static str| Callback::new(move |i: Vec<usize>| focus.set(Some((tensor.into(), i))));
    // Stepping shows the step's own formula again.
    Effect::new(move |_| {
        playhead.track();
        focus.set(None);
    });

    let c = move |f: fn(&Computed) -> String| Signal::derive(move || computed.with(f));
    let run = Signal::derive(move || computed.with(|c| c.run.clone()));
    let marks = Memo::new(move |_| {
        computed.with(|c| c.trace(pass.get()).map(|t| t.marks_at(playhead.get())).unwrap_or_default())
    });
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
    let len = Signal::derive(move || computed.with(|c| c.trace(pass.get()).map_or(0, |t| t.len())));
    let describe = Signal::derive(move || {
        computed.with(|c| match pass.get() {
            Phase::Forward => c.describe(playhead.get()),
            Phase::Backward => c.describe_backward(playhead.get()),
        })
    });
    let formula = Signal::derive(move || {
        computed.with(|c| {
            let run = c.run.as_ref()?;
            match (focus.get(), pass.get()) {
                (Some((tensor, index)), _) => run.formula(&tensor, &index),
                (None, Phase::Forward) => run.step_formula(playhead.get(), sequence.get()),
                (None, Phase::Backward) => c.backward_formula(playhead.get(), sequence.get()),
            }
        })
    });
    // Backward: the `.grad` grids, the loss and SGD.
    let grad = move |name: String| {
        Memo::new(move |_| computed.with(|c| c.grad(&name).map(GridData::floats).unwrap_or_default()))
    };
    let grad_grid = move |name: &str| {
        let (name, data) = (format!("{name}.grad"), grad(name.to_string()));
        move || backward.get().then(|| view! { <Grid name=name.clone() data=data marks=marks /> })
    };
    let changed = move |name: String| Signal::derive(move || state.with(|s| s.changed(&name)));
    let mse = Memo::new(move |_| state.with(|s| matches!(s.learning.loss, Loss::Mse { .. })));
    let h_n_in_loss = Memo::new(move |_| state.with(|s| s.h_n_in_loss));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => GridData::floats(target),
            Loss::Sum => GridData::default(),
        })
    });
    let learn_panel = move || {
        view! {
            {crate::shell::learn_panel(state, computed, RwSignal::new("20".into()))}
            <div class="rnn-loss-note">
                <label class="flag">
                    <input type="checkbox" prop:checked=move || h_n_in_loss.get()
                        on:change=move |ev| state.update(|s| s.set_h_n_in_loss(event_target_checked(&ev))) />
                    " add "
                    <code>"h_n.sum()"</code>
                    " to the loss"
                </label>
                <p>
                    {move || match h_n_in_loss.get() {
                        true => "Gradient enters twice: output.grad at every step, and h_n.grad = 1 at each sequence's last step, where it adds to what output sends back.",
                        false => "The loss is on output only: h_n is not in it, so h_n.grad = 0 and every gradient flows back from output.grad.",
                    }}
                </p>
            </div>
            {move || computed.with(|c| c.backward_issue.clone()).map(|m| view! { <p class="issue" role="alert">{m}</p> })}
        }
    };
    let upstream = move |f: fn(&Backward) -> &rowflow_core::Tensor| {
        Memo::new(move |_| computed.with(|c| c.backward.as_ref().map(|b| GridData::floats(f(b))).unwrap_or_default()))
    };
    let (output_grad, h_n_grad) = (upstream(|b| &b.upstream), upstream(|b| &b.upstream_h_n));
    let norms =
        Signal::derive(move || computed.with(|c| c.backward.as_ref().map(|b| b.norms.clone()).unwrap_or_default()));
    let cell_issues = move |tensor: &'static str| Signal::derive(move || computed.with(|c| c.cell_issues(tensor)));
    let notes = move |tensor: &'static str| {
        move || {
            computed
                .with(|c| c.notes(tensor))
                .into_iter()
                .map(|m| view! { <p class="issue" role="alert">{m}</p> })
                .collect_view()
        }
    };
    // Memos, so a view that depends on a setting is rebuilt only when that setting changes (never
    // under the cell being edited).
    let value = move |field: &'static str| Signal::from(Memo::new(move |_| state.with(|s| s.size(field).to_string())));
    let config = move |f: fn(&State) -> bool| Signal::from(Memo::new(move |_| state.with(f)));
    let embedding = config(|s| matches!(s.model.source, Source::Embedding { .. }));
    let packed = config(|s| s.model.packed);
    let stale = Signal::derive(move || computed.with(|c| c.stale));

    let floats = move |f: fn(&State) -> Option<&rowflow_core::Tensor>| {
        Memo::new(move |_| state.with(|s| f(s).map(GridData::floats).unwrap_or_default()))
    };
    let output =
        Memo::new(move |_| computed.with(|c| c.run.as_ref().map(|r| GridData::floats(&r.output)).unwrap_or_default()));
    let h_n =
        Memo::new(move |_| computed.with(|c| c.run.as_ref().map(|r| GridData::floats(&r.h_n)).unwrap_or_default()));
    let lengths = Memo::new(move |_| state.with(|s| GridData::ids(&s.model.lengths)));

    let input_view = move || match embedding.get() {
        false => view! {
            <Grid name="input" data=floats(|s| match &s.model.source { Source::Tensor(t) => Some(t), _ => None })
                on_edit=edit("input".into()) on_paste=paste("input".into()) marks=marks />
            {grad_grid("input")}
            {notes("input")}
        }
        .into_any(),
        true => {
            let ids = Memo::new(move |_| {
                state.with(|s| match &s.model.source {
                    Source::Embedding { ids, .. } => GridData::ids(ids),
                    Source::Tensor(_) => GridData::default(),
                })
            });
            let emb_weight = floats(|s| match &s.model.source {
                Source::Embedding { weight, .. } => Some(weight),
                Source::Tensor(_) => None,
            });
            let x = Memo::new(move |_| {
                computed.with(|c| c.run.as_ref().map(|r| GridData::floats(&r.input)).unwrap_or_default())
            });
            view! {
                <div class="rnn-chain">
                    <Grid name="ids" data=ids on_edit=edit("ids".into()) on_paste=paste("ids".into()) marks=marks
                        issues=cell_issues("ids") />
                    <Grid name="emb.weight" data=emb_weight on_edit=edit("emb.weight".into())
                        on_paste=paste("emb.weight".into()) marks=marks changed=changed("emb.weight".into()) />
                    {grad_grid("emb.weight")}
                    {notes("emb.weight")}
                    <Grid name="input" data=x marks=marks on_focus=focus_on("input") />
                    {grad_grid("input")}
                </div>
            }
            .into_any()
        }
    };

    let has_h0 = config(|s| s.model.h0.is_some());
    let h0_view = move || {
        has_h0.get().then(|| {
            view! {
                <Grid name="h0" data=floats(|s| s.model.h0.as_ref()) on_edit=edit("h0".into()) on_paste=paste("h0".into())
                    marks=marks />
                {grad_grid("h0")}
                {notes("h0")}
            }
        })
    };

    // The parameters, grouped by layer and direction; folded away when there are many.
    let param_names =
        Memo::new(move |_| state.with(|s| s.model.params.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()));
    let params_view = move || {
        let names = param_names.get();
        let (per, dirs) = state.with_untracked(|s| {
            let c = &s.model.config;
            (if c.bias { 4 } else { 2 }, c.num_directions())
        });
        let groups = names.chunks(per).enumerate().map(|(k, group)| {
            let head = format!("layer {}, {}", k / dirs, ["forward", "reverse"][k % dirs]);
            let grids = group.iter().map(|name| {
                let key = name.clone();
                let data = Memo::new(move |_| state.with(|s| find(&s.model.params, &key).map(GridData::floats).unwrap_or_default()));
                view! {
                    <div class="rnn-param">
                        <Grid name=name.clone() data=data on_edit=edit(name.clone()) on_paste=paste(name.clone()) marks=marks
                            changed=changed(name.clone()) />
                        {grad_grid(name)}
                    </div>
                }
            });
            view! {
                <div class="rnn-param-group">
                    <h3>{head}</h3>
                    <div class="tensors">{grids.collect_view()}</div>
                </div>
            }
        });
        let count = move || state.with(|s| s.model.params.iter().map(|(_, t)| t.numel()).sum::<usize>());
        view! {
            <details class="rnn-params" open=names.len() <= OPEN_PARAMS>
                <summary>
                    <h2>{format!("Parameters: {} tensors, ", names.len())} {count} " numbers"</h2>
                </summary>
                {groups.collect_view()}
            </details>
        }
    };

    let nonlinearity = config(|s| s.model.config.nonlinearity == Nonlinearity::Relu);

    view! {
        <section class="scene rnn" aria-labelledby="rnn-title">
            <header class="scene-bar">
                <h1 id="rnn-title">"nn.RNN: output and h_n"</h1>
                <Presets presets=PRESETS current=Signal::derive(move || state.with(|s| if s.edited { String::new() } else { s.preset.clone() })) on_pick=pick />
                <SharePanel scene=scene />
            </header>
            <p class="rnn-call">
                <code>{move || computed.with(|c| format!("rnn = {}", c.module))}</code>
                " — every cell: "
                <code class="rnn-rule">{c(|c| c.rule.clone())}</code>
            </p>
            // A note: a name on a plain span or p may be read instead of its text.
            <p class="shape-eq" role="note" aria-label="Shapes">{c(|c| c.shape_equation.clone())}</p>

            <details class="rnn-settings" open>
                <summary>"Settings"</summary>
            <div class="rnn-controls">
                <fieldset>
                    <legend>"nn.RNN"</legend>
                    {field("input_size", value("input_size"), size("input_size"))}
                    {field("hidden_size", value("hidden_size"), size("hidden_size"))}
                    {field("num_layers", value("num_layers"), size("num_layers"))}
                    <label class="field">
                        <code>"nonlinearity"</code>
                        " "
                        <select
                            aria-label="nonlinearity"
                            on:change=move |ev| problem.set(change(state, |s| s.set_nonlinearity(&event_target_value(&ev))).err())
                        >
                            <option value="tanh" selected=move || !nonlinearity.get()>"'tanh'"</option>
                            <option value="relu" selected=move || nonlinearity.get()>"'relu'"</option>
                        </select>
                    </label>
                    {checkbox("bias", config(|s| s.model.config.bias), flag("bias"))}
                    {checkbox("batch_first", config(|s| s.model.config.batch_first), flag("batch_first"))}
                    {checkbox("bidirectional", config(|s| s.model.config.bidirectional), flag("bidirectional"))}
                    <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone())) />
                    <p class="rnn-note">
                        {move || state.with(|s| format!("Parameters drawn after torch.manual_seed({}); a size change draws them again with it.", s.seed))}
                    </p>
                </fieldset>
                <fieldset>
                    <legend>"Input"</legend>
                    {field("batch", value("batch"), size("batch"))}
                    {field("seq_len", value("seq_len"), size("seq_len"))}
                    {move || match embedding.get() {
                        false => field("features", value("features"), size("features")).into_any(),
                        true => view! {
                            {field("num_embeddings", value("num_embeddings"), size("num_embeddings"))}
                            {field("embedding_dim", value("features"), size("features"))}
                        }
                        .into_any(),
                    }}
                    {checkbox("h0", has_h0, flag("h0"))}
                </fieldset>
                <fieldset class="rnn-packing">
                    <legend>"Packing"</legend>
                    {checkbox("pack_padded_sequence", packed, flag("packed"))}
                    {move || packed.get().then(|| view! {
                        {checkbox("enforce_sorted", config(|s| s.model.enforce_sorted), flag("enforce_sorted"))}
                        {field(
                            "padding_value",
                            Signal::from(Memo::new(move |_| state.with(|s| rowflow_core::format::full(s.model.padding_value)))),
                            Callback::new(move |text: String| change(state, |s| s.set_padding_value(&text))),
                        )}
                        <Grid name="lengths" data=lengths on_edit=edit("lengths".into()) on_paste=paste("lengths".into())
                            issues=cell_issues("lengths") />
                        {notes("lengths")}
                    })}
                </fieldset>
            </div>
            </details>
            {move || problem.get().map(|m| view! { <p class="issue" role="alert">{m}</p> })}
            {notes("config")}
            <div class="rnn-pass">
                <PassToggle pass=pass />
                {move || backward.get().then(learn_panel)}
            </div>

            <div class="rnn-main">
                <Unrolled
                    run=run
                    note=c(|c| c.packing_caption.clone())
                    sequence=sequence
                    marks=diagram_marks
                    on_cell=Callback::new(move |(layer, direction, t)| {
                        if let Some(step) = computed.with_untracked(|c| c.step_of(pass.get_untracked(), layer, direction, t)) {
                            playhead.set(step + 1);
                        }
                    })
                    on_pick=Callback::new(move |p| focus.set(Some(p)))
                />
                <div class="rnn-results">
                    <div class="rnn-out" class:stale=stale>
                        <Grid name="output" data=output marks=marks on_focus=focus_on("output") />
                        <p class="caption">{c(|c| c.output_caption.clone())}</p>
                    </div>
                    {move || backward.get().then(|| view! {
                        <div class="rnn-out">
                            <Grid name="output.grad" data=output_grad marks=marks />
                            <p class="caption">"dL/doutput: where backward starts."</p>
                        </div>
                    })}
                    {move || (backward.get() && mse.get()).then(|| view! {
                        <div class="rnn-out">
                            <Grid name="target" data=target marks=marks
                                on_edit=on_cell(state, |s, i, t| s.apply(&Edit::cell("target", i, t))) />
                            <p class="caption">"F.mse_loss(output, target): edit the target."</p>
                        </div>
                    })}
                    <div class="rnn-out" class:stale=stale>
                        <Grid name="h_n" data=h_n marks=marks on_focus=focus_on("h_n") />
                        <p class="caption">{c(|c| c.h_n_caption.clone())}</p>
                    </div>
                    {move || backward.get().then(|| view! {
                        <div class="rnn-out">
                            <Grid name="h_n.grad" data=h_n_grad marks=marks />
                            <p class="caption">{move || match h_n_in_loss.get() {
                                true => "dL/dh_n = 1: h_n.sum() is in the loss.",
                                false => "dL/dh_n = 0: h_n is not in the loss.",
                            }}</p>
                        </div>
                    })}
                    {move || stale.get().then(|| view! {
                        <p class="rnn-stale" role="status">
                            "PyTorch raises on the current inputs (see the marked field), so output and h_n still show the last call that ran."
                        </p>
                    })}
                </div>
            </div>
            <FormulaView formula=formula />
            {move || (backward.get() && formula.with(Option::is_some)).then(|| view! {
                <p class="rnn-hint">
                    {move || match nonlinearity.get() {
                        true => "da = h.grad · (h > 0): the gradient at a cell's pre-activation (relu passes it only where h > 0).",
                        false => "da = h.grad · (1 − h²): the gradient at a cell's pre-activation (tanh′ = 1 − tanh²).",
                    }}
                </p>
            })}
            {move || formula.with(Option::is_none).then(|| view! {
                <p class="rnn-hint">"Step the animation, or click an output or h_n cell, to see how its number is made."</p>
            })}
            <Timeline len=len playhead=playhead describe=describe />
            {move || backward.get().then(|| view! { <GradNorms norms=norms /> })}

            <h2 class="rnn-h2">"What goes in"</h2>
            <div class="tensors rnn-inputs">{input_view} {h0_view}</div>
            {params_view}
            <CodePanel code=Signal::derive(move || state.with(codegen::rnn)) />
        </section>
    }
}

/// The shared `Field`, called like the `checkbox` helper beside it.
fn field(label: &'static str, value: Signal<String>, on_commit: Callback<String, Result<(), String>>) -> impl IntoView {
    view! { <Field label=label value=value on_commit=on_commit /> }
}

fn checkbox(label: &'static str, on: Signal<bool>, toggle: impl Fn(leptos::ev::Event) + 'static) -> impl IntoView {
    view! {
        <label class="flag">
            <input type="checkbox" prop:checked=move || on.get() on:change=toggle />
            " "
            <code>{label}</code>
        </label>
    }
}
