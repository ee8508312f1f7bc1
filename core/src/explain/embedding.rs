//! `nn.Embedding(num_embeddings, embedding_dim)` has one row per id, rows `0 … num_embeddings-1`,
//! and looks them up by integer ids: read from `index out of range in self`, from the ids' dtype
//! error, or from `nn.Embedding(4, 5)(torch.tensor([4]))`.

use super::read::{call, holes, id_list, keyword, positional, size};
use super::{shape, Explanation, Fix, Reading, Shape};
use crate::ops::embedding::{check_indices, dtype_error, IdsDtype};
use crate::scene::embedding::{State, MAX_EMBEDDING_DIM, MAX_IDS, MAX_NUM_EMBEDDINGS, MAX_TABLE};
use crate::scene::share::{to_link, Shared};
use crate::tensor::{Ids, Tensor};
use crate::torch_rng::Generator;
use crate::TorchError;

const OUT_OF_RANGE: &str = "index out of range in self";
const DTYPE: &str = "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; \
                     but got torch.{} instead";

/// What a paste says: the layer's sizes and the ids, each when given.
struct Setup {
    table: Option<(usize, usize)>,
    ids: Option<(Vec<i64>, Vec<usize>)>,
    /// `FloatTensor`, `DoubleTensor`: ids that are not integers.
    dtype: Option<String>,
}

impl Setup {
    /// The table's sizes and the ids, when the paste gives both.
    fn known(&self) -> Option<Known<'_>> {
        match (&self.table, &self.ids) {
            (Some((v, d)), Some((ids, dims))) => Some(Known { v: *v, d: *d, ids, dims }),
            _ => None,
        }
    }
}

pub(super) fn read(text: &str) -> Option<Reading> {
    let line = from_line(text);
    let dtype = holes(DTYPE, text).map(|h| h[0].to_string());
    if line.is_none() && dtype.is_none() && !text.contains(OUT_OF_RANGE) {
        return None;
    }
    let s = line
        .map_or(Setup { table: None, ids: None, dtype: dtype.clone() }, |l| Setup { dtype: l.dtype.or(dtype), ..l });
    if let Some(dtype) = &s.dtype {
        return Some(Reading::Explained(wrong_dtype(&s, dtype)));
    }
    match s.known() {
        Some(k @ Known { v, d, ids, dims }) => match ids.iter().copied().find(|&id| id < 0 || id >= v as i64) {
            Some(bad) => Some(Reading::Explained(out_of_range(Some((k, bad))))),
            None => Some(Reading::Runs {
                line: format!("nn.Embedding({v}, {d})(ids), ids of shape {}", shape(dims)),
                output: format!("output {}", shape(&looked_up(dims, d))),
            }),
        },
        None if text.contains(OUT_OF_RANGE) => Some(Reading::Explained(out_of_range(None))),
        None => None,
    }
}

fn from_line(text: &str) -> Option<Setup> {
    let args = call("nn.Embedding(", text)?;
    let pos = positional(&args);
    let v = size(pos.first().copied().or_else(|| keyword(&args, "num_embeddings"))?)?;
    let d = size(pos.get(1).copied().or_else(|| keyword(&args, "embedding_dim"))?)?;
    let rest = &text[text.find("nn.Embedding(")?..];
    let (ids, dtype) = ["torch.tensor(", "torch.LongTensor(", "torch.FloatTensor("]
        .iter()
        .filter_map(|name| Some((rest.find(name)?, *name)))
        .min()
        .and_then(|(at, name)| {
            let args = call(name, &rest[at..])?;
            let (ids, dims, float) = id_list(positional(&args).first()?)?;
            // A dtype it does not know (`torch.float16`) leaves the line unread rather than guessed.
            let dtype = match keyword(&args, "dtype") {
                Some(name) => IdsDtype::parse(name)?,
                None if float || name == "torch.FloatTensor(" => IdsDtype::Float,
                None => IdsDtype::Long,
            };
            Some(((ids, dims), check_indices(dtype).is_err().then(|| dtype.tensor_type().to_string())))
        })
        .map_or((None, None), |(ids, dtype)| (Some(ids), dtype));
    Some(Setup { table: Some((v, d)), ids, dtype })
}

/// The output of looking up ids of shape `dims`: `(*, embedding_dim)`.
fn looked_up(dims: &[usize], d: usize) -> Vec<usize> {
    [dims, &[d]].concat()
}

fn table_shape(v: usize, d: usize) -> Shape {
    Shape { name: "weight".into(), dims: vec![v, d], marked: vec![0], means: "(num_embeddings, embedding_dim)".into() }
}

/// A table's sizes and the ids looked up in it, as a line gives them.
#[derive(Clone, Copy)]
struct Known<'a> {
    v: usize,
    d: usize,
    ids: &'a [i64],
    dims: &'a [usize],
}

