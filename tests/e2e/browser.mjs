// Shared set-up for the end-to-end tests: serve the release build (dist/) under a sub-path, as
// a static host would, and drive Debian's Chromium through playwright-core. Nothing is
// downloaded: the browser is the one on PATH.
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve as serveSite } from '../../tools/serve.mjs';
import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';

const root = resolve(import.meta.dirname, '../..');
export const artifacts = join(root, 'tests/e2e/artifacts');

/** Serves dist/ (or $ROWFLOW_DIST) at http://127.0.0.1:PORT/rowflow/ as a static host does
 * (tools/serve.mjs: compressed, cached) and opens a browser. */
export async function start() {
  const server = await serveSite(process.env.ROWFLOW_DIST || join(root, 'dist'), { base: '/rowflow/' });
  const base = server.url;
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
    /** A page at 1280×800 that records console errors, failed requests and CSP violations. Its
     * context runs no service worker (a reload would then be served by sw.js, past `page.route`),
     * but where `options` allows one (offline.test.mjs). */
    async page(options = {}) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        serviceWorkers: 'block',
        ...options,
      });
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
      return watch(await context.newPage());
    },
    /** Another page (a tab) in the context of `page`, which shares its storage. */
    async tab(page) {
      return watch(await page.context().newPage());
    },
    /** `page` (a new one if none) at `route`, once something matches the selector `ready`. */
    async go(route, ready, page) {
      page ??= await this.page();
      await page.goto(base + route);
      await page.locator(ready).first().waitFor();
      return page;
    },
    /** Closes the browser; fails the test file if any page broke the Content-Security-Policy. */
    async stop() {
      await browser.close();
      await server.close();
      if (violations.length > 0) {
        throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
      }
    },
  };
}

/** `page`, recording console errors, uncaught errors and lost requests in `page.errors`. */
function watch(page) {
  page.errors = [];
  page.on('console', (m) => m.type() === 'error' && page.errors.push(m.text()));
  page.on('pageerror', (e) => page.errors.push(String(e)));
  // A request the page's own document made and lost is an error; one a reload or a link cut
  // short (its document was being left) is the browser doing as asked: a worker still
  // downloading its files when the learner reloads, say.
  let navigations = 0;
  let leaving = false;
  const leftBehind = new WeakMap();
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) {
      navigations++;
      leaving = true;
    } else {
      leftBehind.set(r, { navigations, leaving });
    }
  });
  page.on('framenavigated', (f) => f === page.mainFrame() && (leaving = false));
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText;
    const then = leftBehind.get(r);
    if (why === 'net::ERR_ABORTED' && then && (then.leaving || then.navigations < navigations)) return;
    page.errors.push(`request failed: ${r.url()} (${why})`);
  });
  return page;
}

/** Goes to `url` in `page` and resolves, timed inside the page from its navigation's start, with
 * [ms until an element matching `selector` is put in the page, ms until the frame that shows it
 * has been painted (the task after that frame's requestAnimationFrame)]. For the measuring tools:
 * a locator would evaluate Playwright's own script on the page's main thread meanwhile. */
export async function openTimed(page, url, selector) {
  await page.addInitScript((selector) => {
    globalThis.rowflowOpened = new Promise((done) => {
      const seen = new MutationObserver(() => {
        if (!document.querySelector(selector)) return;
        seen.disconnect();
        const put = performance.now();
        requestAnimationFrame(() => setTimeout(() => done([put, performance.now()])));
      });
      seen.observe(document, { subtree: true, childList: true });
    });
  }, selector);
  await page.goto(url, { waitUntil: 'commit' });
  return page.evaluate(() => globalThis.rowflowOpened);
}

/** Every scene's route and the Explain page's, each with what shows it drawn. */
export const ROUTES = [
  ['#/linear', '[data-cell="output[0]"]'],
  ['#/embedding', '[data-cell="output[0, 0]"]'],
  ['#/one-hot', '[role=grid]'],
  ['#/rnn', '[role=grid]'],
  ['#/train', '[role=grid]'],
  ['#/word2vec', '[role=grid]'],
  ['#/explain', 'section.explain textarea'],
];

