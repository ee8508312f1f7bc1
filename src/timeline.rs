use crate::pass_toggle::PassToggle;
use leptos::ev;
use leptos::prelude::*;
use rowflow_core::format::display;
use rowflow_core::{decimal, Phase};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wasm_bindgen::JsCast;

/// Milliseconds per step at 1×.
const STEP_MS: f64 = 800.0;

/// Play, pause, step and scrub through a trace, with the pass to play first: the same place in
/// every scene. Presentation clickers send PageDown/PageUp (and
/// arrows, Space), so those keys drive it from anywhere on the page, a clicked checkbox, slider
/// or cell included, except while something is being typed into a field.
/// Playhead `k`: steps `0..k` have run; 0 is before the first.
#[component]
pub fn Timeline(
    /// The steps of the pass on show.
    #[prop(into)]
    len: Signal<usize>,
    playhead: RwSignal<usize>,
    /// The pass on show: stepping past the forward pass's end goes on into the backward pass,
    /// and back again, so a clicker walks both as one sequence.
    pass: RwSignal<Phase>,
    #[prop(into)] describe: Signal<String>,
    /// While a lesson plays, the clicker's keys step the lesson (Space still plays).
    #[prop(optional, into)]
    keys_taken: Signal<bool>,
) -> impl IntoView {
    let playing = RwSignal::new(false);
    let speed = RwSignal::new(1.0f64);
    let bar = NodeRef::<leptos::html::Div>::new();
    // The view follows the step (not on arrival, and not in a lesson, which shows its own).
    Effect::new(move |seen: Option<()>| {
        let _ = (playhead.get(), pass.get());
        if seen.is_some() && !keys_taken.get_untracked() {
            // The timeline may be gone by the next frame (the learner left the scene).
            request_animation_frame(move || follow(bar.try_get_untracked().flatten(), STEP));
        }
    });
    // An edit can shorten the trace: keep the playhead on a step that exists.
    Effect::new(move |_| {
        let n = len.get();
        if playhead.get_untracked() > n {
            playhead.set(n);
        }
    });
    let forward = move || {
        let (p, n) = (playhead.get_untracked(), len.get_untracked());
        if p < n {
            playhead.set(p + 1);
        } else if pass.get_untracked() == Phase::Forward && !playing.get_untracked() {
            pass.set(Phase::Backward);
            playhead.set(0);
        }
        if p + 1 >= n {
            playing.set(false);
        }
    };
    let back = move || match playhead.get_untracked() {
        0 if pass.get_untracked() == Phase::Backward => {
            pass.set(Phase::Forward);
            playhead.set(len.get_untracked());
        }
        p => playhead.set(p.saturating_sub(1)),
    };
    let toggle = move || {
        if !playing.get_untracked() && playhead.get_untracked() >= len.get_untracked() {
            playhead.set(0); // play again from the start
        }
        playing.update(|p| *p = !*p);
    };
    // The running interval, cleared when play stops, the speed changes or the timeline goes away
    // (left running, it would step signals that no longer exist).
    let interval = Arc::new(Mutex::new(None::<IntervalHandle>));
    let stop = {
        let interval = interval.clone();
        move || {
            if let Some(handle) = interval.lock().ok().and_then(|mut i| i.take()) {
                handle.clear();
            }
        }
    };
    on_cleanup(stop.clone());
    Effect::new(move |_| {
        stop();
        let ms = STEP_MS / speed.get();
        let next = playing.get().then(|| set_interval_with_handle(forward, Duration::from_millis(ms as u64)).ok());
        if let Ok(mut i) = interval.lock() {
            *i = next.flatten();
        }
    });
    let keys = window_event_listener(ev::keydown, move |ev| {
        // Before anything else: Enter in a cell commits (and the grid takes the key).
        if matches!(ev.key().as_str(), "Enter" | "Escape" | "Tab") {
            settled(&ev);
        }
        if not_for_the_clicker(&ev) {
            return;
        }
        // Arrows, Home/End and Space keep their own meaning where the focus has one; a clicker's
        // PageDown/PageUp step from anywhere.
        let own = own_keys(&ev);
        let taken = keys_taken.get_untracked();
        match ev.key().as_str() {
            " " if !own && !on_control(&ev) => toggle(),
            _ if taken => return,
            "PageDown" => forward(),
            "PageUp" => back(),
            "ArrowRight" if !own => forward(),
            "ArrowLeft" if !own => back(),
            "Home" if !own => playhead.set(0),
            "End" if !own => playhead.set(len.get_untracked()),
            _ => return,
        }
        playing.set(playing.get_untracked() && ev.key() == " ");
        ev.prevent_default();
    });
    // A field is being typed in from its first change until Enter, Escape, Tab or leaving it.
    let typed = window_event_listener(ev::input, |ev| {
        if let Some(el) = target(&ev).filter(text_field) {
            let _ = el.set_attribute(TYPING, "");
        }
    });
    let left = window_event_listener(ev::focusout, |ev| settled(&ev));
    on_cleanup(move || {
        keys.remove();
        typed.remove();
        left.remove();
    });

    let status = move || {
        let (p, n) = (playhead.get(), len.get());
        match (p, n) {
            (_, 0) => describe.get(),
            (0, _) => t!("timeline-ready", steps = n),
            _ => t!("timeline-step", step = p, steps = n, caption = describe.get()),
        }
    };
    view! {
        <div class="timeline" role="group" aria-label=t!("timeline.aria-label") node_ref=bar>
            <div class="controls">
                <PassToggle pass=pass playhead=playhead />
                <button type="button" aria-label=t!("timeline-first") on:click=move |_| playhead.set(0)>"|◀"</button>
                <button type="button" aria-label=t!("timeline-back") on:click=move |_| back()>"◀"</button>
                <button
                    type="button"
                    class="play"
                    aria-label=move || if playing.get() { t!("timeline-pause") } else { t!("timeline-play") }
                    on:click=move |_| toggle()
                >
                    {move || if playing.get() { t!("timeline-pause-button") } else { t!("timeline-play-button") }}
                </button>
                <button type="button" aria-label=t!("timeline-forward") on:click=move |_| forward()>"▶"</button>
                <button type="button" aria-label=t!("timeline-last") on:click=move |_| playhead.set(len.get_untracked())>
                    "▶|"
                </button>
                <input
                    type="range"
                    aria-label=t!("timeline-step-slider")
                    min="0"
                    max=move || len.get()
                    prop:value=move || playhead.get()
                    on:input=move |ev| playhead.set(event_target_value(&ev).parse().unwrap_or(0))
                />
                <label class="speed">
                    {t!("timeline-speed")}
                    " "
                    <select
                        aria-label=t!("timeline-speed")
                        on:change=move |ev| speed.set(decimal::parse(&event_target_value(&ev)).unwrap_or(1.0))
                    >
                        <option value="0.5">"0.5×"</option>
                        <option value="1" selected>"1×"</option>
                        <option value="2">"2×"</option>
                        <option value="4">"4×"</option>
                    </select>
                </label>
            </div>
            <p class="step-status" role="status">{status}</p>
        </div>
    }
}

