// Nothing is lost and nothing foreign runs: 50 SGD steps survive a reload (the saved state is the
// scene, not its undo history), a save that fails says so with Export at hand until one
// succeeds, and the whole app runs under a strict Content-Security-Policy that is enforced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, at, axe, cell, copyLink, download, type } from './browser.mjs';

const site = serve();

const steps = (page) => page.getByLabel('Steps taken').textContent();

/** The numbers of the output cells `output[b, s, j]` as shown. */
async function outputs(page, [b, s, d]) {
  const shown = [];
  for (let i = 0; i < b; i++) for (let k = 0; k < s; k++) for (let j = 0; j < d; j++) {
    shown.push(Number(await cell(page, `output[${i}, ${k}, ${j}]`)));
  }
  return shown;
}

/** Fills the page's origin's storage to the last byte. */
function fillStorage(page) {
  return page.evaluate(() => {
    for (let size = 1 << 22, i = 0; size >= 1; ) {
      try {
        localStorage.setItem(`junk.${i++}`, 'x'.repeat(size));
      } catch {
        size >>= 1;
      }
    }
  });
}

test('50 SGD steps on nn.Embedding(1000, 30) are all there after a reload', async (t) => {
  const page = await site.page();
  await page.goto(site.base + '#/embedding');
  await page.selectOption('select[aria-label=Preset]', 'big_1000x30');
  await at(page, 'output[1, 2, 29]').waitFor();
  const shape = [2, 3, 30];
  const before = await outputs(page, shape);
  // A change is saved in a task of its own, just after it is drawn.
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('rowflow.embedding'))?.preset === 'big_1000x30');
  const ids = JSON.parse(await page.evaluate(() => localStorage.getItem('rowflow.embedding'))).input.data;
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  for (let k = 1; k <= 50; k++) {
    await page.getByRole('button', { name: 'SGD step' }).click();
    assert.equal(await steps(page), `steps: ${k}`);
  }
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('rowflow.embedding')).learning.steps === 50);
  const saved = await page.evaluate(() => localStorage.getItem('rowflow.embedding'));
  t.diagnostic(`a saved 1000×30 scene after 50 steps takes ${saved.length} bytes`);
  assert.equal(JSON.parse(saved).learning.steps, 50);
  assert.equal(await page.locator('.save-notice').count(), 0, 'every save succeeded');

  await page.reload();
  await at(page, 'output[1, 2, 29]').waitFor();
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  assert.equal(await steps(page), 'steps: 50');
  // With the sum loss each looked-up row gets gradient 1 per lookup: 50 steps at lr 0.1 move a
  // row looked up n times by -5n.
  const after = await outputs(page, shape);
  after.forEach((v, i) => {
    const id = ids[Math.floor(i / 30)];
    const n = ids.filter((x) => x === id).length;
    assert.ok(Math.abs(v - (before[i] - 5 * n)) < 2e-3, `output ${i}: ${v} vs ${before[i]} - 5·${n}`);
  });
  assert.deepEqual(page.errors, []);
});

test('50 training steps are all there after a reload', async () => {
  const page = await site.go('#/train', '[data-cell="output[0]"]');
  await page.getByLabel('N', { exact: true }).fill('50');
  await page.getByRole('button', { name: 'Run N steps' }).click();
  assert.equal(await steps(page), 'steps: 50');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('rowflow.train')).losses.length === 50);
  const losses = JSON.parse(await page.evaluate(() => localStorage.getItem('rowflow.train'))).losses;
  assert.equal(losses.length, 50);
  const loss = await page.getByLabel('Loss', { exact: true }).textContent();
  const predictions = [];
  for (let i = 0; i < 8; i++) predictions.push(await cell(page, `output[${i}]`));

  await page.reload();
  await at(page, 'output[0]').waitFor();
  assert.equal(await steps(page), 'steps: 50');
  assert.equal(await page.getByLabel('Loss', { exact: true }).textContent(), loss);
  for (let i = 0; i < 8; i++) assert.equal(await cell(page, `output[${i}]`), predictions[i], `output[${i}]`);
  const back = JSON.parse(await page.evaluate(() => localStorage.getItem('rowflow.train'))).losses;
  assert.deepEqual(back, losses, 'every step of the loss curve');
  // Undo remembers only the steps taken since the page was opened.
  assert.ok(await page.getByRole('button', { name: 'Undo' }).isDisabled());
  await page.getByRole('button', { name: 'SGD step' }).click();
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await steps(page), 'steps: 50');
  assert.deepEqual(page.errors, []);
});

