//! What the Train scene shows of a state: predictions, loss, gradients, which rows the ratings
//! touch and which the last step moved, the traces and their captions.

use super::state::{empty, State};
use super::{MOVIES, USERS};
use crate::ops::{distinct_rows, Named};
use crate::say::Say;
use crate::scene::{label, Factor, Formula, Issue};
use crate::tensor::Tensor;
use crate::trace::{Phase, Trace};

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
    /// Rows the last step moved.
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
    /// What a score is made of, and which rows never move: said in the learner's language by the
    /// page and the notebook.
    pub captions: Vec<Say>,
    /// What a formula needs: the (user, movie) row of each rating and the tables.
    rows: Vec<(usize, usize)>,
    tables: [Tensor; 2],
}

fn list(ids: &[usize]) -> String {
    ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

impl State {
    /// The rows of table `name` whose cells the last step moved.
    fn changed_rows(&self, name: &str) -> Vec<usize> {
        let cols = self.n_factors().max(1);
        let mut rows: Vec<usize> = self.learning.changed_in(name).iter().map(|i| i / cols).collect();
        rows.dedup();
        rows
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
        let mut scatter = Vec::new();
        if self.n_factors() == 2 && self.movie_factors.shape().get(1) == Some(&2) {
            for (user, t) in [(true, &self.user_factors), (false, &self.movie_factors)] {
                for (i, xy) in t.data().chunks(2).enumerate() {
                    let name = format!("{} {i}", if user { "user" } else { "movie" });
                    scatter.push(Point { name, user, x: xy[0], y: xy[1] });
                }
            }
        }
        let touched_users = distinct_rows(self.ratings.iter().map(|r| r.user as usize), n_users);
        let touched_movies = distinct_rows(self.ratings.iter().map(|r| r.movie as usize), n_movies);
        let untouched = |n: usize, t: &[usize]| (0..n).filter(|i| !t.contains(i)).collect::<Vec<_>>();
        let (still_u, still_m) = (untouched(n_users, &touched_users), untouched(n_movies, &touched_movies));
        let mut captions = vec![crate::say!("train-caption-score", factors = self.n_factors())];
        if !still_u.is_empty() || !still_m.is_empty() {
            captions.push(crate::say!("train-caption-still", users = list(&still_u), movies = list(&still_m)));
        }
        let r = self.ratings.len();
        let mut loss_curve = self.learning.losses.clone();
        loss_curve.extend(pass.as_ref().map(|p| p.loss));
        Computed {
            output: pass.as_ref().map_or_else(|| self.last_good.clone(), |p| p.output.clone()),
            stale: pass.is_none(),
            loss: pass.as_ref().map(|p| p.loss),
            loss_curve,
            output_grad: pass.as_ref().map_or_else(empty, |p| p.upstream.clone()),
            grads: pass.as_ref().map(|p| p.grads.clone()).unwrap_or_default(),
            changed_users: self.changed_rows(USERS),
            changed_movies: self.changed_rows(MOVIES),
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
    pub fn trace_of(&self, phase: Phase) -> &Trace {
        match phase {
            Phase::Forward => &self.forward,
            Phase::Backward => &self.backward,
        }
    }

    /// `output[b] = Σ_f user_factors.weight[u, f]·movie_factors.weight[m, f]`; backward,
    /// `user_factors.weight.grad[u, f] = Σ_b output.grad[b]·movie_factors.weight[m_b, f]` over the
    /// ratings of user `u` (and a movie's the same way round).
    pub fn formula(&self, tensor: &str, index: &[usize]) -> Option<Formula> {
        if let Some(table) = tensor.strip_suffix(".grad") {
            return self.grad_formula(table, index);
        }
        let (&[b], "output") = (index, tensor) else { return None };
        let &(u, m) = self.rows.get(b)?;
        let [users, movies] = &self.tables;
        let products = (0..users.shape().get(1).copied().unwrap_or(0))
            .map(|f| {
                let a = Factor::new(label(USERS, &[u, f]), users.get(&[u, f])?);
                Some((a, Factor::new(label(MOVIES, &[m, f]), movies.get(&[m, f])?)))
            })
            .collect::<Option<Vec<_>>>()?;
        let value = self.output.get(&[b])?;
        Some(Formula { target: label("output", &[b]), func: None, products, constants: Vec::new(), value, zeros: 0 })
    }

    fn grad_formula(&self, table: &str, index: &[usize]) -> Option<Formula> {
        let &[row, f] = index else { return None };
        let [users, movies] = &self.tables;
        // The other table of each rating that uses this row, and that table's name.
        let (other, name, by_user) = match table {
            USERS => (movies, MOVIES, true),
            MOVIES => (users, USERS, false),
            _ => return None,
        };
        // (this table's row, the other's) of a rating.
        let pick = |&(u, m): &(usize, usize)| if by_user { (u, m) } else { (m, u) };
        let value = crate::ops::find(&self.grads, table)?.get(index)?;
        let products = self.rows.iter().enumerate().filter(|(_, r)| pick(r).0 == row).map(|(b, r)| {
            let g = Factor::new(label("output.grad", &[b]), self.output_grad.get(&[b])?);
            let o = pick(r).1;
            Some((g, Factor::new(label(name, &[o, f]), other.get(&[o, f])?)))
        });
        let products = products.collect::<Option<Vec<_>>>()?;
        Some(Formula {
            target: label(&format!("{table}.grad"), index),
            func: None,
            products,
            constants: Vec::new(),
            value,
            zeros: 0,
        })
    }

    /// The timeline's words for the step at `playhead` of a pass, the ways to say it (one here):
    /// "output[1]: user 0's row times movie 2's row, number by number, summed = 0.1234." in English.
    pub fn describe(&self, pass: Phase, playhead: usize) -> Vec<Say> {
        let trace = self.trace_of(pass);
        let n = trace.len();
        if n == 0 {
            return vec![crate::say!("train-caption-nothing")];
        }
        let Some(step) = playhead.checked_sub(1).and_then(|k| trace.steps.get(k)) else {
            return vec![match pass {
                Phase::Forward => crate::say!("train-caption-forward", steps = n),
                Phase::Backward => crate::say!("train-caption-backward", steps = n),
            }];
        };
        // Which row of a table a span is: `user_factors.weight[1]` → 1.
        let row = |spans: &[crate::trace::Span], k: usize| {
            spans.get(k).and_then(|s| s.index.first().copied().flatten()).map_or("?".into(), |i| i.to_string())
        };
        let at = |t: &Tensor, spans: &[crate::trace::Span]| {
            let b = spans.first()?.index.first().copied().flatten()?;
            Some((b.to_string(), crate::format::short(t.get(&[b])?)))
        };
        let (reads, writes) = (&step.reads[..], &step.writes[..]);
        let (user, movie) = (row(reads, 1), row(reads, 2));
        vec![match pass {
            Phase::Forward => match at(&self.output, writes) {
                Some((b, y)) => crate::say!("train-step-forward", b = b, user = user, movie = movie, value = y),
                None => crate::say!("train-step-forward-bare", user = user, movie = movie),
            },
            Phase::Backward => match at(&self.output_grad, reads) {
                Some((b, g)) => crate::say!("train-step-backward", b = b, grad = g, user = user, movie = movie),
                None => crate::say!("train-step-backward-bare", user = user, movie = movie),
            },
        }]
    }
}
