use super::*;
use crate::scene::contract::{Edit, Scene};
use crate::scene::fixtures::{fixture, floats, ints, shape};
use crate::trace::Mark;

/// A caption as the page says it in English: the longest of its ways that fits two lines.
pub(super) fn said(ways: &[crate::say::Say]) -> String {
    crate::say::caption(ways, crate::say::write)
}

/// Each preset and the PyTorch reference case it reproduces.
const CASES: [(&str, &str); 2] = [
    ("seed123", "seed_one_hot_linear_equals_embedding"),
    ("vocab10_dim3_batch", "one_hot_linear_vocab_10_dim_3_batch"),
];

#[test]
fn presets_reproduce_pytorch() {
    for (preset, file) in CASES {
        let f = fixture(file);
        let s = State::preset(preset).unwrap();
        // The seeded table is bit for bit PyTorch's, and the Linear's weight its transpose.
        assert_eq!(s.table.data(), floats(&f["embedding_equivalent"]["weight"]), "{preset}");
        assert_eq!(s.ids.data(), ints(&f["input"]));
        let c = s.compute();
        assert!(c.issues.is_empty());
        assert_eq!(c.tensor(LINEAR_WEIGHT).unwrap().data(), floats(&f["params"]["weight"]));
        let p = c.pass.as_ref().unwrap();
        // one_hot kept as its ids reads, and writes out, PyTorch's F.one_hot.
        let dense = p.one_hot.dense().unwrap();
        assert_eq!(p.one_hot.shape(), shape(&f["one_hot"]));
        assert_eq!(dense.shape(), shape(&f["one_hot"]));
        assert_eq!(dense.data(), ints(&f["one_hot"]));
        for (i, &x) in dense.data().iter().enumerate() {
            assert_eq!(p.one_hot.get(&crate::tensor::unravel(i, dense.shape())), Some(x));
        }
        assert_eq!(p.one_hot.get(&[0, p.one_hot.num_classes()]), None);
        assert_eq!(p.linear.shape(), shape(&f["output"]));
        assert_eq!(p.linear.data(), floats(&f["output"]));
        assert_eq!(p.lookup.data(), floats(&f["output"]));
        assert_eq!(p.cost.lookup_copies as u64, f["cost"]["lookup_copies"].as_u64().unwrap());
        assert_eq!(p.cost.one_hot_multiply_adds as u64, f["cost"]["one_hot_multiply_adds"].as_u64().unwrap());
        assert_eq!(p.verdict().0, "torch.equal(emb(input), linear(one_hot)) → True");
        assert_eq!(
            crate::say::write(&p.verdict().1),
            "Each number of linear(one_hot) is one 1 × w plus zeros, so it is w itself, to the last bit."
        );
        assert!(!p.stale);
    }
}

#[test]
fn linear_weight_is_the_table_transposed_once_until_the_table_is_written() {
    let mut s = State::default();
    let drawn = Draw { seed: s.seed.clone(), v: 200, d: 5 }.run().unwrap();
    s.land(s.ready_drawn(&s.seed.clone(), drawn).unwrap()).unwrap();
    let weight = |s: &State| s.compute().tensor(LINEAR_WEIGHT).unwrap().clone();
    let made = weight(&s);
    assert_eq!(made, transposed(&s.table));
    // An edit of the ids keeps the table: the transpose made when it was made ready serves.
    s.edit(INPUT, 0, "199").unwrap();
    assert_eq!(weight(&s).data().as_ptr(), made.data().as_ptr());
    // Writing the table forgets it: the next one holds the new number.
    s.edit(TABLE, 5 * 7 + 2, "9").unwrap();
    let edited = weight(&s);
    assert_eq!(edited.get(&[2, 7]), Some(9.0));
    assert_ne!(made.get(&[2, 7]), Some(9.0));
    assert_eq!(edited, transposed(&s.table));
}

/// `(V, D)` → `(D, V)`, made afresh (not the one kept with `t`).
fn transposed(t: &Tensor) -> Tensor {
    t.without_transpose().t().unwrap()
}

