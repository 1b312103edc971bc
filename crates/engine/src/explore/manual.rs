//! Manual mode ("you are the scheduler"): the user picks which enabled
//! event fires next. Steps with a single enabled event run on their own,
//! so the session always rests at a choice point (or at the end).

use std::rc::Rc;

use crate::config::schedule::Schedule;
use crate::config::Config;
use crate::explore::check::violations;
use crate::explore::check::Check;
use crate::explore::search::{story_subject, ExploreOptions, Explorer, Subject};
use crate::run::{Run, ScheduleError, Scheduled};
use crate::sim::{Choice, TaskInfo};
use crate::strategy::{guard, Guard};

/// A manual-mode session on a built-in story or a script (any
/// [`Subject`] the explorer searches).
pub struct Session {
    subject: Rc<dyn Subject>,
    checks: Vec<Check>,
    choices: Vec<u32>,
    run: Box<dyn Run>,
}

impl Session {
    /// Follows `config.schedule` (a shared link), then rests at the next
    /// choice point. An empty `checks` means the scenario's default check.
    pub fn new(config: &Config, checks: Vec<Check>) -> Result<Session, ScheduleError> {
        Session::of(story_subject(config), &config.schedule, checks)
    }

    /// The same on any subject, following `schedule`.
    pub fn of(
        subject: Rc<dyn Subject>,
        schedule: &Schedule,
        checks: Vec<Check>,
    ) -> Result<Session, ScheduleError> {
        let checks = if checks.is_empty() {
            vec![Check::default_for(subject.config().scenario)]
        } else {
            checks
        };
        // The schedule's choices, then every step that offers none.
        let mut run = Scheduled::new(subject.start(false), schedule);
        run.follow()?;
        let mut session = Session {
            run: run.into_inner(),
            subject,
            checks,
            choices: schedule.choices().to_vec(),
        };
        session.advance_forced();
        Ok(session)
    }

    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    /// Macrotasks run so far.
    pub fn steps(&self) -> u32 {
        self.run.steps()
    }

    /// The trace hash of the run so far.
    pub fn trace_hash(&self) -> String {
        self.run.trace_hash()
    }

    /// The events the user may pick from, in (due, seq) order.
    pub fn enabled(&self) -> Vec<Choice> {
        self.run.choices()
    }

    /// What a queued macrotask will do.
    pub fn describe(&self, task: crate::sim::Macrotask) -> TaskInfo {
        self.run.describe(task)
    }

    /// Who a request is: "user 0 click 1".
    pub fn describe_request(&self, request: u32) -> String {
        self.run.describe_request(request)
    }

    /// Fires enabled event `index`, then runs on to the next choice point;
    /// false (and nothing changes) when the index is out of range.
    pub fn choose(&mut self, index: usize) -> bool {
        let enabled = self.run.enabled_pending();
        let Some(pending) = enabled.get(index) else {
            return false;
        };
        self.run.step_pending(pending.due, pending.seq);
        if enabled.len() > 1 {
            self.choices.push(index as u32);
        }
        self.advance_forced();
        true
    }

    /// Runs every step that offers no choice.
    fn advance_forced(&mut self) {
        loop {
            let enabled = self.run.enabled_pending();
            let [only] = enabled.as_slice() else {
                return;
            };
            self.run.step_pending(only.due, only.seq);
        }
    }

    /// Takes back the last choice (replaying the rest from the start);
    /// false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.choices.pop().is_none() {
            return false;
        }
        let schedule = self.schedule();
        let replayed = Session::of(self.subject.clone(), &schedule, self.checks.clone())
            .expect("a prefix of a schedule that ran fits its config");
        *self = replayed;
        true
    }

    /// The choices made so far.
    pub fn schedule(&self) -> Schedule {
        Schedule::new(self.choices.clone())
    }

    /// The config with the choices made so far.
    pub fn config(&self) -> Config {
        let mut config = self.subject.config().clone();
        config.schedule = self.schedule();
        config
    }

    /// The shareable link of the choices made so far.
    pub fn fragment(&self) -> String {
        self.subject.fragment(&self.config())
    }

    /// What the user should make happen, for the first check.
    pub fn goal(&self) -> String {
        self.checks[0].goal(self.subject.config())
    }

    /// The checks the run so far violates: the goal is reached once this
    /// is non-empty.
    pub fn reached(&self) -> Vec<Check> {
        violations(&self.checks, &self.run.observation())
    }

    pub fn won(&self) -> bool {
        !self.reached().is_empty()
    }

    pub fn is_done(&self) -> bool {
        self.run.enabled_pending().is_empty()
    }

    /// Whether any order of events reaches the goal, searched from the
    /// start with the explorer (at most `max_schedules`): `None` when the
    /// search could not finish, so nothing can be said.
    pub fn reachable(&self, max_schedules: u64) -> Option<Reachability> {
        let mut options = ExploreOptions::new(self.checks.clone());
        options.max_schedules = max_schedules;
        let result = Explorer::of(self.subject.clone(), options).run();
        if result.violating > 0 {
            return Some(Reachability::Reachable);
        }
        result.complete.then(|| Reachability::Unreachable {
            schedules: result.explored,
            why: why_unreachable(self.subject.config(), self.checks[0]),
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

/// Why no order of events breaks `check` under `config`'s defence, from
/// what the strategy's own file says guards it (`strategy::Guard`).
fn why_unreachable(config: &Config, check: Check) -> String {
    if check == Check::Duplicates && config.db_unique {
        return "the unique constraint on (user, event) refuses a second order row".into();
    }
    let one_server = config.servers == 1;
    match guard(config.strategy) {
        Guard::InProcess { .. } if one_server => format!(
            "the {} lives in the one app server, so every request for the key waits its turn",
            config.strategy.name().replace('-', " ")
        ),
        Guard::SharedCall if one_server => {
            "single-flight runs one call per key on the one server; the others share its result"
                .into()
        }
        Guard::CacheLock { split: false } => {
            "cache.add is atomic in the shared cache: one request gets the lock".into()
        }
        _ => "no order of the enabled events breaks it here".into(),
    }
}
