//! The RNN scene's script: `output, h_n = rnn(x, h0)`, through `pack_padded_sequence` and
//! `pad_packed_sequence` when the scene packs, with the loss of `crate::scene::rnn::loss`.

use super::{by_hand, float, loss_of, same, string, Py};
use crate::ops::Named;
use crate::scene::rnn::{Source, State};
use crate::tensor::py_shape;
use crate::tensor::Tensor;
use crate::torch_rng::Generator;

/// What `torch.manual_seed(seed)`, `nn.Embedding(V, D)` (an ids source draws it first) and
/// `nn.RNN(...)` give: `emb.weight` (if any), then the parameters by name.
fn drawn(s: &State) -> Option<(i128, Option<Tensor>, Named)> {
    // A damaged save's sizes (10⁹ layers) are not drawn: the scene runs nothing for it either.
    if s.model.damaged().is_some() {
        return None;
    }
    let seed = Generator::parse_seed(&s.seed).ok()?;
    let mut g = Generator::manual_seed(seed).ok()?;
    let emb = match &s.model.source {
        Source::Embedding { weight, .. } => {
            let (v, d) = (weight.shape().first().copied()?, weight.shape().get(1).copied()?);
            Some(g.embedding(v, d, None).ok()?)
        }
        Source::Tensor(_) => None,
    };
    Some((seed, emb, g.rnn(&s.model.config)))
}

pub(super) fn script(s: &State) -> String {
    let c = s.compute();
    let m = &s.model;
    let raises = if c.stale { c.issues.first().map(|i| &i.error) } else { None };
    let mut py = Py::new(raises);
    let bf = m.config.batch_first;
    let emb_weight = match &m.source {
        Source::Embedding { weight, .. } => Some(weight),
        Source::Tensor(_) => None,
    };
    // Every tensor the constructors make, by its Python name, with the seed's draw of it.
    let draw = drawn(s);
    let mut made: Vec<(String, &Tensor, Option<&Tensor>)> = Vec::new();
    if let Some(w) = emb_weight {
        made.push(("emb.weight".into(), w, draw.as_ref().and_then(|d| d.1.as_ref())));
    }
    for (name, t) in &m.params {
        let seeded = draw.as_ref().and_then(|d| d.2.iter().find(|(n, _)| n == name)).map(|(_, t)| t);
        made.push((param(name), t, seeded));
    }
    let seeded = made.iter().any(|(_, t, d)| d.is_some_and(|d| same(d, t)));
    if let (true, Some((seed, ..))) = (seeded, &draw) {
        py.line(format!("torch.manual_seed({seed})"));
    }
    if let Some(w) = emb_weight {
        let (v, d) = (w.shape().first().copied().unwrap_or(0), w.shape().get(1).copied().unwrap_or(0));
        py.line(format!("emb = nn.Embedding({v}, {d})"));
    }
    py.line(format!("rnn = {}", c.module));
    let by_hand_now: Vec<(String, &Tensor)> = made
        .iter()
        .filter(|(_, t, d)| !seeded || !d.is_some_and(|d| same(d, t)))
        .map(|(n, t, _)| (n.clone(), *t))
        .collect();
    py.set_by_hand(&by_hand_now, &by_hand(s.learning.steps, seeded));
    let lead = if bf { "N, L" } else { "L, N" };
    match &m.source {
        Source::Tensor(x) => {
            py.comment(&format!("x is ({lead}, H_in) = {}{}", py_shape(x.shape()), first_note(bf)));
            py.assign("x", x, &["requires_grad=True"]);
        }
        Source::Embedding { ids, .. } => {
            py.assign("ids", ids, &[]);
            py.line(format!("x = emb(ids)  # ({lead}, H_in): each id's row of emb.weight"));
            py.line("x.retain_grad()  # keep x.grad, the gradient that reaches the lookup");
        }
    }
    if let Some(h0) = &m.h0 {
        py.comment(&format!("h0 is (D·num_layers, N, H_out) = {}", py_shape(h0.shape())));
        py.assign("h0", h0, &["requires_grad=True"]);
    }
    py.blank();
    let h0 = if m.h0.is_some() { ", h0" } else { "" };
    if m.packed {
        py.assign("lengths", &m.lengths, &[]);
        py.line(format!(
            "packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first={}, enforce_sorted={})",
            py_bool(bf),
            py_bool(m.enforce_sorted)
        ));
        py.line(format!("packed_output, h_n = rnn(packed{h0})  # each sequence runs only its own steps"));
        py.line(format!(
            "output, _ = nn.utils.rnn.pad_packed_sequence(packed_output, batch_first={}, padding_value={})",
            py_bool(bf),
            float(m.padding_value)
        ));
    } else {
        py.line(format!("output, h_n = rnn(x{h0})  # output: the top layer's h_t at every step; h_n: each final h"));
    }
    py.show("output");
    py.show("h_n");
    py.blank();
    py.target(&s.learning.loss);
    let h_n = if s.h_n_in_loss { " + h_n.sum()" } else { "" };
    py.line(format!("loss = {}{h_n}", loss_of(&s.learning.loss, "output")));
    py.line("loss.backward()");
    py.show("loss");
    py.line("for name, p in rnn.named_parameters():");
    py.line("    print(f\"rnn.{name}.grad:\", p.grad)");
    py.show("x.grad");
    if emb_weight.is_some() {
        py.show("emb.weight.grad");
    }
    if m.h0.is_some() {
        py.show("h0.grad");
    }
    py.finish()
}

