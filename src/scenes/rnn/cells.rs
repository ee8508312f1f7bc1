//! The unrolled RNN: one box per cell, per layer and direction, for one sequence of the batch.
//! `x_t` comes down from the row above, `h_{t-1}` in from the side (from the left going forward,
//! from the right in reverse), `h_t` goes on. The timeline lights the cell it is on; a packed
//! sequence's steps past its length are greyed and say they are skipped.
//!
//! What flows into a cell (its `x_t` and `h_{t-1}`) is its tooltip, and also a line under the
//! diagram, so it never needs a hover: the focused cell's, else the one the step is writing.

use crate::grid::mark_name;
use leptos::prelude::*;
use rowflow_core::format::{display, fixed_exp, short};
use rowflow_core::scene::label;
use rowflow_core::scene::rnn::{CellBox, Lane, Run};
use rowflow_core::{Mark, Marks, Phase, Tensor};

/// A box lists at most this many numbers of its `h_t`.
const SHOWN: usize = 6;

#[component]
pub fn Unrolled(
    #[prop(into)] run: Signal<Option<Run>>,
    /// What packing does to these sequences (`None` when not packed).
    #[prop(into)]
    note: Signal<Option<String>>,
    /// `(input.grad, output.grad)` once backward has run: the `x_t` and output boxes print theirs
    /// under their numbers.
    #[prop(into)]
    grads: Signal<(Option<Tensor>, Option<Tensor>)>,
    /// The sequence of the batch the diagram follows.
    sequence: RwSignal<usize>,
    #[prop(into)] marks: Signal<Marks>,
    /// A cell `(layer, direction, t)` was clicked: go to its step of the pass shown.
    on_cell: Callback<(usize, usize, usize)>,
    /// An input or output box was clicked: show the formula of this element.
    on_pick: Callback<(String, Vec<usize>)>,
) -> impl IntoView {
    let picker = move || {
        run.with(|r| {
            let Some(r) = r else { return ().into_any() };
            let buttons = (0..r.batch()).map(|b| {
                let text = match r.padding_value {
                    Some(_) => t!("rnn-sequence-length", sequence = b, length = r.lengths[b]),
                    None => b.to_string(),
                };
                view! {
                    <button
                        type="button"
                        aria-pressed=move || (sequence.get() == b).to_string()
                        on:click=move |_| sequence.set(b)
                    >
                        {text}
                    </button>
                }
            });
            view! {
                <div class="rnn-sequence" role="group" aria-label=t!("rnn-sequence-shown")>
                    <span>{t!("rnn-sequence-b")} " "</span>
                    {buttons.collect_view()}
                </div>
            }
            .into_any()
        })
    };
    // The diagram is rebuilt only when what it draws changes (sizes, lengths, the sequence);
    // an edit only changes numbers, which each box reads from `shown`.
    let frame = Memo::new(move |_| {
        let b = sequence.get();
        run.with(|r| r.as_ref().map(|r| Frame::of(r, b.min(r.batch().saturating_sub(1)))))
    });
    let shown = Memo::new(move |_| {
        let b = frame.with(|f| f.as_ref().map(|f| f.b));
        grads.with(|g| run.with(|r| r.as_ref().zip(b).map(|(r, b)| Shown::of(r, b, g)))).unwrap_or_default()
    });
    // What flows into the focused cell (keyboard, or a click that focuses it) or, with none
    // focused, into the cell the current step writes (a click goes to that cell's step).
    let focused = RwSignal::new(None::<String>);
    let on_focus = Callback::new(move |text: Option<String>| focused.set(text));
    // A rebuilt diagram has lost the focused box (a removed element may not say it lost focus).
    Effect::new(move |_| {
        frame.track();
        focused.set(None);
    });
    let writing = Memo::new(move |_| {
        marks.with(|m| {
            frame.with(|f| {
                let f = f.as_ref()?;
                let cells = f.lanes.iter().flat_map(|lane| lane.cells.iter().map(move |c| (lane, c)));
                let mut lit =
                    cells.filter(|(lane, c)| !c.skipped && m.of(&lane.name, &[c.t, f.b, 0]) == Some(Mark::Write));
                lit.next().map(|(lane, c)| feeds(&lane.name, f.b, c))
            })
        })
    });
    let feeds_line = move || focused.get().or_else(|| writing.get());
    let body = move || {
        frame.with(|f| {
            let f = f.as_ref()?;
            let (b, steps) = (f.b, f.ats.len());
            let heads = (0..steps).map(|t| view! { <div class="rnn-t" role="columnheader">{format!("t = {t}")}</div> });
            let text = move |row: fn(&Shown) -> &Vec<String>, t: usize| {
                move || shown.with(|s| row(s).get(t).cloned().unwrap_or_default())
            };
            let x_row = f.ats.iter().enumerate().map(|(t, &at)| {
                let mark = lit(marks, "input", vec![at[0], at[1], 0]);
                let pick = f.ids.then(|| ("input".to_string(), vec![at[0], at[1], 0]));
                let padding = t >= f.length;
                let texts = (text(|s| &s.x, t), text(|s| &s.x_grad, t));
                io_box(label("input", &at), padding, texts, mark, backward(marks), pick, on_pick)
            });
            let lanes =
                f.lanes.iter().enumerate().map(|(l, lane)| lane_view(lane, l, b, shown, marks, on_cell, on_focus));
            let out_row = f.ats.iter().enumerate().map(|(t, &at)| {
                let pick = ("output".to_string(), vec![at[0], at[1], 0]);
                let mark = lit(marks, "output", vec![at[0], at[1], 0]);
                let padding = t >= f.length;
                let texts = (text(|s| &s.out, t), text(|s| &s.out_grad, t));
                io_box(label("output", &at), padding, texts, mark, backward(marks), Some(pick), on_pick)
            });
            Some(view! {
                <div class="rnn-unrolled" role="table" aria-label=t!("rnn-unrolled-cells") style:--steps=steps.to_string()>
                    <div class="rnn-row" role="row">
                        <div class="rnn-lane-name" role="columnheader">{t!("rnn-time")}</div>
                        {heads.collect_view()}
                    </div>
                    <div class="rnn-row io" role="row">
                        <div class="rnn-lane-name" role="rowheader">
                            <code>"x_t"</code>
                            <span>{if f.ids { "emb(ids)" } else { "input" }}</span>
                        </div>
                        {x_row.collect_view()}
                    </div>
                    {lanes.collect_view()}
                    <div class="rnn-row io out" role="row">
                        <div class="rnn-lane-name" role="rowheader">
                            <code>"output"</code>
                            <span>{t!("rnn-top-layer")}</span>
                        </div>
                        {out_row.collect_view()}
                    </div>
                </div>
            })
        })
    };
    view! {
        <figure class="rnn-diagram">
            <figcaption>
                <strong>{t!("rnn-unrolled")}</strong>
                {t!("rnn-unrolled-takes")}
                <code>"x_t"</code>
                {t!("rnn-unrolled-from-above")}
                <code>"h_{t-1}"</code>
                {t!("rnn-unrolled-from-side")}
                <code>"h_t"</code>
                {t!("rnn-unrolled-on")}
            </figcaption>
            {move || note.get().map(|n| view! { <p class="rnn-pack-note">{n}</p> })}
            {picker}
            <div class="rnn-scroll">{body}</div>
            <p class="rnn-feeds">{feeds_line}</p>
        </figure>
    }
}

