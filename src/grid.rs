use crate::heatmap::HeatMap;
use crate::shell::Look;
use leptos::prelude::*;
use rowflow_core::format::{full, not_finite, short};
use rowflow_core::scene::label;
use rowflow_core::tensor::{py_shape, unravel};
use rowflow_core::{Ids, Mark, Marks, Phase, Tensor};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// Past this many cells a tensor is drawn as a heat map instead of cells.
pub const HEATMAP_CELLS: usize = 400;

/// What a grid shows: each value printed short (PyTorch's 4 decimals) and full (every digit,
/// shown while a cell has focus), and the values themselves (shared with the tensor shown, not
/// copied) for the heat map.
#[derive(Clone, Debug, PartialEq)]
pub struct GridData {
    pub short: Vec<String>,
    pub full: Vec<String>,
    pub values: Tensor,
    /// What its nan and inf cells mean, if it has any.
    pub not_finite: Option<String>,
}

/// No tensor: an empty one.
impl Default for GridData {
    fn default() -> Self {
        Self::floats(&Tensor::vector(Vec::new()))
    }
}

impl GridData {
    /// Texts are made only for tensors small enough to show as cells.
    pub fn floats(t: &Tensor) -> Self {
        let small = t.numel() <= HEATMAP_CELLS;
        let texts = |f: fn(f32) -> String| if small { t.data().iter().map(|&x| f(x)).collect() } else { Vec::new() };
        let not_finite = not_finite(t.data());
        Self { short: texts(short), full: texts(full), values: t.clone(), not_finite }
    }

    pub fn ids(t: &Ids) -> Self {
        let text: Vec<String> =
            if t.numel() <= HEATMAP_CELLS { t.data().iter().map(|i| i.to_string()).collect() } else { Vec::new() };
        Self { short: text.clone(), full: text, values: t.map(|i| i as f32), not_finite: None }
    }

    pub fn shape(&self) -> &[usize] {
        self.values.shape()
    }

    fn numel(&self) -> usize {
        self.values.numel()
    }

    /// Cell `i` as (short, full) text.
    fn text(&self, i: usize) -> (String, String) {
        let at = |texts: &[String]| texts.get(i).cloned().unwrap_or_default();
        (at(&self.short), at(&self.full))
    }
}

/// The `data-mark` value of a mark, also its CSS class.
pub fn mark_name(m: Mark) -> &'static str {
    match m {
        Mark::Read => "read",
        Mark::Write => "write",
        Mark::Done => "done",
    }
}

/// A tensor as a labelled grid: `role="grid"` named by its PyTorch name. Each cell's focusable
/// element carries its PyTorch index (`data-cell="weight[1, 2]"`, for tests and code) and is
/// named by it: an input `weight[1, 2]` (its value is read apart), a read-only cell with the
/// number it shows, `output[0, 0] = 0.6957`, so a screen reader hears the number. 1-D is one
/// row, 2-D rows, higher ranks a stack of 2-D slices; past `HEATMAP_CELLS` cells, a heat map.
///
/// Editable when `on_edit` is given: typing commits on Enter/Tab/blur, bad text keeps the old value
/// and shows why beside the cell (`aria-invalid`, `role="alert"`), Escape reverts, arrows move.
#[component]
pub fn Grid(
    #[prop(into)] name: String,
    #[prop(into)] data: Signal<GridData>,
    #[prop(optional)] on_edit: Option<Callback<(usize, String), Result<(), String>>>,
    #[prop(optional)] on_paste: Option<Callback<(usize, String), Result<(), String>>>,
    #[prop(optional, into)] marks: Signal<Marks>,
    #[prop(optional, into)] issues: Signal<Vec<(usize, String)>>,
    #[prop(optional)] on_focus: Option<Callback<Vec<usize>>>,
    /// Cells the current step multiplies by zero (`data-zero`), e.g. most of a one-hot row.
    #[prop(optional_no_strip)]
    dim: Option<Callback<Vec<usize>, bool>>,
    /// Flat indices of cells the last SGD step changed (`data-changed`).
    #[prop(optional, into)]
    changed: Signal<Vec<usize>>,
) -> impl IntoView {
    let shape = Memo::new(move |_| data.with(|d| d.shape().to_vec()));
    let big = Memo::new(move |_| data.with(|d| d.numel() > HEATMAP_CELLS));
    let caption_name = name.clone();
    let body = move || {
        if big.get() {
            view! { <HeatMap name=name.clone() data=data marks=marks on_focus=on_focus /> }.into_any()
        } else {
            let active = RwSignal::new(0);
            let cells =
                Cells { name: name.clone(), data, on_edit, on_paste, marks, issues, on_focus, dim, changed, active };
            cells_view(cells, shape.get()).into_any()
        }
    };
    view! {
        <figure class="tensor">
            <figcaption>
                <code class="name">{caption_name}</code>
                " "
                <span class="shape">{move || py_shape(&shape.get())}</span>
            </figcaption>
            {body}
            {move || data.with(|d| d.not_finite.clone()).map(|note| view! { <p class="grid-note" role="note">{note}</p> })}
        </figure>
    }
}

