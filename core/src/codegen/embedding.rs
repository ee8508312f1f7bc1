//! The Embedding scene's script: `emb = nn.Embedding(V, D)` (or `from_pretrained`) on `ids`.

use super::{by_hand, loss_of, same, Py};
use crate::scene::embedding::State;
use crate::tensor::py_shape;
use crate::torch_rng::Generator;

/// The state's seed, when its `nn.Embedding(V, D, padding_idx)` draws exactly the table on show.
fn seed(s: &State) -> Option<i128> {
    let seed = Generator::parse_seed(s.seed.as_deref().filter(|_| !s.from_pretrained)?).ok()?;
    let drawn = Generator::manual_seed(seed).ok()?.embedding(s.num_embeddings(), s.embedding_dim(), s.padding_idx);
    drawn.ok().filter(|t| same(t, &s.weight)).map(|_| seed)
}

pub(super) fn script(s: &State) -> String {
    let c = s.compute();
    let mut py = Py::new(c.issues.first().map(|i| &i.error));
    let frozen = s.from_pretrained && s.freeze;
    if s.from_pretrained {
        py.comment("from_pretrained uses this table as given: nothing is drawn, no row is zeroed");
        py.assign("weight", &s.weight, &[]);
        py.line(format!("emb = {}", c.module));
    } else {
        let seed = seed(s);
        if let Some(seed) = seed {
            py.line(format!("torch.manual_seed({seed})"));
        }
        let note = match s.padding_row() {
            Some(p) => format!("row {p} is the padding row: zeros, and it gets no gradient"),
            None => "row i is id i's vector".into(),
        };
        py.line(format!("emb = {}  # emb.weight {}: {note}", c.module, py_shape(s.weight.shape())));
        if seed.is_none() {
            py.set_by_hand(&[("emb.weight".into(), &s.weight)], &by_hand(s.learning.steps, false));
        }
    }
    py.assign("ids", &s.input, &[]);
    py.blank();
    let out_shape = [s.input.shape(), &[s.embedding_dim()]].concat();
    let shapes = format!("{} → {}", py_shape(s.input.shape()), py_shape(&out_shape));
    py.line(format!("output = emb(ids)  # each id copies its row of emb.weight, nothing is multiplied: {shapes}"));
    py.show("output");
    py.blank();
    py.target(&s.learning.loss);
    py.line(format!("loss = {}", loss_of(&s.learning.loss, "output")));
    if frozen {
        py.comment("freeze=True: emb.weight.requires_grad is False, so loss has no grad_fn and");
        py.comment("loss.backward() would raise; emb.weight.grad stays None");
        py.show("loss");
        py.show("emb.weight.grad");
        return py.finish();
    }
    py.line("loss.backward()");
    py.show("loss");
    py.show("emb.weight.grad");
    if s.sparse {
        py.comment("sparse=True: weight.grad holds one (row, values) entry per looked-up id");
        py.show("emb.weight.grad.to_dense()");
    }
    py.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::contract::{Edit, Scene};
    use crate::scene::embedding::PRESETS;

    fn preset(id: &str) -> State {
        State::preset(id).unwrap()
    }

    #[test]
    fn a_reinit_is_written_as_its_seed() {
        let mut s = State::default();
        s.reinit("2024").unwrap();
        let py = script(&s);
        assert!(py.contains("torch.manual_seed(2024)\nemb = nn.Embedding(4, 5)") && !py.contains("copy_"), "{py}");
        s.edit("weight", 0, "1").unwrap();
        assert!(script(&s).contains("emb.weight.copy_("));
    }

    #[test]
    fn every_preset_is_built_as_its_label_says() {
        let want = [
            ("seed123_4x5", "torch.manual_seed(123)\nemb = nn.Embedding(4, 5)  #"),
            ("pretrained_5x4", "emb = nn.Embedding.from_pretrained(weight, freeze=True)\n"),
            ("padding_10x3", "torch.manual_seed(0)\nemb = nn.Embedding(10, 3, padding_idx=1)  #"),
            ("big_1000x30", "torch.manual_seed(0)\nemb = nn.Embedding(1000, 30)  #"),
        ];
        assert_eq!(PRESETS.len(), want.len());
        for (id, line) in want {
            let py = script(&preset(id));
            assert!(py.contains(line), "{id}:\n{py}");
            assert!(!py.contains("copy_"), "{id}");
        }
        let py = script(&preset("seed123_4x5"));
        assert!(py.contains("ids = torch.tensor([2, 3, 1])\n"));
        assert!(py.contains("loss = output.sum()\nloss.backward()\n"));
        assert!(!py.contains("raises"));
    }

    #[test]
    fn frozen_tables_get_no_backward() {
        let py = script(&preset("pretrained_5x4"));
        assert!(
            py.contains("weight = torch.tensor([[0.0, 0.0, 0.0, 0.0],\n                       [1.0, 1.0, 1.0, 1.0],"),
            "{py}"
        );
        assert!(!py.contains("\nloss.backward()\n") && py.contains("freeze=True"));
        let mut s = preset("pretrained_5x4");
        s.apply(&Edit::flag("freeze", false)).unwrap();
        let py = script(&s);
        assert!(py.contains("from_pretrained(weight, freeze=False)") && py.contains("loss.backward()"));
    }

    #[test]
    fn flags_edits_and_errors() {
        let mut s = preset("seed123_4x5");
        s.apply(&Edit::flag("sparse", true)).unwrap();
        let py = script(&s);
        assert!(py.contains("emb = nn.Embedding(4, 5, sparse=True)") && py.contains("emb.weight.grad.to_dense()"));
        // A negative padding_idx on the drawn table zeroes the same row: still the seed's draw.
        let mut s = preset("padding_10x3");
        s.set_padding_idx("-9").unwrap();
        assert!(script(&s).contains("torch.manual_seed(0)\nemb = nn.Embedding(10, 3, padding_idx=-9)"));
        // Another padding row zeroes a drawn row: no longer the seed's draw.
        s.set_padding_idx("2").unwrap();
        let py = script(&s);
        assert!(!py.contains("manual_seed") && py.contains("    emb.weight.copy_(torch.tensor([["), "{py}");
        // Steps move the table.
        let mut s = preset("seed123_4x5");
        s.apply(&Edit::Loss { mse: true }).unwrap();
        s.apply(&Edit::Step).unwrap();
        let py = script(&s);
        assert!(py.contains("after 1 SGD step") && py.contains("F.mse_loss(output, target)"), "{py}");
        assert!(py.contains("target = torch.tensor([[0.0, 0.0, 0.0, 0.0, 0.0],"));
        // A bad id: the script still runs into PyTorch's error.
        let mut s = preset("seed123_4x5");
        s.edit("input", 1, "7").unwrap();
        let py = script(&s);
        assert!(py.contains("# PyTorch raises on this state: IndexError: index out of range in self"), "{py}");
        assert!(py.contains("ids = torch.tensor([2, 7, 1])"));
        let mut s = preset("seed123_4x5");
        s.set_padding_idx("4").unwrap();
        let py = script(&s);
        assert!(py.contains("AssertionError: Padding_idx must be within num_embeddings"), "{py}");
        assert!(py.contains("nn.Embedding(4, 5, padding_idx=4)"));
    }
}
