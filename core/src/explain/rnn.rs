//! `nn.RNN(input_size, hidden_size)` multiplies each step's input by `weight_ih_l0`
//! `(hidden_size, input_size)` and starts from `h0` `(num_layers × num_directions, batch,
//! hidden_size)`: read from `input.size(-1) must be equal to input_size`, from `Expected hidden
//! size`, or from `nn.RNN(4, 5)(torch.randn(3, 2, 3))`.

use super::read::{call, holes, keyword, made_tensor, positional, size, sizes};
use super::{randn, shape, Explanation, Fix, Reading, Shape};
use crate::ops::rnn::{check_call, RnnConfig};
use crate::scene::rnn::{Source, State, MAX_BATCH, MAX_FEATURES, MAX_LAYERS, MAX_SEQ_LEN};
use crate::scene::share::{to_link, Shared};
use crate::tensor::Tensor;
use crate::torch_rng::Generator;
use crate::TorchError;

const INPUT_SIZE: &str = "input.size(-1) must be equal to input_size. Expected {}, got {}";
const HIDDEN: &str = "Expected hidden size ({}, {}, {}), got {}";

struct Setup {
    config: RnnConfig,
    input: Vec<usize>,
    h0: Option<Vec<usize>>,
    /// Sizes taken from a line; from a message alone only the sizes it names are facts.
    from_line: bool,
}

pub(super) fn read(text: &str) -> Option<Reading> {
    let s = from_line(text).or_else(|| from_message(text))?;
    let c = &s.config;
    let call = format!(
        "nn.RNN({}, {}{}{}{})(input{})",
        c.input_size,
        c.hidden_size,
        if c.num_layers > 1 { format!(", num_layers={}", c.num_layers) } else { String::new() },
        if c.batch_first { ", batch_first=True" } else { "" },
        if c.bidirectional { ", bidirectional=True" } else { "" },
        if s.h0.is_some() { ", h0" } else { "" },
    );
    Some(match check_call(c, &s.input, s.h0.as_deref()) {
        Ok(()) => Reading::Runs { line: format!("{call}, input of shape {}", shape(&s.input)), output: outputs(&s) },
        Err(error) => Reading::Explained(explain(&s, error, call)?),
    })
}

fn from_line(text: &str) -> Option<Setup> {
    let args = call("nn.RNN(", text)?;
    let pos = positional(&args);
    let mut config = RnnConfig::new(
        size(pos.first().copied().or_else(|| keyword(&args, "input_size"))?)?,
        size(pos.get(1).copied().or_else(|| keyword(&args, "hidden_size"))?)?,
    );
    config.num_layers = keyword(&args, "num_layers").map_or(Some(1), size)?;
    config.batch_first = keyword(&args, "batch_first") == Some("True");
    config.bidirectional = keyword(&args, "bidirectional") == Some("True");
    let (input, end) = made_tensor(text, text.find("nn.RNN(")?)?;
    let h0 = made_tensor(text, end).map(|(h, _)| h);
    Some(Setup { config, input, h0, from_line: true })
}

/// What a message alone tells; the sizes it leaves out are made up so that the scene can
/// show the same message (a sequence of 3 steps, a batch of 2, 5 hidden features).
fn from_message(text: &str) -> Option<Setup> {
    if let Some(h) = holes(INPUT_SIZE, text) {
        let (want, got) = (size(h[0])?, size(h[1])?);
        return Some(Setup { config: RnnConfig::new(want, 5), input: vec![3, 2, got], h0: None, from_line: false });
    }
    let h = holes(HIDDEN, text)?;
    let [k, n, hs] = [h[0], h[1], h[2]].map(size);
    let (k, n, hs) = (k?, n?, hs?);
    let config = RnnConfig { num_layers: k, ..RnnConfig::new(2, hs) };
    Some(Setup { config, input: vec![3, n, 2], h0: Some(sizes(h[3])?), from_line: false })
}

/// `output` and `h_n` of a call that runs.
fn outputs(s: &Setup) -> String {
    let c = &s.config;
    let d = c.num_directions();
    let (mut out, layers) = (s.input.clone(), c.num_layers * d);
    if let Some(last) = out.last_mut() {
        *last = d * c.hidden_size;
    }
    let batch = match (s.input.len(), c.batch_first) {
        (2, _) => None,
        (_, true) => s.input.first().copied(),
        _ => s.input.get(1).copied(),
    };
    let h_n = [&[layers][..], batch.as_slice(), &[c.hidden_size]].concat();
    format!("output {}, h_n {}", shape(&out), shape(&h_n))
}

