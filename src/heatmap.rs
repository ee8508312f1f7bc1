use crate::grid::{mark_name, GridData};
use leptos::ev;
use leptos::prelude::*;
use rowflow_core::format::full;
use rowflow_core::scene::label;
use rowflow_core::tensor::unravel;
use rowflow_core::{Mark, Marks};
use wasm_bindgen::{Clamped, JsCast};

/// The largest canvas drawn; bigger tensors are sampled (one cell per pixel shown).
const MAX_W: usize = 720;
const MAX_H: usize = 480;

/// A tensor too large for cells, as a colour heat map read as rows × last dim. The diverging
/// palette (blue below zero, orange above, after ColorBrewer's colour-blind-safe PuOr) is never
/// the only carrier: the value under the pointer or the keyboard cursor is read out as text,
/// with its whole row. Rows the trace touches are outlined.
#[component]
pub fn HeatMap(
    name: String,
    data: Signal<GridData>,
    marks: Signal<Marks>,
    on_focus: Option<Callback<Vec<usize>>>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let cursor = RwSignal::new(0usize);
    let geometry = Memo::new(move |_| data.with(|d| Geometry::of(&d.shape)));
    let draw_name = name.clone();
    Effect::new(move |_| {
        let (Some(canvas), g) = (canvas.get(), geometry.get()) else { return };
        data.with(|d| marks.with(|m| draw(&canvas, &g, d, m, &draw_name, cursor.get())));
    });
    let readout_name = name.clone();
    let readout = move || {
        let (g, i) = (geometry.get(), cursor.get());
        data.with(|d| {
            let Some(v) = d.values.get(i) else { return String::new() };
            let index = unravel(i, &d.shape);
            let row_start = i - i % g.cols;
            let row: Vec<String> = d.values[row_start..(row_start + g.cols).min(d.values.len())]
                .iter()
                .take(12)
                .map(|&x| rowflow_core::format::short(x))
                .collect();
            let more = if g.cols > 12 { ", …" } else { "" };
            format!("{} = {} · row: [{}{}]", label(&readout_name, &index), full(*v), row.join(", "), more)
        })
    };
    let pick = move |i: usize| {
        cursor.set(i);
        if let Some(cb) = on_focus {
            cb.run(data.with_untracked(|d| unravel(i, &d.shape)));
        }
    };
    let pointer = move |ev: ev::MouseEvent| {
        let Some(el) = canvas.get_untracked() else { return };
        let g = geometry.get_untracked();
        let (w, h) = (el.client_width().max(1) as f64, el.client_height().max(1) as f64);
        let col = ((ev.offset_x() as f64 / w) * g.cols as f64) as usize;
        let row = ((ev.offset_y() as f64 / h) * g.rows as f64) as usize;
        pick(row.min(g.rows - 1) * g.cols + col.min(g.cols - 1));
    };
    let keydown = move |ev: ev::KeyboardEvent| {
        let (g, i) = (geometry.get_untracked(), cursor.get_untracked());
        let page = (g.rows / 10).max(1) * g.cols;
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
        }
    };
    let grid_label = name.clone();
    let mark_name_of = name.clone();
    let summary = move || {
        let g = geometry.get();
        let sampled = if g.sampled { ", sampled to fit" } else { "" };
        format!("heat map of {name}: {} rows × {} columns{sampled}; arrow keys move the cursor", g.rows, g.cols)
    };
    let mark_of_cursor = move || {
        let i = cursor.get();
        data.with(|d| marks.with(|m| m.of(&mark_name_of, &unravel(i, &d.shape)))).map(mark_name)
    };
    view! {
        <div class="heatmap">
            <div role="grid" aria-label=grid_label aria-readonly="true">
                <div role="row">
                    <div
                        role="gridcell"
                        tabindex="0"
                        aria-label=summary
                        data-mark=mark_of_cursor
                        on:keydown=keydown
                    >
                        <canvas node_ref=canvas aria-hidden="true" on:mousemove=pointer on:click=pointer></canvas>
                    </div>
                </div>
            </div>
            <p class="readout" aria-live="polite">{readout}</p>
            <p class="legend">
                <span class="swatch neg"></span>
                " below 0 · "
                <span class="swatch zero"></span>
                " 0 · "
                <span class="swatch pos"></span>
                " above 0"
            </p>
        </div>
    }
}

/// A tensor read as `rows × cols` (cols = last dim) and the canvas size that shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Geometry {
    rows: usize,
    cols: usize,
    width: usize,
    height: usize,
    sampled: bool,
}

impl Geometry {
    fn of(shape: &[usize]) -> Self {
        let cols = shape.last().copied().unwrap_or(1).max(1);
        let rows = (shape.iter().product::<usize>() / cols).max(1);
        let scale = |n: usize, max: usize| (max / n).clamp(1, 16);
        let (width, height) = ((cols * scale(cols, MAX_W)).min(MAX_W), (rows * scale(rows, MAX_H)).min(MAX_H));
        Self { rows, cols, width, height, sampled: cols > MAX_W || rows > MAX_H }
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

fn draw(canvas: &web_sys::HtmlCanvasElement, g: &Geometry, d: &GridData, marks: &Marks, name: &str, cursor: usize) {
    canvas.set_width(g.width as u32);
    canvas.set_height(g.height as u32);
    let Some(ctx) =
        canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let scale = d.values.iter().filter(|v| v.is_finite()).fold(0.0f32, |m, v| m.max(v.abs())).max(1e-12);
    let mut px = vec![0u8; g.width * g.height * 4];
    for y in 0..g.height {
        let row = y * g.rows / g.height;
        for x in 0..g.width {
            let col = x * g.cols / g.width;
            let v = d.values.get(row * g.cols + col).copied().unwrap_or(0.0);
            px[(y * g.width + x) * 4..][..4].copy_from_slice(&colour(v, scale));
        }
    }
    if let Ok(image) =
        web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&px), g.width as u32, g.height as u32)
    {
        let _ = ctx.put_image_data(&image, 0.0, 0.0);
    }
    // Band the rows the current trace step reads or writes, at least 4px tall so one row of a
    // thousand still shows, with a tab on the left edge.
    let (row_h, col_w) = (g.height as f64 / g.rows as f64, g.width as f64 / g.cols as f64);
    for row in 0..g.rows {
        let mark = marks.of(name, &unravel(row * g.cols, &d.shape)[..d.shape.len().saturating_sub(1)]);
        let (band, edge) = match mark {
            Some(Mark::Read) => ("rgba(255, 214, 102, 0.55)", "#a8650c"),
            Some(Mark::Write) => ("rgba(120, 180, 255, 0.55)", "#0b5cad"),
            _ => continue,
        };
        let (y, h) = (row as f64 * row_h, row_h.max(4.0));
        ctx.set_fill_style_str(band);
        ctx.fill_rect(0.0, y, g.width as f64, h);
        ctx.set_fill_style_str(edge);
        ctx.fill_rect(0.0, y, 8.0, h);
    }
    let (r, c) = (cursor / g.cols, cursor % g.cols);
    ctx.set_stroke_style_str("#000");
    ctx.set_line_width(1.5);
    ctx.stroke_rect(c as f64 * col_w, r as f64 * row_h, col_w.max(3.0), row_h.max(3.0));
}
