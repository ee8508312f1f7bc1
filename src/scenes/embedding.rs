//! The Embedding scene: each id picks one row of `weight`, and that row is copied to the output.
//! The forward animation lights the row an id selects and flies a copy of it to its place in
//! the output.

use crate::code_panel::CodePanel;
use crate::field::Field;
use crate::formula::FormulaView;
use crate::grid::{Grid, GridData};
use crate::presets::Presets;
use crate::seed_field::SeedField;
use crate::share_panel::SharePanel;
use crate::storage::{change, on_cell, on_preset, use_scene};
use crate::timeline::Timeline;
use crate::PassToggle;
use leptos::prelude::*;
use rowflow_core::codegen;
use rowflow_core::format::short;
use rowflow_core::ops::loss::Loss;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::embedding::{Computed, State, PRESETS};
use rowflow_core::scene::{label, Issue};
use rowflow_core::{Ids, Marks, Phase};
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// At most this many `output[k] ← weight[id]` lines are listed; the rest are counted.
const LISTED: usize = 48;

#[component]
pub fn EmbeddingScene() -> impl IntoView {
    let stored = use_scene::<State>("rowflow.embedding");
    let state = stored.state;
    let computed = Memo::new(move |_| state.with(State::compute));
    let playhead = RwSignal::new(0usize);
    let focus = RwSignal::new(None::<Vec<usize>>);
    let pass = RwSignal::new(Phase::Forward);
    let backward = Memo::new(move |_| pass.get() == Phase::Backward);
    // Switching pass plays the other trace from its start.
    Effect::new(move |previous: Option<Phase>| {
        let now = pass.get();
        if previous.is_some_and(|p| p != now) {
            playhead.set(0);
        }
        now
    });

    let edit = move |tensor: &'static str| on_cell(state, move |s, i, t| s.edit(tensor, i, t));
    let paste = move |tensor: &'static str| on_cell(state, move |s, i, t| s.paste(tensor, i, t));
    let pick = on_preset(state, State::preset, move || {
        playhead.set(0);
        focus.set(None);
    });
    let preset = Signal::derive(move || state.with(|s| s.preset.clone()));

    let marks = Memo::new(move |_| {
        let k = playhead.get();
        computed.with(|c| if backward.get() { c.backward.marks_at(k) } else { c.trace.marks_at(k) })
    });
    let changed = Signal::derive(move || state.with(|s| s.learning.changed_in("weight")));
    let issues_of = move |tensor: &'static str| {
        Signal::derive(move || {
            computed.with(|c| {
                let pinned = c.issues.iter().filter(|i| i.tensor == tensor);
                pinned.filter_map(|i| Some((i.cell?, message(i)))).collect::<Vec<_>>()
            })
        })
    };
    let weight = Memo::new(move |_| state.with(|s| GridData::floats(&s.weight)));
    let input = Memo::new(move |_| state.with(|s| GridData::ids(&s.input)));
    let output = Memo::new(move |_| computed.with(|c| GridData::floats(&c.output)));
    let stale = Memo::new(move |_| computed.with(|c| c.stale));
    let len = Signal::derive(move || computed.with(|c| if backward.get() { c.backward.len() } else { c.trace.len() }));
    let describe = Signal::derive(move || {
        let k = playhead.get();
        match backward.get() {
            true => computed.with(|c| c.describe_backward(k, state.with(State::padding_row))),
            false => computed.with(|c| c.describe(k)),
        }
    });
    // The focused output cell, else the first number of the row being copied right now.
    let formula = Signal::derive(move || {
        computed.with(|c| {
            let current = playhead
                .get()
                .checked_sub(1)
                .filter(|_| !backward.get())
                .and_then(|k| c.picks.get(k))
                .map(|p| [&p.at[..], &[0]].concat());
            focus.get().or(current).and_then(|index| c.formula("output", &index))
        })
    });

    let scene = NodeRef::<leptos::html::Section>::new();
    let flight = RwSignal::new(None::<Flight>);
    Effect::new(move |_| {
        let k = playhead.get();
        let v = state.with_untracked(State::num_embeddings);
        let forward = !backward.get();
        let next =
            scene.get().filter(|_| forward).and_then(|el| computed.with_untracked(|c| Flight::plan(&el, c, k, v)));
        flight.update(|f| *f = next.map(|n| n.after(f.as_ref())));
    });

    let picks = move || {
        computed.with(|c| {
            let k = if backward.get() { 0 } else { playhead.get() };
            let shown = c.picks.iter().take(LISTED).enumerate().map(|(i, p)| {
                let class = match (i + 1).cmp(&k) {
                    std::cmp::Ordering::Less => "done",
                    std::cmp::Ordering::Equal => "current",
                    std::cmp::Ordering::Greater => "",
                };
                view! { <li class=class>{p.arrow()}</li> }
            });
            let more = c.picks.len().saturating_sub(LISTED);
            let more = (more > 0).then(|| view! { <li class="more">{format!("… and {more} more")}</li> });
            let none = c.stale.then(|| view! { <li>"none: PyTorch raises before looking anything up"</li> });
            view! { {shown.collect_view()} {more} {none} }
        })
    };
    let captions =
        move || computed.with(|c| c.captions[1..].iter().map(|t| view! { <li>{t.clone()}</li> }).collect_view());

    view! {
        <section class="scene embedding" aria-labelledby="embedding-title" node_ref=scene>
            <header class="scene-head">
                <h1 id="embedding-title">"nn.Embedding is a lookup"</h1>
                <Presets presets=PRESETS current=preset on_pick=pick />
                <SharePanel scene=stored />
            </header>
            <p class="lede">{move || computed.with(|c| c.captions[0].clone())}</p>
            <p class="call">
                <code>{move || computed.with(|c| format!("emb = {}", c.module))}</code>
                <span class="shape-equation">{move || computed.with(|c| c.shape_equation.clone())}</span>
            </p>

            <div class="tensors emb-flow">
                <Grid
                    name="input"
                    data=input
                    on_edit=edit("input")
                    on_paste=paste("input")
                    marks=marks
                    issues=issues_of("input")
                />
                <Grid
                    name="weight"
                    data=weight
                    on_edit=edit("weight")
                    on_paste=paste("weight")
                    marks=marks
                    issues=issues_of("weight")
                    changed=changed
                />
                {move || backward.get().then(|| view! { <WeightGrad computed=computed marks=marks /> })}
                <div class="emb-output" class:stale=stale>
                    <Grid
                        name="output"
                        data=output
                        marks=marks
                        on_focus=Callback::new(move |i: Vec<usize>| focus.set(Some(i)))
                    />
                    {move || stale.get().then(|| view! {
                        <p class="stale-note">
                            "PyTorch raises on the current inputs, so this is still the last output that ran."
                        </p>
                    })}
                </div>
                {move || backward.get().then(|| view! { <OutputGrad state=state computed=computed marks=marks /> })}
            </div>
            {move || flight.get().map(Flight::view)}

            <div class="emb-explain">
                <div>
                    <h2>"Rows selected"</h2>
                    <ol class="picks" aria-label="Rows selected">{picks}</ol>
                </div>
                <div>
                    <h2>"Where a number comes from"</h2>
                    <FormulaView formula=formula />
                    {move || formula.with(Option::is_none).then(|| view! {
                        <p class="hint">
                            "Click an output cell, or step the animation, to see which weight it copies."
                        </p>
                    })}
                </div>
            </div>
            <ul class="captions">{captions}</ul>

            <Settings state=state computed=computed />
            <div class="emb-pass">
                <PassToggle pass=pass />
                {move || backward.get().then(|| view! { <Learn state=state computed=computed /> })}
            </div>
            {move || backward.get().then(|| view! { <GradFlow state=state computed=computed playhead=playhead /> })}
            <Timeline len=len playhead=playhead describe=describe />
            <CodePanel code=Signal::derive(move || state.with(codegen::embedding)) />
        </section>
    }
}

