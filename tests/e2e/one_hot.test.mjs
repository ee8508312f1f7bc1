// The One-hot × Linear scene in a real browser: both ways show PyTorch's numbers for each preset,
// agree (torch.equal → True), follow an edit, light the right rows while stepping (with the
// products by zero dimmed), pin bad ids on their cell, and grow past cells into heat maps with
// both ways timed; at real scale, a sweep to V = 50 000 runs in the worker and can be cancelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { cell, download, fixture, fmt, indices, label, mark, scene, shot, type, until, writtenCode } from './browser.mjs';

const { open } = scene('#/one-hot', { ready: '[data-cell="linear(one_hot)[0, 0]"]' });

/** Checks both outputs, one_hot, and both weights against the fixture, cell by cell. */
async function expectFixture(page, f) {
  const out = f.output;
  for (const [k, index] of indices(out.shape).entries()) {
    assert.equal(await cell(page, label('emb(input)', index)), fmt(out.data[k]), label('emb(input)', index));
    assert.equal(await cell(page, label('linear(one_hot)', index)), fmt(out.data[k]), label('linear(one_hot)', index));
  }
  for (const [k, index] of indices(f.one_hot.shape).entries()) {
    assert.equal(await cell(page, label('one_hot', index)), String(f.one_hot.data[k]));
  }
  const w = f.params.weight;
  for (const [k, index] of indices(w.shape).entries()) {
    assert.equal(await cell(page, label('linear.weight', index)), fmt(w.data[k]));
    assert.equal(await cell(page, label('emb.weight', [index[1], index[0]])), fmt(w.data[k]));
  }
  assert.equal(
    (await page.locator('.oh-equal').textContent()).trim(),
    'torch.equal(emb(input), linear(one_hot)) → True',
  );
}

const zero = (page, name) =>
  page.locator(`[data-cell="${name}"]`).first().evaluate((el) => (el.matches('.g') ? el : el.closest('td')).getAttribute('data-zero'));

test('seed 123: both ways give PyTorch numbers, follow an edit, and step id by id', async () => {
  const page = await open();
  const f = fixture('seed_one_hot_linear_equals_embedding');
  await expectFixture(page, f);
  const shapes = await page.locator('[aria-label="Shape equation"]').textContent();
  assert.match(shapes, /emb\.weight \(4, 5\)\[input \(3,\)\] → \(3, 5\)\s+=\s+one_hot \(3, 4\) @ linear\.weight\.T \(4, 5\) → \(3, 5\)/);
  const cost = await page.locator('.oh-cost').textContent();
  assert.match(cost, new RegExp(`copies ${f.cost.lookup_copies} numbers.*${f.cost.one_hot_multiply_adds} multiply-adds, 45 of them by 0`));

  // Edit emb.weight[2, 1]: id 2 is input[0], so both outputs' [0, 1] follow, and linear.weight[1, 2].
  await type(page, 'emb.weight[2, 1]', '7.5');
  await until(page, 'linear(one_hot)[0, 1]', '7.5000');
  assert.equal(await cell(page, 'emb(input)[0, 1]'), '7.5000');
  assert.equal(await cell(page, 'linear.weight[1, 2]'), '7.5000');
  assert.match(await page.locator('.oh-equal').textContent(), /→ True/);

  // Step 1: the lookup of input[0] = 2.
  const forward = page.getByRole('button', { name: 'Step forward' });
  await forward.click();
  assert.equal(await mark(page, 'input[0]'), 'read');
  assert.equal(await mark(page, 'emb.weight[2, 3]'), 'read');
  assert.equal(await mark(page, 'emb.weight[1, 3]'), null);
  assert.equal(await mark(page, 'emb(input)[0, 4]'), 'write');
  assert.match(await page.locator(".step-status").textContent(), /emb\(input\)\[0\] = emb\.weight\[2\]/);
  // Step 2: F.one_hot of that id; step 3: linear(one_hot)[0, 0], one product that counts.
  await forward.click();
  assert.equal(await mark(page, 'one_hot[0, 2]'), 'write');
  await forward.click();
  assert.equal(await mark(page, 'linear(one_hot)[0, 0]'), 'write');
  assert.equal(await mark(page, 'linear.weight[0, 1]'), 'read');
  assert.equal(await mark(page, 'linear.weight[1, 1]'), null);
  assert.equal(await zero(page, 'linear.weight[0, 0]'), 'true');
  assert.equal(await zero(page, 'one_hot[0, 3]'), 'true');
  assert.equal(await zero(page, 'linear.weight[0, 2]'), null, 'the product 1 × w is not dimmed');
  const counts = await page.locator('.oh-counts').textContent();
  assert.match(counts, /numbers copied5 of 15/);
  assert.match(counts, /multiply-adds4 of 60/);
  assert.match(counts, /× 03 of 45/);
  // PageDown (a clicker's key) moves on: step 8 looks up input[1] = 3.
  for (let k = 3; k < 8; k++) await page.keyboard.press('PageDown');
  assert.equal(await mark(page, 'emb.weight[3, 0]'), 'read');
  assert.equal(await mark(page, 'emb(input)[1, 0]'), 'write');
  assert.equal(await mark(page, 'linear(one_hot)[0, 4]'), 'done');
  await page.waitForTimeout(400); // let the highlight transitions finish
  await shot(page, 'one_hot-seed123');

  // torch.manual_seed(123) again: PyTorch's table back; a seed Python can't read is refused.
  await page.getByLabel('Seed', { exact: true }).fill('1.5');
  await page.getByRole('button', { name: 'Re-init' }).click();
  assert.match(await page.locator('.seed-field [role=alert]').textContent(), /ValueError: invalid literal for int\(\) with base 10: '1.5'/);
  await page.getByLabel('Seed', { exact: true }).fill('123');
  await page.getByRole('button', { name: 'Re-init' }).click();
  await until(page, 'emb(input)[0, 1]', '-1.8061');
  assert.equal(await cell(page, 'emb.weight[2, 1]'), '-1.8061');

  // A bad id: both PyTorch messages on its cell, the last good outputs stay.
  await type(page, 'input[1]', '7');
  const bad = page.locator('[data-cell="input[1]"]');
  await page.waitForFunction(() => document.querySelector('[data-cell="input[1]"]')?.getAttribute('aria-invalid') === 'true');
  const alert = await bad.locator('xpath=..').getByRole('alert').textContent();
  assert.match(alert, /IndexError: index out of range in self/);
  assert.match(alert, /RuntimeError: Class values must be smaller than num_classes\./);
  assert.equal(await cell(page, 'linear(one_hot)[1, 0]'), fmt(f.output.data[5]));
  assert.match(await page.locator('.one-hot .stale-note').first().textContent(), /last valid input \[2, 3, 1\]/);
  await shot(page, 'one_hot-bad-id');
  assert.deepEqual(page.errors, []);
});

