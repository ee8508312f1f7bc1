//! Backward through time: PyTorch's gradients, the loss choices and SGD.

use super::tests::{bits, close, matches, said, tensor};
use super::*;
use crate::scene::contract::Edit;
use crate::scene::fixtures::{fixture, floats};
use crate::scene::{from_json, to_json};
use serde_json::Value;

/// The backward of a state's run with its own upstream (none of the loss plumbing).
fn op_grads(s: &State, up: &Tensor, up_h_n: &Tensor) -> crate::ops::rnn::RnnGrads {
    let run = s.model.run().unwrap();
    run.rnn.backward(&run.input, run.h0.as_ref(), s.model.packing().as_ref(), up, up_h_n).unwrap()
}

#[test]
fn vanishing_preset_reproduces_pytorchs_grads_and_norms() {
    let f = fixture("rnn_tanh_long_sequence_vanishing");
    let s = State::preset("vanishing_long_tanh").unwrap();
    assert_eq!(Source::Tensor(tensor(&f["input"])), s.model.source);
    let run = matches(&s, &f);
    let (up, up_h) = (tensor(&f["upstream"]["output"]), tensor(&f["upstream"]["h_n"]));
    let b = run.backward(None, None, 0.0, &up, &up_h).unwrap();
    for (name, want) in f["grads"].as_object().unwrap() {
        close(name, find(&b.grads, name).unwrap(), &tensor(want));
    }
    let want = tensor(&f["hidden_grads"]);
    assert_eq!(b.hidden_grads.data().len(), want.numel());
    for (a, w) in b.hidden_grads.data().iter().zip(want.data()) {
        assert!((a - w).abs() <= 1e-5 + 1e-5 * w.abs());
    }
    let norms: Vec<f64> = serde_json::from_value(f["hidden_grad_norms"].clone()).unwrap();
    assert_eq!(b.norms[0].0, "h_l0");
    for (a, w) in b.norms[0].1.iter().zip(&norms) {
        assert!((*a as f64 - w).abs() <= 1e-5 + 1e-5 * w.abs(), "{a} vs {w}");
    }
    // With the scene's own sum loss, the gradient fades going back in time.
    // The preset's loss is on the last step only: the gradient fades going back in time.
    let n = &s.compute().backward.unwrap().norms[0].1;
    assert!(n[..11].iter().all(|&x| x < n[11]), "{n:?}");
    assert!(n[0] < 1e-3 * n[11], "{n:?}");
}

#[test]
fn exploding_preset_grows_going_back() {
    let s = State::preset("exploding_relu").unwrap();
    assert_eq!(find(&s.model.params, "weight_hh_l0").unwrap().data(), [1.5, 0.5, 0.5, 1.5]);
    let c = s.compute();
    assert!(c.issues.is_empty());
    let n = &c.backward.unwrap().norms[0].1;
    assert_eq!(n.len(), 10);
    assert!(n.windows(2).all(|w| w[0] > w[1]), "{n:?}");
    assert!(n[0] > 100.0 * n[9], "{n:?}");
}

