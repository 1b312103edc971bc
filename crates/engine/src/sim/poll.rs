//! A polling lock's wait (`get-set`, `add`, `ticket-lock`) as an engine
//! primitive: try once; while the lock is taken, count the failed attempt,
//! give up once `wait_timeout` has passed since the wait started, else
//! sleep `poll` and try again.
//!
//! ```js
//! const start = Date.now();
//! for (;;) {
//!   if (await tryOnce(key)) return true;   // the strategy's own attempt
//!   if (Date.now() - start >= WAIT_TIMEOUT) return false;
//!   await sleep(POLL);
//! }
//! ```
//!
//! The strategies say what one attempt is ([`Attempt`]); the core runs the
//! loop. A failed attempt changes nothing but the clock and a counter, so
//! the event loop runs it without resuming the request's handler: each
//! step is [`Core::advance_poll`], called where the handler would have
//! resumed (the request's microtask), and the handler resumes only once
//! the wait is over ([`PollLock`]). The trace, the tally and every
//! footprint are those of the loop written as an `async fn`.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::config::Micros;
use crate::sim::core::{Core, Op, Reply, TaskId};
use crate::sim::trace::{Outcome, Site, TraceKey, What};
use crate::world::locks::SlotId;
use crate::world::{CacheKey, LockKey, Lookup};

/// What one attempt of a polling lock is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// `await cache.add(lock:K, token, LOCK_TTL)`: taken if it stored.
    Add { token: u64, lock_ttl: Micros },
    /// `await cache.get(lock:K)`: free if absent (the caller then sets it).
    Get,
    /// The ticket lock's check at each `setInterval` tick: taken once
    /// `ticket` is served (a served ticket held `lock_ttl` is skipped).
    Ticket { ticket: u64, lock_ttl: Micros },
}

/// The loop's timing: `poll` between attempts, giving up once
/// `wait_timeout` has passed since the wait started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub poll: Micros,
    pub wait_timeout: Micros,
}

/// One request's wait.
#[derive(Clone, Copy, Debug)]
pub struct PollWait {
    server: u32,
    key: LockKey,
    attempt: Attempt,
    timing: Timing,
    start: Micros,
    state: State,
}

/// What [`Core::advance_poll`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing: the attempt or timer has not landed.
    Unresolved,
    /// The wait goes on: the next attempt, or a sleep, is sent.
    Waiting,
    /// The wait is over: the handler resumes.
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The attempt's operation is parked on this slot.
    Trying(SlotId),
    /// The poll timer is parked on this slot.
    Sleeping(SlotId),
    /// Over: the lock was taken, or the wait gave up.
    Done(bool),
}

impl Core {
    /// Starts `request`'s wait for `key`'s lock on `server`: sends the
    /// first attempt (`add`, `get`), or, the ticket's first check having
    /// failed already, counts it and sleeps.
    pub fn start_poll(
        &mut self,
        request: TaskId,
        server: u32,
        key: LockKey,
        attempt: Attempt,
        timing: Timing,
    ) {
        let mut wait = PollWait {
            server,
            key,
            attempt,
            timing,
            start: self.now,
            state: State::Done(false),
        };
        wait.state = match attempt {
            Attempt::Ticket { .. } => self.attempt_failed(request, &wait),
            _ => self.try_once(request, &wait),
        };
        let index = request as usize;
        if index >= self.polls.len() {
            self.polls.resize(index + 1, None);
        }
        self.polls[index] = Some(wait);
        self.polling += 1;
    }

    /// Whether `request` waits in a polling lock.
    #[inline(always)]
    pub fn is_polling(&self, request: TaskId) -> bool {
        self.polling > 0 && matches!(self.polls.get(request as usize), Some(Some(_)))
    }

