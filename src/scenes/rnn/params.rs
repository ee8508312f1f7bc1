//! The parameters, grouped by layer and direction, each with its gradient under its numbers going
//! backward; folded away when there are many. They sit beside the unrolled diagram, under what
//! comes out: the cells that use them are on the same screen as the gradients they add into.

use super::grad_in;
use crate::grid::{Grid, GridData};
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::ops::find;
use rowflow_core::scene::rnn::State;

/// Parameters start folded away once there are more than this many tensors of them.
const OPEN_PARAMS: usize = 4;

/// `focus`: the cell whose formula shows, as `(tensor, index)`.
#[component]
pub fn Params(focus: RwSignal<Option<(String, Vec<usize>)>>) -> impl IntoView {
    let model = use_model::<State>();
    let (state, marks) = (model.state, model.marks);
    let changed = move |name: String| Signal::derive(move || state.with(|s| s.changed(&name)));
    let names = Memo::new(move |_| state.with(|s| s.model.params.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>()));
    move || {
        let names = names.get();
        let (per, dirs) = state.with_untracked(|s| {
            let c = &s.model.config;
            (if c.bias { 4 } else { 2 }, c.num_directions())
        });
        let groups = names.chunks(per).enumerate().map(|(k, group)| {
            let head = t!("rnn-layer-direction", layer = k / dirs, direction = ["forward", "reverse"][k % dirs]);
            // `weight_ih` and the biases as columns beside its rows (bias[j] goes with row j, as in
            // W x + b), `weight_hh` under them.
            let grids = group.iter().map(|name| {
                let key = name.clone();
                let data = Memo::new(move |_| state.with(|s| find(&s.model.params, &key).map(GridData::floats).unwrap_or_default()));
                let bias = name.starts_with("bias");
                let class = match (bias, name.starts_with("weight_hh")) {
                    (true, _) => "rnn-param bias",
                    (_, true) => "rnn-param hh",
                    _ => "rnn-param",
                };
                view! {
                    <div class=class>
                        <Grid name=name.clone() data=data on_edit=model.on_cell(name.clone()) on_paste=model.on_paste(name.clone())
                            marks=marks changed=changed(name.clone()) grad=grad_in(model, name, focus) column=bias />
                    </div>
                }
            });
            view! {
                <div class="rnn-param-group">
                    <h3>{head}</h3>
                    <div class="tensors rnn-weights">{grids.collect_view()}</div>
                </div>
            }
        });
        let count = move || state.with(|s| s.model.params.iter().map(|(_, t)| t.numel()).sum::<usize>());
        let tensors = names.len();
        view! {
            <details class="rnn-params" open=names.len() <= OPEN_PARAMS>
                <summary>
                    <h2>{move || t!("rnn-params-heading", tensors = tensors, numbers = count())}</h2>
                </summary>
                {groups.collect_view()}
            </details>
        }
    }
}
