// The sandbox (src/script/sandbox.rs): a Web Worker that runs a person's
// script with the same engine before the page runs it on its own thread.
// It loads the script edition's wasm (the page's own copy, from the
// browser's cache) and its modules, and answers each `{ id, fragment }`
// with `{ id, key, verdict }`: where the page files the check, and `ok`
// or why the page must not run it. While it
// runs, it posts `{ beat }` every 50 ms or so: the page terminates a
// worker that stops beating (a step that never ends), which is what keeps
// a runaway script from freezing the tab.
import { modules } from './modules.js';

const base = new URL('.', import.meta.url);
globalThis.interleaveModules = modules(base);
const edition = (async () => {
  const edition = await import(new URL('script/interleave-script-web.js', base).href);
  await edition.default({ module_or_path: new URL('script/interleave-script-web_bg.wasm', base).href });
  return edition;
})();
const WAITS = /\(the page's module `(\w+)` is not loaded yet\)$/;

self.onmessage = async ({ data: { id, fragment } }) => {
  const { vet_script, vet_key } = await edition;
  const key = vet_key(fragment);
  let last = 0;
  const now = () => {
    const time = performance.now();
    if (time - last > 50) {
      last = time;
      postMessage({ beat: time });
    }
    return time;
  };
  let verdict = 'ok';
  try {
    // A script that needs a module (TypeScript's stripper, the SQL parser)
    // asks again once the worker has loaded it.
    for (let tries = 0; tries < 4; tries += 1) {
      postMessage({ beat: performance.now() });
      verdict = vet_script(fragment, now);
      const waits = WAITS.exec(verdict);
      if (!waits) break;
      await globalThis.interleaveModules.load(waits[1]);
      verdict = 'ok';
    }
  } catch {
    // The worker itself gave out (its thread's stack is smaller than the
    // page's: deep recursion that the page's engine stops with a
    // RangeError, as Node does, can overflow it): no verdict against the
    // script, and this worker's engine is not used again.
    postMessage({ id, key, verdict: 'ok', spent: true });
    return;
  }
  postMessage({ id, key, verdict });
};