    /// One step of `request`'s wait, run as its microtask, if its attempt
    /// or timer has landed: the next attempt, a sleep, or the wait's end
    /// (kept until [`Core::poll_result`] takes it).
    pub fn advance_poll(&mut self, request: TaskId) -> Step {
        let Some(mut wait) = self.polls.get(request as usize).copied().flatten() else {
            return Step::Unresolved;
        };
        let next = match wait.state {
            State::Done(_) => return Step::Over,
            State::Trying(slot) => {
                let Some(reply) = self.poll_slot(slot) else {
                    return Step::Unresolved;
                };
                let taken = match (reply, wait.attempt) {
                    (Reply::Stored(stored), Attempt::Add { .. }) => stored,
                    (Reply::Lookup(found), Attempt::Get) => found == Lookup::Miss,
                    _ => false,
                };
                match taken {
                    true => State::Done(true),
                    false => self.attempt_failed(request, &wait),
                }
            }
            State::Sleeping(slot) => {
                if self.poll_slot(slot).is_none() {
                    return Step::Unresolved;
                }
                match wait.attempt {
                    Attempt::Ticket { ticket, lock_ttl } => {
                        let (server, key) = (wait.server, wait.key);
                        match self.check_ticket(request, server, key, ticket, lock_ttl) {
                            true => State::Done(true),
                            false => self.attempt_failed(request, &wait),
                        }
                    }
                    _ => self.try_once(request, &wait),
                }
            }
        };
        wait.state = next;
        self.polls[request as usize] = Some(wait);
        match next {
            State::Done(_) => Step::Over,
            _ => Step::Waiting,
        }
    }

    /// The end of `request`'s wait, once over: whether it took the lock.
    /// The wait is forgotten.
    pub fn poll_result(&mut self, request: TaskId) -> Option<bool> {
        let slot = self.polls.get_mut(request as usize)?;
        let State::Done(taken) = (*slot)?.state else {
            return None;
        };
        *slot = None;
        self.polling -= 1;
        Some(taken)
    }

    /// Sends one attempt (`add` or `get` of the lock key), the request
    /// parked on it.
    fn try_once(&mut self, request: TaskId, wait: &PollWait) -> State {
        let lock = CacheKey::Lock(wait.key);
        let (op, site) = match wait.attempt {
            Attempt::Add { token, lock_ttl } => (Op::Add(lock, token, lock_ttl), Site::LockAdd),
            _ => (Op::Get(lock), Site::LockGet),
        };
        State::Trying(self.issue_awaited(request, op, site))
    }

    /// The last attempt found the lock taken: counts it, then gives up if
    /// `wait_timeout` has passed, or sleeps `poll`.
    fn attempt_failed(&mut self, request: TaskId, wait: &PollWait) -> State {
        self.tally.lock_wakeups += 1;
        if self.now - wait.start >= wait.timing.wait_timeout {
            self.tally.timeouts += 1;
            let lock = TraceKey::Lock(wait.key.0);
            self.record(request, What::GiveUp, lock, Outcome::None, Site::Acquire, 0);
            return State::Done(false);
        }
        let site = match wait.attempt {
            Attempt::Ticket { .. } => Site::LockTick,
            _ => Site::LockPoll,
        };
        State::Sleeping(self.issue_awaited(request, Op::Sleep(wait.timing.poll), site))
    }

    /// Sends `op` with `request` parked on it: it resumes when it lands.
    fn issue_awaited(&mut self, request: TaskId, op: Op, site: Site) -> SlotId {
        let slot = self.issue(request, op, site);
        self.await_slot(slot);
        slot
    }

    /// The wait was dropped before it ended: its attempt or timer is
    /// abandoned.
    fn drop_poll(&mut self, request: TaskId) {
        let Some(wait) = self.polls.get_mut(request as usize).and_then(Option::take) else {
            return;
        };
        self.polling -= 1;
        if let State::Trying(slot) | State::Sleeping(slot) = wait.state {
            self.abandon(slot);
        }
    }
}

/// `Ctx::poll_lock`'s future: resolves to whether the lock was taken.
pub struct PollLock<'a> {
    pub(crate) core: &'a RefCell<Core>,
    pub(crate) request: TaskId,
    pub(crate) done: bool,
}

impl Future for PollLock<'_> {
    type Output = bool;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<bool> {
        let result = {
            let mut core = self.core.borrow_mut();
            core.advance_poll(self.request);
            core.poll_result(self.request)
        };
        match result {
            Some(taken) => {
                self.done = true;
                Poll::Ready(taken)
            }
            None => Poll::Pending,
        }
    }
}

impl Drop for PollLock<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.core.borrow_mut().drop_poll(self.request);
        }
    }
}
