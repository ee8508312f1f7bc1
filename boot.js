// Starts rowflow under its Content-Security-Policy, which allows no inline script: Trunk.toml's
// `pattern_script` leaves the names of the app's two files in <meta> tags instead of Trunk's
// inline start-up, and this file loads them. It also serves the buttons of the page shown after
// a crash (src/crash.rs), which must work when the WebAssembly can no longer run.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content;

document.addEventListener('click', (event) => {
  const action = event.target.closest?.('[data-crash-action]')?.dataset.crashAction;
  if (action === 'reload') location.reload();
  if (action === 'download') downloadSavedWork();
});

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

try {
  const { default: init } = await import(meta('rowflow-js'));
  await init({ module_or_path: meta('rowflow-wasm') });
} catch (error) {
  // Before the app runs there is no crash page yet: say what happened in plain words.
  if (!document.querySelector('main.crash')) {
    const p = document.createElement('p');
    p.className = 'boot-error';
    p.setAttribute('role', 'alert');
    p.textContent = `rowflow could not start in this browser (${error}). It needs a browser with WebAssembly, such as a recent Chrome, Firefox, Edge or Safari.`;
    document.body.replaceChildren(p);
  }
  throw error;
}
