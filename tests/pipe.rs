//! The whole pipe in a real browser: the core, compiled to wasm, computes
//! `torch.manual_seed(123); nn.Embedding(4, 5)(torch.tensor([2, 3, 1]))` and the Embedding scene
//! shows PyTorch's numbers. Run with `cargo test --target wasm32-unknown-unknown -p rowflow` (or
//! `wasm-pack test --headless --chrome`).

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod l10n;

wasm_bindgen_test_configure!(run_in_browser);

fn cell(root: &web_sys::Element, label: &str) -> String {
    let el =
        root.query_selector(&format!("[data-cell=\"{label}\"]")).unwrap().unwrap_or_else(|| panic!("no cell {label}"));
    // A read-only cell's number is its own text, before its gradient's span.
    match el.dyn_ref::<web_sys::HtmlInputElement>() {
        Some(input) => input.value(),
        None => el.first_child().and_then(|n| n.text_content()).unwrap_or_default(),
    }
}

#[wasm_bindgen_test]
async fn seed_embedding_shows_pytorchs_numbers() {
    l10n::english();
    let window = web_sys::window().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    window.location().set_hash("#/embedding").unwrap();
    let document = window.document().unwrap();
    let root: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    let _app = leptos::mount::mount_to(root.clone(), rowflow::App);
    leptos::task::tick().await;
    let row0: Vec<String> = (0..5).map(|j| cell(&root, &format!("output[0, {j}]"))).collect();
    assert_eq!(row0, ["0.6957", "-1.8061", "-1.1589", "0.3255", "-0.6315"]);
    let w0: Vec<String> = (0..5).map(|j| cell(&root, &format!("weight[0, {j}]"))).collect();
    assert_eq!(w0, ["0.3374", "-0.1778", "-0.3035", "-0.5880", "1.5810"]);
    for (k, id) in [2, 3, 1].into_iter().enumerate() {
        for j in 0..5 {
            assert_eq!(cell(&root, &format!("output[{k}, {j}]")), cell(&root, &format!("weight[{id}, {j}]")));
        }
    }
}
