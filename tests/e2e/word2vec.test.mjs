// The word2vec scene in the built site: the default corpus read into a vocabulary, skip-gram's
// first sentence as pairs; a forward step lights the rows it reads, an SGD step moves exactly
// the rows the timeline lit and Undo takes it back; CBOW makes one pair per centre; training
// changes the neighbours and the PCA map (a row holding nan named beside it, not drawn); a refused
// setting says why beside it; at real scale the corpus and the trainer load only when opened,
// train in the worker with progress and Cancel while the page answers, and the trained table's
// neighbours group praise with praise; axe finds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scene, axe, cell, settled, shot, status } from './browser.mjs';

const IN = 'in_embed.weight';
const OUT = 'out_embed.weight';
const { site, open } = scene('#/word2vec', { ready: `[data-cell="${IN}[0, 0]"]` });

/** Rows of a table whose cells are faded (not read by the step on show), and those moved. */
async function rows(page, name, attr) {
  return page.evaluate(
    ({ name, attr }) => {
      const out = new Set();
      for (const el of document.querySelectorAll(`[data-cell^="${name}["]`)) {
        const m = el.getAttribute('data-cell').match(/\[(\d+), \d+\]$/);
        if (m && el.closest('td')?.getAttribute(attr) === 'true') out.add(Number(m[1]));
      }
      return [...out].sort((a, b) => a - b);
    },
    { name, attr },
  );
}

const vocabulary = (page) => page.locator('.vocab-list li').count();
const neighbours = (page, which) => page.locator(`.near-${which} .near-word`).allTextContents();
const pairsTitle = (page) => page.locator('.sentence-box h2').textContent();

test('skip-gram: the first sentence as pairs, a step moves only the rows it reads', async () => {
  const page = await open();
  // "the film was great", window 2: ten (centre, context) pairs; 35 words seen twice or more.
  assert.equal(await vocabulary(page), 35);
  assert.match(await page.locator('.dropped').textContent(), /cold ×1/);
  assert.equal(await pairsTitle(page), 'The next step trains on line 1 (10 pairs)');
  assert.equal(await page.locator('.loss-value').textContent(), 'loss = 3.2696');
  assert.equal(await cell(page, 'pos[0]'), '6.4601');

  // Step forward once: pair 0 is "the" → "film", the centre lit in the sentence.
  await page.locator('.timeline').getByRole('button', { name: /step forward/i }).click();
  assert.match(await status(page), /^Step 1 of 10: Pair 0: the → film: pos\[0\] = 6\.4601/);
  assert.equal(await page.locator('.sentence .word.centre').textContent(), 'the');
  assert.equal(await page.locator('.sentence .word.context').textContent(), 'film');

  // Rows the step does not read are faded; an SGD step moves exactly the others.
  const faded = await rows(page, IN, 'data-zero');
  const read = [...Array(35).keys()].filter((r) => !faded.includes(r));
  assert.deepEqual(read, [0, 1, 2, 6], 'in_embed: the, was, film, great');
  const fadedOut = await rows(page, OUT, 'data-zero');
  await page.getByRole('button', { name: 'SGD step' }).click();
  await page.locator('[data-changed="true"]').first().waitFor();
  assert.deepEqual(await rows(page, IN, 'data-changed'), read);
  const movedOut = await rows(page, OUT, 'data-changed');
  assert.deepEqual(movedOut, [...Array(35).keys()].filter((r) => !fadedOut.includes(r)));
  assert.equal(await pairsTitle(page), 'The next step trains on line 2 (10 pairs)');
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await pairsTitle(page), 'The next step trains on line 1 (10 pairs)');
  assert.equal(await cell(page, 'pos[0]'), '6.4601');
  await shot(page, 'word2vec-skip-gram');
});

