//! V, D and the seed at real scale: a table of more than `DRAW_ON_PAGE` numbers (3.2 M at
//! V = 50,000, D = 64, ~150 ms of `torch.manual_seed` draws) is drawn in the scene's worker, so
//! the page never pauses. The new size or seed shows at once with a progress bar and Cancel, and
//! the table becomes the scene's in one change when it arrives.

use super::timer::TIMING;
use crate::shell::SceneModel;
use crate::worker::Running;
use leptos::prelude::*;
use rowflow_core::format::grouped;
use rowflow_core::scene::contract::Edit;
use rowflow_core::scene::one_hot::{draws_in, with_drawn, Draw, Landing, Report, State, DRAW_ON_PAGE, TABLE};
use rowflow_core::tensor::Tensor;
use std::rc::Rc;
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

/// What a draw is for: the sliders' new size, Re-init's new seed, or a scene being opened (a
/// file, or work set aside brought back). Each is told where it was asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    Size,
    Seed,
    Open,
}

/// `torch.manual_seed(seed); nn.Embedding(v, d)` under way in the worker.
#[derive(Clone, Debug, PartialEq)]
struct Drawing {
    v: usize,
    d: usize,
    seed: String,
    change: Change,
}

#[derive(Clone, Copy)]
pub struct Drawer {
    /// The draw under way, if any.
    pending: RwSignal<Option<Drawing>>,
    /// The table's sizes when the draw began: the drawn table is only for that table.
    from: StoredValue<(usize, usize)>,
    /// Why the last draw did not land, or that it was cancelled.
    said: RwSignal<Option<(Change, String)>>,
    model: SceneModel<State>,
    running: StoredValue<Option<Running>, LocalStorage>,
    room: Room,
    /// The text being opened and how to read it, while its table is drawn.
    opening: StoredValue<Option<(String, Callback<String>)>, LocalStorage>,
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
            room: Room::new(),
            opening: StoredValue::new_local(None),
        };
        on_cleanup(move || {
            drawer.running.try_update_value(|r| *r = None);
        });
        // A preset, a file or a lesson replaced the table meanwhile: the draw is not for it (a
        // scene being opened replaces it anyway).
        let sizes = Memo::new(move |_| model.state.with(State::sizes));
        Effect::new(move |_| {
            let now = sizes.get();
            let stale = |p: &Drawing| p.change != Change::Open && now != drawer.from.get_value();
            if let Some(Drawing { v, d, .. }) = drawer.pending.get_untracked().filter(stale) {
                drawer.end(Some(t!("one-hot-not-drawn", table = TABLE, v = v.to_string(), d = d.to_string())));
            }
        });
        drawer
    }

    /// Sets `field` (`V` or `D`) to `n`: on the page when the table is small, else in the worker.
    pub fn pick(self, field: &str, n: usize) -> Result<(), String> {
        // The other size is the one on show: the table's, or the one still being drawn.
        let drawing = self.pending.with_untracked(|p| p.as_ref().map(|p| (p.v, p.d)));
        let (v, d) = drawing.unwrap_or_else(|| self.model.state.with_untracked(State::sizes));
        self.end(None);
        let (v, d) = if field == "V" { (n, d) } else { (v, n) };
        if v.saturating_mul(d) <= DRAW_ON_PAGE {
            return self.model.update(|s| s.resize_table(v, d));
        }
        let seed = self.model.state.with_untracked(|s| s.check_resize(v, d).map(|()| s.seed.clone()))?;
        self.start(Drawing { v, d, seed, change: Change::Size })
    }

    /// Re-init with `seed`: on the page when the table is small, else in the worker. A seed torch
    /// refuses is refused here, before anything is drawn.
    pub fn reseed(self, seed: String) -> Result<(), String> {
        let (v, d) = self.model.state.with_untracked(State::sizes);
        self.end(None);
        let draw = Draw { seed, v, d };
        if draw.on_page() {
            return self.model.apply(Edit::Reinit { seed: draw.seed });
        }
        // As torch reads it: ` 007` is drawn, and said, as 7.
        let seed = draw.check()?.to_string();
        self.start(Drawing { v, d, seed, change: Change::Seed })
    }

    /// Reads `text` (a file, or work set aside brought back) with `read`: its table drawn in the
    /// worker first when it is past what the page draws at once, else at once.
    pub fn open(self, text: String, read: Callback<String>) {
        let big = draws_in(&text).into_iter().find(|d| !d.on_page());
        let Some(Draw { seed, v, d }) = big else { return read.run(text) };
        self.end(None);
        self.opening.set_value(Some((text, read)));
        if self.start(Drawing { v, d, seed, change: Change::Open }).is_err() {
            // No worker: drawn on the page, as before.
            if let Some((text, read)) = self.opening.try_update_value(Option::take).flatten() {
                read.run(text);
            }
        }
    }

    /// The sizes on show: those being drawn, else the table's.
    pub fn sizes(self) -> Signal<(usize, usize)> {
        let (pending, state) = (self.pending, self.model.state);
        Signal::derive(move || {
            pending.with(|p| p.as_ref().map(|p| (p.v, p.d))).unwrap_or_else(|| state.with(State::sizes))
        })
    }

    /// The seed on show: the one being drawn, else the table's.
    pub fn seed(self) -> Signal<String> {
        let (pending, state) = (self.pending, self.model.state);
        Signal::derive(move || {
            let drawing = pending.with(|p| p.as_ref().filter(|p| p.change == Change::Seed).map(|p| p.seed.clone()));
            drawing.unwrap_or_else(|| state.with(|s| s.seed.clone()))
        })
    }

    fn start(self, drawing: Drawing) -> Result<(), String> {
        let from = self.model.state.with_untracked(State::sizes);
        let Drawing { v, d, ref seed, change } = drawing;
        let asked = drawing.clone();
        let on_drawn = move |drawn: Result<Tensor, String>| {
            self.room.give_back();
            let (drawn, asked) = match drawn {
                Ok(drawn) => (drawn, asked.clone()),
                Err(why) => return self.end(Some(why)),
            };
            // Made ready in this task, the scene's in the next: the task that computes and
            // draws the new table is long enough on its own. Text opened over the draw is read
            // in the next, and the table it holds made ready after (`storage::show_read`).
            if change == Change::Open {
                return set_timeout(move || self.read_over(drawn, &asked), Duration::ZERO);
            }
            let ready = self.model.state.with_untracked(|s| match change {
                Change::Seed => s.ready_reinit(&asked.seed, drawn),
                _ => s.ready_drawn(&asked.seed, drawn),
            });
            match ready {
                Ok(ready) => set_timeout(move || self.land(ready, &asked), Duration::ZERO),
                Err(why) => self.end(Some(why)),
            }
        };
        let running = spawn_draw(&Draw { seed: seed.clone(), v, d }, on_drawn)?;
        self.running.set_value(Some(running));
        self.from.set_value(from);
        self.pending.set(Some(drawing));
        self.room.warm(v, d);
        Ok(())
    }

    /// Makes the table drawn for `asked` the scene's, unless its draw was ended meanwhile
    /// (cancelled, another size or seed picked, the view gone).
    fn land(self, ready: Landing, asked: &Drawing) {
        if self.pending.try_with_untracked(|p| p.as_ref() == Some(asked)) == Some(true) {
            self.end(self.model.update(|s| s.land(ready)).err());
        }
    }

    /// Reads the text being opened over the table drawn for it, unless its draw was ended
    /// meanwhile.
    fn read_over(self, drawn: Tensor, asked: &Drawing) {
        if self.pending.try_with_untracked(|p| p.as_ref() == Some(asked)) != Some(true) {
            return;
        }
        let Some((text, read)) = self.opening.try_update_value(Option::take).flatten() else { return };
        self.end(None);
        let Drawing { v, d, seed, .. } = asked.clone();
        with_drawn(vec![(Draw { seed, v, d }, drawn)], || read.run(text));
    }

    /// Stops the draw under way: the table stays as it is.
    pub fn cancel(self) {
        let Some(drawing) = self.pending.get_untracked() else { return };
        let (v0, d0) = self.model.state.with_untracked(State::sizes);
        self.end(Some(match drawing.change {
            Change::Size => t!(
                "one-hot-cancelled-size",
                v = drawing.v.to_string(),
                d = drawing.d.to_string(),
                table = TABLE,
                v0 = v0.to_string(),
                d0 = d0.to_string(),
            ),
            Change::Seed => t!("one-hot-cancelled-seed", seed = drawing.seed, table = TABLE),
            Change::Open => t!("one-hot-cancelled-open"),
        }));
    }

    /// Ends the worker, if any, and says `said` where the draw was asked for. Also called by its
    /// handlers, which may outlive the view by a message.
    fn end(self, said: Option<String>) {
        let change = self.pending.try_with_untracked(|p| p.as_ref().map(|p| p.change)).flatten();
        self.running.try_update_value(|r| *r = None);
        self.room.give_back();
        self.opening.try_set_value(None);
        self.pending.try_set(None);
        self.said.try_set(said.map(|said| (change.unwrap_or(Change::Size), said)));
    }

    /// The draw under way for `change`, with Cancel, or why the last one did not land.
    pub fn status(self, change: Change) -> impl IntoView {
        let drawing = move || {
            self.pending.get().filter(|p| p.change == change).map(|Drawing { v, d, seed, .. }| {
                let count = grouped(v * d);
                let (v, d) = (v.to_string(), d.to_string());
                let what = match change {
                    Change::Open => t!("one-hot-opening", table = TABLE, v = v, d = d, count = count, seed = seed),
                    _ => t!("one-hot-drawing", table = TABLE, v = v, d = d, count = count, seed = seed),
                };
                view! {
                    <p class="oh-drawing" role="status">
                        <progress aria-label=t!("one-hot-drawing-table")></progress>
                        {what}
                        " "
                        <button type="button" on:click=move |_| self.cancel()>{t!("one-hot-cancel")}</button>
                    </p>
                }
            })
        };
        let said = move || {
            self.said
                .get()
                .filter(|(c, _)| *c == change)
                .map(|(_, said)| view! { <p class="oh-drawn" role="status">{said}</p> })
        };
        (drawing, said)
    }
}

