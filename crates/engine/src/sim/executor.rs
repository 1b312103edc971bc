//! The event loop: one macrotask, then every microtask, FIFO. `step()` runs
//! one macrotask; `run()` runs them all.

use std::cell::{Ref, RefCell};
use std::future::Future;
use std::ops::Range;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::config::{Config, Micros};
use crate::sim::core::{Core, TaskId};
use crate::sim::ctx::Ctx;
use crate::sim::footprint::{Footprint, Object};
use crate::sim::metrics::Metrics;
use crate::sim::poll::Step;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::requests::{RequestSpec, Requests, Target};
use crate::sim::trace::{OpKind, Outcome, Site, Trace, TraceEvent, TraceKey, What};
use crate::sim::window::Window;

/// A request's handler: the scenario's async function.
pub type Handler = Pin<Box<dyn Future<Output = Outcome>>>;
pub type Body = fn(Ctx, Target) -> Handler;

/// What a queued macrotask belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TaskInfo {
    pub request: u32,
    /// The operation that completes (`None` for an arrival).
    pub op: Option<OpKind>,
    pub key: TraceKey,
    pub site: Site,
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepReport {
    /// The macrotask's index in the run (0-based).
    pub index: u32,
    /// Virtual time after the step.
    pub time: Micros,
    pub task: Macrotask,
    /// The trace events it added.
    pub events: Range<usize>,
}

pub struct Sim {
    core: Rc<RefCell<Core>>,
    config: Rc<Config>,
    requests: Requests,
    /// The handlers of the requests under way.
    handlers: Window<Handler>,
    body: Body,
    /// Microtask polls so far (see [`Sim::work`]).
    polls: u64,
    /// Requests left out of this run (explore's independent groups, see
    /// `explore::groups`, native only): each arrives and answers at once,
    /// doing nothing.
    #[cfg(not(target_arch = "wasm32"))]
    absent: Option<Rc<[bool]>>,
}

impl Sim {
    /// A run of `requests`, all arrivals scheduled up front in index order.
    pub fn with_plan(config: &Config, requests: Requests, body: Body, core: Core) -> Sim {
        let mut core = core;
        let arrivals = requests.arrivals();
        let burst = arrivals.largest_burst();
        core.set_arrivals(arrivals);
        // A run that keeps no events folds the emitter lock's herds.
        core.fold_herds = !core.trace.keeps_events();
        Sim {
            core: Rc::new(RefCell::new(core)),
            config: Rc::new(config.clone()),
            handlers: Window::with_capacity(burst),
            polls: 0,
            requests,
            body,
            #[cfg(not(target_arch = "wasm32"))]
            absent: None,
        }
    }

    /// Leaves out the requests marked in `absent`: each still arrives (its
    /// arrival keeps its place in the clock's order) and answers at once,
    /// touching nothing else.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn leave_out(&mut self, absent: Rc<[bool]>) {
        self.absent = Some(absent);
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn requests(&self) -> &Requests {
        &self.requests
    }

    pub fn now(&self) -> Micros {
        self.core.borrow().now
    }

    /// Macrotasks run so far.
    /// Engine work done so far: a unit per macrotask and per microtask
    /// poll, so a caller that must stay responsive (the browser) can bound
    /// a call by work rather than by macrotasks, whose cost varies by a
    /// thousand times (one may wake a herd of 20,000 waiters).
    pub fn work(&self) -> u64 {
        u64::from(self.core.borrow().steps) + self.polls
    }

    pub fn steps(&self) -> u32 {
        self.core.borrow().steps
    }

    /// Requests that have returned so far.
    pub fn finished_requests(&self) -> u64 {
        self.core.borrow().tally.latencies.len() as u64
    }

    pub fn is_done(&self) -> bool {
        self.core.borrow().queue.is_empty()
    }

    /// Moves the trace's events out, leaving its hash (see
    /// [`Trace::take_events`]).
    pub fn take_events(&mut self) -> Vec<TraceEvent> {
        self.core.borrow_mut().trace.take_events()
    }

