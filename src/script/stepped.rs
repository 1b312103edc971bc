//! A script run as the debugger steps it ([`SteppedRun`]): the same run the
//! CLI makes, one macrotask at a time, stopped at the CLI's event budget.

use crate::config::{Config, Micros};
use crate::debugger::program::{Positions, SteppedRun};
use crate::explore::ScheduleError;
use crate::sim::executor::describe;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::{Metrics, RequestSpec, StepReport, TaskInfo, TraceEvent};

use super::cli::MAX_EVENTS;
use super::error::ScriptError;
use super::run::ScriptRun;

pub struct ScriptStepper {
    run: ScriptRun,
    /// Events moved out of the trace so far (positions index the whole run).
    taken: usize,
}

impl ScriptStepper {
    pub fn start(code: &str, config: &Config, keep_trace: bool) -> Result<Self, ScriptError> {
        Ok(ScriptStepper {
            run: ScriptRun::new(code, config, keep_trace)?,
            taken: 0,
        })
    }

    pub fn run(&self) -> &ScriptRun {
        &self.run
    }
}

impl SteppedRun for ScriptStepper {
    fn step(&mut self) -> Result<Option<StepReport>, ScheduleError> {
        if self.is_done() {
            if let Some(error) = self.run.schedule_error() {
                return Err(ScheduleError::Script(error.to_string()));
            }
            return Ok(None);
        }
        let start = self.run.core().trace.len() + self.taken;
        let index = self.run.steps();
        if !self.run.step() {
            return match self.run.schedule_error() {
                Some(error) => Err(ScheduleError::Script(error.to_string())),
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

    fn metrics(&self) -> Metrics {
        self.run.metrics()
    }

    fn work(&self) -> u64 {
        u64::from(self.run.steps())
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

    fn take_trace(&mut self) -> (Vec<TraceEvent>, Positions) {
        let events = self.run.take_events();
        self.taken += events.len();
        (events, self.run.positions())
    }
}
