use super::*;
use crate::say::write;
use crate::scene::fixtures::fixture;
use crate::scene::{from_json, to_json};
use crate::trace::Mark;
use serde_json::Value;

pub(super) fn tensor(v: &Value) -> Tensor {
    serde_json::from_value(v.clone()).unwrap()
}
pub(super) fn bits(t: &Tensor) -> Vec<u32> {
    t.data().iter().map(|x| x.to_bits()).collect()
}
pub(super) fn close(what: &str, got: &Tensor, want: &Tensor) {
    assert_eq!(got.shape(), want.shape(), "{what} shape");
    for (a, b) in got.data().iter().zip(want.data()) {
        assert!((a - b).abs() <= 1e-5 + 1e-5 * b.abs(), "{what}: {a} vs {b}");
    }
}

/// The state's parameters are the fixture's bit for bit, and its run gives PyTorch's output
/// and h_n.
pub(super) fn matches(s: &State, f: &Value) -> Run {
    for (name, t) in f["params"].as_object().unwrap() {
        assert_eq!(bits(find(&s.model.params, name).unwrap()), bits(&tensor(t)), "{name}");
    }
    assert_eq!(s.model.params.len(), f["params"].as_object().unwrap().len());
    let c = s.compute();
    assert!(c.issues.is_empty() && !c.stale, "{:?}", c.issues);
    let run = c.run.unwrap();
    close("output", &run.output, &tensor(&f["output"]));
    close("h_n", &run.h_n, &tensor(&f["h_n"]));
    run
}

/// A caption as the page says it in English: the longest way that fits two lines.
pub(super) fn said(ways: &[crate::say::Say]) -> String {
    crate::say::caption(ways, crate::say::write)
}

fn names(run: &Run, step: usize, reads: bool) -> Vec<String> {
    let s = &run.trace.steps[step];
    (if reads { &s.reads } else { &s.writes }).iter().map(|s| s.to_string()).collect()
}

#[test]
fn presets_reproduce_pytorch() {
    let f = fixture("seed_rnn_2_to_5_batch_first");
    let s = State::default();
    assert_eq!(s.preset, "rnn_2_5_batch_first");
    assert_eq!(Source::Tensor(tensor(&f["input"])), s.model.source);
    let run = matches(&s, &f);
    assert_eq!(crate::format::short(run.output.data()[0]), "0.9761");

    let f = fixture("seed_rnn_2x3_two_layers_bidirectional_packed");
    let s = State::preset("rnn_2x3_bi_packed").unwrap();
    assert_eq!(Source::Tensor(tensor(&f["input"])), s.model.source);
    assert_eq!(s.model.lengths.data(), [2, 2, 1, 1]);
    assert_eq!((s.model.packed, s.model.enforce_sorted, s.model.padding_value), (true, true, 1.0));
    let run = matches(&s, &f);
    assert_eq!(run.output.get(&[1, 3, 5]), Some(1.0)); // padded
}

