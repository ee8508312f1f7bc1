//! Both ways timed at real scale: the lookup against one-hot × `Linear`, forward and backward,
//! up to V = 50,000, D = 300 and 1,024 ids. The app runs this in a Web Worker (`worker/`)
//! one case at a time, and draws each case as its report arrives.
//!
//! The one-hot way does what `linear(F.one_hot(ids, V).float())` and its backward do in PyTorch:
//! a dense `(n, V)` one-hot times `weight (D, V)ᵀ`, then `weight.grad = upstreamᵀ · one_hot`,
//! dense `(D, V)`, both through `Linear`'s kernel (`ops/matmul.rs`). The one-hot is built in
//! slices (64 ids forward, 4,096 columns backward) so that a case needs ~16 MB beside its tensors;
//! slicing changes no count. The lookup is `Embedding`'s own forward and backward.

use crate::format::{display, fixed, grouped};
use crate::ops::distinct_rows;
use crate::ops::embedding::Embedding;
use crate::ops::matmul::matmul_t;
use crate::say::Say;
use crate::tensor::{Ids, Tensor};
use crate::torch_rng::Generator;
use serde::{Deserialize, Serialize};

/// The largest sizes a case may ask for.
const MAX_V: usize = 50_000;
const MAX_D: usize = 300;
const MAX_IDS: usize = 1_024;
/// The V of a sweep: the sizes `tools/torch_one_hot_times.py` measured PyTorch at.
pub const SWEEP_V: &[usize] = &[10, 100, 1_000, 10_000, 50_000];
/// The (D, ids) a sweep offers: those PyTorch's figures were measured at.
pub const SWEEP_SIZES: &[(usize, usize)] = &[(64, 3), (300, 3), (64, 1_024), (300, 1_024)];
/// Told the fraction of a call done so far, by work long enough to report on.
type Tick<'a> = &'a mut dyn FnMut(f64);
/// Ids per slice of the one-hot input, and columns per slice of its gradient.
const ID_SLICE: usize = 64;
const V_SLICE: usize = 4_096;
/// Progress is reported at most this often (ms), so that a fast case is not slowed by messages.
const REPORT_EVERY_MS: f64 = 100.0;

/// One size: `Embedding(v, d)` against `Linear(v, d, bias=False)`, fed `ids` ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    pub v: usize,
    pub d: usize,
    pub ids: usize,
}

impl Case {
    fn check(&self) -> Result<(), String> {
        let fits = |x: usize, max: usize| (1..=max).contains(&x);
        match (fits(self.v, MAX_V), fits(self.d, MAX_D), fits(self.ids, MAX_IDS)) {
            (true, true, true) => Ok(()),
            _ => Err(format!(
                "timing takes V from 1 to {}, D from 1 to {MAX_D} and 1 to {} ids (asked: V = {}, D = {}, {} ids)",
                grouped(MAX_V),
                grouped(MAX_IDS),
                self.v,
                self.d,
                self.ids
            )),
        }
    }

    /// Numbers the lookup copies forward, as many as the one-hot way's products that count.
    pub fn copies(&self) -> u64 {
        self.ids as u64 * self.d as u64
    }

    /// Multiply-adds of the one-hot way forward, and again backward (in 64 bits: 15 billion at
    /// the largest size, past a wasm32 `usize`).
    pub fn multiply_adds(&self) -> u64 {
        self.copies() * self.v as u64
    }

    /// How many of them multiply a zero.
    pub fn zero_products(&self) -> u64 {
        self.copies() * (self.v as u64 - 1)
    }

    /// Numbers of the dense `linear.weight.grad` the one-hot way's backward writes.
    pub fn grad_written(&self) -> u64 {
        self.v as u64 * self.d as u64
    }

    /// Numbers the lookup's backward adds into `emb.weight.grad`: a row per distinct id.
    pub fn grad_rows_written(&self) -> u64 {
        self.rows_touched() as u64 * self.d as u64
    }