/// A worker drawing `draw`; the table, or why there is none, goes to `on_drawn`.
pub(super) fn spawn_draw(draw: &Draw, on_drawn: impl Fn(Result<Tensor, String>) + 'static) -> Result<Running, String> {
    let request = serde_json::to_string(draw).map_err(|e| e.to_string())?;
    let (shape, on_drawn) = (vec![draw.v, draw.d], Rc::new(on_drawn));
    let said = on_drawn.clone();
    let on_message = move |message: MessageEvent| {
        said(match message.data().dyn_into::<js_sys::Float32Array>() {
            Ok(array) => Tensor::new(shape.clone(), array.to_vec()).map_err(|e| e.message),
            Err(data) => Err(match serde_json::from_str::<Report>(&data.as_string().unwrap_or_default()) {
                Ok(Report::Refused(why)) => why,
                _ => t!("one-hot-worker-unexpected"),
            }),
        })
    };
    let on_error = move |why: String| on_drawn(Err(t!("one-hot-worker-stopped", error = why)));
    Running::spawn(TIMING, request.into(), js_sys::Array::new(), on_message, on_error)
}

/// Memory for a drawn table's landing, taken while the worker draws and given back as the table
/// arrives. The first write to a page the page has never used costs the browser a fault, and a
/// landing at 50,000 × 64 makes 64 MB of tables at once: measured, its task was 60–85 ms the
/// first time at that size and under 50 the next, on memory already touched.
#[derive(Clone, Copy)]
pub(super) struct Room(StoredValue<Option<Vec<f32>>, LocalStorage>);

impl Room {
    /// Room given back when the view that made it ends.
    pub(super) fn new() -> Self {
        let room = Self(StoredValue::new_local(None));
        on_cleanup(move || room.give_back());
        room
    }

    /// Takes room for the landing of a `(v, d)` table and writes a number on each of its pages,
    /// a slice per task. Memory the browser can't spare is simply not warmed.
    pub(super) fn warm(self, v: usize, d: usize) {
        let mut room = Vec::new();
        if room.try_reserve_exact(v.saturating_mul(d).saturating_mul(TABLES_LANDED)).is_ok() {
            self.0.set_value(Some(room));
            self.touch(0);
        }
    }

    fn touch(self, from: usize) {
        let next = self.0.try_update_value(|room| {
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

    /// Gives the memory back, for the landing's tables to take.
    pub(super) fn give_back(self) {
        self.0.try_set_value(None);
    }
}
