//! `nn.RNN` under every `RnnConfig` flag, with or without `h0`, packed with any `lengths`,
//! `enforce_sorted` and `padding_value`: it runs or refuses, never panics, and what it returns
//! has the shapes PyTorch documents.

use crate::common::gen::{dim, float, id, like, said, tensor, tensor_of, Like};
use crate::{bits, finite, huge_dim, tame, CASES};
use proptest::prelude::*;
use rowflow_core::ops::rnn::{Nonlinearity, Packing, Rnn, RnnConfig};
use rowflow_core::ops::Named;
use rowflow_core::trace::MAX_STEPS;
use rowflow_core::Tensor;

/// Any config, including the sizes `nn.RNN` refuses (0 hidden units or layers).
fn config() -> impl Strategy<Value = RnnConfig> {
    let (sizes, zero_or) = (0usize..4, |s: std::ops::Range<usize>| prop_oneof![1 => Just(0usize), 6 => s]);
    (sizes, zero_or(1..4), zero_or(1..4), any::<[bool; 4]>()).prop_map(|(i, h, l, [bias, bf, bi, relu])| RnnConfig {
        input_size: i,
        hidden_size: h,
        num_layers: l,
        nonlinearity: if relu { Nonlinearity::Relu } else { Nonlinearity::Tanh },
        bias,
        batch_first: bf,
        bidirectional: bi,
    })
}

/// The config's parameters, sometimes damaged: one dropped, one misshapen, a stranger added, or
/// all in reverse order (which `Rnn::new` puts right). The flag: whether they still fit.
fn params(c: &RnnConfig) -> impl Strategy<Value = (Named, bool)> {
    let shapes = c.param_shapes();
    let tensors: Vec<_> = shapes.iter().map(|(_, s)| tensor_of(s.clone(), float())).collect();
    (tensors, 0u8..12, any::<prop::sample::Index>(), tensor(0..=2)).prop_map(move |(ts, damage, at, odd)| {
        let mut named: Named = shapes.iter().map(|(n, _)| n.clone()).zip(ts).collect();
        let k = at.index(named.len().max(1));
        let fits = match damage {
            0 if !named.is_empty() => {
                named.remove(k);
                false
            }
            1 if !named.is_empty() => {
                let same = odd.shape() == named[k].1.shape();
                named[k].1 = odd;
                same
            }
            2 => {
                named.push(("weight_ih_l9".into(), Tensor::zeros(vec![1]).unwrap()));
                false
            }
            3 => {
                named.reverse();
                true
            }
            _ => true,
        };
        (named, fits)
    })
}

/// A call: the input (mostly of the config's layout), `h0` and packing, and both upstreams.
type Call = (Tensor, Option<Like>, Option<Packing>, Like, Like);

fn call(c: &RnnConfig) -> impl Strategy<Value = Call> {
    let (i, bf) = (c.input_size, c.batch_first);
    (prop_oneof![1 => Just(0usize), 6 => 1usize..=4], dim(), 0u8..10).prop_flat_map(move |(t, n, form)| {
        let input = match form {
            0 => tensor(0..=4),
            1 => tensor_of(vec![t, i], float()),
            2 => tensor_of(if bf { vec![n, t, i + 1] } else { vec![t, n, i + 1] }, float()),
            _ => tensor_of(if bf { vec![n, t, i] } else { vec![t, n, i] }, float()),
        };
        let t = t as i64;
        let length = prop_oneof![6 => 1..=t.max(1), 1 => -1..=t + 2, 1 => id()];
        let lengths =
            prop_oneof![4 => prop::collection::vec(length.clone(), n), 1 => prop::collection::vec(length, 0..5)];
        let packing = (lengths, any::<bool>(), float()).prop_map(|(lengths, enforce_sorted, padding_value)| Packing {
            lengths,
            enforce_sorted,
            padding_value,
        });
        (input, prop::option::of(like()), prop::option::of(packing), like(), like())
    })
}

