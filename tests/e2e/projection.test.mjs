// On a classroom projector (1024×768, projection mode) every scene's default preset fits on one
// screen: nothing to scroll, nothing under the fixed timeline, printed values at 24 px or more
// and no text under 16 px. Controls brings back what projection leaves out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, shot } from './browser.mjs';

const site = serve();
const SCENES = ['linear', 'embedding', 'one-hot', 'rnn', 'train', 'word2vec'];

/** What does not fit: the page's overflow, what reaches under the timeline, small text. */
const misfits = (page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const timeline = document.querySelector('.timeline').getBoundingClientRect();
    const shown = (el) => el.checkVisibility() && el.getClientRects().length > 0;
    const name = (el) => el.getAttribute('data-cell') || el.getAttribute('aria-label') || `${el.tagName.toLowerCase()}.${el.className}`;
    const under = [...document.querySelectorAll('main .scene *')]
      .filter((el) => !el.closest('.timeline') && shown(el))
      .filter((el) => el.getBoundingClientRect().bottom > timeline.top + 1)
      .map(name);
    const small = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (!walker.currentNode.textContent.trim() || !shown(el) || el.closest('svg, .blank, noscript')) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < 16) small.push(`${name(el)}: ${px}px "${walker.currentNode.textContent.trim().slice(0, 30)}"`);
    }
    // A chart's text as drawn: its font size times the chart's scale on screen.
    for (const el of document.querySelectorAll('main svg text')) {
      if (!el.textContent.trim() || !shown(el)) continue;
      const px = parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a;
      if (px < 15.5) small.push(`${name(el.closest('svg'))} text: ${px.toFixed(1)}px "${el.textContent.trim()}"`);
    }
    const cells = [...document.querySelectorAll('main [data-cell]')].filter(shown);
    const tiny = cells.filter((c) => parseFloat(getComputedStyle(c).fontSize) < 24).map(name);
    return {
      overflow: [root.scrollWidth - innerWidth, root.scrollHeight - innerHeight],
      under: under.slice(0, 5),
      small: small.slice(0, 5),
      tiny: tiny.slice(0, 5),
      cells: cells.length,
    };
  });

for (const scene of SCENES) {
  test(`${scene}: the default preset fits 1024×768 on the projector`, async () => {
    const page = await site.page({ viewport: { width: 1024, height: 768 } });
    await page.goto(`${site.base}#/${scene}?present`);
    await page.locator('main [role=grid]').first().waitFor();
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.locator('main [role=grid]').first().waitFor();
    // The longest caption of the forward pass shows too: step through to its end.
    await page.getByRole('button', { name: 'Last step' }).click();
    const m = await misfits(page);
    await shot(page, `projection-${scene}`);
    assert.ok(m.overflow.every((px) => px <= 0), `${scene} scrolls by ${m.overflow} px (across, down)`);
    assert.deepEqual(m.under, [], 'under the timeline');
    assert.deepEqual(m.small, [], 'text under 16 px');
    assert.ok(m.cells > 0);
    assert.deepEqual(m.tiny, [], 'printed values under 24 px');
    assert.deepEqual(page.errors, []);
  });
}

for (const scene of ['rnn', 'train', 'word2vec']) {
  test(`${scene}: with Controls on the projector its charts and settings have no text under 16 px either`, async () => {
    const page = await site.go(`#/${scene}?present`, 'main [role=grid]');
    await page.getByRole('button', { name: 'Controls' }).click();
    await page.getByRole('button', { name: 'Backward', exact: true }).click();
    await page.getByRole('button', { name: 'Last step' }).click();
    if (scene === 'train') await page.getByRole('button', { name: 'Run N steps' }).click();
    const charts = page.locator('main svg text');
    assert.ok((await charts.count()) >= 4, 'the charts are on show');
    assert.deepEqual((await misfits(page)).small, [], 'text under 16 px');
    assert.deepEqual(page.errors, []);
  });
}

test('Controls brings back the settings, sharing and code, and hides them again', async () => {
  const page = await site.go('#/embedding?present', 'main [role=grid]');
  const settings = page.locator('.scene-settings');
  assert.equal(await settings.isVisible(), false);
  const controls = page.getByRole('button', { name: 'Controls' });
  await controls.click();
  assert.equal(await controls.getAttribute('aria-pressed'), 'true');
  assert.ok(await settings.isVisible());
  assert.ok(await page.getByRole('button', { name: 'Copy link' }).isVisible());
  await controls.click();
  assert.equal(await settings.isVisible(), false);
  // Off the projector there is no such button, and everything shows.
  await page.getByLabel('Projector').uncheck();
  assert.equal(await controls.isVisible(), false);
  assert.ok(await settings.isVisible());
  assert.deepEqual(page.errors, []);
});
