//! A scene's state as a runnable PyTorch script that reproduces its exact numbers: the PyTorch
//! panel's code. Plain Python 3 and torch, no numpy.
//!
//! Each script builds the module(s) and inputs, runs forward, prints what the scene shows, puts
//! the scene's loss on the output, calls `backward()` and prints every `.grad` on show. The
//! parameters come from `torch.manual_seed(seed)` and the constructors when that has been checked
//! here to give the very bits on show (replaying the draws with
//! [`crate::torch_rng::Generator`]); whatever differs (edited, or moved by SGD) is then copied in
//! by hand, and with no usable seed everything is.
//! Every float is written so that Python's `float` → torch float32 gives back its bits
//! ([`float`]). A state PyTorch would refuse still gets its script, which raises PyTorch's error;
//! a comment at the top says which.
//!
//! The variables a script leaves behind (`tools/check_codegen.py` reads them):
//!
//! | scene | modules | inputs | results |
//! |---|---|---|---|
//! | [`linear`] | `linear` | `x` (requires grad), `target` (mse) | `output`, `loss` |
//! | [`embedding`] | `emb` (`weight` when `from_pretrained`) | `ids`, `target` | `output`, `loss` |
//! | [`one_hot`] | `emb`, `linear` | `ids`, `one_hot`, `target` | `output` = `emb(ids)`, `output_linear` = `linear(one_hot)`, `loss`, `loss_linear` |
//! | [`rnn`] | `rnn`, `emb` (ids source) | `x` (typed, or `emb(ids)` with `retain_grad`), `ids`, `h0`, `lengths`, `target` | `output`, `h_n`, `loss` |
//! | [`train`] | `model` (`DotProduct`), `opt` | `x` (user, movie), `target` (ratings) | `losses` (one per step), then `output` and `loss` after the steps |
//!
//! and the `.grad` of each parameter and input.
//!
//! A [`Script`] keeps its sections (build, forward, loss and backward, SGD), which [`notebook`]
//! makes the cells of a Jupyter notebook.

mod elsewhere;
mod embedding;
pub(crate) mod float;
mod linear;
mod notebook;
mod one_hot;
mod rnn;
mod train;
mod word2vec;

#[cfg(test)]
mod tests;

use crate::error::TorchError;
use crate::ops::loss::Loss;
use crate::scene;
use crate::tensor::Tensor;
pub use elsewhere::{File, Write};
pub use float::float;
pub use notebook::{file_name, notebook, notebook_of, Notebook};

/// `linear = nn.Linear(...)` on `x`, its loss and `.grad`s.
pub fn linear(s: &scene::linear::State) -> String {
    script(s, 0)
}

/// `emb = nn.Embedding(...)` (or `from_pretrained`) on `ids`, its loss and `emb.weight.grad`.
pub fn embedding(s: &scene::embedding::State) -> String {
    script(s, 0)
}

/// `emb(ids)` next to `linear(F.one_hot(ids, V).float())` with `linear.weight = emb.weight.T`.
pub fn one_hot(s: &scene::one_hot::State) -> String {
    script(s, 0)
}

/// `output, h_n = rnn(x, h0)`, packed when the scene packs, its loss and every `.grad`.
pub fn rnn(s: &scene::rnn::State) -> String {
    script(s, 0)
}

/// The `DotProduct` recommender and `steps` SGD steps from the current factors.
pub fn train(s: &scene::train::State, steps: usize) -> String {
    script(s, steps)
}

/// Both word2vec tables on the next step's pairs, then the task from its three starts.
pub fn word2vec(s: &scene::word2vec::State) -> String {
    script(s, 0)
}

/// A scene's whole script as it is, every number written; `steps` is how many SGD steps Train's
/// runs (the others take none).
fn script<S: Notebook>(s: &S, steps: usize) -> String {
    s.script(&s.compute(), steps, Numbers::All).text()
}

/// The steps Train's script runs for "Run N steps" as typed: 20 when it is no count.
pub fn run_steps(typed: &str) -> usize {
    typed.trim().parse().unwrap_or(20)
}

