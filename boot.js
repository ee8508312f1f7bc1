// Starts rowflow under its Content-Security-Policy, which allows no inline script: Trunk.toml's
// `pattern_script` leaves the names of the app's two files in <meta> tags instead of Trunk's
// inline start-up, and this file loads them. It keeps index.html's static shell (navigation,
// start page, Projector switch) in step with the route, before the WebAssembly arrives and after.
// It also serves the buttons of the page shown after a crash (src/crash.rs), which must work
// when the WebAssembly can no longer run.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content;

/** `#/linear` of `#/linear?s=...`; '' or '#' on the start page. */
const route = (hash = location.hash) => hash.split('?')[0].replace(/\/+$/, '');
const home = () => route() === '' || route() === '#';

/** `one_hot` for `#/one-hot?s=...`: the scene's name in tools/split.mjs's maps. */
const sceneOf = (hash) => route(hash).slice(2).replace('-', '_');

/** The route's parameters: `lang` of `#/rnn?lang=es&present`. */
const hashParams = () => new URLSearchParams(location.hash.split('?')[1] ?? '');

// The learner's language: a link's `lang` (`#/rnn?lang=zh-CN`, or `?lang=` before the `#`), else
// the one chosen last time, else the browser's first that rowflow speaks, else English. Its
// messages (l10n/<lang>/*.ftl) are formatted by Project Fluent's @fluent/bundle, both named by
// index.html's `rowflow-l10n` (tools/l10n.mjs); the app asks through `rowflowT` (src/l10n.rs).
// Changing it reloads the page, which keeps everything (saves, the address).
const LANG = 'rowflow.lang';
const l10n = JSON.parse(meta('rowflow-l10n') ?? '{"ftl":{}}');
/** rowflow's language for a BCP 47 tag, by its full tag, else by its language (`es-MX` → `es`). */
const spoken = (tag) => {
  const langs = Object.keys(l10n.ftl);
  const low = tag?.toLowerCase();
  return low && (langs.find((l) => l.toLowerCase() === low) ?? langs.find((l) => l.split('-')[0] === low.split('-')[0]));
};
function remembered() {
  try {
    return localStorage.getItem(LANG);
  } catch {
    return null;
  }
}
const linked = spoken(new URLSearchParams(location.search).get('lang')) ?? spoken(hashParams().get('lang'));
const lang = linked ?? spoken(remembered()) ?? navigator.languages.map(spoken).find(Boolean) ?? 'en';
document.documentElement.lang = lang;
if (linked && linked !== remembered()) {
  try {
    localStorage.setItem(LANG, linked);
  } catch {
    // The link keeps asking for it.
  }
}

let bundle = null;
/** Message `id` (or `id.attr`) in the learner's language with `args`; the id itself, said as a
 * console error, when there is none (tools/l10n_check.mjs keeps that from shipping). Numbers
 * are written without grouping, as PyTorch writes them. */
function t(id, args = {}) {
  const [name, attr] = id.split('.');
  const message = bundle?.getMessage(name);
  const pattern = attr ? message?.attributes[attr] : message?.value;
  if (!pattern) {
    if (bundle) console.error(`rowflow: no message ${id} in ${bundle.locales[0]}`);
    return id;
  }
  const { FluentNumber } = globalThis.FluentBundle;
  const values = Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, typeof v === 'number' ? new FluentNumber(v, { useGrouping: false }) : v]),
  );
  const errors = [];
  const text = bundle.formatPattern(pattern, values, errors);
  for (const error of errors) console.error(`rowflow: message ${id}: ${error}`);
  return text;
}
/** The app's way in: `args` as `[name, value, name, value, …]`. */
globalThis.rowflowT = (id, flat) => {
  const args = {};
  for (let i = 0; i + 1 < flat.length; i += 2) args[flat[i]] = flat[i + 1];
  return t(id, args);
};

/** index.html's static shell in the learner's language: each `data-l10n-id` element's text (a
 * message's `<code>…</code>` as code) and its attributes the message has, with the element's
 * `data-l10n-args`. */
