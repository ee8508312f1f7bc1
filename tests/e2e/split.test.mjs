// The site's WebAssembly is cut at its scenes (tools/split.mjs): a visit downloads what every page
// needs and the scene it opens; another scene's part comes when that scene is first shown, what a
// scene does only when asked (src/more.rs) when it is asked, and a part that cannot come says so
// beside a way to try again, losing nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hold, openCode, serve, type } from './browser.mjs';

const site = serve();

/** The wasm files a page fetched, by their names without the hash: `rowflow_bg`, `split_rnn`. */
function fetched(page) {
  const names = new Set();
  page.on('requestfinished', (r) => {
    const file = new URL(r.url()).pathname.split('/').pop();
    if (file.endsWith('.wasm')) names.add(file.replace(/-[0-9a-f]+(_bg)?\.wasm$/, '$1'));
  });
  return names;
}

const RNN = '[data-cell="output[0, 0, 0]"]';
const LINEAR = '[role=grid][aria-label=output] [data-cell]';
/** The first input cell of Linear, given `text`; its input element. */
async function edit(page, text) {
  const label = await page.locator('[role=grid][aria-label=input] input').first().getAttribute('aria-label');
  return type(page, label, text);
}
const scenes = (names) => [...names].filter((n) => n.startsWith('split_')).sort();

test('the start page fetches no scene, a scene only its own part, the next scene its own when opened', async () => {
  const page = await site.page();
  const wasm = fetched(page);
  await page.goto(site.base);
  await page.getByRole('heading', { level: 1, name: "What PyTorch's layers compute, row by row" }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.ok(wasm.has('rowflow_bg'), 'the app runs on the start page');
  assert.deepEqual(scenes(wasm), [], 'no scene is downloaded for the start page');

  await page.getByRole('main').getByRole('link', { name: 'Linear', exact: true }).click();
  await page.locator(LINEAR).first().waitFor();
  assert.deepEqual(scenes(wasm), ['split_linear']);

  // A scene opened later works as one opened first: its numbers, and an edit recomputes them.
  await page.getByRole('navigation', { name: 'Scenes' }).getByRole('link', { name: 'RNN' }).click();
  await page.locator(RNN).waitFor();
  assert.deepEqual(scenes(wasm), ['split_linear', 'split_rnn']);
  await page.goBack();
  const out = page.locator(LINEAR).first();
  await out.waitFor();
  const before = await out.textContent();
  await edit(page, '2');
  assert.notEqual(await out.textContent(), before, 'an edit recomputes the output');
  // Shown again, Linear reads back what it saved when first shown: its part on demand reads saves.
  assert.deepEqual(scenes(wasm), ['split_linear', 'split_linear_more', 'split_rnn'], 'a scene seen before is not fetched again');
  assert.deepEqual(page.errors, []);
});

test('a link to a scene keeps its preview until the scene’s own part has arrived', async () => {
  const page = await site.page();
  const release = await hold(page, '**/split_embedding-*.wasm');
  const wasm = fetched(page);
  await page.goto(`${site.base}#/embedding`);
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /rowflow-[0-9a-f]+_bg\.wasm$/.test(e.name)));
  await page.waitForTimeout(300);
  assert.ok(wasm.has('rowflow_bg'), 'the app itself runs');
  assert.equal(await page.locator('main h1:visible').textContent(), 'Embedding');
  assert.equal(await page.getByRole('status').filter({ hasText: 'Loading the lab' }).count(), 1);
  assert.equal(await page.locator('[role=grid]').count(), 0);
  await release();
  await page.locator('[data-cell="output[0, 0]"]').waitFor();
  assert.equal(await page.locator('#preview').isVisible(), false);
  // The scene's parts were asked for before the main module (boot.js preloads what index.html
  // lists), and each came once: the app took the preloaded bytes.
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, start: e.startTime })),
  );
  const main = entries.find((e) => /rowflow-[0-9a-f]+_bg\.wasm$/.test(e.path));
  const parts = entries.filter((e) => /\/(split_|chunk_)/.test(e.path));
  assert.ok(parts.some((p) => /split_embedding-/.test(p.path)), parts.map((p) => p.path).join(' '));
  assert.equal(new Set(parts.map((p) => p.path)).size, parts.length, 'no part is fetched twice');
  for (const part of parts) assert.ok(part.start < main.start, `${part.path} asked for before the main module`);
  assert.equal(await page.locator('main h1:visible').count(), 1, 'only the scene has a visible heading');
  assert.deepEqual(page.errors, []);
});

