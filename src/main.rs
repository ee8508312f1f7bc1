use wasm_bindgen::JsCast;

fn main() {
    rowflow::crash::install();
    let document = web_sys::window().and_then(|w| w.document());
    let root = document.and_then(|d| d.get_element_by_id(rowflow::MOUNT)).and_then(|r| r.dyn_into().ok());
    match root {
        Some(root) => leptos::mount::mount_to(root, rowflow::App).forget(),
        None => leptos::mount::mount_to_body(rowflow::App),
    }
}
