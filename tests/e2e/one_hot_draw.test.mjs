// One-hot's tables at real scale, drawn in the worker so the page never pauses: a new size
// (the sliders), a new seed (Re-init), and a scene saved or linked at that scale coming back
// (its draw made before the scene is read over it). Each shows its progress, the first two can
// be cancelled, and each lands PyTorch's table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cell, copyLink, download, hold, scene, type, until } from './browser.mjs';

const { site, open } = scene('#/one-hot', { ready: '[data-cell="linear(one_hot)[0, 0]"]' });

/** Holds back the worker's files until the returned function lets them (and later ones) through. */
const holdWorker = (page) => hold(page, '**/worker_loader.js');

test('a table too big to draw at once is drawn in the worker, and can be cancelled', async () => {
  const page = await open();
  const shape = page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape');
  const v = page.locator('input[type=range][aria-label^="V ("]');
  const d = page.locator('input[type=range][aria-label^="D ("]');
  await v.focus();
  await page.keyboard.press('End');
  await shape.filter({ hasText: '(50000, 5)' }).waitFor();
  // The worker's files held back: the draw of 3.2 million numbers waits, on show with Cancel.
  let release = await holdWorker(page);
  await d.focus();
  await page.keyboard.press('End');
  const drawing = page.locator('.oh-drawing');
  await drawing.waitFor();
  assert.match(
    await drawing.textContent(),
    /Drawing emb\.weight \(50000, 64\), 3,200,000 numbers from torch\.manual_seed\(123\), in the background…/,
  );
  assert.equal(await d.getAttribute('aria-valuetext'), '64', 'the slider shows the size being drawn');
  assert.equal(await drawing.locator('progress').count(), 1);
  await drawing.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.locator('.oh-drawn').textContent(), 'Cancelled (50000, 64): emb.weight stays (50000, 5).');
  assert.equal(await drawing.count(), 0);
  assert.match(await shape.textContent(), /\(50000, 5\)/);
  assert.equal(await d.getAttribute('aria-valuetext'), '5');
  await release();
  // Drawn for real, it lands as one change: the first rows keep their numbers.
  await d.focus();
  await page.keyboard.press('End');
  await shape.filter({ hasText: '(50000, 64)' }).waitFor();
  assert.equal(await cell(page, 'linear(one_hot)[0, 0]'), '0.6957');
  assert.equal(await page.locator('.oh-drawn').count(), 0);

  // While D is drawn, V keeps it: V = 4 with D = 32 is small enough to take at once.
  release = await holdWorker(page);
  await d.focus();
  await page.keyboard.press('ArrowLeft');
  await drawing.filter({ hasText: '(50000, 32)' }).waitFor();
  await v.focus();
  await page.keyboard.press('Home');
  await shape.filter({ hasText: '(4, 32)' }).waitFor();
  assert.equal(await drawing.count(), 0);
  // A preset picked while a table is drawn: the table that arrives is not for it.
  await page.keyboard.press('End');
  await drawing.filter({ hasText: '(50000, 32)' }).waitFor();
  await page.locator('select[aria-label=Preset]').selectOption('vocab10_dim3_batch');
  await shape.filter({ hasText: '(10, 3)' }).waitFor();
  await page.locator('.oh-drawn', { hasText: 'Not drawn: emb.weight changed while (50000, 32) was drawn.' }).waitFor();
  assert.match(await shape.textContent(), /\(10, 3\)/);
  await release();
  assert.deepEqual(page.errors, []);
});

test('while V is drawn, the D slider offers what fits with the V being drawn', async () => {
  const page = await open();
  const release = await holdWorker(page);
  const v = page.locator('input[type=range][aria-label^="V ("]');
  const d = page.locator('input[type=range][aria-label^="D ("]');
  await v.focus();
  await page.keyboard.press('End');
  const drawing = page.locator('.oh-drawing');
  await drawing.filter({ hasText: '(50000, 5)' }).waitFor();
  await d.focus();
  await page.keyboard.press('End');
  await drawing.filter({ hasText: '(50000, 64)' }).waitFor();
  assert.equal(await d.getAttribute('aria-valuetext'), '64', 'not 256: 50,000 × 256 is more than this lab holds');
  assert.equal(await page.locator('.oh-drawn').count(), 0, 'nothing refused');
  await release();
  await page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: '(50000, 64)' }).waitFor();
  assert.deepEqual(page.errors, []);
});