/// Everything a cell needs, shared by all cells of one grid.
#[derive(Clone)]
struct Cells {
    name: String,
    data: Signal<GridData>,
    on_edit: Option<Callback<(usize, String), Result<(), String>>>,
    on_paste: Option<Callback<(usize, String), Result<(), String>>>,
    marks: Signal<Marks>,
    issues: Signal<Vec<(usize, String)>>,
    on_focus: Option<Callback<Vec<usize>>>,
    dim: Option<Callback<Vec<usize>, bool>>,
    changed: Signal<Vec<usize>>,
    /// The grid is one Tab stop (the ARIA grid pattern): the cell last focused, arrows inside.
    active: RwSignal<usize>,
}

/// The table(s) for one shape. Built once per shape: values, marks and errors update in place,
/// so a cell keeps focus while the scene recomputes around it.
fn cells_view(c: Cells, shape: Vec<usize>) -> impl IntoView {
    let cols = shape.last().copied().unwrap_or(1).max(1);
    let rows_per_slice = if shape.len() >= 2 { shape[shape.len() - 2] } else { 1 }.max(1);
    let numel: usize = shape.iter().product();
    let slices = numel.div_ceil(cols * rows_per_slice);
    // Typed text that was refused, kept in its cell with the reason until fixed or reverted.
    let drafts = RwSignal::new(HashMap::<usize, (String, String)>::new());
    let table = NodeRef::<leptos::html::Div>::new();
    // A signal per cell, set only when its number changes: an edit re-renders the cells it
    // moved, not every cell of every grid it reaches.
    let data = c.data;
    let numbers: Vec<_> = (0..numel).map(|i| RwSignal::new(data.with_untracked(|d| d.text(i)))).collect();
    // While focused, a cell shows every digit.
    let focused: Vec<_> = (0..numel).map(|_| RwSignal::new(false)).collect();
    let watched = numbers.clone();
    Effect::new(move || {
        data.with(|d| {
            for (i, number) in watched.iter().enumerate() {
                if number.with_untracked(|(s, f)| d.short.get(i) != Some(s) || d.full.get(i) != Some(f)) {
                    number.set(d.text(i));
                }
            }
        })
    });

    let tables = (0..slices)
        .map(|s| {
            let rows = (0..rows_per_slice)
                .map(|r| {
                    let cells = (0..cols)
                        .map(|col| {
                            let i = (s * rows_per_slice + r) * cols + col;
                            cell_view(&c, &shape, i, drafts, numbers[i], focused[i])
                        })
                        .collect_view();
                    view! { <tr role="row">{cells}</tr> }
                })
                .collect_view();
            let lead = (shape.len() > 2).then(|| {
                let index = unravel(s * rows_per_slice * cols, &shape);
                let prefix: Vec<String> = index[..shape.len() - 2].iter().map(|i| i.to_string()).collect();
                let text = format!("{}[{}]", c.name, prefix.join(", "));
                view! {
                    <tr role="row">
                        <th role="columnheader" class="slice-label" colspan=cols>{text}</th>
                    </tr>
                }
            });
            // Presentational tables: the rows belong to the grid itself, as ARIA requires.
            view! {
                <table role="presentation">
                    <tbody role="presentation">{lead} {rows}</tbody>
                </table>
            }
        })
        .collect_view();
    let grid_name = c.name.clone();
    let keys = Rc::new(Keys { c, shape, table, drafts, numbers, focused });
    let rank = keys.shape.len();
    view! {
        <div
            class="grid"
            role="grid"
            aria-label=grid_name
            data-rank=rank
            node_ref=table
            on:focusin=listen(&keys, Keys::focus)
            on:focusout=listen(&keys, Keys::blur)
            on:keydown=listen(&keys, Keys::keydown)
            on:change=listen(&keys, Keys::change)
            on:paste=listen(&keys, Keys::paste)
        >
            {tables}
        </div>
    }
}

/// One of the grid's listeners: `handle` with the grid's keys, for an event of any type.
fn listen<E: Into<web_sys::Event>>(keys: &Rc<Keys>, handle: fn(&Keys, web_sys::Event)) -> impl FnMut(E) + 'static {
    let keys = keys.clone();
    move |ev: E| handle(&keys, ev.into())
}

