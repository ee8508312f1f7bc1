// The built site, served from a sub-path like any static host: the core in wasm computes
// torch.manual_seed(123); nn.Embedding(4, 5)([2, 3, 1]) and the page shows PyTorch's numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, cell, shot } from './browser.mjs';

const site = serve();

test('the seed embedding page shows PyTorch numbers under a sub-path', async () => {
  const page = await site.go('#/embedding', '[data-cell="output[0, 0]"]');
  const row0 = [];
  for (let j = 0; j < 5; j++) row0.push(await cell(page, `output[0, ${j}]`));
  assert.deepEqual(row0, ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315']);
  assert.equal(await cell(page, 'weight[0, 4]'), '1.5810');
  await shot(page, 'pipe', { fullPage: true });
  assert.deepEqual(page.errors, []);
});
