// The Embedding scene in the built site: every preset shows PyTorch's numbers (read from the
// fixtures), edits flow through to the output, bad ids and padding_idx get PyTorch's messages
// beside the cell, and the forward animation lights the row each id selects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scene, at, cell, fixture, fmt, labels, mark, paste, shot, shown, status, tdAttr, type } from './browser.mjs';

/** The grid's printed cells against a fixture tensor. */
async function expectTensor(page, name, t) {
  const want = t.data.map(t.dtype === 'int64' ? String : fmt);
  assert.deepEqual(await shown(page, labels(name, t.shape)), want, `${name} shows PyTorch's numbers`);
}

const { open } = scene('#/embedding', { ready: '[data-cell="output[0, 0]"]', picked: '.shape-equation' });

async function landed(page, name) {
  await page.waitForTimeout(800); // let the flying row land
  await shot(page, `embedding-${name}`);
}

test('seed123_4x5: torch.manual_seed(123); nn.Embedding(4, 5) looks up [2, 3, 1]', async () => {
  const f = fixture('seed_embedding_4x5_seed123_idx_2_3_1');
  const page = await open();
  assert.equal(await page.locator('h1').last().textContent(), 'nn.Embedding is a lookup');
  assert.equal(await page.locator('.shape-equation').textContent(), 'input (3,) → weight[input] → output (3, 5)');
  await expectTensor(page, 'weight', f.params.weight);
  await expectTensor(page, 'output', f.output);
  const row0 = [];
  for (let j = 0; j < 5; j++) row0.push(await cell(page, `output[0, ${j}]`));
  assert.deepEqual(row0, ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315']);

  // Forward animation: step 2 is input[1] = 3 picking weight[3] into output[1].
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.match(await status(page), /Step 2 of 3: input\[1\] = 3 selects weight\[3\], copied to output\[1\]/);
  for (let j = 0; j < 5; j++) {
    assert.equal(await mark(page, `weight[3, ${j}]`), 'read');
    assert.equal(await mark(page, `output[1, ${j}]`), 'write');
    assert.equal(await mark(page, `output[0, ${j}]`), 'done');
    assert.equal(await mark(page, `weight[2, ${j}]`), null);
  }
  assert.equal(await mark(page, 'input[1]'), 'read');
  assert.equal(await page.locator('.picks li.current').textContent(), 'output[1] ← weight[3]');
  // A copy of the row flies to its place (hidden from assistive tech, which reads the status).
  const flight = page.locator('.flight');
  assert.equal(await flight.getAttribute('aria-hidden'), 'true');
  assert.deepEqual(await flight.locator('span').allTextContents(), ['-2.8400', '-0.7849', '-1.4096', '-0.4076', '0.7953']);
  // The formula of the row being copied: a copy, no multiplication.
  assert.match(await page.locator('.formula').textContent(), /output\[1, 0\]=weight\[3, 0\]=\(-2\.8400\)=-2\.8400/);
  await landed(page, 'seed123_4x5');
  // Under prefers-reduced-motion the row does not fly; the marks alone show the step.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.equal(await page.locator('.flight').isVisible(), false);
  assert.equal(await mark(page, 'output[2, 0]'), 'write');
  await page.emulateMedia({ reducedMotion: 'no-preference' });

  // Editing a table cell changes the output that copies it.
  await type(page, 'weight[3, 0]', '1.5');
  assert.equal(await cell(page, 'output[1, 0]'), '1.5000');

  // An id outside the table: PyTorch's IndexError beside that cell; the last output stays.
  await type(page, 'input[2]', '4');
  const bad = page.locator('input[data-cell="input[2]"]');
  assert.equal(await bad.getAttribute('aria-invalid'), 'true');
  const alert = await page.locator('[role=grid][aria-label=input] [role=alert]').textContent();
  assert.match(alert, /IndexError: index out of range in self/);
  assert.match(alert, /ids must be in 0\.\.3; this table has 4 rows/);
  assert.equal(await cell(page, 'output[2, 0]'), fmt(f.output.data[10]));
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.equal(await mark(page, 'weight[1, 0]'), null, 'nothing plays while PyTorch raises');
  await type(page, 'input[2]', '0');
  assert.equal(await bad.getAttribute('aria-invalid'), null);
  assert.equal(await cell(page, 'output[2, 0]'), fmt(f.params.weight.data[0]));
  assert.deepEqual(page.errors, []);
});

test('re-init with torch.manual_seed gives PyTorch initial table', async () => {
  // torch.manual_seed(0); nn.Embedding(3, 5): the first module of the init fixture.
  const f = fixture('init_seed0_embedding_sizes').modules[0];
  const page = await open();
  await type(page, 'num_embeddings', '3');
  await page.getByLabel('Seed').fill('0');
  await page.getByRole('button', { name: 'Re-init' }).click();
  await expectTensor(page, 'weight', f.params.weight);
  await page.getByLabel('Seed').fill('1.5');
  await page.getByRole('button', { name: 'Re-init' }).click();
  assert.match(await page.locator('.seed-field [role=alert]').textContent(), /invalid literal for int\(\) with base 10: '1\.5'/);
  await expectTensor(page, 'weight', f.params.weight);
  // A size that is not a size is refused beside its field, and the table stays.
  await type(page, 'embedding_dim', '0');
  assert.equal(await page.locator('input[aria-label="embedding_dim"]').getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('.field:has([aria-label="embedding_dim"]) [role=alert]').textContent(), /from 1 to 512/);
  await expectTensor(page, 'weight', f.params.weight);

  // Ids as a batch: (3,) becomes (1, 3), then (2, 3) with new ids 0.
  await type(page, 'input[1]', '0'); // id 3 is past this 3-row table
  await page.getByLabel('batch × sequence').check();
  assert.equal(await page.locator('.shape-equation').textContent(), 'input (1, 3) → weight[input] → output (1, 3, 5)');
  await type(page, 'batch', '2');
  assert.equal(await page.locator('.shape-equation').textContent(), 'input (2, 3) → weight[input] → output (2, 3, 5)');
  assert.equal(await cell(page, 'output[1, 2, 4]'), fmt(f.params.weight.data[4]));
  assert.deepEqual(page.errors, []);
});

test('pretrained_5x4: from_pretrained table, ids (2, 4) give output (2, 4, 4)', async () => {
  const f = fixture('seed_embedding_from_pretrained_batch');
  const page = await open('pretrained_5x4');
  assert.equal(await page.locator('.shape-equation').textContent(), 'input (2, 4) → weight[input] → output (2, 4, 4)');
  assert.equal(await page.locator('.call code').textContent(), 'emb = nn.Embedding.from_pretrained(weight, freeze=True)');
  await expectTensor(page, 'weight', f.params.weight);
  await expectTensor(page, 'input', f.input);
  await expectTensor(page, 'output', f.output);
  assert.equal(await page.getByLabel('freeze').isChecked(), true);

  // Clicker keys drive the timeline: step 6 is input[1, 1] = 0.
  await page.locator('h1').last().click();
  for (let i = 0; i < 6; i++) await page.keyboard.press('PageDown');
  assert.match(await status(page), /Step 6 of 8: input\[1, 1\] = 0 selects weight\[0\], copied to output\[1, 1\]/);
  assert.equal(await mark(page, 'weight[0, 2]'), 'read');
  assert.equal(await mark(page, 'output[1, 1, 2]'), 'write');
  assert.equal(await mark(page, 'output[1, 0, 2]'), 'done');
  assert.equal(await mark(page, 'output[1, 2, 2]'), null);
  await landed(page, 'pretrained_5x4');

  await type(page, 'weight[4, 0]', '9');
  assert.equal(await cell(page, 'output[0, 1, 0]'), '9.0000');
  assert.equal(await cell(page, 'output[0, 1, 1]'), '4.0000');
  // A pasted row (a Python literal) lands in the table and in every place that looks it up.
  await paste(at(page, 'weight[2, 0]'), '[[7, 7.5, -7, 0.25]]');
  for (const lead of ['0, 0', '1, 0']) {
    const row = [];
    for (let j = 0; j < 4; j++) row.push(await cell(page, `output[${lead}, ${j}]`));
    assert.deepEqual(row, ['7.0000', '7.5000', '-7.0000', '0.2500']);
  }
  assert.deepEqual(page.errors, []);
});

test('padding_10x3: padding_idx=1 row is zeros; a bad padding_idx gets AssertionError', async () => {
  const f = fixture('seed_embedding_10x3_padding_idx_1');
  const page = await open('padding_10x3');
  await expectTensor(page, 'weight', f.params.weight);
  await expectTensor(page, 'output', f.output);
  assert.match(await page.locator('.captions').textContent(), /weight\[1\] is the padding row/);
  await page.getByRole('button', { name: 'Last step' }).click();
  assert.match(await status(page), /Step 8 of 8: input\[1, 3\] = 1 selects weight\[1\], copied to output\[1, 3\]/);
  assert.equal(await mark(page, 'weight[1, 0]'), 'read');
  assert.equal(await mark(page, 'output[1, 3, 0]'), 'write');
  assert.equal(await mark(page, 'output[0, 0, 0]'), 'done');
  await page.getByRole('button', { name: 'Step back' }).click();
  await page.getByRole('button', { name: 'Step back' }).click();
  await page.getByRole('button', { name: 'Step back' }).click();
  assert.match(await status(page), /Step 5 of 8: input\[1, 0\] = 2 selects weight\[2\]/);
  await landed(page, 'padding_10x3');

  await type(page, 'padding_idx', '10');
  const field = page.locator('input[aria-label="padding_idx"]');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  const alert = await page.locator('.field:has([aria-label="padding_idx"]) [role=alert]').textContent();
  assert.match(alert, /AssertionError: Padding_idx must be within num_embeddings/);
  await expectTensor(page, 'output', f.output);
  await type(page, 'padding_idx', '-9');
  assert.equal(await field.getAttribute('aria-invalid'), null);
  assert.equal(await page.locator('.call code').textContent(), 'emb = nn.Embedding(10, 3, padding_idx=-9)');

  await type(page, 'weight[2, 0]', '-0');
  assert.equal(await cell(page, 'output[0, 0, 0]'), '-0.0000');
  assert.equal(await cell(page, 'output[1, 0, 0]'), '-0.0000');
  assert.deepEqual(page.errors, []);
});

test('big_1000x30: a 30 000-number table as a heat map, six ids looked up', async () => {
  const page = await open('big_1000x30');
  assert.equal(await page.locator('.shape-equation').textContent(), 'input (2, 3) → weight[input] → output (2, 3, 30)');
  assert.equal(await page.locator('[role=grid][aria-label=weight] canvas').count(), 1, 'the table is a heat map');
  const heat = page.locator('[role=grid][aria-label=weight] [role=gridcell]');
  assert.match(await heat.getAttribute('aria-label'), /1000 rows × 30 columns/);
  const row = (lead) => shown(page, [...Array(30).keys()].map((j) => `output[${lead}, ${j}]`));
  // Id 7 twice: the same row copied to both places.
  assert.deepEqual(await row('1, 0'), await row('1, 1'));
  assert.notDeepEqual(await row('0, 0'), await row('0, 1'));
  // Pointing at the heat map reads the table out: weight[999] starts as output[0, 1] does.
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.match(await status(page), /input\[0, 1\] = 999 selects weight\[999\], copied to output\[0, 1\]/);
  assert.equal(await mark(page, 'output[0, 1, 29]'), 'write');
  await heat.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const readout = await page
    .locator('.heatmap', { has: page.locator('[role=grid][aria-label=weight]') })
    .locator('.readout')
    .textContent();
  assert.match(readout, /^weight\[1, 0\] = /);
  assert.ok(readout.includes(`row: [${(await row('0, 0')).slice(0, 12).join(', ')}, …]`), readout);
  await landed(page, 'big_1000x30');

  // Ids are still editable cells: 999 in both places copies the same row twice.
  await type(page, 'input[0, 0]', '999');
  assert.deepEqual(await row('0, 0'), await row('0, 1'));
  await type(page, 'input[1, 2]', '1000');
  assert.match(
    await page.locator('[role=grid][aria-label=input] [role=alert]').textContent(),
    /IndexError: index out of range in self.*this table has 1000 rows/,
  );
  assert.deepEqual(page.errors, []);
});

/** The printed rows of a (rows, cols) grid. */
async function rowsOf(page, name, rows, cols) {
  const flat = await shown(page, labels(name, [rows, cols]));
  return [...Array(rows).keys()].map((r) => flat.slice(r * cols, r * cols + cols));
}

test('backward (sum): only looked-up rows get gradient, and SGD moves only them', async () => {
  const f = fixture('seed_embedding_4x5_seed123_idx_2_3_1');
  const page = await open();
  await page.getByRole('button', { name: 'Backward' }).click();
  assert.equal(await page.getByRole('button', { name: 'Backward' }).getAttribute('aria-pressed'), 'true');
  const sum = f.output.data.reduce((a, b) => a + b, 0);
  assert.equal(await page.getByLabel('Loss value').textContent(), `loss = ${sum.toFixed(4)}`);
  // sum loss: output.grad is all ones, and weight.grad row r counts the ids equal to r.
  assert.deepEqual(await rowsOf(page, 'output.grad', 3, 5), Array(3).fill(Array(5).fill('1.0000')));
  const grad = await rowsOf(page, 'weight.grad', 4, 5);
  assert.deepEqual(grad[0], Array(5).fill('0.0000'));
  for (const r of [1, 2, 3]) assert.deepEqual(grad[r], Array(5).fill('1.0000'));

  // The backward animation: step 2 adds output.grad[1] into weight.grad[3], coloured apart.
  const note = () => page.locator('.emb-gradflow .grad-note').textContent();
  assert.match(await note(), /3 gradient rows flow back/);
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.match(await status(page), /Step 2 of 3: weight\.grad\[3\] \+= output\.grad\[1\]: input\[1\] = 3 looked that row up/);
  for (let j = 0; j < 5; j++) {
    assert.equal(await mark(page, `weight.grad[3, ${j}]`), 'write');
    assert.equal(await tdAttr(page, `weight.grad[3, ${j}]`, 'data-phase'), 'backward');
    assert.equal(await mark(page, `output.grad[1, ${j}]`), 'read');
    assert.equal(await mark(page, `weight.grad[2, ${j}]`), 'done');
    assert.equal(await mark(page, `weight.grad[0, ${j}]`), null);
  }
  assert.equal(await page.locator('.emb-gradflow li.current').textContent(), 'weight.grad[3] += output.grad[1]');
  // Back to forward: the forward trace plays from its start.
  await page.getByRole('button', { name: 'Forward', exact: true }).click();
  assert.match(await status(page), /^Ready: 3 steps/);
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.match(await status(page), /Step 1 of 3: input\[0\] = 2 selects weight\[2\]/);
  await page.getByRole('button', { name: 'Backward' }).click();
  assert.match(await status(page), /^Ready: 3 steps/);

  // SGD step, lr 0.1: rows 1, 2, 3 move by -0.1, row 0 stays; exactly those cells are marked.
  await type(page, 'lr', '0.1');
  await page.getByRole('button', { name: 'SGD step' }).click();
  assert.equal(await page.getByLabel('Steps taken').textContent(), 'steps: 1');
  const w = f.params.weight.data;
  const moved = (r, j) => Math.fround(w[r * 5 + j] - 0.1);
  const after = await rowsOf(page, 'weight', 4, 5);
  for (let r = 0; r < 4; r++) {
    for (let j = 0; j < 5; j++) {
      assert.equal(after[r][j], fmt(r === 0 ? w[j] : moved(r, j)), `weight[${r}, ${j}]`);
      assert.equal(await tdAttr(page, `weight[${r}, ${j}]`, 'data-changed'), r === 0 ? null : 'true');
    }
  }
  assert.equal(await page.locator('[role=grid][aria-label=weight] td[data-changed]').count(), 15);
  // The output follows the stepped table.
  assert.equal(await cell(page, 'output[0, 0]'), fmt(moved(2, 0)));
  // Mid-animation, so the backward colours show beside the changed cells.
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.equal(await tdAttr(page, 'weight.grad[3, 0]', 'data-phase'), 'backward');
  await shot(page, 'embedding-backward', { fullPage: true });

  // Undo restores the table and clears the highlight.
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await page.getByLabel('Steps taken').textContent(), 'steps: 0');
  await expectTensor(page, 'weight', f.params.weight);
  assert.equal(await page.locator('[role=grid][aria-label=weight] td[data-changed]').count(), 0);
  // Reset after two steps goes back to the start too.
  await page.getByRole('button', { name: 'SGD step' }).click();
  await page.getByRole('button', { name: 'SGD step' }).click();
  await page.getByRole('button', { name: 'Reset' }).click();
  await expectTensor(page, 'weight', f.params.weight);
  assert.deepEqual(page.errors, []);
});

