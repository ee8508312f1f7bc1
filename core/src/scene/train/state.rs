//! The Train scene's saved state and the edits a learner makes to it.

use super::{MAX_FACTORS, MAX_RATINGS, MAX_ROWS, MOVIES, PRESETS, USERS};
use crate::edit::{parse_block, parse_float, parse_id};
use crate::ops::{dot_product::DotProduct, loss::Loss, Named};
use crate::scene::learn::Learning;
use crate::scene::{parse_size, paste, set_float, Issue};
use crate::tensor::{Ids, Tensor};
use crate::torch_rng::Generator;
use crate::TorchError;
use serde::{Deserialize, Serialize};

/// One row of the ratings table: `x[b] = (user, movie)`, `target[b] = rating`. Ids out of range
/// are stored and reported, as PyTorch only complains when it looks them up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub user: i64,
    pub movie: i64,
    #[serde(with = "crate::tensor::json_f32")]
    pub rating: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Saved")]
pub struct State {
    /// The preset this state started from.
    pub preset: String,
    /// The `torch.manual_seed` the tables were drawn from, as typed.
    pub seed: String,
    /// Read as a table `(R, 3)`: user, movie, rating.
    pub ratings: Vec<Rating>,
    /// `(n_users, n_factors)`
    pub user_factors: Tensor,
    /// `(n_movies, n_factors)`
    pub movie_factors: Tensor,
    /// `lr`, the steps and the loss curve, as every scene has them. Saved flattened, so a save
    /// made before Train shared them (top-level `lr` and `losses`) still reads (`Saved`).
    #[serde(flatten)]
    pub learning: Learning,
    /// The predictions of the last state PyTorch could run, shown while the current one raises.
    #[serde(default = "empty")]
    pub last_good: Tensor,
}

/// The state as read: `learning`'s fields beside the scene's own, each one missing as a new
/// scene has it. Field by field, not `#[serde(flatten)]`, which buffers the whole save in a tree
/// of serde's first and brings that code to the scene's link.
#[derive(Deserialize)]
struct Saved {
    preset: String,
    seed: String,
    ratings: Vec<Rating>,
    user_factors: Tensor,
    movie_factors: Tensor,
    #[serde(default = "empty")]
    last_good: Tensor,
    loss: Option<Loss>,
    lr: Option<String>,
    #[serde(default)]
    start: Option<Named>,
    #[serde(default)]
    steps: usize,
    #[serde(default)]
    changed: Vec<(String, Vec<usize>)>,
    #[serde(default, with = "crate::scene::learn::json_floats")]
    losses: Vec<f32>,
}

impl From<Saved> for State {
    fn from(s: Saved) -> Self {
        // Every field named: one added to `Learning` must be read here too, or this fails to build.
        let new = Learning::default();
        let learning = Learning {
            loss: s.loss.unwrap_or(new.loss),
            lr: s.lr.unwrap_or(new.lr),
            history: new.history,
            start: s.start,
            steps: s.steps,
            changed: s.changed,
            losses: s.losses,
        };
        let (preset, seed, ratings, last_good) = (s.preset, s.seed, s.ratings, s.last_good);
        Self {
            preset,
            seed,
            ratings,
            user_factors: s.user_factors,
            movie_factors: s.movie_factors,
            learning,
            last_good,
        }
    }
}

pub(super) fn empty() -> Tensor {
    Tensor::vector(Vec::new())
}

impl Default for State {
    fn default() -> Self {
        let blank = || Self::new("", "0", Vec::new(), "0.1", (empty(), empty()));
        Self::preset(PRESETS[0].0).unwrap_or_else(blank)
    }
}

/// One forward and backward pass over the whole ratings table.
pub(super) struct Pass {
    pub x: Ids,
    pub model: DotProduct,
    pub output: Tensor,
    pub loss: f32,
    pub upstream: Tensor,
    pub grads: Named,
}

pub(super) fn issue(tensor: &str, cell: Option<usize>, error: TorchError, hint: String) -> Issue {
    Issue { tensor: tensor.into(), cell, error, hint }
}

/// `torch.manual_seed(seed)`, then `DotProduct.__init__`: users drawn first, then movies.
pub(super) fn draw(seed: &str, users: usize, movies: usize, factors: usize) -> Result<(Tensor, Tensor), String> {
    let mut g = Generator::parse_seed(seed).and_then(Generator::manual_seed).map_err(|e| e.to_string())?;
    let u = g.embedding(users, factors, None).map_err(|e| e.to_string())?;
    Ok((u, g.embedding(movies, factors, None).map_err(|e| e.to_string())?))
}

