use leptos::prelude::*;

/// A labelled text field for one setting (a size, `padding_idx`, lengths): commits on Enter or
/// leaving the field; refused text stays in the field with the reason beside it until fixed or
/// reverted with Escape. `issue` shows a problem the core pins on the setting itself.
#[component]
pub fn Field(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<String>,
    on_commit: Callback<String, Result<(), String>>,
    #[prop(optional, into)] issue: Signal<Option<String>>,
) -> impl IntoView {
    let draft = RwSignal::new(None::<(String, String)>);
    // `try_run`: leaving the page while typing here commits on blur, after the scene is gone.
    let commit = move |text: String| match on_commit.try_run(text.clone()) {
        Some(Ok(())) => draft.set(None),
        Some(Err(e)) => draft.set(Some((text, e))),
        None => {}
    };
    let problem = move || draft.with(|d| d.as_ref().map(|(_, e)| e.clone())).or_else(|| issue.get());
    view! {
        <label class="field">
            <code>{label.clone()}</code>
            " "
            <input
                type="text"
                size="5"
                spellcheck="false"
                autocomplete="off"
                aria-label=label
                aria-invalid=move || problem().map(|_| "true")
                prop:value=move || draft.with(|d| d.as_ref().map(|(t, _)| t.clone())).unwrap_or_else(|| value.get())
                on:change=move |ev| commit(event_target_value(&ev))
                on:keydown=move |ev| {
                    if ev.key() == "Escape" {
                        draft.set(None);
                        let input: web_sys::HtmlInputElement = event_target(&ev);
                        input.set_value(&value.get_untracked());
                    }
                }
            />
            {move || problem().map(|m| view! { <span class="field-error" role="alert">{m}</span> })}
        </label>
    }
}
