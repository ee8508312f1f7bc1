use leptos::prelude::*;
use rowflow_core::tensor::unravel;

/// A tensor as a labelled grid: `role="grid"` named by its PyTorch name, every cell labelled in
/// PyTorch index form (`weight[1, 2]`) so screen readers and tests find it the same way. A 1-D
/// tensor is one row; a 3-D one is a stack of 2-D grids. `marked` rows (by leading index) are
/// highlighted and say so in text, not only in colour.
#[component]
pub fn TensorGrid(
    /// PyTorch's name for the tensor (`weight`, `input`, `output`).
    name: String,
    shape: Vec<usize>,
    /// One printed value per element, row-major.
    cells: Vec<String>,
    /// Rows (first index) to highlight.
    #[prop(optional)]
    marked: Vec<usize>,
) -> impl IntoView {
    let cols = shape.last().copied().unwrap_or(1).max(1);
    let shape_text = format!(
        "({})",
        shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ") + if shape.len() == 1 { "," } else { "" }
    );
    let rows: Vec<_> = cells
        .chunks(cols)
        .enumerate()
        .map(|(r, row)| {
            let first = r * cols;
            let lead = if shape.len() > 1 { unravel(first, &shape)[0] } else { 0 };
            let is_marked = shape.len() > 1 && marked.contains(&lead);
            let cells = row
                .iter()
                .enumerate()
                .map(|(c, text)| {
                    let index = unravel(first + c, &shape);
                    let label =
                        format!("{name}[{}]", index.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", "));
                    view! { <td role="gridcell" aria-label=label>{text.clone()}</td> }
                })
                .collect_view();
            view! {
                <tr role="row" class:marked=is_marked aria-selected=is_marked.then_some("true")>
                    {cells}
                </tr>
            }
        })
        .collect();
    view! {
        <figure class="tensor">
            <figcaption>
                <code class="name">{name.clone()}</code>
                " "
                <span class="shape">{shape_text}</span>
            </figcaption>
            <table role="grid" aria-label=name.clone()>
                <tbody>{rows}</tbody>
            </table>
        </figure>
    }
}
