//! A scene's state kept in the browser: restored on load, saved after every change, replaced by
//! a share link or a file only when it reads whole, and never lost. A save that fails says so
//! until one succeeds; work a link or file replaces is set aside first, and if it can't be,
//! the link or file is not opened. Tabs of one scene stay in step: a tab with no change of its
//! own waiting shows what another tab saved, and one whose change would write over another
//! tab's newer save sets its own aside instead and says so.

use crate::more::{self, Asked};
use js_sys::JsString;
use leptos::prelude::*;
use rowflow_core::format::fixed;
use rowflow_core::scene::share::{link_text, to_save, Shared};
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn local_storage() -> Result<web_sys::Storage, String> {
    let window = web_sys::window().ok_or_else(|| t!("save-no-window"))?;
    match window.local_storage() {
        Ok(Some(s)) => Ok(s),
        _ => Err(t!("save-not-allowed")),
    }
}

/// Writes `text` under `key` whole (a failed write leaves what was there), or says why not.
/// The text stays in JS: work set aside is copied there, never brought into the wasm.
fn store(key: &str, text: &JsString) -> Result<(), String> {
    local_storage()?.unchecked_ref::<TextStorage>().set_text(key, text).map_err(|e| {
        let name = e.dyn_ref::<web_sys::DomException>().map(|d| d.name()).unwrap_or_default();
        let len = text.length() as usize;
        match name.as_str() {
            // A browser keeps a few MB a site: a scene at real scale can need more on its own.
            "QuotaExceededError" if len > 1 << 20 => t!("save-full-needs", size = size(len)),
            "QuotaExceededError" => t!("save-full"),
            _ => t!("save-refused"),
        }
    })
}

#[wasm_bindgen]
extern "C" {
    /// A `Storage` whose text stays in JS (web-sys's `get_item` copies it into the wasm).
    type TextStorage;
    #[wasm_bindgen(method, js_name = getItem)]
    fn text(this: &TextStorage, key: &str) -> Option<JsString>;
    #[wasm_bindgen(method, catch, js_name = setItem)]
    fn set_text(this: &TextStorage, key: &str, text: &JsString) -> Result<(), JsValue>;
}

/// `812 KB`, `2.3 MB`: a size as a learner reads it.
pub fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1 << 20 => format!("{} KB", b.div_ceil(1024)),
        b => format!("{} MB", fixed(b as f64 / (1 << 20) as f64, 1)),
    }
}

/// Whether scene `name` has a save in this browser.
pub fn saved(name: &str) -> bool {
    stored(&key(name)).is_some()
}

fn load(key: &str) -> Option<String> {
    local_storage().ok()?.get_item(key).ok().flatten()
}

/// The text under `key`, left in JS.
fn stored(key: &str) -> Option<JsString> {
    local_storage().ok()?.unchecked_ref::<TextStorage>().text(key)
}

/// The localStorage key of scene `name`, e.g. `rowflow.linear`.
pub fn key(name: &str) -> String {
    format!("rowflow.{name}")
}

/// What `use_scene` reads for a scene first: a link's JSON when the address has one, else its
/// save.
pub enum Incoming {
    Link(String),
    Save(String),
}

/// What `use_scene` will read for scene `name`, read here first.
pub fn incoming(name: &str) -> Option<Incoming> {
    match crate::address::param("s") {
        Some(payload) => link_text(&payload).ok().map(Incoming::Link),
        None => load(&key(name)).map(Incoming::Save),
    }
}

impl Incoming {
    pub fn text(&self) -> &str {
        match self {
            Incoming::Link(text) | Incoming::Save(text) => text,
        }
    }
}

