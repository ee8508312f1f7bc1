//! `nn.Linear(in_features, out_features)` computes `x @ weight.T + bias`, so `x.shape[-1]` must
//! be `in_features`: read from `mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)` or from
//! `nn.Linear(6, 10)(torch.randn(2, 5))`.

use super::read::{call, holes, keyword, made_tensor, positional, size};
use super::{randn, shape, Explanation, Fix, Reading, Shape};
use crate::ops::linear::input_rows;
use crate::scene::linear::{State, MAX_SIZE};
use crate::scene::share::{to_link, Shared};
use crate::tensor::numel;
use crate::torch_rng::Generator;
use crate::TorchError;

const MESSAGE: &str = "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})";

struct Setup {
    in_features: usize,
    out_features: usize,
    bias: bool,
    /// The input's shape; from a message alone, `(rows, last)` as the op flattened it.
    input: Vec<usize>,
}

pub(super) fn read(text: &str) -> Option<Reading> {
    let s = from_line(text).or_else(|| from_message(text))?;
    let module =
        format!("nn.Linear({}, {}{})", s.in_features, s.out_features, if s.bias { "" } else { ", bias=False" });
    let call = format!("{module}(x), x of shape {}", shape(&s.input));
    Some(match input_rows(s.in_features, s.out_features, s.bias, &s.input) {
        Ok(_) => Reading::Runs { line: call, output: format!("output {}", shape(&output(&s.input, s.out_features))) },
        Err(error) => Reading::Explained(explain(&s, error, module, call)),
    })
}

fn from_line(text: &str) -> Option<Setup> {
    let args = call("nn.Linear(", text)?;
    let pos = positional(&args);
    let in_features = size(pos.first().copied().or_else(|| keyword(&args, "in_features"))?)?;
    let out_features = size(pos.get(1).copied().or_else(|| keyword(&args, "out_features"))?)?;
    let bias = keyword(&args, "bias") != Some("False");
    let (input, _) = made_tensor(text, text.find("nn.Linear(")?)?;
    Some(Setup { in_features, out_features, bias, input })
}

fn from_message(text: &str) -> Option<Setup> {
    let h = holes(MESSAGE, text)?;
    let [rows, last, in_features, out_features] = [h[0], h[1], h[2], h[3]].map(size);
    Some(Setup {
        in_features: in_features?,
        out_features: out_features?,
        // `mm:` is Linear without a bias; with no prefix, nn.Linear's default.
        bias: text.contains("addmm: mat1") || !text.contains("mm: mat1"),
        input: vec![rows?, last?],
    })
}

/// `(*, in) → (*, out)`.
fn output(input: &[usize], out_features: usize) -> Vec<usize> {
    [&input[..input.len().saturating_sub(1)], &[out_features]].concat()
}

fn explain(s: &Setup, error: TorchError, module: String, call: String) -> Explanation {
    let (inf, outf) = (s.in_features, s.out_features);
    let weight = Shape {
        name: "weight".into(),
        dims: vec![outf, inf],
        marked: vec![1],
        means: "(out_features, in_features)".into(),
    };
    let gives = |x: &[usize]| format!("x {} → output {}", shape(x), shape(&output(x, outf)));
    let Some(&last) = s.input.last() else {
        let x = Shape { name: "x".into(), dims: Vec::new(), marked: Vec::new(), means: "a single number".into() };
        return Explanation {
            layer: "nn.Linear",
            error,
            call,
            shapes: vec![x, weight],
            why: format!(
                "x is 0-D, a single number. {module} multiplies rows of {inf} numbers by weight, so x needs a last dimension of size {inf}."
            ),
            fixes: vec![Fix { code: format!("x = {}", randn(&[inf])), gives: gives(&[inf]) }],
            route: "linear",
            open: None,
        };
    };
    let x = Shape {
        name: "x".into(),
        dims: s.input.clone(),
        marked: vec![s.input.len() - 1],
        means: match s.input.len() {
            1 => "(in_features,)",
            2 => "(N, in_features)",
            3 => "(B, N, in_features)",
            _ => "(*, in_features)",
        }
        .into(),
    };
    let fitted = [&s.input[..s.input.len() - 1], &[inf]].concat();
    let mut fixes = vec![Fix { code: format!("nn.Linear({last}, {outf})"), gives: gives(&s.input) }];
    if let [rows, _] = s.input[..] {
        if rows == inf {
            fixes.push(Fix { code: "x.T".into(), gives: gives(&[last, rows]) });
        }
    }
    let numel = numel(&s.input).unwrap_or(0);
    if inf > 0 && numel > 0 && numel.is_multiple_of(inf) {
        fixes.push(Fix { code: format!("x.reshape(-1, {inf})"), gives: gives(&[numel / inf, inf]) });
    }
    // An input made the layer's size, where the two above do not already say how.
    fixes.push(Fix { code: format!("x = {}", randn(&fitted)), gives: gives(&fitted) });
    fixes.truncate(3);
    Explanation {
        layer: "nn.Linear",
        error,
        call,
        shapes: vec![x, weight],
        why: format!(
            "{module} computes x @ weight.T + bias: every row of x is multiplied by every row of weight, so a row of x \
             must hold in_features = {inf} numbers. Your x's last dimension has {last}: {last} ≠ {inf}."
        ),
        fixes,
        route: "linear",
        open: open(s),
    }
}

/// The Linear scene with this layer and input, drawn after `torch.manual_seed(0)` in the
/// line's order (the layer, then the input); `None` past the scene's sizes.
fn open(s: &Setup) -> Option<String> {
    let fits = [s.in_features, s.out_features].iter().chain(&s.input).all(|&n| (1..=MAX_SIZE).contains(&n));
    if !fits || !(1..=3).contains(&s.input.len()) {
        return None;
    }
    let mut g = Generator::manual_seed(0).ok()?;
    let (weight, bias) = g.linear(s.in_features, s.out_features, true);
    let input = g.randn(&s.input);
    let state = State {
        preset: String::new(),
        weight,
        bias: bias?,
        has_bias: s.bias,
        input,
        learning: Default::default(),
        seed: None,
    };
    state.check().ok()?;
    Some(to_link(&state))
}
