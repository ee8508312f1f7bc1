use leptos::prelude::*;

/// The start page: what each scene answers, in one sentence each.
#[component]
pub fn Landing() -> impl IntoView {
    let scenes = [
        (
            "#/linear",
            "Linear",
            "Is the input a row or a column? See y = x Wᵀ + b cell by cell, for one vector, a batch or a 3-D input.",
        ),
        (
            "#/embedding",
            "Embedding",
            "An embedding is a lookup: watch each id pick its row of the table, with PyTorch's seeded numbers.",
        ),
        (
            "#/one-hot",
            "One-hot × Linear",
            "The same numbers as a lookup, the long way round: count the multiplications by zero and time both.",
        ),
        (
            "#/rnn",
            "RNN",
            "Unroll nn.RNN step by step: output vs h_n, layers, directions, batch_first and packed sequences.",
        ),
        (
            "#/train",
            "Train",
            "Train the fastai DotProduct recommender with SGD, and watch only the rows that were rated move.",
        ),
    ];
    let cards = scenes
        .into_iter()
        .map(|(href, title, text)| {
            view! {
                <li class="card">
                    <h2>
                        <a href=href>{title}</a>
                    </h2>
                    <p>{text}</p>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="landing">
            <h1>"What PyTorch's layers compute, row by row"</h1>
            <p class="lede">
                "Every number here is the number PyTorch prints: computed in your browser, float32 like PyTorch, with "
                <code>"torch.manual_seed"</code>
                " giving the very same initial weights. Edit any cell and watch the result follow."
            </p>
            <p class="lede">
                "Each scene plays the forward and the backward pass, takes SGD steps, ends with the PyTorch code that \
                 prints its very numbers, and travels as a link or a file."
            </p>
            <ul class="cards">{cards}</ul>
        </section>
    }
}
