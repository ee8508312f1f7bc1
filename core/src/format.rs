//! Numbers as PyTorch prints them: 4 decimals by default (`-0.0000` keeps its sign), `nan`,
//! `inf`, `-inf`; and the full float32 (the shortest text that reads back to the same bits).
//! Counts in words with their noun: `1 row`, `3 rows`; and with their thousands marked.
//!
//! Written as Rust's own `{:.4}`, `{}` and `{:.1e}` write them (the tests hold them to that), but
//! without Rust's float formatting, whose code and tables were ~7 KB gzipped on every scene's link:
//! exact integer arithmetic rounds, ryu finds the shortest digits.

use crate::codegen::float::plain;
use crate::decimal;
use wide::u32x4;

/// `0.6957`, `-1.8061`, `-0.0000`, `nan`, `-inf`.
pub fn short(x: f32) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        fixed(f64::from(x), 4)
    }
}

/// Every digit a float32 needs to round-trip: `0.69572306`.
pub fn full(x: f32) -> String {
    match x {
        _ if x.is_nan() => "nan".into(),
        f32::INFINITY => "inf".into(),
        f32::NEG_INFINITY => "-inf".into(),
        _ => plain(x, 10),
    }
}

/// A double as Rust's `{x}` writes it: its shortest digits, plain (`0.000412`, `3`, `-0`), `NaN`,
/// `inf`.
pub fn display(x: f64) -> String {
    if x.is_finite() {
        plain(x, 18)
    } else {
        not_finite_text(x)
    }
}

