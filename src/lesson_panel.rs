//! A guided lesson on screen: its title, the step's words and where it is, Back / Next / Leave.
//! The clicker drives it: PageDown or → goes on, PageUp or ← back, Escape leaves it with the
//! scene as it is. While a lesson plays the timeline leaves those keys to it (Space still plays
//! the animation).

use crate::l10n;
use crate::timeline::{bring_into_view, not_for_the_clicker, own_keys, LOOK};
use leptos::ev;
use leptos::prelude::*;
use rowflow_core::lesson::{self, Lesson};
use rowflow_core::say::Say;

#[component]
pub fn LessonPanel(
    lesson: RwSignal<Option<(Lesson, usize)>>,
    /// The scene's route (`one-hot`), which names its lessons' messages.
    route: String,
    /// The step's words with its numbers filled in.
    #[prop(into)]
    says: Signal<Option<String>>,
    /// Why the link's lesson could not be opened as asked.
    note: Option<String>,
    /// Shows step `k` (0-based) of the lesson playing.
    on_go: Callback<usize>,
    on_leave: Callback<()>,
) -> impl IntoView {
    let at = move || lesson.with(|l| l.as_ref().map(|(l, k)| (*k, l.steps.len())));
    let next = move || {
        if let Some((k, n)) = at() {
            if k + 1 < n {
                on_go.run(k + 1);
            }
        }
    };
    let back = move || {
        if let Some((k, _)) = at().filter(|(k, _)| *k > 0) {
            on_go.run(k - 1);
        }
    };
    let keys = window_event_listener(ev::keydown, move |ev| {
        if lesson.with_untracked(Option::is_none) || not_for_the_clicker(&ev) {
            return;
        }
        let own = own_keys(&ev);
        match ev.key().as_str() {
            "PageDown" => next(),
            "PageUp" => back(),
            "ArrowRight" if !own => next(),
            "ArrowLeft" if !own => back(),
            "Escape" => on_leave.run(()),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || keys.remove());
    // What the step points at, in view, once its words are in: they set the panel's height, and
    // come with the scene's numbers (after a preset the step opens has been computed).
    Effect::new(move |_| {
        says.track();
        if lesson.with(Option::is_some) {
            request_animation_frame(|| bring_into_view(LOOK));
        }
    });

    let panel = move || {
        lesson.with(|l| {
            let (lesson, k) = l.as_ref()?;
            let n = lesson.steps.len();
            let last = *k + 1 == n;
            Some(view! {
                <section class="lesson" aria-labelledby="lesson-title">
                    <div class="lesson-head">
                        <p class="lesson-where">{t!("lesson-panel-where", step = k + 1, steps = n)}</p>
                        <h2 id="lesson-title">{l10n::say(&Say::new(lesson::message(&route, &lesson.id), Vec::new()))}</h2>
                        <div class="lesson-controls">
                            <button type="button" disabled=*k == 0 on:click=move |_| back()>{t!("lesson-panel-back")}</button>
                            <button type="button" disabled=last on:click=move |_| next()>{t!("lesson-panel-next")}</button>
                            <button type="button" aria-keyshortcuts="Escape" on:click=move |_| on_leave.run(())>
                                {if last { t!("lesson-panel-finish") } else { t!("lesson-panel-leave") }}
                            </button>
                        </div>
                    </div>
                    <p class="lesson-says" aria-live="polite">{move || says.get()}</p>
                </section>
            })
        })
    };
    view! {
        {note.map(|n| view! { <p class="share-notice issue" role="alert">{n}</p> })}
        {panel}
    }
}

/// The scene's lessons, as links that open them.
#[component]
pub fn LessonLinks(route: String, lessons: &'static [(&'static str, &'static str)]) -> impl IntoView {
    let links = lessons
        .iter()
        .map(|&(id, _)| {
            let title = l10n::say(&Say::new(lesson::message(&route, id), Vec::new()));
            view! { <li><a href=format!("#/{route}?lesson={id}")>{title}</a></li> }
        })
        .collect_view();
    view! {
        <nav class="scene-lessons" aria-label=t!("lesson-panel-lessons")>
            {t!("lesson-panel-lessons-label")}
            " "
            <ul>{links}</ul>
        </nav>
    }
}
