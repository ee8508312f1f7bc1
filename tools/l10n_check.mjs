// The learner's languages, checked (scripts/test, and tools/l10n.mjs before a build ships them):
// every file of l10n/<lang>/ parses as Project Fluent; every language defines every message and
// attribute English has and no other; a translation uses only the variables English gives it; every
// message rowflow asks for exists (the app's `t!("id", …)`, the core's `say!("id", …)`,
// index.html's `data-l10n-id`, boot.js's `t('id', …)`) and every English message is asked for; and index.html's English, painted before
// the messages arrive, is English's message word for word.
//
//   node tools/l10n_check.mjs       prints each problem and exits 1 when there is one
import { readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FluentParser, Visitor } from '@fluent/syntax';

export const ROOT = 'l10n';
export const ENGLISH = 'en';

/** Each language's files, in the order they are joined into one: `{ en: [[name, text], …], … }`. */
export async function languages(root = ROOT) {
  const out = {};
  for (const lang of (await readdir(root)).sort()) {
    const names = (await readdir(join(root, lang))).filter((f) => f.endsWith('.ftl')).sort();
    out[lang] = await Promise.all(names.map(async (name) => [name, await readFile(join(root, lang, name), 'utf8')]));
  }
  return out;
}

/** The scenes (src/scenes/<scene>/, and the Explain page, src/explain/), as boot.js names them. */
const SCENES = [...readdirSync('src/scenes', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name), 'explain'];
/** The scene whose own messages a file of l10n/<lang>/ holds (`one-hot.ftl` and
 * `one-hot-lessons.ftl`: `one_hot`), or `''` for what every page says. */
export const sceneOfFile = (name) => {
  const stem = name.replace(/(-lessons)?\.ftl$/, '').replaceAll('-', '_');
  return SCENES.includes(stem) ? stem : '';
};
/** The scene a source file belongs to (`src/scenes/one_hot/cost.rs`: `one_hot`), or `''`. */
const sceneOfSource = (path) => path.match(/^(?:core\/)?src\/(?:scenes?\/)?([a-z0-9_]+)\//)?.[1] ?? '';

/** A lesson step's `{name}` as a message variable, as the core's `lesson::variable` writes it:
 * `output[0, 1]` → `output_0_1`. */
const variable = (name) => name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');

/** English's lesson messages, written from each scene's lessons.json (the lessons' one source):
 * `lesson-<route>-<id>-question` and `-step-<k>` (from 1), each `{name}` a variable; and each
 * lesson's title, which l10n/en/shell.ftl's `lesson-<route>-<id>` must say too. */
export async function lessonMessages() {
  const messages = [];
  const titles = [];
  for (const scene of SCENES) {
    let lessons;
    try {
      lessons = JSON.parse(await readFile(`core/src/scene/${scene}/lessons.json`, 'utf8'));
    } catch {
      continue;
    }
    for (const lesson of lessons) {
      const base = `lesson-${scene.replaceAll('_', '-')}-${lesson.id}`;
      titles.push([base, lesson.title]);
      const says = [['question', lesson.question], ...lesson.steps.map((step, k) => [`step-${k + 1}`, step.say])];
      for (const [part, text] of says) {
        const vars = new Set([...text.matchAll(/\{([^}]*)\}/g)].map((m) => variable(m[1])));
        const value = text.replace(/\{([^}]*)\}/g, (_, name) => `{ $${variable(name)} }`);
        messages.push({ scene, id: `${base}-${part}`, value, vars });
      }
    }
  }
  return { messages, titles };
}

/** The `$variables` a pattern uses. */
class Variables extends Visitor {
  found = new Set();
  visitVariableReference(node) {
    this.found.add(node.id.name);
  }
}
const variables = (pattern) => {
  const v = new Variables();
  if (pattern) v.visit(pattern);
  return v.found;
};

/** `{ "id": Set(vars), "id.attr": Set(vars), … }` of one language, and its parse problems. */
function messages(files) {
  const out = new Map();
  const groups = new Map();
  const problems = [];
  for (const [name, text] of files) {
    for (const entry of new FluentParser({ withSpans: true }).parse(text).body) {
      if (entry.type === 'Junk') {
        const line = text.slice(0, entry.span.start).split('\n').length;
        problems.push(`${name}:${line}: not Fluent: ${entry.annotations.map((a) => a.message).join('; ')}`);
      } else if (entry.type === 'Message' || entry.type === 'Term') {
        const id = (entry.type === 'Term' ? '-' : '') + entry.id.name;
        if (out.has(id)) problems.push(`${name}: ${id} is defined twice`);
        out.set(id, variables(entry.value));
        for (const attr of entry.attributes) out.set(`${id}.${attr.id.name}`, variables(attr.value));
        for (const key of [id, ...entry.attributes.map((a) => `${id}.${a.id.name}`)]) groups.set(key, sceneOfFile(name));
      }
    }
  }
  return { messages: out, groups, problems };
}

/** Every Rust file under `dir`. */
async function rustFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await rustFiles(path)));
    else if (entry.name.endsWith('.rs')) out.push(path);
  }
  return out;
}

