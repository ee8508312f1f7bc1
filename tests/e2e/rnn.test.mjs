// The RNN scene in the built site: each preset shows PyTorch's output and h_n (read from the
// fixtures), an edit recomputes them (checked against a plain JS forward pass), the timeline
// lights one cell per step, and bad inputs get PyTorch's message beside the cell that causes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scene, at, cell, fixture, fmt, labels, mark, shot, status, tdAttr, type } from './browser.mjs';

async function shows(page, name, tensor, what = name) {
  const want = tensor.data.map(fmt);
  const got = [];
  for (const l of labels(name, tensor.shape)) got.push(await cell(page, l));
  assert.deepEqual(got, want, `${what} as PyTorch prints it`);
}

/** A plain nn.RNN forward (tanh, any layers/directions, batch_first, packed lengths, padding). */
function rnnForward(config, params, input, { lengths = null, padding = 0 } = {}) {
  const { batch_first: bf, bidirectional, hidden_size: H, num_layers: layers } = config;
  const D = bidirectional ? 2 : 1;
  const [N, L, F] = bf ? input.shape : [input.shape[1], input.shape[0], input.shape[2]];
  const len = (b) => (lengths ? lengths[b] : L);
  const T = lengths ? Math.max(...lengths) : L;
  let x = (t, b) => input.data.slice((bf ? b * L + t : t * N + b) * F, (bf ? b * L + t : t * N + b) * F + F);
  const hN = [];
  for (let l = 0; l < layers; l++) {
    const outs = [];
    for (let d = 0; d < D; d++) {
      const sfx = `_l${l}${d ? '_reverse' : ''}`;
      const [wih, whh] = [params[`weight_ih${sfx}`], params[`weight_hh${sfx}`]];
      const [bih, bhh] = [params[`bias_ih${sfx}`], params[`bias_hh${sfx}`]];
      const out = Array.from({ length: T }, () => []);
      const last = [];
      for (let b = 0; b < N; b++) {
        let h = new Array(H).fill(0);
        const times = [...Array(len(b)).keys()];
        if (d) times.reverse();
        for (const t of times) {
          const xt = x(t, b);
          h = h.map((_, i) => {
            let a = bih ? bih.data[i] + bhh.data[i] : 0;
            xt.forEach((v, j) => (a += wih.data[i * xt.length + j] * v));
            h.forEach((v, j) => (a += whh.data[i * H + j] * v));
            return Math.tanh(a);
          });
          out[t][b] = h;
        }
        last.push(h);
      }
      hN.push(last);
      outs.push(out);
    }
    x = (t, b) => outs.flatMap((o) => o[t][b]);
  }
  const output = [];
  const rows = bf ? [N, T] : [T, N];
  for (let i = 0; i < rows[0]; i++)
    for (let j = 0; j < rows[1]; j++) {
      const [t, b] = bf ? [j, i] : [i, j];
      output.push(...(t < len(b) ? x(t, b) : new Array(D * H).fill(padding)));
    }
  return {
    output: { shape: [...rows, D * H], data: output },
    h_n: { shape: [layers * D, N, H], data: hN.flat(2) },
  };
}

/** Every number of `name` within `tol` of `want` (print precision by default). */
async function near(page, name, shape, want, tol = 1.5e-4) {
  for (const [k, l] of labels(name, shape).entries()) {
    const got = Number(await cell(page, l));
    assert.ok(Math.abs(got - want[k]) <= tol, `${l}: page ${got}, expected ${want[k]}`);
  }
}

const box = (page, cell) => page.locator(`.rnn-cell[data-cell="${cell}"]`);

const { open } = scene('#/rnn', { ready: '[data-cell="output[0, 0, 0]"]', picked: '[aria-label="Shapes"]' });

async function snap(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300); // let the step transition finish
  await shot(page, `rnn-${name}`);
}

