//! The One-hot × Linear scene's script: `emb(ids)` and `linear(F.one_hot(ids, V).float())` with
//! `linear.weight = emb.weight.T`, both ways, compared with `torch.equal`.

use super::{by_hand, loss_of, Numbers, Py, Script, Section};
use crate::scene::one_hot::{Computed, State};

/// The script in its sections, which a notebook makes its cells.
pub(super) fn sections(s: &State, c: &Computed, numbers: Numbers) -> Script {
    let mut py = Py::new(c.issues.first().map(|i| &i.error), numbers);
    let (v, d) = s.sizes();
    let drawn = s.drawn_and_set();
    if let Some((seed, _)) = &drawn {
        py.line(format!("torch.manual_seed({seed})"));
    }
    py.line(format!("emb = nn.Embedding({v}, {d})"));
    match &drawn {
        Some((_, set)) => {
            let why = match s.learning.steps {
                0 => "the numbers set since the seed's draw: typed, or kept when V or D changed".into(),
                steps => by_hand(steps, true),
            };
            py.set_cells("emb.weight", &s.table, set, &why);
        }
        None => py.set_by_hand(&[("emb.weight".into(), &s.table)], &by_hand(s.learning.steps, false)),
    }
    py.comment(&format!("the same numbers as a Linear: linear.weight is (out_features, in_features) = ({d}, {v}),"));
    py.comment("so it holds emb.weight.T");
    py.line(format!("linear = nn.Linear({v}, {d}, bias=False)"));
    py.line("with torch.no_grad():");
    py.line("    linear.weight.copy_(emb.weight.T)");
    py.assign("ids", &s.ids, &[]);
    py.section(Section::Forward);
    let n = s.ids.numel();
    py.line(format!("output = emb(ids)  # a lookup: copies {n} rows of {d} numbers"));
    py.line(format!("one_hot = F.one_hot(ids, num_classes={v}).float()  # a 1 in column ids[k] of row k"));
    py.line(format!("output_linear = linear(one_hot)  # one_hot @ linear.weight.T: {n} × {v} × {d} multiply-adds"));
    py.show("output");
    py.show("output_linear");
    py.comment("every output number is 1·w plus zeros, so the two ways agree to the bit");
    py.show("torch.equal(output, output_linear)");
    py.section(Section::Backward);
    py.target(&s.learning.loss);
    py.line(format!("loss = {}", loss_of(&s.learning.loss, "output")));
    py.line(format!("loss_linear = {}", loss_of(&s.learning.loss, "output_linear")));
    py.line("loss.backward()");
    py.line("loss_linear.backward()");
    py.show("loss");
    py.show("loss_linear");
    py.comment("the lookup adds into the looked-up rows; the Linear's gradient is dense, (D, V)");
    py.show("emb.weight.grad");
    py.show("linear.weight.grad");
    py.finish()
}
