use super::*;
use crate::codegen::linear as script;
use crate::scene::linear::{State, PRESETS};
use crate::tensor::Tensor;

#[test]
fn a_reinit_is_written_as_its_seed() {
    let mut s: State = preset("batch_6_to_10");
    s.reinit("7").unwrap();
    let py = script(&s);
    assert!(py.contains("torch.manual_seed(7)\nlinear = nn.Linear(6, 10)\n"), "{py}");
    assert!(!py.contains("copy_") && py.contains("x = torch.tensor("), "{py}");
    // An edit after it: only the edited tensor is written out.
    s.edit("bias", 0, "0.5").unwrap();
    let py = script(&s);
    assert!(py.contains("torch.manual_seed(7)") && py.contains("linear.bias.copy_(torch.tensor([0.5, "), "{py}");
    assert!(!py.contains("linear.weight.copy_"), "{py}");
}

#[test]
fn seeded_presets_replay_their_recipe() {
    let py = script(&preset("vector_6_to_10"));
    assert!(py.contains("torch.manual_seed(0)\nx = torch.randn(6)\nlinear = nn.Linear(6, 10)\n"), "{py}");
    assert!(py.contains("x.requires_grad_()") && !py.contains("copy_") && !py.contains("torch.tensor("), "{py}");
    assert!(py.contains("loss = output.sum()\nloss.backward()"));
    assert!(!py.contains("import torch.nn.functional"));
    let py = script(&preset("batch_6_to_10"));
    assert!(
        py.contains("x = torch.randn(6)\nlinear = nn.Linear(6, 10)\nx = torch.rand(2, 6)\nlinear = nn.Linear(6, 10)\n")
    );
    // Without a bias the weight is the same draw.
    let mut s: State = preset("batch_6_to_10");
    s.set_bias(false);
    let py = script(&s);
    assert!(
        py.contains("x = torch.rand(2, 6)\nlinear = nn.Linear(6, 10, bias=False)\n") && !py.contains("copy_"),
        "{py}"
    );
    assert!(!py.contains("linear.bias.grad"));
    for (id, _) in PRESETS {
        assert!(script(&preset(id)).contains("loss.backward()"));
    }
}

#[test]
fn hand_picked_and_edited_numbers_are_written_out() {
    let py = script(&preset("fixed_2_to_3_3d"));
    assert!(!py.contains("manual_seed"));
    assert!(py.contains("linear = nn.Linear(2, 3)\n# linear.weight is stored (out_features, in_features) = (3, 2)"));
    assert!(py.contains("    linear.weight.copy_(torch.tensor([[0.0, 0.0],\n"), "{py}");
    assert!(py.contains("    linear.bias.copy_(torch.tensor([1.0, 1.0, 1.0]))"));
    assert!(py.contains("x = torch.tensor([[[1.0, 1.0],\n"));
    assert!(py.contains("requires_grad=True)"));

    // One weight edited: still seeded, the weight copied in, the drawn input kept.
    let mut s: State = preset("vector_6_to_10");
    s.edit("weight", 0, "0.5").unwrap();
    let py = script(&s);
    assert!(py.contains("torch.manual_seed(0)") && py.contains("linear.weight.copy_("));
    assert!(!py.contains("linear.bias.copy_(") && py.contains("edited since the seed's draw"), "{py}");
    assert!(py.contains("x.requires_grad_()"));
    // After SGD steps both parameters move; the input is still the draw.
    let mut s: State = preset("vector_6_to_10");
    s.apply(&Edit::Step).unwrap();
    s.apply(&Edit::Step).unwrap();
    let py = script(&s);
    assert!(py.contains("after 2 SGD steps") && py.contains("linear.bias.copy_("), "{py}");
    // An edited input is written out after the draws.
    let mut s: State = preset("vector_6_to_10");
    s.edit("input", 2, "-0").unwrap();
    let py = script(&s);
    assert!(py.contains("x = torch.randn(6)\n") && py.contains("\nx = torch.tensor(["), "{py}");
    assert!(!py.contains("copy_"));
    // Resized: the recipe no longer fits, so nothing is seeded.
    let mut s: State = preset("vector_6_to_10");
    s.set_out_features("4").unwrap();
    let py = script(&s);
    assert!(!py.contains("manual_seed") && py.contains("linear = nn.Linear(6, 4)"), "{py}");
}

#[test]
fn mse_and_errors() {
    let mut s: State = preset("batch_6_to_10");
    s.apply(&Edit::Loss { mse: true }).unwrap();
    s.edit("target", 3, "1.5").unwrap();
    let py = script(&s);
    assert!(py.contains("import torch.nn.functional as F"));
    assert!(py.contains("target = torch.tensor([[0.0, 0.0, 0.0, 1.5,"), "{py}");
    assert!(py.contains("loss = F.mse_loss(output, target)"));
    let mut s: State = preset("vector_6_to_10");
    s.input = Tensor::vector(vec![1.0; 5]);
    let py = script(&s);
    assert!(py.contains("# PyTorch raises on this state: RuntimeError: "), "{py}");
    assert!(py.contains("output = linear(x)"));
}
