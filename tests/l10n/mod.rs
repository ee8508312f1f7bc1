//! English for the component tests, formatted as on the site: the page's `rowflowT` (boot.js's,
//! src/l10n.rs) over English's messages (l10n/en/*.ftl, joined by build.rs) with Project Fluent's
//! Rust formatter.

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use wasm_bindgen::prelude::*;

/// Installs `rowflowT` with English's messages; a missing message panics the test.
pub fn english() {
    let ftl = include_str!(concat!(env!("OUT_DIR"), "/en.ftl")).to_owned();
    let resource = FluentResource::try_new(ftl).unwrap_or_else(|(_, errors)| panic!("l10n/en: {errors:?}"));
    let mut bundle = FluentBundle::new(vec!["en".parse().expect("en")]);
    bundle.set_use_isolating(false);
    bundle.add_resource(resource).expect("each English message once");
    let format = Closure::<dyn Fn(String, js_sys::Array) -> String>::new(move |id: String, flat: js_sys::Array| {
        let (name, attribute) = id.split_once('.').map_or((id.as_str(), None), |(m, a)| (m, Some(a)));
        let message = bundle.get_message(name).unwrap_or_else(|| panic!("no English message {id}"));
        let pattern = match attribute {
            Some(a) => message.get_attribute(a).map(|a| a.value()),
            None => message.value(),
        };
        let pattern = pattern.unwrap_or_else(|| panic!("no English message {id}"));
        let mut args = FluentArgs::new();
        for pair in flat.to_vec().chunks(2) {
            let value = match pair[1].as_f64() {
                Some(n) => FluentValue::from(n),
                None => FluentValue::from(pair[1].as_string().unwrap_or_default()),
            };
            args.set(pair[0].as_string().unwrap_or_default(), value);
        }
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&args), &mut errors).into_owned();
        assert!(errors.is_empty(), "English message {id}: {errors:?}");
        text
    });
    js_sys::Reflect::set(&js_sys::global(), &"rowflowT".into(), format.as_ref()).expect("globalThis.rowflowT");
    format.forget();
}
