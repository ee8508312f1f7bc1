//! The Train scene: the fastai `DotProduct` recommender learning from a tiny ratings table.
//! `user_factors` and `movie_factors` start as `torch.manual_seed(seed)` draws (`normal(0, 1)`),
//! the score of a rating is `(user_factors[u] * movie_factors[m]).sum()`, and each SGD step on
//! the MSE loss moves only the rows of the users and movies the ratings use (question 5).
//!
//! The learner edits the ratings, `lr`, the sizes and seed, steps once or runs many steps, undoes
//! steps, and resets to the seeded start.

use super::history::{self, History};
use super::{check_preset, check_seed, check_shape, label, parse_size, paste, set_float, Factor, Formula, Issue};
use crate::edit::{parse_block, parse_float, parse_int};
use crate::ops::{dot_product::DotProduct, find, loss::Loss, Named};
use crate::optim::sgd_step;
use crate::tensor::{Ids, Tensor};
use crate::torch_rng::Generator;
use crate::trace::Trace;
use crate::TorchError;
use serde::{Deserialize, Serialize};

/// (id, label) of every preset; the first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("tiny_factors2", "torch.manual_seed(42); DotProduct(5, 6, 2), 8 ratings, SGD lr=0.1"),
    ("factors3_lr05", "torch.manual_seed(7); DotProduct(5, 6, 3), 8 ratings, SGD lr=0.05"),
];

/// Users or movies per table, and factors per row: small enough to draw and to autosave.
pub const MAX_ROWS: usize = 1000;
pub const MAX_FACTORS: usize = 64;
pub const MAX_RATINGS: usize = 1000;
/// Steps one `run` may take, so a typo can't freeze the page.
pub const MAX_RUN: usize = 1000;
/// The loss curve keeps the latest this many steps.
pub const MAX_LOSSES: usize = 10_000;

const USERS: &str = "user_factors.weight";
const MOVIES: &str = "movie_factors.weight";

/// One row of the ratings table: `x[b] = (user, movie)`, `target[b] = rating`. Ids out of range
/// are stored and reported, as PyTorch only complains when it looks them up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub user: i64,
    pub movie: i64,
    #[serde(with = "crate::tensor::json_f32")]
    pub rating: f32,
}

/// The parameters before one step, so the step can be undone.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub user_factors: Tensor,
    pub movie_factors: Tensor,
}

impl history::Snapshot for Snapshot {
    fn bytes(&self) -> usize {
        (self.user_factors.numel() + self.movie_factors.numel()) * 4
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The preset this state started from.
    pub preset: String,
    /// The `torch.manual_seed` the tables were drawn from, as typed.
    pub seed: String,
    /// Read as a table `(R, 3)`: user, movie, rating.
    pub ratings: Vec<Rating>,
    /// `SGD(lr=...)` as typed, so the exported code says what the learner wrote.
    pub lr: String,
    /// `(n_users, n_factors)`
    pub user_factors: Tensor,
    /// `(n_movies, n_factors)`
    pub movie_factors: Tensor,
    /// The parameters before each step still undoable. In memory only: a save or a link holds
    /// the scene, not its past.
    #[serde(skip)]
    pub history: History<Snapshot>,
    /// The loss of each step taken (measured before its update), oldest first.
    #[serde(default, with = "json_floats")]
    pub losses: Vec<f32>,
    /// The predictions of the last state PyTorch could run, shown while the current one raises.
    #[serde(default = "empty")]
    pub last_good: Tensor,
}

fn empty() -> Tensor {
    Tensor::vector(Vec::new())
}

/// Losses saved like tensor data, so a diverged `nan` or `inf` survives a save.
mod json_floats {
    use crate::tensor::{Element, Json};
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(xs: &[f32], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(xs.iter().map(|x| x.to_json()))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
        let raw = Vec::<Json>::deserialize(d)?;
        raw.into_iter().map(|j| f32::from_json(j).map_err(D::Error::custom)).collect()
    }
}

impl Default for State {
    fn default() -> Self {
        let blank = || Self::new("", "0", Vec::new(), "0.1", (empty(), empty()));
        Self::preset(PRESETS[0].0).unwrap_or_else(blank)
    }
}

/// A user or movie as a point `(factor 0, factor 1)` on the scatter plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// `user 0`, `movie 3`
    pub name: String,
    pub user: bool,
    pub x: f32,
    pub y: f32,
}

