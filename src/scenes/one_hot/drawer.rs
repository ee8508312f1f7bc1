//! V and D at real scale: a table of more than `DRAW_ON_PAGE` numbers (3.2 M at V = 50,000,
//! D = 64, ~100 ms of `torch.manual_seed` draws) is drawn in the scene's worker, so the page
//! never pauses. The new size shows at once with a progress bar and Cancel, and the table
//! becomes the scene's in one change when it arrives.

use super::timer::Running;
use crate::shell::SceneModel;
use leptos::prelude::*;
use rowflow_core::scene::one_hot::{Draw, Landing, Report, State, DRAW_ON_PAGE};
use rowflow_core::tensor::Tensor;
use std::time::Duration;
use wasm_bindgen::JsCast;
use web_sys::MessageEvent;

/// Tables of the drawn size the landing makes at once: the table, its draw kept to save
/// against, `linear.weight` (its transpose) and both dense gradients; the next change's two
/// gradients, made while the landed ones are still on show; and what a first SGD step makes
/// besides: the gradient it steps by, the stepped table (the old one is kept for undo) and
/// its transpose. Measured at 50,000 × 64, a first step took 57 ms on untouched memory, 49
/// on memory touched here; no more than later steps would have taken from the browser.
const TABLES_LANDED: usize = 10;
/// Floats to a page of the browser's memory (4 KB), and touched per task: 4 MB, a millisecond
/// or two.
const PAGE: usize = 1024;
const SLICE: usize = 1 << 20;

#[derive(Clone, Copy)]
pub struct Drawer {
    /// `(V, D)` while the worker draws them.
    pub pending: RwSignal<Option<(usize, usize)>>,
    /// The table's sizes when the draw began: the drawn table is only for that table.
    from: StoredValue<(usize, usize)>,
    /// Why the last draw did not land, or that it was cancelled.
    pub said: RwSignal<Option<String>>,
    model: SceneModel<State>,
    running: StoredValue<Option<Running>, LocalStorage>,
    /// Memory for the landing, touched ahead while the worker draws (`warm`).
    room: StoredValue<Option<Vec<f32>>, LocalStorage>,
}

impl Drawer {
    /// A drawer whose worker ends with the view that made it.
    pub fn new(model: SceneModel<State>) -> Self {
        let drawer = Self {
            pending: RwSignal::new(None),
            from: StoredValue::new((0, 0)),
            said: RwSignal::new(None),
            model,
            running: StoredValue::new_local(None),
            room: StoredValue::new_local(None),
        };
        on_cleanup(move || {
            drawer.running.try_update_value(|r| *r = None);
            drawer.room.try_set_value(None);
        });
        // A preset, a file or a lesson replaced the table meanwhile: the draw is not for it.
        let sizes = Memo::new(move |_| model.state.with(State::sizes));
        Effect::new(move |_| {
            let now = sizes.get();
            if let Some((v, d)) = drawer.pending.get_untracked().filter(|_| now != drawer.from.get_value()) {
                drawer.end(Some(format!("Not drawn: emb.weight changed while ({v}, {d}) was drawn.")));
            }
        });
        drawer
    }

    /// Sets `field` (`V` or `D`) to `n`: on the page when the table is small, else in the worker.
    pub fn pick(self, field: &str, n: usize) -> Result<(), String> {
        // The other size is the one on show: the table's, or the one still being drawn.
        let from = self.model.state.with_untracked(State::sizes);
        let (v, d) = self.pending.get_untracked().unwrap_or(from);
        self.end(None);
        let (v, d) = if field == "V" { (n, d) } else { (v, n) };
        if v.saturating_mul(d) <= DRAW_ON_PAGE {
            return self.model.update(|s| s.resize_table(v, d));
        }
        let seed = self.model.state.with_untracked(|s| s.check_resize(v, d).map(|()| s.seed.clone()))?;
        let request = serde_json::to_string(&Draw { seed: seed.clone(), v, d }).map_err(|e| e.to_string())?;
        let on_message = move |message: MessageEvent| match message.data().dyn_into::<js_sys::Float32Array>() {
            Ok(array) => {
                // Given back first, for the landing's tables to take.
                self.room.try_set_value(None);
                // Its copies made in this task, the table made the scene's in the next: the
                // task that computes and draws the new table is long enough on its own.
                let ready = Tensor::new(vec![v, d], array.to_vec())
                    .map_err(|e| e.message)
                    .and_then(|drawn| self.model.state.with_untracked(|s| s.ready_drawn(&seed, drawn)));
                match ready {
                    Ok(ready) => set_timeout(move || self.land(ready, (v, d)), Duration::ZERO),
                    Err(why) => self.end(Some(why)),
                }
            }
            Err(data) => {
                let why = match serde_json::from_str::<Report>(&data.as_string().unwrap_or_default()) {
                    Ok(Report::Refused(why)) => why,
                    _ => "the worker said something unexpected".into(),
                };
                self.end(Some(why));
            }
        };
        let on_error = move |why: String| self.end(Some(format!("the worker stopped: {why}")));
        let running = Running::spawn(request, on_message, on_error)?;
        self.running.set_value(Some(running));
        self.from.set_value(from);
        self.pending.set(Some((v, d)));
        self.warm(v * d * TABLES_LANDED);
        Ok(())
    }

    /// Takes `floats` of memory and writes a number on each of its pages, a slice per task,
    /// until the table lands and gives it back. The first write to a page the page has never
    /// used costs the browser a fault, and the landing at 50,000 × 64 makes 64 MB of tables at
    /// once: measured, its task was 60–85 ms the first time at that size and under 50 the next,
    /// on memory already touched. Memory the browser can't spare is simply not warmed.
    fn warm(self, floats: usize) {
        let mut room = Vec::new();
        if room.try_reserve_exact(floats).is_ok() {
            self.room.set_value(Some(room));
            self.touch(0);
        }
    }

    fn touch(self, from: usize) {
        let next = self.room.try_update_value(|room| {
            let spare = room.as_mut()?.spare_capacity_mut();
            let to = (from + SLICE).min(spare.len());
            spare[from..to].iter_mut().step_by(PAGE).for_each(|f| {
                f.write(0.0);
            });
            (to < spare.len()).then_some(to)
        });
        if let Some(Some(next)) = next {
            set_timeout(move || self.touch(next), Duration::ZERO);
        }
    }

    /// Makes the table drawn at `(v, d)` the scene's, unless its draw was ended meanwhile
    /// (cancelled, another size picked, the view gone).
    fn land(self, ready: Landing, (v, d): (usize, usize)) {
        if self.pending.try_get_untracked().flatten() == Some((v, d)) {
            self.end(self.model.update(|s| s.land(ready)).err());
        }
    }

    /// Stops the draw under way: the table stays as it is.
    pub fn cancel(self) {
        if let Some((v, d)) = self.pending.get_untracked() {
            let (v0, d0) = self.model.state.with_untracked(State::sizes);
            self.end(Some(format!("Cancelled ({v}, {d}): emb.weight stays ({v0}, {d0}).")));
        }
    }

    /// Ends the worker, if any, and says `said`. Also called by its handlers, which may outlive
    /// the view by a message.
    fn end(self, said: Option<String>) {
        self.running.try_update_value(|r| *r = None);
        self.room.try_set_value(None);
        self.pending.try_set(None);
        self.said.try_set(said);
    }
}
