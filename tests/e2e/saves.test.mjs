// Nothing lost across tabs, crashes and new versions: two tabs of one scene keep both learners'
// edits (each follows the other's saves, or sets its own work aside and says so), a lesson in
// one tab leaves the other's work alone, a save that stops rowflow as it opens has a way out
// that keeps it, and what the release before formats were numbered wrote still opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve, at, axe, cell, download, fmt, labels, shown, type } from './browser.mjs';

const site = serve();
const KEY = 'rowflow.linear';
const saved = (page, key = KEY) => page.evaluate((key) => JSON.parse(localStorage.getItem(key)), key);
/** Waits until the cell `label` of `page` shows `text`. */
const shows = (page, label, text) =>
  page.waitForFunction(([l, t]) => document.querySelector(`[data-cell="${l}"]`)?.value === t, [label, text]);

async function twoTabs() {
  const a = await site.go('#/linear', '[data-cell="weight[0, 0]"]');
  const b = await site.tab(a);
  await site.go('#/linear', '[data-cell="weight[0, 0]"]', b);
  return [a, b];
}

test('two tabs of one scene follow each other: an edit in each, both kept', async () => {
  const [a, b] = await twoTabs();
  const w11 = await cell(a, 'weight[1, 1]');
  await type(b, 'weight[0, 0]', '7.5');
  // A has no change of its own waiting: it shows B's save.
  await shows(a, 'weight[0, 0]', '7.5000');
  await type(a, 'weight[1, 1]', '2.25');
  await shows(b, 'weight[1, 1]', '2.2500');
  assert.equal(await cell(b, 'weight[0, 0]'), '7.5000');
  assert.notEqual(w11, '2.2500');
  const stored = await saved(a);
  assert.deepEqual([stored.format, stored.weight.data[0], stored.weight.data[7]], [3, 7.5, 2.25]);
  // Simply followed: nothing to say.
  assert.equal(await a.locator('.share-notice').count(), 0);
  assert.equal(await b.locator('.share-notice').count(), 0);
  const c = await site.tab(a);
  await site.go('#/linear', '[data-cell="weight[0, 0]"]', c);
  assert.deepEqual(await shown(c, ['weight[0, 0]', 'weight[1, 1]']), ['7.5000', '2.2500']);
  for (const page of [a, b, c]) assert.deepEqual(page.errors, []);
});

test('a tab that missed another tab\'s save never writes over it: its own work is set aside and said', async () => {
  const [a, b] = await twoTabs();
  const w00 = await cell(a, 'weight[0, 0]');
  // A hears no other tab once `deaf`, as a page the browser froze.
  await a.addInitScript(() => {
    const listen = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (type, listener, ...rest) {
      const deafened = (e) => globalThis.deaf || (listener.handleEvent?.(e) ?? listener.call(this, e));
      return listen.call(this, type, type === 'storage' ? deafened : listener, ...rest);
    };
  });
  await a.reload();
  await at(a, 'weight[0, 0]').waitFor();
  await a.evaluate(() => (globalThis.deaf = true));
  await type(b, 'weight[0, 0]', '7.5');
  await b.waitForFunction((key) => JSON.parse(localStorage.getItem(key)).weight.data[0] === 7.5, KEY);
  await type(a, 'weight[1, 1]', '2.25');
  const notice = a.locator('.share-notice', { hasText: 'another tab' });
  await notice.waitFor();
  assert.equal(
    await notice.textContent(),
    'This scene changed in another tab, and this tab shows that work now. Your own work from this tab is kept: Back to my work',
  );
  await shows(a, 'weight[0, 0]', '7.5000');
  assert.notEqual(await cell(a, 'weight[1, 1]'), '2.2500');
  assert.equal((await saved(a)).weight.data[0], 7.5, "B's save stays");
  assert.equal((await saved(a, `${KEY}.previous`)).weight.data[7], 2.25, "A's work is kept");
  assert.deepEqual(await axe(a), []);

  // Back to my work: A's own work comes back, and B's goes aside in its place, which B says.
  await notice.getByRole('button', { name: 'Back to my work' }).click();
  await shows(a, 'weight[1, 1]', '2.2500');
  assert.equal(await cell(a, 'weight[0, 0]'), w00);
  await shows(b, 'weight[1, 1]', '2.2500');
  const told = b.locator('.share-notice', { hasText: 'another tab' });
  await told.waitFor();
  assert.equal((await saved(b, `${KEY}.previous`)).weight.data[0], 7.5);
  await told.getByRole('button', { name: 'Back to my work' }).click();
  await shows(b, 'weight[0, 0]', '7.5000');
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
});

test('a lesson played in one tab leaves the work of another alone until it becomes the learner\'s', async () => {
  const a = await site.go('#/linear', '[data-cell="weight[0, 0]"]');
  await type(a, 'weight[0, 0]', '0.25');
  await a.waitForFunction((key) => JSON.parse(localStorage.getItem(key)).weight.data[0] === 0.25, KEY);
  const own = await a.evaluate((key) => localStorage.getItem(key), KEY);
  const b = await site.tab(a);
  await site.go('#/linear?lesson=row-or-column', '.lesson', b);
  for (let k = 0; k < 4; k++) await b.keyboard.press('PageDown');
  await b.getByText('A batch of shape (2, 6)').waitFor();
  assert.equal(await a.evaluate((key) => localStorage.getItem(key), KEY), own, 'the lesson saves nothing');
  assert.equal(await cell(a, 'weight[0, 0]'), '0.2500');
  assert.equal(await a.locator('.share-notice').count(), 0);
  // Escape keeps the lesson's scene as B's own work: A's is set aside first, and A says so.
  await b.keyboard.press('Escape');
  const told = a.locator('.share-notice', { hasText: 'another tab' });
  await told.waitFor();
  assert.deepEqual((await saved(a)).weight.shape, [10, 6]);
  await told.getByRole('button', { name: 'Back to my work' }).click();
  await shows(a, 'weight[0, 0]', '0.2500');
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
});

