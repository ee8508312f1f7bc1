//! The Embedding scene's own controls: the table's sizes and flags, its seeded re-init, and the
//! ids' shape and dtype.

use crate::field::Field;
use crate::flag::Flag;
use crate::seed_field::SeedField;
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::ops::embedding::IdsDtype;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::embedding::State;

#[component]
pub fn Settings() -> impl IntoView {
    let model = use_model::<State>();
    let (state, computed) = (model.state, model.view);
    let size = move |label: &'static str, dim: usize| {
        let value = Signal::derive(move || state.with(|s| s.input.shape().get(dim).copied().unwrap_or(1).to_string()));
        view! { <Field label=label value=value on_commit=model.on_field(format!("input.shape[{dim}]")) /> }
    };
    // Problems with no cell of their own (padding_idx, the table's rank) show beside the field.
    let field_issue = move |tensor: &'static str| {
        Signal::derive(move || {
            computed.with(|c| {
                let issue = c.issues.iter().find(|i| i.tensor == tensor && i.cell.is_none());
                issue.map(|i| format!("{}. {}", i.error, i.hint))
            })
        })
    };
    let alert = move |tensor: &'static str| {
        move || field_issue(tensor).get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })
    };
    let reseed = Callback::new(move |seed: String| model.apply(Edit::Reinit { seed }));
    let batched = Memo::new(move |_| state.with(|s| s.input.dim() == 2));
    let pretrained = Memo::new(move |_| state.with(|s| s.from_pretrained));
    let padding = |s: &State| s.padding_idx.map_or("None".into(), |p| p.to_string());
    // Every dtype is one the core accepts: a float one is reported beside it.
    let on_dtype = move |ev: leptos::ev::Event| drop(model.apply(Edit::field("dtype", &event_target_value(&ev))));
    let dtypes = IdsDtype::ALL.map(|d| view! { <option>{d.name()}</option> });
    let dtype = view! {
        <label class="field">
            <code>"dtype"</code>
            " "
            <select aria-label="dtype" prop:value=move || state.with(|s| s.dtype.name()) on:change=on_dtype>
                {dtypes}
            </select>
        </label>
        {alert("input")}
    };
    let ids_shape = move || match batched.get() {
        true => view! { {size("batch", 0)} {size("seq_len", 1)} }.into_any(),
        false => size("length", 0).into_any(),
    };
    view! {
        <div class="emb-controls controls scene-settings">
            <fieldset>
                <legend>{t!("embedding-table-legend")}</legend>
                {model.field("num_embeddings", |s| s.num_embeddings().to_string())}
                {model.field("embedding_dim", |s| s.embedding_dim().to_string())}
                <Field
                    label="padding_idx"
                    value=Signal::derive(move || state.with(padding))
                    on_commit=model.on_field("padding_idx")
                    issue=field_issue("padding_idx")
                />
                <Flag checked=pretrained on_toggle=model.on_flag("from_pretrained")>" from_pretrained"</Flag>
                <Flag
                    checked=Signal::derive(move || state.with(|s| s.freeze))
                    disabled=Signal::derive(move || !pretrained.get())
                    on_toggle=model.on_flag("freeze")
                >
                    " freeze"
                </Flag>
                <Flag checked=Signal::derive(move || state.with(|s| s.sparse)) on_toggle=model.on_flag("sparse")>" sparse"</Flag>
                <SeedField
                    on_seed=reseed
                    seed=Signal::derive(move || state.with(|s| s.seed.clone().unwrap_or_else(|| "0".into())))
                />
                {alert("weight")}
            </fieldset>
            <fieldset>
                <legend>{t!("embedding-ids-legend")}</legend>
                <Flag checked=batched on_toggle=model.on_flag("batched")>" "{t!("embedding-batched")}</Flag>
                {ids_shape}
                {dtype}
            </fieldset>
        </div>
    }
}
