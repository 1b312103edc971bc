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
// box, which the browser upgrades when its definition arrives. It shows
// the code plain, and loads CodeMirror itself when the person clicks or
// tabs into the code (web/editor/README.md).
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
early.worker.onmessage = ({ data }) => {
  early.messages.push(data);
  // Nothing is drawn yet: the worker need not wait for the page to draw.
  if (data?.n !== undefined) early.worker.postMessage({ drawn: data.n });
};
early.worker.onerror = (event) => {
  event.preventDefault();
  early.error = event.message || 'it did not load';
};
early.worker.postMessage({ open: early.hash });
globalThis.interleaveEarlyWorker = early;

// Every font strike the page draws (a family at a size, a weight and a
// style, as CSS `font` values), laid out once now, a few to a task, while
// the page's wasm and the worker load, before the app's first draw. The
// first layout of a strike asks the browser process how to render it,
// over a synchronous call (Chromium on Linux); made in the page's first
// draws, while the worker compiles on the other core, those calls took 3
// to 25 ms each and were most of the page's long tasks (docs/debugger.md).
// e2e/page.mjs checks that a story and a script draw no strike this list
// lacks.
const FONT_STRIKES = [
  'var(--text-xs) var(--sans)',
  'var(--text-s) var(--sans)',
  '600 var(--text-s) var(--sans)',
  'var(--text-m) var(--sans)',
  '600 var(--text-m) var(--sans)',
  '600 var(--text-l) var(--sans)',
  '1rem var(--sans)',
  '600 1rem var(--sans)',
  '600 var(--text-xl) var(--sans)',
  'var(--text-2xs) var(--mono)',
  // A violation's lane on a phone.
  '600 var(--text-2xs) var(--mono)',
  'var(--text-xs) var(--mono)',
  '600 var(--text-xs) var(--mono)',
  'var(--text-s) var(--mono)',
  // The code editor's comments and keywords.
  'italic var(--text-s) var(--mono)',
  '700 var(--text-s) var(--mono)',
  'var(--text-m) var(--mono)',
  '600 var(--text-m) var(--mono)',
  '1rem var(--mono)',
  '600 1rem var(--mono)',
  '600 var(--text-xl) var(--mono)',
];
globalThis.interleaveFontStrikes = FONT_STRIKES;
// Three to a task: while the worker compiles on the other core, one strike
// can take 5 ms, and seven to a task made tasks of up to 36 ms.
const STRIKES_A_TASK = 3;
// The next task, without the 4 ms that nested timers wait.
const nextTask = () =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
(async () => {
  const app = document.getElementById('app');
  const box = document.createElement('div');
  box.className = 'font-strikes';
  box.setAttribute('aria-hidden', 'true');
  document.body.append(box);
  for (let at = 0; at < FONT_STRIKES.length; at += STRIKES_A_TASK) {
    // Once the app has drawn, its own layout is pending: forcing one here
    // would lay it out too, in this task. The strikes left are laid out
    // with it.
    if (app?.childElementCount) break;
    for (const font of FONT_STRIKES.slice(at, at + STRIKES_A_TASK)) {
      const text = document.createElement('span');
      // The CSSOM, not a style attribute: the page's CSP allows it.
      text.style.font = font;
      text.textContent = 'Ag';
      box.append(text);
    }
    void box.offsetWidth;
    await nextTask();
  }
  box.remove();
})();

let editor = null;
function loadEditor() {
  if (editor || !wantsScript()) return;
  window.removeEventListener('hashchange', loadEditor);
  editor = import(new URL('editor/element.js', base).href).catch((error) => {
    console.error(`the code editor did not load: ${error}`);
  });
}
window.addEventListener('hashchange', loadEditor);
loadEditor();

const page = await import(script.dataset.js);
await page.default({ module_or_path: script.dataset.wasm });
