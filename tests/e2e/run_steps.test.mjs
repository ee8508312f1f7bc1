// "Run N steps" where a step is slow: One-hot at V = 50 000, D = 64, several ms a step. The run
// takes a slice of steps per task with its progress and Cancel on show, and the scene takes its
// steps as one change; Cancel, another change meanwhile, leaving the scene or closing the page
// stops it and keeps the steps taken.
// A run that fits in one task is over when the click returns, as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scene, cell } from './browser.mjs';

const { open } = scene('#/one-hot', { ready: '[data-cell="linear(one_hot)[0, 0]"]' });

const taken = async (page) => Number((await page.getByLabel('Steps taken').textContent()).replace('steps: ', ''));

test('N steps at real scale: a slice per task with progress and Cancel, the steps taken kept', async () => {
  const page = await open();
  const n = page.getByLabel('N', { exact: true });
  const run = page.getByRole('button', { name: 'Run N steps' });
  const progress = page.locator('.run-progress');
  await n.fill('3');
  await run.click();
  assert.equal(await taken(page), 3, 'three steps at the preset size take one task');

  const shape = page.locator('.one-hot figure:has([aria-label="emb.weight"]) .shape');
  for (const [label, to] of [['V (', '(50000, 5)'], ['D (', '(50000, 64)']]) {
    await page.locator(`input[type=range][aria-label^="${label}"]`).focus();
    await page.keyboard.press('End');
    await shape.filter({ hasText: to }).waitFor();
  }
  // The ids [2, 3, 1] are each looked up once: with the sum loss at lr 0.1 each step moves
  // every number of their rows by -0.1.
  const start = await taken(page);
  const before = Number(await cell(page, 'emb(input)[0, 0]'));
  await n.fill('200');
  await run.click();
  await progress.waitFor();
  assert.equal(await progress.getByRole('status').textContent(), 'Running 200 steps…');
  assert.match(await progress.locator('.run-count').textContent(), /^\d+ of 200$/);
  assert.equal(await progress.locator('progress').getAttribute('max'), '200');
  await page.getByLabel('Steps taken').filter({ hasText: `steps: ${start + 200}` }).waitFor();
  assert.equal(await progress.count(), 0);
  const after = Number(await cell(page, 'emb(input)[0, 0]'));
  assert.ok(Math.abs(after - (before - 20)) < 2e-3, `${after} after 200 steps from ${before}`);
  assert.equal(await page.locator('.run-said').count(), 0, 'a run that ends with its last step says nothing more');

  // Cancel: the steps taken stay, and Undo takes the last back.
  await n.fill('500');
  await run.click();
  await progress.waitFor();
  await progress.getByRole('button', { name: 'Cancel' }).click();
  const said = page.locator('.run-said');
  const [, k] = (await said.textContent()).match(/^Cancelled after (\d+) of 500 steps; those steps are kept\.$/);
  assert.ok(+k > 0 && +k < 500, `${k} steps`);
  assert.equal(await taken(page), start + 200 + +k);
  assert.equal(await progress.count(), 0);
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await taken(page), start + 200 + +k - 1);

  // Another change meanwhile (an SGD step) stops the run: its steps, then that step.
  const was = await taken(page);
  await run.click();
  await progress.waitFor();
  await page.getByRole('button', { name: 'SGD step' }).click();
  const [, j] = (await said.textContent()).match(/^Run stopped by another change after (\d+) of 500 steps; those steps are kept\.$/);
  assert.equal(await taken(page), was + +j + 1);
  assert.equal(await progress.count(), 0);

  // Left, or the page closed, while a run goes on: the steps it took are saved.
  for (const leave of [
    async () => {
      await page.locator('nav a', { hasText: 'Linear' }).first().click();
      await page.locator('[data-cell="output[0]"]').waitFor();
      await page.locator('nav a', { hasText: 'One-hot' }).first().click();
    },
    () => page.reload(),
  ]) {
    const before = await taken(page);
    await n.fill('500'); // a scene opened again starts at N = 20
    await run.click();
    await progress.waitFor();
    await page.waitForTimeout(150);
    await leave();
    await page.locator('[data-cell="emb(input)[0, 0]"]').waitFor();
    await shape.filter({ hasText: '(50000, 64)' }).waitFor();
    const now = await taken(page);
    assert.ok(now > before && now < before + 500, `${now} steps after ${before} and a run left`);
  }
  assert.deepEqual(page.errors, []);
});