test('a change is saved in a task after it is drawn, and a page closed before then still keeps it', async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  const [drawn, before, closed] = await page.evaluate(async () => {
    const input0 = () => JSON.parse(localStorage.getItem('rowflow.linear')).input.data[0];
    const el = document.querySelector('input[aria-label="input[0]"]');
    el.value = '7';
    el.dispatchEvent(new Event('change', { bubbles: true }));
    // The change's own task: its microtasks compute and draw it; no timer can run in between.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    const drawn = document.querySelector('input[aria-label="input[0]"]').value;
    const before = input0();
    window.dispatchEvent(new PageTransitionEvent('pagehide'));
    return [drawn, before, input0()];
  });
  assert.equal(drawn, '7.0000', 'on screen within its own task');
  assert.notEqual(before, 7, 'not yet written: the save waits for a task of its own');
  assert.equal(closed, 7, 'a page closed first writes it at once');
  await page.reload();
  await at(page, 'output[0]').waitFor();
  assert.equal(await page.locator('input[aria-label="input[0]"]').inputValue(), '7.0000');
  assert.deepEqual(page.errors, []);
});

test('a save that fails says so, with Export at hand; the next save that works clears it', async () => {
  const page = await site.go('#/linear', '[data-cell="weight[0, 0]"]');
  await fillStorage(page);
  // A change that needs more room than the save it replaces: 20 output features instead of 10.
  await type(page, 'out_features', '20');
  await at(page, 'weight[19, 5]').waitFor();
  const notice = page.locator('.save-notice');
  await notice.waitFor();
  assert.equal(
    await notice.textContent(),
    "Not saved: this browser's storage is full — Export to a file keeps your work. Export file",
  );
  assert.equal(await notice.getAttribute('role'), 'alert');
  assert.deepEqual(await axe(page), []);
  // What is stored is the last state saved whole; the notice's Export has the unsaved edit.
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('rowflow.linear')));
  assert.deepEqual(stored.weight.shape, [10, 6]);
  const exported = await download(page, notice.getByRole('button', { name: 'Export file' }));
  assert.deepEqual(JSON.parse(readFileSync(await exported.path(), 'utf8')).weight.shape, [20, 6]);
  // Room again: the next change saves, and the notice goes.
  await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('junk.')).forEach((k) => localStorage.removeItem(k)));
  await type(page, 'weight[0, 0]', '0.25');
  await notice.waitFor({ state: 'detached' });
  await page.reload();
  await at(page, 'weight[19, 5]').waitFor();
  assert.equal(await cell(page, 'weight[0, 0]'), '0.2500');
  assert.deepEqual(page.errors, []);
});

test('saved work that no longer reads is kept aside and said, and the scene still opens', async () => {
  const page = await site.go('#/linear', '[data-cell="weight[0, 0]"]');
  const junk = '{"preset":"vector_6_to_10","weight":{"shape":[2],"data":[1,2,3]}}';
  await page.evaluate((junk) => localStorage.setItem('rowflow.linear', junk), junk);
  await page.reload();
  const notice = page.locator('.share-notice[role=alert]');
  await notice.waitFor();
  assert.match(
    await notice.textContent(),
    /^Your saved work for this scene could not be read \(not a saved scene: .*\)\. It is kept in this browser under rowflow\.linear\.unreadable; the scene starts from its first preset\. Download it$/,
  );
  assert.equal(await page.evaluate(() => localStorage.getItem('rowflow.linear.unreadable')), junk);
  const kept = await download(page, notice.getByRole('button', { name: 'Download it' }));
  assert.equal(readFileSync(await kept.path(), 'utf8'), junk);
  assert.equal(await cell(page, 'output[0]'), '-0.5036', 'the first preset: PyTorch\'s output');
  assert.equal(await page.locator('select[aria-label=Preset]').inputValue(), 'vector_6_to_10');
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(page.errors, []);
});

