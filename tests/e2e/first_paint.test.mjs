// What a first visit gets before the app runs: index.html's static shell and start page, kept in
// step with the route by boot.js; and the site served as a static host serves it (compressed,
// hashed assets cached for good, index.html revalidated).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hold, serve } from './browser.mjs';

const site = serve();

test('the shell and the start page show before the WebAssembly arrives, and follow the route', async () => {
  const page = await site.page();
  const release = await hold(page, '**/*.wasm');
  await page.goto(site.base);
  const heading = page.getByRole('heading', { level: 1, name: "What PyTorch's layers compute, row by row" });
  await heading.waitFor();
  assert.equal(await page.locator('.masthead nav a').count(), 7);
  assert.equal(await page.locator('.cards a').count(), 7);
  assert.ok((await page.locator('.lesson-list a').count()) >= 5, 'the lessons are listed');
  assert.equal(await page.locator('[role=grid]').count(), 0, 'no scene yet: the wasm is held back');

  // Following a link before the app runs: the start page goes, the link is marked.
  await page.getByRole('main').getByRole('link', { name: 'Embedding', exact: true }).click();
  await heading.waitFor({ state: 'hidden' });
  assert.equal(await page.locator('nav a[aria-current=page]').textContent(), 'Embedding');
  // Until the app runs, the scene's name and its opening words, from its card, and that it loads.
  assert.equal(await page.locator('main h1:visible').textContent(), 'Embedding');
  assert.match(await page.locator('#preview .lede').textContent(), /^An embedding is a lookup: watch each id pick its row/);
  assert.equal(await page.getByRole('status').filter({ hasText: 'Loading the lab' }).count(), 1);

  // The Projector switch works without the app too.
  await page.getByLabel('Projector').check();
  assert.ok(await page.evaluate(() => document.body.classList.contains('projection')));

  // Nothing in the shell moves when the app arrives (the masthead is whole from the first paint).
  const top = () => page.evaluate(() => document.querySelector('main').getBoundingClientRect().top);
  const before = await top();
  await release();
  await page.locator('[data-cell="output[0, 0]"]').waitFor();
  assert.equal(await top(), before, 'the scene starts where its preview stood');
  assert.equal(await page.locator('main h1:visible').count(), 1, 'only the scene has a visible heading');
  await page.goBack();
  await heading.waitFor();
  assert.equal(await page.locator('nav a[aria-current]').count(), 0);
  assert.equal(await page.locator('[role=grid]').count(), 0, 'the start page shows no scene');
  assert.deepEqual(page.errors, []);
});

test('on a phone, each scene’s largest text is painted before the WebAssembly: its opening words', async () => {
  for (const route of ['#/linear', '#/embedding', '#/one-hot', '#/rnn', '#/train', '#/word2vec']) {
    const page = await site.page({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    // Each largest-contentful-paint candidate as the browser reports it, the largest last: in
    // the preview, or the class of the element that outgrew it.
    await page.addInitScript(() => {
      window.largest = [];
      const seen = (list) => list.getEntries().forEach((e) => window.largest.push(e.element?.closest('#preview') ? 'preview' : e.element?.className));
      new PerformanceObserver(seen).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(site.base + route);
    await page.locator('[role=grid]').first().waitFor();
    await page.waitForTimeout(300);
    const largest = await page.evaluate(() => window.largest);
    assert.equal(largest.at(-1), 'preview', `${route}: ${largest.join(', ')}`);
    // The preview's words end with the lede the scene draws at its first preset, where it has one.
    const [preview, lede] = await page.evaluate(() => [document.querySelector('#preview .lede').textContent, document.querySelector('.scene .lede')?.textContent.trim()]);
    if (lede) assert.ok(preview.endsWith(lede), `${route}: the preview says “${preview}”, the scene “${lede}”`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('before any script runs the masthead is whole and the start page waits, so a scene link never flashes it', async () => {
  const shell = async (javaScriptEnabled) => {
    const page = await site.page({ javaScriptEnabled, viewport: { width: 412, height: 823 } });
    await page.goto(`${site.base}#/embedding`);
    await page.locator('.masthead nav').waitFor();
    return page.evaluate(() => ({
      masthead: document.querySelector('.masthead').getBoundingClientRect().height,
      landing: document.getElementById('landing').checkVisibility(),
    }));
  };
  const [scripted, bare] = [await shell(true), await shell(false)];
  assert.equal(scripted.masthead, bare.masthead);
  assert.equal(bare.landing, false, 'the start page is not painted before boot.js knows the route');
  assert.equal(scripted.landing, false);
});

test('served as a static host serves it: brotli or gzip, hashed assets cached, index.html revalidated', async () => {
  const get = async (path, encoding) => {
    const response = await fetch(site.base + path, { headers: { 'accept-encoding': encoding } });
    const body = Buffer.from(await response.arrayBuffer());
    return { headers: response.headers, body };
  };
  const index = await get('', 'br, gzip');
  assert.equal(index.headers.get('cache-control'), 'no-cache');
  const html = index.body.toString();
  const wasm = html.match(/content="?\.\/([^"\s>]+_bg\.wasm)/)?.[1];
  assert.ok(wasm, 'index.html names its wasm');

  // fetch() decodes what it is sent; the headers say what travelled.
  for (const [accept, sent] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', null],
  ]) {
    const { headers, body } = await get(wasm, accept);
    assert.equal(headers.get('content-encoding'), sent, accept);
    assert.equal(headers.get('content-type'), 'application/wasm');
    assert.equal(headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(body.subarray(0, 4).toString('latin1'), '\0asm', `${accept}: the wasm arrives whole`);
  }
  assert.equal((await fetch(site.base + '../../etc/passwd')).status, 404);
  assert.equal((await fetch(site.base + 'nope.js')).status, 404);
});
