// Sharing a scene: a link opens it as the sender had it (in a browser that never saw it, and
// in one with work of its own, which is kept and comes back), a damaged or foreign link changes
// nothing and says why, and a scene exported to a file imports again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, cell } from './browser.mjs';

let site;
before(async () => (site = await start()));
after(async () => site?.stop());

async function open(page, route, first) {
  await page.goto(site.base + route);
  await page.locator(`[data-cell="${first}"]`).first().waitFor();
}

async function commit(page, label, text) {
  const field = page.locator(`[data-cell="${label}"]`).first();
  await field.focus();
  await field.fill(text);
  await field.press('Enter');
}

async function copyLink(page) {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const field = page.getByLabel('Link to this scene');
  await field.waitFor();
  return field.inputValue();
}

const notice = (page) => page.locator('.share-notice').textContent();

test('a link opens the scene as it was sent; own work is kept and comes back', async () => {
  const sender = await site.page();
  await open(sender, '#/linear', 'weight[0, 0]');
  await commit(sender, 'weight[0, 0]', '0.5');
  const link = await copyLink(sender);
  assert.match(link, /#\/linear\?s=[A-Za-z0-9_-]+$/);
  assert.ok(link.startsWith(site.base), link);

  // A browser that never saw rowflow: the scene as sent, nothing set aside.
  const fresh = await site.page();
  await fresh.goto(link);
  await fresh.locator('[data-cell="weight[0, 0]"]').waitFor();
  assert.equal(await cell(fresh, 'weight[0, 0]'), '0.5000');
  assert.match(await notice(fresh), /This scene came from a link\./);
  assert.equal(await fresh.getByRole('button', { name: 'Back to my work' }).count(), 0);
  assert.ok(fresh.url().endsWith('#/linear'), 'the link leaves the address once read');
  await fresh.reload();
  await fresh.locator('[data-cell="weight[0, 0]"]').waitFor();
  assert.equal(await cell(fresh, 'weight[0, 0]'), '0.5000', 'kept after a reload');
  assert.deepEqual(fresh.errors, []);

  // A learner with work of their own opens it: theirs is set aside, then comes back.
  const learner = await site.page();
  await open(learner, '#/linear', 'weight[0, 0]');
  await commit(learner, 'weight[0, 0]', '0.25');
  await learner.goto(link);
  await learner.locator('.share-notice').waitFor();
  assert.equal(await cell(learner, 'weight[0, 0]'), '0.5000');
  assert.match(await notice(learner), /Your own work is kept/);
  await learner.getByRole('button', { name: 'Back to my work' }).click();
  assert.equal(await cell(learner, 'weight[0, 0]'), '0.2500');
  assert.match(await notice(learner), /Your own work is back/);

  // A damaged link, and a link made by another scene: refused with the reason, nothing changes.
  await learner.goto(site.base + '#/linear?s=' + link.split('s=')[1].slice(0, 40));
  await learner.locator('.share-notice[role=alert]').waitFor();
  assert.match(await notice(learner), /This link could not be opened: .*Nothing was changed\./);
  assert.equal(await cell(learner, 'weight[0, 0]'), '0.2500');
  await open(sender, '#/rnn', 'output[0, 0, 0]');
  const rnnLink = await copyLink(sender);
  await learner.goto(rnnLink.replace('#/rnn', '#/linear'));
  await learner.locator('.share-notice[role=alert]').waitFor();
  assert.match(await notice(learner), /not a saved scene/);
  assert.equal(await cell(learner, 'weight[0, 0]'), '0.2500');
  assert.deepEqual(learner.errors, []);
});

test('every scene goes through a link whole', async () => {
  const cases = [
    ['#/linear', 'output[0]', 'fixed_2_to_3_3d', 'output[0, 2, 1]'],
    ['#/embedding', 'output[0, 0]', 'padding_10x3', 'output[1, 3, 2]'],
    ['#/one-hot', 'emb(input)[0, 0]', 'vocab10_dim3_batch', 'emb(input)[1, 2, 2]'],
    ['#/rnn', 'output[0, 0, 0]', 'rnn_2x3_bi_packed', 'h_n[3, 0, 2]'],
    ['#/train', 'output[0]', 'factors3_lr05', 'output[7]'],
  ];
  for (const [route, ready, preset, first] of cases) {
    const sender = await site.page();
    await open(sender, route, ready);
    await sender.selectOption('select[aria-label=Preset]', preset);
    await sender.locator(`[data-cell="${first}"]`).first().waitFor();
    const want = await cell(sender, first);
    const link = await copyLink(sender);
    const receiver = await site.page();
    await receiver.goto(link);
    await receiver.locator(`[data-cell="${first}"]`).first().waitFor();
    assert.equal(await cell(receiver, first), want, route);
    assert.equal(
      await receiver.locator('select[aria-label=Preset]').inputValue(),
      await sender.locator('select[aria-label=Preset]').inputValue(),
      `${route}: the same preset`,
    );
    assert.deepEqual(receiver.errors, [], route);
  }
});

test('export to a file and import it again; a bad file changes nothing', async () => {
  const page = await site.page();
  await open(page, '#/embedding', 'weight[0, 0]');
  await commit(page, 'weight[0, 0]', '7');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export file' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'rowflow-embedding.json');
  const dir = mkdtempSync(join(tmpdir(), 'rowflow-export-'));
  const file = join(dir, 'scene.json');
  await download.saveAs(file);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).weight.data[0], 7);

  await commit(page, 'weight[0, 0]', '-3');
  await page.getByLabel('Import file').setInputFiles(file);
  await page.locator('.share-notice').waitFor();
  assert.equal(await cell(page, 'weight[0, 0]'), '7.0000');
  assert.match(await notice(page), /This scene came from a file\. Your own work is kept/);
  await page.getByRole('button', { name: 'Back to my work' }).click();
  assert.equal(await cell(page, 'weight[0, 0]'), '-3.0000');

  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"weight": "not a tensor"}');
  await page.getByLabel('Import file').setInputFiles(bad);
  await page.locator('.share-notice[role=alert]').waitFor();
  assert.match(await notice(page), /This file could not be opened: not a saved scene/);
  assert.equal(await cell(page, 'weight[0, 0]'), '-3.0000');
  assert.deepEqual(page.errors, []);
});
