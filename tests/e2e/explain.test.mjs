// Explain an error (#/explain): each kind of error a learner pastes is laid out with the size
// that disagrees marked and fixes with the shapes they give; Open in the scene lands on that
// failing state with the same message, and a fix there clears it; a message that gives no sizes
// is explained in words with its scene linked; text rowflow cannot read is said to be unknown,
// with the kinds it reads; the paste survives a reload; axe finds nothing; on a projector no
// text is under 16 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, serve, shot } from './browser.mjs';

const site = serve();

async function open(text) {
  const page = await site.go('#/explain', 'section.explain textarea');
  if (text) await paste(page, text);
  return page;
}

async function paste(page, text) {
  await page.getByLabel('PyTorch error or line').fill(text);
  await page.locator('.reading').first().waitFor();
}

/** Each shape as `name (d0, d1)` with its marked sizes in brackets: `x (2, [5])`. */
const shapes = (page) =>
  page.locator('.reading .shape').evaluateAll((ps) =>
    ps.map((p) => {
      const dims = [...p.querySelectorAll('.dim')].map((d) => (d.classList.contains('marked') ? `[${d.textContent}]` : d.textContent));
      return `${p.querySelector('.name').textContent} (${dims.join(', ')})`;
    }),
  );
const fixes = (page) => page.locator('.reading .fixes code').allTextContents();
const error = (page) => page.locator('.reading .error').textContent();

test('a Linear error: x against weight, 5 ≠ 6 marked, fixes, and the scene in that state until a fix', async () => {
  const page = await open('RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)');
  assert.equal(await error(page), 'RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)');
  assert.deepEqual(await shapes(page), ['x (2, [5])', 'weight (10, [6])']);
  assert.match(await page.locator('.reading .why').textContent(), /5 ≠ 6/);
  assert.deepEqual(await fixes(page), ['nn.Linear(5, 10)', 'x = torch.randn(2, 6)']);
  await shot(page, 'explain-linear');

  // The paste is in the address: a reload keeps it.
  await page.reload();
  await page.locator('.reading.explained').waitFor();
  assert.equal(await page.getByLabel('PyTorch error or line').inputValue(), 'RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)');

  await page.getByRole('link', { name: 'Open in the Linear scene' }).click();
  const issue = page.locator('main [role=alert]').filter({ hasText: 'addmm: mat1 and mat2 shapes cannot be multiplied (2x5 and 6x10)' });
  await issue.waitFor();
  const inFeatures = page.getByLabel('in_features', { exact: true });
  await inFeatures.fill('5');
  await inFeatures.press('Enter');
  await page.locator('[data-cell="output[1, 9]"]').waitFor();
  await issue.waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
});

test('a Linear line: run through the layer, x.T offered where it fits', async () => {
  const page = await open('lin = nn.Linear(6, 10, bias=False)\nlin(torch.randn(6, 2))');
  assert.equal(await error(page), 'RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (6x2 and 6x10)');
  assert.deepEqual(await fixes(page), ['nn.Linear(2, 10)', 'x.T', 'x.reshape(-1, 6)']);
  assert.match(await page.locator('.reading .fixes li').nth(1).textContent(), /x \(2, 6\) → output \(2, 10\)/);
  await paste(page, 'nn.Linear(6, 10)(torch.randn(3, 6))');
  assert.match(await page.locator('.reading').textContent(), /PyTorch runs this without an error: .* gives output \(3, 10\)/);
});

test('an Embedding id out of range: the id against num_embeddings, and the scene refusing that id', async () => {
  const page = await open('nn.Embedding(4, 5)(torch.tensor([4]))');
  assert.equal(await error(page), 'IndexError: index out of range in self');
  assert.deepEqual(await shapes(page), ['weight ([4], 5)', 'ids (1)']);
  assert.match(await page.locator('.reading .why').textContent(), /Id 4 has no row/);
  assert.deepEqual(await fixes(page), ['nn.Embedding(5, 5)', 'ids - 1']);
  await page.getByRole('link', { name: 'Open in the Embedding scene' }).click();
  const refusal = page.locator('td:has([data-cell="input[0]"]) [role=alert]');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /index out of range in self/);
  const id = page.locator('[data-cell="input[0]"]');
  await id.fill('3');
  await id.press('Enter');
  await refusal.waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
});