#[test]
fn sum_loss_is_the_op_backward_with_ones() {
    for (id, _) in PRESETS {
        let mut s = State::preset(id).unwrap();
        s.apply(&Edit::Loss { mse: false }).unwrap();
        let c = s.compute();
        let (run, b) = (c.run.as_ref().unwrap(), c.backward.as_ref().unwrap());
        let ones = Tensor::new(run.output.shape().to_vec(), vec![1.0; run.output.numel()]).unwrap();
        let g = op_grads(&s, &ones, &Tensor::zeros(run.h_n.shape().to_vec()).unwrap());
        for (name, t) in &g.params {
            assert_eq!(bits(c.grad(name).unwrap()), bits(t), "{id} {name}");
        }
        assert_eq!(bits(c.grad("input").unwrap()), bits(&g.input), "{id} input");
        assert_eq!(b.loss, run.output.data().iter().map(|&x| x as f64).sum::<f64>() as f32, "{id}");
        assert_eq!(b.trace.steps.iter().filter(|s| s.phase == Phase::Backward).count(), b.trace.len());
        assert_eq!(b.steps.len(), b.trace.len());
        assert!(said(&c.describe_backward(1)).contains(": gradient from "), "{id}");
    }
    // Embedding → RNN: only looked-up rows of emb.weight get gradient.
    let c = State::preset("embedding_to_rnn").unwrap().compute();
    let g = c.grad("emb.weight").unwrap();
    for r in 0..10 {
        let row = &g.data()[r * 4..][..4];
        assert_eq!(row.iter().any(|&x| x != 0.0), (1..=6).contains(&r), "row {r}");
    }
    // The first backward step is the last cell, reading output.grad.
    let c = State::default().compute();
    let b = c.backward.as_ref().unwrap();
    assert_eq!(b.steps[0], StepKind::Cell(Cell { layer: 0, direction: 0, t: Some(1) }));
    assert_eq!(c.trace(Phase::Backward).unwrap().marks_at(1).phase, Some(Phase::Backward));
    assert!(b.trace.steps[0].reads.iter().any(|s| s.tensor == "output.grad"));
    assert_eq!(
        said(&c.describe_backward(1)),
        "h_l0[1]: gradient from output.grad[:, 1], times tanh's slope, adds into weight and bias grads, \
         input.grad[:, 1] and t = 0."
    );
    assert!(said(&c.describe_backward(2)).contains("from output.grad[:, 0] and t = 1,"));
    assert!(said(&c.describe_backward(2)).ends_with("and h0.grad[0]."));
}

#[test]
fn h_n_in_the_loss_gives_pytorchs_grads() {
    let cases = [
        ("rnn_2_5_batch_first", "rnn_loss_output_and_h_n_sum"),
        ("rnn_2x3_bi_packed", "rnn_packed_bi_loss_output_and_h_n_sum"),
    ];
    for (id, name) in cases {
        let f = fixture(name);
        let mut s = State::preset(id).unwrap();
        s.set_h_n_in_loss(true);
        let c = s.compute();
        let b = c.backward.as_ref().unwrap();
        assert!((b.loss - f["loss"]["value"].as_f64().unwrap() as f32).abs() < 1e-4, "{name}");
        assert!(b.h_n_in_loss && b.upstream_h_n.data().iter().all(|&x| x == 1.0));
        for (grad, want) in f["grads"].as_object().unwrap() {
            let got = c.grad(grad).unwrap();
            for (g, w) in got.data().iter().zip(floats(want)) {
                assert!((g - w).abs() <= 1e-5 + 1e-5 * w.abs(), "{name} {grad}: {g} vs {w}");
            }
        }
        assert!(said(&c.describe_backward(0)).contains("h_n.grad = 1"));
        // Without it, the last cell gets nothing from h_n.
        s.set_h_n_in_loss(false);
        assert!(!s.compute().backward.unwrap().h_n_in_loss);
    }
    let mut s = State::default();
    s.set_h_n_in_loss(true);
    assert!(said(&s.compute().describe_backward(1)).contains("from output.grad[:, 1] and h_n.grad,"));
}

#[test]
fn backward_formulas_add_up_to_dl_dh() {
    for (id, _) in PRESETS {
        for with_h_n in [false, true] {
            let mut s = State::preset(id).unwrap();
            s.set_h_n_in_loss(with_h_n);
            let c = s.compute();
            let (r, bw) = (c.run.as_ref().unwrap(), c.backward.as_ref().unwrap());
            let (mut checked, lanes) = (0, r.states.len());
            for k in 0..lanes {
                let (layer, d) = (k / r.dirs(), k % r.dirs());
                for b in 0..r.batch() {
                    for t in 0..r.steps_len() {
                        for i in 0..r.hidden() {
                            let Some(f) = r.backward_formula(bw, layer, d, t, b, i) else {
                                assert!(t >= r.lengths[b], "{id} {k} {t} {b} {i}");
                                continue;
                            };
                            assert!(adds_up(&f), "{id} {}: {:?}", f.target, f);
                            checked += 1;
                        }
                    }
                }
            }
            assert!(checked > 0, "{id}");
        }
    }
    // The last cell of the default reads output.grad and h_n.grad; the one before reads da of the last.
    let mut s = State::default();
    s.set_h_n_in_loss(true);
    let c = s.compute();
    let f = c.backward_formula(1, 0).unwrap();
    assert_eq!(f.target, "h_l0.grad[1, 0, 0]");
    let names: Vec<&str> = f.constants.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["output.grad[0, 1, 0]", "h_n.grad[0, 0, 0]"]);
    let f = c.backward_formula(2, 0).unwrap();
    assert_eq!(
        (f.products[0].0.name.as_str(), f.products[0].1.name.as_str()),
        ("da_l0[1, 0, 0]", "weight_hh_l0[0, 0]")
    );
    // Clicking a cell finds its step in either pass: the last cell is the first going back.
    assert_eq!(c.step_of(Phase::Backward, 0, 0, 1), Some(0));
    assert_eq!(c.step_of(Phase::Forward, 0, 0, 1), Some(1));
}