/// `weight.grad` beside the table: dense, and with `sparse=True` also PyTorch's COO list; or,
/// for a frozen table, why there is none.
#[component]
fn WeightGrad(computed: Memo<Computed>, #[prop(into)] marks: Signal<Marks>) -> impl IntoView {
    let dense = Memo::new(move |_| computed.with(|c| c.grads.as_ref().and_then(|g| g.weight.clone())));
    let sparse = Memo::new(move |_| computed.with(|c| c.grads.as_ref().and_then(|g| g.sparse.clone())));
    let no_grad = Memo::new(move |_| computed.with(|c| c.no_grad.clone()));
    let grid = move || {
        dense.get().map(|g| {
            let data = Signal::derive(move || GridData::floats(&g));
            view! { <Grid name="weight.grad" data=data marks=marks /> }
        })
    };
    let coo = move || {
        sparse.get().map(|sp| {
            let n = sp.indices.len();
            let rows = sp.coalesced_rows().iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ");
            let indices = GridData::ids(&Ids::vector(sp.indices.clone()));
            let values = GridData::floats(&sp.values);
            view! {
                <div class="sparse-grad" role="group" aria-label="weight.grad (sparse)">
                    <p class="sparse-head">
                        <code>"weight.grad (sparse)"</code>
                        {format!(" {n} entries, one per id, uncoalesced; .coalesce() sums them into rows [{rows}]")}
                    </p>
                    <div class="sparse-parts">
                        <Grid name="indices" data=Signal::derive(move || indices.clone()) />
                        <Grid name="values" data=Signal::derive(move || values.clone()) />
                    </div>
                </div>
            }
        })
    };
    view! {
        <div class="emb-grad">
            {move || no_grad.get().map(|why| view! {
                <p class="no-grad" role="note"><code>"weight.grad"</code>" is None: "{why}</p>
            })}
            {grid}
            {coo}
        </div>
    }
}

