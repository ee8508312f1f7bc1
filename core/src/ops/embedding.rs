//! `nn.Embedding`: a lookup. Each id selects one row of `weight`; nothing is multiplied.
//!
//! ids `(*)` → output `(*, embedding_dim)`, `weight` `(num_embeddings, embedding_dim)` with no
//! transpose. Backward adds each output row's gradient into the row its id selected, so only
//! looked-up rows move; a repeated id accumulates; the `padding_idx` row gets nothing.

use crate::error::{Result, TorchError};
use crate::format::Extent;
use crate::ops::distinct_rows;
use crate::ops::linear::check_upstream;
use crate::tensor::{unravel, Ids, Tensor};
use crate::trace::{Span, Step, Trace, MAX_STEPS};
use serde::{Deserialize, Serialize};

/// The dtype of the ids: `torch.tensor([2, 3])` makes `torch.long`, `torch.tensor([2., 3.])`
/// makes `torch.float`. Only the integer ones select rows. Kept as its name (`"torch.float"`),
/// read through [`IdsDtype::parse`]: a derived enum's reader added 0.5 KB gzip to the scene.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum IdsDtype {
    #[default]
    Long,
    Int,
    Float,
    Double,
}

impl From<IdsDtype> for &'static str {
    fn from(d: IdsDtype) -> Self {
        d.name()
    }
}

impl TryFrom<String> for IdsDtype {
    type Error = String;
    fn try_from(name: String) -> std::result::Result<Self, String> {
        Self::parse(&name).ok_or_else(|| format!("no ids dtype {name}"))
    }
}

impl IdsDtype {
    pub const ALL: [IdsDtype; 4] = [Self::Long, Self::Int, Self::Float, Self::Double];

    /// `torch.long`, as a `dtype=` argument is written.
    pub fn name(self) -> &'static str {
        match self {
            Self::Long => "torch.long",
            Self::Int => "torch.int",
            Self::Float => "torch.float",
            Self::Double => "torch.double",
        }
    }

    /// `torch.long`, `torch.int64`, `torch.float32`, … as PyTorch spells them.
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        // Each dtype's other name, in declaration order.
        let other = |d: &Self| ["torch.int64", "torch.int32", "torch.float32", "torch.float64"][*d as usize];
        Self::ALL.into_iter().find(|d| d.name() == t || other(d) == t)
    }

    /// The legacy tensor type PyTorch names in its dtype errors: `FloatTensor`.
    pub fn tensor_type(self) -> &'static str {
        match self {
            Self::Long => "LongTensor",
            Self::Int => "IntTensor",
            Self::Float => "FloatTensor",
            Self::Double => "DoubleTensor",
        }
    }
}

/// `F.embedding`'s first check on a call, before any id is read: ids must be integers.
pub fn check_indices(dtype: IdsDtype) -> Result<()> {
    match dtype {
        IdsDtype::Long | IdsDtype::Int => Ok(()),
        other => Err(dtype_error(other.tensor_type())),
    }
}

/// What that check raises on ids of the legacy tensor type `got` (`FloatTensor`, `HalfTensor`).
pub fn dtype_error(got: &str) -> TorchError {
    TorchError::runtime(format!(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got \
         torch.{got} instead (while checking arguments for embedding)"
    ))
}

#[derive(Clone, Debug, PartialEq)]
pub struct Embedding {
    /// `(num_embeddings, embedding_dim)`
    pub weight: Tensor,
    /// Already made non-negative (`padding_idx=-1` is the last row).
    pub padding_idx: Option<usize>,
    /// `sparse=True`: the gradient comes as one (row, values) entry per looked-up id.
    pub sparse: bool,
    /// `from_pretrained(..., freeze=True)`: `requires_grad=False`, so no gradient at all.
    pub freeze: bool,
}

/// PyTorch's uncoalesced sparse COO gradient: entry k is (`indices[k]`, `values[k]`), in input
/// order; a row looked up twice appears twice.
#[derive(Clone, Debug, PartialEq)]
pub struct SparseGrad {
    pub indices: Vec<i64>,
    /// `(nnz, embedding_dim)`
    pub values: Tensor,
}

