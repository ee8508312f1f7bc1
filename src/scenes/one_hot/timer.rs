//! The scene's timing worker (`worker/src/main.rs`) seen from the page: a fresh worker for each
//! job (`crate::worker`), so that cancelling is ending it; the timer's reports as signals the views
//! read.

use crate::worker::Running;
use leptos::prelude::*;
use rowflow_core::scene::one_hot::{Measured, Report, Request, Way};
use web_sys::MessageEvent;

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
            Ok(Report::Progress { case, way, done }) => {
                self.progress.try_set(Some(Progress { case, way, done }));
            }
            Ok(Report::Measured(m)) => {
                self.measured.try_update(|all| all.push(m));
            }
            Ok(Report::Finished) => self.stop(None),
            Ok(Report::Refused(why)) => self.stop(Some(why)),
            Err(e) => self.stop(Some(t!("one-hot-timer-unexpected", error = e.to_string()))),
        };
        Running::spawn(TIMING, request.into(), js_sys::Array::new(), on_report, move |why| {
            self.stop(Some(t!("one-hot-timer-stopped", error = why)))
        })
    }
}
