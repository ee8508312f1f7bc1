//! What rowflow says, in the learner's language: each text is a message of `l10n/<lang>/*.ftl`
//! (Project Fluent), formatted by Project Fluent's `@fluent/bundle` in boot.js, which chose the
//! language and loaded its messages before the app started. The app names a message and gives
//! its arguments; plurals and word order are the language's own. Numbers a learner compares with
//! PyTorch's output are given as the text PyTorch prints, never as a number the language formats.
//!
//! A language is chosen by a reload (the masthead's picker), so a text is formatted when it is
//! drawn and never changes under a view.

use rowflow_core::say::{Arg, Say};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// boot.js's formatter: `args` as `[name, value, name, value, …]`.
    #[wasm_bindgen(js_namespace = globalThis, js_name = rowflowT)]
    fn format_js(id: &str, args: &js_sys::Array) -> String;
    /// boot.js's language and the text of the messages the page has: `[lang, ftl, ftl, …]`.
    #[wasm_bindgen(catch, js_namespace = globalThis, js_name = rowflowMessages)]
    fn messages_js() -> Result<js_sys::Array, JsValue>;
}

/// The page's language and its messages' text, for a worker to say what the page would.
pub fn messages() -> (String, Vec<String>) {
    let texts: Vec<String> =
        messages_js().map(|a| a.iter().filter_map(|t| t.as_string()).collect()).unwrap_or_default();
    match texts.split_first() {
        Some((lang, ftl)) => (lang.clone(), ftl.to_vec()),
        None => Default::default(),
    }
}

/// Message `id` (or `id.attribute`) with `args`, in the learner's language: `t!`'s, and each
/// argument that is a message of its own said first.
pub fn format<'a>(id: &str, args: impl IntoIterator<Item = (&'a str, &'a Arg)>) -> String {
    let flat = js_sys::Array::new();
    for (name, value) in args {
        flat.push(&JsValue::from_str(name));
        flat.push(&match value {
            Arg::Count(n) => JsValue::from_f64(*n),
            Arg::Text(text) => JsValue::from_str(text),
            Arg::Say(inner) => JsValue::from_str(&say(inner)),
        });
    }
    format_js(id, &flat)
}

/// What the core says ([`Say`]), in the learner's language.
pub fn say(say: &Say) -> String {
    format(&say.id, say.args.iter().map(|(name, value)| (name.as_ref(), value)))
}

/// `t!("timeline-speed")`, `t!("timeline-ready", steps = n)`: a message in the learner's language
/// (`l10n/en/*.ftl` and its translations; tools/l10n_check.mjs finds each id written here), with
/// arguments as the core's `say!` takes them.
macro_rules! t {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::l10n::format($id, [$((stringify!($name), &rowflow_core::say::Arg::from($value))),*])
    };
}
