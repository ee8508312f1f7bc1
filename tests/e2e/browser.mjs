// Shared set-up for the end-to-end tests: serve the release build (dist/) under a sub-path, as
// a static host would, and drive Debian's Chromium through playwright-core. Nothing is
// downloaded: the browser is the one on PATH.
import { spawn, execSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';

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
