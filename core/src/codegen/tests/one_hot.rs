use super::*;
use crate::codegen::one_hot as script;
use crate::scene::one_hot::{State, PRESETS};

#[test]
fn presets_are_seeded() {
    for (id, seed, head) in [("seed123", 123, "nn.Embedding(4, 5)"), ("vocab10_dim3_batch", 11, "nn.Embedding(10, 3)")]
    {
        let py = script(&preset(id));
        assert!(py.contains(&format!("torch.manual_seed({seed})\nemb = {head}\n")), "{py}");
        assert!(py.contains("F.one_hot(ids, num_classes=") && py.contains("import torch.nn.functional as F"));
        assert!(py.contains("    linear.weight.copy_(emb.weight.T)\n"));
        assert!(!py.contains("emb.weight.copy_"));
    }
    assert_eq!(PRESETS.len(), 2);
    assert!(script(&preset("vocab10_dim3_batch"))
        .contains("ids = torch.tensor([[9, 0, 4],\n                    [4, 4, 1]])"));
}

#[test]
fn edits_mse_and_bad_ids() {
    let mut s: State = preset("seed123");
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.apply(&Edit::Step).unwrap();
    let py = script(&s);
    assert!(!py.contains("manual_seed") && py.contains("    emb.weight.copy_(torch.tensor(["), "{py}");
    assert!(py.contains("loss_linear = F.mse_loss(output_linear, target)") && py.contains("after 1 SGD step"));
    // Re-drawn with another seed: that seed.
    let mut s: State = preset("seed123");
    s.reinit("7").unwrap();
    assert!(script(&s).contains("torch.manual_seed(7)\n"));
    // Grown with the seed: the seed's draw, and the old rows written over it where they differ.
    let mut s: State = preset("seed123");
    s.set_vocab("10").unwrap();
    let py = script(&s);
    assert!(py.contains("torch.manual_seed(123)\nemb = nn.Embedding(10, 5)\n# the numbers set since"), "{py}");
    assert!(py.contains("    emb.weight[0:1, 4:5] = torch.tensor([[1.5809696]])\n    emb.weight[1:4, 0:5] = "), "{py}");
    // At real scale with an edit: a line for the edit, not 250,000 numbers.
    s.set_vocab("50000").unwrap();
    s.edit("emb.weight", 249_999, "2.5").unwrap();
    let py = script(&s);
    assert!(py.contains("    emb.weight[49999:50000, 4:5] = torch.tensor([[2.5]])\n"), "{py}");
    assert!(py.len() < 4_000, "{} characters", py.len());
    let mut s: State = preset("seed123");
    s.edit("input", 0, "4").unwrap();
    let py = script(&s);
    assert!(py.contains("# PyTorch raises on this state: IndexError: index out of range in self"), "{py}");
}

#[test]
fn the_panel_leaves_out_a_large_literal_and_says_where_it_is() {
    use crate::codegen::{Notebook, Numbers};
    // Grown to 50,000 × 64 from 5 columns: 249,995 numbers kept unlike the new draw.
    let mut s: State = preset("seed123");
    s.set_vocab("50000").unwrap();
    s.set_dim("64").unwrap();
    let all = script(&s);
    let shown = s.script(&s.compute(), 0, Numbers::Shown).text();
    let block = "    emb.weight[1:50000, 0:5] = ";
    assert!(all.contains(&format!("{block}torch.tensor([[")) && all.len() > 3_000_000, "{} characters", all.len());
    // The same script, but for that literal and the comment above it.
    let from = all.find(block).unwrap();
    let to = from + all[from..].find("]])\n").unwrap() + 4;
    let left_out = "    # 249,995 numbers (49999, 5) left out here: Copy code and the notebook write every one\n";
    assert_eq!(shown, format!("{}{left_out}{block}torch.tensor(...)\n{}", &all[..from], &all[to..]));
    assert!(shown.len() < 5_000, "{} characters", shown.len());
}

#[test]
fn the_panel_writes_every_number_of_a_small_scene() {
    use crate::codegen::{Notebook, Numbers};
    for (id, _) in PRESETS {
        let s: State = preset(id);
        assert_eq!(s.script(&s.compute(), 0, Numbers::Shown), s.script(&s.compute(), 0, Numbers::All));
    }
    // Up to SHOWN numbers a literal is written out; one more, and it is left out.
    for (n, written) in [(SHOWN, true), (SHOWN + 1, false)] {
        let mut py = Py::new(None, Numbers::Shown);
        py.assign("x", &Tensor::zeros(vec![n]).unwrap(), &["requires_grad=True"]);
        let text = py.finish().text();
        assert_eq!(text.contains("x = torch.tensor([0.0, "), written, "{n}");
        assert_eq!(text.contains("\nx = torch.tensor(..., requires_grad=True)\n"), !written, "{n}");
    }
}
