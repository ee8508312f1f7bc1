use crate::heatmap::HeatMap;
use crate::shell::Look;
use leptos::prelude::*;
use rowflow_core::scene::label;
use rowflow_core::tensor::{py_shape, unravel};
use rowflow_core::{Mark, Marks, Phase};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

mod data;

pub use data::{GridData, HEATMAP_CELLS};

/// The `data-mark` value of a mark, also its CSS class.
pub fn mark_name(m: Mark) -> &'static str {
    match m {
        Mark::Read => "read",
        Mark::Write => "write",
        Mark::Done => "done",
    }
}

/// A tensor's `.grad` in its grid, under each number: one place for a parameter and its
/// gradient, so the backward pass does not grow the scene. Named as PyTorch names it
/// (`weight.grad`), its cells carry their own `data-cell`, marks and outline; no data (the
/// forward pass, or a gradient of another shape) hides it.
#[derive(Clone)]
pub struct Grad {
    pub name: String,
    pub data: Signal<Option<GridData>>,
    /// A gradient cell clicked, or its number's cell focused: the sum that makes it.
    pub on_focus: Option<Callback<Vec<usize>>>,
    /// Gradient cells the current step writes as a product by zero (`data-zero`): most of a
    /// one-hot Linear's dense gradient.
    pub dim: Option<Callback<Vec<usize>, bool>>,
}

