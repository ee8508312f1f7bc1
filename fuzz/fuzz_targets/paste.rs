//! A pasted block (`edit::parse_block`) and `scene::paste` into float and id tensors of a few
//! shapes at any index, also `set_float` / `set_cell`: never a panic; on `Ok` exactly the
//! block's cells changed, each to what its text parses to; on `Err` the tensor is unchanged bit
//! for bit (all or nothing).
//!
//! Input: one byte picks the shape, eight the index (little-endian; the extremes are kept so
//! index arithmetic is tried at `usize::MAX`), the rest is the pasted text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowflow_core::edit::{parse_block, parse_float, parse_int};
use rowflow_core::scene::{paste, set_float, set_cell};
use rowflow_core::tensor::Tensor;

/// Shapes the scenes hold: 0-d, vectors, matrices, 3-D, and empty ones.
const SHAPES: &[&[usize]] = &[&[], &[1], &[5], &[3, 3], &[4, 1], &[2, 3, 4], &[0, 3], &[4, 0], &[1, 7], &[6, 2]];

fuzz_target!(|data: &[u8]| {
    let [pick, i0, i1, i2, i3, i4, i5, i6, i7, rest @ ..] = data else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let shape = SHAPES[*pick as usize % SHAPES.len()].to_vec();
    let raw = usize::from_le_bytes(u64::from_le_bytes([*i0, *i1, *i2, *i3, *i4, *i5, *i6, *i7]).to_ne_bytes());
    let block = parse_block(text);
    if let Ok(rows) = &block {
        assert!(!rows.is_empty() && rows.iter().all(|r| !r.is_empty()), "{text:?} → {rows:?}");
        assert!(rows.iter().flatten().all(|c| !c.is_empty() && !c.contains(',')), "{text:?} → {rows:?}");
    }
    // Small indices mostly (inside the tensor), the raw value when its top bit says so.
    let index = if raw >> 63 == 1 { raw } else { raw % 64 };
    let n: usize = shape.iter().product();
    // Distinct bits in every cell, so a stray write shows; NaN payloads too.
    let floats = Tensor::new(shape.clone(), (0..n).map(|k| f32::from_bits(0x7fc0_0001 + k as u32)).collect()).unwrap();
    let ids = Tensor::new(shape, (0..n).map(|k| -7_000_000_000 - k as i64).collect()).unwrap();
    check(&floats, index, text, &block, parse_float, f32::to_bits);
    check(&ids, index, text, &block, parse_int, |x: i64| x);
    let mut f = floats.clone();
    match (set_float(&mut f, index, text), parse_float(text)) {
        (Ok(()), Ok(v)) if index < n => assert_eq!(f.data()[index].to_bits(), v.to_bits()),
        (Err(_), v) if index >= n || v.is_err() => assert_eq!(bits(&f, f32::to_bits), bits(&floats, f32::to_bits)),
        (set, v) => panic!("set_float({text:?}) at {index} of {n}: {set:?}, parse_float {v:?}"),
    }
    let mut d = ids.clone();
    match (set_cell(&mut d, index, text, parse_int), parse_int(text)) {
        (Ok(()), Ok(v)) if index < n => assert_eq!(d.data()[index], v),
        (Err(_), v) if index >= n || v.is_err() => assert_eq!(d, ids),
        (set, v) => panic!("set_cell({text:?}) at {index} of {n}: {set:?}, parse_int {v:?}"),
    }
});

fn bits<T: Copy, B>(t: &Tensor<T>, key: impl Fn(T) -> B) -> Vec<B> {
    t.data().iter().map(|&x| key(x)).collect()
}

/// `paste` against its specification: the block, placed at `index` in rows of the last
/// dimension, must fit and every cell must parse, and then only those cells change.
fn check<T: Copy + std::fmt::Debug, B: PartialEq + std::fmt::Debug>(
    before: &Tensor<T>,
    index: usize,
    text: &str,
    block: &Result<Vec<Vec<String>>, String>,
    parse: fn(&str) -> Result<T, String>,
    key: impl Fn(T) -> B + Copy,
) {
    let mut t = before.clone();
    let result = paste(&mut t, index, text, parse);
    assert_eq!(t.shape(), before.shape());
    let Ok(rows) = block else {
        assert_eq!(result, Err(block.clone().unwrap_err()));
        assert_eq!(bits(&t, key), bits(before, key), "{text:?}: refused but changed");
        return;
    };
    let cols = before.last_dim().max(1);
    let (r0, c0) = (index / cols, index % cols);
    let height = before.numel() / cols;
    let fits = rows.len() <= height.saturating_sub(r0) && rows.iter().all(|r| r.len() <= cols - c0);
    let parsed: Option<Vec<Vec<T>>> =
        rows.iter().map(|r| r.iter().map(|c| parse(c).ok()).collect::<Option<Vec<T>>>()).collect();
    match (result, parsed) {
        (Ok(()), Some(values)) if fits => {
            let mut want = bits(before, key);
            for (i, row) in values.iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    want[(r0 + i) * cols + c0 + j] = key(v);
                }
            }
            assert_eq!(bits(&t, key), want, "{text:?} at {index} in {:?}", before.shape());
        }
        (Err(e), parsed) => {
            assert!(!fits || parsed.is_none(), "{text:?} at {index} in {:?} refused: {e}", before.shape());
            assert_eq!(bits(&t, key), bits(before, key), "{text:?}: refused but changed");
        }
        (Ok(()), parsed) => {
            panic!("{text:?} at {index} in {:?} accepted: fits {fits}, cells {parsed:?}", before.shape())
        }
    }
}