test('ids that are floats, open as floats until made long; the RNN messages; a message explained in words', async () => {
  const page = await open(
    "RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead",
  );
  assert.deepEqual(await fixes(page), ['ids.long()', 'torch.tensor(ids, dtype=torch.long)']);
  // The line's table and ids open as floats: the scene raises the same message until they are long.
  await paste(page, 'nn.Embedding(4, 5)(torch.tensor([1., 2.]))');
  await page.getByRole('link', { name: 'Open in the Embedding scene' }).click();
  const floats = page.locator('main [role=alert]').filter({ hasText: "but got torch.FloatTensor instead (while checking arguments for embedding)" });
  await floats.waitFor();
  assert.deepEqual(await page.locator('input[data-cell^="input["]').evaluateAll((cells) => cells.map((c) => c.value)), ['1', '2']);
  const dtype = page.getByLabel('dtype', { exact: true });
  assert.equal(await dtype.inputValue(), 'torch.float');
  // On a projector the settings wait behind Controls, but not the one refused.
  await page.locator('.projection-toggle input').check();
  assert.ok(await page.locator('.emb-controls .field-error').isVisible());
  await page.locator('.projection-toggle input').uncheck();
  await dtype.selectOption('torch.long');
  await floats.waitFor({ state: 'detached' });
  await page.locator('[data-cell="output[1, 4]"]').waitFor();
  await page.goBack();
  await page.locator('.reading.explained').waitFor();

  await paste(page, 'RuntimeError: input.size(-1) must be equal to input_size. Expected 4, got 3');
  assert.deepEqual(await shapes(page), ['input.size(-1) ([3])']);
  assert.equal((await fixes(page))[0], 'nn.RNN(3, 5)');
  await paste(page, 'RuntimeError: Expected hidden size (1, 2, 5), got [1, 3, 5]');
  assert.deepEqual(await shapes(page), ['h0 (1, [3], 5)']);
  assert.equal((await fixes(page))[0], 'h0 = torch.zeros(1, 2, 5)');
  await page.getByRole('link', { name: 'Open in the RNN scene' }).click();
  await page.locator('main [role=alert]').filter({ hasText: 'Expected hidden size (1, 2, 5), got [1, 3, 5]' }).first().waitFor();

  // A message that gives no layer's sizes: what it means, a fix, and the scene where it arises.
  await page.goBack();
  await paste(page, 'RuntimeError: Class values must be smaller than num_classes.');
  assert.equal(await error(page), 'RuntimeError: Class values must be smaller than num_classes.');
  assert.deepEqual(await fixes(page), ['F.one_hot(ids, num_classes=int(ids.max()) + 1)']);
  await page.locator('.reading .scene-link').getByRole('link', { name: 'One-hot × Linear scene' }).click();
  await page.waitForFunction(() => location.hash === '#/one-hot');
  assert.deepEqual(page.errors, []);
});

test('text rowflow cannot read is said to be unknown, with what it reads; axe finds nothing', async () => {
  const page = await open('RuntimeError: CUDA out of memory');
  assert.match(await page.locator('.reading.unknown').textContent(), /not one of the messages rowflow knows/);
  assert.equal(await page.locator('.reading.unknown a').count(), 6);
  const found = [...(await axe(page))];
  await paste(page, 'nn.Linear(6, 10)(torch.randn(2, 5))');
  found.push(...(await axe(page)));
  await page.locator('.examples summary').click();
  found.push(...(await axe(page)));
  assert.deepEqual(found, []);
  assert.deepEqual(page.errors, []);
});

test('on a 1024×768 projector: no text under 16 px, nothing wider than the screen', async () => {
  const page = await site.page({ viewport: { width: 1024, height: 768 } });
  await page.goto(`${site.base}#/explain?present`);
  await paste(page, 'nn.Linear(6, 10)(torch.randn(2, 5))');
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((el) => el.checkVisibility() && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
      .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 16)
      .map((el) => `${el.tagName}.${el.className}: ${getComputedStyle(el).fontSize}`),
  );
  assert.deepEqual(small, []);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1024), 'nothing wider than the screen');
  await shot(page, 'explain-projector');
  assert.deepEqual(page.errors, []);
});
