// The Train scene in the built site: the fastai DotProduct model starts from PyTorch's
// torch.manual_seed(42) tables, 20 SGD steps give PyTorch's loss curve and final weights (read
// from the fixture), one step changes exactly the rated rows, and Undo takes it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scene, cell, fixture, fmt, labels, shot, shown, status, tdAttr, type } from './browser.mjs';

const USERS = 'user_factors.weight';
const MOVIES = 'movie_factors.weight';

async function expectParams(page, params, what) {
  for (const name of [USERS, MOVIES]) {
    const t = params[name];
    assert.deepEqual(await shown(page, labels(name, t.shape)), t.data.map(fmt), `${name} ${what}`);
  }
}

/** Rows of a factor table whose cells carry data-changed. */
async function changedRows(page, name, [rows, cols]) {
  return page.evaluate(
    ({ name, rows, cols }) => {
      const out = [];
      for (let r = 0; r < rows; r++) {
        const flags = [];
        for (let c = 0; c < cols; c++) {
          const el = document.querySelector(`[data-cell="${name}[${r}, ${c}]"]`);
          flags.push(el.closest('td').getAttribute('data-changed') === 'true');
        }
        if (flags.every(Boolean)) out.push(r);
        else if (flags.some(Boolean)) out.push(`partly ${r}`);
      }
      return out;
    },
    { name, rows, cols },
  );
}

/** The values printed in the loss curve's points, oldest first. */
async function curve(page) {
  const titles = await page.locator('svg[aria-label="Loss curve"] circle title').allTextContents();
  return titles.map((t) => t.replace(/^step \d+: /, ''));
}

const { open } = scene('#/train', { ready: `[data-cell="${USERS}[0, 0]"]` });

