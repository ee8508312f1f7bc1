// Every step legible from the back of the room (1024×768, projection mode): the clicker walks
// each scene's default preset forward and on into backward, and at every step every cell it
// writes and at least 95% of the cells it reads are on screen, above the fixed timeline and not
// cut at the right (a parameter and its .grad share one place, so backward does not grow the
// scene; RNN's parameters sit beside its diagram); the step's flow is drawn, an edge from a cell
// it reads to a cell it writes; a step's
// source and target differ in shape, not colour alone; every caption takes at most two lines. At
// 1280×800 the backward page is at most 1.2× the forward one. A step's cells fade in; a jump that
// marks hundreds of them draws them at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, type } from './browser.mjs';

const site = serve();
const SCENES = ['linear', 'embedding', 'one-hot', 'rnn', 'train', 'word2vec'];

/** The step's marked cells, read and written, and where they are against the screen: above the
 * timeline, inside its width. Its flow's edges, with whether their ends are cells it marks. */
const shown = (page) =>
  page.evaluate(() => {
    const limit = document.querySelector('.timeline').getBoundingClientRect().top;
    const marked = (kind) =>
      [...document.querySelectorAll(`main :is(.${kind}, td[data-mark="${kind}"], .g[data-mark="${kind}"]):not(.timeline *)`)]
        .filter((el) => el.checkVisibility())
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.height > 0);
    const off = ([, r]) => r.top < -1 || r.bottom > limit + 1 || r.left < -1 || r.right > innerWidth + 1;
    const name = ([el, r]) => `${el.getAttribute('data-cell') || el.querySelector?.('[data-cell]')?.getAttribute('data-cell') || el.className} ${Math.round(r.top)}–${Math.round(r.bottom)}`;
    const [reads, writes] = [marked('read'), marked('write')];
    // A span (`weight.grad[9]`, `input[:, 1]`) covers a cell (`weight.grad[9, 2]`) when its index
    // is a prefix of the cell's, `:` matching any.
    const parse = (t) => {
      const m = t.match(/^([^\[]+)(?:\[(.*)\])?$/);
      return m && [m[1], m[2] ? m[2].split(',').map((p) => p.trim()) : []];
    };
    const covers = (span, cell) => {
      const [s, c] = [parse(span), parse(cell)];
      return s && c && s[0] === c[0] && s[1].length <= c[1].length && s[1].every((p, i) => p === ':' || p === c[1][i]);
    };
    const labels = (els) => els.map(([el]) => el.getAttribute('data-cell') || el.querySelector?.('[data-cell]')?.getAttribute('data-cell')).filter(Boolean);
    const [read, written] = [labels(reads), labels(writes)];
    const edges = [...document.querySelectorAll('svg.flows path[data-flow-from]')].map((p) => [p.getAttribute('data-flow-from'), p.getAttribute('data-flow-to')]);
    const linked = edges.filter(([from, to]) => [...read, ...written].some((c) => covers(from, c)) && written.some((c) => covers(to, c)));
    return {
      writes: writes.length,
      lostWrites: writes.filter(off).map(name),
      reads: reads.length,
      lostReads: reads.filter(off).map(name),
      edges: edges.length,
      linked: linked.length,
      // RNN: dL/dh_t flows right to left along the chain, into the box of the step before.
      chain: edges.some(([from, to]) => /^h_l0\.grad\[1/.test(from) && /^h_l0\.grad\[0/.test(to)),
    };
  });

/** How many lines the step's caption takes. */
const lines = (page) =>
  page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('.timeline [role=status]'));
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });

const status = (page) => page.locator('.timeline [role=status]').textContent();

for (const scene of SCENES) {
  test(`${scene}: the clicker walks forward into backward with each step's cells on screen and its flow drawn`, async (t) => {
    const page = await site.page({ viewport: { width: 1024, height: 768 }, reducedMotion: 'reduce' });
    await page.goto(`${site.base}#/${scene}?present`);
    await page.locator('main [role=grid]').first().waitFor();
    // A click on the Projector switch leaves the keys to the timeline.
    await page.getByLabel('Projector').click();
    await page.getByLabel('Projector').click();
    let backward = false;
    let seen = { read: null, write: null };
    let chain = false;
    const totals = { steps: 0, writes: 0, reads: 0, lostReads: 0 };
    for (let k = 0; k < 400; k++) {
      const before = await status(page);
      await page.keyboard.press('PageDown');
      await page.waitForFunction((b) => document.querySelector('.timeline [role=status]').textContent !== b, before, { timeout: 2000 }).catch(() => {});
      const now = await status(page);
      if (now === before) break; // the end of backward
      backward ||= await page.getByRole('button', { name: 'Backward', exact: true }).getAttribute('aria-pressed') === 'true';
      // The scroll, then the flow drawn over what it shows.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const where = `${scene}, ${backward ? 'backward' : 'forward'}: "${now}"`;
      const m = await shown(page);
      chain ||= backward && m.chain;
      Object.assign(totals, {
        steps: totals.steps + 1,
        writes: totals.writes + m.writes,
        reads: totals.reads + m.reads,
        lostReads: totals.lostReads + m.lostReads.length,
      });
      assert.deepEqual(m.lostWrites, [], `${where}: what it writes is on screen`);
      assert.ok(m.lostReads.length <= 0.05 * m.reads, `${where}: ${m.lostReads.length} of ${m.reads} cells it reads off screen: ${m.lostReads.slice(0, 5)}`);
      // Every step, not the pass's start ("Ready"), where nothing has run yet.
      if (!now.startsWith('Ready')) assert.ok(m.linked > 0, `${where}: ${m.edges} flow edges, none from a cell it marks to one it writes`);
      assert.ok((await lines(page)) <= 2, `${scene}: "${now}" runs to ${await lines(page)} lines`);
      if (backward && !seen.read) {
        seen = await page.evaluate(() => {
          const style = (sel) => {
            const el = document.querySelector(`main .grid td${sel}[data-phase="backward"]`);
            return el && `${getComputedStyle(el).outlineStyle} ${getComputedStyle(el).backgroundImage}`;
          };
          return { read: style('[data-mark="read"]'), write: style('[data-mark="write"]') };
        });
      }
    }
    t.diagnostic(`${totals.steps} steps: ${totals.writes} cells written (all on screen), ${totals.reads} read (${totals.lostReads} off screen)`);
    assert.ok(backward, `${scene}: PageDown went on into the backward pass`);
    if (scene === 'rnn') assert.ok(chain, 'rnn: an edge from h_l0.grad[1] back into h_l0.grad[0]');
    if (seen.read && seen.write) assert.notEqual(seen.read, seen.write, `${scene}: backward source and target look alike`);
    assert.deepEqual(page.errors, []);
  });
}

