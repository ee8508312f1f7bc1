use super::*;
use crate::codegen::train as script;
use crate::codegen::train::lr;
use crate::scene::train::{State, PRESETS};

#[test]
fn presets_are_seeded_and_run_n_steps() {
    for (id, head, lr) in [
        ("tiny_factors2", "torch.manual_seed(42)\nmodel = DotProduct(5, 6, 2)\n", "lr=0.1)"),
        ("factors3_lr05", "torch.manual_seed(7)\nmodel = DotProduct(5, 6, 3)\n", "lr=0.05)"),
    ] {
        let py = script(&preset(id), 20);
        assert!(py.contains(head) && py.contains(lr) && !py.contains("copy_"), "{py}");
        assert!(py.contains("for step in range(20):") && py.contains("class DotProduct(nn.Module):"));
        assert!(py.contains("target = torch.tensor([5.0, 1.0, 4.0, 2.0, 5.0, 1.0, 4.0, 2.0])"));
        assert!(py.contains("x = torch.tensor([[0, 0],\n                  [0, 2],\n"));
    }
    assert_eq!(PRESETS.len(), 2);
    assert!(script(&preset("tiny_factors2"), 0).contains("range(0)"));
}

/// The page's steps from the seed are replayed, then the script prints the state on show: its
/// output, loss and both `.grad`s; "Run N steps" comes after, apart.
#[test]
fn the_steps_taken_replay_then_the_page_is_printed() {
    let mut s: State = preset("tiny_factors2");
    s.apply(&Edit::Run { steps: 3 }).unwrap();
    let py = script(&s, 5);
    assert!(py.contains("torch.manual_seed(42)") && !py.contains("copy_"), "{py}");
    let replay = py.find("# the SGD 3 steps the page took").unwrap();
    let (shown, run) = (py.find("output = model(x)").expect(&py), py.find("# Run N steps: 5 more").expect(&py));
    assert!(replay < shown && shown < run, "{py}");
    assert!(
        py[shown..run].contains("loss.backward()")
            && py[shown..run].contains("print(\"model.movie_factors.weight.grad:\", model.movie_factors.weight.grad)")
    );
    assert!(py[run..].contains("for step in range(5):\n    opt.zero_grad()\n    step_loss = "), "{py}");
}

#[test]
fn steps_and_edits_write_the_factors_out() {
    // Steps on ratings changed since: replaying them would not lead here.
    let mut s: State = preset("tiny_factors2");
    s.apply(&Edit::Run { steps: 3 }).unwrap();
    s.edit("ratings", 2, "3").unwrap();
    let py = script(&s, 5);
    assert!(!py.contains("manual_seed") && py.contains("after 3 SGD steps"), "{py}");
    assert!(
        py.contains("    model.user_factors.weight.copy_(") && py.contains("    model.movie_factors.weight.copy_(")
    );
    let mut s: State = preset("tiny_factors2");
    s.edit("movie_factors.weight", 0, "2").unwrap();
    let py = script(&s, 1);
    assert!(py.contains("torch.manual_seed(42)") && py.matches(".copy_(").count() == 1, "{py}");
    let mut s: State = preset("tiny_factors2");
    s.edit("ratings", 1, "9").unwrap();
    assert!(script(&s, 1).contains("# PyTorch raises on this state: IndexError: index out of range in self"));
}

#[test]
fn lr_is_written_as_typed_when_python_reads_it() {
    for typed in ["0.1", ".5", "5.", "1e-2", "2E+3", "0", "00", "3", "01.5"] {
        assert_eq!(lr(typed), typed);
    }
    assert_eq!(lr(" 0.25 "), "0.25");
    assert_eq!(lr("01"), "1.0");
    assert_eq!(lr("1_0"), "10.0");
    assert_eq!(lr("inf"), "float('inf')");
}

/// Found by fuzz/link_and_file: a link's `lr` that is no number went into the script as
/// code, `lr=0.!`, or `lr=0.1)` and a line of the link's choosing.
#[test]
fn an_lr_from_a_link_stays_a_string() {
    assert_eq!(lr("0.!"), "float('0.!')");
    assert_eq!(lr(" 0.1)\nimport os "), r"float('0.1)\x0aimport os')");
    let mut s: State = preset("tiny_factors2");
    s.learning.lr = "0.1)\nimport os  #".into();
    let py = script(&s, 1);
    assert!(py.contains(r"lr=float('0.1)\x0aimport os  #'))"), "{py}");
    assert!(!py.lines().any(|l| l.starts_with("import os")), "{py}");
}
