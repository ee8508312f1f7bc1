// The site as a whole: the landing page links every scene, hash routes work under a sub-path,
// an unknown route says so, and axe, with every rule it has, finds
// no accessibility problem of any impact on any page, in any state a learner gets to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, axe, copyCode, copyLink, openCode, type } from './browser.mjs';

const site = serve();

const scenes = [
  ['#/linear', 'Linear'],
  ['#/embedding', 'Embedding'],
  ['#/one-hot', 'One-hot × Linear'],
  ['#/rnn', 'RNN'],
  ['#/train', 'Train'],
  ['#/word2vec', 'word2vec'],
];

/** Runs axe on the page as it is now, keeping what it finds under `where`. */
async function check(found, page, where) {
  // Marks that fade in and a row still flying (Embedding's, which fades as it lands) are read
  // once they have come to rest: mid-fade, any text is paler than it stays (seen in CI when a
  // busy machine ran axe 0.6 s into the flight).
  await page.evaluate(() => {
    const rest = Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {})));
    return Promise.race([rest, new Promise((ok) => setTimeout(ok, 2000))]);
  });
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  for (const v of await axe(page)) found.push(`${where}: ${v}`);
}

/** No violations at all, else the whole list, one per line. */
function none(found) {
  assert.ok(found.length === 0, `axe found ${found.length} violation(s):\n${found.join('\n')}`);
}

test('the landing page links every scene and each route renders it', async () => {
  const page = await site.page();
  await page.goto(site.base);
  await page.getByRole('heading', { level: 1 }).waitFor();
  for (const [href, name] of scenes) {
    await page.getByRole('main').getByRole('link', { name, exact: true }).click();
    await page.waitForFunction((h) => location.hash === h, href);
    assert.equal(await page.locator(`nav a[aria-current=page]`).textContent(), name);
    await page.locator('main [role=grid]').first().waitFor();
    await page.goBack();
  }
  assert.deepEqual(page.errors, []);
});

test('an unknown route says so and keeps the navigation', async () => {
  const page = await site.page();
  await page.goto(site.base + '#/nope');
  await page.getByRole('heading', { name: 'No such page' }).waitFor();
  assert.equal(await page.locator('nav a').count(), scenes.length + 1, 'every scene and Explain an error');
  assert.deepEqual(page.errors, []);
});

test('axe, every rule: every route', async () => {
  const page = await site.page();
  const found = [];
  for (const href of ['', ...scenes.map(([h]) => h), '#/explain']) {
    await site.go(href, 'main h1:visible', page);
    await check(found, page, href || 'landing');
  }
  await page.goto(site.base + '#/nope');
  await page.getByRole('heading', { name: 'No such page' }).waitFor();
  await check(found, page, '#/nope');
  none(found);
  assert.deepEqual(page.errors, []);
});

test('axe, every rule: each scene going backward, with its grads and the mse target', async () => {
  const page = await site.page();
  const found = [];
  for (const [href] of scenes) {
    await site.go(href, 'main [role=grid]', page);
    await page.getByRole('button', { name: 'Backward', exact: true }).click();
    await page.locator('.grid[data-grads] .g').first().waitFor();
    await check(found, page, `${href} backward`);
    await page.getByRole('button', { name: 'Step forward' }).click();
    await check(found, page, `${href} backward, step 1`);
    const loss = page.getByRole('combobox', { name: 'Loss', exact: true });
    if (await loss.count()) {
      await loss.selectOption('mse');
      await page.locator('[role=grid][aria-label=target]').waitFor();
      await check(found, page, `${href} mse`);
    }
  }
  none(found);
  assert.deepEqual(page.errors, []);
});

/** Types `text` into the cell `label` and waits for the refusal beside it. */
async function refused(page, label, text) {
  await type(page, label, text);
  await page.locator(`td:has([data-cell="${label}"]) [role=alert]`).waitFor();
}

test('axe, every rule: a refused edit, a bad id, the heat map, the PyTorch panel, the share panel', async () => {
  const page = await site.page();
  const found = [];
  await page.goto(site.base + '#/linear');
  await refused(page, 'weight[0, 0]', 'abc');
  await check(found, page, '#/linear refused edit');
  await page.locator('[role=grid][aria-label=output] [role=gridcell]').first().focus();
  await check(found, page, '#/linear focused output cell, every digit');

  await page.goto(site.base + '#/embedding');
  await refused(page, 'input[2]', '4');
  await check(found, page, '#/embedding id out of range');
  await page.getByLabel('Preset').selectOption('big_1000x30');
  await page.locator('[role=grid][aria-label=weight] canvas').waitFor();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.locator('[role=grid][aria-label=weight] [role=gridcell]').focus();
  await page.keyboard.press('ArrowDown');
  await check(found, page, '#/embedding 1000×30 heat map');

  for (const [href] of scenes) {
    await site.go(href, 'main [role=grid]', page);
    await openCode(page);
    await copyCode(page);
    await copyLink(page);
    await check(found, page, `${href} code and share panels`);
  }
  none(found);
  assert.deepEqual(page.errors, []);
});

test('axe, every rule: projection mode on every route', async () => {
  const page = await site.page();
  const found = [];
  await page.goto(site.base);
  await page.getByLabel('Projector').check();
  await check(found, page, 'landing, projector');
  for (const [href, name] of scenes) {
    await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
    await page.locator('main [role=grid]').first().waitFor();
    await check(found, page, `${href} projector`);
  }
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await check(found, page, '#/train projector 1024×768 backward');
  // RNN's boxes print their gradients there, beside the parameters.
  await page.getByRole('navigation').getByRole('link', { name: 'RNN', exact: true }).click();
  await page.locator('main [role=grid]').first().waitFor();
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.locator('.rnn-grads[data-cell="output.grad[0, 1]"]').waitFor();
  await check(found, page, '#/rnn projector 1024×768 backward, a step');
  none(found);
  assert.deepEqual(page.errors, []);
});

test('axe, every rule: a link notice, the PyTorch panel and the backward pass', async () => {
  const page = await site.go('#/rnn', '[data-cell="output[0, 0, 0]"]');
  await page.goto(await copyLink(page));
  await page.locator('.share-notice').waitFor();
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('checkbox', { name: 'add h_n.sum() to the loss' }).check();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await openCode(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const found = [];
  await check(found, page, '#/rnn link notice, backward, code');
  none(found);
  assert.deepEqual(page.errors, []);
});