#[test]
fn embedding_preset_looks_up_then_runs_with_the_same_generator() {
    let s = State::preset("embedding_to_rnn").unwrap();
    let mut g = Generator::manual_seed(0).unwrap();
    let table = g.embedding(10, 4, None).unwrap();
    let config = RnnConfig { batch_first: true, ..RnnConfig::new(4, 3) };
    assert_eq!(
        s.model.source,
        Source::Embedding { ids: Ids::new(vec![2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap(), weight: table.clone() }
    );
    assert_eq!(s.model.params, g.rnn(&config));
    let run = s.compute().run.unwrap();
    assert_eq!(run.input.shape(), [2, 3, 4]);
    assert_eq!(run.input.data()[4..8], table.data()[2 * 4..3 * 4]); // input[0, 1] = emb.weight[2]
    let rnn = Rnn::new(config, s.model.params.clone()).unwrap();
    assert_eq!(run.output, rnn.forward(&run.input, None, None).unwrap().output);
    assert_eq!(run.trace.len(), 6 + 3);
    assert_eq!(names(&run, 1, true), ["ids[0, 1]", "emb.weight[2]"]);
    assert_eq!(names(&run, 1, false), ["input[0, 1]"]);
    assert_eq!(names(&run, 6, true)[..2], ["input[:, 0]", "h0[0]"]);
    let m = run.trace.marks_at(2);
    assert_eq!((m.of("emb.weight", &[2, 3]), m.of("input", &[0, 1, 0])), (Some(Mark::Read), Some(Mark::Write)));
    assert_eq!(m.of("input", &[0, 0, 2]), Some(Mark::Done));
    assert_eq!(said(&run.describe(2)), "ids[0, 1] = 2: row 2 of emb.weight is copied to input[0, 1].");
    let f = run.step_formula(2, 0).unwrap();
    assert_eq!((f.target.as_str(), f.constants[0].name.as_str()), ("input[0, 1, 0]", "emb.weight[2, 0]"));
    assert_eq!(f.value, table.data()[8]);
    let f = run.step_formula(8, 1).unwrap();
    assert_eq!((f.target.as_str(), f.products[0].0.name.as_str()), ("h_l0[1, 1, 0]", "input[1, 1, 0]"));
    let c = s.compute();
    assert_eq!(
        c.shape_equation,
        "ids (2, 3) [(N, L)] → emb.weight[ids] → input (2, 3, 4) [(N, L, H_in)] → output (2, 3, 3) \
         [(N, L, D·H_out)], h_n (1, 2, 3) [(D·num_layers, N, H_out)]"
    );
}

#[test]
fn setters_rebuild_pytorch_cases() {
    // nn.RNN(3, 4, nonlinearity='relu', bias=False), seq-first, with h0 (seed 3).
    let f = fixture("rnn_relu_no_bias_seq_first_h0");
    let mut s = State::default();
    s.set_flag("batch_first", false).unwrap();
    s.set_size("input_size", "3").unwrap();
    s.set_size("hidden_size", "4").unwrap();
    s.set_nonlinearity("relu").unwrap();
    s.set_flag("bias", false).unwrap();
    s.set_size("seq_len", "5").unwrap();
    s.set_size("batch", "2").unwrap();
    s.set_flag("h0", true).unwrap();
    s.reinit("3").unwrap();
    let text = |v: &Value| serde_json::to_string(&v["data"]).unwrap();
    s.paste("input", 0, &text(&f["input"])).unwrap_err(); // a flat list is one row: too wide
    let rows = |v: &Value, w: usize| {
        let t = tensor(v);
        let rows: Vec<String> = t.data().chunks(w).map(py_list).collect();
        format!("[{}]", rows.join(", "))
    };
    s.paste("input", 0, &rows(&f["input"], 3)).unwrap();
    s.paste("h0", 0, &rows(&f["h0"], 4)).unwrap();
    matches(&s, &f);
    assert_eq!(s.compute().module, "nn.RNN(3, 4, nonlinearity='relu', bias=False)");
    assert_eq!(s.compute().rule, "h_t = relu(x_t W_ihᵀ + h_{t-1} W_hhᵀ)");

    // Three layers, batch_first (seed 6).
    let f = fixture("rnn_three_layers_batch_first");
    let mut s = State::default();
    s.set_size("hidden_size", "3").unwrap();
    s.set_size("num_layers", "3").unwrap();
    s.set_size("batch", "2").unwrap();
    s.set_size("seq_len", "4").unwrap();
    s.reinit("6").unwrap();
    s.paste("input", 0, &rows(&f["input"], 2)).unwrap();
    let run = matches(&s, &f);
    assert_eq!(run.states.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["h_l0", "h_l1", "h_l2"]);

    // Packed, lengths not sorted, enforce_sorted=False (seed 7).
    let f = fixture("rnn_packed_unsorted");
    let mut s = State::default();
    s.set_size("hidden_size", "2").unwrap();
    s.set_size("seq_len", "4").unwrap();
    s.reinit("7").unwrap();
    s.paste("input", 0, &rows(&f["input"], 2)).unwrap();
    s.set_flag("packed", true).unwrap();
    s.paste("lengths", 0, &serde_json::to_string(&f["lengths"]["data"]).unwrap()).unwrap();
    let c = s.compute();
    assert_eq!(c.issues[0].error.message, fixture("pack_lengths_not_sorted")["error"]["message"]);
    assert_eq!((c.issues[0].tensor.as_str(), c.issues[0].cell), ("lengths", Some(1)));
    s.set_flag("enforce_sorted", false).unwrap();
    matches(&s, &f);
}

#[test]
fn states_are_each_layers_h_t_and_feed_output_and_h_n() {
    let run = State::preset("rnn_2x3_bi_packed").unwrap().compute().run.unwrap();
    assert_eq!(run.states.len(), 4);
    let top = [&run.states[2].1, &run.states[3].1];
    for (t, b, f) in [(0, 0, 0), (1, 1, 4), (0, 3, 5), (0, 2, 1)] {
        assert_eq!(run.output.get(&[t, b, f]), top[f / 3].get(&[t, b, f % 3]), "output[{t}, {b}, {f}]");
    }
    // h_n[0] (layer 0 forward) is each sequence's own last step; h_n[1] (reverse) is t = 0.
    let (l0, l0r) = (&run.states[0].1, &run.states[1].1);
    assert_eq!(run.h_n.get(&[0, 0, 2]), l0.get(&[1, 0, 2]));
    assert_eq!(run.h_n.get(&[0, 3, 2]), l0.get(&[0, 3, 2]));
    assert_eq!(run.h_n.get(&[1, 3, 0]), l0r.get(&[0, 3, 0]));
    assert_eq!(l0.get(&[1, 3, 0]), Some(0.0)); // sequence 3 ended
}

#[test]
fn formulas_name_every_number() {
    let c = State::default().compute();
    let f = c.formula("output", &[0, 1, 2]).unwrap();
    assert_eq!(f.target, "output[0, 1, 2]");
    assert_eq!(f.func.as_deref(), Some("tanh"));
    let names: Vec<String> = f.products.iter().map(|(a, b)| format!("{}·{}", a.name, b.name)).collect();
    assert_eq!(names[0], "input[0, 1, 0]·weight_ih_l0[2, 0]");
    assert_eq!(names[2], "h_l0[0, 0, 0]·weight_hh_l0[2, 0]");
    assert_eq!(names.len(), 2 + 5);
    let consts: Vec<&str> = f.constants.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(consts, ["bias_ih_l0[2]", "bias_hh_l0[2]"]);
    let run = c.run.as_ref().unwrap();
    assert_eq!(Some(f.value), run.output.get(&[0, 1, 2]));
    let sum = f.products.iter().map(|(a, b)| a.value * b.value).sum::<f32>()
        + f.constants.iter().map(|c| c.value).sum::<f32>();
    assert!((sum.tanh() - f.value).abs() < 1e-5);
    let first = c.formula("output", &[2, 0, 0]).unwrap();
    assert_eq!(first.products[2].0.name, "h0[0, 2, 0]");
    assert_eq!(first.products[2].0.value, 0.0);
    assert_eq!(c.formula("h_n", &[0, 2, 1]).unwrap().value, run.output.get(&[2, 1, 1]).unwrap());
    assert!(c.formula("output", &[3, 0, 0]).is_none());

    let c = State::preset("rnn_2x3_bi_packed").unwrap().compute();
    let pad = c.formula("output", &[1, 2, 0]).unwrap();
    assert_eq!(
        (pad.func, pad.products.len(), pad.constants[0].name.as_str(), pad.value),
        (None, 0, "padding_value", 1.0)
    );
    // Layer 1 reverse at t = 0 reads both halves of layer 0 and the reverse state at t = 1.
    let f = c.formula("output", &[0, 0, 4]).unwrap();
    let reads: Vec<&str> = f.products.iter().map(|(a, _)| a.name.as_str()).collect();
    assert_eq!(
        reads[..6],
        [
            "h_l0[0, 0, 0]",
            "h_l0[0, 0, 1]",
            "h_l0[0, 0, 2]",
            "h_l0_reverse[0, 0, 0]",
            "h_l0_reverse[0, 0, 1]",
            "h_l0_reverse[0, 0, 2]"
        ]
    );
    assert_eq!(reads[6], "h_l1_reverse[1, 0, 0]");
    assert_eq!(f.products[6].1.name, "weight_hh_l1_reverse[1, 0]");
    // Sequence 2 has one step: its reverse pass starts at t = 0 from h0.
    let f = c.formula("h_n", &[1, 2, 0]).unwrap();
    assert_eq!(f.products[2].0.name, "h0[1, 2, 0]");
    assert_eq!(Some(f.value), c.run.as_ref().unwrap().h_n.get(&[1, 2, 0]));
}

#[test]
fn the_trace_lights_one_cell_per_step() {
    let run = State::default().compute().run.unwrap();
    assert_eq!(run.trace.len(), 2);
    let m = run.trace.marks_at(1);
    assert_eq!(m.of("input", &[2, 0, 1]), Some(Mark::Read));
    assert_eq!(m.of("input", &[2, 1, 1]), None);
    assert_eq!(m.of("output", &[1, 0, 4]), Some(Mark::Write));
    assert_eq!(m.of("h_n", &[0, 1, 4]), None);
    let m = run.trace.marks_at(2);
    assert_eq!((m.of("h_l0", &[0, 2, 0]), m.of("h_n", &[0, 1, 4])), (Some(Mark::Read), Some(Mark::Write)));
    assert_eq!(m.of("output", &[1, 0, 4]), Some(Mark::Done));
    assert_eq!(
        said(&run.describe(2)),
        "h_l0[1]: input[:, 1] and h_l0[0] times their weights, plus biases, through tanh. It is output[:, 1] and h_n[0]."
    );
    assert!(said(&run.describe(1)).contains("the start state h0[0]"));
    assert!(said(&run.describe(0)).contains("layer 0, forward, t = 0"));

    let run = State::preset("rnn_2x3_bi_packed").unwrap().compute().run.unwrap();
    assert_eq!(run.trace.len(), 2 * 2 * 2);
    // What does not fit two lines is left to the marks: here, h_n[0] for sequences 0, 1.
    assert_eq!(
        said(&run.describe(2)),
        "h_l0[1]: input[1] and h_l0[0] times their weights, plus biases, through tanh. No step for sequences 2, 3: \
         already ended."
    );
    let full = crate::say::write(&run.describe(2)[0]);
    assert!(full.ends_with("already ended. It is h_n[0] for sequences 0, 1."), "{full}");
    assert!(said(&run.describe(4)).ends_with("It is h_n[1]."));
    assert!(said(&run.describe(5)).starts_with("h_l1[0]: layer 0's h[0] and the start state h0[2]"));
    assert!(said(&run.describe(8)).ends_with("It is half of output[0] and h_n[3]."));
    let mut s = State::preset("rnn_2x3_bi_packed").unwrap();
    s.set_flag("bias", false).unwrap();
    assert!(said(&s.compute().run.unwrap().describe(8)).contains("times their weights, through tanh."));
}

#[test]
fn a_caption_says_its_lead_then_each_sentence_that_still_fits() {
    use crate::say::{Arg, Say};
    fn text(say: &Say) -> String {
        match say.args.as_slice() {
            [(_, Arg::Say(first)), (_, Arg::Say(next))] => format!("{} {}", text(first), text(next)),
            _ => say.id.to_string(),
        }
    }
    let say = |id| Say::new(id, Vec::new());
    let ways = super::run::ways(say("lead"), vec![say("a"), say("b"), say("c")]);
    let ways: Vec<String> = ways.iter().map(text).collect();
    assert_eq!(ways, ["lead a b c", "lead a b", "lead a c", "lead a", "lead b c", "lead b", "lead c", "lead"]);
    // The first that fits is what the old English chose: here `b` does not fit after `a`, `c` does.
    let fits = |s: &Say| if text(s).contains('b') && text(s).contains('a') { "x".repeat(200) } else { text(s) };
    let ways = super::run::ways(say("lead"), vec![say("a"), say("b"), say("c")]);
    assert_eq!(crate::say::caption(&ways, fits), "lead a c");
}

#[test]
fn lanes_show_skipped_steps_of_a_packed_sequence() {
    let c = State::preset("rnn_2x3_bi_packed").unwrap().compute();
    let run = c.run.clone().unwrap();
    let lanes = run.lanes(2);
    assert_eq!(
        lanes.iter().map(|l| (l.name.as_str(), l.k)).collect::<Vec<_>>(),
        [("h_l0", 0), ("h_l0_reverse", 1), ("h_l1", 2), ("h_l1_reverse", 3)]
    );
    let l0 = &lanes[0].cells;
    assert_eq!((l0[0].first, l0[0].last, l0[0].skipped), (true, true, false));
    assert_eq!((l0[1].skipped, l0[1].values.len()), (true, 0));
    assert_eq!((c.step_of(Phase::Forward, 0, 0, 0), c.step_of(Phase::Forward, 0, 0, 1)), (Some(0), Some(1)));
    assert_eq!((l0[0].x.as_str(), l0[0].prev.as_str()), ("input[0, 2]", "h0[0, 2]"));
    let rev = &lanes[1].cells;
    assert_eq!((rev[0].first, rev[0].last, c.step_of(Phase::Forward, 0, 1, 0)), (true, true, Some(3)));
    assert_eq!(lanes[2].cells[0].x, "h_l0[0, 2] | h_l0_reverse[0, 2]");
    let rev = &run.lanes(0)[1].cells;
    assert_eq!((rev[1].first, rev[1].last, rev[0].first, rev[0].last), (true, false, false, true));
    assert_eq!(rev[0].prev, "h_l0_reverse[1, 0]");
    assert_eq!(rev[0].values, run.states[1].1.data()[..3]);
    assert!(run.lanes(4).is_empty());
    assert_eq!(run.x(1, 1), [22.0, 22.0]);
}

#[test]
fn shapes_module_and_captions() {
    let c = State::default().compute();
    assert_eq!(
        c.shape_equation,
        "input (3, 2, 2) [(N, L, H_in)] → output (3, 2, 5) [(N, L, D·H_out)], h_n (1, 3, 5) [(D·num_layers, N, H_out)]"
    );
    assert_eq!(c.module, "nn.RNN(2, 5, batch_first=True)");
    assert_eq!(c.rule, "h_t = tanh(x_t W_ihᵀ + b_ih + h_{t-1} W_hhᵀ + b_hh)");
    assert_eq!(write(&c.output_caption), "output (3, 2, 5): h_t at every time step, for every sequence.");
    assert_eq!(
        write(&c.h_n_caption),
        "h_n (1, 3, 5): only the final state, one row per layer and direction (1 × 1 = 1), for each sequence; it \
         has no time axis. h_n[-1] equals output[:, -1]."
    );
    assert_eq!(c.packing_caption, None);
    let c = State::preset("rnn_2x3_bi_packed").unwrap().compute();
    assert_eq!(
        c.shape_equation,
        "input (2, 4, 2) [(L, N, H_in)] packed with lengths [2, 2, 1, 1] → output (2, 4, 6) [(max(lengths), N, \
         D·H_out)], h_n (4, 4, 3) [(D·num_layers, N, H_out)]"
    );
    assert_eq!(c.module, "nn.RNN(2, 3, num_layers=2, bidirectional=True)");
    assert_eq!(
        write(&c.output_caption),
        "output (2, 4, 6): h_t of the top layer (layer 1) at every time step, for every sequence. Each step's 6 \
         numbers are [forward | reverse]: 0–2 from the forward pass, 3–5 from the reverse pass. Past a sequence's \
         own length it holds padding_value = 1."
    );
    assert_eq!(
        write(&c.h_n_caption),
        "h_n (4, 4, 3): only the final state, one row per layer and direction (2 × 2 = 4), for each sequence; it \
         has no time axis. h_n[-2] (forward) equals the first half of each sequence's own last step of output; \
         h_n[-1] (reverse) ends at t = 0, so it equals the second half of output[0]. h_n[0] to h_n[1] come from \
         the lower layers, which output never shows."
    );
    assert_eq!(
        c.packing_caption.as_ref().map(write).as_deref(),
        Some(
            "Packed with lengths [2, 2, 1, 1]: each sequence runs only its own steps, and h_n holds each one's last \
             step. Here sequence 2 stops after t = 0, sequence 3 stops after t = 0; its later cells are skipped."
        )
    );
}

#[test]
fn bad_text_changes_nothing() {
    let mut s = State::default();
    let before = s.clone();
    assert!(s.edit("weight_ih_l0", 0, "abc").unwrap_err().starts_with("could not convert string to float: 'abc'"));
    assert!(s.edit("weight_ih_l0", 99, "1").is_err());
    assert!(s.edit("output", 0, "1").is_err());
    assert!(s.edit("h0", 0, "1").unwrap_err().contains("turn on h0"));
    assert!(s.edit("lengths", 0, "1.5").is_err());
    assert_eq!(s.set_size("hidden_size", "0"), Err("choose a size from 1 to 16".into()));
    assert!(s.set_size("num_layers", "4").is_err());
    assert!(s.set_size("num_embeddings", "5").is_err());
    assert!(s.set_nonlinearity("sigmoid").unwrap_err().starts_with("Unknown nonlinearity 'sigmoid'"));
    assert!(s.reinit("1.5").unwrap_err().starts_with("ValueError: invalid literal for int()"));
    assert!(s.set_padding_value("x").is_err());
    assert_eq!(s, before);
    assert!(!s.edited);
    s.edit("input", 0, "1").unwrap();
    assert!(s.edited && s.preset == "rnn_2_5_batch_first");
    let mut e = State::preset("embedding_to_rnn").unwrap();
    assert!(e.edit("input", 0, "1").unwrap_err().contains("edit ids or emb.weight"));
}

#[test]
fn edits_change_the_output() {
    let mut s = State::default();
    s.edit("weight_ih_l0", 0, "0.5").unwrap();
    let run = s.compute().run.unwrap();
    let f = s.compute().formula("output", &[0, 0, 0]).unwrap();
    assert_eq!(f.products[0].1.value, 0.5);
    assert_eq!(Some(f.value), run.output.get(&[0, 0, 0]));
    assert_ne!(run.output, State::default().compute().run.unwrap().output);
    s.set_flag("h0", true).unwrap();
    assert_eq!(s.compute().run.unwrap().output, run.output); // zeros = the default
    s.edit("h0", 5 + 2, "0.7").unwrap();
    assert_eq!(s.compute().formula("output", &[1, 0, 0]).unwrap().products[4].0.value, 0.7);
    let mut e = State::preset("embedding_to_rnn").unwrap();
    e.edit("ids", 0, "9").unwrap();
    let run = e.compute().run.unwrap();
    assert_eq!(run.input.data()[..4], find_emb(&e).data()[36..40]);
    e.edit("emb.weight", 36, "2").unwrap();
    assert_eq!(e.compute().run.unwrap().input.data()[0], 2.0);
}

fn find_emb(s: &State) -> &Tensor {
    match &s.model.source {
        Source::Embedding { weight, .. } => weight,
        Source::Tensor(_) => panic!("no embedding"),
    }
}

#[test]
fn problems_are_pinned_and_the_last_good_run_stays() {
    let mut s = State::default();
    let good = s.compute().run.unwrap().output;
    s.set_size("features", "4").unwrap();
    let c = s.compute();
    assert!(c.stale);
    assert_eq!(c.run.as_ref().unwrap().output, good);
    assert_eq!(c.notes("input"), ["RuntimeError: input.size(-1) must be equal to input_size. Expected 2, got 4 each time step brings 4 numbers, but the RNN was built with input_size = 2: make them equal"]);
    assert_eq!(c.issues[0].error.message, fixture("rnn_input_size_mismatch")["error"]["message"]);
    // Another edit while broken keeps the run that last worked.
    s.edit("weight_ih_l0", 0, "3").unwrap();
    assert_eq!(s.compute().run.unwrap().output, good);
    s.set_size("input_size", "4").unwrap();
    let c = s.compute();
    assert!(!c.stale && c.issues.is_empty() && s.last_good.is_none());
    assert_eq!(c.run.unwrap().input.shape(), [3, 2, 4]);

    let mut p = State::preset("rnn_2x3_bi_packed").unwrap();
    p.edit("lengths", 3, "0").unwrap();
    let c = p.compute();
    assert_eq!(c.cell_issues("lengths")[0].0, 3);
    assert!(c.cell_issues("lengths")[0].1.contains("greater than 0"));
    p.edit("lengths", 3, "1").unwrap();
    p.edit("lengths", 0, "3").unwrap();
    assert_eq!(p.compute().cell_issues("lengths")[0].0, 0);
    assert!(p.compute().issues[0].hint.contains("2 time steps"));
    p.edit("lengths", 0, "2").unwrap();
    assert!(p.compute().issues.is_empty());

    let mut e = State::preset("embedding_to_rnn").unwrap();
    e.edit("ids", 4, "10").unwrap();
    let c = e.compute();
    assert_eq!(
        c.cell_issues("ids"),
        [(4, "IndexError: index out of range in self ids pick rows of emb.weight, so they must be 0 to 9".to_string())]
    );
    assert!(c.stale && c.run.is_some());
    e.set_size("num_embeddings", "11").unwrap();
    assert!(e.compute().issues.is_empty());
}

#[test]
fn resizes_stay_linked() {
    let mut s = State::default();
    s.set_flag("h0", true).unwrap();
    s.edit("h0", 2, "0.25").unwrap(); // h0[0, 0, 2]
    s.set_size("batch", "4").unwrap();
    assert_eq!(s.model.lengths.data(), [2, 2, 2, 2]);
    assert_eq!(s.compute().run.unwrap().input.shape(), [4, 2, 2]);
    assert_eq!(s.model.h0.as_ref().unwrap().shape(), [1, 4, 5]);
    s.set_flag("bidirectional", true).unwrap();
    let h0 = s.model.h0.clone().unwrap();
    assert_eq!((h0.shape(), h0.get(&[0, 0, 2]), h0.get(&[1, 0, 2])), (&[2usize, 4, 5][..], Some(0.25), Some(0.0)));
    let config = s.model.config.clone();
    assert_eq!(s.model.params, Generator::manual_seed(0).unwrap().rnn(&config));
    s.set_size("hidden_size", "2").unwrap();
    assert_eq!(s.model.h0.as_ref().unwrap().get(&[0, 0, 1]), Some(0.0));
    s.set_size("num_layers", "2").unwrap();
    assert_eq!(s.model.params.len(), 16);
    assert_eq!(s.model.h0.as_ref().unwrap().shape(), [4, 4, 2]);
    s.set_size("seq_len", "1").unwrap();
    assert_eq!(s.model.lengths.data(), [1, 1, 1, 1]);
    let c = s.compute();
    assert!(c.issues.is_empty(), "{:?}", c.issues);
    assert_eq!(c.run.unwrap().output.shape(), [4, 1, 4]);
    assert_eq!((s.size("batch"), s.size("seq_len"), s.size("hidden_size"), s.size("num_layers")), (4, 1, 2, 2));
}

#[test]
fn batch_first_transposes_the_same_sequences() {
    let mut s = State::default();
    let before = s.compute().run.unwrap();
    s.set_flag("batch_first", false).unwrap();
    let after = s.compute().run.unwrap();
    assert_eq!(after.input.shape(), [2, 3, 2]);
    assert_eq!(after.input.get(&[1, 0, 0]), Some(12.0));
    assert_eq!(after.output.get(&[1, 2, 3]), before.output.get(&[2, 1, 3]));
    assert_eq!(after.h_n, before.h_n);
    assert!(s.compute().shape_equation.starts_with("input (2, 3, 2) [(L, N, H_in)]"));
    let mut e = State::preset("embedding_to_rnn").unwrap();
    e.set_flag("batch_first", false).unwrap();
    let Source::Embedding { ids, .. } = &e.model.source else { panic!() };
    assert_eq!((ids.shape(), ids.data()), (&[3usize, 2][..], &[1i64, 4, 2, 5, 3, 6][..]));
}

#[test]
fn reinit_is_torch_manual_seed() {
    let mut s = State::preset("embedding_to_rnn").unwrap();
    s.reinit("42").unwrap();
    assert_eq!(s.seed, "42");
    let mut g = Generator::manual_seed(42).unwrap();
    assert_eq!(find_emb(&s), &g.embedding(10, 4, None).unwrap());
    assert_eq!(s.model.params, g.rnn(&s.model.config));
    // An RNN size change keeps the (edited) table and re-draws the RNN after it.
    s.edit("emb.weight", 0, "5").unwrap();
    s.set_size("hidden_size", "2").unwrap();
    assert_eq!(find_emb(&s).data()[0], 5.0);
    let mut g = Generator::manual_seed(42).unwrap();
    g.embedding(10, 4, None).unwrap();
    assert_eq!(s.model.params, g.rnn(&s.model.config));
    s.set_size("input_size", "3").unwrap();
    let mut g = Generator::manual_seed(42).unwrap();
    assert_eq!(find_emb(&s), &g.embedding(10, 3, None).unwrap());
    assert!(s.compute().issues.is_empty());
}

#[test]
fn relu_and_padding_value() {
    let mut s = State::preset("rnn_2x3_bi_packed").unwrap();
    s.set_padding_value("-2").unwrap();
    assert_eq!(s.compute().run.unwrap().output.get(&[1, 3, 0]), Some(-2.0));
    s.set_nonlinearity("'relu'").unwrap();
    let c = s.compute();
    assert!(c.run.as_ref().unwrap().states.iter().all(|(_, t)| t.data().iter().all(|&v| v >= 0.0)));
    assert_eq!(c.formula("output", &[0, 0, 0]).unwrap().func.as_deref(), Some("relu"));
    s.set_flag("packed", false).unwrap();
    assert_eq!(s.compute().run.unwrap().output.get(&[1, 3, 0]).map(|v| v >= 0.0), Some(true));
}

#[test]
fn saved_scenes_round_trip_and_damaged_ones_never_panic() {
    for (id, _) in PRESETS {
        let s = State::preset(id).unwrap();
        assert_eq!(from_json::<State>(&to_json(&s)).unwrap(), s);
    }
    let mut s = State::default();
    s.model.config.num_layers = 1 << 40;
    let c = s.compute();
    assert_eq!(c.issues[0].tensor, "config");
    assert!(c.run.is_none() && c.stale);
    assert_eq!(said(&c.describe(1)), "Nothing has run yet: fix the marked field.");
    assert_eq!(said(&c.describe_backward(1)), "No backward while PyTorch raises on the forward call.");
    assert!(s.set_size("batch", "2").unwrap_err().contains("choose a preset"));
    let mut s = State::default();
    s.model.source = Source::Tensor(Tensor::vector(vec![1.0; 5]));
    assert!(s.compute().run.is_none());
    assert!(s.set_flag("batch_first", false).is_err());
    // Data that does not fit its shape is refused when read; lengths that miss the batch run nothing.
    let json = to_json(&State::default()).replacen("[11.0,11.0,12.0", "[11.0,12.0", 1);
    assert!(from_json::<State>(&json).is_err());
    let mut s = State::default();
    s.model.lengths = Ids::vector(vec![2; 5]);
    assert_eq!(s.compute().issues[0].tensor, "config");
    assert!(s.set_flag("batch_first", false).is_err() && s.reinit("1").is_err());
    let mut s = State::default();
    s.model.params.pop();
    assert!(s.compute().issues[0].error.message.contains("missing parameter 'bias_hh_l0'"));
}

#[test]
fn every_way_of_every_caption_is_said_and_fits_in_every_language() {
    use crate::say::{caption, width, Fluent, CAPTION};
    use crate::scene::contract::{Edit, View};
    // The presets; then three bidirectional layers, relu, no bias, h_n in the loss, seq-first;
    // and an h0 with sequences of unsorted lengths, which start and end at different steps.
    let mut states: Vec<State> = PRESETS.iter().map(|(id, _)| State::preset(id).unwrap()).collect();
    let mut s = State::preset("rnn_2x3_bi_packed").unwrap();
    s.set_size("num_layers", "3").unwrap();
    s.set_nonlinearity("relu").unwrap();
    s.set_flag("bias", false).unwrap();
    s.set_h_n_in_loss(true);
    s.apply(&Edit::Loss { mse: true }).unwrap();
    states.push(s);
    let mut s = State::preset("rnn_2x3_bi_packed").unwrap();
    s.set_flag("h0", true).unwrap();
    s.set_flag("enforce_sorted", false).unwrap();
    s.model.lengths = Ids::vector(vec![1, 2, 1, 2]);
    states.push(s);
    let mut s = State::default();
    s.model.params.pop();
    states.push(s);
    let languages = ["en", "es", "zh-CN"].map(|lang| (lang, Fluent::language(lang)));
    for (n, s) in states.iter().enumerate() {
        let c = s.compute();
        for phase in [Phase::Forward, Phase::Backward] {
            for k in 0..=c.trace(phase).map_or(1, |t| t.len()) {
                let ways = View::describe(&c, phase, k);
                assert!(!ways.is_empty(), "{n} {phase:?} {k}");
                for (lang, fluent) in &languages {
                    for way in &ways {
                        let text = fluent.say(way);
                        assert!(!text.contains("rnn-") && !text.contains('{'), "{lang} {}: {text}", way.id);
                    }
                    let text = caption(&ways, |w| fluent.say(w));
                    assert!(width(&text) <= CAPTION, "{lang} {n} {phase:?} {k}: {text}");
                }
            }
        }
    }
}