/// The trace's mark on one element, as a memo the box's class follows.
fn lit(marks: Signal<Marks>, tensor: &'static str, index: Vec<usize>) -> Memo<Option<Mark>> {
    Memo::new(move |_| marks.with(|m| m.of(tensor, &index)))
}

/// A box of the input or output row: the numbers of sequence `b` at time t, or padding, and their
/// gradient once backward has run. A box with a formula to show is a button.
fn io_box(
    name: String,
    padding: bool,
    (text, grad): (impl Fn() -> String + Send + Sync + 'static, impl Fn() -> String + Send + Sync + 'static),
    mark: Memo<Option<Mark>>,
    backward: Memo<bool>,
    pick: Option<(String, Vec<usize>)>,
    on_pick: Callback<(String, Vec<usize>)>,
) -> impl IntoView {
    let class = move || {
        let lit = mark.get().map(|m| format!(" {}", mark_name(m))).unwrap_or_default();
        format!("rnn-io{}{lit}", if padding { " padding" } else { "" })
    };
    let data_mark = move || mark.get().map(mark_name);
    let phase = move || (mark.get().is_some() && backward.get()).then_some("backward");
    // `output.grad[0, 1]`: the row's gradient, its own cell (a flow edge lands on it).
    let grad_name = name.replacen('[', ".grad[", 1);
    let inner = view! {
        <span class="rnn-name">{name}</span>
        <span class="rnn-values">{text}</span>
        {move || {
            let grad = grad();
            (backward.get() && !padding && !grad.is_empty()).then(|| view! {
                <span class="rnn-grads" data-cell=grad_name.clone()><span class="rnn-sr">{grad_name.clone()} " = "</span>{grad}</span>
            })
        }}
    };
    let body = match pick {
        Some(p) => view! {
            <button type="button" class=class data-mark=data_mark data-phase=phase on:click=move |_| on_pick.run(p.clone())>
                {inner}
            </button>
        }
        .into_any(),
        None => view! { <div class=class data-mark=data_mark data-phase=phase>{inner}</div> }.into_any(),
    };
    view! { <div class="rnn-slot" role="cell">{body}</div> }
}

