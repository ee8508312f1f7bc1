//! The One-hot scene's cost: the work both ways counted and drawn to scale as the animation
//! plays, and both ways timed in this browser (in the timing worker) as V and D grow, once the
//! learner comes near the panel.

use super::drawer::{Change, Drawer};
use super::timer::Timer;
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::format::{fixed, grouped};
use rowflow_core::ops::one_hot::Cost;
use rowflow_core::scene::one_hot::{Case, Pass, Request, State, Work};
use std::time::Duration;
use wasm_bindgen::prelude::*;
use web_sys::{IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// Whether `panel` is on screen or within half a screen below it: set as it comes near and
/// goes, and false while it is hidden (`display: none`, as on the projector until Controls),
/// which leaves it no box to be seen. Nothing is timed, and the worker not even fetched, until the
/// learner comes near the panel. Where the browser cannot say, it is taken as near.
fn near_view(panel: NodeRef<leptos::html::Section>) -> Signal<bool> {
    let near = RwSignal::new(false);
    let watching = StoredValue::new_local(None::<(IntersectionObserver, Closure<dyn Fn(js_sys::Array)>)>);
    Effect::new(move |_| {
        let Some(el) = panel.get() else { return };
        if watching.with_value(Option::is_some) {
            return;
        }
        // The newest entry says where the panel is now.
        let check = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Ok(entry) = entries.at(-1).dyn_into::<IntersectionObserverEntry>() else { return };
            let now = entry.is_intersecting();
            if near.try_get_untracked() != Some(now) {
                near.try_set(now);
            }
        });
        let options = IntersectionObserverInit::new();
        options.set_root_margin("0px 0px 50% 0px");
        match IntersectionObserver::new_with_options(check.as_ref().unchecked_ref(), &options) {
            Ok(observer) => {
                observer.observe(&el);
                watching.set_value(Some((observer, check)));
            }
            Err(_) => near.set(true),
        }
    });
    on_cleanup(move || {
        if let Some((observer, _)) = watching.try_update_value(Option::take).flatten() {
            observer.disconnect();
        }
    });
    near.into()
}

/// Each way is repeated until this much time has passed, so the clock's coarse ticks don't matter.
const TIMING_BUDGET_MS: f64 = 20.0;