/// `x` with `decimals` (up to 9) digits after the point, as Rust's `{x:.decimals$}` writes it:
/// its exact value rounded half to even, a sign on whatever is negative, `-0.0` too.
pub fn fixed(x: f64, decimals: u32) -> String {
    if !x.is_finite() {
        return not_finite_text(x);
    }
    let (m, e) = decimal::parts(x);
    let digits = match e {
        // A whole number: its digits, then zeros.
        0..75 => (u128::from(m) << e).to_string() + &"0".repeat(decimals as usize),
        75.. => decimal::integer(m, e.unsigned_abs()) + &"0".repeat(decimals as usize),
        _ => {
            // m · 10^decimals < 2^83: shifted further, it is under half and rounds to 0.
            let (n, s) = (u128::from(m) * 10u128.pow(decimals), e.unsigned_abs());
            let q = if s > 83 { 0 } else { n >> s };
            let (rem, half) = if s > 83 { (0, 1) } else { (n & ((1 << s) - 1), 1 << (s - 1)) };
            (q + u128::from(rem > half || (rem == half && q & 1 == 1))).to_string()
        }
    };
    let digits = format!("{digits:0>width$}", width = decimals as usize + 1);
    let (whole, fraction) = digits.split_at(digits.len() - decimals as usize);
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// `x` with `decimals` (up to 9) digits after the first, and its power of ten, as Rust's
/// `{x:.decimals$e}` writes it: `1.2e-5`, `3.9e38`, `0.0e0`.
pub fn fixed_exp(x: f64, decimals: u32) -> String {
    if !x.is_finite() {
        return not_finite_text(x);
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let (low, high) = (10u64.pow(decimals), 10u64.pow(decimals + 1));
    let (q, k) = if x == 0.0 {
        (0, 0)
    } else {
        let (m, e) = decimal::parts(x);
        // log10 finds the power within one; the rounded digits settle it.
        let mut k = x.abs().log10().floor() as i32;
        loop {
            match decimal::rounded(m, e, decimals as i32 - k) {
                q if q >= high => k += 1,
                q if q < low => k -= 1,
                q => break (q, k),
            }
        }
    };
    let digits = format!("{q:0>width$}", width = decimals as usize + 1);
    let (first, rest) = digits.split_at(1);
    let point = if decimals == 0 { "" } else { "." };
    format!("{sign}{first}{point}{rest}e{k}")
}

/// As Rust writes them: `NaN`, `inf`, `-inf`.
fn not_finite_text(x: f64) -> String {
    match x {
        _ if x.is_nan() => "NaN".into(),
        _ if x > 0.0 => "inf".into(),
        _ => "-inf".into(),
    }
}

/// A count with its thousands marked, as read aloud: `9,600,000`.
pub fn grouped(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and its noun, singular for 1: `1 row`, `0 rows`, `3 ids`. The nouns here all add an s.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// What a float tensor's numbers come to at a glance: the largest finite magnitude (0 if none;
/// a heat map's colour scale), whether every number is finite (whether `not_finite` has
/// anything to say), and how many are zero (0.0 or -0.0; a dense gradient's untouched part).
/// Found once per tensor (`Tensor::extent`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Extent {
    pub largest: f32,
    pub finite: bool,
    pub zeros: usize,
}

impl Extent {
    /// One pass over the numbers' bits, four lanes at a time: without its sign bit a float's
    /// bits order as its magnitude does, are at least inf's exactly when it is inf or nan, and
    /// are 0 when it is zero. A table at real scale holds 3.2 M numbers; two float passes over
    /// it took ~3 ms in the page, this one 0.4.
    pub fn of(values: &[f32]) -> Extent {
        const MAGNITUDE: u32 = 0x7fff_ffff;
        const INF: u32 = 0x7f80_0000;
        let (chunks, tail) = values.as_chunks::<4>();
        // Made once, outside the loop: at the core's opt-level "s" a splat in it is not
        // hoisted, and the pass takes 20 times as long.
        let (mask, inf, one) = (u32x4::splat(MAGNITUDE), u32x4::splat(INF), u32x4::splat(1));
        let (mut top, mut odd, mut zeros) = (u32x4::ZERO, u32x4::ZERO, u32x4::ZERO);
        for chunk in chunks {
            let magnitude = u32x4::new(chunk.map(f32::to_bits)) & mask;
            let not_finite = magnitude.simd_ge(inf);
            top = top.max(magnitude & !not_finite);
            odd |= not_finite;
            zeros += magnitude.simd_eq(u32x4::ZERO) & one;
        }
        let tail_top = tail.iter().map(|v| v.to_bits() & MAGNITUDE).filter(|&m| m < INF);
        let top = top.to_array().into_iter().chain(tail_top).max().unwrap_or(0);
        let zeros = zeros.to_array().into_iter().map(|n| n as usize).sum::<usize>();
        Extent {
            largest: f32::from_bits(top),
            finite: !odd.any() && tail.iter().all(|v| v.is_finite()),
            zeros: zeros + tail.iter().filter(|&&x| x == 0.0).count(),
        }
    }

    /// `n` zeros' extent (an empty tensor's when `n` is 0).
    pub fn zeros(n: usize) -> Extent {
        Extent { largest: 0.0, finite: true, zeros: n }
    }

    /// The extent of two parts as one tensor: an op finds its result's part by part, while each
    /// part is still in cache.
    pub fn and(self, other: Extent) -> Extent {
        Extent {
            largest: self.largest.max(other.largest),
            finite: self.finite && other.finite,
            zeros: self.zeros + other.zeros,
        }
    }
}

/// What a tensor's nan and inf cells mean, said out loud where they show: `None` when every
/// value is finite.
pub fn not_finite(values: &[f32]) -> Option<String> {
    if values.iter().all(|v| v.is_finite()) {
        return None;
    }
    let nan = values.iter().filter(|v| v.is_nan()).count();
    let inf = values.iter().filter(|v| v.is_infinite()).count();
    let cells = |n: usize, what: &str| format!("{} {} {what}", count(n, "cell"), if n == 1 { "is" } else { "are" });
    const INF: &str = "inf: past float32's largest number, about 3.4e38, or typed as inf";
    const NAN: &str = "nan (not a number): typed, or made by inf − inf or 0 × inf; every sum it enters is nan too";
    match (nan, inf) {
        (0, 0) => None,
        (0, inf) => Some(format!("{}.", cells(inf, INF))),
        (nan, 0) => Some(format!("{}.", cells(nan, NAN))),
        (nan, inf) => Some(format!("{}. {}.", cells(inf, INF), cells(nan, NAN))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_and_inf_are_said_out_loud() {
        assert_eq!(not_finite(&[0.5, -2.0]), None);
        let one = not_finite(&[f32::NAN, 1.0]).unwrap();
        assert!(one.starts_with("1 cell is nan (not a number)"), "{one}");
        let both = not_finite(&[f32::INFINITY, f32::NEG_INFINITY, f32::NAN]).unwrap();
        assert!(both.starts_with("2 cells are inf: past float32's largest number"), "{both}");
        assert!(both.contains("1 cell is nan"), "{both}");
    }

    #[test]
    fn the_extent_skips_nan_and_inf_in_lanes_and_tail() {
        let extent = |v: &[f32]| {
            let e = Extent::of(v);
            (e.largest, e.finite)
        };
        assert_eq!(extent(&[]), (0.0, true));
        assert_eq!(extent(&[-0.0]), (0.0, true));
        // 19 values: four chunks of four and a tail of three, the largest in each place in turn.
        for at in 0..19 {
            let mut v: Vec<f32> = (0..19).map(|i| (i as f32 - 9.0) / 10.0).collect();
            v[at] = -7.5;
            assert_eq!(extent(&v), (7.5, true), "largest at {at}");
            for odd in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let mut w = v.clone();
                w[(at + 5) % 19] = odd;
                assert_eq!(extent(&w), (7.5, false), "{odd} at {}", (at + 5) % 19);
            }
        }
        assert_eq!(extent(&[f32::NAN; 9]), (0.0, false));
        assert_eq!(extent(&[f32::MAX, f32::MIN]).0, f32::MAX);
    }

    #[test]
    fn zeros_are_counted_with_their_sign_in_lanes_and_tail() {
        for n in [0, 3, 4, 9, 10] {
            let values: Vec<f32> = (0..n).map(|i| [0.0, -0.0, f32::NAN, 1e-45, -2.0][i % 5]).collect();
            let want = values.iter().filter(|&&x| x == 0.0).count();
            assert_eq!(Extent::of(&values).zeros, want, "{n} values");
        }
        assert_eq!(Extent::of(&[0.0; 21]).zeros, 21);
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count(1, "row"), "1 row");
        assert_eq!(count(0, "row"), "0 rows");
        assert_eq!(count(3, "id"), "3 ids");
    }

    #[test]
    fn prints_like_pytorch() {
        assert_eq!(short(0.695_723_1), "0.6957");
        assert_eq!(short(-1.806_08), "-1.8061");
        assert_eq!(short(-0.0), "-0.0000");
        assert_eq!(short(-0.000_01), "-0.0000");
        assert_eq!(short(f32::NAN), "nan");
        assert_eq!(short(f32::INFINITY), "inf");
        assert_eq!(short(f32::NEG_INFINITY), "-inf");
        assert_eq!(full(0.1), "0.1");
        assert_eq!(full(-0.0), "-0");
        assert_eq!(full(f32::NAN), "nan");
    }

    /// Random bits (xorshift).
    fn bits(mut state: u64) -> impl Iterator<Item = u64> {
        std::iter::repeat_with(move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        })
    }

    /// Bit patterns spread over every sign, exponent and mantissa, and the float32s whose exact
    /// decimal is short (halfway cases of the shortest digits among them).
    fn float32s() -> impl Iterator<Item = f32> {
        let random = bits(0x9e37_79b9_7f4a_7c15).map(|b| f32::from_bits(b as u32));
        let short = (1..20_000).flat_map(|n| [n as f32 / 1024.0, n as f32 * 1024.0, n as f32 * 0.5e6]);
        let edges = [0.0, -0.0, 1.0, 0.5, 1e-45, f32::MIN_POSITIVE, f32::MAX, f32::MIN, 3.4e38, 1e-5, 2f32.powi(-20)];
        random.take(40_000).chain(short).chain(edges)
    }

    #[test]
    fn the_same_text_as_rusts_float_formatting() {
        for x in float32s() {
            assert_eq!(short(x), if x.is_nan() { "nan".into() } else { format!("{x:.4}") }, "{:#x}", x.to_bits());
            assert_eq!(full(x), if x.is_nan() { "nan".into() } else { format!("{x}") }, "{:#x}", x.to_bits());
        }
        let random = bits(0x2545_f491_4f6c_dd1d).map(f64::from_bits);
        // Doubles whose exact decimal is short (halfway cases among them), whole ones past 2^53.
        let short =
            (1..8_000u64).flat_map(|n| [n as f64 / 1024.0, (n << 40) as f64 * 5.0, 9_007_199_254_740_993.0 + n as f64]);
        let edges = [0.125, 2.5, -0.05, 1e21, 1e23, 1e300, -1e-300, f64::MAX, 5e-324, 999.95, 0.000412, 5e-7];
        let doubles = float32s().map(f64::from).chain(random.take(15_000)).chain(short).chain(edges);
        for x in doubles {
            assert_eq!(display(x), format!("{x}"), "{:#x}", x.to_bits());
            for d in [0, 1, 3, 4, 6, 9] {
                assert_eq!(fixed(x, d), format!("{x:.*}", d as usize), "{x:e} to {d}");
                assert_eq!(fixed_exp(x, d), format!("{x:.*e}", d as usize), "{x:e} to {d}");
            }
        }
    }

    /// Every float32 once (some minutes): `cargo test --release -p rowflow-core --lib -- --ignored every_float32`.
    #[test]
    #[ignore]
    fn every_float32() {
        for bits in 0..=u32::MAX {
            let x = f32::from_bits(bits);
            if !x.is_nan() {
                assert_eq!(short(x), format!("{x:.4}"), "{bits:#x}");
                assert_eq!(full(x), format!("{x}"), "{bits:#x}");
            }
        }
    }
}
