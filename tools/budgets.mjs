// The size and load-speed budgets of issue 11, measured on the release build served as a static
// host serves it (tools/serve.mjs): the bytes a first visit downloads per route, gzip and brotli,
// and Lighthouse 12's mobile performance score (npx lighthouse@12, Chromium from PATH, median of
// three runs). Run by scripts/bench-browser; figures go in the README, never into a test.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { encodings, serve } from './serve.mjs';

const dist = process.env.ROWFLOW_DIST || 'dist';
const chrome = process.env.CHROME_PATH || execFileSync('sh', ['-c', 'command -v chromium']).toString().trim();
// The start page and every scene (each downloads its own part of the wasm, tools/split.mjs);
// Lighthouse on the start page and on Embedding (ROWFLOW_LIGHTHOUSE=0: the sizes alone, a minute
// instead of ten).
const ROUTES = [
  ['#/', '.landing'],
  ['#/linear', '[role=grid]'],
  ['#/embedding', '[data-cell="output[0, 0]"]'],
  ['#/one-hot', '[role=grid]'],
  ['#/rnn', '[role=grid]'],
  ['#/train', '[role=grid]'],
  ['#/word2vec', '[role=grid]'],
  ['#/explain', 'section.explain textarea'],
];
const LIGHTHOUSE = process.env.ROWFLOW_LIGHTHOUSE === '0' ? [] : ['#/', '#/embedding'];
const RUNS = 3;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;

/** What a file of the build is, for the breakdown of a first load: the main module, the part of
 * the wasm every scene needs, a scene's own part, a part some scenes share (tools/split.mjs's
 * map in index.html), or the JavaScript, the CSS, the HTML and the language's messages. */
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const partsMap = html.match(/name="?rowflow-parts"?\s+content="([^"]*)"|content="([^"]*)"\s+name="?rowflow-parts"?/);
// Each scene's part on demand (`<scene>_more`, src/more.rs) is listed too, and is no scene.
const parts = Object.entries(JSON.parse((partsMap?.[1] ?? partsMap?.[2] ?? '{}').replaceAll('&quot;', '"')))
  .filter(([name]) => !name.endsWith('_more'))
  .map(([, l]) => l.map((f) => f.replace(/^.*\//, '')));
const everyScene = parts.length ? parts.reduce((all, l) => all.filter((f) => l.includes(f))) : [];
const KINDS = ['main wasm', "every scene's wasm", "the scene's own wasm", 'wasm some scenes share', 'JS', 'CSS', 'HTML', 'messages'];
function kind(file) {
  if (/^rowflow-[0-9a-f]+_bg\.wasm$/.test(file)) return KINDS[0];
  if (everyScene.includes(file)) return KINDS[1];
  if (/^split_/.test(file)) return KINDS[2];
  if (file.endsWith('.wasm')) return KINDS[3];
  return { js: 'JS', css: 'CSS', html: 'HTML', ftl: 'messages' }[file.split('.').pop()] ?? file;
}

const server = await serve(dist, { base: '/rowflow/' });
const browser = await chromium.launch({ executablePath: chrome, args: ['--no-sandbox'] });
const rows = [];

// Every file a first visit fetches (a fresh context: nothing cached), with its size as a static
// host would send it.
for (const [route, ready] of ROUTES) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const files = new Set();
  const base = new URL(server.url).pathname;
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:') files.add(url.pathname.slice(base.length) || 'index.html');
  });
  await page.goto(server.url + route);
  await page.locator(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all([...files].map((f) => encodings(join(dist, f))));
  const total = (encoding) => sizes.reduce((sum, f) => sum + (f[encoding] ?? f.raw).length, 0);
  rows.push([`first load of ${route}: ${files.size} files, gzip (budget ≤ 200 KB)`, kb(total('gzip'))]);
  rows.push([`first load of ${route}: brotli / uncompressed`, `${kb(total('br'))} / ${kb(total('raw'))}`]);
  const by = new Map();
  [...files].map(kind).forEach((k, i) => by.set(k, (by.get(k) ?? 0) + (sizes[i].gzip ?? sizes[i].raw).length));
  const split = [...by].sort(([a], [b]) => KINDS.indexOf(a) - KINDS.indexOf(b)).map(([k, bytes]) => `${k} ${kb(bytes)}`);
  rows.push([`first load of ${route}, gzip, by kind`, split.join(', ')]);
  await context.close();
}
await browser.close();

for (const route of LIGHTHOUSE) {
  const runs = [];
  for (let k = 0; k < RUNS; k++) {
    // Asynchronously: the server runs in this process and must keep answering.
    const { stdout } = await promisify(execFile)(
      'npx',
      [
        '--yes',
        'lighthouse@12',
        server.url + route,
        '--only-categories=performance',
        '--output=json',
        '--quiet',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
      ],
      { env: { ...process.env, CHROME_PATH: chrome }, maxBuffer: 256 << 20 },
    );
    const report = JSON.parse(stdout);
    const metric = (id) => report.audits[id].numericValue;
    runs.push({
      score: Math.round(report.categories.performance.score * 100),
      lcp: metric('largest-contentful-paint'),
      tbt: metric('total-blocking-time'),
      fcp: metric('first-contentful-paint'),
      tti: metric('interactive'),
    });
  }
  const mid = runs.sort((a, b) => a.score - b.score)[Math.floor(RUNS / 2)];
  rows.push([
    `Lighthouse mobile performance, ${route} (budget ≥ 95; median of ${RUNS}: ${runs.map((r) => r.score).join(', ')})`,
    `${mid.score} (LCP ${(mid.lcp / 1000).toFixed(1)} s, FCP ${(mid.fcp / 1000).toFixed(1)} s, TBT ${mid.tbt.toFixed(0)} ms, ` +
      `interactive ${(mid.tti / 1000).toFixed(1)} s)`,
  ]);
}
await server.close();

console.log('| budget (release build, served compressed) | measured |\n| --- | --- |');
for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
