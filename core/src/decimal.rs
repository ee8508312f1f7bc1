//! A decimal's text to the nearest double, as `str::parse::<f64>` reads it (the tests hold it to
//! that, bit for bit). Core's parser carries a 10 KB table of powers of five, some 10 KB gzipped
//! on every scene's link for the few numbers a learner types; this reads them with one exact
//! division of small big integers instead, and with one float operation where that is exact.
//! The same integers round `format`'s figures exactly, where Rust's float formatting would.

use std::cmp::Ordering;

/// `[+-]digits[.digits][(e|E)[+-]digits]`, with a digit on at least one side of the point, as
/// the nearest double (ties to even); `None` for any other text. `inf` and `nan` are the
/// caller's to read.
pub fn parse(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        rest => (false, rest),
    };
    let (digits, exponent) = decimal(body)?;
    let magnitude = nearest(&digits, exponent);
    Some(if negative { -magnitude } else { magnitude })
}

/// |x| = m · 2^e, for a finite x.
pub(crate) fn parts(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let (biased, fraction) = ((bits >> 52) as i32 & 0x7ff, bits & ((1 << 52) - 1));
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    }
}

/// m · 2^e · 10^p rounded to a whole number, half to even, for one under 2^53 (`format`'s
/// figures with an exponent).
pub(crate) fn rounded(m: u64, e: i32, p: i32) -> u64 {
    let (mut num, mut den) = (Big::of(m), Big(vec![1]));
    if p >= 0 {
        num.mul_pow10(p as u64);
    } else {
        den.mul_pow10(p.unsigned_abs().into());
    }
    let (q, rem, den) = divide(&num, &den, e.into());
    half_to_even(q, &rem, &den)
}

/// ⌊num · 2^k / den⌋ (under 2^54), its remainder, and the divisor that remainder is of.
fn divide(num: &Big, den: &Big, k: i64) -> (u64, Big, Big) {
    let (num, den) = if k >= 0 { (num.shl(k as usize), den.clone()) } else { (num.clone(), den.shl(-k as usize)) };
    let (q, rem) = num.div(&den);
    (q, rem, den)
}

/// The quotient q of a division rounded by its remainder, half to even.
fn half_to_even(q: u64, rem: &Big, den: &Big) -> u64 {
    match rem.shl(1).cmp(den) {
        Ordering::Greater => q + 1,
        Ordering::Equal => q + (q & 1),
        Ordering::Less => q,
    }
}

/// The decimal digits of the whole number m · 2^e.
pub(crate) fn integer(m: u64, e: u32) -> String {
    let mut big = Big::of(m).shl(e as usize);
    let mut groups = Vec::new();
    while !big.0.is_empty() {
        groups.push(big.div_small(1_000_000_000));
    }
    let top = groups.pop().unwrap_or(0).to_string();
    groups.iter().rev().fold(top, |text, g| text + &format!("{g:09}"))
}

