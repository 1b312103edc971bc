// Starts the app. Trunk's own loader is an inline script, which the page's
// Content-Security-Policy forbids; Trunk.toml's `pattern_script` emits this
// module instead, with the (hashed) names of the wasm-bindgen JS and the wasm.
//
// Two editions of the app exist. The page's own (`interleave-web`) has no
// JavaScript engine and stays small. The script edition (the same app with
// the engine, `scripts/build-script-edition.sh`) loads only when the address
// asks for a script scenario. Opening one from the small edition takes that
// edition down (its exported `stop`) and starts the script edition in the
// same page, with no reload; the script edition shows stories too, so it
// keeps the page from then on. Its parsers (TypeScript's stripper, the SQL
// parser, explore's analysis) are wasm modules of their own, which
// `interleaveModules` below loads when a script needs them. The script
// edition's code runs only inside that engine's sandbox: nothing here
// evaluates it, and the parsers only read it.
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

// The script edition's modules of their own (src/script/modules.rs),
// loaded on first use: `script/interleave-NAME.js` and its wasm. The
// edition calls a module synchronously once `load(NAME)` has resolved.
const MODULES = ['typescript', 'sql', 'analysis'];
const loading = {};
const ready = {};
globalThis.interleaveModules = {
  load(name) {
    if (!MODULES.includes(name)) return Promise.reject(new Error(`no module ${name}`));
    loading[name] ??= (async () => {
      const url = (file) => new URL(`script/interleave-${name}${file}`, base).href;
      const module = await import(url('.js'));
      await module.default({ module_or_path: url('_bg.wasm') });
      ready[name] = module;
    })().catch((error) => {
      delete loading[name];
      throw error;
    });
    return loading[name];
  },
  loaded(name) {
    return Boolean(ready[name]);
  },
  // Each answers `null` until its module has loaded.
  stripTypes(code) {
    return ready.typescript ? ready.typescript.stripTypes(code) : null;
  },
  sqlParse(text) {
    return ready.sql ? ready.sql.sqlParse(text) : null;
  },
  sqlSchema(text) {
    return ready.sql ? ready.sql.sqlSchema(text) : null;
  },
  moduleState(question) {
    return ready.analysis ? ready.analysis.moduleState(question) : null;
  },
};

async function startScriptEdition() {
  const line = status('Loading the JavaScript engine…');
  const started = performance.now();
  try {
    const editor = import(new URL('editor.js', base).href);
    const { default: init } = await import(new URL('script/interleave-script-web.js', base).href);
    await init({ module_or_path: new URL('script/interleave-script-web_bg.wasm', base).href });
    await editor;
    line.remove();
    // Someone about to type may soon leave code that is not JavaScript
    // (a typo, or TypeScript), which asks for the stripper: fetch it as
    // the editor takes the focus, not after the pause in typing.
    document.addEventListener('focusin', function prefetch(event) {
      if (!event.target.closest?.('js-editor')) return;
      document.removeEventListener('focusin', prefetch);
      globalThis.interleaveModules.load('typescript').catch(() => {});
    });
    window.interleaveEngineMs = performance.now() - started;
  } catch (error) {
    status(`The JavaScript engine did not load (${error}). Reload the page to try again.`)
      .classList.add('error');
  }
}

if (wantsScript()) {
  await startScriptEdition();
} else {
  const page = await import(script.dataset.js);
  // Registered before the app's own listener, so a script scenario never
  // reaches the edition that cannot run it.
  const toScripts = (event) => {
    if (!wantsScript()) return;
    event.stopImmediatePropagation();
    window.removeEventListener('hashchange', toScripts);
    page.stop();
    // A fresh root: the small edition's DOM goes with it.
    const root = document.getElementById('app');
    const fresh = document.createElement('main');
    fresh.id = 'app';
    root.replaceWith(fresh);
    startScriptEdition();
  };
  window.addEventListener('hashchange', toScripts);
  await page.default({ module_or_path: script.dataset.wasm });
}