test('D goes to 300 where the table fits: at V = 10,000 its 3 million numbers are drawn in the worker', async () => {
  const page = await open();
  const first = await Promise.all([0, 1, 2, 3, 4].map((j) => cell(page, `emb(input)[0, ${j}]`)));
  const shape = page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape');
  const v = page.locator('input[type=range][aria-label^="V ("]');
  const d = page.locator('input[type=range][aria-label^="D ("]');
  await v.focus();
  for (let i = 0; i < 20 && (await v.getAttribute('aria-valuetext')) !== '10000'; i++) await page.keyboard.press('ArrowRight');
  await shape.filter({ hasText: '(10000, 5)' }).waitFor();
  const release = await holdWorker(page);
  await d.focus();
  await page.keyboard.press('End');
  await page.locator('.oh-drawing', { hasText: 'Drawing emb.weight (10000, 300), 3,000,000 numbers from torch.manual_seed(123)' }).waitFor();
  assert.equal(await d.getAttribute('aria-valuetext'), '300');
  await release();
  await shape.filter({ hasText: '(10000, 300)' }).waitFor();
  // Both ways' outputs, (3, 300), are heat maps now: id 2's row keeps PyTorch's numbers.
  const readout = page.locator('.heatmap', { has: page.locator('[role=grid][aria-label="emb(input)"]') }).locator('.readout');
  assert.match(await readout.textContent(), new RegExp(`^emb\\(input\\)\\[0, 0\\] = .* · row: \\[${first.join(', ')}, `));
  await page.getByText('torch.equal(emb(input), linear(one_hot)) → True').waitFor();
  assert.deepEqual(page.errors, []);
});

test('up to 1,024 ids: past 400 the input is a heat map, both ways still equal, V as far as their one_hot fits', async () => {
  const page = await open();
  const count = page.getByLabel('number of ids');
  await count.fill('1025');
  await count.press('Enter');
  await page.locator('label.field', { has: count }).locator('.field-error', { hasText: 'choose a size from 1 to 1024' }).waitFor();
  await count.fill('1024');
  await count.press('Enter');
  await page.locator('.one-hot figure:has([aria-label="input"]) .shape', { hasText: '(1024,)' }).waitFor();
  assert.ok(await page.locator('[role=grid][aria-label="input"] canvas').count(), 'input is a heat map');
  assert.match(await page.locator('.oh-equal').textContent(), /→ True/);
  // New ids are 0: 1,024 × 4 × 5 multiply-adds, all but one per number by 0.
  assert.match(await page.locator('.oh-cost').textContent(), /The lookup copies 5,120 numbers\. The one-hot way does 20,480 multiply-adds, 15,360 of them by 0/);
  const v = page.locator('input[type=range][aria-label^="V ("]');
  await v.focus();
  await page.keyboard.press('End');
  await page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: '(2000, 5)' }).waitFor();
  assert.equal(await v.getAttribute('aria-valuetext'), '2000', "not 5,000: 1,024 × 5,000 is more than this lab holds");
  assert.match(await page.locator('.oh-equal').textContent(), /→ True/);
  assert.deepEqual(page.errors, []);
});

/** `emb(input)[k, 0 … 4]` as shown. */
const row = (page, k) => Promise.all([0, 1, 2, 3, 4].map((j) => cell(page, `emb(input)[${k}, ${j}]`)));

/** A fresh page on One-hot with V = 50,000 (250,000 numbers, drawn in the worker). */
async function atRealScale() {
  const page = await open();
  await page.locator('input[type=range][aria-label^="V ("]').focus();
  await page.keyboard.press('End');
  await page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: '(50000, 5)' }).waitFor();
  return page;
}

