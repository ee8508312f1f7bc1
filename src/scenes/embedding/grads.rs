//! The backward side of the Embedding scene: `weight.grad` (dense, sparse or none), where
//! backward starts, and where each gradient row goes.

use super::{progress, LISTED};
use crate::grid::{Grid, GridData, HEATMAP_CELLS};
use crate::shell::use_model;
use leptos::prelude::*;
use rowflow_core::ops::loss::Loss;
use rowflow_core::scene::embedding::State;
use rowflow_core::scene::label;
use rowflow_core::Ids;

/// `weight.grad` beside the table where it is not under the table's numbers (a table too large
/// for cells: its own heat map); with `sparse=True` also PyTorch's COO list; or, for a frozen
/// table, why there is none. A focused cell of the dense grid goes to `on_focus`.
#[component]
pub fn WeightGrad(on_focus: Callback<Vec<usize>>) -> impl IntoView {
    let model = use_model::<State>();
    let (computed, marks) = (model.view, model.marks);
    let whole = model.grad("weight.grad", |c| c.grads.as_ref().and_then(|g| g.weight.clone()));
    let dense = Memo::new(move |_| whole.get().filter(|g| g.numel() > HEATMAP_CELLS));
    let sparse = Memo::new(move |_| computed.with(|c| c.grads.as_ref().and_then(|g| g.sparse.clone())));
    let no_grad = Memo::new(move |_| computed.with(|c| c.no_grad.clone()));
    let grid = move || {
        dense.get().map(|g| {
            let data = Signal::derive(move || GridData::floats(&g));
            view! { <Grid name="weight.grad" data=data marks=marks on_focus=on_focus /> }
        })
    };
    let coo = move || {
        sparse.get().map(|sp| {
            let n = sp.indices.len();
            let rows = sp.coalesced_rows().iter().map(|r| r.to_string()).collect::<Vec<_>>().join(", ");
            let indices = GridData::ids(&Ids::vector(sp.indices.clone()));
            let values = GridData::floats(&sp.values);
            view! {
                <div class="sparse-grad" role="group" aria-label="weight.grad (sparse)">
                    <p class="sparse-head">
                        <code>"weight.grad (sparse)"</code>
                        " "
                        {t!("embedding-sparse-entries", n = n, rows = rows)}
                    </p>
                    <div class="sparse-parts">
                        <Grid name="indices" data=Signal::derive(move || indices.clone()) />
                        <Grid name="values" data=Signal::derive(move || values.clone()) />
                    </div>
                </div>
            }
        })
    };
    view! {
        <div class="emb-grad">
            {move || no_grad.get().map(|why| view! {
                <p class="no-grad" role="note"><code>"weight.grad"</code>" "{t!("embedding-no-grad", why = why)}</p>
            })}
            {grid}
            {coo}
        </div>
    }
}

/// `output.grad` (dL/doutput, where backward starts) where it is not under the output's numbers,
/// and, with mse, the editable `target`.
#[component]
pub fn OutputGrad() -> impl IntoView {
    let model = use_model::<State>();
    let (state, computed, marks) = (model.state, model.view, model.marks);
    let upstream = Memo::new(move |_| computed.with(|c| c.upstream.clone()));
    let target = Memo::new(move |_| {
        state.with(|s| match &s.learning.loss {
            Loss::Mse { target } => Some(GridData::floats(target)),
            Loss::Sum => None,
        })
    });
    // Under the output's numbers, but for an output too large for cells.
    let upstream = Memo::new(move |_| upstream.get().filter(|u| u.numel() > HEATMAP_CELLS));
    view! {
        <div class="emb-grad">
            {move || upstream.get().map(|u| {
                let data = Signal::derive(move || GridData::floats(&u));
                view! { <Grid name="output.grad" data=data marks=marks /> }
            })}
            {move || computed.with(|c| c.loss_error.clone()).map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
            {move || target.with(Option::is_some).then(|| view! {
                <Grid
                    name="target"
                    data=Signal::derive(move || target.get().unwrap_or_default())
                    on_edit=model.on_cell("target")
                    on_paste=model.on_paste("target")
                />
            })}
        </div>
    }
}

/// The backward steps as a list: `weight.grad[r] += output.grad[k]`, the current one highlighted.
#[component]
pub fn GradFlow() -> impl IntoView {
    let model = use_model::<State>();
    let (computed, playhead) = (model.view, model.playhead);
    // The overview the backward timeline starts with, said in full: a paragraph has room.
    let summary = move || computed.with(|c| c.describe_backward(0, c.padding_row).first().map(crate::l10n::say));
    let items = move || {
        computed.with(|c| {
            let k = playhead.get();
            let shown = c.back_picks.iter().take(LISTED).enumerate().map(|(i, (p, again))| {
                let note = if *again { format!("  {}", t!("embedding-adds-again")) } else { String::new() };
                let text = format!("weight.grad[{}] += {}{note}", p.row, label("output.grad", &p.at));
                view! { <li class=progress(i, k)>{text}</li> }
            });
            let more = c.back_picks.len().saturating_sub(LISTED);
            let more = (more > 0).then(|| view! { <li class="more">{t!("embedding-more", more = more)}</li> });
            view! { {shown.collect_view()} {more} }
        })
    };
    view! {
        <div class="emb-gradflow">
            <h2>{t!("embedding-gradient-heading")}</h2>
            <p class="grad-note">{summary}</p>
            <ol class="picks" aria-label=t!("embedding-gradient-adds")>{items}</ol>
        </div>
    }
}