test('a scene whose part cannot be downloaded says so, and Try again brings it with the work kept', async () => {
  const page = await site.page();
  await page.goto(`${site.base}#/linear`);
  await page.locator(LINEAR).first().waitFor();
  const cell = await edit(page, '3');

  // Offline for RNN's part: the scene says what happened, in place of the scene.
  let offline = true;
  await page.route('**/split_rnn-*.wasm', (route) => (offline ? route.abort('internetdisconnected') : route.continue()));
  await page.getByRole('navigation', { name: 'Scenes' }).getByRole('link', { name: 'RNN' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'could not be downloaded' });
  await alert.waitFor();
  assert.equal(await page.getByRole('heading', { level: 1, name: 'This scene did not arrive' }).count(), 1);
  assert.equal(await page.locator('#preview').isVisible(), false, 'the message, not a loading preview');
  assert.ok(page.errors.some((e) => /split_rnn-[0-9a-f]+\.wasm \(net::ERR_INTERNET_DISCONNECTED\)/.test(e)), page.errors.join('\n'));

  // Still offline: Try again says so again, and the keyboard is back on Try again.
  const again = page.getByRole('button', { name: 'Try again' });
  await again.focus();
  const refused = page.waitForEvent('requestfailed', (r) => r.url().includes('/split_rnn-'));
  await page.keyboard.press('Enter');
  await refused;
  await page.waitForFunction(() => document.activeElement?.textContent === 'Try again');
  assert.equal(await alert.count(), 1);

  // Back online: Try again draws the scene, with the focus on its title; Linear's edit is still there.
  offline = false;
  await page.keyboard.press('Enter');
  await page.locator(RNN).waitFor();
  assert.equal(await alert.count(), 0);
  await page.waitForFunction(() => document.activeElement?.matches('main section.scene h1'));
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'nn.RNN: output and h_n');
  await page.goBack();
  await page.locator(LINEAR).first().waitFor();
  assert.equal(await cell.inputValue(), '3.0000', 'the edit made before is kept');
});

test('pointing at a scene’s link, or focusing it, fetches and compiles its parts; the click finds them ready', async () => {
  const page = await site.page();
  await page.goto(site.base);
  await page.getByRole('heading', { level: 1, name: "What PyTorch's layers compute, row by row" }).waitFor();
  await page.waitForLoadState('networkidle');
  const entries = (part) =>
    page.evaluate((part) => performance.getEntriesByType('resource').filter((e) => e.name.includes(`/${part}-`)).map((e) => e.transferSize), part);

  const rnn = page.waitForResponse((r) => r.url().includes('/split_rnn-'));
  await page.getByRole('main').getByRole('link', { name: 'RNN', exact: true }).hover();
  await rnn;
  // Compiled: boot.js keeps each part's module in rowflowParts until the app takes it.
  await page.evaluate(() => Promise.all([...globalThis.rowflowParts.values()].filter(Boolean)).then(() => undefined));
  assert.equal((await entries('split_rnn')).length, 1, 'fetched on pointing, before any click');
  await page.getByRole('main').getByRole('link', { name: 'RNN', exact: true }).click();
  await page.locator(RNN).waitFor();
  assert.equal((await entries('split_rnn')).length, 1, 'the app took the part pointing fetched, not a second copy');

  // The keyboard: Embedding's link in the navigation, focused.
  const embedding = page.waitForResponse((r) => r.url().includes('/split_embedding-'));
  await page.getByRole('navigation', { name: 'Scenes' }).getByRole('link', { name: 'Embedding' }).focus();
  await embedding;
  assert.deepEqual(page.errors, []);
});

/** The stylesheets a page has fetched, by their names without the hash: `main`, `one_hot`. */
const stylesheets = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop())
      .filter((f) => f.endsWith('.css'))
      .map((f) => f.replace(/-[0-9a-f]+\.css$/, ''))
      .sort(),
  );

