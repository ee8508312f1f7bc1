//! `torch.manual_seed` with any Python int and module init at every size from 0 to the scenes'
//! limits; and every text a learner can type, read by the parsers and written into cells by the
//! shared edit helpers. Each gives a value or a reason, never a panic.

use crate::common::gen::{float, id, ids, said, shape, tensor, text};
use crate::{bits, finite, CASES};
use proptest::prelude::*;
use rowflow_core::edit::{parse_block, parse_float, parse_id, parse_int};
use rowflow_core::format::{full, short};
use rowflow_core::ops::rnn::{Nonlinearity, RnnConfig};
use rowflow_core::scene::{parse_size, paste, resize, set_cell, set_float, MAX_NUMEL};
use rowflow_core::torch_rng::Generator;
use rowflow_core::Tensor;

/// Python ints around and past int64 and uint64, which `manual_seed` accepts up to `2^64 - 1`.
fn seed() -> impl Strategy<Value = i128> {
    let edges = vec![i128::MIN, i128::MAX, i64::MIN as i128 - 1, i64::MIN as i128, u64::MAX as i128, 1 << 64, -1, 0];
    prop_oneof![
        3 => any::<i64>().prop_map(i128::from),
        1 => any::<u64>().prop_map(i128::from),
        1 => any::<i128>(),
        1 => prop::sample::select(edges),
    ]
}

/// Table sides from 0 up to the scenes' limits, at most `embedding::MAX_TABLE` numbers.
fn sizes() -> impl Strategy<Value = (usize, usize)> {
    let side = || prop_oneof![4 => 0usize..5, 1 => prop::sample::select(vec![16usize, 17, 50, 64, 512, 1000, 10_000])];
    (side(), side()).prop_filter("at most MAX_TABLE numbers", |(a, b)| a * b <= 100_000)
}

/// An RNN config within the RNN scene's limits (sizes 0 included: init does not check them).
fn rnn_config() -> impl Strategy<Value = RnnConfig> {
    (0usize..=16, 0usize..=16, 0usize..=3, any::<[bool; 3]>()).prop_map(|(i, h, l, [bias, bi, relu])| RnnConfig {
        num_layers: l,
        bias,
        bidirectional: bi,
        nonlinearity: if relu { Nonlinearity::Relu } else { Nonlinearity::Tanh },
        ..RnnConfig::new(i, h)
    })
}

/// A flat cell index: on the tensor, past it, and at the ends of `usize`.
fn index() -> impl Strategy<Value = usize> {
    prop_oneof![6 => 0usize..40, 1 => prop::sample::select(vec![usize::MAX, usize::MAX / 2, isize::MAX as usize])]
}

/// `|x| ≤ bound` for every value (the init bounds of `uniform_`), give or take the rounding of
/// the bound to float32.
fn within(t: &Tensor, bound: f64) -> bool {
    t.data().iter().all(|&x| (x as f64).abs() <= bound * (1.0 + 1e-6))
}

