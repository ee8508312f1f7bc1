//! A labelled checkbox: an option of a scene, or of the page.

use leptos::prelude::*;

/// Its label is its children, so words and code can mix (`" add " <code>"h_n.sum()"</code>`).
#[component]
pub fn Flag(
    #[prop(into)] checked: Signal<bool>,
    on_toggle: Callback<bool>,
    /// Greyed out and not clickable, while another option rules it out.
    #[prop(optional, into)]
    disabled: Signal<bool>,
    #[prop(default = "flag")] class: &'static str,
    children: Children,
) -> impl IntoView {
    view! {
        <label class=class class:off=move || disabled.get()>
            <input
                type="checkbox"
                prop:checked=move || checked.get()
                disabled=move || disabled.get()
                on:change=move |ev| on_toggle.run(event_target_checked(&ev))
            />
            {children()}
        </label>
    }
}
