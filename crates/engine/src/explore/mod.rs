//! Schedule search: explore mode's enabled events live in `sim::choice`,
//! following a schedule in `run`; here are the checks, the explorer (DFS
//! with sleep sets, random, PCT) and manual mode's session.

pub mod check;
#[cfg(not(target_arch = "wasm32"))]
pub mod groups;
pub mod manual;
pub mod search;

pub use crate::config::Schedule;
pub use crate::run::Observation;
pub use check::{first_violation_step, parse_checks, Check};
#[cfg(not(target_arch = "wasm32"))]
pub use groups::{compare_strategies, StorySearch};
pub use manual::{Reachability, Session};
pub use search::{
    Counterexample, Coverage, ExploreOptions, ExploreResult, Explorer, Method, Progress,
    StrategyRow, Subject,
};