/// The cell an event comes from (its `data-i`) and its element: a grid listens once for all its
/// cells, so a cell costs its DOM and bindings, not five listeners of its own.
fn cell_of(ev: &web_sys::Event) -> Option<(usize, web_sys::HtmlElement)> {
    let el = ev.target()?.dyn_into::<web_sys::HtmlElement>().ok()?;
    let i = el.get_attribute("data-i")?.parse().ok()?;
    Some((i, el))
}

/// Focus, keys, typing and paste for all the cells of one grid, shared by its listeners.
struct Keys {
    c: Cells,
    shape: Vec<usize>,
    table: NodeRef<leptos::html::Div>,
    drafts: RwSignal<HashMap<usize, (String, String)>>,
    numbers: Vec<RwSignal<(String, String)>>,
    focused: Vec<RwSignal<bool>>,
}

impl Keys {
    /// Every digit of cell `i`.
    fn full(&self, i: usize) -> String {
        self.numbers.get(i).map(|n| n.with_untracked(|(_, f)| f.clone())).unwrap_or_default()
    }

    fn focus(&self, ev: web_sys::Event) {
        let Some((i, el)) = cell_of(&ev) else { return };
        // A number field shows every digit at once, so typing right after focusing replaces them.
        if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            if self.drafts.with_untracked(|d| !d.contains_key(&i)) {
                input.set_value(&self.full(i));
                input.select();
            }
        }
        if let Some(focused) = self.focused.get(i) {
            focused.set(true);
        }
        if self.c.active.get_untracked() != i {
            self.c.active.set(i);
        }
        if let Some(cb) = self.c.on_focus {
            cb.run(unravel(i, &self.shape));
        }
    }

    fn blur(&self, ev: web_sys::Event) {
        if let Some(focused) = cell_of(&ev).and_then(|(i, _)| self.focused.get(i)) {
            focused.set(false);
        }
    }

    fn change(&self, ev: web_sys::Event) {
        let Some((i, el)) = cell_of(&ev) else { return };
        if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
            self.commit(i, input.value());
        }
    }

    /// Types `value` into cell `i`: a refused value stays in the cell as a draft with the reason.
    fn commit(&self, i: usize, value: String) {
        let drafts = self.drafts;
        // `try_run`: leaving the page with a cell still being typed in blurs it, and so commits
        // it, after the scene it belongs to is gone; that text has nowhere to go.
        match self.c.on_edit.and_then(|cb| cb.try_run((i, value.clone()))) {
            // Every cell of the grid reads the drafts: touch them only when this cell had one.
            Some(Ok(())) if drafts.with_untracked(|d| d.contains_key(&i)) => drafts.update(|d| {
                d.remove(&i);
            }),
            Some(Ok(())) => {}
            Some(Err(message)) => drafts.update(|d| {
                d.insert(i, (value, message));
            }),
            None => {}
        }
    }

    /// Arrow keys and Enter move like a spreadsheet; `at_start`/`at_end`: whether the caret
    /// allows leaving the cell that way.
    fn step(&self, i: usize, key: &str, at_start: bool, at_end: bool) -> Option<usize> {
        let cols = self.shape.last().copied().unwrap_or(1).max(1);
        let numel: usize = self.shape.iter().product();
        match key {
            "ArrowUp" => i.checked_sub(cols),
            "ArrowDown" | "Enter" => Some(i + cols).filter(|&j| j < numel),
            "ArrowLeft" if at_start => i.checked_sub(1),
            "ArrowRight" if at_end => Some(i + 1).filter(|&j| j < numel),
            "Home" if at_start => Some(i - i % cols),
            "End" if at_end => Some(i - i % cols + cols - 1),
            _ => None,
        }
    }

    fn move_to(table: NodeRef<leptos::html::Div>, j: usize) {
        let el = table.get_untracked().and_then(|t| t.query_selector(&format!("[data-i=\"{j}\"]")).ok().flatten());
        if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    }

    fn keydown(&self, ev: web_sys::Event) {
        let (Some((i, el)), Some(ev)) = (cell_of(&ev), ev.dyn_ref::<web_sys::KeyboardEvent>()) else { return };
        let key = ev.key();
        let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() else {
            if let Some(j) = self.step(i, &key, true, true) {
                ev.prevent_default();
                Self::move_to(self.table, j);
            }
            return;
        };
        let (len, start, end) = (input.value().chars().count() as u32, input.selection_start(), input.selection_end());
        let (at_start, at_end) = (start == Ok(Some(0)) && end == Ok(Some(0)), start == Ok(Some(len)));
        match key.as_str() {
            "Escape" => {
                self.drafts.update(|d| {
                    d.remove(&i);
                });
                input.set_value(&self.full(i));
                return;
            }
            "Enter" => {
                self.commit(i, input.value());
                // The new numbers first, the caret a frame later: focusing a text field costs
                // Chromium more than the whole recompute. Not if the learner has moved on.
                if let Some(j) = self.step(i, &key, true, at_end) {
                    ev.prevent_default();
                    let (table, input) = (self.table, input.clone());
                    request_animation_frame(move || {
                        set_timeout(
                            move || {
                                if document().active_element().is_some_and(|a| a == **input) {
                                    Self::move_to(table, j);
                                }
                            },
                            std::time::Duration::ZERO,
                        )
                    });
                }
                return;
            }
            _ => {}
        }
        if let Some(j) = self.step(i, &key, at_start, at_end) {
            ev.prevent_default();
            Self::move_to(self.table, j);
        }
    }

    fn paste(&self, ev: web_sys::Event) {
        let (Some(cb), Some((i, _))) = (self.c.on_paste, cell_of(&ev)) else { return };
        let Some(ev) = ev.dyn_ref::<web_sys::ClipboardEvent>() else { return };
        let text = ev.clipboard_data().and_then(|d| d.get_data("text").ok()).unwrap_or_default();
        // One plain value is ordinary typing; a block goes to the scene whole.
        if !text.trim().contains(['\t', '\n', '[', ',', ' ']) {
            return;
        }
        ev.prevent_default();
        match cb.run((i, text.clone())) {
            Ok(()) => self.drafts.update(|d| {
                d.remove(&i);
            }),
            Err(message) => self.drafts.update(|d| {
                d.insert(i, (self.full(i), message));
            }),
        }
    }
}

