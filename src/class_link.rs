//! A link for a class: the scene as it is (or the lesson step on show), with the panels the
//! teacher picks hidden and, if asked, opened in projection mode. It opens like any link: only
//! when it reads whole, and with the learner's own work set aside first.

use crate::address;
use crate::shell::PANELS;
use leptos::prelude::*;
use rowflow_core::scene::share::MAX_LINK;

#[component]
pub fn ClassLink(
    /// The share link's `s=` payload of the scene as it is.
    payload: Callback<(), String>,
) -> impl IntoView {
    let hidden = RwSignal::new(Vec::<&'static str>::new());
    let present = RwSignal::new(true);
    let link = RwSignal::new(None::<Result<String, String>>);
    let make = move |_| {
        let Some(window) = web_sys::window() else { return };
        let (base, route) = address::base_and_route();
        // A lesson step is named; anything else travels as the scene itself.
        let mut params: Vec<String> = match (address::param("lesson"), address::param("step")) {
            (Some(lesson), Some(step)) => vec![format!("lesson={lesson}"), format!("step={step}")],
            _ => vec![format!("s={}", payload.run(()))],
        };
        if params[0].len() > MAX_LINK {
            link.set(Some(Err(t!("class-too-large"))));
            return;
        }
        let hide = hidden.get_untracked();
        if !hide.is_empty() {
            params.push(format!("hide={}", hide.join(",")));
        }
        if present.get_untracked() {
            params.push("present".into());
        }
        // The class's language, when it is not index.html's own: each learner's page opens in it.
        let lang = window.document().and_then(|d| d.document_element()).and_then(|e| e.get_attribute("lang"));
        if let Some(lang) = lang.filter(|l| l != "en") {
            params.push(format!("lang={lang}"));
        }
        let url = format!("{base}{route}?{}", params.join("&"));
        // Shown to copy by hand as well, where the browser keeps the clipboard to itself.
        let promise = window.navigator().clipboard().write_text(&url);
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
        link.set(Some(Ok(url)));
    };
    let boxes = PANELS
        .iter()
        .map(|&(id, label)| {
            let on = move || hidden.with(|h| h.contains(&id));
            view! {
                <label>
                    <input
                        type="checkbox"
                        prop:checked=on
                        on:change=move |_| hidden.update(|h| if h.contains(&id) { h.retain(|p| *p != id) } else { h.push(id) })
                    />
                    {format!(" {}", label())}
                </label>
            }
        })
        .collect_view();
    view! {
        <details class="class-link">
            <summary>{t!("class-title")}</summary>
            <fieldset>
                <legend>{t!("class-hide")}</legend>
                {boxes}
            </fieldset>
            <label>
                <input type="checkbox" prop:checked=move || present.get() on:change=move |_| present.update(|p| *p = !*p) />
                " "
                {t!("class-present")}
            </label>
            <button type="button" on:click=make>{t!("class-copy")}</button>
            {move || link.get().map(|l| match l {
                Ok(url) => view! {
                    <label class="share-link">
                        {t!("class-link")}
                        <input type="text" readonly prop:value=url />
                    </label>
                }
                .into_any(),
                Err(why) => view! { <p class="share-notice" role="status">{why}</p> }.into_any(),
            })}
        </details>
    }
}