test('vocab 10, dim 3, ids (2, 3): PyTorch numbers, an edit, and the batch stepped', async () => {
  const page = await open('vocab10_dim3_batch');
  await page.locator('[data-cell="one_hot[1, 2, 9]"]').waitFor();
  const f = fixture('one_hot_linear_vocab_10_dim_3_batch');
  await expectFixture(page, f);

  // Row 4 of the table is looked up three times: (0, 2), (1, 0), (1, 1).
  await type(page, 'emb.weight[4, 0]', '-2');
  await until(page, 'linear(one_hot)[1, 1, 0]', '-2.0000');
  for (const at of ['0, 2, 0', '1, 0, 0', '1, 1, 0']) {
    assert.equal(await cell(page, `emb(input)[${at}]`), '-2.0000');
    assert.equal(await cell(page, `linear(one_hot)[${at}]`), '-2.0000');
  }

  // Step 6 looks up input[0, 1] = 0; step 9 is linear(one_hot)[0, 1, 1] from one_hot[0, 1].
  await page.getByRole('button', { name: 'Step forward' }).focus();
  for (let k = 0; k < 6; k++) await page.keyboard.press('PageDown');
  assert.equal(await mark(page, 'input[0, 1]'), 'read');
  assert.equal(await mark(page, 'emb.weight[0, 2]'), 'read');
  assert.equal(await mark(page, 'emb(input)[0, 1, 2]'), 'write');
  for (let k = 6; k < 9; k++) await page.keyboard.press('PageDown');
  assert.equal(await mark(page, 'linear(one_hot)[0, 1, 1]'), 'write');
  assert.equal(await mark(page, 'one_hot[0, 1, 5]'), 'read');
  assert.equal(await zero(page, 'one_hot[0, 1, 5]'), 'true');
  assert.equal(await zero(page, 'linear.weight[1, 0]'), null, 'id 0: column 0 is the product that counts');
  assert.equal(await zero(page, 'linear.weight[1, 9]'), 'true');
  await page.locator('.oh-ways').scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await shot(page, 'one_hot-vocab10_dim3_batch');
  assert.deepEqual(page.errors, []);
});

