//! What the property tests share: the case count (`PROPTEST_CASES` for the long run), where
//! proptest keeps the failures it finds, and generators of hostile input — every kind of text a
//! learner can type or paste, floats PyTorch must cope with, extreme ids, shapes with 0 and 1.

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use rowflow_core::{Ids, Tensor, TorchError};

/// `PROPTEST_CASES` when set (the long run), else `default`, which keeps `cargo test` fast.
/// `ProptestConfig::with_cases` would ignore the variable. Failures found are saved in
/// `core/proptest-regressions/<test file>.txt`: committed, they are replayed first on every run.
pub fn config(default: u32, source: &str) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.trim().parse().ok()).unwrap_or(default);
    let name = source.rsplit_once("tests/").map_or(source, |(_, rest)| rest).trim_end_matches(".rs");
    let path = format!("{}/proptest-regressions/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let persistence = FileFailurePersistence::Direct(Box::leak(path.into_boxed_str()));
    ProptestConfig { cases, failure_persistence: Some(Box::new(persistence)), ..ProptestConfig::default() }
}

/// Texts that are not plain numbers: words, Python spellings, markup, unicode, malformed
/// literals, and integers at and past every width.
#[rustfmt::skip]
const ODD_TEXTS: &[&str] = &[
    "abc", "1e40", "-1e40", "NaN", "nan", "-nan", "inf", "-inf", "+inf", "Infinity", "-0", "0", "-0.0", "", " ",
    "\t\n", "<b>x</b>", "<script>alert(1)</script>", "١٢", "３", "🙂", "é", "1\u{a0}", "\u{200b}", "1,5", "0x10",
    "0b1", "1_000", "_1", "1__0", "1e", "e1", ".", "-", "+", "--1", "+-3", "1.5.2", "None", "True", "'relu'",
    "\"tanh\"", "relu", "tanh", "sigmoid", "[[1, 2], [3, 4]]", "[1, 2, 3]", "tensor([1., 2.])",
    "torch.tensor([[0.5, -1.]], dtype=torch.float32)", "[[[1, 1], [2, 2]], [[3, 3], [4, 4]]]", "[1, [2]", "]",
    "[", "[]", "[[]]", "[[1, 2], [3]]", "[1 2]", "tensor(", "1\t2\n3\t4", "1,2\n3,4\n", "1 2\n\n3",
    "99999999999999999999", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616", "-1", "-99", "1e-45", "1e-40",
    "3.4028235e38", "3.5e38", "-3.4028235e38", "1.17549435e-38", "4294967296", "4294967297",
];

/// A float written the ways Python reads one: shortest digits, exponent form, or a small int.
pub fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => (-3i64..=20).prop_map(|n| n.to_string()),
        2 => float().prop_map(|x| x.to_string()),
        1 => float().prop_map(|x| format!("{x:e}")),
    ]
}

/// Sizes around a scene's limits: 0, 1, small, each limit and one past it, and negatives.
pub fn size_text(limits: &'static [usize]) -> impl Strategy<Value = String> {
    let around = [&[64], limits].concat().iter().flat_map(|&l| [l - 1, l, l + 1, 2 * l]).collect::<Vec<_>>();
    prop_oneof![
        4 => (1usize..=6).prop_map(|n| n.to_string()),
        1 => prop::sample::select(around).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec![0i64, -1, -5, i64::MIN, i64::MAX]).prop_map(|n| n.to_string()),
    ]
}

/// A pasted block of `rows × cols` cells: spreadsheet (tab, comma or space separated) or a Python
/// list of lists; sometimes far too big for any tensor here.
pub fn block_text() -> impl Strategy<Value = String> {
    let dims = prop_oneof![6 => (1usize..=4, 1usize..=4), 1 => (1usize..=80, 1usize..=80)];
    let cells = dims.prop_flat_map(|(r, c)| {
        let cell = prop_oneof![8 => number_text(), 1 => prop::sample::select(ODD_TEXTS).prop_map(String::from)];
        (prop::collection::vec(prop::collection::vec(cell, c), r), 0usize..4)
    });
    cells.prop_map(|(rows, style)| match style {
        3 => format!("[{}]", rows.iter().map(|r| format!("[{}]", r.join(", "))).collect::<Vec<_>>().join(", ")),
        sep => rows.iter().map(|r| r.join(["\t", ",", " "][sep])).collect::<Vec<_>>().join("\n"),
    })
}

