//! How the scene is saved and linked. Its table is `torch.manual_seed(seed); nn.Embedding(V, D)`
//! with the cells set since (typed, pasted, stepped, or kept from before a resize), so it is
//! saved as that draw and the cells that differ: a 50,000 × 64 table as drawn is a few bytes, not the
//! 35 MB of JSON that no browser keeps and that took 200 ms to write. A table whose draw is
//! not at hand (an older save, a hand-made link) is saved whole, as it always was. The table Reset
//! returns to, after SGD steps, is saved as the table on show with the cells the steps moved.

use super::runs::Runs;
use super::*;
use crate::tensor::{Element, Json};
use base64::engine::general_purpose::STANDARD_NO_PAD;
use base64::Engine;
use wide::u32x4;

/// The draw the table started from, held beside it to save against: derived from the seed and
/// the sizes, so it is neither saved nor compared.
#[derive(Clone, Default)]
pub struct Drawn(Option<Tensor>);

impl Drawn {
    pub(super) fn of(table: &Tensor) -> Self {
        Self(Some(table.clone()))
    }
}

impl State {
    /// `torch.manual_seed(seed)` and the flat indices of the cells set since, when the table on
    /// show is `nn.Embedding(V, D)`'s draw with at most half its cells set (the code then
    /// writes those over the draw). Compared with the draw kept beside the table; drawn afresh
    /// only when none is (an older save).
    pub fn drawn_and_set(&self) -> Option<(i128, Vec<usize>)> {
        let seed = Generator::parse_seed(&self.seed).ok()?;
        let fresh;
        let base = match &self.drawn.0 {
            Some(base) if base.shape() == self.table.shape() => base,
            _ => {
                fresh = super::draw(seed, self.sizes().0, self.sizes().1).ok()?;
                &fresh
            }
        };
        Some((seed, set_over(&self.table, base)?))
    }

    /// The draw kept beside the table, as `Draw::run` would make it: a save read elsewhere (One-hot's
    /// writing worker) is handed it (`with_drawn`) rather than drawing it again (at 50,000 × 64,
    /// 126 ms natively of the 176 a script written from the save takes).
    pub fn kept_draw(&self) -> Option<(Draw, &Tensor)> {
        let base = self.drawn.0.as_ref()?;
        let &[v, d] = base.shape() else { return None };
        Some((Draw { seed: self.seed.clone(), v, d }, base))
    }
}

impl PartialEq for Drawn {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Drawn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Drawn")
    }
}

/// The flat indices where `table` is not `base`, bit for bit: `None` unless both are the same
/// size and at most half of `table` is set over `base` (more is better written whole).
fn set_over(table: &Tensor, base: &Tensor) -> Option<Vec<usize>> {
    if base.shape() != table.shape() {
        return None;
    }
    if table.shares_data(base) {
        return Some(Vec::new());
    }
    // Runs of cells the same in both, most of a table at real scale, are passed over four lanes
    // at a time: looked at one by one they were half of a save at 50,000 × 64.
    let mut set = Vec::new();
    for (k, (xs, bs)) in table.data().chunks(RUN).zip(base.data().chunks(RUN)).enumerate() {
        if !same_bits(xs, bs) {
            set.extend((0..xs.len()).filter(|&i| !xs[i].same(bs[i])).map(|i| k * RUN + i));
        }
    }
    (2 * set.len() <= table.numel()).then_some(set)
}

/// Numbers of a table looked at together for a run the same in both.
const RUN: usize = 16;

/// Whether both runs hold the same numbers, bit for bit.
fn same_bits(xs: &[f32], bs: &[f32]) -> bool {
    let bits = |c: &[f32; 4]| u32x4::new(c.map(f32::to_bits));
    let ((xc, xt), (bc, bt)) = (xs.as_chunks::<4>(), bs.as_chunks::<4>());
    let diff = xc.iter().zip(bc).fold(u32x4::ZERO, |d, (x, b)| d | (bits(x) ^ bits(b)));
    diff == u32x4::ZERO && xt.iter().zip(bt).all(|(x, b)| x.same(*b))
}