/// What the diagram draws for one sequence, numbers aside.
#[derive(Clone, PartialEq)]
struct Frame {
    b: usize,
    /// `input`/`output` index of each time step.
    ats: Vec<[usize; 2]>,
    /// Sequence `b`'s length: later steps are padding.
    length: usize,
    /// `x_t` is `emb(ids)`, whose formula can be shown.
    ids: bool,
    /// The lanes with their cells' numbers left out.
    lanes: Vec<Lane>,
}

impl Frame {
    fn of(r: &Run, b: usize) -> Self {
        let mut lanes = r.lanes(b);
        lanes.iter_mut().flat_map(|l| &mut l.cells).for_each(|c| c.values.clear());
        let ats = (0..r.steps_len()).map(|t| r.at(t, b)).collect();
        Self { b, ats, length: r.lengths.get(b).copied().unwrap_or(0), ids: r.ids.is_some(), lanes }
    }
}

/// The numbers the boxes print: `x_t` and `output_t` by time (and their gradients, empty before
/// backward), each lane's `h_t` by time.
#[derive(Clone, Default, PartialEq)]
struct Shown {
    x: Vec<String>,
    out: Vec<String>,
    x_grad: Vec<String>,
    out_grad: Vec<String>,
    h: Vec<Vec<String>>,
}

impl Shown {
    fn of(r: &Run, b: usize, (input_grad, output_grad): &(Option<Tensor>, Option<Tensor>)) -> Self {
        let width = r.output.last_dim();
        let row = |values: &dyn Fn(usize, [usize; 2]) -> Vec<f32>| {
            let live = |t: usize| t < r.lengths.get(b).copied().unwrap_or(0);
            (0..r.steps_len())
                .map(|t| if live(t) { numbers(&values(t, r.at(t, b))) } else { t!("rnn-padding") })
                .collect()
        };
        // A gradient's numbers at `(t, b)`: indexed as `input`/`output` are (an unbatched one has no
        // batch dimension).
        let at_of = |g: &Option<Tensor>| {
            let Some(g) = g.clone() else { return vec![String::new(); r.steps_len()] };
            let values = |t: usize, at: [usize; 2]| {
                let index = |j| if g.shape().len() == 2 { vec![t, j] } else { vec![at[0], at[1], j] };
                (0..g.last_dim()).filter_map(|j| g.get(&index(j))).collect::<Vec<f32>>()
            };
            row(&values)
        };
        Self {
            x: row(&|t, _| r.x(t, b)),
            out: row(&|_, at| (0..width).filter_map(|f| r.output.get(&[at[0], at[1], f])).collect()),
            x_grad: at_of(input_grad),
            out_grad: at_of(output_grad),
            h: r.lanes(b).iter().map(|l| l.cells.iter().map(|c| numbers(&c.values)).collect()).collect(),
        }
    }
}

