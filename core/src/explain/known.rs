//! Every other message rowflow's ops and scenes raise, read by its template: what it means in a
//! few words and the usual fix. No sizes are laid out for these (the message does not give the
//! layer's), so each is explained in words and points to the scene where it arises.

use super::read::holes;
use super::{Explanation, Fix, Reading};
use crate::error::ErrorKind::{
    self, AssertionError as Assertion, IndexError as Index, RuntimeError as Runtime, ValueError as Value,
};
use crate::TorchError;

/// A message's template (`{}` for what varies), its class, the layer and scene it comes from,
/// why, and a fix as code with what it gives.
struct Known {
    template: &'static str,
    kind: ErrorKind,
    layer: &'static str,
    route: &'static str,
    why: &'static str,
    fix: (&'static str, &'static str),
}

const fn known(
    template: &'static str,
    kind: ErrorKind,
    (layer, route): (&'static str, &'static str),
    why: &'static str,
    fix: (&'static str, &'static str),
) -> Known {
    Known { template, kind, layer, route, why, fix }
}

const LINEAR: (&str, &str) = ("nn.Linear", "linear");
const EMBEDDING: (&str, &str) = ("nn.Embedding", "embedding");
const ONE_HOT: (&str, &str) = ("F.one_hot", "one-hot");
const RNN: (&str, &str) = ("nn.RNN", "rnn");
const PACK: (&str, &str) = ("pack_padded_sequence", "rnn");
const DOT: (&str, &str) = ("DotProduct", "train");
const TASK: (&str, &str) = ("the sentence classifier", "word2vec");
const TENSOR: (&str, &str) = ("torch.Tensor", "linear");
const SEED: (&str, &str) = ("torch.manual_seed", "linear");

