//! Float32s as Python literals that read back to the same bits. Copy code of One-hot at 50,000 ×
//! 64 writes 250,000 of them, and Rust's own float formatting was most of its time in the page:
//! the digits come from `ryu` (64-bit arithmetic only, which WebAssembly has), laid out as Rust's
//! `{}` and `{:e}` lay them out, straight into the script.

use crate::decimal;
use std::fmt::Write;

/// A float32 as a Python literal that `torch.tensor` reads back to the same bits: the shortest
/// decimal of the float32 when Python's detour through a double keeps it, else the double's
/// shortest decimal (which always does). `float('nan')`, `float('inf')` and `-0.0` as such.
pub fn float(x: f32) -> String {
    let mut out = String::new();
    write(&mut out, x);
    out
}

/// [`float`], at the end of `out`.
pub(super) fn write(out: &mut String, x: f32) {
    if x.is_nan() {
        return out.push_str("float('nan')");
    }
    if x.is_infinite() {
        return out.push_str(if x > 0.0 { "float('inf')" } else { "-float('inf')" });
    }
    let start = out.len();
    let exponent = exponent(f64::from(x.abs()));
    let exact = exact_decimal(f64::from(x), 10);
    match ryu::Buffer::new().format_finite(x) {
        // From 1e-5 to 1e13 ryu writes the digits plainly, past them with an exponent, as Rust
        // does (an integer with `.0`); where Python's bounds are not ryu's, or a tie is Rust's
        // to break, laid out.
        text if exact.is_none() && text.contains('e') == exponent => out.push_str(text),
        text => {
            laid_out(out, text, exponent, exact);
            point(out, start);
        }
    }
    // Python reads the literal as a double first, which may land on a float32 midpoint.
    if decimal::parse(&out[start..]).is_none_or(|d| (d as f32).to_bits() != x.to_bits()) {
        out.truncate(start);
        laid_out(out, ryu::Buffer::new().format_finite(f64::from(x)), exponent, exact_decimal(f64::from(x), 18));
        point(out, start);
    }
}

/// A finite float's shortest digits as Rust's `{}` writes them: plain, `1234` without a point.
pub(crate) fn plain<F: ryu::Float + Into<f64>>(x: F, most: u32) -> String {
    let mut out = String::new();
    laid_out(&mut out, ryu::Buffer::new().format_finite(x), false, exact_decimal(x.into(), most));
    out
}

/// Whether Python would write this magnitude with an exponent.
fn exponent(abs: f64) -> bool {
    abs != 0.0 && !(1e-4..1e16).contains(&abs)
}

/// The exact value of |x| as digits × 10^power, when it is a decimal of at most `most`
/// significant digits (not 0): only then can it lie halfway between two decimals of the fewest
/// digits that read back (at most `most` - 1: 9 for a float32, 17 for a double), where ryu
/// takes the even one and Rust the one further from zero.
fn exact_decimal(x: f64, most: u32) -> Option<(u64, i32)> {
    let (m, e) = decimal::parts(x);
    if m == 0 {
        return None;
    }
    // |x| = m × 2^e with m odd.
    let (m, e) = (m >> m.trailing_zeros(), e + m.trailing_zeros() as i32);
    let (digits, power) = if e >= 0 {
        // m × 2^e ends in a zero for each factor of 5 of m, up to e.
        let (mut m, mut zeros) = (m, 0);
        while zeros < e && m % 5 == 0 {
            (m, zeros) = (m / 5, zeros + 1);
        }
        if e - zeros > 64 {
            return None;
        }
        (u128::from(m) << (e - zeros), zeros)
    } else if e >= -27 {
        // m × 5^-e / 10^-e, and m × 5^-e, odd, ends in no zero.
        (u128::from(m) * 5u128.pow(e.unsigned_abs()), e)
    } else {
        return None;
    };
    (digits < 10u128.pow(most)).then_some((digits as u64, power))
}

/// `.0` after a whole number written from `start`: Python would read `2` as an int.
fn point(out: &mut String, start: usize) {
    if !out[start..].contains(['.', 'e']) {
        out.push_str(".0");
    }
}

