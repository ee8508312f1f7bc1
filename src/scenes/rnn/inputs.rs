//! What goes into the RNN: the input (or ids through an embedding), `h0`, and the parameters
//! grouped by layer and direction, each with its gradient under its numbers going backward.

use super::{focus_cell, grad_in, notes};
use crate::grid::{Grid, GridData};
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::ops::find;
use rowflow_core::scene::rnn::{Source, State};
use rowflow_core::Tensor;

/// Parameters start folded away once there are more than this many tensors of them.
const OPEN_PARAMS: usize = 4;

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

    // The parameters, grouped by layer and direction; folded away when there are many.
    let param_names =
        Memo::new(move |_| state.with(|s| s.model.params.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()));
    let params_view = move || {
        let names = param_names.get();
        let (per, dirs) = state.with_untracked(|s| {
            let c = &s.model.config;
            (if c.bias { 4 } else { 2 }, c.num_directions())
        });
        let groups = names.chunks(per).enumerate().map(|(k, group)| {
            let head = format!("layer {}, {}", k / dirs, ["forward", "reverse"][k % dirs]);
            let grids = group.iter().map(|name| {
                let key = name.clone();
                let data = Memo::new(move |_| state.with(|s| find(&s.model.params, &key).map(GridData::floats).unwrap_or_default()));
                view! {
                    <div class="rnn-param">
                        <Grid name=name.clone() data=data on_edit=model.on_cell(name.clone()) on_paste=model.on_paste(name.clone())
                            marks=marks changed=changed(name.clone()) grad=grad_in(model, name, focus) />
                    </div>
                }
            });
            view! {
                <div class="rnn-param-group">
                    <h3>{head}</h3>
                    <div class="tensors">{grids.collect_view()}</div>
                </div>
            }
        });
        let count = move || state.with(|s| s.model.params.iter().map(|(_, t)| t.numel()).sum::<usize>());
        view! {
            <details class="rnn-params" open=names.len() <= OPEN_PARAMS>
                <summary>
                    <h2>{format!("Parameters: {} tensors, ", names.len())} {count} " numbers"</h2>
                </summary>
                {groups.collect_view()}
            </details>
        }
    };

    view! {
        <div class="rnn-below">
            <div>
                <h2 class="rnn-h2">"What goes in"</h2>
                <div class="tensors rnn-inputs">{input_view} {h0_view}</div>
            </div>
            <div class="rnn-explain">{children()}</div>
        </div>
        {params_view}
    }
}
