//! `cargo bench -p rowflow-core`: the ops at sizes beyond the cell view. The headline ratio is
//! lookup vs one-hot × Linear for the same result (question 3 of DESIGN.md).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rowflow_core::codegen::{notebook_of, Notebook, Numbers};
use rowflow_core::ops::embedding::Embedding;
use rowflow_core::ops::linear::Linear;
use rowflow_core::ops::one_hot::OneHotLinear;
use rowflow_core::ops::rnn::{Rnn, RnnConfig};
use rowflow_core::scene::contract::{Edit, Scene};
use rowflow_core::scene::one_hot::State as OneHot;
use rowflow_core::scene::to_json;
use rowflow_core::torch_rng::Generator;
use rowflow_core::Ids;
use std::hint::black_box;

fn lookup_vs_one_hot(c: &mut Criterion) {
    let mut group = c.benchmark_group("lookup_vs_one_hot");
    for (v, d) in [(100, 16), (1000, 64), (10000, 64)] {
        let mut g = Generator::manual_seed(0).unwrap();
        let table = g.embedding(v, d, None).unwrap();
        let ids = Ids::vector((0..256).map(|i| (i * 7919 % v) as i64).collect());
        let emb = Embedding::new(table.clone(), None).unwrap();
        let lin = OneHotLinear::from_table(&table).unwrap();
        let size = format!("V{v}_D{d}_ids256");
        group.bench_with_input(BenchmarkId::new("embedding", &size), &ids, |b, ids| {
            b.iter(|| emb.forward(black_box(ids)))
        });
        group.bench_with_input(BenchmarkId::new("one_hot_linear", &size), &ids, |b, ids| {
            b.iter(|| lin.forward(black_box(ids)))
        });
    }
    group.finish();
}

/// One-hot × Linear's dense `linear.weight.grad` `(D, V)` at the most ids the scene allows at
/// 50,000 × 64 (20: 2^26 multiply-adds a pass), as an id edit there computes it.
fn one_hot_weight_grad(c: &mut Criterion) {
    let (v, d, n) = (50_000, 64, 20);
    let mut g = Generator::manual_seed(0).unwrap();
    let lin = OneHotLinear::from_table(&g.embedding(v, d, None).unwrap()).unwrap();
    let ids = Ids::vector((0..n).map(|i| (i * 7919 % v) as i64).collect());
    let up = g.randn(&[n, d]);
    c.bench_function("one_hot_weight_grad_V50000_D64_ids20", |b| b.iter(|| lin.backward(black_box(&ids), &up)));
}

fn linear(c: &mut Criterion) {
    let mut g = Generator::manual_seed(0).unwrap();
    let (w, b) = g.linear(256, 128, true);
    let m = Linear::new(w, b).unwrap();
    let x = g.randn(&[64, 256]);
    let up = g.randn(&[64, 128]);
    c.bench_function("linear_forward_64x256_to_128", |bch| bch.iter(|| m.forward(black_box(&x))));
    c.bench_function("linear_backward_64x256_to_128", |bch| bch.iter(|| m.backward(black_box(&x), black_box(&up))));
}

fn rnn(c: &mut Criterion) {
    let mut cfg = RnnConfig::new(32, 64);
    cfg.num_layers = 2;
    cfg.bidirectional = true;
    let mut g = Generator::manual_seed(0).unwrap();
    let m = Rnn::new(cfg.clone(), g.rnn(&cfg)).unwrap();
    let x = g.randn(&[50, 8, 32]);
    let out = m.forward(&x, None, None).unwrap();
    let (uo, uh) = (g.randn(out.output.shape()), g.randn(out.h_n.shape()));
    c.bench_function("rnn_forward_T50_N8_32to64_2layer_bi", |b| b.iter(|| m.forward(black_box(&x), None, None)));
    c.bench_function("rnn_backward_T50_N8_32to64_2layer_bi", |b| {
        b.iter(|| m.backward(black_box(&x), None, None, &uo, &uh))
    });
}

fn init(c: &mut Criterion) {
    c.bench_function("init_embedding_1000x64", |b| {
        b.iter(|| Generator::manual_seed(9).unwrap().embedding(1000, 64, None))
    });
    c.bench_function("init_linear_300_to_200", |b| {
        b.iter(|| Generator::manual_seed(9).unwrap().linear(300, 200, true))
    });
}

/// Writing One-hot's scene at real scale, as the page does after every change: the table grown to
/// 50,000 × 5 and then to 64 columns (250,000 cells kept from the 5-column draw), one SGD step.
fn one_hot_save(c: &mut Criterion) {
    let mut s = OneHot::default();
    s.set_vocab("50000").unwrap();
    s.set_dim("64").unwrap();
    s.apply(&Edit::Step).unwrap();
    c.bench_function("one_hot_save_50000x64_kept_and_stepped", |b| b.iter(|| to_json(black_box(&s))));
}

/// Copy code and Download notebook at the same scale: the script with every number (5.3 MB), and
/// the notebook around it, from the view the page has already computed.
fn one_hot_script(c: &mut Criterion) {
    let mut s = OneHot::default();
    s.set_vocab("50000").unwrap();
    s.set_dim("64").unwrap();
    s.apply(&Edit::Step).unwrap();
    let view = s.compute();
    c.bench_function("one_hot_script_50000x64_kept_and_stepped", |b| {
        b.iter(|| s.script(black_box(&view), 0, Numbers::All).text())
    });
    c.bench_function("one_hot_notebook_50000x64_kept_and_stepped", |b| {
        b.iter(|| notebook_of(black_box(&s), &view, "One-hot", 0))
    });
}

criterion_group!(benches, lookup_vs_one_hot, linear, rnn, init, one_hot_save, one_hot_script, one_hot_weight_grad);
criterion_main!(benches);
