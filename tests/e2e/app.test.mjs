// The site as a whole: the landing page links every scene, hash routes work under a sub-path,
// an unknown route says so, projection mode switches on, and axe finds no serious
// accessibility problem on any page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { start, artifacts } from './browser.mjs';

let site;
before(async () => (site = await start()));
after(async () => site?.stop());

const scenes = [
  ['#/linear', 'Linear'],
  ['#/embedding', 'Embedding'],
  ['#/one-hot', 'One-hot × Linear'],
  ['#/rnn', 'RNN'],
  ['#/train', 'Train'],
];

async function axe(page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
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
  assert.equal(await page.locator('nav a').count(), scenes.length);
  assert.deepEqual(page.errors, []);
});

test('projection mode enlarges type and fits 1024×768', async () => {
  const page = await site.page();
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(site.base + '#/embedding');
  await page.getByLabel('Projector').check();
  assert.ok(await page.evaluate(() => document.body.classList.contains('projection')));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than 1024`);
  await page.screenshot({ path: join(artifacts, 'projection-embedding.png') });
});

test('no serious accessibility violations on any page', async () => {
  const page = await site.page();
  for (const href of ['', ...scenes.map(([h]) => h)]) {
    await page.goto(site.base + href);
    await page.locator('main h1').first().waitFor();
    assert.deepEqual(await axe(page), [], `axe on ${href || 'landing'}`);
  }
});

test('axe: the share panel, a link notice, the PyTorch panel and the backward pass', async () => {
  const page = await site.page();
  await page.goto(site.base + '#/rnn');
  await page.locator('[data-cell="output[0, 0, 0]"]').waitFor();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByLabel('Link to this scene').inputValue();
  await page.goto(link);
  await page.locator('.share-notice').waitFor();
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('checkbox', { name: 'add h_n.sum() to the loss' }).check();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByText('PyTorch: the same numbers in Python').click();
  await page.getByLabel('PyTorch code').waitFor();
  await page.getByRole('button', { name: 'Copy link' }).click();
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(page.errors, []);
});
