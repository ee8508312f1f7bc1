//! The Train scene: the fastai `DotProduct` recommender learning from a tiny ratings table.
//! `user_factors` and `movie_factors` start as `torch.manual_seed(seed)` draws (`normal(0, 1)`),
//! the score of a rating is `(user_factors[u] * movie_factors[m]).sum()`, and each SGD step on
//! the MSE loss moves only the rows of the users and movies the ratings use (question 5).
//!
//! The learner edits the ratings, `lr`, the sizes and seed, steps once or runs many steps, undoes
//! steps, and resets to the seeded start: all through the scene contract and its `Learning`.

mod compute;
mod contract;
mod state;
#[cfg(test)]
mod tests;

pub use compute::{Computed, Point};
pub use state::{Rating, State};

/// (id, label) of every preset; the first is the default.
pub const PRESETS: &[(&str, &str)] = &[
    ("tiny_factors2", "torch.manual_seed(42); DotProduct(5, 6, 2), 8 ratings, SGD lr=0.1"),
    ("factors3_lr05", "torch.manual_seed(7); DotProduct(5, 6, 3), 8 ratings, SGD lr=0.05"),
];

/// Users or movies per table, and factors per row: small enough to draw and to autosave.
pub const MAX_ROWS: usize = 1000;
pub const MAX_FACTORS: usize = 64;
pub const MAX_RATINGS: usize = 1000;

const USERS: &str = "user_factors.weight";
const MOVIES: &str = "movie_factors.weight";