    /// Ids spread over the table, repeats included once there are more ids than rows.
    fn id_list(&self) -> Vec<usize> {
        (0..self.ids).map(|i| i * 7_919 % self.v).collect()
    }

    /// Distinct ids: the rows of `emb.weight.grad` the lookup's backward writes.
    pub fn rows_touched(&self) -> usize {
        distinct_rows(self.id_list(), self.v).len()
    }
}

/// What to time: every case, each way repeated until `budget_ms` has passed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub cases: Vec<Case>,
    pub budget_ms: f64,
}

/// The four ways a case is timed, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Way {
    Lookup,
    OneHot,
    LookupBackward,
    OneHotBackward,
}

impl Way {
    pub fn name(self) -> &'static str {
        match self {
            Way::Lookup => "lookup",
            Way::OneHot => "one-hot × Linear",
            Way::LookupBackward => "lookup backward",
            Way::OneHotBackward => "one-hot × Linear backward",
        }
    }
}

/// One case's times, in ms per call.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub case: Case,
    pub lookup_ms: f64,
    pub one_hot_ms: f64,
    pub lookup_backward_ms: f64,
    pub one_hot_backward_ms: f64,
}

impl Measured {
    pub fn ms(&self, way: Way) -> f64 {
        match way {
            Way::Lookup => self.lookup_ms,
            Way::OneHot => self.one_hot_ms,
            Way::LookupBackward => self.lookup_backward_ms,
            Way::OneHotBackward => self.one_hot_backward_ms,
        }
    }

    /// The one-hot way's forward speed: two floating-point operations per multiply-add.
    pub fn gflops(&self) -> f64 {
        2.0 * self.case.multiply_adds() as f64 / (self.one_hot_ms * 1e6)
    }

    /// How many times longer the one-hot way takes.
    pub fn ratio(&self) -> f64 {
        self.one_hot_ms / self.lookup_ms.max(f64::MIN_POSITIVE)
    }

    /// `Lookup 0.000412 ms per call, one-hot × Linear 21.3 ms per call: 51,699× the lookup's time.`
    pub fn caption(&self) -> Say {
        let r = self.ratio();
        let ratio = if r >= 10.0 { grouped(r.round() as usize) } else { fixed(r, 1) };
        crate::say!(
            "one-hot-note-timing",
            lookup = significant(self.lookup_ms),
            one_hot = significant(self.one_hot_ms),
            ratio = ratio
        )
    }
}

/// What the timing says as it goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Report {
    /// Case `case` is at `way` (`None`: drawing its table); `done` of all the work, 0 to 1.
    Progress {
        case: usize,
        way: Option<Way>,
        done: f64,
    },
    Measured(Measured),
    /// Every case measured.
    Finished,
    Refused(String),
}

/// PyTorch's own times for the sweep's sizes, one thread, on the machine the README quotes
/// (`tools/torch_one_hot_times.py`, run by hand; `torch_times.json` beside this file).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TorchTimes {
    pub torch: String,
    pub machine: String,
    pub cases: Vec<TorchCase>,
}

#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct TorchCase {
    #[serde(rename = "V")]
    pub v: usize,
    #[serde(rename = "D")]
    pub d: usize,
    pub ids: usize,
    pub lookup_ms: f64,
    pub one_hot_ms: f64,
    pub lookup_backward_ms: f64,
    pub one_hot_backward_ms: f64,
}

impl TorchTimes {
    pub fn stored() -> Self {
        serde_json::from_str(include_str!("torch_times.json")).unwrap_or(Self {
            torch: String::new(),
            machine: String::new(),
            cases: Vec::new(),
        })
    }

    /// PyTorch's figures for one size, as a `Measured` (`None` where the script did not time it).
    pub fn at(&self, case: Case) -> Option<Measured> {
        let t = self.cases.iter().find(|t| (t.v, t.d, t.ids) == (case.v, case.d, case.ids))?;
        Some(Measured {
            case,
            lookup_ms: t.lookup_ms,
            one_hot_ms: t.one_hot_ms,
            lookup_backward_ms: t.lookup_backward_ms,
            one_hot_backward_ms: t.one_hot_backward_ms,
        })
    }
}

