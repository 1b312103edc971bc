// Starts the app. Trunk's own loader is an inline script, which the page's
// Content-Security-Policy forbids; Trunk.toml's `pattern_script` emits this
// module instead, with the (hashed) names of the wasm-bindgen JS and the wasm.
//
// The page is one app (`interleave-web`): it draws, and its model runs in a
// Web Worker (web/model.js), which the page starts with the JavaScript
// engine when a script opens (src/app/remote.rs). A script's code runs
// only there: nothing on the page evaluates it. The page's code editor,
// the <js-editor> element (scripts/build-editor.sh), loads here the first
// time the address asks for a script; until then the element is an empty
// box, which the browser upgrades when its definition arrives.
const script = document.querySelector('script[data-js][data-wasm]');
const base = new URL('.', new URL(script.dataset.js, location.href));
const wantsScript = () => /(^#|&)scenario=script(&|$)/.test(location.hash);

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
