// Sharing a scene: a link opens it as the sender had it (in a browser that never saw it, and
// in one with work of its own, which is kept and comes back), a damaged or foreign link changes
// nothing and says why, and a scene exported to a file imports again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, at, axe, cell, copyLink, download, type } from './browser.mjs';

const site = serve();

/** `page` at `route` once its cell `first` shows. */
const open = (page, route, first) => site.go(route, `[data-cell="${first}"]`, page);

const notice = (page) => page.locator('.share-notice').textContent();

test('a link opens the scene as it was sent; own work is kept and comes back', async () => {
  const sender = await site.page();
  await open(sender, '#/linear', 'weight[0, 0]');
  await type(sender, 'weight[0, 0]', '0.5');
  const link = await copyLink(sender);
  assert.match(link, /#\/linear\?s=[A-Za-z0-9_-]+$/);
  assert.ok(link.startsWith(site.base), link);

  // A browser that never saw rowflow: the scene as sent, nothing set aside.
  const fresh = await site.page();
  await fresh.goto(link);
  await at(fresh, 'weight[0, 0]').waitFor();
  assert.equal(await cell(fresh, 'weight[0, 0]'), '0.5000');
  assert.match(await notice(fresh), /This scene came from a link\./);
  assert.equal(await fresh.getByRole('button', { name: 'Back to my work' }).count(), 0);
  assert.ok(fresh.url().endsWith('#/linear'), 'the link leaves the address once read');
  await fresh.reload();
  await at(fresh, 'weight[0, 0]').waitFor();
  assert.equal(await cell(fresh, 'weight[0, 0]'), '0.5000', 'kept after a reload');
  assert.deepEqual(fresh.errors, []);

  // A learner with work of their own opens it: theirs is set aside, then comes back.
  const learner = await site.page();
  await open(learner, '#/linear', 'weight[0, 0]');
  await type(learner, 'weight[0, 0]', '0.25');
  await learner.goto(link);
  await learner.locator('.share-notice').waitFor();
  assert.equal(await cell(learner, 'weight[0, 0]'), '0.5000');
  assert.match(await notice(learner), /Your own work is kept/);
  await learner.getByRole('button', { name: 'Back to my work' }).click();
  // Read back in a task of its own: the scene has it once the panel says so.
  await learner.locator('.share-notice', { hasText: 'Your own work is back' }).waitFor();
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
    await at(sender, first).waitFor();
    const want = await cell(sender, first);
    const link = await copyLink(sender);
    const receiver = await site.page();
    await receiver.goto(link);
    await at(receiver, first).waitFor();
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
  await type(page, 'weight[0, 0]', '7');
  const exported = await download(page);
  assert.equal(exported.suggestedFilename(), 'rowflow-embedding.json');
  const dir = mkdtempSync(join(tmpdir(), 'rowflow-export-'));
  const file = join(dir, 'scene.json');
  await exported.saveAs(file);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).weight.data[0], 7);

  await type(page, 'weight[0, 0]', '-3');
  await page.getByLabel('Import file').setInputFiles(file);
  await page.locator('.share-notice').waitFor();
  assert.equal(await cell(page, 'weight[0, 0]'), '7.0000');
  assert.match(await notice(page), /This scene came from a file\. Your own work is kept/);
  await page.getByRole('button', { name: 'Back to my work' }).click();
  await page.locator('.share-notice', { hasText: 'Your own work is back' }).waitFor();
  assert.equal(await cell(page, 'weight[0, 0]'), '-3.0000');

  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"weight": "not a tensor"}');
  await page.getByLabel('Import file').setInputFiles(bad);
  await page.locator('.share-notice[role=alert]').waitFor();
  assert.match(await notice(page), /This file could not be opened: not a saved scene/);
  assert.equal(await cell(page, 'weight[0, 0]'), '-3.0000');
  assert.deepEqual(page.errors, []);
});