/// Any text a learner might type into any field: numbers, odd words, blocks, very long text,
/// random unicode, and sizes at the given limits.
pub fn text(limits: &'static [usize]) -> BoxedStrategy<String> {
    prop_oneof![
        4 => number_text(),
        3 => prop::sample::select(ODD_TEXTS).prop_map(String::from),
        2 => size_text(limits),
        1 => block_text(),
        1 => prop::sample::select(vec!["9", "a", "1 ", "[", "1\t", "🙂"]).prop_map(|s| s.repeat(10_000)),
        1 => "\\PC{0,12}",
    ]
    .boxed()
}

/// Floats PyTorch must cope with: NaN, ±inf, the extremes, denormals, -0.0, and ordinary ones.
pub fn float() -> impl Strategy<Value = f32> {
    #[rustfmt::skip]
    const SPECIAL: &[f32] = &[
        f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN, f32::MIN_POSITIVE, 1e-45, -1e-40, -0.0, 0.0,
        1e30, -1e30, 1.0, -1.0,
    ];
    prop_oneof![3 => -4.0f32..4.0, 2 => prop::sample::select(SPECIAL), 1 => prop::num::f32::ANY]
}

/// Floats small enough that sums of a few products of them stay finite.
pub fn tame_float() -> impl Strategy<Value = f32> {
    prop_oneof![4 => -4.0f32..4.0, 1 => prop::sample::select(vec![0.0f32, -0.0, 1e-45, 1e-38, 1e6, -1e6])]
}

/// Ids in and around a small range, and the extremes of int64.
pub fn id() -> impl Strategy<Value = i64> {
    const EXTREME: &[i64] = &[i64::MIN, i64::MIN + 1, i64::MAX, -1, -2, 1 << 58, u32::MAX as i64];
    prop_oneof![6 => -2i64..10, 1 => prop::sample::select(EXTREME)]
}

/// One size of a shape: mostly 0 to 4, sometimes larger.
pub fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![2 => Just(0usize), 4 => Just(1usize), 8 => 2usize..=4, 1 => 5usize..=40]
}

