//! The Linear scene's script: `linear = nn.Linear(in, out)` on `x`.

use super::{by_hand, loss_of, same, Py};
use crate::scene::linear::{recipe, Draw, State};
use crate::tensor::py_shape;
use crate::tensor::Tensor;
use crate::torch_rng::Generator;

/// A `torch.manual_seed` replayed: its lines and what it draws, when its last `nn.Linear` has
/// the layer's current sizes. A preset's recipe also draws the input; a re-init only the layer.
struct Drawn {
    lines: Vec<String>,
    input: Option<Tensor>,
    weight: Tensor,
    bias: Option<Tensor>,
}

/// The re-init's seed while it still gives a parameter on show, else the preset's recipe.
fn replay(s: &State) -> Option<Drawn> {
    let kept = |d: &Drawn| same(&d.weight, &s.weight) || d.bias.as_ref().is_some_and(|b| same(b, &s.bias));
    reinit(s).filter(kept).or_else(|| recipe(&s.preset).and_then(|_| replay_recipe(s)))
}

/// `torch.manual_seed(seed); linear = nn.Linear(in, out)`, as the seed field re-drew it.
fn reinit(s: &State) -> Option<Drawn> {
    let seed = Generator::parse_seed(s.seed.as_deref()?).ok()?;
    let (i, o) = (s.in_features(), s.out_features());
    let (weight, bias) = Generator::manual_seed(seed).ok()?.linear(i, o, s.has_bias);
    let no_bias = if s.has_bias { "" } else { ", bias=False" };
    let lines = vec![format!("torch.manual_seed({seed})"), format!("linear = nn.Linear({i}, {o}{no_bias})")];
    Some(Drawn { lines, input: None, weight, bias })
}

fn replay_recipe(s: &State) -> Option<Drawn> {
    let recipe = recipe(&s.preset)?;
    let mut g = Generator::manual_seed(recipe.seed.into()).ok()?;
    let mut lines = vec![format!("torch.manual_seed({})", recipe.seed)];
    if recipe.draws.len() > 2 {
        lines.push("# as the preset: the earlier draws only move the generator on".into());
    }
    let last_layer = recipe.draws.iter().rposition(|d| matches!(d, Draw::Linear(..)))?;
    let (mut input, mut layer) = (None, None);
    for (k, draw) in recipe.draws.iter().enumerate() {
        match *draw {
            Draw::Randn(shape) | Draw::Rand(shape) => {
                let (f, t) = match draw {
                    Draw::Randn(_) => ("randn", g.randn(shape)),
                    _ => ("rand", g.rand(shape)),
                };
                let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
                lines.push(format!("x = torch.{f}({})", dims.join(", ")));
                input = Some(t);
            }
            Draw::Linear(i, o) => {
                let bias = k != last_layer || s.has_bias;
                let no_bias = if bias { "" } else { ", bias=False" };
                lines.push(format!("linear = nn.Linear({i}, {o}{no_bias})"));
                layer = Some(((i, o), g.linear(i, o, bias)));
            }
        }
    }
    let (((i, o), (weight, bias)), input) = (layer?, input?);
    let fits = (i, o) == (s.in_features(), s.out_features()) && s.weight.dim() == 2;
    fits.then_some(Drawn { lines, input: Some(input), weight, bias })
}