/// A scene's state, and how it last arrived from outside (a link or a file).
pub struct Scene<S: 'static> {
    pub state: RwSignal<S>,
    pub notice: RwSignal<Option<Notice>>,
    /// Why the latest change is not saved; `None` once a save succeeds.
    pub unsaved: RwSignal<Option<String>>,
    /// While a lesson plays nothing is saved: the learner's own work stays as it was.
    pub held: RwSignal<bool>,
    /// Its localStorage key, e.g. `rowflow.linear`.
    pub key: &'static str,
    /// The latest change not yet written (its tensors shared with the state, not copied).
    pending: StoredValue<Option<S>>,
    /// Why nothing may be saved, if so: saved text that could not be read or kept aside.
    blocked: StoredValue<Option<String>>,
    /// The text under `key` as this tab last wrote or showed it: another tab's save differs.
    synced: StoredValue<Option<JsString>, LocalStorage>,
    /// Another tab's save being read to be shown here, numbered: only the latest is shown.
    incoming: StoredValue<(u32, Option<JsString>), LocalStorage>,
    /// The next change of the state is another tab's save, already stored: not written back.
    following: StoredValue<bool>,
    /// Where the scene's context is: One-hot reads a save over a table it draws first (`Before`).
    owner: StoredValue<Option<Owner>, LocalStorage>,
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
    /// A link, a file or a lesson (`from`: `link`, `file`, `lesson`) replaced the scene; `kept`:
    /// the learner's own work was set aside and can come back.
    Opened { from: &'static str, kept: bool },
    /// A link or file that could not be read; nothing changed. `from` as for `Opened`, or
    /// `export`, or `saved-work` (what "Back to my work" brings back): a key of the share
    /// panel's message, not text.
    Refused { from: &'static str, why: String },
    /// The learner's own work is back.
    Restored,
    /// The saved work could not be read back; it is kept aside under `key.unreadable`.
    Unreadable { why: String },
    /// Another tab saved over this tab's work, or this tab's change would have written over
    /// another tab's: the other tab's work is on show, this tab's kept under `key.previous`.
    Elsewhere,
}

/// The save under `key`: none, the scene it holds, or its text and why it can't be read.
pub type Save<S> = Option<Result<S, (String, String)>>;

/// Reads and decodes the save under `key`.
fn read_save<S: Asked>(key: &str) -> Save<S> {
    load(key).map(decode_save)
}

/// A save's text read as a scene, or kept with why it can't be, by the scene's part on demand
/// (loaded before a scene with a save is drawn).
pub fn decode_save<S: Asked>(text: String) -> Result<S, (String, String)> {
    decode_now::<S>(&text).map_err(|why| (text, why))
}

fn decode_now<S: Asked>(text: &str) -> Result<S, String> {
    (more::loaded::<S>().ok_or_else(more::unloaded)?.decode)(text)
}

/// A save read ahead of its scene's view, in a task of its own, for `use_scene` to take from
/// the context instead of reading it again: One-hot's at real scale, whose reading alone is
/// tens of ms (`Restored`).
pub struct ReadAhead<S: Send + Sync + 'static>(StoredValue<Option<Save<S>>>);

impl<S: Send + Sync + 'static> Clone for ReadAhead<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Send + Sync + 'static> Copy for ReadAhead<S> {}

impl<S: Send + Sync + 'static> ReadAhead<S> {
    pub fn new(save: Save<S>) -> Self {
        Self(StoredValue::new(Some(save)))
    }

    /// The save, once.
    fn take(self) -> Option<Save<S>> {
        self.0.try_update_value(Option::take).flatten()
    }
}

/// The learner's own work under `key` (read ahead, if `Restored` did), and what to say of it.
/// Saved text that can't be read is kept aside first; if even that fails, nothing may be saved
/// over it (the third part says why).
fn read_own<S: Asked>(key: &str) -> (Option<S>, Option<Notice>, Option<String>) {
    let save = use_context::<ReadAhead<S>>().and_then(ReadAhead::take).unwrap_or_else(|| read_save(key));
    match save {
        None => (None, None, None),
        Some(Ok(state)) => (Some(state), None, None),
        Some(Err((text, why))) => match store(&format!("{key}.unreadable"), &JsString::from(text)) {
            Ok(()) => (None, Some(Notice::Unreadable { why }), None),
            Err(e) => {
                let why = t!("save-not-kept-aside", error = why, reason = e);
                (None, Some(Notice::Unreadable { why: why.clone() }), Some(why))
            }
        },
    }
}

