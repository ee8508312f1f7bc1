//! The Embedding scene's own controls: the table's sizes and flags, its seeded re-init, and the
//! ids' shape.

use crate::field::Field;
use crate::seed_field::SeedField;
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::embedding::State;

#[component]
pub fn Settings() -> impl IntoView {
    let model = use_model::<State>();
    let (state, computed) = (model.state, model.view);
    let shown = move |get: fn(&State) -> String| Signal::derive(move || state.with(get));
    let field = move |name: &'static str, get: fn(&State) -> String| {
        view! { <Field label=name value=shown(get) on_commit=model.on_field(name) /> }
    };
    let size = move |label: &'static str, dim: usize| {
        let value = Signal::derive(move || state.with(|s| s.input.shape().get(dim).copied().unwrap_or(1).to_string()));
        view! { <Field label=label value=value on_commit=model.on_field(format!("input.shape[{dim}]")) /> }
    };
    let flag = move |flag: &'static str| move |ev: leptos::ev::Event| model.on_flag(flag)(event_target_checked(&ev));
    // Problems with no cell of their own (padding_idx, the table's rank) show beside the field.
    let field_issue = move |tensor: &'static str| {
        Signal::derive(move || {
            computed.with(|c| {
                let issue = c.issues.iter().find(|i| i.tensor == tensor && i.cell.is_none());
                issue.map(|i| format!("{}. {}", i.error, i.hint))
            })
        })
    };
    let reseed = Callback::new(move |seed: String| model.apply(Edit::Reinit { seed }));
    let batched = Memo::new(move |_| state.with(|s| s.input.dim() == 2));
    let pretrained = Memo::new(move |_| state.with(|s| s.from_pretrained));
    let padding = |s: &State| s.padding_idx.map_or("None".into(), |p| p.to_string());
    let ids_shape = move || match batched.get() {
        true => view! { {size("batch", 0)} {size("seq_len", 1)} }.into_any(),
        false => size("length", 0).into_any(),
    };
    view! {
        <div class="emb-controls controls">
            <fieldset>
                <legend>"Table"</legend>
                {field("num_embeddings", |s| s.num_embeddings().to_string())}
                {field("embedding_dim", |s| s.embedding_dim().to_string())}
                <Field
                    label="padding_idx"
                    value=shown(padding)
                    on_commit=model.on_field("padding_idx")
                    issue=field_issue("padding_idx")
                />
                <label class="flag">
                    <input
                        type="checkbox"
                        prop:checked=move || pretrained.get()
                        on:change=flag("from_pretrained")
                    />
                    " from_pretrained"
                </label>
                <label class="flag" class:off=move || !pretrained.get()>
                    <input
                        type="checkbox"
                        prop:checked=move || state.with(|s| s.freeze)
                        disabled=move || !pretrained.get()
                        on:change=flag("freeze")
                    />
                    " freeze"
                </label>
                <label class="flag">
                    <input
                        type="checkbox"
                        prop:checked=move || state.with(|s| s.sparse)
                        on:change=flag("sparse")
                    />
                    " sparse"
                </label>
                <SeedField
                    on_seed=reseed
                    seed=Signal::derive(move || state.with(|s| s.seed.clone().unwrap_or_else(|| "0".into())))
                />
                {move || field_issue("weight").get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            </fieldset>
            <fieldset>
                <legend>"Ids"</legend>
                <label class="flag">
                    <input type="checkbox" prop:checked=move || batched.get() on:change=flag("batched") />
                    " batch × sequence"
                </label>
                {ids_shape}
            </fieldset>
        </div>
    }
}