test('rnn_2_5_batch_first: output and h_n are PyTorch’s, an edit recomputes, steps light one cell', async () => {
  const f = fixture('seed_rnn_2_to_5_batch_first');
  const page = await open(null);
  assert.match(await page.locator('[aria-label="Shapes"]').textContent(), /input \(3, 2, 2\).*output \(3, 2, 5\).*h_n \(1, 3, 5\)/);
  await shows(page, 'output', f.output);
  await shows(page, 'h_n', f.h_n);
  await shows(page, 'weight_hh_l0', f.params.weight_hh_l0);
  assert.equal(await page.locator('details.rnn-params').getAttribute('open'), '', 'one layer: parameters open');

  // One step = one cell: t = 0 writes output[:, 0]; t = 1 writes output[:, 1] and h_n.
  await page.click('button[aria-label="Step forward"]');
  assert.equal(await mark(page, 'output[2, 0, 4]'), 'write');
  assert.equal(await mark(page, 'input[1, 0, 1]'), 'read');
  assert.equal(await box(page, 'h_l0[0, 0]').getAttribute('data-mark'), 'write');
  await page.keyboard.press('PageDown');
  assert.equal(await mark(page, 'output[2, 0, 4]'), 'done');
  assert.equal(await mark(page, 'output[0, 1, 0]'), 'write');
  assert.equal(await mark(page, 'h_n[0, 1, 3]'), 'write');
  assert.equal(await box(page, 'h_l0[0, 0]').getAttribute('data-mark'), 'read');
  assert.equal(await box(page, 'h_l0[1, 0]').getAttribute('data-mark'), 'write');
  assert.match(await status(page), /h_l0\[1\]: input\[:, 1\] and h_l0\[0\] times their weights, plus biases, through tanh\. It is output\[:, 1\] and h_n\[0\]\./);
  assert.match(await page.locator('.formula').textContent(), /h_l0\[1, 0, 0\]/);
  await snap(page, 'rnn_2_5_batch_first');
  await box(page, 'h_l0[0, 0]').click(); // a cell is a way back to its step
  assert.match(await status(page), /^Step 1 of 2: h_l0\[0\]: /);

  // Edit a weight: output and h_n follow.
  await type(page, 'weight_ih_l0[0, 0]', '0.5');
  const params = structuredClone(f.params);
  params.weight_ih_l0.data[0] = 0.5;
  const want = rnnForward(f.config, params, f.input);
  await near(page, 'output', want.output.shape, want.output.data);
  await near(page, 'h_n', want.h_n.shape, want.h_n.data);

  // Bad text keeps the value and says why.
  await type(page, 'weight_hh_l0[0, 0]', 'abc');
  assert.equal(await page.locator('[data-cell="weight_hh_l0[0, 0]"]').getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('[role=alert]').first().textContent(), /could not convert string to float: 'abc'/);

  // A feature count that no longer matches input_size: PyTorch's error, the last output stays.
  await type(page, 'features', '4');
  const alert = page.locator('.issue[role=alert]');
  assert.match(await alert.first().textContent(), /RuntimeError: input.size\(-1\) must be equal to input_size. Expected 2, got 4/);
  await near(page, 'output', want.output.shape, want.output.data);
  assert.deepEqual(page.errors, []);
});