/// A scene's state, restored from localStorage under `key` and saved back on every change, so
/// a reload loses nothing. Saved data that no longer reads as a scene is copied aside to
/// `key.unreadable` and said so before the default takes its place. A share link
/// (`#/scene?s=...`) replaces it only if it reads whole; the work it replaces is kept under
/// `key.previous` for "Back to my work".
pub fn use_scene<S>(key: &'static str) -> Scene<S>
where
    S: Asked,
{
    crate::crash::opening(key);
    // A link opens only if it reads whole and the work it replaces could be set aside, as
    // saved: compared as text, not read back (One-hot's at real scale would draw its table).
    let linked = take_link().map(|payload| {
        let linked = decode_now::<S>(&link_text(&payload)?)?;
        set_aside_text(key, &linked).map(|kept| (linked, kept))
    });
    let (initial, notice, blocked) = match linked {
        Some(Ok((linked, kept))) => (linked, Some(Notice::Opened { from: "link", kept }), None),
        refused => {
            let (saved, notice, blocked) = read_own::<S>(key);
            let notice = match refused {
                Some(Err(why)) => Some(Notice::Refused { from: "link", why }),
                _ => notice,
            };
            let notice = match crate::crash::started_fresh(key) {
                true => Some(Notice::Unreadable { why: t!("save-crashed") }),
                false => notice,
            };
            (saved.unwrap_or_default(), notice, blocked)
        }
    };
    let scene = Scene {
        state: RwSignal::new(initial),
        notice: RwSignal::new(notice),
        unsaved: RwSignal::new(None),
        held: RwSignal::new(false),
        key,
        pending: StoredValue::new(None),
        blocked: StoredValue::new(blocked),
        synced: StoredValue::new_local(stored(key)),
        incoming: StoredValue::new_local((0, None)),
        following: StoredValue::new(false),
        owner: StoredValue::new_local(Owner::current()),
    };
    // A change is written in a task of its own, after it is on screen: writing a scene at real
    // scale (~20 ms for One-hot's 50,000 × 64 table) need not lengthen the change's own task.
    // Changes made meanwhile are written once, as the last of them; a page closed or a scene
    // left first writes at once.
    Effect::new(move |_| {
        if scene.held.get() {
            return;
        }
        let state = scene.state.get();
        if scene.following.try_update_value(std::mem::take) == Some(true) {
            return;
        }
        if scene.stage(state) {
            set_timeout(move || scene.save(), Duration::ZERO);
        }
    });
    let closing = window_event_listener_untyped("pagehide", move |_| scene.save());
    // Another tab's save: heard as it is made, and looked for when this tab is shown again (a
    // page the browser froze or kept in its back-forward cache heard nothing meanwhile).
    let heard = window_event_listener_untyped("storage", move |e| {
        let key = e.dyn_ref::<web_sys::StorageEvent>().map(web_sys::StorageEvent::key);
        if key.is_none_or(|k| k.is_none_or(|k| k == scene.key)) {
            scene.hear();
        }
    });
    let shown = window_event_listener_untyped("pageshow", move |_| scene.hear());
    let visible = window_event_listener_untyped("visibilitychange", move |_| scene.hear());
    on_cleanup(move || {
        scene.save();
        for listener in [closing, heard, shown, visible] {
            listener.remove();
        }
    });
    scene
}

impl<S: Asked> Scene<S> {
    /// Writes `state` at once, as a change to the scene on show would be written: the steps of
    /// a run still going when the scene is left or the page closed.
    pub fn write_now(&self, state: S) {
        if self.held.try_get_untracked() == Some(false) {
            self.stage(state);
            self.save();
        }
    }

    /// Makes `state` the change to write next, or says why nothing may be saved; whether it is
    /// the first change waiting (a write is then to be made).
    fn stage(&self, state: S) -> bool {
        match self.blocked.try_get_value().flatten() {
            Some(why) => {
                self.unsaved.try_set(Some(why));
                false
            }
            None => self.pending.try_update_value(|p| p.replace(state)).flatten().is_none(),
        }
    }

    /// Writes the change not yet written, if any. Over another tab's save that this tab has not
    /// shown, it is not written: it is kept under `key.previous` and the other tab's is shown.
    fn save(&self) {
        if crate::crash::stopped() {
            return;
        }
        let Some(Some(state)) = self.pending.try_update_value(Option::take) else { return };
        let text = JsString::from(to_save(&state));
        let (now, synced) = (stored(self.key), self.synced.try_get_value().flatten());
        match now {
            Some(now) if Some(&now) != synced.as_ref() => match keep_previous(self.key, &text) {
                Ok(_) => self.follow(now, true),
                Err(why) => {
                    self.unsaved.try_set(Some(t!("save-other-tab", error = why)));
                }
            },
            _ => match store(self.key, &text) {
                Ok(()) => {
                    self.synced.try_set_value(Some(text));
                    self.unsaved.try_set(None);
                }
                Err(why) => {
                    self.unsaved.try_set(Some(why));
                }
            },
        }
    }

    /// What another tab may have saved: followed by a tab with no change of its own waiting (or
    /// playing a lesson, which saves nothing), and written back if it was removed.
    fn hear(&self) {
        if self.held.try_get_untracked() != Some(false) || self.pending.try_with_value(Option::is_some) != Some(false) {
            return;
        }
        let (now, synced) = (stored(self.key), self.synced.try_get_value().flatten());
        match now {
            _ if now == synced => {}
            Some(now) => {
                // This tab's last save set aside there: its work is kept, and it is said so.
                let kept = synced.is_some() && stored(&format!("{}.previous", self.key)) == synced;
                self.follow(now, kept);
            }
            None => {
                self.synced.try_set_value(None);
                if let Some(state) = self.state.try_get_untracked() {
                    self.stage(state);
                    self.save();
                }
            }
        }
    }

    /// Shows `text`, another tab's save, once read (`Before`); says so when this tab's own work
    /// was `kept` aside for it. A change the learner makes meanwhile is not shown over: its save
    /// finds the other tab's. What this release cannot read (a newer one's) is not saved over.
    fn follow(&self, text: JsString, kept: bool) {
        let scene = *self;
        let before = self.owner.try_with_value(|o| o.as_ref().and_then(|o| o.with(use_context::<Before>))).flatten();
        let read = String::from(&text);
        let Some(n) = self.incoming.try_with_value(|(n, _)| n.wrapping_add(1)) else { return };
        self.incoming.try_set_value((n, Some(text)));
        Before::run(before, read, move |read| {
            more::read::<S>(
                read,
                |m| m.decode,
                move |read| match read {
                    Ok(state) => show_read(state, move |state| {
                        let latest = |(k, text): &mut (u32, Option<JsString>)| if *k == n { text.take() } else { None };
                        let Some(Some(text)) = scene.incoming.try_update_value(latest) else { return };
                        // A change of the learner's, or a lesson, came first.
                        let busy = scene.pending.try_with_value(Option::is_some) != Some(false);
                        if busy || scene.held.try_get_untracked() != Some(false) {
                            return;
                        }
                        scene.synced.try_set_value(Some(text));
                        scene.following.try_set_value(true);
                        scene.state.try_set(state);
                        if kept {
                            scene.notice.try_set(Some(Notice::Elsewhere));
                        }
                    }),
                    Err(why) => {
                        let why = t!("save-other-tab-unreadable", error = why);
                        scene.blocked.try_set_value(Some(why.clone()));
                        scene.unsaved.try_set(Some(why));
                    }
                },
            )
        });
    }

    /// Shows a scene from a file; the one it replaces is set aside first, or the file is not
    /// opened.
    pub fn adopt(&self, scene: S, from: &'static str) {
        // The scene may have gone since its file was read.
        let Some(current) = self.state.try_get_untracked() else { return };
        match set_aside(self.key, &current, &scene) {
            Ok(kept) => {
                self.state.set(scene);
                self.notice.set(Some(Notice::Opened { from, kept }));
            }
            Err(why) => self.notice.set(Some(Notice::Refused { from, why })),
        }
    }

    /// Makes the scene on show (a lesson's) the learner's own: the work saved before is set
    /// aside first, or nothing is saved over it and the learner is told why.
    pub fn keep(&self, from: &'static str) {
        self.save();
        match self.state.with_untracked(|current| set_aside_text(self.key, current)) {
            Ok(kept) => {
                // Set aside, what is stored is written over.
                self.synced.set_value(stored(self.key));
                self.notice.set(Some(Notice::Opened { from, kept }));
                self.held.set(false);
            }
            Err(why) => {
                self.notice.set(Some(Notice::Refused { from, why: why.clone() }));
                self.unsaved.set(Some(why));
            }
        }
    }

    /// Brings back the work a link, a file or another tab replaced, after the work its text
    /// needs (`before`). What is stored is set aside in its place: another tab's work that it
    /// replaces comes back there the same way.
    pub fn restore(&self, before: Option<Before>) {
        let previous = format!("{}.previous", self.key);
        let scene = *self;
        let Some(text) = load(&previous) else {
            let why = t!("save-gone");
            return self.notice.set(Some(Notice::Refused { from: "saved-work", why }));
        };
        Before::run(before, text, move |text| {
            let previous = previous.clone();
            more::read::<S>(
                text,
                |m| m.decode,
                move |read| match read {
                    Ok(state) => {
                        show_read(state, move |state| match set_aside_text(scene.key, &state) {
                            Ok(swapped) => {
                                if let (false, Ok(s)) = (swapped, local_storage()) {
                                    let _ = s.remove_item(&previous);
                                }
                                scene.synced.set_value(stored(scene.key));
                                scene.state.try_set(state);
                                scene.notice.try_set(Some(Notice::Restored));
                            }
                            Err(why) => {
                                scene.notice.try_set(Some(Notice::Refused { from: "saved-work", why }));
                            }
                        });
                    }
                    // A save that did not read when a link was opened over it is set aside as it was.
                    Err(why) => scene.notice.set(Some(Notice::Refused {
                        from: "saved-work",
                        why: t!("save-no-longer-reads", error = why, key = &previous),
                    })),
                },
            )
        });
    }
}

/// Shows `state`, just read from text, after the tasks that read it and make it ready
/// (`Shared::prepare`): at real scale each is long enough on its own.
pub fn show_read<S: Shared + 'static>(state: S, show: impl FnOnce(S) + 'static) {
    let ready = move || {
        state.prepare();
        set_timeout(move || show(state), Duration::ZERO);
    };
    set_timeout(ready, Duration::ZERO);
}

