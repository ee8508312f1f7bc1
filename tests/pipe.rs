//! The whole pipe in a real browser: the core, compiled to wasm, computes the seed example and
//! the page shows PyTorch's numbers. Run with `cargo test --target wasm32-unknown-unknown -p rowflow`
//! (or `wasm-pack test --headless --chrome`).

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn text_of(root: &web_sys::Element, label: &str) -> String {
    root.query_selector(&format!("[aria-label=\"{label}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element labelled {label}"))
        .text_content()
        .unwrap_or_default()
}

fn mount() -> (web_sys::HtmlElement, leptos::mount::UnmountHandle<impl Mountable>) {
    let document = web_sys::window().unwrap().document().unwrap();
    let root: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), rowflow::App);
    (root, handle)
}

#[wasm_bindgen_test]
async fn seed_embedding_shows_pytorchs_numbers() {
    let (root, _handle) = mount();
    leptos::task::tick().await;
    let row0: Vec<String> = (0..5).map(|j| text_of(&root, &format!("output[0, {j}]"))).collect();
    assert_eq!(row0, ["0.6957", "-1.8061", "-1.1589", "0.3255", "-0.6315"]);
    // The seeded table itself: manual_seed(123); nn.Embedding(4, 5).weight[0].
    let w0: Vec<String> = (0..5).map(|j| text_of(&root, &format!("weight[0, {j}]"))).collect();
    assert_eq!(w0, ["0.3374", "-0.1778", "-0.3035", "-0.5880", "1.5810"]);
    // Output row k is weight row ids[k].
    for (k, id) in [2, 3, 1].into_iter().enumerate() {
        for j in 0..5 {
            assert_eq!(text_of(&root, &format!("output[{k}, {j}]")), text_of(&root, &format!("weight[{id}, {j}]")));
        }
    }
}

#[wasm_bindgen_test]
async fn selected_rows_are_marked_in_the_table() {
    let (root, _handle) = mount();
    leptos::task::tick().await;
    let table = root.query_selector("[role=grid][aria-label=weight]").unwrap().unwrap();
    let rows = table.query_selector_all("tr").unwrap();
    let marked: Vec<bool> = (0..rows.length())
        .map(|i| rows.item(i).unwrap().unchecked_into::<web_sys::Element>().get_attribute("aria-selected").is_some())
        .collect();
    assert_eq!(marked, [false, true, true, true]);
}
