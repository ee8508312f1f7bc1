// What a cold open compiles before its first grid (run by hand; figures go in
// docs/performance.md). V8 compiles a WebAssembly function the first time it is called, on the
// page's main thread; on a cold open that is most of the app's first task. This traces one cold
// open of a route (a fresh browser context) until the frame that shows the scene's first grid
// cell, matches each compiled function to its module by its index and size, and sums them by
// crate. The names come from a build that keeps them (tools/split.mjs):
//
//   ROWFLOW_NAMES=1 CARGO_PROFILE_RELEASE_STRIP=none CARGO_TARGET_DIR=/tmp/names \
//     trunk build index.html --release --public-url ./ --dist /tmp/dist-names
//   ROWFLOW_DIST=/tmp/dist-names node tools/cold_compile.mjs '#/linear'
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTimed, start } from '../tests/e2e/browser.mjs';

const dist = process.env.ROWFLOW_DIST;
const route = process.argv[2] || '#/linear';
if (!dist) throw new Error('ROWFLOW_DIST must name a build with names (see the top of this file)');

const utf8 = new TextDecoder();

/** A module's functions: how many it imports, then each defined one's body size and name. */
function functionsOf(bytes) {
  let at = 8;
  const leb = () => {
    let value = 0, shift = 0, byte;
    do {
      byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const skipLimits = () => {
    const flags = leb();
    leb();
    if (flags & 1) leb();
  };
  let imported = 0;
  const sizes = [], names = new Map();
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 2) {
      for (let n = leb(); n > 0; n--) {
        for (let name = 0; name < 2; name++) {
          const length = leb();
          at += length;
        }
        const kind = bytes[at++];
        if (kind === 0) (leb(), imported++);
        else if (kind === 1) (at++, skipLimits());
        else if (kind === 2) skipLimits();
        else if (kind === 3) at += 2;
        else if (kind === 4) (at++, leb());
      }
    } else if (id === 10) {
      for (let n = leb(); n > 0; n--) {
        const body = leb();
        sizes.push(body);
        at += body;
      }
    } else if (id === 0) {
      if (bytes[at] === 4 && utf8.decode(bytes.subarray(at + 1, at + 5)) === 'name') {
        at += 1 + bytes[at];
        while (at < end) {
          const sub = bytes[at++];
          const length = leb();
          const subEnd = at + length;
          if (sub === 1) {
            for (let n = leb(); n > 0; n--) {
              const index = leb();
              const l = leb();
              names.set(index, utf8.decode(bytes.subarray(at, at + l)));
              at += l;
            }
          }
          at = subEnd;
        }
      }
    }
    at = end;
  }
  return { imported, sizes, names };
}

/** What a legacy-mangled name's `$..$` escapes stand for. */
const ESCAPES = { LT: '<', GT: '>', RF: '&', C: ',', LP: '(', RP: ')', u20: ' ', u7b: '{', u7d: '}', u5b: '[', u5d: ']' };
const ESCAPED = new RegExp(`\\$(${Object.keys(ESCAPES).join('|')})\\$`, 'g');

/** A legacy-mangled Rust name's path (`_ZN…E`), readable enough to group and to list. */
function readable(name) {
  if (!name.startsWith('_ZN')) return name.replace(/::h[0-9a-f]{16}$/, '');
  const parts = [];
  for (let at = 3; /\d/.test(name[at]); ) {
    const digits = /^\d+/.exec(name.slice(at))[0];
    at += digits.length;
    parts.push(name.slice(at, at + Number(digits)));
    at += Number(digits);
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1))) parts.pop();
  return parts
    .join('::')
    .replace(/^_\$/, '$')
    .replace(ESCAPED, (_, code) => ESCAPES[code])
    .replace(/\.\./g, '::');
}

/** The crate a function's code comes from: its path's first name; for an impl `<Type as Trait>`
 * the type's, or the trait's where the type is a generic parameter or a tuple (`<T as tachys::…>`);
 * for a v0-mangled name (`_R…`, Rust's own intrinsics) the first crate it names; a scene's split
 * point (`__wasm_split_00linear00_export_…`, the scene's component) the app's. */
function crateOf(path) {
  const v0 = /^_R.*?C[a-z]*[0-9A-Za-z]*_(\d+)/.exec(path);
  // A name that starts with `_` or a digit has a `_` between its length and itself.
  if (v0) return path.substr(v0.index + v0[0].length + (path[v0.index + v0[0].length] === '_'), Number(v0[1]));
  if (path.startsWith('__wasm_split_')) return 'rowflow';
  const generic = /^<&?(?:mut )?(?:[A-Z]\w*|\(.*?\)) as ([A-Za-z_]\w*)/.exec(path);
  if (generic) return generic[1];
  return /^<?&?(?:mut )?(?:impl )?([A-Za-z_]\w*)/.exec(path)?.[1] ?? path.slice(0, 20);
}

const modules = readdirSync(dist)
  .filter((f) => f.endsWith('.wasm') && !f.startsWith('worker'))
  .map((file) => ({ file: file.replace(/-[0-9a-f]{16}/, ''), ...functionsOf(readFileSync(join(dist, file))) }));
if (!modules.some((m) => m.names.size)) throw new Error(`${dist} has no function names: build it as the top of this file says`);

const site = await start();
{
  // The server compresses each file on its first request: a first visit makes it ready.
  const page = await site.page();
  await openTimed(page, site.base + route, 'main [data-cell]');
  await page.context().close();
}
const page = await site.page();
const cdp = await page.context().newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
const traced = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
await cdp.send('Tracing.start', { categories: '__metadata,disabled-by-default-v8.wasm.detailed', transferMode: 'ReportEvents' });
const [, painted] = await openTimed(page, site.base + route, 'main [data-cell]');
await cdp.send('Tracing.end');
await traced;
await site.stop();

const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const compiled = events.filter((e) => e.name === 'wasm.CompileBaseline' && mainThreads.has(`${e.pid}:${e.tid}`));
const byCrate = new Map(), found = [];
let unknown = 0;
for (const { args } of compiled) {
  const matches = modules.filter((m) => m.sizes[args.funcIndex - m.imported] === args.bodySize);
  if (matches.length !== 1) {
    unknown++;
    continue;
  }
  const [m] = matches;
  const path = readable(m.names.get(args.funcIndex) ?? '?');
  found.push([args.bodySize, m.file, path]);
  const crate = crateOf(path);
  const [n, bytes] = byCrate.get(crate) ?? [0, 0];
  byCrate.set(crate, [n + 1, bytes + args.bodySize]);
}
const total = found.reduce((sum, [size]) => sum + size, 0);
const kb = (b) => (b / 1024).toFixed(1);
console.log(`${route}: the first grid cell's frame painted at ${painted.toFixed(0)} ms (traced); ${compiled.length} functions compiled on the main thread before it; ${found.length} named (${kb(total)} KB of code), ${unknown} not told apart by index and size\n`);
console.log('| crate | functions | KB | share |\n| --- | --- | --- | --- |');
for (const [crate, [n, bytes]] of [...byCrate].sort((a, b) => b[1][1] - a[1][1]).slice(0, 25))
  console.log(`| ${crate} | ${n} | ${kb(bytes)} | ${((100 * bytes) / total).toFixed(0)}% |`);
console.log('\nthe largest:');
for (const [size, file, path] of found.sort((a, b) => b[0] - a[0]).slice(0, 15)) console.log(`${String(size).padStart(7)}  ${file.padEnd(22)} ${path.slice(0, 140)}`);
process.exit(0);
