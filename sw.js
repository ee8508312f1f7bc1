// rowflow with no network: after one visit every file of the release is in this browser, so a
// reload with the Wi-Fi off opens every route, lesson link and the start page. tools/offline.mjs
// (Trunk's last post_build hook) writes the release's own list and version over the two lines
// below; a new release is a new sw.js, which the browser fetches in the background (the host
// sends it no-cache) and which waits until the learner takes it (boot.js: "A new version is
// ready — Reload"), never in the middle of a lesson or of unsaved work.
const VERSION = 'dev';
const FILES = [];

const CACHE = `rowflow-${VERSION}`;
/** A file of this release by its path from the site's root (the worker's folder). */
const url = (file) => new URL(file, self.location).href;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map(url))));
});

self.addEventListener('activate', (event) => {
  const old = (key) => key.startsWith('rowflow-') && key !== CACHE;
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter(old).map((key) => caches.delete(key)))));
});

// The page asks for this when the learner chose Reload.
self.addEventListener('message', (event) => event.data === 'take-new-version' && self.skipWaiting());

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(url('./'))) return;
  // Every page of the site is index.html with a route after `#`: the release's own, so its
  // hashed files are the ones it names.
  const wanted = request.mode === 'navigate' ? url('index.html') : request.url;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(wanted, { ignoreSearch: request.mode === 'navigate', ignoreVary: true }))
      .then((kept) => kept ?? fetch(request)),
  );
});
