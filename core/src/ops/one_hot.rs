//! `F.one_hot`, and one-hot × `Linear(V, D, bias=False)`: the long way round to an embedding.
//!
//! With `linear.weight = emb.weight.T` (`(D, V)`), `Linear(one_hot(ids))` equals `emb(ids)`
//! exactly, but it does ids×V×D multiply-adds where the lookup copies ids×D numbers, and its
//! gradient is a dense `(D, V)` tensor that is zero outside the used columns.

use crate::error::{Result, TorchError};
use crate::ops::linear::{check_upstream, Linear};
use crate::tensor::{Ids, Tensor};
use crate::trace::Trace;

/// `F.one_hot(ids, num_classes)`: ids `(*)` → `(*, num_classes)` of 0/1; `num_classes = -1`
/// infers `max(ids) + 1`.
pub fn one_hot(ids: &Ids, num_classes: i64) -> Result<Ids> {
    let classes = match (num_classes, ids.data().iter().max()) {
        (-1, None) => return Err(TorchError::runtime("Can not infer total number of classes from empty tensor.")),
        (-1, Some(&max)) => match max.checked_add(1) {
            Some(n) => n,
            // 2^63 classes, more than any tensor holds; a negative id is still refused first.
            None => {
                check_non_negative(ids)?;
                return Err(OneHot::too_large(ids, 1u64 << 63));
            }
        },
        (n, _) => n,
    };
    OneHot::new(ids, classes)?.dense()
}

/// `F.one_hot(ids, num_classes)` kept as its ids: what a scene shows and reads of it, without
/// writing out its `ids × num_classes` numbers (3.2 million at 64 ids and V = 50,000, ~20 ms of
/// a change's task); `dense` writes them.
#[derive(Clone, Debug, PartialEq)]
pub struct OneHot {
    /// Each within `0..num_classes`, as `new` checked.
    ids: Ids,
    num_classes: usize,
}

impl OneHot {
    /// With PyTorch's checks and errors, and a size that could be written out.
    pub fn new(ids: &Ids, num_classes: i64) -> Result<Self> {
        check_classes(ids, num_classes)?;
        let classes = usize::try_from(num_classes).map_err(|_| TorchError::runtime("num_classes is too large"))?;
        if ids.numel().checked_mul(classes).is_none_or(|n| n > isize::MAX as usize / 8) {
            return Err(Self::too_large(ids, classes));
        }
        Ok(Self { ids: ids.clone(), num_classes: classes })
    }

    fn too_large(ids: &Ids, classes: impl std::fmt::Display) -> TorchError {
        TorchError::runtime(format!("one_hot of {} ids with {classes} classes is too large", ids.numel()))
    }

    pub fn num_classes(&self) -> usize {
        self.num_classes
    }

    /// `(*, num_classes)` for ids `(*)`.
    pub fn shape(&self) -> Vec<usize> {
        [self.ids.shape(), &[self.num_classes]].concat()
    }

    pub fn numel(&self) -> usize {
        self.ids.numel() * self.num_classes
    }

    /// The number at `index`: 1 where the column is its row's id.
    pub fn get(&self, index: &[usize]) -> Option<i64> {
        let (&class, row) = index.split_last()?;
        (class < self.num_classes).then(|| self.ids.get(row).map(|id| i64::from(id == class as i64)))?
    }

    /// Its numbers written out: `F.one_hot(ids, num_classes)`.
    pub fn dense(&self) -> Result<Ids> {
        self.written(1)
    }

    /// Its numbers written out with `one` for 1 (`1.0` for a heat map's floats).
    pub fn written<T: Copy + Default>(&self, one: T) -> Result<Tensor<T>> {
        // Memory the machine can't give is refused (PyTorch: "not enough memory"), never an abort.
        let mut data = Vec::new();
        if data.try_reserve_exact(self.numel()).is_err() {
            return Err(Self::too_large(&self.ids, self.num_classes));
        }
        data.resize(self.numel(), T::default());
        for (k, &id) in self.ids.data().iter().enumerate() {
            data[k * self.num_classes + id as usize] = one;
        }
        Tensor::new(self.shape(), data)
    }
}

fn check_non_negative(ids: &Ids) -> Result<()> {
    match ids.data().iter().any(|&i| i < 0) {
        true => Err(TorchError::runtime("Class values must be non-negative.")),
        false => Ok(()),
    }
}

