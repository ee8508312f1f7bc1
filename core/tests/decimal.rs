//! `decimal::parse` against Rust's own `str::parse::<f64>`, bit for bit: on any text of a
//! number's shape, on the exact decimals of doubles cut anywhere, and on the exact midpoints of
//! neighbouring doubles (ties, to even) and the decimals just either side of them.

use proptest::prelude::*;
use rowflow_core::decimal::parse;

fn same(text: &str) -> Result<(), TestCaseError> {
    let want = text.parse::<f64>().ok().map(f64::to_bits);
    prop_assert_eq!(parse(text).map(f64::to_bits), want, "{}", text);
    Ok(())
}

/// A double's exact value as digits × 10^exponent (801 significant digits hold any double's).
fn exact(x: f64) -> (Vec<u8>, i64) {
    let text = format!("{x:.800e}");
    let (mantissa, exponent) = text.split_once('e').unwrap();
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    (digits, exponent.parse::<i64>().unwrap() - 800)
}

/// The exact decimal halfway between two doubles, (a + b) × 5 × 10^(e - 1), its last digit not 0.
fn midpoint(x: f64, y: f64) -> (Vec<u8>, i64) {
    let ((mut a, ea), (mut b, eb)) = (exact(x), exact(y));
    let e = ea.min(eb);
    a.resize(a.len() + (ea - e) as usize, 0);
    b.resize(b.len() + (eb - e) as usize, 0);
    let n = a.len().max(b.len()) + 1;
    let pad = |v: Vec<u8>| [vec![0; n - v.len()], v].concat();
    let (a, b) = (pad(a), pad(b));
    let mut out = vec![0; n + 1];
    let mut carry = 0;
    for i in (0..n).rev() {
        let t = (a[i] + b[i]) * 5 + carry;
        (out[i + 1], carry) = (t % 10, t / 10);
    }
    out[0] = carry;
    let zeros = out.iter().rev().take_while(|&&d| d == 0).count();
    out.truncate(out.len() - zeros);
    (out, e - 1 + zeros as i64)
}

fn text((digits, exponent): &(Vec<u8>, i64)) -> String {
    let digits: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    format!("{digits}e{exponent}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_text_of_a_numbers_shape(text in "[+-]?[0-9]{0,24}(\\.[0-9]{0,24})?([eE][+-]?[0-9]{1,3})?") {
        same(&text)?;
    }

    #[test]
    fn a_doubles_exact_decimal_cut_anywhere(bits in 0u64..0x7ff0_0000_0000_0000, keep in 1usize..801, sign in any::<bool>()) {
        let (mut digits, exponent) = exact(f64::from_bits(bits));
        let cut = digits.len() - keep.min(digits.len());
        digits.truncate(keep);
        let body = text(&(digits, exponent + cut as i64));
        same(&if sign { format!("-{body}") } else { body })?;
    }

    #[test]
    fn midpoints_and_either_side(bits in 0u64..0x7fef_ffff_ffff_ffff) {
        let (x, y) = (f64::from_bits(bits), f64::from_bits(bits + 1));
        let (mut digits, exponent) = midpoint(x, y);
        let tie = parse(&text(&(digits.clone(), exponent))).unwrap();
        prop_assert_eq!(tie.to_bits(), if bits % 2 == 0 { bits } else { bits + 1 }, "ties go to the even one");
        same(&text(&(digits.clone(), exponent)))?;
        same(&text(&([digits.clone(), vec![1]].concat(), exponent - 1)))?;
        // Just under it: its last digit one less, then 9s.
        let last = digits.len() - 1;
        digits[last] -= 1;
        digits.extend([9; 12]);
        same(&text(&(digits, exponent - 12)))?;
    }
}
