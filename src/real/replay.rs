//! A story replayed on the real servers (docs/real.md, "Replay"): the
//! simulation of the fragment (its `schedule=`, else its own order) lists
//! the server operations in the order they landed; on the real servers
//! each request's operation runs only when it is the next of that list,
//! and no earlier than its simulated time after the trial started. The
//! effects land in the simulated order on every trial, whatever the real
//! timing; an operation the simulation does not have next for that request
//! ends the replay (the report says where), and the rest of the trial runs
//! free.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use tokio::sync::Notify;

use crate::config::{Config, Micros};
use crate::run::ScheduledSim;
use crate::sim::trace::OpKind;
use crate::sim::{Outcome, What};

/// The real servers' operations in the order the simulation landed them.
pub struct Replay {
    /// (request, operation, its outcome, simulated time).
    order: Vec<(u32, OpKind, Outcome, Micros)>,
    /// The simulated time of the operation that landed last: the replay's
    /// clock.
    clock: Cell<Micros>,
    /// The next to land.
    next: Cell<usize>,
    /// When the last one landed, on the real clock.
    last_landed: Cell<Option<tokio::time::Instant>>,
    moved: Notify,
    /// Why the replay stopped following the simulation, if it did.
    left: RefCell<Option<String>>,
}

/// The operations a request waits its turn for: the ones that run on a
/// real server, and its timers (a poll interval, a pause), which end at
/// their simulated time rather than after their length, so that the real
/// clock never falls behind the simulated one.
pub fn replayed(kind: OpKind) -> bool {
    matches!(
        kind,
        OpKind::Sleep
            | OpKind::CacheGet
            | OpKind::CacheSet
            | OpKind::CacheAdd
            | OpKind::CacheDelete
            | OpKind::CacheDeleteIfOwner
            | OpKind::DbSelect
            | OpKind::DbFindOrder
            | OpKind::DbInsert
            | OpKind::DbLockRow
            | OpKind::DbCommit
    )
}

impl Replay {
    /// The order of `config`'s simulated run (following its schedule; an
    /// error if the schedule does not fit).
    pub fn of(config: &Config) -> Result<Replay, String> {
        let mut run = ScheduledSim::story(config);
        run.finish().map_err(|error| {
            format!(
                "bad scenario: {}",
                crate::config::url::ConfigError::from(error)
            )
        })?;
        let sim = run.into_inner();
        let trace = sim.trace();
        let order = trace
            .events()
            .iter()
            .filter_map(|event| match event.what {
                What::Complete(kind) if replayed(kind) => {
                    Some((event.request, kind, event.outcome, event.time))
                }
                _ => None,
            })
            .collect();
        drop(trace);
        Ok(Replay {
            order,
            clock: Cell::new(0),
            next: Cell::new(0),
            last_landed: Cell::new(None),
            moved: Notify::new(),
            left: RefCell::new(None),
        })
    }

    /// Operations replayed so far, out of all.
    pub fn progress(&self) -> (usize, usize) {
        (self.next.get(), self.order.len())
    }

    /// When the last operation landed (`None` before the first).
    pub fn last_landed(&self) -> Option<tokio::time::Instant> {
        self.last_landed.get()
    }

    /// Why the replay stopped following the simulation, if it did.
    pub fn left(&self) -> Option<String> {
        self.left.borrow().clone()
    }

    /// The simulated time of the operation that landed last (`None` once
    /// the replay has stopped following the simulation).
    pub fn clock(&self) -> Option<Micros> {
        self.left.borrow().is_none().then(|| self.clock.get())
    }

    /// Waits until `request`'s operation `kind` is the next to land, then
    /// returns its simulated time and outcome (`None` once the replay has
    /// stopped following the simulation: the operation goes at once).
    pub async fn turn(&self, request: u32, kind: OpKind) -> Option<(Micros, Outcome)> {
        loop {
            if self.left.borrow().is_some() {
                return None;
            }
            let moved = self.moved.notified();
            match self.order.get(self.next.get()) {
                Some(&(who, what, outcome, at)) if who == request => {
                    if what == kind {
                        self.clock.set(at);
                        return Some((at, outcome));
                    }
                    self.leave(format!(
                        "request {request} sent {kind:?} where the simulation has it send {what:?} \
                         (operation {} of {})",
                        self.next.get() + 1,
                        self.order.len()
                    ));
                    return None;
                }
                Some(_) => {}
                None => {
                    self.leave(format!(
                        "request {request} sent {kind:?} after the simulation's last operation"
                    ));
                    return None;
                }
            }
            moved.await;
        }
    }

    /// The operation whose turn it was has landed (or waits on the
    /// server for a lock the next ones will free): the next one may go.
    pub fn landed(&self) {
        self.next.set(self.next.get() + 1);
        self.last_landed.set(Some(tokio::time::Instant::now()));
        self.moved.notify_waiters();
    }

    /// Stops following the simulation: the real servers answered `real`
    /// where it has `simulated`.
    pub fn part(&self, request: u32, kind: OpKind, simulated: Outcome, real: Outcome) {
        let at = self.clock.get();
        self.leave(format!(
            "at {} ms, request {request}'s {kind:?} came back {real:?} where the simulation's came \
             back {simulated:?} (operation {} of {})",
            at as f64 / 1_000.0,
            self.next.get() + 1,
            self.order.len()
        ));
    }

    fn leave(&self, why: String) {
        self.left.borrow_mut().get_or_insert(why);
        self.moved.notify_waiters();
    }
}

/// A request's turn, held while its operation runs: landing it lets the
/// next go (once, however many times it is called).
pub struct Turn {
    replay: Option<Rc<Replay>>,
    done: Cell<bool>,
    /// The operation, and its outcome in the simulation.
    expected: Option<(u32, OpKind, Outcome)>,
}

impl Turn {
    /// No turn: the run is free (`--free`), or the replay has ended.
    pub fn free() -> Turn {
        Turn {
            replay: None,
            done: Cell::new(true),
            expected: None,
        }
    }

    pub fn held(replay: Rc<Replay>, request: u32, kind: OpKind, outcome: Outcome) -> Turn {
        Turn {
            replay: Some(replay),
            done: Cell::new(false),
            expected: Some((request, kind, outcome)),
        }
    }

    /// The real servers answered `real`: if the simulation's answer was
    /// another, the replay stops following it (and says where).
    pub fn came_back(&self, real: Outcome) {
        if let (Some(replay), Some((request, kind, simulated))) = (&self.replay, self.expected) {
            if real != simulated {
                replay.part(request, kind, simulated, real);
            }
        }
    }

    /// Whether the operation waits its turn (a replay): then it has no
    /// injected latency of its own.
    pub fn replaying(&self) -> bool {
        self.replay.is_some()
    }

    pub fn land(&self) {
        if let (Some(replay), false) = (&self.replay, self.done.replace(true)) {
            replay.landed();
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.land();
    }
}
