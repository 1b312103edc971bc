//! Explore and manual modes: which macrotasks may run next, and running a
//! chosen one.
//!
//! The *enabled* events are every pending I/O completion (network delay is
//! unbounded, so completions may land in any order) plus the earliest
//! pending timer or arrival (those follow the local clock, so they keep
//! their order among themselves). A DB query waiting for a pool connection
//! is not pending yet. They are listed in (due, seq) order, so index 0 is
//! always what `step()` would run: the default order. Delivering an event
//! sets `now = max(now, due)`: late, never early.

use crate::config::Micros;
use crate::sim::core::{Core, Op};
use crate::sim::executor::{Sim, StepReport};
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::requests::{Requests, Target};

/// One enabled event, as the manual-mode UI lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub due: Micros,
    pub seq: u64,
    pub task: Macrotask,
    /// The request it belongs to.
    pub request: u32,
    /// Such as "db find_order for user 0 click 1 completes".
    pub label: String,
}

impl Sim {
    /// The enabled events, in (due, seq) order (see the module docs).
    pub fn enabled_pending(&self) -> Vec<Pending> {
        self.core().enabled_pending()
    }

    /// The enabled events with their labels, for the UI.
    pub fn enabled(&self) -> Vec<Choice> {
        choices(&self.core(), self.requests(), self.enabled_pending())
    }

    /// Runs enabled event `index` (0 is the default order); `None` when
    /// the index is out of range or the run is over.
    pub fn step_choice(&mut self, index: usize) -> Option<StepReport> {
        let pending = *self.enabled_pending().get(index)?;
        self.step_pending(pending.due, pending.seq)
    }

    pub fn request_of(&self, task: Macrotask) -> u32 {
        request_of(&self.core(), task)
    }

    /// "who" a request is: "user 0 click 1" or "request 3 (item 0)".
    pub fn describe_request(&self, request: u32) -> String {
        who(self.requests(), request)
    }
}

/// `enabled` (in (due, seq) order) as manual mode lists them.
pub fn choices(core: &Core, requests: &Requests, enabled: Vec<Pending>) -> Vec<Choice> {
    enabled
        .into_iter()
        .map(|pending| Choice {
            due: pending.due,
            seq: pending.seq,
            task: pending.task,
            request: request_of(core, pending.task),
            label: label(core, requests, pending.task),
        })
        .collect()
}

/// The request a queued macrotask belongs to.
pub fn request_of(core: &Core, task: Macrotask) -> u32 {
    match task {
        Macrotask::Arrival(request) => request,
        Macrotask::Complete(slot) | Macrotask::Timer(slot) => core.slot_request(slot),
        Macrotask::Cohort(id) => core.cohort_front(id),
    }
}

/// "who" a request is: "user 0 click 1" or "request 3 (item 0)".
pub fn who(requests: &Requests, request: u32) -> String {
    match requests.get(request as usize).map(|spec| spec.target) {
        Some(Target::Click { user, click }) => format!("user {user} click {click}"),
        Some(Target::Item(item)) => format!("request {request} (item {item})"),
        None => format!("request {request}"),
    }
}

/// An enabled event as manual mode lists it: "db find_order for user 0
/// click 1 completes".
pub fn label(core: &Core, requests: &Requests, task: Macrotask) -> String {
    let who = who(requests, request_of(core, task));
    match task {
        Macrotask::Arrival(_) => format!("{who} arrives"),
        Macrotask::Timer(_) => format!("sleep timer of {who} fires"),
        Macrotask::Cohort(_) => format!("a poll of {who}"),
        Macrotask::Complete(slot) => {
            let what = match core.slot_op(slot) {
                Some(Op::Get(key)) if key.is_lock() => "cache get of the lock",
                Some(Op::Get(_)) => "cache get",
                Some(Op::Set(key, ..)) if key.is_lock() => "cache set of the lock",
                Some(Op::Set(..) | Op::SetDelta(..)) => "cache set",
                Some(Op::Add(..)) => "cache add of the lock",
                Some(Op::Delete(_)) => "cache delete of the lock",
                Some(Op::DeleteIfOwner(..)) => "owner-checked delete of the lock",
                Some(Op::Emit(..)) => "setImmediate(emit)",
                Some(Op::Select(_)) => "db select",
                Some(Op::FindOrder(_)) => "db find_order",
                Some(Op::Insert(..)) => "db insert",
                Some(Op::Script(_)) => "script operation",
                Some(Op::LockRow(_)) => "db select for update",
                Some(Op::Commit(_)) => "db commit",
                Some(Op::Sleep(_)) | None => "operation",
            };
            format!("{what} for {who} completes")
        }
    }
}
