//! The PyTorch panel: a script that prints the scene's very numbers, to run in Python. Written
//! only while the panel is open, since a large edited table makes a long script.

use leptos::prelude::*;

#[component]
pub fn CodePanel(
    /// The script of the scene as it is (`rowflow_core::codegen`).
    #[prop(into)]
    code: Signal<String>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let copied = RwSignal::new(None::<&'static str>);
    let copy = move |_| {
        let Some(window) = web_sys::window() else { return };
        let promise = window.navigator().clipboard().write_text(&code.get_untracked());
        leptos::task::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            copied.set(Some(if done { "Copied." } else { "Select the code and copy it." }));
        });
    };
    view! {
        <details class="code-panel" on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            let el = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok());
            open.set(el.is_some_and(|d| d.open()));
            copied.set(None);
        }>
            <summary>
                <h2>"PyTorch: the same numbers in Python"</h2>
            </summary>
            {move || open.get().then(|| view! {
                <p class="hint">
                    "Run it with PyTorch: it builds these tensors (from the seed where the seed gives them, bit for bit), \
                     and prints the output, the loss and every .grad shown here."
                </p>
                <div class="code-tools">
                    <button type="button" on:click=copy>"Copy code"</button>
                    <span role="status">{move || copied.get()}</span>
                </div>
                <pre class="code" tabindex="0" aria-label="PyTorch code"><code>{move || code.get()}</code></pre>
            })}
        </details>
    }
}