#[derive(Serialize, Deserialize)]
#[serde(untagged, try_from = "Fields")]
enum Table {
    /// `torch.manual_seed(seed); nn.Embedding(V, D).weight`, then the cells set since: `at`
    /// holds their runs (`Runs`), `values` their float32s, little-endian, in base64
    /// (exact to the bit, nan and -0.0 too; 250,000 numbers kept through a resize write in a
    /// few ms, where their shortest texts took 30).
    Drawn {
        drawn: [usize; 2],
        at: Runs,
        values: String,
    },
    /// Reset's table as the table on show with the cells the steps since moved set back, in the
    /// same runs: a few rows, where against the draw it was again every cell set before the
    /// steps (250,000 kept through a resize to 50,000 × 64, 2 MB of a 4 MB save).
    Over {
        over_table: [usize; 2],
        at: Runs,
        values: String,
    },
    Whole(Tensor),
}

/// A saved table read by which fields it has, not as an untagged enum: that buffers the whole
/// value in a tree of serde's first (a table saved whole, 3.2 M numbers, held twice) and tries
/// each variant in turn.
#[derive(Deserialize)]
struct Fields {
    drawn: Option<[usize; 2]>,
    over_table: Option<[usize; 2]>,
    at: Option<Runs>,
    values: Option<String>,
    shape: Option<Vec<usize>>,
    data: Option<Vec<Json>>,
}

impl TryFrom<Fields> for Table {
    type Error = String;
    fn try_from(f: Fields) -> Result<Self, String> {
        match f {
            Fields { drawn: Some(drawn), at: Some(at), values: Some(values), .. } => Ok(Table::Drawn { drawn, at, values }),
            Fields { over_table: Some(over_table), at: Some(at), values: Some(values), .. } => {
                Ok(Table::Over { over_table, at, values })
            }
            Fields { shape: Some(shape), data: Some(data), .. } => {
                let data = data.into_iter().map(f32::from_json).collect::<Result<_, _>>()?;
                Ok(Table::Whole(Tensor::new(shape, data).map_err(|e| e.to_string())?))
            }
            _ => Err(format!("{TABLE} is saved neither as its draw and the cells set since (drawn, at, values) nor whole (shape, data)")),
        }
    }
}

impl Table {
    /// `table` against its draw when that is at hand and most of it is still the draw's.
    fn of(table: &Tensor, drawn: &Drawn) -> Self {
        let set = drawn.0.as_ref().and_then(|base| set_over(table, base));
        let (Some(set), &[v, d]) = (set, table.shape()) else { return Table::Whole(table.clone()) };
        let (at, values) = cells(table, &set);
        Table::Drawn { drawn: [v, d], at, values }
    }

    /// Reset's table `start` against the table on show when most of it is the same, else as
    /// any table.
    fn of_start(start: &Tensor, table: &Tensor, drawn: &Drawn) -> Self {
        let (Some(set), &[v, d]) = (set_over(start, table), start.shape()) else { return Table::of(start, drawn) };
        let (at, values) = cells(start, &set);
        Table::Over { over_table: [v, d], at, values }
    }

    /// The table, drawing from `seed` at most once for both tables a save holds (`drawn` keeps
    /// the draw); Reset's is read over `table`, the one on show.
    fn read(self, seed: &str, drawn: &mut Drawn, table: Option<&Tensor>) -> Result<Tensor, String> {
        let (base, at, values) = match self {
            Table::Whole(t) => return Ok(t),
            Table::Over { over_table, at, values } => match table {
                Some(table) if table.shape() == over_table => (table.clone(), at, values),
                Some(_) => {
                    return Err(format!("Reset's {TABLE} is saved over a table {over_table:?} unlike the one on show"))
                }
                None => return Err(format!("{TABLE} is saved over itself")),
            },
            Table::Drawn { drawn: shape, at, values } => match &drawn.0 {
                Some(base) if base.shape() == shape => (base.clone(), at, values),
                _ => {
                    let [v, d] = shape;
                    check_seed(seed)?;
                    let base = Draw { seed: seed.into(), v, d }.run()?;
                    *drawn = Drawn::of(&base);
                    (base, at, values)
                }
            },
        };
        set_cells(base, at, &values)
    }
}