/// Times every case of `request` on the clock `now` (ms), telling `report` as it goes.
pub fn time_cases(request: &Request, now: &dyn Fn() -> f64, report: &mut dyn FnMut(Report)) {
    if let Some(why) = request.cases.iter().find_map(|c| c.check().err()) {
        return report(Report::Refused(why));
    }
    // Progress in multiply-adds: the one-hot ways are nearly all of the work.
    let work = |c: &Case| 2.0 * c.multiply_adds() as f64 + c.grad_written() as f64;
    let total: f64 = request.cases.iter().map(work).sum();
    let mut done = 0.0;
    for (k, case) in request.cases.iter().enumerate() {
        report(Report::Progress { case: k, way: None, done: done / total });
        let measured = measure(*case, request.budget_ms, now, &mut |way, fraction| {
            let share = case.multiply_adds() as f64
                * match way {
                    Way::OneHot => fraction,
                    Way::LookupBackward => 1.0,
                    Way::OneHotBackward => 1.0 + fraction,
                    Way::Lookup => 0.0,
                };
            report(Report::Progress { case: k, way: Some(way), done: (done + share) / total });
        });
        match measured {
            Ok(m) => report(Report::Measured(m)),
            Err(why) => return report(Report::Refused(why)),
        }
        done += work(case);
    }
    report(Report::Finished);
}

/// One case, every way; `progress(way, fraction of its first call)` at most every 100 ms.
fn measure(
    case: Case,
    budget_ms: f64,
    now: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(Way, f64),
) -> Result<Measured, String> {
    let Case { v, d, ids: n } = case;
    // torch.manual_seed(0); nn.Embedding(v, d): the same numbers as PyTorch's timing script.
    let table = Generator::manual_seed(0).and_then(|mut g| g.embedding(v, d, None)).map_err(|e| e.to_string())?;
    let emb = Embedding::new(table.clone(), None).map_err(|e| e.to_string())?;
    let weight = table.t().map_err(|e| e.to_string())?;
    let list = case.id_list();
    let ids = Ids::vector(list.iter().map(|&i| i as i64).collect());
    let upstream: Vec<f32> = (0..n * d).map(|k| ((k * 31 % 17) as f32 - 8.0) / 8.0).collect();
    let upstream_tensor = Tensor::new(vec![n, d], upstream.clone()).map_err(|e| e.to_string())?;

    let mut last = now();
    let mut time = |way: Way, work: &mut dyn FnMut(Tick)| {
        progress(way, 0.0);
        let mut tick = |fraction: f64| {
            if now() - last >= REPORT_EVERY_MS {
                last = now();
                progress(way, fraction);
            }
        };
        // The first call warms up, and is the figure when one call outlasts the budget.
        let start = now();
        work(&mut tick);
        let first = now() - start;
        if first >= budget_ms {
            return first;
        }
        per_call(now, budget_ms, || work(&mut |_| {})).0
    };
    let lookup_ms = time(Way::Lookup, &mut |_| {
        std::hint::black_box(emb.forward(&ids).ok());
    });
    let one_hot_ms = time(Way::OneHot, &mut |tick| {
        std::hint::black_box(one_hot_forward(weight.data(), (v, d), &list, tick));
    });
    let lookup_backward_ms = time(Way::LookupBackward, &mut |_| {
        std::hint::black_box(emb.backward(&ids, &upstream_tensor).ok());
    });
    let one_hot_backward_ms = time(Way::OneHotBackward, &mut |tick| {
        std::hint::black_box(one_hot_backward(&upstream, (v, d), &list, tick));
    });
    Ok(Measured { case, lookup_ms, one_hot_ms, lookup_backward_ms, one_hot_backward_ms })
}

