//! The grid in a real browser: typing into a cell flows through the core to the output, bad text
//! keeps the last value and says why beside the cell, and a trace step lights the rows it reads.

use leptos::prelude::*;
use rowflow::{Grid, GridData};
use rowflow_core::ops::embedding::Embedding;
use rowflow_core::scene::set_float;
use rowflow_core::{Ids, Tensor};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod l10n;

wasm_bindgen_test_configure!(run_in_browser);

/// An editable 4×2 table and the rows ids [2, 0] select, with the forward trace at `playhead`.
#[component]
fn Lookup(playhead: RwSignal<usize>) -> impl IntoView {
    let weight = RwSignal::new(Tensor::new(vec![4, 2], vec![0., 1., 2., 3., 4., 5., 6., 7.]).unwrap());
    let ids = Ids::vector(vec![2, 0]);
    let ids_for_output = ids.clone();
    let output =
        Memo::new(move |_| weight.with(|w| Embedding::new(w.clone(), None).unwrap().forward(&ids_for_output).unwrap()));
    let trace = Embedding::new(weight.get_untracked(), None).unwrap().forward_trace(&ids).unwrap();
    let marks = Signal::derive(move || trace.marks_at(playhead.get()));
    let edit = Callback::new(move |(i, text): (usize, String)| {
        let mut w = weight.get_untracked();
        set_float(&mut w, i, &text)?;
        weight.set(w);
        Ok(())
    });
    view! {
        <Grid name="weight" data=Signal::derive(move || GridData::floats(&weight.get())) on_edit=edit marks=marks />
        <Grid name="output" data=Signal::derive(move || GridData::floats(&output.get())) marks=marks />
    }
}

fn root() -> web_sys::HtmlElement {
    l10n::english();
    let document = web_sys::window().unwrap().document().unwrap();
    let root: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&root).unwrap();
    root
}

fn find(root: &web_sys::Element, selector: &str) -> web_sys::Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("nothing matches {selector}"))
}

/// What the cell `label` (its `data-cell`, PyTorch's index) shows.
fn text(root: &web_sys::Element, label: &str) -> String {
    find(root, &format!("[data-cell=\"{label}\"]")).text_content().unwrap_or_default()
}

fn type_into(root: &web_sys::Element, label: &str, value: &str) -> web_sys::HtmlInputElement {
    let input: web_sys::HtmlInputElement = find(root, &format!("input[data-cell=\"{label}\"]")).unchecked_into();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    input.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    input
}

#[wasm_bindgen_test]
async fn editing_a_cell_updates_the_output() {
    let root = root();
    let _app = leptos::mount::mount_to(root.clone(), || view! { <Lookup playhead=RwSignal::new(0) /> });
    leptos::task::tick().await;
    assert_eq!(text(&root, "output[0, 1]"), "5.0000");
    type_into(&root, "weight[2, 1]", "-1.25");
    leptos::task::tick().await;
    assert_eq!(text(&root, "output[0, 1]"), "-1.2500");
    assert_eq!(text(&root, "output[1, 1]"), "1.0000", "row 0 is untouched");
}

