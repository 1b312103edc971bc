// Starts the app. Trunk's own loader is an inline script, which the page's
// Content-Security-Policy forbids; Trunk.toml's `pattern_script` emits this
// module instead, with the (hashed) names of the wasm-bindgen JS and the wasm.
//
// Two editions of the app exist. The page's own (`interleave-web`) has no
// JavaScript engine and stays small. The script edition (the same app with
// the engine, `scripts/build-script-edition.sh`) loads only when the address
// asks for a script scenario; opening one from the small edition reloads
// the page into it. The script edition's code runs only inside that
// engine's sandbox: nothing here evaluates it.
const script = document.querySelector('script[data-js][data-wasm]');
const base = new URL('.', new URL(script.dataset.js, location.href));
const wantsScript = () => /(^#|&)scenario=script(&|$)/.test(location.hash);

function status(text) {
  let line = document.getElementById('boot-status');
  if (!line) {
    line = document.createElement('p');
    line.id = 'boot-status';
    line.className = 'boot-status';
    line.setAttribute('role', 'status');
    line.dataset.testid = 'engine-loading';
    document.body.prepend(line);
  }
  line.textContent = text;
  return line;
}

if (wantsScript()) {
  const line = status('Loading the JavaScript engine…');
  const started = performance.now();
  try {
    const editor = import(new URL('editor.js', base).href);
    const { default: init } = await import(new URL('script/interleave-script-web.js', base).href);
    await init({ module_or_path: new URL('script/interleave-script-web_bg.wasm', base).href });
    await editor;
    line.remove();
    window.interleaveEngineMs = performance.now() - started;
  } catch (error) {
    status(`The JavaScript engine did not load (${error}). Reload the page to try again.`)
      .classList.add('error');
  }
} else {
  const { default: init } = await import(script.dataset.js);
  await init({ module_or_path: script.dataset.wasm });
  // A script scenario opened from this edition: load the one with the engine.
  window.addEventListener('hashchange', () => {
    if (wantsScript()) {
      status('Loading the JavaScript engine…');
      location.reload();
    }
  });
}