test('each row of both tables is named by its word, and the names follow the corpus', async () => {
  const page = await open();
  const names = (name) => page.locator(`[role=grid][aria-label="${name}"] th[role=rowheader]`).allTextContents();
  const named = await names(IN);
  assert.equal(named.length, 35);
  assert.deepEqual([0, 1, 2, 6].map((r) => named[r]), ['the', 'was', 'film', 'great']);
  assert.deepEqual(await names(OUT), named);
  // "film" written "movie" everywhere: as many words, the same tables, the new name on its row.
  const corpus = page.locator('.corpus-text textarea');
  await corpus.fill((await corpus.inputValue()).replaceAll(/\bfilm\b/g, 'movie'));
  await corpus.blur();
  await page.waitForFunction((name) => document.querySelector(`[role=grid][aria-label="${name}"] th[data-row="2"]`)?.textContent === 'movie', IN);
  assert.deepEqual(await names(OUT), await names(IN));
  assert.deepEqual(page.errors, []);
});

test('CBOW: one pair per centre, its context averaged', async () => {
  const page = await open();
  await page.getByLabel(/CBOW/).check();
  assert.equal(await pairsTitle(page), 'The next step trains on line 1 (4 pairs)');
  await page.locator('.timeline').getByRole('button', { name: /step forward/i }).click();
  assert.match(await status(page), /^Step 1 of 4: Pair 0: the mean of film, was → the/);
  assert.deepEqual(await page.locator('.sentence .word.context').allTextContents(), ['film', 'was']);
});

test('training moves the neighbours and the map; a word not in the vocabulary is refused beside it', async () => {
  const page = await open();
  const before = await neighbours(page, 'word2vec');
  const spot = await page.locator('.map-word2vec [data-word="great"] circle').getAttribute('cx');
  await page.getByLabel('N', { exact: true }).fill('300');
  await page.getByRole('button', { name: 'Run N steps' }).click();
  await page.waitForFunction(() => /steps: 300/.test(document.querySelector('.step-count')?.textContent ?? ''), null, { timeout: 60000 });
  assert.notDeepEqual(await neighbours(page, 'word2vec'), before);
  assert.notEqual(await page.locator('.map-word2vec [data-word="great"] circle').getAttribute('cx'), spot);
  assert.equal((await neighbours(page, 'task')).length, 5);
  // The task's three starts, each with its curve; frozen, the task's table is word2vec's own.
  assert.equal(await page.locator('.task-curves polyline').count(), 3);
  await page.getByLabel('word2vec, frozen').check();
  assert.equal(await page.locator('.near-task h3').textContent(), "The task's table (word2vec, frozen)");
  assert.deepEqual(await neighbours(page, 'task'), await neighbours(page, 'word2vec'));
  const word = page.getByLabel('word', { exact: true });
  await word.fill('zebra');
  await word.press('Enter');
  assert.match(await page.locator('.w2v-compare .field-error').textContent(), /"zebra" is not in the vocabulary/);
  assert.equal((await neighbours(page, 'word2vec')).length, 5, 'the last good word stays');
});

