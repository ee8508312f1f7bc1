//! What goes into the RNN: the input (or ids through an embedding) and `h0`, each with its gradient
//! under its numbers going backward.

use super::{focus_cell, grad_in, notes};
use crate::grid::{Grid, GridData};
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::scene::rnn::{Source, State};
use rowflow_core::Tensor;

/// `focus`: the cell whose formula shows, as `(tensor, index)`; `children`: what sits beside the
/// inputs (how that number is made).
#[component]
pub fn Inputs(focus: RwSignal<Option<(String, Vec<usize>)>>, children: Children) -> impl IntoView {
    let model = use_model::<State>();
    let (state, computed, marks) = (model.state, model.view, model.marks);
    let floats = move |f: fn(&State) -> Option<&Tensor>| {
        Memo::new(move |_| state.with(|s| f(s).map(GridData::floats).unwrap_or_default()))
    };
    let config = move |f: fn(&State) -> bool| Memo::new(move |_| state.with(f));
    let changed = move |name: String| Signal::derive(move || state.with(|s| s.changed(&name)));
    let embedding = config(|s| matches!(s.model.source, Source::Embedding { .. }));
    let has_h0 = config(|s| s.model.h0.is_some());

    let input_view = move || {
        match embedding.get() {
        false => view! {
            <Grid name="input" data=floats(|s| match &s.model.source { Source::Tensor(t) => Some(t), _ => None })
                on_edit=model.on_cell("input") on_paste=model.on_paste("input") marks=marks grad=grad_in(model, "input", focus) />
            {notes(model, "input")}
        }
        .into_any(),
        true => {
            let ids = Memo::new(move |_| {
                state.with(|s| match &s.model.source {
                    Source::Embedding { ids, .. } => GridData::ids(ids),
                    Source::Tensor(_) => GridData::default(),
                })
            });
            let emb_weight = floats(|s| match &s.model.source {
                Source::Embedding { weight, .. } => Some(weight),
                Source::Tensor(_) => None,
            });
            let x = Memo::new(move |_| {
                computed.with(|c| c.run.as_ref().map(|r| GridData::floats(&r.input)).unwrap_or_default())
            });
            view! {
                <div class="rnn-chain">
                    <Grid name="ids" data=ids on_edit=model.on_cell("ids") on_paste=model.on_paste("ids") marks=marks
                        issues=Signal::derive(move || computed.with(|c| c.cell_issues("ids"))) />
                    <Grid name="emb.weight" data=emb_weight on_edit=model.on_cell("emb.weight")
                        on_paste=model.on_paste("emb.weight") marks=marks changed=changed("emb.weight".into())
                        grad=grad_in(model, "emb.weight", focus) />
                    {notes(model, "emb.weight")}
                    <Grid name="input" data=x marks=marks on_focus=focus_cell(focus, "input") grad=grad_in(model, "input", focus) />
                </div>
            }
            .into_any()
        }
    }
    };
    let h0_view = move || {
        has_h0.get().then(|| {
            view! {
                <Grid name="h0" data=floats(|s| s.model.h0.as_ref()) on_edit=model.on_cell("h0") on_paste=model.on_paste("h0")
                    marks=marks grad=grad_in(model, "h0", focus) />
                {notes(model, "h0")}
            }
        })
    };

    view! {
        <div class="rnn-below">
            <div>
                <h2 class="rnn-h2">{t!("rnn-what-goes-in")}</h2>
                <div class="tensors rnn-inputs">{input_view} {h0_view}</div>
            </div>
            <div class="rnn-explain">{children()}</div>
        </div>
    }
}
