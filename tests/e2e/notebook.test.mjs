// "Download notebook" in every scene's PyTorch panel: a Jupyter notebook (nbformat 4.5) whose code
// cells are the panel's script, each cell valid Python on its own, and whose markdown says what
// the page says: its title, the preset, the captions of the timeline. The schema itself is
// checked natively (core/tests/notebook.rs); torch runs it by hand (tools/check_notebooks.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { serve, download, openCode, status, type } from './browser.mjs';

const site = serve();

/** Markdown as it reads: a backslash before ASCII punctuation shows the character alone. */
const shown = (markdown) => markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** Each code cell parses as Python on its own (python3's parser; torch is not needed). */
function cellsParse(cells, what) {
  const check = 'import ast, json, sys\nfor k, c in enumerate(json.load(sys.stdin)): ast.parse(c, f"cell {k}")';
  execFileSync('python3', ['-c', check], { input: JSON.stringify(cells) });
  assert.ok(cells.length >= 3, what);
}

/** Clicks "Download notebook" and returns the notebook with its file name, after the panel says so. */
async function notebook(page) {
  const file = await download(page, page.getByRole('button', { name: 'Download notebook' }));
  const name = file.suggestedFilename();
  await page.locator('.code-tools [role=status]').filter({ hasText: `Downloaded ${name}.` }).waitFor();
  return { name, nb: JSON.parse(await readFile(await file.path(), 'utf8')) };
}

const source = (cell) => cell.source.join('');

test('every scene downloads its notebook: the panel’s code in cells, the page’s words between', async () => {
  const scenes = [
    ['#/linear', 'weight[0, 0]', 'linear', 'torch.manual_seed(0)'],
    ['#/embedding', 'weight[0, 0]', 'embedding', 'emb = nn.Embedding(4, 5)'],
    ['#/one-hot', 'emb.weight[0, 0]', 'one-hot', 'F.one_hot('],
    ['#/rnn', 'weight_hh_l0[0, 0]', 'rnn', 'output, h_n = rnn('],
    ['#/train', 'user_factors.weight[0, 0]', 'train', 'for step in range(20):'],
  ];
  for (const [route, ready, slug, line] of scenes) {
    const page = await site.go(route, `[data-cell="${ready}"]`);
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    const caption = (await status(page)).trim();
    assert.match(caption, /^Step 1 of \d+: /, route);
    const title = (await page.locator('.scene-bar h1').textContent()).trim();
    const preset = (await page.locator('select[aria-label=Preset] option:checked').textContent()).trim();
    const code = await openCode(page);

    const { name, nb } = await notebook(page);
    assert.equal(name, `rowflow-${slug}.ipynb`);
    assert.equal(nb.nbformat, 4, route);
    assert.equal(nb.nbformat_minor, 5, route);
    assert.equal(nb.metadata.kernelspec.name, 'python3', route);
    assert.ok(nb.cells.every((c) => /^[a-zA-Z0-9-_]+$/.test(c.id)), `${route}: every cell has an id`);

    const cells = nb.cells.filter((c) => c.cell_type === 'code').map(source);
    assert.equal(cells.join('\n\n') + '\n', code, `${route}: the code cells, a blank line apart, are the panel's`);
    assert.ok(code.includes(line), route);
    cellsParse(cells, route);

    const markdown = nb.cells.filter((c) => c.cell_type === 'markdown').map(source);
    assert.equal(markdown.length, cells.length + 1, `${route}: an opening, then one before each code cell`);
    assert.equal(nb.cells[0].cell_type, 'markdown', route);
    const words = shown(markdown.join('\n'));
    assert.ok(words.startsWith(`# ${title}\n`), `${route}: ${words.slice(0, 200)}`);
    assert.ok(words.includes(`the preset “${preset}” as it loads`), `${route}: ${preset}`);
    assert.ok(words.includes('print the numbers the page shows'), route);
    assert.ok(words.includes(caption), `${route}: the timeline's "${caption}" in\n${words}`);
    assert.deepEqual(page.errors, [], route);
  }
});

test('the notebook follows the scene: Run N steps, an edit, an error PyTorch raises', async () => {
  // Train: the SGD cell runs as many steps as "Run N steps" would.
  let page = await site.go('#/train', '[data-cell="user_factors.weight[0, 0]"]');
  await page.getByLabel('N', { exact: true }).fill('5');
  await page.getByLabel('N', { exact: true }).press('Tab');
  await openCode(page);
  let { nb } = await notebook(page);
  assert.equal(nb.metadata.rowflow.steps, 5);
  const sgd = nb.cells.find((c) => c.id === 'sgd');
  assert.ok(source(sgd).includes('for step in range(5):'), source(sgd));
  assert.ok(shown(source(nb.cells.find((c) => c.id === 'sgd-md'))).includes('5 more steps of `torch.optim.SGD`'));
  // The cells before print the page as it is: its output, loss and gradients.
  assert.deepEqual(nb.cells.filter((c) => c.cell_type === 'code').map((c) => c.id), ['build', 'forward', 'backward', 'sgd']);
  assert.ok(source(nb.cells.find((c) => c.id === 'backward')).includes('print("model.user_factors.weight.grad:"'));

  // Embedding: an id out of range is PyTorch's IndexError, said before the cells.
  page = await site.go('#/embedding', '[data-cell="weight[0, 0]"]');
  await type(page, 'input[0]', '9');
  await openCode(page);
  ({ nb } = await notebook(page));
  const intro = shown(source(nb.cells[0]));
  assert.ok(intro.includes('changed since (edits, a new seed or SGD steps)'), intro);
  assert.ok(intro.includes('**PyTorch raises on this state:** IndexError: index out of range in self.'), intro);
  assert.ok(source(nb.cells.find((c) => c.id === 'build')).includes('ids = torch.tensor([9, 3, 1])'));
  assert.deepEqual(page.errors, []);
});
