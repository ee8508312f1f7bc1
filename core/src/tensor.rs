//! A tensor as PyTorch stores a contiguous one: a shape and row-major data.
//! Constructors check that the data fits the shape and return an error, never panic.

use crate::error::{Result, TorchError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tensor<T = f32> {
    shape: Vec<usize>,
    data: Vec<T>,
}

/// Integer ids (`torch.int64`), the input of `Embedding`, `one_hot` and `DotProduct`.
pub type Ids = Tensor<i64>;

/// The number of elements of a shape; `None` when it overflows `usize`.
pub fn numel(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d))
}

/// The multi-index of a row-major flat offset within `shape`.
pub fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (i, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            index[i] = flat % d;
            flat /= d;
        }
    }
    index
}

/// PyTorch's way of writing a shape in messages: `[2, 3]`.
pub fn shape_str(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(", "))
}

impl<T: Copy> Tensor<T> {
    pub fn new(shape: Vec<usize>, data: Vec<T>) -> Result<Self> {
        match numel(&shape) {
            Some(n) if n == data.len() => Ok(Self { shape, data }),
            _ => Err(TorchError::runtime(format!(
                "shape '{}' is invalid for input of size {}",
                shape_str(&shape),
                data.len()
            ))),
        }
    }

    pub fn full(shape: Vec<usize>, value: T) -> Result<Self> {
        let n =
            numel(&shape).ok_or_else(|| TorchError::runtime(format!("shape '{}' is too large", shape_str(&shape))))?;
        Ok(Self { shape, data: vec![value; n] })
    }

    /// A 1-D tensor.
    pub fn vector(data: Vec<T>) -> Self {
        Self { shape: vec![data.len()], data }
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn data(&self) -> &[T] {
        &self.data
    }
    pub fn data_mut(&mut self) -> &mut [T] {
        &mut self.data
    }
    pub fn into_data(self) -> Vec<T> {
        self.data
    }
    pub fn numel(&self) -> usize {
        self.data.len()
    }
    pub fn dim(&self) -> usize {
        self.shape.len()
    }
    /// The size of the last dimension (1 for a 0-d tensor).
    pub fn last_dim(&self) -> usize {
        self.shape.last().copied().unwrap_or(1)
    }

    /// The row-major flat offset of a full index, `None` if it is out of bounds.
    pub fn offset(&self, index: &[usize]) -> Option<usize> {
        if index.len() != self.shape.len() {
            return None;
        }
        index.iter().zip(&self.shape).try_fold(0usize, |off, (&i, &d)| (i < d).then(|| off * d + i))
    }

    pub fn get(&self, index: &[usize]) -> Option<T> {
        self.offset(index).map(|o| self.data[o])
    }

    /// The same data under another shape with the same number of elements.
    pub fn reshape(self, shape: Vec<usize>) -> Result<Self> {
        Self::new(shape, self.data)
    }

    pub fn map<U: Copy>(&self, f: impl Fn(T) -> U) -> Tensor<U> {
        Tensor { shape: self.shape.clone(), data: self.data.iter().map(|&x| f(x)).collect() }
    }
}

impl Tensor<f32> {
    pub fn zeros(shape: Vec<usize>) -> Result<Self> {
        Self::full(shape, 0.0)
    }
}