/// Work a scene does before it reads text of its own (a file, or work set aside brought back),
/// given in its context: One-hot draws a table at real scale in its worker first. It runs the
/// reading once done; without it the text is read at once.
#[derive(Clone, Copy)]
pub struct Before(pub Callback<(String, Callback<String>)>);

impl Before {
    /// Reads `text` with `read`, after the work `before` says it needs.
    pub fn run(before: Option<Before>, text: String, read: impl Fn(String) + Send + Sync + 'static) {
        match before {
            Some(Before(first)) => first.run((text, Callback::new(read))),
            None => read(text),
        }
    }
}

/// Keeps the learner's `own` work under `key.previous` before `incoming` replaces it: whether
/// there was anything to keep, or why it could not be kept (then nothing may replace it).
fn set_aside<S: Shared + PartialEq>(key: &str, own: &S, incoming: &S) -> Result<bool, String> {
    match own != incoming {
        true => keep_previous(key, &JsString::from(to_save(own))),
        false => Ok(false),
    }
}

/// `set_aside` with the learner's work as saved text, compared with `incoming` as it would be
/// saved: not read back (reading One-hot's at real scale draws its table), nor copied into the
/// wasm and out (1.3 MB at real scale: ~20 ms of the task that opens a link over it).
fn set_aside_text<S: Shared>(key: &str, incoming: &S) -> Result<bool, String> {
    // Compared in JS (`===`): a `String` would copy the learner's work into the wasm first.
    let incoming = JsString::from(to_save(incoming));
    match local_storage().ok().and_then(|s| s.unchecked_ref::<TextStorage>().text(key)) {
        Some(own) if own != incoming => keep_previous(key, &own),
        _ => Ok(false),
    }
}

/// Keeps `own`, the learner's work as saved text, under `key.previous`.
fn keep_previous(key: &str, own: &JsString) -> Result<bool, String> {
    store(&format!("{key}.previous"), own).map(|()| true).map_err(|e| t!("save-not-set-aside", error = e))
}

/// The `s=` of a share link in the address, removed from it (so a reload does not open the
/// link again over what the learner has done since); the link's other parameters stay.
fn take_link() -> Option<String> {
    let payload = crate::address::param("s")?;
    crate::address::replace(&[("s", None)]);
    Some(payload)
}
