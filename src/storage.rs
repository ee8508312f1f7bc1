use leptos::prelude::*;
use rowflow_core::scene::share::{from_link, Shared};
use rowflow_core::scene::{from_json, to_json};

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// A scene's state, and how it last arrived from outside (a link or a file).
pub struct Scene<S: 'static> {
    pub state: RwSignal<S>,
    pub notice: RwSignal<Option<Notice>>,
    /// Its localStorage key, e.g. `rowflow.linear`.
    pub key: &'static str,
}

impl<S> Clone for Scene<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Scene<S> {}

/// What the share panel tells the learner about the scene on show.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// A link or a file (`from`) replaced the scene; `kept`: the learner's own work was set aside
    /// and can come back.
    Opened { from: &'static str, kept: bool },
    /// A link or file that could not be read; nothing changed.
    Refused { from: &'static str, why: String },
    /// The learner's own work is back.
    Restored,
}

/// A scene's state, restored from localStorage under `key` and saved back on every change, so
/// a reload loses nothing. Saved data that no longer reads as a scene is copied aside to
/// `key.unreadable` before the default takes its place, never silently dropped. A share link
/// (`#/scene?s=...`) replaces it only if it reads whole; the work it replaces is kept under
/// `key.previous` for "Back to my work".
pub fn use_scene<S>(key: &'static str) -> Scene<S>
where
    S: Default + Clone + PartialEq + Shared + Send + Sync + 'static,
{
    let storage = local_storage();
    let saved_text = storage.as_ref().and_then(|s| s.get_item(key).ok().flatten());
    let saved = match saved_text.as_deref().map(from_json::<S>) {
        Some(Ok(state)) => Some(state),
        Some(Err(_)) => {
            if let (Some(s), Some(text)) = (&storage, &saved_text) {
                let _ = s.set_item(&format!("{key}.unreadable"), text);
            }
            None
        }
        None => None,
    };
    let (initial, notice) = match take_link() {
        None => (saved.unwrap_or_default(), None),
        Some(payload) => match from_link::<S>(&payload) {
            Ok(linked) => {
                let kept = saved.as_ref().is_some_and(|s| *s != linked) && set_aside(key, saved_text.as_deref());
                (linked, Some(Notice::Opened { from: "link", kept }))
            }
            Err(why) => (saved.unwrap_or_default(), Some(Notice::Refused { from: "link", why })),
        },
    };
    let state = RwSignal::new(initial);
    Effect::new(move |_| {
        let json = state.with(to_json);
        if let Some(s) = local_storage() {
            let _ = s.set_item(key, &json);
        }
    });
    Scene { state, notice: RwSignal::new(notice), key }
}

impl<S> Scene<S>
where
    S: Clone + PartialEq + Shared + Send + Sync + 'static,
{
    /// Shows a scene from a file; the one it replaces is set aside first.
    pub fn adopt(&self, scene: S, from: &'static str) {
        let current = self.state.get_untracked();
        let kept = current != scene && set_aside(self.key, Some(&to_json(&current)));
        self.state.set(scene);
        self.notice.set(Some(Notice::Opened { from, kept }));
    }

    /// Brings back the work a link or file replaced.
    pub fn restore(&self) {
        let previous = format!("{}.previous", self.key);
        let storage = local_storage();
        let text = storage.as_ref().and_then(|s| s.get_item(&previous).ok().flatten());
        match text.as_deref().map(from_json::<S>) {
            Some(Ok(scene)) => {
                self.state.set(scene);
                if let Some(s) = &storage {
                    let _ = s.remove_item(&previous);
                }
                self.notice.set(Some(Notice::Restored));
            }
            _ => self.notice.set(Some(Notice::Refused { from: "saved work", why: "it is no longer there".into() })),
        }
    }
}

/// Keeps `text` under `key.previous`; whether it could.
fn set_aside(key: &str, text: Option<&str>) -> bool {
    match (local_storage(), text) {
        (Some(s), Some(text)) => s.set_item(&format!("{key}.previous"), text).is_ok(),
        _ => false,
    }
}

/// The `s=` of a share link in the address, removed from it (so a reload does not open the
/// link again over what the learner has done since).
fn take_link() -> Option<String> {
    let window = web_sys::window()?;
    let hash = window.location().hash().ok()?;
    let (route, query) = hash.split_once('?')?;
    let payload = query.split('&').find_map(|p| p.strip_prefix("s=")).map(str::to_string);
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(route));
    }
    payload
}

/// Every change goes through the core: `f` edits a copy, and a refused change leaves the state
/// as it was.
pub fn change<S: Clone + Send + Sync + 'static>(
    state: RwSignal<S>,
    f: impl FnOnce(&mut S) -> Result<(), String>,
) -> Result<(), String> {
    let mut s = state.get_untracked();
    f(&mut s)?;
    state.set(s);
    Ok(())
}

/// A grid's `on_edit` or `on_paste`: `f(state, cell, text)`, through `change`.
pub fn on_cell<S: Clone + Send + Sync + 'static>(
    state: RwSignal<S>,
    f: impl Fn(&mut S, usize, &str) -> Result<(), String> + Send + Sync + 'static,
) -> Callback<(usize, String), Result<(), String>> {
    Callback::new(move |(i, text): (usize, String)| change(state, |s| f(s, i, &text)))
}

/// The preset picker's callback: the preset replaces the scene, then `restart` puts the view
/// (playhead, focus, ...) back at its start. An unknown id changes nothing.
pub fn on_preset<S: Send + Sync + 'static>(
    state: RwSignal<S>,
    preset: fn(&str) -> Option<S>,
    restart: impl Fn() + Send + Sync + 'static,
) -> Callback<String> {
    Callback::new(move |id: String| {
        if let Some(s) = preset(&id) {
            state.set(s);
            restart();
        }
    })
}
