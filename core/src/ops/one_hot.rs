//! `F.one_hot`, and one-hot × `Linear(V, D, bias=False)`: the long way round to an embedding.
//!
//! With `linear.weight = emb.weight.T` (`(D, V)`), `Linear(one_hot(ids))` equals `emb(ids)`
//! exactly, but it does ids×V×D multiply-adds where the lookup copies ids×D numbers, and its
//! gradient is a dense `(D, V)` tensor that is zero outside the used columns.

use crate::error::{Result, TorchError};
use crate::ops::linear::Linear;
use crate::tensor::{Ids, Tensor};
use crate::trace::Trace;

/// `F.one_hot(ids, num_classes)`: ids `(*)` → `(*, num_classes)` of 0/1; `num_classes = -1`
/// infers `max(ids) + 1`.
pub fn one_hot(ids: &Ids, num_classes: i64) -> Result<Ids> {
    if ids.data().iter().any(|&i| i < 0) {
        return Err(TorchError::runtime("Class values must be non-negative."));
    }
    let classes = match (num_classes, ids.data().iter().max()) {
        (-1, None) => return Err(TorchError::runtime("Can not infer total number of classes from empty tensor.")),
        (-1, Some(&max)) => max.saturating_add(1),
        (n, Some(&max)) if max >= n => {
            return Err(TorchError::runtime("Class values must be smaller than num_classes."))
        }
        (n, _) if n < 0 => return Err(TorchError::runtime("Class values must be smaller than num_classes.")),
        (n, _) => n,
    };
    let classes = usize::try_from(classes).map_err(|_| TorchError::runtime("num_classes is too large"))?;
    let size = ids.numel().checked_mul(classes).filter(|&n| n <= isize::MAX as usize / 8);
    // Memory the machine can't give is refused (PyTorch: "not enough memory"), never an abort.
    let mut data = Vec::new();
    let Some(size) = size.filter(|&n| data.try_reserve_exact(n).is_ok()) else {
        return Err(TorchError::runtime(format!("one_hot of {} ids with {classes} classes is too large", ids.numel())));
    };
    data.resize(size, 0i64);
    for (k, &id) in ids.data().iter().enumerate() {
        data[k * classes + id as usize] = 1;
    }
    Tensor::new([ids.shape(), &[classes]].concat(), data)
}

/// PyTorch's checks on the ids, negative ones first.
fn check_classes(ids: &Ids, num_classes: i64) -> Result<()> {
    if ids.data().iter().any(|&i| i < 0) {
        return Err(TorchError::runtime("Class values must be non-negative."));
    }
    if num_classes < 0 || ids.data().iter().any(|&i| i >= num_classes) {
        return Err(TorchError::runtime("Class values must be smaller than num_classes."));
    }
    Ok(())
}

/// The work each way, as counted in the fixtures: the lookup copies, the one-hot Linear
/// multiplies (all but `lookup_copies` of them by zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub lookup_copies: usize,
    pub one_hot_multiply_adds: usize,
    pub zero_products: usize,
}

/// ids → `F.one_hot(ids, num_classes)` → `Linear(num_classes, out_features, bias=False)`.
#[derive(Clone, Debug, PartialEq)]
pub struct OneHotLinear {
    /// `(out_features, num_classes)`, i.e. an embedding table transposed.
    pub linear: Linear,
}

impl OneHotLinear {
    pub fn new(weight: Tensor) -> Result<Self> {
        Ok(Self { linear: Linear::new(weight, None)? })
    }

    /// The Linear whose weight is `table.T`, for a `(V, D)` embedding table.
    pub fn from_table(table: &Tensor) -> Result<Self> {
        Self::new(table.t()?)
    }

    pub fn num_classes(&self) -> usize {
        self.linear.in_features()
    }

    /// The one-hot rows as floats, the input the Linear really sees.
    pub fn encode(&self, ids: &Ids) -> Result<Tensor> {
        Ok(one_hot(ids, self.num_classes() as i64)?.map(|b| b as f32))
    }

    pub fn forward(&self, ids: &Ids) -> Result<Tensor> {
        self.linear.forward(&self.encode(ids)?)
    }

