// Trunk's post_build hook (Trunk.toml): cuts the app's WebAssembly at its scenes, so a visit
// downloads the part every page needs and then only the scene it opens; and takes each scene's
// stylesheet out of index.html's <head>, for boot.js to add when its scene is first shown.
//
// index.html builds the app with `--features split` (each scene behind a split point,
// src/app.rs) and linked with relocations (build.rs). Trunk has already run wasm-bindgen on the
// whole module; this script starts again from cargo's output: wasm-split-cli (crates.io,
// `wasm_split_cli_support`) writes the main module, one chunk per scene and one per set of scenes
// sharing code, and `__wasm_split.js`, which fetches a scene's chunks on its first use. Each
// scene's chunk then takes in the chunks it shares with only some scenes (`mergeChunks`, binaryen's
// wasm-merge), so a scene is its own part and the part every scene shares; a split point within a
// scene (word2vec_scale, and each scene's `<scene>_more`: what it does only when asked, src/more.rs)
// is a part of its own, fetched by that scene's code. Then wasm-bindgen on
// the main module and, for a release, wasm-opt -O2 -Oz on every module. Chunks are
// named by their content's hash like Trunk's own files, so a static host may cache them for a
// year (tools/serve.mjs) and a new version of the site never meets an old chunk. A release's
// JavaScript (the glue, the loader and boot.js) is minified with terser (npm).
//
// ROWFLOW_NAMES=1 keeps the functions' names in every module (wasm-bindgen --keep-debug, wasm-opt
// -g), for measuring what each module holds and what a cold open compiles (tools/cold_compile.mjs);
// cargo must keep them too (CARGO_PROFILE_RELEASE_STRIP=none). Never for a site that is published.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { minify } from 'terser';

const run = promisify(execFile);
/** The split points of the scenes (src/app.rs), and of the pages that are not scenes. */
const SCENES = ['linear', 'embedding', 'one_hot', 'rnn', 'train', 'word2vec'];
const PAGES = ['explain'];
const staging = process.env.TRUNK_STAGING_DIR;
const release = process.env.TRUNK_PROFILE === 'release';
const names = process.env.ROWFLOW_NAMES === '1';
if (!staging) throw new Error('tools/split.mjs runs as Trunk’s post_build hook (TRUNK_STAGING_DIR is not set)');

/** A tool from PATH, or the project's own (wasm-opt from npm's binaryen, never Debian's). */
const tool = (name) => (existsSync(`node_modules/.bin/${name}`) ? `node_modules/.bin/${name}` : name);
const hash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
/** A module script as a release sends it: compressed and its local names shortened (exports keep
 * theirs); ~5 KB gzipped less on every page. */
const small = async (code) => (release ? (await minify(code, { module: true, ecma: 2020 })).code : code);

const { stdout } = await run('cargo', ['metadata', '--format-version=1', '--no-deps', '--offline']);
const target = JSON.parse(stdout).target_directory;
const input = join(target, 'wasm32-unknown-unknown', release ? 'release' : 'debug', 'rowflow.wasm');

const files = await readdir(staging);
const glue = files.find((f) => /^rowflow-[0-9a-f]+\.js$/.test(f));
const wasm = files.find((f) => /^rowflow-[0-9a-f]+_bg\.wasm$/.test(f));
if (!glue || !wasm) throw new Error(`no rowflow-<hash>.js and _bg.wasm in ${staging}: ${files.join(', ')}`);