/// What a step shows, most first: all it reads and writes, else what it writes, else the boxes it
/// writes and the gradient it reads. Grid cells carry
/// their mark as `data-mark` (their gradient's on its own span in the cell), measured by their rows (a row spans what its cells do, and one rect
/// a row, not one a cell, kept a step that marks 1,280 cells from costing 14 ms here); the RNN
/// diagram's boxes carry it as a class.
const STEP: &[&str] = &[
    "main :is(.read, .write, tr:has(> td:is([data-mark=read], [data-mark=write]), > td > .g:is([data-mark=read], [data-mark=write]))):not(.timeline *)",
    "main :is(.write, tr:has(> td[data-mark=write], > td > .g[data-mark=write])):not(.timeline *)",
    // An RNN step on a desktop adds into every gradient, down to input.grad under the diagram:
    // its cell's box and the gradient it starts from come first.
    "main :is(.write, tr:has(> td > .g[data-mark=read])):not(.timeline *)",
];

/// What a lesson's step points at: every outlined cell.
pub(crate) const LOOK: &[&str] = &["main .look"];

/// The page scrolled so that what a step shows is on screen, clear of the timeline (fixed at the foot
/// in projection mode) and of a lesson's panel (pinned at the top).
pub(crate) fn bring_into_view(shows: &'static [&'static str]) {
    let bar = document().query_selector(".timeline").ok().flatten().and_then(|b| b.dyn_into().ok());
    follow(bar, shows);
}