/// Types `text` into column `col` (user, movie, rating) of a rating, whose ids pick rows of
/// tables of `rows` (users, movies); bad text leaves it as it was.
fn set_rating(r: &mut Rating, col: usize, text: &str, rows: [usize; 2]) -> Result<(), String> {
    match col {
        0 => r.user = parse_id(text, rows[0])?,
        1 => r.movie = parse_id(text, rows[1])?,
        2 => r.rating = parse_float(text)?,
        _ => return Err("no such cell".into()),
    }
    Ok(())
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
        // Train's loss is always the mse against the ratings; `learning.loss` stays `Sum`, unused.
        let learning = Learning { lr: lr.into(), ..Learning::default() };
        let (preset, seed, last_good) = (preset.into(), seed.into(), empty());
        let mut s = Self { preset, seed, ratings, user_factors: u, movie_factors: m, learning, last_good };
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

    /// What PyTorch would raise on: tables that can't be multiplied, or ids outside them.
    pub(super) fn issues(&self) -> Vec<Issue> {
        if let Err(e) = DotProduct::new(self.user_factors.clone(), self.movie_factors.clone()) {
            let hint = "user_factors and movie_factors must be 2-D with the same n_factors".to_string();
            return vec![issue(MOVIES, None, e, hint)];
        }
        let tables = [("user", self.n_users()), ("movie", self.n_movies())].map(|(table, n)| {
            let rows = crate::format::count(n, "row");
            (n, format!("{table} ids must be in 0..{}; {table}_factors has {rows}", n as i64 - 1))
        });
        // Rating by rating, user before movie: in the order of their cells.
        let mut out = Vec::new();
        for (k, r) in self.ratings.iter().enumerate() {
            for (col, (id, (n, hint))) in [r.user, r.movie].into_iter().zip(&tables).enumerate() {
                if usize::try_from(id).map_or(true, |i| i >= *n) {
                    let e = TorchError::index("index out of range in self");
                    out.push(issue("ratings", Some(3 * k + col), e, hint.clone()));
                }
            }
        }
        out
    }

    /// Forward, MSE loss and backward over every rating, or the first reason PyTorch would raise.
    pub(super) fn pass(&self) -> Result<Pass, String> {
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
    pub(super) fn settle(&mut self) {
        if let Ok(p) = self.pass() {
            self.last_good = p.output;
        }
    }

    /// New parameters not reached by stepping: the old steps no longer lead here, so undo and
    /// the loss curve start again (else undo would silently throw the new numbers away).
    fn restart(&mut self, user_factors: Tensor, movie_factors: Tensor) {
        (self.user_factors, self.movie_factors) = (user_factors, movie_factors);
        self.learning.forget();
        self.settle();
    }

    /// Types one cell of a factor table (a float) or of `ratings` (flat index `3·row + column`:
    /// user, movie, rating). Editing the ratings keeps the history; editing a factor restarts it.
    pub fn edit(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        if tensor != "ratings" {
            return self.edit_table(tensor, |t| set_float(t, index, text));
        }
        let rows = self.rows();
        set_rating(self.ratings.get_mut(index / 3).ok_or("no such cell")?, index % 3, text, rows)?;
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

    /// How many users and movies the tables hold: the range of a rating's ids.
    fn rows(&self) -> [usize; 2] {
        [&self.user_factors, &self.movie_factors].map(|t| t.shape().first().copied().unwrap_or(0))
    }

    /// Pastes a block with its top-left at flat `index`; all or nothing.
    pub fn paste(&mut self, tensor: &str, index: usize, text: &str) -> Result<(), String> {
        if tensor != "ratings" {
            return self.edit_table(tensor, |t| paste(t, index, text, parse_float));
        }
        let (mut ratings, (r0, c0), rows) = (self.ratings.clone(), (index / 3, index % 3), self.rows());
        for (i, row) in parse_block(text)?.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let r = ratings.get_mut(r0 + i).filter(|_| c0 + j < 3).ok_or("the block does not fit in ratings")?;
                set_rating(r, c0 + j, cell, rows).map_err(|e| format!("row {}, column {}: {e}", i + 1, j + 1))?;
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

    /// Both tables re-drawn from the seed: with `manual_seed` the movie table depends on how
    /// many numbers the user table drew first, so no size can change alone.
    fn redraw(&mut self, seed: &str, users: usize, movies: usize, factors: usize) -> Result<(), String> {
        let (u, m) = draw(seed, users, movies, factors)?;
        self.seed = seed.trim().to_string();
        self.restart(u, m);
        Ok(())
    }

    /// `n_users`, `n_movies` or `n_factors`: both tables drawn again at the new size.
    pub fn set_size(&mut self, field: &str, text: &str) -> Result<(), String> {
        let (mut users, mut movies, mut factors) = (self.n_users(), self.n_movies(), self.n_factors());
        match field {
            "n_users" => users = parse_size(text, MAX_ROWS)?,
            "n_movies" => movies = parse_size(text, MAX_ROWS)?,
            "n_factors" => factors = parse_size(text, MAX_FACTORS)?,
            "ratings" => return self.set_n_ratings(text),
            other => return Err(format!("the Train scene has no field {other}")),
        }
        self.redraw(&self.seed.clone(), users, movies, factors)
    }

    /// `torch.manual_seed(seed); model = DotProduct(n_users, n_movies, n_factors)`.
    pub fn reinit(&mut self, seed: &str) -> Result<(), String> {
        self.redraw(seed, self.n_users(), self.n_movies(), self.n_factors())
    }
}
