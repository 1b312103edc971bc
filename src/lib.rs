//! Interleave: a deterministic simulation of async backends on a JavaScript-like
//! event loop, and the playground that draws it.

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod debugger;
pub mod explain;
// The page's state (the debugger, explain and explore together), with no
// web dependency: the app draws it.
pub mod model;
// What the page knows of scripts without their engine (names, links).
#[cfg(not(target_arch = "wasm32"))]
pub mod real;
pub mod script_links;
pub mod story_links;
// The script engine (QuickJS-ng): native with `script` (default), and in
// the page's script worker (`script-wasm`); the page leaves it out.
#[cfg(scripts)]
pub mod script;
// The script worker's parsers: linked natively, modules of their own in
// the browser (src/script/modules.rs).
#[cfg(any(scripts, feature = "analysis"))]
pub mod analysis;
#[cfg(any(scripts, feature = "typescript", feature = "sql", feature = "analysis"))]
pub mod boundary;
#[cfg(any(scripts, feature = "typescript"))]
pub mod typescript;
// SQL as data, and its parser: linked natively, a module of its own in
// the browser.
#[cfg(any(scripts, feature = "sql"))]
pub mod sql;

// The engine, under the names the rest of the crate uses.
pub use engine::{config, explore, interned, order, run, scenario, sim, strategy, world, Config};

/// In the browser, talc instead of dlmalloc: about 2 KB less of the page's
/// budgeted wasm, and faster (the script engine allocates through it too).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
pub use engine::{Metrics, Sim};