#[test]
fn backward_matches_pytorch_both_ways() {
    for (preset, file) in CASES {
        let f = fixture(file);
        let s = State::preset(preset).unwrap();
        let c = s.compute();
        let (ways, pass) = (c.ways.as_ref().unwrap(), c.pass.as_ref().unwrap());
        // The fixtures' random upstream, as a loss would give it.
        let up = Tensor::new(shape(&f["upstream"]), floats(&f["upstream"])).unwrap();
        let emb = ways.emb.backward(&pass.ids, &up).unwrap().weight.unwrap();
        let lin = ways.linear.backward(&pass.ids, &up).unwrap();
        let close = |a: &[f32], b: &[f32]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
        assert!(close(lin.data(), &floats(&f["grads"]["weight"])), "{preset}");
        assert!(close(emb.data(), &floats(&f["embedding_equivalent"]["grad_weight"])), "{preset}");
        let nonzero = lin.numel() - lin.extent().zeros;
        assert_eq!(nonzero as u64, f["cost"]["nonzero_grad_entries_linear"].as_u64().unwrap());

        // The sum loss: linear.weight.grad is emb.weight.grad transposed, nonzero in
        // unique ids × D entries.
        let b = c.backward.as_ref().unwrap();
        assert_eq!(b.linear_grad, transposed(&b.emb_grad), "{preset}");
        let mut unique = pass.ids.data().to_vec();
        unique.sort_unstable();
        unique.dedup();
        let d = s.sizes().1;
        let counts = b.counts();
        assert_eq!(counts.linear_written - counts.linear_zeros, unique.len() * d);
        assert_eq!(counts.rows_touched, unique.len());
        assert_eq!(counts.lookup_adds, pass.ids.numel() * d);
        assert_eq!(b.loss, pass.lookup.data().iter().map(|&x| x as f64).sum::<f64>() as f32);
    }
}

#[test]
fn sum_loss_gives_ones_in_the_used_rows_and_counts() {
    let c = State::default().compute();
    let b = c.backward.as_ref().unwrap();
    // ids [2, 3, 1]: rows 1, 2, 3 all ones, row 0 zero; linear.weight.grad column 0 zero.
    assert_eq!(b.emb_grad.data()[..5], [0.0; 5]);
    assert!(b.emb_grad.data()[5..].iter().all(|&x| x == 1.0));
    assert!((0..5).all(|j| b.linear_grad.get(&[j, 0]) == Some(0.0)));
    assert_eq!(c.tensor(LINEAR_WEIGHT_GRAD).unwrap().shape(), [5, 4]);
    let (linear, lookup) = b.count_captions();
    assert_eq!(
        crate::say::write(&linear),
        "linear.weight.grad is dense (5, 4): all 20 entries written (60 multiply-adds), 5 of them 0, the columns no \
         id uses."
    );
    assert_eq!(
        crate::say::write(&lookup),
        "emb.weight.grad: 3 ids × 5 = 15 numbers added into 3 looked-up rows; the other 5 entries stay 0, never \
         written."
    );
    // One id: one looked-up row.
    let mut s = State::default();
    s.resize_ids(0, "1").unwrap();
    let (_, lookup) = s.compute().backward.unwrap().count_captions();
    assert_eq!(
        crate::say::write(&lookup),
        "emb.weight.grad: 1 id × 5 = 5 numbers added into 1 looked-up row; the other 15 entries stay 0, never written."
    );
    // A repeated id adds: id 4 three times in the batch preset.
    let b = State::preset("vocab10_dim3_batch").unwrap().compute().backward.unwrap();
    assert_eq!(b.emb_grad.get(&[4, 0]), Some(3.0));
    assert_eq!(b.counts().emb_zeros, (10 - 4) * 3);
}