/// How much of a large tensor a script writes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// Every number: the script copied, downloaded and run.
    All,
    /// A literal of more than [`SHOWN`] numbers left out (`torch.tensor(...)`, a comment above
    /// saying so): the panel's script, written again on every change while it is open. At
    /// 50,000 × 64, 250,000 numbers kept through a resize made it 5.3 MB, and an SGD step with
    /// the panel open a 555 ms task.
    Shown,
}

/// The most numbers a literal in the panel's script holds (a 100 × 100 table).
pub const SHOWN: usize = 10_000;

/// What a part of a script does: a notebook gives each part its own cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The module(s) and inputs with the numbers on show (the imports first).
    Build,
    /// The forward pass and what it prints.
    Forward,
    /// The loss, `backward()` and every `.grad`.
    Backward,
    /// Train's loop of SGD steps.
    Sgd,
    /// word2vec's vocabulary trained by a sentence classifier instead, from three starts.
    Task,
}

/// A script in its sections, in order: the panel's text has them one after another with a blank
/// line between.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// PyTorch's error on the state, when it raises (the script says so in a comment).
    pub raises: Option<String>,
    /// Each section's lines, every one ending in `\n`.
    pub sections: Vec<(Section, String)>,
    /// Numbers a [`Numbers::Shown`] script left out: what Copy code and the notebook add.
    pub left_out: usize,
}

impl Script {
    /// The panel's text.
    pub fn text(&self) -> String {
        let parts: Vec<&str> = self.sections.iter().map(|(_, text)| text.as_str()).collect();
        parts.join("\n")
    }
}

/// Lines of the script are kept under this width where a tensor allows it.
const WIDTH: usize = 120;

/// `text` as a Python string literal: printable ASCII as is, the rest escaped, so text from a
/// link can neither end the literal nor the line.
fn string(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\\' | '\'' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            c if u32::from(c) <= 0xff => out += &format!("\\x{:02x}", u32::from(c)),
            c if u32::from(c) <= 0xffff => out += &format!("\\u{:04x}", u32::from(c)),
            c => out += &format!("\\U{:08x}", u32::from(c)),
        }
    }
    out + "'"
}

/// An element of a tensor literal.
trait Item: Copy {
    /// `torch.empty`'s dtype argument for this element type (floats are torch's default).
    const DTYPE: Option<&'static str>;
    /// The element as Python writes it, at the end of `out`.
    fn py(self, out: &mut String);
}

impl Item for f32 {
    const DTYPE: Option<&'static str> = None;
    fn py(self, out: &mut String) {
        float::write(out, self);
    }
}

impl Item for i64 {
    const DTYPE: Option<&'static str> = Some("dtype=torch.long");
    fn py(self, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "{self}");
    }
}

/// `torch.tensor([[...],\n [...]], kwargs)`, written as if it started at column `col`: one row per
/// line from 2-D on, long rows wrapped. Python ints make an int64 tensor, floats a float32 one.
fn tensor<T: Item>(t: &Tensor<T>, col: usize, kwargs: &[&str]) -> String {
    if t.numel() == 0 {
        // A literal can't say `(0, 3)`: `[]` is `(0,)`.
        let dims = t.shape().iter().map(ToString::to_string);
        let args: Vec<String> =
            dims.chain(T::DTYPE.map(String::from)).chain(kwargs.iter().map(|k| k.to_string())).collect();
        return format!("torch.empty({})", args.join(", "));
    }
    let open = "torch.tensor(";
    let mut out = open.to_string();
    nested(&mut out, t.shape(), t.data(), col + open.len());
    for k in kwargs {
        out += ", ";
        out += k;
    }
    out + ")"
}