/// Longer templates before those they start with.
const KNOWN: &[Known] = &[
    known("weight should be 2-D (out_features, in_features), got {}-D", Runtime, LINEAR,
        "nn.Linear's weight is a table of out_features rows, each of in_features numbers: 2-D.",
        ("weight.reshape(out_features, in_features)", "weight (out_features, in_features)")),
    known("bias should have shape ({},), got {}", Runtime, LINEAR,
        "nn.Linear adds one bias number to each output feature, so bias holds out_features numbers.",
        ("bias = torch.zeros(out_features)", "bias (out_features,)")),
    known("both arguments to linear need to be at least 1D, but they are 0D and 2D", Runtime, LINEAR,
        "x is a single number (0-D). nn.Linear multiplies rows of in_features numbers, so x needs a last dimension of size in_features.",
        ("x = torch.randn(in_features)", "x (in_features,) → output (out_features,)")),
    known("Mismatch in shape: grad_output[{}] has a shape of torch.Size({}) and output[{}] has a shape of torch.Size({}).", Runtime, LINEAR,
        "backward(gradient) needs one gradient number per number of the output: a gradient of the output's own shape.",
        ("output.backward(torch.ones_like(output))", "a gradient of output's shape")),
    known("Embeddings parameter is expected to be 2-dimensional", Assertion, EMBEDDING,
        "nn.Embedding.from_pretrained takes a 2-D table: one row of embedding_dim numbers per id.",
        ("nn.Embedding.from_pretrained(weight.reshape(num_embeddings, embedding_dim))", "weight (num_embeddings, embedding_dim)")),
    known("Padding_idx must be within num_embeddings", Assertion, EMBEDDING,
        "padding_idx names a row of the table: 0 … num_embeddings − 1, or counted from the end, −1 … −num_embeddings.",
        ("nn.Embedding(num_embeddings, embedding_dim, padding_idx=0)", "row 0 kept at zeros, with no gradient")),
    known("index {} is out of bounds for dimension 0 with size 0", Index, EMBEDDING,
        "The table has no rows (num_embeddings = 0), so there is no row for padding_idx or for any id.",
        ("nn.Embedding(len(vocab), embedding_dim)", "a row for every word's id")),
    known("Embedding is too large", Runtime, EMBEDDING,
        "num_embeddings × embedding_dim numbers are more than memory can hold.",
        ("nn.Embedding(num_embeddings, 64)", "a narrower table")),
    known("emb.weight has no gradient", Runtime, EMBEDDING,
        "The table is frozen (from_pretrained(..., freeze=True)): its requires_grad is False, so backward leaves emb.weight.grad None.",
        ("nn.Embedding.from_pretrained(weight, freeze=False)", "a table that learns")),
    known("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}", Runtime, LINEAR,
        "Two tensors combined number by number (a loss against its target, a gradient against its tensor) must have the same size in each dimension, or 1 there to be repeated; here one dimension differs.",
        ("target = torch.zeros_like(output)", "a target of output's shape")),
    known("The size of tensor a ({}) must match the size of tensor b ({})", Runtime, LINEAR,
        "Two tensors combined number by number must have the same size. In an SGD step, lr × grad is subtracted from each parameter, so a gradient must have its parameter's shape.",
        ("torch.optim.SGD(model.parameters(), lr=0.1)", "each parameter stepped with its own .grad")),
    known("Target size (torch.Size({})) must be the same as input size (torch.Size({}))", Value, TASK,
        "F.binary_cross_entropy_with_logits compares each logit with its label, so the labels have the logits' shape: one per sentence.",
        ("labels.float().reshape(logits.shape)", "labels of the logits' shape")),
    known("Can not infer total number of classes from empty tensor.", Runtime, ONE_HOT,
        "F.one_hot(ids) without num_classes makes ids.max() + 1 columns; with no ids there is no max.",
        ("F.one_hot(ids, num_classes=V)", "ids (0,) → (0, V)")),
    known("num_classes is too large", Runtime, ONE_HOT,
        "num_classes is more columns than a tensor can have.",
        ("F.one_hot(ids, num_classes=len(vocab))", "one column per word")),
    known("one_hot of {} ids with {} classes is too large", Runtime, ONE_HOT,
        "ids × num_classes numbers, nearly all zeros, are more than memory holds; a lookup needs none of them.",
        ("nn.Embedding(num_classes, D)(ids)", "the same rows as one-hot × Linear, without the zeros")),
    known("Class values must be non-negative.", Runtime, ONE_HOT,
        "F.one_hot puts a 1 in column id of each row; a negative id has no column.",
        ("F.one_hot(ids.clamp(min=0), num_classes)", "each negative id given column 0")),
    known("Class values must be smaller than num_classes.", Runtime, ONE_HOT,
        "F.one_hot(ids, num_classes) has columns 0 … num_classes − 1; an id of num_classes or more has no column.",
        ("F.one_hot(ids, num_classes=int(ids.max()) + 1)", "a column for every id")),
    known("index {} is out of bounds for dimension {} with size {}", Index, DOT,
        "A dimension of size n has indices 0 … n − 1, and this index is past its end. In the recommender, x[:, 0] and x[:, 1] read each row's (user, movie) pair, so x must be (batch, 2).",
        ("x = torch.tensor([[user, movie], ...])", "x (batch, 2)")),
    known("too many indices for tensor of dimension {}", Index, DOT,
        "The tensor is indexed at more positions than it has dimensions. In the recommender, x[:, 1] needs a 2-D x, one (user, movie) pair per row.",
        ("x.reshape(-1, 2)", "x (batch, 2)")),
    known("stack expects a non-empty TensorList", Runtime, TASK,
        "torch.stack needs at least one tensor: no sentence had a word in the vocabulary to average.",
        ("[s for s in sentences if s]", "only sentences with a word in the vocabulary")),
    known("Dimension out of range (expected to be in range of [{}, {}], but got {})", Index, PACK,
        "pack_padded_sequence reads the batch from dimension 1 (0 with batch_first=True); the input has too few dimensions for that.",
        ("input.unsqueeze(1)", "input (seq_len, 1, input_size)")),
    known("Cannot pack empty tensors.", Runtime, PACK,
        "pack_padded_sequence needs at least one time step and one sequence.",
        ("torch.randn(seq_len, batch, input_size)", "seq_len ≥ 1 and batch ≥ 1")),
    known("Expected `len(lengths)` to be equal to batch_size, but got {} (batch_size={})", Runtime, PACK,
        "lengths gives one length for each sequence in the batch.",
        ("lengths = [seq_len] * batch_size", "one length per sequence")),
    known("Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0", Runtime, PACK,
        "Every packed sequence must have at least one step.",
        ("[l for l in lengths if l > 0]", "only sequences with a step")),
    known("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True.", Runtime, PACK,
        "With enforce_sorted=True (the default) the sequences must come longest first.",
        ("pack_padded_sequence(input, lengths, enforce_sorted=False)", "lengths in any order")),
    known("Found a length of {} in 'lengths', longer than the input's {} time steps", Runtime, PACK,
        "A length counts a sequence's steps, so it is at most the input's seq_len.",
        ("lengths = [min(l, seq_len) for l in lengths]", "no length past the input")),
    known("RNN has no parameter named '{}'", Runtime, RNN,
        "nn.RNN's parameters are weight_ih_l{k}, weight_hh_l{k}, bias_ih_l{k} and bias_hh_l{k} per layer (and _reverse ones when bidirectional); this one is none of them.",
        ("dict(rnn.named_parameters()).keys()", "the names it has")),
    known("RNN is missing parameter '{}' of shape {}", Runtime, RNN,
        "Every layer of nn.RNN has its weight_ih, weight_hh (and, with bias=True, two biases); one is missing.",
        ("dict(rnn.named_parameters()).keys()", "the names it has")),
    known("RNN parameter '{}' should have shape {}, got {}", Runtime, RNN,
        "Each parameter's shape follows from input_size and hidden_size: weight_ih_l0 (hidden_size, input_size), weight_hh_l0 (hidden_size, hidden_size), each bias (hidden_size,).",
        ("nn.RNN(input_size, hidden_size)", "parameters of those shapes")),
    known("hidden_size must be greater than zero", Value, RNN,
        "nn.RNN needs at least one hidden feature: h_t holds hidden_size numbers.",
        ("nn.RNN(input_size, hidden_size=1)", "h_t of one number")),
    known("num_layers must be greater than zero", Value, RNN,
        "nn.RNN needs at least one layer of cells.",
        ("nn.RNN(input_size, hidden_size, num_layers=1)", "one layer")),
    known("input must have 2 dimensions, got {}", Runtime, PACK,
        "Packed, each time step holds a batch of steps: (batch, input_size), so the input is 3-D.",
        ("input.unsqueeze(1)", "input (seq_len, 1, input_size)")),
    known("RNN: Expected input to be 2D or 3D, got {}D tensor instead", Value, RNN,
        "nn.RNN takes one sequence as (seq_len, input_size) or a batch as (seq_len, batch, input_size) ((batch, seq_len, input_size) with batch_first=True).",
        ("input.reshape(seq_len, batch, input_size)", "input (seq_len, batch, input_size)")),
    known("For {} {}-D input, hx should also be {}-D but got {}-D tensor", Runtime, RNN,
        "h0 has as many dimensions as the input: (num_layers × num_directions, batch, hidden_size) for a batch, without batch for one sequence.",
        ("h0.unsqueeze(1)", "h0 (num_layers × num_directions, 1, hidden_size)")),
    known("Expected sequence length to be larger than 0 in RNN", Runtime, RNN,
        "nn.RNN runs one step per time step of the input; an input with none gives it nothing to run.",
        ("torch.randn(1, batch, input_size)", "one time step")),
    known("shape '{}' is invalid for input of size {}", Runtime, TENSOR,
        "reshape keeps every number, so the new shape's sizes must multiply to the tensor's number count.",
        ("x.reshape(-1, last)", "-1 lets PyTorch work out that one size")),
    known("shape '{}' is too large", Runtime, TENSOR,
        "Its sizes multiply to more numbers than memory holds.",
        ("torch.randn(2, 6)", "a tensor of a few numbers")),
    known("t() expects a tensor with <= 2 dimensions, but self is {}D", Runtime, TENSOR,
        ".t() swaps the two dimensions of a matrix; for more, name the two to swap.",
        ("x.transpose(-2, -1)", "the last two dimensions swapped")),
    known("Overflow when unpacking long", Runtime, SEED,
        "torch.manual_seed takes a whole number from −2^63 to 2^64 − 1; this one is outside.",
        ("torch.manual_seed(0)", "the same weights every run")),
    known("invalid literal for int() with base 10: '{}'", Value, SEED,
        "A seed or an id is a whole number written in digits: no decimal point, no letters.",
        ("torch.manual_seed(42)", "a seed in digits")),
];

pub(super) fn read(text: &str) -> Option<Reading> {
    KNOWN.iter().find_map(|k| {
        let filled = holes(k.template, text)?;
        let mut message = String::new();
        for (i, part) in k.template.split("{}").enumerate() {
            if i > 0 {
                message.push_str(filled[i - 1]);
            }
            message.push_str(part);
        }
        Some(Reading::Explained(Explanation {
            layer: k.layer,
            error: TorchError::new(k.kind, message),
            call: k.layer.into(),
            shapes: Vec::new(),
            why: k.why.into(),
            fixes: vec![Fix { code: k.fix.0.into(), gives: k.fix.1.into() }],
            route: k.route,
            open: None,
        }))
    })
}
