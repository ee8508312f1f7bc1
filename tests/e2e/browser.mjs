// Shared set-up for the end-to-end tests: serve the release build (dist/) under a sub-path, as
// a static host would, and drive Debian's Chromium through playwright-core. Nothing is
// downloaded: the browser is the one on PATH.
import { spawn, execSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';

const root = resolve(import.meta.dirname, '../..');
export const artifacts = join(root, 'tests/e2e/artifacts');

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

async function waitForServer(url, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not start`);
}

/** Serves dist/ (or $ROWFLOW_DIST) at http://127.0.0.1:PORT/rowflow/ and opens a browser. */
export async function start() {
  const site = mkdtempSync(join(tmpdir(), 'rowflow-site-'));
  mkdirSync(join(site, 'rowflow'));
  cpSync(process.env.ROWFLOW_DIST || join(root, 'dist'), join(site, 'rowflow'), { recursive: true });
  const port = await freePort();
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', site], {
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}/rowflow/`;
  await waitForServer(base);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || execSync('command -v chromium').toString().trim(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  mkdirSync(artifacts, { recursive: true });
  // Every Content-Security-Policy violation on any page of any test, reported when the file's
  // tests end (and as a console error on the page at once).
  const violations = [];
  return {
    base,
    browser,
    violations,
    /** A page at 1280×800 that records console errors, failed requests and CSP violations. */
    async page(options = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
      await context.exposeBinding('__cspViolation', ({ page }, v) => {
        violations.push(`${page.url()}: ${v}`);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          const what = `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sample || e.sourceFile})`;
          window.__cspViolation(what);
          console.error(`Content-Security-Policy violation: ${what}`);
        });
      });
      const page = await context.newPage();
      page.errors = [];
      page.on('console', (m) => m.type() === 'error' && page.errors.push(m.text()));
      page.on('pageerror', (e) => page.errors.push(String(e)));
      page.on('requestfailed', (r) => page.errors.push(`request failed: ${r.url()}`));
      return page;
    },
    /** Closes the browser; fails the test file if any page broke the Content-Security-Policy. */
    async stop() {
      await browser.close();
      server.kill();
      if (violations.length > 0) {
        throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
      }
    },
  };
}

/** The site for one test file: started before its tests and stopped after them; its `base` and
 * `page()` are there while the tests run. */
export function serve() {
  const site = {};
  before(async () => Object.assign(site, await start()));
  after(async () => site.stop?.());
  return site;
}

/** A PyTorch reference case (`core/tests/fixtures/torch/<name>.json`). */
export const fixture = (name) =>
  JSON.parse(readFileSync(join(root, 'core/tests/fixtures/torch', `${name}.json`), 'utf8'));

/** PyTorch's 4-decimal print: toFixed keeps the sign of a small negative, -0 needs saying. */
export const fmt = (x) => (Object.is(x, -0) ? '-0.0000' : x.toFixed(4));

/** What the timeline lights on the cell `label` (`read`, `write`, `done` or null). */
export const mark = (page, label) => page.locator(`[data-cell="${label}"]`).first().getAttribute('data-mark');

/** Every multi-index of a row-major `shape`, in order: `[0, 0], [0, 1], …`. */
export function indices(shape) {
  let out = [[]];
  for (const d of shape) out = out.flatMap((i) => Array.from({ length: d }, (_, k) => [...i, k]));
  return out;
}

/** A cell's PyTorch name, its `data-cell`: `weight[0, 1]`. */
export const label = (name, index) => `${name}[${index.join(', ')}]`;

/** Every cell's `data-cell` of a tensor, row-major. */
export const labels = (name, shape) => indices(shape).map((i) => label(name, i));

/** A screenshot into the artifacts, as `<name>.png`. */
export const shot = (page, name, options = {}) => page.screenshot({ path: join(artifacts, `${name}.png`), ...options });

/** Types `text` into the cell or field `label` and commits it with Enter. Focused first, then a
 * frame: a focused cell swaps in its full digits, which must not land after what is typed. */
export async function type(page, label, text) {
  const el = page.locator(at(label)).first();
  await el.focus();
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await el.fill(text);
  await el.press('Enter');
  return el;
}

/** A cell by its PyTorch index (`weight[0, 1]`: its `data-cell`), else a settings field by its
 * label (`hidden_size`): for helpers that type into both. */
export const at = (label) => (/\[[\d, ]+\]$/.test(label) ? `[data-cell="${label}"]` : `[aria-label="${label}"]`);

/** What the cell `label` (its `data-cell`, PyTorch's index: `weight[0, 1]`) shows: an editable
 * cell's value, a read-only cell's text. */
export async function cell(page, label) {
  const el = page.locator(`[data-cell="${label}"]`).first();
  const editable = await el.evaluate((e) => e.tagName === 'INPUT');
  return (editable ? await el.inputValue() : await el.textContent()).trim();
}

/** Every rule axe has, best-practice, experimental and off-by-default ones (target-size,
 * color-contrast-enhanced, …) included: a rule list runs each rule it names. */
const ALL_RULES = createRequire(import.meta.url)('axe-core').getRules().map((r) => r.ruleId);

/** axe's violations of any impact, one readable line each: rule, impact, how many, what to fix,
 * and the first targets. Also checks that every rule ran. */
export async function axe(page) {
  const result = await new AxeBuilder({ page }).withRules(ALL_RULES).analyze();
  const ran = new Set(['passes', 'violations', 'incomplete', 'inapplicable'].flatMap((k) => result[k].map((r) => r.id)));
  assert.deepEqual(ALL_RULES.filter((id) => !ran.has(id)), [], 'every axe rule ran');
  return result.violations.map((v) => {
    const targets = v.nodes.slice(0, 3).map((n) => n.target.join(' '));
    return `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${targets.join(' | ')}`;
  });
}
