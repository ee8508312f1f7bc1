//! One-hot saved or linked at real scale comes back without a pause: its table's draw (3.2 M
//! numbers at 50,000 × 64, ~150 ms on the page) is made in the worker first, and the scene is
//! read over it (`with_drawn`). Until then a progress bar says what is drawn. Should the worker
//! fail, the page draws it, as it did before.

use super::drawer::{spawn_draw, Room};
use super::timer::Running;
use crate::storage;
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
    let ready = RwSignal::new(draw.is_none());
    // What the scene is read over: taken once, so the 12.8 MB are not held here after.
    let tables = StoredValue::new(Vec::new());
    let running = StoredValue::new_local(None::<Running>);
    let room = Room::new();
    if let Some(draw) = draw.clone() {
        let asked = draw.clone();
        // The table made ready in this task, the scene read and shown in the next: each is
        // long enough on its own at real scale.
        let on_drawn = move |table: Result<Tensor, String>| {
            running.try_set_value(None);
            room.give_back();
            if let Ok(table) = table {
                prepare(&table);
                tables.try_set_value(vec![(asked.clone(), table)]);
            }
            // The view may be gone by then (the learner left).
            set_timeout(
                move || {
                    ready.try_set(true);
                },
                Duration::ZERO,
            );
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
        true => with_drawn(tables.try_update_value(std::mem::take).unwrap_or_default(), || children()),
    }
}
