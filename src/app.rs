use crate::flag::Flag;
use crate::landing::Landing;
use crate::scenes::{
    embedding::EmbeddingScene, linear::LinearScene, one_hot::OneHotScene, rnn::RnnScene, train::TrainScene,
};
use leptos::ev;
use leptos::prelude::*;

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
    pub const SCENES: [(Route, &'static str, &'static str); 5] = [
        (Route::Linear, "#/linear", "Linear"),
        (Route::Embedding, "#/embedding", "Embedding"),
        (Route::OneHot, "#/one-hot", "One-hot × Linear"),
        (Route::Rnn, "#/rnn", "RNN"),
        (Route::Train, "#/train", "Train"),
    ];

    /// The route of `#/linear`, also with a share link's `?s=...` after it.
    pub fn from_hash(hash: &str) -> Self {
        match hash.split('?').next().unwrap_or_default().trim_end_matches('/') {
            "" | "#" => Route::Home,
            h => Self::SCENES.iter().find(|(_, href, _)| *href == h).map_or(Route::NotFound, |(r, _, _)| *r),
        }
    }
}

fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// The page: a header with the scene links, and the scene the hash names.
#[component]
pub fn App() -> impl IntoView {
    let route = RwSignal::new(Route::from_hash(&current_hash()));
    let listener = window_event_listener(ev::hashchange, move |_| route.set(Route::from_hash(&current_hash())));
    on_cleanup(move || listener.remove());
    let projecting = RwSignal::new(false);
    Effect::new(move |_| {
        let body = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body());
        if let Some(body) = body {
            let _ = body.class_list().toggle_with_force("projection", projecting.get());
        }
    });
    let links = Route::SCENES
        .iter()
        .map(|&(r, href, text)| {
            view! {
                <a href=href aria-current=move || (route.get() == r).then_some("page")>
                    {text}
                </a>
            }
        })
        .collect_view();
    view! {
        <header class="masthead">
            <a class="brand" href="#/">"rowflow"</a>
            <nav aria-label="Scenes">{links}</nav>
            <Flag class="projection-toggle" checked=projecting on_toggle=Callback::new(move |on| projecting.set(on))>
                " Projector"
            </Flag>
        </header>
        <main id="main">
            {move || match route.get() {
                Route::Home => view! { <Landing /> }.into_any(),
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
            }}
        </main>
    }
}