/** The site for one test file: started before its tests and stopped after them; its `base`,
 * `page()` and `go()` are there while the tests run. */
export function serve() {
  const site = {};
  before(async () => Object.assign(site, await start()));
  after(async () => site.stop?.());
  return site;
}

/** The site for a scene's test file, and `open(preset)`: a new page on the scene's `route` once
 * `ready` (a selector) shows, switched to `preset` if one is given, then waiting for `picked` (a
 * selector) if the file names one. */
export function scene(route, { ready, picked }) {
  const site = serve();
  async function open(preset) {
    const page = await site.go(route, ready);
    if (preset) {
      await page.locator('select[aria-label=Preset]').selectOption(preset);
      if (picked) await page.locator(picked).waitFor();
    }
    return page;
  }
  return { site, open };
}

/** Holds back the page's requests for `glob` until the returned function lets them (and later
 * ones) through. */
export async function hold(page, glob) {
  let release;
  const held = new Promise((ok) => (release = ok));
  await page.route(glob, async (route) => {
    await held;
    // A page or worker that ended meanwhile no longer wants it.
    await route.continue().catch(() => {});
  });
  return async () => {
    release();
    await page.unroute(glob);
  };
}

/** A PyTorch reference case (`core/tests/fixtures/torch/<name>.json`). */
export const fixture = (name) =>
  JSON.parse(readFileSync(join(root, 'core/tests/fixtures/torch', `${name}.json`), 'utf8'));

/** PyTorch's 4-decimal print: toFixed keeps the sign of a small negative, -0 needs saying. */
export const fmt = (x) => (Object.is(x, -0) ? '-0.0000' : x.toFixed(4));

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

/** The cell `label` (its `data-cell`, PyTorch's index: `weight[0, 1]`): an editable cell's input,
 * a read-only cell's `td`. */
export const at = (page, label) => page.locator(`[data-cell="${label}"]`).first();

/** What each of the cells `labels` shows (null where there is none), read in one round trip: an
 * input's value; a read-only cell's own text, not its gradient's under it (`.g`) nor a message
 * beside it; a gradient's number (`.gv`). */
