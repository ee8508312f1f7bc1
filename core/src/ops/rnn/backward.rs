use super::*;

impl Rnn {
    /// Backprop through time of `L = Σ output·upstream_output + Σ h_n·upstream_h_n`. At each
    /// step `g = dL/dh_t`, `da = g·act'`; `W_ih.grad += da xᵀ`, `W_hh.grad += da h_{t-1}ᵀ`,
    /// `b.grad += da`, `dL/dx_t = W_ihᵀ da`, `dL/dh_{t-1} = W_hhᵀ da`; layers top-down.
    pub fn backward(
        &self,
        input: &Tensor,
        h0: Option<&Tensor>,
        packing: Option<&Packing>,
        upstream_output: &Tensor,
        upstream_h_n: &Tensor,
    ) -> Result<RnnGrads> {
        let plan = self.plan(input.shape(), h0.map(Tensor::shape), packing)?;
        let (out_shape, h_n_shape) = self.shapes(&plan);
        for (i, (up, shape)) in [(upstream_output, out_shape), (upstream_h_n, h_n_shape)].iter().enumerate() {
            if up.shape() != &shape[..] {
                let (got, want) = (shape_str(up.shape()), shape_str(shape));
                return Err(runtime(format!(
                    "Mismatch in shape: grad_output[{i}] has a shape of torch.Size({got}) and output[{i}] has a shape \
                     of torch.Size({want})."
                )));
            }
        }
        let c = &self.config;
        let (h, n, dirs, steps) = (c.hidden_size, plan.batch, c.num_directions(), plan.steps);
        let h0_data = self.h0_data(h0, &plan);
        let (xs, hs, _) = self.unroll(&plan, input, &h0_data);
        let mut g_out = vec![0.0; steps * n * dirs * h]; // dL/d(layer output), none from padding
        for (r, u) in plan.rows(c.batch_first, steps) {
            g_out[r * dirs * h..][..dirs * h].copy_from_slice(&upstream_output.data()[u * dirs * h..][..dirs * h]);
        }
        let mut grads: Vec<Vec<f32>> = self.params.iter().map(|(_, t)| vec![0.0; t.numel()]).collect();
        let (mut hidden, mut dh0) = (vec![0.0; hs.len() * steps * n * h], vec![0.0; h0_data.len()]);
        for l in (0..c.num_layers).rev() {
            let in_l = if l == 0 { c.input_size } else { dirs * h };
            let mut g_in = vec![0.0; steps * n * in_l];
            for d in 0..dirs {
                let k = l * dirs + d;
                let [w_ih, w_hh] = [0, 1].map(|j| self.param(k, j).unwrap_or_default());
                let (mut gw_ih, mut gw_hh, mut gb) = (vec![0.0; h * in_l], vec![0.0; h * h], vec![0.0; h]);
                let dh = &mut dh0[k * n * h..][..n * h]; // dL/dh of the next step, then h0's
                dh.copy_from_slice(&upstream_h_n.data()[k * n * h..][..n * h]);
                for t in plan.times(d).into_iter().rev() {
                    for b in plan.active(t) {
                        let r = t * n + b;
                        let prev = match plan.prev(d, t, b) {
                            Some(s) => &hs[k][(s * n + b) * h..][..h],
                            None => &h0_data[(k * n + b) * h..][..h],
                        };
                        let x = &xs[l][r * in_l..][..in_l];
                        let mut da = vec![0.0f32; h];
                        for i in 0..h {
                            let g = g_out[r * dirs * h + d * h + i] + dh[b * h + i];
                            hidden[(k * steps * n + r) * h + i] = g;
                            da[i] = c.nonlinearity.backward(hs[k][r * h + i], g);
                            gb[i] += da[i];
                            gw_ih[i * in_l..][..in_l].iter_mut().zip(x).for_each(|(g, x)| *g += da[i] * x);
                            gw_hh[i * h..][..h].iter_mut().zip(prev).for_each(|(g, p)| *g += da[i] * p);
                        }
                        let back = |w: &[f32], j: usize, m: usize| (0..h).fold(0.0f32, |s, i| s + da[i] * w[i * m + j]);
                        (0..in_l).for_each(|j| g_in[r * in_l + j] += back(w_ih, j, in_l));
                        (0..h).for_each(|j| dh[b * h + j] = back(w_hh, j, h));
                    }
                }
                let per = grads.len() / hs.len();
                let slots = [gw_ih, gw_hh, gb.clone(), gb];
                grads[k * per..][..per].iter_mut().zip(slots).for_each(|(g, s)| *g = s);
            }
            g_out = g_in;
        }
        let mut g_input = Tensor::zeros(input.shape().to_vec())?;
        let w = c.input_size;
        for (r, u) in plan.rows(c.batch_first, plan.seq_len) {
            g_input.data_mut()[u * w..][..w].copy_from_slice(&g_out[r * w..][..w]);
        }
        let named = self.params.iter().zip(grads);
        let hidden_shape = if plan.unbatched { vec![hs.len(), steps, h] } else { vec![hs.len(), steps, n, h] };
        Ok(RnnGrads {
            params: named
                .map(|((name, t), g)| Ok((name.clone(), Tensor::new(t.shape().to_vec(), g)?)))
                .collect::<Result<_>>()?,
            input: g_input,
            h0: h0.map(|h| Tensor::new(h.shape().to_vec(), dh0)).transpose()?,
            hidden_grads: Tensor::new(hidden_shape, hidden)?,
        })
    }
}