/// Scrolls the page so that the first of `shows` (selectors, most first) that fits is on screen
/// and clear of the timeline and a lesson's panel; when none fits, the start of the last: an
/// RNN cell's box, above the parameters whose gradients it adds into. Smooth unless the learner
/// asks for reduced motion.
fn follow(bar: Option<web_sys::HtmlDivElement>, shows: &[&str]) {
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let span = |selector: &str| {
        let list = document.query_selector_all(selector).ok()?;
        let rects = (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<web_sys::Element>().ok());
        let rects = rects.map(|el| el.get_bounding_client_rect()).filter(|r| r.height() > 0.0);
        rects.fold(None, |acc: Option<(f64, f64)>, r| {
            Some(acc.map_or((r.top(), r.bottom()), |(t, b)| (t.min(r.top()), b.max(r.bottom()))))
        })
    };
    let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    // Fixed at the foot in projection, sticky there on a desktop: either way it covers the page.
    let fixed = bar.as_ref().is_some_and(|b| {
        let position = window.get_computed_style(b).ok().flatten().and_then(|s| s.get_property_value("position").ok());
        matches!(position.as_deref(), Some("fixed" | "sticky"))
    });
    // The page keeps room below its end for the fixed timeline as tall as this step's caption
    // makes it, so what the step writes can always scroll clear of it.
    if let (true, Some(b), Some(root)) = (fixed, bar.as_ref(), document.document_element()) {
        let room = format!("{}px", display(b.get_bounding_client_rect().height().ceil()));
        let _ = root.unchecked_ref::<web_sys::HtmlElement>().style().set_property("--timeline-room", &room);
    }
    // A lesson's panel is pinned at the top once the page scrolls down: below it, as tall as it is.
    let lesson = document.query_selector(".lesson").ok().flatten().map_or(0.0, |l| {
        let r = l.get_bounding_client_rect();
        let pinned = window.get_computed_style(&l).ok().flatten().and_then(|s| s.get_property_value("top").ok());
        let pinned = pinned.and_then(|t| decimal::parse(t.trim_end_matches("px"))).unwrap_or(0.0) + r.height();
        r.bottom().min(pinned).max(0.0)
    });
    let (top, bottom) =
        (lesson + 8.0, if fixed { bar.map_or(height, |b| b.get_bounding_client_rect().top()) } else { height } - 8.0);
    // The first that fits; else the start of the last.
    let room = bottom - top;
    let spans: Vec<(f64, f64)> = shows.iter().filter_map(|s| span(s)).collect();
    let delta = match spans.iter().find(|(t, b)| b - t <= room) {
        Some(&(t, b)) => fit(t, b, top, bottom),
        None => spans.last().map_or(0.0, |&(t, _)| t - top),
    };
    if delta.abs() < 1.0 {
        return;
    }
    let calm = window.match_media("(prefers-reduced-motion: reduce)").ok().flatten().is_some_and(|m| m.matches());
    let options = web_sys::ScrollToOptions::new();
    options.set_top(delta);
    options.set_behavior(if calm { web_sys::ScrollBehavior::Instant } else { web_sys::ScrollBehavior::Smooth });
    window.scroll_by_with_scroll_to_options(&options);
}

/// How far to scroll so that `t..b` lies inside `top..bottom`, moving as little as possible.
fn fit(t: f64, b: f64, top: f64, bottom: f64) -> f64 {
    if t < top {
        t - top
    } else if b > bottom {
        b - bottom
    } else {
        0.0
    }
}

/// Marks a text field that holds typing not yet committed.
const TYPING: &str = "data-typing";

fn target(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// A field whose keys are text: a cell, a size, a seed.
fn text_field(el: &web_sys::Element) -> bool {
    match el.tag_name().as_str() {
        "TEXTAREA" => true,
        "INPUT" => matches!(el.get_attribute("type").as_deref(), None | Some("text" | "number" | "search" | "url")),
        _ => false,
    }
}

/// A key something else has taken: a shortcut with a modifier, one already handled, or typing.
pub(crate) fn not_for_the_clicker(ev: &web_sys::KeyboardEvent) -> bool {
    ev.default_prevented() || ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing(ev)
}

/// Keys typed into a field belong to the field until what was typed is committed or left.
fn typing(ev: &web_sys::Event) -> bool {
    target(ev).is_some_and(|el| text_field(&el) && el.has_attribute(TYPING))
}

fn settled(ev: &web_sys::Event) {
    if let Some(el) = target(ev) {
        let _ = el.remove_attribute(TYPING);
    }
}

/// Where the arrows already mean something: moving in a grid or a text, a slider, a list, radios.
pub(crate) fn own_keys(ev: &web_sys::Event) -> bool {
    target(ev).is_some_and(|el| {
        text_field(&el)
            || el.closest("[role=grid]").ok().flatten().is_some()
            || matches!(el.tag_name().as_str(), "SELECT")
            || matches!(el.get_attribute("type").as_deref(), Some("range" | "radio"))
    })
}

/// Space presses a focused button, box or summary; the other keys still drive the timeline.
fn on_control(ev: &web_sys::Event) -> bool {
    target(ev).is_some_and(|el| {
        matches!(el.tag_name().as_str(), "BUTTON" | "SUMMARY" | "SELECT" | "A")
            || matches!(el.get_attribute("type").as_deref(), Some("checkbox" | "radio"))
    })
}