/// Everything the view shows, computed from the state.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// Predictions `(R,)`, or the last good ones while `stale`.
    pub output: Tensor,
    /// PyTorch would raise on the current state; `issues` say why.
    pub stale: bool,
    /// `F.mse_loss(output, target)` now (`None` while stale).
    pub loss: Option<f32>,
    /// The losses of the steps taken, then the current one.
    pub loss_curve: Vec<f32>,
    /// `output.grad` = `2·(output − target)/R`, what backward starts from (empty while stale).
    pub output_grad: Tensor,
    /// `user_factors.weight.grad` and `movie_factors.weight.grad` (empty while stale).
    pub grads: Named,
    /// Sorted unique rows the batch looks up: the only rows a step can move.
    pub touched_users: Vec<usize>,
    pub touched_movies: Vec<usize>,
    /// Rows that differ from before the last step.
    pub changed_users: Vec<usize>,
    pub changed_movies: Vec<usize>,
    pub issues: Vec<Issue>,
    /// One step per rating; the input is named `ratings`.
    pub forward: Trace,
    pub backward: Trace,
    /// Users then movies, when `n_factors == 2`.
    pub scatter: Vec<Point>,
    /// `x (8, 2) → (u * m).sum(1) → output (8,)`
    pub shape_equation: String,
    pub captions: Vec<String>,
    /// What a formula needs: the (user, movie) row of each rating and the tables.
    rows: Vec<(usize, usize)>,
    tables: [Tensor; 2],
}

/// One forward and backward pass over the whole ratings table.
struct Pass {
    x: Ids,
    model: DotProduct,
    output: Tensor,
    loss: f32,
    upstream: Tensor,
    grads: Named,
}

fn issue(tensor: &str, cell: Option<usize>, error: TorchError, hint: String) -> Issue {
    Issue { tensor: tensor.into(), cell, error, hint }
}

/// `torch.manual_seed(seed)`, then `DotProduct.__init__`: users drawn first, then movies.
fn draw(seed: &str, users: usize, movies: usize, factors: usize) -> Result<(Tensor, Tensor), String> {
    let mut g = Generator::parse_seed(seed).and_then(Generator::manual_seed).map_err(|e| e.to_string())?;
    let u = g.embedding(users, factors, None).map_err(|e| e.to_string())?;
    Ok((u, g.embedding(movies, factors, None).map_err(|e| e.to_string())?))
}

/// Types `text` into column `col` (user, movie, rating) of a rating; bad text leaves it as it was.
fn set_cell(r: &mut Rating, col: usize, text: &str) -> Result<(), String> {
    match col {
        0 => r.user = parse_int(text)?,
        1 => r.movie = parse_int(text)?,
        2 => r.rating = parse_float(text)?,
        _ => return Err("no such cell".into()),
    }
    Ok(())
}

/// Rows of `after` whose bits differ from `before`; none when the shapes differ.
fn changed_rows(before: &Tensor, after: &Tensor) -> Vec<usize> {
    let cols = after.shape().get(1).copied().unwrap_or(0).max(1);
    if before.shape() != after.shape() || after.dim() != 2 {
        return Vec::new();
    }
    let pairs = before.data().chunks(cols).zip(after.data().chunks(cols));
    pairs
        .enumerate()
        .filter(|(_, (a, b))| a.iter().zip(*b).any(|(x, y)| x.to_bits() != y.to_bits()))
        .map(|p| p.0)
        .collect()
}