/// `linear(F.one_hot(ids, V).float())` `(n, D)` for `weight (D, V)`, 64 ids at a time.
fn one_hot_forward(weight: &[f32], (v, d): (usize, usize), ids: &[usize], tick: Tick) -> Vec<f32> {
    let mut y = Vec::with_capacity(ids.len() * d);
    for (k, slice) in ids.chunks(ID_SLICE).enumerate() {
        let mut one_hot = vec![0.0f32; slice.len() * v];
        for (r, &id) in slice.iter().enumerate() {
            one_hot[r * v + id] = 1.0;
        }
        y.extend(matmul_t(&one_hot, weight, (slice.len(), d, v)));
        tick(((k + 1) * ID_SLICE) as f64 / ids.len() as f64);
    }
    y
}

/// `linear.weight.grad = upstreamᵀ · one_hot`, dense `(D, V)`, for `upstream (n, D)`: 4,096
/// columns at a time, each from that slice of the one-hot, transposed `(columns, n)`.
fn one_hot_backward(upstream: &[f32], (v, d): (usize, usize), ids: &[usize], tick: Tick) -> Vec<f32> {
    let n = ids.len();
    let upstream_t: Vec<f32> = (0..d * n).map(|k| upstream[(k % n) * d + k / n]).collect();
    let mut grad = vec![0.0f32; d * v];
    for v0 in (0..v).step_by(V_SLICE) {
        let width = V_SLICE.min(v - v0);
        let mut one_hot_t = vec![0.0f32; width * n];
        for (i, &id) in ids.iter().enumerate() {
            if (v0..v0 + width).contains(&id) {
                one_hot_t[(id - v0) * n + i] = 1.0;
            }
        }
        let block = matmul_t(&upstream_t, &one_hot_t, (d, width, n));
        for j in 0..d {
            grad[j * v + v0..][..width].copy_from_slice(&block[j * width..][..width]);
        }
        tick((v0 + width) as f64 / v as f64);
    }
    grad
}

/// Milliseconds per call of `work`, repeated until `budget_ms` has passed (or a stuck clock has
/// seen a million calls), and the number of calls.
fn per_call<T>(now: &dyn Fn() -> f64, budget_ms: f64, mut work: impl FnMut() -> T) -> (f64, u32) {
    let start = now();
    let mut calls = 0u32;
    loop {
        std::hint::black_box(work());
        calls += 1;
        let elapsed = now() - start;
        if elapsed >= budget_ms || calls >= 1_000_000 {
            return (elapsed / calls as f64, calls);
        }
    }
}

