//! The deterministic event loop: virtual clock, macrotask queue, microtask
//! queue, seeded RNG, trace and metrics. No web dependency.

pub mod choice;
pub mod core;
pub mod ctx;
pub mod executor;
pub mod footprint;
pub mod loads;
pub mod metrics;
pub mod ops;
pub mod queue;
pub mod requests;
pub mod rng;
pub mod trace;
pub mod trace_line;
pub mod window;

pub use self::core::poll;
pub use choice::Choice;
pub use ctx::{Ctx, Detached, Wait};
pub use executor::{Sim, StepReport, TaskInfo};
pub use footprint::Footprint;
pub use metrics::{Latencies, Metrics};
pub use ops::{Ops, Written, XfetchDraw};
pub use queue::Macrotask;
pub use requests::{Arrivals, RequestSpec, Requests, Target};
pub use trace::{KeyNames, Outcome, Site, Trace, TraceEvent, What};