/// Sorted unique ids within `0..n`.
fn unique(ids: impl Iterator<Item = i64>, n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = ids.filter_map(|i| usize::try_from(i).ok()).filter(|&i| i < n).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn list(ids: &[usize]) -> String {
    ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

impl State {
    /// The exact tensors of a preset. Both use make_fixtures.py's ratings: users 3 and 4 and
    /// movie 5 are never rated.
    pub fn preset(id: &str) -> Option<State> {
        let (seed, factors, lr) = match id {
            "tiny_factors2" => ("42", 2, "0.1"),
            "factors3_lr05" => ("7", 3, "0.05"),
            _ => return None,
        };
        let table = [(0, 0, 5.), (0, 2, 1.), (1, 0, 4.), (1, 1, 2.), (2, 3, 5.), (2, 4, 1.), (0, 3, 4.), (1, 4, 2.)];
        let ratings = table.iter().map(|&(user, movie, rating)| Rating { user, movie, rating }).collect();
        Some(Self::new(id, seed, ratings, lr, draw(seed, 5, 6, factors).ok()?))
    }

    fn new(preset: &str, seed: &str, ratings: Vec<Rating>, lr: &str, (u, m): (Tensor, Tensor)) -> Self {
        let (preset, seed, lr) = (preset.into(), seed.into(), lr.into());
        let (history, losses, last_good) = (History::default(), Vec::new(), empty());
        let mut s = Self { preset, seed, ratings, lr, user_factors: u, movie_factors: m, history, losses, last_good };
        s.settle();
        s
    }

    pub fn n_users(&self) -> usize {
        self.user_factors.shape().first().copied().unwrap_or(0)
    }
    pub fn n_movies(&self) -> usize {
        self.movie_factors.shape().first().copied().unwrap_or(0)
    }
    pub fn n_factors(&self) -> usize {
        self.user_factors.shape().get(1).copied().unwrap_or(0)
    }

    /// `lr` as `torch.optim.SGD` takes it, with its check.
    fn lr_value(&self) -> Result<f64, TorchError> {
        let lr = parse_float(&self.lr).map_err(TorchError::value)? as f64;
        match lr < 0.0 {
            true => Err(TorchError::value(format!("Invalid learning rate: {}", self.lr.trim()))),
            false => Ok(lr),
        }
    }

    /// What PyTorch would raise on: tables that can't be multiplied, ids outside them, a bad `lr`.
    fn issues(&self) -> Vec<Issue> {
        if let Err(e) = DotProduct::new(self.user_factors.clone(), self.movie_factors.clone()) {
            let hint = "user_factors and movie_factors must be 2-D with the same n_factors".to_string();
            return vec![issue(MOVIES, None, e, hint)];
        }
        let mut out = Vec::new();
        for (table, col, n) in [("user", 0, self.n_users()), ("movie", 1, self.n_movies())] {
            let hint = format!("{table} ids must be in 0..{}; {table}_factors has {n} rows", n as i64 - 1);
            for (k, r) in self.ratings.iter().enumerate() {
                let id = if col == 0 { r.user } else { r.movie };
                if usize::try_from(id).map_or(true, |i| i >= n) {
                    let e = TorchError::index("index out of range in self");
                    out.push(issue("ratings", Some(3 * k + col), e, hint.clone()));
                }
            }
        }
        out.sort_by_key(|i| i.cell);
        if let Err(e) = self.lr_value() {
            out.push(issue("lr", None, e, "lr must be a number ≥ 0".into()));
        }
        out
    }

    /// Forward, MSE loss and backward over every rating, or the first reason PyTorch would raise.
    fn pass(&self) -> Result<Pass, String> {
        if let Some(i) = self.issues().into_iter().next() {
            return Err(i.error.to_string());
        }
        let e = |e: TorchError| e.to_string();
        let model = DotProduct::new(self.user_factors.clone(), self.movie_factors.clone()).map_err(e)?;
        let pairs = self.ratings.iter().flat_map(|r| [r.user, r.movie]).collect();
        let x = Ids::new(vec![self.ratings.len(), 2], pairs).map_err(e)?;
        let mse = Loss::Mse { target: Tensor::vector(self.ratings.iter().map(|r| r.rating).collect()) };
        let output = model.forward(&x).map_err(e)?;
        let (loss, upstream) = (mse.forward(&output).map_err(e)?, mse.backward(&output).map_err(e)?);
        let grads = model.backward(&x, &upstream).map_err(e)?;
        Ok(Pass { x, model, output, loss, upstream, grads })
    }

    /// Remembers the predictions whenever PyTorch can run the current state.
    fn settle(&mut self) {
        if let Ok(p) = self.pass() {
            self.last_good = p.output;
        }
    }

    /// New parameters not reached by stepping: the old steps no longer lead here, so undo and
    /// the loss curve start again (else undo would silently throw the new numbers away).
    fn restart(&mut self, user_factors: Tensor, movie_factors: Tensor) {
        (self.user_factors, self.movie_factors) = (user_factors, movie_factors);
        self.history.clear();
        self.losses.clear();
        self.settle();
    }

    /// Types one cell of a factor table (a float) or of `ratings` (flat index `3·row + column`:
    /// user, movie, rating). Editing the ratings keeps the history; editing a factor restarts it.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        if tensor != "ratings" {
            return self.edit_table(tensor, |t| set_float(t, index, text));
        }
        set_cell(self.ratings.get_mut(index / 3).ok_or("no such cell")?, index % 3, text)?;
        self.settle();
        Ok(())
    }

    /// Applies `f` to the factor table named `tensor`, then restarts the history.
    fn edit_table(&mut self, tensor: &str, f: impl FnOnce(&mut Tensor) -> Result<(), String>) -> Result<(), String> {
        let (mut u, mut m) = (self.user_factors.clone(), self.movie_factors.clone());
        f(match tensor {
            USERS => &mut u,
            MOVIES => &mut m,
            _ => return Err(format!("{tensor} cannot be edited here")),
        })?;
        self.restart(u, m);
        Ok(())
    }

    /// Pastes a block with its top-left at flat `index`; all or nothing.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        if tensor != "ratings" {
            return self.edit_table(tensor, |t| paste(t, index, text, parse_float));
        }
        let (mut ratings, (r0, c0)) = (self.ratings.clone(), (index / 3, index % 3));
        for (i, row) in parse_block(text)?.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let r = ratings.get_mut(r0 + i).filter(|_| c0 + j < 3).ok_or("the block does not fit in ratings")?;
                set_cell(r, c0 + j, cell).map_err(|e| format!("row {}, column {}: {e}", i + 1, j + 1))?;
            }
        }
        self.ratings = ratings;
        self.settle();
        Ok(())
    }

    /// How many ratings: extra rows are `(0, 0, 0.0)`, fewer drops the last ones.
    pub fn set_n_ratings(&mut self, text: &str) -> Result<(), String> {
        let n = parse_size(text, MAX_RATINGS)?;
        self.ratings.resize(n, Rating { user: 0, movie: 0, rating: 0.0 });
        self.settle();
        Ok(())
    }

    /// `torch.optim.SGD(model.parameters(), lr=...)`; a negative lr is SGD's `ValueError`.
    pub fn set_lr(&mut self, text: &str) -> Result<(), String> {
        let old = std::mem::replace(&mut self.lr, text.trim().to_string());
        if let Err(e) = self.lr_value() {
            self.lr = old;
            return Err(e.to_string());
        }
        Ok(())
    }

    /// Both tables re-drawn from the seed: with `manual_seed` the movie table depends on how
    /// many numbers the user table drew first, so no size can change alone.
    fn redraw(&mut self, seed: &str, users: usize, movies: usize, factors: usize) -> Result<(), String> {
        let (u, m) = draw(seed, users, movies, factors)?;
        self.seed = seed.trim().to_string();
        self.restart(u, m);
        Ok(())
    }

    pub fn set_n_users(&mut self, text: &str) -> Result<(), String> {
        let n = parse_size(text, MAX_ROWS)?;
        self.redraw(&self.seed.clone(), n, self.n_movies(), self.n_factors())
    }
    pub fn set_n_movies(&mut self, text: &str) -> Result<(), String> {
        let n = parse_size(text, MAX_ROWS)?;
        self.redraw(&self.seed.clone(), self.n_users(), n, self.n_factors())
    }
    pub fn set_n_factors(&mut self, text: &str) -> Result<(), String> {
        let n = parse_size(text, MAX_FACTORS)?;
        self.redraw(&self.seed.clone(), self.n_users(), self.n_movies(), n)
    }

    /// `torch.manual_seed(seed); model = DotProduct(n_users, n_movies, n_factors)`.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        self.redraw(seed, self.n_users(), self.n_movies(), self.n_factors())
    }

    /// Back to the seeded start, history cleared.
    pub fn reset(&mut self) -> Result<(), String> {
        self.reinit(&self.seed.clone())
    }

    /// One SGD step over the whole ratings table: `zero_grad`, `mse_loss(model(x), target)`,
    /// `backward`, `step`. Returns the loss before the update; refused (state untouched) when
    /// PyTorch would raise.
    pub fn step(&mut self) -> Result<f32, String> {
        let p = self.pass()?;
        let lr = self.lr_value().map_err(|e| e.to_string())?;
        let (mut u, mut m) = (self.user_factors.clone(), self.movie_factors.clone());
        for (w, name) in [(&mut u, USERS), (&mut m, MOVIES)] {
            let g = find(&p.grads, name).ok_or(format!("{name} has no gradient"))?;
            sgd_step(w, g, lr).map_err(|e| e.to_string())?;
        }
        let before = Snapshot {
            user_factors: std::mem::replace(&mut self.user_factors, u),
            movie_factors: std::mem::replace(&mut self.movie_factors, m),
        };
        self.history.push(before);
        self.losses.push(p.loss);
        self.losses.drain(..self.losses.len().saturating_sub(MAX_LOSSES));
        self.settle();
        Ok(p.loss)
    }

    /// `n` steps (at most `MAX_RUN`), stopping at the first refusal; returns how many were taken.
    pub fn run(&mut self, n: usize) -> Result<usize, String> {
        for k in 0..n.min(MAX_RUN) {
            if let Err(e) = self.step() {
                return if k == 0 { Err(e) } else { Ok(k) };
            }
        }
        Ok(n.min(MAX_RUN))
    }

    /// Takes back the last step: its parameters bit for bit, and its loss.
    pub fn undo(&mut self) -> Result<(), String> {
        let s = self.history.pop().ok_or(super::learn::NOTHING_TO_UNDO)?;
        (self.user_factors, self.movie_factors) = (s.user_factors, s.movie_factors);
        self.losses.pop();
        self.settle();
        Ok(())
    }

    /// Everything the view shows. Never panics: when PyTorch would raise, the issues say why
    /// and the predictions stay at the last good ones.
    pub fn compute(&self) -> Computed {
        let issues = self.issues();
        let pass = self.pass().ok();
        let traces = pass.as_ref().and_then(|p| {
            let names = [("input", "ratings")];
            let f = p.model.forward_trace(&p.x).ok()?.renamed(&names);
            Some((f, p.model.backward_trace(&p.x).ok()?.renamed(&names)))
        });
        let (forward, backward) = traces.unwrap_or_default();
        let (n_users, n_movies) = (self.n_users(), self.n_movies());
        let last = self.history.last();
        let changed = |f: fn(&Snapshot) -> &Tensor, now| last.map(|s| changed_rows(f(s), now)).unwrap_or_default();
        let mut scatter = Vec::new();
        if self.n_factors() == 2 && self.movie_factors.shape().get(1) == Some(&2) {
            for (user, t) in [(true, &self.user_factors), (false, &self.movie_factors)] {
                for (i, xy) in t.data().chunks(2).enumerate() {
                    let name = format!("{} {i}", if user { "user" } else { "movie" });
                    scatter.push(Point { name, user, x: xy[0], y: xy[1] });
                }
            }
        }
        let touched_users = unique(self.ratings.iter().map(|r| r.user), n_users);
        let touched_movies = unique(self.ratings.iter().map(|r| r.movie), n_movies);
        let untouched = |n: usize, t: &[usize]| (0..n).filter(|i| !t.contains(i)).collect::<Vec<_>>();
        let (still_u, still_m) = (untouched(n_users, &touched_users), untouched(n_movies, &touched_movies));
        let mut captions = vec![format!(
            "Each score is (user_factors[u] * movie_factors[m]).sum(): {} products added per rating.",
            self.n_factors()
        )];
        if !still_u.is_empty() || !still_m.is_empty() {
            captions.push(format!(
                "Only rated rows get gradient, so only they move: users [{}] and movies [{}] keep their random start.",
                list(&still_u),
                list(&still_m)
            ));
        }
        let r = self.ratings.len();
        let mut loss_curve = self.losses.clone();
        loss_curve.extend(pass.as_ref().map(|p| p.loss));
        Computed {
            output: pass.as_ref().map_or_else(|| self.last_good.clone(), |p| p.output.clone()),
            stale: pass.is_none(),
            loss: pass.as_ref().map(|p| p.loss),
            loss_curve,
            output_grad: pass.as_ref().map_or_else(empty, |p| p.upstream.clone()),
            grads: pass.as_ref().map(|p| p.grads.clone()).unwrap_or_default(),
            changed_users: changed(|s| &s.user_factors, &self.user_factors),
            changed_movies: changed(|s| &s.movie_factors, &self.movie_factors),
            touched_users,
            touched_movies,
            issues,
            forward,
            backward,
            scatter,
            shape_equation: format!("x ({r}, 2) → (u * m).sum(1) → output ({r},) → mse_loss(output, target)"),
            captions,
            rows: match pass {
                Some(_) => self.ratings.iter().map(|r| (r.user as usize, r.movie as usize)).collect(),
                None => Vec::new(),
            },
            tables: [self.user_factors.clone(), self.movie_factors.clone()],
        }
    }
}

