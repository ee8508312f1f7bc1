//! A scene's whole state (config, parameters, inputs) as one serialisable value, the edits a
//! learner makes to it, and what the views show of it: outputs, traces, the formula of a focused
//! cell, and every problem pinned to the cell that causes it. Views derive from this; they never
//! compute math.

pub mod contract;
pub mod embedding;
#[cfg(test)]
mod fixtures;
pub mod history;
pub mod learn;
pub mod linear;
pub mod one_hot;
pub mod rnn;
pub mod share;
pub mod train;
pub mod word2vec;

use crate::edit::{parse_block, parse_float, parse_int};
use crate::error::TorchError;
use crate::tensor::{numel, py_shape, Tensor};
use serde::{Deserialize, Serialize};

/// What a worker (`worker/`) says first, once its files are loaded and it listens: a request sent
/// before would find no handler.
pub const WORKER_READY: &str = "\"Ready\"";

/// Tensors in a scene are at most this large, so a typo can't ask the browser for gigabytes.
pub const MAX_NUMEL: usize = 1 << 22;

/// A problem with the scene's inputs, pinned where it comes from: PyTorch's error when PyTorch
/// has one, and a hint in plain words.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    /// The tensor (by the name the grid shows) holding the cause, e.g. `input`.
    pub tensor: String,
    /// The flat index of the offending cell, when one cell is to blame.
    pub cell: Option<usize>,
    pub error: TorchError,
    pub hint: String,
}

/// One output cell's computation with the numbers plugged in:
/// `target = func(Σ a·b + Σ constants) = value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    /// `output[0, 3]`
    pub target: String,
    /// `tanh` / `relu` for an RNN cell; `None` for an affine sum or a copy.
    pub func: Option<String>,
    pub products: Vec<(Factor, Factor)>,
    /// Added terms such as `bias[3]`, or the copied `weight[2, 0]` of a lookup.
    pub constants: Vec<Factor>,
    pub value: f32,
    /// Products by 0 counted but not in `products`: a one-hot row's V − 1 at real scale, whose
    /// 50,000 names would cost more than the sum.
    pub zeros: usize,
}

/// A named number in a formula: `weight[3, 1]` = -0.2.
#[derive(Clone, Debug, PartialEq)]
pub struct Factor {
    pub name: String,
    pub value: f32,
}

impl Factor {
    pub fn new(name: impl Into<String>, value: f32) -> Self {
        Self { name: name.into(), value }
    }
}

/// PyTorch index text: `weight[1, 2]`.
pub fn label(name: &str, index: &[usize]) -> String {
    let parts: Vec<String> = index.iter().map(|i| i.to_string()).collect();
    format!("{name}[{}]", parts.join(", "))
}

/// Types `text` into cell `index` of a float tensor; on bad text the tensor is untouched.
pub fn set_float(t: &mut Tensor, index: usize, text: &str) -> Result<(), String> {
    set_cell(t, index, text, parse_float)
}

