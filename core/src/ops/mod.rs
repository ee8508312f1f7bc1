//! The ops, one file each, each owning its forward, its backward and its trace.
//!
//! Conventions shared by every op: `forward` returns the output or PyTorch's error; `backward`
//! takes the gradient of the loss with respect to the output (`upstream`) and returns every
//! `.grad` PyTorch would fill, named as PyTorch names them; `forward_trace`/`backward_trace`
//! describe the same work as steps. Traces depend on shapes and ids only, never on values, so a
//! view can re-use one while numbers change.

pub mod classifier;
pub mod dot_product;
pub mod embedding;
pub mod linear;
pub mod loss;
pub mod matmul;
pub mod one_hot;
pub mod rnn;
pub mod word2vec;

use crate::tensor::Tensor;

/// Tensors by the names PyTorch gives them (`weight`, `bias_hh_l0_reverse`, `input`, `h0`, ...),
/// in PyTorch's order.
pub type Named = Vec<(String, Tensor)>;

/// The distinct ids among `ids` that are rows of an `n`-row table, ascending: the rows a lookup
/// reads or its backward writes. Marked off in `n` flags rather than sorted: linear in the ids,
/// and no sort's code in each scene's download (2–3 KB gzipped apiece).
pub fn distinct_rows(ids: impl IntoIterator<Item = usize>, n: usize) -> Vec<usize> {
    let mut seen = vec![false; n];
    for id in ids {
        if let Some(s) = seen.get_mut(id) {
            *s = true;
        }
    }
    (0..n).filter(|&r| seen[r]).collect()
}

/// Looks a tensor up by name.
pub fn find<'a>(named: &'a Named, name: &str) -> Option<&'a Tensor> {
    named.iter().find(|(n, _)| n == name).map(|(_, t)| t)
}
