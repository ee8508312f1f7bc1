//! `edit::parse_float`, `edit::parse_int` and `scene::parse_size` on any text: they never panic,
//! they accept exactly what Python's `float()` / `int()` accept (checked against a small model
//! of Python's grammar below) with the same value (except a finite float past float32's range,
//! refused with why rather than silently inf), and a float written back out by the lab
//! (`codegen::float`, the shortest decimal) reads back to the same bits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rowflow_core::codegen;
use rowflow_core::edit::{parse_float, parse_int};
use rowflow_core::scene::parse_size;

/// The bounds a size field is given in the scenes, and the extremes.
const MAXES: [usize; 6] = [0, 1, 64, 10_000, i64::MAX as usize, usize::MAX];

fuzz_target!(|data: &[u8]| {
    if let Some(bits) = data.get(..4) {
        written_floats_read_back(f32::from_le_bytes(bits.try_into().unwrap()));
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let float = parse_float(text);
    let int = parse_int(text);
    for max in MAXES {
        sizes(text, max, &int);
    }
    if let Ok(v) = float {
        written_floats_read_back(v);
    }
    // Python strips Unicode whitespace (including \x1c..\x1f, which Rust's `trim` keeps) and
    // reads any Unicode decimal digit; the lab reads ASCII digits only. Compare on the ASCII
    // text a learner types or a spreadsheet pastes.
    if !text.is_ascii() || text.bytes().any(|b| (0x1c..=0x1f).contains(&b)) {
        return;
    }
    match (py_float(text), &float) {
        (None, Err(e)) => assert!(e == "type a number" || e.starts_with("could not convert string to float: ")),
        (Some(py), Ok(v)) => {
            let want = py as f32;
            assert!(
                want.to_bits() == v.to_bits() || (want.is_nan() && v.is_nan()),
                "{text:?}: Python reads {py:?} → float32 {want:?}, the lab {v:?}"
            );
        }
        // A number past float32's range is refused with why, where float32 would be inf (past a
        // double's too: Python reads `1e500` as inf; the lab asks for `inf` if that is meant).
        (Some(py), Err(e)) if (py as f32).is_infinite() => {
            assert!(e.contains("too large for float32"), "{text:?}: {e}")
        }
        (py, lab) => panic!("{text:?}: Python's float() gives {py:?}, parse_float {lab:?}"),
    }
    match (py_int(text), &int) {
        (None, Err(e)) => assert!(e.starts_with("invalid literal for int() with base 10: "), "{text:?}: {e}"),
        (Some(Some(py)), Ok(v)) => assert_eq!(py, *v, "{text:?}"),
        (Some(None), Err(e)) => assert!(e.ends_with("does not fit in int64"), "{text:?}: {e}"),
        (py, lab) => panic!("{text:?}: Python's int() gives {py:?} (None inside: past int64), parse_int {lab:?}"),
    }
});

/// The lab writes floats into its scripts with `codegen::float`; the learner's parser must read
/// that back to the very bits. The f64's shortest decimal also reads back exactly. The f32's own
/// shortest decimal can land one float32 away: Python (and so the lab) reads a decimal as a
/// double first, and that double may sit on a float32 midpoint (e.g. `7.038531e-26`).
fn written_floats_read_back(v: f32) {
    let same = |w: f32| w.to_bits() == v.to_bits() || (v.is_nan() && w.is_nan());
    if v.is_finite() {
        let lit = codegen::float(v);
        let back = parse_float(&lit).unwrap_or_else(|e| panic!("{v:?} written as {lit:?} is refused: {e}"));
        assert!(same(back), "{v:?} written as {lit:?} reads back as {back:?}");
    }
    let wide = format!("{}", v as f64);
    let back = parse_float(&wide).unwrap_or_else(|e| panic!("{v:?} as {wide:?} is refused: {e}"));
    assert!(same(back), "{v:?} as {wide:?} reads back as {back:?}");
    let short = format!("{v}");
    let back = parse_float(&short).unwrap_or_else(|e| panic!("{v:?} as {short:?} is refused: {e}"));
    assert!(same(back) || back == v.next_up() || back == v.next_down(), "{v:?} as {short:?} reads back as {back:?}");
}

/// `parse_size(text, max)` is `parse_int` limited to `1..=max`.
fn sizes(text: &str, max: usize, int: &Result<i64, String>) {
    match (parse_size(text, max), int) {
        (Ok(n), Ok(v)) => assert!(n >= 1 && n <= max && n as i64 == *v, "{text:?} → {n}, max {max}"),
        (Err(e), Ok(v)) => {
            assert!(*v < 1 || *v as u64 > max as u64, "{text:?} ({v}) refused for max {max}: {e}");
            assert_eq!(e, format!("choose a size from 1 to {max}"));
        }
        (Err(e), Err(f)) => assert_eq!(&e, f),
        (Ok(n), Err(_)) => panic!("{text:?}: a size of {n} from text parse_int refuses"),
    }
}

/// The whitespace Python's `str.strip()` removes, in ASCII (without \x1c..\x1f, see above).
fn py_trim(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c'])
}

/// Python's `digitpart`: digits with single underscores between them. The digits, or `None`.
fn digitpart(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let ok = !b.is_empty()
        && b.iter().enumerate().all(|(i, &c)| {
            c.is_ascii_digit() || (c == b'_' && i > 0 && i + 1 < b.len() && b[i - 1] != b'_' && b[i + 1] != b'_')
        })
        && b[0] != b'_';
    ok.then(|| s.replace('_', ""))
}

fn sign(s: &str) -> (&str, &str) {
    match s.as_bytes().first() {
        Some(b'+' | b'-') => s.split_at(1),
        _ => ("", s),
    }
}

/// Python's `float(text)` for ASCII text (the grammar of the `float` docs), `None` where it
/// raises `ValueError`. Python rounds the decimal correctly to a double, as Rust's parser does.
fn py_float(text: &str) -> Option<f64> {
    let (sgn, body) = sign(py_trim(text));
    let lower = body.to_ascii_lowercase();
    let special = match lower.as_str() {
        "inf" | "infinity" => Some(f64::INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    };
    if let Some(v) = special {
        return Some(if sgn == "-" { -v } else { v });
    }
    let (number, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let mantissa = match number.split_once('.') {
        Some(("", frac)) => format!(".{}", digitpart(frac)?),
        Some((int, "")) => format!("{}.", digitpart(int)?),
        Some((int, frac)) => format!("{}.{}", digitpart(int)?, digitpart(frac)?),
        None => digitpart(number)?,
    };
    let exponent = match exponent {
        Some(e) => {
            let (es, ed) = sign(e);
            format!("e{es}{}", digitpart(ed)?)
        }
        None => String::new(),
    };
    Some(format!("{sgn}{mantissa}{exponent}").parse::<f64>().expect("the grammar above is Rust's too"))
}

/// Python's `int(text)` (base 10) for ASCII text: `None` where it raises `ValueError`, else the
/// value when it fits in int64 (`Some(None)` when Python's big int would not).
fn py_int(text: &str) -> Option<Option<i64>> {
    let (sgn, body) = sign(py_trim(text));
    let digits = digitpart(body)?;
    Some(format!("{sgn}{digits}").parse::<i64>().ok())
}