/// `output.grad` (dL/doutput, where backward starts) and, with mse, the editable `target`.
#[component]
fn OutputGrad(state: RwSignal<State>, computed: Memo<Computed>, #[prop(into)] marks: Signal<Marks>) -> impl IntoView {
    let upstream = Memo::new(move |_| computed.with(|c| c.upstream.clone()));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => Some(GridData::floats(target)),
            Loss::Sum => None,
        })
    });
    let edit = on_cell(state, |s, i, t| s.edit("target", i, t));
    let paste = on_cell(state, |s, i, t| s.paste("target", i, t));
    view! {
        <div class="emb-grad">
            {move || upstream.get().map(|u| {
                let data = Signal::derive(move || GridData::floats(&u));
                view! { <Grid name="output.grad" data=data marks=marks /> }
            })}
            {move || computed.with(|c| c.loss_error.clone()).map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            {move || target.with(Option::is_some).then(|| view! {
                <Grid
                    name="target"
                    data=Signal::derive(move || target.get().unwrap_or_default())
                    on_edit=edit
                    on_paste=paste
                />
            })}
        </div>
    }
}

/// The loss choice, its value, and SGD steps on `weight`.
#[component]
fn Learn(state: RwSignal<State>, computed: Memo<Computed>) -> impl IntoView {
    crate::shell::learn_panel(state, computed, RwSignal::new("20".into()))
}

/// The backward steps as a list: `weight.grad[r] += output.grad[k]`, the current one highlighted.
#[component]
fn GradFlow(state: RwSignal<State>, computed: Memo<Computed>, playhead: RwSignal<usize>) -> impl IntoView {
    let summary = move || computed.with(|c| c.describe_backward(0, state.with(State::padding_row)));
    let items = move || {
        computed.with(|c| {
            let k = playhead.get();
            let shown = c.back_picks.iter().take(LISTED).enumerate().map(|(i, (p, again))| {
                let class = match (i + 1).cmp(&k) {
                    std::cmp::Ordering::Less => "done",
                    std::cmp::Ordering::Equal => "current",
                    std::cmp::Ordering::Greater => "",
                };
                let note = if *again { "  (adds onto an earlier id's row)" } else { "" };
                view! { <li class=class>{format!("weight.grad[{}] += {}{note}", p.row, label("output.grad", &p.at))}</li> }
            });
            let more = c.back_picks.len().saturating_sub(LISTED);
            let more = (more > 0).then(|| view! { <li class="more">{format!("… and {more} more")}</li> });
            view! { {shown.collect_view()} {more} }
        })
    };
    view! {
        <div class="emb-gradflow">
            <h2>"Where the gradient goes"</h2>
            <p class="grad-note">{summary}</p>
            <ol class="picks" aria-label="Gradient adds">{items}</ol>
        </div>
    }
}

