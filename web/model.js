// The page's model in a Web Worker (src/bin/interleave-model.rs): the page
// (src/app/remote.rs) posts `{ open: hash, refused }` once, then requests
// as bytes. Started as `model.js`, it runs the stories' model; as
// `model.js?script`, the same model with the JavaScript engine
// (`interleave-script-model`), which also loads the script's parser
// modules (web/modules.js) when a run asks for one.
//
// It answers each request, `{ answer, busy }` with the reply's bytes (a
// frame or a file; empty when nothing changed), and runs the model's work
// in chunks of its own, each followed by `{ frame, busy }`. A frame or an
// answer has a number `n`; after one, the next chunk waits for the page's
// `{ drawn: n }` (DRAW_WAIT_MS). `busy` says
// that more work follows; while it does, a message comes at least every
// BEAT_MS, so the page can tell a worker held by a runaway script (which
// it terminates) from one at work. Before a script runs, the model says
// which (`{ running: fragment }`, src/script/guard.rs). A failure of the
// wasm itself (a stack the worker's thread cannot hold) is `{ crashed }`.
const CHUNK_MS = 16;
const BEAT_MS = 250;
// After a frame, the next chunk waits until the page says it drew it
// (`{ drawn: n }`, src/app/remote.rs), or this long at most: on a
// machine of two cores, a chunk run while the page draws a run's first
// frame made that draw's task two to ten times longer.
const DRAW_WAIT_MS = 100;
// The wait for that word (a timer), while there is one, and the number of
// the last frame or answer posted: the page's word names the one it drew,
// so a word for an earlier one ends no wait.
let drawing = null;
let posted = 0;

const base = new URL('.', import.meta.url);
const name = new URL(import.meta.url).search === '?script' ? 'interleave-script-model' : 'interleave-model';
// The model's wasm, its JS and the modules' loader are fetched at once,
// not each after the one that names it.
const wasm = fetch(new URL(`script/${name}_bg.wasm`, base));
wasm.catch(() => {});
const glue = import(new URL(`script/${name}.js`, base).href);
const helpers = import('./modules.js');
const waiting = [];
let model = null;
let loaded = false;
// Set once the model's wasm is ready: what loads the modules the page's
// first run will ask for (below).
let preload = null;
self.onmessage = ({ data }) => {
  if (data?.drawn !== undefined) {
    if (data.drawn >= posted) drew();
    return;
  }
  waiting.push(data);
  if (data?.open !== undefined) preload?.(data.open);
  if (loaded) serve();
};

globalThis.interleaveGuard = {
  running(fragment) {
    postMessage({ running: fragment });
  },
};

globalThis.interleaveModules = (await helpers).modules(base);
const { default: init, Model, loadEngine, modulesFor } = await glue;
await init({ module_or_path: wasm });
// The modules the page's first run will ask for (a schema, or code that
// names `pg`: the SQL parser) load beside the engine's, not after them:
// now, or when the page's first message comes, if it has not yet.
// One that fails here is asked for again when the run waits for it, and
// that failure is the one the page shows.
if (modulesFor) {
  preload = (hash) => {
    preload = null;
    for (const wanted of modulesFor(hash)) {
      globalThis.interleaveModules.load(wanted).catch(() => {});
    }
  };
  const opening = waiting.find((data) => data?.open !== undefined);
  if (opening) preload(opening.open);
}
// The script worker's JavaScript engine: wasm modules of their own
// (src/debugger/program/engine.rs), loaded before the model opens.
// One that does not load stops the worker, saying why; the model never opens.
let engineError = null;
if (loadEngine) {
  try {
    await loadEngine();
  } catch (error) {
    engineError = String(error?.message ?? error);
    postMessage({ panic: engineError });
  }
}
loaded = engineError === null;

let lastPost = 0;
function post(message, bytes) {
  message.busy = Boolean(model?.hasWork());
  lastPost = Date.now();
  if (bytes?.length) {
    posted += 1;
    message.n = posted;
    // When it was posted, on the clock the page reads too (e2e/page.mjs).
    message.at = performance.timeOrigin + performance.now();
    postMessage(message, [bytes.buffer]);
    clearTimeout(drawing);
    drawing = setTimeout(drew, DRAW_WAIT_MS);
  } else postMessage(message);
}

// A call into the model; if the wasm itself fails, the model is gone.
function call(run) {
  try {
    return run();
  } catch (error) {
    model = null;
    postMessage({ crashed: String(error?.message ?? error) });
    return null;
  }
}

// The next chunk, in the next task (a message to ourselves: no timer clamp).
const chunks = new MessageChannel();
let scheduled = false;
chunks.port1.onmessage = () => {
  scheduled = false;
  // A frame or an answer posted since this chunk was asked for: it waits
  // for the page's word too (`drew` asks again).
  if (drawing !== null || !model?.hasWork()) return;
  const frame = call(() => model.work(Date.now() + CHUNK_MS));
  if (frame === null) return;
  if (frame.length) post({ frame }, frame);
  else if (!model.hasWork() || Date.now() - lastPost >= BEAT_MS) post({});
  goOn();
};

// The page drew the last frame (or took too long to say so).
function drew() {
  if (drawing === null) return;
  clearTimeout(drawing);
  drawing = null;
  goOn();
}

// A module the model waits for loads, and the model goes on.
let fetching = null;
function goOn() {
  const wanted = model && call(() => model.fetching());
  if (wanted && fetching !== wanted) {
    fetching = wanted;
    const loading = globalThis.interleaveModules.load(wanted);
    const done = (error) => {
      fetching = null;
      if (!model) return;
      const frame = call(() => model.moduleLoaded(error));
      if (frame?.length) post({ frame }, frame);
      goOn();
    };
    loading.then(() => done(undefined), (error) => done(String(error?.message ?? error)));
  }
  if (scheduled || drawing !== null || !model?.hasWork()) return;
  scheduled = true;
  chunks.port2.postMessage(null);
}

function serve() {
  for (const data of waiting.splice(0)) {
    if (data?.open !== undefined) {
      model = call(() => new Model(data.open, data.refused ?? undefined));
      const first = model && call(() => model.first());
      if (first) post({ frame: first }, first);
    } else if (model && data instanceof Uint8Array) {
      const answer = call(() => model.request(data));
      if (answer !== null) post({ answer }, answer);
    }
  }
  goOn();
}
if (loaded) serve();
