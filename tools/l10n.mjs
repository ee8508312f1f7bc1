// Trunk's post_build hook (Trunk.toml, after tools/split.mjs): the learner's languages. Each
// language's messages (l10n/<lang>/*.ftl, Project Fluent) become files named by their content's
// hash, one of what every page says and one per scene, and Project Fluent's own formatter
// (@fluent/bundle, npm) one script, minified for a release; index.html's `rowflow-l10n` names
// them for boot.js, which fetches the learner's language beside the WebAssembly. The messages are checked first (tools/l10n_check.mjs): a
// build never ships a language that lacks a message.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minify } from 'terser';
import { check, ENGLISH, languages, lessonMessages, sceneOfFile } from './l10n_check.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('tools/l10n.mjs runs as Trunk’s post_build hook (TRUNK_STAGING_DIR is not set)');
const release = process.env.TRUNK_PROFILE === 'release';

const problems = await check();
if (problems.length) throw new Error(`tools/l10n.mjs: the messages are not complete:\n${problems.join('\n')}`);

const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);
/** Written into the staging folder under its content's hash; its name. */
async function hashed(stem, ext, text) {
  const name = `${stem}-${hash(text)}.${ext}`;
  await writeFile(join(staging, name), text);
  return name;
}

const fluent = await readFile('node_modules/@fluent/bundle/index.js', 'utf8');
const script = await hashed('fluent', 'js', release ? (await minify(fluent, { ecma: 2020 })).code : fluent);
// What every page says, and each scene's own (l10n/<lang>/<scene>.ftl, a scene as its route names
// it, `one-hot`): boot.js adds a scene's beside its stylesheet when the scene is first shown. The
// comments are for translators, not for the page.
const html = await readFile(join(staging, 'index.html'), 'utf8');
const ftl = {};
for (const [lang, files] of Object.entries(await languages())) {
  const groups = {};
  for (const [name, text] of files) {
    const group = sceneOfFile(name);
    groups[group] = (groups[group] ?? '') + text.replace(/^#.*\n/gm, '').trim() + '\n\n';
  }
  // English's lessons are written from lessons.json (tools/l10n_check.mjs); the others' are files.
  if (lang === ENGLISH) {
    for (const { scene, id, value } of (await lessonMessages()).messages) groups[scene] = (groups[scene] ?? '') + `${id} = ${value}\n`;
  }
  ftl[lang] = {};
  for (const [group, text] of Object.entries(groups)) {
    ftl[lang][group] = await hashed(['l10n', lang, group].filter(Boolean).join('-'), 'ftl', text);
  }
}
if (!ftl[ENGLISH]) throw new Error('tools/l10n.mjs: no English messages');

const meta = `<meta name="rowflow-l10n" content="${JSON.stringify({ fluent: script, ftl }).replaceAll('"', '&quot;')}" />`;
const wasm = html.match(/<meta\b[^>]*\bname="?rowflow-wasm\b"?[^>]*>/)?.[0];
if (!wasm) throw new Error('tools/l10n.mjs: index.html has no rowflow-wasm meta (Trunk.toml pattern_script)');
await writeFile(join(staging, 'index.html'), html.replace(wasm, wasm + meta));
console.log(`l10n: ${Object.keys(ftl).join(', ')}`);