test('what flows into a cell is on screen after a keyboard focus or Enter, not only in its tooltip', async () => {
  const page = await open(null);
  const feeds = page.locator('.rnn-feeds');
  assert.equal(await feeds.textContent(), '', 'no cell focused, no step yet');
  // Focus h_l0[0, 0], then Tab to h_l0[1, 0]: the line says what the focused cell's tooltip says.
  await box(page, 'h_l0[0, 0]').focus();
  assert.equal(await box(page, 'h_l0[0, 0]').getAttribute('title'), 'h_l0[0, 0] ← input[0, 0] and h0[0, 0]');
  assert.equal(await feeds.textContent(), 'h_l0[0, 0] ← input[0, 0] and h0[0, 0]');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.cell), 'h_l0[1, 0]');
  assert.equal(await feeds.textContent(), await box(page, 'h_l0[1, 0]').getAttribute('title'));
  assert.equal(await feeds.textContent(), 'h_l0[1, 0] ← input[0, 1] and h_l0[0, 0]');
  assert.ok(await feeds.isVisible());
  // Enter goes to the cell's step; once the focus leaves, the line follows the cell the step writes.
  await page.keyboard.press('Enter');
  assert.match(await status(page), /^Step 2 of 2: h_l0\[1\]: /);
  await page.getByRole('button', { name: '1', exact: true }).focus();
  await page.keyboard.press('Enter');
  assert.equal(await feeds.textContent(), 'h_l0[1, 1] ← input[1, 1] and h_l0[0, 1]', 'sequence 1, the step writing');
  await page.click('button[aria-label="First step"]');
  await page.click('button[aria-label="Step forward"]');
  assert.equal(await feeds.textContent(), 'h_l0[0, 1] ← input[1, 0] and h0[0, 1]');
  // Nothing of it needed a hover: no cell of the diagram was ever under the pointer.
  assert.equal(await page.locator('.rnn-cell:hover').count(), 0);

  // On the projector too, in the first screen.
  await page.getByLabel('Projector').check();
  assert.ok(await feeds.isVisible());
  assert.equal(await feeds.textContent(), 'h_l0[0, 1] ← input[1, 0] and h0[0, 1]');
  assert.deepEqual(page.errors, []);
});

test('rnn_2x3_bi_packed: two layers, both directions, packed; skipped steps and the sort rule', async () => {
  const f = fixture('seed_rnn_2x3_two_layers_bidirectional_packed');
  const page = await open('rnn_2x3_bi_packed');
  await shows(page, 'output', f.output);
  await shows(page, 'h_n', f.h_n);
  const lengths = [];
  for (let b = 0; b < 4; b++) lengths.push(await cell(page, `lengths[${b}]`));
  assert.deepEqual(lengths, ['2', '2', '1', '1']);
  assert.equal(await page.locator('details.rnn-params').getAttribute('open'), null, 'many parameters: folded');

  // Sequence 2 has one step: its t = 1 cells are skipped in every lane.
  await page.getByRole('button', { name: '2 (length 1)' }).click();
  for (const lane of ['h_l0', 'h_l0_reverse', 'h_l1', 'h_l1_reverse']) {
    assert.match(await box(page, `${lane}[1, 2]`).textContent(), /skipped/);
  }
  assert.match(await page.locator('.rnn-pack-note').textContent(), /sequence 2 stops after t = 0/);

  // Step 2 = layer 0 forward at t = 1: only sequences 0 and 1 run; their h_n row is written.
  await page.click('button[aria-label="Step forward"]');
  await page.click('button[aria-label="Step forward"]');
  assert.match(await status(page), /No step for sequences 2, 3: already ended/);
  assert.equal(await mark(page, 'h_n[0, 1, 0]'), 'write');
  assert.equal(await mark(page, 'h_n[0, 2, 0]'), 'done');
  assert.equal(await mark(page, 'input[1, 2, 0]'), null);
  await page.getByRole('button', { name: '0 (length 2)' }).click();
  assert.equal(await box(page, 'h_l0[1, 0]').getAttribute('data-mark'), 'write');
  await snap(page, 'rnn_2x3_bi_packed');

  // Lengths must not increase with enforce_sorted: PyTorch's message on the cell that breaks it.
  await type(page, 'lengths[3]', '2');
  const sorted = fixture('pack_lengths_not_sorted').error.message;
  assert.equal(await page.locator('input[data-cell="lengths[3]"]').getAttribute('aria-invalid'), 'true');
  assert.ok((await page.locator('[role=alert]').allTextContents()).some((t) => t.includes(sorted)));
  await shows(page, 'output', f.output, 'the last output that ran');
  await page.getByLabel('enforce_sorted').uncheck();
  const want = rnnForward(f.config, f.params, f.input, { lengths: [2, 2, 1, 2], padding: 1 });
  await near(page, 'output', want.output.shape, want.output.data);
  await near(page, 'h_n', want.h_n.shape, want.h_n.data);
  assert.equal(await page.locator('input[data-cell="lengths[3]"]').getAttribute('aria-invalid'), null);
  assert.deepEqual(page.errors, []);
});