#[test]
fn mse_loss_against_an_editable_target() {
    let mut s = State::default();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.edit(TARGET, 0, "1").unwrap();
    let c = s.compute();
    let (p, b) = (c.pass.as_ref().unwrap(), c.backward.as_ref().unwrap());
    let n = p.lookup.numel() as f32;
    let want = 2.0 * (p.lookup.data()[0] - 1.0) / n;
    assert!((b.upstream.data()[0] - want).abs() < 1e-6);
    assert!((b.emb_grad.get(&[2, 0]).unwrap() - want).abs() < 1e-6);
    assert_eq!(b.linear_grad, transposed(&b.emb_grad));
    assert!(b.loss_text().starts_with("loss = F.mse_loss(output, target) = "));
    assert!(b.trace.steps[0].reads.iter().any(|r| r.tensor == TARGET));
    // More ids: the target follows the outputs' shape.
    s.resize_ids(0, "4").unwrap();
    assert!(s.compute().backward.is_some());
    assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [4, 5]));
    s.apply(&Edit::Loss { mse: false }).unwrap();
    assert!(s.edit(TARGET, 0, "1").is_err());
}

#[test]
fn the_mse_target_fits_the_outputs_on_show_while_an_id_is_bad() {
    let mut s = State::default();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.edit(INPUT, 0, "4").unwrap();
    s.resize_ids(0, "1").unwrap();
    // Both ways still show the last good ids (3,): the target keeps their shape.
    let c = s.compute();
    assert!(c.issues.iter().all(|i| i.tensor == INPUT), "{:?}", c.issues);
    assert_eq!(c.backward.unwrap().upstream.shape(), [3, 5]);
    s.apply(&Edit::Loss { mse: true }).unwrap();
    assert!(s.compute().backward.is_some());
    s.edit(INPUT, 0, "2").unwrap();
    assert_eq!(s.compute().backward.unwrap().upstream.shape(), [1, 5]);
}

#[test]
fn backward_timeline_goes_from_the_loss_to_each_gradient() {
    let c = State::default().compute();
    let b = c.backward.as_ref().unwrap();
    let t = &b.trace;
    assert_eq!(t.len(), 1 + 3 * (5 + 1));
    assert!(t.steps.iter().all(|s| s.phase == crate::trace::Phase::Backward));
    let w = |i: usize| t.steps[i].writes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
    assert_eq!(w(0), "emb(input).grad linear(one_hot).grad");
    assert_eq!(w(1), "linear.weight.grad[4]");
    assert_eq!(w(5), "linear.weight.grad[0]");
    assert_eq!(w(6), "emb.weight.grad[2]");
    assert_eq!(w(7), "linear.weight.grad[4]");
    let m = t.marks_at(2);
    assert_eq!(m.phase, Some(crate::trace::Phase::Backward));
    assert_eq!(m.of(LINEAR_GRAD, &[0, 4]), Some(Mark::Read));
    assert_eq!(m.of(ONE_HOT, &[0, 1]), Some(Mark::Read));
    assert_eq!(m.of(LINEAR_WEIGHT_GRAD, &[4, 3]), Some(Mark::Write));
    assert_eq!(m.of(LOOKUP_GRAD, &[1, 1]), Some(Mark::Done));
    assert!(b.zero_product(2, LINEAR_WEIGHT_GRAD, &[4, 3]));
    assert!(!b.zero_product(2, LINEAR_WEIGHT_GRAD, &[4, 2]), "id 2's column gets g");
    assert!(!b.zero_product(7, TABLE_GRAD, &[2, 0]));
    assert!(said(&b.describe(0)).starts_with("Step through backward"));
    assert_eq!(
        said(&b.describe(1)),
        "loss = output.sum() = -5.4086: d loss / d output = 1 for every cell of both outputs."
    );
    assert_eq!(
        said(&b.describe(2)),
        "Row 4 of linear.weight.grad: all 4 numbers written, 3 of them g × 0 = 0; only [4, 2] gets \
         g = linear(one_hot).grad[0, 4] = 1.0000."
    );
    assert_eq!(
        said(&b.describe(7)),
        "emb.weight.grad[2] += emb(input).grad[0] (input[0] = 2): 5 numbers into row 2 only."
    );
    // The batch preset: id 4 is input[1, 1] too (its second add, step 21): it accumulates.
    let b = State::preset("vocab10_dim3_batch").unwrap().compute().backward.unwrap();
    assert_eq!(b.trace.len(), 1 + 6 * (3 + 1));
    assert!(said(&b.describe(21)).ends_with("held a gradient already: they add up."));
}

