// Every step legible from the back of the room (1024×768, projection mode): the clicker walks
// each scene's default preset forward and on into backward, and at every step the cells it reads
// and writes are on screen, above the fixed timeline (where they span more than the screen, what
// the step writes; where even that does, as in Linear's backward steps, which write all of
// input.grad and one row of weight.grad far below it, the last row written); a step's source and
// target differ in shape, not colour alone; every caption takes at most two lines. A step's cells
// fade in; a jump that marks hundreds of them draws them at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, type } from './browser.mjs';

const site = serve();
const SCENES = ['linear', 'embedding', 'one-hot', 'rnn', 'train'];

/** The marked cells outside the region between the top of the screen and the timeline. */
const hidden = (page) =>
  page.evaluate(() => {
    const limit = document.querySelector('.timeline').getBoundingClientRect().top;
    const rects = (sel) =>
      [...document.querySelectorAll(`main :is(${sel}):not(.timeline *)`)]
        .filter((el) => el.checkVisibility())
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.height > 0);
    const spans = (m) => Math.max(...m.map(([, r]) => r.bottom)) - Math.min(...m.map(([, r]) => r.top));
    let marked = rects('.read, .write, td[data-mark="read"], td[data-mark="write"]');
    if (spans(marked) > limit) marked = rects('.write, td[data-mark="write"]');
    if (spans(marked) > limit) {
      const last = Math.max(...marked.map(([, r]) => r.bottom));
      marked = marked.filter(([, r]) => r.bottom === last);
    }
    return marked
      .filter(([, r]) => r.top < -1 || r.bottom > limit + 1)
      .map(([el, r]) => `${el.getAttribute('data-cell') || el.getAttribute('aria-label') || el.className} ${Math.round(r.top)}–${Math.round(r.bottom)}`);
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
  test(`${scene}: the clicker walks forward into backward with every marked cell on screen`, async () => {
    const page = await site.page({ viewport: { width: 1024, height: 768 }, reducedMotion: 'reduce' });
    await page.goto(`${site.base}#/${scene}?present`);
    await page.locator('main [role=grid]').first().waitFor();
    // A click on the Projector switch leaves the keys to the timeline.
    await page.getByLabel('Projector').click();
    await page.getByLabel('Projector').click();
    let backward = false;
    let seen = { read: null, write: null };
    for (let k = 0; k < 400; k++) {
      const before = await status(page);
      await page.keyboard.press('PageDown');
      await page.waitForFunction((b) => document.querySelector('.timeline [role=status]').textContent !== b, before, { timeout: 2000 }).catch(() => {});
      const now = await status(page);
      if (now === before) break; // the end of backward
      backward ||= await page.getByRole('button', { name: 'Backward', exact: true }).getAttribute('aria-pressed') === 'true';
      await page.evaluate(() => new Promise(requestAnimationFrame));
      assert.deepEqual(await hidden(page), [], `${scene}, ${backward ? 'backward' : 'forward'}: "${now}"`);
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
    assert.ok(backward, `${scene}: PageDown went on into the backward pass`);
    if (seen.read && seen.write) assert.notEqual(seen.read, seen.write, `${scene}: backward source and target look alike`);
    assert.deepEqual(page.errors, []);
  });
}

test('keyboard: each grid is one Tab stop with arrows inside, and a skip link reaches the timeline', async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  const focused = () => page.evaluate(() => document.activeElement.getAttribute('aria-label') || document.activeElement.textContent);
  await page.locator('main').focus().catch(() => {});
  await page.evaluate(() => document.activeElement?.blur());
  await page.locator('.masthead .fullscreen, .masthead .projection-toggle input').last().focus();
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
