//! A tensor as PyTorch stores a contiguous one: a shape and row-major data.
//! Constructors check that the data fits the shape and return an error, never panic.

use crate::error::{Result, TorchError};
use crate::format::{display, full, Extent};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// Deserialised through [`Tensor::new`], so a damaged save whose data does not fit its shape is
/// refused when read, never carried into the ops. The data is shared between clones and copied
/// on the first write (`data_mut`): a scene's state, its derived tensors and the views that
/// show them hold one 50,000 × 300 table, not a copy each.
#[derive(Clone, Serialize, Deserialize)]
#[serde(try_from = "Raw<T>", bound(serialize = "T: Element", deserialize = "T: Element"))]
pub struct Tensor<T = f32> {
    shape: Vec<usize>,
    #[serde(serialize_with = "encode")]
    data: Arc<Vec<T>>,
    /// The data's `Extent` once asked for, shared like the data until it is written: a heat
    /// map, its note and a gradient's zero count each need one, and at real scale a pass costs
    /// about a millisecond per 3 M numbers.
    #[serde(skip)]
    extent: Arc<OnceLock<Extent>>,
    /// Its transpose (`t()`) once made, kept like the extent: One-hot's `linear.weight` is
    /// `emb.weight.T`, 12.8 MB to copy at real scale on every change that keeps the table.
    #[serde(skip)]
    transposed: Arc<OnceLock<Tensor<T>>>,
}

#[derive(Deserialize)]
#[serde(bound = "T: Element")]
struct Raw<T> {
    shape: Vec<usize>,
    #[serde(deserialize_with = "decode")]
    data: Vec<T>,
}

/// A number as JSON holds it. JSON has no NaN or infinity, so those travel as the text Python
/// prints for them (`nan`, `inf`, `-inf`) and a learner's `nan` survives a save.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Json {
    Int(i64),
    Num(f64),
    Text(String),
    /// Written as float32's shortest text (`0.1`, not the `0.10000000149011612` of its f64):
    /// saves and links half the size, and read back to the same bits.
    F32(f32),
}

/// Read as the JSON value it is: a whole number as `Int` (one past int64 as `Num`), any other
/// number as `Num`, text as `Text`. By hand, not untagged, which buffers each number in a tree
/// of its own first and tries the kinds one by one (code every scene's link downloads).
impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Number;
        impl serde::de::Visitor<'_> for Number {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, or nan, inf or -inf as text")
            }
            fn visit_i64<E>(self, x: i64) -> std::result::Result<Json, E> {
                Ok(Json::Int(x))
            }
            fn visit_u64<E>(self, x: u64) -> std::result::Result<Json, E> {
                Ok(i64::try_from(x).map_or(Json::Num(x as f64), Json::Int))
            }
            fn visit_f64<E>(self, x: f64) -> std::result::Result<Json, E> {
                Ok(Json::Num(x))
            }
            fn visit_str<E>(self, text: &str) -> std::result::Result<Json, E> {
                Ok(Json::Text(text.to_owned()))
            }
        }
        d.deserialize_any(Number)
    }
}

/// An element type a tensor can hold and save.
pub trait Element: Copy {
    /// The same stored value: bit for bit, so `-0.0` is not `0.0` and a NaN is itself.
    fn same(self, other: Self) -> bool;
    fn to_json(self) -> Json;
    /// The value, or why this JSON can't be one (said in a refused link or file).
    fn from_json(json: Json) -> std::result::Result<Self, String>;
}

impl Element for f32 {
    fn same(self, other: Self) -> bool {
        self.to_bits() == other.to_bits()
    }
    fn to_json(self) -> Json {
        match self {
            x if x.is_finite() => Json::F32(x),
            x if x.is_nan() => Json::Text("nan".into()),
            x => Json::Text(if x > 0.0 { "inf" } else { "-inf" }.into()),
        }
    }
    /// A number too large for float32 is refused rather than read as `inf`: a save writes
    /// infinity as `"inf"`, so a finite number out of range means the text was not made by rowflow.
    fn from_json(json: Json) -> std::result::Result<Self, String> {
        let x = match &json {
            Json::Int(i) => *i as f32,
            Json::Num(x) => *x as f32,
            Json::F32(x) => *x,
            Json::Text(t) => match t.trim_start_matches(['+', '-']).to_ascii_lowercase().as_str() {
                "nan" | "inf" | "infinity" => return crate::edit::parse_float(t),
                _ => return Err(format!("{t:?} is not a number")),
            },
        };
        if x.is_finite() {
            return Ok(x);
        }
        // The number's text for the message only, not for every number read.
        let text = match json {
            Json::Int(i) => i.to_string(),
            Json::Num(x) => display(x),
            Json::F32(x) => full(x),
            Json::Text(t) => t,
        };
        Err(format!("{text} is out of float32's range (±3.4e38)"))
    }
}