#[test]
fn shape_equation_names_both_ways() {
    let c = State::preset("vocab10_dim3_batch").unwrap().compute();
    assert_eq!(
        c.shape_equation,
        "emb.weight (10, 3)[input (2, 3)] → (2, 3, 3)  =  one_hot (2, 3, 10) @ linear.weight.T (10, 3) → (2, 3, 3)"
    );
    assert!(State::default().compute().shape_equation.contains("[input (3,)] → (3, 5)"));
}

#[test]
fn edits_flow_through_both_ways() {
    let mut s = State::default();
    s.edit(TABLE, 2 * 5 + 1, "7.5").unwrap(); // emb.weight[2, 1]
    let c = s.compute();
    assert_eq!(c.tensor(LINEAR_WEIGHT).unwrap().get(&[1, 2]), Some(7.5));
    let p = c.pass.unwrap();
    assert_eq!(p.lookup.get(&[0, 1]), Some(7.5));
    assert_eq!(p.linear.get(&[0, 1]), Some(7.5));
    s.edit(INPUT, 0, "0").unwrap();
    assert_eq!(s.compute().pass.unwrap().one_hot.dense().unwrap().data()[..4], [1, 0, 0, 0]);
    let before = s.clone();
    assert!(s.edit(TABLE, 0, "x").unwrap_err().starts_with("could not convert string to float: 'x'"));
    assert!(s.edit(ONE_HOT, 0, "1").unwrap_err().contains("change input"));
    assert!(s.edit(LINEAR_WEIGHT, 0, "1").unwrap_err().contains("change emb.weight"));
    assert!(s.edit(LINEAR, 0, "1").is_err());
    assert!(s.edit(INPUT, 0, "1.5").is_err());
    assert_eq!(s, before);
    s.paste(TABLE, 0, "[[1, 2], [3, 4]]").unwrap();
    assert_eq!(s.table.data()[5..7], [3.0, 4.0]);
    s.paste(INPUT, 1, "1\t1").unwrap();
    assert_eq!(s.ids.data(), [0, 1, 1]);
    assert!(s.paste(INPUT, 2, "1 1").is_err());
}

#[test]
fn bad_ids_are_pinned_and_the_last_good_outputs_stay() {
    let mut s = State::default();
    let good = s.compute().pass.unwrap().linear;
    s.edit(INPUT, 1, "7").unwrap();
    s.edit(INPUT, 2, "-1").unwrap();
    let c = s.compute();
    let errors: Vec<(Option<usize>, String)> = c.issues.iter().map(|i| (i.cell, i.error.to_string())).collect();
    assert_eq!(
        errors,
        [
            (Some(1), "IndexError: index out of range in self".into()),
            (Some(1), "RuntimeError: Class values must be smaller than num_classes.".into()),
            (Some(2), "IndexError: index out of range in self".into()),
            (Some(2), "RuntimeError: Class values must be non-negative.".into()),
        ]
    );
    assert!(c.issues.iter().all(|i| i.tensor == INPUT));
    assert!(c.issues[0].hint.contains("rows 0 … 3"));
    let p = c.pass.unwrap();
    assert!(p.stale);
    assert_eq!(p.linear, good);
    assert_eq!(p.ids.data(), [2, 3, 1]);
    assert_eq!(
        crate::say::write(&p.stale_note().unwrap()),
        "The outputs are still those of the last valid input [2, 3, 1]; fix the marked id to update them."
    );
    // Fixing the ids brings the outputs back up to date.
    s.edit(INPUT, 1, "0").unwrap();
    s.edit(INPUT, 2, "0").unwrap();
    let p = s.compute().pass.unwrap();
    assert!(!p.stale && p.stale_note().is_none());
    assert_eq!(p.ids.data(), [2, 0, 0]);
}

