//! Interleave: a deterministic simulation of async backends on a JavaScript-like
//! event loop, and the playground that draws it.

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod debugger;
pub mod explain;
#[cfg(not(target_arch = "wasm32"))]
pub mod real;
// The script engine: native with `script` (default); in wasm only with
// `script-wasm`, whose boa comes through crates/boa-wasm (the page's build
// leaves it out).
#[cfg(scripts)]
pub mod script;
#[cfg(all(feature = "script-wasm", target_arch = "wasm32"))]
extern crate boa_engine_wasm as boa_engine;

// The engine, under the names the rest of the crate uses.
pub use engine::{config, explore, order, run, scenario, sim, strategy, world, Config};

/// In the browser, talc instead of dlmalloc: about 2 KB less of the page's
/// budgeted wasm, and faster. (The script edition's, metered, is in
/// `script::metered`.)
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics"), not(scripts)))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
pub use engine::{Metrics, Sim};