test('embedding_to_rnn: ids pick rows of emb.weight, which feed the RNN', async () => {
  const page = await open('embedding_to_rnn');
  assert.match(await page.locator('[aria-label="Shapes"]').textContent(), /ids \(2, 3\).*input \(2, 3, 4\).*output \(2, 3, 3\).*h_n \(1, 2, 3\)/);
  // input[b, t] is row ids[b, t] of emb.weight.
  const ids = [[1, 2, 3], [4, 5, 6]];
  for (const [b, row] of ids.entries())
    for (const [t, id] of row.entries())
      for (let j = 0; j < 4; j++) assert.equal(await cell(page, `input[${b}, ${t}, ${j}]`), await cell(page, `emb.weight[${id}, ${j}]`));

  // The timeline first copies rows (6 lookups), then runs 3 cells.
  await page.click('button[aria-label="Step forward"]');
  await page.click('button[aria-label="Step forward"]');
  assert.equal(await mark(page, 'ids[0, 1]'), 'read');
  assert.equal(await mark(page, 'emb.weight[2, 3]'), 'read');
  assert.equal(await mark(page, 'input[0, 1, 3]'), 'write');
  assert.match(await status(page), /ids\[0, 1\] = 2: row 2 of emb.weight is copied to input\[0, 1\]/);
  await page.click('button[aria-label="Last step"]');
  assert.match(await status(page), /Step 9 of 9: h_l0\[2\]: /);
  assert.equal(await mark(page, 'h_n[0, 1, 2]'), 'write');
  await snap(page, 'embedding_to_rnn');

  // Editing an id changes the input row; an id past the table is PyTorch's IndexError.
  await type(page, 'ids[0, 0]', '9');
  assert.equal(await cell(page, 'input[0, 0, 2]'), await cell(page, 'emb.weight[9, 2]'));
  const before = await cell(page, 'output[0, 0, 0]');
  await type(page, 'emb.weight[9, 0]', '3');
  assert.equal(await cell(page, 'input[0, 0, 0]'), '3.0000');
  assert.notEqual(await cell(page, 'output[0, 0, 0]'), before);
  await type(page, 'ids[1, 2]', '10');
  assert.equal(await page.locator('input[data-cell="ids[1, 2]"]').getAttribute('aria-invalid'), 'true');
  assert.ok((await page.locator('[role=alert]').allTextContents()).some((t) => t.includes('IndexError: index out of range in self')));
  assert.deepEqual(page.errors, []);
});

test('the fields rebuild a PyTorch case: three layers, seed 6', async () => {
  const f = fixture('rnn_three_layers_batch_first');
  const page = await open(null);
  for (const [field, value] of [['hidden_size', '3'], ['num_layers', '3'], ['batch', '2'], ['seq_len', '4']])
    await type(page, field, value);
  await page.getByLabel('Seed').fill(String(f.init_seed));
  await page.getByRole('button', { name: 'Re-init' }).click();
  await shows(page, 'weight_ih_l2', f.params.weight_ih_l2);
  for (const [k, l] of labels('input', f.input.shape).entries()) await type(page, l, String(f.input.data[k]));
  await shows(page, 'output', f.output);
  await shows(page, 'h_n', f.h_n);
  assert.equal(await page.locator('.rnn-row.lane').count(), 3);
  assert.match(await page.locator('[aria-label="Shapes"]').textContent(), /h_n \(3, 2, 3\)/);
  assert.deepEqual(page.errors, []);
});

// --- Backward: backprop through time, the ‖dL/dh_t‖ chart, SGD ---

const changedAt = (page, label) => tdAttr(page, label, 'data-changed');