test('V = 50 000: heat maps, still equal, both ways timed', async () => {
  const page = await open();
  const v = page.locator('input[type=range][aria-label^="V ("]');
  await v.focus();
  await page.keyboard.press('End');
  await page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: '(50000, 5)' }).waitFor();
  assert.ok(await page.locator('[role=grid][aria-label="emb.weight"] canvas').count(), 'emb.weight is a heat map');
  assert.ok(await page.locator('[role=grid][aria-label="linear.weight"] canvas').count());
  assert.ok(await page.locator('[role=grid][aria-label="one_hot"] canvas').count());
  // Each row of one_hot has its one 1 in its id's column (ids [2, 3, 1]).
  const hot = page.locator('.heatmap', { has: page.locator('[role=grid][aria-label="one_hot"]') });
  const zeros = (k) => Array(k).fill('0.0000');
  assert.equal(await hot.locator('.readout').textContent(), `one_hot[0, 0] = 0 · row: [${[...zeros(2), '1.0000', ...zeros(9)].join(', ')}, …]`);
  await hot.locator('[role=gridcell]').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await hot.locator('.readout').textContent(), `one_hot[1, 0] = 0 · row: [${[...zeros(3), '1.0000', ...zeros(8)].join(', ')}, …]`);
  // The first rows are the seed-123 table still: the outputs are unchanged.
  assert.equal(await cell(page, 'linear(one_hot)[0, 0]'), '0.6957');
  assert.match(await page.locator('.oh-equal').textContent(), /→ True/);
  assert.match(await page.locator('.oh-cost').textContent(), /750,000 multiply-adds, 749,985 of them by 0: 50,000×/);
  const timing = page.locator('.oh-timing');
  await page.waitForFunction(() => /per call/.test(document.querySelector('.oh-timing')?.textContent));
  const text = await timing.textContent();
  const m = text.match(/Lookup ([\d.]+) ms per call, one-hot × Linear ([\d.]+) ms per call: ([\d.,]+)× the lookup's time/);
  assert.ok(m, text);
  assert.ok(Number(m[2]) > Number(m[1]), 'the one-hot way is slower');
  // The code draws the table with the seed and writes over it only the cells kept from 4 × 5.
  const code = page.locator('details.code-panel');
  await code.locator('summary').click();
  const py = await writtenCode(page);
  assert.match(py, /torch\.manual_seed\(123\)\nemb = nn\.Embedding\(50000, 5\)\n# the numbers set since the seed's draw/);
  assert.ok(py.length < 4000, `${py.length} characters`);
  await code.locator('summary').click();

  // D as far as the browser allows with V = 50 000.
  const d = page.locator('input[type=range][aria-label^="D ("]');
  await d.focus();
  await page.keyboard.press('End');
  await page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: '(50000, 64)' }).waitFor();
  await page.waitForFunction(() => /per call/.test(document.querySelector('.oh-timing')?.textContent));
  // The PyTorch panel leaves out the 249,995 numbers kept from the 5-column table (a 5.3 MB
  // script, written again on every change while the panel is open); Copy code has every one.
  await code.locator('summary').click();
  const shownPy = await code.locator('pre.code').textContent();
  assert.match(
    shownPy,
    /\n {4}# 249,995 numbers \(49999, 5\) left out here: Copy code and the notebook write every one\n {4}emb\.weight\[1:50000, 0:5\] = torch\.tensor\(\.\.\.\)\n/,
  );
  assert.ok(shownPy.length < 5000, `${shownPy.length} characters`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // What the panel leaves out is written in the scene's worker, so the page never pauses for it.
  const writers = [];
  page.on('worker', (w) => w.url().endsWith('writer_loader.js') && writers.push(w));
  const said = code.locator('.code-tools [role=status]');
  await page.getByRole('button', { name: 'Copy code' }).click();
  await said.filter({ hasText: 'Copied.' }).waitFor();
  assert.equal(writers.length, 1, 'Copy code is written in a worker');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(copied.length > 5_000_000, `${copied.length} characters`);
  // It is the panel's script with the literal written out: 49,999 rows of 5 numbers.
  const [head, tail] = shownPy.replace(/\n {4}# 249,995 numbers .*\n/, '\n').split('torch.tensor(...)');
  assert.ok(copied.startsWith(head) && copied.endsWith(tail));
  const literal = copied.slice(head.length, copied.length - tail.length);
  const kept = JSON.parse(literal.match(/^torch\.tensor\((.*)\)$/s)[1]);
  assert.equal(kept.length, 49_999);
  assert.ok(kept.every((row) => row.length === 5 && row.every(Number.isFinite)));
  // The notebook too, the same literal in its first code cell.
  const nb = await download(page, page.getByRole('button', { name: 'Download notebook' }));
  await said.filter({ hasText: `Downloaded ${nb.suggestedFilename()}.` }).waitFor();
  const { cells } = JSON.parse(await readFile(await nb.path(), 'utf8'));
  assert.ok(cells.find((c) => c.id === 'build').source.join('').includes(`emb.weight[1:50000, 0:5] = ${literal}`));
  assert.equal(writers.length, 2);
  // Cancel ends a write under way (its worker held loading here): nothing is copied, and the
  // panel says so.
  let load;
  const held = new Promise((go) => (load = go));
  await page.route(/writer_bg.*\.wasm$/, async (route) => (await held, route.continue()));
  await page.evaluate(() => navigator.clipboard.writeText('before'));
  await page.getByRole('button', { name: 'Copy code' }).click();
  await said.filter({ hasText: 'in the background' }).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Copy code' }).isDisabled(), 'one write at a time');
  await code.getByRole('button', { name: 'Cancel' }).click();
  await said.filter({ hasText: 'Not copied: cancelled.' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'before');
  assert.ok(await page.getByRole('button', { name: 'Copy code' }).isEnabled());
  const ended = new Promise((done) => writers[2].once('close', done));
  load();
  await ended;
  await page.unroute(/writer_bg.*\.wasm$/);
  await code.locator('summary').click();
  // The 50 000 × 64 table is virtualised: 8 px a row to scroll through, drawn as it scrolls,
  // read out under the pointer and the keyboard cursor, and the cursor follows the step.
  const heat = page.locator('[role=grid][aria-label="emb.weight"]');
  const scroller = heat.locator('.heatmap-scroll');
  const readout = page.locator('.heatmap', { has: heat }).locator('.readout');
  assert.equal(await scroller.evaluate((el) => el.scrollHeight), 50_000 * 8);
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
  const canvas = heat.locator('canvas');
  const { height } = await scroller.evaluate((el) => ({ height: el.clientHeight }));
  await canvas.hover({ position: { x: 1, y: height - 4 } });
  assert.match(await readout.textContent(), /^emb\.weight\[49999, 0\] = /);
  // The copied script's last row is the table's.
  const value = Number((await readout.textContent()).match(/= (\S+)/)[1]);
  assert.ok(Math.abs(value - kept.at(-1)[0]) < 5e-5, `${value} against ${kept.at(-1)[0]}`);
  await heat.locator('[role=gridcell]').focus();
  await page.keyboard.press('Home');
  assert.match(await readout.textContent(), /^emb\.weight\[0, 0\] = /);
  assert.equal(await scroller.evaluate((el) => el.scrollTop), 0, 'Home scrolls to the top');
  await page.keyboard.press('End');
  assert.match(await readout.textContent(), /^emb\.weight\[49999, 63\] = /);
  assert.ok((await scroller.evaluate((el) => el.scrollTop)) > 399_000, 'End scrolls to the last row');
  await page.getByRole('button', { name: 'Step forward' }).click();
  // Step 1 reads emb.weight[2] for input[0] = 2: the cursor goes there, its row banded 8 px tall.
  await page.waitForFunction(() => /^emb\.weight\[2, 63\]/.test(document.querySelector('.heatmap:has([aria-label="emb.weight"]) .readout')?.textContent));
  const band = await scroller.evaluate((el) => {
    const ctx = el.querySelector('canvas').getContext('2d');
    const top = 2 * 8 - el.scrollTop;
    const tab = (y) => [...ctx.getImageData(2, y, 1, 1).data].slice(0, 3).join(',');
    return { rows: [top, top + 3, top + 7].map(tab), below: tab(top + 8) };
  });
  assert.deepEqual(band.rows, ['168,101,12', '168,101,12', '168,101,12'], 'the read row: an 8 px tab in the read colour');
  assert.notEqual(band.below, '168,101,12');
  await page.locator('.oh-cost').scrollIntoViewIfNeeded();
  await shot(page, 'one_hot-large-cost');
  await page.locator('.oh-ways').evaluate((e) => e.scrollIntoView());
  await shot(page, 'one_hot-large');

  // At real scale the scene is kept (as its seed's draw and the cells set since): a reload
  // brings back the 50 000 × 64 table, number for number.
  assert.equal(await page.getByText(/^Not saved/).count(), 0);
  await heat.locator('[role=gridcell]').focus();
  await page.keyboard.press('End');
  const last = await readout.textContent();
  await page.reload();
  await page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: '(50000, 64)' }).waitFor();
  await heat.locator('[role=gridcell]').focus();
  await page.keyboard.press('End');
  assert.equal(await readout.textContent(), last);

  // Every SGD step at that size can be undone, one by one, back to the numbers before the first
  // (undo kept two whole 12.8 MB tables; it keeps the rows a step moved). The cursor on
  // emb.weight[2, 0], a looked-up row's.
  const row2 = async () => {
    await heat.locator('[role=gridcell]').focus();
    for (const key of ['Home', 'ArrowDown', 'ArrowDown']) await page.keyboard.press(key);
    return readout.textContent();
  };
  const start = await row2();
  assert.match(start, /^emb\.weight\[2, 0\] = /);
  const steps = page.locator('[aria-label="Steps taken"]');
  for (let n = 1; n <= 4; n++) {
    await page.getByRole('button', { name: 'SGD step' }).click();
    await steps.filter({ hasText: String(n) }).waitFor();
  }
  assert.notEqual(await row2(), start);
  const undo = page.getByRole('button', { name: 'Undo' });
  for (let n = 3; n >= 0; n--) {
    await undo.click();
    await steps.filter({ hasText: String(n) }).waitFor();
  }
  assert.equal(await row2(), start);
  assert.ok(await undo.isDisabled(), 'nothing left to undo');
  assert.deepEqual(page.errors, []);
});

