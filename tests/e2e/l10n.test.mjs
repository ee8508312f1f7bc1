// In the learner's language: every route and a lesson in Spanish and in Simplified Chinese, with
// `<html lang>` right, no message missing (a missing one is a console error, src/l10n.rs and
// boot.js) and axe, every rule, at 0; the choice made in the masthead's picker kept across a
// reload and carried by a class link; a browser set to Chinese opening in Chinese. What the page
// should say is formatted here from l10n/<lang>/*.ftl with the same library the site uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FluentBundle, FluentResource } from '@fluent/bundle';
import { axe, ROUTES, serve } from './browser.mjs';

const site = serve();
const root = resolve(import.meta.dirname, '../../l10n');

/** Message `id` of `lang` as the page writes it. */
function say(lang, id, args) {
  const bundle = new FluentBundle(lang, { useIsolating: false });
  for (const file of readdirSync(join(root, lang))) bundle.addResource(new FluentResource(readFileSync(join(root, lang, file), 'utf8')));
  const [name, attr] = id.split('.');
  const message = bundle.getMessage(name);
  return bundle.formatPattern(attr ? message.attributes[attr] : message.value, args);
}

const WALKED = [['#/', '.landing'], ...ROUTES, ['#/rnn?lesson=unroll&step=2', '.lesson']];

/** `route` with `lang=` among its parameters. */
const linked = (route, lang) => `${route}${route.includes('?') ? '&' : '?'}lang=${lang}`;

/** What English's page says at the first step of each scene's timeline, and at the lesson's step. */
const english = { captions: {}, lesson: '' };
test('en: the first step of every scene and the lesson, to compare', async () => {
  const page = await site.page();
  for (const [route, ready] of WALKED.slice(1)) {
    await page.goto(`${site.base}?visit=en${encodeURIComponent(route)}${route}`);
    await page.locator(ready).first().waitFor();
    if (route.includes('lesson=')) {
      english.lesson = await page.locator('.lesson-says').textContent();
    } else if (!route.startsWith('#/explain')) {
      await page.getByRole('button', { name: 'Step forward' }).click();
      english.captions[route] = await page.locator('.timeline [role=status]').textContent();
      assert.match(english.captions[route], /^Step 1 of \d+: /);
    }
  }
  assert.deepEqual(page.errors, []);
});

for (const lang of ['es', 'zh-CN']) {
  test(`${lang}: every route and a lesson, with no message missing and axe at 0`, async () => {
    const page = await site.page();
    const found = [];
    for (const [route, ready] of WALKED) {
      await page.goto(`${site.base}?visit=${lang}${encodeURIComponent(route)}${linked(route, lang)}`);
      await page.locator(ready).first().waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang, route);
      assert.equal(await page.locator('.projection-toggle span').textContent(), say(lang, 'projector'), route);
      assert.equal(await page.locator('.masthead a[href="#/train"]').textContent(), say(lang, 'nav-train'), route);
      if (route.includes('lesson=')) {
        assert.equal(await page.locator('.lesson h2').textContent(), say(lang, 'lesson-rnn-unroll'));
        const says = await page.locator('.lesson-says').textContent();
        assert.notEqual(says, english.lesson, 'the lesson says its step in the language');
      } else if (route === '#/') {
        assert.equal(await page.locator('.landing h1').textContent(), say(lang, 'start-title'));
        const meta = await page.locator('.lesson-list .lesson-meta').first().textContent();
        assert.equal(meta, say(lang, 'lesson-meta', { scene: 'linear', steps: 8 }));
      } else if (!route.startsWith('#/explain')) {
        await page.locator('.timeline [role=status]').waitFor();
        assert.equal(await page.locator('.timeline').getAttribute('aria-label'), say(lang, 'timeline.aria-label'), route);
        // The first step's caption, which the core says: in the language, not English's.
        await page.locator('.timeline button[aria-label="' + say(lang, 'timeline-forward') + '"]').click();
        const caption = await page.locator('.timeline [role=status]').textContent();
        assert.ok(caption.startsWith(say(lang, 'timeline-step', { step: 1, steps: 0, caption: '' }).split(' 0')[0]), caption);
        assert.notEqual(caption, english.captions[route], route);
        if (lang === 'zh-CN') assert.match(caption.split(/[:：]/).slice(1).join(':'), /\p{Script=Han}/u, `${route}: ${caption}`);
      }
      for (const v of await axe(page)) found.push(`${route}: ${v}`);
    }
    assert.deepEqual(page.errors, [], 'no message missing, nothing failed');
    assert.deepEqual(found, [], `axe in ${lang}`);
  });
}

test('the picker changes the language, kept across a reload and carried by a class link', async () => {
  const page = await site.go('#/linear', '[data-cell="output[0]"]');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await Promise.all([page.waitForEvent('load'), page.locator('.lang-picker select').selectOption('es')]);
  await page.locator('[data-cell="output[0]"]').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  assert.equal(await page.locator('.timeline').getAttribute('aria-label'), say('es', 'timeline.aria-label'));

  await page.reload();
  await page.locator('[data-cell="output[0]"]').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es', 'kept across a reload');
  assert.equal(await page.locator('.lang-picker select').inputValue(), 'es');

  await page.locator('details.class-link summary').click();
  await page.locator('.class-link button').click();
  const link = await page.locator('.class-link input[readonly]').inputValue();
  assert.match(link, /[?&]lang=es(&|$)/, link);

  // A learner's browser that never chose opens the class's link in the class's language.
  const learner = await site.page();
  await learner.goto(link);
  await learner.locator('[data-cell="output[0]"]').waitFor();
  assert.equal(await learner.evaluate(() => document.documentElement.lang), 'es');

  // And back to English: the link carries no language then.
  await Promise.all([page.waitForEvent('load'), page.locator('.lang-picker select').selectOption('en')]);
  await page.locator('[data-cell="output[0]"]').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.locator('.timeline').getAttribute('aria-label'), 'Animation');
  assert.deepEqual([...page.errors, ...learner.errors], []);
});

test('a browser set to Chinese opens in Chinese, in a font made for it', async () => {
  const page = await site.page({ locale: 'zh-CN' });
  await site.go('#/', '.landing', page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await page.locator('.landing h1').textContent(), say('zh-CN', 'start-title'));
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  assert.match(font, /Noto Sans CJK SC/);
  assert.deepEqual(page.errors, []);
});