/// The nested list of `data` with its `[` at column `col`.
fn nested<T: Item>(out: &mut String, shape: &[usize], data: &[T], col: usize) {
    let Some((&n, inner)) = shape.split_first() else {
        data[0].py(out);
        return;
    };
    out.push('[');
    let pad = " ".repeat(col + 1);
    if inner.is_empty() {
        let mut at = col + 1;
        let mut item = String::new();
        for (i, x) in data.iter().enumerate() {
            item.clear();
            x.py(&mut item);
            if i > 0 && at + 2 + item.len() > WIDTH.max(col + 40) {
                out.push_str(",\n");
                out.push_str(&pad);
                at = col + 1;
            } else if i > 0 {
                out.push_str(", ");
                at += 2;
            }
            out.push_str(&item);
            at += item.len();
        }
    } else {
        let per = data.len() / n.max(1);
        for i in 0..n {
            if i > 0 {
                out.push_str(",\n");
                out.push_str(&pad);
            }
            nested(out, inner, &data[i * per..(i + 1) * per], col + 1);
        }
    }
    out.push(']');
}

/// Whether two tensors have the same shape and the same bits.
fn same(a: &Tensor, b: &Tensor) -> bool {
    a.shape() == b.shape() && a.data().iter().zip(b.data()).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// A script as it is written: its lines, where each section starts, and the error PyTorch raises
/// on it, if any.
struct Py {
    lines: Vec<String>,
    /// Whether a line calls `torch.nn.functional` (`F.`), which the imports then name.
    functional: bool,
    sections: Vec<(Section, usize)>,
    raises: Option<String>,
    numbers: Numbers,
    left_out: usize,
}

impl Py {
    fn new(raises: Option<&TorchError>, numbers: Numbers) -> Self {
        let raises = raises.map(ToString::to_string);
        Self { lines: Vec::new(), functional: false, sections: vec![(Section::Build, 0)], raises, numbers, left_out: 0 }
    }

    /// `tensor(t, col, kwargs)`, or in the panel's script for a large `t` `torch.tensor(...)`
    /// after a comment line (indented by `indent`) that says what is left out and where it is.
    fn literal<T: Item>(&mut self, indent: &str, t: &Tensor<T>, col: usize, kwargs: &[&str]) -> String {
        if self.numbers == Numbers::All || t.numel() <= SHOWN {
            return tensor(t, col, kwargs);
        }
        self.left_out += t.numel();
        let shape: Vec<String> = t.shape().iter().map(ToString::to_string).collect();
        self.line(format!(
            "{indent}# {} numbers ({}) left out here: Copy code and the notebook write every one",
            crate::format::grouped(t.numel()),
            shape.join(", ")
        ));
        let args: Vec<&str> = ["..."].into_iter().chain(kwargs.iter().copied()).collect();
        format!("torch.tensor({})", args.join(", "))
    }

    /// Starts `section` at the next line; in the text, a blank line comes before it.
    fn section(&mut self, section: Section) {
        self.sections.push((section, self.lines.len()));
    }

    fn line(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.functional |= text.contains("F.");
        self.lines.push(text);
    }

    /// `head`, a tensor `literal` and `tail` as one line. A literal holds numbers only: at real
    /// scale megabytes not to search for `F.`.
    fn literal_line(&mut self, head: &str, mut literal: String, tail: &str) {
        self.functional |= head.contains("F.");
        literal.insert_str(0, head);
        literal.push_str(tail);
        self.lines.push(literal);
    }

    fn blank(&mut self) {
        self.lines.push(String::new());
    }

    fn comment(&mut self, text: &str) {
        self.line(format!("# {text}"));
    }

    /// `lhs = torch.tensor(...)` (`lhs` may be indented).
    fn assign<T: Item>(&mut self, lhs: &str, t: &Tensor<T>, kwargs: &[&str]) {
        let head = format!("{lhs} = ");
        let indent = &lhs[..lhs.len() - lhs.trim_start().len()];
        let literal = self.literal(indent, t, head.len(), kwargs);
        self.literal_line(&head, literal, "");
    }

    /// `print("label:", expr)`.
    fn show(&mut self, expr: &str) {
        self.line(format!("print(\"{expr}:\", {expr})"));
    }

    /// Copies the numbers on show into parameters the constructor has made (with their shapes):
    /// `with torch.no_grad(): p.copy_(torch.tensor(...))`.
    fn set_by_hand(&mut self, params: &[(String, &Tensor)], why: &str) {
        if params.is_empty() {
            return;
        }
        self.comment(why);
        self.line("with torch.no_grad():");
        for (name, t) in params {
            let head = format!("    {name}.copy_(");
            let literal = self.literal("    ", t, head.len(), &[]);
            self.literal_line(&head, literal, ")");
        }
    }

    /// Writes the cells `set` (flat indices, in order) of the 2-D `t` over the parameter `name`
    /// as the constructor drew it: consecutive rows set over the same columns are one block,
    /// `name[r0:r1, c0:c1] = torch.tensor(...)`, so a few edits are a few lines at any size.
    fn set_cells(&mut self, name: &str, t: &Tensor, set: &[usize], why: &str) {
        let &[_, d] = t.shape() else { return };
        if set.is_empty() || d == 0 {
            return;
        }
        let mut runs: Vec<[usize; 3]> = Vec::new();
        for &i in set {
            let (r, c) = (i / d, i % d);
            match runs.last_mut() {
                Some([row, _, end]) if *row == r && *end == c => *end += 1,
                _ => runs.push([r, c, c + 1]),
            }
        }
        let mut blocks: Vec<[usize; 4]> = Vec::new();
        for [r, c0, c1] in runs {
            match blocks.last_mut() {
                Some([_, r1, b0, b1]) if (*r1, *b0, *b1) == (r, c0, c1) => *r1 += 1,
                _ => blocks.push([r, r + 1, c0, c1]),
            }
        }
        self.comment(why);
        self.line("with torch.no_grad():");
        for [r0, r1, c0, c1] in blocks {
            let data = (r0..r1).flat_map(|r| t.data()[r * d..][c0..c1].iter().copied()).collect();
            let Ok(block) = Tensor::new(vec![r1 - r0, c1 - c0], data) else { continue };
            let head = format!("    {name}[{r0}:{r1}, {c0}:{c1}] = ");
            let literal = self.literal("    ", &block, head.len(), &[]);
            self.literal_line(&head, literal, "");
        }
    }

    /// `target = torch.tensor(...)` for an mse loss; nothing for sum.
    fn target(&mut self, loss: &Loss) {
        if let Loss::Mse { target } = loss {
            self.assign("target", target, &[]);
        }
    }

    /// The imports the lines use and the error comment, then the lines, in their sections.
    fn finish(self) -> Script {
        let mut head = String::from("import torch\nfrom torch import nn\n");
        if self.functional {
            head += "import torch.nn.functional as F\n";
        }
        head += "\n";
        if let Some(e) = &self.raises {
            // The message may quote a link's text: its line breaks and NULs would end the comment
            // or the script, so control characters are written escaped.
            let e: String =
                e.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.into() }).collect();
            head += &format!("# PyTorch raises on this state: {e}\n# (the scene shows the same error)\n\n");
        }
        let mut sections = Vec::new();
        for (k, &(section, start)) in self.sections.iter().enumerate() {
            let end = self.sections.get(k + 1).map_or(self.lines.len(), |&(_, next)| next);
            let mut text = if k == 0 { std::mem::take(&mut head) } else { String::new() };
            for l in &self.lines[start..end] {
                text += l;
                text += "\n";
            }
            sections.push((section, text));
        }
        Script { raises: self.raises, sections, left_out: self.left_out }
    }
}

/// `output.sum()` or `F.mse_loss(output, target)`.
fn loss_of(loss: &Loss, output: &str) -> String {
    match loss {
        Loss::Sum => format!("{output}.sum()"),
        Loss::Mse { .. } => format!("F.mse_loss({output}, target)"),
    }
}

/// Why numbers are set by hand: moved by SGD, or changed since the seed's draw, or no seed drew
/// them.
fn by_hand(steps: usize, seeded: bool) -> String {
    match (steps, seeded) {
        (1, _) => "the numbers on show, after 1 SGD step".into(),
        (n, _) if n > 1 => format!("the numbers on show, after {n} SGD steps"),
        (_, true) => "the numbers on show (edited since the seed's draw)".into(),
        _ => "the numbers on show".into(),
    }
}
