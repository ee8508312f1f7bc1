//! `fma(a, b, c)` in float32, `a*b+c` rounded once, as fast as wasm allows.
//!
//! Wasm has no fused multiply-add: `f32::mul_add` there is a call into a correctly rounded
//! software one. Through f64 it is a few instructions: the product of two f32s is exact in f64
//! (24 + 24 bits of 53), so only the sum rounds, and rounding that f64 to f32 gives the fused
//! result unless the f64 landed exactly halfway between two f32s (a double rounding could then
//! go the wrong way) or outside f32's normal range (where f32's spacing changes). Those rare
//! cases go to `mul_add`, which is exact everywhere.

/// f64 bits of f32's smallest normal, 2^-126.
const MIN_NORMAL: u64 = 0x3810_0000_0000_0000;
/// f64 bits of f32::MAX.
const MAX: u64 = 0x47EF_FFFF_E000_0000;
/// The 29 bits an f64 has beyond an f32's 24, and their pattern exactly halfway.
const EXTRA: u64 = (1 << 29) - 1;
const HALF: u64 = 1 << 28;

/// `a*b+c` rounded once to the nearest f32 (ties to even): the same bits as `a.mul_add(b, c)`.
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    let r = f64::from(a) * f64::from(b) + f64::from(c);
    let bits = r.to_bits();
    let abs = bits & !(1 << 63);
    let normal = (MIN_NORMAL < abs && abs < MAX) || abs == 0;
    if normal && bits & EXTRA != HALF {
        r as f32
    } else {
        a.mul_add(b, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_mt::Mt;

    fn same(a: f32, b: f32, c: f32) {
        let (got, want) = (fma(a, b, c), a.mul_add(b, c));
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {want:e}"
        );
    }

    #[test]
    fn the_bounds_are_f32s_in_f64() {
        assert_eq!(MIN_NORMAL, f64::from(f32::MIN_POSITIVE).to_bits());
        assert_eq!(MAX, f64::from(f32::MAX).to_bits());
    }

    /// Where a double rounding goes wrong: (1 + 2^-12)² = 1 + 2^-11 + 2^-24 is exactly halfway
    /// between two f32s; 2^-60 more is past it, so the fused result rounds up, but the f64 sum
    /// drops the 2^-60 and the f32 rounding then goes to even, down.
    #[test]
    fn a_sum_rounded_onto_a_halfway_point_is_still_fused() {
        let (a, c) = (1.0 + 2f32.powi(-12), 2f32.powi(-60));
        let plain = (f64::from(a) * f64::from(a) + f64::from(c)) as f32;
        assert_ne!(plain, a.mul_add(a, c), "the case a plain f64 sum gets wrong");
        for (a, b, c) in
            [(a, a, c), (a, a, -c), (-a, a, -c), (a, -a, c), (2f32.powi(-24), 1.0, 1.0), (3.0, 2f32.powi(-25), 1.0)]
        {
            same(a, b, c);
        }
    }

    #[test]
    fn zeros_infinities_nans_subnormals_and_overflow() {
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::MIN_POSITIVE / 3.0,
            1e-45,
            f32::MAX,
            -f32::MAX,
            1.5e19,
            3.4e-20,
            0.1,
            -0.1,
        ];
        for &a in &specials {
            for &b in &specials {
                for &c in &specials {
                    same(a, b, c);
                }
            }
        }
    }

    /// Random bits of every kind, and the operands the draws and SGD give: numbers of like size.
    #[test]
    fn millions_of_random_operands() {
        let mut mt = Mt::new(5489);
        let near = |mt: &mut Mt| f32::from_bits((mt.next_u32() & 0x00FF_FFFF) | 0x3F00_0000) - 0.75;
        for _ in 0..1_000_000 {
            let (a, b, c) =
                (f32::from_bits(mt.next_u32()), f32::from_bits(mt.next_u32()), f32::from_bits(mt.next_u32()));
            same(a, b, c);
            let (a, b, c) = (near(&mut mt), near(&mut mt), near(&mut mt));
            same(a, b, c);
            same(a, b, c * 2f32.powi(-20));
            same(a * 1e-30, b * 1e-9, c * 1e-38);
        }
    }
}