    /// `linear.weight.grad` `(D, V)`: dense, nonzero only in the columns of used ids. The
    /// one-hot rows are integers made float, so nothing flows back into them.
    pub fn backward(&self, ids: &Ids, upstream: &Tensor) -> Result<Tensor> {
        self.linear.weight_grad(&self.encode(ids)?, upstream)
    }

    /// Exact whenever the count fits a `usize` (an empty weight may claim any width).
    pub fn cost(&self, ids: &Ids) -> Cost {
        let (n, v, d) = (ids.numel(), self.num_classes(), self.linear.out_features());
        let work = |v: usize| n.saturating_mul(v).saturating_mul(d);
        Cost { lookup_copies: work(1), one_hot_multiply_adds: work(v), zero_products: work(v.saturating_sub(1)) }
    }

    /// The Linear's trace over the one-hot rows, named as in the scene (`one_hot`,
    /// `linear.weight`).
    pub fn forward_trace(&self, ids: &Ids) -> Result<Trace> {
        Ok(self.linear.forward_trace(&self.encoded_shape(ids)?)?.renamed(NAMES))
    }

    pub fn backward_trace(&self, ids: &Ids) -> Result<Trace> {
        Ok(self.linear.backward_trace(&self.encoded_shape(ids)?)?.renamed(NAMES))
    }

    /// The one-hot's shape `(*, V)`, after `one_hot`'s checks but without building it.
    fn encoded_shape(&self, ids: &Ids) -> Result<Vec<usize>> {
        check_classes(ids, self.num_classes() as i64)?;
        Ok([ids.shape(), &[self.num_classes()]].concat())
    }
}

const NAMES: &[(&str, &str)] = &[
    ("input", "one_hot"),
    ("input.grad", "one_hot.grad"),
    ("weight", "linear.weight"),
    ("weight.grad", "linear.weight.grad"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_hot_matches_pytorch_including_errors() {
        let oh = one_hot(&Ids::vector(vec![2, 0]), -1).unwrap();
        assert_eq!(oh.shape(), [2, 3]);
        assert_eq!(oh.data(), [0, 0, 1, 1, 0, 0]);
        let err = |ids: Vec<i64>, n| one_hot(&Ids::vector(ids), n).unwrap_err().to_string();
        assert_eq!(err(vec![1, 4], 4), "RuntimeError: Class values must be smaller than num_classes.");
        assert_eq!(err(vec![-1], 4), "RuntimeError: Class values must be non-negative.");
        assert!(err(vec![], -1).contains("empty tensor"));
        assert!(err(vec![i64::MAX], -1).contains("too large"));
        // 2^61 bytes passes the size check but no machine has them: an error, not an abort.
        assert!(err(vec![0], 1 << 58).contains("too large"));
        assert!(err(vec![1 << 58], -1).contains("too large"));
    }

    #[test]
    fn cost_counts_the_zero_products() {
        let m = OneHotLinear::from_table(&Tensor::zeros(vec![4, 5]).unwrap()).unwrap();
        let c = m.cost(&Ids::vector(vec![2, 3, 1]));
        assert_eq!((c.lookup_copies, c.one_hot_multiply_adds, c.zero_products), (15, 60, 45));
        // A (0, V) weight holds nothing whatever V claims: no work, and no overflow counting it.
        let empty = OneHotLinear::new(Tensor::new(vec![0, usize::MAX], vec![]).unwrap()).unwrap();
        let c = empty.cost(&Ids::vector(vec![0, 0]));
        assert_eq!((c.lookup_copies, c.one_hot_multiply_adds, c.zero_products), (0, 0, 0));
    }

    #[test]
    fn trace_uses_scene_names() {
        let m = OneHotLinear::from_table(&Tensor::zeros(vec![4, 5]).unwrap()).unwrap();
        let t = m.forward_trace(&Ids::vector(vec![2, 3, 1])).unwrap();
        assert_eq!(t.len(), 15);
        assert_eq!(t.steps[0].reads[0].to_string(), "one_hot[0]");
        assert_eq!(t.steps[0].reads[1].to_string(), "linear.weight[0]");
    }
}