const work = await mkdtemp(join(tmpdir(), 'rowflow-split-'));
try {
  try {
    await run('wasm-split-cli', [input, work, '--out-name', 'rowflow']);
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('wasm-split-cli is missing: scripts/setup installs it');
    throw error;
  }
  // --keep-lld-exports: the chunks share the main module's function table, which it must export.
  await run(tool('wasm-bindgen'), ['--target=web', `--out-dir=${work}/bg`, '--out-name=rowflow', '--no-typescript', '--keep-lld-exports', ...(names ? ['--keep-debug'] : []), join(work, 'rowflow.wasm')]);

  await mergeChunks(work, input);
  const chunks = (await readdir(work)).filter((f) => f.endsWith('.wasm') && f !== 'rowflow.wasm');
  const modules = [join(work, 'bg', 'rowflow_bg.wasm'), ...chunks.map((f) => join(work, f))];
  if (release) {
    // The features rustc was given (.cargo/config.toml: simd128) and those it uses by default.
    const features = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'mutable-globals', 'reference-types', 'multivalue', 'simd'];
    // An -O2 round first leaves -Oz simpler code to shrink: 0.1–0.7 KB gzipped less per module.
    const flags = ['-O2', '-Oz', names ? '-g' : '--strip-debug', '--strip-producers', ...features.map((f) => `--enable-${f}`)];
    // A part calls the functions merged into it (mergeChunks) through the shared table, at the
    // slots its own element segment fills: only it, or a copy of the same code, ever writes them,
    // so those calls may be made direct (binaryen's directize), and then inlined. Not in the main
    // module, whose table holds empty slots each part fills later.
    const direct = ['--pass-arg=directize-initial-contents-immutable', '--directize'];
    // Two at a time: the largest chunk takes most of the time, the rest run beside it.
    const queue = [...modules];
    const worker = async () => {
      for (let file; (file = queue.shift()); ) await run(tool('wasm-opt'), [...(file === modules[0] ? [] : direct), ...flags, file, '-o', file]);
    };
    await Promise.all([worker(), worker()]);
  }

  // Each chunk under its hash; the loader, which names them, under its own.
  let loader = await readFile(join(work, '__wasm_split.js'), 'utf8');
  for (const chunk of chunks) {
    const bytes = await readFile(join(work, chunk));
    const named = chunk.replace(/\.wasm$/, `-${hash(bytes)}.wasm`);
    await writeFile(join(staging, named), bytes);
    loader = loader.replaceAll(`"./${chunk}"`, `"./${named}"`);
  }
  loader = loader.replaceAll('"./rowflow.js"', `"./${glue}"`);
  // Which parts each scene needs, for index.html: boot.js fetches and compiles the parts of the
  // scene a link opens beside the main module, not after it. Read from the loader wasm-split-cli
  // wrote.
  const file = (body) => body.match(/fetch\(new URL\("\.\/([^"]+)"/)?.[1];
  const shared = Object.fromEntries(
    [...loader.matchAll(/const (__chunk_\d+) = makeLoad\(([\s\S]*?)\n, \[/g)].map(([, name, body]) => [name, file(body)]),
  );
  const parts = Object.fromEntries(
    [...loader.matchAll(/export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(([\s\S]*?)\n, \[([^\]]*)\]/g)].map(
      ([, scene, body, deps]) => [scene, [file(body), ...deps.split(', ').filter(Boolean).map((d) => shared[d])]],
    ),
  );
  const scenes = [...SCENES, ...PAGES];
  if (scenes.some((s) => !parts[s]?.length || parts[s].some((f) => !f)))
    throw new Error(`tools/split.mjs could not read each scene’s parts from the loader: ${JSON.stringify(parts)}`);
  let html = await readFile(join(staging, 'index.html'), 'utf8');
  const metas = tags(html, 'meta');
  const named = (name) => metas.find((m) => m.attrs.name === name);
  const base = named('rowflow-js')?.attrs.content.match(/^(.*?)rowflow-[0-9a-f]+\.js$/)?.[1];
  const wasmMeta = named('rowflow-wasm');
  if (base === undefined || !wasmMeta) throw new Error('index.html has no rowflow-js and rowflow-wasm meta (Trunk.toml pattern_script)');
  // Each scene's stylesheet (style/<scene>.css, Trunk's link with its hash and integrity): only
  // the scene that uses it downloads it, the start page none.
  const styles = {};
  const links = tags(html, 'link').filter((l) => l.attrs.rel === 'stylesheet');
  for (const scene of scenes) {
    const link = links.find((l) => new RegExp(`(^|/)${scene}-[0-9a-f]+\\.css$`).test(l.attrs.href));
    if (!link) throw new Error(`tools/split.mjs: index.html has no stylesheet link for ${scene} (style/${scene}.css)`);
    styles[scene] = [link.attrs.href, link.attrs.integrity ?? ''];
    html = html.replace(link.text, '');
  }
  const attribute = (value) => JSON.stringify(value).replaceAll('"', '&quot;');
  const map = Object.fromEntries(scenes.map((s) => [s, parts[s].map((f) => base + f)]));
  // And each scene's part on demand, for boot.js to fetch beside the scene's when the app will
  // read it before drawing the scene (a link, a lesson or a save); the rest it needs is the scene's.
  for (const scene of SCENES) {
    const more = parts[`${scene}_more`]?.[0];
    if (!more) throw new Error(`tools/split.mjs: the loader has no ${scene}_more part (src/app.rs)`);
    map[`${scene}_more`] = [base + more];
  }
  const added = `<meta name="rowflow-parts" content="${attribute(map)}" /><meta name="rowflow-styles" content="${attribute(styles)}" />`;
  // boot.js (Trunk's hashed copy, with its integrity) minified, under the hash of what it now is:
  // a browser holding the old name for a year never meets an integrity it does not match.
  if (release) {
    const script = tags(html, 'script').find((t) => /(^|\/)boot-[0-9a-f]+\.js$/.test(t.attrs.src ?? ''));
    if (!script?.attrs.integrity) throw new Error('tools/split.mjs: index.html has no boot.js script with its integrity');
    const old = script.attrs.src.replace(/^.*\//, '');
    const code = await small(await readFile(join(staging, old), 'utf8'));
    const name = `boot-${hash(code)}.js`;
    await writeFile(join(staging, name), code);
    await rm(join(staging, old));
    const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`;
    html = html.replace(script.text, script.text.replace(old, name).replace(script.attrs.integrity, integrity));
  }
  await writeFile(join(staging, 'index.html'), html.replace(wasmMeta.text, wasmMeta.text + added));
  // A part boot.js has already fetched and compiled (globalThis.rowflowParts: a scene whose link
  // the pointer or focus is on) is instantiated from there, others as written; either way it is
  // marked taken (null), so boot.js never fetches or compiles it again.
  const fetches = /const src = fetch\(new URL\(("[^"]+"), import\.meta\.url\)\);\n(\s*)src\.catch\(\(\) => \{\}\);\n(\s*)return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);/g;
  const patched = [...loader.matchAll(fetches)].length;
  if (patched !== chunks.length)
    throw new Error(`tools/split.mjs: ${patched} of the loader's ${chunks.length} part fetches have the shape it knows (wasm-split-cli changed?)`);
  loader = loader.replace(
    fetches,
    (_, file, i1, i2) =>
      `const url = new URL(${file}, import.meta.url).href;\n` +
      `${i1}const compiled = globalThis.rowflowParts?.get(url);\n` +
      `${i1}globalThis.rowflowParts?.set(url, null);\n` +
      `${i1}const src = compiled ? null : fetch(url);\n` +
      `${i1}src?.catch(() => {});\n` +
      `${i2}return async (imports) => (compiled ? WebAssembly.instantiate(await compiled, imports) : WebAssembly.instantiateStreaming(src, imports));`,
  );

  loader = await small(loader);
  const loaderName = `split-${hash(loader)}.js`;
  await writeFile(join(staging, loaderName), loader);

  // The module it imports, not the name the wasm's imports go by.
  const js = (await readFile(join(work, 'bg', 'rowflow.js'), 'utf8')).replaceAll('from "./__wasm_split.js"', `from "./${loaderName}"`);
  await writeFile(join(staging, glue), await small(js));
  await writeFile(join(staging, wasm), await readFile(modules[0]));
  console.log(`tools/split.mjs: rowflow's WebAssembly in ${chunks.length + 1} modules (${release ? 'release, wasm-opt -O2 -Oz' : 'debug'})`);
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Each scene's part with the chunks it shares with only some scenes merged into it, so that a
 * link downloads one part of its own beside the one every scene shares (and the main module), not
 * two dozen small ones: 12–16 KB gzipped less on every scene's first load, as a static host sends
 * them (README). Code some scenes share is then downloaded again by the next such scene, and its
 * copy writes the same functions into the same slots of the shared table as the first did, which
 * is harmless for code and constants; a chunk holding writable data (Rust's `.data` or `.bss`,
 * which a second copy would write back to its first values) stays shared unless one scene and its
 * own parts alone use it, as does the chunk every scene loads. The chunks import the main module's memory, table and stack pointer; binaryen's
 * wasm-merge gives each input its own, so one module exporting them (imported from
 * `__wasm_split_all`, the same object in the loader) stands in for the main module. */
async function mergeChunks(work, input) {
  const loaderFile = join(work, '__wasm_split.js');
  let loader = await readFile(loaderFile, 'utf8');
  const scenes = [...loader.matchAll(/export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\([\s\S]*?\n, \[([^\]]*)\]\)\);/g)].map(
    ([text, scene, deps]) => ({ text, scene, deps: deps.split(', ').filter(Boolean) }),
  );
  const file = (chunk) => `${chunk.replace(/^__/, '')}.wasm`;
  // A split point named after another and `_` (word2vec_scale, linear_more) is a part of that
  // scene, called only from its code: what it shares with the scene is merged into the scene's
  // part, loaded before it.
  for (const point of scenes) point.within = scenes.find((s) => point.scene.startsWith(`${s.scene}_`));
  // A page that is not a scene (explain) loads the part every scene shares where it uses some of
  // it, and takes the rest into its own part: it does not cut the scenes' shared part.
  const whole = scenes.filter((s) => !s.within && !PAGES.includes(s.scene));
  const everyScene = whole.length ? whole.map((s) => s.deps).reduce((all, d) => all.filter((c) => d.includes(c))) : [];
  const writable = writableRange(await readFile(input));
  // A chunk used by one scene and, besides it, only by that scene's own parts (linear_more) is
  // merged into the scene's part even if it holds writable data: those parts load after the scene
  // and take none of what the scene has (below), so its data is written once.
  const oneScenes = (chunk) => {
    const users = scenes.filter((s) => s.deps.includes(chunk));
    return new Set(users.map((s) => s.within ?? s)).size === 1 && users.some((s) => !s.within);
  };
  const keeps = new Map();
  for (const chunk of new Set(scenes.flatMap((s) => s.deps))) {
    const segments = dataSegments(await readFile(join(work, file(chunk))));
    const writes = segments.some((d) => d.passive || (d.start < d.end && d.start < writable.end && writable.start < d.end));
    keeps.set(chunk, (writes && !oneScenes(chunk)) || everyScene.includes(chunk));
  }
  const features = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'mutable-globals', 'reference-types', 'multivalue', 'simd'].map((f) => `--enable-${f}`);
  // The stand-in for the main module: what the parts import from it, exported again.
  const inputs = new Map();
  for (const { scene, deps, within } of scenes) {
    const merged = deps.filter((c) => !keeps.get(c) && !within?.deps.includes(c));
    if (merged.length) inputs.set(scene, [`split_${scene}.wasm`, ...merged.map(file)].map((f) => join(work, f)));
  }
  // The chunks every scene loads, in one file: a part of a scene that shares only some of them
  // (word2vec_scale) cuts them in two, and two files gzip worse than one. The most widely shared
  // first: 1.1 KB gzipped smaller than the other way round.
  const users = (c) => scenes.filter((s) => s.deps.includes(c)).length;
  const common = [...keeps.keys()].filter((c) => everyScene.includes(c)).sort((a, b) => users(b) - users(a));
  const into = new Map(common.slice(1).map((c) => [c, common[0]]));
  const commonFiles = into.size ? common.map((c) => join(work, file(c))) : [];
  const imported = new Map();
  for (const f of new Set([...inputs.values()].flat().concat(commonFiles))) {
    for (const [name, desc] of importsOf(await readFile(f))) imported.set(name, desc);
  }
  await writeFile(join(work, 'shared.wasm'), standIn(imported));
  const merge = (files, out) => {
    const named = files.flatMap((f, i) => [f, `part${i}`]);
    return run(tool('wasm-merge'), [...features, ...(names ? ['-g'] : []), join(work, 'shared.wasm'), '__wasm_split', ...named, '-o', out], { maxBuffer: 1 << 30 });
  };
  if (into.size) await merge(commonFiles, commonFiles[0]);
  for (const { text, scene, deps } of scenes) {
    if (inputs.has(scene)) await merge(inputs.get(scene), join(work, `split_${scene}.wasm`));
    const listed = [...new Set(deps.map((c) => into.get(c) ?? c))].filter((c) => keeps.get(c));
    loader = loader.replace(text, text.replace(`[${deps.join(', ')}]`, `[${listed.join(', ')}]`));
  }
  // Chunks no scene loads any more: their files and their loaders go.
  for (const [chunk, kept] of keeps) {
    if (kept && !into.has(chunk)) continue;
    const block = new RegExp(`/\\* [^*]* \\*/\\nconst ${chunk} = makeLoad\\([\\s\\S]*?\\n, \\[[^\\]]*\\]\\);\\n`);
    if (!block.test(loader)) throw new Error(`tools/split.mjs: the loader's ${chunk} has a shape it does not know (wasm-split-cli changed?)`);
    loader = loader.replace(block, '');
    await rm(join(work, file(chunk)));
  }
  await rm(join(work, 'shared.wasm'));
  const alias = 'sharedImports = { __wasm_split: {  } };';
  if (!loader.includes(alias)) throw new Error('tools/split.mjs: the loader builds its imports in a way it does not know');
  loader = loader.replace(alias, `${alias} sharedImports.__wasm_split_all = sharedImports.__wasm_split;`);
  await writeFile(loaderFile, loader);
}

/** What a part imports from the main module (`__wasm_split`): each name and its description as
 * the binary writes it (kind, then type). */
function importsOf(bytes) {
  const r = reader(bytes);
  const found = [];
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const end = r.leb() + r.at;
    if (id === 2) {
      for (let n = r.leb(); n > 0; n--) {
        const module = r.name();
        const name = r.name();
        const from = r.at;
        const kind = bytes[r.at++];
        // A function's type is an index into the part's own types: the stand-in has none.
        if (kind === 0) throw new Error('tools/split.mjs: a part imports a function from the main module');
        if (kind === 1) (r.at++, r.limits());
        else if (kind === 2) r.limits();
        else if (kind === 3) r.at += 2;
        else throw new Error(`tools/split.mjs: an import of kind ${kind}`);
        if (module === '__wasm_split') found.push([name, bytes.subarray(from, r.at)]);
      }
    }
    r.at = end;
  }
  return found;
}

/** A module that imports `imported` (name → description) from `__wasm_split_all` and exports
 * each under its name. */
function standIn(imported) {
  const leb = (n) => {
    const out = [];
    do {
      out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
      n >>>= 7;
    } while (n);
    return out;
  };
  const text = (t) => [...leb(Buffer.byteLength(t)), ...Buffer.from(t)];
  const section = (id, entries) => [id, ...leb(entries.flat().length + leb(entries.length).length), ...leb(entries.length), ...entries.flat()];
  const count = new Map();
  const imports = [...imported].map(([name, desc]) => [...text('__wasm_split_all'), ...text(name), ...desc]);
  const exports = [...imported].map(([name, desc]) => {
    const index = count.get(desc[0]) ?? 0;
    count.set(desc[0], index + 1);
    return [...text(name), desc[0], ...leb(index)];
  });
  return Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...section(2, imports), ...section(7, exports)]);
}