/** The message ids rowflow asks for, with where. */
async function asked() {
  const out = new Map();
  const add = (id, where) => out.set(id, [...(out.get(id) ?? []), where]);
  for (const file of await rustFiles('src')) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(/\bt!\(\s*"([^"]+)"/g)) add(m[1], file);
  }
  // What the core says (`say!("id", …)`, core/src/say.rs), its tests and examples left out.
  for (const file of await rustFiles('core/src')) {
    if (/(^|\/)tests?(_\w+)?\.rs$|\/tests\//.test(file)) continue;
    const text = (await readFile(file, 'utf8')).split(/\n#\[cfg\(test\)\]\nmod tests/)[0];
    for (const m of text.matchAll(/\bsay!\(\s*"([^"]+)"/g)) add(m[1], file);
  }
  const html = await readFile('index.html', 'utf8');
  for (const m of html.matchAll(/data-l10n-id="([^"]+)"/g)) add(m[1], 'index.html');
  const boot = await readFile('boot.js', 'utf8');
  for (const m of boot.matchAll(/\bt\('([^']+)'/g)) add(m[1], 'boot.js');
  return out;
}

/** index.html's elements with a message, as `[id, their English text]`; the text with its
 * `<code>` kept (boot.js writes a message's `<code>…</code>` as such). */
async function painted() {
  const html = await readFile('index.html', 'utf8');
  const out = [];
  for (const m of html.matchAll(/<(\w+)[^>]*\sdata-l10n-id="([^"]+)"[^>]*>([\s\S]*?)<\/\1>/g)) {
    out.push([m[2], m[3].replace(/\s+/g, ' ').trim()]);
  }
  for (const m of html.matchAll(/<\w+[^>]*\sdata-l10n-id="([^"]+)"[^>]*>/g)) {
    for (const a of m[0].matchAll(/\s(aria-label|data-lede|title|content)="([^"]*)"/g)) out.push([`${m[1]}.${a[1]}`, a[2]]);
  }
  return out;
}

/** Every problem, as lines a person can act on. */
export async function check(root = ROOT) {
  const langs = await languages(root);
  if (!langs[ENGLISH]) return [`${root}/${ENGLISH}/ is missing`];
  const parsed = Object.fromEntries(Object.entries(langs).map(([lang, files]) => [lang, messages(files)]));
  const problems = Object.entries(parsed).flatMap(([lang, p]) => p.problems.map((s) => `${root}/${lang}/${s}`));
  const english = parsed[ENGLISH].messages;
  const lessons = await lessonMessages();
  for (const { scene, id, vars } of lessons.messages) {
    if (english.has(id)) problems.push(`${root}/${ENGLISH}/ defines ${id}, which lessons.json writes`);
    english.set(id, vars);
    parsed[ENGLISH].groups.set(id, scene);
  }
  for (const [id, title] of lessons.titles) {
    const source = langs[ENGLISH].find(([, t]) => new RegExp(`^${id} =`, 'm').test(t))?.[1];
    const said = source && englishText(source, id);
    if (said !== title) problems.push(`${root}/${ENGLISH}/ calls lesson ${id} "${said}", but its lessons.json "${title}"`);
  }
  for (const [lang, { messages: own }] of Object.entries(parsed)) {
    if (lang === ENGLISH) continue;
    for (const id of english.keys()) if (!own.has(id)) problems.push(`${lang}: no ${id} (English has it)`);
    for (const [id, vars] of own) {
      const [mine, theirs] = [parsed[lang].groups.get(id), parsed[ENGLISH].groups.get(id)];
      if (english.has(id) && mine !== theirs) problems.push(`${lang}: ${id} is in the file of ${mine || 'every page'}, English's in ${theirs || 'every page'}'s`);
      if (!english.has(id)) problems.push(`${lang}: ${id} is not an English message`);
      else for (const v of vars) if (!english.get(id).has(v)) problems.push(`${lang}: ${id} uses $${v}, which English's ${id} is not given`);
    }
  }
  const wanted = await asked();
  const group = parsed[ENGLISH].groups;
  for (const [id, places] of wanted) {
    if (!english.has(id)) problems.push(`${places[0]} asks for ${id}, which ${root}/${ENGLISH}/ does not define`);
    // A scene's own messages arrive with the scene: only its own code may ask for them.
    for (const where of places) {
      const own = group.get(id);
      if (own && own !== sceneOfSource(where)) problems.push(`${where} asks for ${id}, a message of ${own} alone: move it to a file every page has`);
    }
  }
  const referenced = new Set();
  for (const [, text] of langs[ENGLISH]) for (const m of text.matchAll(/\{\s*(-?[a-zA-Z][\w-]*)(\.[\w-]+)?\s*[}(]/g)) referenced.add(m[1]);
  const wantedMessages = new Set([...wanted.keys()].map((id) => id.split('.')[0]));
  for (const id of english.keys()) {
    const message = id.split('.')[0];
    const lesson = lessons.messages.some((m) => m.id === id);
    if (!wanted.has(id) && !wantedMessages.has(message) && !referenced.has(message) && !id.startsWith('-') && !lesson)
      problems.push(`${ENGLISH}: ${id} is asked for nowhere (src/, core/src/, index.html, boot.js)`);
  }
  const text = (id) => {
    const [file, source] = langs[ENGLISH].find(([, t]) => new RegExp(`^${id.split('.')[0]} =`, 'm').test(t)) ?? [];
    return file && source;
  };
  for (const [id, html] of await painted()) {
    const source = text(id);
    if (!source) continue;
    const english = englishText(source, id);
    const unescaped = html.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
    if (english !== undefined && english !== unescaped) problems.push(`index.html paints ${id} as "${unescaped}", but English's message is "${english}"`);
  }
  return problems;
}

/** A message's (or `id.attr`'s) English text, when it is plain text (no placeables). */
function englishText(source, id) {
  const [message, attr] = id.split('.');
  const entry = new FluentParser().parse(source).body.find((e) => e.type === 'Message' && e.id.name === message);
  const pattern = attr ? entry?.attributes.find((a) => a.id.name === attr)?.value : entry?.value;
  if (!pattern || pattern.elements.some((e) => e.type !== 'TextElement')) return undefined;
  return pattern.elements
    .map((e) => e.value)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = await check();
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log('l10n: every language has every message');
}
