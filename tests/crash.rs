//! The crash page in a real browser: a panic in an event handler (here a test-only trigger, as no
//! input of a learner's reaches one) replaces the frozen page with a message in plain words, a
//! button that reloads the saved work, and the panic text for a bug report.

use std::time::Duration;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod l10n;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_panic_shows_the_crash_page_with_the_saved_work_at_hand() {
    l10n::english();
    let window = web_sys::window().unwrap();
    let document = window.document().unwrap();
    let root: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    root.set_id(rowflow::crash::ROOT);
    document.body().unwrap().append_child(&root).unwrap();
    let _app = leptos::mount::mount_to(root, rowflow::App);
    rowflow::crash::install();

    // The trigger: a panic inside a callback the browser calls, the way a view's handler runs.
    let trigger = Closure::once_into_js(|| -> () { panic!("test-only trigger: a bug in a view") });
    window.set_timeout_with_callback_and_timeout_and_arguments_0(trigger.unchecked_ref(), 0).unwrap();
    sleep(Duration::from_millis(200)).await;

    let page = document.query_selector("main.crash[role=alert]").unwrap().expect("the crash page is shown");
    let text = page.text_content().unwrap_or_default();
    assert!(text.contains("rowflow stopped because of a bug"), "{text}");
    assert!(text.contains("not something you did"), "{text}");
    let buttons: Vec<String> = (0..2)
        .map(|i| page.query_selector_all("button").unwrap().get(i).unwrap().text_content().unwrap_or_default())
        .collect();
    assert_eq!(buttons, ["Reload my saved work", "Download my saved work"]);
    assert!(page.query_selector("[data-crash-action=reload]").unwrap().is_some());
    let report = page.query_selector("pre.crash-report").unwrap().unwrap().text_content().unwrap_or_default();
    assert!(report.contains("test-only trigger: a bug in a view"), "{report}");
    assert!(report.contains("tests/crash.rs"), "the report says where: {report}");
    // The scene that froze is gone: nothing half-working is left to click.
    assert!(document.query_selector("[role=grid]").unwrap().is_none());
}

/// Waits `d` on the browser's timer.
async fn sleep(d: Duration) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().unwrap();
        window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, d.as_millis() as i32).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}
