//! The Linear scene's script: `linear = nn.Linear(in, out)` on `x`.

use super::{by_hand, loss_of, same, Numbers, Py, Script, Section};
use crate::scene::linear::{recipe, Computed, Draw, State};
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

/// The script in its sections, which a notebook makes its cells.
pub(super) fn sections(s: &State, c: &Computed, numbers: Numbers) -> Script {
    let mut py = Py::new(c.issues.first().map(|i| &i.error), numbers);
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
    py.section(Section::Forward);
    let bias = if s.has_bias { " + linear.bias" } else { "" };
    let how = match s.input.dim() {
        1 => format!("one sample: the same numbers as linear.weight @ x{bias}"),
        _ => format!("every row of x is one sample: x @ linear.weight.T{bias}"),
    };
    py.line(format!("output = linear(x)  # {how}"));
    py.show("output");
    py.section(Section::Backward);
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
