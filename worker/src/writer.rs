//! The writing worker: a `Write` (`rowflow_core::codegen::Write`) writes Copy code's script or the
//! notebook from the scene as saved, posted back as a `Uint8Array` of its UTF-8. The request is
//! the `Write` as JSON, or `[that, the Draw its table is saved against as JSON, the draw's
//! numbers]`: the draw handed in is not drawn again.

use js_sys::{Array, Float32Array};
use rowflow_core::codegen::Write;
use rowflow_core::say::{self, Fluent};
use rowflow_core::scene::one_hot::{with_drawn, Draw, Report, State};
use rowflow_core::tensor::Tensor;
use rowflow_worker::{post, post_moved, serve};
use wasm_bindgen::{JsCast, JsValue};

/// The request's `Write`, and the draw handed in with it, if any.
fn read(data: &JsValue) -> Result<(Write, Vec<(Draw, Tensor)>), String> {
    let part = |k: u32| match data.dyn_ref::<Array>() {
        Some(parts) => parts.get(k),
        None if k == 0 => data.clone(),
        None => JsValue::UNDEFINED,
    };
    let write = serde_json::from_str(&part(0).as_string().unwrap_or_default()).map_err(|e| e.to_string())?;
    let draw = part(1).as_string().and_then(|text| serde_json::from_str::<Draw>(&text).ok());
    let kept = draw.zip(part(2).dyn_into::<Float32Array>().ok()).and_then(|(draw, numbers)| {
        let table = Tensor::new(vec![draw.v, draw.d], numbers.to_vec()).ok()?;
        Some((draw, table))
    });
    Ok((write, kept.into_iter().collect()))
}

/// What the core says in the notebook, in the page's language (its messages sent with `write`).
fn speak(write: &Write) -> Result<(), String> {
    let (lang, messages) = &write.messages;
    if !messages.is_empty() {
        let fluent = Fluent::new(lang, messages)?;
        say::install(move |s| fluent.say(s));
    }
    Ok(())
}

fn main() {
    let written = |(write, kept): (Write, _)| speak(&write).and_then(|()| with_drawn(kept, || write.run::<State>()));
    serve(move |scope, data| match read(&data).and_then(written) {
        Ok(file) => {
            let bytes = js_sys::Uint8Array::from(file.as_bytes());
            post_moved(scope, &bytes, &bytes.buffer());
        }
        Err(why) => post(scope, &Report::Refused(why)),
    });
}
