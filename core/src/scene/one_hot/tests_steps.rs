//! SGD steps on the table, undo and reset, at the presets' size and at real scale.

use super::*;
use crate::scene::contract::{Edit, Scene};

#[test]
fn sgd_moves_only_the_looked_up_rows_and_undoes() {
    let mut s = State::default();
    let before = s.table.clone();
    s.apply(&Edit::Lr { text: "0.5".into() }).unwrap();
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.learning.steps, 1);
    // Rows 1, 2, 3 (ids 2, 3, 1) move by −0.5 × 1; row 0 stays.
    assert_eq!(s.changed(TABLE), (5..20).collect::<Vec<_>>());
    assert_eq!(s.table.data()[..5], before.data()[..5]);
    assert_eq!(s.table.get(&[2, 1]), Some(before.get(&[2, 1]).unwrap() - 0.5));
    // linear.weight is the transpose: every column but 0 moved.
    let mut cols: Vec<usize> = (0..5).flat_map(|j| (1..4).map(move |v| j * 4 + v)).collect();
    cols.sort_unstable();
    let mut got = s.changed(LINEAR_WEIGHT);
    got.sort_unstable();
    assert_eq!(got, cols);
    s.apply(&Edit::Step).unwrap();
    s.undo().unwrap();
    assert_eq!(s.learning.steps, 1);
    s.reset().unwrap();
    assert_eq!(s.table, before);
    // The batch preset: id 4 three times moves row 4 by 3 × lr; rows 2, 3, 5 … 8 stay.
    let mut b = State::preset("vocab10_dim3_batch").unwrap();
    let old = b.table.clone();
    b.apply(&Edit::Step).unwrap();
    let rows: Vec<usize> = b.changed(TABLE).iter().map(|i| i / 3).collect();
    assert_eq!(rows, [0, 0, 0, 1, 1, 1, 4, 4, 4, 9, 9, 9]);
    assert!((b.table.get(&[4, 0]).unwrap() - (old.get(&[4, 0]).unwrap() - 0.3)).abs() < 1e-6);
    // An edit forgets the steps; a bad id refuses a step.
    b.edit(TABLE, 0, "1").unwrap();
    assert_eq!((b.learning.steps, b.changed(TABLE).len()), (0, 0));
    b.edit(INPUT, 0, "12").unwrap();
    assert!(b.apply(&Edit::Step).unwrap_err().contains("fix the marked ids"));
}

#[test]
fn undo_at_real_scale_goes_back_every_step() {
    // 50,000 × 64 is 12.8 MB: undo kept two whole tables under its 32 MB; it keeps the rows moved.
    let mut s = State::default();
    s.set_vocab("50000").unwrap();
    s.set_dim("64").unwrap();
    let mut tables = vec![s.table.clone()];
    for id in ["4321", "17", "49999"].into_iter().cycle().take(12) {
        s.edit(INPUT, 0, id).unwrap();
        s.apply(&Edit::Step).unwrap();
        tables.push(s.table.clone());
    }
    assert_eq!(s.learning.history.len(), 12);
    // Each step moved the three looked-up rows: their cells' indices and numbers.
    assert_eq!(s.learning.history.bytes(), 12 * 3 * 64 * (size_of::<usize>() + 4));
    for want in tables.iter().rev().skip(1) {
        s.undo().unwrap();
        assert!(s.table == *want);
    }
    assert_eq!(s.undo().unwrap_err(), crate::scene::learn::NOTHING_TO_UNDO);
}

/// While backward plays, each way's gradient holds what its steps have added so far: after the
/// first id (2) only row 2 of emb.weight.grad and column 2 of linear.weight.grad.
#[test]
fn both_gradients_add_up_id_by_id() {
    let s = State::preset("seed123").unwrap();
    let c = s.compute();
    let emb = s.grad_at(&c, TABLE_GRAD, 7).unwrap();
    let linear = s.grad_at(&c, LINEAR_WEIGHT_GRAD, 7).unwrap();
    let rows: Vec<f32> = (0..4).map(|r| emb.get(&[r, 0]).unwrap()).collect();
    let columns: Vec<f32> = (0..4).map(|v| linear.get(&[0, v]).unwrap()).collect();
    assert_eq!((rows, columns), (vec![0.0, 0.0, 1.0, 0.0], vec![0.0, 0.0, 1.0, 0.0]));
    assert_eq!(s.grad_at(&c, TABLE_GRAD, 0), None, "whole before the pass");
}
