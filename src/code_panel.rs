//! The PyTorch panel: a script that prints the scene's very numbers, to run in Python, or to
//! download as a Jupyter notebook. Both are written only when wanted (the script while the panel
//! is open, with a large literal left out; every number on Copy code, and the notebook, on their
//! click), since a large edited table makes a long script.

use crate::share_panel::{download, utf8_blob};
use leptos::prelude::*;

#[component]
pub fn CodePanel(
    /// The script of the scene as it is (`rowflow_core::codegen`), a large literal left out.
    #[prop(into)]
    code: Signal<String>,
    /// The script with every number, to copy.
    copy: Callback<(), String>,
    /// The scene's notebook file name and JSON (`rowflow_core::codegen::notebook`).
    notebook: Callback<(), (String, String)>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let said = RwSignal::new(None::<String>);
    let copy_code = move |_| {
        let Some(window) = web_sys::window() else { return };
        let clipboard = window.navigator().clipboard();
        let text = copy.run(());
        let promise = match clipboard_item(&text) {
            Some(item) => clipboard.write(&js_sys::Array::of1(&item)),
            None => clipboard.write_text(&text),
        };
        leptos::task::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            said.set(Some(if done { "Copied." } else { "Select the code and copy it." }.into()));
        });
    };
    let save = move |_| {
        let (name, json) = notebook.run(());
        said.set(Some(match download(&name, &json) {
            Some(()) => format!("Downloaded {name}."),
            None => "The browser refused the download.".into(),
        }));
    };
    view! {
        <details class="code-panel" on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            let el = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok());
            open.set(el.is_some_and(|d| d.open()));
            said.set(None);
        }>
            <summary>
                <h2>"PyTorch: the same numbers in Python"</h2>
            </summary>
            {move || open.get().then(|| view! {
                <p class="hint">
                    "Run it with PyTorch: it builds these tensors (from the seed where the seed gives them, bit for bit), \
                     and prints the output, the loss and every .grad shown here. The notebook has the same code in \
                     steps, each with what the scene says of it."
                </p>
                <div class="code-tools">
                    <button type="button" on:click=copy_code>"Copy code"</button>
                    <button type="button" on:click=save>"Download notebook"</button>
                    <span role="status">{move || said.get()}</span>
                </div>
                <pre class="code" tabindex="0" aria-label="PyTorch code"><code>{move || code.get()}</code></pre>
            })}
        </details>
    }
}

/// `text` as a clipboard item of its UTF-8 bytes, where the browser has `ClipboardItem`: Copy
/// code at real scale (5 MB) then makes no JS string of it.
fn clipboard_item(text: &str) -> Option<web_sys::ClipboardItem> {
    if !js_sys::Reflect::has(&js_sys::global(), &"ClipboardItem".into()).ok()? {
        return None;
    }
    let record = js_sys::Object::new();
    let blob = utf8_blob(text, "text/plain")?;
    js_sys::Reflect::set(&record, &"text/plain".into(), &blob).ok()?;
    web_sys::ClipboardItem::new_with_record_from_str_to_blob_promise(&record).ok()
}
