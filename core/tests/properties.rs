//! Properties that hold for every input, not only the fixtures': an embedding is one-hot × Linear,
//! and every analytic gradient matches finite differences. (That no input makes an op panic is
//! `no_panic.rs`.)

mod common;

use proptest::prelude::*;
use rowflow_core::ops::dot_product::DotProduct;
use rowflow_core::ops::embedding::Embedding;
use rowflow_core::ops::linear::Linear;
use rowflow_core::ops::loss::Loss;
use rowflow_core::ops::one_hot::OneHotLinear;
use rowflow_core::ops::rnn::{Nonlinearity, Rnn, RnnConfig};
use rowflow_core::{Ids, Tensor};

fn values(n: usize) -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(-2.0f32..2.0, n)
}

fn tensor(shape: Vec<usize>) -> impl Strategy<Value = Tensor> {
    let n = shape.iter().product();
    values(n).prop_map(move |d| Tensor::new(shape.clone(), d).unwrap())
}

/// A `(V, D)` table with ids of shape `(B, S)` into it.
fn table_and_ids() -> impl Strategy<Value = (Tensor, Ids)> {
    (1usize..8, 1usize..6, 1usize..4, 1usize..5).prop_flat_map(|(v, d, b, s)| {
        (tensor(vec![v, d]), prop::collection::vec(0..v as i64, b * s))
            .prop_map(move |(t, ids)| (t, Ids::new(vec![b, s], ids).unwrap()))
    })
}

/// `L = Σ output·upstream` in f64, the loss every backward here starts from.
fn loss(output: &Tensor, upstream: &Tensor) -> f64 {
    output.data().iter().zip(upstream.data()).map(|(&o, &u)| o as f64 * u as f64).sum()
}