#[test]
fn mse_loss_against_an_editable_target() {
    let mut s = State::default();
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.apply(&Edit::cell("target", 0, "1")).unwrap();
    let c = s.compute();
    let (run, b) = (c.run.as_ref().unwrap(), c.backward.as_ref().unwrap());
    let n = run.output.numel() as f32;
    let o = run.output.data();
    assert!((b.upstream.data()[0] - 2.0 * (o[0] - 1.0) / n).abs() < 1e-7);
    assert!((b.upstream.data()[1] - 2.0 * o[1] / n).abs() < 1e-7);
    let want = o.iter().enumerate().map(|(i, &x)| ((x - if i == 0 { 1.0 } else { 0.0 }) as f64).powi(2)).sum::<f64>();
    assert!((b.loss as f64 - want / n as f64).abs() < 1e-6);
    // A size change keeps the target the output's shape.
    s.set_size("seq_len", "3").unwrap();
    let c = s.compute();
    assert!(c.backward.is_some(), "{:?}", c.backward_issue);
    s.apply(&Edit::Loss { mse: false }).unwrap();
    assert!(s.apply(&Edit::cell("target", 0, "1")).is_err());
}

#[test]
fn sgd_steps_every_parameter_and_undoes() {
    let mut s = State::default();
    let before = s.model.params.clone();
    s.apply(&Edit::Lr { text: "0.5".into() }).unwrap();
    let grads = s.compute().backward.unwrap().grads;
    s.apply(&Edit::Step).unwrap();
    for (name, p) in &s.model.params {
        let (old, g) = (find(&before, name).unwrap(), find(&grads, name).unwrap());
        let want: Vec<f32> = old.data().iter().zip(g.data()).map(|(p, g)| p - 0.5 * g).collect();
        assert_eq!(p.data(), &want[..], "{name}");
        let moved: Vec<usize> = (0..p.numel()).filter(|&i| g.data()[i] != 0.0).collect();
        assert_eq!(s.changed(name), moved, "{name}");
    }
    assert_eq!(s.learning.steps, 1);
    s.apply(&Edit::Step).unwrap();
    s.undo().unwrap();
    s.reset().unwrap();
    assert_eq!(s.model.params, before);
    assert_eq!(s.learning.steps, 0);
    // An edit forgets the steps (undo would throw the edit away).
    s.apply(&Edit::Step).unwrap();
    s.edit("weight_hh_l0", 0, "0.25").unwrap();
    assert_eq!((s.learning.steps, s.changed("weight_hh_l0")), (0, vec![]));
    assert!(s.undo().is_err());
    // Embedding → RNN: only the looked-up rows of emb.weight move.
    let mut s = State::preset("embedding_to_rnn").unwrap();
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.changed("emb.weight"), (4..28).collect::<Vec<_>>());
    // Old autosaves (no learning) still load.
    let mut v: Value = serde_json::from_str(&to_json(&State::default())).unwrap();
    v.as_object_mut().unwrap().remove("learning");
    assert_eq!(from_json::<State>(&v.to_string()).unwrap(), State::default());
}

/// A formula's products and constants add up to its value (f64 sum, float32 tolerance).
fn adds_up(f: &Formula) -> bool {
    let terms = f.products.iter().map(|(a, w)| a.value as f64 * w.value as f64);
    let sum: f64 = terms.chain(f.constants.iter().map(|c| c.value as f64)).sum();
    let scale =
        f.products.iter().map(|(a, w)| (a.value * w.value).abs()).chain(f.constants.iter().map(|c| c.value.abs()));
    (sum - f.value as f64).abs() <= 1e-5 * (scale.sum::<f32>() as f64 + 1.0)
}

