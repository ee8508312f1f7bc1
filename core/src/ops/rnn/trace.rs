use super::*;

impl Rnn {
    /// t = 0..T-1 then reverse t = T-1..0 (T = max(lengths) when packed). `forward_trace` step `i`
    /// is cell `i`, `backward_trace` step `i` cell `len-1-i`. Past `MAX_STEPS` cells, one cell per
    /// (layer, direction) with `t: None`.
    pub fn trace_cells(&self, input_shape: &[usize], packing: Option<&Packing>) -> Result<Vec<Cell>> {
        let plan = self.plan(input_shape, None, packing)?;
        let (layers, dirs) = (self.config.num_layers, self.config.num_directions());
        let whole = layers.saturating_mul(dirs).saturating_mul(plan.steps) > MAX_STEPS;
        let cells = (0..layers).flat_map(|layer| (0..dirs).map(move |direction| (layer, direction)));
        let cells = cells.flat_map(|(layer, direction)| match whole {
            true => vec![Cell { layer, direction, t: None }],
            false => plan.times(direction).into_iter().map(|t| Cell { layer, direction, t: Some(t) }).collect(),
        });
        Ok(cells.take(MAX_STEPS).collect())
    }

    pub fn forward_trace(&self, input_shape: &[usize], packing: Option<&Packing>) -> Result<Trace> {
        self.trace(input_shape, packing, Phase::Forward)
    }

    pub fn backward_trace(&self, input_shape: &[usize], packing: Option<&Packing>) -> Result<Trace> {
        self.trace(input_shape, packing, Phase::Backward)
    }

    fn trace(&self, input_shape: &[usize], packing: Option<&Packing>, phase: Phase) -> Result<Trace> {
        let plan = self.plan(input_shape, None, packing)?;
        let mut cells = self.trace_cells(input_shape, packing)?;
        let summarised = cells.first().is_some_and(|c| c.t.is_none());
        if phase == Phase::Backward {
            cells.reverse();
        }
        let steps = cells.iter().map(|cell| self.step(&plan, cell, phase)).collect();
        Ok(Trace { steps, summarised })
    }

    /// One cell's step, named as the module doc says.
    fn step(&self, plan: &Plan, cell: &Cell, phase: Phase) -> Step {
        let (c, l, d) = (&self.config, cell.layer, cell.direction);
        let (dirs, per) = (c.num_directions(), if c.bias { 4 } else { 2 });
        let k = l * dirs + d;
        let state = |l: usize, d: usize| format!("h_l{l}{}", ["", "_reverse"][d]);
        let (h, grad) = (state(l, d), |name: &str| format!("{name}.grad"));
        let inputs: Vec<String> = match l {
            0 => vec!["input".into()],
            _ => (0..dirs).map(|d| state(l - 1, d)).collect(),
        };
        let params: Vec<String> = c.param_shapes().into_iter().skip(k * per).take(per).map(|(n, _)| n).collect();
        // Unpacked, every row moves together and row 0 stands for them all (the shape may be huge).
        let batch = if plan.lengths.is_some() { plan.batch } else { plan.batch.min(1) };
        // `name` at `at` (a time step, or h0/h_n's row k; `None`: whole) over `rows`: one span when
        // every row takes part, else one per row. `input`/`output` follow batch_first.
        let spans = |name: &str, at: Option<usize>, rows: &[usize]| -> Vec<Span> {
            let bf = c.batch_first && !plan.unbatched && (name.starts_with("input") || name.starts_with("output"));
            let idx = |b: Option<usize>| if bf { vec![b, at] } else { [at].into_iter().chain(b.map(Some)).collect() };
            match (at, rows.len()) {
                (_, 0) => vec![],
                (None, _) => vec![Span::whole(name)],
                (Some(_), r) if r == batch => vec![Span::new(name, idx(None))],
                _ => rows.iter().map(|&b| Span::new(name, idx(Some(b)))).collect(),
            }
        };
        let t = cell.t;
        let active: Vec<usize> = (0..batch).filter(|&b| t.is_none_or(|t| t < plan.len(b))).collect();
        let split = |edge: &dyn Fn(usize, usize) -> Option<usize>| -> (Vec<usize>, Vec<usize>) {
            active.iter().copied().partition(|&b| t.is_none_or(|t| edge(t, b).is_none()))
        };
        let (first, cont) = split(&|t, b| plan.prev(d, t, b)); // rows starting here read h0
        let (ending, going) = split(&|t, b| plan.next(d, t, b)); // rows ending here write h_n
        let prev_t = t.and_then(|t| cont.first().and_then(|&b| plan.prev(d, t, b)));
        let next_t = t.and_then(|t| going.first().and_then(|&b| plan.next(d, t, b)));
        let mut reads: Vec<Span> = inputs.iter().flat_map(|n| spans(n, t, &active)).collect();
        let mut writes = spans(&h, t, &active);
        if phase == Phase::Forward {
            reads.extend([spans(&h, prev_t, &cont), spans("h0", Some(k), &first)].concat());
            reads.extend(params.iter().map(Span::whole));
            let output = if l + 1 == c.num_layers { spans("output", t, &active) } else { vec![] };
            writes.extend([output, spans("h_n", Some(k), &ending)].concat());
            return Step { phase, reads, writes, accumulate: false };
        }
        let from_above = if l + 1 == c.num_layers { "output".to_string() } else { h.clone() };
        let mut grad_reads = spans(&grad(&from_above), t, &active);
        grad_reads.extend([spans(&grad(&h), next_t, &going), spans("h_n.grad", Some(k), &ending)].concat());
        grad_reads.extend(writes); // h_t, for act'
        grad_reads.extend(params.iter().take(2).map(Span::whole));
        let mut grad_writes = spans(&grad(&h), t, &active);
        grad_writes.extend(params.iter().map(|n| Span::whole(grad(n))));
        grad_writes.extend(inputs.iter().flat_map(|n| spans(&grad(n), t, &active)));
        grad_writes.extend(spans("h0.grad", Some(k), &first));
        Step { phase, reads: grad_reads, writes: grad_writes, accumulate: true }
    }
}
