//! Scripted scenarios (SCRIPTING.md): a person's own JavaScript handler,
//! run by a conforming engine (boa) on the simulated world, through the
//! same event loop, latencies, pool, strategies, trace and metrics as the
//! built-in stories. No web dependency.

pub mod analysis;
pub mod cli;
pub mod error;
pub mod explore;
pub mod gc;
pub mod globals;
pub mod host;
pub mod jobs;
pub mod metered;
pub mod run;
pub mod source;
pub mod world;

pub use error::ScriptError;
pub use run::ScriptRun;
