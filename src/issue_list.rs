use leptos::prelude::*;
use rowflow_core::scene::Issue;

/// The problems no single cell is to blame for (a damaged save, layers that don't fit
/// together), above the tensors: PyTorch's error, the tensor it concerns, and a hint.
#[component]
pub fn IssueList(#[prop(into)] issues: Signal<Vec<Issue>>) -> impl IntoView {
    move || {
        issues.with(|all| {
            all.iter()
                .filter(|i| i.cell.is_none())
                .map(|i| {
                    view! {
                        <p class="issue" role="alert">
                            <code>{i.tensor.clone()}</code>
                            ": "
                            {i.error.to_string()}
                            <span class="hint">{i.hint.clone()}</span>
                        </p>
                    }
                })
                .collect_view()
        })
    }
}
