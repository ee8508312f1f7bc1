//! Copy code and Download notebook when the panel's script leaves numbers out, written in the
//! scene's writing worker (`codegen::Write`): the page posts the scene as saved, with the draw its
//! table is saved against, and gets back the file, so the 5 MB script of a table at real scale
//! never pauses it.

use super::timer::WRITING;
use crate::code_panel::{Elsewhere, Written};
use crate::share_panel::bytes_blob;
use crate::shell::SceneModel;
use crate::worker::Running;
use leptos::prelude::*;
use rowflow_core::codegen::{File, Write};
use rowflow_core::scene::one_hot::{Report, State};
use rowflow_core::scene::to_json;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::MessageEvent;

#[derive(Clone, Copy)]
pub struct Writer {
    model: SceneModel<State>,
    /// The write under way: its worker, and how to reject the promise of its file.
    running: StoredValue<Option<(Running, js_sys::Function)>, LocalStorage>,
}

impl Writer {
    /// A writer whose worker ends with the view that made it, given to the panel as `Elsewhere`.
    pub fn provide(model: SceneModel<State>) {
        let writer = Self { model, running: StoredValue::new_local(None) };
        on_cleanup(move || writer.cancel());
        provide_context(Elsewhere(Callback::new(move |(file, steps)| writer.write(file, steps))));
    }

    /// Writes `file` of the scene as it is now, in a new worker (ending any write under way).
    fn write(self, file: File, steps: usize) -> Written {
        self.cancel();
        let kind = match file {
            File::Script => "text/plain",
            File::Notebook { .. } => "application/json",
        };
        // The scene as saved, and the draw its table is saved against: handed over, the worker
        // need not draw it again (3.2 M numbers at 50,000 × 64).
        let (save, kept) = self.model.state.with_untracked(|s| {
            let kept = s.kept_draw().and_then(|(draw, table)| {
                Some((serde_json::to_string(&draw).ok()?, js_sys::Float32Array::from(table.data())))
            });
            (to_json(s), kept)
        });
        let (mut resolve, mut reject) = (JsValue::UNDEFINED.unchecked_into(), JsValue::UNDEFINED.unchecked_into());
        let blob = js_sys::Promise::new(&mut |yes, no| (resolve, reject) = (yes, no));
        let cancel = Callback::new(move |()| self.cancel());
        let refuse = reject.clone();
        let no = move |why: String| {
            let _ = refuse.call1(&JsValue::NULL, &why.into());
        };
        let messages = match file {
            File::Notebook { .. } => crate::l10n::messages(),
            File::Script => Default::default(),
        };
        let request = serde_json::to_string(&Write { file, steps, save, messages }).map_err(|e| e.to_string());
        let (said, failed) = (no.clone(), no.clone());
        let on_message = move |message: MessageEvent| {
            match message.data().dyn_into::<js_sys::Uint8Array>() {
                Ok(bytes) => match bytes_blob(&bytes, kind) {
                    Some(blob) => drop(resolve.call1(&JsValue::NULL, &blob)),
                    None => said(t!("one-hot-no-file")),
                },
                Err(data) => said(match serde_json::from_str::<Report>(&data.as_string().unwrap_or_default()) {
                    Ok(Report::Refused(why)) => why,
                    _ => t!("one-hot-worker-unexpected"),
                }),
            }
            // Its work is done: the worker ends (its handlers are freed once this one returns).
            self.running.try_set_value(None);
        };
        let on_error = move |why: String| {
            failed(t!("one-hot-worker-stopped", error = why));
            self.running.try_set_value(None);
        };
        let (request, moved) = match (request, kept) {
            (Ok(request), Some((draw, numbers))) => {
                let moved = js_sys::Array::of1(&numbers.buffer());
                (Ok(js_sys::Array::of3(&request.into(), &draw.into(), &numbers).into()), moved)
            }
            (request, _) => (request.map(JsValue::from), js_sys::Array::new()),
        };
        match request.and_then(|request| Running::spawn(WRITING, request, moved, on_message, on_error)) {
            Ok(running) => self.running.set_value(Some((running, reject))),
            Err(why) => no(why),
        }
        Written::Later { blob, cancel }
    }

    /// Ends the write under way, if any: the promise of its file is rejected as cancelled.
    fn cancel(self) {
        if let Some(Some((_, reject))) = self.running.try_update_value(Option::take) {
            let _ = reject.call1(&JsValue::NULL, &t!("one-hot-write-cancelled").into());
        }
    }
}
