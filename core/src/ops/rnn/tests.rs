use super::*;
use serde_json::{json, Value};

fn fixtures(op: &str) -> Vec<Value> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/torch");
    let files = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
    let json = files.filter(|p| p.extension().is_some_and(|e| e == "json"));
    let cases = json.map(|p| serde_json::from_str::<Value>(&std::fs::read_to_string(p).unwrap()).unwrap());
    cases.filter(|c| c["op"] == op).collect()
}

fn from<T: serde::de::DeserializeOwned>(v: &Value) -> T {
    serde_json::from_value(v.clone()).unwrap()
}

/// A fixture's `config`, PyTorch's defaults for what it leaves out.
fn config(v: &Value) -> RnnConfig {
    let mut c = json!({"num_layers": 1, "nonlinearity": "tanh", "bias": true});
    (c["batch_first"], c["bidirectional"]) = (false.into(), false.into());
    c.as_object_mut().unwrap().extend(v.as_object().unwrap().clone());
    from(&c)
}

fn packing(case: &Value) -> Option<Packing> {
    Some(Packing {
        lengths: from::<Tensor<i64>>(case.get("lengths")?).into_data(),
        enforce_sorted: case.get("enforce_sorted").is_none_or(|e| e == true),
        padding_value: case["padding_value"].as_f64().unwrap_or(0.0) as f32,
    })
}

fn rnn_of(case: &Value) -> Rnn {
    let params = case["params"].as_object().unwrap().iter().map(|(n, t)| (n.clone(), from(t)));
    Rnn::new(config(&case["config"]), params.collect()).unwrap()
}

#[test]
fn gradients_match_finite_differences() {
    // Two layers, bidirectional, packed (lengths 2, 2, 1, 1), and a nonzero h0.
    let case =
        fixtures("rnn").into_iter().find(|c| c["name"] == "seed_rnn_2x3_two_layers_bidirectional_packed").unwrap();
    let (rnn, input, pack) = (rnn_of(&case), from::<Tensor>(&case["input"]), packing(&case).unwrap());
    let h0 = Tensor::new(vec![4, 4, 3], (0..48).map(|i| (i * 7 % 11) as f32 / 10.0 - 0.5).collect()).unwrap();
    let (up, up_h): (Tensor, Tensor) = (from(&case["upstream"]["output"]), from(&case["upstream"]["h_n"]));
    let g = rnn.backward(&input, Some(&h0), Some(&pack), &up, &up_h).unwrap();
    let dot = |a: &Tensor, b: &Tensor| a.data().iter().zip(b.data()).map(|(a, b)| (a * b) as f64).sum::<f64>();
    let loss = |rnn: &Rnn, x: &Tensor, h0: &Tensor| {
        let o = rnn.forward(x, Some(h0), Some(&pack)).unwrap();
        dot(&o.output, &up) + dot(&o.h_n, &up_h)
    };
    // (L(p + ε) - L(p - ε)) / 2ε for element j of what `at` picks out of (rnn, input, h0).
    let fd = |j: usize, at: &dyn Fn(&mut (Rnn, Tensor, Tensor)) -> &mut Tensor| {
        let eps = 1e-2;
        let [plus, minus] = [eps, -eps].map(|e| {
            let mut m = (rnn.clone(), input.clone(), h0.clone());
            at(&mut m).data_mut()[j] += e;
            loss(&m.0, &m.1, &m.2)
        });
        (plus - minus) / (2.0 * eps as f64)
    };
    let close = |what: String, fd: f64, an: f32| {
        assert!((fd - an as f64).abs() <= 1e-2 * (an.abs() as f64).max(1.0), "{what}: fd {fd} vs {an}");
    };
    for (p, j) in [(0, 1), (1, 4), (5, 2), (7, 0), (8, 11), (13, 8), (15, 2)] {
        close(rnn.params[p].0.clone(), fd(j, &|m| &mut m.0.params[p].1), g.params[p].1.data()[j]);
    }
    for j in [0, 3, 5, 9, 12, 15] {
        close(format!("input[{j}]"), fd(j, &|m| &mut m.1), g.input.data()[j]);
    }
    for j in [0, 4, 13, 20, 35, 47] {
        close(format!("h0[{j}]"), fd(j, &|m| &mut m.2), g.h0.as_ref().unwrap().data()[j]);
    }
    assert!(g.input.data()[(4 + 2) * 2..].iter().all(|&x| x == 0.0)); // rows 2, 3 at t = 1: padding
}

