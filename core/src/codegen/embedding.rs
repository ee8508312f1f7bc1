//! The Embedding scene's script: `emb = nn.Embedding(V, D)` (or `from_pretrained`) on `ids`.

use super::{by_hand, loss_of, same, Numbers, Py, Script, Section};
use crate::ops::embedding::IdsDtype;
use crate::scene::embedding::{Computed, State};
use crate::tensor::py_shape;
use crate::torch_rng::Generator;

/// The state's seed, when its `nn.Embedding(V, D, padding_idx)` draws exactly the table on show.
fn seed(s: &State) -> Option<i128> {
    let seed = Generator::parse_seed(s.seed.as_deref().filter(|_| !s.from_pretrained)?).ok()?;
    let drawn = Generator::manual_seed(seed).ok()?.embedding(s.num_embeddings(), s.embedding_dim(), s.padding_idx);
    drawn.ok().filter(|t| same(t, &s.weight)).map(|_| seed)
}

/// The script in its sections, which a notebook makes its cells.
pub(super) fn sections(s: &State, c: &Computed, numbers: Numbers) -> Script {
    let mut py = Py::new(c.issues.first().map(|i| &i.error), numbers);
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
    // `torch.tensor([2, 3])` is already `torch.long`.
    let dtype = format!("dtype={}", s.dtype.name());
    let kwargs: &[&str] = if s.dtype == IdsDtype::Long { &[] } else { &[&dtype] };
    py.assign("ids", &s.input, kwargs);
    py.section(Section::Forward);
    let out_shape = [s.input.shape(), &[s.embedding_dim()]].concat();
    let shapes = format!("{} → {}", py_shape(s.input.shape()), py_shape(&out_shape));
    py.line(format!("output = emb(ids)  # each id copies its row of emb.weight, nothing is multiplied: {shapes}"));
    py.show("output");
    py.section(Section::Backward);
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
