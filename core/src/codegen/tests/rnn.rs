use super::*;
use crate::codegen::rnn as script;
use crate::codegen::rnn::param;
use crate::ops::loss::Loss;
use crate::scene::rnn::{Source, State};

#[test]
fn presets_are_seeded_with_their_constructors() {
    let want = [
        ("rnn_2_5_batch_first", "torch.manual_seed(0)\nrnn = nn.RNN(2, 5, batch_first=True)\n"),
        ("rnn_2x3_bi_packed", "torch.manual_seed(0)\nrnn = nn.RNN(2, 3, num_layers=2, bidirectional=True)\n"),
        ("embedding_to_rnn", "torch.manual_seed(0)\nemb = nn.Embedding(10, 4)\nrnn = nn.RNN(4, 3, batch_first=True)\n"),
        ("vanishing_long_tanh", "torch.manual_seed(5)\nrnn = nn.RNN(1, 2)\n"),
        ("exploding_relu", "torch.manual_seed(0)\nrnn = nn.RNN(1, 2, nonlinearity='relu')\n"),
    ];
    presets_say(&want, script, |id, py| assert!(py.contains("loss.backward()") && !py.contains("raises"), "{id}"));
    let py = script(&preset("rnn_2_5_batch_first"));
    assert!(!py.contains("copy_") && py.contains("x = torch.tensor([[[11.0, 11.0],\n"), "{py}");
    assert!(py.contains("output, h_n = rnn(x)") && py.contains("loss = output.sum()\n"));
    // Only the hand-set weight_hh_l0 is copied in.
    let py = script(&preset("exploding_relu"));
    assert!(py.contains("    rnn.weight_hh_l0.copy_(torch.tensor([[1.5, 0.5],\n"), "{py}");
    assert_eq!(py.matches(".copy_(").count(), 1);
    // The vanishing preset's mse target is written out.
    let py = script(&preset("vanishing_long_tanh"));
    assert!(py.contains("target = torch.tensor([[[") && py.contains("loss = F.mse_loss(output, target)\n"));
    let py = script(&preset("embedding_to_rnn"));
    assert!(py.contains("x = emb(ids)") && py.contains("print(\"emb.weight.grad:\", emb.weight.grad)"));
}

#[test]
fn packing_is_called_as_the_scene_does() {
    let py = script(&preset("rnn_2x3_bi_packed"));
    assert!(py.contains("lengths = torch.tensor([2, 2, 1, 1])\n"));
    assert!(py.contains("pack_padded_sequence(x, lengths, batch_first=False, enforce_sorted=True)"));
    assert!(py.contains("pad_packed_sequence(packed_output, batch_first=False, padding_value=1.0)"));
    let mut s: State = preset("rnn_2x3_bi_packed");
    s.set_flag("enforce_sorted", false).unwrap();
    s.edit("lengths", 0, "1").unwrap();
    let py = script(&s);
    assert!(py.contains("enforce_sorted=False") && py.contains("lengths = torch.tensor([1, 2, 1, 1])"));
    assert!(!py.contains("raises"), "{py}");
    s.set_flag("enforce_sorted", true).unwrap();
    assert!(script(&s).contains("# PyTorch raises on this state: RuntimeError: `lengths` array must be sorted"));
}

#[test]
fn h0_h_n_loss_and_steps() {
    let mut s: State = preset("rnn_2_5_batch_first");
    s.set_flag("h0", true).unwrap();
    s.edit("h0", 1, "0.25").unwrap();
    s.set_h_n_in_loss(true);
    let py = script(&s);
    assert!(py.contains("h0 = torch.tensor([[[0.0, 0.25, 0.0, 0.0, 0.0],\n"), "{py}");
    assert!(py.contains("output, h_n = rnn(x, h0)") && py.contains("loss = output.sum() + h_n.sum()\n"));
    assert!(py.contains("print(\"h0.grad:\", h0.grad)"));
    s.apply(&Edit::Step).unwrap();
    let py = script(&s);
    assert!(!py.contains("manual_seed") && py.matches(".copy_(").count() == 4, "{py}");
    assert!(py.contains("after 1 SGD step"));
    let mut s: State = preset("rnn_2_5_batch_first");
    s.apply(&Edit::Loss { mse: true }).unwrap();
    assert!(matches!(s.learning.loss, Loss::Mse { .. }));
    assert!(script(&s).contains("loss = F.mse_loss(output, target)\n"));
    let mut s: State = preset("embedding_to_rnn");
    s.edit("ids", 2, "10").unwrap();
    assert!(script(&s).contains("# PyTorch raises on this state: IndexError: index out of range in self"));
}

/// Found by hand-made inputs to fuzz/link_and_file: a damaged save (which the scene reports,
/// running nothing) had its seed replayed for 10⁹ layers (out of memory) or a hidden size
/// past memory (a panic), and a 0-d `emb.weight` indexed out of bounds.
#[test]
fn a_damaged_save_gets_its_script_without_a_panic() {
    for damage in [
        |s: &mut State| s.model.config.num_layers = 1 << 40,
        |s: &mut State| s.model.config.hidden_size = 1 << 62,
        |s: &mut State| {
            if let Source::Embedding { weight, .. } = &mut s.model.source {
                *weight = Tensor::new(vec![], vec![1.0]).unwrap();
            }
        },
    ] {
        let mut s: State = preset("embedding_to_rnn");
        damage(&mut s);
        let py = script(&s);
        assert!(py.contains("# PyTorch raises on this state: ValueError: this saved scene does not fit"), "{py}");
        assert!(!py.contains("manual_seed"), "{py}");
    }
}

/// Found by fuzz/link_and_file: a parameter's name from a link was written as code,
/// `rnn.<name>.copy_(...)`.
#[test]
fn a_parameter_name_from_a_link_stays_a_string() {
    assert_eq!(param("weight_hh_l12_reverse"), "rnn.weight_hh_l12_reverse");
    let mut s: State = preset("exploding_relu");
    s.model.params[1].0 = "weight_hh_l0.data\nimport os; rnn.weight_hh_l0".into();
    let py = script(&s);
    assert!(py.contains(r"    getattr(rnn, 'weight_hh_l0.data\x0aimport os; rnn.weight_hh_l0').copy_("), "{py}");
    assert!(!py.lines().any(|l| l.starts_with("import os")), "{py}");
    assert!(py.contains("# PyTorch raises on this state: RuntimeError: RNN has no parameter named"), "{py}");
    for name in ["weight_ih_l", "bias_ih_lx", "weight_ih_l0_reverse_", "wei\0ght_ih_l0"] {
        assert!(param(name).starts_with("getattr(rnn, '"), "{name}");
    }
}
