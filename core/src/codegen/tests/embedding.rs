use super::*;
use crate::codegen::embedding as script;
use crate::scene::embedding::State;

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
    presets_say(&want, script, |id, py| assert!(!py.contains("copy_"), "{id}"));
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
    let mut s: State = preset("pretrained_5x4");
    s.apply(&Edit::flag("freeze", false)).unwrap();
    let py = script(&s);
    assert!(py.contains("from_pretrained(weight, freeze=False)") && py.contains("loss.backward()"));
}

#[test]
fn flags_edits_and_errors() {
    let mut s: State = preset("seed123_4x5");
    s.apply(&Edit::flag("sparse", true)).unwrap();
    let py = script(&s);
    assert!(py.contains("emb = nn.Embedding(4, 5, sparse=True)") && py.contains("emb.weight.grad.to_dense()"));
    // A negative padding_idx on the drawn table zeroes the same row: still the seed's draw.
    let mut s: State = preset("padding_10x3");
    s.set_padding_idx("-9").unwrap();
    assert!(script(&s).contains("torch.manual_seed(0)\nemb = nn.Embedding(10, 3, padding_idx=-9)"));
    // Another padding row zeroes a drawn row: no longer the seed's draw.
    s.set_padding_idx("2").unwrap();
    let py = script(&s);
    assert!(!py.contains("manual_seed") && py.contains("    emb.weight.copy_(torch.tensor([["), "{py}");
    // Steps move the table.
    let mut s: State = preset("seed123_4x5");
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.apply(&Edit::Step).unwrap();
    let py = script(&s);
    assert!(py.contains("after 1 SGD step") && py.contains("F.mse_loss(output, target)"), "{py}");
    assert!(py.contains("target = torch.tensor([[0.0, 0.0, 0.0, 0.0, 0.0],"));
    // A bad id: the script still runs into PyTorch's error.
    let mut s: State = preset("seed123_4x5");
    s.edit("input", 1, "7").unwrap();
    let py = script(&s);
    assert!(py.contains("# PyTorch raises on this state: IndexError: index out of range in self"), "{py}");
    assert!(py.contains("ids = torch.tensor([2, 7, 1])"));
    let mut s: State = preset("seed123_4x5");
    s.set_padding_idx("4").unwrap();
    let py = script(&s);
    assert!(py.contains("AssertionError: Padding_idx must be within num_embeddings"), "{py}");
    assert!(py.contains("nn.Embedding(4, 5, padding_idx=4)"));
}
