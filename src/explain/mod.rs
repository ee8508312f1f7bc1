//! `#/explain`: paste a PyTorch error or the line that raised it, and see it laid out
//! (`rowflow_core::explain` reads it). The paste lives in the address (`?text=`), so a reload
//! keeps it and a link shares it.

mod reading;

use crate::address;
use leptos::prelude::*;
use reading::ReadingView;
use rowflow_core::explain::explain;

/// What a learner might paste: each of the kinds rowflow reads.
const EXAMPLES: &[&str] = &[
    "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)",
    "nn.Linear(6, 10)(torch.randn(2, 5))",
    "IndexError: index out of range in self",
    "nn.Embedding(4, 5)(torch.tensor([4]))",
    "RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead",
    "RuntimeError: input.size(-1) must be equal to input_size. Expected 4, got 3",
    "RuntimeError: Expected hidden size (1, 2, 5), got [1, 3, 5]",
];

fn from_address() -> String {
    address::param("text")
        .and_then(|t| js_sys::decode_uri_component(&t).ok())
        .and_then(|t| t.as_string())
        .unwrap_or_default()
}

#[component]
pub fn ExplainPage() -> impl IntoView {
    let text = RwSignal::new(from_address());
    let reading = Memo::new(move |_| text.with(|t| (!t.trim().is_empty()).then(|| explain(t))));
    let set = move |t: String| {
        let kept = (!t.is_empty()).then(|| String::from(js_sys::encode_uri_component(&t)));
        address::replace(&[("text", kept)]);
        text.set(t);
    };
    let example = move |e: &'static str| {
        view! { <li><button type="button" class="example" on:click=move |_| set(e.to_string())><code>{e}</code></button></li> }
    };
    view! {
        <section class="scene explain">
            <h1>{t!("explain-title")}</h1>
            <p class="lede">{t!("explain-lede")}</p>
            <label for="explain-text">{t!("explain-text-label")}</label>
            <textarea
                id="explain-text"
                rows="4"
                spellcheck="false"
                prop:value=move || text.get()
                on:input=move |ev| set(event_target_value(&ev))
            ></textarea>
            <details class="examples">
                <summary>{t!("explain-examples")}</summary>
                <ul>{EXAMPLES.iter().map(|&e| example(e)).collect_view()}</ul>
            </details>
            <ReadingView reading=reading />
        </section>
    }
}