fn out_of_range(known: Option<(Known, i64)>) -> Explanation {
    let error = TorchError::index(OUT_OF_RANGE);
    let Some((k @ Known { v, d, ids, dims }, bad)) = known else {
        return Explanation {
            layer: "nn.Embedding",
            error,
            call: "emb(ids)".into(),
            shapes: Vec::new(),
            why: "nn.Embedding(num_embeddings, embedding_dim) has one row per id: rows 0 … num_embeddings − 1. \
                  One of your ids is num_embeddings or more (or negative), so it has no row to select. \
                  Paste the line that builds and calls the layer to see which id."
                .into(),
            fixes: vec![
                Fix {
                    code: "nn.Embedding(int(ids.max()) + 1, embedding_dim)".into(),
                    gives: "a row for every id up to the largest".into(),
                },
                Fix {
                    code: "nn.Embedding(len(vocab), embedding_dim)".into(),
                    gives: "a row for every word's id".into(),
                },
            ],
            route: "embedding",
            open: open(None, None),
        };
    };
    let top = ids.iter().copied().max().unwrap_or(0);
    let out = |v: usize| format!("ids {} → output {} (rows 0 … {})", shape(dims), shape(&looked_up(dims, d)), v - 1);
    let mut fixes = Vec::new();
    let rows = top.checked_add(1).and_then(|r| usize::try_from(r).ok());
    if let Some(rows) = rows.filter(|_| ids.iter().all(|&i| i >= 0)) {
        fixes.push(Fix { code: format!("nn.Embedding({rows}, {d})"), gives: out(rows) });
    }
    if ids.iter().all(|&i| i >= 1) && top == v as i64 {
        fixes.push(Fix { code: "ids - 1".into(), gives: out(v) });
    }
    let ids_shape = Shape {
        name: "ids".into(),
        dims: dims.to_vec(),
        marked: Vec::new(),
        means: format!("each id in 0 … {}", v.saturating_sub(1)),
    };
    let last = if v == 0 { "it has no rows at all".to_string() } else { format!("its rows are 0 … {}", v - 1) };
    Explanation {
        layer: "nn.Embedding",
        error,
        call: format!("nn.Embedding({v}, {d})(ids)"),
        shapes: vec![table_shape(v, d), ids_shape],
        why: format!(
            "nn.Embedding({v}, {d}) selects row ids[i] of weight for each id: {last}. Id {bad} has no row \
             (an id must be at least 0 and less than num_embeddings = {v})."
        ),
        fixes,
        route: "embedding",
        open: open(Some(k), None),
    }
}

fn wrong_dtype(s: &Setup, dtype: &str) -> Explanation {
    let error = dtype_error(dtype);
    let gives = match (&s.table, &s.ids) {
        (Some((_, d)), Some((_, dims))) => {
            format!("ids {} of int64 → output {}", shape(dims), shape(&looked_up(dims, *d)))
        }
        _ => "ids of int64, the same shape".into(),
    };
    Explanation {
        layer: "nn.Embedding",
        error,
        call: s.table.map_or("emb(ids)".into(), |(v, d)| format!("nn.Embedding({v}, {d})(ids)")),
        shapes: s.table.map(|(v, d)| vec![table_shape(v, d)]).unwrap_or_default(),
        why: format!(
            "nn.Embedding looks rows up by id, so ids must be whole numbers of type torch.long (or torch.int). \
             Your ids are a torch.{dtype}: torch.tensor([1., 2.]) makes floats, torch.tensor([1, 2]) makes longs."
        ),
        fixes: vec![
            Fix { code: "ids.long()".into(), gives: gives.clone() },
            Fix { code: "torch.tensor(ids, dtype=torch.long)".into(), gives },
        ],
        route: "embedding",
        open: IdsDtype::ALL.into_iter().find(|d| d.tensor_type() == dtype).and_then(|d| open(s.known(), Some(d))),
    }
}

/// The Embedding scene with this table (drawn after `torch.manual_seed(0)`) and these ids, else
/// its default scene; its ids of `dtype`, or without one, one id made `num_embeddings` when no
/// ids are known. `None` past its sizes.
fn open(known: Option<Known>, dtype: Option<IdsDtype>) -> Option<String> {
    let mut state = match known {
        Some(Known { v, d, ids, dims }) => {
            if v > MAX_NUM_EMBEDDINGS || d > MAX_EMBEDDING_DIM || v.saturating_mul(d) > MAX_TABLE || ids.len() > MAX_IDS
            {
                return None;
            }
            let mut g = Generator::manual_seed(0).ok()?;
            let weight = g.embedding(v, d, None).ok()?;
            let input = Ids::new(dims.to_vec(), ids.to_vec()).ok()?;
            State {
                preset: String::new(),
                weight,
                input,
                seed: None,
                last_good: Tensor::vector(Vec::new()),
                ..State::default()
            }
        }
        None if dtype.is_some() => State::default(),
        None => {
            let mut s = State::default();
            let v = s.weight.shape()[0] as i64;
            let mut ids = s.input.data().to_vec();
            *ids.first_mut()? = v;
            s.input = Ids::new(s.input.shape().to_vec(), ids).ok()?;
            s
        }
    };
    state.dtype = dtype.unwrap_or_default();
    state.check().ok()?;
    Some(to_link(&state))
}
