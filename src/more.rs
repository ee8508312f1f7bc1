//! What a scene does only when asked: read a save, a link or a file, write its PyTorch script and
//! notebook, play a lesson. It is a part of the WebAssembly of its own per scene (a split point,
//! src/app.rs), fetched on first use, or before the scene is drawn when its link or save or lesson
//! needs it at once: a first visit leaves it out, 37–56 KB gzipped less on every scene's link
//! (README). The scene's code reaches it only through `More`'s functions.

use leptos::prelude::AnyView;
use rowflow_core::codegen::{File, Notebook, Numbers, Script};
use rowflow_core::lesson::{self, Lesson};
use rowflow_core::say::Say;
use rowflow_core::scene::share::{self, Shared};
use std::any::Any;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;

/// Reads text as a scene, or says why not.
pub type Reader<S> = fn(&str) -> Result<S, String>;

/// A part on its way, then its functions.
pub type Fetched<S> = Pin<Box<dyn Future<Output = Result<&'static More<S>, Unloaded>> + Send>>;

/// A scene's functions in its part on demand.
pub struct More<S: Notebook> {
    /// A save's text (or a link's JSON) as the scene, or why not.
    pub decode: Reader<S>,
    /// An imported file as the scene, or why not.
    pub from_file: Reader<S>,
    /// The panel's script: a large literal left out.
    pub script: fn(&S, &S::View, usize) -> Script,
    /// Copy code's script or the notebook, every number in it.
    pub file: fn(&File, &S, &S::View, usize) -> String,
    /// The lesson a link names.
    pub lesson: fn(&str) -> Option<Lesson>,
    /// The scene at a lesson's step.
    pub scene_at: fn(&Lesson, usize) -> Result<S, String>,
    /// What a lesson's step says, its numbers read from the scene.
    pub say: fn(&Lesson, usize, &S, &S::View) -> Option<Say>,
}

impl<S: Notebook + Shared> More<S> {
    /// Only the split point names it, so all it reaches is in that point's part.
    pub const OF: Self = Self {
        decode: share::decode::<S>,
        from_file: share::from_file::<S>,
        script: |s, view, steps| s.script(view, steps, Numbers::Shown),
        file: |file, s, view, steps| file.of(s, view, steps),
        lesson: lesson::find::<S>,
        scene_at: |lesson, k| lesson.scene_at::<S>(k),
        say: |lesson, k, s, view| {
            let id = format!("{}-step-{}", lesson::message(&S::NAME.replace('_', "-"), &lesson.id), k + 1);
            lesson.steps.get(k)?.said(id, s, view).ok()
        },
    };
}

/// Why a part of the WebAssembly did not load (offline, or the site updated meanwhile).
#[derive(Debug)]
pub struct Unloaded;

impl From<leptos::wasm_split::SplitLoaderError> for Unloaded {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        Unloaded
    }
}

/// A scene with a part on demand (each is given one by src/app.rs).
pub trait Asked: Notebook + Shared {
    /// Its split point: fetches the part, then hands over its functions.
    fn fetch() -> Fetched<Self>;
}

thread_local! {
    /// The parts loaded so far, one per scene type.
    static LOADED: RefCell<Vec<&'static dyn Any>> = const { RefCell::new(Vec::new()) };
}

/// The scene's part on demand, if it has loaded.
pub fn loaded<S: Asked>() -> Option<&'static More<S>> {
    LOADED.with(|l| l.borrow().iter().find_map(|m| m.downcast_ref()))
}

/// The scene's part on demand, fetched first if it has not loaded.
pub async fn load<S: Asked>() -> Result<&'static More<S>, Unloaded> {
    if let Some(m) = loaded::<S>() {
        return Ok(m);
    }
    let m = S::fetch().await?;
    if loaded::<S>().is_none() {
        LOADED.with(|l| l.borrow_mut().push(m));
    }
    Ok(m)
}

/// The scene drawn by `draw`, its part on demand loaded first when it is needed at once: a
/// link, a save or a lesson to open. Called in the scene's own part, so that what this takes per
/// scene is not in the main module.
pub async fn drawn<S: Asked>(draw: fn() -> AnyView) -> Result<AnyView, Unloaded> {
    let wanted = ["s", "lesson"].iter().any(|p| crate::address::param(p).is_some()) || crate::storage::saved(S::NAME);
    if wanted {
        load::<S>().await?;
    }
    Ok(draw())
}

/// Reads `text` as the scene with the part, `then` hears the scene or why not: at once when
/// the part is there, else once it has come (or could not).
pub fn read<S: Asked>(text: String, pick: fn(&More<S>) -> Reader<S>, then: impl FnOnce(Result<S, String>) + 'static) {
    match loaded::<S>() {
        Some(m) => then(pick(m)(&text)),
        None => leptos::task::spawn_local(async move {
            then(match load::<S>().await {
                Ok(m) => pick(m)(&text),
                Err(Unloaded) => Err(unloaded()),
            })
        }),
    }
}

/// Why a scene's text was not read, or its script not written, when its part did not come.
pub fn unloaded() -> String {
    t!("more-unloaded")
}