impl SparseGrad {
    /// The distinct rows, sorted, as `.coalesce()` would leave them.
    pub fn coalesced_rows(&self) -> Vec<i64> {
        let n = self.indices.iter().max().map_or(0, |&m| m as usize + 1);
        distinct_rows(self.indices.iter().map(|&r| r as usize), n).into_iter().map(|r| r as i64).collect()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddingGrads {
    /// The dense `weight.grad`, `None` when frozen.
    pub weight: Option<Tensor>,
    /// With `sparse=True` (and not frozen): what PyTorch actually stores in `weight.grad`.
    pub sparse: Option<SparseGrad>,
}

impl Embedding {
    /// `nn.Embedding(V, D, padding_idx)` around a given table, with PyTorch's checks.
    pub fn new(weight: Tensor, padding_idx: Option<i64>) -> Result<Self> {
        if weight.dim() != 2 {
            return Err(TorchError::assertion("Embeddings parameter is expected to be 2-dimensional"));
        }
        let v = weight.shape()[0] as i64;
        let padding_idx = match padding_idx {
            None => None,
            Some(p) if (-v..v).contains(&p) => Some(if p < 0 { p + v } else { p } as usize),
            Some(_) => return Err(TorchError::assertion("Padding_idx must be within num_embeddings")),
        };
        Ok(Self { weight, padding_idx, sparse: false, freeze: false })
    }

    pub fn num_embeddings(&self) -> usize {
        self.weight.shape()[0]
    }
    pub fn embedding_dim(&self) -> usize {
        self.weight.shape()[1]
    }

    /// The row each id selects, or `index out of range in self` for the first bad id.
    fn rows(&self, ids: &Ids) -> Result<Vec<usize>> {
        let v = self.num_embeddings();
        ids.data()
            .iter()
            .map(|&id| usize::try_from(id).ok().filter(|&r| r < v))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| TorchError::index("index out of range in self"))
    }

    /// The flat positions of every id outside `[0, num_embeddings)`, for marking the bad cells.
    pub fn bad_ids(&self, ids: &Ids) -> Vec<usize> {
        let v = self.num_embeddings() as i64;
        ids.data().iter().enumerate().filter(|(_, &id)| !(0..v).contains(&id)).map(|(k, _)| k).collect()
    }

    fn output_shape(&self, ids: &Ids) -> Vec<usize> {
        [ids.shape(), &[self.embedding_dim()]].concat()
    }

    /// `output[k] = weight[ids[k]]`.
    pub fn forward(&self, ids: &Ids) -> Result<Tensor> {
        let d = self.embedding_dim();
        let w = self.weight.data();
        let rows = self.rows(ids)?;
        let mut out = Vec::with_capacity(rows.len() * d);
        for r in rows {
            out.extend_from_slice(&w[r * d..(r + 1) * d]);
        }
        Tensor::new(self.output_shape(ids), out)
    }

    /// `weight.grad[ids[k]] += upstream[k]` for every k whose id is not `padding_idx`.
    pub fn backward(&self, ids: &Ids, upstream: &Tensor) -> Result<EmbeddingGrads> {
        let rows = self.rows(ids)?;
        check_upstream(upstream, &self.output_shape(ids))?;
        if self.freeze {
            return Ok(EmbeddingGrads { weight: None, sparse: None });
        }
        let d = self.embedding_dim();
        let g = upstream.data();
        let mut dense = Tensor::zeros(self.weight.shape().to_vec())?;
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for (k, &r) in rows.iter().enumerate().filter(|(_, &r)| Some(r) != self.padding_idx) {
            let gk = &g[k * d..(k + 1) * d];
            for (acc, x) in dense.data_mut()[r * d..(r + 1) * d].iter_mut().zip(gk) {
                *acc += x;
            }
            indices.push(r as i64);
            values.extend_from_slice(gk);
        }
        // Zeros but for the rows looked up: the extent from those rows alone.
        let touched = distinct_rows(indices.iter().map(|&r| r as usize), self.num_embeddings());
        let sparse = match self.sparse {
            true => Some(SparseGrad { values: Tensor::new(vec![indices.len(), d], values)?, indices }),
            false => None,
        };
        let rest = Extent::zeros((self.num_embeddings() - touched.len()) * d);
        let extent = touched.iter().fold(rest, |e, &r| e.and(Extent::of(&dense.data()[r * d..(r + 1) * d])));
        Ok(EmbeddingGrads { weight: Some(dense.with_extent(extent)), sparse })
    }

    /// One step per id: `input[k]` selects row `weight[ids[k]]`, copied to `output[k]`.
    pub fn forward_trace(&self, ids: &Ids) -> Result<Trace> {
        let rows = self.rows(ids)?;
        if rows.len() > MAX_STEPS {
            let s = Step::forward(vec![Span::whole("input"), Span::whole("weight")], Span::whole("output"));
            return Ok(Trace::summary(vec![s]));
        }
        let steps = rows
            .iter()
            .enumerate()
            .map(|(k, &r)| {
                let at = unravel(k, ids.shape());
                Step::forward(vec![Span::at("input", &at), Span::at("weight", &[r])], Span::at("output", &at))
            })
            .collect();
        Ok(Trace::new(steps))
    }

    /// One step per id that receives gradient: `output.grad[k]` is added into
    /// `weight.grad[ids[k]]` (`accumulate` marks a row already written by an earlier id).
    /// Padding ids and a frozen table give no step.
    pub fn backward_trace(&self, ids: &Ids) -> Result<Trace> {
        let rows = self.rows(ids)?;
        if self.freeze {
            return Ok(Trace::default());
        }
        if rows.len() > MAX_STEPS {
            let s = Step::backward(vec![Span::whole("output.grad")], Span::whole("weight.grad"), true);
            return Ok(Trace::summary(vec![s]));
        }
        let mut seen = vec![false; self.num_embeddings()];
        let steps = rows
            .iter()
            .enumerate()
            .filter(|(_, &r)| Some(r) != self.padding_idx)
            .map(|(k, &r)| {
                let at = unravel(k, ids.shape());
                let again = std::mem::replace(&mut seen[r], true);
                Step::backward(vec![Span::at("output.grad", &at)], Span::at("weight.grad", &[r]), again)
            })
            .collect();
        Ok(Trace::new(steps))
    }
}

/// Two tables whose rows are multiplied elementwise (`a * b`): PyTorch's error when their
/// `embedding_dim`s differ.
pub(crate) fn same_dim(a: &Embedding, b: &Embedding) -> Result<()> {
    match a.embedding_dim() == b.embedding_dim() {
        true => Ok(()),
        false => Err(TorchError::runtime(format!(
            "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension 1",
            a.embedding_dim(),
            b.embedding_dim()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Embedding {
        // Row i is all i (the from_pretrained seed example, 5×4).
        let data = (0..5).flat_map(|i| [i as f32; 4]).collect();
        Embedding::new(Tensor::new(vec![5, 4], data).unwrap(), None).unwrap()
    }

    #[test]
    fn the_gradient_comes_with_the_extent_a_pass_would_find() {
        let mut emb = table();
        emb.padding_idx = Some(0);
        let (ids, nan) = (Ids::vector(vec![2, 0, 2, 4]), f32::NAN);
        let rows = vec![1., -0., 0., 3., 9., 9., 9., 9., -5., 0., 0., 0., nan, 0., 1., 2.];
        let g = emb.backward(&ids, &Tensor::new(vec![4, 4], rows).unwrap()).unwrap().weight.unwrap();
        // Row 2 is [-4, 0, 0, 3] (a repeated id), row 4 [nan, 0, 1, 2], the padding row and
        // the rows never looked up zeros.
        assert_eq!(g.extent(), Extent { largest: 4.0, finite: false, zeros: 15 });
        assert_eq!(g.extent(), Extent::of(g.data()));
    }

    #[test]
    fn ids_select_rows_and_keep_their_shape() {
        let ids = Ids::new(vec![2, 4], vec![2, 4, 3, 1, 2, 0, 1, 1]).unwrap();
        let y = table().forward(&ids).unwrap();
        assert_eq!(y.shape(), [2, 4, 4]);
        assert_eq!(y.get(&[1, 0, 3]), Some(2.0));
        assert_eq!(y.get(&[0, 1, 0]), Some(4.0));
    }

    #[test]
    fn bad_ids_are_index_errors() {
        for id in [-1, 5, i64::MAX, i64::MIN] {
            let e = table().forward(&Ids::vector(vec![0, id])).unwrap_err();
            assert_eq!(e.to_string(), "IndexError: index out of range in self");
        }
        assert_eq!(table().bad_ids(&Ids::vector(vec![0, 7, 1, -2])), [1, 3]);
    }

    #[test]
    fn only_integer_ids_select_rows() {
        assert!(check_indices(IdsDtype::Long).is_ok() && check_indices(IdsDtype::Int).is_ok());
        let e = check_indices(IdsDtype::Double).unwrap_err().to_string();
        assert!(e.starts_with("RuntimeError: Expected tensor for argument #1 'indices'"), "{e}");
        assert!(e.ends_with("but got torch.DoubleTensor instead (while checking arguments for embedding)"), "{e}");
        for d in IdsDtype::ALL {
            assert_eq!(IdsDtype::parse(d.name()), Some(d));
        }
    }

    #[test]
    fn padding_idx_counts_from_the_end_and_is_checked() {
        let w = || Tensor::zeros(vec![4, 3]).unwrap();
        assert_eq!(Embedding::new(w(), Some(-1)).unwrap().padding_idx, Some(3));
        for p in [4, -5] {
            let e = Embedding::new(w(), Some(p)).unwrap_err();
            assert_eq!(e.to_string(), "AssertionError: Padding_idx must be within num_embeddings");
        }
    }

    #[test]
    fn trace_selects_rows_and_accumulates_repeats_but_not_padding() {
        let mut emb = table();
        emb.padding_idx = Some(0);
        let ids = Ids::vector(vec![2, 0, 2]);
        let f = emb.forward_trace(&ids).unwrap();
        let rows: Vec<String> = f.steps.iter().map(|s| s.reads[1].to_string()).collect();
        assert_eq!(rows, ["weight[2]", "weight[0]", "weight[2]"]);
        let b = emb.backward_trace(&ids).unwrap();
        let writes: Vec<(String, bool)> = b.steps.iter().map(|s| (s.writes[0].to_string(), s.accumulate)).collect();
        assert_eq!(writes, [("weight.grad[2]".into(), false), ("weight.grad[2]".into(), true)]);
        emb.freeze = true;
        assert!(emb.backward_trace(&ids).unwrap().is_empty());
    }
}
