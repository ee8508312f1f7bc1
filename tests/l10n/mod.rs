//! English for the component tests, formatted as on the site: the page's `rowflowT` (boot.js's,
//! src/l10n.rs) over English's messages (l10n/en/*.ftl, joined by build.rs), said by the core's
//! Project Fluent formatter (`say::Fluent`, feature `fluent`, on in the tests only).

use rowflow_core::say::{Arg, Fluent, Say};
use wasm_bindgen::prelude::*;

/// Installs `rowflowT` with English's messages; a missing message is its id.
pub fn english() {
    let ftl = include_str!(concat!(env!("OUT_DIR"), "/en.ftl")).to_owned();
    let english = Fluent::new("en", &[ftl]).unwrap_or_else(|e| panic!("l10n/en: {e}"));
    let format = Closure::<dyn Fn(String, js_sys::Array) -> String>::new(move |id: String, flat: js_sys::Array| {
        let flat = flat.to_vec();
        let args = flat.chunks(2).map(|pair| {
            let value = match pair[1].as_f64() {
                Some(n) => Arg::Count(n),
                None => Arg::Text(pair[1].as_string().unwrap_or_default()),
            };
            (pair[0].as_string().unwrap_or_default().into(), value)
        });
        english.say(&Say::new(id, args.collect()))
    });
    js_sys::Reflect::set(&js_sys::global(), &"rowflowT".into(), format.as_ref()).expect("globalThis.rowflowT");
    format.forget();
}
