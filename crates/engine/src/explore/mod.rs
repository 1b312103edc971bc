//! Schedule search and replay (issue 4): explore mode's enabled events live
//! in `sim::choice`; here are the schedule format, replaying a config's
//! schedule, the checks, the explorer (DFS with sleep sets, random, PCT)
//! and manual mode's session.

pub mod check;
pub mod manual;
pub mod replay;
pub mod search;

pub use crate::config::Schedule;
pub use check::{parse_checks, Check, Observation};
pub use manual::{Reachability, Session};
pub use replay::{first_violation_step, replay, ScheduleError, ScheduledSim};
pub use search::{
    compare_strategies, Counterexample, Coverage, ExploreOptions, ExploreResult, ExploreRun,
    Explorer, Method, Progress, StrategyRow, Subject,
};
