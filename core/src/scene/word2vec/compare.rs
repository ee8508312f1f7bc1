//! Two ways to look at a table of word vectors: the nearest words to one word by cosine
//! similarity (gensim's `most_similar`), and every word placed on a plane by its two principal
//! components, so what a table groups together can be seen at once.

use crate::tensor::Tensor;

/// A word and how close it is: the cosine of its row with the chosen word's.
#[derive(Clone, Debug, PartialEq)]
pub struct Neighbour {
    pub word: String,
    pub cosine: f32,
}

/// A word on the PCA map.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    pub word: String,
    pub x: f32,
    pub y: f32,
}

/// The PCA map: the words placed, and those whose rows hold `inf` or `nan` (a table trained
/// with too large a learning rate) and so have no place on it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    pub spots: Vec<Spot>,
    pub unplaced: Vec<String>,
}

fn rows(t: &Tensor) -> Vec<&[f32]> {
    let d = t.shape().get(1).copied().unwrap_or(0).max(1);
    t.data().chunks(d).collect()
}

/// The `n` words whose rows of `table` are nearest `word`'s by cosine, nearest first (the word
/// itself left out; a zero row is at cosine 0 to everything).
pub fn neighbours(table: &Tensor, words: &[String], word: usize, n: usize) -> Vec<Neighbour> {
    let rows = rows(table);
    let Some(&w) = rows.get(word) else { return Vec::new() };
    let norm = |r: &[f32]| r.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>().sqrt();
    let cos = |r: &[f32]| {
        let d: f64 = r.iter().zip(w).map(|(&a, &b)| f64::from(a) * f64::from(b)).sum();
        let n = norm(r) * norm(w);
        if n > 0.0 {
            (d / n) as f32
        } else {
            0.0
        }
    };
    let mut left: Vec<Neighbour> = rows
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != word)
        .filter_map(|(i, r)| Some(Neighbour { word: words.get(i)?.clone(), cosine: cos(r) }))
        .collect();
    // The n closest, ties in id order, picked one by one: a sort's code would weigh more in the
    // scene's download than these few scans take time.
    let mut near = Vec::with_capacity(n);
    while near.len() < n && !left.is_empty() {
        let best =
            (1..left.len()).fold(0, |b, k| if left[k].cosine.total_cmp(&left[b].cosine).is_gt() { k } else { b });
        near.push(left.remove(best));
    }
    near
}

/// Every finite row of `table` projected on the first two principal components of the finite
/// rows (power iteration on the covariance, each axis turned so its largest coordinate is
/// positive: the map does not flip as the numbers move a little). One `nan` would make every
/// coordinate `nan`, so rows holding `inf` or `nan` are left off and named.
pub fn pca(table: &Tensor, words: &[String]) -> Map {
    let (finite, unplaced): (Vec<_>, Vec<_>) =
        rows(table).into_iter().zip(words).partition(|(r, _)| r.iter().all(|x| x.is_finite()));
    let unplaced = unplaced.into_iter().map(|(_, w)| w.clone()).collect();
    let (rows, words): (Vec<&[f32]>, Vec<&String>) = finite.into_iter().unzip();
    let d = table.shape().get(1).copied().unwrap_or(0);
    if rows.is_empty() || d == 0 {
        return Map { spots: Vec::new(), unplaced };
    }
    let n = rows.len() as f64;
    let mean: Vec<f64> = (0..d).map(|j| rows.iter().map(|r| f64::from(r[j])).sum::<f64>() / n).collect();
    let centred: Vec<Vec<f64>> = rows.iter().map(|r| (0..d).map(|j| f64::from(r[j]) - mean[j]).collect()).collect();
    let mut cov = vec![vec![0.0; d]; d];
    for r in &centred {
        for i in 0..d {
            for j in 0..d {
                cov[i][j] += r[i] * r[j] / n;
            }
        }
    }
    let mut axes: Vec<Vec<f64>> = Vec::new();
    for _ in 0..2.min(d) {
        let axis = top_axis(&cov, d, &axes);
        let lambda: f64 = (0..d).map(|i| axis[i] * (0..d).map(|j| cov[i][j] * axis[j]).sum::<f64>()).sum();
        // Deflate: what is left has this axis taken out.
        for i in 0..d {
            for j in 0..d {
                cov[i][j] -= lambda * axis[i] * axis[j];
            }
        }
        axes.push(axis);
    }
    let project = |r: &[f64], k: usize| axes.get(k).map_or(0.0, |a| r.iter().zip(a).map(|(x, y)| x * y).sum::<f64>());
    let spots = centred
        .iter()
        .zip(words)
        .map(|(r, w)| Spot { word: w.clone(), x: project(r, 0) as f32, y: project(r, 1) as f32 })
        .collect();
    Map { spots, unplaced }
}

