// Starts the app. Trunk's own loader is an inline script, which the page's
// Content-Security-Policy forbids; Trunk.toml's `pattern_script` emits this
// module instead, with the (hashed) names of the wasm-bindgen JS and the wasm.
const script = document.querySelector('script[data-js][data-wasm]');
const { default: init } = await import(script.dataset.js);
await init({ module_or_path: script.dataset.wasm });
