//! The one contract every mode drives: a [`Run`] of the event loop, one
//! macrotask at a time. The recorded run, the debugger's session, the
//! compare table, explore, manual mode, explain and export all step a
//! `Run`; a built-in story's [`Sim`] and a person's script run implement
//! it. [`Scheduled`] is the one piece of code that follows a schedule.

mod headline;
mod scheduled;

pub use headline::{script_headline, story_headline, Headline};
pub use scheduled::{replay, ScheduleError, Scheduled, ScheduledSim};

use crate::config::Micros;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::{
    Choice, Footprint, KeyNames, Metrics, Requests, Sim, StepReport, TaskInfo, TraceEvent,
};

/// The script line and column of each trace event that has one, as
/// (event index, (line, column)) in index order (empty for a built-in
/// story).
pub type Positions = Vec<(usize, (u32, u32))>;

/// What a run is judged on: its metrics, the per-key load count and the
/// lost updates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub metrics: Metrics,
    pub redundant_db_reads: u64,
    /// Writes from a read another request's write had made stale, found in
    /// a script's data ([`DataHarm::LostUpdate`]); 0 for a built-in story.
    pub lost_updates: u64,
    /// Statements that ran in a transaction block another request began,
    /// found in a script's run ([`DataHarm::SharedTransaction`]); 0 for a
    /// built-in story.
    pub shared_transactions: u64,
}

impl Observation {
    /// A story's run so far (final once it is done).
    pub fn of(sim: &Sim) -> Observation {
        Observation {
            metrics: sim.metrics(),
            redundant_db_reads: sim.redundant_db_reads(),
            lost_updates: 0,
            shared_transactions: 0,
        }
    }
}

/// A run of the event loop, stepped one macrotask (and the microtasks it
/// causes) at a time.
pub trait Run {
    // ---- stepping ----

    /// Macrotasks run so far.
    fn steps(&self) -> u32;
    fn now(&self) -> Micros;
    /// Whether the run is over.
    fn is_done(&self) -> bool;
    /// The events that may run next (DESIGN.md's explore mode), index 0
    /// the default order; none once the run is over.
    fn enabled_pending(&self) -> Vec<Pending>;
    /// Whether delivering `pending` now is a stutter of a polling wait
    /// (`Core::stutters`; explore's collapse): false unless known.
    fn stutters(&self, pending: Pending) -> bool {
        let _ = pending;
        false
    }
    /// Runs the queued macrotask `(due, seq)`; `None` if it is not queued.
    fn step_pending(&mut self, due: Micros, seq: u64) -> Option<StepReport>;
    /// Runs the next macrotask in the default order; `None` once over.
    fn step(&mut self) -> Option<StepReport>;

    /// Runs at most `budget` more macrotasks; true once the run is over.
    fn run_for(&mut self, budget: u64) -> bool {
        for _ in 0..budget {
            if self.step().is_none() {
                return true;
            }
        }
        self.is_done()
    }

    // ---- what it shows ----

    /// The counters now (final once the run is done).
    fn metrics(&self) -> Metrics;
    /// What the checks judge (`explore::check`).
    fn observation(&self) -> Observation;
    /// Engine work so far, in units of a built-in macrotask (the page's
    /// time slices count it; see [`Sim::work`]).
    fn work(&self) -> u64;
    /// Trace events recorded so far (moved out ones included).
    fn events(&self) -> usize;
    /// The queued macrotasks.
    fn pending(&self) -> Vec<Pending>;
    /// What a queued macrotask will do, for the event-loop pane.
    fn describe(&self, task: Macrotask) -> TaskInfo;
    /// The enabled events with their labels (manual mode).
    fn choices(&self) -> Vec<Choice>;
    fn requests(&self) -> &Requests;
    /// The request an event belongs to.
    fn request_of(&self, task: Macrotask) -> u32;
    /// Who a request is: "user 0 click 1".
    fn describe_request(&self, request: u32) -> String;
    /// Requests that have answered so far.
    fn finished_requests(&self) -> u64;
    /// What the steps since the last call touched (empty unless tracked).
    fn take_footprint(&mut self) -> Footprint;
    /// Moves the trace out: its events, and their script positions.
    fn take_trace(&mut self) -> (Vec<TraceEvent>, Positions);
    /// How the trace's keys read.
    fn key_names(&self) -> KeyNames;
    /// The trace events, by index, that did harm found in a script's data
    /// (a story's harm is read from its trace).
    fn data_harm(&self) -> Vec<(usize, DataHarm)> {
        Vec::new()
    }
    /// The counters the page shows first.
    fn headline(&self) -> Headline;

