//! The scene's worker (`worker/src/main.rs`) seen from the page: a fresh worker for each job, so
//! that cancelling is ending it; the timer's reports as signals the views read.

use leptos::prelude::*;
use rowflow_core::scene::one_hot::{Measured, Report, Request, Way};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker};

/// Trunk's loaders for the worker bins (`data-loader-shim` in index.html), beside index.html: the
/// timing worker (which also draws), and the writing one.
pub(super) const TIMING: &str = "worker_loader.js";
pub(super) const WRITING: &str = "writer_loader.js";

/// Where a run is: case `case` of the request at `way` (`None`: drawing its table), `done` of
/// all its work from 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub case: usize,
    pub way: Option<Way>,
    pub done: f64,
}

/// One job's worker and the handlers it calls; dropping it ends the worker.
pub(super) struct Running {
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

#[derive(Clone, Copy)]
pub struct Timer {
    /// `Some` while a run is under way.
    pub progress: RwSignal<Option<Progress>>,
    /// The cases measured so far in this run, in order.
    pub measured: RwSignal<Vec<Measured>>,
    /// Why the last run stopped short, in words.
    pub error: RwSignal<Option<String>>,
    running: StoredValue<Option<Running>, LocalStorage>,
}

impl Timer {
    /// A timer whose worker ends with the view that made it.
    pub fn new() -> Self {
        let timer = Self {
            progress: RwSignal::new(None),
            measured: RwSignal::new(Vec::new()),
            error: RwSignal::new(None),
            running: StoredValue::new_local(None),
        };
        on_cleanup(move || {
            timer.running.try_update_value(|r| *r = None);
        });
        timer
    }

    /// Ends any run under way and starts `request` in a new worker.
    pub fn start(self, request: Request) {
        self.running.update_value(|r| *r = None);
        self.measured.set(Vec::new());
        self.error.set(None);
        self.progress.set(Some(Progress { case: 0, way: None, done: 0.0 }));
        match self.spawn(request) {
            Ok(running) => self.running.set_value(Some(running)),
            Err(why) => self.stop(Some(why)),
        }
    }

    /// Ends the run under way, if any, keeping what it measured.
    pub fn cancel(self) {
        if self.progress.get_untracked().is_some() {
            self.running.update_value(|r| *r = None);
            self.stop(None);
        }
    }

    /// Also called by the worker's handlers, which may outlive the view by a message.
    fn stop(self, error: Option<String>) {
        self.progress.try_set(None);
        self.error.try_set(error);
    }

    fn spawn(self, request: Request) -> Result<Running, String> {
        let request = serde_json::to_string(&request).map_err(|e| e.to_string())?;
        let on_report = move |message: MessageEvent| match serde_json::from_str::<Report>(
            &message.data().as_string().unwrap_or_default(),
        ) {
            Ok(Report::Ready) => {}
            Ok(Report::Progress { case, way, done }) => {
                self.progress.try_set(Some(Progress { case, way, done }));
            }
            Ok(Report::Measured(m)) => {
                self.measured.try_update(|all| all.push(m));
            }
            Ok(Report::Finished) => self.stop(None),
            Ok(Report::Refused(why)) => self.stop(Some(why)),
            Err(e) => self.stop(Some(format!("the timing worker said something unexpected: {e}"))),
        };
        Running::spawn(TIMING, request.into(), js_sys::Array::new(), on_report, move |why| {
            self.stop(Some(format!("the timing worker stopped: {why}")))
        })
    }
}

impl Running {
    /// A new worker from `loader` that is sent `request` once it says `Ready`, the buffers in
    /// `moved` handed over with it; what it says after goes to `on_message`, why it stopped (its
    /// files did not load, or it failed) to `on_error`.
    pub(super) fn spawn(
        loader: &str,
        request: JsValue,
        moved: js_sys::Array,
        on_message: impl Fn(MessageEvent) + 'static,
        on_error: impl Fn(String) + 'static,
    ) -> Result<Running, String> {
        let worker = Worker::new(loader).map_err(|e| format!("the worker could not start: {e:?}"))?;
        let (sender, ready) = (worker.clone(), Rc::new(Cell::new(false)));
        let loaded = ready.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |message: MessageEvent| {
            let said_ready = !loaded.get()
                && message.data().as_string().and_then(|t| serde_json::from_str::<Report>(&t).ok())
                    == Some(Report::Ready);
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
            on_error(e.dyn_ref::<ErrorEvent>().map_or("its files could not be loaded".into(), ErrorEvent::message));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Running { worker, ready, _on_message: on_message, _on_error: on_error })
    }
}
