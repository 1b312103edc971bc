//! Scripted scenarios (SCRIPTING.md): a person's own JavaScript handler,
//! run by a conforming engine (QuickJS-ng) on the simulated world, through the
//! same event loop, latencies, pool, strategies, trace and metrics as the
//! built-in stories. No web dependency.

pub mod analysis;
pub mod call;
pub mod cli;
pub mod context;
pub mod error;
pub mod explore;
pub mod glob;
pub mod globals;
pub mod guard;
pub mod host;
pub mod long_double;
pub mod memory;
pub mod mirror;
pub mod modules;
mod prelude;
pub mod run;
pub mod source;
pub mod split;
pub mod sql;
pub mod typescript;
pub mod world;

pub use error::ScriptError;
pub use run::ScriptRun;

/// The one function QuickJS's wasm build imports (rquickjs-sys's shim:
/// microseconds since the epoch, for its own `Date`). A script's clock is
/// the simulation's (the prelude's `Date`, `performance.now`), so the
/// engine's own is never read; defining it here leaves the module with no
/// import outside wasm-bindgen's.
#[cfg(target_arch = "wasm32")]
#[unsafe(no_mangle)]
pub extern "C" fn __rquickjs_host_now_us() -> f64 {
    0.0
}
