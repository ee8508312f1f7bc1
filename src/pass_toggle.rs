use leptos::prelude::*;
use rowflow_core::Phase;

/// Which pass the timeline plays: the forward trace, or the backward one (gradient flowing from
/// the loss back to every `.grad`). Each pass plays its own trace from the start.
#[component]
pub fn PassToggle(pass: RwSignal<Phase>, playhead: RwSignal<usize>) -> impl IntoView {
    let button = move |phase: Phase, text: String| {
        view! {
            <button
                type="button"
                class="pass"
                aria-pressed=move || if pass.get() == phase { "true" } else { "false" }
                on:click=move |_| {
                    if pass.get_untracked() != phase {
                        pass.set(phase);
                        playhead.set(0);
                    }
                }
            >
                {text}
            </button>
        }
    };
    view! {
        <div class="pass-toggle" role="group" aria-label=t!("pass-label")>
            {button(Phase::Forward, t!("pass-forward"))}
            {button(Phase::Backward, t!("pass-backward"))}
        </div>
    }
}