#[test]
fn linked_resizes_keep_the_numbers_and_draw_new_ones_from_the_seed() {
    let mut s = State::default();
    let old = s.table.clone();
    s.set_vocab("10").unwrap();
    assert_eq!(s.table.shape(), [10, 5]);
    assert_eq!(s.table.data()[..20], old.data()[..]);
    let fresh = Generator::manual_seed(123).unwrap().embedding(10, 5, None).unwrap();
    assert_eq!(s.table.data()[20..], fresh.data()[20..]);
    let c = s.compute();
    let p = c.pass.as_ref().unwrap();
    assert_eq!((&p.one_hot.shape()[..], p.linear.shape()), (&[3, 10][..], &[3, 5][..]));
    assert_eq!(c.tensor(LINEAR_WEIGHT).unwrap().shape(), [5, 10]);
    assert_eq!(p.cost.one_hot_multiply_adds, 3 * 10 * 5);

    s.set_dim("3").unwrap();
    assert_eq!(s.table.get(&[3, 2]), old.get(&[3, 2]));
    assert_eq!(s.compute().pass.unwrap().lookup.shape(), [3, 3]);

    s.resize_ids(0, "5").unwrap();
    assert_eq!(s.ids.data(), [2, 3, 1, 0, 0]);
    assert_eq!(s.compute().pass.unwrap().linear.shape(), [5, 3]);

    // Shrinking V below an id: PyTorch's errors on that id, and no outputs to keep.
    s.set_vocab("2").unwrap();
    let c = s.compute();
    assert_eq!(c.issues.iter().filter_map(|i| i.cell).collect::<Vec<_>>(), [0, 0, 1, 1]);
    assert!(c.pass.is_none());

    assert!(s.set_vocab("0").is_err());
    assert!(s.set_dim("301").is_err());
    assert_eq!(s.resize_ids(0, "1025").unwrap_err(), "choose a size from 1 to 1024");
    assert!(s.resize_ids(3, "2").is_err());
}

#[test]
fn reinit_draws_pytorchs_table() {
    let mut s = State::preset("vocab10_dim3_batch").unwrap();
    s.reinit("123").unwrap();
    let want = Generator::manual_seed(123).unwrap().embedding(10, 3, None).unwrap();
    assert_eq!(s.table, want);
    assert_eq!(s.seed, "123");
    assert_eq!(s.reinit("1.5"), Err("ValueError: invalid literal for int() with base 10: '1.5'".into()));
    assert_eq!(s.reinit("18446744073709551616"), Err("RuntimeError: Overflow when unpacking long".into()));
    assert_eq!(s.table, want);
}

#[test]
fn one_timeline_plays_both_ways_id_by_id() {
    let c = State::default().compute();
    let p = c.pass.as_ref().unwrap();
    let t = &p.trace;
    assert_eq!(t.len(), 3 * (2 + 5));
    let w = |i: usize| t.steps[i].writes[0].to_string();
    assert_eq!(
        [w(0), w(1), w(2), w(6), w(7)],
        ["emb(input)[0]", "one_hot[0]", "linear(one_hot)[0, 0]", "linear(one_hot)[0, 4]", "emb(input)[1]"]
    );
    // The lookup of id 3 reads input[1] and row 3 of the table.
    let m = t.marks_at(8);
    assert_eq!(m.of(TABLE, &[3, 4]), Some(Mark::Read));
    assert_eq!(m.of(INPUT, &[1]), Some(Mark::Read));
    assert_eq!(m.of(LOOKUP, &[1, 0]), Some(Mark::Write));
    assert_eq!(m.of(LINEAR, &[0, 4]), Some(Mark::Done));
    assert_eq!(m.of(TABLE, &[2, 0]), None);
    // linear(one_hot)[1, 2] reads one_hot[1] and linear.weight[2].
    let m = t.marks_at(12);
    assert_eq!(m.of(ONE_HOT, &[1, 0]), Some(Mark::Read));
    assert_eq!(m.of(LINEAR_WEIGHT, &[2, 3]), Some(Mark::Read));
    assert_eq!(m.of(LINEAR, &[1, 2]), Some(Mark::Write));
    assert!(
        said(&p.describe(12)).starts_with("linear(one_hot)[1, 2]: 4 products with row 2 of linear.weight, 3 of them")
    );
    assert!(said(&p.describe(12)).ends_with("linear.weight[2, 3] = -1.4096."));
    assert!(said(&p.describe(8)).starts_with("emb(input)[1] = emb.weight[3]: input[1] = 3 picks row 3"));
    assert!(said(&p.describe(9)).contains("a 1 in column 3"));
    assert!(said(&p.describe(0)).starts_with("Step through it"));

    let b = State::preset("vocab10_dim3_batch").unwrap().compute();
    let t = &b.pass.as_ref().unwrap().trace;
    assert_eq!(t.len(), 6 * (2 + 3));
    assert_eq!(t.steps[5].writes[0].to_string(), "emb(input)[0, 1]");
    assert_eq!(t.steps[29].writes[0].to_string(), "linear(one_hot)[1, 2, 2]");
}

