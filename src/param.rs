//! A grid of one of the scene's own tensors (a parameter, the input, the mse target): typed and
//! pasted into through the scene's edits, lit by the timeline, with its problems beside their
//! cells and the cells the last SGD step moved outlined.

use crate::grid::{Grid, GridData};
use crate::shell::Editing;
use leptos::prelude::*;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::Issue;

#[component]
pub fn Param(
    /// The tensor's name in the scene's edits: `weight`, `input`, `emb.weight`, `target`.
    #[prop(into)]
    name: String,
    #[prop(into)] data: Signal<GridData>,
    /// The moved cells, where the scene marks them otherwise (whole rows, say).
    #[prop(optional, into)]
    changed: Option<Signal<Vec<usize>>>,
    /// Cells the current step does not use (`data-zero`).
    #[prop(optional)]
    dim: Option<Callback<Vec<usize>, bool>>,
    /// Its `.grad` under each number, while it has one on show.
    #[prop(optional)]
    grad: Option<crate::grid::Grad>,
) -> impl IntoView {
    let Editing { apply, marks, issues, changed: moved } = expect_context::<Editing>();
    let on = |paste: bool| {
        let tensor = name.clone();
        Callback::new(move |(index, text): (usize, String)| {
            apply.run(match paste {
                false => Edit::cell(&tensor, index, &text),
                true => Edit::paste(&tensor, index, &text),
            })
        })
    };
    let (on_edit, on_paste) = (on(false), on(true));
    let tensor = name.clone();
    let pinned = Memo::new(move |_| issues.with(|all| pinned(all, &tensor)));
    let changed = changed.unwrap_or_else(|| {
        let tensor = name.clone();
        let mine = move |m: &Vec<(String, Vec<usize>)>| m.iter().find(|(n, _)| *n == tensor).map(|(_, c)| c.clone());
        Memo::new(move |_| moved.with(&mine).unwrap_or_default()).into()
    });
    view! { <Grid name=name data=data on_edit=on_edit on_paste=on_paste marks=marks issues=pinned changed=changed dim=dim grad=grad /> }
}

/// The problems pinned to cells of `tensor`, as a grid shows them: the error, then the hint.
fn pinned(issues: &[Issue], tensor: &str) -> Vec<(usize, String)> {
    let mine = issues.iter().filter(|i| i.tensor == tensor);
    mine.filter_map(|i| Some((i.cell?, format!("{}. {}", i.error, i.hint)))).collect()
}