test('a link is not opened over work that cannot be set aside first (storage full): the work stays', async () => {
  const sender = await site.go('#/linear', '[data-cell="weight[0, 0]"]');
  await type(sender, 'weight[0, 0]', '0.25');
  const link = await copyLink(sender);
  const page = await site.go('#/linear', '[data-cell="weight[0, 0]"]');
  await type(page, 'weight[0, 0]', '0.75');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('rowflow.linear') ?? '{}').weight?.data?.[0] === 0.75);
  const own = await page.evaluate(() => localStorage.getItem('rowflow.linear'));
  await fillStorage(page);
  await page.goto(link);
  const notice = page.locator('.share-notice[role=alert]');
  await notice.waitFor();
  assert.equal(
    await notice.textContent(),
    "This link could not be opened: your own work could not be set aside first (this browser's storage is full); export it to a file, then try again. Nothing was changed.",
  );
  assert.equal(await cell(page, 'weight[0, 0]'), '0.7500');
  assert.equal(await page.evaluate(() => localStorage.getItem('rowflow.linear')), own);
  assert.equal(await page.evaluate(() => localStorage.getItem('rowflow.linear.previous')), null);
  assert.deepEqual(sender.errors, []);
  assert.deepEqual(page.errors, []);
});

test('saved work that no longer reads, set aside by a link, is said so when asked back, and stays', async () => {
  const page = await site.go('#/linear', '[data-cell="weight[0, 0]"]');
  await type(page, 'weight[0, 0]', '0.25');
  const link = await copyLink(page);
  const junk = '{"preset":"vector_6_to_10","weight":{"shape":[2],"data":[1,2,3]}}';
  const learner = await site.page();
  await learner.goto(site.base);
  await learner.evaluate((junk) => localStorage.setItem('rowflow.linear', junk), junk);
  await learner.goto(link);
  await learner.getByText('This scene came from a link. Your own work is kept').waitFor();
  assert.equal(await cell(learner, 'weight[0, 0]'), '0.2500');
  await learner.getByRole('button', { name: 'Back to my work' }).click();
  const notice = learner.locator('.share-notice[role=alert]');
  await notice.waitFor();
  assert.match(
    await notice.textContent(),
    /^This saved work could not be opened: it no longer reads as this scene \(not a saved scene: .*\); it stays in this browser under rowflow\.linear\.previous\. Nothing was changed\.$/,
  );
  assert.equal(await learner.evaluate(() => localStorage.getItem('rowflow.linear.previous')), junk);
  assert.equal(await cell(learner, 'weight[0, 0]'), '0.2500', 'the linked scene stays on show');
  assert.deepEqual(await axe(learner), []);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(learner.errors, []);
});

test('the policy is strict, nothing inline is served, and it is enforced on every route', async () => {
  const html = await (await fetch(site.base)).text();
  // Its attributes in any order, quoted or not: a release's HTML is minified.
  const policy = html.match(/<meta(?=[^>]*\bhttp-equiv="?Content-Security-Policy)[^>]*\scontent="([^"]+)"/)?.[1];
  assert.ok(policy, 'index.html carries a Content-Security-Policy');
  const directives = Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives['default-src'], ["'none'"]);
  assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives['style-src'], ["'self'"]);
  for (const d of ['object-src', 'base-uri', 'form-action']) assert.deepEqual(directives[d], ["'none'"], d);
  // The service worker and the manifest (offline.test.mjs) are the site's own files.
  for (const d of ['worker-src', 'manifest-src']) assert.deepEqual(directives[d], ["'self'"], d);
  assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'|\*/);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  assert.doesNotMatch(html, /<style|\sstyle=/, 'no inline style');

  const page = await site.page();
  for (const route of ['', '#/linear', '#/embedding', '#/one-hot', '#/rnn', '#/train', '#/nope']) {
    await site.go(route, 'main h1:visible', page);
    // Animations and charts set styles as the page runs: play each scene's first steps.
    const step = page.getByRole('button', { name: 'Step forward' });
    if (await step.count()) for (let i = 0; i < 3; i++) await step.click();
  }
  assert.deepEqual(site.violations, []);
  assert.deepEqual(page.errors, []);

  // The policy is live: markup that would run script or style inline is refused, and reported.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__ran = true';
    document.body.append(s);
    document.body.insertAdjacentHTML('beforeend', '<p style="color: red">x</p>');
  });
  for (let waited = 0; site.violations.length < 2 && waited < 5000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(await page.evaluate(() => window.__ran), undefined);
  assert.equal(site.violations.length, 2, site.violations.join('\n'));
  site.violations.length = 0;
});

