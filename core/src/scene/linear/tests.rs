use super::*;
use crate::say::{caption, write};
use crate::scene::contract::Edit;
use crate::scene::fixtures::fixture;
use crate::scene::{from_json, to_json};
use crate::trace::Mark;
use serde_json::Value;

fn tensor(v: &Value) -> Tensor {
    let shape = v["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap() as usize).collect();
    let data = v["data"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
    Tensor::new(shape, data).unwrap()
}

fn bits(t: &Tensor) -> (Vec<usize>, Vec<u32>) {
    (t.shape().to_vec(), t.data().iter().map(|x| x.to_bits()).collect())
}

fn close(got: &Tensor, want: &Tensor) {
    assert_eq!(got.shape(), want.shape());
    for (a, b) in got.data().iter().zip(want.data()) {
        assert!((a - b).abs() <= 1e-5 + 1e-5 * b.abs(), "{got:?} vs {want:?}");
    }
}

pub(super) fn preset(id: &str) -> State {
    State::preset(id).unwrap()
}

#[test]
fn presets_are_the_fixtures_bit_for_bit() {
    let cases = [
        ("vector_6_to_10", "seed_linear_6_to_10_vector"),
        ("batch_6_to_10", "seed_linear_6_to_10_batch2"),
        ("fixed_2_to_3_3d", "seed_linear_2_to_3_fixed_weights_3d_input"),
    ];
    assert_eq!(PRESETS.iter().map(|p| p.0).collect::<Vec<_>>(), cases.map(|c| c.0));
    for (id, name) in cases {
        let (s, f) = (preset(id), fixture(name));
        assert_eq!(bits(&s.weight), bits(&tensor(&f["params"]["weight"])), "{id} weight");
        assert_eq!(bits(&s.bias), bits(&tensor(&f["params"]["bias"])), "{id} bias");
        assert_eq!(bits(&s.input), bits(&tensor(&f["input"])), "{id} input");
        let c = s.compute();
        assert!(c.issues.is_empty());
        close(c.output.as_ref().unwrap(), &tensor(&f["output"]));
    }
    assert_eq!(State::default(), preset("vector_6_to_10"));
    assert_eq!(recipe("fixed_2_to_3_3d"), None);
}

#[test]
fn reinit_is_nn_linear_after_manual_seed() {
    let mut s = State::default();
    s.reinit("42").unwrap();
    let f = fixture("init_seed42_linear_and_rnn");
    let params = &f["modules"][0]["params"];
    assert_eq!(bits(&s.weight), bits(&tensor(&params["weight"])));
    assert_eq!(bits(&s.bias), bits(&tensor(&params["bias"])));
    assert_eq!(bits(&s.input), bits(&preset("vector_6_to_10").input), "the input is not the layer's");

    let f = fixture("init_seed123_linear_4_to_5_no_bias");
    s.set_in_features("4").unwrap();
    s.set_out_features("5").unwrap();
    s.set_bias(false);
    let bias = s.bias.clone();
    s.reinit(" 123").unwrap();
    assert_eq!(bits(&s.weight), bits(&tensor(&f["modules"][0]["params"]["weight"])));
    assert_eq!(s.bias, bias, "bias=False draws no bias");

    let before = s.clone();
    assert_eq!(s.reinit("1.5").unwrap_err(), "ValueError: invalid literal for int() with base 10: '1.5'");
    assert_eq!(s.reinit("18446744073709551616").unwrap_err(), "RuntimeError: Overflow when unpacking long");
    assert_eq!(s, before);
}

#[test]
fn cell_edits_and_pastes() {
    let mut s = preset("fixed_2_to_3_3d");
    s.edit("weight", 1, "2").unwrap();
    assert_eq!(s.compute().output.unwrap().data()[..3], [3., 2., 2.], "[1, 1] · [0, 2] + 1 = 3");
    s.edit("bias", 0, "-1.5").unwrap();
    s.edit("input", 11, "10").unwrap();
    assert_eq!(s.compute().output.unwrap().get(&[1, 2, 0]), Some(18.5), "[3, 10] · [0, 2] - 1.5");

    let before = s.clone();
    assert!(s.edit("weight", 0, "abc").unwrap_err().starts_with("could not convert string to float: 'abc'"));
    assert_eq!(s.edit("weight", 6, "1").unwrap_err(), "no such cell");
    assert!(s.edit("output", 0, "1").unwrap_err().contains("no tensor named output"));
    s.set_bias(false);
    assert!(s.edit("bias", 0, "1").unwrap_err().contains("bias=False"));
    s.set_bias(true);
    assert_eq!(s, before, "bad edits change nothing");

    s.paste("weight", 2, "[[5, 6], [7, 8]]").unwrap();
    assert_eq!(s.weight.data(), [0., 2., 5., 6., 7., 8.]);
    assert!(s.paste("weight", 4, "1 2\n3 4").unwrap_err().contains("does not fit"));
}

#[test]
fn weight_t_is_a_transposed_view_of_weight() {
    let mut s = preset("fixed_2_to_3_3d");
    let t = s.weight_t().unwrap();
    assert_eq!((t.shape(), t.data()), (&[2, 3][..], &[0., 0., 1., 0., 1., 0.][..]));
    s.edit("weight.T", 2, "7").unwrap(); // weight.T[0, 2] is weight[2, 0]
    assert_eq!(s.weight.get(&[2, 0]), Some(7.0));
    s.paste("weight.T", 3, "4 5 6").unwrap(); // weight.T[1] is weight[:, 1]
    assert_eq!(s.weight.data(), [0., 4., 0., 5., 7., 6.]);
    assert!(s.edit("weight.T", 6, "1").is_err());
    s.weight = Tensor::zeros(vec![6]).unwrap();
    assert_eq!(s.weight_t().unwrap_err(), "weight should be 2-D, got 1-D");
}

#[test]
fn in_features_resizes_weight_columns_and_input_together() {
    let mut s = preset("batch_6_to_10");
    let (w, x) = (s.weight.clone(), s.input.clone());
    s.set_in_features("4").unwrap();
    assert_eq!((s.weight.shape(), s.input.shape()), (&[10, 4][..], &[2, 4][..]));
    assert_eq!(s.weight.get(&[9, 3]), w.get(&[9, 3]));
    assert_eq!(s.input.get(&[1, 3]), x.get(&[1, 3]));
    s.set_in_features("7").unwrap();
    assert_eq!((s.weight.get(&[0, 6]), s.input.get(&[1, 5])), (Some(0.0), Some(0.0)));
    assert!(s.compute().issues.is_empty());

    s.set_out_features("3").unwrap();
    assert_eq!((s.weight.shape(), s.bias.shape()), (&[3, 7][..], &[3][..]));
    assert_eq!(s.compute().output.unwrap().shape(), [2, 3]);

    let before = s.clone();
    for bad in ["0", "65", "-2", "two", ""] {
        assert!(s.set_in_features(bad).is_err(), "{bad}");
        assert!(s.set_out_features(bad).is_err(), "{bad}");
    }
    assert_eq!(s.set_in_features("65").unwrap_err(), "choose a size from 1 to 64");
    assert_eq!(s, before);
}

#[test]
fn rank_changes_keep_the_numbers() {
    let mut s = State::default();
    let vector_out = s.compute().output.unwrap();
    s.set_rank(2).unwrap();
    assert_eq!(s.input.shape(), [1, 6]);
    let batch_out = s.compute().output.unwrap();
    assert_eq!(batch_out.shape(), [1, 10]);
    assert_eq!(batch_out.data(), vector_out.data(), "a vector is a batch of one row");
    s.set_lead(0, "3").unwrap();
    assert_eq!(s.input.shape(), [3, 6]);
    assert_eq!(s.input.data()[6..], [0.0; 12]);
    s.set_rank(3).unwrap();
    assert_eq!(s.input.shape(), [1, 3, 6]);
    s.set_lead(0, "2").unwrap();
    assert_eq!(s.compute().output.unwrap().shape(), [2, 3, 10]);
    assert!(s.set_lead(2, "2").unwrap_err().contains("no leading dimension 2"));
    assert!(s.set_lead(1, "65").is_err());
    assert!(s.set_rank(4).is_err() && s.set_rank(0).is_err());

    let mut s = preset("fixed_2_to_3_3d");
    s.set_rank(1).unwrap();
    assert_eq!(s.input.data(), [1., 1.], "keeps input[0, 0]");
    assert_eq!(s.lead(), [0usize; 0]);
}

#[test]
fn inconsistent_saves_are_pinned_never_panic() {
    let mut s = preset("batch_6_to_10");
    s.input = Tensor::zeros(vec![2, 5]).unwrap();
    let c = s.compute();
    assert_eq!(c.output, None);
    assert!(c.trace.is_empty());
    let issue = &c.issues[0];
    assert_eq!((issue.tensor.as_str(), issue.cell), ("input", Some(4)));
    assert_eq!(
        issue.error.to_string(),
        "RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)"
    );
    assert!(issue.hint.contains("in_features is 6"));
    assert!(c.shape_equation.ends_with("(6, 10) + bias (10,): cannot multiply, 5 ≠ 6"));
    assert_eq!(c.formula("output", &[0, 0]), None);
    assert_eq!(write(&c.describe(1)), "Nothing to compute until the shapes fit.");
    s.set_in_features("5").unwrap();
    assert!(s.compute().issues.is_empty(), "setting in_features repairs it");

    // A tensor whose data does not fill its shape is refused when the save is read.
    let json = to_json(&preset("vector_6_to_10")).replace(r#""shape":[10,6]"#, r#""shape":[10,7]"#);
    assert!(from_json::<State>(&json).unwrap_err().contains("invalid for input of size 60"));
    let mut s = preset("vector_6_to_10");
    s.bias = Tensor::zeros(vec![4]).unwrap();
    s.weight = Tensor::zeros(vec![10, 6]).unwrap();
    assert_eq!(s.compute().issues[0].tensor, "bias");
    s.weight = Tensor::zeros(vec![60]).unwrap();
    assert_eq!(s.compute().issues[0].tensor, "weight");
    s.input = Tensor::zeros(vec![]).unwrap();
    s.weight = Tensor::zeros(vec![10, 6]).unwrap();
    s.set_bias(false);
    assert!(s.compute().issues[0].error.message.contains("at least 1D"));
    assert!(s.set_rank(2).is_ok(), "a 0-d input becomes a batch");
}

#[test]
fn formula_plugs_in_the_numbers() {
    let c = preset("batch_6_to_10").compute();
    let f = c.formula("output", &[1, 3]).unwrap();
    assert_eq!(f.target, "output[1, 3]");
    assert_eq!(f.products.len(), 6);
    assert_eq!((f.products[2].0.name.as_str(), f.products[2].1.name.as_str()), ("input[1, 2]", "weight[3, 2]"));
    assert_eq!(f.constants[0].name, "bias[3]");
    assert_eq!(f.value, c.output.as_ref().unwrap().get(&[1, 3]).unwrap());
    let sum = f.products.iter().fold(0.0f32, |acc, (x, w)| acc + x.value * w.value) + f.constants[0].value;
    assert_eq!(sum, f.value);
    assert_eq!(c.formula("output", &[2, 0]), None);
    assert_eq!(c.formula("weight", &[0, 0]), None);
    assert_eq!(c.formula("output", &[]), None);

    let mut s = State::default();
    s.set_bias(false);
    let f = s.compute().formula("output", &[9]).unwrap();
    assert_eq!(f.products[5].0.name, "input[5]");
    assert!(f.constants.is_empty());
    let f = preset("fixed_2_to_3_3d").compute().formula("output", &[1, 2, 1]).unwrap();
    assert_eq!((f.products[1].0.name.as_str(), f.value), ("input[1, 2, 1]", 4.0));
}

#[test]
fn the_trace_lights_a_weight_row_and_an_input_row() {
    let c = preset("batch_6_to_10").compute();
    assert_eq!(c.trace.len(), 20);
    let m = c.trace.marks_at(14); // step 13: output[1, 3]
    assert_eq!(m.of("weight", &[3, 5]), Some(Mark::Read));
    assert_eq!(m.of("weight", &[2, 5]), None);
    assert_eq!(m.of("input", &[1, 0]), Some(Mark::Read));
    assert_eq!(m.of("input", &[0, 0]), None);
    assert_eq!(m.of("bias", &[3]), Some(Mark::Read));
    assert_eq!(m.of("output", &[1, 3]), Some(Mark::Write));
    assert_eq!(m.of("output", &[1, 2]), Some(Mark::Done));
    assert_eq!(m.of("output", &[1, 4]), None);
    let y = crate::format::short(c.output.as_ref().unwrap().get(&[1, 3]).unwrap());
    assert_eq!(
        write(&c.describe(14)),
        format!("output[1, 3]: input row 1 times row 3 of weight, number by number, summed, plus bias[3] = {y}.")
    );
    let m = c.marks_at(14);
    assert_eq!(m.of("weight.T", &[5, 3]), Some(Mark::Read), "weight row 3 is weight.T column 3");
    assert_eq!(m.of("weight.T", &[3, 5]), None);
    assert_eq!(m.of("weight", &[3, 0]), Some(Mark::Read));
    assert_eq!(m.of("output", &[0, 9]), Some(Mark::Done));
    assert!(write(&c.describe(0)).starts_with("Step forward"));

    let c = State::default().compute();
    assert!(write(&c.describe(4))
        .starts_with("output[3]: the input times row 3 of weight, number by number, summed, plus bias[3] = "));
    assert_eq!(c.trace.marks_at(4).of("input", &[5]), Some(Mark::Read));
    assert_eq!(
        write(&preset("fixed_2_to_3_3d").compute().describe(18)),
        "output[1, 2, 2]: input[1, 2] times row 2 of weight, number by number, summed, plus bias[2] = 4.0000."
    );

    let mut s = State::default();
    s.set_rank(3).unwrap();
    s.set_lead(0, "64").unwrap();
    s.set_lead(1, "64").unwrap();
    s.set_bias(false);
    let c = s.compute();
    assert!(c.trace.summarised);
    assert_eq!(
        write(&c.describe(2)),
        "output[0, 1]: input[0, 1] times every row of weight at once (input @ weight.T)."
    );
    assert!(write(&c.describe(0)).contains("one whole row"));
}

/// A state holding a fixture's layer and input.
fn from_fixture(f: &Value) -> State {
    State {
        preset: String::new(),
        weight: tensor(&f["params"]["weight"]),
        bias: tensor(&f["params"]["bias"]),
        has_bias: true,
        input: tensor(&f["input"]),
        learning: Learning::default(),
        seed: None,
    }
}

#[test]
fn mse_grads_are_pytorchs() {
    let f = fixture("linear_mse_loss");
    let mut s = from_fixture(&f);
    s.apply(&Edit::Loss { mse: true }).unwrap();
    let target = tensor(&f["loss"]["target"]);
    for (i, x) in target.data().iter().enumerate() {
        s.edit("target", i, &format!("{x:e}")).unwrap();
    }
    let c = s.compute();
    assert!(c.issues.is_empty());
    let want = f["loss"]["value"].as_f64().unwrap() as f32;
    assert!((c.loss.unwrap() - want).abs() < 1e-5, "{:?} vs {want}", c.loss);
    close(c.output_grad.as_ref().unwrap(), &tensor(&f["upstream"]));
    let g = c.grads.unwrap();
    close(&g.weight, &tensor(&f["grads"]["weight"]));
    close(g.bias.as_ref().unwrap(), &tensor(&f["grads"]["bias"]));
    close(&g.input, &tensor(&f["grads"]["input"]));
}

/// The seed fixtures' grads use a random `upstream`; an mse target of
/// `output − upstream·numel/2` makes exactly that the loss's gradient.
#[test]
fn preset_grads_are_pytorchs_for_their_upstream() {
    for (id, name) in [
        ("vector_6_to_10", "seed_linear_6_to_10_vector"),
        ("batch_6_to_10", "seed_linear_6_to_10_batch2"),
        ("fixed_2_to_3_3d", "seed_linear_2_to_3_fixed_weights_3d_input"),
    ] {
        let (mut s, f) = (preset(id), fixture(name));
        let up = tensor(&f["upstream"]);
        let y = s.compute().output.unwrap();
        let half = y.numel() as f64 / 2.0;
        s.apply(&Edit::Loss { mse: true }).unwrap();
        for (i, (o, u)) in y.data().iter().zip(up.data()).enumerate() {
            s.edit("target", i, &format!("{:e}", (*o as f64 - *u as f64 * half) as f32)).unwrap();
        }
        let g = s.compute().grads.unwrap();
        close(&g.weight, &tensor(&f["grads"]["weight"]));
        close(g.bias.as_ref().unwrap(), &tensor(&f["grads"]["bias"]));
        close(&g.input, &tensor(&f["grads"]["input"]));
    }
}

#[test]
fn sum_loss_grads_have_a_closed_form() {
    for (id, _) in PRESETS {
        let s = preset(id);
        let c = s.compute();
        let g = c.grads.unwrap();
        let (inf, outf) = (s.in_features(), s.out_features());
        let rows = s.input.numel() / inf;
        assert_eq!(c.loss.unwrap(), c.output.unwrap().data().iter().map(|&x| x as f64).sum::<f64>() as f32);
        for i in 0..outf {
            for k in 0..inf {
                let want: f32 = (0..rows).map(|n| s.input.data()[n * inf + k]).sum();
                assert!((g.weight.data()[i * inf + k] - want).abs() < 1e-5, "{id} weight.grad[{i}, {k}]");
            }
            assert_eq!(g.bias.as_ref().unwrap().data()[i], rows as f32);
        }
        for n in 0..rows {
            for k in 0..inf {
                let want: f32 = (0..outf).map(|i| s.weight.data()[i * inf + k]).sum();
                assert!((g.input.data()[n * inf + k] - want).abs() < 1e-5, "{id} input.grad[{n}, {k}]");
            }
        }
    }
    let c = preset("fixed_2_to_3_3d").compute();
    let g = c.grads.unwrap();
    assert_eq!(g.weight.data(), [12.0; 6]);
    assert_eq!(g.bias.unwrap().data(), [6.0; 3]);
    assert_eq!(g.input.data(), [1.0; 12]);
    let mut s = preset("fixed_2_to_3_3d");
    s.set_bias(false);
    assert_eq!(s.compute().grads.unwrap().bias, None);
}

#[test]
fn sgd_changes_exactly_the_cells_with_gradient() {
    let mut s = preset("fixed_2_to_3_3d");
    // Zero input column 1: weight.grad[:, 1] = 0, so only weight column 0 and bias move.
    for n in 0..6 {
        s.edit("input", 2 * n + 1, "0").unwrap();
    }
    s.apply(&Edit::Lr { text: "0.5".into() }).unwrap();
    let before = s.clone();
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.learning.steps, 1);
    assert_eq!(s.learning.changed_in("weight"), [0, 2, 4]);
    assert_eq!(s.learning.changed_in("bias"), [0, 1, 2]);
    // weight.grad[:, 0] = Σ input[..., 0] = 12; bias.grad = 6.
    assert_eq!(s.weight.data(), [-6., 0., -6., 1., -5., 0.]);
    assert_eq!(s.bias.data(), [-2.; 3]);
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.learning.steps, 2);
    s.undo().unwrap();
    assert_eq!(s.weight.data(), [-6., 0., -6., 1., -5., 0.]);
    assert!(s.learning.changed.is_empty());
    s.reset().unwrap();
    assert_eq!((&s.weight, &s.bias, s.learning.steps), (&before.weight, &before.bias, 0));
    assert!(s.undo().is_err());

    // bias=False: only weight steps; an edit of a parameter forgets the steps.
    s.set_bias(false);
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.learning.changed_in("bias"), Vec::<usize>::new());
    assert_eq!(s.bias, before.bias);
    s.edit("weight", 1, "3").unwrap();
    assert_eq!((s.learning.steps, s.learning.history.len()), (0, 0));
    s.apply(&Edit::Step).unwrap();
    s.edit("input", 0, "3").unwrap();
    assert_eq!(s.learning.steps, 1, "the input is not a parameter");
    assert_eq!(s.apply(&Edit::Lr { text: "-1".into() }).unwrap_err(), "ValueError: Invalid learning rate: -1");
}

