// Errors a beginner understands: Python's or PyTorch's message stays, with a hint in plain words
// (a decimal comma, what an id is, a number past float32's range), and two refused neighbours'
// messages never cover each other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cell, serve, type } from './browser.mjs';

const site = serve();
const message = (page, label) => page.locator(`td:has([aria-label="${label}"]) [role=alert]`);

test('refused cells say why in plain words, and neighbours never overlap', async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  await type(page, 'input[0]', '1,5');
  await type(page, 'input[1]', 'abc');
  await type(page, 'input[2]', '1e40');
  assert.equal(
    await message(page, 'input[0]').textContent(),
    "could not convert string to float: '1,5'. Type a number such as 0.5, with a point, not a comma",
  );
  assert.equal(
    await message(page, 'input[1]').textContent(),
    "could not convert string to float: 'abc'. Type a number such as 0.5, -2 or 1e-3",
  );
  assert.match(await message(page, 'input[2]').textContent(), /^1e40 is too large for float32.*type inf/);
  const boxes = await Promise.all([0, 1, 2].map((i) => message(page, `input[${i}]`).boundingBox()));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      assert.ok(apart, `the messages of input[${i}] and input[${j}] overlap`);
    }
  }
  // The number before each refusal stays.
  assert.equal(await page.locator('input[aria-label="input[0]"]').inputValue(), '1,5');

  await site.go('#/embedding', '[data-cell="output[0, 0]"]', page);
  await type(page, 'input[0]', '1.5');
  assert.match(await message(page, 'input[0]').textContent(), /invalid literal for int\(\) with base 10: '1\.5'\. Ids are whole numbers from 0 to 3/);
  assert.deepEqual(page.errors, []);
});

test('nan and inf are said out loud under the tensor that holds them', async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  const note = (name) => page.locator(`figure.tensor:has([role=grid][aria-label="${name}"]) > .grid-note`);
  await type(page, 'input[3]', 'nan');
  assert.match(await note('input').textContent(), /^1 cell is nan \(not a number\): typed, or made by inf − inf or 0 × inf/);
  assert.match(await note('output').textContent(), /^10 cells are nan/);
  await type(page, 'input[3]', '0.5');
  assert.equal(await note('input').count(), 0);
  assert.equal(await note('output').count(), 0);
  // Past float32's largest number, a sum overflows to inf.
  await type(page, 'input[3]', '3e38');
  await type(page, 'weight[0, 3]', '10');
  assert.equal(await cell(page, 'output[0]'), 'inf');
  assert.match(await note('output').textContent(), /^1 cell is inf: past float32's largest number, about 3\.4e38/);
  assert.equal(await note('input').count(), 0);
  assert.deepEqual(page.errors, []);
});
