// Every lesson shows what it says: at each step of every lesson, at 1280×800 and in projection at
// 1024×768, every outlined cell and every cell whose number the words quote is on screen, clear
// of the lesson's panel above and the timeline below, and not cut at the sides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve } from './browser.mjs';

const site = serve();
const scenes = resolve(import.meta.dirname, '../../core/src/scene');

/** Every lesson as (route, lesson), from the scenes' lessons.json. */
const lessons = readdirSync(scenes, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => {
    let text;
    try {
      text = readFileSync(join(scenes, d.name, 'lessons.json'), 'utf8');
    } catch {
      return [];
    }
    return JSON.parse(text).map((l) => [`#/${d.name.replace('_', '-')}`, l]);
  });

/** The cells a step's words quote: `{output[0, 1]}`, `{input.grad[0, 0, 0]:full}`. */
const quoted = (say) => [...say.matchAll(/\{([^}]+)\}/g)].map((m) => m[1].replace(/:full$/, '')).filter((n) => n.includes('['));

/** Where each outlined cell and each quoted cell is, against the room the page leaves for them. */
function measure(quoted) {
  const lesson = document.querySelector('.lesson').getBoundingClientRect();
  const bar = document.querySelector('.timeline');
  const fixed = getComputedStyle(bar).position === 'fixed';
  const room = { top: lesson.bottom, bottom: fixed ? bar.getBoundingClientRect().top : innerHeight, right: innerWidth };
  const off = (r) => r.top < room.top - 1 || r.bottom > room.bottom + 1 || r.left < -1 || r.right > room.right + 1;
  const looks = [...document.querySelectorAll('main .look')].map((el) => el.getBoundingClientRect());
  const cells = quoted.map((label) => {
    const all = [...document.querySelectorAll(`[data-cell="${label}"]`)].map((el) => el.getBoundingClientRect());
    return [label, all.some((r) => r.height > 0 && !off(r)), all.length];
  });
  return {
    looks: looks.length,
    lost: looks.filter(off).length,
    missing: cells.filter(([, on, n]) => n > 0 && !on).map(([l]) => l),
    absent: cells.filter(([, , n]) => n === 0).map(([l]) => l),
  };
}

for (const [size, viewport, present] of [
  ['1280×800', { width: 1280, height: 800 }, ''],
  ['projection at 1024×768', { width: 1024, height: 768 }, '&present'],
]) {
  test(`every step of every lesson shows what it names, ${size}`, async (t) => {
    const page = await site.page({ viewport, reducedMotion: 'reduce' });
    const failures = [];
    let steps = 0;
    for (const [route, lesson] of lessons) {
      await page.goto(`${site.base}${route}?lesson=${lesson.id}${present}`);
      await page.locator('.lesson').waitFor();
      for (let k = 1; k <= lesson.steps.length; k++) {
        if (k > 1) await page.keyboard.press('PageDown');
        await page.waitForFunction((k) => document.querySelector('.lesson-where')?.textContent.includes(`step ${k} of`), k);
        // The step's scroll lands a frame after it is drawn.
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        const step = lesson.steps[k - 1];
        const m = await page.evaluate(measure, quoted(step.say));
        steps++;
        const where = `${lesson.id} step ${k}`;
        if (m.looks === 0) failures.push(`${where}: outlines nothing on the page`);
        if (m.lost) failures.push(`${where}: ${m.lost} of ${m.looks} outlined cells off screen`);
        if (m.missing.length) failures.push(`${where}: quoted ${m.missing.join(', ')} off screen`);
        if (m.absent.length) failures.push(`${where}: quoted ${m.absent.join(', ')} not on the page`);
      }
    }
    t.diagnostic(`${steps} steps of ${lessons.length} lessons walked`);
    assert.equal(lessons.length, 10);
    assert.deepEqual(failures, []);
    assert.deepEqual(page.errors, []);
  });
}

test('Back and Next look disabled where they do nothing, and browser Back goes one step back', async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  await page.goto(`${site.base}#/linear?lesson=row-or-column`);
  await page.locator('.lesson').waitFor();
  const back = page.getByRole('button', { name: '◀ Back' });
  const next = page.getByRole('button', { name: 'Next ▶' });
  const look = (b) => b.evaluate((el) => [getComputedStyle(el).cursor, getComputedStyle(el).borderStyle, getComputedStyle(el).color]);
  assert.ok(await back.isDisabled());
  const [cursor, border, color] = await look(back);
  assert.deepEqual([cursor, border], ['not-allowed', 'dashed']);
  assert.notEqual(color, (await look(next))[2], 'a disabled button is drawn apart from one that works');
  assert.deepEqual((await look(next)).slice(0, 2), ['pointer', 'solid']);
  for (let k = 0; k < 3; k++) await next.click();
  assert.equal(await page.locator('.lesson-where').textContent(), 'Lesson · step 4 of 8');
  await page.goBack();
  await page.locator('.lesson-where', { hasText: 'step 3 of 8' }).waitFor();
  assert.match(page.url(), /lesson=row-or-column&step=3$/);
  await page.goBack();
  await page.locator('.lesson-where', { hasText: 'step 2 of 8' }).waitFor();
  await page.goForward();
  await page.locator('.lesson-where', { hasText: 'step 3 of 8' }).waitFor();
  // Back past the first step leaves the lesson for the scene as the learner left it.
  await page.goBack();
  await page.goBack();
  await page.locator('.lesson-where', { hasText: 'step 1 of 8' }).waitFor();
  await page.goBack();
  await page.locator('.lesson').waitFor({ state: 'detached' });
  assert.match(page.url(), /#\/linear$/);
  // At the last step, Next is disabled.
  await page.goto(`${site.base}#/linear?lesson=row-or-column&step=8`);
  await page.locator('.lesson-where', { hasText: 'step 8 of 8' }).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Next ▶' }).isDisabled());
  assert.deepEqual(page.errors, []);
});
