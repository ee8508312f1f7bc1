//! The Train scene's charts: the loss curve and the factors on a scatter plot.

use leptos::prelude::*;
use rowflow_core::format::{display, fixed, fixed_exp, short};
use rowflow_core::scene::train::{Computed, Point};

/// The loss curve draws a point (with its value) for at most this many steps.
const CURVE_POINTS: usize = 200;

/// A point of a chart in SVG units: `v` from `lo..=hi` onto `from..=to`. In f64, as a range as
/// wide as float32's (a learner may type 3.4e38) would overflow float32 to inf / inf = NaN.
fn scale(v: f32, lo: f64, hi: f64, from: f64, to: f64) -> f64 {
    let t = if hi > lo { (f64::from(v) - lo) / (hi - lo) } else { 0.5 };
    from + if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) } * (to - from)
}

/// A chart's axis limit as a tick label: whole numbers while short, else 3.9e38.
fn tick(lim: f64) -> String {
    if lim < 1e6 {
        fixed(lim, 0)
    } else {
        fixed_exp(lim, 1)
    }
}

/// The loss after each step (measured before its update), then the current loss.
#[component]
pub fn LossCurve(computed: Memo<Computed>) -> impl IntoView {
    const W: f64 = 360.0;
    const H: f64 = 200.0;
    const L: f64 = 80.0;
    const B: f64 = 32.0;
    let chart = move || {
        computed.with(|c| {
            let losses: Vec<f32> = c.loss_curve.clone();
            let finite: Vec<f32> = losses.iter().copied().filter(|x| x.is_finite()).collect();
            let hi = finite.iter().copied().fold(f32::NEG_INFINITY, f32::max).max(0.0);
            let hi = if hi > 0.0 { hi } else { 1.0 };
            let last = losses.len().saturating_sub(1).max(1);
            let x = move |k: usize| L + (W - L - 10.0) * k as f64 / last as f64;
            let y = move |v: f32| scale(v, 0.0, f64::from(hi), H - B, 10.0);
            let line: Vec<String> = losses
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(|(k, &v)| format!("{},{}", fixed(x(k), 1), fixed(y(v), 1)))
                .collect();
            let every = losses.len().div_ceil(CURVE_POINTS).max(1);
            let points = losses
                .iter()
                .enumerate()
                .filter(|(k, _)| k % every == 0 || *k + 1 == losses.len())
                .map(|(k, &v)| {
                    let (cx, cy) = (x(k), if v.is_finite() { y(v) } else { 10.0 });
                    let now = k + 1 == losses.len();
                    view! {
                        <circle class="loss-point" class:now=now cx=fixed(cx, 1) cy=fixed(cy, 1) r=if now { "4.5" } else { "3" } data-step=k>
                            <title>{t!("train-point", step = k, loss = short(v))}</title>
                        </circle>
                    }
                })
                .collect_view();
            view! {
                <line class="axis" x1=display(L) y1=display(H - B) x2=display(W - 10.0) y2=display(H - B) />
                <line class="axis" x1=display(L) y1="10" x2=display(L) y2=display(H - B) />
                <text class="tick" x=display(L - 6.0) y=display(H - B + 5.0) text-anchor="end">"0"</text>
                <text class="tick" x=display(L - 6.0) y="16" text-anchor="end">{short(hi)}</text>
                <text class="tick" x=display(L) y=display(H - 6.0) text-anchor="middle">"0"</text>
                <text class="tick" x=display(W - 10.0) y=display(H - 6.0) text-anchor="end">{t!("train-last-step", step = losses.len().saturating_sub(1))}</text>
                <polyline class="loss-line" points=line.join(" ") />
                {points}
            }
        })
    };
    let now = move || {
        computed.with(|c| match c.loss {
            Some(l) => t!("train-loss-now", loss = short(l), step = c.loss_curve.len().saturating_sub(1)),
            None => t!("train-no-loss-now"),
        })
    };
    view! {
        <figure class="chart loss-curve">
            <figcaption>{t!("train-loss-curve")} " " <span class="now-loss">{now}</span></figcaption>
            <svg role="img" aria-label=t!("train-loss-curve") viewBox=format!("0 0 {} {}", display(W), display(H)) width=display(W) height=display(H)>
                {chart}
            </svg>
        </figure>
    }
}

