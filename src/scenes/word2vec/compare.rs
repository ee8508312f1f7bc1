//! The task's three starts as loss curves side by side, and both tables compared: a word's
//! nearest neighbours by cosine and every word on a PCA map.

use leptos::prelude::*;
use rowflow_core::format::{display, fixed, short};
use rowflow_core::scene::word2vec::compare::{Map, Neighbour};
use rowflow_core::scene::word2vec::task::Start;
use rowflow_core::scene::word2vec::Computed;

const W: f64 = 320.0;
const H: f64 = 180.0;

/// What a start is called on the page.
pub fn start_name(s: Start) -> String {
    match s {
        Start::Random => t!("word2vec-start-random"),
        Start::Frozen => t!("word2vec-start-frozen"),
        Start::FineTuned => t!("word2vec-start-fine-tuned"),
    }
}

/// One curve per start, on one scale.
#[component]
pub fn TaskCurves(computed: Memo<Computed>) -> impl IntoView {
    let chart = move || {
        computed.with(|c| {
            let hi =
                c.runs.iter().flat_map(|r| r.losses.iter().copied()).filter(|x| x.is_finite()).fold(0.0f32, f32::max);
            let hi = f64::from(if hi > 0.0 { hi } else { 1.0 });
            c.runs
                .iter()
                .map(|r| {
                    let last = r.losses.len().saturating_sub(1).max(1) as f64;
                    let points: Vec<String> = r
                        .losses
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| v.is_finite())
                        .map(|(k, &v)| {
                            format!(
                                "{},{}",
                                fixed(40.0 + (W - 50.0) * k as f64 / last, 1),
                                fixed(H - 24.0 - (H - 34.0) * (f64::from(v) / hi).clamp(0.0, 1.0), 1)
                            )
                        })
                        .collect();
                    view! { <polyline class=format!("curve {}", r.start.id()) points=points.join(" ") /> }
                })
                .collect_view()
        })
    };
    let legend = move || {
        computed.with(|c| {
            c.runs
                .iter()
                .map(|r| {
                    let last = r.losses.last().map_or("?".into(), |&l| short(l));
                    view! { <li class=r.start.id() data-start=r.start.id()>{t!("word2vec-curve-legend", start = start_name(r.start), first = r.losses.first().map_or("?".into(), |&l| short(l)), last = last)}</li> }
                })
                .collect_view()
        })
    };
    view! {
        <figure class="chart task-curves">
            <svg viewBox=format!("0 0 {} {}", display(W), display(H)) width=display(W) height=display(H) role="img" aria-label=t!("word2vec-curves-label")>
                <line class="axis" x1="40" y1=display(H - 24.0) x2=display(W - 10.0) y2=display(H - 24.0) />
                <line class="axis" x1="40" y1="10" x2="40" y2=display(H - 24.0) />
                {chart}
            </svg>
            <figcaption><ul class="legend">{legend}</ul></figcaption>
        </figure>
    }
}

/// A table's nearest words to the chosen one.
#[component]
pub fn Neighbours(
    #[prop(into)] title: Signal<String>,
    near: Signal<Vec<Neighbour>>,
    #[prop(into)] class: String,
) -> impl IntoView {
    view! {
        <div class=format!("neighbours {class}")>
            <h3>{move || title.get()}</h3>
            <ol>
                {move || near.with(|n| n.iter().map(|n| view! { <li><span class="near-word">{n.word.clone()}</span>" "<span class="cosine">{fixed(f64::from(n.cosine), 2)}</span></li> }).collect_view())}
            </ol>
        </div>
    }
}

/// Every word at its first two principal components; the chosen word and its neighbours stand out.
#[component]
pub fn PcaMap(
    #[prop(into)] title: Signal<String>,
    map: Signal<Map>,
    near: Signal<Vec<Neighbour>>,
    word: Signal<String>,
    #[prop(into)] class: String,
) -> impl IntoView {
    const S: f64 = 340.0;
    let dots = move || {
        map.with(|Map { spots, .. }| {
            let extent =
                spots.iter().flat_map(|s| [s.x.abs(), s.y.abs()]).filter(|x| x.is_finite()).fold(0.0f32, f32::max);
            let extent = f64::from(if extent > 0.0 { extent } else { 1.0 });
            let at = |v: f32| 20.0 + (S - 40.0) * (0.5 + 0.5 * (f64::from(v) / extent).clamp(-1.0, 1.0));
            let (chosen, close) = (word.get(), near.get());
            spots
                .iter()
                .map(|s| {
                    let kind = if s.word == chosen {
                        "chosen"
                    } else if close.iter().any(|n| n.word == s.word) {
                        "near"
                    } else {
                        ""
                    };
                    let (x, y) = (at(s.x), S - at(s.y));
                    view! {
                        <g class=format!("spot {kind}") data-word=s.word.clone()>
                            <circle cx=fixed(x, 1) cy=fixed(y, 1) r="4" />
                            <text x=fixed(x + 6.0, 1) y=fixed(y + 5.0, 1)>{s.word.clone()}</text>
                        </g>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <figure class=format!("chart pca {class}")>
            <svg viewBox=format!("0 0 {} {}", display(S), display(S)) width=display(S) height=display(S) role="img" aria-label=move || title.get()>{dots}</svg>
            <figcaption>
                {move || title.get()}
                {move || map.with(|m| (!m.unplaced.is_empty()).then(|| {
                    view! { <span class="unplaced">{t!("word2vec-unplaced")} {m.unplaced.join(", ")}</span> }
                }))}
            </figcaption>
        </figure>
    }
}
