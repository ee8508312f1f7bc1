use crate::heatmap::HeatMap;
use leptos::prelude::*;
use rowflow_core::scene::label;
use rowflow_core::tensor::{py_shape, unravel};
use rowflow_core::{Mark, Marks};
use std::collections::HashMap;
use std::rc::Rc;

mod cells;
mod data;
mod keys;

use cells::{decorate, skeleton};
pub use data::{GridData, HEATMAP_CELLS};
use keys::{listen, Keys};

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

/// The names of the rows of some 2-D tensors, each before its row (`rowheader`), given in the
/// context of their grids: word2vec's words, one a line (a `String`, whose signal code every grid
/// has already: a list of them cost every link 1 KB gzipped). A change of them builds the table
/// again: give a memo.
#[derive(Clone, Copy)]
pub struct RowNames {
    pub tensors: &'static [&'static str],
    pub lines: Signal<String>,
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
    /// A 1-D tensor laid out as a column (a bias beside the rows of its weight), not a row.
    #[prop(optional)]
    column: bool,
) -> impl IntoView {
    let rows = use_context::<RowNames>().filter(|r| r.tensors.contains(&name.as_str())).map(|r| r.lines);
    let shape = Memo::new(move |_| data.with(|d| d.shape().to_vec()));
    let big = Memo::new(move |_| data.with(|d| d.numel() > HEATMAP_CELLS));
    let caption_name = name.clone();
    let body = move || {
        if big.get() {
            view! { <HeatMap name=name.clone() data=data marks=marks on_focus=on_focus /> }.into_any()
        } else {
            let active = RwSignal::new(0);
            let grad = grad.clone();
            // New row names (a corpus edited to as many words) build the table again: rare.
            if let Some(rows) = rows {
                rows.track();
            }
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
                column,
                rows,
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
    column: bool,
    rows: Option<Signal<String>>,
}

impl Cells {
    /// `(rows, cols)` of each 2-D slice the cells of `shape` are laid out in.
    fn layout(&self, shape: &[usize]) -> (usize, usize) {
        match shape {
            [n] if self.column => ((*n).max(1), 1),
            _ => (
                if shape.len() >= 2 { shape[shape.len() - 2] } else { 1 }.max(1),
                shape.last().copied().unwrap_or(1).max(1),
            ),
        }
    }

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