/** A cursor over a module's bytes: LEB128 numbers, names and limits. */
function reader(bytes) {
  const r = {
    at: 8,
    leb: () => r.varint(false),
    sleb: () => r.varint(true),
    varint(signed) {
      let value = 0, shift = 0, byte;
      do {
        byte = bytes[r.at++];
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte & 0x80);
      return signed && byte & 0x40 ? value - 2 ** shift : value;
    },
    name() {
      const length = r.leb();
      r.at += length;
      return new TextDecoder().decode(bytes.subarray(r.at - length, r.at));
    },
    limits() {
      const flags = bytes[r.at++];
      r.leb();
      if (flags & 1) r.leb();
    },
  };
  return r;
}

/** The addresses of the input's writable data: wasm-ld's `.data`, `.bss` and `.tdata` segments,
 * named in its name section (cargo keeps it). */
function writableRange(bytes) {
  const segments = dataSegments(bytes).filter((d) => /^\.(data|bss|tdata)/.test(d.name ?? ''));
  if (!segments.length) throw new Error('tools/split.mjs: cargo’s wasm names no .data or .bss segment (stripped?)');
  return { start: Math.min(...segments.map((d) => d.start)), end: Math.max(...segments.map((d) => d.end)) };
}

/** A module's data segments: `{ start, end }` in memory for an active one, `{ passive }` else, and
 * the name the name section gives it. */