    pub fn trace(&self) -> Ref<'_, Trace> {
        Ref::map(self.core.borrow(), |core| &core.trace)
    }

    /// The queued macrotasks, in the order they will run.
    pub fn pending(&self) -> Vec<Pending> {
        self.core.borrow().queue.iter().collect()
    }

    /// What a queued macrotask will do, for the event-loop pane.
    pub fn describe(&self, task: Macrotask) -> TaskInfo {
        describe(&self.core.borrow(), task)
    }

    /// Runs the next macrotask and drains the microtasks it caused.
    pub fn step(&mut self) -> Option<StepReport> {
        let next = self.core.borrow_mut().queue.pop()?;
        Some(self.deliver(next))
    }

    /// Runs the queued macrotask `(due, seq)` out of order (explore mode):
    /// `now` becomes `max(now, due)`, so it may run late, never early.
    pub fn step_pending(&mut self, due: Micros, seq: u64) -> Option<StepReport> {
        let next = self.core.borrow_mut().queue.take(due, seq)?;
        Some(self.deliver(next))
    }

    /// Queues the polling locks' waiters in cohorts and folds each round
    /// of plain failures (`sim::poll`), in a run that keeps no events and
    /// records no footprints: the same run, but a cohort's queue entry is
    /// one task for many macrotasks, so only a caller that never lists or
    /// chooses the queued tasks (`interleave run`) asks for it.
    pub fn fold_polls(&mut self) {
        let mut core = self.core.borrow_mut();
        core.cohorts_on = !core.trace.keeps_events() && !core.touches.on;
    }

    /// Runs each polling lock's wait as the loop the real servers run
    /// (`sim::ops::poll_loop`), awaited operation by operation, instead
    /// of the engine's primitive (`sim::poll`): the same run, event for
    /// event, only slower. The tests compare the two.
    pub fn poll_by_loop(&mut self) {
        self.core.borrow_mut().poll_by_loop = true;
    }

    /// Records from now on what each step touches (explore mode).
    pub fn track_footprints(&mut self) {
        let mut core = self.core.borrow_mut();
        core.touches.on = true;
        // A step's footprint needs each listener's wake-up, and each poll.
        core.fold_herds = false;
        core.cohorts_on = false;
        core.touches.pool_bounded = self.config.db_pool.is_some();
    }

    /// What the steps since the last call touched (empty unless tracked).
    pub fn take_footprint(&mut self) -> Footprint {
        self.core.borrow_mut().touches.take()
    }

    pub(crate) fn core(&self) -> Ref<'_, Core> {
        self.core.borrow()
    }

    /// Keeps no log of loads: `redundant_db_reads` stays 0 (the CLI's
    /// `run`, which never prints it).
    pub fn skip_load_log(&mut self) {
        self.core.borrow_mut().tally.loads.turn_off();
    }

    /// Selects that loaded a key again within one expiry (`db-reads`).
    pub fn redundant_db_reads(&self) -> u64 {
        self.core.borrow().tally.loads.redundant()
    }

    fn deliver(&mut self, next: Pending) -> StepReport {
        let (start, index) = {
            let core = self.core.borrow();
            (core.trace.len(), core.steps)
        };
        self.run_task(next);
        let core = self.core.borrow();
        StepReport {
            index,
            time: core.now,
            task: next.task,
            events: start..core.trace.len(),
        }
    }

    /// Runs one macrotask and drains the microtasks it caused.
    fn run_task(&mut self, next: Pending) {
        let mut arrived = None;
        {
            let mut core = self.core.borrow_mut();
            core.now = core.now.max(next.due);
            match next.task {
                Macrotask::Arrival(request) => {
                    core.touches.touch(Object::Clock, false);
                    let spec = self.requests.spec(request as usize);
                    let key = TraceKey::None;
                    core.record(
                        request,
                        What::Arrive,
                        key,
                        Outcome::None,
                        Site::None,
                        u64::from(spec.server),
                    );
                    core.micro.push_back(request);
                    arrived = Some((request, spec));
                }
                Macrotask::Complete(slot) | Macrotask::Timer(slot) => core.complete(slot),
                Macrotask::Cohort(id) => core.run_cohort_member(id),
            }
        }
        if let Some((request, spec)) = arrived {
            self.start(request, spec);
        }
        self.drain_microtasks();
        let mut core = self.core.borrow_mut();
        core.steps += 1;
        core.tally.events += 1;
    }

    /// Runs the next macrotasks, at most `budget` (at least 1): one, or
    /// a polling cohort's round folded (`sim::poll`). Returns how many
    /// ran (0 once none is left).
    fn advance(&mut self, budget: u64) -> u64 {
        let Some(next) = self.core.borrow_mut().queue.pop() else {
            return 0;
        };
        if let (true, Macrotask::Cohort(id)) = (cfg!(not(target_arch = "wasm32")), next.task) {
            let folded = self.core.borrow_mut().fold_cohort(id, next.due, budget);
            if folded > 0 {
                return folded;
            }
        }
        self.run_task(next);
        1
    }

    /// Runs to the end and returns the metrics.
    pub fn run(&mut self) -> Metrics {
        while self.advance(u64::MAX) > 0 {}
        self.metrics()
    }

    /// Runs at most `budget` more macrotasks, so a caller (the browser)
    /// can bound or chunk a long run; true once the run is done.
    pub fn run_for(&mut self, budget: u64) -> bool {
        let mut left = budget;
        while left > 0 {
            match self.advance(left) {
                0 => return true,
                ran => left -= ran,
            }
        }
        self.is_done()
    }

    fn start(&mut self, request: TaskId, spec: RequestSpec) {
        #[cfg(not(target_arch = "wasm32"))]
        if self
            .absent
            .as_ref()
            .is_some_and(|absent| absent[request as usize])
        {
            self.core.borrow_mut().respond(request, Outcome::Ok);
            return;
        }
        let cx = Ctx::new(self.core.clone(), self.config.clone(), request, spec.server);
        self.handlers
            .insert(request as usize, (self.body)(cx, spec.target));
    }

    fn drain_microtasks(&mut self) {
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            let task = {
                let mut core = self.core.borrow_mut();
                self.polls += core.relisten_herd();
                let Some(task) = core.micro.pop_front() else {
                    core.end_herd();
                    break;
                };
                core.current = task;
                self.polls += 1;
                // A polling lock's failed attempt needs no handler.
                if core.is_polling(task) && core.advance_poll(task) == Step::Waiting {
                    continue;
                }
                task
            };
            let Some(handler) = self.handlers.get_mut(task as usize) else {
                continue;
            };
            if let Poll::Ready(outcome) = handler.as_mut().poll(&mut cx) {
                drop(self.handlers.remove(task as usize));
                self.finish(task, outcome);
            }
        }
    }

    /// The handler ended; it answers now unless it already has.
    fn finish(&mut self, request: TaskId, outcome: Outcome) {
        self.core.borrow_mut().respond(request, outcome);
    }

    /// The counters now (final once the run is done).
    pub fn metrics(&self) -> Metrics {
        let mut core = self.core.borrow_mut();
        let hung = if core.queue.is_empty() {
            self.handlers.len() as u64
        } else {
            0
        };
        let (orders, duplicates) = (core.db.orders(), core.db.duplicate_tickets());
        let hash = core.trace.hash();
        core.tally.metrics(orders, duplicates, hung, hash)
    }
}

/// What a queued macrotask will do: its request, and for a completion or a
/// timer the operation and the site that wait on it.
pub fn describe(core: &Core, task: Macrotask) -> TaskInfo {
    match task {
        Macrotask::Arrival(request) => TaskInfo {
            request,
            op: None,
            key: TraceKey::None,
            site: Site::None,
        },
        Macrotask::Cohort(id) => TaskInfo {
            request: core.cohort_front(id),
            op: None,
            key: TraceKey::None,
            site: Site::None,
        },
        Macrotask::Complete(slot) | Macrotask::Timer(slot) => {
            let (request, site, op) = core.slot_info(slot).unwrap_or((0, Site::None, None));
            TaskInfo {
                request,
                op: op.map(|op| op.kind()),
                key: op.map_or(TraceKey::None, |op| op.key()),
                site,
            }
        }
    }
}
