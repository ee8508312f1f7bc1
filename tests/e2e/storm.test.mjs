// A storm: seeded random actions over every control of every scene, as a class of thirty would
// throw them — junk typed into cells, sizes, seeds and lr; sizes at and past their limits;
// every toggle, preset and button; pastes, timeline keys, links, files and reloads. After it:
// no console error, the page answers, and every number on screen is the core's for the state on
// screen (core/examples/shown.rs computes it natively).
//
// Replay a failure from the seed it prints:
//   STORM_SEED=1234 node --test tests/e2e/storm.test.mjs
// More actions: STORM_ACTIONS=5000 (default 1000).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve, download, paste } from './browser.mjs';

const SEED = Number(process.env.STORM_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ACTIONS = Number(process.env.STORM_ACTIONS ?? 1000);
const root = resolve(import.meta.dirname, '../..');

const SCENES = [
  { route: '#/linear', key: 'rowflow.linear', core: 'linear' },
  { route: '#/embedding', key: 'rowflow.embedding', core: 'embedding' },
  { route: '#/one-hot', key: 'rowflow.one_hot', core: 'one_hot' },
  { route: '#/rnn', key: 'rowflow.rnn', core: 'rnn' },
  { route: '#/train', key: 'rowflow.train', core: 'train' },
  { route: '#/word2vec', key: 'rowflow.word2vec', core: 'word2vec' },
];

/** Text a class throws at a field: junk, specials, numbers, limits, markup, a 10,000-char line. */
const JUNK = [
  'abc', '1e40', '-1e40', 'NaN', 'nan', 'inf', '-inf', '-0', '', '   ', 'x'.repeat(10000), '<b>x</b>',
  '<img src=x onerror=alert(1)>', '1,5', '0x10', '1.5', '-3', '0', '1', '2', '3', '7', '0.25', '-0.5', '1e-45',
  '3.4e38', '∞', '١٢', '99999999999999999999', '1_000', '[[1, 2], [3, 4]]', "'tanh'", 'relu',
];
const PASTES = ['1\t2\n3\t4', '[[1, 2], [3, 4]]', 'tensor([0.5, -1.])', '1 2 3 4 5 6 7 8 9', '[[1, 2]', 'a\tb', '0\n1\n2'];
const KEYS = ['PageDown', 'PageUp', 'ArrowRight', 'ArrowLeft', ' ', 'Home', 'End', 'Escape', 'Tab'];

/** mulberry32: a small seeded generator, so a failure replays from its seed. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (xs) => xs[int(xs.length)] };
}

const shown = join(root, 'target/debug/examples/shown');
before(() => execFileSync('cargo', ['build', '-q', '-p', 'rowflow-core', '--example', 'shown'], { cwd: root, stdio: 'inherit' }));
const site = serve();

/** What the core shows for the state in `file` (JSON text, passed on as it is: JavaScript
 * would write -0 as 0) of `scene`: `{ label: [short, full] }`. */
function coreCells(scene, file) {
  const input = `{"scene": ${JSON.stringify(scene)}, "state": ${file}}`;
  const out = JSON.parse(execFileSync(shown, { input }).toString());
  if (out.error) throw new Error(`the core refuses the state the page exported: ${out.error}`);
  return out.cells;
}

/**
 * Every control on the page now, as `{ kind, name, id }` (`id`: its `data-storm` mark, for a
 * locator): editable cells (one name per grid), read-only cells and fields, heat maps, fields,
 * checkboxes, radios, selects, sliders, buttons (by keyboard when shown only on focus), summaries,
 * the import. One round trip to the page.
 */
function controls(page) {
  return page.evaluate(() => {
    const els = document.querySelectorAll(
      'main input, main select, main textarea, main button, main summary, main [role=gridcell][tabindex], header input',
    );
    const found = [];
    // A mark from an earlier survey on a control skipped now would name two controls.
    document.querySelectorAll('[data-storm]').forEach((el) => delete el.dataset.storm);
    els.forEach((el, id) => {
      if (el.getClientRects().length === 0 || el.disabled || !el.checkVisibility({ visibilityProperty: true })) return;
      el.dataset.storm = id;
      const grid = el.closest('[role=grid]')?.getAttribute('aria-label');
      const name = el.getAttribute('aria-label') || el.labels?.[0]?.textContent?.trim() || el.textContent.trim();
      let kind = el.tagName.toLowerCase();
      if (kind === 'input') kind = el.type === 'text' ? (el.dataset.i !== undefined ? 'cell' : el.readOnly ? 'readonly' : 'field') : el.type;
      // Above or left of the page, where no scrolling brings it: shown only on focus (a skip link).
      const box = el.getBoundingClientRect();
      if (kind === 'button' && (box.bottom + scrollY <= 0 || box.right + scrollX <= 0)) kind = 'keyed';
      if (el.getAttribute('role') === 'gridcell') kind = el.closest('.heatmap') ? 'heatmap' : 'readonly';
      // One name per control, whatever numbers it shows now (an RNN cell's box, a count).
      const stable = name.split(/[\n:]/)[0].replace(/-?\d+(\.\d+)?/g, '#').trim();
      found.push({ id, kind, name: ['cell', 'readonly', 'heatmap'].includes(kind) ? grid : stable });
    });
    return found;
  });
}

test(`storm: ${ACTIONS} seeded actions over every control of every scene (seed ${SEED})`, async (t) => {
  t.diagnostic(`seed ${SEED}: replay with STORM_SEED=${SEED} node --test tests/e2e/storm.test.mjs`);
  console.log(`storm seed ${SEED}`);
  const r = generator(SEED);
  const page = await site.page();
  // A control that vanished under the pointer is skipped quickly, not waited for.
  page.setDefaultTimeout(5000);
  const dir = mkdtempSync(join(tmpdir(), 'rowflow-storm-'));
  const log = [];
  const exercised = new Map(SCENES.map((s) => [s.route, new Set()]));
  const seen = new Map(SCENES.map((s) => [s.route, new Set()]));
  const limits = new Map();
  let scene = SCENES[0];
  let checks = 0;

  const fail = (why) => {
    throw new Error(`${why}\nseed ${SEED} (STORM_SEED=${SEED} to replay); the last actions:\n${log.slice(-25).join('\n')}`);
  };
  const settle = async () => {
    // Two frames: the edit's effects have run and the view has drawn.
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  };
  /** A scene on show again after a navigation: its section drawn. Not a grid of it: a word2vec
   * corpus of no word leaves every tensor empty, and its grids with no cell to show. */
  const onShow = () => page.locator('main section.scene:not(.unloaded)').first().waitFor({ timeout: 15000 });
  const go = async (s) => {
    scene = s;
    await page.goto(site.base + s.route);
    await onShow();
  };

  /** On the projector, sharing waits behind Controls: bring it back first, as a teacher would. */
  const sharing = async () => {
    const controls = page.getByRole('button', { name: 'Controls' });
    if ((await controls.isVisible()) && (await controls.getAttribute('aria-pressed')) !== 'true') await controls.click();
  };

  /** The page's scene as a file, through its own Export button. */
  const exported = async () => {
    await sharing();
    const file = await download(page, page.getByRole('button', { name: 'Export file' }).first(), { timeout: 15000 });
    return readFileSync(await file.path(), 'utf8');
  };

  /** Every number on screen equals the core's for the state the page holds. */
  const check = async () => {
    await settle();
    const want = coreCells(scene.core, await exported());
    // A cell holding refused text shows that text beside its reason, by design: skip it. A
    // gradient under its tensor's number (`.g`) is on screen only going backward.
    const onScreen = await page.locator('main [data-cell]:not([aria-invalid=true])').evaluateAll((els) =>
      els
        .filter((el) => !el.matches('.g') || el.checkVisibility())
        .map((el) => {
          const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('');
          const text = el.tagName === 'INPUT' ? el.value : el.matches('.g') ? el.querySelector('.gv').textContent : own;
          return [el.dataset.cell, text];
        }),
    );
    // Going backward, between the first step and the last, a `.grad` shows what the steps so far
    // have built (SceneModel::grad): the core's whole gradient is compared once the pass is over.
    const midway = await page.evaluate(() => {
      const step = document.querySelector('main .timeline input[aria-label=Step]');
      const pass = document.querySelector('main .timeline .pass[aria-pressed=true]')?.textContent;
      return pass === 'Backward' && Number(step?.value) > 0 && Number(step?.value) < Number(step?.max);
    });
    let compared = 0;
    for (const [label, text] of onScreen) {
      if (!(label in want) || (midway && /\.grad\[/.test(label))) continue;
      compared++;
      if (!want[label].includes(text.trim())) fail(`${scene.route}: ${label} shows ${text.trim()}, the core says ${want[label][0]}`);
    }
    // Nothing to compare is right only when the rest are heat maps and cells holding refused text
    // (1,000 ids of 512 numbers each: every tensor of Embedding a heat map), or when every grid
    // is empty (a word2vec corpus of no word: every tensor has no element).
    const refused = await page.locator('main [data-cell][aria-invalid=true]').count();
    const heatMaps = await page.locator('main .heatmap').count();
    const grids = await page.locator('main [role=grid]').count();
    const empty = grids > 0 && (await page.locator('main [role=grid] [data-cell]').count()) === 0;
    if (compared === 0 && refused === 0 && heatMaps === 0 && !empty) fail(`${scene.route}: no number on screen to compare`);
    checks++;
  };

  /** The controls on the page, and those among them not yet exercised in this scene. */
  const survey = async () => {
    const all = await controls(page);
    all.forEach((c) => seen.get(scene.route).add(`${c.kind}:${c.name}`));
    return { all, fresh: all.filter((c) => !exercised.get(scene.route).has(`${c.kind}:${c.name}`)) };
  };

  /** One random action; returns its description. A control seen for the first time is
   * exercised before anything else, so it can't be missed when the page moves on. */
  const act = async ({ all, fresh }) => {
    const roll = fresh.length ? 1 : r.next();
    if (roll < 0.02) {
      await page.reload();
      await onShow();
      return 'reload';
    }
    if (roll < 0.06) {
      const s = r.pick(SCENES);
      await go(s);
      return `go ${s.route}`;
    }
    if (roll < 0.08) {
      // A link: this scene's own, cut short, another scene's, or junk.
      await sharing();
      await page.getByRole('button', { name: 'Copy link' }).click();
      const link = await page.getByLabel('Link to this scene').inputValue().catch(() => null);
      if (!link) return 'copy link: none offered';
      const other = r.pick(SCENES);
      const url = r.pick([link, link.slice(0, link.length - r.int(40) - 1), link.replace(scene.route, other.route), `${site.base}${scene.route}?s=${r.pick(JUNK)}`]);
      await page.goto(url);
      scene = SCENES.find((s) => url.includes(`${s.route}?`)) ?? scene;
      await onShow();
      return `open link (${url.length} chars)`;
    }
    if (roll < 0.1) {
      // A file: this scene exported and maybe damaged, or junk.
      const file = join(dir, `import-${log.length}.json`);
      const text = await exported();
      writeFileSync(file, r.pick([text, text.slice(0, r.int(text.length)), r.pick(JUNK), '{"weight": "<b>x</b>"}']));
      await page.getByLabel('Import file').setInputFiles(file);
      return 'import a file';
    }
    if (roll < 0.2) {
      const key = r.pick(KEYS);
      await page.keyboard.press(key);
      return `key ${key}`;
    }
    const c = fresh.length ? r.pick(fresh) : r.pick(all);
    if (!c) return 'nothing to do';
    c.handle = page.locator(`[data-storm="${c.id}"]`);
    exercised.get(scene.route).add(`${c.kind}:${c.name}`);
    const what = `${c.kind} ${c.name}`;
    switch (c.kind) {
      case 'cell': {
        if (r.next() < 0.2) {
          const text = r.pick(PASTES);
          await c.handle.focus();
          await paste(c.handle, text);
          return `${what}: paste ${JSON.stringify(text)}`;
        }
        const text = r.next() < 0.6 ? String(Math.round((r.next() * 8 - 4) * 1000) / 1000) : r.pick(JUNK);
        await c.handle.fill(text);
        await c.handle.press(r.pick(['Enter', 'Tab', 'Escape', 'ArrowDown']));
        return `${what}: type ${JSON.stringify(text.slice(0, 30))}`;
      }
      case 'field': {
        const limit = limits.get(c.name);
        const sizes = limit ? ['1', String(limit), String(limit + 1), String(Math.ceil(limit / 2))] : ['1', '2', '3', '1000000'];
        const text = r.next() < 0.6 ? r.pick(sizes) : r.pick(JUNK);
        await c.handle.fill(text);
        await c.handle.press('Enter');
        await settle();
        const error = await c.handle.evaluate((el) => el.closest('label, form')?.querySelector('[role=alert]')?.textContent ?? '');
        const max = error.match(/from 1 to (\d+)/);
        if (max) limits.set(c.name, Number(max[1]));
        return `${what}: type ${JSON.stringify(text.slice(0, 30))}`;
      }
      case 'textarea': {
        // A corpus: a few lines of the words on show, or junk; committed on leaving the box.
        const words = ['the', 'film', 'was', 'great', 'awful', 'soup', 'a', 'bland'];
        const line = () => Array.from({ length: 1 + r.int(6) }, () => r.pick(words)).join(' ');
        const text = r.next() < 0.6 ? Array.from({ length: r.int(8) }, line).join('\n') : r.pick(JUNK);
        await c.handle.fill(text);
        await c.handle.press('Tab');
        return `${what}: ${JSON.stringify(text.slice(0, 30))}`;
      }
      case 'checkbox':
      case 'radio':
        await c.handle.click();
        return what;
      case 'select': {
        const options = await c.handle.evaluate((el) => [...el.options].filter((o) => !o.disabled).map((o) => o.value));
        const value = r.pick(options);
        await c.handle.selectOption(value);
        return `${what}: ${value}`;
      }
      case 'range': {
        const [min, max] = await c.handle.evaluate((el) => [Number(el.min), Number(el.max)]);
        const value = String(min + r.int(max - min + 1));
        await c.handle.fill(value);
        return `${what}: ${value}`;
      }
      case 'readonly':
      case 'summary':
        await c.handle.click();
        return what;
      case 'heatmap':
        await c.handle.focus();
        await page.keyboard.press(r.pick(['ArrowDown', 'ArrowRight', 'PageDown', 'End', 'Home']));
        return what;
      case 'file':
        return 'the import (covered by files)';
      case 'keyed':
        await c.handle.focus();
        await page.keyboard.press('Enter');
        return what;
      default:
        if (/^(Copy link|Copy code)$/.test(c.name)) {
          await c.handle.click();
          return what;
        }
        await c.handle.click({ timeout: 5000 });
        return what;
    }
  };

  // Each scene's controls: what it shows in its Backward pass with the mse loss (and word2vec's
  // real scale opened), where every panel is open. Each of them is exercised before the storm
  // moves on to the next scene.
  const inventory = new Map(SCENES.map((s) => [s.route, new Set()]));
  const reveal = async () => {
    const backward = page.getByRole('button', { name: 'Backward', exact: true });
    if ((await backward.count()) && (await backward.getAttribute('aria-pressed')) !== 'true') await backward.click();
    const loss = page.getByRole('combobox', { name: 'Loss', exact: true });
    if (await loss.count()) await loss.selectOption('mse');
    // word2vec at real scale opened and its corpus loaded: Epochs and Train are in the inventory.
    const scale = page.locator('details.w2v-scale:not([open]) summary');
    if (await scale.count()) {
      await scale.click();
      await page.locator('.w2v-train:enabled').waitFor({ timeout: 15000 });
    }
  };
  // The state each inventory was taken in, as a file: some controls show only at sizes the dice
  // reached before (the One-hot heat maps at a large V), which no preset brings back.
  const snapshots = new Map();
  const begin = async (s) => {
    await go(s);
    // A table still drawing in the background (a scene saved at real scale, reopened) shows a
    // progress bar and Cancel until it lands: the inventory is what the scene shows at rest.
    await page.locator('main progress').first().waitFor({ state: 'detached', timeout: 30000 }).catch(() => {});
    await reveal().catch(() => {});
    (await survey()).all.forEach((c) => inventory.get(s.route).add(`${c.kind}:${c.name}`));
    snapshots.set(s.route, await exported().catch(() => null));
  };
  /** Exercises what is left of the inventory of `s`, on `s` (the dice may have left the page on
   * another scene): each round from the next preset, Backward and mse again, since one control
   * (a `freeze`, say) can hide others. */
  const finish = async (s) => {
    const wanted = inventory.get(s.route);
    const done = exercised.get(s.route);
    const left = async () => (await survey()).all.filter((c) => wanted.has(`${c.kind}:${c.name}`) && !done.has(`${c.kind}:${c.name}`));
    for (let round = 0; round < 20 && [...wanted].some((c) => !done.has(c)); round++) {
      // An action may have opened another scene (a jump, a link, a file): back to `s`.
      if (scene !== s) await go(s);
      if (round === 1 && snapshots.get(s.route)) {
        // Back to the state the inventory was taken in.
        const file = join(dir, `snapshot-${turn}-${round}.json`);
        writeFileSync(file, snapshots.get(s.route));
        await page.getByLabel('Import file').setInputFiles(file).catch(() => {});
      } else if (round > 0) {
        // The presets in turn: some controls (Embedding's heat maps) show only on a large one.
        const picker = page.locator('select[aria-label=Preset]');
        const presets = await picker.evaluate((el) => el.options.length - 1).catch(() => 0);
        if (presets) await picker.selectOption({ index: 1 + ((round - 2) % presets) }).catch(() => {});
      }
      await reveal().catch(() => {});
      if (round > 0 && wanted.has('button:Undo') && !done.has('button:Undo')) {
        // Undo takes back an SGD step: it is on only once there is one (a file or a preset
        // leaves none).
        await page.getByRole('button', { name: 'SGD step', exact: true }).first().click().catch(() => {});
        await settle();
      }
      for (let now = await left(); now.length && scene === s; now = await left()) {
        log.push(`   ${s.route} finish: ${await act({ all: now, fresh: now }).catch((e) => `skipped (${e.message.slice(0, 60)})`)}`);
        await reveal().catch(() => {});
      }
    }
  };

  // The scenes in turn, each its share of the actions; the dice also jump between them.
  const share = Math.ceil(ACTIONS / SCENES.length);
  let turn = 0;
  await begin(SCENES[0]);
  for (let i = 0; i < ACTIONS; i++) {
    let done;
    try {
      if (i >= (turn + 1) * share) {
        await finish(SCENES[turn % SCENES.length]);
        turn++;
        await begin(SCENES[turn % SCENES.length]);
      }
      done = await act(await survey());
    } catch (e) {
      // A control that went away under the pointer is the page moving on, not a failure; a page
      // that stops answering is caught below.
      done = `skipped (${String(e.message).split('\n')[0].slice(0, 80)})`;
    }
    log.push(`${i + 1}. ${scene.route} ${done}`);
    await settle().catch((e) => fail(`the page stopped answering: ${e}`));
    if (page.errors.length) fail(`console error: ${page.errors.join('\n')}`);
    if ((i + 1) % 100 === 0) await check();
  }

  for (const s of SCENES) await finish(s);
  // After it: every scene answers and shows the core's numbers.
  for (const s of SCENES) {
    await go(s);
    await check();
  }
  const missed = (set) => SCENES.flatMap((s) => [...set.get(s.route)].filter((c) => !exercised.get(s.route).has(c)).map((c) => `${s.route} ${c}`));
  const count = (m) => [...m.values()].reduce((n, s) => n + s.size, 0);
  t.diagnostic(`${ACTIONS} actions, ${checks} checks against the core, ${count(exercised)} controls exercised of ${count(seen)} seen`);
  if (missed(seen).length) t.diagnostic(`seen in passing, not exercised: ${missed(seen).join(', ')}`);
  assert.deepEqual(missed(inventory), [], "every control of every scene's Backward pass was exercised");
  assert.deepEqual(page.errors, []);
});