/// ryu's shortest digits (`text`: `-1.5e-7`, `0.001234`, `1234.0`, `1e30`) as Rust's `{}` lays
/// them out (plain, never an exponent; `1234` without a point), or its `{:e}` (`1.5e-7`). Both
/// pick the same digits, the fewest that read back, the nearest to the float where two do; and
/// where those two are as near, which only `exact` (the float's exact decimal, when short) can
/// tell, Rust the one further from zero.
fn laid_out(out: &mut String, text: &str, exponent: bool, exact: Option<(u64, i32)>) {
    let text = match text.strip_prefix('-') {
        Some(rest) => {
            out.push('-');
            rest
        }
        None => text,
    };
    let (mantissa, power) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // The value is 0.digits × 10^at.
    let mut digits = [0u8; 24];
    let (mut n, mut at) = (0, whole.len() as i32 + power);
    for b in whole.bytes().chain(fraction.bytes()) {
        if n == 0 && b == b'0' {
            at -= 1;
        } else if n < digits.len() {
            digits[n] = b;
            n += 1;
        }
    }
    while n > 0 && digits[n - 1] == b'0' {
        n -= 1;
    }
    if n == 0 {
        return out.push_str(if exponent { "0e0" } else { "0" });
    }
    // Halfway, ryu's last digit is even (and no 9): Rust's is one more.
    let shortest = digits[..n].iter().fold(0u64, |v, &b| v * 10 + u64::from(b - b'0'));
    if exact == Some((shortest * 10 + 5, at - n as i32 - 1)) {
        digits[n - 1] += 1;
    }
    // ASCII digits, so always text.
    let digits = std::str::from_utf8(&digits[..n]).unwrap_or_default();
    let zeros = |out: &mut String, k: i32| out.extend((0..k).map(|_| '0'));
    if exponent {
        let (first, rest) = digits.split_at(n.min(1));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let _ = write!(out, "e{}", at - 1);
    } else if at <= 0 {
        out.push_str("0.");
        zeros(out, -at);
        out.push_str(digits);
    } else if at as usize >= n {
        out.push_str(digits);
        zeros(out, at - n as i32);
    } else {
        let (whole, fraction) = digits.split_at(at as usize);
        out.push_str(whole);
        out.push('.');
        out.push_str(fraction);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rust's own shortest digits, plain or with an exponent as Python would write them.
    fn by_rust<T: std::fmt::Display + std::fmt::LowerExp>(x: T, abs: f64) -> String {
        let text = if exponent(abs) { format!("{x:e}") } else { format!("{x}") };
        if text.contains(['.', 'e']) {
            text
        } else {
            text + ".0"
        }
    }

    /// What [`float`] was before ryu, for finite floats.
    fn rust(x: f32) -> String {
        let text = by_rust(x, f64::from(x.abs()));
        match text.parse::<f64>() {
            Ok(d) if (d as f32).to_bits() == x.to_bits() => text,
            _ => by_rust(f64::from(x), f64::from(x.abs())),
        }
    }

    #[test]
    fn the_same_text_as_rusts_formatting() {
        let edges = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.1,
            2.0,
            100.0,
            1234.5,
            1e-4,
            9.9999e-5,
            1e-5,
            1.5e-7,
            1e16,
            9.999999e15,
            1.2345678e15,
            3e30,
            1e-45,
            -1e-45,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            0.03125,
            16777216.0,
            16777217.0,
            0.3,
            2.5e-5,
            5e-6,
            3.5e13,
            1.2e14,
            -7.25e15,
        ];
        for x in edges {
            assert_eq!(float(x), rust(x), "{x:?} ({:#x})", x.to_bits());
        }
        // The one float32 whose shortest decimal Python rounds onto a midpoint (the double's).
        let x = f32::from_bits(363_742_205);
        assert_eq!(float(x), rust(x));
        // Every exponent, both signs, the mantissa's ends and a spread between.
        for e in 0..=254u32 {
            for m in [0u32, 1, 2, 3, 0x40_0000, 0x55_5555, 0x7f_fffe, 0x7f_ffff, 0x12_3457, 0x66_6666] {
                for sign in [0u32, 1 << 31] {
                    let x = f32::from_bits(sign | e << 23 | m);
                    assert_eq!(float(x), rust(x), "{x:?} ({:#x})", x.to_bits());
                }
            }
        }
        // xorshift over every kind of bit pattern.
        let mut state = 0x2545_F491u32;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let x = f32::from_bits(state);
            if !x.is_finite() {
                continue;
            }
            assert_eq!(float(x), rust(x), "{x:?} ({state:#x})");
        }
    }
}