#[test]
fn the_mse_target_follows_the_output_shape() {
    let mut s = preset("batch_6_to_10");
    assert!(s.edit("target", 0, "1").unwrap_err().contains("no target"));
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.edit("target", 19, "1").unwrap();
    assert!(s.edit("target", 20, "1").is_err());
    s.set_lead(0, "3").unwrap();
    assert!(s.compute().issues.is_empty());
    assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [3, 10]));
    s.set_out_features("4").unwrap();
    s.set_rank(1).unwrap();
    assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [4]));
    // A damaged save whose target no longer fits: pinned on target, no gradient, no panic.
    s.learning.loss = Loss::Mse { target: Tensor::zeros(vec![7]).unwrap() };
    let c = s.compute();
    assert!(c.output.is_some() && c.grads.is_none() && c.loss.is_none());
    assert_eq!(c.issues[0].tensor, "target");
    assert!(c.backward.is_empty());
    assert!(s.apply(&Edit::Step).is_err());
    s.apply(&Edit::Loss { mse: false }).unwrap();
    assert!(s.compute().issues.is_empty());
    // Saves from before learning existed still load.
    let json = to_json(&preset("vector_6_to_10"));
    let old = serde_json::to_string(&{
        let mut v: Value = serde_json::from_str(&json).unwrap();
        v.as_object_mut().unwrap().remove("learning");
        v
    })
    .unwrap();
    assert_eq!(from_json::<State>(&old), Ok(preset("vector_6_to_10")));
}