/// Three significant digits: `0.000412`, `21.3`, `1530`.
pub fn significant(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        return display(x);
    }
    // Up to 9 decimals, a picosecond in milliseconds: no call is that quick.
    let decimals = (2 - x.log10().floor() as i32).clamp(0, 9) as u32;
    fixed(x, decimals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::one_hot::OneHotLinear;
    use std::cell::Cell;

    fn table(v: usize, d: usize) -> Tensor {
        Generator::manual_seed(0).and_then(|mut g| g.embedding(v, d, None)).unwrap()
    }

    #[test]
    fn sliced_ways_equal_the_scene_ops() {
        // More ids than a slice, more columns than a slice, repeats: still the op's numbers.
        let (v, d, n) = (5_000, 3, 150);
        let case = Case { v, d, ids: n };
        let (t, list) = (table(v, d), case.id_list());
        let ids = Ids::vector(list.iter().map(|&i| i as i64).collect());
        let op = OneHotLinear::from_table(&t).unwrap();
        let w = t.t().unwrap();
        assert_eq!(one_hot_forward(w.data(), (v, d), &list, &mut |_| {}), op.forward(&ids).unwrap().data());
        let upstream: Vec<f32> = (0..n * d).map(|k| k as f32 * 0.01 - 1.0).collect();
        let want = op.backward(&ids, &Tensor::new(vec![n, d], upstream.clone()).unwrap()).unwrap();
        let got = one_hot_backward(&upstream, (v, d), &list, &mut |_| {});
        for (a, b) in got.iter().zip(want.data()) {
            assert!((a - b).abs() <= 1e-5 * b.abs().max(1.0), "{a} vs {b}");
        }
    }

    #[test]
    fn a_run_reports_each_case_in_order_and_finishes() {
        let clock = Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 0.5);
            clock.get()
        };
        let request =
            Request { cases: vec![Case { v: 10, d: 3, ids: 3 }, Case { v: 100, d: 4, ids: 2 }], budget_ms: 2.0 };
        let mut reports = Vec::new();
        time_cases(&request, &now, &mut |r| reports.push(r));
        let measured: Vec<_> =
            reports.iter().filter_map(|r| if let Report::Measured(m) = r { Some(*m) } else { None }).collect();
        assert_eq!(measured.iter().map(|m| m.case).collect::<Vec<_>>(), request.cases);
        // The fake clock moves 0.5 ms a call, and one warm-up call comes first.
        assert!(measured.iter().all(|m| m.lookup_ms > 0.0 && m.one_hot_backward_ms > 0.0));
        assert_eq!(request.cases[0].rows_touched(), 3);
        assert_eq!(reports.last(), Some(&Report::Finished));
        let done: Vec<f64> = reports
            .iter()
            .filter_map(|r| if let Report::Progress { done, .. } = r { Some(*done) } else { None })
            .collect();
        assert!(done.windows(2).all(|w| w[0] <= w[1]) && done.iter().all(|d| (0.0..1.0).contains(d)), "{done:?}");
    }

    #[test]
    fn sizes_past_the_limits_are_refused_with_the_limits() {
        let mut reports = Vec::new();
        let request = Request { cases: vec![Case { v: 50_001, d: 3, ids: 3 }], budget_ms: 1.0 };
        time_cases(&request, &|| 0.0, &mut |r| reports.push(r));
        assert_eq!(
            reports,
            [Report::Refused(
                "timing takes V from 1 to 50,000, D from 1 to 300 and 1 to 1,024 ids (asked: V = 50001, D = 3, 3 ids)"
                    .into()
            )]
        );
    }

    #[test]
    fn pytorch_times_cover_every_size_a_sweep_offers() {
        let torch = TorchTimes::stored();
        assert!(torch.torch.starts_with("2."), "{}", torch.torch);
        for (d, ids) in SWEEP_SIZES {
            for &v in SWEEP_V {
                let t = torch.at(Case { v, d: *d, ids: *ids }).expect("PyTorch timed this size");
                assert!(t.lookup_ms > 0.0 && t.one_hot_ms > 0.0 && t.one_hot_backward_ms > 0.0);
            }
        }
    }

    #[test]
    fn a_stuck_clock_still_ends() {
        assert_eq!(per_call(&|| 0.0, 20.0, || ()), (0.0, 1_000_000));
    }

    #[test]
    fn captions_and_rates() {
        let case = Case { v: 50_000, d: 64, ids: 3 };
        let m =
            Measured { case, lookup_ms: 0.000412, one_hot_ms: 21.3, lookup_backward_ms: 1.0, one_hot_backward_ms: 2.0 };
        assert_eq!(
            crate::say::write(&m.caption()),
            "Lookup 0.000412 ms per call, one-hot × Linear 21.3 ms per call: 51,699× the lookup's time."
        );
        assert!((m.gflops() - 2.0 * 9_600_000.0 / 21.3e6).abs() < 1e-12);
        assert_eq!(Case { v: 50_000, d: 300, ids: 1_024 }.multiply_adds(), 15_360_000_000);
        assert_eq!(case.zero_products(), 3 * 49_999 * 64);
        let m = Measured { lookup_ms: 0.004, one_hot_ms: 0.00213, ..m };
        assert_eq!(
            crate::say::write(&m.caption()),
            "Lookup 0.00400 ms per call, one-hot × Linear 0.00213 ms per call: 0.5× the lookup's time."
        );
    }
}