test('linked sizes: more ids, a shorter D, and the numbers that overlap stay', async () => {
  const page = await open();
  await type(page, 'number of ids', '5');
  await page.locator('[data-cell="linear(one_hot)[4, 0]"]').waitFor();
  assert.equal(await cell(page, 'input[4]'), '0');
  assert.equal(await cell(page, 'linear(one_hot)[4, 0]'), '0.3374', 'a new id 0 picks row 0');
  assert.equal(await cell(page, 'emb(input)[4, 4]'), '1.5810');
  assert.match(await page.locator('[aria-label="Shape equation"]').textContent(), /one_hot \(5, 4\)/);

  const d = page.locator('input[type=range][aria-label^="D ("]');
  await d.focus();
  await page.keyboard.press('ArrowLeft');
  await page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: '(4, 3)' }).waitFor();
  assert.equal(await page.locator('[data-cell="linear(one_hot)[0, 3]"]').count(), 0);
  assert.equal(await cell(page, 'linear.weight[2, 2]'), '-1.1589');
  assert.equal(await cell(page, 'emb(input)[0, 2]'), '-1.1589');
  assert.equal(await cell(page, 'linear(one_hot)[0, 2]'), '-1.1589');
  assert.match(await page.locator('.oh-cost').textContent(), /copies 15 numbers\. The one-hot way does 60 multiply-adds, 45 of them by 0: 4×/);
  assert.deepEqual(page.errors, []);
});