export const shown = (page, labels) =>
  page.evaluate(
    (labels) =>
      labels.map((l) => {
        const el = document.querySelector(`[data-cell="${l}"]`);
        if (!el) return null;
        if (el.value !== undefined) return el.value.trim();
        if (el.matches('.g')) return el.querySelector('.gv').textContent.trim();
        return [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join('').trim();
      }),
    labels,
  );

/** What the cell `label` shows, as `shown` reads it. */
export const cell = async (page, label) => (await shown(page, [label]))[0];

/** Waits until the cell `label` shows `want` (as `shown` reads it). */
export const until = async (page, label, want, timeout = 5000) => {
  for (const end = Date.now() + timeout; ; await page.waitForTimeout(25)) {
    const now = await cell(page, label);
    if (now === want) return;
    if (Date.now() > end) throw new Error(`${label} shows ${now}, not ${want}`);
  }
};

/** The attribute `name` of the cell `label` (`data-mark`, `data-changed`, `data-phase`, …): on
 * its `td`, or on its own span for a gradient under its tensor's number. */
export const tdAttr = (page, label, name) =>
  at(page, label).evaluate((e, name) => (e.matches('.g') ? e : e.closest('td'))?.getAttribute(name) ?? null, name);

/** What the timeline lights on the cell `label` (`read`, `write`, `done` or null). */
export const mark = (page, label) => tdAttr(page, label, 'data-mark');

/** The timeline's words for the step on show. */
export const status = (page) => page.locator('.timeline [role=status]').textContent();

/** Types `text` into the editable cell or field `label` (a cell's input is labelled with its
 * index) and commits it with Enter. Focused first, then a frame: a focused cell swaps in its full
 * digits, which must not land after what is typed. */
export async function type(page, label, text) {
  const el = page.locator(`input[aria-label="${label}"]`).first();
  await el.focus();
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await el.fill(text);
  await el.press('Enter');
  // The grid moves the caret a frame after drawing the new numbers (src/grid.rs): once it has.
  await page.evaluate(() => new Promise((moved) => requestAnimationFrame(() => setTimeout(moved))));
  return el;
}

/** Resolves once `page` has not scrolled for three frames: a smooth scroll has landed. */
export const settled = (page) =>
  page.evaluate(
    () =>
      new Promise((done) => {
        let [last, still] = [scrollY, 0];
        const frame = () => ((scrollY === last ? ++still : ((last = scrollY), (still = 0))) >= 3 ? done() : requestAnimationFrame(frame));
        requestAnimationFrame(frame);
      }),
  );

/** Pastes `text` into the element `el`, as the clipboard would. */
export const paste = (el, text) =>
  el.evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text', text);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);

/** Clicks `button` (the scene's Export file) and returns the download it starts. */
export async function download(page, button = page.getByRole('button', { name: 'Export file' }), options = {}) {
  const [file] = await Promise.all([page.waitForEvent('download', options), button.click()]);
  return file;
}

/** The scene's share link, from its Copy link button. */
export async function copyLink(page) {
  await page.getByRole('button', { name: 'Copy link' }).click();
  const field = page.getByLabel('Link to this scene');
  await field.waitFor();
  return field.inputValue();
}

/** Opens the PyTorch panel and waits for its code. */
/** Opens the PyTorch panel and returns its script once written: the scene's part that writes it
 * comes on the panel's first opening (src/more.rs). The `pre`: a class link's checkbox is
 * labelled "PyTorch code" too. */
export async function openCode(page) {
  await page.getByText('PyTorch: the same numbers in Python').click();
  return writtenCode(page);
}

/** The open PyTorch panel's script, once written. */
export async function writtenCode(page) {
  const pre = page.locator('pre[aria-label="PyTorch code"]').filter({ hasText: /^import torch/ });
  await pre.waitFor();
  return pre.textContent();
}

/** Copy code, and its answer: Copied, or Select the code where the clipboard is refused. */
export async function copyCode(page) {
  await page.getByRole('button', { name: 'Copy code' }).click();
  await page.locator('.code-tools [role=status]').filter({ hasText: /Copied|Select the code/ }).waitFor();
}

/** A screenshot of a page or an element into the artifacts, as `<name>.png`. */
export const shot = (target, name, options = {}) =>
  target.screenshot({ path: join(artifacts, `${name}.png`), ...options });

/** Every rule axe has, best-practice, experimental and off-by-default ones (target-size,
 * color-contrast-enhanced, …) included: a rule list runs each rule it names. */
const ALL_RULES = createRequire(import.meta.url)('axe-core').getRules().map((r) => r.ruleId);

/** axe's violations of any impact, one readable line each: rule, impact, how many, what to fix,
 * and the first targets. Also checks that every rule ran. `include`: a selector to check only
 * that part of a page checked whole elsewhere (a panel opened since: a whole page takes seconds). */
export async function axe(page, include) {
  const builder = new AxeBuilder({ page }).withRules(ALL_RULES);
  const result = await (include ? builder.include(include) : builder).analyze();
  const ran = new Set(['passes', 'violations', 'incomplete', 'inapplicable'].flatMap((k) => result[k].map((r) => r.id)));
  // Rules about the whole document (a title, a main landmark) do not run on a part.
  if (!include) assert.deepEqual(ALL_RULES.filter((id) => !ran.has(id)), [], 'every axe rule ran');
  return result.violations.map((v) => {
    const targets = v.nodes.slice(0, 3).map((n) => n.target.join(' '));
    return `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${targets.join(' | ')}`;
  });
}
