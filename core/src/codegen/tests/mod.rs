//! The scripts, read back: literals Python reads as the same float32, each scene's seeded
//! constructors, edits written as tensors, and what the script prints.

mod embedding;
mod linear;
mod one_hot;
mod rnn;
mod train;

use super::*;
pub(super) use crate::scene::contract::{Edit, Scene};
use crate::tensor::Ids;

/// What Python does with a literal: parse as a double, then torch rounds it to float32.
fn read_back(lit: &str) -> f32 {
    match lit {
        "float('nan')" => f32::NAN,
        "float('inf')" => f32::INFINITY,
        "-float('inf')" => f32::NEG_INFINITY,
        _ => lit.parse::<f64>().unwrap() as f32,
    }
}

/// `want` names every preset, and each preset's script holds what `want` says of it and passes
/// `check`.
fn presets_say<S: Scene>(want: &[(&str, &str)], script: fn(&S) -> String, check: impl Fn(&str, &str)) {
    assert_eq!(S::PRESETS.len(), want.len());
    for (id, line) in want {
        let py = script(&S::preset(id).unwrap());
        assert!(
            py.contains(line),
            "{id}:
{py}"
        );
        check(id, &py);
    }
}

fn round_trips(x: f32) {
    let lit = float(x);
    let back = read_back(&lit);
    assert!(x.is_nan() && back.is_nan() || back.to_bits() == x.to_bits(), "{x:?} → {lit} → {back:?}");
    assert!(lit.contains(['.', 'e', '(']), "{lit} must read as a float");
}

#[test]
fn floats_round_trip_through_python() {
    for x in [0.1f32, -0.1, 1.0, -0.0, 0.0, 1e-45, -1e-45, f32::MIN_POSITIVE, f32::MAX, f32::MIN, 3.0e-5, 1e16] {
        round_trips(x);
    }
    for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        round_trips(x);
    }
    assert_eq!(float(0.1), "0.1");
    assert_eq!(float(-0.0), "-0.0");
    assert_eq!(float(2.0), "2.0");
    assert_eq!(float(1e-45), "1e-45");
    assert_eq!(float(f32::MAX), "3.4028235e38");
    assert_eq!(float(f32::NAN), "float('nan')");
    assert_eq!(float(f32::NEG_INFINITY), "-float('inf')");
    // xorshift over every kind of bit pattern: normals, subnormals, both signs, nan, inf.
    let mut state = 0x9E37_79B9u32;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        round_trips(f32::from_bits(state));
    }
}

#[test]
fn double_rounding_falls_back_to_the_double() {
    // The one positive float32 (found by trying them all) whose shortest decimal, read as a
    // double, sits on a float32 midpoint and rounds to its neighbour: it needs more digits.
    let x = f32::from_bits(363_742_205);
    assert_eq!(format!("{x:e}"), "7.038531e-26");
    assert_ne!(("7.038531e-26".parse::<f64>().unwrap() as f32).to_bits(), x.to_bits());
    assert_eq!(float(x), format!("{:e}", x as f64));
    round_trips(x);
    round_trips(-x);
    assert_eq!(float(-x), format!("-{}", float(x)));
}

#[test]
fn strings_are_python_literals_of_printable_ascii() {
    assert_eq!(string("0.1"), "'0.1'");
    assert_eq!(string("a'b\\c\n\r\0é€😀"), r"'a\'b\\c\x0a\x0d\x00\xe9\u20ac\U0001f600'");
}

#[test]
fn tensor_literals_keep_shape_and_type() {
    let t = Tensor::new(vec![2, 2], vec![1.0, -0.0, 0.5, f32::NAN]).unwrap();
    assert_eq!(tensor(&t, 4, &[]), "torch.tensor([[1.0, -0.0],\n                  [0.5, float('nan')]])");
    let ids = Ids::new(vec![2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(tensor(&ids, 0, &[]), "torch.tensor([[1, 2, 3],\n              [4, 5, 6]])");
    assert_eq!(
        tensor(&Tensor::vector(vec![3.0]), 0, &["requires_grad=True"]),
        "torch.tensor([3.0], requires_grad=True)"
    );
    let empty = Tensor::<i64>::new(vec![0, 3], vec![]).unwrap();
    assert_eq!(tensor(&empty, 0, &[]), "torch.empty(0, 3, dtype=torch.long)");
    let t3 = Tensor::new(vec![2, 1, 2], vec![1.0, 2.0, 3.0, 4.0]).unwrap();
    assert_eq!(tensor(&t3, 0, &[]), "torch.tensor([[[1.0, 2.0]],\n              [[3.0, 4.0]]])");
    // A long row wraps under its first number.
    let long = tensor(&Tensor::vector(vec![0.123_456_78; 30]), 0, &[]);
    assert!(long.lines().count() > 1 && long.lines().all(|l| l.len() <= WIDTH + 2), "{long}");
    assert!(long.lines().skip(1).all(|l| l.starts_with("              0.")));
}

/// A scene's preset, which every id in its `PRESETS` is.
fn preset<S: Scene>(id: &str) -> S {
    S::preset(id).unwrap()
}
