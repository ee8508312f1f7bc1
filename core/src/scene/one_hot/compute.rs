use super::*;

/// Everything the view shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    /// `None` only for a damaged saved state (then `issues` says why).
    pub ways: Option<Ways>,
    /// `None` when there are no ids both ways accept.
    pub pass: Option<Pass>,
    /// The loss and both ways' gradients, `None` without a pass (or when the target no longer
    /// fits: `issues` says why).
    pub backward: Option<Backward>,
    /// `backward`'s loss, where the shell reads every scene's.
    pub loss: Option<f32>,
    /// Bad ids pinned to their `input` cell, PyTorch's message from each way.
    pub issues: Vec<Issue>,
    pub shape_equation: String,
}

/// `linear(one_hot)`'s formula lists all V products up to this V, else only the hot one.
const LISTED: usize = 64;

impl Computed {
    /// The tensor the grid of this name shows.
    pub fn tensor(&self, name: &str) -> Option<&Tensor> {
        match name {
            TABLE => self.ways.as_ref().map(|w| &w.emb.weight),
            LINEAR_WEIGHT => self.ways.as_ref().map(|w| &w.linear.linear.weight),
            LOOKUP => self.pass.as_ref().map(|p| &p.lookup),
            LINEAR => self.pass.as_ref().map(|p| &p.linear),
            TABLE_GRAD => self.backward.as_ref().map(|b| &b.emb_grad),
            LINEAR_WEIGHT_GRAD => self.backward.as_ref().map(|b| &b.linear_grad),
            LOOKUP_GRAD | LINEAR_GRAD => self.backward.as_ref().map(|b| &b.upstream),
            _ => None,
        }
    }

    /// The computation of one output cell with its numbers: `linear(one_hot)[k, j]` is the sum
    /// over every column v of `one_hot[k, v]·linear.weight[j, v]` (all products, V−1 of them by
    /// 0); `emb(input)[k, j]` is the copy of `emb.weight[id, j]`. The weight gradients' sums
    /// are `Backward::formula`'s.
    pub fn formula(&self, output: &str, index: &[usize]) -> Option<Formula> {
        if [TABLE_GRAD, LINEAR_WEIGHT_GRAD].contains(&output) {
            return self.backward.as_ref()?.formula(output, index);
        }
        let (ways, pass) = (self.ways.as_ref()?, self.pass.as_ref()?);
        let (&j, row) = index.split_last()?;
        let id = usize::try_from(pass.ids.get(row)?).ok()?;
        match output {
            LOOKUP => Some(Formula {
                target: label(LOOKUP, index),
                func: None,
                products: Vec::new(),
                constants: vec![Factor::new(label(TABLE, &[id, j]), ways.emb.weight.get(&[id, j])?)],
                value: pass.lookup.get(index)?,
                zeros: 0,
            }),
            LINEAR => {
                let w = &ways.linear.linear.weight;
                let vocab = pass.vocab();
                // Past a screenful of columns only the hot one is listed; the zeros are counted.
                let listed = |v: usize| vocab <= LISTED || v == id;
                let products = (0..vocab)
                    .filter(|&v| listed(v))
                    .map(|v| {
                        let at = [row, &[v]].concat();
                        let x = Factor::new(label(ONE_HOT, &at), pass.one_hot.get(&at)? as f32);
                        Some((x, Factor::new(label(LINEAR_WEIGHT, &[j, v]), w.get(&[j, v])?)))
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(Formula {
                    target: label(LINEAR, index),
                    func: None,
                    zeros: vocab - products.len(),
                    products,
                    constants: Vec::new(),
                    value: pass.linear.get(index)?,
                })
            }
            _ => None,
        }
    }
}
