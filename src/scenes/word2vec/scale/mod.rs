//! word2vec at real scale: a `<details>` whose body — the corpus, the trainer's page side and the
//! words/s table — is a part of the WebAssembly of its own (`word2vec_scale`, tools/split.mjs),
//! fetched when the panel is first opened: the scene's link downloads only its summary.

mod body;

use body::ScaleBody;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use wasm_bindgen::JsCast;

/// What the body reads from the scene, handed over as context rather than as the split point's
/// arguments, which cross between the parts as `extern "C"`.
#[derive(Clone, Copy)]
struct Inputs {
    cbow: Signal<bool>,
    word: Signal<String>,
}

#[cfg_attr(feature = "split", leptos::wasm_split::wasm_split(word2vec_scale, wasm_split_path = ::leptos::wasm_split, fallible))]
fn part() -> Result<AnyView, SplitLoaderError> {
    Ok(view! { <ScaleBody /> }.into_any())
}

#[component]
pub fn ScalePanel(cbow: Signal<bool>, word: Signal<String>) -> impl IntoView {
    provide_context(Inputs { cbow, word });
    // How many times the body has been asked for: 0 until first opened, one more per Try again.
    let asked = RwSignal::new(0u32);
    let on_toggle = move |ev: web_sys::Event| {
        let opened =
            ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()).is_some_and(|d| d.open());
        if opened && asked.get_untracked() == 0 {
            asked.set(1);
        }
    };
    let shown = move || {
        (asked.get() > 0).then(|| {
            Suspend::new(async move {
                #[cfg(feature = "split")]
                let body = part().await;
                #[cfg(not(feature = "split"))]
                let body = part();
                body.unwrap_or_else(|_| {
                    view! {
                        <p role="alert">
                            {t!("word2vec-scale-unloaded")}
                            <button type="button" on:click=move |_| asked.update(|n| *n += 1)>{t!("word2vec-try-again")}</button>
                        </p>
                    }
                    .into_any()
                })
            })
        })
    };

    view! {
        <details class="w2v-scale" on:toggle=on_toggle>
            <summary>{t!("word2vec-scale-summary")}</summary>
            {shown}
        </details>
    }
}
