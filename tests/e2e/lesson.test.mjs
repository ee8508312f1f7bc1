// Guided lessons: every lesson on the start page plays from its first step to its last with the
// clicker's PageDown on a 1024×768 projector, with no console error, each step saying numbers
// that are on screen; a link opens a lesson at a step; Escape leaves it with the scene as it is
// and the learner's own work comes back; a class link hides the panels a teacher picked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cell, serve, settled, type, axe, shot } from './browser.mjs';

const site = serve();
const says = (page) => page.locator('.lesson-says').textContent();
const where = (page) => page.locator('.lesson-where').textContent();

/** Every decimal a caption names, e.g. `-0.3160`, `549.5365`. */
const decimals = (text) => text.match(/-?\d+\.\d{4}\b/g) ?? [];

/** What the scene shows outside the lesson's own words: its text and its cells' values. */
const onScreen = (page) =>
  page.evaluate(() => {
    const main = document.querySelector('main');
    const lesson = main.querySelector('.lesson');
    const text = main.innerText.replace(lesson ? lesson.innerText : '', '');
    const values = [...main.querySelectorAll('input')].map((i) => i.value);
    return `${text}\n${values.join('\n')}`;
  });

test('every lesson plays start to end with PageDown on a projector, saying numbers on screen', async () => {
  const page = await site.page({ viewport: { width: 1024, height: 768 } });
  await page.goto(site.base);
  const lessons = await page.locator('.lesson-list a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(lessons.length >= 5, `${lessons.length} lessons on the start page`);
  for (const href of lessons) {
    await page.goto(`${site.base}${href}&present`);
    await page.locator('.lesson').waitFor();
    const [, n] = (await where(page)).match(/step 1 of (\d+)/).map(Number);
    assert.ok(n >= 5 && n <= 12, `${href}: ${n} steps`);
    for (let k = 1; k <= n; k++) {
      assert.equal(await where(page), `Lesson · step ${k} of ${n}`, href);
      assert.ok(page.url().endsWith(`&step=${k}&present`) || page.url().includes(`step=${k}`), page.url());
      const said = await says(page);
      assert.ok(said.length > 20, `${href} step ${k} says something`);
      const screen = await onScreen(page);
      for (const x of decimals(said)) {
        assert.ok(screen.includes(x), `${href} step ${k} says ${x}, which is not on screen:\n${said}`);
      }
      // What the step points at is outlined and in view, clear of the fixed timeline, once the
      // page has scrolled there (smoothly: this page does not ask for reduced motion).
      await settled(page);
      const look = page.locator('.look').first();
      if (await look.count()) {
        const box = await look.boundingBox();
        assert.ok(box && box.y >= 0 && box.y + Math.min(box.height, 40) <= 768, `${href} step ${k}: .look in view`);
      }
      if (k < n) await page.keyboard.press('PageDown');
      await page.waitForFunction((k) => document.querySelector('.lesson-where')?.textContent.includes(`step ${k} of`), Math.min(k + 1, n));
    }
    // PageDown at the last step stays there; the lesson ends when the teacher says so.
    await page.keyboard.press('PageDown');
    assert.equal(await where(page), `Lesson · step ${n} of ${n}`);
  }
  await shot(page, 'lesson-projector');
  assert.deepEqual(page.errors, []);
});

test('a link opens a lesson at its step; a bad one says why and changes nothing', async () => {
  const page = await site.go('#/embedding?lesson=gradient-rows&step=4', '.lesson');
  assert.equal(await where(page), 'Lesson · step 4 of 7');
  assert.match(await says(page), /weight\.grad\[2, 0\] is now 2\.0000/);
  assert.equal(await cell(page, 'weight.grad[2, 0]'), '2.0000');
  // PageUp goes back a step, and the address follows, so a reload comes back to it.
  await page.keyboard.press('PageUp');
  assert.equal(await where(page), 'Lesson · step 3 of 7');
  assert.match(page.url(), /lesson=gradient-rows&step=3$/);
  await page.reload();
  await page.locator('.lesson').waitFor();
  assert.equal(await where(page), 'Lesson · step 3 of 7');

  await page.goto(`${site.base}#/embedding?lesson=nope`);
  await page.getByRole('alert').filter({ hasText: 'lesson this scene does not have' }).waitFor();
  assert.equal(await page.locator('.lesson').count(), 0);
  await page.goto(`${site.base}#/rnn?lesson=unroll&step=99`);
  await page.getByRole('alert').filter({ hasText: 'it has 8' }).waitFor();
  assert.equal(await where(page), 'Lesson · step 1 of 8');
  assert.deepEqual(page.errors, []);
  await axe(page);
});

test("a lesson never saves over the learner's work; Escape leaves it with the scene as it is", async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  await type(page, 'input[0]', '7');
  // A change is saved in a task of its own, just after it is drawn.
  await page.waitForFunction(() => /7\.0/.test(localStorage.getItem('rowflow.linear')));
  const mine = await page.evaluate(() => localStorage.getItem('rowflow.linear'));

  await page.getByRole('link', { name: 'Is the input a row or a column?' }).click();
  await page.locator('.lesson').waitFor();
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  assert.equal(await where(page), 'Lesson · step 3 of 8');
  assert.equal(await page.evaluate(() => localStorage.getItem('rowflow.linear')), mine, 'nothing saved while it plays');

  // Escape: the lesson is gone, its scene stays and is saved; the learner's work is kept aside.
  const output3 = await cell(page, 'output[3]');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.lesson').count(), 0);
  assert.doesNotMatch(page.url(), /lesson=/);
  assert.equal(await cell(page, 'output[3]'), output3);
  await page.waitForFunction((mine) => localStorage.getItem('rowflow.linear') !== mine, mine);
  // PageDown steps the timeline again.
  const before = await page.locator('.timeline [role=status]').textContent();
  await page.keyboard.press('PageDown');
  assert.notEqual(await page.locator('.timeline [role=status]').textContent(), before);
  await page.getByRole('button', { name: 'Back to my work' }).click();
  await page.waitForFunction((mine) => localStorage.getItem('rowflow.linear') === mine, mine);
  assert.equal(await page.locator('input[aria-label="input[0]"]').inputValue(), '7.0000');

  // The learner's own edit in a lesson makes the scene theirs: the lesson is left first.
  await page.goto(`${site.base}#/embedding?lesson=lookup&step=2`);
  await page.locator('.lesson').waitFor();
  await type(page, 'input[2]', '0');
  assert.equal(await page.locator('.lesson').count(), 0);
  await page.getByText('This scene came from a lesson.').waitFor();
  await page.waitForFunction(() => /"data":\[2,3,0\]/.test(localStorage.getItem('rowflow.embedding')));
  assert.deepEqual(page.errors, []);
});