/// A shape of rank `ranks` whose numbers stay few, so a case runs fast; with a 0 in it, one size
/// may be large (no numbers, but every loop over that size still runs).
pub fn shape(ranks: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vec<usize>> {
    let sizes = prop::collection::vec(dim(), ranks);
    let big =
        prop_oneof![9 => Just(None), 1 => (0usize..4, prop::sample::select(vec![1000usize, 65_536])).prop_map(Some)];
    (sizes, big)
        .prop_map(|(mut s, big)| {
            if let (Some((at, n)), true) = (big, s.contains(&0)) {
                let at = at % s.len();
                if s[at] != 0 {
                    s[at] = n;
                }
            }
            s
        })
        .prop_filter("too many numbers", |s| s.iter().filter(|&&d| d != 0).product::<usize>() <= 1 << 17)
}

/// A float tensor of `shape` filled from `values`.
pub fn tensor_of(shape: Vec<usize>, values: impl Strategy<Value = f32> + 'static) -> BoxedStrategy<Tensor> {
    let n: usize = shape.iter().product();
    prop::collection::vec(values, n).prop_map(move |d| Tensor::new(shape.clone(), d).unwrap()).boxed()
}

/// A tensor of any shape in `ranks` with hostile values.
pub fn tensor(ranks: std::ops::RangeInclusive<usize>) -> BoxedStrategy<Tensor> {
    shape(ranks).prop_flat_map(|s| tensor_of(s, float())).boxed()
}

/// Ids of any shape in `ranks`, from `id()`.
pub fn ids(ranks: std::ops::RangeInclusive<usize>) -> BoxedStrategy<Ids> {
    let ids = shape(ranks).prop_flat_map(|s| {
        let n: usize = s.iter().product();
        prop::collection::vec(id(), n).prop_map(move |d| Ids::new(s.clone(), d).unwrap())
    });
    ids.boxed()
}

/// An upstream gradient, target or h0: mostly of the shape asked for, else of another, so both
/// the accepted and the refused paths run. Its values cycle through `fill`.
#[derive(Clone, Debug)]
pub struct Like {
    right: bool,
    other: Vec<usize>,
    fill: Vec<f32>,
}

impl Like {
    pub fn of(&self, want: &[usize]) -> Tensor {
        cycle(if self.right { want } else { &self.other }, &self.fill)
    }
}

pub fn like() -> impl Strategy<Value = Like> {
    (prop::bool::weighted(0.8), shape(0..=4), fill()).prop_map(|(right, other, fill)| Like { right, other, fill })
}

/// The words of an error: PyTorch's message, or a scene's reason.
pub trait Message {
    fn message(&self) -> &str;
}

impl Message for String {
    fn message(&self) -> &str {
        self
    }
}

impl Message for TorchError {
    fn message(&self) -> &str {
        &self.message
    }
}

/// A refusal must say why: its message is not blank.
pub fn said<T, E: Message>(r: &Result<T, E>) -> Result<(), TestCaseError> {
    if let Err(e) = r {
        prop_assert!(!e.message().trim().is_empty(), "an empty error message");
    }
    Ok(())
}

/// A tensor of `shape` whose values cycle through `fill` (upstream gradients, targets, h0).
pub fn cycle(shape: &[usize], fill: &[f32]) -> Tensor {
    let n: usize = shape.iter().product();
    let data = (0..n).map(|i| fill.get(i % fill.len().max(1)).copied().unwrap_or(1.0)).collect();
    Tensor::new(shape.to_vec(), data).unwrap()
}

/// Values for `cycle`.
pub fn fill() -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(float(), 1..8)
}

/// What a learner types as a `torch.manual_seed`: any int (past every width too), or anything.
pub fn seed_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => any::<u64>().prop_map(|n| n.to_string()),
        1 => any::<i128>().prop_map(|n| n.to_string()),
        2 => text(&[]),
    ]
}

/// A learning rate as typed: the usual ones, or anything.
pub fn lr_text() -> impl Strategy<Value = String> {
    let usual = prop::sample::select(vec!["0.1", "0.01", "1", "0", "-0", "1e-3", "10", "1e30", " 0.5 "]);
    prop_oneof![1 => usual.prop_map(String::from), 1 => text(&[])]
}

/// `State::preset` ids to start from or switch to: every preset, and one that does not exist.
pub fn preset_id(presets: &'static [(&'static str, &'static str)]) -> impl Strategy<Value = &'static str> {
    let ids: Vec<&'static str> = presets.iter().map(|(id, _)| *id).chain(["no_such_preset"]).collect();
    prop::sample::select(ids)
}

/// What a learner types into a cell: mostly a number, else anything.
pub fn cell_text(limits: &'static [usize]) -> impl Strategy<Value = String> {
    prop_oneof![3 => number_text(), 2 => text(limits)]
}

/// What a learner types into a size field: mostly a size (at the limits too), else anything.
pub fn size_field(limits: &'static [usize]) -> impl Strategy<Value = String> {
    prop_oneof![2 => size_text(limits), 1 => text(limits)]
}

/// What a learner pastes: mostly a block (spreadsheet or Python), else anything.
pub fn paste_text(limits: &'static [usize]) -> impl Strategy<Value = String> {
    prop_oneof![2 => block_text(), 1 => cell_text(limits), 1 => text(limits)]
}

/// `torch.equal`: the same shape and the same values, so `-0.0` equals `0.0` (where `==` on
/// tensors asks whether they are stored the same, bit for bit).
pub fn torch_equal(a: &Tensor, b: &Tensor) -> bool {
    a.shape() == b.shape() && a.data().iter().zip(b.data()).all(|(x, y)| x == y)
}
