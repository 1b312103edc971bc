//! A run stepped one macrotask at a time: [`SteppedRun`], the contract
//! through which the debugger (recording, session, compare table,
//! explorer) drives a built-in story or a person's script, what a run
//! hands over ([`Positions`], [`Headline`]), and the built-in story's own
//! ([`ScheduledSim`]). The debugger and the script engine both build on
//! it; it knows neither.

use crate::config::{Micros, ScenarioKind};
use crate::explore::{ScheduleError, ScheduledSim};
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::{KeyNames, Metrics, RequestSpec, StepReport, TaskInfo, TraceEvent};

/// The script line and column of each trace event that has one, as
/// (event index, (line, column)) in index order (empty for a built-in
/// story).
pub type Positions = Vec<(usize, (u32, u32))>;

/// What the page shows first and large: the §5 counters that tell the
/// run's story, then a script's own `count()` counters, by name (only in
/// builds with the script engine: the page's own edition stays small).
#[derive(Clone, Debug, PartialEq)]
pub struct Headline {
    pub names: &'static [&'static str],
    #[cfg(scripts)]
    pub own: Vec<(String, f64)>,
}

impl Headline {
    /// These counters, and none of a script's own.
    pub fn of(names: &'static [&'static str]) -> Headline {
        Headline {
            names,
            #[cfg(scripts)]
            own: Vec::new(),
        }
    }
}

/// The counters that tell a built-in story.
pub fn story_headline(scenario: ScenarioKind) -> &'static [&'static str] {
    match scenario {
        ScenarioKind::Ticket => TICKETS,
        ScenarioKind::Stampede => &["db_reads", "stale_served", "latency_p99", "timeouts"],
    }
}

const TICKETS: &[&str] = &[
    "duplicate_tickets",
    "orders",
    "errors",
    "max_in_critical_section",
];

/// The counters that tell a script's story, from what it declares: an
/// `expectUnique` group makes duplicates the story (the ticket's counters;
/// `orders` counts the table of that name, so a script without one shows
/// its writes instead); otherwise its reads and writes (a stampede, an
/// oversell), with `orders` when it keeps such a table.
pub fn script_headline(expects_unique: bool, orders_table: bool) -> &'static [&'static str] {
    match (expects_unique, orders_table) {
        (true, true) => TICKETS,
        (true, false) => &[
            "duplicate_tickets",
            "db_writes",
            "errors",
            "max_in_critical_section",
        ],
        (false, true) => &["orders", "db_reads", "errors", "max_in_critical_section"],
        (false, false) => &["db_reads", "db_writes", "errors", "latency_p99"],
    }
}

/// A run the debugger steps through, one macrotask (and the microtasks it
/// causes) at a time.
pub trait SteppedRun {
    /// One macrotask; `Ok(None)` once the run is over.
    fn step(&mut self) -> Result<Option<StepReport>, ScheduleError>;
    /// Macrotasks run so far.
    fn steps(&self) -> u32;
    fn now(&self) -> Micros;
    fn is_done(&self) -> bool;
    /// The counters now (final once the run is done).
    fn metrics(&self) -> Metrics;
    /// Engine work so far (see [`crate::Sim::work`]).
    fn work(&self) -> u64;
    /// Trace events recorded so far.
    fn events(&self) -> usize;
    /// The queued macrotasks.
    fn pending(&self) -> Vec<Pending>;
    /// What a queued macrotask will do, for the event-loop pane.
    fn describe(&self, task: Macrotask) -> TaskInfo;
    fn requests(&self) -> &[RequestSpec];
    /// Requests that have answered so far.
    fn finished_requests(&self) -> u64;
    /// Moves the trace out: its events, and their script positions.
    fn take_trace(&mut self) -> (Vec<TraceEvent>, Positions);
    /// How the trace's keys read.
    fn key_names(&self) -> KeyNames;
    /// The counters the page shows first.
    fn headline(&self) -> Headline;

    /// Runs at most `budget` more macrotasks; true once the run is over.
    fn run_for(&mut self, budget: u64) -> Result<bool, ScheduleError> {
        for _ in 0..budget {
            if self.step()?.is_none() {
                return Ok(true);
            }
        }
        Ok(self.is_done())
    }
}

impl SteppedRun for ScheduledSim {
    fn step(&mut self) -> Result<Option<StepReport>, ScheduleError> {
        ScheduledSim::step(self)
    }

    fn steps(&self) -> u32 {
        self.sim().steps()
    }

    fn now(&self) -> Micros {
        self.sim().now()
    }

    fn is_done(&self) -> bool {
        self.sim().is_done()
    }

    fn metrics(&self) -> Metrics {
        self.sim().metrics()
    }

    fn work(&self) -> u64 {
        self.sim().work()
    }

    fn events(&self) -> usize {
        self.sim().trace().len()
    }

    fn pending(&self) -> Vec<Pending> {
        self.sim().pending()
    }

    fn describe(&self, task: Macrotask) -> TaskInfo {
        self.sim().describe(task)
    }

    fn requests(&self) -> &[RequestSpec] {
        self.sim().requests()
    }

    fn finished_requests(&self) -> u64 {
        self.sim().finished_requests()
    }

    fn take_trace(&mut self) -> (Vec<TraceEvent>, Positions) {
        (self.sim_mut().take_events(), Positions::new())
    }

    fn key_names(&self) -> KeyNames {
        KeyNames::Story(self.sim().config().scenario)
    }

    fn headline(&self) -> Headline {
        Headline::of(story_headline(self.sim().config().scenario))
    }

    fn run_for(&mut self, budget: u64) -> Result<bool, ScheduleError> {
        ScheduledSim::run_for(self, budget)
    }
}
