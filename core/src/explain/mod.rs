//! Explain my error: a PyTorch error a learner pasted, the line that raised it, or both, read
//! back into the shapes the op saw, the dimension where they disagree, a few words on why, fixes
//! as code with the shapes they give, and the scene that shows the same failure.
//!
//! The sizes a paste gives are checked by the ops' own checks (`linear::input_rows`,
//! `rnn::check_call`, the lookup's range), so the message shown is the one PyTorch prints for
//! those sizes, and a line that would run is said to run. Every other message the core raises
//! is read by its template and explained in words (`known`; a test walks the core's source for
//! them). Text that is none of these is said to be unknown, never guessed at.

mod embedding;
mod known;
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
    /// The scene where this error arises.
    pub route: &'static str,
    /// The `s=` payload of that scene's link in this failing state, when the paste gives its
    /// sizes and they fit the scene.
    pub open: Option<String>,
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

/// The kinds of error rowflow explains, and the scene of each, for a paste it cannot read.
pub const KINDS: &[(&str, &str)] = &[
    ("nn.Linear: mat1 and mat2 shapes cannot be multiplied, and its weight, bias and input", "linear"),
    ("nn.Embedding: index out of range in self, ids that are not integers, padding_idx", "embedding"),
    ("F.one_hot: class values and num_classes", "one-hot"),
    ("nn.RNN: input_size, hidden size, h0, pack_padded_sequence's lengths", "rnn"),
    ("the recommender's (user, movie) pairs", "train"),
    ("the sentence classifier's labels", "word2vec"),
];

/// Reads `text`: a message, a line, or both (the line's sizes win: it says more).
pub fn explain(text: &str) -> Reading {
    if text.len() > 1 << 16 {
        return Reading::Unknown;
    }
    [linear::read, embedding::read, rnn::read, known::read]
        .iter()
        .find_map(|read| read(text))
        .unwrap_or(Reading::Unknown)
}

use crate::tensor::py_shape as shape;

/// `torch.randn(2, 6)`: a tensor of these sizes, as a fix writes it.
fn randn(dims: &[usize]) -> String {
    let dims: Vec<String> = dims.iter().map(ToString::to_string).collect();
    format!("torch.randn({})", dims.join(", "))
}

#[cfg(test)]
mod tests;
