//! Where a step's numbers go, drawn: an SVG over the scene with an edge from the cells the step
//! reads to the cells it writes (`Step::flows`), moving in the pass's direction; as thick as the
//! scene says it carries (RNN's ‖dL/dh_t‖). Each edge names its ends, `data-flow-from` and
//! `data-flow-to`, as the trace does (`output.grad[9]`, `weight.grad[9]`). A decoration: hidden
//! from screen readers (the caption says where the numbers go) and still under reduced motion.

use leptos::prelude::*;
use rowflow_core::format::fixed;
use rowflow_core::{Phase, Span};
use wasm_bindgen::JsCast;

const SVG: &str = "http://www.w3.org/2000/svg";

/// The edges of the step on show: (from, to) as the trace writes them, its pass, and how much
/// flows (0 to 1) where the scene measures it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepFlows {
    pub edges: Vec<(String, String)>,
    pub phase: Option<Phase>,
    pub weight: Option<f32>,
}

#[component]
pub fn Flows(
    flows: Memo<StepFlows>,
    /// The scene's section: the edges are drawn in its box, so they scroll with it.
    section: NodeRef<leptos::html::Section>,
) -> impl IntoView {
    let (svg, edges) = (NodeRef::<leptos::svg::Svg>::new(), NodeRef::<leptos::svg::G>::new());
    let redraw = move || {
        let (svg, edges, section) = (svg.try_get_untracked(), edges.try_get_untracked(), section.try_get_untracked());
        if let (Some(Some(svg)), Some(Some(edges)), Some(Some(section))) = (svg, edges, section) {
            flows.with_untracked(|f| draw(&svg, &edges, &section, f));
        }
    };
    // After the grids have written the step's marks and the page its layout.
    Effect::new(move |_| {
        flows.track();
        request_animation_frame(redraw);
    });
    let resized = window_event_listener_untyped("resize", move |_| request_animation_frame(redraw));
    on_cleanup(move || resized.remove());
    view! {
        <svg class="flows" aria-hidden="true" focusable="false" node_ref=svg>
            <defs>
                <marker id="flow-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
                    <path d="M0 0 L10 5 L0 10 z"></path>
                </marker>
            </defs>
            <g node_ref=edges></g>
        </svg>
    }
}

/// Replaces the edges in `edges` (a group of `svg`) with those of `flows`, placed by the cells'
/// boxes in `section`.
fn draw(svg: &web_sys::SvgElement, edges: &web_sys::SvgElement, section: &web_sys::HtmlElement, flows: &StepFlows) {
    edges.set_inner_html("");
    let Some(phase) = flows.phase else { return };
    let origin = svg.get_bounding_client_rect();
    let boxes = |text: &str| {
        bounds(section, text)
            .map(|(l, t, r, b)| (l - origin.left(), t - origin.top(), r - origin.left(), b - origin.top()))
    };
    let pass = match phase {
        Phase::Forward => "forward",
        Phase::Backward => "backward",
    };
    let _ = svg.set_attribute("data-phase", pass);
    let width = fixed(flows.weight.map_or(3.0, |w| 1.5 + 4.5 * f64::from(w.clamp(0.0, 1.0))), 1);
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    for (from, to) in &flows.edges {
        let (Some(a), Some(b)) = (boxes(from), boxes(to)) else { continue };
        let Ok(path) = document.create_element_ns(Some(SVG), "path") else { continue };
        let _ = path.set_attribute("d", &edge(a, b));
        let _ = path.set_attribute("data-flow-from", from);
        let _ = path.set_attribute("data-flow-to", to);
        let _ = path.set_attribute("stroke-width", &width);
        let _ = edges.append_child(&path);
    }
}

/// The box (left, top, right, bottom, in the viewport) around every visible cell of the span
/// written `text`, or around its grid when it has no cells of its own on the page (a heat map).
/// A gradient with no cells of its own is drawn in its tensor's (RNN's `h_l0.grad[1]` lives in the
/// box of `h_l0[1]`).
fn bounds(section: &web_sys::HtmlElement, text: &str) -> Option<(f64, f64, f64, f64)> {
    let span: Span = text.parse().ok()?;
    cells(section, &span).or_else(|| {
        let tensor = span.tensor.strip_suffix(".grad")?;
        cells(section, &Span::new(tensor, span.index.clone()))
    })
}

/// `bounds` of the cells of `span` itself.
fn cells(section: &web_sys::HtmlElement, span: &Span) -> Option<(f64, f64, f64, f64)> {
    let union = |els: &mut dyn Iterator<Item = web_sys::Element>| {
        els.map(|e| e.get_bounding_client_rect()).filter(|r| r.width() > 0.0 && r.height() > 0.0).fold(
            None,
            |acc: Option<(f64, f64, f64, f64)>, r| {
                Some(acc.map_or((r.left(), r.top(), r.right(), r.bottom()), |(l, t, rr, b)| {
                    (l.min(r.left()), t.min(r.top()), rr.max(r.right()), b.max(r.bottom()))
                }))
            },
        )
    };
    let cells = section.query_selector_all(&format!("[data-cell^=\"{}[\"]", span.tensor)).ok()?;
    let mut inside =
        (0..cells.length()).filter_map(|i| cells.item(i)?.dyn_into::<web_sys::Element>().ok()).filter(|el| {
            el.get_attribute("data-cell").and_then(|c| c.parse::<Span>().ok()).is_some_and(|cell| {
                let index: Option<Vec<usize>> = cell.index.iter().copied().collect();
                index.is_some_and(|i| span.contains(&cell.tensor, &i))
            })
        });
    union(&mut inside).or_else(|| {
        let grid = section.query_selector(&format!("[role=grid][aria-label=\"{}\"]", span.tensor)).ok()??;
        union(&mut std::iter::once(grid))
    })
}

/// A gentle curve from the side of box `a` facing box `b` to the side of `b` facing `a`.
fn edge(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> String {
    let centre = |(l, t, r, bo): (f64, f64, f64, f64)| ((l + r) / 2.0, (t + bo) / 2.0);
    let ((ax, ay), (bx, by)) = (centre(a), centre(b));
    // Leave and arrive through the sides that face each other, a little outside the boxes.
    let exit = |(l, t, r, bo): (f64, f64, f64, f64), (x, y): (f64, f64), (tx, ty): (f64, f64)| {
        let (dx, dy) = (tx - x, ty - y);
        if dx.abs() * (bo - t) > dy.abs() * (r - l) {
            (if dx > 0.0 { r + 2.0 } else { l - 2.0 }, y)
        } else {
            (x, if dy > 0.0 { bo + 2.0 } else { t - 2.0 })
        }
    };
    let (sx, sy) = exit(a, (ax, ay), (bx, by));
    let (ex, ey) = exit(b, (bx, by), (ax, ay));
    // The bend: a tenth of the length, to the left of the way.
    let (dx, dy) = (ex - sx, ey - sy);
    let (cx, cy) = ((sx + ex) / 2.0 - dy / 10.0, (sy + ey) / 2.0 + dx / 10.0);
    let n = |x: f64| fixed(x, 1);
    format!("M{} {} Q{} {} {} {}", n(sx), n(sy), n(cx), n(cy), n(ex), n(ey))
}