test('Re-init at real scale is drawn in the worker, can be cancelled, and lands PyTorch\'s table', async () => {
  const page = await atRealScale();
  // Row 2 as it was at (4, 5): a resize keeps the numbers that overlap.
  const drawn123 = ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315'];
  assert.deepEqual(await row(page, 0), drawn123);
  const seed = page.getByLabel('Seed', { exact: true });
  const side = page.locator('.oh-input-side');
  // A seed torch refuses is refused at once, beside the field; nothing is drawn.
  await type(page, 'Seed', 'x');
  await side.getByRole('alert').filter({ hasText: "ValueError: invalid literal for int() with base 10: 'x'" }).waitFor();
  assert.equal(await side.locator('.oh-drawing').count(), 0);

  let release = await holdWorker(page);
  await type(page, 'Seed', '7');
  const drawing = side.locator('.oh-drawing');
  await drawing.waitFor();
  assert.match(
    await drawing.textContent(),
    /Drawing emb\.weight \(50000, 5\), 250,000 numbers from torch\.manual_seed\(7\), in the background…/,
  );
  assert.equal(await seed.inputValue(), '7', 'the field shows the seed being drawn');
  assert.equal(await page.locator('.oh-cost .oh-drawing').count(), 0, 'said where it was asked for, once');
  assert.equal(await side.getByRole('alert').count(), 0);
  await drawing.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await side.locator('.oh-drawn').textContent(), 'Cancelled torch.manual_seed(7): emb.weight stays as it was.');
  assert.equal(await seed.inputValue(), '123');
  assert.deepEqual(await row(page, 0), drawn123);
  await release();

  // Drawn for real: torch.manual_seed(7); nn.Embedding(50000, 5).weight at ids [2, 3, 1].
  await type(page, 'Seed', '7');
  await until(page, 'emb(input)[0, 0]', '-1.1597');
  assert.deepEqual(await row(page, 0), ['-1.1597', '-0.4602', '0.7085', '1.0128', '0.2304']);
  assert.deepEqual(await row(page, 1), ['1.0902', '-1.5827', '-0.3246', '1.9264', '-0.3300']);
  assert.deepEqual(await row(page, 2), ['0.2851', '-0.6411', '-0.8937', '0.9265', '-0.5355']);
  assert.equal(await seed.inputValue(), '7');
  assert.equal(await side.locator('.oh-drawing, .oh-drawn').count(), 0);
  assert.equal(await cell(page, 'linear(one_hot)[2, 4]'), '-0.5355', 'both ways read the new table');
  assert.deepEqual(page.errors, []);
});

test('a scene saved or linked at real scale comes back drawn in the worker, and the page draws it if the worker fails', async () => {
  const page = await atRealScale();
  await type(page, 'input[0]', '49999');
  // torch.manual_seed(123); nn.Embedding(50000, 5).weight[49999]
  const last = ['1.1985', '-2.4288', '-0.5742', '-2.0734', '0.7555'];
  await until(page, 'emb(input)[0, 0]', '1.1985');
  const rows = [await row(page, 0), await row(page, 1)];
  assert.deepEqual(rows[0], last);
  const link = await copyLink(page);

  // Reloaded: the draw waits for the worker, said in the scene's place, and nothing is saved over the learner's work.
  const restoring = page.locator('.oh-drawing', {
    hasText: 'Restoring One-hot × Linear: drawing emb.weight (50000, 5), 250,000 numbers from torch.manual_seed(123), in the background…',
  });
  let release = await holdWorker(page);
  await page.reload();
  await restoring.waitFor();
  assert.equal(await page.locator('[data-cell="emb(input)[0, 0]"]').count(), 0);
  const saved = await page.evaluate(() => localStorage.getItem('rowflow.one_hot'));
  assert.match(saved, /"drawn":\[50000,5\]/);
  await release();
  await page.locator('[data-cell="emb(input)[0, 0]"]').waitFor();
  assert.deepEqual([await row(page, 0), await row(page, 1)], rows);
  assert.equal(await cell(page, 'input[0]'), '49999');
  assert.equal(await restoring.count(), 0);
  assert.equal(await page.evaluate(() => localStorage.getItem('rowflow.one_hot')), saved);

  // Its link, opened on a fresh page, the same way.
  const friend = await site.page();
  release = await holdWorker(friend);
  await friend.goto(link);
  await friend.locator('.oh-drawing', { hasText: 'drawing emb.weight (50000, 5)' }).waitFor();
  await release();
  await friend.locator('[data-cell="emb(input)[0, 0]"]').waitFor();
  assert.deepEqual([await row(friend, 0), await row(friend, 1)], rows);

  // A save that no longer reads, read after its draw: kept aside and said, as any scene's is.
  await friend.waitForFunction(() => localStorage.getItem('rowflow.one_hot'));
  const damaged = (await friend.evaluate(() => localStorage.getItem('rowflow.one_hot'))).replace('"values":"', '"values":"!');
  await friend.evaluate((text) => localStorage.setItem('rowflow.one_hot', text), damaged);
  await friend.reload();
  await friend.locator('.share-notice[role=alert]', { hasText: 'Your saved work for this scene could not be read' }).waitFor();
  assert.equal(await friend.evaluate(() => localStorage.getItem('rowflow.one_hot.unreadable')), damaged);
  assert.equal(await cell(friend, 'emb(input)[0, 0]'), '0.6957', 'the first preset');

  // The worker's files can't be had: the page draws the table itself, and nothing is lost.
  await page.route('**/worker_loader.js', (route) => route.abort());
  await page.reload();
  await page.locator('[data-cell="emb(input)[0, 0]"]').waitFor();
  assert.deepEqual([await row(page, 0), await row(page, 1)], rows);
  assert.deepEqual(page.errors.filter((e) => !e.includes('worker_loader.js')), []);
  assert.deepEqual(friend.errors, []);
});

