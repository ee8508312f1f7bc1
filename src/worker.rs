//! A Web Worker seen from the page (the workers are in `worker/`): one job's worker, sent its
//! request once it says it is ready, and ended when dropped — cancelling is ending it.

use rowflow_core::scene::WORKER_READY;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker};

/// One job's worker and the handlers it calls; dropping it ends the worker.
pub struct Running {
    worker: Worker,
    /// Set when the worker has said `Ready`: its files are loaded.
    ready: Rc<Cell<bool>>,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(Event)>,
}

impl Drop for Running {
    fn drop(&mut self) {
        // Its handlers go with it: an event already queued must find none.
        self.worker.set_onerror(None);
        if self.ready.get() {
            self.worker.set_onmessage(None);
            self.worker.terminate();
        } else {
            // Still loading: ending it now would abort the download of its files. It ends once
            // loaded instead, before it is asked anything.
            let worker = self.worker.clone();
            let end = Closure::once_into_js(move |_: JsValue| worker.terminate());
            self.worker.set_onmessage(Some(end.unchecked_ref()));
        }
    }
}

impl Running {
    /// A new worker from `loader` that is sent `request` once it says `Ready`, the buffers in
    /// `moved` handed over with it; what it says after goes to `on_message`, why it stopped (its
    /// files did not load, or it failed) to `on_error`.
    pub fn spawn(
        loader: &str,
        request: JsValue,
        moved: js_sys::Array,
        on_message: impl Fn(MessageEvent) + 'static,
        on_error: impl Fn(String) + 'static,
    ) -> Result<Running, String> {
        let worker = Worker::new(loader).map_err(|e| t!("worker-not-started", error = format!("{e:?}")))?;
        let (sender, ready) = (worker.clone(), Rc::new(Cell::new(false)));
        let loaded = ready.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
            let said_ready = !loaded.get() && message.data().as_string().as_deref() == Some(WORKER_READY);
            if said_ready {
                loaded.set(true);
                let _ = sender.post_message_with_transfer(&request, &moved);
            } else {
                on_message(message);
            }
        });
        // A script that fails to load raises a plain Event; an error inside, an ErrorEvent.
        let on_error = Closure::<dyn Fn(Event)>::new(move |e: Event| {
            e.prevent_default();
            on_error(e.dyn_ref::<ErrorEvent>().map_or_else(|| t!("worker-not-loaded"), ErrorEvent::message));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Running { worker, ready, _on_message: on_message, _on_error: on_error })
    }
}
