//! rowflow's Web Workers, for work that would pause the page. Each says `WORKER_READY` (a
//! message sent before its wasm started would have found no handler: the page waits for it),
//! then takes requests as JSON text (with a table beside it). The page ends one
//! (`Worker.terminate`) to cancel.
//!
//! - `worker` (`src/main.rs`): One-hot's timing and its tables drawn at real scale, fetched once
//!   the timing panel is near;
//! - `writer` (`src/writer.rs`): One-hot's Copy code script and notebook when the PyTorch panel
//!   left numbers out, fetched only then (it holds the codegen, three times the timing worker's size);
//! - `trainer` (`src/trainer.rs`): word2vec at real scale, fetched when that part is opened.

use rowflow_core::scene::WORKER_READY;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Posts `report` as JSON.
pub fn post(scope: &DedicatedWorkerGlobalScope, report: &impl Serialize) {
    if let Ok(text) = serde_json::to_string(report) {
        let _ = scope.post_message(&text.into());
    }
}

/// Posts `bytes` with their memory handed over, not copied.
pub fn post_moved(scope: &DedicatedWorkerGlobalScope, bytes: &JsValue, buffer: &JsValue) {
    let _ = scope.post_message_with_transfer(bytes, &js_sys::Array::of1(buffer));
}

/// Hands every request to `serve`, for as long as the worker lives, then says it is ready.
pub fn serve(serve: impl Fn(&DedicatedWorkerGlobalScope, JsValue) + 'static) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let listener = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
        serve(&listener, message.data());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&WORKER_READY.into());
}
