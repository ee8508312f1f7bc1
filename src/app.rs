use crate::seed_embedding::SeedEmbedding;
use leptos::prelude::*;

/// The page: a header and the first scene.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <header class="masthead">
            <h1>"rowflow"</h1>
            <p class="tagline">
                "What PyTorch's layers compute, row by row, with the numbers PyTorch prints."
            </p>
        </header>
        <main id="main">
            <SeedEmbedding />
        </main>
    }
}
