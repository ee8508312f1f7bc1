//! The One-hot scene's Web Worker, for work that would pause the page: it says `Ready`, then
//! takes one of two requests as JSON. A `Request` times both ways at real scale
//! (`rowflow_core::scene::one_hot::time_cases`), each `Report` posted as JSON as it goes; a
//! `Draw` draws a table, posted back as a `Float32Array` (its memory handed over, not copied).
//! The page ends it (`Worker.terminate`) to cancel.

use rowflow_core::scene::one_hot::{time_cases, Draw, Report, Request};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn post(scope: &DedicatedWorkerGlobalScope, report: &Report) {
    if let Ok(text) = serde_json::to_string(report) {
        let _ = scope.post_message(&text.into());
    }
}

fn main() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let (listener, perf) = (scope.clone(), scope.performance());
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
        let text = message.data().as_string().unwrap_or_default();
        if let Ok(draw) = serde_json::from_str::<Draw>(&text) {
            match draw.run() {
                Ok(table) => {
                    let array = js_sys::Float32Array::from(table.data());
                    let _ = listener.post_message_with_transfer(&array, &js_sys::Array::of1(&array.buffer()));
                }
                Err(why) => post(&listener, &Report::Refused(why)),
            }
            return;
        }
        match serde_json::from_str::<Request>(&text) {
            Ok(request) => {
                let now = || perf.as_ref().map_or(0.0, |p| p.now());
                time_cases(&request, &now, &mut |report| post(&listener, &report));
            }
            Err(e) => post(&listener, &Report::Refused(format!("not a timing request: {e}"))),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    // A message sent before the wasm started would have found no handler: the page waits for this.
    post(&scope, &Report::Ready);
}
