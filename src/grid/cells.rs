//! What a grid's cells are built as and show: its tables as one piece of HTML, then each cell's
//! number, refusal, gradient and marks written on the cells whose say changed.

use super::{mark_name, Cells, GridData};
use crate::shell::Look;
use leptos::prelude::*;
use rowflow_core::scene::label;
use rowflow_core::tensor::unravel;
use rowflow_core::Phase;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// The grid's tables as HTML, and what each cell shows in it: presentational tables (the rows
/// belong to the grid itself, as ARIA requires), each 2-D slice of a higher rank under its name.
/// A cell's focusable element (its input, or the cell) carries its flat index (`data-i`) and its
/// PyTorch index; a read-only cell is named with the number it shows.
pub(super) fn skeleton(c: &Cells, shape: &[usize], names: &[String], d: &GridData) -> (String, Vec<Shown>) {
    use std::fmt::Write;
    let (rows_per_slice, cols) = c.layout(shape);
    let slices = names.len().div_ceil(cols * rows_per_slice);
    let active = c.active.get_untracked();
    let grads = c.grad_texts(names.len());
    let their = GradSaid::new();
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
        // Row names are for one 2-D table.
        let row_names: Option<Vec<String>> =
            c.rows.filter(|_| shape.len() == 2).map(|r| r.with_untracked(|l| l.lines().map(String::from).collect()));
        for r in 0..rows_per_slice {
            html.push_str(r#"<tr role="row">"#);
            if let Some(names) = &row_names {
                let name = escape(names.get(r).map_or("", String::as_str));
                let _ = write!(html, r#"<th role="rowheader" class="row-name" data-row="{r}">{name}</th>"#);
            }
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
                    let said = built[i].said(&names[i], grad_names.get(i).map(String::as_str), &their);
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

/// How a read-only cell names its gradient, `1.0000 (its gradient, output.grad[0])`, in the
/// learner's language: formatted once per grid with stand-ins for the number and the name, which
/// each cell's own replace (a message formatted per cell cost every cell a call into JS).
struct GradSaid(String);

impl GradSaid {
    const VALUE: &'static str = "\u{E000}";
    const NAME: &'static str = "\u{E001}";

    fn new() -> Self {
        Self(t!("grid-cell-gradient", value = Self::VALUE, name = Self::NAME))
    }

    /// Gradient `value` of the cell named `name`.
    fn of(&self, value: &str, name: &str) -> String {
        self.0.replace(Self::VALUE, value).replace(Self::NAME, name)
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
pub(super) struct Shown {
    text: String,
    refused: Option<Refused>,
    grad: Option<String>,
}

impl Shown {
    /// A read-only cell's name as heard: `output[0] = 0.6957`, its gradient
    /// (`grad_names[i]`, the cell's own index in them) as `, 1.0000 (its gradient,
    /// output.grad[0])`, then why it was refused: the numbers in the order they are seen, so the
    /// name holds the visible text (WCAG 2.5.3; a parenthesis is not matched against it).
    fn said(&self, name: &str, grad: Option<&str>, their: &GradSaid) -> String {
        let mut said = format!("{name} = {}", self.text);
        if let (Some(g), Some(gname)) = (&self.grad, grad) {
            said = format!("{said}, {}", their.of(g, gname));
        }
        if let Some(r) = &self.refused {
            said = format!("{said} {}", r.why);
        }
        said
    }

    /// Writes this on cell `(td, focus)` named `name`, whose gradient is named `grad`.
    fn write(
        &self,
        (td, focus): &(web_sys::Element, web_sys::Element),
        name: &str,
        grad: Option<&str>,
        their: &GradSaid,
    ) {
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
                set(td, "aria-label", Some(&self.said(name, grad, their)));
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
pub(super) fn decorate(
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

    let (said, their) = (grad_names.clone(), GradSaid::new());
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
        move |k, cell, shown| shown.write(cell, &names[k], said.get(k).map(String::as_str), &their),
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
