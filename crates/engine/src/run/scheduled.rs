//! Following a schedule: each choice point (a step with more than one
//! enabled event) takes the schedule's next choice; once the choices run
//! out, the rest runs in the default earliest-first order. So the empty
//! schedule is the normal run, and a manual-mode link may stop mid-run.
//! Every mode follows schedules through [`Scheduled`], on any [`Run`].

use std::fmt;
use std::ops::{Deref, DerefMut};

use crate::config::schedule::Schedule;
use crate::config::url::ConfigError;
use crate::config::Config;
use crate::sim::{Metrics, Sim, StepReport};

use super::Run;

/// A schedule that does not fit its run.
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

/// A run that follows a schedule, step by step. It derefs to the run for
/// everything else (its counters, its panes; `step_pending` picks an
/// event by hand, as explore and manual mode do).
pub struct Scheduled<R: Run + ?Sized> {
    choices: Vec<u32>,
    used: usize,
    run: Box<R>,
}

/// A built-in story following its config's schedule.
pub type ScheduledSim = Scheduled<Sim>;

impl<R: Run + ?Sized> Scheduled<R> {
    pub fn new(run: Box<R>, schedule: &Schedule) -> Self {
        Scheduled {
            choices: schedule.choices().to_vec(),
            used: 0,
            run,
        }
    }

    /// Choice points passed so far.
    pub fn choices_used(&self) -> usize {
        self.used
    }

    /// Whether choices are still to be taken.
    fn following(&self) -> bool {
        self.used < self.choices.len()
    }

    /// One macrotask: at a choice point, the schedule's next choice (or the
    /// default once it has run out). `Ok(None)` once the run is over.
    pub fn step(&mut self) -> Result<Option<StepReport>, ScheduleError> {
        if !self.following() {
            // Past the schedule every choice is index 0, the earliest
            // pending event: the normal step, without listing the queue.
            return Ok(self.run.step());
        }
        let enabled = self.run.enabled_pending();
        if enabled.is_empty() {
            return Err(ScheduleError::TooLong {
                used: self.used,
                len: self.choices.len(),
            });
        }
        let mut index = 0;
        if enabled.len() > 1 {
            let choice = self.choices[self.used];
            if choice as usize >= enabled.len() {
                return Err(ScheduleError::OutOfRange {
                    choice: self.used,
                    step: self.run.steps(),
                    index: choice,
                    enabled: enabled.len(),
                });
            }
            index = choice as usize;
            self.used += 1;
        }
        let pending = enabled[index];
        Ok(self.run.step_pending(pending.due, pending.seq))
    }

    /// Runs at most `budget` more macrotasks; true once the run is over.
    pub fn run_for(&mut self, budget: u64) -> Result<bool, ScheduleError> {
        let mut left = budget;
        // Past the schedule the rest is the plain run, without a report
        // per step.
        while self.following() {
            if left == 0 {
                return Ok(self.run.is_done());
            }
            if self.step()?.is_none() {
                return Ok(true);
            }
            left -= 1;
        }
        Ok(self.run.run_for(left))
    }

    /// Follows the whole schedule, stopping right after its last choice.
    pub fn follow(&mut self) -> Result<(), ScheduleError> {
        while self.following() {
            self.step()?;
        }
        Ok(())
    }

    /// Runs to the end.
    pub fn finish(&mut self) -> Result<(), ScheduleError> {
        self.follow()?;
        while !self.run.run_for(u64::MAX) {}
        Ok(())
    }

    pub fn into_inner(self) -> Box<R> {
        self.run
    }
}

impl<R: Run + ?Sized> Deref for Scheduled<R> {
    type Target = R;

    fn deref(&self) -> &R {
        &self.run
    }
}

impl<R: Run + ?Sized> DerefMut for Scheduled<R> {
    fn deref_mut(&mut self) -> &mut R {
        &mut self.run
    }
}

impl Scheduled<Sim> {
    /// `config`'s story following its schedule, keeping the whole trace
    /// (for the debugger).
    pub fn story(config: &Config) -> Self {
        Scheduled::new(Box::new(Sim::new(config)), &config.schedule)
    }

    /// The same, keeping only metrics and the trace hash.
    pub fn story_metrics_only(config: &Config) -> Self {
        Scheduled::new(Box::new(Sim::metrics_only(config)), &config.schedule)
    }

    /// Folds the polling locks' rounds ([`Sim::fold_polls`]) unless a
    /// schedule picks among the enabled events one by one: each waiter's
    /// poll is one of them.
    pub fn fold_polls(&mut self) {
        if self.choices.is_empty() {
            self.run.fold_polls();
        }
    }

    /// Runs to the end and returns the metrics.
    pub fn run(&mut self) -> Result<Metrics, ScheduleError> {
        self.follow()?;
        Ok(self.run.run())
    }

    pub fn into_sim(self) -> Sim {
        *self.run
    }
}

/// Runs `config`'s story (following its schedule) to the end, keeping the
/// trace when `keep_trace`.
pub fn replay(config: &Config, keep_trace: bool) -> Result<Sim, ScheduleError> {
    let mut run = match keep_trace {
        true => Scheduled::story(config),
        false => Scheduled::story_metrics_only(config),
    };
    run.run()?;
    Ok(run.into_sim())
}
