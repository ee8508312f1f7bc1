//! The One-hot × Linear scene under any sequence of its controls. Its invariants: `emb.weight` is
//! `(V, D)` within the sliders' ranges and, with the ids, within the work a pass may do; both ways
//! run on `input` when its ids are good (on the last good ids otherwise), give `(*ids, D)`, and
//! agree to the bit whenever the table is finite (`torch.equal`); backward gives `emb.weight.grad`
//! `(V, D)` and `linear.weight.grad` `(D, V)`.

use crate::common::gen::{size_field, text};
use crate::{field, same, shared_edits, Driven};
use proptest::prelude::*;
use rowflow_core::codegen;
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::one_hot::{
    time_cases, Case, Report, Request, State, DIM_SIZES, INPUT, LINEAR, LINEAR_GRAD, LINEAR_WEIGHT, LINEAR_WEIGHT_GRAD,
    LOOKUP, LOOKUP_GRAD, MAX_IDS, MAX_WORK, ONE_HOT, TABLE, TABLE_GRAD, TARGET, VOCAB_SIZES,
};
use rowflow_core::scene::MAX_NUMEL;

/// The names `edit` and `paste` accept, and some they refuse.
const EDITABLE: &[&str] = &[TABLE, INPUT, TARGET];
const OTHER: &[&str] =
    &[ONE_HOT, LINEAR_WEIGHT, LOOKUP, LINEAR, TABLE_GRAD, LINEAR_WEIGHT_GRAD, LOOKUP_GRAD, LINEAR_GRAD, ""];
const MAX_V: usize = VOCAB_SIZES[VOCAB_SIZES.len() - 1];
const MAX_D: usize = DIM_SIZES[DIM_SIZES.len() - 1];
const LIMITS: &[usize] = &[MAX_V, MAX_D, MAX_IDS];

/// A size for the V and D sliders: mostly small, as a pass at the limits is millions of
/// multiply-adds (fast in `--release`, slow in the debug build `cargo test` runs).
fn slider() -> impl Strategy<Value = String> {
    prop_oneof![30 => (1usize..=12).prop_map(|n| n.to_string()), 1 => text(LIMITS)]
}

fn edit() -> impl Strategy<Value = Edit> {
    let ids = prop::sample::select(vec!["input.shape[0]", "input.shape[1]", "input.shape[2]"]);
    prop_oneof![
        17 => shared_edits::<State>(EDITABLE, OTHER, LIMITS),
        1 => field("V", slider()),
        1 => field("D", slider()),
        1 => (ids, size_field(LIMITS)).prop_map(|(f, t)| Edit::field(f, &t)),
    ]
}

impl Driven for State {
    fn invariants(&self) -> Result<(), TestCaseError> {
        let ((v, d), n) = (self.sizes(), self.ids.numel());
        prop_assert!(self.table.dim() == 2 && (1..=MAX_V).contains(&v) && (1..=MAX_D).contains(&d));
        prop_assert!((1..=MAX_IDS).contains(&n) && v * d <= MAX_NUMEL && n * v <= MAX_NUMEL && n * v * d <= MAX_WORK);
        let c = self.compute();
        let ways = c.ways.as_ref().expect("edits never damage the scene");
        prop_assert_eq!(ways.emb.weight.shape(), self.table.shape());
        let bad_ids = c.issues.iter().any(|i| i.tensor == INPUT);
        prop_assert!(c.issues.iter().all(|i| i.tensor == INPUT), "{:?}", c.issues);
        if !bad_ids {
            let pass = c.pass.as_ref().expect("a pass when the ids are good");
            prop_assert!(!pass.stale && same(&pass.ids, &self.ids));
        }
        prop_assert_eq!(c.backward.is_some(), c.pass.is_some());
        if let Some(p) = &c.pass {
            let want = [p.ids.shape(), &[d]].concat();
            prop_assert!(p.lookup.shape() == &want[..] && p.linear.shape() == &want[..]);
            prop_assert_eq!(p.one_hot.shape(), [p.ids.shape(), &[v]].concat());
            if self.table.data().iter().all(|x| x.is_finite()) {
                prop_assert_eq!(p.mismatch, None, "torch.equal fails on a finite table");
            }
            let last = p.trace.len();
            for playhead in [0, 1, last / 2, last, last + 1, usize::MAX] {
                let _ = (p.work_at(playhead), p.describe(playhead), p.zero_product(playhead, LINEAR, &[0, 0]));
            }
            let _ = (p.verdict(), p.cost_caption(), p.stale_note());
            // The worker's timing takes every size the scene can reach.
            let clock = std::cell::Cell::new(0.0);
            let now = || {
                clock.set(clock.get() + 1.0);
                clock.get()
            };
            let request = Request { cases: vec![Case { v, d, ids: n }], budget_ms: 4.0 };
            let mut measured = None;
            time_cases(&request, &now, &mut |r| {
                if let Report::Measured(m) = r {
                    measured = Some(m.caption());
                }
            });
            prop_assert!(measured.is_some(), "no timing for V = {v}, D = {d}, {n} ids");
            for out in [LOOKUP, LINEAR] {
                let _ = (c.formula(out, &vec![0; p.lookup.dim()]), c.formula(out, &[usize::MAX]));
            }
        }
        if let Some(b) = &c.backward {
            prop_assert_eq!(b.emb_grad.shape(), &[v, d][..]);
            prop_assert_eq!(b.linear_grad.shape(), &[d, v][..]);
            for playhead in [0, 1, b.trace.len(), usize::MAX] {
                let _ = (b.describe(playhead), b.zero_product(playhead, LINEAR_WEIGHT_GRAD, &[0, 0]));
            }
            let _ = (b.counts(), b.count_captions(), b.loss_text());
        }
        for name in EDITABLE.iter().chain(OTHER) {
            let _ = (c.tensor(name), self.changed(name));
        }
        prop_assert!(self.vocab_choices((v, d)).contains(&v) && self.dim_choices((v, d)).contains(&d));
        let _ = codegen::one_hot(self);
        Ok(())
    }
}

crate::takes_any_edits!(one_hot_scene_takes_any_edits, edit(), State::apply);