test('a file at real scale opens drawn in the worker, with Cancel, and so does the work it set aside', async () => {
  const small = await open();
  const smallFile = await (await download(small)).path();
  const page = await atRealScale();
  await type(page, 'input[0]', '49999');
  await until(page, 'emb(input)[0, 0]', '1.1985');
  const rows = [await row(page, 0), await row(page, 1)];
  const bigFile = await (await download(page)).path();
  const shape = (page, to) => page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape', { hasText: to });

  // Opened on the small scene: its draw waits for the worker, said at the scene's top, and
  // Cancel leaves the scene as it was.
  let release = await holdWorker(small);
  await small.getByLabel('Import file').setInputFiles(bigFile);
  const opening = small.locator('.oh-drawing', {
    hasText: 'Opening the scene: drawing emb.weight (50000, 5), 250,000 numbers from torch.manual_seed(123), in the background…',
  });
  await opening.waitFor();
  await opening.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await small.locator('.oh-drawn').textContent(), 'Cancelled: nothing was opened; the scene stays as it was.');
  assert.match(await shape(small, '(4, 5)').textContent(), /\(4, 5\)/);
  await release();
  await small.getByLabel('Import file').setInputFiles(bigFile);
  await shape(small, '(50000, 5)').waitFor();
  assert.deepEqual([await row(small, 0), await row(small, 1)], rows);
  await small.locator('.share-notice', { hasText: 'This scene came from a file.' }).waitFor();

  // The big scene replaced by the small file, then brought back: drawn in the worker again.
  await page.getByLabel('Import file').setInputFiles(smallFile);
  await shape(page, '(4, 5)').waitFor();
  release = await holdWorker(page);
  await page.getByRole('button', { name: 'Back to my work' }).click();
  await page.locator('.oh-drawing', { hasText: 'Opening the scene: drawing emb.weight (50000, 5)' }).waitFor();
  await release();
  await shape(page, '(50000, 5)').waitFor();
  assert.deepEqual([await row(page, 0), await row(page, 1)], rows);
  await page.locator('.share-notice', { hasText: 'Your own work is back' }).waitFor();

  // A lesson played over it, then left: the work is set aside as saved, not read back (that
  // would draw its table on the page), and comes back drawn in the worker.
  await page.goto(`${site.base}#/one-hot?lesson=same-numbers`);
  await page.locator('.lesson').waitFor();
  await page.keyboard.press('Escape');
  await page.getByText('This scene came from a lesson.').waitFor();
  await page.getByRole('button', { name: 'Back to my work' }).click();
  await shape(page, '(50000, 5)').waitFor();
  assert.deepEqual([await row(page, 0), await row(page, 1)], rows);

  // A small scene's link opened over it: the work is set aside as saved, not read back, and
  // comes back the same way.
  const smallLink = await copyLink(await open());
  await page.goto(smallLink);
  await shape(page, '(4, 5)').waitFor();
  await page.locator('.share-notice', { hasText: 'This scene came from a link. Your own work is kept' }).waitFor();
  await page.getByRole('button', { name: 'Back to my work' }).click();
  await shape(page, '(50000, 5)').waitFor();
  assert.deepEqual([await row(page, 0), await row(page, 1)], rows);
  assert.deepEqual(small.errors, []);
  assert.deepEqual(page.errors, []);
});