#[test]
fn zero_products_are_dimmed_and_counted() {
    let p = State::default().compute().pass.unwrap();
    // Step 12 is linear(one_hot)[1, 2]: id 3, so column 3 is the one product that counts.
    assert!(p.zero_product(12, LINEAR_WEIGHT, &[2, 0]));
    assert!(p.zero_product(12, ONE_HOT, &[1, 1]));
    assert!(!p.zero_product(12, LINEAR_WEIGHT, &[2, 3]));
    assert!(!p.zero_product(12, ONE_HOT, &[1, 3]));
    assert!(!p.zero_product(12, LINEAR_WEIGHT, &[1, 0]), "not read in this step");
    assert!(!p.zero_product(8, TABLE, &[3, 0]), "a lookup multiplies nothing");
    assert_eq!(p.work_at(0), Work::default());
    assert_eq!(p.work_at(12), Work { copies: 10, multiply_adds: 4 * 8, zero_products: 3 * 8 });
    let all = p.work_at(p.trace.len());
    assert_eq!(
        (all.copies, all.multiply_adds, all.zero_products),
        (p.cost.lookup_copies, p.cost.one_hot_multiply_adds, p.cost.zero_products)
    );
    assert_eq!(
        crate::say::write(&p.cost_caption()),
        "The lookup copies 15 numbers. The one-hot way does 60 multiply-adds, 45 of them by 0: 4× the work for the \
         same result."
    );
}

#[test]
fn large_linears_play_one_step_per_row() {
    let mut s = State::default();
    s.set_dim("256").unwrap();
    s.resize_ids(0, "20").unwrap(); // 20 × 256 output cells > MAX_STEPS
    let p = s.compute().pass.unwrap();
    assert!(p.trace.summarised);
    assert_eq!(p.trace.len(), 20 * 3);
    assert_eq!(p.trace.steps[2].writes[0].to_string(), "linear(one_hot)[0]");
    assert_eq!(p.work_at(3), Work { copies: 256, multiply_adds: 4 * 256, zero_products: 3 * 256 });
    assert!(said(&p.describe(3)).contains("1,024 multiply-adds, 768 of them by 0"));
    assert!(p.zero_product(3, LINEAR_WEIGHT, &[100, 1]));
    assert!(!p.zero_product(3, LINEAR_WEIGHT, &[100, 2]));
    // Backward too: one Linear step per row of linear(one_hot).grad, each writing all of
    // linear.weight.grad.
    let b = s.compute().backward.unwrap();
    assert_eq!(b.trace.len(), 1 + 20 * 2);
    assert_eq!(b.trace.steps[1].writes[0].to_string(), "linear.weight.grad");
    assert!(said(&b.describe(2)).contains("all 1,024 numbers written"), "{}", said(&b.describe(2)));
}

#[test]
fn backward_formulas_add_the_same_gradients_both_ways() {
    // ids [[2, 4], [4, 4]] … whatever the preset holds: row r of emb.weight.grad adds the
    // gradients of the ids equal to r; linear.weight.grad[j, r] multiplies every id's by its
    // one-hot 0 or 1, and comes to the same number.
    let c = State::preset("vocab10_dim3_batch").unwrap().compute();
    let b = c.backward.as_ref().unwrap();
    let ids = c.pass.as_ref().unwrap().ids.clone();
    let r = usize::try_from(ids.data()[0]).unwrap();
    let repeats = ids.data().iter().filter(|&&i| i == r as i64).count();
    let lookup = c.formula(TABLE_GRAD, &[r, 1]).unwrap();
    assert_eq!(lookup.target, format!("emb.weight.grad[{r}, 1]"));
    assert_eq!(lookup.constants.len(), repeats);
    assert!(lookup.products.is_empty());
    let sum: f32 = lookup.constants.iter().map(|f| f.value).sum();
    assert_eq!(sum, lookup.value);
    assert_eq!(lookup.value, b.emb_grad.get(&[r, 1]).unwrap());
    let linear = c.formula(LINEAR_WEIGHT_GRAD, &[1, r]).unwrap();
    assert_eq!(linear.products.len(), ids.numel(), "one product per id");
    assert_eq!(linear.products.iter().filter(|(_, x)| x.value == 1.0).count(), repeats);
    assert!(linear.products[0].1.name.starts_with("one_hot["));
    assert_eq!(linear.value, lookup.value);
    assert!(c.formula(TABLE_GRAD, &[99, 0]).is_none());
    // The step's cell: before any, the first id's row; a Linear step, its row j at the id.
    assert_eq!(b.grad_cell(0), Some([r, 0]));
    let j = b.trace.steps[1].writes[0].index[0].unwrap();
    assert_eq!(b.grad_cell(2), Some([r, j]));
}

