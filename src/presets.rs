use leptos::prelude::*;

/// The scene's presets (the seed material's exact tensors) as a picker.
#[component]
pub fn Presets(
    presets: &'static [(&'static str, &'static str)],
    #[prop(into)] current: Signal<String>,
    on_pick: Callback<String>,
) -> impl IntoView {
    let options = presets
        .iter()
        .map(|&(id, text)| view! { <option value=id selected=move || current.get() == id>{text}</option> })
        .collect_view();
    view! {
        <label class="presets">
            {t!("presets-label")}
            " "
            <select
                aria-label=t!("presets-label")
                on:change=move |ev| on_pick.run(event_target_value(&ev))
            >
                <option value="" disabled selected=move || !presets.iter().any(|(id, _)| current.get() == *id)>
                    {t!("presets-edited")}
                </option>
                {options}
            </select>
        </label>
    }
}