/// The cells `set` of `table` (flat indices in increasing order) as their runs and their
/// float32s in base64.
fn cells(table: &Tensor, set: &[usize]) -> (Runs, String) {
    // Four bytes at a time into room made once: appended one value at a time, the 250,000
    // cells kept through a resize to 50,000 × 64 took 6 ms of the save.
    let (data, mut bytes) = (table.data(), vec![0u8; 4 * set.len()]);
    for (out, &i) in bytes.as_chunks_mut::<4>().0.iter_mut().zip(set) {
        *out = data[i].to_le_bytes();
    }
    (Runs::of(set), STANDARD_NO_PAD.encode(bytes))
}

/// `table` with the cells `at` set to `values`, or why they don't fit it.
fn set_cells(mut table: Tensor, at: Runs, values: &str) -> Result<Tensor, String> {
    let bytes = STANDARD_NO_PAD.decode(values.as_bytes()).map_err(|_| "its set values are damaged")?;
    let mut values = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    // Taken once, and only for a cell to set: `data_mut` copies numbers shared with the draw and
    // drops their kept extent and transpose. A table as drawn stays the draw.
    if !at.0.is_empty() {
        let data = table.data_mut();
        for [first, count] in at.0 {
            let cells = first.checked_add(count).and_then(|end| data.get_mut(first..end));
            let cells = cells.ok_or_else(|| format!("{TABLE} has no cells {first} … {first}+{count}"))?;
            for cell in cells {
                *cell = values.next().ok_or("it has fewer set values than cells")?;
            }
        }
    }
    match (values.next(), bytes.len() % 4) {
        (None, 0) => Ok(table),
        _ => Err("it has more set values than cells".into()),
    }
}

/// The draws reading `text` (a save, or a link's JSON) would make, peeked at without reading
/// the rest: a page draws those at real scale in its worker first (`with_drawn`). None for
/// text that is not a scene's.
pub fn draws_in(text: &str) -> Vec<Draw> {
    #[derive(Deserialize)]
    struct Peek {
        seed: String,
        table: Peeked,
        start: Option<Peeked>,
    }
    #[derive(Deserialize)]
    struct Peeked {
        drawn: Option<[usize; 2]>,
    }
    let Ok(Peek { seed, table, start }) = serde_json::from_str::<Peek>(text) else { return Vec::new() };
    let mut draws: Vec<Draw> = Vec::new();
    for [v, d] in [Some(table), start].into_iter().flatten().filter_map(|t| t.drawn) {
        let draw = Draw { seed: seed.clone(), v, d };
        if !draws.contains(&draw) {
            draws.push(draw);
        }
    }
    draws
}

/// The state as saved: the table (and the table Reset returns to, after SGD steps) as above.
#[derive(Serialize, Deserialize)]
pub(super) struct Saved {
    preset: String,
    seed: String,
    table: Table,
    ids: Ids,
    good_ids: Ids,
    #[serde(default)]
    learning: Learning,
    /// `learning.start`'s table, saved like `table`; older saves keep it inside `learning`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<Table>,
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let l = &self.learning;
        let start = l.start.as_ref().and_then(|named| named.iter().find(|(n, _)| n == TABLE));
        let learning = Learning {
            loss: l.loss.clone(),
            lr: l.lr.clone(),
            history: Default::default(),
            start: None,
            steps: l.steps,
            changed: l.changed.clone(),
            losses: l.losses.clone(),
        };
        Saved {
            preset: self.preset.clone(),
            seed: self.seed.clone(),
            table: Table::of(&self.table, &self.drawn),
            ids: self.ids.clone(),
            good_ids: self.good_ids.clone(),
            learning,
            start: start.map(|(_, t)| Table::of_start(t, &self.table, &self.drawn)),
        }
        .serialize(s)
    }
}

impl TryFrom<Saved> for State {
    type Error = String;
    fn try_from(saved: Saved) -> Result<Self, String> {
        let mut drawn = Drawn::default();
        let table = saved.table.read(&saved.seed, &mut drawn, None)?;
        let mut learning = saved.learning;
        if let Some(start) = saved.start {
            learning.start = Some(vec![(TABLE.into(), start.read(&saved.seed, &mut drawn, Some(&table))?)]);
        }
        let (preset, seed, ids, good_ids) = (saved.preset, saved.seed, saved.ids, saved.good_ids);
        Ok(State { preset, seed, table, ids, good_ids, learning, drawn })
    }
}