#[test]
fn grad_formulas_add_up_to_every_parameter_input_h0_and_embedding_grad() {
    for (id, _) in PRESETS {
        for (with_h_n, with_h0) in [(false, false), (true, true)] {
            let mut s = State::preset(id).unwrap();
            s.set_h_n_in_loss(with_h_n);
            s.set_flag("h0", with_h0).unwrap();
            let c = s.compute();
            let bw = c.backward.as_ref().unwrap();
            assert_eq!(find(&bw.grads, "h0").is_some(), with_h0, "{id}");
            for (name, grad) in &bw.grads {
                let tensor = format!("{name}.grad");
                for flat in 0..grad.numel() {
                    let index = unravel(flat, grad.shape());
                    let f = c.formula(&tensor, &index);
                    let f = f.unwrap_or_else(|| panic!("{id}: no formula for {}", label(&tensor, &index)));
                    assert_eq!(f.target, label(&tensor, &index));
                    assert_eq!(f.value.to_bits(), grad.get(&index).unwrap().to_bits());
                    assert!(adds_up(&f), "{id} {}: {:?}", f.target, f);
                }
            }
        }
    }
    // The default (one layer, T = 2, N = 3): a weight sums da times what it multiplied, sequence
    // by sequence, step by step; h0 (zeros here) before each sequence's first step.
    let c = State::default().compute();
    let f = c.formula("weight_hh_l0.grad", &[0, 1]).unwrap();
    let names: Vec<(&str, &str)> = f.products.iter().map(|(a, b)| (a.name.as_str(), b.name.as_str())).collect();
    assert_eq!(
        &names[..3],
        [("da_l0[0, 0, 0]", "h0[0, 0, 1]"), ("da_l0[1, 0, 0]", "h_l0[0, 0, 1]"), ("da_l0[0, 1, 0]", "h0[0, 1, 1]")]
    );
    assert_eq!(names.len(), 6);
    let f = c.formula("bias_ih_l0.grad", &[2]).unwrap();
    let names: Vec<&str> = f.constants.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names[..2], ["da_l0[0, 0, 2]", "da_l0[1, 0, 2]"]);
    let f = c.formula("input.grad", &[0, 1, 0]).unwrap();
    assert_eq!(
        (f.products[0].0.name.as_str(), f.products[0].1.name.as_str()),
        ("da_l0[1, 0, 0]", "weight_ih_l0[0, 0]")
    );
    assert!(c.formula("weight_ih_l0.grad", &[99, 0]).is_none());
    // Embedding → RNN: a row of emb.weight.grad adds the input.grad rows its id was copied to.
    let c = State::preset("embedding_to_rnn").unwrap().compute();
    let run = c.run.as_ref().unwrap();
    let ids = run.ids.as_ref().unwrap();
    let id = ids.get(&[0, 0]).unwrap() as usize;
    let f = c.formula("emb.weight.grad", &[id, 1]).unwrap();
    let copies = ids.data().iter().filter(|&&x| x == id as i64).count();
    assert_eq!(f.constants.len(), copies);
    assert_eq!(f.constants[0].name, "input.grad[0, 0, 1]");
    assert!(c.formula("weight_ih_l7.grad", &[0, 0]).is_none());
}

/// The flow drawn along h_t is as thick as ‖dL/dh_t‖ on a log scale: the vanishing preset's last
/// step is the thickest, its first the thinnest; exploding, the other way round.
#[test]
fn the_flow_along_h_t_follows_the_gradients_size() {
    use crate::scene::contract::View;
    let v = State::preset("vanishing_long_tanh").unwrap().compute();
    let w = |k: usize| v.flow_weight(Phase::Backward, k).unwrap();
    assert_eq!((w(1), w(12)), (1.0, 0.0));
    assert!((2..12).all(|k| w(k) < w(k - 1)), "{:?}", (1..=12).map(w).collect::<Vec<_>>());
    assert_eq!(v.flow_weight(Phase::Forward, 1), None);
    let v = State::preset("exploding_relu").unwrap().compute();
    assert!(v.flow_weight(Phase::Backward, 1).unwrap() < v.flow_weight(Phase::Backward, 10).unwrap());
}
