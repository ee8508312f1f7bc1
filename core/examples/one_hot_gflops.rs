//! `cargo run --profile worker -p rowflow-core --example one_hot_gflops`: the One-hot scene's timing
//! (`scene::one_hot::time_cases`, the code the browser's worker runs) natively, so that
//! scripts/bench-browser can put the browser's GFLOP/s beside the same Rust code's here. Prints
//! one JSON line per size: `{"V": …, "D": …, "ids": …, "ms": …, "gflops": …}`.

use rowflow_core::scene::one_hot::{time_cases, Case, Report, Request};
use std::time::Instant;

fn main() {
    let sizes = [(50_000, 64, 3), (50_000, 300, 3), (50_000, 64, 64), (10_000, 300, 1_024), (50_000, 300, 1_024)];
    let cases = sizes.map(|(v, d, ids)| Case { v, d, ids }).to_vec();
    let start = Instant::now();
    let now = || start.elapsed().as_secs_f64() * 1e3;
    time_cases(&Request { cases, budget_ms: 500.0 }, &now, &mut |report| match report {
        Report::Measured(m) => {
            let Case { v, d, ids } = m.case;
            println!(r#"{{"V": {v}, "D": {d}, "ids": {ids}, "ms": {:.4}, "gflops": {:.2}}}"#, m.one_hot_ms, m.gflops());
        }
        Report::Refused(why) => eprintln!("{why}"),
        _ => {}
    });
}