test('hostile links and files are refused with the reason; own work stays and nothing runs', async () => {
  const page = await site.page();
  const dialogs = [];
  page.on('dialog', (d) => dialogs.push(d.message()) && d.dismiss());
  await open(page, '#/linear', 'weight[0, 0]');
  await type(page, 'weight[0, 0]', '0.25');
  const valid = await copyLink(page);
  const scene = JSON.parse(Buffer.from(valid.split('s=')[1], 'base64url').toString());
  const link = (text) => `${site.base}#/linear?s=${Buffer.from(text).toString('base64url')}`;
  const json = (patch) => link(JSON.stringify(patch(structuredClone(scene))));
  const markup = '<img src=x onerror="alert(1)"><b>x</b>';
  const weights = JSON.stringify(scene.weight.data);
  const cases = [
    ['markup in preset', json((s) => ({ ...s, preset: markup })), /names a preset this scene does not have/],
    ['markup in seed', json((s) => ({ ...s, seed: markup })), /its seed is not one/],
    ['markup in lr', json((s) => ({ ...s, learning: { ...s.learning, lr: markup } })), /lr: could not convert/],
    ['markup as a number', json((s) => ({ ...s, bias: { ...s.bias, data: [markup, ...s.bias.data.slice(1)] } })), /is not a number/],
    ['1e39', link(JSON.stringify(scene).replace(weights, weights.replace(/^\[[^,]+/, '[1e39'))), /out of float32's range/],
    ['NaN', link(JSON.stringify(scene).replace(weights, weights.replace(/^\[[^,]+/, '[NaN'))), /not a saved scene/],
    ['deep nesting', link(`{"preset":${'['.repeat(20000)}${']'.repeat(20000)}}`), /not a saved scene/],
    ['a 1.9 MB payload', json((s) => ({ ...s, preset: 'x'.repeat(1_400_000) })), /names a preset/],
    ['past the size limits', json((s) => ({ ...s, input: { shape: [65, 6], data: Array(390).fill(0) } })), /input has shape \(65, 6\)/],
    ['another scene', link(JSON.stringify({ preset: 'seed123_4x5', weight: scene.weight, input: { shape: [1], data: [0] } })), /not a saved scene/],
  ];
  for (const [what, url, why] of cases) {
    if (what === 'a 1.9 MB payload') assert.ok(url.length > 1.8e6 && url.length < 2e6, `${what}: ${url.length}`);
    await page.goto(url);
    await page.locator('.share-notice[role=alert]').waitFor();
    const text = await notice(page);
    assert.match(text, /^This link could not be opened: .*Nothing was changed\.$/, what);
    assert.match(text, why, what);
    assert.equal(await cell(page, 'weight[0, 0]'), '0.2500', `${what}: own work stays`);
    assert.equal(await page.locator('img, main b').count(), 0, `${what}: no markup rendered`);
  }
  assert.deepEqual(await axe(page), [], 'a refused link, said');
  // A file: valid JSON of another scene, and markup in a field.
  const dir = mkdtempSync(join(tmpdir(), 'rowflow-hostile-'));
  await open(page, '#/rnn', 'output[0, 0, 0]');
  const rnnFile = join(dir, 'rnn.json');
  await (await download(page)).saveAs(rnnFile);
  const markupFile = join(dir, 'markup.json');
  writeFileSync(markupFile, JSON.stringify({ ...scene, preset: markup }));
  await open(page, '#/linear', 'weight[0, 0]');
  for (const [file, why] of [[rnnFile, /not a saved scene/], [markupFile, /names a preset/]]) {
    await page.getByLabel('Import file').setInputFiles(file);
    await page.locator('.share-notice[role=alert]').waitFor();
    assert.match(await notice(page), why);
    assert.match(await notice(page), /^This file could not be opened: .*Nothing was changed\.$/);
    assert.equal(await cell(page, 'weight[0, 0]'), '0.2500');
  }
  // The page still answers.
  await type(page, 'weight[0, 0]', '0.5');
  assert.equal(await cell(page, 'weight[0, 0]'), '0.5000');
  assert.deepEqual(dialogs, []);
  assert.deepEqual(page.errors, []);
});