proptest! {
    #![proptest_config(crate::common::gen::config(CASES, file!()))]

    #[test]
    fn rnn_runs_or_refuses(
        (config, (params, fits), (input, h0, packing, up_out, up_h_n)) in
            config().prop_flat_map(|c| (Just(c.clone()), params(&c), call(&c))),
    ) {
        let made = Rnn::new(config.clone(), params.clone());
        said(&made)?;
        prop_assert_eq!(made.is_ok(), config.hidden_size > 0 && config.num_layers > 0 && fits);
        let Ok(rnn) = made else { return Ok(()) };
        let names: Vec<String> = config.param_shapes().into_iter().map(|(n, _)| n).collect();
        prop_assert_eq!(rnn.params.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(), names);
        let (dirs, h) = (config.num_directions(), config.hidden_size);
        let k = config.num_layers * dirs;
        let (s, unbatched) = (input.shape(), input.dim() == 2);
        let (seq, n) = match (unbatched, config.batch_first) {
            (true, _) => (s[0], 1),
            (false, true) if s.len() == 3 => (s[1], s[0]),
            _ => (s.first().copied().unwrap_or(0), s.get(1).copied().unwrap_or(0)),
        };
        let h_n_shape = if unbatched { vec![k, h] } else { vec![k, n, h] };
        let h0 = h0.map(|l| l.of(&h_n_shape));
        let p = packing.as_ref();
        let out = rnn.forward(&input, h0.as_ref(), p);
        let bare = rnn.forward(&input, None, p);
        let (cells, f, b) = (rnn.trace_cells(s, p), rnn.forward_trace(s, p), rnn.backward_trace(s, p));
        said(&out)?;
        said(&bare)?;
        said(&cells)?;
        said(&f)?;
        said(&b)?;
        // The traces read the shape only, so they accept exactly the calls without h0.
        let traced = bare.is_ok();
        prop_assert_eq!((cells.is_ok(), f.is_ok(), b.is_ok()), (traced, traced, traced));
        if let (Ok(cells), Ok(f), Ok(b)) = (cells, f, b) {
            prop_assert!(f.len() <= MAX_STEPS && f.len() == b.len() && f.len() == cells.len());
        }
        let Ok(o) = out else { return Ok(()) };
        let steps = p.map_or(seq, |p| p.lengths.iter().copied().max().unwrap_or(0) as usize);
        let want = match (unbatched, config.batch_first) {
            (true, _) => vec![steps, dirs * h],
            (false, true) => vec![n, steps, dirs * h],
            (false, false) => vec![steps, n, dirs * h],
        };
        prop_assert_eq!(o.output.shape(), &want[..]);
        prop_assert_eq!(o.h_n.shape(), &h_n_shape[..]);
        if let Some(p) = p {
            // pad_packed_sequence: past each sequence's length, padding_value.
            for (b, &len) in p.lengths.iter().enumerate() {
                for t in len as usize..steps {
                    let at = if config.batch_first { (b * steps + t) * dirs * h } else { (t * n + b) * dirs * h };
                    let padded = &o.output.data()[at..][..dirs * h];
                    prop_assert_eq!(bits(padded), bits(&vec![p.padding_value; dirs * h]));
                }
            }
        }
        let all_tame = tame(&input) && params.iter().all(|(_, t)| tame(t)) && h0.as_ref().is_none_or(tame);
        if all_tame && config.nonlinearity == Nonlinearity::Tanh {
            prop_assert!(finite(&o.h_n), "tanh of tame numbers is finite");
        }
        let (up_out, up_h_n) = (up_out.of(o.output.shape()), up_h_n.of(o.h_n.shape()));
        let grads = rnn.backward(&input, h0.as_ref(), p, &up_out, &up_h_n);
        said(&grads)?;
        prop_assert_eq!(grads.is_ok(), up_out.shape() == o.output.shape() && up_h_n.shape() == o.h_n.shape());
        let Ok(g) = grads else { return Ok(()) };
        for ((name, param), (gname, grad)) in rnn.params.iter().zip(&g.params) {
            prop_assert_eq!((name, param.shape()), (gname, grad.shape()));
        }
        prop_assert_eq!(g.params.len(), rnn.params.len());
        prop_assert_eq!(g.input.shape(), input.shape());
        prop_assert_eq!(g.h0.as_ref().map(Tensor::shape), h0.as_ref().map(Tensor::shape));
        let hidden = if unbatched { vec![k, steps, h] } else { vec![k, steps, n, h] };
        prop_assert_eq!(g.hidden_grads.shape(), &hidden[..]);
    }

    #[test]
    fn rnn_traces_take_any_shape(
        config in config(), lead in prop::collection::vec(huge_dim(), 1..3), lengths in prop::collection::vec(1i64..4, 0..3),
        packed in any::<bool>(),
    ) {
        let params = config.param_shapes().into_iter().map(|(n, s)| (n, Tensor::zeros(s).unwrap())).collect();
        let Ok(rnn) = Rnn::new(config.clone(), params) else { return Ok(()) };
        let shape = [&lead[..], &[config.input_size]].concat();
        let packing = packed.then_some(Packing { lengths, enforce_sorted: false, padding_value: 0.0 });
        let p = packing.as_ref();
        let (cells, f, b) = (rnn.trace_cells(&shape, p), rnn.forward_trace(&shape, p), rnn.backward_trace(&shape, p));
        said(&cells)?;
        said(&f)?;
        said(&b)?;
        if let (Ok(f), Ok(b)) = (f, b) {
            prop_assert!(f.len() <= MAX_STEPS && f.len() == b.len());
        }
    }
}
