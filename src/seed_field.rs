use leptos::prelude::*;

/// `torch.manual_seed(S)` then the module's own init: PyTorch's exact initial values.
#[component]
pub fn SeedField(
    on_seed: Callback<String, Result<(), String>>,
    /// The seed the scene's values were drawn with, shown to start from.
    #[prop(optional, into)]
    seed: Option<Signal<String>>,
) -> impl IntoView {
    let typed = RwSignal::new(None::<String>);
    let shown = move || typed.get().or_else(|| seed.map(|s| s.get())).unwrap_or_else(|| "0".to_string());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = typed.get_untracked().unwrap_or_else(shown);
        let result = on_seed.run(text);
        if result.is_ok() {
            typed.set(None);
        }
        error.set(result.err());
    };
    view! {
        <form class="seed-field" on:submit=submit>
            <code>"torch.manual_seed("</code>
            <input
                type="text"
                inputmode="numeric"
                size="8"
                aria-label=t!("seed-label")
                aria-invalid=move || error.get().map(|_| "true")
                prop:value=shown
                on:input=move |ev| typed.set(Some(event_target_value(&ev)))
            />
            <code>")"</code>
            <button type="submit">{t!("seed-reinit")}</button>
            {move || error.get().map(|e| view! { <span class="field-error" role="alert">{e}</span> })}
        </form>
    }
}
