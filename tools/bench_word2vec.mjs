// word2vec at real scale, words per second (issue 48; run by hand: scripts/bench-browser; figures
// go in the README, never into a test): the scene's trainer worker in Chromium on the 120,002-token
// corpus, skip-gram, D = 100, window 5, 5 negatives, one epoch, best of RUNS; the same Rust natively
// (core/examples/word2vec_speed.rs); gensim's and PyTorch's from core/src/scene/word2vec/timings.json
// (tools/time_word2vec.py --json, run by hand where gensim and torch are installed). Run it with
// the machine quiet, right after the Python script, so that the four figures are comparable.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { start } from '../tests/e2e/browser.mjs';

const RUNS = 5;
const site = await start();
const page = await site.page();
await page.goto(`${site.base}#/word2vec`);
const scale = page.locator('.w2v-scale');
await scale.locator('summary').click();
const train = scale.locator('.w2v-train:enabled');
let best = 0;
for (let run = 0; run < RUNS; run++) {
  await train.click();
  await scale.getByText(/^Trained: /).waitFor({ timeout: 120000 });
  const said = await scale.locator('[role=status]').textContent();
  best = Math.max(best, Number(said.match(/([\d,]+) words\/s/)[1].replaceAll(',', '')));
}
await site.stop();

const native = execFileSync('cargo', ['run', '-q', '--profile', 'worker', '-p', 'rowflow-core', '--example', 'word2vec_speed']).toString();
const nativeWps = Math.max(
  ...Array.from({ length: RUNS }, () =>
    Number(execFileSync('target/worker/examples/word2vec_speed').toString().match(/([\d.]+) words\/s/)[1]),
  ),
);
const ref = JSON.parse(readFileSync('core/src/scene/word2vec/timings.json', 'utf8'));
const row = (by, wps) => `| ${by} | ${Math.round(wps).toLocaleString('en')} | ${((100 * wps) / ref.gensim.words_per_second).toFixed(0)}% |`;
console.log(native.split('\n').slice(1).join('\n'));
console.log(`${ref.tokens.toLocaleString('en')} tokens, skip-gram, D = ${ref.dim}, window ${ref.window}, ${ref.negatives} negatives, ${ref.epochs} epoch; best of ${RUNS}`);
console.log('| trained by | words/s | of gensim\'s |\n|---|---|---|');
console.log([row('Chromium, the trainer worker (wasm)', best), row('the same Rust natively', nativeWps), row(`${ref.gensim.by}, 1 worker thread`, ref.gensim.words_per_second), row(`${ref.torch.by}, 1 thread`, ref.torch.words_per_second)].join('\n'));