/** The grid's cells with `data-changed`, as PyTorch indices (the td's `data-cell`, or its input's). */
async function changedCells(page, name) {
  return page.locator(`[role=grid][aria-label="${name}"] td[data-changed="true"]`).evaluateAll((tds) =>
    tds.map((td) => td.getAttribute('data-cell') ?? td.querySelector('[data-cell]')?.getAttribute('data-cell')),
  );
}

test('backward: sum loss, both gradients, the dense one mostly zero, an SGD step and undo', async () => {
  const page = await open();
  await page.getByRole('button', { name: 'Backward' }).click();
  await page.locator('[data-cell="emb.weight.grad[0, 0]"]').waitFor();
  // ids [2, 3, 1], loss = output.sum(): rows 1, 2, 3 of emb.weight.grad are ones, row 0 zero;
  // linear.weight.grad (5, 4) is that transposed: column 0 all zero.
  for (let j = 0; j < 5; j++) {
    assert.equal(await cell(page, `emb.weight.grad[0, ${j}]`), '0.0000');
    for (const r of [1, 2, 3]) assert.equal(await cell(page, `emb.weight.grad[${r}, ${j}]`), '1.0000');
    assert.equal(await cell(page, `linear.weight.grad[${j}, 0]`), '0.0000');
    for (const c of [1, 2, 3]) assert.equal(await cell(page, `linear.weight.grad[${j}, ${c}]`), '1.0000');
  }
  const f = fixture('seed_one_hot_linear_equals_embedding');
  const sum = f.output.data.reduce((a, b) => a + b, 0);
  assert.equal((await page.getByLabel('Loss value').textContent()).trim(), `loss = ${sum.toFixed(4)}`);
  // The counts: the Linear writes all D×V entries, 5 of them zero; the lookup adds ids×D.
  const counts = await page.locator('.oh-grad-count').allTextContents();
  assert.match(counts.join(' '), /dense \(5, 4\): all 20 entries written \(60 multiply-adds\), 5 of them 0/);
  assert.match(counts.join(' '), /3 ids × 5 = 15 numbers added into 3 looked-up rows; the other 5 entries stay 0/);

  // The forward work is the whole forward pass here, wherever the backward playhead is.
  const work = page.locator('.oh-counts');
  assert.match(await work.textContent(), /numbers copied15 of 15.*multiply-adds60 of 60.*× 045 of 45/);

  // The backward timeline: the loss, then id 2's Linear steps (the first writes row 4 of the
  // dense gradient, all columns, only column 2 nonzero), then its add into emb.weight.grad[2].
  assert.equal(await page.getByRole('slider', { name: 'Step', exact: true }).inputValue(), '0');
  const forward = page.getByRole('button', { name: 'Step forward' });
  await forward.click();
  assert.equal(await mark(page, 'emb(input).grad[1, 1]'), 'write');
  assert.equal(await page.locator('[data-cell="linear(one_hot).grad[0, 0]"]').getAttribute('data-phase'), 'backward');
  assert.match(await page.locator('.step-status').textContent(), /loss = output\.sum\(\) = -5\.4086: d loss \/ d output = 1/);
  await forward.click();
  assert.equal(await mark(page, 'linear.weight.grad[4, 3]'), 'write');
  assert.equal(await page.locator('[data-cell="linear.weight.grad[4, 3]"]').getAttribute('data-phase'), 'backward');
  assert.equal(await mark(page, 'linear(one_hot).grad[0, 4]'), 'read');
  assert.equal(await zero(page, 'linear.weight.grad[4, 3]'), 'true');
  assert.equal(await zero(page, 'linear.weight.grad[4, 2]'), null, 'id 2: its column gets the gradient');
  // A zero written keeps the frame of what a step writes, struck through as it is.
  const frame = (name) => page.locator(`[data-cell="${name}"]`).evaluate((g) => [getComputedStyle(g).outlineStyle, getComputedStyle(g).textDecorationLine]);
  assert.deepEqual(await frame('linear.weight.grad[4, 3]'), ['solid', 'line-through']);
  assert.deepEqual(await frame('linear.weight.grad[4, 2]'), ['solid', 'none']);
  // Where a number comes from, backward: the same sum both ways, for the cell the step writes.
  const sums = () => page.locator('.oh-formulas .formula').allTextContents();
  let [lookup, linear] = await sums();
  assert.match(lookup, /^emb\.weight\.grad\[2, 4\]=emb\(input\)\.grad\[0, 4\]=/);
  assert.match(linear, /^linear\.weight\.grad\[4, 2\]=linear\(one_hot\)\.grad\[0, 4\]·one_hot\[0, 2\]\+linear\(one_hot\)\.grad\[1, 4\]·one_hot\[1, 2\]/);
  assert.equal(lookup.split('=').at(-1), linear.split('=').at(-1));
  // A click on a gradient cell: its sums, emb.weight.grad[3, 1] and its twin linear.weight.grad[1, 3].
  await page.locator('[data-cell="linear.weight.grad[1, 3]"]').click();
  [lookup, linear] = await sums();
  assert.match(lookup, /^emb\.weight\.grad\[3, 1\]=/);
  assert.match(linear, /^linear\.weight\.grad\[1, 3\]=/);
  for (let k = 2; k < 7; k++) await forward.click();
  assert.match(await work.textContent(), /numbers copied15 of 15/, 'stepping back does not undo forward work');
  assert.equal(await mark(page, 'emb.weight.grad[2, 0]'), 'write');
  assert.equal(await mark(page, 'emb.weight.grad[3, 0]'), null, 'only the looked-up row');
  assert.match(await page.locator('.step-status').textContent(), /emb\.weight\.grad\[2\] \+= emb\(input\)\.grad\[0\]/);
  await page.locator('.oh-ways').scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await shot(page, 'one_hot-backward', { fullPage: true });

  // SGD with lr 0.1: exactly rows 1, 2, 3 of emb.weight move, columns 1, 2, 3 of linear.weight.
  const before = await cell(page, 'emb.weight[2, 1]');
  await page.getByRole('button', { name: 'SGD step' }).click();
  await page.waitForFunction(() => document.querySelector('[aria-label="Steps taken"]')?.textContent.includes('1'));
  const want = (rows, d) => rows.flatMap((r) => Array.from({ length: d }, (_, j) => `emb.weight[${r}, ${j}]`));
  assert.deepEqual(await changedCells(page, 'emb.weight'), want([1, 2, 3], 5));
  const cols = [0, 1, 2, 3, 4].flatMap((j) => [1, 2, 3].map((c) => `linear.weight[${j}, ${c}]`));
  assert.deepEqual(await changedCells(page, 'linear.weight'), cols);
  assert.equal(await cell(page, 'emb.weight[2, 1]'), (Number(before) - 0.1).toFixed(4));
  assert.equal(await cell(page, 'emb.weight[0, 0]'), fmt(f.embedding_equivalent.weight.data[0]));
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.waitForFunction(() => document.querySelector('[aria-label="Steps taken"]')?.textContent.includes('0'));
  assert.equal(await cell(page, 'emb.weight[2, 1]'), before);
  assert.equal(await page.locator('td[data-changed="true"]').count(), 0);
  await expectFixture(page, f);
  assert.deepEqual(page.errors, []);
});