#[test]
fn the_backward_trace_runs_from_the_last_output_cell() {
    let c = preset("batch_6_to_10").compute();
    assert_eq!(c.trace_of(Phase::Backward).len(), 20);
    let m = c.marks_in(Phase::Backward, 1); // output.grad[1, 9]
    assert_eq!(m.phase, Some(Phase::Backward));
    assert_eq!(m.of("output.grad", &[1, 9]), Some(Mark::Read));
    assert_eq!(m.of("input", &[1, 2]), Some(Mark::Read));
    assert_eq!(m.of("weight", &[9, 0]), Some(Mark::Read));
    assert_eq!(m.of("weight.T", &[0, 9]), Some(Mark::Read));
    assert_eq!(m.of("weight.grad", &[9, 5]), Some(Mark::Write));
    assert_eq!(m.of("bias.grad", &[9]), Some(Mark::Write));
    assert_eq!(m.of("input.grad", &[1, 0]), Some(Mark::Write));
    assert_eq!(m.of("input.grad", &[0, 0]), None);
    assert_eq!(c.marks_in(Phase::Backward, 2).of("weight.grad", &[9, 0]), Some(Mark::Done));
    assert_eq!(c.marks_in(Phase::Forward, 14), c.marks_at(14));
    // With its value, the batch's caption is too long for two lines: the value is on screen.
    let ways = c.describe_in(Phase::Backward, 1);
    assert_eq!(ways.len(), 3);
    assert!(write(&ways[0]).starts_with("output.grad[1, 9] = 1.0000 flows back into row 9 of weight.grad"));
    assert_eq!(
        write(&ways[2]),
        "output.grad[1, 9] flows back into row 9 of weight.grad, bias.grad[9] and input.grad row 1."
    );
    assert_eq!(
        caption(&ways, write),
        "output.grad[1, 9] flows back into row 9 of weight.grad (times input row 1), bias.grad[9] and \
         input.grad row 1 (times row 9 of weight)."
    );
    assert!(
        caption(&c.describe_in(Phase::Backward, 0), write).starts_with("Step forward: the loss sends output.grad back")
    );
    assert_eq!(c.describe_in(Phase::Forward, 14), [c.describe(14)]);
    let mut s = State::default();
    s.set_bias(false);
    let c = s.compute();
    assert_eq!(
        caption(&c.describe_backward(0), write),
        "Step forward: the loss sends output.grad back, from the last output cell to the first, adding into \
         weight.grad, input.grad."
    );
    let d = caption(&c.describe_backward(10), write);
    assert_eq!(d, "output.grad[0] = 1.0000 flows back into row 0 of weight.grad (times the input) and input.grad (times row 0 of weight).");
    let mut s = preset("batch_6_to_10");
    s.input = Tensor::zeros(vec![2, 5]).unwrap();
    assert!(caption(&s.compute().describe_backward(0), write).starts_with("No gradient"));
}

