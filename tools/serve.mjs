// Serves a built site the way a static host does: brotli or gzip as the browser asks, hashed
// assets cached for a year, index.html revalidated on every visit, and the right MIME types
// (application/wasm lets the browser compile while it downloads). Used by scripts/serve, the
// e2e tests and the benchmarks, so what they measure is what a visitor gets.
//
//   node tools/serve.mjs [dist] [--port 8080] [--base /rowflow/]
import { createServer } from 'node:http';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.ftl': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
// Trunk names every asset it builds `name-<hash>.ext`, its content never changes. The hash is a
// u64 in hex without leading zeros, so one build in sixteen has 15 digits (rowflow-e983fd95a1458c5).
const HASHED = /-[0-9a-f]{12,16}(_bg)?\.[a-z0-9]+$/;

/** Each file's bytes in the three encodings, compressed once at the highest settings, off the
 * event loop (brotli at quality 11 takes seconds for the wasm; other requests must not wait). */
export async function encodings(file) {
  const raw = await readFile(file);
  const type = TYPES[extname(file)] || 'application/octet-stream';
  if (raw.length < 256 || type === 'image/png') return { type, raw };
  const [br, gzip] = await Promise.all([
    brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzipAsync(raw, { level: 9 }),
  ]);
  return { type, raw, br, gzip };
}

/** The encoding a request's Accept-Encoding allows (and has not refused with q=0), best first. */
function pick(accept = '', file) {
  const allowed = new Set(
    accept
      .split(',')
      .map((part) => part.trim().split(/\s*;\s*q=/))
      .filter(([, q]) => q === undefined || Number(q) > 0)
      .map(([name]) => name.toLowerCase()),
  );
  return ['br', 'gzip'].find((name) => file[name] && allowed.has(name)) ?? null;
}

/**
 * Starts serving `dist` at http://127.0.0.1:port{base}; resolves to { url, close }. Port 0 picks a
 * free one.
 */
export function serve(dist, { port = 0, base = '/', host = '127.0.0.1' } = {}) {
  const root = resolve(dist);
  const cache = new Map();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(base)) return notFound(res);
    let rel = path.slice(base.length) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const full = normalize(join(root, rel));
    if (full !== root && !full.startsWith(root + sep)) return notFound(res);
    let stat;
    try {
      stat = statSync(full);
      if (!stat.isFile()) return notFound(res);
    } catch {
      return notFound(res);
    }
    // One compression per file and version of it (a new release's sw.js is a new file), shared by
    // every request that arrives while it runs.
    const key = `${full}@${stat.mtimeMs}`;
    if (!cache.has(key)) cache.set(key, encodings(full));
    const file = await cache.get(key);
    const encoding = pick(req.headers['accept-encoding'], file);
    const body = encoding ? file[encoding] : file.raw;
    res.writeHead(200, {
      'Content-Type': file.type,
      'Content-Length': body.length,
      'Cache-Control': HASHED.test(full) ? 'public, max-age=31536000, immutable' : 'no-cache',
      Vary: 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
      ...(encoding && { 'Content-Encoding': encoding }),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((ok, fail) => {
    server.on('error', fail);
    server.listen(port, host, () => {
      const url = `http://${host}:${server.address().port}${base}`;
      ok({ url, close: () => new Promise((done) => (server.closeAllConnections(), server.close(done))) });
    });
  });
}

function notFound(res) {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end('not found\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i < 0 ? fallback : args.splice(i, 2)[1];
  };
  const port = Number(option('--port', 8080));
  const base = option('--base', '/');
  const { url } = await serve(args[0] || 'dist', { port, base });
  console.log(`serving ${args[0] || 'dist'} at ${url} (brotli/gzip, hashed assets cached for a year); Ctrl-C stops`);
}
