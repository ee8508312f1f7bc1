//! One-hot saved or linked at real scale comes back without a pause: its table's draw (3.2 M
//! numbers at 50,000 × 64, ~150 ms on the page) is made in the worker first, and the scene is
//! read over it (`with_drawn`). Until then a progress bar says what is drawn. Should the worker
//! fail, the page draws it, as it did before.

use super::drawer::{spawn_draw, Room};
use super::timer::Running;
use crate::storage::{self, read_save, ReadAhead, Save};
use leptos::prelude::*;
use rowflow_core::format::grouped;
use rowflow_core::scene::contract::Scene;
use rowflow_core::scene::one_hot::{draws_in, prepare, with_drawn, Draw, State, DRAW_ON_PAGE, TABLE};
use rowflow_core::tensor::Tensor;
use std::time::Duration;

/// `children`, the scene, once the draw its save or link needs at real scale is made; at once
/// when it needs none.
#[component]
pub fn Restored(children: ChildrenFn) -> impl IntoView {
    let big = |d: &Draw| d.v.saturating_mul(d.d) > DRAW_ON_PAGE;
    let draw = storage::incoming(State::NAME).and_then(|text| draws_in(&text).into_iter().find(big));
    let linked = crate::address::param("s").is_some();
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
                // A link's scene is read by the scene itself; the save then is only set aside.
                let read =
                    (!linked).then(|| with_drawn(drawn.clone(), || read_save::<State>(&storage::key(State::NAME))));
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
        let n = grouped(v * d);
        format!("Restoring One-hot × Linear: drawing {TABLE} ({v}, {d}), {n} numbers from torch.manual_seed({seed}), in the background…")
    });
    move || match ready.get() {
        false => view! {
            <p class="oh-drawing" role="status">
                <progress aria-label="Drawing the table"></progress>
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