impl Element for i64 {
    fn same(self, other: Self) -> bool {
        self == other
    }
    fn to_json(self) -> Json {
        Json::Int(self)
    }
    fn from_json(json: Json) -> std::result::Result<Self, String> {
        match json {
            Json::Int(i) => Ok(i),
            Json::Num(x) => Err(format!("{} is not a whole number in int64's range", display(x))),
            Json::F32(x) => Err(format!("{} is not a whole number", full(x))),
            Json::Text(t) => Err(format!("{t:?} is not a whole number")),
        }
    }
}

/// `#[serde(with = "crate::tensor::json_f32")]` for a lone float field, saved like tensor data.
pub mod json_f32 {
    use super::{Element, Json};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(x: &f32, s: S) -> Result<S::Ok, S::Error> {
        x.to_json().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        f32::from_json(Json::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

fn encode<T: Element, S: serde::Serializer>(data: &[T], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(data.iter().map(|x| x.to_json()))
}

fn decode<'de, T: Element, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Vec<T>, D::Error> {
    let raw: Vec<Json> = Deserialize::deserialize(d)?;
    raw.into_iter().map(|j| T::from_json(j).map_err(serde::de::Error::custom)).collect()
}

impl<T: Copy> TryFrom<Raw<T>> for Tensor<T> {
    type Error = TorchError;
    fn try_from(raw: Raw<T>) -> Result<Self> {
        Tensor::new(raw.shape, raw.data)
    }
}

/// Its shape and data, as a derived `Debug` would say: the extent is found from them, whether
/// or not it has been yet, so two equal tensors read the same.
impl<T: std::fmt::Debug> std::fmt::Debug for Tensor<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tensor").field("shape", &self.shape).field("data", &self.data).finish()
    }
}

/// Equal when stored the same: the shape, and every element bit for bit. A state or a view
/// model compared with `==` then changes whenever a printed number would (`0.` ↔ `-0.`), and a
/// state holding a NaN equals itself. Shared data is equal without a look.
impl<T: Element> PartialEq for Tensor<T> {
    fn eq(&self, other: &Self) -> bool {
        self.shape == other.shape
            && (self.shares_data(other)
                || self.data.len() == other.data.len()
                    && self.data.iter().zip(other.data.iter()).all(|(&a, &b)| a.same(b)))
    }
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

/// A shape as Python prints a tuple: `(2, 6)`, and `(6,)` for one dimension.
pub fn py_shape(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
    format!("({}{})", dims.join(", "), if shape.len() == 1 { "," } else { "" })
}

impl<T: Copy> Tensor<T> {
    pub fn new(shape: Vec<usize>, data: Vec<T>) -> Result<Self> {
        Self::shared(shape, Arc::new(data))
    }

    fn shared(shape: Vec<usize>, data: Arc<Vec<T>>) -> Result<Self> {
        match numel(&shape) {
            Some(n) if n == data.len() => Ok(Self::fitted(shape, data)),
            _ => Err(TorchError::runtime(format!(
                "shape '{}' is invalid for input of size {}",
                shape_str(&shape),
                data.len()
            ))),
        }
    }

    /// A shape and data known to fit, nothing found from them yet.
    fn fitted(shape: Vec<usize>, data: Arc<Vec<T>>) -> Self {
        Self { shape, data, extent: Arc::default(), transposed: Arc::default() }
    }

    pub fn full(shape: Vec<usize>, value: T) -> Result<Self> {
        let n =
            numel(&shape).ok_or_else(|| TorchError::runtime(format!("shape '{}' is too large", shape_str(&shape))))?;
        Self::shared(shape, Arc::new(vec![value; n]))
    }

