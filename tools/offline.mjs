// Trunk's last post_build hook (Trunk.toml, after tools/split.mjs): writes the release's service
// worker, sw.js, from the one in the repository with this build's own list of files and a
// version named by their contents, so a new release is a new worker and the same build the same
// one. Every file of the build is listed: the scenes' parts, their stylesheets, the workers, the
// word2vec corpus, the manifest and its icons, index.html.
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('tools/offline.mjs runs as Trunk’s post_build hook (TRUNK_STAGING_DIR is not set)');

/** Every file under `dir`, as paths from `root` with `/`. */
async function files(dir, root = dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path, root)));
    else out.push(relative(root, path).split('\\').join('/'));
  }
  return out;
}

const list = (await files(staging)).filter((f) => f !== 'sw.js').sort();
const hash = createHash('sha256');
for (const file of list) hash.update(file).update('\0').update(await readFile(join(staging, file)));
const version = hash.digest('hex').slice(0, 16);

const template = await readFile('sw.js', 'utf8');
const filled = template
  .replace(/^const VERSION = .*;$/m, `const VERSION = '${version}';`)
  .replace(/^const FILES = .*;$/m, `const FILES = ${JSON.stringify(list)};`);
if (!filled.includes(version) || filled.includes('const FILES = [];')) {
  throw new Error('tools/offline.mjs: sw.js has no `const VERSION = …;` and `const FILES = …;` lines to fill');
}
await writeFile(join(staging, 'sw.js'), filled);
console.log(`sw.js: version ${version}, ${list.length} files`);
