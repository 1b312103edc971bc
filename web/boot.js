// Starts the app. Trunk's own loader is an inline script, which the page's
// Content-Security-Policy forbids; Trunk.toml's `pattern_script` emits this
// module instead, with the (hashed) names of the wasm-bindgen JS and the wasm.
//
// The page is one app (`interleave-web`): it draws, and its model runs in a
// Web Worker (web/model.js), with the JavaScript engine when a script opens
// (src/app/remote.rs); the first starts here. A script's code runs
// only there: nothing on the page evaluates it. The page's code editor,
// the <js-editor> element (scripts/build-editor.sh), loads here the first
// time the address asks for a script; until then the element is an empty
// box, which the browser upgrades when its definition arrives.
const script = document.querySelector('script[data-js][data-wasm]');
const base = new URL('.', new URL(script.dataset.js, location.href));
const wantsScript = () => /(^#|&)scenario=script(&|$)/.test(location.hash);

// The model's worker starts now, beside the page's own wasm (its download
// and compile overlap the page's): src/app/remote.rs adopts it, with the
// messages it sent meanwhile, when the app opens on this same address.
const early = {
  hash: location.hash,
  worker: new Worker(new URL(wantsScript() ? 'model.js?script' : 'model.js', base), { type: 'module' }),
  messages: [],
  error: null,
};
early.worker.onmessage = ({ data }) => early.messages.push(data);
early.worker.onerror = (event) => {
  event.preventDefault();
  early.error = event.message || 'it did not load';
};
early.worker.postMessage({ open: early.hash });
globalThis.interleaveEarlyWorker = early;

let editor = null;
function loadEditor() {
  if (editor || !wantsScript()) return;
  window.removeEventListener('hashchange', loadEditor);
  editor = import(new URL('editor/load.js', base).href).catch((error) => {
    console.error(`the code editor did not load: ${error}`);
  });
}
window.addEventListener('hashchange', loadEditor);
loadEditor();

const page = await import(script.dataset.js);
await page.default({ module_or_path: script.dataset.wasm });
