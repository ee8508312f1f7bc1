//! The RNN scene's settings: the module's sizes and options, the input's shape, packing.

use super::notes;
use crate::field::Field;
use crate::grid::{Grid, GridData};
use crate::seed_field::SeedField;
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::format::full;
use rowflow_core::ops::rnn::Nonlinearity;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::rnn::{Source, State};

#[component]
pub fn Settings() -> impl IntoView {
    let model = use_model::<State>();
    let state = model.state;
    // A refused option or size shows below the settings.
    let problem = RwSignal::new(None::<String>);
    // Memos, so a view that depends on a setting is rebuilt only when that setting changes (never
    // under the cell being edited).
    let value = move |field: &'static str| -> Signal<String> {
        Memo::new(move |_| state.with(|s| s.size(field).to_string())).into()
    };
    let config = move |f: fn(&State) -> bool| -> Signal<bool> { Memo::new(move |_| state.with(f)).into() };
    let field = move |label: &'static str, field: &'static str| {
        view! { <Field label=label value=value(field) on_commit=model.on_field(field) /> }
    };
    let flag = move |flag: &'static str| {
        move |ev: leptos::ev::Event| problem.set(model.apply(Edit::flag(flag, event_target_checked(&ev))).err())
    };
    let checkbox = move |label: &'static str, on: Signal<bool>, name: &'static str| {
        view! {
            <label class="flag">
                <input type="checkbox" prop:checked=move || on.get() on:change=flag(name) />
                " "
                <code>{label}</code>
            </label>
        }
    };
    let reseed = Callback::new(move |seed: String| model.apply(Edit::Reinit { seed }));
    let embedding = config(|s| matches!(s.model.source, Source::Embedding { .. }));
    let packed = config(|s| s.model.packed);
    let relu = config(|s| s.model.config.nonlinearity == Nonlinearity::Relu);
    let lengths = Memo::new(move |_| state.with(|s| GridData::ids(&s.model.lengths)));
    let padding_value: Signal<String> = Memo::new(move |_| state.with(|s| full(s.model.padding_value))).into();
    let nonlinearity = move |ev: leptos::ev::Event| {
        problem.set(model.apply(Edit::field("nonlinearity", &event_target_value(&ev))).err());
    };

    view! {
        <details class="rnn-settings scene-settings" open>
            <summary>{t!("rnn-settings")}</summary>
            <div class="rnn-controls">
                <fieldset>
                    <legend>"nn.RNN"</legend>
                    {field("input_size", "input_size")}
                    {field("hidden_size", "hidden_size")}
                    {field("num_layers", "num_layers")}
                    <label class="field">
                        <code>"nonlinearity"</code>
                        " "
                        <select aria-label="nonlinearity" on:change=nonlinearity>
                            <option value="tanh" selected=move || !relu.get()>"'tanh'"</option>
                            <option value="relu" selected=move || relu.get()>"'relu'"</option>
                        </select>
                    </label>
                    {checkbox("bias", config(|s| s.model.config.bias), "bias")}
                    {checkbox("batch_first", config(|s| s.model.config.batch_first), "batch_first")}
                    {checkbox("bidirectional", config(|s| s.model.config.bidirectional), "bidirectional")}
                    <SeedField on_seed=reseed seed=Signal::derive(move || state.with(|s| s.seed.clone())) />
                    <p class="rnn-note">
                        {move || state.with(|s| t!("rnn-seed-note", seed = &s.seed))}
                    </p>
                </fieldset>
                <fieldset>
                    <legend>{t!("rnn-input-legend")}</legend>
                    {field("batch", "batch")}
                    {field("seq_len", "seq_len")}
                    {move || match embedding.get() {
                        false => field("features", "features").into_any(),
                        true => view! { {field("num_embeddings", "num_embeddings")} {field("embedding_dim", "features")} }.into_any(),
                    }}
                    {checkbox("h0", config(|s| s.model.h0.is_some()), "h0")}
                </fieldset>
                <fieldset class="rnn-packing">
                    <legend>{t!("rnn-packing-legend")}</legend>
                    {checkbox("pack_padded_sequence", packed, "packed")}
                    {move || packed.get().then(|| view! {
                        {checkbox("enforce_sorted", config(|s| s.model.enforce_sorted), "enforce_sorted")}
                        <Field label="padding_value" value=padding_value on_commit=model.on_field("padding_value") />
                        <Grid name="lengths" data=lengths on_edit=model.on_cell("lengths") on_paste=model.on_paste("lengths")
                            issues=Signal::derive(move || model.view.with(|c| c.cell_issues("lengths"))) />
                        {notes(model, "lengths")}
                    })}
                </fieldset>
            </div>
        </details>
        {move || problem.get().map(|m| view! { <p class="issue" role="alert">{m}</p> })}
    }
}
