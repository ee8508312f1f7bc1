//! A copy of the row being looked up, flying from `weight` to its place in `output`; going
//! backward, `output.grad`'s row flying back into the row of `weight.grad` its id picked.

use leptos::prelude::*;
use rowflow_core::format::{fixed, short};
use rowflow_core::scene::embedding::Computed;
use rowflow_core::scene::label;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// A copy of the row being looked up, flying from `weight` to its place in `output`; positions
/// in pixels relative to the scene. `run` alternates so each step restarts the CSS animation.
#[derive(Clone, Debug, PartialEq)]
pub struct Flight {
    from: (f64, f64),
    to: (f64, f64),
    width: f64,
    numbers: Vec<String>,
    run: bool,
}

/// One end of a flight: a grid, the lead index of its row, that row's place among the grid's
/// rows, and how many rows it has (for a heat map's bands).
type End<'a> = (&'a str, &'a [usize], usize, usize);

impl Flight {
    /// The flight of forward step `playhead` (1-based) from a table of `v` rows, if that step and
    /// both rows are on screen: the row its id picks, copied to its output row.
    pub fn plan(scene: &HtmlElement, c: &Computed, playhead: usize, v: usize) -> Option<Flight> {
        let flat = playhead.checked_sub(1)?;
        let pick = c.picks.get(flat)?;
        let d = c.output.shape().last().copied().unwrap_or(0);
        let rows = c.output.numel() / d.max(1);
        let values = c.output.data().get(flat * d..(flat + 1) * d)?;
        Self::fly(scene, ("weight", &[pick.row], pick.row, v), ("output", &pick.at, flat, rows), values)
    }

    /// The return flight of backward step `playhead`: the row of `output.grad` added into the
    /// row of `weight.grad` its id picked (a repeated id's lands there again; the padding id's
    /// never leaves).
    pub fn plan_back(scene: &HtmlElement, c: &Computed, playhead: usize, v: usize) -> Option<Flight> {
        let (pick, _) = c.back_picks.get(playhead.checked_sub(1)?)?;
        let upstream = c.upstream.as_ref()?;
        let d = upstream.shape().last().copied().unwrap_or(0);
        let rows = upstream.numel() / d.max(1);
        let flat = c.picks.iter().position(|p| p.at == pick.at)?;
        let values = upstream.data().get(flat * d..(flat + 1) * d)?;
        Self::fly(scene, ("output", &pick.at, flat, rows), ("weight", &[pick.row], pick.row, v), values)
    }

    /// A row of `values` flying from row `from` to row `to`, both on screen.
    fn fly(scene: &HtmlElement, from: End, to: End, values: &[f32]) -> Option<Flight> {
        let d = values.len();
        let (src, _) = row_box(scene, from.0, from.1, from.2, from.3)?;
        let (dst, row_width) = row_box(scene, to.0, to.1, to.2, to.3)?;
        // One number per cell, as many as fit across the scene, so they land on their cells.
        let cell = row_width / d.max(1) as f64;
        let room = scene.offset_width() as f64 - dst.0;
        let fit = ((room / cell.max(1.0)) as usize).clamp(1, d.max(1));
        let numbers = values.iter().take(fit).map(|&x| short(x)).collect();
        Some(Flight { from: src, to: dst, width: cell * fit as f64, numbers, run: false })
    }

    /// The same flight, marked to restart the animation after `previous`.
    pub fn after(mut self, previous: Option<&Flight>) -> Self {
        self.run = !previous.is_some_and(|p| p.run);
        self
    }

    pub fn view(self) -> impl IntoView {
        // Set through the CSSOM, which the Content-Security-Policy allows (a style attribute it refuses).
        let px = |v: f64| format!("{}px", fixed(v, 1));
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