/// `rnn.weight_ih_l0` for a name `nn.RNN` can have, else `getattr(rnn, '...')`: a link's name
/// reaches Python as a string (and raises there, as the scene does), never as code.
fn param(name: &str) -> String {
    let rest = ["weight_ih_l", "weight_hh_l", "bias_ih_l", "bias_hh_l"].iter().find_map(|p| name.strip_prefix(p));
    match rest.map(|r| r.strip_suffix("_reverse").unwrap_or(r)) {
        Some(layer) if !layer.is_empty() && layer.bytes().all(|b| b.is_ascii_digit()) => format!("rnn.{name}"),
        _ => format!("getattr(rnn, {})", string(name)),
    }
}

fn first_note(batch_first: bool) -> &'static str {
    if batch_first {
        ": batch_first=True puts the batch first"
    } else {
        ": time first, PyTorch's default"
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::loss::Loss;
    use crate::scene::contract::{Edit, Scene};
    use crate::scene::rnn::PRESETS;

    fn preset(id: &str) -> State {
        State::preset(id).unwrap()
    }

    #[test]
    fn presets_are_seeded_with_their_constructors() {
        let want = [
            ("rnn_2_5_batch_first", "torch.manual_seed(0)\nrnn = nn.RNN(2, 5, batch_first=True)\n"),
            ("rnn_2x3_bi_packed", "torch.manual_seed(0)\nrnn = nn.RNN(2, 3, num_layers=2, bidirectional=True)\n"),
            (
                "embedding_to_rnn",
                "torch.manual_seed(0)\nemb = nn.Embedding(10, 4)\nrnn = nn.RNN(4, 3, batch_first=True)\n",
            ),
            ("vanishing_long_tanh", "torch.manual_seed(5)\nrnn = nn.RNN(1, 2)\n"),
            ("exploding_relu", "torch.manual_seed(0)\nrnn = nn.RNN(1, 2, nonlinearity='relu')\n"),
        ];
        assert_eq!(PRESETS.len(), want.len());
        for (id, head) in want {
            let py = script(&preset(id));
            assert!(py.contains(head), "{id}:\n{py}");
            assert!(py.contains("loss.backward()") && !py.contains("raises"), "{id}");
        }
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
        let mut s = preset("rnn_2x3_bi_packed");
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
        let mut s = preset("rnn_2_5_batch_first");
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
        let mut s = preset("rnn_2_5_batch_first");
        s.apply(&Edit::Loss { mse: true }).unwrap();
        assert!(matches!(s.learning.loss, Loss::Mse { .. }));
        assert!(script(&s).contains("loss = F.mse_loss(output, target)\n"));
        let mut s = preset("embedding_to_rnn");
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
            let mut s = preset("embedding_to_rnn");
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
        let mut s = preset("exploding_relu");
        s.model.params[1].0 = "weight_hh_l0.data\nimport os; rnn.weight_hh_l0".into();
        let py = script(&s);
        assert!(py.contains(r"    getattr(rnn, 'weight_hh_l0.data\x0aimport os; rnn.weight_hh_l0').copy_("), "{py}");
        assert!(!py.lines().any(|l| l.starts_with("import os")), "{py}");
        assert!(py.contains("# PyTorch raises on this state: RuntimeError: RNN has no parameter named"), "{py}");
        for name in ["weight_ih_l", "bias_ih_lx", "weight_ih_l0_reverse_", "wei\0ght_ih_l0"] {
            assert!(param(name).starts_with("getattr(rnn, '"), "{name}");
        }
    }
}