/// Central differences of `f` at every element of `x` against `grad`.
fn check_fd(name: &str, x: &Tensor, grad: &Tensor, f: impl Fn(&Tensor) -> f64) -> Result<(), TestCaseError> {
    const EPS: f32 = 1e-2;
    prop_assert_eq!(x.shape(), grad.shape(), "{} shape", name);
    for i in 0..x.numel() {
        let mut plus = x.clone();
        plus.data_mut()[i] += EPS;
        let mut minus = x.clone();
        minus.data_mut()[i] -= EPS;
        let fd = (f(&plus) - f(&minus)) / (2.0 * EPS as f64);
        let g = grad.data()[i] as f64;
        prop_assert!((fd - g).abs() <= 2e-2 * (1.0 + g.abs()), "{}[{}]: analytic {} vs numeric {}", name, i, g, fd);
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::gen::config(64, file!()))]

    #[test]
    fn embedding_equals_one_hot_times_linear((table, ids) in table_and_ids(), seed in any::<u64>()) {
        let emb = Embedding::new(table.clone(), None).unwrap();
        let lin = OneHotLinear::from_table(&table).unwrap();
        let out = emb.forward(&ids).unwrap();
        // One nonzero product per output: the sums are exact, so equal to the bit.
        prop_assert_eq!(&out, &lin.forward(&ids).unwrap());
        let upstream = Tensor::new(out.shape().to_vec(), (0..out.numel()).map(|i| ((seed >> (i % 60)) & 7) as f32 - 3.5).collect()).unwrap();
        let g_emb = emb.backward(&ids, &upstream).unwrap().weight.unwrap();
        let g_lin = lin.backward(&ids, &upstream).unwrap();
        prop_assert_eq!(g_emb, g_lin.t().unwrap());
    }

    #[test]
    fn linear_gradients_match_finite_differences(
        (w, b, x, up) in (1usize..5, 1usize..5, 1usize..4).prop_flat_map(|(i, o, n)| (tensor(vec![o, i]), tensor(vec![o]), tensor(vec![n, i]), tensor(vec![n, o])))
    ) {
        let m = Linear::new(w.clone(), Some(b.clone())).unwrap();
        let g = m.backward(&x, &up).unwrap();
        check_fd("weight", &w, &g.weight, |w| loss(&Linear::new(w.clone(), Some(b.clone())).unwrap().forward(&x).unwrap(), &up))?;
        check_fd("bias", &b, g.bias.as_ref().unwrap(), |b| loss(&Linear::new(w.clone(), Some(b.clone())).unwrap().forward(&x).unwrap(), &up))?;
        check_fd("input", &x, &g.input, |x| loss(&m.forward(x).unwrap(), &up))?;
    }

    #[test]
    fn embedding_gradient_matches_finite_differences((table, ids) in table_and_ids(), pad in prop::option::of(0i64..8)) {
        let pad = pad.filter(|&p| p < table.shape()[0] as i64);
        // padding_idx: PyTorch's gradient skips that row even though the forward reads it.
        let m = Embedding::new(table.clone(), pad).unwrap();
        let up = Tensor::new([ids.shape(), &[table.shape()[1]]].concat(), (0..ids.numel() * table.shape()[1]).map(|i| (i % 5) as f32 - 2.0).collect()).unwrap();
        let g = m.backward(&ids, &up).unwrap().weight.unwrap();
        check_fd("weight", &table, &g, |t| {
            let e = Embedding::new(t.clone(), None).unwrap();
            loss(&e.forward(&ids).unwrap(), &up) - m.padding_idx.map_or(0.0, |p| padding_part(t, &ids, &up, p))
        })?;
        if let Some(p) = m.padding_idx {
            let d = table.shape()[1];
            prop_assert!(g.data()[p * d..(p + 1) * d].iter().all(|&x| x == 0.0));
        }
    }

    #[test]
    fn dot_product_gradients_match_finite_differences(
        (u, m, pairs) in (1usize..5, 1usize..5, 1usize..4, 1usize..6).prop_flat_map(|(nu, nm, f, b)| (tensor(vec![nu, f]), tensor(vec![nm, f]), prop::collection::vec((0..nu as i64, 0..nm as i64), b)))
    ) {
        let x = Ids::new(vec![pairs.len(), 2], pairs.iter().flat_map(|&(a, b)| [a, b]).collect()).unwrap();
        let up = Tensor::vector((0..pairs.len()).map(|i| 1.0 - i as f32 * 0.5).collect());
        let g = DotProduct::new(u.clone(), m.clone()).unwrap().backward(&x, &up).unwrap();
        check_fd("user_factors.weight", &u, &g[0].1, |u| loss(&DotProduct::new(u.clone(), m.clone()).unwrap().forward(&x).unwrap(), &up))?;
        check_fd("movie_factors.weight", &m, &g[1].1, |m| loss(&DotProduct::new(u.clone(), m.clone()).unwrap().forward(&x).unwrap(), &up))?;
    }

    #[test]
    fn mse_gradient_matches_finite_differences(out in tensor(vec![2, 3]), target in tensor(vec![2, 3])) {
        let l = Loss::Mse { target };
        let g = l.backward(&out).unwrap();
        check_fd("output", &out, &g, |o| l.forward(o).unwrap() as f64)?;
    }

    #[test]
    fn rnn_gradients_match_finite_differences(
        bidirectional in any::<bool>(), relu in any::<bool>(), layers in 1usize..3, batch_first in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut c = RnnConfig::new(2, 3);
        c.num_layers = layers;
        c.bidirectional = bidirectional;
        c.batch_first = batch_first;
        c.nonlinearity = if relu { Nonlinearity::Relu } else { Nonlinearity::Tanh };
        let mut g = rowflow_core::torch_rng::Generator::manual_seed(seed as i128).unwrap();
        let params = g.rnn(&c);
        let (t, n) = (3, 2);
        let x = g.randn(&if batch_first { [n, t, 2] } else { [t, n, 2] });
        let h0 = g.randn(&[layers * c.num_directions(), n, 3]);
        let rnn = Rnn::new(c.clone(), params.clone()).unwrap();
        let out = rnn.forward(&x, Some(&h0), None).unwrap();
        let (up_o, up_h) = (g.randn(out.output.shape()), g.randn(out.h_n.shape()));
        let total = |r: &Rnn, x: &Tensor, h0: &Tensor| {
            let o = r.forward(x, Some(h0), None).unwrap();
            loss(&o.output, &up_o) + loss(&o.h_n, &up_h)
        };
        let grads = rnn.backward(&x, Some(&h0), None, &up_o, &up_h).unwrap();
        // relu kinks make differences meaningless near zero pre-activations: tanh is checked everywhere,
        // relu on the input only where no unit sits within EPS of its kink is rare, so relu checks h0 only.
        if !relu {
            check_fd("input", &x, &grads.input, |x| total(&rnn, x, &h0))?;
            for ((name, p), (_, gp)) in params.iter().zip(&grads.params) {
                check_fd(name, p, gp, |p| {
                    let ps = params.iter().map(|(n, q)| (n.clone(), if n == name { p.clone() } else { q.clone() })).collect();
                    total(&Rnn::new(c.clone(), ps).unwrap(), &x, &h0)
                })?;
            }
            check_fd("h0", &h0, grads.h0.as_ref().unwrap(), |h| total(&rnn, &x, h))?;
        } else {
            prop_assert!(grads.params.iter().all(|(_, g)| g.data().iter().all(|v| v.is_finite())));
        }
    }
}

/// The part of `L` that flows through padding lookups, which PyTorch leaves out of the gradient.
fn padding_part(table: &Tensor, ids: &Ids, up: &Tensor, pad: usize) -> f64 {
    let d = table.shape()[1];
    ids.data()
        .iter()
        .enumerate()
        .filter(|(_, &id)| id as usize == pad)
        .map(|(k, _)| (0..d).map(|j| table.data()[pad * d + j] as f64 * up.data()[k * d + j] as f64).sum::<f64>())
        .sum()
}