/** The loss of a plain JS forward, and its central finite difference in each cell of `name`. */
function finiteDiff(config, params, input, name, loss) {
  const eps = 1e-6;
  return params[name].data.map((_, k) => {
    const at = (d) => {
      const p = structuredClone(params);
      p[name].data[k] += d;
      return loss(rnnForward(config, p, input).output.data);
    };
    return (at(eps) - at(-eps)) / (2 * eps);
  });
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

test('backward (default preset): weight_hh_l0.grad is the finite difference, the trace runs back, SGD and Undo', async () => {
  const f = fixture('seed_rnn_2_to_5_batch_first');
  const page = await open(null);
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  // loss = output.sum(): every .grad is d(sum of output)/d(cell), checked by finite differences in JS.
  const fd = finiteDiff(f.config, f.params, f.input, 'weight_hh_l0', sum);
  await near(page, 'weight_hh_l0.grad', [5, 5], fd, 2e-4);
  const fdIh = finiteDiff(f.config, f.params, f.input, 'weight_ih_l0', sum);
  await near(page, 'weight_ih_l0.grad', [5, 2], fdIh, 2e-4);
  assert.equal(await cell(page, 'output.grad[0, 0, 0]'), '1.0000');
  const loss = Number((await page.getByLabel('Loss value').textContent()).replace(/[^-0-9.e]/g, ''));
  assert.ok(Math.abs(loss - sum(f.output.data)) < 1e-2, `loss ${loss}`);

  // The backward trace starts at the last cell and goes back in time, coloured as backward.
  await page.click('button[aria-label="Step forward"]');
  assert.match(await status(page), /h_l0\[1\]: gradient from output\.grad\[:, 1\], times tanh's slope/);
  assert.equal(await box(page, 'h_l0[1, 0]').getAttribute('data-mark'), 'write');
  assert.equal(await box(page, 'h_l0[1, 0]').getAttribute('data-phase'), 'backward');
  assert.equal(await mark(page, 'weight_hh_l0.grad[0, 0]'), 'write');
  assert.ok((await page.locator('td[data-phase="backward"]').count()) > 0);
  await page.click('button[aria-label="Step forward"]');
  assert.match(await status(page), /h_l0\[0\]: gradient from output\.grad\[:, 0\] and t = 1/);
  assert.equal(await box(page, 'h_l0[0, 0]').getAttribute('data-mark'), 'write');
  assert.equal(await box(page, 'h_l0[1, 0]').getAttribute('data-mark'), 'read', 'dL/dh_1 flows into t = 0');

  // ‖dL/dh_t‖: one bar per time step.
  assert.equal(await page.locator('.rnn-norms .norm-lane[data-lane="h_l0"] .norm-bar').count(), 2);
  await snap(page, 'backward-top');
  await shot(page, 'rnn-backward', { fullPage: true });

  // SGD step: weight -= lr * grad; exactly the cells with gradient change; Undo restores.
  const before = await cell(page, 'weight_ih_l0[0, 0]');
  const g = Number(await cell(page, 'weight_ih_l0.grad[0, 0]'));
  await page.getByRole('button', { name: 'SGD step' }).click();
  assert.match(await page.getByLabel('Steps taken').textContent(), /1/);
  assert.ok(Math.abs(Number(await cell(page, 'weight_ih_l0[0, 0]')) - (Number(before) - 0.1 * g)) < 2e-4);
  for (const [name, shape] of [['weight_ih_l0', [5, 2]], ['bias_ih_l0', [5]], ['bias_hh_l0', [5]]])
    for (const l of labels(name, shape)) assert.equal(await changedAt(page, l), 'true', l);
  // A saturated unit (tanh = 1.0000) passes no gradient: its weight_hh row does not move.
  for (const [k, l] of labels('weight_hh_l0', [5, 5]).entries())
    assert.equal(await changedAt(page, l), Math.abs(fd[k]) < 1e-6 ? null : 'true', l);
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await cell(page, 'weight_ih_l0[0, 0]'), before);
  assert.equal(await changedAt(page, 'weight_ih_l0[0, 0]'), null);
  assert.match(await page.getByLabel('Steps taken').textContent(), /0/);

  // Forward again: the forward trace from its start.
  await page.getByRole('button', { name: 'Forward', exact: true }).click();
  assert.match(await status(page), /^Ready: 2 steps/);
  assert.deepEqual(page.errors, []);
});

test('vanishing_long_tanh: PyTorch’s grads through the mse target, the chart fades, SGD moves every parameter', async () => {
  const f = fixture('rnn_tanh_long_sequence_vanishing');
  const page = await open('vanishing_long_tanh');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  assert.equal(await page.getByLabel('Loss', { exact: true }).inputValue(), 'mse');
  // The preset's loss is on the last step only: the bars shrink going back in time.
  const bars = page.locator('.rnn-norms .norm-lane[data-lane="h_l0"] .norm-value');
  assert.equal(await bars.count(), 12);
  const norms = (await bars.allTextContents()).map(Number);
  assert.ok(norms[0] < norms[11] / 100, `norms ${norms}`);
  // Its grads are d/dW of mean((output - target)^2), the target being the output but 0 at t = 11.
  const target = f.output.data.map((v, k) => (k >= 22 ? 0 : v));
  const mse = (out) => sum(out.map((v, k) => (v - target[k]) ** 2)) / out.length;
  await near(page, 'weight_hh_l0.grad', [2, 2], finiteDiff(f.config, f.params, f.input, 'weight_hh_l0', mse), 1e-4);

  // A target with 2·(output − target)/24 = the fixture's upstream (h_n's folded into t = 11) gives
  // exactly the grads PyTorch computed.
  const up = f.upstream.output.data.map((v, k) => v + (k >= 22 ? f.upstream.h_n.data[k - 22] : 0));
  for (const [k, l] of labels('target', [12, 1, 2]).entries()) await type(page, l, String(f.output.data[k] - 12 * up[k]));
  for (const name of ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0', 'input'])
    await near(page, `${name}.grad`, f.grads[name].shape, f.grads[name].data);

  // SGD: every parameter cell has gradient here, so every one changes.
  await page.getByRole('button', { name: 'SGD step' }).click();
  for (const name of ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0'])
    for (const l of labels(name, f.params[name].shape)) assert.equal(await changedAt(page, l), 'true', l);
  await page.getByRole('button', { name: 'Reset' }).click();
  await shows(page, 'weight_hh_l0', f.params.weight_hh_l0);
  assert.deepEqual(page.errors, []);
});

test('exploding_relu: the gradient grows going back in time', async () => {
  const page = await open('exploding_relu');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  const norms = (await page.locator('.rnn-norms .norm-lane[data-lane="h_l0"] .norm-value').allTextContents()).map(Number);
  assert.equal(norms.length, 10);
  assert.ok(norms.every((v, t) => t === 0 || v < norms[t - 1]), `norms ${norms}`);
  assert.ok(norms[0] > 100 * norms[9]);
  assert.deepEqual(page.errors, []);
});

test('h_n in the loss: output.sum() + h_n.sum() gives PyTorch’s grads, h_n.grad = 1 enters the last cells', async () => {
  for (const [preset, name] of [
    [null, 'rnn_loss_output_and_h_n_sum'],
    ['rnn_2x3_bi_packed', 'rnn_packed_bi_loss_output_and_h_n_sum'],
  ]) {
    const f = fixture(name);
    const page = await open(preset);
    await page.getByRole('button', { name: 'Backward', exact: true }).click();
    const include = page.getByRole('checkbox', { name: 'add h_n.sum() to the loss' });
    assert.equal(await include.isChecked(), false);
    assert.equal(await cell(page, 'h_n.grad[0, 0, 0]'), '0.0000');
    await include.check();
    for (const l of labels('h_n.grad', f.h_n.shape)) assert.equal(await cell(page, l), '1.0000', l);
    const loss = Number((await page.getByLabel('Loss value').textContent()).replace(/[^-0-9.e]/g, ''));
    assert.ok(Math.abs(loss - f.loss.value) < 1e-3, `loss ${loss} vs ${f.loss.value}`);
    for (const [grad, want] of Object.entries(f.grads)) await near(page, `${grad}.grad`, want.shape, want.data, 1e-4);
    // It is kept with the scene: a reload still has it.
    await page.reload();
    await page.getByRole('button', { name: 'Backward', exact: true }).click();
    assert.equal(await page.getByRole('checkbox', { name: 'add h_n.sum() to the loss' }).isChecked(), true);
    assert.equal(await cell(page, 'h_n.grad[0, 0, 0]'), '1.0000');
    assert.deepEqual(page.errors, []);
  }
});

test('backward: clicking a .grad cell shows the sum backward makes for it, over every sequence and step it ran', async () => {
  const page = await open('rnn_2x3_bi_packed');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.locator('details.rnn-params > summary').click();
  const formula = page.locator('.formula');
  // Two layers, both directions, packed lengths [2, 2, 1, 1]: layer 1's reverse weight adds da
  // times what it read from layer 0's reverse states (input column 4 = reverse unit 1), at the
  // steps each sequence ran; a bias adds da; the input gathers da back through both directions.
  for (const [name, parts, absent] of [
    ['weight_ih_l1_reverse.grad[0, 4]', [/da_l1_reverse\[1, 1, 0\]·h_l0_reverse\[1, 1, 1\]/, /da_l1_reverse\[0, 3, 0\]·h_l0_reverse\[0, 3, 1\]/], /\[1, 3, /],
    ['bias_hh_l0.grad[1]', [/da_l0\[0, 0, 1\]/, /da_l0\[0, 3, 1\]/], /da_l0\[1, 3, 1\]/],
    ['input.grad[0, 3, 1]', [/da_l0\[0, 3, 2\]·weight_ih_l0\[2, 1\]/, /da_l0_reverse\[0, 3, 0\]·weight_ih_l0_reverse\[0, 1\]/], /·h_l0/],
  ]) {
    await at(page, name).click();
    const text = await formula.textContent();
    assert.ok(text.startsWith(name), `${name}: ${text}`);
    for (const part of parts) assert.match(text, part, name);
    assert.doesNotMatch(text, absent, `${name}: nothing it does not sum`);
    const [shown, result] = [Number(await cell(page, name)), Number(await formula.locator('.result').textContent())];
    assert.ok(Math.abs(shown - result) < 1e-4, `${name}: the cell shows ${shown}, its formula ${result}`);
  }
  assert.notEqual(Number(await cell(page, 'weight_ih_l1_reverse.grad[0, 4]')), 0);
  assert.match(await page.locator('.rnn-hint').first().textContent(), /da = h.grad · \(1 − h²\)/);
  // A step shows the step's own formula again.
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.doesNotMatch(await formula.textContent(), /input\.grad/);
  assert.deepEqual(page.errors, []);
});

test('backward: clicking a cell goes to its backward step and shows how its dL/dh_t is made', async () => {
  const page = await open(null);
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('checkbox', { name: 'add h_n.sum() to the loss' }).check();
  // Going back, t = 1 is the first step and t = 0 the second.
  await box(page, 'h_l0[0, 0]').click();
  assert.match(await status(page), /h_l0\[0\]: gradient from output\.grad\[:, 0\] and t = 1/);
  assert.equal(await box(page, 'h_l0[0, 0]').getAttribute('data-mark'), 'write');
  // dL/dh_0 = output.grad + Σ_j da_l0[1, 0, j] · weight_hh_l0[j, 0]: the gradient back from t = 1.
  const formula = page.locator('.formula');
  const text = await formula.textContent();
  assert.match(text, /h_l0\.grad\[0, 0, 0\]/);
  assert.match(text, /output\.grad\[0, 0, 0\]/);
  assert.match(text, /da_l0\[1, 0, 4\]/);
  assert.match(text, /weight_hh_l0\[4, 0\]/);
  assert.match(await page.locator('.rnn-hint').first().textContent(), /da = h.grad · \(1 − h²\)/);
  await box(page, 'h_l0[1, 0]').click();
  assert.match(await status(page), /h_l0\[1\]: gradient from output\.grad\[:, 1\] and h_n\.grad,/);
  assert.match(await formula.textContent(), /h_n\.grad\[0, 0, 0\]/);
  // Forward: the same click goes to the forward step.
  await page.getByRole('button', { name: 'Forward', exact: true }).click();
  await box(page, 'h_l0[1, 0]').click();
  assert.match(await status(page), /^Step 2 of 2: h_l0\[1\]: input\[:, 1\] and h_l0\[0\]/);
  assert.deepEqual(page.errors, []);
});