function dataSegments(bytes) {
  const r = reader(bytes);
  const segments = [], names = new Map();
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const end = r.leb() + r.at;
    if (id === 11) {
      for (let n = r.leb(); n > 0; n--) {
        const flags = r.leb();
        let start;
        if (flags !== 1) {
          if (flags === 2) r.leb();
          if (bytes[r.at++] !== 0x41) throw new Error('tools/split.mjs: a data segment whose address is not an i32.const');
          start = r.sleb();
          r.at++;
        }
        const length = r.leb();
        segments.push(start === undefined ? { passive: true } : { start, end: start + length });
        r.at += length;
      }
    } else if (id === 0 && r.name() === 'name') {
      while (r.at < end) {
        const sub = bytes[r.at++];
        const subEnd = r.leb() + r.at;
        if (sub === 9) for (let n = r.leb(); n > 0; n--) names.set(r.leb(), r.name());
        r.at = subEnd;
      }
    }
    r.at = end;
  }
  segments.forEach((d, i) => (d.name = names.get(i)));
  return segments;
}

/** Each `<name ...>` tag in `html`, as written and with its attributes, quoted or not (Trunk's
 * minified HTML drops the quotes and sorts them). */
function tags(html, name) {
  return [...html.matchAll(new RegExp(`<${name}\\s([^>]*)>\\s*`, 'g'))].map(([text, body]) => ({
    text,
    attrs: Object.fromEntries(
      [...body.matchAll(/([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)].map(([, key, a, b, c]) => [key, a ?? b ?? c ?? '']),
    ),
  }));
}
