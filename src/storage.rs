use leptos::prelude::*;
use rowflow_core::scene::{from_json, to_json};
use serde::{de::DeserializeOwned, Serialize};

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// A scene's state, restored from localStorage under `key` and saved back on every change, so
/// a reload loses nothing. Saved data that no longer reads as a scene is copied aside to
/// `key.unreadable` before the default takes its place, never silently dropped.
pub fn use_scene<S>(key: &'static str) -> RwSignal<S>
where
    S: Default + Clone + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static,
{
    let storage = local_storage();
    let saved = storage.as_ref().and_then(|s| s.get_item(key).ok().flatten());
    let initial = match saved.map(|text| (from_json::<S>(&text), text)) {
        Some((Ok(state), _)) => state,
        Some((Err(_), text)) => {
            if let Some(s) = &storage {
                let _ = s.set_item(&format!("{key}.unreadable"), &text);
            }
            S::default()
        }
        None => S::default(),
    };
    let state = RwSignal::new(initial);
    Effect::new(move |_| {
        let json = state.with(to_json);
        if let Some(s) = local_storage() {
            let _ = s.set_item(key, &json);
        }
    });
    state
}
