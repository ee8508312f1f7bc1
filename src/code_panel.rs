//! The PyTorch panel: a script that prints the scene's very numbers, to run in Python, or to
//! download as a Jupyter notebook. Both are written only when wanted (the script while the panel
//! is open, with a large literal left out; every number on Copy code, and the notebook, on their
//! click), since a large edited table makes a long script. What the panel leaves out, a scene
//! may write off the page ([`Elsewhere`]).

use crate::share_panel::{download, utf8_blob};
use leptos::prelude::*;
use rowflow_core::codegen::File;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// A file the panel hands on: its text now, or a Blob of it to come (a promise, rejected with
/// why not) and the way to stop it.
pub enum Written {
    Now(String),
    Later { blob: js_sys::Promise, cancel: Callback<()> },
}

/// How a scene writes its files, steps as for `codegen::run_steps`, when the panel's script
/// leaves numbers out, in its context: One-hot writes them in its worker (a 5 MB script at real
/// scale, a long task on the page).
#[derive(Clone, Copy)]
pub struct Elsewhere(pub Callback<(File, usize), Written>);

#[component]
pub fn CodePanel(
    /// The script of the scene as it is (`rowflow_core::codegen`), a large literal left out.
    #[prop(into)]
    code: Signal<String>,
    /// The script with every number, to copy, written now or off the page.
    copy: Callback<(), Written>,
    /// The scene's notebook file name and JSON (`rowflow_core::codegen::notebook`), likewise.
    notebook: Callback<(), (String, Written)>,
    /// Hears the panel opened (true) or closed.
    on_open: Callback<bool>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let said = RwSignal::new(None::<String>);
    // A file being written off the page: its Cancel, and Copy code and Download wait for it.
    let writing = RwSignal::new(None::<Callback<()>>);
    let begin = move |cancel, writing_what: String| {
        writing.set(Some(cancel));
        said.set(Some(writing_what));
    };
    let copy_code = move |_| {
        let Some(window) = web_sys::window() else { return };
        let clipboard = window.navigator().clipboard();
        let write = |item: web_sys::ClipboardItem| clipboard.write(&js_sys::Array::of1(&item));
        let (written, later) = match copy.run(()) {
            Written::Now(text) => match utf8_blob(&text, "text/plain").and_then(|blob| clipboard_item(&blob)) {
                Some(item) => (write(item), None),
                None => (clipboard.write_text(&text), None),
            },
            // Asked in the click with a promise of the file, so the click's permission holds
            // when it arrives.
            Written::Later { blob, cancel } => {
                begin(cancel, t!("code-writing-script"));
                let written = clipboard_item(&blob)
                    .map(write)
                    .unwrap_or_else(|| js_sys::Promise::reject(&t!("code-no-background-copy").into()));
                (written, Some(blob))
            }
        };
        // Its answer may come after the panel is gone (the scene left meanwhile): `try_set`.
        leptos::task::spawn_local(async move {
            let written = JsFuture::from(written).await;
            let refused = match later {
                Some(blob) => JsFuture::from(blob).await.err().or(written.clone().err()),
                None => None,
            };
            writing.try_set(None);
            said.try_set(Some(match (written.is_ok(), refused) {
                (true, _) => t!("code-copied"),
                (false, Some(why)) => t!("code-not-copied", error = reason(why)),
                (false, None) => t!("code-select"),
            }));
        });
    };
    let save = move |_| {
        let (name, file) = notebook.run(());
        let blob = match file {
            Written::Now(text) => utf8_blob(&text, "application/json"),
            Written::Later { blob, cancel } => {
                begin(cancel, t!("code-writing-notebook"));
                return leptos::task::spawn_local(async move {
                    let blob = JsFuture::from(blob).await;
                    writing.try_set(None);
                    said.try_set(Some(match blob {
                        Ok(blob) => downloaded(&name, download(&name, &blob.into())),
                        Err(why) => t!("code-not-downloaded", error = reason(why)),
                    }));
                });
            }
        };
        said.set(Some(downloaded(&name, blob.and_then(|blob| download(&name, &blob)))));
    };
    let busy = move || writing.with(Option::is_some);
    view! {
        <details class="code-panel" on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            let el = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok());
            open.set(el.is_some_and(|d| d.open()));
            on_open.run(open.get_untracked());
            if !busy() {
                said.set(None);
            }
        }>
            <summary>
                <h2>{t!("code-title")}</h2>
            </summary>
            {move || open.get().then(|| view! {
                <p class="hint">{t!("code-hint")}</p>
                <div class="code-tools">
                    <button type="button" on:click=copy_code disabled=busy>{t!("code-copy")}</button>
                    <button type="button" on:click=save disabled=busy>{t!("code-download")}</button>
                    <span role="status">
                        {move || busy().then(|| view! { <progress aria-label=t!("code-writing-file")></progress>" " })}
                        {move || said.get()}
                    </span>
                    {move || writing.get().map(|cancel| view! {
                        <button type="button" on:click=move |_| cancel.run(())>{t!("code-cancel")}</button>
                    })}
                </div>
                <pre class="code" tabindex="0" aria-label=t!("code-pytorch-code")><code>{move || code.get()}</code></pre>
            })}
        </details>
    }
}

/// `blob` (or a promise of one) as a clipboard item of plain text, where the browser has
/// `ClipboardItem`: Copy code at real scale (5 MB) then makes no JS string of it.
fn clipboard_item(blob: &JsValue) -> Option<web_sys::ClipboardItem> {
    if !js_sys::Reflect::has(&js_sys::global(), &"ClipboardItem".into()).ok()? {
        return None;
    }
    let record = js_sys::Object::new();
    js_sys::Reflect::set(&record, &"text/plain".into(), blob).ok()?;
    web_sys::ClipboardItem::new_with_record_from_str_to_blob_promise(&record).ok()
}

fn downloaded(name: &str, done: Option<()>) -> String {
    match done {
        Some(()) => t!("code-downloaded", name = name),
        None => t!("code-download-refused"),
    }
}

/// Why a promise was rejected, in words: a writer rejects with its reason as a string.
fn reason(why: JsValue) -> String {
    why.as_string().unwrap_or_else(|| t!("code-refused"))
}
