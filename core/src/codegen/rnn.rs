//! The RNN scene's script: `output, h_n = rnn(x, h0)`, through `pack_padded_sequence` and
//! `pad_packed_sequence` when the scene packs, with the loss of `crate::scene::rnn::loss`.

use super::{by_hand, float, loss_of, same, string, Numbers, Py, Script, Section};
use crate::ops::Named;
use crate::scene::rnn::{Computed, Source, State};
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

/// The script in its sections, which a notebook makes its cells.
pub(super) fn sections(s: &State, c: &Computed, numbers: Numbers) -> Script {
    let m = &s.model;
    let raises = if c.stale { c.issues.first().map(|i| &i.error) } else { None };
    let mut py = Py::new(raises, numbers);
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
    py.section(Section::Forward);
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
    py.section(Section::Backward);
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
pub(super) fn param(name: &str) -> String {
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
