//! One-hot saved or linked at real scale comes back without a pause: its table's draw (3.2 M
//! numbers at 50,000 × 64, ~150 ms on the page) is made in the worker first, and the scene is
//! read over it (`with_drawn`). Until then a progress bar says what is drawn. Should the worker
//! fail, the page draws it, as it did before.

use super::drawer::{spawn_draw, Room};
use crate::storage::{self, decode_save, Incoming, ReadAhead, Save};
use crate::worker::Running;
use leptos::prelude::*;
use rowflow_core::format::grouped;
use rowflow_core::scene::contract::Scene;
use rowflow_core::scene::one_hot::{draws_in, prepare, with_drawn, Draw, State, TABLE};
use rowflow_core::tensor::Tensor;
use std::time::Duration;

/// `children`, the scene, once the draw its save or link needs at real scale is made; at once
/// when it needs none.
#[component]
pub fn Restored(children: ChildrenFn) -> impl IntoView {
    let incoming = storage::incoming(State::NAME);
    let draw = incoming.as_ref().and_then(|i| draws_in(i.text()).into_iter().find(|d| !d.on_page()));
    // The save as read here, to be read as a scene over the draw; a link's scene is read by the
    // scene itself (the save is then only set aside).
    let own = StoredValue::new(match incoming {
        Some(Incoming::Save(text)) if draw.is_some() => Some(text),
        _ => None,
    });
    let ready = RwSignal::new(draw.is_none());
    // The draw the scene is read over, and its save read ahead: taken once, so that the 12.8 MB
    // are not held here after.
    let tables = StoredValue::new(Vec::new());
    let save = StoredValue::new(None::<Save<State>>);
    let (running, room) = (StoredValue::new_local(None::<Running>), Room::new());
    if let Some(draw) = draw.clone() {
        let asked = draw.clone();
        // A step per task, each long enough on its own at real scale (the view may be gone by
        // the next): the table made from what the worker sent; the save read over it; the
        // extent and transpose of the table the scene shows first made ahead; the scene shown.
        let on_drawn = move |table: Result<Tensor, String>| {
            running.try_set_value(None);
            room.give_back();
            let drawn = table.map(|t| vec![(asked.clone(), t)]).unwrap_or_default();
            later(move || {
                if ready.try_get_untracked().is_none() {
                    return;
                }
                let own = own.try_update_value(Option::take).flatten();
                let read = own.map(|text| Some(with_drawn(drawn.clone(), || decode_save::<State>(text))));
                later(move || {
                    match (&read, drawn.first()) {
                        (Some(Some(Ok(saved))), _) => prepare(&saved.table),
                        (_, Some((_, table))) => prepare(table),
                        _ => {}
                    }
                    save.try_set_value(read);
                    tables.try_set_value(drawn);
                    later(move || {
                        ready.try_set(true);
                    });
                });
            });
        };
        match spawn_draw(&draw, on_drawn) {
            Ok(worker) => {
                running.set_value(Some(worker));
                room.warm(draw.v, draw.d);
            }
            Err(_) => ready.set(true),
        }
    }
    on_cleanup(move || {
        running.try_set_value(None);
    });
    let restoring = draw.map(|Draw { seed, v, d }| {
        let (v, d, count) = (v.to_string(), d.to_string(), grouped(v * d));
        t!("one-hot-restoring", table = TABLE, v = v, d = d, count = count, seed = seed)
    });
    move || match ready.get() {
        false => view! {
            <p class="oh-drawing" role="status">
                <progress aria-label=t!("one-hot-drawing-table")></progress>
                {restoring.clone()}
            </p>
        }
        .into_any(),
        true => {
            if let Some(read) = save.try_update_value(Option::take).flatten() {
                provide_context(ReadAhead::new(read));
            }
            with_drawn(tables.try_update_value(std::mem::take).unwrap_or_default(), || children())
        }
    }
}

/// Runs `f` in a task of its own.
fn later(f: impl FnOnce() + 'static) {
    set_timeout(f, Duration::ZERO);
}