pub(super) fn script(s: &State) -> String {
    let c = s.compute();
    let mut py = Py::new(c.issues.first().map(|i| &i.error));
    let steps = s.learning.steps;
    let mut params = vec![("linear.weight".to_string(), &s.weight)];
    if s.has_bias {
        params.push(("linear.bias".to_string(), &s.bias));
    }
    let drawn = replay(s).filter(|d| {
        let seeded = [same(&d.weight, &s.weight), d.bias.as_ref().is_some_and(|b| s.has_bias && same(b, &s.bias))];
        d.input.as_ref().is_some_and(|x| same(x, &s.input)) || seeded.contains(&true)
    });
    let input_drawn = drawn.as_ref().and_then(|d| d.input.as_ref()).is_some_and(|x| same(x, &s.input));
    match &drawn {
        Some(d) => {
            d.lines.iter().for_each(|l| py.line(l.as_str()));
            let differ = |(name, t): &&(String, &Tensor)| {
                let seeded = if name == "linear.weight" { Some(&d.weight) } else { d.bias.as_ref() };
                !seeded.is_some_and(|x| same(x, t))
            };
            let edited: Vec<_> = params.iter().filter(differ).cloned().collect();
            py.set_by_hand(&edited, &by_hand(steps, true));
        }
        None => {
            py.line(format!("linear = {}", c.module));
            let why = format!(
                "linear.weight is stored (out_features, in_features) = {}; {}",
                py_shape(s.weight.shape()),
                by_hand(steps, false)
            );
            py.set_by_hand(&params, &why);
        }
    }
    if input_drawn {
        py.line("x.requires_grad_()  # so that backward fills x.grad");
    } else {
        py.assign("x", &s.input, &["requires_grad=True"]);
    }
    py.blank();
    let bias = if s.has_bias { " + linear.bias" } else { "" };
    let how = match s.input.dim() {
        1 => format!("one sample: the same numbers as linear.weight @ x{bias}"),
        _ => format!("every row of x is one sample: x @ linear.weight.T{bias}"),
    };
    py.line(format!("output = linear(x)  # {how}"));
    py.show("output");
    py.blank();
    py.target(&s.learning.loss);
    py.line(format!("loss = {}", loss_of(&s.learning.loss, "output")));
    py.line("loss.backward()");
    py.show("loss");
    for (name, _) in &params {
        py.show(&format!("{name}.grad"));
    }
    py.show("x.grad");
    py.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::contract::{Edit, Scene};
    use crate::scene::linear::PRESETS;
    use crate::tensor::Tensor;

    fn preset(id: &str) -> State {
        State::preset(id).unwrap()
    }

    #[test]
    fn a_reinit_is_written_as_its_seed() {
        let mut s = preset("batch_6_to_10");
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
        assert!(py.contains(
            "x = torch.randn(6)\nlinear = nn.Linear(6, 10)\nx = torch.rand(2, 6)\nlinear = nn.Linear(6, 10)\n"
        ));
        // Without a bias the weight is the same draw.
        let mut s = preset("batch_6_to_10");
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
        let mut s = preset("vector_6_to_10");
        s.edit("weight", 0, "0.5").unwrap();
        let py = script(&s);
        assert!(py.contains("torch.manual_seed(0)") && py.contains("linear.weight.copy_("));
        assert!(!py.contains("linear.bias.copy_(") && py.contains("edited since the seed's draw"), "{py}");
        assert!(py.contains("x.requires_grad_()"));
        // After SGD steps both parameters move; the input is still the draw.
        let mut s = preset("vector_6_to_10");
        s.apply(&Edit::Step).unwrap();
        s.apply(&Edit::Step).unwrap();
        let py = script(&s);
        assert!(py.contains("after 2 SGD steps") && py.contains("linear.bias.copy_("), "{py}");
        // An edited input is written out after the draws.
        let mut s = preset("vector_6_to_10");
        s.edit("input", 2, "-0").unwrap();
        let py = script(&s);
        assert!(py.contains("x = torch.randn(6)\n") && py.contains("\nx = torch.tensor(["), "{py}");
        assert!(!py.contains("copy_"));
        // Resized: the recipe no longer fits, so nothing is seeded.
        let mut s = preset("vector_6_to_10");
        s.set_out_features("4").unwrap();
        let py = script(&s);
        assert!(!py.contains("manual_seed") && py.contains("linear = nn.Linear(6, 4)"), "{py}");
    }

    #[test]
    fn mse_and_errors() {
        let mut s = preset("batch_6_to_10");
        s.apply(&Edit::Loss { mse: true }).unwrap();
        s.edit("target", 3, "1.5").unwrap();
        let py = script(&s);
        assert!(py.contains("import torch.nn.functional as F"));
        assert!(py.contains("target = torch.tensor([[0.0, 0.0, 0.0, 1.5,"), "{py}");
        assert!(py.contains("loss = F.mse_loss(output, target)"));
        let mut s = preset("vector_6_to_10");
        s.input = Tensor::vector(vec![1.0; 5]);
        let py = script(&s);
        assert!(py.contains("# PyTorch raises on this state: RuntimeError: "), "{py}");
        assert!(py.contains("output = linear(x)"));
    }
}