/// The covariance's leading eigenvector orthogonal to `taken`, by power iteration from a fixed
/// start (what is left after the earlier axes may be no variance at all: the axis is then still
/// one at right angles to them).
fn top_axis(cov: &[Vec<f64>], d: usize, taken: &[Vec<f64>]) -> Vec<f64> {
    let orthogonal = |mut v: Vec<f64>| {
        for a in taken {
            let dot: f64 = v.iter().zip(a).map(|(x, y)| x * y).sum();
            v.iter_mut().zip(a).for_each(|(x, y)| *x -= dot * y);
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        (norm > 1e-12).then(|| v.into_iter().map(|x| x / norm).collect::<Vec<f64>>())
    };
    let start = (0..d).find_map(|k| orthogonal((0..d).map(|i| 1.0 + ((i + k) % d) as f64 / d as f64).collect()));
    let mut v = start.unwrap_or_else(|| vec![0.0; d]);
    for _ in 0..200 {
        match orthogonal((0..d).map(|i| (0..d).map(|j| cov[i][j] * v[j]).sum()).collect()) {
            Some(next) => v = next,
            None => break,
        }
    }
    let biggest = v.iter().copied().fold(0.0f64, |m, x| if x.abs() > m.abs() { x } else { m });
    if biggest < 0.0 {
        v.iter_mut().for_each(|x| *x = -*x);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("w{i}")).collect()
    }

    #[test]
    fn the_nearest_word_points_the_same_way() {
        let t = Tensor::new(vec![4, 2], vec![1., 0., 2., 0.1, 0., 1., -1., 0.]).unwrap();
        let near = neighbours(&t, &words(4), 0, 3);
        assert_eq!(near.iter().map(|n| n.word.as_str()).collect::<Vec<_>>(), ["w1", "w2", "w3"]);
        assert!((near[2].cosine + 1.0).abs() < 1e-6);
    }

    #[test]
    fn the_first_axis_runs_along_the_spread() {
        // Points on the line y = 2x, spread along it: all of the variance on the first axis.
        let t = Tensor::new(vec![3, 2], vec![-1., -2., 0., 0., 1., 2.]).unwrap();
        let map = pca(&t, &words(3)).spots;
        assert!((map[2].x - 5f32.sqrt()).abs() < 1e-5 && map[2].y.abs() < 1e-5, "{map:?}");
        assert!(map[0].x < 0.0);
    }

    #[test]
    fn rows_holding_nan_or_inf_are_named_not_placed() {
        let t = Tensor::new(vec![4, 2], vec![-1., -2., f32::NAN, 0., 1., 2., 0., f32::INFINITY]).unwrap();
        let map = pca(&t, &words(4));
        assert_eq!(map.unplaced, ["w1", "w3"]);
        assert_eq!(map.spots.iter().map(|s| s.word.as_str()).collect::<Vec<_>>(), ["w0", "w2"]);
        assert!(map.spots.iter().all(|s| s.x.is_finite() && s.y.is_finite()), "{map:?}");
        assert!((map.spots[1].x - 5f32.sqrt()).abs() < 1e-5);
    }
}
