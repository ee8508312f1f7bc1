use leptos::prelude::*;
use rowflow_core::explain::{Explanation, Reading, Shape, KINDS};

/// A paste as read: laid out, said to run, or said to be unknown.
#[component]
pub fn ReadingView(reading: Memo<Option<Reading>>) -> impl IntoView {
    move || {
        reading.with(|r| match r {
            None => view! { <p class="hint">{t!("explain-nothing-yet")}</p> }.into_any(),
            Some(Reading::Explained(e)) => explained(e).into_any(),
            Some(Reading::Runs { line, output }) => view! {
                <div class="reading">
                    <p role="status">
                        {t!("explain-runs")} <code>{line.clone()}</code> {t!("explain-runs-gives")} <code>{output.clone()}</code> {t!("explain-runs-end")}
                    </p>
                </div>
            }
            .into_any(),
            Some(Reading::Unknown) => unknown().into_any(),
        })
    }
}

fn explained(e: &Explanation) -> impl IntoView {
    let scene = scene_name(e.route);
    let open = match &e.open {
        Some(payload) => {
            view! { <a class="open" href=format!("#/{}?s={payload}", e.route)>{t!("explain-open", scene = scene)}</a> }.into_any()
        }
        None => view! {
            <p class="scene-link">
                {t!("explain-see")} <code>{e.layer}</code> {t!("explain-see-in")} <a href=format!("#/{}", e.route)>{t!("explain-scene-link", scene = scene)}</a> {t!("explain-see-end")}
            </p>
        }
        .into_any(),
    };
    view! {
        // Only the message is announced as it changes: the rest is read when reached.
        <div class="reading explained">
            <p class="error" role="status"><code>{e.error.to_string()}</code></p>
            <p class="call">{t!("explain-from")} <code>{e.call.clone()}</code></p>
            <div class="shapes">{e.shapes.iter().map(shape).collect_view()}</div>
            <p class="why">{e.why.clone()}</p>
            <h2>{t!("explain-fixes")}</h2>
            <ul class="fixes">
                {e.fixes.iter().map(|f| view! { <li><code>{f.code.clone()}</code> <span class="gives">{f.gives.clone()}</span></li> }).collect_view()}
            </ul>
            {open}
        </div>
    }
}

/// `x (2, 5)`, each size its own box, the disagreeing ones marked.
fn shape(s: &Shape) -> impl IntoView {
    let last = s.dims.len().saturating_sub(1);
    let dims = s
        .dims
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let marked = s.marked.contains(&i);
            view! {
                <span class="dim" class:marked=marked data-dim=i>{d.to_string()}</span>
                {(i < last).then_some(", ")}
            }
        })
        .collect_view();
    view! {
        <p class="shape" data-tensor=s.name.clone()>
            <code class="name">{s.name.clone()}</code>
            " (" {dims} {(s.dims.len() == 1).then_some(",")} ") "
            <span class="means">{s.means.clone()}</span>
        </p>
    }
}

/// The scene's name as the navigation says it.
fn scene_name(route: &str) -> String {
    t!("explain-scene", route = route)
}

fn unknown() -> impl IntoView {
    view! {
        <div class="reading unknown">
            <p role="status">{t!("explain-unknown")}</p>
            <ul>
                {KINDS.iter().map(|(kind, route)| view! {
                    <li>{*kind} {t!("explain-kind-shown")} <a href=format!("#/{route}")>{t!("explain-scene-link", scene = scene_name(route))}</a></li>
                }).collect_view()}
            </ul>
        </div>
    }
}