test('a class link opens the scene with the chosen panels hidden, in projection mode', async () => {
  const page = await site.go('#/embedding?lesson=lookup&step=3', '.lesson');
  await page.getByText('Link for a class').click();
  await page.getByLabel('PyTorch panel').check();
  await page.getByLabel('sizes and settings').check();
  await page.getByRole('button', { name: 'Copy class link' }).click();
  const link = await page.getByLabel('Class link').inputValue();
  assert.match(link, /#\/embedding\?lesson=lookup&step=3&hide=code,settings&present$/);

  const student = await site.page();
  await student.goto(link);
  await student.locator('.lesson').waitFor();
  assert.equal(await where(student), 'Lesson · step 3 of 7');
  assert.ok(await student.evaluate(() => document.body.classList.contains('projection')));
  // Controls brings back what projection leaves out, but not what the teacher hid.
  await student.getByRole('button', { name: 'Controls' }).click();
  assert.ok(await student.getByRole('button', { name: 'Copy link' }).isVisible());
  assert.equal(await student.locator('.code-panel').isVisible(), false);
  assert.equal(await student.locator('.scene-settings').isVisible(), false);

  // Outside a lesson the class link carries the scene itself.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Copy class link' }).click();
  assert.match(await page.getByLabel('Class link').inputValue(), /#\/embedding\?s=[^&]+&hide=code,settings&present$/);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(student.errors, []);
});
