//! Interleave's engine: a deterministic simulation of async backends on a
//! JavaScript-like event loop. Configuration and its URL format
//! (`config`), the event loop (`sim`), the simulated servers (`world`), the
//! lock strategies (`strategy`), the stories (`scenario`), the run every mode steps and
//! the schedule it follows (`run`), and the search of schedules
//! (`explore`).
//!
//! Nothing here knows of the debugger, scripts, real servers or the page:
//! they stand on this crate, and Cargo keeps imports from running up.

pub mod code;
pub mod config;
pub mod explore;
pub mod interned;
pub mod order;
pub mod run;
pub mod scenario;
pub mod sim;
pub mod strategy;
pub mod world;

pub use config::Config;
pub use sim::{Metrics, Sim};