test('backward: padding row gets none, repeats add up, sparse COO, frozen table has no grad', async () => {
  const page = await open('padding_10x3');
  await page.getByRole('button', { name: 'Backward' }).click();
  // ids [2, 4, 3, 1, 2, 0, 1, 1], padding_idx=1: row 2 gets 2, row 1 (padding) none.
  const grad = await rowsOf(page, 'weight.grad', 10, 3);
  assert.deepEqual(grad.map((r) => r[0]), ['1.0000', '0.0000', '2.0000', '1.0000', '1.0000', '0.0000', '0.0000', '0.0000', '0.0000', '0.0000']);
  assert.match(
    await page.locator('.emb-gradflow .grad-note').textContent(),
    /5 gradient rows flow back.*weight\.grad\[1\] is the padding row: id 1 sends none/,
  );
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Step forward' }).click();
  assert.match(await status(page), /Step 4 of 5: weight\.grad\[2\] \+= output\.grad\[1, 0\]: id 2 was looked up before/);
  assert.equal(await mark(page, 'weight.grad[2, 0]'), 'write');
  // Where a number comes from: backward's sum for the row being added into.
  assert.match(await page.locator('.formula').textContent(), /^weight\.grad\[2, 0\]=output\.grad\[0, 0, 0\]\+output\.grad\[1, 0, 0\]=.*=2\.0000/);
  // A click on a gradient cell shows its own sum: id 4 sits at input[0, 1].
  await page.locator('[data-cell="weight.grad[4, 1]"]').click();
  assert.match(await page.locator('.formula').textContent(), /^weight\.grad\[4, 1\]=output\.grad\[0, 1, 1\]=/);

  // sparse=True: PyTorch's uncoalesced COO list next to the dense grad.
  await page.getByLabel('sparse').check();
  const coo = page.getByRole('group', { name: 'weight.grad (sparse)' });
  assert.match(await coo.textContent(), /5 entries.*rows \[0, 2, 3, 4\]/);
  const indices = [];
  for (let k = 0; k < 5; k++) indices.push(await cell(page, `indices[${k}]`));
  assert.deepEqual(indices, ['2', '4', '3', '2', '0']);
  assert.deepEqual(await rowsOf(page, 'values', 5, 3), Array(5).fill(Array(3).fill('1.0000')));

  // from_pretrained(freeze=True): no weight.grad, and SGD says why.
  await page.getByLabel('Preset').selectOption('pretrained_5x4');
  await page.getByRole('button', { name: 'Backward' }).click();
  assert.match(await page.locator('.no-grad').textContent(), /weight\.grad is None: .*requires_grad=False/);
  assert.equal(await page.locator('[data-cell^="weight.grad["]:visible').count(), 0);
  await page.getByRole('button', { name: 'SGD step' }).click();
  assert.match(await page.locator('.learn-panel [role=alert]').textContent(), /requires_grad=False/);
  assert.equal(await page.locator('[role=grid][aria-label=weight] td[data-changed]').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('backward (mse) with padding_idx=0 matches PyTorch: loss and weight.grad', async () => {
  const f = fixture('embedding_mse_loss_padding');
  const page = await open();
  await type(page, 'num_embeddings', '6');
  await type(page, 'embedding_dim', '3');
  await page.getByLabel('batch × sequence').check();
  await type(page, 'batch', '2');
  const rows = (t, cols) => JSON.stringify([...Array(t.length / cols).keys()].map((r) => t.slice(r * cols, r * cols + cols)));
  await paste(at(page, 'weight[0, 0]'), rows(f.params.weight.data, 3));
  await paste(at(page, 'input[0, 0]'), '[[0, 2, 2], [5, 0, 1]]');
  await type(page, 'padding_idx', '0');
  await expectTensor(page, 'output', f.output);
  await page.getByRole('button', { name: 'Backward' }).click();
  await page.getByLabel('Loss', { exact: true }).selectOption('mse');
  await paste(at(page, 'target[0, 0, 0]'), JSON.stringify([0, 1].map((b) => JSON.parse(rows(f.loss.target.data.slice(b * 9, b * 9 + 9), 3)))));
  await expectTensor(page, 'target', f.loss.target);
  assert.equal(await page.getByLabel('Loss value').textContent(), `loss = ${f.loss.value.toFixed(4)}`);
  await expectTensor(page, 'output.grad', f.upstream);
  await expectTensor(page, 'weight.grad', f.grads.weight);
  assert.deepEqual(page.errors, []);
});
