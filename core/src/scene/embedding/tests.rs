use super::*;
use crate::format::short;
use crate::say::{caption, write};
use crate::scene::contract::{Edit, Scene};
use crate::scene::fixtures::{fixture, floats, ints, shape};
use crate::trace::Mark;

fn bits(xs: &[f32]) -> Vec<u32> {
    xs.iter().map(|x| x.to_bits()).collect()
}

/// A preset against its fixture: the table bit for bit, the ids, and the output.
fn matches_fixture(preset: &str, name: &str) {
    let (s, f) = (State::preset(preset).unwrap(), fixture(name));
    assert_eq!(s.weight.shape(), shape(&f["params"]["weight"]));
    assert_eq!(bits(s.weight.data()), bits(&floats(&f["params"]["weight"])), "{preset} table");
    assert_eq!(s.input.shape(), shape(&f["input"]));
    let ids: Vec<i64> = f["input"]["data"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
    assert_eq!(s.input.data(), ids);
    let c = s.compute();
    assert!(c.issues.is_empty() && !c.stale);
    assert_eq!(c.output.shape(), shape(&f["output"]));
    assert_eq!(bits(c.output.data()), bits(&floats(&f["output"])), "{preset} output");
    assert_eq!(s.padding_idx, f["config"]["padding_idx"].as_i64());
    assert_eq!(s.from_pretrained, f["config"]["from_pretrained"].as_bool().unwrap_or(false));
}

/// The preset built from a fixture's own table, ids and config (not one of the presets).
fn from_fixture(name: &str) -> (State, serde_json::Value) {
    let f = fixture(name);
    let weight = Tensor::new(shape(&f["params"]["weight"]), floats(&f["params"]["weight"])).unwrap();
    let input = Ids::new(shape(&f["input"]), ints(&f["input"])).unwrap();
    let mut s = State::new(name, weight, input);
    let flag = |k: &str| f["config"][k].as_bool();
    s.padding_idx = f["config"]["padding_idx"].as_i64();
    s.sparse = flag("sparse").unwrap_or(false);
    s.from_pretrained = flag("from_pretrained").unwrap_or(false);
    s.freeze = flag("freeze").unwrap_or(true);
    s.settle();
    (s, f)
}

fn close(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-5 + 1e-5 * w.abs(), "{what}[{k}]: {g} vs PyTorch {w}");
    }
}

/// `weight.grad` for the fixture's own (random) upstream, through the scene's module.
fn grad_for_upstream(s: &State, f: &serde_json::Value) -> EmbeddingGrads {
    let up = Tensor::new(shape(&f["upstream"]), floats(&f["upstream"])).unwrap();
    s.module().unwrap().backward(&s.input, &up).unwrap()
}

#[test]
fn grads_equal_pytorch_for_the_fixtures_upstream() {
    for (preset, name) in
        [("seed123_4x5", "seed_embedding_4x5_seed123_idx_2_3_1"), ("padding_10x3", "seed_embedding_10x3_padding_idx_1")]
    {
        let (s, f) = (State::preset(preset).unwrap(), fixture(name));
        let g = grad_for_upstream(&s, &f).weight.unwrap();
        close(g.data(), &floats(&f["grads"]["weight"]), name);
    }
    for name in ["embedding_duplicates_accumulate_grad", "embedding_from_pretrained_trainable"] {
        let (s, f) = from_fixture(name);
        close(grad_for_upstream(&s, &f).weight.unwrap().data(), &floats(&f["grads"]["weight"]), name);
    }
    // sparse=True: PyTorch's uncoalesced COO list, one entry per id in input order.
    let (s, f) = from_fixture("embedding_sparse_grad");
    let g = grad_for_upstream(&s, &f);
    close(g.weight.unwrap().data(), &floats(&f["grads"]["weight"]), "sparse dense");
    let sp = g.sparse.unwrap();
    assert_eq!(sp.indices, ints(&f["sparse_grad"]["indices"]));
    assert_eq!(sp.values.shape(), shape(&f["sparse_grad"]["values"]));
    close(sp.values.data(), &floats(&f["sparse_grad"]["values"]), "sparse values");
    assert_eq!(sp.coalesced_rows(), ints(&f["sparse_grad"]["coalesced_rows"]));
}

