use crate::grid::TensorGrid;
use leptos::prelude::*;
use rowflow_core::format::short;
use rowflow_core::ops::embedding::Embedding;
use rowflow_core::torch_rng::Generator;
use rowflow_core::{Ids, Tensor, TorchError};

/// The seed question in its simplest form, computed live by the core in wasm:
/// `torch.manual_seed(123); emb = nn.Embedding(4, 5); emb(torch.tensor([2, 3, 1]))`.
struct Lookup {
    weight: Tensor,
    ids: Ids,
    output: Tensor,
    /// The weight row each id selected, from the forward trace.
    selected: Vec<usize>,
}

fn lookup() -> Result<Lookup, TorchError> {
    let mut g = Generator::manual_seed(123)?;
    let emb = Embedding::new(g.embedding(4, 5, None)?, None)?;
    let ids = Ids::vector(vec![2, 3, 1]);
    let output = emb.forward(&ids)?;
    let selected = emb
        .forward_trace(&ids)?
        .steps
        .iter()
        .flat_map(|s| s.reads_from("weight").filter_map(|r| r.index.first().copied().flatten()).collect::<Vec<_>>())
        .collect();
    Ok(Lookup { weight: emb.weight, ids, output, selected })
}

fn printed(t: &Tensor) -> Vec<String> {
    t.data().iter().map(|&x| short(x)).collect()
}

#[component]
pub fn SeedEmbedding() -> impl IntoView {
    match lookup() {
        Err(e) => view! { <p class="error" role="alert">{e.to_string()}</p> }.into_any(),
        Ok(l) => {
            let ids: Vec<String> = l.ids.data().iter().map(|i| i.to_string()).collect();
            let picks = l
                .selected
                .iter()
                .enumerate()
                .map(|(k, r)| view! { <li>{format!("output[{k}] ← weight[{r}]")}</li> })
                .collect_view();
            view! {
                <section class="scene" aria-labelledby="seed-title">
                    <h2 id="seed-title">"An embedding is a lookup"</h2>
                    <pre class="code"><code>
                        "torch.manual_seed(123)\nemb = nn.Embedding(4, 5)\nemb(torch.tensor([2, 3, 1]))"
                    </code></pre>
                    <p>
                        "Each id picks one row of "<code>"weight"</code>
                        ", and that row is copied to the output. Nothing is multiplied."
                    </p>
                    <div class="tensors">
                        <TensorGrid
                            name="weight".to_string()
                            shape=l.weight.shape().to_vec()
                            cells=printed(&l.weight)
                            marked=l.selected.clone()
                        />
                        <TensorGrid name="input".to_string() shape=l.ids.shape().to_vec() cells=ids />
                        <TensorGrid name="output".to_string() shape=l.output.shape().to_vec() cells=printed(&l.output) />
                    </div>
                    <ol class="picks" aria-label="rows selected">{picks}</ol>
                </section>
            }
            .into_any()
        }
    }
}
