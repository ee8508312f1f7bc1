use crate::grid::{mark_name, GridData};
use leptos::ev;
use leptos::prelude::*;
use rowflow_core::format::{display, full};
use rowflow_core::scene::label;
use rowflow_core::tensor::unravel;
use rowflow_core::{Mark, Marks};
use wasm_bindgen::{Clamped, JsCast};

/// The window onto the table, in CSS pixels; a larger table scrolls under it.
const MAX_W: usize = 720;
const MAX_H: usize = 480;
/// Cell sizes in pixels: rows at least 8 tall (so one marked row of 50,000 shows), columns at
/// least 2 wide (300 columns fit the window), both at most 16.
const MIN_ROW_H: usize = 8;
const MIN_COL_W: usize = 2;
const MAX_CELL: usize = 16;

/// A tensor too large for cells, as a colour heat map read as rows × last dim, virtualised: the
/// whole table is a scroll area at a fixed size per cell, and the canvas draws only the cells
/// in view, once per scroll frame, so 50,000 × 300 scrolls as smoothly as 30 × 30. The diverging
/// palette (blue below zero, orange above, after ColorBrewer's colour-blind-safe PuOr) is never
/// the only carrier: the value under the pointer or the keyboard cursor is read out as text,
/// with its whole row. Rows the trace touches are banded, and the cursor follows them.
#[component]
pub fn HeatMap(
    name: String,
    data: Signal<GridData>,
    marks: Signal<Marks>,
    on_focus: Option<Callback<Vec<usize>>>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let scroller = NodeRef::<leptos::html::Div>::new();
    let cursor = RwSignal::new(0usize);
    let scroll = RwSignal::new((0.0f64, 0.0f64));
    let geometry = Memo::new(move |_| data.with(|d| Geometry::of(d.shape())));
    // The rows the current step touches, found once per step (and only if it touches this table).
    let row_marks_name = name.clone();
    let marked = Memo::new(move |_| {
        let g = geometry.get();
        data.with(|d| {
            marks.with(|m| {
                if !m.read.iter().chain(&m.write).any(|s| s.tensor == row_marks_name) {
                    return Vec::new();
                }
                let lead = d.shape().len().saturating_sub(1);
                (0..g.rows)
                    .filter_map(|row| match m.of(&row_marks_name, &unravel(row * g.cols, d.shape())[..lead]) {
                        Some(mark @ (Mark::Read | Mark::Write)) => Some((row, mark)),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    Effect::new(move |_| {
        let (Some(canvas), g) = (canvas.get(), geometry.get()) else { return };
        let view = View::at(&g, scroll.get());
        data.with(|d| marked.with(|m| draw(&canvas, &g, &view, d, m, cursor.get())));
    });
    // Brings cell `i` into the window, if it is outside.
    let reveal = move |i: usize| {
        let (Some(el), g) = (scroller.get_untracked(), geometry.get_untracked()) else { return };
        let (top, left) = (((i / g.cols) * g.row_h) as i32, ((i % g.cols) * g.col_w) as i32);
        let (h, w) = (el.client_height(), el.client_width());
        if top < el.scroll_top() || top + g.row_h as i32 > el.scroll_top() + h {
            el.set_scroll_top(top - h / 2);
        }
        if left < el.scroll_left() || left + g.col_w as i32 > el.scroll_left() + w {
            el.set_scroll_left(left - w / 2);
        }
    };
    // The readout follows the step: the cursor moves to the first row it touches, same column.
    Effect::new(move |first: Option<()>| {
        let rows = marked.with(|m| m.first().map(|&(row, _)| row));
        if let (Some(row), Some(())) = (rows, first) {
            let g = geometry.get_untracked();
            let i = row * g.cols + cursor.get_untracked() % g.cols;
            cursor.set(i);
            reveal(i);
        }
    });
    let readout_name = name.clone();
    let readout = move || {
        let (g, i) = (geometry.get(), cursor.get());
        data.with(|d| {
            let Some(v) = d.values.data().get(i) else { return String::new() };
            let index = unravel(i, d.shape());
            let row_start = i - i % g.cols;
            let row: Vec<String> = d.values.data()[row_start..(row_start + g.cols).min(d.values.numel())]
                .iter()
                .take(12)
                .map(|&x| rowflow_core::format::short(x))
                .collect();
            let more = if g.cols > 12 { ", …" } else { "" };
            let row = format!("{}{more}", row.join(", "));
            t!("heatmap-readout", cell = label(&readout_name, &index), value = full(*v), row = row)
        })
    };
    let pick = move |i: usize| {
        cursor.set(i);
        if let Some(cb) = on_focus {
            cb.run(data.with_untracked(|d| unravel(i, d.shape())));
        }
    };
    let pointer = move |ev: ev::MouseEvent| {
        let g = geometry.get_untracked();
        let (left, top) = scroll.get_untracked();
        let col = (ev.offset_x().max(0) as f64 + left) as usize / g.col_w;
        let row = (ev.offset_y().max(0) as f64 + top) as usize / g.row_h;
        pick(row.min(g.rows - 1) * g.cols + col.min(g.cols - 1));
    };
    let keydown = move |ev: ev::KeyboardEvent| {
        let (g, i) = (geometry.get_untracked(), cursor.get_untracked());
        let page = (MAX_H / g.row_h).max(1) * g.cols;
        let j = match ev.key().as_str() {
            "ArrowUp" => i.checked_sub(g.cols),
            "ArrowDown" => Some(i + g.cols),
            "ArrowLeft" => i.checked_sub(1),
            "ArrowRight" => Some(i + 1),
            "PageUp" => Some(i.saturating_sub(page)),
            "PageDown" => Some(i + page),
            "Home" => Some(0),
            "End" => Some(g.rows * g.cols - 1),
            _ => None,
        };
        if let Some(j) = j.filter(|&j| j < g.rows * g.cols) {
            ev.prevent_default();
            ev.stop_propagation();
            pick(j);
            reveal(j);
        }
    };
    let on_scroll = move |_| {
        if let Some(el) = scroller.get_untracked() {
            scroll.set((f64::from(el.scroll_left()), f64::from(el.scroll_top())));
        }
    };
    let grid_label = name.clone();
    let mark_name_of = name.clone();
    let summary = move || {
        let g = geometry.get();
        t!("heatmap-summary", name = &name, rows = g.rows, columns = g.cols)
    };
    let mark_of_cursor = move || {
        let i = cursor.get();
        data.with(|d| marks.with(|m| m.of(&mark_name_of, &unravel(i, d.shape())))).map(mark_name)
    };
    let px = |n: usize| format!("{n}px");
    view! {
        <div class="heatmap">
            <div role="grid" aria-label=grid_label aria-readonly="true">
                <div role="row">
                    // The cell is the scroll area itself, so the keyboard reaches it.
                    <div
                        role="gridcell"
                        tabindex="0"
                        class="heatmap-scroll"
                        aria-label=summary
                        data-mark=mark_of_cursor
                        node_ref=scroller
                        on:keydown=keydown
                        on:scroll=on_scroll
                        style:max-width=move || px(geometry.get().outer().0)
                        style:height=move || px(geometry.get().outer().1)
                    >
                        <div
                            class="heatmap-space"
                            style:width=move || px(geometry.get().cols * geometry.get().col_w)
                            style:height=move || px(geometry.get().rows * geometry.get().row_h)
                        >
                            // Moved to the scroll position and redrawn there: the space
                            // around it only gives the scroll bars their length.
                            <canvas
                                node_ref=canvas
                                aria-hidden="true"
                                style:transform=move || {
                                    let (left, top) = scroll.get();
                                    format!("translate({}px, {}px)", display(left), display(top))
                                }
                                on:mousemove=pointer
                                on:click=pointer
                            ></canvas>
                        </div>
                    </div>
                </div>
            </div>
            <p class="readout" aria-live="polite">{readout}</p>
            <p class="legend">
                <span class="swatch neg"></span>
                " "
                {t!("heatmap-below")}
                " "
                <span class="swatch zero"></span>
                " 0 · "
                <span class="swatch pos"></span>
                " "
                {t!("heatmap-above")}
            </p>
        </div>
    }
}

/// Room for a scroll bar, in pixels.
const SCROLLBAR: usize = 16;

/// A tensor read as `rows × cols` (cols = last dim): its cell size and the window onto it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Geometry {
    rows: usize,
    cols: usize,
    row_h: usize,
    col_w: usize,
    /// The window, in pixels: the whole table when it fits.
    width: usize,
    height: usize,
}

impl Geometry {
    fn of(shape: &[usize]) -> Self {
        let cols = shape.last().copied().unwrap_or(1).max(1);
        let rows = (shape.iter().product::<usize>() / cols).max(1);
        let (col_w, row_h) = ((MAX_W / cols).clamp(MIN_COL_W, MAX_CELL), (MAX_H / rows).clamp(MIN_ROW_H, MAX_CELL));
        Self { rows, cols, row_h, col_w, width: (cols * col_w).min(MAX_W), height: (rows * row_h).min(MAX_H) }
    }

    /// The scroll area's size: the window, and room for a scroll bar on each side that scrolls
    /// (so that none covers the last row or column).
    fn outer(&self) -> (usize, usize) {
        let bar = |scrolls: bool| if scrolls { SCROLLBAR } else { 0 };
        (self.width + bar(self.rows * self.row_h > self.height), self.height + bar(self.cols * self.col_w > self.width))
    }
}

/// The part of the table in the window: its first row and column, and the pixel offsets
/// within them.
struct View {
    row0: usize,
    col0: usize,
    dy: usize,
    dx: usize,
}

impl View {
    fn at(g: &Geometry, (left, top): (f64, f64)) -> Self {
        let (left, top) = (left.max(0.0) as usize, top.max(0.0) as usize);
        Self { row0: top / g.row_h, col0: left / g.col_w, dy: top % g.row_h, dx: left % g.col_w }
    }
}

/// PuOr endpoints: purple-blue for negative, orange for positive, near-white at zero.
fn colour(v: f32, scale: f32) -> [u8; 4] {
    if !v.is_finite() {
        return [0, 0, 0, 255];
    }
    let t = (v / scale).clamp(-1.0, 1.0);
    let (end, mid) = if t < 0.0 { ([84.0, 39.0, 136.0], -t) } else { ([179.0, 88.0, 6.0], t) };
    let mix = |e: f32| (247.0 + (e - 247.0) * mid) as u8;
    [mix(end[0]), mix(end[1]), mix(end[2]), 255]
}

/// Draws the cells in the window: one colour per cell, computed once and spread over its
/// pixels (a row's first line of pixels, copied down its height); then the bands of the rows
/// the step touches, and the cursor.
fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    g: &Geometry,
    view: &View,
    d: &GridData,
    marked: &[(usize, Mark)],
    cursor: usize,
) {
    let (w, h) = (g.width, g.height);
    if canvas.width() != w as u32 || canvas.height() != h as u32 {
        canvas.set_width(w as u32);
        canvas.set_height(h as u32);
    }
    let Some(ctx) =
        canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let (scale, line) = (d.scale.max(1e-12), w * 4);
    let mut px = vec![255u8; line * h];
    let mut y = 0;
    while y < h {
        let row = view.row0 + (view.dy + y) / g.row_h;
        if row >= g.rows {
            break;
        }
        let (mut x, mut col, mut width) = (0, view.col0, g.col_w - view.dx);
        while x < w && col < g.cols {
            let c = colour(d.values.data().get(row * g.cols + col).copied().unwrap_or(0.0), scale);
            for p in px[y * line + x * 4..y * line + (x + width).min(w) * 4].chunks_exact_mut(4) {
                p.copy_from_slice(&c);
            }
            x += width;
            col += 1;
            width = g.col_w;
        }
        let lines = (g.row_h - (view.dy + y) % g.row_h).min(h - y);
        for k in 1..lines {
            px.copy_within(y * line..(y + 1) * line, (y + k) * line);
        }
        y += lines;
    }
    if let Ok(image) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&px), w as u32, h as u32) {
        let _ = ctx.put_image_data(&image, 0.0, 0.0);
    }
    let top_of = |row: usize| (row as f64 - view.row0 as f64) * g.row_h as f64 - view.dy as f64;
    for &(row, mark) in marked {
        let y = top_of(row);
        if y + (g.row_h as f64) < 0.0 || y > h as f64 {
            continue;
        }
        let (band, edge) = match mark {
            Mark::Write => ("rgba(120, 180, 255, 0.55)", "#0b5cad"),
            _ => ("rgba(255, 214, 102, 0.55)", "#a8650c"),
        };
        ctx.set_fill_style_str(band);
        ctx.fill_rect(0.0, y, w as f64, g.row_h as f64);
        ctx.set_fill_style_str(edge);
        ctx.fill_rect(0.0, y, 8.0, g.row_h as f64);
    }
    let (r, c) = (cursor / g.cols, cursor % g.cols);
    let x = (c as f64 - view.col0 as f64) * g.col_w as f64 - view.dx as f64;
    ctx.set_stroke_style_str("#000");
    ctx.set_line_width(2.0);
    ctx.stroke_rect(x, top_of(r), g.col_w.max(3) as f64, g.row_h as f64);
}
