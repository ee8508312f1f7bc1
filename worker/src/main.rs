//! The Web Worker that times the One-hot scene's two ways at real scale, off the page's thread
//! (`rowflow_core::scene::one_hot::time_cases`): it says `Ready`, takes a `Request` as JSON, and
//! posts each `Report` as JSON as it goes. The page ends it (`Worker.terminate`) to cancel.

use rowflow_core::scene::one_hot::{time_cases, Report, Request};
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
        match serde_json::from_str::<Request>(&message.data().as_string().unwrap_or_default()) {
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