proptest! {
    #![proptest_config(crate::common::gen::config(CASES, file!()))]

    #[test]
    fn any_seed_inits_any_size(
        seed in seed(), (v, d) in sizes(), pad in prop::option::of(id()), bias in any::<bool>(),
        config in rnn_config(), shape in shape(0..=3),
    ) {
        let g = Generator::manual_seed(seed);
        said(&g)?;
        prop_assert_eq!(g.is_ok(), (i64::MIN as i128..=u64::MAX as i128).contains(&seed));
        let Ok(mut g) = g else { return Ok(()) };
        prop_assert_eq!(g.initial_seed(), seed as u64);
        let mut again = g.clone();
        let emb = g.embedding(v, d, pad);
        said(&emb)?;
        prop_assert_eq!(emb.is_ok(), pad.is_none_or(|p| (-(v as i64)..v as i64).contains(&p)));
        prop_assert_eq!(&emb, &again.embedding(v, d, pad), "the same seed draws the same table");
        if let Ok(t) = &emb {
            prop_assert_eq!(t.shape(), &[v, d][..]);
            prop_assert!(finite(t));
            if let Some(p) = pad {
                let row = (if p < 0 { p + v as i64 } else { p }) as usize;
                prop_assert!(t.data()[row * d..][..d].iter().all(|&x| x == 0.0), "the padding row is zeroed");
            }
        }
        let (w, b) = g.linear(d, v, bias);
        let bound = if d == 0 { 0.0 } else { 1.0 / (d as f64).sqrt() };
        prop_assert_eq!(w.shape(), &[v, d][..]);
        prop_assert!(within(&w, bound) && b.as_ref().is_none_or(|b| b.shape() == [v] && within(b, bound)));
        let params = g.rnn(&config);
        let want = config.param_shapes();
        prop_assert_eq!(params.len(), want.len());
        let stdv = if config.hidden_size == 0 { 0.0 } else { 1.0 / (config.hidden_size as f64).sqrt() };
        for ((name, t), (n, s)) in params.iter().zip(&want) {
            prop_assert!(name == n && t.shape() == &s[..] && within(t, stdv), "{} {:?}", name, t.shape());
        }
        let (normal, uniform) = (g.randn(&shape), g.rand(&shape));
        prop_assert!(normal.shape() == &shape[..] && finite(&normal));
        prop_assert!(uniform.shape() == &shape[..] && uniform.data().iter().all(|x| (0.0..1.0).contains(x)));
    }

    #[test]
    fn a_seed_is_read_or_refused(text in text(&[])) {
        let seed = Generator::parse_seed(&text);
        said(&seed)?;
        if let Ok(seed) = seed {
            prop_assert_eq!(text.trim().parse::<i128>().ok(), Some(seed));
            prop_assert!(Generator::manual_seed(seed).is_ok());
        }
    }

    #[test]
    fn cell_text_is_read_or_refused(text in text(&[64, 1000]), x in float(), n in any::<i64>(), max in 0usize..100) {
        let (f, i, block, size) = (parse_float(&text), parse_int(&text), parse_block(&text), parse_size(&text, max));
        said(&f)?;
        said(&i)?;
        said(&block)?;
        said(&size)?;
        if let Ok(rows) = block {
            prop_assert!(!rows.is_empty() && rows.iter().all(|r| !r.is_empty()));
        }
        prop_assert!(size.is_err() || (1..=max).contains(&size.clone().unwrap()));
        // What the app shows a learner reads back to the same float.
        let _ = short(x);
        if !x.is_nan() {
            prop_assert_eq!(parse_float(&full(x)).map(f32::to_bits), Ok(x.to_bits()));
        }
        prop_assert_eq!(parse_int(&n.to_string()), Ok(n));
    }

    #[test]
    fn cell_helpers_change_all_or_nothing(
        text in text(&[64, 1000]), t in tensor(0..=3), ids in ids(0..=3), at in index(), dim in 0usize..4,
        n in prop_oneof![4 => 0usize..6, 1 => prop::sample::select(vec![MAX_NUMEL, MAX_NUMEL + 1, usize::MAX])],
    ) {
        let mut cell = t.clone();
        let typed = set_float(&mut cell, at, &text);
        said(&typed)?;
        let mut want = bits(t.data());
        if typed.is_ok() {
            want[at] = parse_float(&text).unwrap().to_bits();
        }
        prop_assert_eq!(bits(cell.data()), want, "a cell edit changed more than its cell");
        let mut block = t.clone();
        let pasted = paste(&mut block, at, &text, parse_float);
        said(&pasted)?;
        prop_assert_eq!(block.shape(), t.shape());
        prop_assert!(pasted.is_ok() || bits(block.data()) == bits(t.data()), "a refused paste changed the tensor");
        let mut id_cell = ids.clone();
        let typed = set_cell(&mut id_cell, at, &text, |t| parse_id(t, at));
        said(&typed)?;
        prop_assert!(typed.is_ok() || id_cell == ids);
        let mut id_block = ids.clone();
        let pasted = paste(&mut id_block, at, &text, |t| parse_id(t, at));
        said(&pasted)?;
        prop_assert!(pasted.is_ok() || id_block == ids);
        let resized = resize(&t, dim, n, 0.0);
        said(&resized)?;
        if let Ok(r) = resized {
            let mut shape = t.shape().to_vec();
            shape[dim] = n;
            prop_assert!(r.shape() == &shape[..] && r.numel() <= MAX_NUMEL);
        }
    }
}