test('leaving a scene while its animation plays is quiet (found by the storm, seed 1)', async () => {
  const page = await site.page();
  for (const [from, to] of [['#/train', '#/rnn'], ['#/linear', '#/embedding']]) {
    await site.go(from, 'main [role=grid]', page);
    await page.getByRole('button', { name: 'Play' }).click();
    await site.go(to, 'main [role=grid]', page);
    // Three steps' worth of the old interval: it must be gone with its timeline.
    await page.waitForTimeout(2500);
  }
  assert.deepEqual(page.errors, []);
});

test('leaving a scene while typing in a cell or field is quiet (found by the storm, seed 2)', async () => {
  const page = await site.page();
  for (const [from, target, to] of [
    ['#/train', '[data-cell="user_factors.weight[0, 0]"]', '#/rnn'],
    ['#/linear', '[aria-label="in_features"]', '#/train'],
  ]) {
    await page.goto(site.base + from);
    await page.locator(target).first().fill('1.5');
    // Leaving blurs it as the scene goes, which commits it to a scene that is no longer there.
    await site.go(to, 'main [role=grid]', page);
  }
  assert.deepEqual(page.errors, []);
});

test('an overflowed gradient is drawn as such in the ‖dL/dh_t‖ chart (found by the storm, seed 2)', async () => {
  const page = await site.page();
  await page.goto(site.base + '#/rnn');
  await page.selectOption('select[aria-label=Preset]', 'exploding_relu');
  // Gradient through time is multiplied by weight_hh_l0 at every step: 1e30 overflows at the
  // second step back.
  await type(page, 'weight_hh_l0[0, 0]', '1e30');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  const overflowed = page.locator('.norm-bar.overflow');
  await overflowed.first().waitFor();
  const printed = await page.locator('.norm-value').allTextContents();
  assert.ok(printed.some((t) => t === 'inf' || t === 'nan'), printed.join(' '));
  assert.deepEqual(page.errors, []);
});

test('an output that goes from 0 to -0 and back shows it, as PyTorch prints it', async () => {
  // Embedding's default looks up row 2 first: output[0, 0] is a copy of weight[2, 0].
  const page = await site.page();
  await page.goto(site.base + '#/embedding');
  for (const [typed, shown] of [['0', '0.0000'], ['-0', '-0.0000'], ['0', '0.0000']]) {
    await type(page, 'weight[2, 0]', typed);
    assert.equal(await cell(page, 'output[0, 0]'), shown, `after typing ${typed}`);
  }
  assert.deepEqual(page.errors, []);
});

test('a factor as large as float32 allows stays on the Train scatter (found by the storm in CI)', async () => {
  const page = await site.page();
  await page.goto(site.base + '#/train');
  // The axis limit is 1.15 × the largest factor: past float32's range, it overflowed to inf and
  // every point was drawn at NaN.
  await type(page, 'movie_factors.weight[0, 0]', '3.4e38');
  await page.locator('.scatter .tick', { hasText: '3.9e38' }).first().waitFor();
  // Every point and label at a number, every point on the chart (340 units square).
  const placed = await page.locator('.scatter .pt').evaluateAll((gs) =>
    gs.flatMap((g) => [...g.querySelectorAll('circle, rect, text')].map((el) => [
      el.tagName,
      ['cx', 'cy', 'x', 'y'].filter((a) => el.hasAttribute(a)).map((a) => Number(el.getAttribute(a))),
    ])));
  assert.ok(placed.length > 0);
  for (const [tag, xy] of placed) {
    assert.ok(xy.every(Number.isFinite), `${tag} at ${xy.join(' ')}`);
    if (tag !== 'text') assert.ok(xy.every((v) => v >= 0 && v <= 340), `${tag} at ${xy.join(' ')}`);
  }
  assert.deepEqual(page.errors, []);
});
