use crate::explain::ExplainPage;
use crate::more::{self, Asked, Fetched, More, Unloaded};
use crate::scenes::{
    embedding::EmbeddingScene, linear::LinearScene, one_hot::OneHotScene, rnn::RnnScene, train::TrainScene,
    word2vec::Word2VecScene,
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
    Word2Vec,
    /// `#/explain`: a pasted error laid out; not a scene, but a part of its own like one.
    Explain,
    NotFound,
}

impl Route {
    pub const SCENES: [(Route, &'static str); 6] = [
        (Route::Linear, "#/linear"),
        (Route::Embedding, "#/embedding"),
        (Route::OneHot, "#/one-hot"),
        (Route::Rnn, "#/rnn"),
        (Route::Train, "#/train"),
        (Route::Word2Vec, "#/word2vec"),
    ];

    /// Every route with a part and a stylesheet of its own.
    const PARTS: [(Route, &'static str); 7] = {
        let [a, b, c, d, e, f] = Self::SCENES;
        [a, b, c, d, e, f, (Route::Explain, "#/explain")]
    };

    /// The route of `#/linear`, also with a share link's `?s=...` after it.
    pub fn from_hash(hash: &str) -> Self {
        match hash.split('?').next().unwrap_or_default().trim_end_matches('/') {
            "" | "#" => Route::Home,
            h => Self::PARTS.iter().find(|(_, href)| *href == h).map_or(Route::NotFound, |(r, _)| *r),
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
    // What the core writes itself (a notebook's captions) in the learner's language too.
    rowflow_core::say::install(crate::l10n::say);
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
        Route::NotFound => view! {
            <section class="scene">
                <h1>{t!("app-not-found-title")}</h1>
                <p>{t!("app-not-found")} <a href="#/">{t!("app-not-found-start")}</a> {t!("app-not-found-end")}</p>
            </section>
        }
        .into_any(),
        scene => loaded(scene),
    }
}

/// A scene's own part of the WebAssembly, fetched when it is first shown. A failed fetch
/// (offline, or the site updated meanwhile) says so and tries again on a click; what the learner
/// made is in this browser's storage and comes back with the scene.
fn loaded(route: Route) -> AnyView {
    let attempt = RwSignal::new(0u32);
    (move || {
        // Try again's button is gone once clicked: the keyboard's focus goes to what replaces it.
        let retried = attempt.get() > 0;
        Suspend::new(async move {
            // Asked for first, the stylesheet and the messages come while the part does; the
            // scene is drawn once they have loaded, or failed, so never without its layout or
            // its words.
            let files = own_files(route);
            let ready = async move {
                if let Some(files) = files {
                    let _ = files.await;
                }
            };
            let view = chunks::load(route, ready).await.unwrap_or_else(|Unloaded| unloaded(attempt));
            if retried {
                request_animation_frame(focus_arrived);
            }
            view
        })
    })
    .into_any()
}

/// boot.js's promise of the scene's stylesheet and messages (`rowflowScene`, which adds them
/// once), awaited in a task of its own: a scene's `Suspend` awaits only what may cross threads. A
/// page without boot.js (the wasm tests') has none to wait for.
fn own_files(route: Route) -> Option<futures::channel::oneshot::Receiver<()>> {
    use wasm_bindgen::JsCast;
    let (_, href) = Route::PARTS.iter().find(|(r, _)| *r == route)?;
    let style =
        js_sys::Reflect::get(&js_sys::global(), &"rowflowScene".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
    let promise =
        style.call1(&wasm_bindgen::JsValue::NULL, &(*href).into()).ok()?.dyn_into::<js_sys::Promise>().ok()?;
    let (done, loaded) = futures::channel::oneshot::channel();
    leptos::task::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        let _ = done.send(());
    });
    Some(loaded)
}

fn unloaded(attempt: RwSignal<u32>) -> AnyView {
    view! {
        <section class="scene unloaded">
            <h1>{t!("app-unloaded-title")}</h1>
            <p role="alert">{t!("app-unloaded")}</p>
            <button type="button" on:click=move |_| attempt.update(|n| *n += 1)>{t!("app-try-again")}</button>
        </section>
    }
    .into_any()
}

/// After Try again: the button again if the part still did not come, else the scene's title.
fn focus_arrived() {
    use wasm_bindgen::JsCast;
    let find = |selector| document().query_selector(selector).ok().flatten();
    let target = find("main .unloaded button").or_else(|| {
        let title = find("main section.scene h1")?;
        // A heading takes the focus only when asked to: -1 keeps it out of the tab order.
        title.set_attribute("tabindex", "-1").ok()?;
        Some(title)
    });
    if let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// One function per scene, the split point of its chunk (`--features split`, which the site's
/// build uses: tools/split.mjs cuts the WebAssembly there), and one per scene for its part on
/// demand (`crate::more`), which the scene's part asks for. Without the feature, as in the tests,
/// every scene is in the one module and the same functions return at once.
mod chunks {
    use super::*;
    use rowflow_core::scene::{embedding, linear, one_hot, rnn, train, word2vec};
    use std::future::Future;
    use std::pin::Pin;

    /// A part loaded, drawing its route: a scene once what it needs of its part on demand came.
    type Drawing = Pin<Box<dyn Future<Output = Result<AnyView, Unloaded>> + Send>>;

    macro_rules! chunks {
        (@drawing $draw:ident $state:ty) => { Box::pin(more::drawn::<$state>($draw)) };
        (@drawing $draw:ident) => { Box::pin(async move { Ok($draw()) }) };
        ($($route:ident => $name:ident: $view:ident $(, $more:ident: $state:ty)?;)*) => {
            $(
                #[cfg_attr(feature = "split", leptos::wasm_split::wasm_split($name, wasm_split_path = ::leptos::wasm_split, fallible))]
                fn $name() -> Result<Drawing, Unloaded> {
                    let draw: fn() -> AnyView = || view! { <$view /> }.into_any();
                    Ok(chunks!(@drawing draw $($state)?))
                }

                $(
                    #[cfg_attr(feature = "split", leptos::wasm_split::wasm_split($more, wasm_split_path = ::leptos::wasm_split, fallible))]
                    fn $more() -> Result<&'static More<$state>, Unloaded> {
                        Ok(&More::<$state>::OF)
                    }

                    impl Asked for $state {
                        fn fetch() -> Fetched<Self> {
                            #[cfg(feature = "split")]
                            return Box::pin($more());
                            #[cfg(not(feature = "split"))]
                            Box::pin(async { $more() })
                        }
                    }
                )?
            )*

            /// The route's part loaded, drawing the route once `ready`.
            pub async fn load(route: Route, ready: impl Future<Output = ()>) -> Result<AnyView, Unloaded> {
                let drawing: Drawing = match route {
                    $(Route::$route => { #[cfg(feature = "split")] { $name().await? } #[cfg(not(feature = "split"))] { $name()? } })*
                    Route::Home | Route::NotFound => return Ok(().into_any()),
                };
                ready.await;
                drawing.await
            }
        };
    }

    chunks! {
        Linear => linear: LinearScene, linear_more: linear::State;
        Embedding => embedding: EmbeddingScene, embedding_more: embedding::State;
        OneHot => one_hot: OneHotScene, one_hot_more: one_hot::State;
        Rnn => rnn: RnnScene, rnn_more: rnn::State;
        Train => train: TrainScene, train_more: train::State;
        Word2Vec => word2vec: Word2VecScene, word2vec_more: word2vec::State;
        Explain => explain: ExplainPage;
    }
}