/// The accessible name of the cell `label`.
fn name(root: &web_sys::Element, label: &str) -> String {
    find(root, &format!("[data-cell=\"{label}\"]")).get_attribute("aria-label").unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_read_only_cell_is_named_with_the_number_it_shows() {
    let root = root();
    let _app = leptos::mount::mount_to(root.clone(), || view! { <Lookup playhead=RwSignal::new(0) /> });
    leptos::task::tick().await;
    assert_eq!(name(&root, "weight[2, 1]"), "weight[2, 1]", "an input's value is read apart from its name");
    assert_eq!(name(&root, "output[0, 1]"), "output[0, 1] = 5.0000");
    type_into(&root, "weight[2, 1]", "-1.25");
    leptos::task::tick().await;
    assert_eq!(name(&root, "output[0, 1]"), "output[0, 1] = -1.2500", "the name follows the value");
    // Focused, a cell shows every digit, and its name says the same.
    let cell: web_sys::HtmlElement = find(&root, "[data-cell=\"output[1, 0]\"]").unchecked_into();
    cell.focus().unwrap();
    leptos::task::tick().await;
    let shown = text(&root, "output[1, 0]");
    assert_ne!(shown, "0.0000", "the full digits, not PyTorch's 4 decimals");
    assert_eq!(name(&root, "output[1, 0]"), format!("output[1, 0] = {shown}"));
}

#[wasm_bindgen_test]
async fn bad_text_keeps_the_value_and_says_why() {
    let root = root();
    let _app = leptos::mount::mount_to(root.clone(), || view! { <Lookup playhead=RwSignal::new(0) /> });
    leptos::task::tick().await;
    let input = type_into(&root, "weight[2, 0]", "abc");
    leptos::task::tick().await;
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    let alert = find(&input.parent_element().unwrap(), "[role=alert]").text_content().unwrap();
    assert_eq!(alert, "could not convert string to float: 'abc'. Type a number such as 0.5, -2 or 1e-3");
    assert_eq!(input.value(), "abc", "the typed text stays for fixing");
    assert_eq!(text(&root, "output[0, 0]"), "4.0000", "the last valid value is still used");
    type_into(&root, "weight[2, 0]", "1.5");
    leptos::task::tick().await;
    assert_eq!(input.get_attribute("aria-invalid"), None);
    assert_eq!(text(&root, "output[0, 0]"), "1.5000");
}

#[wasm_bindgen_test]
async fn a_trace_step_lights_the_selected_row() {
    let root = root();
    let playhead = RwSignal::new(0);
    let _app = leptos::mount::mount_to(root.clone(), move || view! { <Lookup playhead=playhead /> });
    leptos::task::tick().await;
    let marked = |mark: &str| {
        let cells =
            root.query_selector_all(&format!("[role=grid][aria-label=weight] td[data-mark={mark}] input")).unwrap();
        (0..cells.length())
            .map(|i| cells.item(i).unwrap().unchecked_into::<web_sys::Element>().get_attribute("data-cell").unwrap())
            .collect::<Vec<_>>()
    };
    assert!(marked("read").is_empty());
    playhead.set(1); // ids[0] = 2 selects row 2
    leptos::task::tick().await;
    assert_eq!(marked("read"), ["weight[2, 0]", "weight[2, 1]"]);
    assert_eq!(find(&root, "td[data-cell=\"output[0, 1]\"]").get_attribute("data-mark").as_deref(), Some("write"));
    playhead.set(2); // ids[1] = 0 selects row 0; output row 0 is done
    leptos::task::tick().await;
    assert_eq!(marked("read"), ["weight[0, 0]", "weight[0, 1]"]);
    assert_eq!(find(&root, "td[data-cell=\"output[0, 1]\"]").get_attribute("data-mark").as_deref(), Some("done"));
}

#[wasm_bindgen_test]
fn cells_compare_by_value_and_a_heat_map_by_whose_numbers_it_shows() {
    let small = |x: f32| GridData::floats(&Tensor::new(vec![2, 2], vec![x, 1., 2., 3.]).unwrap());
    assert_eq!(small(0.0), small(0.0));
    assert_ne!(small(0.0), small(-0.0), "a cell prints -0. apart from 0.");
    // 50,000 numbers: the same tensor is the same picture; equal numbers apart are drawn again
    // rather than read twice, and a picture never passes for another.
    let big = Tensor::zeros(vec![500, 100]).unwrap();
    assert_eq!(GridData::floats(&big), GridData::floats(&big.clone()));
    assert_ne!(GridData::floats(&big), GridData::floats(&Tensor::zeros(vec![500, 100]).unwrap()));
    assert_ne!(GridData::floats(&big), GridData::floats(&big.clone().reshape(vec![100, 500]).unwrap()));
}