#[test]
fn sum_loss_grad_counts_the_ids() {
    let c = State::default().compute();
    assert_eq!(c.loss, Some(c.output.data().iter().map(|&x| x as f64).sum::<f64>() as f32));
    assert_eq!(c.upstream.as_ref().unwrap().data(), [1.0; 15]);
    let g = c.grads.unwrap().weight.unwrap();
    assert_eq!(g.data()[..5], [0.0; 5]);
    assert_eq!(g.data()[5..], [1.0; 15]);
    assert!(c.no_grad.is_none() && c.loss_error.is_none());
    // Ids [2, 4, 3, 1, 2, 0, 1, 1] with padding_idx=1: row r gets its count, row 1 none.
    let c = State::preset("padding_10x3").unwrap().compute();
    let g = c.grads.clone().unwrap().weight.unwrap();
    let rows: Vec<f32> = (0..10).map(|r| g.data()[r * 3]).collect();
    assert_eq!(rows, [1.0, 0.0, 2.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let overview = c.describe_backward(0, Some(1));
    assert!(write(&overview[0]).contains("weight.grad[1] is the padding row"));
    assert_eq!(
        caption(&View::describe(&c, Phase::Backward, 0), write),
        "5 gradient rows flow back, each added into the weight.grad row its id selected. weight.grad[1] is the padding \
         row: id 1 sends none."
    );
    assert_eq!(
        write(&overview[1]),
        "5 gradient rows flow back, each added into the weight.grad row its id selected.",
        "the shorter way"
    );
    let c = State::default().compute();
    assert_eq!(
        caption(&View::describe(&c, Phase::Backward, 0), write),
        "3 gradient rows flow back, each added into the weight.grad row its id selected. Rows no id selected stay zero."
    );
    // The duplicates fixture: id 1 three times.
    let (s, _) = from_fixture("embedding_duplicates_accumulate_grad");
    let g = s.compute().grads.unwrap().weight.unwrap();
    assert_eq!(g.data()[4..8], [3.0; 4]);
}

#[test]
fn mse_loss_matches_pytorch_with_padding() {
    let (mut s, f) = from_fixture("embedding_mse_loss_padding");
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.edit("target", 1, "-0.17916560173034668").unwrap();
    let target = Tensor::new(shape(&f["loss"]["target"]), floats(&f["loss"]["target"])).unwrap();
    assert!(
        matches!(&s.learning.loss, Loss::Mse { target: t } if t.data()[1] == target.data()[1] && t.data()[0] == 0.0)
    );
    s.learning.loss = Loss::Mse { target };
    let c = s.compute();
    let want = f["loss"]["value"].as_f64().unwrap() as f32;
    assert!((c.loss.unwrap() - want).abs() < 1e-5, "{:?} vs {want}", c.loss);
    close(c.upstream.as_ref().unwrap().data(), &floats(&f["upstream"]), "mse upstream");
    close(c.grads.unwrap().weight.unwrap().data(), &floats(&f["grads"]["weight"]), "mse grads");
    // The target follows the output's shape.
    s.set_embedding_dim("2").unwrap();
    assert!(matches!(&s.learning.loss, Loss::Mse { target } if target.shape() == [2, 3, 2]));
    assert!(s.compute().loss_error.is_none());
    s.apply(&Edit::Loss { mse: false }).unwrap();
    assert!(s.edit("target", 0, "1").is_err());
}

#[test]
fn backward_trace_accumulates_repeats_and_skips_padding() {
    let c = State::preset("padding_10x3").unwrap().compute();
    // 8 ids, three of them the padding id 1: 5 steps.
    assert_eq!(c.backward.len(), 5);
    let m = c.backward.marks_at(5);
    assert_eq!(m.phase, Some(crate::trace::Phase::Backward));
    assert_eq!(m.of("output.grad", &[1, 1, 0]), Some(Mark::Read));
    assert_eq!(m.of("weight.grad", &[0, 2]), Some(Mark::Write));
    assert_eq!(m.of("weight.grad", &[2, 0]), Some(Mark::Done));
    let steps: Vec<(usize, bool)> = c.back_picks.iter().map(|(p, a)| (p.row, *a)).collect();
    assert_eq!(steps, [(2, false), (4, false), (3, false), (2, true), (0, false)]);
    assert_eq!(
        caption(&c.describe_backward(1, Some(1)), write),
        "weight.grad[2] += output.grad[0, 0]: input[0, 0] = 2 looked that row up."
    );
    assert_eq!(
        caption(&View::describe(&c, Phase::Backward, 4), write),
        "weight.grad[2] += output.grad[1, 0]: id 2 was looked up before, so its gradient adds up."
    );
}

/// While backward plays, weight.grad holds the rows added so far: a repeated id's row 1, then
/// 2; a row not reached yet 0; at the start and the end the grids show it whole.
#[test]
fn the_gradient_adds_up_as_backward_plays() {
    let s = State::preset("padding_10x3").unwrap();
    let c = s.compute();
    let row = |k: usize, r: usize| s.grad_at(&c, "weight.grad", k).map(|g| g.data()[r * 3]);
    assert_eq!([row(1, 2), row(3, 2), row(4, 2), row(4, 0)], [Some(1.0), Some(1.0), Some(2.0), Some(0.0)]);
    assert_eq!([row(0, 2), row(5, 2)], [None, None], "whole before and after the pass");
    assert_eq!(s.grad_at(&c, "output.grad", 2), None);
    // The last step adds id 0's row: before it, all but that row is the whole gradient.
    let (whole, before) = (c.grads.as_ref().unwrap().weight.clone().unwrap(), s.grad_at(&c, "weight.grad", 4).unwrap());
    assert_eq!(&before.data()[3..], &whole.data()[3..]);
    assert_eq!((before.data()[0], whole.data()[0]), (0.0, 1.0));
}

#[test]
fn frozen_table_has_no_grad_and_refuses_to_step() {
    let mut s = State::preset("pretrained_5x4").unwrap();
    let c = s.compute();
    assert_eq!(c.grads.as_ref().map(|g| g.weight.is_none()), Some(true));
    assert!(c.backward.is_empty());
    assert!(c.no_grad.as_ref().unwrap().contains("requires_grad=False"));
    assert_eq!(caption(&c.describe_backward(0, None), write), FROZEN, "the same reason as SGD's refusal");
    let before = s.clone();
    assert!(s.apply(&Edit::Step).unwrap_err().contains("requires_grad=False"));
    assert_eq!(s, before);
    s.apply(&Edit::flag("freeze", false)).unwrap();
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.learning.steps, 1);
}

#[test]
fn sgd_moves_exactly_the_looked_up_rows_undo_and_reset() {
    let mut s = State::default();
    let w0 = s.weight.clone();
    s.apply(&Edit::Lr { text: "0.1".into() }).unwrap();
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.learning.changed_in("weight"), (5..20).collect::<Vec<_>>());
    assert_eq!(s.weight.data()[..5], w0.data()[..5]);
    for k in 5..20 {
        assert_eq!(s.weight.data()[k], 1.0f32.mul_add(-0.1, w0.data()[k]));
    }
    // The output follows the stepped table.
    assert_eq!(s.compute().output.data()[..5], s.weight.data()[10..15]);
    s.apply(&Edit::Step).unwrap();
    assert_eq!(s.learning.steps, 2);
    s.undo().unwrap();
    assert_eq!(s.learning.steps, 1);
    assert!(s.learning.changed_in("weight").is_empty());
    s.reset().unwrap();
    assert_eq!((&s.weight, s.learning.steps), (&w0, 0));
    assert!(s.undo().is_err());
    // The padding row and rows no id picks never move; a repeated id moves twice as far.
    let mut p = State::preset("padding_10x3").unwrap();
    let w = p.weight.clone();
    p.apply(&Edit::Step).unwrap();
    let rows: Vec<usize> = p.learning.changed_in("weight").iter().map(|i| i / 3).collect();
    assert_eq!(rows, [0, 0, 0, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    assert_eq!(p.weight.data()[6], 2.0f32.mul_add(-0.1, w.data()[6]));
    // An edit of the table forgets the steps, so undo cannot silently throw it away.
    p.edit("weight", 0, "1").unwrap();
    assert_eq!(p.learning.steps, 0);
    assert!(p.undo().is_err());
    assert!(p.apply(&Edit::Lr { text: "-1".into() }).unwrap_err().contains("Invalid learning rate"));
    // While PyTorch raises there is nothing to step.
    p.edit("input", 0, "10").unwrap();
    assert!(p.apply(&Edit::Step).is_err());
    let c = p.compute();
    assert!(c.grads.is_none() && c.loss.is_none() && c.backward.is_empty());
}

#[test]
fn sparse_grad_is_the_uncoalesced_coo_list() {
    let mut s = State::preset("padding_10x3").unwrap();
    s.apply(&Edit::flag("sparse", true)).unwrap();
    let c = s.compute();
    let sp = c.grads.unwrap().sparse.unwrap();
    assert_eq!(sp.indices, [2, 4, 3, 2, 0]);
    assert_eq!(sp.values.shape(), [5, 3]);
    assert_eq!(sp.coalesced_rows(), [0, 2, 3, 4]);
}

#[test]
fn old_autosaves_without_learning_still_load() {
    let mut v: serde_json::Value = serde_json::from_str(&super::super::to_json(&State::default())).unwrap();
    v.as_object_mut().unwrap().remove("learning");
    let s: State = super::super::from_json(&v.to_string()).unwrap();
    assert_eq!(s, State::default());
}

#[test]
fn presets_reproduce_pytorch() {
    matches_fixture("seed123_4x5", "seed_embedding_4x5_seed123_idx_2_3_1");
    matches_fixture("pretrained_5x4", "seed_embedding_from_pretrained_batch");
    matches_fixture("padding_10x3", "seed_embedding_10x3_padding_idx_1");
    let row0: Vec<String> = State::default().compute().output.data()[..5].iter().map(|&x| short(x)).collect();
    assert_eq!(row0, ["0.6957", "-1.8061", "-1.1589", "0.3255", "-0.6315"]);
}

#[test]
fn big_table_is_seed_0_and_rows_are_copied() {
    let s = State::preset("big_1000x30").unwrap();
    let mut g = Generator::manual_seed(0).unwrap();
    assert_eq!(s.weight, g.embedding(1000, 30, None).unwrap());
    let c = s.compute();
    assert_eq!(c.output.shape(), [2, 3, 30]);
    assert_eq!(c.output.data()[30..60], s.weight.data()[999 * 30..1000 * 30]);
    assert_eq!(c.shape_equation, "input (2, 3) → weight[input] → output (2, 3, 30)");
    let notes: Vec<String> = c.captions.iter().map(write).collect();
    assert!(notes
        .contains(&"The table holds 1000 × 30 = 30000 numbers; this lookup copies only 6 × 30 = 180 of them.".into()));
    assert!(notes.contains(&"Id 7 appears more than once: its row is copied to each place.".into()));
}

#[test]
fn shape_equation_module_and_captions() {
    let c = State::default().compute();
    assert_eq!(c.shape_equation, "input (3,) → weight[input] → output (3, 5)");
    assert_eq!(c.module, "nn.Embedding(4, 5)");
    let notes: Vec<String> = c.captions.iter().map(write).collect();
    assert_eq!(
        notes,
        [
            "Each id picks one row of weight and copies it to the output. Nothing is multiplied.",
            "weight is (4, 5): row i belongs to id i and is used as stored, with no transpose (a Linear's weight is \
             (out, in) and gets transposed).",
            "The output keeps the ids' shape (3,) and adds 5 numbers per id: (3, 5).",
        ]
    );
    let c = State::preset("pretrained_5x4").unwrap().compute();
    assert_eq!(c.shape_equation, "input (2, 4) → weight[input] → output (2, 4, 4)");
    assert_eq!(c.module, "nn.Embedding.from_pretrained(weight, freeze=True)");
    let notes: Vec<String> = c.captions.iter().map(write).collect();
    assert!(notes.contains(&"freeze=True: the table is fixed (requires_grad=False); no gradient reaches it.".into()));
    assert!(notes.contains(&"Ids 1, 2 appear more than once: each row is copied to each place.".into()));
    let c = State::preset("padding_10x3").unwrap().compute();
    assert_eq!(c.module, "nn.Embedding(10, 3, padding_idx=1)");
    let padding = "weight[1] is the padding row: nn.Embedding fills it with zeros, and it never gets gradient, so \
         training never moves it.";
    assert!(c.captions.iter().any(|t| write(t) == padding));
}

#[test]
fn edits_change_the_output_and_bad_text_changes_nothing() {
    let mut s = State::default();
    s.edit("weight", 2 * 5 + 1, "7.5").unwrap();
    assert_eq!(s.compute().output.get(&[0, 1]), Some(7.5));
    let before = s.clone();
    assert!(s.edit("weight", 0, "abc").unwrap_err().starts_with("could not convert string to float: 'abc'. Type"));
    assert!(s.edit("input", 0, "1.5").unwrap_err().starts_with("invalid literal for int() with base 10: '1.5'. Ids"));
    assert!(s.edit("output", 0, "1").is_err());
    assert!(s.edit("weight", 99, "1").is_err());
    assert_eq!(s, before);
    s.edit("input", 0, "0").unwrap();
    assert_eq!(s.compute().output.data()[..5], s.weight.data()[..5]);
    s.paste("input", 0, "[3, 3]").unwrap();
    assert_eq!(s.input.data(), [3, 3, 1]);
    assert!(s.paste("input", 2, "1 2").unwrap_err().contains("does not fit"));
    s.paste("weight", 0, "1\t2\n3\t4").unwrap();
    assert_eq!(s.weight.data()[5..7], [3.0, 4.0]);
}

#[test]
fn an_id_out_of_range_is_pinned_and_the_last_output_stays() {
    let mut s = State::default();
    let good = s.compute().output;
    s.edit("input", 1, "4").unwrap();
    s.edit("input", 2, "-1").unwrap();
    let c = s.compute();
    assert!(c.stale && c.trace.is_empty() && c.picks.is_empty());
    assert_eq!(c.output, good);
    let cells: Vec<_> = c.issues.iter().map(|i| (i.tensor.as_str(), i.cell)).collect();
    assert_eq!(cells, [("input", Some(1)), ("input", Some(2))]);
    assert_eq!(c.issues[0].error.to_string(), "IndexError: index out of range in self");
    assert_eq!(c.issues[0].hint, "ids must be in 0..3; this table has 4 rows");
    assert!(c.formula("output", &[0, 0]).is_none());
    assert_eq!(
        caption(&View::describe(&c, Phase::Forward, 1), write),
        "PyTorch would raise here, so there is nothing to play: fix what is marked."
    );
    assert_eq!(
        caption(&View::describe(&c, Phase::Backward, 0), write),
        "PyTorch would raise here, so there is no backward pass: fix what is marked."
    );
    // A weight edit while broken does not pretend to run.
    s.edit("weight", 0, "9").unwrap();
    assert_eq!(s.compute().output, good);
    s.edit("input", 1, "3").unwrap();
    s.edit("input", 2, "0").unwrap();
    let c = s.compute();
    assert!(!c.stale && c.issues.is_empty());
    assert_eq!(c.output.get(&[2, 0]), Some(9.0));
}

#[test]
fn float_ids_raise_as_pytorch_does_until_they_are_long_again() {
    let mut s = State::default();
    let good = s.compute().output;
    s.edit("weight", 0, "9").unwrap();
    s.field("dtype", "torch.float").unwrap();
    let c = s.compute();
    assert!(c.stale && c.picks.is_empty());
    assert_eq!(c.output, good, "the last output that ran stays");
    assert_eq!((c.issues.len(), c.issues[0].tensor.as_str(), c.issues[0].cell), (1, "input", None));
    assert_eq!(
        c.issues[0].error.to_string(),
        "RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, \
         Int; but got torch.FloatTensor instead (while checking arguments for embedding)"
    );
    // PyTorch checks the dtype first: an id out of range is not reported on top of it.
    s.edit("input", 0, "40").unwrap();
    assert_eq!(s.compute().issues.len(), 1);
    let code = crate::codegen::embedding(&s);
    assert!(code.contains("ids = torch.tensor([40, 3, 1], dtype=torch.float)"), "{code}");
    assert!(code.contains("# PyTorch raises on this state: RuntimeError: Expected tensor"), "{code}");
    s.edit("input", 0, "0").unwrap();
    assert_eq!(
        s.field("dtype", "torch.half").unwrap_err(),
        "the ids' dtype is one of torch.long, torch.int, torch.float, torch.double"
    );
    s.field("dtype", "torch.int").unwrap();
    let c = s.compute();
    assert!(!c.stale && c.issues.is_empty());
    assert_eq!(c.output.get(&[0, 0]), Some(9.0), "int ids select rows as long ones do");
}

#[test]
fn padding_idx_counts_from_the_end_zeroes_a_drawn_row_and_is_checked() {
    let mut s = State::default();
    s.set_padding_idx("-1").unwrap();
    assert_eq!(s.padding_idx, Some(-1));
    assert_eq!(s.weight.data()[15..20], [0.0; 5]);
    assert_eq!(s.compute().module, "nn.Embedding(4, 5, padding_idx=-1)");
    // Same as PyTorch: torch.manual_seed(123); nn.Embedding(4, 5, padding_idx=-1).
    s.reinit("123").unwrap();
    let mut g = Generator::manual_seed(123).unwrap();
    assert_eq!(s.weight, g.embedding(4, 5, Some(-1)).unwrap());
    let good = s.compute().output;
    s.set_padding_idx("4").unwrap();
    let c = s.compute();
    assert!(c.stale);
    assert_eq!(c.output, good);
    assert_eq!(c.issues.len(), 1);
    assert_eq!((c.issues[0].tensor.as_str(), c.issues[0].cell), ("padding_idx", None));
    assert_eq!(c.issues[0].error.to_string(), "AssertionError: Padding_idx must be within num_embeddings");
    assert_eq!(c.issues[0].hint, "padding_idx must be in -4..3; negative counts from the end");
    assert!(s.reinit("1").unwrap_err().contains("Padding_idx must be within num_embeddings"));
    assert!(s.set_padding_idx("one").is_err());
    assert_eq!(s.padding_idx, Some(4));
    s.set_padding_idx("None").unwrap();
    assert!(s.compute().issues.is_empty());
    // A pretrained table keeps its padding row.
    let mut p = State::preset("pretrained_5x4").unwrap();
    p.set_padding_idx("2").unwrap();
    assert_eq!(p.weight.data()[8..12], [2.0; 4]);
    assert_eq!(p.compute().module, "nn.Embedding.from_pretrained(weight, freeze=True, padding_idx=2)");
}

#[test]
fn resizes_keep_the_overlap() {
    let mut s = State::default();
    let w = s.weight.clone();
    s.set_num_embeddings("6").unwrap();
    assert_eq!(s.weight.shape(), [6, 5]);
    assert_eq!(s.weight.data()[..20], w.data()[..]);
    assert_eq!(s.weight.data()[20..], [0.0; 10]);
    s.set_embedding_dim("2").unwrap();
    assert_eq!(s.weight.data()[..4], [w.data()[0], w.data()[1], w.data()[5], w.data()[6]]);
    assert_eq!(s.compute().output.shape(), [3, 2]);
    assert_eq!(s.set_embedding_dim("0"), Err("choose a size from 1 to 512".into()));
    s.set_num_embeddings("1000").unwrap();
    assert!(s.set_embedding_dim("200").unwrap_err().contains("at most 100000 numbers"));
    assert_eq!(s.weight.shape(), [1000, 2]);
    // Shrinking below an id in use is PyTorch's IndexError on that id.
    s.set_num_embeddings("2").unwrap();
    let c = s.compute();
    assert_eq!(c.issues.iter().map(|i| i.cell).collect::<Vec<_>>(), [Some(0), Some(1)]);
}

#[test]
fn ids_go_from_a_sequence_to_a_batch_and_back() {
    let mut s = State::default();
    s.set_batched(true);
    assert_eq!(s.input.shape(), [1, 3]);
    s.set_input_size(0, "2").unwrap();
    assert_eq!(s.input.data(), [2, 3, 1, 0, 0, 0]);
    s.set_input_size(1, "2").unwrap();
    assert_eq!(s.input.data(), [2, 3, 0, 0]);
    let c = s.compute();
    assert_eq!(c.output.shape(), [2, 2, 5]);
    assert_eq!(c.picks[1].arrow(), "output[0, 1] ← weight[3]");
    s.set_batched(false);
    assert_eq!(s.input.shape(), [4]);
    assert!(s.set_input_size(0, "2000").is_err());
    assert!(s.set_input_size(0, "x").is_err());
}

#[test]
fn formula_is_a_copy_of_one_weight() {
    let c = State::default().compute();
    let f = c.formula("output", &[1, 2]).unwrap();
    assert_eq!(f.target, "output[1, 2]");
    assert!(f.products.is_empty() && f.func.is_none());
    assert_eq!(f.constants, [Factor::new("weight[3, 2]", f.value)]);
    assert_eq!(short(f.value), "-1.4096");
    assert!(c.formula("output", &[3, 0]).is_none());
    assert!(c.formula("output", &[0, 5]).is_none());
    assert!(c.formula("weight", &[0, 0]).is_none());
    assert!(c.formula("output", &[]).is_none());
    let c = State::preset("pretrained_5x4").unwrap().compute();
    assert_eq!(c.formula("output", &[1, 1, 3]).unwrap().constants[0].name, "weight[0, 3]");
}

#[test]
fn trace_lights_each_row_then_writes_it() {
    let c = State::default().compute();
    assert_eq!(c.trace.len(), 3);
    let m = c.trace.marks_at(2);
    assert_eq!(m.of("weight", &[3, 4]), Some(Mark::Read));
    assert_eq!(m.of("input", &[1]), Some(Mark::Read));
    assert_eq!(m.of("output", &[1, 0]), Some(Mark::Write));
    assert_eq!(m.of("output", &[0, 0]), Some(Mark::Done));
    assert_eq!(m.of("weight", &[2, 0]), None);
    assert_eq!(write(&c.describe(2)), "input[1] = 3 selects weight[3], copied to output[1]");
    assert_eq!(
        caption(&View::describe(&c, Phase::Forward, 0), write),
        "3 ids, 3 lookups: step forward to watch each id pick its row."
    );
    let c = State::preset("pretrained_5x4").unwrap().compute();
    assert_eq!(
        caption(&View::describe(&c, Phase::Forward, 6), write),
        "input[1, 1] = 0 selects weight[0], copied to output[1, 1]"
    );
    let rows: Vec<usize> = c.picks.iter().map(|p| p.row).collect();
    assert_eq!(rows, [2, 4, 3, 1, 2, 0, 1, 1]);
}

#[test]
fn reinit_draws_like_torch_and_reports_bad_seeds() {
    let mut s = State::preset("pretrained_5x4").unwrap();
    s.reinit("42").unwrap();
    assert!(!s.from_pretrained);
    assert_eq!(s.weight, Generator::manual_seed(42).unwrap().embedding(5, 4, None).unwrap());
    let before = s.clone();
    assert_eq!(s.reinit("1.5"), Err("ValueError: invalid literal for int() with base 10: '1.5'".into()));
    assert_eq!(s.reinit("99999999999999999999999"), Err("RuntimeError: Overflow when unpacking long".into()));
    assert_eq!(s, before);
}

#[test]
fn flags_show_in_the_module_call() {
    let mut s = State::preset("pretrained_5x4").unwrap();
    s.apply(&Edit::flag("freeze", false)).unwrap();
    s.apply(&Edit::flag("sparse", true)).unwrap();
    let c = s.compute();
    assert_eq!(c.module, "nn.Embedding.from_pretrained(weight, freeze=False, sparse=True)");
    let notes: Vec<String> = c.captions.iter().map(write).collect();
    assert!(notes.contains(&"sparse=True: weight.grad will hold only the looked-up rows.".into()));
    assert!(notes.contains(&"freeze=False: the table keeps learning like a fresh nn.Embedding.".into()));
    s.apply(&Edit::flag("from_pretrained", false)).unwrap();
    assert_eq!(s.compute().module, "nn.Embedding(5, 4, sparse=True)");
}

#[test]
fn state_survives_json_and_hostile_states_do_not_panic() {
    let s = State::preset("padding_10x3").unwrap();
    assert_eq!(super::super::from_json::<State>(&super::super::to_json(&s)).unwrap(), s);
    let flags = r#""from_pretrained":true,"freeze":true,"sparse":false"#;
    let hostile = [
        // No rows, and a padding_idx that points at none.
        (r#"{"shape":[0,3],"data":[]}"#, r#"{"shape":[2],"data":[0,1]}"#, "0"),
        // A 1-D table and 0-d ids.
        (r#"{"shape":[3],"data":[1,2,3]}"#, r#"{"shape":[],"data":[0]}"#, "null"),
        // Ids and padding_idx at the ends of int64.
        (
            r#"{"shape":[2,2],"data":[1,2,3,4]}"#,
            r#"{"shape":[2],"data":[9223372036854775807,-9223372036854775808]}"#,
            "-9223372036854775808",
        ),
    ];
    for (weight, input, padding) in hostile {
        let text = format!(r#"{{"preset":"x","weight":{weight},"input":{input},"padding_idx":{padding},{flags}}}"#);
        let mut s: State = super::super::from_json(&text).unwrap();
        let c = s.compute();
        assert!(c.stale || c.issues.is_empty());
        let _ = (c.formula("output", &[0, 0]), c.describe(1));
        let _ = (s.set_num_embeddings("3"), s.set_embedding_dim("2"), s.set_padding_idx("-1"), s.reinit("0"));
        let _ = (s.set_input_size(1, "2"), s.edit("weight", 0, "1"), s.edit("input", 0, "1"));
        s.set_batched(true);
        s.compute();
    }
}

#[test]
fn backward_formula_adds_the_output_grads_of_the_ids_that_looked_a_row_up() {
    use crate::scene::contract::View;
    // padding_10x3: id 2 looked up twice, id 1 is the padding row, row 5 never.
    let c = State::preset("padding_10x3").unwrap().compute();
    let f = View::formula(&c, "weight.grad", &[2, 1]).unwrap();
    assert_eq!(f.target, "weight.grad[2, 1]");
    let names: Vec<&str> = f.constants.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["output.grad[0, 0, 1]", "output.grad[1, 0, 1]"]);
    assert_eq!(f.value, 2.0);
    for row in [1, 5] {
        let f = View::formula(&c, "weight.grad", &[row, 0]).unwrap();
        assert!(f.constants.is_empty() && f.value == 0.0, "row {row} gets nothing");
    }
    assert!(View::formula(&c, "weight.grad", &[10, 0]).is_none());
    // Frozen: no weight.grad, no formula.
    assert!(View::formula(&State::preset("pretrained_5x4").unwrap().compute(), "weight.grad", &[0, 0]).is_none());
}
