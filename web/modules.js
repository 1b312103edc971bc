// The script worker's modules of their own (src/script/modules.rs),
// loaded on first use: `script/interleave-NAME.js` and its wasm. The
// worker's model calls a module synchronously once `load(NAME)` has
// resolved. web/model.js installs them as `interleaveModules`.
const MODULES = ['typescript', 'sql', 'analysis'];

export function modules(base) {
  const loading = {};
  const ready = {};
  return {
    load(name) {
      if (!MODULES.includes(name)) return Promise.reject(new Error(`no module ${name}`));
      loading[name] ??= (async () => {
        const url = (file) => new URL(`script/interleave-${name}${file}`, base).href;
        // The wasm is fetched beside its JS, not after it.
        const wasm = fetch(url('_bg.wasm'));
        wasm.catch(() => {});
        const module = await import(url('.js'));
        await module.default({ module_or_path: wasm });
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
    // Each answers `null` until its module has loaded; a question and an
    // answer are postcard's bytes (src/boundary.rs), handed on as they are.
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
}