/// Users (circles) and movies (squares) at (factor 0, factor 1).
#[component]
pub fn Scatter(computed: Memo<Computed>) -> impl IntoView {
    const S: f64 = 340.0;
    const PAD: f64 = 18.0;
    let plot = move || {
        computed.with(|c| {
            let reach =
                c.scatter.iter().flat_map(|p| [p.x.abs(), p.y.abs()]).filter(|v| v.is_finite()).fold(1.0, f32::max);
            let lim = (f64::from(reach) * 1.15).ceil();
            let at = move |p: &Point| {
                let x = if p.x.is_finite() { scale(p.x, -lim, lim, PAD, S - PAD) } else { S / 2.0 };
                let y = if p.y.is_finite() { scale(p.y, -lim, lim, S - PAD, PAD) } else { S / 2.0 };
                (x, y)
            };
            let touched = |p: &Point| {
                let id = p.name.rsplit(' ').next().and_then(|i| i.parse::<usize>().ok());
                let rows = if p.user { &c.touched_users } else { &c.touched_movies };
                id.is_some_and(|i| rows.contains(&i))
            };
            let mid = S / 2.0;
            let spots: Vec<(f64, f64)> = c.scatter.iter().map(at).collect();
            let names: Vec<&str> = c.scatter.iter().map(|p| p.name.as_str()).collect();
            let labels = place_labels(&spots, &names, S);
            let points = c
                .scatter
                .iter()
                .zip(spots.iter().zip(labels))
                .map(|(p, (&(x, y), (lx, ly, anchor)))| {
                    let title = format!("{}: ({}, {})", p.name, short(p.x), short(p.y));
                    let shape = if p.user {
                        view! { <circle cx=fixed(x, 1) cy=fixed(y, 1) r="5"><title>{title}</title></circle> }.into_any()
                    } else {
                        view! {
                            <rect x=fixed(x - 4.5, 1) y=fixed(y - 4.5, 1) width="9" height="9">
                                <title>{title}</title>
                            </rect>
                        }
                        .into_any()
                    };
                    view! {
                        <g class="pt" class:user=p.user class:movie=!p.user class:unused=!touched(p)>
                            {shape}
                            <text x=fixed(lx, 1) y=fixed(ly, 1) text-anchor=anchor>{p.name.clone()}</text>
                        </g>
                    }
                })
                .collect_view();
            view! {
                <line class="axis" x1=display(PAD) y1=display(mid) x2=display(S - PAD) y2=display(mid) />
                <line class="axis" x1=display(mid) y1=display(PAD) x2=display(mid) y2=display(S - PAD) />
                <text class="tick" x=display(S - PAD) y=display(mid + 18.0) text-anchor="end">{tick(lim)}</text>
                <text class="tick" x=display(mid + 4.0) y=display(PAD + 2.0)>{tick(lim)}</text>
                {points}
            }
        })
    };
    view! {
        <figure class="chart scatter">
            <figcaption>{t!("train-factors-axes")}<br />{t!("train-factors-key")}</figcaption>
            <svg role="img" aria-label=t!("train-factors") viewBox=format!("0 0 {0} {0}", display(S)) width=display(S) height=display(S)>
                {plot}
            </svg>
        </figure>
    }
}

/// Where each point's label goes (x, baseline, anchor) so that no two labels overlap and none
/// covers a point, where a spot allows it: each label tries the corners around its point, then
/// rows further out, and takes the first free one (or the least covered).
fn place_labels(points: &[(f64, f64)], names: &[&str], size: f64) -> Vec<(f64, f64, &'static str)> {
    // A 16px monospace label's box: 9.63px a character, from 14px above the baseline to 5 below.
    const CHAR: f64 = 9.7;
    const HIGH: f64 = 19.0;
    const ABOVE: f64 = 14.0;
    type Rect = (f64, f64, f64, f64);
    let overlap = |a: Rect, b: Rect| {
        let w = (a.0 + a.2).min(b.0 + b.2) - a.0.max(b.0);
        let h = (a.1 + a.3).min(b.1 + b.3) - a.1.max(b.1);
        if w > 0.0 && h > 0.0 {
            w * h
        } else {
            0.0
        }
    };
    let marks: Vec<Rect> = points.iter().map(|&(x, y)| (x - 5.0, y - 5.0, 10.0, 10.0)).collect();
    let mut placed: Vec<Rect> = Vec::new();
    let mut out = Vec::new();
    for (k, (&(x, y), name)) in points.iter().zip(names).enumerate() {
        let w = CHAR * name.chars().count() as f64;
        let mut best = (f64::MAX, (x + 7.0, y - 7.0, "start"));
        'search: for ring in 0..4 {
            let up = -7.0 - (HIGH + 1.0) * ring as f64;
            let down = 20.0 + (HIGH + 1.0) * ring as f64;
            for (dx, dy, anchor) in [(7.0, up, "start"), (7.0, down, "start"), (-7.0, up, "end"), (-7.0, down, "end")] {
                let (lx, base) = (x + dx, y + dy);
                let left = if anchor == "end" { lx - w } else { lx };
                let rect = (left, base - ABOVE, w, HIGH);
                let outside = if left < 0.0 || left + w > size || rect.1 < 0.0 || base > size { 1e6 } else { 0.0 };
                let others = marks.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, m)| overlap(rect, *m));
                let cost = outside + placed.iter().map(|p| overlap(rect, *p)).sum::<f64>() + others.sum::<f64>();
                if cost < best.0 {
                    best = (cost, (lx, base, anchor));
                }
                if cost == 0.0 {
                    break 'search;
                }
            }
        }
        let (lx, base, anchor) = best.1;
        let left = if anchor == "end" { lx - w } else { lx };
        placed.push((left, base - ABOVE, w, HIGH));
        out.push(best.1);
    }
    out
}
