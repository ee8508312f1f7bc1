//! Where a saved table's set cells are: runs `[first flat index, count]`, in order. Saved as
//! base64 of each run's gap from the end of the run before and its count, in LEB128: grown to
//! 50,000 × 64 from 5 columns, 50,000 runs take 133 KB, where as JSON pairs they took 600 KB
//! and a quarter of the time of writing or reading the save. Saves from before, an array of
//! pairs, still read. LEB128 is written here: the `leb128` crate, through `std::io`, cost every
//! scene's link 0.9 KB gzipped more.

use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine;
use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Default, PartialEq)]
pub(super) struct Runs(pub Vec<[usize; 2]>);

impl Runs {
    /// The runs of `set`, flat indices in increasing order.
    pub fn of(set: &[usize]) -> Self {
        let mut runs: Vec<[usize; 2]> = Vec::new();
        for &i in set {
            match runs.last_mut() {
                Some([first, count]) if *first + *count == i => *count += 1,
                _ => runs.push([i, 1]),
            }
        }
        Runs(runs)
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(3 * self.0.len());
        let mut end = 0;
        for &[first, count] in &self.0 {
            write_leb128(&mut bytes, first - end);
            write_leb128(&mut bytes, count);
            end = first + count;
        }
        bytes
    }

    /// The runs `bytes` hold, or `None` where they are damaged: cut short, or past any index.
    fn from_bytes(mut bytes: &[u8]) -> Option<Self> {
        let (mut runs, mut end) = (Vec::new(), 0usize);
        while !bytes.is_empty() {
            let (gap, count) = (leb128(&mut bytes)?, leb128(&mut bytes)?);
            let first = end.checked_add(gap)?;
            end = first.checked_add(count)?;
            runs.push([first, count]);
        }
        Some(Runs(runs))
    }
}

/// `n` in LEB128: seven bits a byte, low first, the top bit set while more follow.
fn write_leb128(bytes: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        bytes.push(n as u8 | 0x80);
        n >>= 7;
    }
    bytes.push(n as u8);
}

/// The number `bytes` start with, taken off them; `None` if cut short or past `usize`.
fn leb128(bytes: &mut &[u8]) -> Option<usize> {
    let mut n = 0usize;
    for shift in (0..usize::BITS).step_by(7) {
        let (&byte, rest) = bytes.split_first()?;
        *bytes = rest;
        let low = usize::from(byte & 0x7f);
        n |= low.checked_shl(shift).filter(|m| m >> shift == low)?;
        if byte < 0x80 {
            return Some(n);
        }
    }
    None
}

impl Serialize for Runs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&STANDARD_NO_PAD.encode(self.to_bytes()))
    }
}

impl<'de> Deserialize<'de> for Runs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> Visitor<'de> for Either {
            type Value = Runs;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("runs of set cells, in base64 or as [first, count] pairs")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Runs, E> {
                let bytes = STANDARD_NO_PAD.decode(text).ok();
                bytes.and_then(|b| Runs::from_bytes(&b)).ok_or_else(|| E::custom("its runs of set cells are damaged"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Runs, A::Error> {
                let mut runs = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                while let Some(run) = seq.next_element()? {
                    runs.push(run);
                }
                Ok(Runs(runs))
            }
        }
        d.deserialize_any(Either)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_read_back_as_written_and_as_saved_before() {
        let set: Vec<usize> = [0, 1, 2, 7].into_iter().chain(300..305).chain([usize::MAX - 1]).collect();
        let runs = Runs::of(&set);
        assert_eq!(runs.0, vec![[0, 3], [7, 1], [300, 5], [usize::MAX - 1, 1]]);
        let json = serde_json::to_string(&runs).unwrap();
        assert!(json.starts_with('"'), "{json}");
        assert_eq!(serde_json::from_str::<Runs>(&json).unwrap(), runs);
        assert_eq!(serde_json::from_str::<Runs>("[[0,3],[7,1],[300,5]]").unwrap().0, vec![[0, 3], [7, 1], [300, 5]]);
        assert_eq!(serde_json::from_str::<Runs>(r#""""#).unwrap(), Runs::default());
        assert_eq!(serde_json::to_string(&Runs::default()).unwrap(), r#""""#);
    }

    #[test]
    fn the_rows_kept_through_a_resize_take_a_few_bytes_each() {
        // Grown to 50,000 × 64 from 5 columns: each row's first 5 cells.
        let set: Vec<usize> = (0..50_000).flat_map(|r| (0..5).map(move |c| r * 64 + c)).collect();
        let json = serde_json::to_string(&Runs::of(&set)).unwrap();
        assert!(json.len() < 140_000, "{} bytes", json.len());
        assert_eq!(serde_json::from_str::<Runs>(&json).unwrap().0.len(), 50_000);
    }

    #[test]
    fn damaged_runs_are_refused_never_wrapped() {
        let refused = |json: &str| serde_json::from_str::<Runs>(json).unwrap_err().to_string();
        assert!(refused(r#""*""#).contains("runs of set cells are damaged"));
        // A gap with no count after it, a byte that says more follows and none does.
        assert!(refused(&format!("{:?}", STANDARD_NO_PAD.encode([3]))).contains("damaged"));
        assert!(refused(&format!("{:?}", STANDARD_NO_PAD.encode([0x80]))).contains("damaged"));
        // A run whose end is past any index, and a number past any usize.
        let mut past = Vec::new();
        [usize::MAX, 2].into_iter().for_each(|n| write_leb128(&mut past, n));
        assert!(refused(&format!("{:?}", STANDARD_NO_PAD.encode(past))).contains("damaged"));
        let mut long = vec![0xff; 10];
        long.extend([0x7f, 0]);
        assert!(refused(&format!("{:?}", STANDARD_NO_PAD.encode(long))).contains("damaged"));
    }
}