#[test]
fn formulas_show_every_product_and_the_copy() {
    let c = State::default().compute();
    let f = c.formula(LINEAR, &[0, 1]).unwrap();
    assert_eq!(f.target, "linear(one_hot)[0, 1]");
    assert_eq!(f.products.len(), 4);
    assert_eq!(f.products[2].0, Factor::new("one_hot[0, 2]", 1.0));
    assert_eq!(f.products[2].1.name, "linear.weight[1, 2]");
    assert_eq!(f.products.iter().filter(|(x, _)| x.value == 0.0).count(), 3);
    assert_eq!(crate::format::short(f.value), "-1.8061");
    let g = c.formula(LOOKUP, &[0, 1]).unwrap();
    assert_eq!(g.constants, [Factor::new("emb.weight[2, 1]", f.value)]);
    assert!(g.products.is_empty());
    assert!(c.formula(LOOKUP, &[3, 0]).is_none());
    assert!(c.formula(ONE_HOT, &[0, 0]).is_none());
    let b = State::preset("vocab10_dim3_batch").unwrap().compute();
    assert_eq!(b.formula(LINEAR, &[1, 2, 0]).unwrap().products[1].0.value, 1.0);
}

#[test]
fn torch_equal_fails_where_zero_meets_inf_or_nan() {
    let mut s = State::default();
    s.edit(TABLE, 0, "inf").unwrap(); // emb.weight[0, 0], a row no id selects
    let p = s.compute().pass.unwrap();
    assert_eq!(p.mismatch, Some(0));
    let (code, why) = p.verdict();
    let write = crate::say::write;
    assert_eq!(code, "torch.equal(emb(input), linear(one_hot)) → False");
    let nan = "linear(one_hot)[0, 0] is nan: its sum multiplies an inf or nan of linear.weight[0] by 0, and 0 × inf = \
               nan. The lookup never reads that number.";
    assert_eq!(write(&why), nan);
    // The notebook's line: the code, then why.
    assert_eq!(write(&p.verdict_line()), format!("{code}: {nan}"));
    s.edit(TABLE, 0, "0").unwrap();
    s.edit(TABLE, 10, "nan").unwrap(); // emb.weight[2, 0], looked up by input[0]
    let (_, why) = s.compute().pass.unwrap().verdict();
    assert_eq!(write(&why), "emb(input)[0, 0] is nan both ways, and nan never equals nan.");
    s.edit(TABLE, 10, "-0").unwrap();
    let (code, why) = s.compute().pass.unwrap().verdict();
    assert!(code.ends_with("True"));
    assert_eq!(
        write(&why),
        "Each number of linear(one_hot) is one 1 × w plus zeros, so it is w itself, to the last bit. Only the sign of \
         a zero can differ: the sum 0 + (−0) is +0, and −0 == 0."
    );
}

