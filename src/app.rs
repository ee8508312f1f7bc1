use crate::scenes::{
    embedding::EmbeddingScene, linear::LinearScene, one_hot::OneHotScene, rnn::RnnScene, train::TrainScene,
};
use leptos::ev;
use leptos::prelude::*;

/// The element of index.html the app renders into, after the static start page.
pub const MOUNT: &str = "main";

/// Hash routes, so any static host (and any sub-path) serves every scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    Linear,
    Embedding,
    OneHot,
    Rnn,
    Train,
    NotFound,
}

impl Route {
    pub const SCENES: [(Route, &'static str); 5] = [
        (Route::Linear, "#/linear"),
        (Route::Embedding, "#/embedding"),
        (Route::OneHot, "#/one-hot"),
        (Route::Rnn, "#/rnn"),
        (Route::Train, "#/train"),
    ];

    /// The route of `#/linear`, also with a share link's `?s=...` after it.
    pub fn from_hash(hash: &str) -> Self {
        match hash.split('?').next().unwrap_or_default().trim_end_matches('/') {
            "" | "#" => Route::Home,
            h => Self::SCENES.iter().find(|(_, href)| *href == h).map_or(Route::NotFound, |(r, _)| *r),
        }
    }
}

fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// The scene the hash names, rendered into `<main>`. The masthead and the start page are
/// index.html's static shell, painted before the WebAssembly arrives (boot.js keeps them in step).
#[component]
pub fn App() -> impl IntoView {
    let hash = RwSignal::new(current_hash());
    let listener = window_event_listener(ev::hashchange, move |_| hash.set(current_hash()));
    on_cleanup(move || listener.remove());
    // Keyed by the whole hash, so that every new hash (another scene, or a link's `?s=` for this
    // one) builds its scene afresh: erased views share one type, and a plain `move ||` would patch
    // the new scene over the last one's DOM (an open panel would stay open).
    view! { <For each=move || [hash.get()] key=|h| h.clone() children=|h| scene(Route::from_hash(&h)) /> }
}

fn scene(route: Route) -> AnyView {
    match route {
        Route::Home => ().into_any(),
        Route::Linear => view! { <LinearScene /> }.into_any(),
        Route::Embedding => view! { <EmbeddingScene /> }.into_any(),
        Route::OneHot => view! { <OneHotScene /> }.into_any(),
        Route::Rnn => view! { <RnnScene /> }.into_any(),
        Route::Train => view! { <TrainScene /> }.into_any(),
        Route::NotFound => view! {
            <section class="scene">
                <h1>"No such page"</h1>
                <p>"This link names no scene. Pick one above, or go to the " <a href="#/">"start"</a> "."</p>
            </section>
        }
        .into_any(),
    }
}