impl Computed {
    /// `output[b] = Σ_f user_factors.weight[u, f]·movie_factors.weight[m, f]`.
    pub fn formula(&self, output: &str, index: &[usize]) -> Option<Formula> {
        let (&[b], "output") = (index, output) else { return None };
        let &(u, m) = self.rows.get(b)?;
        let [users, movies] = &self.tables;
        let products = (0..users.shape().get(1).copied().unwrap_or(0))
            .map(|f| {
                let a = Factor::new(label(USERS, &[u, f]), users.get(&[u, f])?);
                Some((a, Factor::new(label(MOVIES, &[m, f]), movies.get(&[m, f])?)))
            })
            .collect::<Option<Vec<_>>>()?;
        let value = self.output.get(&[b])?;
        Some(Formula { target: label("output", &[b]), func: None, products, constants: Vec::new(), value })
    }
}

impl super::share::Shared for State {
    fn forget_history(&mut self) {
        self.history.clear();
    }

    fn check(&self) -> Result<(), String> {
        check_preset(&self.preset, PRESETS)?;
        check_seed(&self.seed)?;
        self.lr_value().map_err(|e| format!("lr: {e}"))?;
        check_shape(USERS, &self.user_factors, 2..=2, MAX_ROWS)?;
        check_shape(MOVIES, &self.movie_factors, 2..=2, MAX_ROWS)?;
        check_shape("the last output", &self.last_good, 1..=1, MAX_RATINGS)?;
        let counts = [
            ("n_factors", self.n_factors().max(self.movie_factors.shape()[1]), MAX_FACTORS),
            ("ratings", self.ratings.len(), MAX_RATINGS),
            ("losses", self.losses.len(), MAX_LOSSES),
        ];
        match counts.into_iter().find(|&(_, n, max)| n > max) {
            Some((name, n, max)) => Err(format!("{name} is {n}; this scene allows at most {max}")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::fixtures::{fixture, floats};
    use crate::scene::{from_json, to_json};
    use serde_json::Value;
    fn bits(xs: &[f32]) -> Vec<u32> {
        xs.iter().map(|x| x.to_bits()).collect()
    }
    fn close(got: &[f32], want: &[f32], what: &str) {
        assert_eq!(got.len(), want.len(), "{what}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() <= 1e-5 + 1e-4 * w.abs(), "{what}: {g} vs {w}");
        }
    }
    fn params_close(s: &State, want: &Value, what: &str) {
        close(s.user_factors.data(), &floats(&want[USERS]), what);
        close(s.movie_factors.data(), &floats(&want[MOVIES]), what);
    }

    /// A preset against its fixture: the seeded tables bit for bit, the batch, then every step.
    fn trains_like_pytorch(preset: &str, name: &str) {
        let (mut s, f) = (State::preset(preset).unwrap(), fixture(name));
        assert_eq!(bits(s.user_factors.data()), bits(&floats(&f["params"][USERS])), "{preset} users");
        assert_eq!(bits(s.movie_factors.data()), bits(&floats(&f["params"][MOVIES])), "{preset} movies");
        assert_eq!((s.n_users(), s.n_movies()), (5, 6));
        assert_eq!(s.n_factors() as u64, f["config"]["n_factors"].as_u64().unwrap());
        let x: Vec<i64> = s.ratings.iter().flat_map(|r| [r.user, r.movie]).collect();
        let want_x: Vec<i64> = f["input"]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert_eq!(x, want_x);
        assert_eq!(s.ratings.iter().map(|r| r.rating).collect::<Vec<_>>(), floats(&f["target"]));
        assert_eq!(s.lr_value().unwrap() as f32, f["optimizer"]["lr"].as_f64().unwrap() as f32);
        let want: Vec<f32> = f["losses"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
        s.step().unwrap();
        params_close(&s, &f["params_after_first_step"], "after step 1");
        assert_eq!(s.run(want.len() - 1), Ok(want.len() - 1));
        close(&s.losses, &want, "losses");
        params_close(&s, &f["params_after"], "after the last step");
        let c = s.compute();
        close(c.output.data(), &floats(&f["output_after"]), "output_after");
        assert_eq!(c.loss_curve.len(), want.len() + 1);
    }

    #[test]
    fn presets_train_like_pytorch() {
        trains_like_pytorch("tiny_factors2", "train_dot_product_sgd_factors2");
        trains_like_pytorch("factors3_lr05", "train_dot_product_sgd_factors3_lr05");
        assert_eq!(State::default().preset, "tiny_factors2");
        assert!(State::preset("nope").is_none());
    }

    #[test]
    fn only_rated_rows_move() {
        let mut s = State::default();
        let start = s.clone();
        let c = s.compute();
        assert_eq!((c.touched_users.clone(), c.touched_movies.clone()), (vec![0, 1, 2], vec![0, 1, 2, 3, 4]));
        assert!(c.changed_users.is_empty() && c.grads.len() == 2);
        assert!(c.captions[1].contains("users [3, 4] and movies [5]"));
        let g = find(&c.grads, USERS).unwrap();
        assert!(g.data()[6..].iter().all(|&x| x == 0.0) && g.data()[..6].iter().all(|&x| x != 0.0));
        s.step().unwrap();
        let c = s.compute();
        assert_eq!((c.changed_users, c.changed_movies), (c.touched_users, c.touched_movies));
        assert_eq!(bits(&s.user_factors.data()[6..]), bits(&start.user_factors.data()[6..]));
        assert_eq!(bits(&s.movie_factors.data()[10..]), bits(&start.movie_factors.data()[10..]));
        assert_eq!(c.scatter.len(), 11);
        assert_eq!((c.scatter[6].name.as_str(), c.scatter[6].x), ("movie 1", s.movie_factors.data()[2]));
        assert_eq!(c.forward.len(), 8);
        assert_eq!(c.forward.steps[1].reads[0].to_string(), "ratings[1]");
        assert_eq!(c.backward.steps[0].writes[1].to_string(), "movie_factors.weight.grad[4]");
    }

    #[test]
    fn undo_and_reset() {
        let mut s = State::default();
        let start = s.clone();
        s.run(2).unwrap();
        let two = s.clone();
        s.step().unwrap();
        s.undo().unwrap();
        assert_eq!(s, two);
        s.undo().unwrap();
        s.undo().unwrap();
        assert_eq!(s, start);
        assert_eq!(s.undo(), Err(crate::scene::learn::NOTHING_TO_UNDO.into()));
        s.run(5).unwrap();
        s.reset().unwrap();
        assert_eq!(s, start);
        // A factor edit starts the history again; a ratings or lr edit keeps it.
        s.run(2).unwrap();
        s.set_lr("0.5").unwrap();
        s.edit("ratings", 2, "3").unwrap();
        assert_eq!((s.history.len(), s.losses.len()), (2, 2));
        s.edit(USERS, 0, "1").unwrap();
        assert!(s.history.is_empty() && s.losses.is_empty());
    }

    #[test]
    fn history_is_capped() {
        let mut s = State::default();
        s.set_lr("0").unwrap();
        for _ in 0..3 {
            s.run(MAX_RUN).unwrap();
        }
        assert_eq!((s.history.len(), s.losses.len()), (history::MAX_UNDO_STEPS, 3 * MAX_RUN));
        assert_eq!(s.run(MAX_RUN + 5), Ok(MAX_RUN));
    }

    #[test]
    fn a_bad_id_is_pinned_and_the_last_predictions_stay() {
        let mut s = State::default();
        let good = s.compute().output;
        s.edit("ratings", 3 * 2, "7").unwrap();
        s.edit("ratings", 3 * 5 + 1, "-1").unwrap();
        let c = s.compute();
        assert!(c.stale && c.loss.is_none() && c.forward.is_empty() && c.grads.is_empty());
        assert_eq!(c.output, good);
        let cells: Vec<_> = c.issues.iter().map(|i| (i.tensor.as_str(), i.cell)).collect();
        assert_eq!(cells, [("ratings", Some(6)), ("ratings", Some(16))]);
        assert_eq!(c.issues[0].error.to_string(), "IndexError: index out of range in self");
        assert_eq!(c.issues[0].hint, "user ids must be in 0..4; user_factors has 5 rows");
        assert!(c.formula("output", &[0]).is_none());
        let before = s.clone();
        assert_eq!(s.step(), Err("IndexError: index out of range in self".into()));
        assert_eq!(s.run(3), Err("IndexError: index out of range in self".into()));
        assert_eq!(s.edit("ratings", 0, "1.5"), Err("invalid literal for int() with base 10: '1.5'".into()));
        assert!(s.edit("ratings", 24, "1").is_err() && s.edit("output", 0, "1").is_err());
        assert_eq!(s.set_lr("-1"), Err("ValueError: Invalid learning rate: -1".into()));
        assert!(s.set_n_factors("0").is_err() && s.reinit("x").is_err());
        assert!(s.paste("ratings", 23, "1 2").unwrap_err().contains("does not fit"));
        assert_eq!(s, before);
        s.paste("ratings", 6, "[1, 0]").unwrap();
        s.edit("ratings", 16, "4").unwrap();
        assert_eq!(s.ratings, State::default().ratings);
        assert!(s.compute().issues.is_empty());
    }

    #[test]
    fn sizes_redraw_from_the_seed_and_formula_sums_products() {
        let mut s = State::default();
        s.set_n_factors("3").unwrap();
        s.reinit("7").unwrap();
        let p = State::preset("factors3_lr05").unwrap();
        assert_eq!((s.user_factors.clone(), s.movie_factors.clone()), (p.user_factors, p.movie_factors));
        assert!(s.compute().scatter.is_empty());
        s.set_n_movies("4").unwrap();
        let (u, m) = draw("7", 5, 4, 3).unwrap();
        assert_eq!((&s.user_factors, &s.movie_factors), (&u, &m));
        assert_eq!(s.compute().issues.iter().map(|i| i.cell).collect::<Vec<_>>(), [Some(16), Some(22)]);
        s.set_n_ratings("7").unwrap();
        s.edit("ratings", 16, "3").unwrap();
        let c = s.compute();
        let f = c.formula("output", &[6]).unwrap();
        assert_eq!(f.target, "output[6]");
        assert_eq!(f.products[2].0, Factor::new("user_factors.weight[0, 2]", u.data()[2]));
        assert_eq!(f.products[2].1, Factor::new("movie_factors.weight[3, 2]", m.data()[11]));
        let sum: f32 = f.products.iter().map(|(a, b)| a.value * b.value).sum();
        assert!((sum - f.value).abs() < 1e-6);
        assert!(c.formula("output", &[7]).is_none() && c.formula("output", &[0, 0]).is_none());
    }

    #[test]
    fn state_survives_json_and_hostile_states_do_not_panic() {
        let mut s = State::default();
        s.run(3).unwrap();
        assert_eq!(from_json::<State>(&to_json(&s)).unwrap(), s);
        s.set_lr("1e30").unwrap();
        s.run(3).unwrap();
        assert!(s.losses.iter().any(|l| !l.is_finite()));
        assert_eq!(to_json(&from_json::<State>(&to_json(&s)).unwrap()), to_json(&s));
        let tables = [
            (r#"{"shape":[2,2],"data":[1,2,3,4]}"#, r#"{"shape":[1,3],"data":[1,2,3]}"#),
            (r#"{"shape":[3],"data":[1,2,3]}"#, r#"{"shape":[0,3],"data":[]}"#),
            (r#"{"shape":[1,0],"data":[]}"#, r#"{"shape":[1,0],"data":[]}"#),
        ];
        for (u, m) in tables {
            let ratings = r#"[{"user":9223372036854775807,"movie":-1,"rating":"nan"},{"user":0,"movie":0,"rating":1}]"#;
            let text = format!(
                r#"{{"preset":"x","seed":"1","ratings":{ratings},"lr":"abc","user_factors":{u},"movie_factors":{m},
                "history":[{{"user_factors":{m},"movie_factors":{u}}}]}}"#
            );
            let mut s: State = from_json(&text).unwrap();
            let c = s.compute();
            assert!(c.stale && !c.issues.is_empty());
            let _ = (c.formula("output", &[0]), s.step(), s.run(2), s.undo(), s.compute());
            let _ = (s.edit(USERS, 0, "1"), s.edit("ratings", 0, "0"), s.paste(MOVIES, 0, "1 2"));
            let _ = (s.set_n_users("2"), s.set_n_factors("2"), s.set_n_movies("1"), s.reset(), s.set_n_ratings("1"));
            s.compute();
        }
        let mismatched = format!(
            r#"{{"preset":"x","seed":"1","ratings":[],"lr":"0.1","user_factors":{},"movie_factors":{}}}"#,
            tables[0].0, tables[0].1
        );
        let c = from_json::<State>(&mismatched).unwrap().compute();
        assert_eq!(c.issues[0].tensor, MOVIES);
        assert_eq!(
            c.issues[0].error.to_string(),
            "RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
        );
    }
}