#[test]
fn damaged_saved_states_are_reported_not_panicked_on() {
    // Tensors that read fine but can't be this scene's: a 1-D table, an empty one, no ids.
    for table in [Tensor::vector(vec![0.5; 20]), Tensor::zeros(vec![0, 5]).unwrap()] {
        let mut s = State { table, ..State::default() };
        let c = s.compute();
        assert!(c.ways.is_none() && c.pass.is_none());
        assert_eq!(c.issues[0].tensor, TABLE);
        assert!(c.issues[0].hint.contains("pick a preset"));
        // Every setter still answers without panicking.
        let _ = (s.set_dim("3"), s.set_vocab("4"), s.resize_ids(0, "2"), s.reinit("1"), s.edit(TABLE, 0, "1"));
        s.compute();
    }
    let s = State { ids: serde_json::from_str(r#"{"shape":[0],"data":[]}"#).unwrap(), ..State::default() };
    assert_eq!(s.compute().issues[0].tensor, INPUT);
    let many = State { ids: Ids::vector(vec![0; MAX_IDS + 1]), ..State::default() };
    assert_eq!(many.compute().issues[0].tensor, INPUT);
    let json = crate::scene::to_json(&State::default());
    assert_eq!(crate::scene::from_json::<State>(&json), Ok(State::default()));
}

/// A cell text or a size: small ids and sizes, some out of range, some not numbers at all.
fn text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop_oneof![(-3i64..60).prop_map(|n| n.to_string()), "[a-z.+-]{0,4}", Just("inf".to_string())]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever a learner does, nothing panics, every view query answers, and a finite table
    /// gives torch.equal → True.
    #[test]
    fn any_edits_keep_the_scene_whole(ops in proptest::collection::vec((0u8..10, 0usize..70, text()), 0..12)) {
        let mut s = State::default();
        for (op, i, text) in ops {
            let _ = match op {
                0 => s.edit(TABLE, i, &text),
                1 => s.edit(INPUT, i % 8, &text),
                2 => s.set_vocab(&text),
                3 => s.set_dim(&text),
                4 => s.resize_ids(i % 2, &text),
                5 => s.paste(INPUT, i % 4, &text),
                6 => s.apply(&Edit::Loss { mse: i % 2 == 0 }),
                7 => s.edit(TARGET, i, &text),
                // As on screen: the scene computed (its table's transpose made) before a step.
                8 => {
                    s.compute();
                    s.apply(&Edit::Step)
                }
                _ => s.undo(),
            };
        }
        let c = s.compute();
        // linear.weight is emb.weight.T however the table came to be: a step writes the
        // numbers it moved into the transpose kept with the table.
        if let Some(w) = c.tensor(LINEAR_WEIGHT) {
            proptest::prop_assert_eq!(w, &transposed(&s.table));
        }
        // A step takes the gradient on show, and is refused exactly when there is none for
        // the ids typed.
        let for_input = c.backward.as_ref().filter(|_| c.issues.iter().all(|i| i.tensor != INPUT));
        match (s.grads(), for_input) {
            (Ok((loss, g)), Some(b)) => proptest::prop_assert!(loss.to_bits() == b.loss.to_bits() && g[0].1 == b.emb_grad),
            (Err(_), None) => {}
            (got, _) => proptest::prop_assert!(false, "the step's gradient {:?} is not the one on show", got.map(|g| g.0)),
        }
        let Some(p) = &c.pass else { return Ok(()) };
        for playhead in 0..=p.trace.len() + 1 {
            said(&p.describe(playhead));
            p.work_at(playhead);
            p.zero_product(playhead, LINEAR_WEIGHT, &[0, 0]);
        }
        for index in (0..p.linear.numel()).map(|k| unravel(k, p.linear.shape())) {
            proptest::prop_assert!(c.formula(LINEAR, &index).is_some() && c.formula(LOOKUP, &index).is_some());
        }
        let finite = s.table.data().iter().all(|x| x.is_finite());
        proptest::prop_assert!(!finite || p.mismatch.is_none());
        proptest::prop_assert_eq!(p.work_at(p.trace.len()).multiply_adds, p.cost.one_hot_multiply_adds);
        if let Some(b) = &c.backward {
            for playhead in 0..=b.trace.len() + 1 {
                said(&b.describe(playhead));
                b.zero_product(playhead, LINEAR_WEIGHT_GRAD, &[0, 0]);
            }
            b.count_captions();
            let same = b.emb_grad.t().unwrap() == b.linear_grad;
            proptest::prop_assert!(same || !b.upstream.data().iter().all(|x| x.is_finite()));
        }
    }
}