/// PyTorch's checks on the ids, negative ones first.
fn check_classes(ids: &Ids, num_classes: i64) -> Result<()> {
    check_non_negative(ids)?;
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
        OneHot::new(ids, self.num_classes() as i64)?.written(1.0)
    }

    pub fn forward(&self, ids: &Ids) -> Result<Tensor> {
        self.linear.forward(&self.encode(ids)?)
    }

    /// `linear.weight.grad` `(D, V)`: dense, nonzero only in the columns of used ids. The
    /// one-hot rows are integers made float, so nothing flows back into them.
    pub fn backward(&self, ids: &Ids, upstream: &Tensor) -> Result<Tensor> {
        self.linear.weight_grad(&self.encode(ids)?, upstream)
    }

    /// `forward`'s numbers without its products by zero, for a view at real scale. While
    /// `linear.weight` is finite, a product by a 0 of the one-hot is ±0, and a sum that starts
    /// at +0 (as the dense kernel's do) is never −0, so adding those changes nothing: each output
    /// is `0 + weight[j, id]`, the looked-up number with a −0 made +0. A weight holding an inf or
    /// a nan (0 × inf is nan) goes the dense way.
    pub fn picked(&self, ids: &Ids) -> Result<Tensor> {
        // The extent is kept with the table, and its transpose shares it: no pass over them.
        if !self.linear.weight.extent().finite {
            return self.forward(ids);
        }
        let w = self.linear.weight.data();
        let (v, d) = (self.num_classes(), self.linear.out_features());
        check_classes(ids, v as i64)?;
        let output = ids.data().iter().flat_map(|&id| (0..d).map(move |j| 0.0 + w[j * v + id as usize]));
        Tensor::new([ids.shape(), &[d]].concat(), output.collect())
    }

    /// `backward`'s numbers without its products by zero. While `upstream` is finite, the dense
    /// sum for `weight.grad[j, v]` adds, from +0 and id by id, `upstream[k, j]` where `ids[k]`
    /// is `v` and ±0 elsewhere, which changes nothing (see `picked`): so those are added alone,
    /// in the same order. An upstream holding an inf or a nan goes the dense way.
    pub fn picked_grad(&self, ids: &Ids, upstream: &Tensor) -> Result<Tensor> {
        if !upstream.extent().finite {
            return self.backward(ids, upstream);
        }
        let g = upstream.data();
        let (v, d) = (self.num_classes(), self.linear.out_features());
        check_classes(ids, v as i64)?;
        check_upstream(upstream, &[ids.shape(), &[d]].concat())?;
        let mut grad = vec![0.0f32; d * v];
        for (k, &id) in ids.data().iter().enumerate() {
            for (j, &u) in g[k * d..][..d].iter().enumerate() {
                grad[j * v + id as usize] += u;
            }
        }
        Tensor::new(vec![d, v], grad)
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

    fn bits(t: &Tensor) -> Vec<u32> {
        // Any nan is the same nan here: the dense kernel's nan bits are the platform's.
        t.data().iter().map(|x| if x.is_nan() { f32::NAN.to_bits() } else { x.to_bits() }).collect()
    }

    /// Tables and upstreams with −0, +0, repeated ids and widths across the kernels' blocks
    /// (2,048 columns), then an inf and a nan placed each way: the same bits as the dense way.
    #[test]
    fn picked_gives_the_dense_ways_bits() {
        let mut rng = rand_mt::Mt::new(7);
        let number = |rng: &mut rand_mt::Mt| match rng.next_u32() % 8 {
            0 => -0.0,
            1 => 0.0,
            _ => (rng.next_u32() as f32 / u32::MAX as f32 - 0.5) * 4.0,
        };
        for (v, d, n) in [(1, 1, 1usize), (5, 3, 4), (7, 2, 0), (4100, 5, 9), (2048, 3, 6)] {
            let table = Tensor::new(vec![v, d], (0..v * d).map(|_| number(&mut rng)).collect()).unwrap();
            // The last id repeats the first: its upstream rows add into one column.
            let ids = Ids::vector(
                (0..n).map(|k| ((k % n.saturating_sub(1).max(1)) * 2_654_435_761usize % v) as i64).collect(),
            );
            let up = Tensor::new(vec![n, d], (0..n * d).map(|_| number(&mut rng)).collect()).unwrap();
            let mut cases = vec![(table.clone(), up.clone())];
            for odd in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
                let mut t = table.data().to_vec();
                t[(v * d) / 2] = odd;
                let mut u = up.data().to_vec();
                if let Some(x) = u.last_mut() {
                    *x = odd;
                }
                cases.push((Tensor::new(vec![v, d], t).unwrap(), Tensor::new(vec![n, d], u).unwrap()));
            }
            for (table, up) in cases {
                let m = OneHotLinear::from_table(&table).unwrap();
                assert_eq!(
                    bits(&m.picked(&ids).unwrap()),
                    bits(&m.forward(&ids).unwrap()),
                    "forward ({v}, {d}) {n} ids"
                );
                let (picked, dense) = (m.picked_grad(&ids, &up).unwrap(), m.backward(&ids, &up).unwrap());
                assert_eq!(bits(&picked), bits(&dense), "weight.grad ({v}, {d}) {n} ids");
                assert_eq!(picked.extent(), dense.extent());
            }
        }
        // A −0 weight comes out +0, as the dense sum gives it; the lookup keeps −0.
        let m = OneHotLinear::from_table(&Tensor::new(vec![2, 1], vec![-0.0, 1.0]).unwrap()).unwrap();
        assert_eq!(m.picked(&Ids::vector(vec![0])).unwrap().data()[0].to_bits(), 0);
    }

    #[test]
    fn picked_refuses_as_the_dense_way_does() {
        let m = OneHotLinear::from_table(&Tensor::zeros(vec![4, 3]).unwrap()).unwrap();
        let up = Tensor::zeros(vec![2, 3]).unwrap();
        for ids in [vec![4, 0], vec![-1, 2]] {
            let ids = Ids::vector(ids);
            assert_eq!(m.picked(&ids).unwrap_err(), m.forward(&ids).unwrap_err());
            assert_eq!(m.picked_grad(&ids, &up).unwrap_err(), m.backward(&ids, &up).unwrap_err());
        }
        let (ids, wrong) = (Ids::vector(vec![1, 2]), Tensor::zeros(vec![2, 4]).unwrap());
        assert_eq!(m.picked_grad(&ids, &wrong).unwrap_err(), m.backward(&ids, &wrong).unwrap_err());
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
