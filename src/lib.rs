//! Interleave: a deterministic simulation of async backends on a JavaScript-like
//! event loop, and the playground that draws it.

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod config;
pub mod debugger;
pub mod explain;
pub mod explore;
#[cfg(not(target_arch = "wasm32"))]
pub mod real;
pub mod scenario;
#[cfg(all(feature = "script", not(target_arch = "wasm32")))]
pub mod script;
pub mod sim;
pub mod strategy;
pub mod world;

pub use config::Config;
pub use sim::{Metrics, Sim};
