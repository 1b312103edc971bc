//! Running a config that carries a schedule: each choice point (a step
//! with more than one enabled event) takes the next choice; once the
//! choices run out, the rest runs in the default earliest-first order. So
//! the empty schedule is the normal run, and a manual-mode link may stop
//! mid-run.

use std::fmt;

use crate::config::url::ConfigError;
use crate::config::Config;
use crate::sim::{Metrics, Sim, StepReport};

/// A schedule that does not fit its config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// Choice `choice` (0-based) at macrotask `step` picks `index` of only
    /// `enabled` events.
    OutOfRange {
        choice: usize,
        step: u32,
        index: u32,
        enabled: usize,
    },
    /// The run ended after `used` choice points, with choices left over.
    TooLong { used: usize, len: usize },
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScheduleError::OutOfRange {
                choice,
                step,
                index,
                enabled,
            } => write!(
                f,
                "choice {} (at step {step}) is {index}, but only {enabled} events are enabled there \
                 (accepted: 0 to {})",
                choice + 1,
                enabled - 1
            ),
            ScheduleError::TooLong { used, len } => write!(
                f,
                "the run ended after {used} choice points, but the schedule has {len} choices"
            ),
        }
    }
}

impl std::error::Error for ScheduleError {}

impl From<ScheduleError> for ConfigError {
    fn from(error: ScheduleError) -> Self {
        ConfigError {
            key: "schedule".to_string(),
            message: error.to_string(),
        }
    }
}

/// A run that follows `config.schedule`, step by step.
pub struct ScheduledSim {
    sim: Sim,
    choices: Vec<u32>,
    used: usize,
}

impl ScheduledSim {
    /// Keeps the whole trace (for the debugger).
    pub fn new(config: &Config) -> Self {
        Self::with_sim(Sim::new(config), config)
    }

    /// Keeps only metrics and the trace hash.
    pub fn metrics_only(config: &Config) -> Self {
        Self::with_sim(Sim::metrics_only(config), config)
    }

    fn with_sim(sim: Sim, config: &Config) -> Self {
        ScheduledSim {
            sim,
            choices: config.schedule.choices().to_vec(),
            used: 0,
        }
    }

    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// Folds the polling locks' rounds ([`Sim::fold_polls`]) unless a
    /// schedule picks among the enabled events one by one: each waiter's
    /// poll is one of them.
    pub fn fold_polls(&mut self) {
        if self.choices.is_empty() {
            self.sim.fold_polls();
        }
    }

    pub fn sim_mut(&mut self) -> &mut Sim {
        &mut self.sim
    }

    pub fn into_sim(self) -> Sim {
        self.sim
    }

    /// Choice points passed so far.
    pub fn choices_used(&self) -> usize {
        self.used
    }

    /// One macrotask: at a choice point, the schedule's next choice (or the
    /// default once it has run out). `Ok(None)` once the run is over.
    pub fn step(&mut self) -> Result<Option<StepReport>, ScheduleError> {
        if self.used >= self.choices.len() {
            // Past the schedule every choice is index 0, the earliest
            // pending event: the normal step, without listing the queue.
            return Ok(self.sim.step());
        }
        let enabled = self.sim.enabled_pending();
        if enabled.is_empty() {
            return match self.used < self.choices.len() {
                true => Err(ScheduleError::TooLong {
                    used: self.used,
                    len: self.choices.len(),
                }),
                false => Ok(None),
            };
        }
        let mut index = 0;
        if enabled.len() > 1 {
            if let Some(&choice) = self.choices.get(self.used) {
                if choice as usize >= enabled.len() {
                    return Err(ScheduleError::OutOfRange {
                        choice: self.used,
                        step: self.sim.steps(),
                        index: choice,
                        enabled: enabled.len(),
                    });
                }
                index = choice as usize;
            }
            self.used += 1;
        }
        let pending = enabled[index];
        Ok(self.sim.step_pending(pending.due, pending.seq))
    }

    /// Runs at most `budget` more macrotasks; true once the run is over.
    pub fn run_for(&mut self, budget: u64) -> Result<bool, ScheduleError> {
        let mut left = budget;
        // Past the schedule the rest is the plain run, without a report
        // per step.
        while self.used < self.choices.len() {
            if left == 0 {
                return Ok(self.sim.is_done());
            }
            if self.step()?.is_none() {
                return Ok(true);
            }
            left -= 1;
        }
        Ok(self.sim.run_for(left))
    }

    /// Runs to the end.
    pub fn run(&mut self) -> Result<Metrics, ScheduleError> {
        while self.used < self.choices.len() {
            if self.step()?.is_none() {
                return Ok(self.sim.metrics());
            }
        }
        Ok(self.sim.run())
    }
}

/// Runs `config` (following its schedule) to the end, keeping the trace
/// when `keep_trace`.
pub fn replay(config: &Config, keep_trace: bool) -> Result<Sim, ScheduleError> {
    let mut run = match keep_trace {
        true => ScheduledSim::new(config),
        false => ScheduledSim::metrics_only(config),
    };
    run.run()?;
    Ok(run.into_sim())
}

/// The index of the first macrotask after which the run of `config`
/// (following its schedule) violates one of `checks`: where the debugger
/// should open. `None` if it never does (or the schedule does not fit).
pub fn first_violation_step(config: &Config, checks: &[crate::explore::Check]) -> Option<u32> {
    use crate::explore::check::{violations, Observation};
    let mut run = ScheduledSim::metrics_only(config);
    while let Some(report) = run.step().ok()? {
        if !violations(checks, &Observation::of(run.sim())).is_empty() {
            return Some(report.index);
        }
    }
    None
}
