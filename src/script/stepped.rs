//! A script run as the debugger steps it ([`SteppedRun`]): the same run the
//! CLI makes, one macrotask at a time, stopped at the CLI's event budget.

use crate::config::{Config, Micros};
use crate::explore::ScheduleError;
use crate::sim::executor::describe;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::{KeyNames, Metrics, RequestSpec, StepReport, TaskInfo, TraceEvent};
use crate::stepped::{Headline, Positions, SteppedRun};

use super::error::ScriptError;
use super::run::{ScriptRun, MAX_EVENTS};

/// What one script macrotask costs in units of [`crate::Sim::work`]:
/// in the page's wasm a macrotask of `stampede.js` with 1,000 requests
/// (its promise jobs, its share of the GC) took about 200 µs, a built-in
/// story's unit well under 1 µs. At 25 the page's slices ran 60 to 100 ms.
pub const WORK_PER_STEP: u64 = 400;

pub struct ScriptStepper {
    run: ScriptRun,
    /// The schedule's length.
    choices: usize,
    /// Events moved out of the trace so far (positions index the whole run).
    taken: usize,
}

impl ScriptStepper {
    pub fn start(code: &str, config: &Config, keep_trace: bool) -> Result<Self, ScriptError> {
        Ok(ScriptStepper {
            run: ScriptRun::new(code, config, keep_trace)?,
            choices: config.schedule.choices().len(),
            taken: 0,
        })
    }

    /// Schedule choices not yet used (past the end of the run: too many).
    fn choices_left(&self) -> usize {
        self.choices.saturating_sub(self.run.points.len())
    }

    pub fn run(&self) -> &ScriptRun {
        &self.run
    }
}

impl SteppedRun for ScriptStepper {
    fn step(&mut self) -> Result<Option<StepReport>, ScheduleError> {
        if self.is_done() {
            return match self.choices_left() {
                0 => Ok(None),
                _ => Err(ScheduleError::TooLong {
                    used: self.run.points.len(),
                    len: self.choices,
                }),
            };
        }
        let start = self.run.core().trace.len() + self.taken;
        let index = self.run.steps();
        if !self.run.step() {
            return match self.run.schedule_error() {
                // The choice that did not fit was the last point passed.
                Some(_) => Err(ScheduleError::OutOfRange {
                    choice: self.run.points.len() - 1,
                    step: index,
                    index: self.run.choice(self.run.points.len() - 1),
                    enabled: self.run.points.last().copied().unwrap_or(0) as usize,
                }),
                None => Ok(None),
            };
        }
        let core = self.run.core();
        Ok(Some(StepReport {
            index,
            time: core.now,
            task: self.run.last_task().expect("a step ran a macrotask"),
            events: start..core.trace.len() + self.taken,
        }))
    }

    fn steps(&self) -> u32 {
        self.run.steps()
    }

    fn now(&self) -> Micros {
        self.run.core().now
    }

    /// Over as the CLI's run is: every request answered and nothing in
    /// flight, nothing left to run, or the event budget spent (the
    /// requests still pending then count as hung).
    fn is_done(&self) -> bool {
        self.run.is_done() || u64::from(self.run.steps()) >= MAX_EVENTS
    }

    /// The counters now; a request still running is not yet `hung`.
    fn metrics(&self) -> Metrics {
        let mut metrics = self.run.metrics();
        if !self.is_done() {
            metrics.hung = 0;
        }
        metrics
    }

    /// A script's macrotask runs JavaScript: it weighs as much engine work
    /// as [`WORK_PER_STEP`] built-in ones, so the page's time slices (which
    /// count work) stay short.
    fn work(&self) -> u64 {
        u64::from(self.run.steps()) * WORK_PER_STEP
    }

    fn events(&self) -> usize {
        self.run.core().trace.len() + self.taken
    }

    fn pending(&self) -> Vec<Pending> {
        self.run.core().queue.iter().collect()
    }

    fn describe(&self, task: Macrotask) -> TaskInfo {
        describe(&self.run.core(), task)
    }

    fn requests(&self) -> &[RequestSpec] {
        self.run.requests()
    }

    fn finished_requests(&self) -> u64 {
        (self.run.requests().len() - self.run.unsettled()) as u64
    }

    fn key_names(&self) -> KeyNames {
        KeyNames::Script(self.run.key_names().into())
    }

    fn headline(&self) -> Headline {
        self.run.headline()
    }

    fn take_trace(&mut self) -> (Vec<TraceEvent>, Positions) {
        let events = self.run.take_events();
        self.taken += events.len();
        (events, self.run.positions().into_iter().collect())
    }
}
