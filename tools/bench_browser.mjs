// Browser benchmarks of the release build (run by hand: scripts/bench-browser; figures go in the
// README, never into a test). Chromium from PATH, the site from dist/ served under a sub-path as
// in the e2e tests. Prints a Markdown table of medians.
import { start } from '../tests/e2e/browser.mjs';

const RUNS = 7;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

const site = await start();
const rows = [];

// From navigation to the scene's first grid cell on screen (a fresh context each time: no cache).
for (const [route, first] of [
  ['#/linear', 'output[0]'],
  ['#/embedding', 'output[0, 0]'],
  ['#/one-hot', 'emb(input)[0, 0]'],
  ['#/rnn', 'output[0, 0, 0]'],
  ['#/train', 'output[0]'],
]) {
  const times = [];
  for (let k = 0; k < RUNS; k++) {
    const page = await site.page();
    const t0 = Date.now();
    await page.goto(site.base + route);
    await page.locator(`[aria-label="${first}"]`).first().waitFor();
    times.push(Date.now() - t0);
    await page.context().close();
  }
  rows.push([`open ${route} (cold: load, compile wasm, first render)`, `${ms(median(times))} ms`]);
}

// An edit to the output it changes: type into weight[0, 0] and wait until output[0] differs.
{
  const page = await site.page();
  await page.goto(site.base + '#/linear');
  const cell = page.locator('[aria-label="weight[0, 0]"]');
  await cell.waitFor();
  const times = [];
  for (let k = 0; k < RUNS; k++) {
    const before = await page.locator('[aria-label="output[0]"]').textContent();
    await cell.focus();
    await cell.fill(String(0.5 + k));
    const t0 = await page.evaluate(() => performance.now());
    await cell.press('Enter');
    await page.waitForFunction(
      (b) => document.querySelector('[aria-label="output[0]"]')?.textContent !== b,
      before,
    );
    times.push((await page.evaluate(() => performance.now())) - t0);
  }
  rows.push(['Linear: edit a weight → the output redrawn', `${ms(median(times))} ms`]);
}

// The one-hot scene times both ways itself (warm-up, ≥ 20 ms of calls each): read its caption.
{
  const page = await site.page();
  await page.goto(site.base + '#/one-hot');
  await page.locator('[aria-label="emb(input)[0, 0]"]').waitFor();
  const timing = async (what) => {
    await page.waitForFunction(() => /per call/.test(document.querySelector('.oh-timing')?.textContent));
    const text = await page.locator('.oh-timing').textContent();
    const m = text.match(/Lookup ([\d.]+) ms per call, one-hot × Linear ([\d.]+) ms per call: ([\d.,]+)×/);
    rows.push([`one-hot scene, ${what}: lookup vs one-hot × Linear`, `${m[1]} ms vs ${m[2]} ms (${m[3]}×)`]);
  };
  await timing('V = 4, D = 5, 3 ids');
  for (const [label, size] of [['V (', 'V = 50 000'], ['D (', 'D = 64']]) {
    const slider = page.locator(`input[type=range][aria-label^="${label}"]`);
    await slider.focus();
    await page.keyboard.press('End');
    await page.waitForTimeout(300);
    await page.waitForFunction(() => /per call/.test(document.querySelector('.oh-timing')?.textContent));
    await timing(size === 'D = 64' ? 'V = 50 000, D = 64, 3 ids' : 'V = 50 000, D = 5, 3 ids');
  }
}

await site.stop();
console.log(`| browser measure (Chromium ${RUNS} runs, median) | time |\n| --- | --- |`);
for (const [what, t] of rows) console.log(`| ${what} | ${t} |`);
