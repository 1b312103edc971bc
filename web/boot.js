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
// evaluates it, and the parsers only read it; and the page runs a script
// only once a Web Worker with the same engine has checked it (below).
import { modules } from './modules.js';

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

// The script edition's modules (web/modules.js), and the sandbox's check
// of a script before the page runs it (src/script/sandbox.rs): the edition
// asks for a program's check (`ask`), waits for `load('sandbox')`, then
// reads its `verdict`. The checks run in a Web Worker (web/sandbox.js);
// one that stops beating for SILENCE_MS is terminated, and its verdict
// says so.
const SILENCE_MS = 1500;
const verdicts = new Map();
const asked = new Map();
let sandbox = null;
let early = null;

function startSandbox() {
  const worker = new Worker(new URL('sandbox.js', base), { type: 'module' });
  const pending = new Map();
  let next = 0;
  let watchdog = null;
  const quiet = () => {
    clearTimeout(watchdog);
    watchdog = pending.size ? setTimeout(stop, SILENCE_MS) : null;
  };
  const stop = () => {
    worker.terminate();
    sandbox = null;
    for (const answer of pending.values()) {
      answer(
        'the script ran for over 1.5 s in one go in the page\'s sandbox without finishing a step ' +
          '(an endless loop, or memory filling up?): it was stopped there, and the page does not ' +
          'run it (interleave run --script does, with its budgets)'
      );
    }
    pending.clear();
  };
  worker.onmessage = ({ data }) => {
    if (data.id !== undefined) {
      verdicts.set(data.key, data.verdict);
      pending.get(data.id)?.(data.verdict);
      pending.delete(data.id);
    }
    if (data.spent) {
      worker.terminate();
      sandbox = null;
    }
    quiet();
  };
  // The worker could not start (or failed outside a check): no verdict
  // against the script, and the next check starts another.
  worker.onerror = (event) => {
    event.preventDefault();
    worker.terminate();
    sandbox = null;
    for (const answer of pending.values()) answer('ok');
    pending.clear();
    quiet();
  };
  return {
    check(fragment) {
      return new Promise((answer) => {
        const id = next++;
        pending.set(id, answer);
        worker.postMessage({ id, fragment });
        // The worker's first check waits for its wasm, as the page's did:
        // the watchdog starts with the first beat.
        if (pending.size === 1 && watchdog === null) watchdog = setTimeout(stop, 30000);
      });
    },
  };
}

const pageModules = modules(base);
globalThis.interleaveModules = {
  ...pageModules,
  load(name) {
    if (name !== 'sandbox') return pageModules.load(name);
    return (async () => {
      // The link's own check, started as the page loaded, may answer it.
      await early;
      // Until none is left: an edit may ask while a check runs.
      while (asked.size) {
        const [key, fragment] = asked.entries().next().value;
        asked.delete(key);
        if (verdicts.has(key)) continue;
        sandbox ??= startSandbox();
        verdicts.set(key, await sandbox.check(fragment));
      }
    })();
  },
  loaded(name) {
    return name === 'sandbox' ? asked.size === 0 : pageModules.loaded(name);
  },
  // `ok`, a refusal, or '' while the program has not been checked.
  verdict(key) {
    return verdicts.get(key) ?? '';
  },
  ask(key, fragment) {
    asked.set(key, fragment);
  },
};

async function startScriptEdition() {
  const line = status('Loading the JavaScript engine…');
  const started = performance.now();
  // The sandbox's worker loads the same engine meanwhile and checks the
  // link's script, so the page's first run need not wait for it.
  sandbox ??= startSandbox();
  if (wantsScript()) early = sandbox.check(location.hash.slice(1)).catch(() => {});
  try {
    const editor = import(new URL('editor/load.js', base).href);
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