/// The significant digits (no leading or trailing zeros) and the power of ten that scales them.
fn decimal(body: &[u8]) -> Option<(Vec<u8>, i64)> {
    let (mut digits, mut exponent) = (Vec::new(), 0i64);
    let (mut any, mut point, mut i) = (false, false, 0);
    while let Some(&b) = body.get(i) {
        match b {
            b'0'..=b'9' => {
                any = true;
                if b != b'0' || !digits.is_empty() {
                    digits.push(b - b'0');
                }
                exponent -= i64::from(point);
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if let Some(&e) = body.get(i) {
        let (sign, rest) = match (e | 0x20 == b'e').then(|| &body[i + 1..])? {
            [b'-', rest @ ..] => (-1, rest),
            [b'+', rest @ ..] => (1, rest),
            rest => (1, rest),
        };
        if rest.is_empty() || !rest.iter().all(u8::is_ascii_digit) {
            return None;
        }
        // Past 10^±(2^50) any value is 0 or inf, however many digits it has.
        exponent += sign * rest.iter().fold(0i64, |n, d| (n * 10 + i64::from(d - b'0')).min(1 << 50));
    }
    while digits.last() == Some(&0) {
        digits.pop();
        exponent += 1;
    }
    Some((digits, exponent))
}

/// `digits × 10^exponent`, rounded to the nearest double, ties to even.
fn nearest(digits: &[u8], exponent: i64) -> f64 {
    let n = digits.len() as i64;
    // The value lies in [10^(n + exponent - 1), 10^(n + exponent)): under half the least
    // subnormal (2.5e-324), or at least 1e309.
    if n == 0 || n + exponent <= -324 {
        return 0.0;
    }
    if n + exponent >= 310 {
        return f64::INFINITY;
    }
    // Both exact (under 2^53 and 10^22), so one rounding: the quotient's or product's.
    if n <= 15 && exponent.abs() <= 22 {
        let d = digits.iter().fold(0u64, |v, &d| v * 10 + u64::from(d)) as f64;
        let p = (0..exponent.abs()).fold(1.0, |p, _| p * 10.0);
        return if exponent < 0 { d / p } else { d * p };
    }
    let mut num = Big::of_digits(digits);
    let mut den = Big(vec![1]);
    if exponent > 0 {
        num.mul_pow10(exponent as u64);
    } else {
        den.mul_pow10(exponent.unsigned_abs());
    }
    // q = ⌊num · 2^k / den⌋ of 53 bits, q · 2^-k the double; k no more than a subnormal's 1074.
    let mut k = (53 - (num.bits() as i64 - den.bits() as i64)).min(1074);
    loop {
        let (q, rem, den) = divide(&num, &den, k);
        if q >= 1 << 53 {
            k -= 1;
            continue;
        }
        let mut q = half_to_even(q, &rem, &den);
        if q == 1 << 53 {
            (q, k) = (1 << 52, k - 1);
        }
        // Biased exponent 1075 - k for 2^52 ≤ q < 2^53; under 2^52 only at k = 1074, a subnormal.
        if 1075 - k >= 2047 {
            return f64::INFINITY;
        }
        return f64::from_bits(if q >= 1 << 52 { ((1075 - k) as u64) << 52 | (q - (1 << 52)) } else { q });
    }
}

/// An unsigned integer as base-2^32 words, least significant first, no zero words on top.
#[derive(Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn of(m: u64) -> Big {
        let mut big = Big(vec![m as u32, (m >> 32) as u32]);
        big.trim();
        big
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// Nine digits at a time.
    fn of_digits(digits: &[u8]) -> Big {
        let mut big = Big(Vec::new());
        for chunk in digits.chunks(9) {
            big.mul_add(10u32.pow(chunk.len() as u32), chunk.iter().fold(0, |v, &d| v * 10 + u32::from(d)));
        }
        big
    }

    /// self · m + a.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for w in &mut self.0 {
            let t = u64::from(*w) * u64::from(m) + carry;
            (*w, carry) = (t as u32, t >> 32);
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut e: u64) {
        while e > 0 {
            let step = e.min(9);
            self.mul_add(10u32.pow(step as u32), 0);
            e -= step;
        }
    }

    fn bits(&self) -> usize {
        self.0.last().map_or(0, |top| 32 * self.0.len() - top.leading_zeros() as usize)
    }

    fn shl(&self, k: usize) -> Big {
        let (words, bits) = (k / 32, k % 32);
        let mut out = vec![0; words];
        let mut carry = 0;
        for &w in &self.0 {
            out.push(w << bits | carry);
            carry = if bits == 0 { 0 } else { w >> (32 - bits) };
        }
        out.push(carry);
        let mut big = Big(out);
        big.trim();
        big
    }

    /// self − other, for other ≤ self.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, w) in self.0.iter_mut().enumerate() {
            let t = i64::from(*w) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            (*w, borrow) = (t as u32, i64::from(t < 0));
        }
        self.trim();
    }

    /// ⌊self / den⌋ and the remainder, for a quotient under 2^54: bit by bit, den · 2^i taken
    /// away from the top i down.
    fn div(mut self, den: &Big) -> (u64, Big) {
        let (mut part, mut q) = (den.shl(53), 0);
        for i in (0..54).rev() {
            if self >= part {
                self.sub(&part);
                q |= 1 << i;
            }
            part.shr1();
        }
        (q, self)
    }

    /// self / d in place; the remainder.
    fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for w in self.0.iter_mut().rev() {
            let t = rem << 32 | u64::from(*w);
            (*w, rem) = ((t / u64::from(d)) as u32, t % u64::from(d));
        }
        self.trim();
        rem as u32
    }

    fn shr1(&mut self) {
        let mut carry = 0;
        for w in self.0.iter_mut().rev() {
            (*w, carry) = (*w >> 1 | carry, *w << 31);
        }
        self.trim();
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn same(text: &str) {
        let want = text.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(
            parse(text).map(f64::to_bits),
            want,
            "{text}: {:?} against Rust's {:?}",
            parse(text),
            text.parse::<f64>().ok()
        );
    }

    #[test]
    fn reads_what_rust_reads_to_the_bit() {
        for text in [
            "0",
            "-0",
            "+0",
            "0.0",
            "00.000e-999999999999",
            "1",
            "-1",
            "0.1",
            "0.3",
            "1.5",
            "1.",
            ".5",
            "-.5e-3",
            "+1e+5",
            "1E5",
            "123456789012345",
            "1234567890123456",
            "12345678901234567890",
            "1e22",
            "1e23",
            "9007199254740992",
            "9007199254740993",
            "9007199254740995",
            "9007199254740993.0000000000000000000000000000000001",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "2.225073858507201136057409796709131975934819546351645648e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-324",
            "3e-324",
            "1e-400",
            "1e400",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "179769313486231580793728971405301e276",
            "0.000000000000000000000000000000000000000000001e45",
            "3.4028235e38",
            "3.4028236e38",
            "1.4e-45",
            "0.6957",
            "-1.8061",
            "7.038531e-26",
            "1e-05",
            "18446744073709551616",
            "1e0000000000000000000000000000005",
            "1e-99999999999999999999999",
            "1e99999999999999999999999",
        ] {
            same(text);
        }
        same(&format!("0.{}1", "0".repeat(800)));
        same(&format!("1{}e-900", "0".repeat(900)));
        same(&format!("{}e-5000", "7".repeat(5000)));
    }

    #[test]
    fn refuses_what_rust_refuses() {
        for text in [
            "", ".", "+", "-", "e5", ".e5", "1e", "1e+", "1e-", "1.2.3", "1e5.5", "--1", "+-1", "1 ", " 1", "0x10",
            "1_0", "1e5e5", "1,5", "١",
        ] {
            assert_eq!(parse(text), None, "{text}");
            assert!(text.parse::<f64>().is_err(), "{text}");
        }
    }
}
