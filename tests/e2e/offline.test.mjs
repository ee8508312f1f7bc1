// With no network: after one visit, a reload with the network off opens every route, a lesson
// link and the start page, and an edit recomputes (sw.js, written by tools/offline.mjs with the
// release's files). A new release arrives in the background and waits: not offered while a
// lesson is on show, not taken while the work on screen is unsaved, taken by Reload. The site is
// a copy of dist/ here, so a test can put a new release's sw.js in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { axe, cell, ROUTES, serve, type } from './browser.mjs';

const copy = mkdtempSync(join(tmpdir(), 'rowflow-offline-'));
cpSync(process.env.ROWFLOW_DIST || resolve(import.meta.dirname, '../../dist'), copy, { recursive: true });
process.env.ROWFLOW_DIST = copy;
const site = serve();

/** A page whose context runs service workers, at `route`, once the worker has every file. */
async function visited(route, ready) {
  const page = await site.page({ serviceWorkers: 'allow' });
  await site.go(route, ready, page);
  // `ready` resolves once a worker is active: installed, so every file is in its cache.
  const files = await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    const keys = await caches.keys();
    return (await (await caches.open(keys[0])).keys()).length;
  });
  return { page, files };
}

/** A new navigation to `route`, ready when `ready` shows: a new query each time, so it is a page
 * load, not a same-document hash change (the worker answers every page with index.html), and
 * what the page before was still fetching is left behind as a reload leaves it. */
let visits = 0;
async function reopen(page, route, ready) {
  await page.goto(`${site.base}?visit=${++visits}${route}`);
  await page.locator(ready).first().waitFor();
}

test('after one visit, every route, a lesson link and the start page open with the network off', async () => {
  const { page, files } = await visited('#/linear', '[data-cell="weight[0, 0]"]');
  const manifest = await (await fetch(`${site.base}sw.js`)).text();
  const listed = JSON.parse(manifest.match(/^const FILES = (.*);$/m)[1]);
  assert.equal(files, listed.length, 'every file of the release is kept');
  for (const kind of ['index.html', 'manifest.webmanifest', 'icon-192.png', 'word2vec_corpus.txt', 'trainer_bg.wasm']) {
    assert.ok(listed.includes(kind), kind);
  }
  assert.ok(listed.some((f) => /^split_word2vec_scale-.*\.wasm$/.test(f)) && listed.some((f) => /^explain-.*\.css$/.test(f)));

  await page.context().setOffline(true);
  for (const [route, ready] of [['', '.landing'], ...ROUTES, ['#/embedding?lesson=gradient-rows&step=2', '.lesson']]) {
    await reopen(page, route, ready);
  }
  // An edit recomputes, offline.
  await reopen(page, '#/linear', '[data-cell="weight[0, 0]"]');
  const before = await cell(page, 'output[0]');
  await type(page, 'weight[0, 0]', '9');
  await page.waitForFunction((b) => document.querySelector('[data-cell="output[0]"]')?.getAttribute('aria-label') !== `output[0] = ${b}`, before);
  assert.notEqual(await cell(page, 'output[0]'), before);
  // word2vec at real scale: its own part, its corpus and its trainer come from the cache too.
  await reopen(page, '#/word2vec', '[role=grid]');
  await page.locator('details.w2v-scale summary').click();
  await page.locator('button.w2v-train:enabled').waitFor({ timeout: 30_000 });
  assert.deepEqual(page.errors, []);
});

test('a new release waits while a lesson is on show and while work is unsaved; Reload takes it', async () => {
  const lesson = '#/embedding?lesson=gradient-rows&step=2';
  const { page } = await visited(lesson, '.lesson');
  // The first worker takes charge of the next page it opens.
  await page.reload();
  await page.locator('.lesson').waitFor();
  assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null));

  // A new release on the host: a new sw.js, found in the background.
  const path = join(copy, 'sw.js');
  const next = readFileSync(path, 'utf8').replace(/^const VERSION = '(.*)';$/m, "const VERSION = '$1-next';");
  writeFileSync(path, next);
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
  await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state === 'installed');
  const notice = page.locator('.update-notice');
  assert.ok(await notice.isHidden(), 'not offered while the lesson is on show');
  assert.match(page.url(), /lesson=gradient-rows&step=2$/);

  // Leaving the lesson offers it; with the work on screen unsaved, Reload says so and waits.
  await page.keyboard.press('Escape');
  await notice.waitFor();
  await page.evaluate(() => {
    globalThis.keep = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
  });
  await type(page, 'weight[0, 0]', '0.5');
  await page.locator('.save-notice').waitFor();
  assert.deepEqual(await axe(page), []);
  await notice.getByRole('button', { name: 'Reload' }).click();
  assert.match(await notice.textContent(), /your latest work is not saved in this browser/);
  assert.equal(await cell(page, 'weight[0, 0]'), '0.5000', 'the page stays as it is');

  // Saved again: Reload takes the new release, and the work comes back with it.
  await page.evaluate(() => (Storage.prototype.setItem = globalThis.keep));
  await type(page, 'weight[0, 1]', '0.25');
  await page.locator('.save-notice').waitFor({ state: 'detached' });
  await Promise.all([page.waitForEvent('load'), notice.getByRole('button', { name: 'Reload' }).click()]);
  await page.locator('[data-cell="weight[0, 0]"]').waitFor();
  // The new release's worker is in charge, and the old release's files are gone.
  const version = next.match(/^const VERSION = '(.*)';$/m)[1];
  await page.waitForFunction(async (v) => (await caches.keys()).join() === `rowflow-${v}`, version);
  assert.equal(await cell(page, 'weight[0, 0]'), '0.5000');
  assert.equal(await cell(page, 'weight[0, 1]'), '0.2500');
  assert.deepEqual(page.errors, []);
});

test('the manifest installs the lab from any sub-path: its name, start and icons, and Chromium agrees', async () => {
  const page = await site.page();
  await site.go('', '.landing', page);
  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  const url = new URL(href, site.base);
  const manifest = await (await fetch(url)).json();
  assert.equal(manifest.short_name, 'rowflow');
  assert.equal(new URL(manifest.start_url, url).href, site.base, 'it starts where the site is, under /rowflow/');
  for (const icon of manifest.icons) {
    const response = await fetch(new URL(icon.src, url));
    assert.equal(response.headers.get('content-type'), 'image/png', icon.src);
    const png = Buffer.from(await response.arrayBuffer());
    const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.equal(`${w}x${h}`, icon.sizes, icon.src);
  }
  assert.ok(manifest.icons.some((i) => i.purpose === 'maskable'));
  // Chromium's own verdict: nothing stops an install but the test's private window.
  const cdp = await page.context().newCDPSession(page);
  assert.deepEqual((await cdp.send('Page.getAppManifest')).errors, []);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors.filter((e) => e.errorId !== 'in-incognito'), []);
  assert.deepEqual(page.errors, []);
});