test('the start page fetches no scene’s stylesheet, a scene only its own, and it is drawn once that has loaded', async () => {
  const page = await site.page();
  await page.goto(site.base);
  await page.getByRole('heading', { level: 1, name: "What PyTorch's layers compute, row by row" }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(await stylesheets(page), ['main']);

  // Opened from the start page: Linear's layout is there when its grids are.
  await page.getByRole('main').getByRole('link', { name: 'Linear', exact: true }).click();
  await page.locator(LINEAR).first().waitFor();
  assert.equal(await page.locator('.lin-controls').evaluate((e) => getComputedStyle(e).display), 'flex');
  assert.deepEqual(await stylesheets(page), ['linear', 'main']);

  // A stylesheet slow to come holds its scene back (the preview stays), not the other way round.
  const release = await hold(page, '**/rnn-*.css');
  const part = page.waitForResponse((r) => r.url().includes('/split_rnn-'));
  await page.getByRole('navigation', { name: 'Scenes' }).getByRole('link', { name: 'RNN' }).click();
  await part;
  await page.waitForTimeout(300);
  assert.equal(await page.locator(RNN).count(), 0, 'RNN is not drawn before its stylesheet');
  assert.equal(await page.locator('#preview').isVisible(), true);
  await release();
  await page.locator(RNN).waitFor();
  assert.equal(await page.locator('.rnn-unrolled').first().evaluate((e) => getComputedStyle(e).display), 'grid');
  assert.deepEqual(await stylesheets(page), ['linear', 'main', 'rnn']);
  assert.deepEqual(page.errors, []);
});

test('each scene looks the same with only its own stylesheet as with all five', async () => {
  // What a learner sees of every element in <main>: a rule of another scene's stylesheet that
  // reached this scene would change one of these.
  const look = (page) =>
    page.evaluate(() => {
      const props = ['display', 'position', 'width', 'height', 'margin', 'padding', 'font', 'color', 'background-color', 'border', 'gap', 'grid-template-columns', 'flex-wrap', 'visibility', 'opacity', 'fill', 'stroke'];
      return [...document.querySelectorAll('main *')].map((e) => {
        const s = getComputedStyle(e);
        return `${e.tagName}.${e.className?.baseVal ?? e.className} ${props.map((p) => s.getPropertyValue(p)).join('|')}`;
      });
    });
  const routes = ['#/linear', '#/embedding', '#/one-hot', '#/rnn', '#/train', '#/word2vec'];
  for (const route of routes) {
    const page = await site.page();
    await page.goto(`${site.base}${route}`);
    await page.locator('main section.scene [role=grid]').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await stylesheets(page), ['main', route.slice(2).replace('-', '_')].sort());
    const own = await look(page);
    await page.evaluate((others) => Promise.all(others.map((r) => globalThis.rowflowScene(r))), routes.filter((r) => r !== route));
    assert.equal((await stylesheets(page)).length, 7);
    const all = await look(page);
    assert.equal(all.length, own.length);
    const differ = own.map((o, i) => [o, all[i]]).filter(([o, a]) => o !== a);
    assert.deepEqual(differ, [], `${route}: elements styled by another scene's stylesheet`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a scene’s part on demand comes when asked: for the PyTorch panel, or before a save is read back', async () => {
  const page = await site.page();
  const wasm = fetched(page);
  await page.goto(`${site.base}#/linear`);
  await page.locator(LINEAR).first().waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(scenes(wasm), ['split_linear'], 'a first visit reads no save and writes no script');
  assert.ok((await openCode(page)).includes('linear = nn.Linear(6, 10)'));
  assert.deepEqual(scenes(wasm), ['split_linear', 'split_linear_more']);
  await edit(page, '3');

  // Another tab, with that part not coming: the saved edit is not drawn over; it comes with the part.
  const tab = await page.context().newPage();
  let offline = true;
  await tab.route('**/split_linear_more-*.wasm', (route) => (offline ? route.abort('internetdisconnected') : route.continue()));
  await tab.goto(`${site.base}#/linear`);
  await tab.getByRole('alert').filter({ hasText: 'could not be downloaded' }).waitFor();
  assert.equal(await tab.locator(LINEAR).count(), 0, 'no scene drawn without its save');
  offline = false;
  await tab.getByRole('button', { name: 'Try again' }).click();
  await tab.locator(LINEAR).first().waitFor();
  assert.equal(await tab.locator('[role=grid][aria-label=input] input').first().inputValue(), '3.0000');

  // On a reload with the save, boot.js asks for that part beside the scene's, before the main module.
  await tab.reload();
  await tab.locator(LINEAR).first().waitFor();
  const entries = await tab.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, start: e.startTime })),
  );
  const main = entries.find((e) => /rowflow-[0-9a-f]+_bg\.wasm$/.test(e.path));
  const more = entries.filter((e) => /split_linear_more-/.test(e.path));
  assert.equal(more.length, 1, JSON.stringify(entries));
  assert.ok(more[0].start < main.start, 'asked for before the main module');
  assert.equal(await tab.locator('[role=grid][aria-label=input] input').first().inputValue(), '3.0000');
  assert.deepEqual(page.errors, []);
});
