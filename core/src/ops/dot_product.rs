//! The fastai book's `DotProduct` recommender: a user's and a movie's embedding rows, multiplied
//! elementwise and summed, `score[b] = (user_factors(x[b, 0]) * movie_factors(x[b, 1])).sum()`.
//!
//! input `(batch, 2)` of (user, movie) ids → output `(batch)`.

use crate::error::{Result, TorchError};
use crate::ops::embedding::{same_dim, Embedding};
use crate::ops::linear::{check_upstream, dot};
use crate::ops::Named;
use crate::tensor::{Ids, Tensor};
use crate::trace::{Span, Step, Trace, MAX_STEPS};

#[derive(Clone, Debug, PartialEq)]
pub struct DotProduct {
    /// `(n_users, n_factors)`
    pub user_factors: Embedding,
    /// `(n_movies, n_factors)`
    pub movie_factors: Embedding,
}

impl DotProduct {
    pub fn new(user_factors: Tensor, movie_factors: Tensor) -> Result<Self> {
        let (u, m) = (Embedding::new(user_factors, None)?, Embedding::new(movie_factors, None)?);
        same_dim(&u, &m)?;
        Ok(Self { user_factors: u, movie_factors: m })
    }

    /// `x[:, 0]` and `x[:, 1]` as PyTorch would index them, or its error.
    fn columns(x: &Ids) -> Result<(Ids, Ids)> {
        match x.shape() {
            [_, c] if *c >= 2 => {
                let col = |j: usize| Ids::vector(x.data().chunks(*c).map(|r| r[j]).collect());
                Ok((col(0), col(1)))
            }
            [_, c] => Err(TorchError::index(format!("index 1 is out of bounds for dimension 1 with size {c}"))),
            s => Err(TorchError::index(format!("too many indices for tensor of dimension {}", s.len()))),
        }
    }

    /// `x (batch, 2)` → scores `(batch)`.
    pub fn forward(&self, x: &Ids) -> Result<Tensor> {
        let (users, movies) = Self::columns(x)?;
        let (u, m) = (self.user_factors.forward(&users)?, self.movie_factors.forward(&movies)?);
        let f = self.user_factors.embedding_dim();
        let scores = (0..users.numel()).map(|b| dot(&u.data()[b * f..(b + 1) * f], &m.data()[b * f..(b + 1) * f]));
        Ok(Tensor::vector(scores.collect()))
    }

    /// `user_factors.weight.grad[u] += g[b]·movie[m]`, `movie_factors.weight.grad[m] += g[b]·user[u]`.
    pub fn backward(&self, x: &Ids, upstream: &Tensor) -> Result<Named> {
        let (users, movies) = Self::columns(x)?;
        check_upstream(upstream, &[users.numel()])?;
        let (u, m) = (self.user_factors.forward(&users)?, self.movie_factors.forward(&movies)?);
        let f = self.user_factors.embedding_dim();
        let scale = |rows: &Tensor| -> Result<Tensor> {
            let data =
                rows.data().chunks(f.max(1)).zip(upstream.data()).flat_map(|(r, &g)| r.iter().map(move |v| g * v));
            Tensor::new(rows.shape().to_vec(), data.collect())
        };
        let gu = self.user_factors.backward(&users, &scale(&m)?)?.weight;
        let gm = self.movie_factors.backward(&movies, &scale(&u)?)?.weight;
        Ok([("user_factors.weight", gu), ("movie_factors.weight", gm)]
            .into_iter()
            .filter_map(|(n, g)| g.map(|g| (n.to_string(), g)))
            .collect())
    }

    /// One step per rating: the user's and the movie's rows meet in `output[b]`.
    pub fn forward_trace(&self, x: &Ids) -> Result<Trace> {
        self.trace(x, |b, u, m| {
            Step::forward(
                vec![
                    Span::at("input", &[b]),
                    Span::at("user_factors.weight", &[u]),
                    Span::at("movie_factors.weight", &[m]),
                ],
                Span::at("output", &[b]),
            )
        })
    }

    /// One step per rating: `output.grad[b]` sends gradient to exactly one user row and one movie row.
    pub fn backward_trace(&self, x: &Ids) -> Result<Trace> {
        let mut trace = self.trace(x, |b, u, m| Step {
            phase: crate::trace::Phase::Backward,
            reads: vec![
                Span::at("output.grad", &[b]),
                Span::at("user_factors.weight", &[u]),
                Span::at("movie_factors.weight", &[m]),
            ],
            writes: vec![Span::at("user_factors.weight.grad", &[u]), Span::at("movie_factors.weight.grad", &[m])],
            accumulate: true,
        })?;
        trace.steps.reverse();
        Ok(trace)
    }

    fn trace(&self, x: &Ids, step: impl Fn(usize, usize, usize) -> Step) -> Result<Trace> {
        let (users, movies) = Self::columns(x)?;
        self.forward(x)?;
        let ids = users.data().iter().zip(movies.data()).map(|(&u, &m)| (u as usize, m as usize));
        let steps: Vec<Step> = ids.enumerate().take(MAX_STEPS).map(|(b, (u, m))| step(b, u, m)).collect();
        Ok(if users.numel() > MAX_STEPS { Trace::summary(steps) } else { Trace::new(steps) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> DotProduct {
        let u = Tensor::new(vec![2, 2], vec![1., 2., 3., 4.]).unwrap();
        let m = Tensor::new(vec![3, 2], vec![1., 0., 0., 1., 1., 1.]).unwrap();
        DotProduct::new(u, m).unwrap()
    }

    #[test]
    fn scores_are_row_dot_products() {
        let x = Ids::new(vec![3, 2], vec![0, 0, 1, 2, 1, 1]).unwrap();
        assert_eq!(model().forward(&x).unwrap().data(), [1., 7., 4.]);
    }

    #[test]
    fn only_rated_rows_get_gradient() {
        let x = Ids::new(vec![1, 2], vec![1, 2]).unwrap();
        let g = model().backward(&x, &Tensor::vector(vec![1.0])).unwrap();
        assert_eq!(g[0].1.data(), [0., 0., 1., 1.]);
        assert_eq!(g[1].1.data(), [0., 0., 0., 0., 3., 4.]);
        let t = model().backward_trace(&x).unwrap();
        assert_eq!(t.steps[0].writes[1].to_string(), "movie_factors.weight.grad[2]");
    }

    #[test]
    fn bad_shapes_are_index_errors() {
        let e = model().forward(&Ids::vector(vec![0, 1])).unwrap_err();
        assert_eq!(e.to_string(), "IndexError: too many indices for tensor of dimension 1");
        let e = model().forward(&Ids::new(vec![1, 2], vec![5, 0]).unwrap()).unwrap_err();
        assert_eq!(e.to_string(), "IndexError: index out of range in self");
    }
}
