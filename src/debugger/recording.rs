//! A whole run recorded once: its trace, timeline and violations. The
//! debugger draws it, and replays the live run up to any step.

use crate::config::{Config, Micros};
use crate::debugger::timeline::Timeline;
use crate::debugger::violations::{find_violations, Violation, ViolationKind};
use crate::explore::{ScheduleError, ScheduledSim};
use crate::sim::{Metrics, TraceEvent};

/// A finished run of one config.
#[derive(Debug)]
pub struct Recording {
    pub config: Config,
    pub events: Vec<TraceEvent>,
    /// The macrotasks the run took.
    pub steps: u32,
    pub end: Micros,
    pub metrics: Metrics,
    pub timeline: Timeline,
    pub violations: Vec<Violation>,
}

/// Two recordings of one config are the same run: comparing them (as the
/// UI's props do on every render) must not walk the whole trace.
impl PartialEq for Recording {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
            || self.config == other.config
                && self.steps == other.steps
                && self.metrics == other.metrics
    }
}

impl Recording {
    /// Records `config` in one go (native callers and tests).
    pub fn of(config: &Config) -> Result<Recording, ScheduleError> {
        let mut recorder = Recorder::new(config);
        while !recorder.advance(u64::MAX)? {}
        Ok(recorder.finish())
    }

    /// The events of one step (the trace is in step order).
    pub fn events_of_step(&self, step: u32) -> &[TraceEvent] {
        let start = self.events.partition_point(|event| event.step < step);
        let end = self.events.partition_point(|event| event.step <= step);
        &self.events[start..end]
    }

    /// Where "jump to the first violation" goes: the first duplicate
    /// ticket or extra DB read (the harm), else the first second holder of
    /// a critical section (a race that did no harm this time).
    pub fn first_violation(&self) -> Option<&Violation> {
        let harm = |v: &&Violation| v.kind != ViolationKind::SecondHolder;
        self.violations
            .iter()
            .find(harm)
            .or_else(|| self.violations.first())
    }
}

/// Records a run in chunks, so the browser can yield between them.
pub struct Recorder {
    config: Config,
    run: ScheduledSim,
}

impl Recorder {
    pub fn new(config: &Config) -> Recorder {
        Recorder {
            config: config.clone(),
            run: ScheduledSim::new(config),
        }
    }

    /// Runs at most `budget` more macrotasks; true once the run is done.
    /// A schedule that does not fit the config is an error.
    pub fn advance(&mut self, budget: u64) -> Result<bool, ScheduleError> {
        self.run.run_for(budget)
    }

    /// Macrotasks recorded so far.
    pub fn steps(&self) -> u32 {
        self.run.sim().steps()
    }

    /// How far the run is: requests returned out of all requests.
    pub fn progress(&self) -> (u64, u64) {
        let done = self.run.sim().finished_requests();
        (done, self.run.sim().requests().len() as u64)
    }

    /// The finished run (call once, when `advance` returns true): the
    /// trace's events move into the recording.
    pub fn finish(&mut self) -> Recording {
        let metrics = self.run.sim().metrics();
        let events = self.run.sim_mut().take_events();
        let timeline = Timeline::build(&self.config, self.run.sim().requests(), &events);
        let violations = find_violations(&self.config, &events);
        Recording {
            steps: self.run.sim().steps(),
            end: self.run.sim().now(),
            config: self.config.clone(),
            events,
            metrics,
            timeline,
            violations,
        }
    }
}