test('DotProduct(5, 6, 2) from torch.manual_seed(42) trains like PyTorch', async () => {
  const f = fixture('train_dot_product_sgd_factors2');
  const page = await open();
  assert.equal(await page.getByLabel('Seed').inputValue(), '42');
  assert.equal(await page.getByLabel('lr').inputValue(), String(f.optimizer.lr));

  // torch.manual_seed(42) then DotProduct.__init__: PyTorch's exact start.
  await expectParams(page, f.params, 'at the seeded start');
  assert.equal(await cell(page, `${USERS}[0, 0]`), fmt(f.params[USERS].data[0]));
  // The ratings table (R, 3): user, movie, rating.
  const pairs = f.input.data;
  for (let b = 0; b < f.target.data.length; b++) {
    assert.equal(await cell(page, `ratings[${b}, 0]`), String(pairs[2 * b]));
    assert.equal(await cell(page, `ratings[${b}, 1]`), String(pairs[2 * b + 1]));
    assert.equal(await cell(page, `ratings[${b}, 2]`), fmt(f.target.data[b]));
  }
  assert.deepEqual(await curve(page), [fmt(f.losses[0])], 'before any step the curve has the current loss');
  assert.match(await page.locator('.train-output .loss').textContent(), new RegExp(`loss = ${fmt(f.losses[0])}`));
  // Users drawn as circles, movies as squares, labelled.
  const scatter = page.locator('svg[aria-label="Factors"]');
  assert.equal(await scatter.locator('g.user circle').count(), 5);
  assert.equal(await scatter.locator('g.movie rect').count(), 6);
  assert.ok((await scatter.locator('text').allTextContents()).includes('movie 3'));
  const where = () => scatter.locator('g.user', { hasText: 'user 0' }).locator('circle').getAttribute('cx');
  const before = await where();

  // One step: only the rated users 0, 1, 2 and movies 0..4 move; users 3, 4 and movie 5 don't.
  await page.getByRole('button', { name: 'SGD step' }).click();
  assert.equal(await page.getByLabel('Steps taken').textContent(), 'steps: 1');
  assert.deepEqual(await changedRows(page, USERS, [5, 2]), [0, 1, 2]);
  assert.deepEqual(await changedRows(page, MOVIES, [6, 2]), [0, 1, 2, 3, 4]);
  await expectParams(page, f.params_after_first_step, 'after one step');
  assert.notEqual(await where(), before, 'user 0 moves on the scatter plot');
  assert.match(await page.locator('.captions').textContent(), /users \[3, 4\] and movies \[5\] keep their random start/);

  // Undo takes it back, bit for bit.
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await page.getByLabel('Steps taken').textContent(), 'steps: 0');
  await expectParams(page, f.params, 'after undo');
  assert.deepEqual(await changedRows(page, USERS, [5, 2]), []);
  assert.equal(await page.getByRole('button', { name: 'Undo' }).isDisabled(), true);

  // Run N = 20 steps: PyTorch's losses step for step, then its final weights.
  await page.getByLabel('N', { exact: true }).fill(String(f.losses.length));
  await page.getByRole('button', { name: 'Run N steps' }).click();
  assert.equal(await page.getByLabel('Steps taken').textContent(), `steps: ${f.losses.length}`);
  const got = await curve(page);
  assert.equal(got.length, f.losses.length + 1);
  assert.deepEqual(got.slice(0, f.losses.length), f.losses.map(fmt));
  await expectParams(page, f.params_after, 'after 20 steps');
  for (let b = 0; b < f.output_after.data.length; b++) {
    assert.equal(await cell(page, `output[${b}]`), fmt(f.output_after.data[b]));
  }
  assert.match(await page.locator('.now-loss').textContent(), new RegExp(`now ${got.at(-1)} at step 20`));

  // The forward trace: rating 1 reads its user and movie rows; the formula sums their products.
  await page.getByRole('button', { name: 'Step forward' }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.match(await status(page), /^Step 2 of 8: output\[1\]: user 0's row times movie 2's row, number by number, summed = /);
  const mark = (label) => tdAttr(page, label, 'data-mark');
  assert.equal(await mark(`${USERS}[0, 1]`), 'read');
  assert.equal(await mark(`${MOVIES}[2, 0]`), 'read');
  assert.equal(await mark('output[1]'), 'write');
  assert.match(await page.locator('.formula').textContent(), /output\[1\]=user_factors\.weight\[0, 0\]/);
  // Backward: the first step flows from the last rating into user 1's and movie 4's gradient rows.
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('button', { name: 'Step forward' }).click();
  assert.match(await status(page), /^Step 1 of 8: output\.grad\[7\] = -?\d\.\d{4}: times movie 4's row, it adds into user 1's gradient row/);
  assert.equal(await mark('user_factors.weight.grad[1, 0]'), 'write');
  assert.equal(await mark('movie_factors.weight.grad[4, 1]'), 'write');
  // Where a number comes from: user 1's gradient, one term per rating of theirs.
  assert.match(
    await page.locator('.formula').textContent(),
    /^user_factors\.weight\.grad\[1, 0\]=output\.grad\[2\]·movie_factors\.weight\[0, 0\]\+output\.grad\[3\]·movie_factors\.weight\[1, 0\]\+output\.grad\[7\]·movie_factors\.weight\[4, 0\]/,
  );

  // Reset goes back to the seeded start.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expectParams(page, f.params, 'after reset');
  await page.getByRole('button', { name: 'Run N steps' }).click();
  await page.getByRole('button', { name: 'Forward', exact: true }).click();
  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await shot(page, 'train', { fullPage: false });
  await shot(page, 'train-full', { fullPage: true });
  assert.deepEqual(page.errors, []);
});

/** Pairs of scatter labels whose boxes intersect, by their text. */
async function overlappingLabels(page) {
  return page.locator('svg[aria-label="Factors"]').evaluate((svg) => {
    const boxes = [...svg.querySelectorAll('.pt text')].map((t) => [t.textContent, t.getBBox()]);
    const hit = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i][1], boxes[j][1]];
        const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
        const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
        if (w > 0.5 && h > 0.5) hit.push(`${boxes[i][0]} / ${boxes[j][0]}`);
      }
    return hit;
  });
}

test('scatter labels stay readable when points sit on top of each other', async () => {
  const page = await open();
  assert.deepEqual(await overlappingLabels(page), []);
  // Users 3 and 4 and movie 5 moved onto one spot, user 0 next to it: four labels at one place.
  for (const [name, row] of [[USERS, 3], [USERS, 4], [MOVIES, 5], [USERS, 0]])
    for (const col of [0, 1]) await type(page, `${name}[${row}, ${col}]`, name === USERS && row === 0 ? '0.55' : '0.5');
  assert.equal(await cell(page, `${MOVIES}[5, 1]`), '0.5000');
  assert.deepEqual(await overlappingLabels(page), []);
  await page.getByRole('button', { name: 'Run N steps' }).click();
  assert.deepEqual(await overlappingLabels(page), []);
  await shot(page.locator('svg[aria-label="Factors"]'), 'train-scatter-crowded');
  assert.deepEqual(page.errors, []);
});
