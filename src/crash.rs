//! What a learner sees if rowflow panics: instead of a page that silently stops answering, a
//! message in plain words, a button that reloads their saved work (every change was saved as
//! it was made), one that downloads everything saved, and the panic text for a bug report.
//!
//! After a panic the WebAssembly can't be trusted to run again, so the page is built here with
//! plain DOM calls and its buttons are served by `boot.js`, which needs no WebAssembly.
//!
//! A save that panics as it opens would panic again on every reload: when the panic came while
//! a scene's saved work was being opened, or this tab already stopped on the scene before, the
//! page also offers to start the scene fresh, its save set aside under `.unreadable`.

use std::cell::Cell;
use std::panic::PanicHookInfo;

thread_local! {
    /// The key of the save a scene is opening, until its first frame is on screen.
    static OPENING: Cell<Option<&'static str>> = const { Cell::new(None) };
    /// Whether rowflow panicked: what it holds may be half-changed, so nothing more is saved.
    static STOPPED: Cell<bool> = const { Cell::new(false) };
}

/// Whether the page has stopped because of a bug.
pub fn stopped() -> bool {
    STOPPED.get()
}

/// The session's mark of the scene route this tab last stopped on.
const CRASHED: &str = "rowflow.crashed";

/// Marks `key`'s save as being opened until the scene's first frame has been painted.
pub fn opening(key: &'static str) {
    OPENING.set(Some(key));
    leptos::prelude::request_animation_frame(|| {
        leptos::prelude::set_timeout(|| OPENING.set(None), std::time::Duration::ZERO);
    });
}

/// The save to offer to set aside after a panic on `route`: the one being opened, or the
/// scene's, when this tab already stopped on it — or at once, when the tab cannot mark the stop
/// for its next load (no session storage), so a save that stops rowflow always has a way out.
fn to_set_aside(route: &str) -> Option<String> {
    let session = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    let before = session.as_ref().and_then(|s| s.get_item(CRASHED).ok().flatten());
    let marked = session.is_some_and(|s| s.set_item(CRASHED, route).is_ok());
    let again = || {
        let (_, href) = crate::Route::SCENES.iter().find(|(_, href)| *href == route)?;
        (!marked || before.as_deref() == Some(route)).then(|| crate::storage::key(&href[2..].replace('-', "_")))
    };
    OPENING.get().map(String::from).or_else(again)
}

/// The session's mark of a scene started fresh from the crash page (boot.js), by its key.
const FRESH: &str = "rowflow.fresh";

/// Whether the scene of `key` was started fresh from the crash page, said once.
pub fn started_fresh(key: &str) -> bool {
    let Some(session) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) else { return false };
    let fresh = session.get_item(FRESH).ok().flatten().is_some_and(|k| k == key);
    if fresh {
        let _ = session.remove_item(FRESH);
    }
    fresh
}

/// The id of the element the app is mounted in (index.html): the crash page takes its place.
pub const ROOT: &str = "app";

/// Logs every panic to the console and replaces the page with the crash message.
pub fn install() {
    std::panic::set_hook(Box::new(|info: &PanicHookInfo| {
        STOPPED.set(true);
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

/// Replaces the page's content with the crash message and `report`.
pub fn show(report: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    // A new `tag` with `text`, added at the end of `parent`.
    let add = |parent: &web_sys::Element, tag: &str, text: &str| -> Option<web_sys::Element> {
        let el = document.create_element(tag).ok()?;
        el.set_text_content((!text.is_empty()).then_some(text));
        parent.append_child(&el).ok()?;
        Some(el)
    };
    let page = document.create_element("main").ok()?;
    page.set_id("main");
    page.set_class_name("crash");
    page.set_attribute("role", "alert").ok()?;
    add(&page, "h1", &t!("crash-title"))?;
    add(&page, "p", &t!("crash-lede"))?;
    let hash = web_sys::window()?.location().hash().unwrap_or_default();
    let route = hash.split('?').next().unwrap_or_default();
    let fresh = to_set_aside(route);
    if fresh.is_some() {
        add(&page, "p", &t!("crash-fresh-lede"))?;
    }
    let actions = add(&page, "p", "")?;
    actions.set_class_name("crash-actions");
    let fresh = fresh.map(|key| ("fresh", t!("crash-fresh"), key));
    let buttons = [("reload", t!("crash-reload"), String::new()), ("download", t!("crash-download"), String::new())];
    for (action, text, key) in buttons.into_iter().chain(fresh) {
        let button = add(&actions, "button", &text)?;
        button.set_attribute("type", "button").ok()?;
        button.set_attribute("data-crash-action", action).ok()?;
        if !key.is_empty() {
            button.set_attribute("data-key", &key).ok()?;
        }
    }
    add(&actions, "span", "")?.set_attribute("role", "status").ok()?;
    let details = add(&page, "details", "")?;
    add(&details, "summary", &t!("crash-report"))?;
    add(&details, "pre", &format!("{report}\npage: {route}"))?.set_class_name("crash-report");
    let root = document.get_element_by_id(ROOT)?;
    root.set_text_content(None);
    root.append_child(&page).ok()?;
    Some(())
}
