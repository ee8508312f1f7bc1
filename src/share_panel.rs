//! Share the scene on show: a link that opens it as it is (copied, and shown to copy by hand
//! where the clipboard is not allowed), a JSON file to export, and a file to import. What a
//! link or file replaced can come back; what can't be read changes nothing and says why.

use crate::class_link::ClassLink;
use crate::more::{self, Asked};
use crate::storage::{show_read, size, Before, Notice, Scene};
use leptos::prelude::*;
use rowflow_core::scene::share::{to_file, to_link, MAX_LINK};
use wasm_bindgen::JsCast;

#[component]
pub fn SharePanel<S: Asked>(scene: Scene<S>) -> impl IntoView {
    // Work the scene does before it reads a file or brings work back (One-hot's draws).
    let before = use_context::<Before>();
    let link = RwSignal::new(None::<String>);
    let copied = RwSignal::new(None::<String>);
    let too_long = RwSignal::new(None::<String>);

    let copy_link = move |_| {
        let Some(window) = web_sys::window() else { return };
        let (base, route) = crate::address::base_and_route();
        let payload = scene.state.with_untracked(to_link);
        copied.set(None);
        // A link rowflow could not open again is not offered: the limit is said where it bites.
        if payload.len() > MAX_LINK {
            link.set(None);
            too_long.set(Some(t!("share-too-large", size = size(payload.len()))));
            return;
        }
        too_long.set((payload.len() > LONG_LINK).then(|| t!("share-long", size = size(payload.len()))));
        let url = format!("{base}{route}?s={payload}");
        link.set(Some(url.clone()));
        let promise = window.navigator().clipboard().write_text(&url);
        leptos::task::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            copied.set(Some(if done { t!("share-copied") } else { t!("share-select") }));
        });
    };

    let export = move |_| {
        let text = scene.state.with_untracked(to_file);
        let name = format!("{}.json", scene.key.replace('.', "-"));
        if utf8_blob(&text, "application/json").and_then(|blob| download(&name, &blob)).is_none() {
            scene.notice.set(Some(Notice::Refused { from: "export", why: t!("share-download-refused") }));
        }
    };

    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
            let refused = move |why| scene.notice.set(Some(Notice::Refused { from: "file", why }));
            let Some(text) = text else { return refused(t!("share-not-text")) };
            Before::run(before, text, move |text| {
                more::read::<S>(
                    text,
                    |m| m.from_file,
                    move |read| match read {
                        Ok(s) => show_read(s, move |s| scene.adopt(s, "file")),
                        Err(why) => refused(why),
                    },
                )
            });
        });
    };

    let notice = move || {
        scene.notice.get().map(|n| match n {
            Notice::Opened { from, kept } => view! {
                <p class="share-notice" role="status">
                    {t!("share-opened", from = from)}
                    {kept.then(|| t!("share-kept"))}
                    {kept.then(|| view! {
                        <button type="button" on:click=move |_| scene.restore(before)>{t!("share-back")}</button>
                    })}
                </p>
            }
            .into_any(),
            Notice::Refused { from, why } => view! {
                <p class="share-notice issue" role="alert">
                    {t!("share-refused", from = from, error = why)}
                </p>
            }
            .into_any(),
            Notice::Elsewhere => view! {
                <p class="share-notice" role="status">
                    {t!("share-elsewhere")}
                    <button type="button" on:click=move |_| scene.restore(before)>{t!("share-back")}</button>
                </p>
            }
            .into_any(),
            Notice::Restored => view! { <p class="share-notice" role="status">{t!("share-restored")}</p> }.into_any(),
            Notice::Unreadable { why } => view! {
                <p class="share-notice issue" role="alert">
                    {t!("share-unreadable", error = why, key = scene.key)}
                    <button type="button" on:click=move |_| download_unreadable(scene.key)>{t!("share-download-it")}</button>
                </p>
            }
            .into_any(),
        })
    };
    // A save that fails is never silent: this stays until a save succeeds.
    let unsaved = move || {
        scene.unsaved.get().map(|why| {
            view! {
                <p class="share-notice save-notice" role="alert">
                    {t!("share-unsaved", error = why)}
                    <button type="button" on:click=export>{t!("share-export")}</button>
                </p>
            }
        })
    };

    view! {
        <div class="share" role="group" aria-label=t!("share-label")>
            <button type="button" on:click=copy_link>{t!("share-copy-link")}</button>
            <button type="button" on:click=export>{t!("share-export")}</button>
            <label class="share-import">
                {t!("share-import")}
                <input type="file" accept=".json,application/json" on:change=import />
            </label>
            {move || link.get().map(|url| view! {
                <label class="share-link">
                    {t!("share-link")}
                    <input type="text" readonly prop:value=url on:focus=move |ev| select(&ev) />
                </label>
                <span role="status">{move || copied.get()}</span>
            })}
            {move || too_long.get().map(|t| view! { <p class="share-notice" role="status">{t}</p> })}
            <ClassLink payload=Callback::new(move |()| scene.state.with_untracked(to_link)) />
        </div>
        {unsaved}
        {notice}
    }
}

/// Offers the saved work kept aside under `key.unreadable` as a file, as it was stored.
fn download_unreadable(key: &str) {
    let kept = format!("{key}.unreadable");
    let text =
        web_sys::window().and_then(|w| w.local_storage().ok().flatten()).and_then(|s| s.get_item(&kept).ok().flatten());
    if let Some(blob) = text.and_then(|t| utf8_blob(&t, "application/json")) {
        download(&format!("{}.json", kept.replace('.', "-")), &blob);
    }
}

/// Past this many characters a link is likely to be cut by the apps that carry it.
const LONG_LINK: usize = 32 * 1024;

/// `text` as a Blob of type `kind`, from its UTF-8 bytes as they are: a JS string of it
/// (megabytes at real scale) would be decoded from them only to be encoded back.
pub(crate) fn utf8_blob(text: &str, kind: &str) -> Option<web_sys::Blob> {
    bytes_blob(&js_sys::Uint8Array::from(text.as_bytes()), kind)
}

/// `bytes` (a `Uint8Array`) as a Blob of type `kind`.
pub(crate) fn bytes_blob(bytes: &wasm_bindgen::JsValue, kind: &str) -> Option<web_sys::Blob> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(kind);
    web_sys::Blob::new_with_u8_array_sequence_and_options(&js_sys::Array::of1(bytes), &options).ok()
}

/// Offers `blob` as a file named `name`.
pub(crate) fn download(name: &str, blob: &web_sys::Blob) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let url = web_sys::Url::create_object_url_with_blob(blob).ok()?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).ok()
}

fn select(ev: &leptos::ev::FocusEvent) {
    if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
        input.select();
    }
}