proptest::proptest! {
    /// Whatever a learner does with the controls, the layer still runs and the output has
    /// the input's leading dims and out_features.
    #[test]
    fn controls_keep_the_layer_runnable(
        ops in proptest::collection::vec((0u8..6, 0usize..40, -1i64..12), 0..12)
    ) {
        let mut s = State::default();
        for (op, a, b) in ops {
            let text = if b == 11 { "65".to_string() } else { b.to_string() };
            let _ = match op {
                0 => s.set_in_features(&text),
                1 => s.set_out_features(&text),
                2 => s.set_rank(a % 5),
                3 => s.set_lead(a % 3, &text),
                4 => {
                    s.set_bias(a % 2 == 0);
                    Ok(())
                }
                _ => s.edit(["weight", "weight.T", "bias", "input"][a % 4], a, &text),
            };
        }
        let c = s.compute();
        proptest::prop_assert!(c.issues.is_empty());
        let want = [s.lead(), &[s.out_features()]].concat();
        proptest::prop_assert_eq!(c.output.map(|y| y.shape().to_vec()), Some(want));
        proptest::prop_assert_eq!(s.input.last_dim(), s.in_features());
    }
}

#[test]
fn state_round_trips_as_json() {
    let mut s = preset("fixed_2_to_3_3d");
    s.set_bias(false);
    assert_eq!(from_json::<State>(&to_json(&s)), Ok(s));
    assert!(from_json::<State>("{\"weight\": 3}").is_err());
}