fn small(layers: usize, bidirectional: bool, batch_first: bool) -> Rnn {
    let config = RnnConfig { num_layers: layers, bidirectional, batch_first, ..RnnConfig::new(2, 3) };
    let params = config.param_shapes().into_iter().map(|(n, s)| (n, Tensor::full(s, 0.1).unwrap()));
    Rnn::new(config, params.collect()).unwrap()
}

fn names(spans: &[Span]) -> Vec<String> {
    spans.iter().map(|s| s.to_string()).collect()
}

#[test]
fn trace_has_one_step_per_cell_in_pytorch_order() {
    let rnn = small(2, true, false);
    let (t, cells) = (rnn.forward_trace(&[3, 2, 2], None).unwrap(), rnn.trace_cells(&[3, 2, 2], None).unwrap());
    assert_eq!((t.len(), t.summarised), (2 * 2 * 3, false));
    assert_eq!(cells[3], Cell { layer: 0, direction: 1, t: Some(2) });
    assert_eq!(names(&t.steps[0].reads[..2]), ["input[0]", "h0[0]"]);
    assert_eq!(names(&t.steps[1].reads[..2]), ["input[1]", "h_l0[0]"]);
    assert_eq!(names(&t.steps[3].reads[..2]), ["input[2]", "h0[1]"]);
    assert_eq!(names(&t.steps[6].reads[..3]), ["h_l0[0]", "h_l0_reverse[0]", "h0[2]"]);
    for (step, c) in t.steps.iter().zip(&cells) {
        let ends = c.t == Some([2, 0][c.direction]);
        let h_n = step.writes_to("h_n").map(|s| s.to_string()).next();
        assert_eq!(h_n, ends.then(|| format!("h_n[{}]", c.layer * 2 + c.direction)));
        assert_eq!(step.writes_to("output").count(), c.layer);
    }
    let b = rnn.backward_trace(&[3, 2, 2], None).unwrap();
    assert_eq!(b.len(), t.len());
    assert!(b.steps.iter().all(|s| s.accumulate && s.phase == Phase::Backward));
    assert_eq!(names(&b.steps[0].reads[..2]), ["output.grad[0]", "h_n.grad[3]"]); // l1 reverse, t = 0
    assert_eq!(b.steps[0].writes[0].to_string(), "h_l1_reverse.grad[0]");
    assert_eq!(b.steps[1].reads[1].to_string(), "h_l1_reverse.grad[0]");
    assert!(b.steps[0].writes_to("weight_hh_l1_reverse.grad").next().is_some());
    assert_eq!(names(&b.steps[11].writes[5..]), ["input.grad[0]", "h0.grad[0]"]);
}

#[test]
fn packed_trace_names_the_rows_still_running() {
    let rnn = small(1, true, true);
    let pack = Packing { lengths: vec![1, 3], enforce_sorted: false, padding_value: 0.0 };
    let t = rnn.forward_trace(&[2, 4, 2], Some(&pack)).unwrap();
    assert_eq!(t.len(), 2 * 3); // max(lengths) steps per direction
    assert_eq!(names(&t.steps[0].reads[..2]), ["input[:, 0]", "h0[0]"]);
    assert_eq!(names(&t.steps[0].writes_to("h_n").cloned().collect::<Vec<_>>()), ["h_n[0, 0]"]);
    assert_eq!(names(&t.steps[1].reads[..2]), ["input[1, 1]", "h_l0[0, 1]"]);
    assert_eq!(names(&t.steps[3].reads[..2]), ["input[1, 2]", "h0[1, 1]"]);
    assert_eq!(names(&t.steps[5].reads[..3]), ["input[:, 0]", "h_l0_reverse[1, 1]", "h0[1, 0]"]);
    assert!(rnn.forward_trace(&[2, 5000, 2], None).unwrap().summarised);
}

