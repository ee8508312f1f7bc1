//! The sizes the scene takes: V, D and ids as far as the lab's tensors go.

use super::*;

#[test]
fn d_goes_to_300_where_the_table_fits() {
    let mut s = State::default();
    s.set_vocab("10000").unwrap();
    assert_eq!(*s.dim_choices(s.sizes()).last().unwrap(), 300);
    // 20,000 × 256 is more than the lab holds: D stops at 128 there.
    assert_eq!(*s.dim_choices((20_000, 5)).last().unwrap(), 128);
    let kept = s.table.clone();
    s.set_dim("300").unwrap();
    assert_eq!(s.table.shape(), [10_000, 300]);
    // The columns kept keep their numbers; the new ones are `torch.manual_seed(123);
    // nn.Embedding(10000, 300)`'s.
    let drawn = Draw { seed: "123".into(), v: 10_000, d: 300 }.run().unwrap();
    for (r, (row, new)) in s.table.data().chunks(300).zip(drawn.data().chunks(300)).enumerate() {
        assert_eq!(row[..5], kept.data()[r * 5..r * 5 + 5]);
        assert!(row[5..].iter().zip(&new[5..]).all(|(a, b)| a.to_bits() == b.to_bits()), "row {r}");
    }
    let c = s.compute();
    let pass = c.pass.unwrap();
    assert_eq!(pass.lookup.shape(), [3, 300]);
    assert!(pass.lookup.data().iter().zip(pass.linear.data()).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!(s.set_dim("301").unwrap_err(), "choose a size from 1 to 300");
}

#[test]
fn up_to_1024_ids_where_their_one_hot_fits() {
    let mut s = State::default();
    s.resize_ids(0, "1024").unwrap();
    s.set_vocab("4096").unwrap();
    s.set_dim("16").unwrap();
    // 1,024 × 4,096 × 16 multiply-adds a pass: the most allowed.
    assert!(s.set_dim("17").unwrap_err().contains("too many multiply-adds"));
    let c = s.compute();
    let pass = c.pass.as_ref().unwrap();
    assert_eq!((pass.one_hot.shape(), pass.lookup.shape()), (vec![1024, 4096], &[1024, 16][..]));
    assert!(pass.lookup.data().iter().zip(pass.linear.data()).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!((pass.cost.lookup_copies, pass.cost.one_hot_multiply_adds), (1024 * 16, 1024 * 4096 * 16));
    // New ids are 0: one_hot's rows past the first three have their 1 in column 0.
    assert_eq!((pass.one_hot.get(&[1023, 0]), pass.one_hot.get(&[1023, 1])), (Some(1), Some(0)));
    // At V = 50,000 their one_hot would be 51 million numbers.
    assert!(s.set_vocab("50000").unwrap_err().contains("one_hot would hold 1024 × 50000 numbers"));
    assert_eq!(*s.vocab_choices(s.sizes()).last().unwrap(), 4096);
}

#[test]
fn sizes_stay_within_what_the_browser_holds() {
    let mut s = State::default();
    s.set_vocab("50000").unwrap();
    assert!(s.set_dim("256").unwrap_err().contains("at most"));
    assert_eq!(s.table.shape(), [50_000, 5]);
    assert_eq!(*s.dim_choices(s.sizes()).last().unwrap(), 64);
    assert_eq!(*s.vocab_choices(s.sizes()).last().unwrap(), 50_000);
    // While V = 50,000 is still being drawn for a (4, 5) table, D goes as far as it allows.
    assert_eq!(*State::default().dim_choices((50_000, 5)).last().unwrap(), 64);
    let c = s.compute();
    // At real scale the sum lists its one hot product and counts the 49,999 by zero.
    let f = c.formula(LINEAR, &[0, 1]).unwrap();
    assert_eq!((f.products.len(), f.zeros), (1, 49_999));
    assert_eq!(f.products[0].0, Factor::new("one_hot[0, 2]", 1.0));
    assert_eq!(f.products[0].1.value, f.value);
    let p = c.pass.unwrap();
    assert_eq!(p.cost.zero_products, 3 * 49_999 * 5);
    let cost = crate::say::write(&p.cost_caption());
    assert!(cost.contains("does 750,000 multiply-adds, 749,985 of them by 0: 50,000× the work"), "{cost}");
    assert_eq!([grouped(0), grouped(999), grouped(1000), grouped(1_234_567)], ["0", "999", "1,000", "1,234,567"]);
    s.set_vocab("16").unwrap();
    assert_eq!(s.vocab_choices(s.sizes())[..3], [4, 10, 16]);
}