/// PyTorch's error, then the plain-words hint.
fn message(i: &Issue) -> String {
    format!("{} — {}", i.error, i.hint)
}

/// The table's sizes and flags, its seeded re-init, and the ids' shape.
#[component]
fn Settings(state: RwSignal<State>, computed: Memo<Computed>) -> impl IntoView {
    let field = move |set: fn(&mut State, &str) -> Result<(), String>| {
        Callback::new(move |text: String| change(state, |s| set(s, &text)))
    };
    let shown = move |get: fn(&State) -> String| Signal::derive(move || state.with(get));
    let flag = move |flag: &'static str| {
        move |ev: leptos::ev::Event| {
            let _ = change(state, |s| s.apply(&Edit::flag(flag, event_target_checked(&ev))));
        }
    };
    // Problems with no cell of their own (padding_idx, the table's rank) show beside the field.
    let field_issue = move |tensor: &'static str| {
        Signal::derive(move || {
            computed.with(|c| {
                let issue = c.issues.iter().find(|i| i.tensor == tensor && i.cell.is_none());
                issue.map(message)
            })
        })
    };
    let reseed = Callback::new(move |seed: String| change(state, |s| s.reinit(&seed)));
    let batched = Memo::new(move |_| state.with(|s| s.input.dim() == 2));
    let pretrained = Memo::new(move |_| state.with(|s| s.from_pretrained));
    let padding = |s: &State| s.padding_idx.map_or("None".into(), |p| p.to_string());
    let ids_shape = move || match batched.get() {
        true => view! {
            <Field label="batch" value=shown(|s| dim_of(s, 0)) on_commit=field(|s, t| s.set_input_size(0, t)) />
            <Field label="seq_len" value=shown(|s| dim_of(s, 1)) on_commit=field(|s, t| s.set_input_size(1, t)) />
        }
        .into_any(),
        false => view! {
            <Field label="length" value=shown(|s| dim_of(s, 0)) on_commit=field(|s, t| s.set_input_size(0, t)) />
        }
        .into_any(),
    };
    view! {
        <div class="emb-controls controls">
            <fieldset>
                <legend>"Table"</legend>
                <Field
                    label="num_embeddings"
                    value=shown(|s| s.num_embeddings().to_string())
                    on_commit=field(State::set_num_embeddings)
                />
                <Field
                    label="embedding_dim"
                    value=shown(|s| s.embedding_dim().to_string())
                    on_commit=field(State::set_embedding_dim)
                />
                <Field
                    label="padding_idx"
                    value=shown(padding)
                    on_commit=field(State::set_padding_idx)
                    issue=field_issue("padding_idx")
                />
                <label class="flag">
                    <input
                        type="checkbox"
                        prop:checked=move || pretrained.get()
                        on:change=flag("from_pretrained")
                    />
                    " from_pretrained"
                </label>
                <label class="flag" class:off=move || !pretrained.get()>
                    <input
                        type="checkbox"
                        prop:checked=move || state.with(|s| s.freeze)
                        disabled=move || !pretrained.get()
                        on:change=flag("freeze")
                    />
                    " freeze"
                </label>
                <label class="flag">
                    <input
                        type="checkbox"
                        prop:checked=move || state.with(|s| s.sparse)
                        on:change=flag("sparse")
                    />
                    " sparse"
                </label>
                <SeedField
                    on_seed=reseed
                    seed=Signal::derive(move || state.with(|s| s.seed.clone().unwrap_or_else(|| "0".into())))
                />
                {move || field_issue("weight").get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            </fieldset>
            <fieldset>
                <legend>"Ids"</legend>
                <label class="flag">
                    <input type="checkbox" prop:checked=move || batched.get() on:change=flag("batched") />
                    " batch × sequence"
                </label>
                {ids_shape}
            </fieldset>
        </div>
    }
}

/// The size of dimension `dim` of the ids, as the size fields show it.
fn dim_of(s: &State, dim: usize) -> String {
    s.input.shape().get(dim).copied().unwrap_or(1).to_string()
}