    /// The run's trace hash (`record`).
    fn trace_hash(&self) -> String {
        self.metrics().trace_hash
    }
}

/// Harm a script's run finds in its data as it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataHarm {
    /// A row beyond the first of an expected uniqueness.
    DuplicateRow,
    /// A write of a key from a read that another request's write of that
    /// key has made stale (two reads before two writes). `in_place`: the
    /// write was a change in place (a count, `$inc`, a push), which keeps
    /// the other's write; what it lost is the check made on the read.
    LostUpdate { in_place: bool },
    /// An insert into what the request's count or search of the table
    /// had matched, after another request's commit changed what it
    /// matches (a coupon redeemed past its limit, a room booked twice):
    /// the check it made on that answer no longer held.
    WriteSkew,
    /// A statement that ran in a transaction block another request began
    /// (request `began_by`): its connection came back to the pool with the
    /// block open, and a `pool.query` took it.
    SharedTransaction { began_by: u32 },
}

impl Run for Sim {
    fn steps(&self) -> u32 {
        Sim::steps(self)
    }

    fn now(&self) -> Micros {
        Sim::now(self)
    }

    fn is_done(&self) -> bool {
        Sim::is_done(self)
    }

    fn enabled_pending(&self) -> Vec<Pending> {
        Sim::enabled_pending(self)
    }

    fn stutters(&self, pending: Pending) -> bool {
        self.core().stutters(pending)
    }

    fn step_pending(&mut self, due: Micros, seq: u64) -> Option<StepReport> {
        Sim::step_pending(self, due, seq)
    }

    fn step(&mut self) -> Option<StepReport> {
        Sim::step(self)
    }

    fn run_for(&mut self, budget: u64) -> bool {
        Sim::run_for(self, budget)
    }

    fn metrics(&self) -> Metrics {
        Sim::metrics(self)
    }

    fn observation(&self) -> Observation {
        Observation::of(self)
    }

    fn work(&self) -> u64 {
        Sim::work(self)
    }

    fn events(&self) -> usize {
        self.trace().len()
    }

    fn pending(&self) -> Vec<Pending> {
        Sim::pending(self)
    }

    fn describe(&self, task: Macrotask) -> TaskInfo {
        Sim::describe(self, task)
    }

    fn choices(&self) -> Vec<Choice> {
        self.enabled()
    }

    fn requests(&self) -> &Requests {
        Sim::requests(self)
    }

    fn request_of(&self, task: Macrotask) -> u32 {
        Sim::request_of(self, task)
    }

    fn describe_request(&self, request: u32) -> String {
        Sim::describe_request(self, request)
    }

    fn finished_requests(&self) -> u64 {
        Sim::finished_requests(self)
    }

    fn take_footprint(&mut self) -> Footprint {
        Sim::take_footprint(self)
    }

    fn take_trace(&mut self) -> (Vec<TraceEvent>, Positions) {
        (self.take_events(), Positions::new())
    }

    fn key_names(&self) -> KeyNames {
        KeyNames::Story(self.config().scenario)
    }

    fn headline(&self) -> Headline {
        Headline::of(story_headline(self.config().scenario))
    }
}
