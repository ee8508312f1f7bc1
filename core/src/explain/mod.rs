//! Explain my error: a PyTorch error a learner pasted, the line that raised it, or both, read
//! back into the shapes the op saw, the dimension where they disagree, a few words on why, fixes
//! as code with the shapes they give, and the scene that shows the same failure.
//!
//! The sizes a paste gives are checked by the ops' own checks (`linear::input_rows`,
//! `rnn::check_call`, the lookup's range), so the message shown is the one PyTorch prints for
//! those sizes, and a line that would run is said to run. Text that is none of these is said
//! to be unknown, never guessed at.

mod embedding;
mod linear;
mod read;
mod rnn;

use crate::TorchError;

/// A paste, read.
#[derive(Clone, Debug, PartialEq)]
pub enum Reading {
    /// An error rowflow knows, laid out.
    Explained(Explanation),
    /// A pasted line that PyTorch runs without an error: what it gives.
    Runs { line: String, output: String },
    /// Not one of the messages or lines rowflow reads.
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The layer, as PyTorch names it: `nn.Linear`.
    pub layer: &'static str,
    /// The error as PyTorch prints it for these sizes.
    pub error: TorchError,
    /// The call as read (`nn.Linear(6, 10)(x)`, `x` of the shape below).
    pub call: String,
    /// The tensors as the op sees them, the disagreeing sizes marked.
    pub shapes: Vec<Shape>,
    /// Why, in a few short sentences.
    pub why: String,
    pub fixes: Vec<Fix>,
    /// The scene in this failing state, when its sizes fit the scene.
    pub open: Option<Opening>,
}

/// A tensor's name and shape; `marked` sizes are the ones that disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub name: String,
    pub dims: Vec<usize>,
    pub marked: Vec<usize>,
    /// What the dimensions are, in PyTorch's words: `(N, in_features)`.
    pub means: String,
}

/// A change as code, and the shapes it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    pub code: String,
    pub gives: String,
}

/// A scene's route and the `s=` payload of its link in the failing state.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub route: &'static str,
    pub payload: String,
}

/// The kinds of error rowflow explains, and the scene of each, for a paste it cannot read.
pub const KINDS: &[(&str, &str)] = &[
    ("nn.Linear: mat1 and mat2 shapes cannot be multiplied", "linear"),
    ("nn.Embedding: index out of range in self; ids that are not integers", "embedding"),
    ("nn.RNN: input.size(-1) must be equal to input_size; Expected hidden size", "rnn"),
];

/// Reads `text`: a message, a line, or both (the line's sizes win: it says more).
pub fn explain(text: &str) -> Reading {
    if text.len() > 1 << 16 {
        return Reading::Unknown;
    }
    [linear::read, embedding::read, rnn::read].iter().find_map(|read| read(text)).unwrap_or(Reading::Unknown)
}

/// `(2, 5)`.
fn shape(dims: &[usize]) -> String {
    crate::tensor::py_shape(dims)
}

#[cfg(test)]
mod tests;
