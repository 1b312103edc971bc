//! Manual mode ("you are the scheduler"): the user picks which enabled
//! event fires next. Steps with a single enabled event run on their own,
//! so the session always rests at a choice point (or at the end).

use crate::config::schedule::Schedule;
use crate::config::url::to_fragment;
use crate::config::Config;
use crate::explore::check::{violations, Check, Observation};
use crate::explore::replay::ScheduleError;
use crate::explore::search::{ExploreOptions, Explorer};
use crate::sim::{Choice, Sim, StepReport};

pub struct Session {
    config: Config,
    checks: Vec<Check>,
    choices: Vec<u32>,
    sim: Sim,
}

impl Session {
    /// Follows `config.schedule` (a shared link), then rests at the next
    /// choice point. An empty `checks` means the scenario's default check.
    pub fn new(config: &Config, checks: Vec<Check>) -> Result<Session, ScheduleError> {
        let checks = if checks.is_empty() {
            vec![Check::default_for(config.scenario)]
        } else {
            checks
        };
        let mut base = config.clone();
        base.schedule = Schedule::default();
        let mut session = Session {
            sim: Sim::new(&base),
            config: base,
            checks,
            choices: Vec::new(),
        };
        session.advance_forced();
        for (at, &choice) in config.schedule.choices().iter().enumerate() {
            let enabled = session.sim.enabled_pending().len();
            if enabled == 0 {
                return Err(ScheduleError::TooLong {
                    used: at,
                    len: config.schedule.len(),
                });
            }
            if choice as usize >= enabled {
                return Err(ScheduleError::OutOfRange {
                    choice: at,
                    step: session.sim.steps(),
                    index: choice,
                    enabled,
                });
            }
            session.choose(choice as usize);
        }
        Ok(session)
    }

    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    /// The events the user may pick from, in (due, seq) order.
    pub fn enabled(&self) -> Vec<Choice> {
        self.sim.enabled()
    }

    /// Fires enabled event `index`, then runs on to the next choice point.
    /// `None` (and nothing changes) when the index is out of range.
    pub fn choose(&mut self, index: usize) -> Option<StepReport> {
        let choice_point = self.sim.enabled_pending().len() > 1;
        let report = self.sim.step_choice(index)?;
        if choice_point {
            self.choices.push(index as u32);
        }
        self.advance_forced();
        Some(report)
    }

    /// Runs every step that offers no choice.
    fn advance_forced(&mut self) {
        while self.sim.enabled_pending().len() == 1 {
            self.sim.step();
        }
    }

    /// Takes back the last choice (replaying the rest from the start);
    /// false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.choices.pop().is_none() {
            return false;
        }
        let mut config = self.config.clone();
        config.schedule = self.schedule();
        let replayed = Session::new(&config, self.checks.clone())
            .expect("a prefix of a schedule that ran fits its config");
        *self = replayed;
        true
    }

    /// The choices made so far.
    pub fn schedule(&self) -> Schedule {
        Schedule::new(self.choices.clone())
    }

    /// The config with the choices made so far: the shareable link.
    pub fn config(&self) -> Config {
        let mut config = self.config.clone();
        config.schedule = self.schedule();
        config
    }

    pub fn fragment(&self) -> String {
        to_fragment(&self.config())
    }

    /// What the user should make happen, for the first check.
    pub fn goal(&self) -> String {
        self.checks[0].goal(&self.config)
    }

    /// The checks the run so far violates: the goal is reached once this
    /// is non-empty.
    pub fn reached(&self) -> Vec<Check> {
        violations(&self.checks, &Observation::of(&self.sim))
    }

    pub fn won(&self) -> bool {
        !self.reached().is_empty()
    }

    pub fn is_done(&self) -> bool {
        self.sim.is_done()
    }

    /// Whether any order of events reaches the goal, searched from the
    /// start with the explorer (at most `max_schedules`): `None` when the
    /// search could not finish, so nothing can be said.
    pub fn reachable(&self, max_schedules: u64) -> Option<Reachability> {
        let mut options = ExploreOptions::new(self.checks.clone());
        options.max_schedules = max_schedules;
        let result = Explorer::new(&self.config, options).run();
        if result.violating > 0 {
            return Some(Reachability::Reachable);
        }
        result.complete.then(|| Reachability::Unreachable {
            schedules: result.explored,
            why: why_unreachable(&self.config, self.checks[0]),
        })
    }
}

/// What the explorer says of manual mode's goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reachability {
    Reachable,
    /// Every schedule was tried and none reaches the goal.
    Unreachable {
        schedules: u64,
        why: String,
    },
}

/// Why no order of events breaks `check` under `config`'s defence.
fn why_unreachable(config: &Config, check: Check) -> String {
    use crate::config::StrategyKind as S;
    let servers = config.servers;
    if check == Check::Duplicates && config.db_unique {
        return "the unique constraint on (user, event) refuses a second order row".into();
    }
    match config.strategy {
        S::KeyedMutex | S::EmitterLock | S::TicketLock if servers == 1 => format!(
            "the {} lives in the one app server, so every request for the key waits its turn",
            match config.strategy {
                S::KeyedMutex => "keyed mutex",
                S::EmitterLock => "emitter lock",
                _ => "ticket lock",
            }
        ),
        S::SingleFlight if servers == 1 => {
            "single-flight runs one call per key on the one server; the others share its result"
                .into()
        }
        S::Add => "cache.add is atomic in the shared cache: one request gets the lock".into(),
        _ => "no order of the enabled events breaks it here".into(),
    }
}