fn explain(s: &Setup, error: TorchError, call: String) -> Option<Explanation> {
    let c = &s.config;
    let n = match (s.input.len(), c.batch_first) {
        (2, _) => 1,
        (3, true) => s.input[0],
        (3, false) => s.input[1],
        _ => return None,
    };
    let means = if c.batch_first { "(batch, seq_len, input_size)" } else { "(seq_len, batch, input_size)" };
    let weight_ih = Shape {
        name: "weight_ih_l0".into(),
        dims: vec![c.hidden_size, c.input_size],
        marked: vec![1],
        means: "(hidden_size, input_size)".into(),
    };
    let got = *s.input.last()?;
    if got != c.input_size {
        let input = match s.from_line {
            true => Shape {
                name: "input".into(),
                dims: s.input.clone(),
                marked: vec![s.input.len() - 1],
                means: means.into(),
            },
            false => {
                Shape { name: "input.size(-1)".into(), dims: vec![got], marked: vec![0], means: "its last size".into() }
            }
        };
        let mut fixed = Setup {
            config: RnnConfig { input_size: got, ..c.clone() },
            input: s.input.clone(),
            h0: s.h0.clone(),
            from_line: true,
        };
        let mut fixes = vec![Fix { code: format!("nn.RNN({got}, {})", c.hidden_size), gives: outputs(&fixed) }];
        fixed.config.input_size = c.input_size;
        *fixed.input.last_mut()? = c.input_size;
        fixes.push(match s.from_line {
            true => Fix { code: format!("input = {}", randn(&fixed.input)), gives: outputs(&fixed) },
            false => Fix {
                code: format!("input = torch.randn(seq_len, batch, {})", c.input_size),
                gives: format!("{} numbers at every step", c.input_size),
            },
        });
        return Some(Explanation {
            layer: "nn.RNN",
            error,
            call,
            shapes: if s.from_line { vec![input, weight_ih] } else { vec![input] },
            why: format!(
                "At every time step nn.RNN multiplies the step's input by weight_ih_l0, which has input_size = {} \
                 columns, so each step must hold {} numbers: input's last dimension. Yours holds {got}.",
                c.input_size, c.input_size
            ),
            fixes,
            route: "rnn",
            open: open(s),
        });
    }
    let h0 = s.h0.as_ref()?;
    let want = [c.num_layers * c.num_directions(), n, c.hidden_size];
    let marked: Vec<usize> = (0..3).filter(|&i| h0.get(i) != Some(&want[i])).collect();
    let mut why = format!(
        "h0 must be (num_layers × num_directions, batch, hidden_size) = {}, one row of hidden_size numbers per layer \
         and direction for every sequence in the batch.",
        shape(&want)
    );
    let mut fixes = Vec::new();
    if h0.len() == 3 && h0[0] == n && h0[1] == want[0] && h0[2] == want[2] && n != want[0] {
        why += " Yours has the batch first: h0 keeps the batch second even with batch_first=True.";
        fixes.push(Fix { code: "h0.transpose(0, 1)".into(), gives: format!("h0 {}", shape(&want)) });
    } else if h0.get(1).is_some_and(|&b| b != n) {
        why += &format!(" Yours is for a batch of {}, and input's batch is {n}.", h0[1]);
    }
    let fixed = Setup { h0: Some(want.to_vec()), input: s.input.clone(), config: c.clone(), from_line: true };
    fixes
        .push(Fix { code: format!("h0 = torch.zeros({}, {}, {})", want[0], want[1], want[2]), gives: outputs(&fixed) });
    fixes.push(Fix { code: "nn.RNN(...)(input)".into(), gives: format!("h0 left out: zeros of {}", shape(&want)) });
    let input = Shape { name: "input".into(), dims: s.input.clone(), marked: Vec::new(), means: means.into() };
    let h0 = Shape {
        name: "h0".into(),
        dims: h0.clone(),
        marked,
        means: "(num_layers × num_directions, batch, hidden_size)".into(),
    };
    Some(Explanation {
        layer: "nn.RNN",
        error,
        call,
        shapes: if s.from_line { vec![input, h0] } else { vec![h0] },
        why,
        fixes,
        route: "rnn",
        open: open(s),
    })
}

/// The RNN scene with this layer (drawn after `torch.manual_seed(0)`), input and h0; `None`
/// past the scene's sizes.
fn open(s: &Setup) -> Option<String> {
    let c = &s.config;
    let (n, l) = match (s.input.len(), c.batch_first) {
        (3, true) => (s.input[0], s.input[1]),
        (3, false) => (s.input[1], s.input[0]),
        _ => return None,
    };
    let within = |n: usize, max: usize| (1..=max).contains(&n);
    let fits = within(n, MAX_BATCH)
        && within(l, MAX_SEQ_LEN)
        && within(c.num_layers, MAX_LAYERS)
        && [c.input_size, c.hidden_size, s.input[2]].iter().all(|&f| within(f, MAX_FEATURES))
        && s.h0.as_ref().is_none_or(|h| h.iter().all(|&d| within(d, MAX_FEATURES)));
    if !fits {
        return None;
    }
    let mut g = Generator::manual_seed(0).ok()?;
    let input = g.randn(&s.input);
    let mut state = State::new("", c.clone(), Source::Tensor(input), vec![l as i64; n])?;
    state.model.h0 = match &s.h0 {
        Some(h) => Some(Tensor::zeros(h.clone()).ok()?),
        None => None,
    };
    state.check().ok()?;
    Some(to_link(&state))
}
