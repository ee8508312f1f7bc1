//! What a learner sees if rowflow panics: instead of a page that silently stops answering, a
//! message in plain words, a button that reloads their saved work (every change was saved as
//! it was made), one that downloads everything saved, and the panic text for a bug report.
//!
//! After a panic the WebAssembly can't be trusted to run again, so the page is built here with
//! plain DOM calls and its buttons are served by `boot.js`, which needs no WebAssembly.

use std::panic::PanicHookInfo;

/// The id of the element the app is mounted in (index.html): the crash page takes its place.
pub const ROOT: &str = "app";

/// Logs every panic to the console and replaces the page with the crash message.
pub fn install() {
    std::panic::set_hook(Box::new(|info: &PanicHookInfo| {
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
    add(&page, "h1", "rowflow stopped because of a bug")?;
    add(
        &page,
        "p",
        "This is rowflow's fault, not something you did. Every change you made up to the last one was saved \
         in this browser, so reloading brings your work back.",
    )?;
    let actions = add(&page, "p", "")?;
    actions.set_class_name("crash-actions");
    for (action, text) in [("reload", "Reload my saved work"), ("download", "Download my saved work")] {
        let button = add(&actions, "button", text)?;
        button.set_attribute("type", "button").ok()?;
        button.set_attribute("data-crash-action", action).ok()?;
    }
    let details = add(&page, "details", "")?;
    add(&details, "summary", "What went wrong, for a bug report")?;
    let hash = web_sys::window()?.location().hash().unwrap_or_default();
    let route = hash.split('?').next().unwrap_or_default();
    add(&details, "pre", &format!("{report}\npage: {route}"))?.set_class_name("crash-report");
    let root = document.get_element_by_id(ROOT)?;
    root.set_text_content(None);
    root.append_child(&page).ok()?;
    Some(())
}