function translatePage() {
  for (const el of document.querySelectorAll('[data-l10n-id]')) {
    const id = el.dataset.l10nId;
    const args = JSON.parse(el.dataset.l10nArgs ?? '{}');
    const message = bundle.getMessage(id);
    if (message?.value) {
      const parts = t(id, args).split(/<code>(.*?)<\/code>/);
      el.replaceChildren(...parts.map((part, i) => (i % 2 ? Object.assign(document.createElement('code'), { textContent: part }) : part)));
    }
    for (const attr of Object.keys(message?.attributes ?? {})) el.setAttribute(attr, t(`${id}.${attr}`, args));
  }
}

/** The language the page is shown in: the learner's, or English when theirs cannot be fetched. */
let shown = lang;
/** The text of every message file in the page's bundle: a worker that writes what the core says
 * (One-hot's notebook) is sent them (`rowflowMessages`, src/l10n.rs). */
const texts = [];
globalThis.rowflowMessages = () => (bundle ? [shown, ...texts] : []);
const fetched = new Map();
/** The text of the messages of `scene` (`''`: what every page says), fetched once in the page's
 * language; a scene's own are English's when the learner's cannot be fetched. */
function messagesOf(scene) {
  const get = (file) =>
    file ? fetch(new URL(file, location.href)).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${file}: ${r.status}`)))) : Promise.reject(new Error(`no messages for ${scene}`));
  if (!fetched.has(scene)) {
    const own = get(l10n.ftl[shown]?.[scene]);
    fetched.set(scene, shown === 'en' || scene === '' ? own : own.catch(() => get(l10n.ftl.en?.[scene])));
  }
  return fetched.get(scene);
}

/** The messages every page needs, with the formatter, and the page shown in them. Until then a
 * page in another language than index.html's is hidden, so it never flashes English. */
async function loadMessages() {
  if (lang !== 'en') document.documentElement.classList.add('l10n-wait');
  try {
    if (!l10n.fluent) return;
    const common = () =>
      messagesOf('').catch((error) => {
        if (shown === 'en') throw error;
        shown = 'en';
        fetched.clear();
        return messagesOf('');
      });
    const [, ftl] = await Promise.all([import(new URL(l10n.fluent, location.href)), common()]);
    const { FluentBundle, FluentResource } = globalThis.FluentBundle;
    bundle = new FluentBundle(shown, { useIsolating: false });
    bundle.addResource(new FluentResource(ftl));
    texts.push(ftl);
    document.documentElement.lang = shown;
    translatePage();
  } finally {
    document.documentElement.classList.remove('l10n-wait');
  }
}
const messagesReady = loadMessages();

const added = new Set();
/** Adds the messages of a route's scene to the page's, once; resolves when they are in, or could
 * not be had (a missing message then says its id). */
function messagesFor(hash) {
  const scene = sceneOf(hash);
  if (!l10n.ftl.en?.[scene]) return Promise.resolve();
  messagesOf(scene).catch(() => {});
  return messagesReady
    .then(() => messagesOf(scene))
    .then((ftl) => {
      if (added.has(scene) || !bundle) return;
      added.add(scene);
      bundle.addResource(new globalThis.FluentBundle.FluentResource(ftl));
      texts.push(ftl);
    })
    .catch(() => {});
}

// The masthead's picker: the choice is remembered and the page reloaded in it, with the address
// (a link's `lang` follows). Not while the latest work is not saved in this browser: a reload
// would lose it.
const picker = document.querySelector('.lang-picker select');
picker.value = lang;
picker.addEventListener('change', () => {
  const note = document.querySelector('.present-note');
  if (document.querySelector('.save-notice')) {
    note.textContent = t('lang-unsaved');
    picker.value = document.documentElement.lang;
    return;
  }
  try {
    localStorage.setItem(LANG, picker.value);
  } catch {
    // Kept by the address instead.
  }
  // The address's own parameters as they are (a link's `s` untouched), `lang` set when it has one
  // or the choice could not be remembered.
  const [path, query = ''] = location.hash.split('?');
  const params = query.split('&').filter((p) => p && !p.startsWith('lang='));
  if (query.split('&').some((p) => p.startsWith('lang=')) || remembered() !== picker.value) params.push(`lang=${picker.value}`);
  history.replaceState(null, '', `${path || '#/'}${params.length ? '?' : ''}${params.join('&')}`);
  if (new URLSearchParams(location.search).has('lang')) {
    const url = new URL(location.href);
    url.searchParams.delete('lang');
    location.replace(url.href);
  } else {
    location.reload();
  }
});

/** Whether the app has drawn the route in <main>: a scene, or the page saying there is none.
 * Until then (the WebAssembly, or a scene's own part of it, still on its way) the preview shows. */
const drawn = () => [...document.querySelectorAll('main > section')].some((s) => s.id !== 'landing' && s.id !== 'preview');

/** The static shell follows the route: the start page only on `#/`, the scene's link marked,
 * and until the app draws it, the scene's name and its opening words, from its card on the start
 * page: the largest text on a phone's first screen until the lab arrives, as big as the scene's own. */
function followRoute() {
  const landing = document.getElementById('landing');
  if (landing) landing.hidden = !home();
  const preview = document.getElementById('preview');
  const card = [...document.querySelectorAll('.card')].find((c) => c.querySelector('a').getAttribute('href') === route());
  preview.hidden = !card || drawn();
  if (card) {
    preview.querySelector('h1').textContent = card.querySelector('a').textContent;
    preview.querySelector('.lede').textContent = card.dataset.lede;
  }
  for (const a of document.querySelectorAll('.masthead nav a')) {
    if (a.getAttribute('href') === route()) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}
followRoute();
addEventListener('hashchange', followRoute);
// Observers run before the next paint: the preview goes in the frame the scene arrives.
new MutationObserver(followRoute).observe(document.querySelector('main'), { childList: true });


/** Each scene's own stylesheet and its integrity (index.html's `rowflow-styles`, written by
 * tools/split.mjs): a page has main.css and the stylesheet of each scene it has shown or been
 * pointed at, not all five. */
const sceneStyles = JSON.parse(meta('rowflow-styles') ?? '{}');
const styles = new Map();
/** Adds the stylesheet of a route's scene, once; resolves when it has loaded, or failed (a scene
 * drawn without its layout beats one never drawn). */
function styleOf(hash) {
  const scene = sceneOf(hash);
  if (!Object.hasOwn(sceneStyles, scene)) return Promise.resolve();
  if (!styles.has(scene)) {
    const [href, integrity] = sceneStyles[scene];
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
    if (integrity) link.integrity = integrity;
    styles.set(scene, new Promise((done) => (link.onload = link.onerror = () => done())));
    document.head.append(link);
  }
  return styles.get(scene);
}
/** A route's scene's own stylesheet and messages: the app asks for them as it fetches the scene's
 * part and draws the scene after all three (`rowflowScene`, src/app.rs); the route a visit opens
 * has them asked for here, before the WebAssembly. */
const sceneFiles = (hash) => Promise.all([styleOf(hash), messagesFor(hash)]);
globalThis.rowflowScene = sceneFiles;
sceneFiles(location.hash);

// The Projector switch: large, high-contrast type for a classroom (style/main.css). A link with
// `?present` (`#/embedding?present`) opens in it; the choice is kept for the next visit.
const PRESENT = 'rowflow.present';
const projector = document.querySelector('.projection-toggle input');

function project(on, keep) {
  document.body.classList.toggle('projection', on);
  projector.checked = on;
  if (!keep) return;
  let note = '';
  try {
    localStorage.setItem(PRESENT, on ? 'on' : 'off');
  } catch (error) {
    note = t('present-not-kept', { error: error.name });
  }
  document.querySelector('.present-note').textContent = note;
}

/** `present` among the route's parameters: `#/rnn?present`, `#/rnn?s=...&present`. */
const presentAsked = () => hashParams().has('present');

let saved = null;
try {
  saved = localStorage.getItem(PRESENT);
} catch {
  // Storage turned off: the switch starts off and says so when it cannot keep a choice.
}
if (presentAsked()) project(true, true);
else if (saved === 'on') project(true, false);
addEventListener('hashchange', () => presentAsked() && project(true, true));
projector.addEventListener('change', () => project(projector.checked, true));

// On the projector a scene shows its diagram and the step; Controls brings back its settings,
// sharing, code and notes.
const controls = document.querySelector('.controls-toggle');
controls.addEventListener('click', () => {
  const on = document.body.classList.toggle('show-controls');
  controls.setAttribute('aria-pressed', String(on));
});

// Fullscreen: the button, or `f`. Shown from the first paint, hidden only where the browser has
// no fullscreen, so the masthead never grows under what is already on screen.
const fullscreen = document.querySelector('.fullscreen');
fullscreen.hidden = !document.fullscreenEnabled;
function toggleFullscreen() {
  const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
  done.catch((error) => {
    document.querySelector('.present-note').textContent = t('fullscreen-refused', { error: error.message });
  });
}
fullscreen.addEventListener('click', toggleFullscreen);
document.addEventListener('fullscreenchange', () => {
  fullscreen.textContent = document.fullscreenElement ? t('fullscreen-exit') : t('fullscreen');
});

// A clicker's blank-screen keys: `b` or `.` black, `w` white; any key or click brings the page
// back, and that key does nothing else. Not while something is typed into a field.
const blank = document.querySelector('.blank');
const typingInto = (el) => el?.matches?.('textarea, input:not([type]), input[type=text], input[type=number], input[type=search], input[type=url]');
function unblank(event) {
  if (blank.hidden) return false;
  blank.hidden = true;
  blank.className = 'blank';
  event.preventDefault();
  event.stopImmediatePropagation();
  return true;
}
addEventListener(
  'keydown',
  (event) => {
    if (unblank(event) || event.ctrlKey || event.metaKey || event.altKey || typingInto(event.target)) return;
    const shade = { b: 'black', '.': 'black', w: 'white' }[event.key];
    if (shade) {
      blank.className = `blank ${shade}`;
      blank.hidden = false;
    } else if (event.key === 'f') {
      toggleFullscreen();
    } else {
      return;
    }
    event.preventDefault();
  },
  true,
);
blank.addEventListener('click', unblank);

document.addEventListener('click', (event) => {
  const button = event.target.closest?.('[data-crash-action]');
  const action = button?.dataset.crashAction;
  if (action === 'reload') location.reload();
  if (action === 'download') downloadSavedWork();
  if (action === 'fresh') startFresh(button);
});

/** The crash page's way out of a save that stops rowflow as it opens: the save is set aside
 * under `.unreadable` (the scene's notice offers it as a file) and the scene opens without it,
 * and without the link or lesson in the address. If it can't be set aside, nothing is removed. */
function startFresh(button) {
  const key = button.dataset.key;
  try {
    const text = localStorage.getItem(key);
    if (text !== null) localStorage.setItem(`${key}.unreadable`, text);
    localStorage.removeItem(key);
    sessionStorage.setItem('rowflow.fresh', key);
    sessionStorage.removeItem('rowflow.crashed');
  } catch (error) {
    button.parentElement.querySelector('[role=status]').textContent = t('crash-not-set-aside', { error: error.name });
    return;
  }
  history.replaceState(null, '', route() || '#/');
  location.reload();
}

/** Everything rowflow keeps in this browser, as one JSON file. */
function downloadSavedWork() {
  const saved = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith('rowflow.')) saved[key] = localStorage.getItem(key);
  }
  const blob = new Blob([JSON.stringify(saved, null, 1)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = 'rowflow-saved-work.json';
  a.click();
  URL.revokeObjectURL(a.href);
}

/** Offline: sw.js keeps every file of this release in the browser after one visit, so a reload
 * with no network opens every route. A new release arrives in the background and waits: the
 * notice offers it, hidden while a lesson is on show, and Reload takes it only while the work on
 * screen is saved (no save notice), then reloads into it. A browser that refuses the worker (a
 * private window, storage off) simply works online. */
function offline() {
  if (!('serviceWorker' in navigator)) return;
  const notice = document.querySelector('.update-notice');
  const [said, reload] = [notice.querySelector('span'), notice.querySelector('button')];
  const main = document.querySelector('main');
  let waiting = null;
  let taken = false;
  const show = () => (notice.hidden = !waiting || main.querySelector('.lesson') !== null);
  const lessons = new MutationObserver(show);
  const offer = (worker) => {
    waiting = worker;
    lessons.observe(main, { childList: true, subtree: true });
    show();
  };
  reload.addEventListener('click', () => {
    if (document.querySelector('.save-notice')) {
      said.textContent = t('update-unsaved');
      return;
    }
    taken = true;
    waiting.postMessage('take-new-version');
  });
  navigator.serviceWorker.addEventListener('controllerchange', () => taken && location.reload());
  navigator.serviceWorker.register('sw.js').then(
    (registration) => {
      // A browser told to run no worker may answer with none (Playwright's `serviceWorkers: 'block'`).
      if (!registration) return;
      // Only an update has a worker in charge already; the first one just installs.
      const update = (worker) => worker && navigator.serviceWorker.controller && offer(worker);
      update(registration.waiting);
      registration.addEventListener('updatefound', () => {
        const worker = registration.installing;
        worker?.addEventListener('statechange', () => worker.state === 'installed' && update(worker));
      });
    },
    () => {},
  );
}

/** Each scene's parts of the WebAssembly (index.html's `rowflow-parts`, written by
 * tools/split.mjs), read once: the pointer asks on every link it crosses. */
const sceneParts = JSON.parse(meta('rowflow-parts') ?? '{}');
/** The parts of the WebAssembly a route's scene needs, as absolute URLs (the loader's keys): with
 * its part on demand (src/more.rs) when the app reads that before drawing the scene, for a link's
 * scene, a lesson or a save in this browser. */
function partsOf(hash) {
  const scene = sceneOf(hash);
  const params = new URLSearchParams(hash.split('?')[1] ?? '');
  const more = params.has('s') || params.has('lesson') || hasSave(scene) ? [`${scene}_more`] : [];
  const names = [scene, ...more].filter((name) => Object.hasOwn(sceneParts, name));
  return names.flatMap((name) => sceneParts[name]).map((href) => new URL(href, location.href).href);
}

/** Whether this browser keeps a save of `scene` (src/storage.rs's key). */
function hasSave(scene) {
  try {
    return localStorage.getItem(`rowflow.${scene}`) !== null;
  } catch {
    return false;
  }
}

/** The scene a visit opens: its parts are preloaded beside the app's main module, which compiles
 * meanwhile (compiling them too at that moment measured slower here, and Lighthouse's blocking
 * time longer); the app's loader takes the bytes from the preload. */
function preloadParts() {
  for (const href of partsOf(location.hash)) {
    compiled.set(href, null);
    document.head.append(Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', crossOrigin: 'anonymous', href }));
  }
}

/** A scene whose link is under the pointer or the keyboard's focus, likely next: its parts are
 * fetched and compiled while the learner decides, and the app's loader instantiates what is
 * here (`rowflowParts`, by URL; tools/split.mjs patches the loader to look, and to mark what it
 * took with `null`, so a part is never fetched or compiled twice). A part that failed is
 * forgotten, so the loader fetches it itself. */
const compiled = (globalThis.rowflowParts = new Map());
function compileParts(hash) {
  for (const url of partsOf(hash)) {
    if (compiled.has(url)) continue;
    const module = WebAssembly.compileStreaming(fetch(url));
    module.catch(() => compiled.get(url) === module && compiled.delete(url));
    compiled.set(url, module);
  }
}

// `(func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)`: the smallest module that uses the
// SIMD instructions rowflow's WebAssembly is built with.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

try {
  if (typeof WebAssembly !== 'object') throw new Error('this browser has no WebAssembly');
  if (!WebAssembly.validate(SIMD_PROBE)) throw new Error('this browser lacks WebAssembly SIMD');
  // The start page, or the scene's preview, paints before the WebAssembly downloads and compiles
  // (one frame; else a fast load could draw the scene over a preview never seen).
  await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted)));
  preloadParts();
  for (const type of ['pointerover', 'focusin']) {
    addEventListener(type, (event) => {
      const link = event.target.closest?.('a[href^="#/"]');
      if (!link) return;
      compileParts(link.getAttribute('href'));
      sceneFiles(link.getAttribute('href'));
    });
  }
  const [{ default: init }] = await Promise.all([import(meta('rowflow-js')), messagesReady]);
  await init({ module_or_path: meta('rowflow-wasm') });
  // After the page's own downloads: the rest of the release comes after them.
  if (document.readyState === 'complete') offline();
  else addEventListener('load', offline, { once: true });
} catch (error) {
  // Before the app runs there is no crash page yet: say what happened in plain words.
  if (!document.querySelector('main.crash')) {
    const p = document.createElement('p');
    p.className = 'boot-error';
    p.setAttribute('role', 'alert');
    p.textContent = t('boot-error', { error: String(error) });
    if (!bundle) p.textContent = `rowflow could not start in this browser (${error}).`;
    document.body.replaceChildren(p);
  }
  throw error;
}
