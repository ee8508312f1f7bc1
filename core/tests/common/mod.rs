//! Reading the PyTorch fixtures (format: `fixtures/FORMAT.md` in the shared material, copied
//! here as `fixtures/torch/*.json`) into core tensors, and comparing results with their tolerance;
//! `gen`: what the property tests share (case counts, hostile inputs); `saves`: what a release
//! writes of every scene, kept for later releases to open.
#![allow(dead_code)] // each test binary uses its own part of this module

pub mod gen;
pub mod saves;

use rowflow_core::ops::Named;
use rowflow_core::{Ids, Tensor};
use serde_json::Value;
use std::path::PathBuf;

pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/torch")
}

/// Every fixture file, sorted by name.
pub fn fixture_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
}

pub fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(fixture_dir().join(format!("{name}.json"))).expect("fixture file");
    serde_json::from_str(&text).expect("fixture JSON")
}

pub type Check = Result<(), String>;

pub fn key<'a>(v: &'a Value, k: &str) -> Result<&'a Value, String> {
    v.get(k).filter(|x| !x.is_null()).ok_or_else(|| format!("missing key `{k}`"))
}

pub fn shape(v: &Value) -> Result<Vec<usize>, String> {
    v.as_array()
        .ok_or("shape is not a list")?
        .iter()
        .map(|d| d.as_u64().map(|d| d as usize).ok_or_else(|| "bad dimension".to_string()))
        .collect()
}

pub fn tensor(v: &Value) -> Result<Tensor, String> {
    let data = key(v, "data")?
        .as_array()
        .ok_or("data is not a list")?
        .iter()
        .map(|x| x.as_f64().map(|x| x as f32).ok_or_else(|| format!("not a float: {x}")))
        .collect::<Result<Vec<f32>, String>>()?;
    Tensor::new(shape(key(v, "shape")?)?, data).map_err(|e| e.to_string())
}

pub fn ids(v: &Value) -> Result<Ids, String> {
    let data = key(v, "data")?
        .as_array()
        .ok_or("data is not a list")?
        .iter()
        .map(|x| x.as_i64().ok_or_else(|| format!("not an int: {x}")))
        .collect::<Result<Vec<i64>, String>>()?;
    Ids::new(shape(key(v, "shape")?)?, data).map_err(|e| e.to_string())
}

/// A fixture's `params` (or `grads`) as named tensors, in file order.
pub fn named(v: &Value) -> Result<Named, String> {
    v.as_object().ok_or("not an object")?.iter().map(|(k, t)| Ok((k.clone(), tensor(t)?))).collect()
}

#[derive(Clone, Copy)]
pub struct Tol {
    pub atol: f64,
    pub rtol: f64,
}

pub fn tol(case: &Value) -> Tol {
    let t = &case["tolerance"];
    Tol { atol: t["atol"].as_f64().unwrap_or(1e-5), rtol: t["rtol"].as_f64().unwrap_or(1e-5) }
}

/// `abs(a - b) <= atol + rtol * abs(b)` elementwise, shapes equal; with 0/0 the bits must match.
pub fn close(what: &str, got: &Tensor, want: &Tensor, tol: Tol) -> Check {
    if got.shape() != want.shape() {
        return Err(format!("{what}: shape {:?}, want {:?}", got.shape(), want.shape()));
    }
    for (i, (&a, &b)) in got.data().iter().zip(want.data()).enumerate() {
        let ok = if tol.atol == 0.0 && tol.rtol == 0.0 {
            a.to_bits() == b.to_bits()
        } else {
            (a as f64 - b as f64).abs() <= tol.atol + tol.rtol * (b as f64).abs() || (a.is_nan() && b.is_nan())
        };
        if !ok {
            return Err(format!("{what}[{i}] = {a:e}, want {b:e}"));
        }
    }
    Ok(())
}

/// Every gradient the fixture lists must be produced and close; none may be missing or extra.
pub fn close_named(what: &str, got: &Named, want: &Named, tol: Tol) -> Check {
    let names = |n: &Named| {
        let mut v: Vec<String> = n.iter().map(|(k, _)| k.clone()).collect();
        v.sort();
        v
    };
    if names(got) != names(want) {
        return Err(format!("{what}: got {:?}, want {:?}", names(got), names(want)));
    }
    for (name, w) in want {
        let g = rowflow_core::ops::find(got, name).expect("same names");
        close(&format!("{what}.{name}"), g, w, tol)?;
    }
    Ok(())
}