/// A copy of the row being looked up, flying from `weight` to its place in `output`; positions
/// in pixels relative to the scene. `run` alternates so each step restarts the CSS animation.
#[derive(Clone, Debug, PartialEq)]
struct Flight {
    from: (f64, f64),
    to: (f64, f64),
    width: f64,
    numbers: Vec<String>,
    run: bool,
}

impl Flight {
    /// The flight of step `playhead` (1-based) from a table of `v` rows, if that step and both
    /// rows are on screen.
    fn plan(scene: &HtmlElement, c: &Computed, playhead: usize, v: usize) -> Option<Flight> {
        let flat = playhead.checked_sub(1)?;
        let pick = c.picks.get(flat)?;
        let d = c.output.shape().last().copied().unwrap_or(0);
        let (src, _) = row_box(scene, "weight", &[pick.row], pick.row, v)?;
        let (dst, row_width) = row_box(scene, "output", &pick.at, flat, c.output.numel() / d.max(1))?;
        let values = c.output.data().get(flat * d..(flat + 1) * d)?;
        // One number per output cell, as many as fit across the scene, so they land on their cells.
        let cell = row_width / d.max(1) as f64;
        let room = scene.offset_width() as f64 - dst.0;
        let fit = ((room / cell.max(1.0)) as usize).clamp(1, d.max(1));
        let numbers = values.iter().take(fit).map(|&x| short(x)).collect();
        Some(Flight { from: src, to: dst, width: cell * fit as f64, numbers, run: false })
    }

    /// The same flight, marked to restart the animation after `previous`.
    fn after(mut self, previous: Option<&Flight>) -> Self {
        self.run = !previous.is_some_and(|p| p.run);
        self
    }

    fn view(self) -> impl IntoView {
        // Set through the CSSOM, which the Content-Security-Policy allows (a style attribute it refuses).
        let px = |v: f64| format!("{v:.1}px");
        view! {
            <div
                class="flight"
                class:run-a=self.run
                class:run-b=!self.run
                style:left=px(self.from.0)
                style:top=px(self.from.1)
                style:width=px(self.width)
                style:--dx=px(self.to.0 - self.from.0)
                style:--dy=px(self.to.1 - self.from.1)
                aria-hidden="true"
            >
                {self.numbers.into_iter().map(|n| view! { <span>{n}</span> }).collect_view()}
            </div>
        }
    }
}

fn grid(scene: &HtmlElement, name: &str) -> Option<web_sys::Element> {
    scene.query_selector(&format!("[role=grid][aria-label=\"{name}\"]")).ok().flatten()
}

/// The top-left (relative to the scene) and width of one row of a grid: the row of cells
/// `name[lead.., 0]`, or, in a heat map, the band of row `flat` out of `rows`.
fn row_box(scene: &HtmlElement, name: &str, lead: &[usize], flat: usize, rows: usize) -> Option<((f64, f64), f64)> {
    let first = label(name, &[lead, &[0]].concat());
    let cell = scene.query_selector(&format!("[data-cell=\"{first}\"]")).ok().flatten();
    if let Some(row) = cell.and_then(|c| c.closest("tr").ok().flatten()).and_then(|r| r.dyn_into::<HtmlElement>().ok())
    {
        return Some((offset_in(&row, scene)?, row.offset_width() as f64));
    }
    let canvas = grid(scene, name)?.query_selector("canvas").ok().flatten()?.dyn_into::<HtmlElement>().ok()?;
    let (x, y) = offset_in(&canvas, scene)?;
    let band = canvas.offset_height() as f64 / rows.max(1) as f64;
    Some(((x, y + band * flat as f64), canvas.offset_width() as f64))
}

/// `el`'s position inside `scene` (which is positioned), following offset parents and
/// discounting any scrolled box on the way.
fn offset_in(el: &HtmlElement, scene: &HtmlElement) -> Option<(f64, f64)> {
    let (mut x, mut y) = (0.0, 0.0);
    let mut at = el.clone();
    loop {
        x += at.offset_left() as f64;
        y += at.offset_top() as f64;
        let parent = at.offset_parent()?.dyn_into::<HtmlElement>().ok()?;
        if &parent == scene {
            return Some((x, y));
        }
        x -= parent.scroll_left() as f64;
        y -= parent.scroll_top() as f64;
        at = parent;
    }
}
