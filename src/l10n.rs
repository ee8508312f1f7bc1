//! What rowflow says, in the learner's language: each text is a message of `l10n/<lang>/*.ftl`
//! (Project Fluent), formatted by Project Fluent's `@fluent/bundle` in boot.js, which chose the
//! language and loaded its messages before the app started. The app names a message and gives
//! its arguments; plurals and word order are the language's own. Numbers a learner compares with
//! PyTorch's output are given as the text PyTorch prints, never as a number the language formats.
//!
//! A language is chosen by a reload (the masthead's picker), so a text is formatted when it is
//! drawn and never changes under a view.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// boot.js's formatter: `args` as `[name, value, name, value, …]`.
    #[wasm_bindgen(js_namespace = globalThis, js_name = rowflowT)]
    fn format_js(id: &str, args: &js_sys::Array) -> String;
}

/// One argument of a message: a count the language agrees with (`{ $steps -> [one] … }`), or
/// text, a PyTorch number among it.
pub enum Arg {
    Count(f64),
    Text(String),
}

macro_rules! counts {
    ($($t:ty),*) => {$(impl From<$t> for Arg {
        fn from(n: $t) -> Self { Arg::Count(n as f64) }
    })*};
}
counts!(usize, u32, u64, i32, i64, f64);

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Text(s.to_owned())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Text(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Self {
        Arg::Text(s.clone())
    }
}

/// Message `id` (or `id.attribute`) with `args`, in the learner's language.
pub fn format(id: &str, args: &[(&str, Arg)]) -> String {
    let flat = js_sys::Array::new();
    for (name, value) in args {
        flat.push(&JsValue::from_str(name));
        flat.push(&match value {
            Arg::Count(n) => JsValue::from_f64(*n),
            Arg::Text(s) => JsValue::from_str(s),
        });
    }
    format_js(id, &flat)
}

/// `t!("timeline-speed")`, `t!("timeline-ready", steps = n)`: a message in the learner's language
/// (`l10n/en/*.ftl` and its translations; tools/l10n_check.mjs finds each id written here).
macro_rules! t {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::l10n::format($id, &[$((stringify!($name), $crate::l10n::Arg::from($value))),*])
    };
}