#[component]
pub fn CostPanel(drawer: Drawer) -> impl IntoView {
    let model = use_model::<State>();
    let (state, computed, playhead) = (model.state, model.view, model.playhead);
    let backward_on = model.backward();
    let pass = move |f: &dyn Fn(&Pass) -> String| computed.with(|c| c.pass.as_ref().map(f).unwrap_or_default());
    // Both ways timed afresh in the worker for each new size, once the panel is near the screen:
    // nothing is timed before the learner comes to it, nor while it is hidden (on the projector,
    // until Controls).
    let panel = NodeRef::<leptos::html::Section>::new();
    let near = near_view(panel);
    let timer = Timer::new();
    let sizes = Memo::new(move |_| state.with(|s| (s.sizes(), s.ids.numel())));
    // The sizes a slider shows: those being drawn, else the table's.
    let on_slider = drawer.sizes();
    let pick = |field: &'static str| Callback::new(move |text: String| drawer.pick(field, text.parse().unwrap_or(0)));
    let time_now = move || {
        // Gone with its view before a deferred start ran: nothing to time.
        let Some(((v, d), ids)) = sizes.try_get_untracked() else { return };
        match ids {
            0 => timer.cancel(),
            _ => timer.start(Request { cases: vec![Case { v, d, ids }], budget_ms: TIMING_BUDGET_MS }),
        }
    };
    // The sizes last timed. Started in a task of its own: a new worker (~9 ms on the page) need
    // not lengthen the change's task, which at V = 50,000 is long enough.
    let timed = StoredValue::new(None);
    Effect::new(move |_| {
        let now = sizes.get();
        if near.get() && timed.get_value() != Some(now) {
            timed.set_value(Some(now));
            set_timeout(time_now, Duration::ZERO);
        }
    });
    let timing = move || match (timer.measured.get().first(), timer.error.get()) {
        (_, Some(why)) => why,
        (Some(m), None) => crate::l10n::say(&m.caption()),
        (None, None) if sizes.get().1 == 0 => t!("one-hot-no-ids-to-time"),
        (None, None) => t!("one-hot-timing"),
    };

    // The forward work so far against the whole: bars to scale and the counts in words. Going
    // backward, the forward pass has run in full.
    let work = Memo::new(move |_| {
        computed.with(|c| {
            let p = c.pass.as_ref()?;
            let at = if backward_on.get() { p.trace.len() } else { playhead.get() };
            Some((p.work_at(at), p.cost))
        })
    });
    let width = move |part: fn(&(Work, Cost)) -> (usize, usize)| {
        move || {
            let (part, of) = work.with(|w| w.as_ref().map_or((0, 1), part));
            format!("{}%", fixed(100.0 * part as f64 / of.max(1) as f64, 3))
        }
    };
    let count = move |part: fn(&(Work, Cost)) -> (usize, usize)| {
        move || {
            work.with(|w| w.as_ref().map(part))
                .map(|(n, of)| t!("one-hot-count-of", done = grouped(n), total = grouped(of)))
        }
    };
    let bars = view! {
        <div class="oh-bars" aria-hidden="true">
            <div class="oh-bar-row">
                <span class="oh-bar-name">{t!("one-hot-lookup")}</span>
                <div class="oh-bar lookup" style:width=width(|(_, c)| (c.lookup_copies, c.one_hot_multiply_adds))>
                    <div class="oh-fill" style:width=width(|(w, c)| (w.copies, c.lookup_copies))></div>
                </div>
            </div>
            <div class="oh-bar-row">
                <span class="oh-bar-name">{t!("one-hot-bar-one-hot")}</span>
                <div class="oh-bar linear">
                    <div class="oh-useful" style:width=width(|(_, c)| (c.lookup_copies, c.one_hot_multiply_adds))></div>
                    <div class="oh-fill" style:width=width(|(w, c)| (w.multiply_adds, c.one_hot_multiply_adds))></div>
                </div>
            </div>
        </div>
        <p class="hint">{t!("one-hot-bars-hint")}</p>
        <dl class="oh-counts">
            <dt>{t!("one-hot-copied")}</dt>
            <dd>{count(|(w, c)| (w.copies, c.lookup_copies))}</dd>
            <dt>{t!("one-hot-multiply-adds")}</dt>
            <dd>{count(|(w, c)| (w.multiply_adds, c.one_hot_multiply_adds))}</dd>
            <dt>{t!("one-hot-zero-products")}</dt>
            <dd>{count(|(w, c)| (w.zero_products, c.zero_products))}</dd>
        </dl>
    };

    view! {
        <section class="oh-cost" aria-label=t!("one-hot-work") node_ref=panel>
            <h2>{t!("one-hot-work-heading")}</h2>
            <p>{move || pass(&|p| crate::l10n::say(&p.cost_caption()))}</p>
            {bars}
            <h2>{t!("one-hot-grow-heading")}</h2>
            <div class="oh-sliders">
                <SizeSlider
                    label=t!("one-hot-slider-v")
                    choices=Signal::derive(move || state.with(|s| s.vocab_choices(on_slider.get())))
                    value=Signal::derive(move || on_slider.get().0)
                    on_pick=pick("V")
                />
                <SizeSlider
                    label=t!("one-hot-slider-d")
                    choices=Signal::derive(move || state.with(|s| s.dim_choices(on_slider.get())))
                    value=Signal::derive(move || on_slider.get().1)
                    on_pick=pick("D")
                />
            </div>
            {drawer.status(Change::Size)}
            // A computed result, so an <output> (a status to screen readers), not a paragraph.
            <output class="oh-timing">{timing}</output>
            <button type="button" on:click=move |_| time_now()>{t!("one-hot-time-again")}</button>
            <p class="hint">{t!("one-hot-seed-hint")}</p>
        </section>
    }
}

/// A slider over the sizes the core allows; the value shows while dragging and is set on
/// release, with the core's reason beside it if refused.
#[component]
fn SizeSlider(
    #[prop(into)] label: String,
    #[prop(into)] choices: Signal<Vec<usize>>,
    #[prop(into)] value: Signal<usize>,
    on_pick: Callback<String, Result<(), String>>,
) -> impl IntoView {
    let dragging = RwSignal::new(None::<usize>);
    let error = RwSignal::new(None::<String>);
    let position = move || choices.with(|c| c.iter().position(|&s| s == value.get()).unwrap_or(0));
    let at = move |ev: &leptos::ev::Event| {
        let k: usize = event_target_value(ev).parse().unwrap_or(0);
        choices.with_untracked(|c| c.get(k).copied())
    };
    let shown = move || dragging.get().unwrap_or_else(|| value.get());
    view! {
        <label class="oh-slider">
            <span class="oh-slider-name">{label.clone()}</span>
            <input
                type="range"
                min="0"
                max=move || choices.with(|c| c.len().saturating_sub(1))
                step="1"
                aria-label=label
                aria-valuetext=move || shown().to_string()
                prop:value=move || position().to_string()
                on:input=move |ev| dragging.set(at(&ev))
                on:change=move |ev| {
                    dragging.set(None);
                    if let Some(n) = at(&ev) {
                        error.set(on_pick.run(n.to_string()).err());
                    }
                }
            />
            <output class="oh-slider-value">{shown}</output>
            {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </label>
    }
}