/// Types `text` into cell `index`, read by `parse` (`parse_float`, `parse_int`, or `parse_id`
/// for ids, whose hint names the table's rows); on bad text the tensor is untouched.
pub fn set_cell<T: Copy>(
    t: &mut Tensor<T>,
    index: usize,
    text: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<(), String> {
    let v = parse(text)?;
    let cell = t.data_mut().get_mut(index).ok_or("no such cell")?;
    *cell = v;
    Ok(())
}

/// Pastes a block (spreadsheet cells or a Python literal) with its top-left at flat `index`,
/// reading the tensor as rows of its last dimension. All or nothing: one bad cell or a block
/// that runs off the edge leaves the tensor as it was.
pub fn paste<T: Copy>(
    t: &mut Tensor<T>,
    index: usize,
    text: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<(), String> {
    let block = parse_block(text)?;
    let cols = t.last_dim().max(1);
    let rows = t.numel() / cols;
    let (r0, c0) = (index / cols, index % cols);
    let (h, w) = (block.len(), block.iter().map(Vec::len).max().unwrap_or(0));
    if r0.saturating_add(h) > rows || c0 + w > cols {
        return Err(format!(
            "a {h}×{w} block does not fit here: {} × {} from this cell",
            crate::format::count(rows.saturating_sub(r0), "row"),
            crate::format::count(cols - c0, "column")
        ));
    }
    let mut data = t.data().to_vec();
    for (i, row) in block.iter().enumerate() {
        for (j, text) in row.iter().enumerate() {
            data[(r0 + i) * cols + c0 + j] =
                parse(text).map_err(|e| format!("row {}, column {}: {e}", i + 1, j + 1))?;
        }
    }
    t.data_mut().copy_from_slice(&data);
    Ok(())
}

/// The tensor with dimension `dim` resized to `n`: what overlaps is kept, new cells are `fill`.
pub fn resize<T: Copy>(t: &Tensor<T>, dim: usize, n: usize, fill: T) -> Result<Tensor<T>, String> {
    let old = t.shape();
    if dim >= old.len() {
        return Err(format!("no dimension {dim}"));
    }
    let mut shape = old.to_vec();
    shape[dim] = n;
    let total =
        numel(&shape).filter(|&s| s <= MAX_NUMEL).ok_or_else(|| format!("at most {MAX_NUMEL} numbers per tensor"))?;
    if total == 0 {
        // Nothing to copy or fill: don't spin through the other sizes, however large.
        return Tensor::new(shape, Vec::new()).map_err(|e| e.to_string());
    }
    let inner: usize = old[dim + 1..].iter().product();
    let outer: usize = old[..dim].iter().product();
    let mut data = Vec::with_capacity(total);
    for o in 0..outer {
        for i in 0..n {
            for k in 0..inner {
                data.push(if i < old[dim] { t.data()[(o * old[dim] + i) * inner + k] } else { fill });
            }
        }
    }
    Tensor::new(shape, data).map_err(|e| e.to_string())
}

/// A size typed into a shape field: a whole number in `1..=max`.
pub fn parse_size(text: &str, max: usize) -> Result<usize, String> {
    match parse_int(text)? {
        n if n >= 1 && n as u64 <= max as u64 => Ok(n as usize),
        _ => Err(format!("choose a size from 1 to {max}")),
    }
}

/// A decoded tensor against a scene's declared limits: a rank in `ranks`, every dimension at
/// most `max`, so a hostile link or file can't ask for more than the scene's own controls can.
pub fn check_shape<T: Copy>(
    name: &str,
    t: &Tensor<T>,
    ranks: std::ops::RangeInclusive<usize>,
    max: usize,
) -> Result<(), String> {
    let shape = t.shape();
    if ranks.contains(&shape.len()) && shape.iter().all(|&n| n <= max) {
        return Ok(());
    }
    let dims = match (ranks.start(), ranks.end()) {
        (a, b) if a == b => format!("{a}"),
        (a, b) => format!("{a} to {b}"),
    };
    Err(format!("{name} has shape {}; this scene allows {dims} dimensions of at most {max}", py_shape(shape)))
}

/// A decoded preset id: one of the scene's, or none.
pub fn check_preset(preset: &str, presets: &[(&str, &str)]) -> Result<(), String> {
    if preset.is_empty() || presets.iter().any(|(id, _)| *id == preset) {
        Ok(())
    } else {
        Err(format!("it names a preset this scene does not have ({} characters)", preset.chars().count()))
    }
}

/// A decoded `torch.manual_seed` text: one the seed field would take.
pub fn check_seed(seed: &str) -> Result<(), String> {
    crate::torch_rng::Generator::parse_seed(seed).map(|_| ()).map_err(|e| format!("its seed is not one: {e}"))
}

/// Serialisable scene state for autosave and share links: the JSON of a scene, refused with a
/// reason if it is not one (the caller keeps what it had).
pub fn from_json<S: for<'de> Deserialize<'de>>(text: &str) -> Result<S, String> {
    serde_json::from_str(text).map_err(|e| format!("not a saved scene: {e}"))
}

pub fn to_json<S: Serialize>(scene: &S) -> String {
    serde_json::to_string(scene).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_text_keeps_the_value() {
        let mut t = Tensor::vector(vec![1.0, 2.0]);
        assert!(set_float(&mut t, 1, "abc").is_err());
        assert_eq!(t.data(), [1.0, 2.0]);
        set_float(&mut t, 1, "-0.5").unwrap();
        assert_eq!(t.data(), [1.0, -0.5]);
    }

    #[test]
    fn paste_is_all_or_nothing() {
        let mut t = Tensor::zeros(vec![3, 3]).unwrap();
        paste(&mut t, 4, "[[1, 2], [3, 4]]", parse_float).unwrap();
        assert_eq!(t.data(), [0., 0., 0., 0., 1., 2., 0., 3., 4.]);
        assert!(paste(&mut t, 0, "1\tx", parse_float).unwrap_err().contains("row 1, column 2"));
        assert_eq!(
            paste(&mut t, 8, "1 2", parse_float).unwrap_err(),
            "a 1×2 block does not fit here: 1 row × 1 column from this cell"
        );
        assert!(paste(&mut t, 99, "1", parse_float).unwrap_err().contains("does not fit"), "past the end");
        let mut one = Tensor::vector(vec![0.0]);
        assert!(paste(&mut one, usize::MAX, "1", parse_float).unwrap_err().contains("does not fit"), "far past it");
        assert_eq!(t.data()[..2], [0., 0.]);
    }

    #[test]
    fn resize_keeps_the_overlap() {
        let t = Tensor::new(vec![2, 3], vec![1., 2., 3., 4., 5., 6.]).unwrap();
        assert_eq!(resize(&t, 1, 2, 0.0).unwrap().data(), [1., 2., 4., 5.]);
        assert_eq!(resize(&t, 0, 3, 9.0).unwrap().data(), [1., 2., 3., 4., 5., 6., 9., 9., 9.]);
        assert!(resize(&t, 1, usize::MAX, 0.0).is_err());
        // No numbers at all: an instant empty tensor, even from a debug build.
        let empty = Tensor::zeros(vec![1, 0]).unwrap();
        assert_eq!(resize(&empty, 0, usize::MAX, 0.0).unwrap().shape(), [usize::MAX, 0]);
        assert_eq!(resize(&Tensor::zeros(vec![1 << 40, 0]).unwrap(), 1, 0, 0.0).unwrap().shape(), [1 << 40, 0]);
    }
}