    /// A 1-D tensor.
    pub fn vector(data: Vec<T>) -> Self {
        Self::fitted(vec![data.len()], Arc::new(data))
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn data(&self) -> &[T] {
        &self.data
    }
    /// Whether both hold the very same data (clones not written since): equal without a look.
    pub fn shares_data(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
    }
    pub fn data_mut(&mut self) -> &mut [T] {
        (self.extent, self.transposed) = Default::default();
        Arc::make_mut(&mut self.data).as_mut_slice()
    }
    pub fn into_data(self) -> Vec<T> {
        Arc::unwrap_or_clone(self.data)
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
        let extent = self.extent;
        Self::shared(shape, self.data).map(|t| Self { extent, ..t })
    }

    pub fn map<U: Copy>(&self, f: impl Fn(T) -> U) -> Tensor<U> {
        let data = Arc::new(self.data.iter().map(|&x| f(x)).collect());
        Tensor::fitted(self.shape.clone(), data)
    }
}

impl Tensor<f32> {
    pub fn zeros(shape: Vec<usize>) -> Result<Self> {
        Self::full(shape, 0.0)
    }

    /// The numbers' `Extent`, found on the first ask and kept until they are written.
    pub fn extent(&self) -> Extent {
        *self.extent.get_or_init(|| Extent::of(&self.data))
    }

    /// This tensor with its extent, found by the op that made it while its numbers were in
    /// cache: at real scale a pass over a gradient afterwards reads 12.8 MB from memory.
    pub(crate) fn with_extent(self, extent: Extent) -> Self {
        debug_assert_eq!(extent, Extent::of(&self.data), "the extent an op found");
        Self { extent: Arc::new(OnceLock::from(extent)), ..self }
    }

    /// `t()` of a 2-D tensor, made on the first ask and kept until the data is written; a
    /// tensor of fewer dimensions is its own transpose, as in PyTorch.
    pub fn t(&self) -> Result<Tensor> {
        let &[r, c] = self.shape() else {
            return match self.dim() {
                0 | 1 => Ok(self.clone()),
                n => Err(TorchError::runtime(format!("t() expects a tensor with <= 2 dimensions, but self is {n}D"))),
            };
        };
        Ok(self.transposed.get_or_init(|| self.transpose(r, c)).clone())
    }

    /// A block of TILE rows at a time (contiguous), written as one short run into each output
    /// row: both sides stay in cache, a 50,000 × 64 table in a few ms.
    fn transpose(&self, r: usize, c: usize) -> Tensor {
        const TILE: usize = 32;
        let mut data = vec![0.0f32; r * c];
        for (b, block) in self.data.chunks(TILE * c.max(1)).enumerate() {
            for j in 0..c {
                let out = &mut data[j * r + b * TILE..];
                for (o, row) in out.iter_mut().zip(block.chunks_exact(c)) {
                    *o = row[j];
                }
            }
        }
        // The same numbers: their extent is the same, found for either once.
        Tensor { extent: self.extent.clone(), ..Tensor::fitted(vec![c, r], Arc::new(data)) }
    }

    /// Writes with `write`, which says which numbers it wrote. A transpose made of the old
    /// numbers is kept, those numbers written into it too: a copy and a few writes where a new
    /// transpose would be a tiled pass (an SGD step on One-hot's table moves a few rows).
    pub fn write_some(&mut self, write: impl FnOnce(&mut [f32]) -> Vec<usize>) -> Vec<usize> {
        let made = self.transposed.get().cloned();
        let written = write(self.data_mut());
        if let (Some(mut t), &[r, c]) = (made, self.shape()) {
            let to = t.data_mut();
            for &i in &written {
                to[(i % c) * r + i / c] = self.data[i];
            }
            // The same numbers again: an extent found for either is the other's.
            t.extent = self.extent.clone();
            self.transposed = Arc::new(OnceLock::from(t));
        }
        written
    }