#[test]
fn backward_formulas_are_the_sums_backward_makes() {
    use crate::scene::contract::View;
    // A batch: weight.grad[i, k] sums over both input rows; bias.grad[i] over both output.grads.
    let c = preset("batch_6_to_10").compute();
    let grads = c.grads.as_ref().unwrap();
    let f = View::formula(&c, "weight.grad", &[9, 2]).unwrap();
    assert_eq!(f.target, "weight.grad[9, 2]");
    let names: Vec<String> = f.products.iter().map(|(a, b)| format!("{}·{}", a.name, b.name)).collect();
    assert_eq!(names, ["output.grad[0, 9]·input[0, 2]", "output.grad[1, 9]·input[1, 2]"]);
    let sum: f32 = f.products.iter().map(|(a, b)| a.value * b.value).sum();
    assert_eq!(f.value, grads.weight.get(&[9, 2]).unwrap());
    assert!((sum - f.value).abs() < 1e-6);
    let b = View::formula(&c, "bias.grad", &[4]).unwrap();
    assert_eq!(
        b.constants.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        ["output.grad[0, 4]", "output.grad[1, 4]"]
    );
    assert_eq!(b.value, 2.0);
    // input.grad[1, 5] = Σ_i output.grad[1, i]·weight[i, 5]: one product per output feature.
    let x = View::formula(&c, "input.grad", &[1, 5]).unwrap();
    assert_eq!(x.products.len(), 10);
    assert_eq!(x.products[3].1.name, "weight[3, 5]");
    assert_eq!(x.value, grads.input.get(&[1, 5]).unwrap());
    // A vector: no batch index; a cell that is not there has no formula.
    let c = State::default().compute();
    let f = View::formula(&c, "weight.grad", &[9, 0]).unwrap();
    assert_eq!(
        f.products.iter().map(|(a, b)| format!("{}·{}", a.name, b.name)).collect::<Vec<_>>(),
        ["output.grad[9]·input[0]"]
    );
    assert!(View::formula(&c, "weight.grad", &[10, 0]).is_none());
    assert!(View::formula(&c, "input.grad", &[]).is_none());
    assert!(View::formula(&c, "weight", &[0, 0]).is_none());
}
