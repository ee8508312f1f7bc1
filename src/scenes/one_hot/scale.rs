//! The one-hot cost at real scale: both ways, forward and backward, timed in the worker as V
//! grows from 10 to 50,000, plotted on log axes with PyTorch's own times beside, and the work
//! counted for each size.

use super::timer::Timer;
use leptos::prelude::*;
use rowflow_core::format::{display, fixed, grouped};
use rowflow_core::scene::one_hot::{significant, Case, Measured, Request, TorchTimes, Way, SWEEP_SIZES, SWEEP_V};

/// Each way at each size is repeated until this much time has passed (one call when longer).
const BUDGET_MS: f64 = 50.0;
const WAYS: [Way; 4] = [Way::Lookup, Way::OneHot, Way::LookupBackward, Way::OneHotBackward];

#[component]
pub fn ScalePanel() -> impl IntoView {
    let timer = Timer::new();
    let torch = StoredValue::new(TorchTimes::stored());
    // (D, ids) of the sweep, as offered by `SWEEP_SIZES`.
    let choice = RwSignal::new(0usize);
    let (d, ids) = (move || SWEEP_SIZES[choice.get()].0, move || SWEEP_SIZES[choice.get()].1);
    let cases = move || SWEEP_V.iter().map(|&v| Case { v, d: d(), ids: ids() }).collect::<Vec<_>>();
    let run = move |_| timer.start(Request { cases: cases(), budget_ms: BUDGET_MS });
    let busy = move || timer.progress.get().is_some();
    let status = move || match (timer.progress.get(), timer.error.get()) {
        (Some(p), _) => {
            let v = SWEEP_V.get(p.case).copied().unwrap_or_default();
            let what = p.way.map_or_else(|| t!("one-hot-scale-drawing"), |w| w.name().to_string());
            t!("one-hot-scale-progress", v = grouped(v), what = what, percent = fixed(100.0 * p.done, 0))
        }
        (None, Some(why)) => why,
        (None, None) => match timer.measured.with(Vec::len) {
            0 => String::new(),
            n if n < SWEEP_V.len() => t!("one-hot-scale-cancelled", done = n, total = SWEEP_V.len()),
            _ => t!("one-hot-scale-done"),
        },
    };
    let rows = move || {
        timer
            .measured
            .get()
            .into_iter()
            .map(|m| {
                let t = torch.with_value(|t| t.at(m.case));
                view! { <ScaleRows m=m torch=t /> }
            })
            .collect_view()
    };
    let torch_label = torch.with_value(|t| t!("one-hot-torch-label", version = &t.torch, machine = &t.machine));

    view! {
        <section class="oh-scale" aria-label=t!("one-hot-scale")>
            <h2>{t!("one-hot-scale-heading")}</h2>
            <p>{t!("one-hot-scale-lede")}</p>
            <div class="oh-scale-controls">
                <label>
                    {t!("one-hot-scale-sizes-label")}
                    " "
                    <select
                        aria-label=t!("one-hot-scale-sizes")
                        prop:value=move || choice.get().to_string()
                        on:change=move |ev| choice.set(event_target_value(&ev).parse().unwrap_or(0))
                        disabled=busy
                    >
                        {SWEEP_SIZES
                            .iter()
                            .enumerate()
                            .map(|(k, (d, n))| {
                                view! { <option value=k.to_string()>{t!("one-hot-scale-option", d = d.to_string(), ids = grouped(*n))}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
                {move || match busy() {
                    false => view! { <button type="button" on:click=run>{t!("one-hot-scale-run")}</button> }.into_any(),
                    true => view! { <button type="button" on:click=move |_| timer.cancel()>{t!("one-hot-cancel")}</button> }.into_any(),
                }}
            </div>
            <div class="oh-scale-status" role="status">
                {move || {
                    timer.progress.get().map(|p| view! { <progress max="1" value=display(p.done)></progress> })
                }}
                <span>{status}</span>
            </div>
            <Plot measured=timer.measured torch=torch cases=Signal::derive(cases) torch_label=torch_label.clone() />
            <ScaleTable caption=t!("one-hot-times-caption") headers=times_headers()>
                {rows}
            </ScaleTable>
            <ScaleTable caption=t!("one-hot-work-caption") headers=work_headers()>
                {move || cases().into_iter().map(|c| view! { <WorkRow c=c /> }).collect_view()}
            </ScaleTable>
        </section>
    }
}

/// The times table's column headings.
fn times_headers() -> Vec<String> {
    vec![
        "V".to_string(),
        t!("one-hot-col-timed-by"),
        t!("one-hot-col-lookup-ms"),
        t!("one-hot-col-one-hot-ms"),
        t!("one-hot-col-lookup-backward-ms"),
        t!("one-hot-col-one-hot-backward-ms"),
        t!("one-hot-col-gflops"),
    ]
}

/// The work table's column headings.
fn work_headers() -> Vec<String> {
    vec![
        "V".to_string(),
        t!("one-hot-col-copies"),
        t!("one-hot-col-multiply-adds"),
        t!("one-hot-zero-products"),
        t!("one-hot-col-linear-grad"),
        t!("one-hot-col-emb-grad"),
    ]
}

/// A table that scrolls sideways on a narrow screen rather than widening the page.
#[component]
fn ScaleTable(caption: String, headers: Vec<String>, children: Children) -> impl IntoView {
    view! {
        <div class="oh-scale-table">
            <table>
                <caption>{caption}</caption>
                <thead>
                    <tr>{headers.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr>
                </thead>
                <tbody>{children()}</tbody>
            </table>
        </div>
    }
}

/// A size's two rows: this browser's times, then PyTorch's.
#[component]
fn ScaleRows(m: Measured, torch: Option<Measured>) -> impl IntoView {
    let span = if torch.is_some() { "2" } else { "1" };
    view! {
        <tr>
            <th scope="row" rowspan=span>{grouped(m.case.v)}</th>
            {times(t!("one-hot-this-browser"), &m)}
        </tr>
        {torch.map(|t| view! { <tr class="torch">{times("PyTorch".to_string(), &t)}</tr> })}
    }
}

/// Who timed it, each way's milliseconds, and the one-hot way's GFLOP/s.
fn times(who: String, m: &Measured) -> impl IntoView {
    let ms = WAYS.map(|w| view! { <td>{significant(m.ms(w))}</td> });
    view! {
        <td>{who}</td>
        {ms.into_iter().collect_view()}
        <td>{fixed(m.gflops(), 1)}</td>
    }
}

/// What each way does at one size: copies against multiply-adds forward, the dense gradient
/// against the rows the ids touch backward.
#[component]
fn WorkRow(c: Case) -> impl IntoView {
    view! {
        <tr>
            <th scope="row">{grouped(c.v)}</th>
            <td>{grouped(c.copies())}</td>
            <td>{grouped(c.multiply_adds())}</td>
            <td>{grouped(c.zero_products())}</td>
            <td>{grouped(c.grad_written())}</td>
            <td>{grouped(c.grad_rows_written())}</td>
        </tr>
    }
}

/// Plot geometry: the drawing area inside the SVG's 640 × 320 view box.
const W: f64 = 640.0;
const H: f64 = 320.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 40.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 44.0;

/// ms per call against V, both on log scales: a line per way for this browser as its sizes come
/// in, PyTorch's as hollow marks. Forward solid, backward dashed; lookup blue, one-hot orange.
#[component]
fn Plot(
    measured: RwSignal<Vec<Measured>>,
    torch: StoredValue<TorchTimes>,
    cases: Signal<Vec<Case>>,
    torch_label: String,
) -> impl IntoView {
    let torch_points = Memo::new(move |_| {
        cases.with(|cs| torch.with_value(|t| cs.iter().filter_map(|&c| t.at(c)).collect::<Vec<_>>()))
    });
    // The y range: whole decades around every time shown (ours and PyTorch's).
    let range = Memo::new(move |_| {
        let all: Vec<f64> = measured.with(|m| {
            torch_points.with(|t| m.iter().chain(t).flat_map(|m| WAYS.map(|w| m.ms(w))).filter(|x| *x > 0.0).collect())
        });
        let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = all.iter().copied().fold(0.0f64, f64::max);
        if lo.is_finite() && hi > 0.0 {
            (lo.log10().floor(), hi.log10().ceil().max(lo.log10().floor() + 1.0))
        } else {
            (-3.0, 3.0)
        }
    });
    let (v_lo, v_hi) =
        ((*SWEEP_V.first().unwrap_or(&10) as f64).log10(), (*SWEEP_V.last().unwrap_or(&50_000) as f64).log10());
    let x = move |v: usize| LEFT + ((v as f64).log10() - v_lo) / (v_hi - v_lo) * (W - LEFT - RIGHT);
    let y = move |ms: f64| {
        let (lo, hi) = range.get();
        TOP + (1.0 - (ms.max(1e-9).log10() - lo) / (hi - lo)) * (H - TOP - BOTTOM)
    };
    let class = |w: Way| match w {
        Way::Lookup => "lookup",
        Way::OneHot => "one-hot",
        Way::LookupBackward => "lookup backward",
        Way::OneHotBackward => "one-hot backward",
    };
    let lines = move || {
        WAYS.map(|w| {
            let points = measured.with(|m| {
                m.iter()
                    .map(|m| format!("{},{}", fixed(x(m.case.v), 1), fixed(y(m.ms(w)), 1)))
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            view! { <polyline class=format!("oh-line {}", class(w)) points=points></polyline> }
        })
        .into_iter()
        .collect_view()
    };
    let marks = move || {
        torch_points.get().into_iter().flat_map(|t| {
            WAYS.map(|w| view! { <circle class=format!("oh-torch {}", class(w)) cx=fixed(x(t.case.v), 1) cy=fixed(y(t.ms(w)), 1) r="5"></circle> })
        }).collect_view()
    };
    let x_ticks = SWEEP_V
        .iter()
        .map(|&v| {
            view! {
                <g class="oh-tick">
                    <line x1=display(x(v)) x2=display(x(v)) y1=display(TOP) y2=display(H - BOTTOM)></line>
                    <text x=display(x(v)) y=display(H - BOTTOM + 20.0) text-anchor="middle">{grouped(v)}</text>
                </g>
            }
        })
        .collect_view();
    let y_ticks = move || {
        let (lo, hi) = range.get();
        (lo as i32..=hi as i32)
            .map(|e| {
                let ms = 10f64.powi(e);
                view! {
                    <g class="oh-tick">
                        <line x1=display(LEFT) x2=display(W - RIGHT) y1=display(y(ms)) y2=display(y(ms))></line>
                        <text x=display(LEFT - 8.0) y=display(y(ms) + 5.0) text-anchor="end">{decade(e)}</text>
                    </g>
                }
            })
            .collect_view()
    };
    view! {
        <figure class="oh-plot">
            <svg viewBox=format!("0 0 {} {}", display(W), display(H)) role="img" aria-label=t!("one-hot-plot")>
                {x_ticks}
                {y_ticks}
                <text class="oh-axis" x=display((LEFT + W - RIGHT) / 2.0) y=display(H - 4.0) text-anchor="middle">{t!("one-hot-plot-x")}</text>
                <text class="oh-axis" x="14" y=display((TOP + H - BOTTOM) / 2.0) text-anchor="middle" transform=format!("rotate(-90 14 {})", display((TOP + H - BOTTOM) / 2.0))>{t!("one-hot-plot-y")}</text>
                {lines}
                {marks}
            </svg>
            <figcaption class="oh-legend">
                <span class="key lookup">{t!("one-hot-lookup")}</span>
                <span class="key one-hot">{t!("one-hot-key-one-hot")}</span>
                <span class="key lookup backward">{t!("one-hot-key-lookup-backward")}</span>
                <span class="key one-hot backward">{t!("one-hot-key-one-hot-backward")}</span>
                <span class="key torch">{format!("○ {torch_label}")}</span>
            </figcaption>
        </figure>
    }
}

/// `10^e` as a tick reads: `0.001`, `1`, `1,000`.
fn decade(e: i32) -> String {
    match u32::try_from(e) {
        Ok(e) => grouped(10u64.saturating_pow(e)),
        Err(_) => fixed(10f64.powi(e), e.unsigned_abs().min(9)),
    }
}