fn cell_view(
    c: &Cells,
    shape: &[usize],
    i: usize,
    drafts: RwSignal<HashMap<usize, (String, String)>>,
    number: RwSignal<(String, String)>,
    focused: RwSignal<bool>,
) -> AnyView {
    let index = unravel(i, shape);
    let aria = label(&c.name, &index);
    let (marks, issues, name) = (c.marks, c.issues, c.name.clone());
    let idx = index.clone();
    let mark = Memo::new(move |_| marks.with(|m| m.of(&name, &idx)));
    let mark_attr = move || mark.get().map(mark_name);
    // What a lesson's step points at.
    let (look, look_name, look_index) = (use_context::<Look>(), c.name.clone(), index.clone());
    let looked =
        move || look.is_some_and(|Look(l)| l.with(|spans| spans.iter().any(|s| s.contains(&look_name, &look_index))));
    // Backward steps colour apart from forward ones.
    let phase_attr =
        move || (mark.get().is_some() && marks.with(|m| m.phase == Some(Phase::Backward))).then_some("backward");
    let text = move || number.with(|(s, f)| if focused.get() { f } else { s }.clone());
    let problem = move || {
        drafts
            .with(|d| d.get(&i).map(|(_, m)| m.clone()))
            .or_else(|| issues.with(|is| is.iter().find(|(j, _)| *j == i).map(|(_, m)| m.clone())))
    };
    let (dim, changed, active) = (c.dim, c.changed, c.active);
    let was_changed = Memo::new(move |_| changed.with(|c| c.contains(&i)));
    let zero_index = index.clone();
    let zero = move || dim.is_some_and(|f| f.run(zero_index.clone())).then_some("true");
    let tab_stop = move || if active.get() == i { "0" } else { "-1" };
    let alert = move || problem().map(|m| view! { <span class="cell-error" role="alert">{m}</span> });
    // What the timeline and the last SGD step say of the cell, on its `td` either way, one
    // attribute each (the style sheet reads them): a cell's every binding costs as it is built.
    let lit = move || {
        view! {
            <{..}
                data-mark=mark_attr
                data-phase=phase_attr
                data-zero=zero.clone()
                class:look=looked.clone()
                data-changed=move || was_changed.get().then_some("true")
            />
        }
    };

    if c.on_edit.is_none() {
        // The name holds everything the cell shows (its number, and a refusal if any), so what
        // is heard is what is seen.
        let name = aria.clone();
        let spoken = move || match problem() {
            Some(m) => format!("{name} = {} {m}", text()),
            None => format!("{name} = {}", text()),
        };
        return view! {
            <td
                role="gridcell"
                data-i=i
                tabindex=tab_stop
                data-cell=aria
                aria-label={spoken}
                {..lit()}
                aria-invalid=move || problem().map(|_| "true")
            >
                {text}
                {alert}
            </td>
        }
        .into_any();
    }

    let value = move || drafts.with(|d| d.get(&i).map(|(t, _)| t.clone())).unwrap_or_else(text);
    view! {
        <td role="gridcell" {..lit()}>
            <input
                type="text"
                inputmode="decimal"
                spellcheck="false"
                autocomplete="off"
                data-i=i
                data-cell=aria.clone()
                tabindex=tab_stop
                aria-label=aria
                aria-invalid=move || problem().map(|_| "true")
                data-mark=mark_attr
                prop:value=value
            />
            {alert}
        </td>
    }
    .into_any()
}