/// A tensor as a labelled grid: `role="grid"` named by its PyTorch name. Each cell's focusable
/// element carries its PyTorch index (`data-cell="weight[1, 2]"`, for tests and code) and is
/// named by it: an input `weight[1, 2]` (its value is read apart), a read-only cell with the
/// number it shows, `output[0, 0] = 0.6957`, so a screen reader hears the number. A step's
/// mark is on the `td` (`data-mark`). 1-D is one row, 2-D rows, higher ranks a stack of 2-D
/// slices; past `HEATMAP_CELLS` cells, a heat map.
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
    /// Messages pinned to cells.
    #[prop(optional, into)]
    issues: Option<Signal<Vec<(usize, String)>>>,
    #[prop(optional)] on_focus: Option<Callback<Vec<usize>>>,
    /// Cells the current step multiplies by zero (`data-zero`), e.g. most of a one-hot row.
    #[prop(optional_no_strip)]
    dim: Option<Callback<Vec<usize>, bool>>,
    /// Flat indices of cells the last SGD step changed (`data-changed`).
    #[prop(optional, into)]
    changed: Signal<Vec<usize>>,
    /// The tensor's `.grad`, shown under each number while it has one on show.
    #[prop(optional_no_strip)]
    grad: Option<Grad>,
) -> impl IntoView {
    let shape = Memo::new(move |_| data.with(|d| d.shape().to_vec()));
    let big = Memo::new(move |_| data.with(|d| d.numel() > HEATMAP_CELLS));
    let caption_name = name.clone();
    let body = move || {
        if big.get() {
            view! { <HeatMap name=name.clone() data=data marks=marks on_focus=on_focus /> }.into_any()
        } else {
            let active = RwSignal::new(0);
            let grad = grad.clone();
            let cells = Cells {
                name: name.clone(),
                data,
                on_edit,
                on_paste,
                marks,
                issues,
                on_focus,
                dim,
                changed,
                active,
                grad,
            };
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
struct Cells {
    name: String,
    data: Signal<GridData>,
    on_edit: Option<Callback<(usize, String), Result<(), String>>>,
    on_paste: Option<Callback<(usize, String), Result<(), String>>>,
    marks: Signal<Marks>,
    issues: Option<Signal<Vec<(usize, String)>>>,
    on_focus: Option<Callback<Vec<usize>>>,
    dim: Option<Callback<Vec<usize>, bool>>,
    changed: Signal<Vec<usize>>,
    /// The grid is one Tab stop (the ARIA grid pattern): the cell last focused, arrows inside.
    active: RwSignal<usize>,
    grad: Option<Grad>,
}

impl Cells {
    /// The gradient's numbers when it is on show at this grid's shape.
    fn grad_texts(&self, numel: usize) -> Option<Vec<String>> {
        let grad = self.grad.as_ref()?;
        grad.data.with(|d| {
            let d = d.as_ref().filter(|d| d.numel() == numel && d.short.len() == numel)?;
            Some(d.short.clone())
        })
    }
}

/// The table(s) for one shape, built once per shape as one piece of HTML with each cell's number
/// and name in it; what changes after (numbers, focus, refusals, marks) is written on the cells
/// whose say changed by one effect of each kind for the whole grid, so a cell keeps focus while
/// the scene recomputes around it. A view per cell with its own bindings cost ~40 µs a cell to
/// build: 30 ms for the four (3, 64) grids of One-hot's backward view.
fn cells_view(c: Cells, shape: Vec<usize>) -> impl IntoView {
    let numel: usize = shape.iter().product();
    // Each cell's PyTorch index, for what its grid writes on it, and its name.
    let indices: Rc<Vec<Vec<usize>>> = Rc::new((0..numel).map(|i| unravel(i, &shape)).collect());
    let names: Rc<Vec<String>> = Rc::new(indices.iter().map(|index| label(&c.name, index)).collect());
    // Typed text that was refused, kept in its cell with the reason until fixed or reverted.
    let drafts = RwSignal::new(HashMap::<usize, (String, String)>::new());
    // The cell with focus, which shows every digit.
    let focused = RwSignal::new(None::<usize>);
    let table = NodeRef::<leptos::html::Div>::new();
    let (html, built) = c.data.with_untracked(|d| skeleton(&c, &shape, &names, d));
    let grid_name = c.name.clone();
    // Whether the gradient is on show, as the grid's `data-grads`.
    let grad_data = c.grad.as_ref().map(|g| g.data);
    let grads = move || {
        let on = grad_data.is_some_and(|d| d.with(|d| d.as_ref().is_some_and(|d| d.numel() == numel)));
        on.then_some("")
    };
    // Classes, not `td:has(input)` or `td:has([aria-invalid])`: a `:has()` on every cell made
    // each style pass over hundreds of them a third slower (One-hot's backward pass at 64 ids).
    let class = if c.on_edit.is_some() { "grid editable" } else { "grid" };
    decorate(&c, indices, names, table, drafts, focused, built);
    let keys = Rc::new(Keys { c, shape, table, drafts, focused });
    let rank = keys.shape.len();
    view! {
        <div
            class=class
            role="grid"
            aria-label=grid_name
            data-rank=rank
            data-grads=grads
            node_ref=table
            on:focusin=listen(&keys, Keys::focus)
            on:focusout=listen(&keys, Keys::blur)
            on:keydown=listen(&keys, Keys::keydown)
            on:change=listen(&keys, Keys::change)
            on:paste=listen(&keys, Keys::paste)
            on:click=listen(&keys, Keys::click)
            inner_html=html
        ></div>
    }
}

/// The grid's tables as HTML, and what each cell shows in it: presentational tables (the rows
/// belong to the grid itself, as ARIA requires), each 2-D slice of a higher rank under its name.
/// A cell's focusable element (its input, or the cell) carries its flat index (`data-i`) and its
/// PyTorch index; a read-only cell is named with the number it shows.
fn skeleton(c: &Cells, shape: &[usize], names: &[String], d: &GridData) -> (String, Vec<Shown>) {
    use std::fmt::Write;
    let cols = shape.last().copied().unwrap_or(1).max(1);
    let rows_per_slice = if shape.len() >= 2 { shape[shape.len() - 2] } else { 1 }.max(1);
    let slices = names.len().div_ceil(cols * rows_per_slice);
    let active = c.active.get_untracked();
    let grads = c.grad_texts(names.len());
    let built: Vec<Shown> = (0..names.len())
        .map(|i| Shown { text: d.text(i, false), refused: None, grad: grads.as_ref().map(|g| g[i].clone()) })
        .collect();
    let grad_names: Vec<String> = match &c.grad {
        Some(g) => (0..names.len()).map(|i| label(&g.name, &unravel(i, shape))).collect(),
        None => Vec::new(),
    };
    // A cell's gradient under its number: its name read out before it, as the cell's own is.
    let g = |i: usize| match grad_names.get(i) {
        Some(name) => {
            let (name, text) = (escape(name), escape(built[i].grad.as_deref().unwrap_or_default()));
            format!(
                r#"<span class="g" data-g="{i}" data-cell="{name}"> <span class="sr">{name} = </span><span class="gv">{text}</span></span>"#
            )
        }
        None => String::new(),
    };
    let mut html = String::with_capacity(names.len() * 160);
    for s in 0..slices {
        html.push_str(r#"<table role="presentation"><tbody role="presentation">"#);
        if shape.len() > 2 {
            let index = unravel(s * rows_per_slice * cols, shape);
            let slice = label(&c.name, &index[..shape.len() - 2]);
            let slice = escape(&slice);
            let _ = write!(
                html,
                r#"<tr role="row"><th role="columnheader" class="slice-label" colspan="{cols}">{slice}</th></tr>"#
            );
        }
        for r in 0..rows_per_slice {
            html.push_str(r#"<tr role="row">"#);
            for col in 0..cols {
                let i = (s * rows_per_slice + r) * cols + col;
                let (name, text) = (escape(&names[i]), escape(&built[i].text));
                let tab = if i == active { "0" } else { "-1" };
                let g = g(i);
                let _ = if c.on_edit.is_some() {
                    write!(
                        html,
                        r#"<td role="gridcell"><input type="text" inputmode="decimal" spellcheck="false" autocomplete="off" data-i="{i}" data-cell="{name}" tabindex="{tab}" aria-label="{name}" value="{text}">{g}</td>"#
                    )
                } else {
                    let said = built[i].said(&names[i], grad_names.get(i).map(String::as_str));
                    let said = escape(&said);
                    write!(
                        html,
                        r#"<td role="gridcell" data-i="{i}" tabindex="{tab}" data-cell="{name}" aria-label="{said}">{text}{g}</td>"#
                    )
                };
            }
            html.push_str("</tr>");
        }
        html.push_str("</tbody></table>");
    }
    (html, built)
}

/// `text` as it may stand in HTML text or a quoted attribute.
fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"']) {
        return text.into();
    }
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").into()
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
    focused: RwSignal<Option<usize>>,
}

impl Keys {
    /// Every digit of cell `i`.
    fn full(&self, i: usize) -> String {
        self.c.data.try_with_untracked(|d| d.text(i, true)).unwrap_or_default()
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
        self.focused.set(Some(i));
        if self.c.active.get_untracked() != i {
            self.c.active.set(i);
        }
        if let Some(cb) = self.c.on_focus {
            cb.run(unravel(i, &self.shape));
        }
        self.grad_focus(i);
    }

    /// Cell `i`'s gradient, when it is on show, for the sum that makes it.
    fn grad_focus(&self, i: usize) {
        let numel = self.shape.iter().product::<usize>();
        let Some(Grad { data, on_focus: Some(cb), .. }) = &self.c.grad else { return };
        if data.with_untracked(|d| d.as_ref().is_some_and(|d| d.numel() == numel)) {
            cb.run(unravel(i, &self.shape));
        }
    }

    /// A gradient's number clicked (a typed cell's, whose input the click does not focus).
    fn click(&self, ev: web_sys::Event) {
        let g = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest(".g").ok().flatten());
        if let Some(i) = g.and_then(|g| g.get_attribute("data-g")?.parse().ok()) {
            self.grad_focus(i);
        }
    }

    fn blur(&self, ev: web_sys::Event) {
        // Leaving a scene blurs its focused cell after the grid is gone: `try_`.
        if cell_of(&ev).is_some_and(|(i, _)| self.focused.try_get_untracked() == Some(Some(i))) {
            self.focused.set(None);
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

/// Why a cell's text or value was refused, and the typed text kept in it if it was typed.
#[derive(PartialEq)]
struct Refused {
    draft: Option<String>,
    why: String,
}

/// What a cell shows: its number (every digit while it has focus), why it was refused, if it
/// was, and its gradient's number while that is on show; read-only, all are in its name too, so
/// what is heard is what is seen.
#[derive(Default, PartialEq)]
struct Shown {
    text: String,
    refused: Option<Refused>,
    grad: Option<String>,
}

impl Shown {
    /// A read-only cell's name as heard: `output[0] = 0.6957`, its gradient
    /// (`grad_names[i]`, the cell's own index in them) as `, 1.0000 (its gradient,
    /// output.grad[0])`, then why it was refused: the numbers in the order they are seen, so the
    /// name holds the visible text (WCAG 2.5.3; a parenthesis is not matched against it).
    fn said(&self, name: &str, grad: Option<&str>) -> String {
        let mut said = format!("{name} = {}", self.text);
        if let (Some(g), Some(gname)) = (&self.grad, grad) {
            said = format!("{said}, {g} (its gradient, {gname})");
        }
        if let Some(r) = &self.refused {
            said = format!("{said} {}", r.why);
        }
        said
    }

    /// Writes this on cell `(td, focus)` named `name`, whose gradient is named `grad`.
    fn write(&self, (td, focus): &(web_sys::Element, web_sys::Element), name: &str, grad: Option<&str>) {
        let why = self.refused.as_ref().map(|r| r.why.as_str());
        set(focus, "aria-invalid", why.map(|_| "true"));
        if let Ok(Some(old)) = td.query_selector(".cell-error") {
            old.remove();
        }
        match focus.dyn_ref::<web_sys::HtmlInputElement>() {
            Some(input) => {
                set(td, "data-refused", why.map(|_| ""));
                let value = self.refused.as_ref().and_then(|r| r.draft.as_deref()).unwrap_or(&self.text);
                // Unchanged, it is left alone: writing it would move the caret.
                if input.value() != value {
                    input.set_value(value);
                }
            }
            None => {
                // The number is the cell's first text; its gradient's span follows it.
                match td.first_child().filter(|n| n.node_type() == web_sys::Node::TEXT_NODE) {
                    Some(text) => text.set_node_value(Some(&self.text)),
                    None => {
                        let _ = td.prepend_with_str_1(&self.text);
                    }
                }
                set(td, "aria-label", Some(&self.said(name, grad)));
            }
        }
        if let Ok(Some(g)) = td.query_selector(".gv") {
            if g.text_content().as_deref() != Some(self.grad.as_deref().unwrap_or_default()) {
                g.set_text_content(self.grad.as_deref());
            }
        }
        let Some(why) = why else { return };
        if let Ok(alert) = document().create_element("span") {
            alert.set_class_name("cell-error");
            set(&alert, "role", Some("alert"));
            alert.set_text_content(Some(why));
            let _ = td.append_child(&alert);
        }
    }
}

/// What each cell shows (`Shown`), and what the timeline, a lesson, the step's zeros, the last SGD
/// step and the tab stop say of it, written on the cells by one effect of each kind for the whole
/// grid, and only on the cells whose say changed.
fn decorate(
    c: &Cells,
    indices: Rc<Vec<Vec<usize>>>,
    names: Rc<Vec<String>>,
    table: NodeRef<leptos::html::Div>,
    drafts: RwSignal<HashMap<usize, (String, String)>>,
    focused: RwSignal<Option<usize>>,
    built: Vec<Shown>,
) {
    let numel = indices.len();
    let (data, marks, changed, active, issues, name) = (c.data, c.marks, c.changed, c.active, c.issues, c.name.clone());
    let on = Rc::new(CellElements { table, found: Default::default() });
    let grad = c.grad.clone();
    let grad_names: Rc<Vec<String>> = Rc::new(match &grad {
        Some(g) => indices.iter().map(|index| label(&g.name, index)).collect(),
        None => Vec::new(),
    });
    let grad_texts = move || {
        let g = grad.as_ref()?;
        g.data.with(|d| d.as_ref().filter(|d| d.numel() == numel && d.short.len() == numel).map(|d| d.short.clone()))
    };

    let said = grad_names.clone();
    on.write(
        Writes::Say,
        built,
        move || {
            let at = focused.get();
            let issues = issues.map(|is| is.get()).unwrap_or_default();
            let grads = grad_texts();
            drafts.with(|drafts| {
                data.with(|d| {
                    let refused = |i| match drafts.get(&i) {
                        Some((text, why)) => Some(Refused { draft: Some(text.clone()), why: why.clone() }),
                        None => issues
                            .iter()
                            .find(|(j, _)| *j == i)
                            .map(|(_, why)| Refused { draft: None, why: why.clone() }),
                    };
                    let grad = |i: usize| grads.as_ref().map(|g| g[i].clone());
                    (0..numel)
                        .map(|i| Shown { text: d.text(i, at == Some(i)), refused: refused(i), grad: grad(i) })
                        .collect()
                })
            })
        },
        move |k, cell, shown| shown.write(cell, &names[k], said.get(k).map(String::as_str)),
    );

    let (at, name_) = (indices.clone(), name.clone());
    on.write(
        Writes::Look,
        Vec::new(),
        move || {
            marks.with(|m| {
                let backward = m.phase == Some(Phase::Backward);
                at.iter().map(|index| m.of(&name_, index).map(|mark| (mark_name(mark), backward))).collect()
            })
        },
        |_, (td, _), mark| {
            let (name, backward) = mark.unzip();
            set(td, "data-mark", name);
            set(td, "data-phase", backward.and_then(|b| b.then_some("backward")));
        },
    );
    if let Some(g) = &c.grad {
        // The gradient's own marks, zeros and outline, on its span in each cell.
        let (at, gname, dim) = (indices.clone(), g.name.clone(), g.dim);
        let look = use_context::<Look>();
        on.write(
            Writes::Look,
            Vec::new(),
            move || {
                let looked = |index: &Vec<usize>| {
                    look.is_some_and(|Look(l)| l.with(|spans| spans.iter().any(|s| s.contains(&gname, index))))
                };
                let zero = |index: &Vec<usize>| dim.is_some_and(|d| d.run(index.clone()));
                marks.with(|m| {
                    let backward = m.phase == Some(Phase::Backward);
                    let mark = |index| m.of(&gname, index).map(|mark| (mark_name(mark), backward));
                    at.iter().map(|index| (mark(index), looked(index), zero(index))).collect()
                })
            },
            |_, (td, _), (mark, looked, zero): &(Option<(&'static str, bool)>, bool, bool)| {
                let Ok(Some(g)) = td.query_selector(".g") else { return };
                let (name, backward) = mark.unzip();
                set(&g, "data-mark", name);
                set(&g, "data-phase", backward.and_then(|b| b.then_some("backward")));
                set(&g, "data-zero", zero.then_some("true"));
                let _ = g.class_list().toggle_with_force("look", *looked);
            },
        );
    }
    if let Some(dim) = c.dim {
        let at = indices.clone();
        on.write(
            Writes::Look,
            Vec::new(),
            move || at.iter().map(|index| dim.run(index.clone())).collect(),
            |_, (td, _), &zero| set(td, "data-zero", zero.then_some("true")),
        );
    }
    if let Some(Look(look)) = use_context::<Look>() {
        let at = indices.clone();
        on.write(
            Writes::Look,
            Vec::new(),
            move || look.with(|spans| at.iter().map(|index| spans.iter().any(|s| s.contains(&name, index))).collect()),
            |_, (td, _), &looked| {
                let _ = td.class_list().toggle_with_force("look", looked);
            },
        );
    }
    on.write(
        Writes::Look,
        Vec::new(),
        move || changed.with(|c| flags(numel, c.iter().copied())),
        |_, (td, _), &was| set(td, "data-changed", was.then_some("true")),
    );
    on.write(
        Writes::Say,
        Vec::new(),
        move || flags(numel, [active.get()]),
        |_, (_, focus), &stop| set(focus, "tabindex", Some(if stop { "0" } else { "-1" })),
    );
}

/// The most cells of one grid whose look changes with a fade at once.
const FADED: usize = 64;

/// What a writer changes on a cell: what it says (its number, refusal, tab stop), or its look (a
/// mark, a zero, a change), which fades in unless more than `FADED` cells change at once: those
/// change at once (`data-snap`), as a fade on each of hundreds of cells made every frame of it a
/// long task (One-hot, 64 ids: 120–180 ms when a clicker steps into the backward pass).
#[derive(Clone, Copy, PartialEq)]
enum Writes {
    Say,
    Look,
}

/// `numel` flags, set at `on` (those in range).
fn flags(numel: usize, on: impl IntoIterator<Item = usize>) -> Vec<bool> {
    let mut flags = vec![false; numel];
    on.into_iter().filter(|&i| i < numel).for_each(|i| flags[i] = true);
    flags
}

/// `name="value"` on `el`, or no `name` at all.
fn set(el: &web_sys::Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
}

/// A grid's cells once mounted, in index order: each one's `td` and what takes focus in it (its
/// input, or the `td`).
struct CellElements {
    table: NodeRef<leptos::html::Div>,
    found: std::cell::OnceCell<Vec<(web_sys::Element, web_sys::Element)>>,
}

impl CellElements {
    /// Keeps `write(k, cell, what)` on each cell `k` for what `now()` says of it, from the first
    /// run on which the grid is mounted; a cell is written only when its `what` differs from the
    /// last run's (at first, from what it was `built` with, `T::default()` past its end).
    fn write<T: Default + PartialEq + 'static>(
        self: &Rc<Self>,
        kind: Writes,
        built: Vec<T>,
        now: impl Fn() -> Vec<T> + 'static,
        write: impl Fn(usize, &(web_sys::Element, web_sys::Element), &T) + 'static,
    ) {
        let on = self.clone();
        let mut built = Some(built);
        Effect::new(move |last: Option<Vec<T>>| {
            let now = now();
            let last = last.or_else(|| built.take()).unwrap_or_default();
            let Some(cells) = on.cells() else { return last };
            // Compared where they stand: a cell's `Shown` is two strings, for every cell.
            let changed: Vec<usize> = (0..now.len().min(cells.len()))
                .filter(|&k| match last.get(k) {
                    Some(was) => *was != now[k],
                    None => now[k] != T::default(),
                })
                .collect();
            let many = changed.len() > FADED;
            for k in changed {
                if kind == Writes::Look {
                    set(&cells[k].0, "data-snap", many.then_some(""));
                }
                write(k, &cells[k], &now[k]);
            }
            now
        });
    }

    fn cells(&self) -> Option<&[(web_sys::Element, web_sys::Element)]> {
        if let Some(found) = self.found.get() {
            return Some(found);
        }
        let table = self.table.get()?;
        let list = table.query_selector_all("[data-i]").ok()?;
        let found = (0..list.length())
            .filter_map(|k| list.item(k)?.dyn_into::<web_sys::Element>().ok())
            .map(|focus| {
                let td = if focus.tag_name() == "INPUT" { focus.parent_element() } else { None };
                (td.unwrap_or_else(|| focus.clone()), focus)
            })
            .collect();
        Some(self.found.get_or_init(|| found))
    }
}
