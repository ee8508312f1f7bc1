//! What a grid shows, made once per change of the numbers it shows.

use rowflow_core::format::{full, not_finite, short};
use rowflow_core::ops::one_hot::OneHot;
use rowflow_core::{Ids, Tensor};

/// Past this many cells a tensor is drawn as a heat map instead of cells.
pub const HEATMAP_CELLS: usize = 400;

/// What a grid shows: each value printed short (PyTorch's 4 decimals) and full (every digit,
/// shown while a cell has focus), and the values themselves (shared with the tensor shown, not
/// copied) for the heat map.
#[derive(Clone, Debug)]
pub struct GridData {
    pub short: Vec<String>,
    pub full: Vec<String>,
    pub values: Tensor,
    /// The largest finite magnitude: the heat map's colour scale.
    pub scale: f32,
    /// What its nan and inf cells mean, if it has any.
    pub not_finite: Option<String>,
}

/// Whether a view showing one can keep what it drew for the other (the memos that make these
/// compare them): cells by their texts and numbers (the scale and the note follow from the
/// numbers); a heat map's numbers only by whether they are the same tensor's, since reading
/// 3.2 M numbers twice to compare them (~6 ms at 50,000 × 64) costs more than drawing again the
/// rows in view.
impl PartialEq for GridData {
    fn eq(&self, other: &Self) -> bool {
        match self.numel() > HEATMAP_CELLS {
            true => self.values.shape() == other.values.shape() && self.values.shares_data(&other.values),
            false => (&self.short, &self.full, &self.values) == (&other.short, &other.full, &other.values),
        }
    }
}

/// No tensor: an empty one.
impl Default for GridData {
    fn default() -> Self {
        Self::floats(&Tensor::vector(Vec::new()))
    }
}

impl GridData {
    /// `values` with their texts: what the heat map and the note under the grid need is found
    /// here, once per change of the numbers, however many views show them.
    pub fn new(short: Vec<String>, full: Vec<String>, values: Tensor) -> Self {
        let extent = values.extent();
        let not_finite = if extent.finite { None } else { not_finite(values.data()) };
        Self { short, full, values, scale: extent.largest, not_finite }
    }

    /// Texts are made only for tensors small enough to show as cells.
    pub fn floats(t: &Tensor) -> Self {
        let small = t.numel() <= HEATMAP_CELLS;
        let texts = |f: fn(f32) -> String| if small { t.data().iter().map(|&x| f(x)).collect() } else { Vec::new() };
        Self::new(texts(short), texts(full), t.clone())
    }

    pub fn ids(t: &Ids) -> Self {
        let text: Vec<String> =
            if t.numel() <= HEATMAP_CELLS { t.data().iter().map(|i| i.to_string()).collect() } else { Vec::new() };
        Self::new(text.clone(), text, t.map(|i| i as f32))
    }

    /// `F.one_hot(ids, V)`, kept as its ids: as cells, its numbers; past them, the heat map's
    /// written from the ids, its scale known (at 64 × 50,000, ~10 ms less of the change's task).
    pub fn one_hot(one_hot: &OneHot) -> Self {
        if one_hot.numel() <= HEATMAP_CELLS {
            return one_hot.dense().map(|t| Self::ids(&t)).unwrap_or_default();
        }
        match one_hot.written(1.0) {
            Ok(values) => Self { short: Vec::new(), full: Vec::new(), values, scale: 1.0, not_finite: None },
            Err(_) => Self::default(),
        }
    }

    pub fn shape(&self) -> &[usize] {
        self.values.shape()
    }

    pub fn numel(&self) -> usize {
        self.values.numel()
    }

    /// Cell `i`'s text: short, or every digit.
    pub(super) fn text(&self, i: usize, every_digit: bool) -> String {
        if every_digit { &self.full } else { &self.short }.get(i).cloned().unwrap_or_default()
    }
}
