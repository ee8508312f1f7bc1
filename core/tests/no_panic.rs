//! No input makes an op panic. Every op's forward, backward and traces, the losses and SGD (and,
//! in the submodules, the RNN, seeded init, text parsing and reading a pasted error) return a
//! value or an error with a message, over random shapes (with 0, 1 and large sizes),
//! NaN/±inf/huge/denormal/-0.0 values, out-of-range and extreme ids and mismatched shapes. Where
//! PyTorch defines the result, its shape is checked too, and finite inputs small enough not to
//! overflow give finite results.
//!
//! The long run: `PROPTEST_CASES=10000 cargo test -p rowflow-core --release --test no_panic`.

mod common;
#[path = "no_panic/explain.rs"]
mod explain;
#[path = "no_panic/init_and_text.rs"]
mod init_and_text;
#[path = "no_panic/rnn.rs"]
mod rnn;

use common::gen::{dim, float, id, ids, like, said, shape, tame_float, tensor, tensor_of, torch_equal, Like};
use proptest::prelude::*;
use rowflow_core::ops::dot_product::DotProduct;
use rowflow_core::ops::embedding::Embedding;
use rowflow_core::ops::linear::Linear;
use rowflow_core::ops::loss::Loss;
use rowflow_core::ops::one_hot::{one_hot, OneHotLinear};
use rowflow_core::optim::sgd_step;
use rowflow_core::trace::MAX_STEPS;
use rowflow_core::{Ids, Tensor};

/// Cases per test in `cargo test`; `PROPTEST_CASES` overrides it.
pub const CASES: u32 = 256;

/// Finite and small enough that a sum of a few thousand products of such numbers stays finite.
pub fn tame(t: &Tensor) -> bool {
    t.data().iter().all(|x| x.is_finite() && x.abs() <= 1e6)
}

/// No NaN and no infinity.
pub fn finite(t: &Tensor) -> bool {
    t.data().iter().all(|x| x.is_finite())
}

/// Bit patterns, so NaN and -0.0 compare exactly.
pub fn bits(xs: &[f32]) -> Vec<u32> {
    xs.iter().map(|x| x.to_bits()).collect()
}

/// Hostile values, or tame ones (so that the finiteness checks get to run).
fn values(tame: bool) -> BoxedStrategy<f32> {
    if tame {
        tame_float().boxed()
    } else {
        float().boxed()
    }
}

/// Ids mostly in `0..n`, else anything `id()` gives.
fn ids_below(n: usize) -> BoxedStrategy<Ids> {
    let n = n as i64;
    let id = prop_oneof![3 => 0..n.max(1), 1 => id()];
    shape(0..=3)
        .prop_flat_map(move |s| {
            let len: usize = s.iter().product();
            prop::collection::vec(id.clone(), len).prop_map(move |d| Ids::new(s.clone(), d).unwrap())
        })
        .boxed()
}

/// A Linear's weight, bias and input that mostly fit together (`mess` picks what doesn't).
fn linear_case() -> impl Strategy<Value = (Tensor, Option<Tensor>, Tensor, Like)> {
    (dim(), dim(), shape(0..=2), any::<bool>(), 0u8..12).prop_flat_map(|(inf, outf, lead, tame, mess)| {
        let weight = if mess == 0 { tensor(0..=3) } else { tensor_of(vec![outf, inf], values(tame)) };
        let bias = match mess {
            1 => tensor(0..=2).prop_map(Some).boxed(),
            2..=4 => Just(None).boxed(),
            _ => tensor_of(vec![outf], values(tame)).prop_map(Some).boxed(),
        };
        let input = if mess == 5 { tensor(0..=4) } else { tensor_of([&lead[..], &[inf]].concat(), values(tame)) };
        (weight, bias, input, like())
    })
}

/// A table, a `padding_idx`, ids into it and the flags.
fn embedding_case() -> impl Strategy<Value = (Tensor, Option<i64>, Ids, [bool; 2], Like)> {
    (dim(), dim(), 0u8..8).prop_flat_map(|(v, d, mess)| {
        let weight = if mess == 0 { tensor(0..=3) } else { tensor_of(vec![v, d], float()) };
        let v = v as i64;
        let pad = prop::option::of(prop_oneof![(-v - 1)..=v, id()]);
        (weight, pad, ids_below(v as usize), any::<[bool; 2]>(), like())
    })
}