/// `0.9761 -1.0000 …`: the first few numbers, as PyTorch prints them.
fn numbers(values: &[f32]) -> String {
    let mut parts: Vec<String> = values.iter().take(SHOWN).map(|&v| short(v)).collect();
    if values.len() > SHOWN {
        parts.push(t!("rnn-more", count = values.len() - SHOWN));
    }
    parts.join("\n")
}

/// `h_l0[1, 0] ← input[0, 1] and h_l0[0, 0]`: what flows into a cell of sequence `b`.
fn feeds(name: &str, b: usize, cell: &CellBox) -> String {
    t!("rnn-feeds", cell = label(name, &[cell.t, b]), x = &cell.x, prev = &cell.prev)
}

/// One layer's direction (lane `l` of the diagram): its label, then its cells in time order.
/// `on_focus`: what flows into the cell that took the focus, `None` when it left.
fn lane_view(
    lane: &Lane,
    l: usize,
    b: usize,
    shown: Memo<Shown>,
    marks: Signal<Marks>,
    on_cell: Callback<(usize, usize, usize)>,
    on_focus: Callback<Option<String>>,
) -> impl IntoView {
    let dir = ["forward", "reverse"][lane.direction];
    let arrow = ["→", "←"][lane.direction];
    let (layer, direction) = (lane.layer, lane.direction);
    let cells = lane.cells.iter().map(|cell| {
        let pick = Callback::new(move |t| on_cell.run((layer, direction, t)));
        let t = cell.t;
        let values = move || shown.with(|s| s.h.get(l).and_then(|h| h.get(t)).cloned().unwrap_or_default());
        cell_view(&lane.name, layer, dir, lane.k, b, cell, values, marks, pick, on_focus)
    });
    view! {
        <div class=format!("rnn-row lane {dir}") role="row">
            <div class="rnn-lane-name" role="rowheader">
                <code>{lane.name.clone()}</code>
                <span>{format!("{} {arrow}", t!("rnn-layer-direction", layer = lane.layer, direction = dir))}</span>
            </div>
            {cells.collect_view()}
        </div>
    }
}

#[allow(clippy::too_many_arguments)]
fn cell_view(
    name: &str,
    layer: usize,
    dir: &'static str,
    k: usize,
    b: usize,
    cell: &CellBox,
    values: impl Fn() -> String + Send + Sync + 'static,
    marks: Signal<Marks>,
    on_pick: Callback<usize>,
    on_focus: Callback<Option<String>>,
) -> impl IntoView {
    let t = cell.t;
    // A skipped cell does not run: nothing flows into it, and it says so in its box.
    let into = (!cell.skipped).then(|| feeds(name, b, cell));
    let focus_text = into.clone();
    let (state, index) = (name.to_string(), vec![t, b, 0]);
    let mark = Memo::new(move |_| marks.with(|m| m.of(&state, &index)));
    let back = backward(marks);
    let body = match cell.skipped {
        true => view! { <span class="rnn-values">{t!("rnn-skipped")}<br />{t!("rnn-skipped-ended")}</span> }.into_any(),
        false => view! {
            {cell.first.then(|| view! { <span class="rnn-edge from">{t!("rnn-from-h0", cell = format!("h0[{k}, {b}]"))}</span> })}
            <span class="rnn-values">{values}</span>
            {cell.last.then(|| view! { <span class="rnn-edge to">{format!("= h_n[{k}, {b}]")}</span> })}
        }
        .into_any(),
    };
    let button = view! {
        <button
            type="button"
            class="rnn-cell"
            class:skipped=cell.skipped
            class:first=cell.first
            data-mark=move || mark.get().map(mark_name)
            data-phase=move || (mark.get().is_some() && back.get()).then_some("backward")
            class:read=move || mark.get() == Some(Mark::Read)
            class:write=move || mark.get() == Some(Mark::Write)
            class:done=move || mark.get() == Some(Mark::Done)
            data-cell=label(name, &[t, b])
            title=into
            disabled=cell.skipped
            on:click=move |_| on_pick.run(t)
            on:focus=move |_| on_focus.run(focus_text.clone())
            on:blur=move |_| on_focus.run(None)
        >
            <span class="rnn-name">{format!("{name}[{t}]")}</span>
            <span class="rnn-sr">{t!("rnn-cell-sr", sequence = b, layer = layer, direction = dir)}</span>
            {body}
        </button>
    };
    view! { <div class="rnn-slot" role="cell">{button}</div> }
}

