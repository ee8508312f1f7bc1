//! `cargo run --release -p rowflow-core --example one_hot_gflops`: one-hot × Linear natively, at
//! the sizes the One-hot scene times in the browser, so that scripts/bench-browser can put the
//! browser's GFLOP/s beside the same Rust code's here. Prints one JSON line per size.

use rowflow_core::ops::one_hot::OneHotLinear;
use rowflow_core::torch_rng::Generator;
use rowflow_core::Ids;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    for (v, d, n) in [(50_000, 64, 3), (50_000, 300, 3), (50_000, 64, 64)] {
        let table = Generator::manual_seed(0).and_then(|mut g| g.embedding(v, d, None)).expect("a table");
        let linear = OneHotLinear::from_table(&table).expect("a Linear");
        let ids = Ids::vector((0..n).map(|i| (i * 7919 % v) as i64).collect());
        // Warm up, then as many calls as fit in half a second.
        let _ = black_box(linear.forward(&ids));
        let (start, mut calls) = (Instant::now(), 0u32);
        while start.elapsed().as_secs_f64() < 0.5 {
            let _ = black_box(linear.forward(black_box(&ids)));
            calls += 1;
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / f64::from(calls);
        let gflops = 2.0 * (n * v * d) as f64 / (ms * 1e6);
        println!(r#"{{"V": {v}, "D": {d}, "ids": {n}, "ms": {ms:.4}, "gflops": {gflops:.2}}}"#);
    }
}