proptest! {
    #![proptest_config(common::gen::config(CASES, file!()))]

    #[test]
    fn linear_runs_or_refuses((weight, bias, input, up) in linear_case()) {
        let made = Linear::new(weight.clone(), bias.clone());
        said(&made)?;
        let fits = weight.dim() == 2 && bias.as_ref().is_none_or(|b| b.shape() == [weight.shape()[0]]);
        prop_assert_eq!(made.is_ok(), fits);
        let Ok(layer) = made else { return Ok(()) };
        let (inf, outf) = (layer.in_features(), layer.out_features());
        let runs = input.dim() >= 1 && input.last_dim() == inf;
        let (out, trace, back_trace) =
            (layer.forward(&input), layer.forward_trace(input.shape()), layer.backward_trace(input.shape()));
        said(&out)?;
        said(&trace)?;
        said(&back_trace)?;
        prop_assert_eq!((out.is_ok(), trace.is_ok(), back_trace.is_ok()), (runs, runs, runs));
        // (*, in) → (*, out)
        let lead = &input.shape()[..input.dim().saturating_sub(1)];
        let want = [lead, &[outf]].concat();
        let upstream = up.of(&want);
        let grads = layer.backward(&input, &upstream);
        said(&grads)?;
        prop_assert_eq!(grads.is_ok(), runs && upstream.shape() == want);
        let (Ok(out), Ok(trace), Ok(back_trace)) = (out, trace, back_trace) else { return Ok(()) };
        prop_assert_eq!(out.shape(), &want[..]);
        prop_assert!(trace.len() <= MAX_STEPS);
        if !trace.summarised {
            prop_assert_eq!(trace.len(), lead.iter().product::<usize>() * outf);
        }
        prop_assert_eq!(back_trace.len(), trace.len());
        let all_tame = tame(&weight) && tame(&input) && bias.as_ref().is_none_or(tame);
        prop_assert!(!all_tame || finite(&out), "tame inputs overflowed: {:?}", out);
        if let Ok(g) = grads {
            prop_assert_eq!(g.weight.shape(), weight.shape());
            prop_assert_eq!(g.bias.as_ref().map(Tensor::shape), bias.as_ref().map(Tensor::shape));
            prop_assert_eq!(g.input.shape(), input.shape());
            if all_tame && tame(&upstream) {
                prop_assert!(finite(&g.weight) && finite(&g.input) && g.bias.as_ref().is_none_or(finite));
            }
        }
    }

    #[test]
    fn embedding_looks_up_or_refuses((weight, pad, ids, [sparse, freeze], up) in embedding_case()) {
        let made = Embedding::new(weight.clone(), pad);
        said(&made)?;
        let v = weight.shape().first().copied().unwrap_or(0) as i64;
        prop_assert_eq!(made.is_ok(), weight.dim() == 2 && pad.is_none_or(|p| (-v..v).contains(&p)));
        let Ok(mut m) = made else { return Ok(()) };
        (m.sparse, m.freeze) = (sparse, freeze);
        let d = m.embedding_dim();
        let bad: Vec<usize> = (0..ids.numel()).filter(|&k| !(0..v).contains(&ids.data()[k])).collect();
        prop_assert_eq!(m.bad_ids(&ids), bad.clone());
        let runs = bad.is_empty();
        let (out, trace, back_trace) = (m.forward(&ids), m.forward_trace(&ids), m.backward_trace(&ids));
        said(&out)?;
        said(&trace)?;
        said(&back_trace)?;
        prop_assert_eq!((out.is_ok(), trace.is_ok(), back_trace.is_ok()), (runs, runs, runs));
        let want = [ids.shape(), &[d]].concat();
        let upstream = up.of(&want);
        let grads = m.backward(&ids, &upstream);
        said(&grads)?;
        prop_assert_eq!(grads.is_ok(), runs && upstream.shape() == want);
        let (Ok(out), Ok(trace), Ok(back_trace)) = (out, trace, back_trace) else { return Ok(()) };
        prop_assert_eq!(out.shape(), &want[..]);
        for (k, &id) in ids.data().iter().enumerate() {
            let row = &weight.data()[id as usize * d..][..d];
            prop_assert_eq!(bits(&out.data()[k * d..][..d]), bits(row), "output row {} is weight row {}", k, id);
        }
        prop_assert!(trace.len() <= MAX_STEPS && back_trace.len() <= MAX_STEPS);
        if ids.numel() <= MAX_STEPS {
            prop_assert_eq!(trace.len(), ids.numel());
        }
        prop_assert!(!freeze || back_trace.is_empty());
        let Ok(g) = grads else { return Ok(()) };
        if freeze {
            prop_assert!(g.weight.is_none() && g.sparse.is_none(), "from_pretrained(freeze=True) has no grad");
            return Ok(());
        }
        let dense = g.weight.expect("a dense grad");
        prop_assert_eq!(dense.shape(), weight.shape());
        if let Some(p) = m.padding_idx {
            prop_assert!(dense.data()[p * d..][..d].iter().all(|&x| x == 0.0), "the padding row got gradient");
        }
        prop_assert_eq!(g.sparse.is_some(), sparse);
        if let Some(s) = g.sparse {
            let sent = ids.data().iter().filter(|&&id| Some(id as usize) != m.padding_idx).count();
            prop_assert_eq!(s.indices.len(), sent);
            prop_assert_eq!(s.values.shape(), &[sent, d][..]);
            let rows = s.coalesced_rows();
            prop_assert!(rows.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn one_hot_encodes_or_refuses(
        ids in ids_below(6),
        classes in prop_oneof![4 => -3i64..9, 1 => prop::sample::select(vec![i64::MIN, i64::MAX, 1 << 58, 1 << 61])],
    ) {
        let oh = one_hot(&ids, classes);
        said(&oh)?;
        let negative = ids.data().iter().any(|&i| i < 0);
        prop_assert!(!negative || oh.is_err(), "negative ids are refused");
        let Ok(oh) = oh else { return Ok(()) };
        let c = oh.last_dim();
        prop_assert_eq!(oh.shape(), &[ids.shape(), &[c]].concat()[..]);
        prop_assert!(classes == -1 || c as i64 == classes);
        for (k, &id) in ids.data().iter().enumerate() {
            let row = &oh.data()[k * c..][..c];
            prop_assert!(row.iter().sum::<i64>() == 1 && row[id as usize] == 1, "row {} is not one-hot", k);
        }
    }

    #[test]
    fn one_hot_linear_equals_the_lookup_or_refuses(
        (weight, ids, up) in (dim(), dim(), any::<bool>()).prop_flat_map(|(d, v, mess)| {
            let w = if mess { tensor(0..=3) } else { tensor_of(vec![d, v], float()) };
            (w, ids_below(v), like())
        }),
    ) {
        let made = OneHotLinear::new(weight.clone());
        said(&made)?;
        prop_assert_eq!(made.is_ok(), weight.dim() == 2);
        let t = weight.t();
        said(&t)?;
        let Ok(m) = made else { return Ok(()) };
        let table = t.expect("a 2-D weight transposes");
        prop_assert_eq!(bits(table.t().unwrap().data()), bits(weight.data()));
        let v = m.num_classes() as i64;
        let runs = ids.data().iter().all(|id| (0..v).contains(id));
        let (out, enc, trace, back_trace) = (m.forward(&ids), m.encode(&ids), m.forward_trace(&ids), m.backward_trace(&ids));
        said(&out)?;
        said(&enc)?;
        said(&trace)?;
        said(&back_trace)?;
        prop_assert_eq!((out.is_ok(), enc.is_ok(), trace.is_ok(), back_trace.is_ok()), (runs, runs, runs, runs));
        let _ = m.cost(&ids);
        let want = [ids.shape(), &[m.linear.out_features()]].concat();
        let upstream = up.of(&want);
        let grads = m.backward(&ids, &upstream);
        said(&grads)?;
        prop_assert_eq!(grads.is_ok(), runs && upstream.shape() == want);
        let Ok(out) = out else { return Ok(()) };
        prop_assert_eq!(out.shape(), &want[..]);
        if finite(&weight) {
            // Each sum has one nonzero product, 1·w: exactly the lookup (torch.equal: -0.0 == 0.0).
            let lookup = Embedding::new(table, None).unwrap().forward(&ids).unwrap();
            prop_assert!(torch_equal(&out, &lookup), "{:?} vs {:?}", out, lookup);
        }
        if let Ok(g) = grads {
            prop_assert_eq!(g.shape(), weight.shape());
        }
    }

    #[test]
    fn dot_product_scores_or_refuses(
        (users, movies, x, up) in (dim(), dim(), dim(), 0u8..8).prop_flat_map(|(nu, nm, f, mess)| {
            let users = if mess == 0 { tensor(0..=3) } else { tensor_of(vec![nu, f], float()) };
            let movies = if mess == 1 { tensor(0..=3) } else { tensor_of(vec![nm, f], float()) };
            let pair = (0..=nu as i64, 0..=nm as i64).prop_map(|(u, m)| [u, m]);
            let pairs = prop::collection::vec(pair, 0..6).prop_map(|p| Ids::new(vec![p.len(), 2], p.concat()).unwrap());
            let x = if mess == 2 { ids(0..=3) } else { pairs.boxed() };
            (users, movies, x, like())
        }),
    ) {
        let made = DotProduct::new(users.clone(), movies.clone());
        said(&made)?;
        let fits = users.dim() == 2 && movies.dim() == 2 && users.shape()[1] == movies.shape()[1];
        prop_assert_eq!(made.is_ok(), fits);
        let Ok(m) = made else { return Ok(()) };
        let in_range = |col: usize, n: usize| x.data().chunks(x.last_dim().max(1)).all(|r| (0..n as i64).contains(&r[col]));
        let runs = x.dim() == 2 && x.shape()[1] >= 2 && in_range(0, users.shape()[0]) && in_range(1, movies.shape()[0]);
        let (out, trace, back_trace) = (m.forward(&x), m.forward_trace(&x), m.backward_trace(&x));
        said(&out)?;
        said(&trace)?;
        said(&back_trace)?;
        prop_assert_eq!((out.is_ok(), trace.is_ok(), back_trace.is_ok()), (runs, runs, runs));
        let b = x.shape().first().copied().unwrap_or(0);
        let upstream = up.of(&[b]);
        let grads = m.backward(&x, &upstream);
        said(&grads)?;
        prop_assert_eq!(grads.is_ok(), runs && upstream.shape() == [b]);
        let (Ok(out), Ok(trace), Ok(back_trace)) = (out, trace, back_trace) else { return Ok(()) };
        prop_assert_eq!(out.shape(), &[b][..]);
        prop_assert!(trace.len() <= MAX_STEPS && back_trace.len() == trace.len());
        if let Ok(g) = grads {
            let names: Vec<&str> = g.iter().map(|(n, _)| n.as_str()).collect();
            prop_assert_eq!(names, ["user_factors.weight", "movie_factors.weight"]);
            prop_assert_eq!((g[0].1.shape(), g[1].1.shape()), (users.shape(), movies.shape()));
        }
    }

    #[test]
    fn losses_compute_or_refuse(output in tensor(0..=4), target in like(), mse in any::<bool>()) {
        let target = target.of(output.shape());
        let runs = !mse || target.shape() == output.shape();
        let all_tame = tame(&output) && tame(&target) && output.numel() > 0;
        let loss = if mse { Loss::Mse { target } } else { Loss::Sum };
        let (value, grad) = (loss.forward(&output), loss.backward(&output));
        said(&value)?;
        said(&grad)?;
        prop_assert_eq!((value.is_ok(), grad.is_ok()), (runs, runs));
        if let (Ok(value), Ok(grad)) = (value, grad) {
            prop_assert_eq!(grad.shape(), output.shape());
            prop_assert!(!all_tame || (value.is_finite() && finite(&grad)));
        }
    }

    #[test]
    fn sgd_steps_or_leaves_the_parameter(
        mut param in tensor(0..=3),
        grad in like(),
        lr in prop_oneof![3 => 0.0f64..1.0, 1 => prop::sample::select(vec![0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::MAX, 1e-320])],
    ) {
        let grad = grad.of(param.shape());
        let before = param.clone();
        let stepped = sgd_step(&mut param, &grad, lr);
        said(&stepped)?;
        prop_assert_eq!(stepped.is_ok(), grad.shape() == before.shape());
        prop_assert_eq!(param.shape(), before.shape());
        if stepped.is_err() {
            prop_assert_eq!(bits(param.data()), bits(before.data()), "a refused step moved the parameter");
        } else if lr == 0.0 && finite(&before) && finite(&grad) {
            prop_assert!(torch_equal(&param, &before), "a zero step moved the parameter");
        }
    }
}

/// Shape-only entry points (the traces) take any shape, even one no tensor could have: they
/// describe the work without doing it, so they neither panic nor loop over huge sizes.
pub fn huge_dim() -> impl Strategy<Value = usize> {
    prop_oneof![3 => 0usize..5, 1 => prop::sample::select(vec![MAX_STEPS + 1, 1 << 32, usize::MAX / 2, usize::MAX])]
}

proptest! {
    #![proptest_config(common::gen::config(CASES, file!()))]

    #[test]
    fn linear_traces_take_any_shape(
        shape in prop::collection::vec(huge_dim(), 0..4), inf in 0usize..4, outf in 0usize..4, bias in any::<bool>(),
    ) {
        let weight = Tensor::zeros(vec![outf, inf]).unwrap();
        let layer = Linear::new(weight, bias.then(|| Tensor::zeros(vec![outf]).unwrap())).unwrap();
        let shape = [&shape[..], &[inf]].concat();
        let (f, b) = (layer.forward_trace(&shape), layer.backward_trace(&shape));
        said(&f)?;
        said(&b)?;
        let (f, b) = (f.unwrap(), b.unwrap());
        prop_assert!(f.len() <= MAX_STEPS && b.len() == f.len());
    }

    #[test]
    fn cost_counts_any_table(ids in ids_below(4), d in huge_dim(), v in huge_dim()) {
        // A (D, V) weight with a 0 in it holds no numbers, whatever the other size.
        let Ok(weight) = Tensor::new(vec![d, v], Vec::new()) else { return Ok(()) };
        let m = OneHotLinear::new(weight).unwrap();
        let _ = m.cost(&ids);
    }
}