test('a row holding nan is named beside the map, not drawn at nan', async () => {
  const page = await open();
  const input = page.locator(`[data-cell="${IN}[0, 0]"]`);
  await input.fill('nan');
  await input.press('Enter');
  await page.locator('.map-word2vec .unplaced').waitFor();
  assert.match(await page.locator('.map-word2vec .unplaced').textContent(), /hold inf or nan: the$/);
  assert.equal(await page.locator('.map-word2vec .spot').count(), 34);
  assert.equal(await page.locator('.map-word2vec [data-word="the"]').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('at real scale: its part and corpus loaded when opened, trained in the worker with progress and Cancel, the page free meanwhile', async () => {
  const page = await open();
  const fetched = [];
  page.on('request', (r) => fetched.push(r.url()));
  const scale = page.locator('.w2v-scale');
  const said = scale.locator('[role=status]');
  await page.locator('.w2v-compare').scrollIntoViewIfNeeded();
  assert.deepEqual(fetched.filter((u) => /word2vec_scale|word2vec_corpus|trainer/.test(u)), [], 'nothing fetched before it is opened');
  await scale.locator('summary').click();
  await scale.getByText(/^Corpus: 24,012 sentences/).waitFor();
  assert.equal(fetched.filter((u) => /split_word2vec_scale-[0-9a-f]+\.wasm$/.test(u)).length, 1, 'its own part, when opened');

  // Twenty epochs: long enough to step the scene and cancel while the worker trains.
  await scale.getByLabel('Epochs').selectOption('20');
  await scale.getByRole('button', { name: 'Train' }).click();
  await said.getByText(/^[\d,]+ of 2,400,040 words, [\d,]+ words\/s, loss \d\.\d{3}$/).waitFor();
  assert.equal(await scale.locator('progress').getAttribute('max'), '2400040');
  await page.getByRole('button', { name: 'SGD step' }).click();
  assert.equal(await pairsTitle(page), 'The next step trains on line 2 (10 pairs)', 'the page answers while it trains');
  assert.ok(await scale.locator('progress').isVisible(), 'still training');
  await scale.getByRole('button', { name: 'Cancel' }).click();
  assert.match(await said.textContent(), /^Cancelled after [\d,]+ of 2,400,040 words\.$/);
  assert.equal(await scale.locator('progress').count(), 0);

  await scale.getByLabel('Epochs').selectOption('1');
  await scale.getByRole('button', { name: 'Train' }).click();
  await scale.getByText(/^Trained: 120,002 words in/).waitFor({ timeout: 60000 });
  assert.deepEqual(fetched.filter((u) => /word2vec_corpus/.test(u)).length, 1, 'the corpus is fetched once');
  const speeds = await scale.locator('.w2v-speeds tbody tr').allTextContents();
  assert.equal(speeds.length, 3);
  assert.match(speeds[0], /^this browser, the trainer worker[\d,]+\d+%$/);
  assert.match(speeds[1], /^gensim [\d.]+[\d,]+100%$/);
  // Skip-gram groups words by the company they keep: "great" sits with the other words of praise.
  const praise = ['excellent', 'brilliant', 'lovely', 'charming', 'amazing', 'wonderful', 'superb', 'good', 'delightful', 'perfect', 'fresh'];
  const near = await scale.locator('.near-scale .near-word').allTextContents();
  assert.equal(near.length, 5);
  assert.ok(near.filter((w) => praise.includes(w)).length >= 4, near.join(', '));
  assert.deepEqual(await axe(page, '.w2v-scale'), []);
  assert.deepEqual(page.errors, []);
});

test('axe finds nothing on the route', async () => {
  const page = await open();
  assert.deepEqual(await axe(page), []);
  await page.locator('.timeline').getByRole('button', { name: /step forward/i }).click();
  assert.deepEqual(await axe(page), []);
});

test('on a 1024×768 projector: no text under 16 px, nothing wider than the screen, going backward', async () => {
  const page = await site.page({ viewport: { width: 1024, height: 768 } });
  await page.goto(`${site.base}#/word2vec?present`);
  await page.locator(`[data-cell="${IN}[0, 0]"]`).waitFor();
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  const small = await page.evaluate(() => {
    const out = [];
    const shown = (el) => el.checkVisibility() && el.getClientRects().length > 0;
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (!walker.currentNode.textContent.trim() || !shown(el) || el.closest('svg')) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < 16) out.push(`${el.tagName}.${el.className}: ${px}px "${walker.currentNode.textContent.trim().slice(0, 30)}"`);
    }
    for (const el of document.querySelectorAll('main svg text')) {
      if (!el.textContent.trim() || !shown(el)) continue;
      const px = parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a;
      if (px < 15.5) out.push(`svg text: ${px.toFixed(1)}px "${el.textContent.trim()}"`);
    }
    return out.slice(0, 5);
  });
  assert.deepEqual(small, [], 'text under 16 px');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing wider than the screen');
  await shot(page, 'word2vec-projector-backward');
  assert.deepEqual(page.errors, []);
});
