// The Linear scene in the built site: every preset shows PyTorch's own outputs (from the
// fixtures), edits recompute, the animation lights one input row and one weight row per output
// cell, and bad input is refused beside the cell it was typed into.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scene, cell, fixture, fmt, labels, mark, shot, status, tdAttr, type } from './browser.mjs';

const PRESETS = [
  { id: 'vector_6_to_10', fixture: 'seed_linear_6_to_10_vector' },
  { id: 'batch_6_to_10', fixture: 'seed_linear_6_to_10_batch2' },
  { id: 'fixed_2_to_3_3d', fixture: 'seed_linear_2_to_3_fixed_weights_3d_input' },
];

const { site, open } = scene('#/linear', { ready: '[role=grid][aria-label=output]' });

async function stepTo(page, k) {
  await page.getByRole('button', { name: 'First step' }).click();
  for (let i = 0; i < k; i++) await page.getByRole('button', { name: 'Step forward' }).click();
}

for (const p of PRESETS) {
  test(`${p.id}: PyTorch's outputs, an edit, and the animation`, async () => {
    const f = fixture(p.fixture);
    const page = await open(p.id);
    const y = f.output;
    const out = labels('output', y.shape);
    for (const [i, l] of out.entries()) assert.equal(await cell(page, l), fmt(y.data[i]), l);
    const w = f.params.weight;
    assert.equal(await cell(page, 'weight[0, 1]'), fmt(w.data[1]));

    // weight[0, 1] := 2 changes column 0 of the output by (2 - w01) · input[..., 1].
    const inf = f.config.in_features;
    const outf = f.config.out_features;
    const rows = f.input.data.length / inf;
    await type(page, 'weight[0, 1]', '2');
    for (let n = 0; n < rows; n++) {
      const want = y.data[n * outf] + (2 - w.data[1]) * f.input.data[n * inf + 1];
      const got = Number(await cell(page, out[n * outf]));
      assert.ok(Math.abs(got - want) < 2e-4, `output row ${n}: ${got} vs ${want}`);
    }

    // The last row's last cell: its input row and weight row light up, the cell is written.
    const last = y.data.length;
    await stepTo(page, last);
    const target = out[last - 1];
    const inputRow = labels('input', f.input.shape)[(rows - 1) * inf];
    assert.equal(await mark(page, target), 'write');
    assert.equal(await mark(page, out[last - 2]), 'done');
    assert.equal(await mark(page, `weight[${outf - 1}, 0]`), 'read');
    assert.equal(await mark(page, 'weight[0, 0]'), null);
    assert.equal(await mark(page, inputRow), 'read');
    assert.equal(await mark(page, `bias[${outf - 1}]`), 'read');
    const status = await page.getByRole('status').textContent();
    assert.match(status, new RegExp(`Step ${last} of ${last}: ${target.replace(/[[\]]/g, '\\$&')}: (the input|input row \\d+|input\\[[\\d, ]+\\]) times row ${outf - 1} of weight`));
    assert.match(await page.getByLabel('formula').textContent(), new RegExp(target.replace(/[[\]]/g, '\\$&')));

    // What a learner watching the animation sees: the output being written, at 1280×800.
    await page.locator('[role=grid][aria-label=output]').scrollIntoViewIfNeeded();
    await shot(page, `linear-${p.id}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a vector is one row, a batch is rows: the shape equation and the step text say so', async () => {
  const page = await open('vector_6_to_10');
  const eq = page.getByLabel('Shape equation');
  assert.match(await eq.textContent(), /^weight \(10, 6\) @ input \(6,\) \+ bias \(10,\) → output \(10,\), the same computation as input \(6,\) @ weight.T/);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  assert.match(await page.getByRole('status').textContent(), /output\[1\]: the input times row 1 of weight, number by number, summed, plus bias\[1\] = -?\d\.\d{4}\./);
  assert.equal(await mark(page, 'input[5]'), 'read');
  assert.equal(await mark(page, 'weight[1, 5]'), 'read');

  // Batch of one: the same vector gets one more bracket and the same ten numbers.
  const before = await cell(page, 'output[3]');
  await page.getByLabel('a batch (N, in)').check();
  assert.equal(await cell(page, 'output[0, 3]'), before);
  assert.match(await eq.textContent(), /^input \(1, 6\) @ weight.T \(6, 10\) \+ bias \(10,\) → output \(1, 10\)$/);
  await type(page, 'input.shape[0]', '3');
  assert.equal(await cell(page, 'output[2, 3]'), fmt(fixture('seed_linear_6_to_10_vector').params.bias.data[3]), 'a zero row gives bias');

  // Seeing the weight as weight.T: row 3 of weight is column 3 of weight.T.
  await page.getByLabel('show weight as weight.T (in, out)').check();
  await stepTo(page, 14); // output[1, 3]
  assert.equal(await mark(page, 'weight.T[5, 3]'), 'read');
  assert.equal(await mark(page, 'weight.T[5, 2]'), null);
  await page.locator('[role=grid][aria-label="weight.T"]').scrollIntoViewIfNeeded();
  await shot(page, 'linear-weight_t');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('sizes stay linked, bad text is refused beside its cell, re-init is PyTorch\'s', async () => {
  const page = await open('batch_6_to_10');
  const inf = await type(page, 'in_features', '4');
  assert.equal(await page.locator('[data-cell="weight[9, 3]"]').count(), 1);
  assert.equal(await page.locator('[data-cell="weight[0, 4]"]').count(), 0);
  assert.equal(await page.locator('[data-cell="input[1, 4]"]').count(), 0);
  assert.match(await page.getByLabel('Shape equation').textContent(), /input \(2, 4\) @ weight.T \(4, 10\)/);

  await type(page, 'in_features', '65');
  assert.equal(await inf.getAttribute('aria-invalid'), 'true');
  assert.match(await page.getByRole('alert').first().textContent(), /choose a size from 1 to 64/);
  await inf.press('Escape');

  const out = await cell(page, 'output[0, 0]');
  const w = await type(page, 'weight[0, 0]', 'abc');
  assert.equal(await w.getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('td:has([data-cell="weight[0, 0]"]) [role=alert]').textContent(), /could not convert string to float: 'abc'/);
  assert.equal(await cell(page, 'output[0, 0]'), out, 'the last good value stays');
  // Its cell is framed in the error colour until the text is fixed or reverted.
  const framed = (on) =>
    page.waitForFunction((on) => {
      const shadow = getComputedStyle(document.querySelector('[data-cell="weight[0, 0]"]').closest('td')).boxShadow;
      return on ? /inset/.test(shadow) : shadow === 'none';
    }, on);
  await framed(true);
  await w.press('Escape');
  assert.equal(await w.getAttribute('aria-invalid'), null);
  await framed(false);

  await page.getByRole('checkbox', { name: 'bias' }).uncheck();
  assert.equal(await page.locator('[role=grid][aria-label=bias]').count(), 0);
  assert.match(await page.locator('.lin-call code').textContent(), /nn.Linear\(4, 10, bias=False\)/);

  // torch.manual_seed(42); nn.Linear(6, 10)
  await type(page, 'in_features', '6');
  await page.getByRole('checkbox', { name: 'bias' }).check();
  await page.getByLabel('Seed').fill('42');
  await page.getByRole('button', { name: 'Re-init' }).click();
  const init = fixture('init_seed42_linear_and_rnn').modules[0].params;
  assert.equal(await cell(page, 'weight[0, 0]'), fmt(init.weight.data[0]));
  assert.equal(await cell(page, 'bias[9]'), fmt(init.bias.data[9]));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a saved state whose shapes disagree shows PyTorch\'s error on input, and can be repaired', async () => {
  const page = await site.page();
  const saved = {
    preset: 'batch_6_to_10',
    weight: { shape: [10, 6], data: Array(60).fill(0.5) },
    bias: { shape: [10], data: Array(10).fill(0) },
    has_bias: true,
    input: { shape: [2, 5], data: Array(10).fill(1) },
  };
  await page.addInitScript((json) => localStorage.setItem('rowflow.linear', json), JSON.stringify(saved));
  await page.goto(site.base + '#/linear');
  const alert = page.locator('td:has([data-cell="input[0, 4]"]) [role=alert]');
  await alert.waitFor();
  assert.match(await alert.textContent(), /addmm: mat1 and mat2 shapes cannot be multiplied \(2x5 and 6x10\)/);
  assert.match(await page.getByLabel('Shape equation').textContent(), /cannot multiply, 5 ≠ 6/);
  await shot(page, 'linear-shape_error');
  await type(page, 'in_features', '5');
  assert.equal(await cell(page, 'output[1, 9]'), '2.5000');
  assert.equal(await page.locator('[role=alert]').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

const changed = (page, label) => tdAttr(page, label, 'data-changed');

test('backward: PyTorch\'s grads, the backward animation, and an SGD step that undoes', async () => {
  // Vector preset: an mse target of output − upstream·N/2 makes the fixture's upstream the
  // loss's gradient, so the .grad cells must be PyTorch's.
  const f = fixture('seed_linear_6_to_10_vector');
  let page = await open('vector_6_to_10');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  assert.equal(await page.getByRole('button', { name: 'Backward', exact: true }).getAttribute('aria-pressed'), 'true');
  const sum = f.output.data.reduce((a, b) => a + b, 0);
  assert.match(await page.getByLabel('Loss value').textContent(), new RegExp(sum.toFixed(4).replace('.', '\\.')));
  await page.getByLabel('Loss', { exact: true }).selectOption('mse');
  const n = f.output.data.length;
  for (let i = 0; i < n; i++) {
    const t = f.output.data[i] - (f.upstream.data[i] * n) / 2;
    await type(page, `target[${i}]`, t.toPrecision(9));
  }
  for (const name of ['weight', 'bias', 'input']) {
    const g = f.grads[name];
    for (const [i, at] of labels(`${name}.grad`, g.shape).entries()) assert.equal(await cell(page, at), fmt(g.data[i]), at);
  }
  await page.close();

  // fixed_2_to_3_3d with the sum loss: weight.grad[i, k] = Σ_n input[n, k] = 12, bias.grad = N = 6.
  page = await open('fixed_2_to_3_3d');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < 2; k++) assert.equal(await cell(page, `weight.grad[${i}, ${k}]`), '12.0000');
    assert.equal(await cell(page, `bias.grad[${i}]`), '6.0000');
  }
  assert.equal(await cell(page, 'input.grad[1, 2, 1]'), '1.0000');
  assert.match(await status(page), /^Ready: 18 steps/);

  // The first backward step: output.grad[1, 2, 2] flows into weight.grad[2], bias.grad[2], input.grad[1, 2].
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.equal(await mark(page, 'weight.grad[2, 1]'), 'write');
  assert.equal(await mark(page, 'weight.grad[1, 1]'), null);
  assert.equal(await mark(page, 'input.grad[1, 2, 0]'), 'write');
  assert.equal(await mark(page, 'output.grad[1, 2, 2]'), 'read');
  const phase = await page.locator('[data-cell="weight.grad[2, 1]"]').first().getAttribute('data-phase');
  assert.equal(phase, 'backward');
  assert.equal(await page.locator('[data-phase="backward"]').count() > 0, true);
  assert.match(await status(page), /output\.grad\[1, 2, 2\] flows back into row 2 of weight\.grad \(times input\[1, 2\]\), bias\.grad\[2\] and input\.grad\[1, 2\]/);
  await page.locator('[role=grid][aria-label="weight"]').scrollIntoViewIfNeeded();
  // Where a number comes from: backward, the sum that makes the gradient row being written.
  const formula = await page.getByLabel('formula').textContent();
  assert.match(formula, /^weight\.grad\[2, 0\]=/);
  assert.match(formula, /output\.grad\[1, 2, 2\]·input\[1, 2, 0\]/);
  // A click on a gradient cell shows its own: bias.grad[1] adds the six output.grads it gets.
  await page.locator('[data-cell="bias.grad[1]"]').first().click();
  assert.match(await page.getByLabel('formula').textContent(), /^bias\.grad\[1\]=.*=6\.0000/);
  // The shot: weight with weight.grad under its numbers, in the middle of the window.
  await page.locator('[role=grid][aria-label="weight"]').evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await shot(page, 'linear-backward');

  // Zero input column 1: weight.grad[:, 1] = 0, so an SGD step moves weight column 0 and bias only.
  for (let b = 0; b < 2; b++) for (let r = 0; r < 3; r++) await type(page, `input[${b}, ${r}, 1]`, '0');
  assert.equal(await cell(page, 'weight.grad[0, 1]'), '0.0000');
  await page.getByRole('button', { name: 'SGD step' }).click();
  assert.match(await page.getByLabel('Steps taken').textContent(), /steps: 1/);
  assert.equal(await cell(page, 'weight[0, 0]'), '-1.2000');
  assert.equal(await cell(page, 'bias[1]'), '0.4000');
  for (let i = 0; i < 3; i++) {
    assert.equal(await changed(page, `weight[${i}, 0]`), 'true');
    assert.equal(await changed(page, `weight[${i}, 1]`), null);
    assert.equal(await changed(page, `bias[${i}]`), 'true');
  }
  assert.equal(await page.locator('[data-changed="true"]').count(), 6);

  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await cell(page, 'weight[0, 0]'), '0.0000');
  assert.equal(await cell(page, 'weight[2, 0]'), '1.0000');
  assert.equal(await cell(page, 'bias[1]'), '1.0000');
  assert.equal(await page.locator('[data-changed="true"]').count(), 0);
  assert.match(await page.getByLabel('Steps taken').textContent(), /steps: 0/);

  // Back to Forward: the playhead restarts on the forward trace.
  await page.getByRole('button', { name: 'Forward', exact: true }).click();
  assert.equal(await page.locator('[data-cell^="weight.grad["]:visible').count(), 0);
  assert.match(await status(page), /^Ready: 18 steps/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