#[test]
fn unbatched_is_a_batch_of_one_and_packing_pads_to_the_longest() {
    let rnn = small(2, true, true);
    let x = Tensor::new(vec![3, 2], vec![0.5, -1.0, 2.0, 0.0, -0.3, 0.8]).unwrap();
    let one = rnn.forward(&x, None, None).unwrap();
    let batch = rnn.forward(&x.clone().reshape(vec![1, 3, 2]).unwrap(), None, None).unwrap();
    assert_eq!((one.output.shape(), one.h_n.shape()), (&[3usize, 6][..], &[4usize, 3][..]));
    assert_eq!((one.output.data(), one.h_n.data()), (batch.output.data(), batch.h_n.data()));
    let pack = Packing { lengths: vec![2, 1], enforce_sorted: true, padding_value: -9.0 };
    let x = Tensor::full(vec![2, 4, 2], 1.0).unwrap();
    let out = rnn.forward(&x, None, Some(&pack)).unwrap();
    assert_eq!(out.output.shape(), [2, 2, 6]); // pad_packed_sequence stops at max(lengths) = 2
    assert!(out.output.data()[18..].iter().all(|&v| v == -9.0) && out.output.data()[..18].iter().all(|&v| v != -9.0));
    let g = rnn.backward(&x, None, Some(&pack), &Tensor::full(vec![2, 2, 6], 1.0).unwrap(), &out.h_n).unwrap();
    let nonzero: Vec<bool> = g.input.data().chunks(2).map(|r| r.iter().any(|&v| v != 0.0)).collect();
    assert_eq!(nonzero, [true, true, false, false, true, false, false, false]);
    // (b, t) rows, batch_first
}

#[test]
fn bad_calls_are_errors_not_panics() {
    let rnn = small(1, false, false);
    let err = |x: &[usize], h0: Option<&[usize]>, lengths: Option<Vec<i64>>| {
        let h0 = h0.map(|s| Tensor::zeros(s.to_vec()).unwrap());
        let p = lengths.map(|lengths| Packing { lengths, enforce_sorted: true, padding_value: 0.0 });
        rnn.forward(&Tensor::zeros(x.to_vec()).unwrap(), h0.as_ref(), p.as_ref()).unwrap_err().to_string()
    };
    assert_eq!(err(&[1, 2, 3, 2], None, None), "ValueError: RNN: Expected input to be 2D or 3D, got 4D tensor instead");
    assert_eq!(err(&[4, 2, 2], Some(&[1, 3, 3]), None), "RuntimeError: Expected hidden size (1, 2, 3), got [1, 3, 3]");
    assert!(err(&[4, 2], Some(&[1, 2, 3]), None).contains("hx should also be 2-D but got 3-D"));
    assert!(err(&[0, 2, 2], None, None).contains("sequence length to be larger than 0"));
    assert!(err(&[4, 2, 2], None, Some(vec![2])).contains("got 1 (batch_size=2)"));
    assert!(err(&[4, 2, 2], None, Some(vec![2, 0])).contains("greater than 0"));
    assert!(err(&[4, 2, 2], None, Some(vec![5, 1])).contains("longer than"));
    assert!(err(&[0, 2, 2], None, Some(vec![1, 1])).contains("Cannot pack empty tensors."));
    assert!(err(&[4], None, Some(vec![1])).starts_with("IndexError"));
    assert!(Rnn::new(RnnConfig::new(2, 3), vec![]).unwrap_err().message.contains("missing parameter 'weight_ih_l0'"));
    assert_eq!(rnn.forward(&Tensor::zeros(vec![2, 0, 2]).unwrap(), None, None).unwrap().output.shape(), [2, 0, 3]);
    let nan = Tensor::full(vec![2, 2], f32::NAN).unwrap();
    let out = rnn.forward(&nan, None, None).unwrap();
    assert_eq!((out.output.shape(), out.h_n.shape()), (&[2usize, 3][..], &[1usize, 3][..]));
    assert!(out.output.data().iter().all(|x| x.is_nan()));
    let g = rnn.backward(&nan, None, None, &out.output, &out.h_n).unwrap();
    assert_eq!(g.hidden_grads.shape(), [1, 2, 3]);
    assert!(rnn.backward(&nan, None, None, &out.h_n, &out.h_n).unwrap_err().message.starts_with("Mismatch in shape"));
    let huge = rnn.forward_trace(&[3, usize::MAX / 4, 2], None).unwrap(); // shapes only: nothing per row
    assert_eq!(names(&huge.steps[2].writes), ["h_l0[2]", "output[2]", "h_n[0]"]);
    assert!(rnn.backward_trace(&[usize::MAX, 1, 2], None).unwrap().summarised);
}