test('at 1280×800 the backward pass does not grow the page past 1.2× the forward one, and the timeline stays in view', async () => {
  const page = await site.page({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const height = () => page.evaluate(() => document.documentElement.scrollHeight);
  const ratios = [];
  for (const scene of SCENES) {
    await page.goto(`${site.base}#/${scene}`);
    await page.locator('main [role=grid]').first().waitFor();
    const forward = await height();
    await page.getByRole('button', { name: 'Backward', exact: true }).click();
    await page.keyboard.press('End');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const backward = await height();
    ratios.push(`${scene} ${forward} → ${backward} px (${(backward / forward).toFixed(2)}×)`);
    assert.ok(backward <= 1.2 * forward, ratios.at(-1));
    // Scrolled to the top, the timeline and its caption are still on screen.
    await page.evaluate(() => scrollTo(0, 0));
    const bar = await page.locator('.timeline').boundingBox();
    assert.ok(bar.y >= 0 && bar.y + bar.height <= 800 + 1, `${scene}: the timeline at ${Math.round(bar.y)}`);
  }
  assert.deepEqual(page.errors, []);
});

test('keyboard: each grid is one Tab stop with arrows inside, and a skip link reaches the timeline', async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  const focused = () => page.evaluate(() => document.activeElement.getAttribute('aria-label') || document.activeElement.textContent);
  await page.locator('main').focus().catch(() => {});
  await page.evaluate(() => document.activeElement?.blur());
  await page.locator('.masthead .fullscreen, .masthead .projection-toggle input, .masthead .lang-picker select').last().focus();
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'Skip to the animation');
  await page.keyboard.press('Enter');
  assert.equal(await focused(), 'Play');
  // Without the skip link, Play is a few dozen stops away, not one per cell (was #101).
  await page.locator('.skip-link').focus();
  let stops = 0;
  while ((await focused()) !== 'Play' && stops < 200) {
    await page.keyboard.press('Tab');
    stops++;
  }
  assert.ok(stops < 40, `Play is Tab stop ${stops}`);
  // Inside a grid the arrows move, and Tab leaves it; back in, the grid keeps its place.
  await page.locator('input[aria-label="weight[0, 0]"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight'); // the caret to the end of the number first
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'weight[1, 1]');
  await page.keyboard.press('Tab');
  assert.doesNotMatch(await focused(), /^weight\[/);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), 'weight[1, 1]');
  assert.deepEqual(page.errors, []);
});

test('a step fades its cells in; a jump that marks hundreds of cells at once draws them at once', async () => {
  const page = await site.go('#/one-hot', '[data-cell="emb(input)[0, 0]"]');
  await type(page, 'number of ids', '64');
  await page.locator('[data-cell="input[63]"]').waitFor();
  await page.evaluate(() => document.activeElement?.blur());
  // A fade long enough to be counted while it runs; the cells fading, and those marked done.
  await page.evaluate(() => document.documentElement.style.setProperty('--step-time', '20s'));
  const now = () =>
    page.evaluate(async () => {
      await new Promise(requestAnimationFrame);
      const fading = new Set(document.getAnimations().map((a) => a.effect?.target).filter((el) => el?.closest('.grid')));
      return { fading: fading.size, done: document.querySelectorAll('main .grid td[data-mark="done"]').length };
    });
  await page.keyboard.press('ArrowRight');
  assert.ok((await now()).fading > 0, 'the first step fades in what it reads and writes');
  await page.keyboard.press('End');
  const end = await now();
  // 64 ids × V = 4 one_hot, 64 × 5 outputs: each grid past 64 cells at once changes without a
  // fade (a fade on each of ~900 cells made every frame of it a 70–120 ms task).
  assert.ok(end.done > 600, `${end.done} cells done`);
  assert.ok(end.fading < 100, `${end.fading} of ${end.done} cells fade at once`);
  assert.deepEqual(page.errors, []);
});