test('backward: the batch preset against PyTorch with an mse loss, repeated ids add', async () => {
  const page = await open('vocab10_dim3_batch');
  await page.locator('[data-cell="one_hot[1, 2, 9]"]').waitFor();
  await page.getByRole('button', { name: 'Backward' }).click();
  // Sum: id 4 is looked up three times, so row 4 of emb.weight.grad is 3s.
  assert.equal(await cell(page, 'emb.weight.grad[4, 0]'), '3.0000');
  assert.equal(await cell(page, 'linear.weight.grad[2, 4]'), '3.0000');
  assert.equal(await cell(page, 'emb.weight.grad[5, 0]'), '0.0000');

  // mse against a zero target: dL/doutput = 2·output/18, so the gradients are PyTorch's with
  // that upstream; check them against the fixture's output.
  await page.getByLabel('Loss', { exact: true }).selectOption('mse');
  await page.locator('[data-cell="target[1, 2, 2]"]').waitFor();
  const f = fixture('one_hot_linear_vocab_10_dim_3_batch');
  const out = f.output.data;
  const up = out.map((x) => (2 * x) / out.length);
  const ids = f.input.data;
  const grad = Array.from({ length: 30 }, () => 0);
  ids.forEach((id, k) => [0, 1, 2].forEach((j) => (grad[id * 3 + j] += up[k * 3 + j])));
  for (let r = 0; r < 10; r++) {
    for (let j = 0; j < 3; j++) {
      assert.equal(await cell(page, `emb.weight.grad[${r}, ${j}]`), fmt(grad[r * 3 + j]), `emb.weight.grad[${r}, ${j}]`);
      assert.equal(await cell(page, `linear.weight.grad[${j}, ${r}]`), fmt(grad[r * 3 + j]));
    }
  }
  const mse = out.reduce((a, x) => a + x * x, 0) / out.length;
  assert.equal((await page.getByLabel('Loss value').textContent()).trim(), `loss = ${mse.toFixed(4)}`);
  // An SGD step moves rows 0, 1, 4, 9 only.
  await page.getByRole('button', { name: 'SGD step' }).click();
  await page.locator('td[data-changed="true"]').first().waitFor();
  const rows = [...new Set((await changedCells(page, 'emb.weight')).map((l) => l.match(/\[(\d+),/)[1]))];
  assert.deepEqual(rows, ['0', '1', '4', '9']);
  assert.deepEqual(page.errors, []);
});

/** Where each named grid is on screen (null if hidden), the page's overflow and the timeline's top. */
const layout = (page) =>
  page.evaluate(() => {
    const box = (name) => {
      const el = document.querySelector(`.oh-ways [role=grid][aria-label="${name}"]`);
      if (!el || !el.checkVisibility()) return null;
      const b = el.getBoundingClientRect();
      return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    };
    const names = ['emb.weight', 'emb(input)', 'one_hot', 'linear.weight', 'linear(one_hot)'];
    const root = document.documentElement;
    const bottom = (s) => document.querySelector(s).getBoundingClientRect().bottom;
    return {
      ...Object.fromEntries(names.map((n) => [n, box(n)])),
      overflow: [root.scrollWidth - innerWidth, root.scrollHeight - innerHeight],
      timeline: document.querySelector('.timeline').getBoundingClientRect().top,
      verdict: bottom('.oh-verdict'),
      loss: bottom('.oh-loss'),
    };
  });

test('projection mode at 1024×768: both ways side by side, forward and backward, on one screen', async () => {
  const page = await open();
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByLabel('Projector').check();
  await page.getByRole('button', { name: 'Last step' }).click();
  let at = await layout(page);
  await shot(page, 'one_hot-projection');
  assert.deepEqual(at.overflow.map((px) => Math.max(px, 0)), [0, 0], 'nothing to scroll');
  // The lookup on the left, the one-hot way on the right; one_hot beside linear.weight; both
  // outputs on one level.
  assert.ok(at['emb.weight'].right < at['one_hot'].left, 'the ways side by side');
  assert.ok(at['one_hot'].right < at['linear.weight'].left, 'one_hot beside linear.weight');
  assert.equal(Math.round(at['emb(input)'].top), Math.round(at['linear(one_hot)'].top), 'outputs level');
  assert.ok(Math.max(at.verdict, at.loss) <= at.timeline, 'the verdict and the loss above the timeline');
  // Printed values at 24 px, in a face narrow enough for two (3, 5) outputs side by side.
  const px = await page.locator('[data-cell="emb(input)[0, 1]"]').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(px >= 24, `${px}px`);
  assert.equal(await page.locator('input[aria-label="emb.weight[0, 1]"]').inputValue(), '-0.1778');

  // Backward: each gradient under its tensor's numbers, in the same places; still one screen.
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('button', { name: 'Last step' }).click();
  at = await layout(page);
  await shot(page, 'one_hot-projection-backward');
  assert.deepEqual(at.overflow.map((px) => Math.max(px, 0)), [0, 0], 'nothing to scroll going backward');
  assert.ok(at['emb.weight'].right < at['one_hot'].left, 'the ways side by side');
  assert.ok(at['one_hot'].right < at['linear.weight'].left, 'one_hot beside linear.weight');
  assert.equal(Math.round(at['emb(input)'].top), Math.round(at['linear(one_hot)'].top), 'outputs level');
  for (const grad of ['emb.weight.grad[2, 0]', 'linear.weight.grad[0, 2]', 'emb(input).grad[0, 0]', 'linear(one_hot).grad[0, 0]']) {
    assert.ok(await page.locator(`[data-cell="${grad}"]`).isVisible(), `${grad} under its number`);
  }
  assert.ok(Math.max(at.verdict, at.loss) <= at.timeline, 'the verdict and the loss above the timeline');
  // Controls brings everything back.
  await page.getByRole('button', { name: 'Controls' }).click();
  at = await layout(page);
  assert.ok(at['emb.weight'] && at['linear(one_hot)']);
  assert.ok(await page.getByRole('button', { name: 'SGD step' }).isVisible());
  await page.getByRole('button', { name: 'Controls' }).click();

  // The batch preset's wider tables stack, never widen the page.
  await page.getByLabel('Projector').uncheck();
  await page.locator('select[aria-label=Preset]').selectOption('vocab10_dim3_batch');
  await page.locator('[data-cell="linear(one_hot)[1, 2, 2]"]').waitFor();
  await page.getByLabel('Projector').check();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than 1024`);
  const inner = await page.locator('.oh-way').evaluateAll((ways) => ways.map((w) => w.scrollWidth - w.clientWidth));
  assert.deepEqual(inner, [0, 0], 'no way scrolls sideways');
  assert.deepEqual(page.errors, []);
});

test('leaving the scene while a timing is pending is quiet', async () => {
  const page = await open();
  await page.locator('input[type=range][aria-label^="V ("]').focus();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('navigation').getByRole('link', { name: 'Embedding', exact: true }).click();
  await page.waitForTimeout(500);
  assert.deepEqual(page.errors, []);
});

test('the timing worker is fetched only as the learner comes near the timing panel', async () => {
  const page = await open();
  const worker = [];
  page.on('request', (request) => /worker/.test(request.url()) && worker.push(request.url()));
  await page.reload();
  await page.locator('[data-cell="linear(one_hot)[0, 0]"]').waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(worker, [], 'a visit that stays at the top fetches no worker');
  assert.match(await page.locator('.oh-timing').textContent(), /Timing both ways…/);
  await page.locator('.oh-cost h2').first().scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /per call/.test(document.querySelector('.oh-timing')?.textContent));
  assert.ok(worker.some((url) => url.endsWith('worker_loader.js')), worker.join(', '));
  // Timed once for these sizes: scrolled away and back, it is not timed again.
  const timed = worker.length;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('.oh-cost h2').first().scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  assert.equal(worker.length, timed);
  assert.deepEqual(page.errors, []);
});

test('a reload while the timing worker downloads its wasm is quiet, and the scene times again', async () => {
  const page = await open();
  // The worker's wasm held back: the reload cuts its download, as a learner's would.
  let asked;
  const requested = new Promise((ok) => (asked = ok));
  await page.route('**/worker_bg.wasm', async (route) => {
    asked();
    await new Promise(() => {});
  });
  // The panel times once on show, in a new worker after the reload.
  const timing = page.locator('.oh-timing');
  await page.reload();
  await timing.scrollIntoViewIfNeeded();
  await requested;
  await page.unroute('**/worker_bg.wasm');
  await page.reload();
  await timing.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => /per call/.test(document.querySelector('.oh-timing')?.textContent));
  assert.deepEqual(page.errors, []);
});

test('at real scale: a sweep to V = 50 000 in the worker, PyTorch beside, cancel, and the page answers', async () => {
  const page = await open();
  const panel = page.locator('.oh-scale');
  const status = panel.locator('[role=status]');
  await panel.getByLabel('Sizes to time').selectOption({ label: 'D = 64, 3 ids' });
  await panel.getByRole('button', { name: 'Time V = 10 … 50,000' }).click();
  await page.waitForFunction(() => /^Done/.test(document.querySelector('.oh-scale [role=status]')?.textContent), null, { timeout: 60000 });
  // Five sizes, each timed here and by PyTorch, with the work counted.
  const rows = await panel.locator('table').first().locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const ours = rows.filter((r) => r.includes('this browser'));
  assert.deepEqual(ours.map((r) => r[0]), ['10', '100', '1,000', '10,000', '50,000']);
  for (const r of ours) {
    for (const ms of r.slice(2, 6)) assert.match(ms, /^\d[\d.]*$/, `a time in ms: ${r}`);
  }
  // The work at V = 50 000, D = 64, 3 ids: copies against products, the dense gradient against
  // the rows the ids touch.
  const work = await panel.locator('table').nth(1).locator('tbody tr').last().evaluate((tr) => [...tr.children].map((c) => c.textContent));
  assert.deepEqual(work, ['50,000', '192', '9,600,000', '9,599,808', '3,200,000', '192']);
  assert.equal(rows.filter((r) => r[0] === 'PyTorch').length, 5, 'PyTorch beside every size');
  // The plot: a line per way through the five sizes, and PyTorch's marks.
  assert.equal(await panel.locator('polyline.oh-line').count(), 4);
  const points = await panel.locator('polyline.oh-line.one-hot:not(.backward)').getAttribute('points');
  assert.equal(points.trim().split(' ').length, 5);
  assert.equal(await panel.locator('circle.oh-torch').count(), 20);

  // The largest sweep: progress, the page answers while the worker computes, then cancel.
  await panel.getByLabel('Sizes to time').selectOption({ label: 'D = 300, 1,024 ids' });
  await panel.getByRole('button', { name: 'Time V = 10 … 50,000' }).click();
  await page.waitForFunction(() => /V = 50,000: one-hot/.test(document.querySelector('.oh-scale [role=status]')?.textContent), null, { timeout: 60000 });
  assert.ok(await panel.locator('progress').count(), 'a progress bar while it runs');
  assert.ok(await panel.getByLabel('Sizes to time').isDisabled(), 'sizes wait for the run');
  // The main thread is free: an edit shows at once.
  await type(page, 'emb.weight[2, 0]', '0.5');
  assert.equal(await cell(page, 'emb(input)[0, 0]'), '0.5000');
  assert.equal(await cell(page, 'linear(one_hot)[0, 0]'), '0.5000');
  await panel.getByRole('button', { name: 'Cancel' }).click();
  assert.match(await status.textContent(), /^Cancelled after 4 of 5 sizes\.$/);
  assert.equal(await panel.locator('progress').count(), 0);
  assert.ok(await panel.getByRole('button', { name: 'Time V = 10 … 50,000' }).isEnabled());
  await panel.scrollIntoViewIfNeeded();
  await shot(panel, 'one_hot-at-scale');
  assert.deepEqual(page.errors, []);
});