/// Whether the trace's current step belongs to the backward pass.
fn backward(marks: Signal<Marks>) -> Memo<bool> {
    Memo::new(move |_| marks.with(|m| m.phase == Some(Phase::Backward)))
}

/// `‖dL/dh_t‖` per time step, one bar chart per layer and direction (log scale, so both a
/// vanishing and an exploding gradient fit), each bar with its number printed.
#[component]
pub fn GradNorms(#[prop(into)] norms: Signal<Vec<(String, Vec<f32>)>>) -> impl IntoView {
    const BAR: f64 = 76.0;
    const HEIGHT: f64 = 90.0;
    let chart = move |(name, values): (String, Vec<f32>)| {
        // The scale comes from the finite norms; an overflowed one (`inf`, `nan`) is a full bar
        // marked as such, its value printed.
        let logs: Vec<f64> = values.iter().map(|&v| (v.max(1e-12) as f64).log10()).collect();
        let finite = || logs.iter().copied().filter(|l| l.is_finite());
        let top = finite().fold(f64::MIN, f64::max).max(-12.0);
        let bottom = finite().fold(f64::MAX, f64::min).min(top - 1.0);
        let height = |l: f64| if l.is_finite() { 4.0 + (HEIGHT - 4.0) * (l - bottom) / (top - bottom) } else { HEIGHT };
        let width = BAR * values.len() as f64;
        let bars = values.iter().zip(&logs).enumerate().map(|(t, (&v, &l))| {
            let (x, h) = (t as f64 * BAR, if v.is_finite() { height(l) } else { HEIGHT });
            view! {
                <g class="norm-step" data-t=t>
                    <rect class="norm-bar" class:overflow=!v.is_finite() x=display(x + 4.0) y=display(HEIGHT - h + 22.0) width=display(BAR - 8.0) height=display(h)>
                        <title>{format!("‖dL/d{name}[{t}]‖ = {}", norm_text(v))}</title>
                    </rect>
                    <text class="norm-value" x=display(x + BAR / 2.0) y=display(HEIGHT - h + 17.0)>{norm_text(v)}</text>
                    <text class="norm-t" x=display(x + BAR / 2.0) y=display(HEIGHT + 44.0)>{format!("t={t}")}</text>
                </g>
            }
        });
        view! {
            <div class="norm-lane" data-lane=name.clone()>
                <code>{name.clone()}</code>
                <svg
                    class="norm-chart"
                    viewBox=format!("0 0 {} {}", display(width), display(HEIGHT + 48.0))
                    width=display(width)
                    height=display(HEIGHT + 48.0)
                    role="img"
                    aria-label=t!("rnn-norms-chart", lane = &name)
                >
                    {bars.collect_view()}
                </svg>
            </div>
        }
    };
    view! {
        <figure class="rnn-norms" aria-label="‖dL/dh_t‖">
            <figcaption>
                <strong>"‖dL/dh_t‖"</strong>
                " "
                {t!("rnn-norms-caption")}
            </figcaption>
            {move || norms.get().into_iter().map(chart).collect_view()}
        </figure>
    }
}

/// 4 decimals, or `1.2e-5` for what 4 decimals would show as 0.
fn norm_text(v: f32) -> String {
    if v != 0.0 && v.abs() < 1e-3 {
        fixed_exp(f64::from(v), 1)
    } else {
        short(v)
    }
}
