// The PyTorch panel of every scene: the script that reproduces the numbers on show. It names
// the seed and constructor of a seeded preset, follows edits and settings, and is valid Python
// (checked with python3's own parser; torch itself is not needed to parse it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, copyCode, openCode, type } from './browser.mjs';

const site = serve();

async function open(route, ready) {
  const page = await site.go(route, `[data-cell="${ready}"]`);
  await openCode(page);
  return page;
}

const code = (page) => page.getByLabel('PyTorch code').textContent();

function parses(text, what) {
  execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: text });
  assert.ok(text.startsWith('import torch'), what);
}

test('each scene’s default preset: the seed, the constructor, the inputs, the loss', async () => {
  const cases = [
    ['#/linear', 'weight[0, 0]', ['torch.manual_seed(0)', 'x = torch.randn(6)', 'linear = nn.Linear(6, 10)']],
    ['#/embedding', 'weight[0, 0]', ['torch.manual_seed(123)', 'emb = nn.Embedding(4, 5)', 'ids = torch.tensor([2, 3, 1])']],
    ['#/one-hot', 'emb.weight[0, 0]', ['torch.manual_seed(123)', 'F.one_hot(', 'torch.equal(']],
    ['#/rnn', 'weight_hh_l0[0, 0]', ['torch.manual_seed(0)', 'rnn = nn.RNN(2, 5, batch_first=True)', 'output, h_n = rnn(']],
    ['#/train', 'user_factors.weight[0, 0]', ['torch.manual_seed(42)', 'model = DotProduct(5, 6, 2)', 'for step in range(20):']],
  ];
  for (const [route, ready, lines] of cases) {
    const page = await open(route, ready);
    const text = await code(page);
    for (const line of lines) assert.ok(text.includes(line), `${route}: ${line}\n${text}`);
    assert.ok(text.includes('.backward()'), route);
    parses(text, route);
    // Copied as its UTF-8 bytes (a ClipboardItem): the same text, `×` and `·` included.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await copyCode(page);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), text, route);
    assert.deepEqual(page.errors, [], route);
  }
});

test('the code follows edits, the loss and the settings', async () => {
  // Linear: an edited weight is copied in by hand; mse brings its target.
  let page = await open('#/linear', 'weight[0, 0]');
  await type(page, 'weight[0, 0]', '0.5');
  let text = await code(page);
  assert.match(text, /with torch\.no_grad\(\):\n    linear\.weight\.copy_\(torch\.tensor\(\[\[0\.5, /);
  assert.ok(text.includes('torch.manual_seed(0)'), 'the bias still comes from the seed');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByLabel('Loss', { exact: true }).selectOption('mse');
  text = await code(page);
  assert.ok(text.includes('loss = F.mse_loss(output, target)') && text.includes('target = torch.tensor('), text);
  parses(text, 'linear edited');

  // A re-init with a seed is written as that seed.
  await page.getByLabel('Seed').fill('7');
  await page.getByRole('button', { name: 'Re-init' }).click();
  text = await code(page);
  assert.ok(text.includes('torch.manual_seed(7)\nlinear = nn.Linear(6, 10)\n') && !text.includes('copy_'), text);
  parses(text, 'linear re-init');

  // RNN: h_n in the loss.
  page = await open('#/rnn', 'weight_hh_l0[0, 0]');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('checkbox', { name: 'add h_n.sum() to the loss' }).check();
  text = await code(page);
  assert.ok(text.includes('h_n.sum()'), text);
  parses(text, 'rnn h_n');

  // Train: the panel prints the page's state, the steps taken replayed from the seed, then
  // runs as many more steps as "Run N steps" would.
  page = await open('#/train', 'user_factors.weight[0, 0]');
  await page.getByRole('button', { name: 'Backward', exact: true }).click();
  await page.getByRole('button', { name: 'SGD step' }).click();
  await page.getByLabel('N', { exact: true }).fill('5');
  await page.getByLabel('N', { exact: true }).press('Tab');
  text = await code(page);
  const [replay, shown, run] = ['# the SGD step the page took', 'output = model(x)', '# Run N steps: 5 more'].map((s) => text.indexOf(s));
  assert.ok(replay > 0 && replay < shown && shown < run && text.includes('for step in range(5):'), text);
  assert.ok(text.includes('print("model.movie_factors.weight.grad:", model.movie_factors.weight.grad)'), text);
  parses(text, 'train stepped');
  assert.deepEqual(page.errors, []);
});
