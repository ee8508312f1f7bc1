// The built site, served from a sub-path like any static host: the core in wasm computes
// torch.manual_seed(123); nn.Embedding(4, 5)([2, 3, 1]) and the page shows PyTorch's numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serve, cell, artifacts } from './browser.mjs';

const site = serve();

test('the seed embedding page shows PyTorch numbers under a sub-path', async () => {
  const page = await site.page();
  await page.goto(site.base + '#/embedding');
  await page.locator('[data-cell="output[0, 0]"]').waitFor();
  const row0 = [];
  for (let j = 0; j < 5; j++) row0.push(await cell(page, `output[0, ${j}]`));
  assert.deepEqual(row0, ['0.6957', '-1.8061', '-1.1589', '0.3255', '-0.6315']);
  assert.equal(await cell(page, 'weight[0, 4]'), '1.5810');
  await page.screenshot({ path: join(artifacts, 'pipe.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});
