// The page's model in a Web Worker (src/bin/interleave-model.rs): the page
// (src/app/remote.rs) posts `{ open: hash }` once, then requests as bytes.
// This answers each, `{ answer }` with the reply's bytes (a frame or a
// file; none when nothing changed), and runs the model's work in chunks of
// its own, each followed by its frame, as bytes. Requests wait while a
// chunk runs, so a chunk stays short (CHUNK_MS).
const CHUNK_MS = 16;

const base = new URL('.', import.meta.url);
const waiting = [];
let model = null;
let loaded = false;
self.onmessage = ({ data }) => {
  waiting.push(data);
  if (loaded) serve();
};

const { default: init, Model } = await import(new URL('script/interleave-model.js', base).href);
await init({ module_or_path: new URL('script/interleave-model_bg.wasm', base).href });
loaded = true;

function reply(bytes) {
  if (bytes.length) postMessage(bytes, [bytes.buffer]);
}

// The next chunk, in the next task (a message to ourselves: no timer clamp).
const chunks = new MessageChannel();
let scheduled = false;
chunks.port1.onmessage = () => {
  scheduled = false;
  if (!model?.hasWork()) return;
  reply(model.work(Date.now() + CHUNK_MS));
  schedule();
};
function schedule() {
  if (scheduled || !model?.hasWork()) return;
  scheduled = true;
  chunks.port2.postMessage(null);
}

function serve() {
  for (const data of waiting.splice(0)) {
    if (data?.open !== undefined) {
      model = new Model(data.open);
      reply(model.first());
    } else if (model && data instanceof Uint8Array) {
      const answer = model.request(data);
      postMessage({ answer }, [answer.buffer]);
    }
  }
  schedule();
}
serve();
