//! Reading the PyTorch fixtures in the scenes' unit tests.

use serde_json::Value;

pub fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/torch/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub fn floats(v: &Value) -> Vec<f32> {
    v["data"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

pub fn ints(v: &Value) -> Vec<i64> {
    v["data"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

pub fn shape(v: &Value) -> Vec<usize> {
    v["shape"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect()
}