    /// A copy that keeps no transpose made of it: the undo history holds up to 32 MB of old
    /// numbers, not twice that.
    pub fn without_transpose(&self) -> Tensor {
        Tensor { transposed: Arc::default(), ..self.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_save_is_refused_when_read() {
        let ok: Tensor = serde_json::from_str(r#"{"shape":[2],"data":[1.0,2.0]}"#).unwrap();
        assert_eq!(ok.data(), [1.0, 2.0]);
        let bad = serde_json::from_str::<Tensor>(r#"{"shape":[3],"data":[1.0,2.0]}"#).unwrap_err();
        assert!(bad.to_string().contains("invalid for input of size 2"));
        assert!(serde_json::from_str::<Ids>(r#"{"shape":[9999999999,9999999999],"data":[]}"#).is_err());
    }

    #[test]
    fn transpose_moves_every_number_across_tile_edges() {
        let (r, c) = (37, 70);
        let t = Tensor::new(vec![r, c], (0..r * c).map(|k| k as f32).collect()).unwrap();
        let tt = t.t().unwrap();
        assert_eq!(tt.shape(), [c, r]);
        assert!((0..r).all(|i| (0..c).all(|j| tt.get(&[j, i]) == t.get(&[i, j]))));
        // The same numbers: an extent found for either is the other's, and right for both.
        assert_eq!(tt.extent(), Extent::of(t.data()));
        let mut edited = tt.clone();
        edited.data_mut()[0] = -9999.0;
        assert_eq!((edited.extent().largest, t.extent().largest), (9999.0, (r * c - 1) as f32));
        assert!(Arc::ptr_eq(&tt.data, &t.t().unwrap().data), "made once, kept while the data stands");
        // Fewer dimensions: itself, as in PyTorch; more: PyTorch's error.
        assert_eq!(Tensor::vector(vec![1.0, 2.0]).t().unwrap().data(), [1.0, 2.0]);
        let e = Tensor::zeros(vec![1, 2, 3]).unwrap().t().unwrap_err();
        assert_eq!(e.to_string(), "RuntimeError: t() expects a tensor with <= 2 dimensions, but self is 3D");
    }

    #[test]
    fn a_transpose_made_is_kept_through_some_writes() {
        let (r, c) = (5, 3);
        let mut t = Tensor::new(vec![r, c], (0..r * c).map(|k| k as f32).collect()).unwrap();
        let before = t.t().unwrap();
        let written = t.write_some(|data| {
            (data[4], data[14]) = (-1.0, f32::NAN);
            vec![4, 14]
        });
        assert_eq!(written, [4, 14]);
        let kept = t.transposed.get().expect("kept").clone();
        assert_eq!(kept, t.transpose(r, c), "the numbers written are in it");
        assert_eq!(before.get(&[1, 1]), Some(4.0), "the old transpose keeps the old numbers");
        assert_eq!(kept.extent().largest, 13.0, "its extent is the new numbers'");
        assert!(Arc::ptr_eq(&kept.extent, &t.extent), "found for either, found for both");
        // Nothing made, nothing kept.
        let mut plain = Tensor::vector(vec![1.0, 2.0]);
        plain.write_some(|data| {
            data[0] = 3.0;
            vec![0]
        });
        assert!(plain.transposed.get().is_none());
    }

    #[test]
    fn the_extent_is_found_once_and_forgotten_when_written() {
        let mut t = Tensor::new(vec![2, 2], vec![0.0, -3.0, 0.0, 1.0]).unwrap();
        let shared = t.clone().reshape(vec![4]).unwrap();
        let before = format!("{t:?}");
        assert_eq!(t.extent(), Extent { largest: 3.0, finite: true, zeros: 2 });
        assert_eq!(format!("{t:?}"), before, "what it says of itself is its shape and data");
        assert!(Arc::ptr_eq(&t.extent, &shared.extent) && shared.extent.get().is_some(), "kept for every clone");
        t.data_mut()[0] = f32::NAN;
        assert_eq!(t.extent(), Extent { largest: 3.0, finite: false, zeros: 1 });
        assert_eq!(shared.extent().zeros, 2, "the clone keeps its numbers, and their extent");
    }

    #[test]
    fn nan_and_inf_survive_a_save() {
        let t = Tensor::vector(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 1.5]);
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, r#"{"shape":[5],"data":["nan","inf","-inf",-0.0,1.5]}"#);
        let back: Tensor = serde_json::from_str(&json).unwrap();
        assert!(back.data()[0].is_nan());
        assert_eq!(back.data()[1..], t.data()[1..]);
        assert_eq!(back.data()[3].to_bits(), (-0.0f32).to_bits());
        let ids: Ids = serde_json::from_str(r#"{"shape":[2],"data":[3,-1]}"#).unwrap();
        assert_eq!(ids.data(), [3, -1]);
    }

    #[test]
    fn clones_share_their_numbers_until_one_is_written() {
        let a = Tensor::vector(vec![1.0, f32::NAN]);
        let mut b = a.clone();
        assert!(std::ptr::eq(a.data(), b.data()), "a clone is not a copy");
        assert_eq!(a, b, "shared, and so equal, NaN and all");
        b.data_mut()[0] = 2.0;
        assert_eq!((a.data()[0], b.data()[0]), (1.0, 2.0), "a write copies first");
        let reshaped = a.clone().reshape(vec![2, 1]).unwrap();
        assert!(std::ptr::eq(a.data(), reshaped.data()));
        assert!(a.clone().reshape(vec![3]).unwrap_err().to_string().contains("invalid for input of size 2"));
        assert_eq!(a.clone().into_data().len(), 2);
    }

    #[test]
    fn equal_means_stored_the_same() {
        let t = |x: f32| Tensor::vector(vec![1.0, x]);
        assert_ne!(t(0.0), t(-0.0), "a view must redraw 0. as -0.");
        assert_eq!(t(f32::NAN), t(f32::NAN), "a state holding a NaN equals itself");
        assert_ne!(t(1.0), Tensor::new(vec![2, 1], vec![1.0, 1.0]).unwrap());
    }

    #[test]
    fn every_float32_survives_a_save_bit_for_bit() {
        // A spread over all bit patterns: subnormals, extremes and everything between.
        let xs: Vec<f32> = (0..u32::MAX / 20_011).map(|k| f32::from_bits(k * 20_011)).collect();
        let json = serde_json::to_string(&Tensor::vector(xs.clone())).unwrap();
        let back: Tensor = serde_json::from_str(&json).unwrap();
        for (a, b) in xs.iter().zip(back.data()) {
            assert!(a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()), "{a:e} came back as {b:e}");
        }
        // Written as float32's shortest text, not as the longer text of its f64.
        assert_eq!(serde_json::to_string(&Tensor::vector(vec![0.1])).unwrap(), r#"{"shape":[1],"data":[0.1]}"#);
    }

    #[test]
    fn numbers_a_save_never_holds_are_refused_with_the_reason() {
        let read = |data: &str| serde_json::from_str::<Tensor>(&format!(r#"{{"shape":[1],"data":[{data}]}}"#));
        assert!(read("1e39")
            .unwrap_err()
            .to_string()
            .contains("1000000000000000000000000000000000000000 is out of float32's range"));
        assert!(read("-1e300").is_err());
        assert!(read(r#""1e39""#).unwrap_err().to_string().contains(r#""1e39" is not a number"#));
        assert!(read(r#""<b>x</b>""#).is_err());
        assert!(read("NaN").is_err(), "JSON has no bare NaN");
        assert!(read(r#""NaN""#).unwrap().data()[0].is_nan());
        assert_eq!(read("3.4e38").unwrap().data(), [3.4e38]);
        assert_eq!(read("1e-46").unwrap().data(), [0.0], "underflow is PyTorch's zero");
        let ids = |data: &str| serde_json::from_str::<Ids>(&format!(r#"{{"shape":[1],"data":[{data}]}}"#));
        assert!(ids("1.5").is_err() && ids(r#""3""#).is_err() && ids("1e30").is_err());
    }

    #[test]
    fn each_kind_of_json_number_reads_as_the_number_it_is() {
        let read = |data: &str| serde_json::from_str::<Tensor>(&format!(r#"{{"shape":[4],"data":[{data}]}}"#));
        let t = read(r#"-3, 2.5, "-inf", 18446744073709551615"#).unwrap();
        assert_eq!(t.data()[..2], [-3.0, 2.5]);
        assert_eq!(t.data()[2], f32::NEG_INFINITY);
        assert_eq!(t.data()[3], 18446744073709551615.0, "past int64: read as the float it is");
        let ids = |data: &str| serde_json::from_str::<Ids>(&format!(r#"{{"shape":[2],"data":[{data}]}}"#));
        assert_eq!(ids("9223372036854775807, -9223372036854775808").unwrap().data(), [i64::MAX, i64::MIN]);
        let past = ids("9223372036854775808, 0").unwrap_err().to_string();
        assert!(past.contains("9223372036854776000 is not a whole number in int64's range"), "{past}");
        for other in ["true", "null", "[1]", r#"{"x":1}"#] {
            let why = read(&format!("{other}, 1, 2, 3")).unwrap_err().to_string();
            assert!(why.contains("expected a number, or nan, inf or -inf as text"), "{other}: {why}");
        }
    }
}