test('a save that stops rowflow as it opens: the crash page starts the scene fresh, the save kept', async () => {
  const page = await site.page();
  // The bug: drawing a scene from a save holding 6.125 fails inside the view layer, as a bug in
  // rowflow would (a DOM call Leptos expects to succeed), once the test arms it.
  await page.addInitScript(() => {
    const create = Document.prototype.createElement;
    Document.prototype.createElement = function (tag, ...rest) {
      const save = localStorage.getItem('rowflow.linear') ?? '';
      if (tag === 'section' && sessionStorage.getItem('armed') && save.includes('6.125')) {
        throw new DOMException('a bug this test puts in rowflow', 'NotSupportedError');
      }
      return create.call(this, tag, ...rest);
    };
  });
  await site.go('#/linear', '[data-cell="weight[0, 0]"]', page);
  await type(page, 'weight[0, 0]', '6.125');
  await page.waitForFunction((key) => JSON.parse(localStorage.getItem(key)).weight.data[0] === 6.125, KEY);
  const broken = await page.evaluate((key) => localStorage.getItem(key), KEY);
  await page.evaluate(() => sessionStorage.setItem('armed', '1'));

  // Opened, it stops; reloaded, it stops again.
  for (const open of [() => page.reload(), () => page.getByRole('button', { name: 'Reload my saved work' }).click()]) {
    await open();
    const crash = page.locator('main.crash');
    await crash.getByRole('button', { name: 'Start this scene fresh' }).waitFor();
    assert.match(await crash.textContent(), /It stopped as your saved work for this scene opened/);
    assert.deepEqual(
      await crash.locator('.crash-actions button').allTextContents(),
      ['Reload my saved work', 'Download my saved work', 'Start this scene fresh'],
    );
  }
  await page.getByRole('button', { name: 'Start this scene fresh' }).click();
  await at(page, 'weight[0, 0]').waitFor();
  assert.equal(await cell(page, 'output[0]'), '-0.5036', "the first preset: PyTorch's output");
  const notice = page.locator('.share-notice[role=alert]');
  assert.equal(
    await notice.textContent(),
    'Your saved work for this scene could not be read (it stopped rowflow with a bug as it opened). It is kept in this browser under rowflow.linear.unreadable; the scene starts from its first preset. Download it',
  );
  const file = await download(page, notice.getByRole('button', { name: 'Download it' }));
  assert.equal(file.suggestedFilename(), 'rowflow-linear-unreadable.json');
  assert.equal(readFileSync(await file.path(), 'utf8'), broken);
  assert.equal(await page.evaluate((key) => localStorage.getItem(`${key}.unreadable`), KEY), broken);
  assert.deepEqual(await axe(page), []);
  // What the page said as it stopped: the bug, twice.
  const unexpected = page.errors.filter((e) => !/a bug this test puts in rowflow|unreachable|panicked/.test(e));
  assert.deepEqual(unexpected, []);
});

const formatOne = resolve(import.meta.dirname, '../../core/tests/saves/format-1');
const kept = (scene, file) => readFileSync(join(formatOne, scene, file), 'utf8');

test('a link and a save written before formats were numbered open to the numbers they showed', async () => {
  const link = kept('linear', 'edited.link');
  const output = JSON.parse(kept('linear', 'edited.numbers.json')).close.output;
  const page = await site.go(`#/linear?s=${link}`, '[data-cell="output[1, 3]"]');
  assert.deepEqual(await shown(page, labels('output', output.shape)), output.data.map(fmt));
  assert.equal(await cell(page, 'weight[0, 0]'), '7.5000');

  await page.evaluate((text) => localStorage.setItem('rowflow.train', text), kept('train', 'stepped.save.json'));
  const train = JSON.parse(kept('train', 'stepped.numbers.json')).close.output;
  await site.go('#/train', '[data-cell="output[0]"]', page);
  assert.deepEqual(await shown(page, labels('output', train.shape)), train.data.map(fmt));
  assert.equal(await page.getByLabel('Steps taken').textContent(), 'steps: 5');
  // Written back in this release's format.
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('rowflow.train')).format === 3);
  assert.deepEqual(page.errors, []);
});

test('a save of a newer rowflow, made in another tab, is never saved over', async () => {
  const [a, b] = await twoTabs();
  const newer = await b.evaluate((key) => {
    const text = JSON.stringify({ ...JSON.parse(localStorage.getItem(key)), format: 4 });
    localStorage.setItem(key, text);
    return text;
  }, KEY);
  const notice = a.locator('.save-notice');
  await notice.waitFor();
  assert.equal(
    await notice.textContent(),
    'Not saved: this scene was saved in another tab in a form this tab cannot read (it was written by a newer rowflow (format 4; this one reads formats 1 to 3): reload the page to update rowflow), so nothing here is saved over it; reload this tab to open it — Export to a file keeps your work. Export file',
  );
  await type(a, 'weight[0, 0]', '0.5');
  assert.equal(await a.evaluate((key) => localStorage.getItem(key), KEY), newer);
  assert.deepEqual(a.errors, []);
});
