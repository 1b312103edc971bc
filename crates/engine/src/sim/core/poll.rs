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
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::config::Latency;
use crate::config::Micros;
use crate::sim::core::{Core, Op, Reply, TaskId};
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::trace::{OpKind, Outcome, Site, Trace, TraceEvent, TraceKey, What};
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
    /// The attempt or the timer is a member of a cohort.
    Queued,
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
        if self.polls.is_empty() {
            self.polls.reserve(self.burst);
        }
        self.polls.insert(request as usize, wait);
        self.polling += 1;
    }

    /// Whether `request` waits in a polling lock.
    #[inline(always)]
    pub fn is_polling(&self, request: TaskId) -> bool {
        self.polling > 0 && self.polls.get(request as usize).is_some()
    }

    /// One step of `request`'s wait, run as its microtask, if its attempt
    /// or timer has landed: the next attempt, a sleep, or the wait's end
    /// (kept until [`Core::poll_result`] takes it).
    pub fn advance_poll(&mut self, request: TaskId) -> Step {
        let Some(mut wait) = self.polls.get(request as usize).copied() else {
            return Step::Unresolved;
        };
        let next = match wait.state {
            State::Done(_) => return Step::Over,
            State::Queued => return Step::Unresolved,
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
        self.polls.insert(request as usize, wait);
        match next {
            State::Done(_) => Step::Over,
            _ => Step::Waiting,
        }
    }

    /// The end of `request`'s wait, once over: whether it took the lock.
    /// The wait is forgotten.
    pub fn poll_result(&mut self, request: TaskId) -> Option<bool> {
        let State::Done(taken) = self.polls.get(request as usize)?.state else {
            return None;
        };
        self.polls.remove(request as usize);
        self.polling -= 1;
        Some(taken)
    }

    /// Explore mode: whether delivering `pending` now (at `max(now, due)`)
    /// is a *stutter* of a polling wait: a step that changes nothing but
    /// the clock, `lock_wakeups` and the waiter's next attempt or timer.
    /// That is a cache lock's poll timer (it only sends the next attempt),
    /// or an attempt or ticket check that finds the lock taken before the
    /// wait's deadline, the lock staying taken until the deadline unless
    /// someone releases it (its entry, or the served ticket's lease, lasts).
    /// See "Polling waits" in docs/explore.md.
    pub fn stutters(&self, pending: Pending) -> bool {
        let (Macrotask::Complete(slot) | Macrotask::Timer(slot)) = pending.task else {
            return false;
        };
        let request = self.slot_request(slot);
        let Some(wait) = self.polls.get(request as usize).copied() else {
            return false;
        };
        let at = self.now.max(pending.due);
        let deadline = wait.start.saturating_add(wait.timing.wait_timeout);
        let lock = CacheKey::Lock(wait.key);
        let held = |t| self.cache.get(lock, t).live().is_some();
        match (wait.state, wait.attempt) {
            (State::Sleeping(s), Attempt::Ticket { ticket, lock_ttl }) if s == slot => {
                let Some(tickets) = self.servers[wait.server as usize].tickets(wait.key) else {
                    return false;
                };
                at < deadline
                    && tickets.serving() != ticket
                    && !tickets.lease_runs_out(lock_ttl, deadline.max(at))
            }
            (State::Sleeping(s), _) => s == slot,
            (State::Trying(s), _) => s == slot && at < deadline && held(at) && held(deadline),
            _ => false,
        }
    }

    /// Sends one attempt (`add` or `get` of the lock key), the request
    /// parked on it.
    fn try_once(&mut self, request: TaskId, wait: &PollWait) -> State {
        let lock = CacheKey::Lock(wait.key);
        let (op, site) = match wait.attempt {
            Attempt::Add { token, lock_ttl } => (Op::Add(lock, token, lock_ttl), Site::LockAdd),
            _ => (Op::Get(lock), Site::LockGet),
        };
        self.send(request, wait, op, site)
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
        let sleep = Op::Sleep(wait.timing.poll);
        self.send(request, wait, sleep, sleep_site(wait.attempt))
    }

    /// Sends `op` (an attempt, or a poll timer) for `request`'s wait. In
    /// a run whose waiters poll in cohorts ([`Core::cohorts_on`]) it is
    /// sent as [`Core::issue`] would, but as a member of a cohort: the
    /// last one, if it polls the same lock the same way and is due at the
    /// same time, else a new one. Otherwise (or if no queue lane can take
    /// a new cohort) the request is parked on its own slot.
    fn send(&mut self, request: TaskId, wait: &PollWait, op: Op, site: Site) -> State {
        let timer = matches!(op, Op::Sleep(_));
        if !(cfg!(not(target_arch = "wasm32")) && self.cohorts_on) {
            let slot = self.issue_awaited(request, op, site);
            return match timer {
                true => State::Sleeping(slot),
                false => State::Trying(slot),
            };
        }
        let latency = self.draw_latency(op);
        let due = self.now.saturating_add(latency);
        let kind = CohortKind {
            timer,
            attempt: attempt_kind(wait.attempt),
        };
        let grown = self
            .cohorts
            .last
            .filter(|&id| self.cohorts.list[id as usize].kind == kind)
            .filter(|&id| self.queue.grow_cohort(id, due));
        let id = match grown {
            Some(id) => id,
            None => {
                let id = self.cohorts.open(kind);
                if !self.queue.schedule_cohort(self.now, latency, id, 1) {
                    self.cohorts.close(id);
                    let slot = self.issue_drawn(request, op, site, latency);
                    self.await_slot(slot);
                    return match timer {
                        true => State::Sleeping(slot),
                        false => State::Trying(slot),
                    };
                }
                id
            }
        };
        let member = Member {
            request,
            server: wait.server,
            key: wait.key,
            ticket: match wait.attempt {
                Attempt::Ticket { ticket, .. } => ticket,
                _ => 0,
            },
            start: wait.start,
        };
        self.cohorts.list[id as usize].push(member);
        let what = What::Issue(op.kind());
        self.record(request, what, op.key(), Outcome::None, site, latency);
        State::Queued
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
        let Some(wait) = self.polls.remove(request as usize) else {
            return;
        };
        self.polling -= 1;
        if let State::Trying(slot) | State::Sleeping(slot) = wait.state {
            self.abandon(slot);
        }
    }
}

/// What a cohort's members wait for: their poll timers, or their
/// attempts, of one kind of polling lock (the locks may differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CohortKind {
    timer: bool,
    attempt: AttemptKind,
}

/// An [`Attempt`] without its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AttemptKind {
    Add,
    Get,
    Ticket,
}

fn attempt_kind(attempt: Attempt) -> AttemptKind {
    match attempt {
        Attempt::Add { .. } => AttemptKind::Add,
        Attempt::Get => AttemptKind::Get,
        Attempt::Ticket { .. } => AttemptKind::Ticket,
    }
}

/// Waiters whose next macrotasks (attempts landing, or poll timers
/// firing) are due together and queued one after another: one queue
/// entry (`Macrotask::Cohort`) stands for them all, in order.
struct Cohort {
    kind: CohortKind,
    members: VecDeque<Member>,
    /// The lock every member waits for (server and key), if they share one.
    same: Option<(u32, LockKey)>,
}

impl Cohort {
    fn push(&mut self, member: Member) {
        let lock = (member.server, member.key);
        if self.members.is_empty() {
            self.same = Some(lock);
        } else if self.same != Some(lock) {
            self.same = None;
        }
        self.members.push_back(member);
    }
}

/// A cohort's member: its request, the lock it waits for (server and
/// key), its ticket (ticket lock) and when its wait started.
#[derive(Clone, Copy, Debug)]
struct Member {
    request: TaskId,
    server: u32,
    key: LockKey,
    ticket: u64,
    start: Micros,
}

/// The cohorts under way, by id (ids are reused once a cohort is empty).
#[derive(Default)]
pub struct Cohorts {
    list: Vec<Cohort>,
    free: Vec<u32>,
    /// The cohort made last: a new member may join it.
    last: Option<u32>,
}

impl Cohorts {
    fn open(&mut self, kind: CohortKind) -> u32 {
        let cohort = Cohort {
            kind,
            members: VecDeque::new(),
            same: None,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.list[id as usize] = cohort;
                id
            }
            None => {
                self.list.push(cohort);
                self.list.len() as u32 - 1
            }
        };
        self.last = Some(id);
        id
    }

    fn close(&mut self, id: u32) {
        self.list[id as usize].members = VecDeque::new();
        self.free.push(id);
        if self.last == Some(id) {
            self.last = None;
        }
    }
}

impl Core {
    /// The request whose macrotask cohort `id`'s queue entry runs next.
    pub fn cohort_front(&self, id: u32) -> TaskId {
        let cohort = self.cohorts.list.get(id as usize);
        cohort
            .and_then(|c| c.members.front())
            .map_or(0, |m| m.request)
    }

    /// Runs the macrotask of cohort `id`'s next member: its attempt lands
    /// (as [`Core::complete`] would land it) or its poll timer fires, and
    /// its wait takes its next step at once, as its microtask would. A
    /// wait that ends queues the request's microtask: its handler resumes.
    pub fn run_cohort_member(&mut self, id: u32) {
        if cfg!(target_arch = "wasm32") {
            // (The page's runs have no cohorts: see `send`.)
            return;
        }
        let cohort = &mut self.cohorts.list[id as usize];
        let member = cohort.members.pop_front().expect("a member");
        let (request, server, key) = (member.request, member.server, member.key);
        let kind = cohort.kind;
        if cohort.members.is_empty() {
            self.cohorts.close(id);
        }
        self.current = request;
        let mut wait = *self.polls.get(request as usize).expect("a polling wait");
        let (lock, now) = (CacheKey::Lock(key), self.now);
        let next = match (kind.timer, wait.attempt) {
            (true, attempt) => {
                let (what, site) = (What::Complete(OpKind::Sleep), sleep_site(attempt));
                self.record(request, what, TraceKey::None, Outcome::Woke, site, 0);
                match attempt {
                    Attempt::Ticket { ticket, lock_ttl } => {
                        match self.check_ticket(request, server, key, ticket, lock_ttl) {
                            true => State::Done(true),
                            false => self.attempt_failed(request, &wait),
                        }
                    }
                    _ => self.try_once(request, &wait),
                }
            }
            (false, attempt) => {
                let (op, site, taken, outcome) = match attempt {
                    Attempt::Add { token, lock_ttl } => {
                        let stored = self.cache.add(lock, token, lock_ttl, now);
                        let outcome = match stored {
                            true => Outcome::Stored,
                            false => Outcome::NotStored,
                        };
                        (OpKind::CacheAdd, Site::LockAdd, stored, outcome)
                    }
                    _ => {
                        let found = self.cache.get(lock, now);
                        let outcome = match found {
                            Lookup::Live(_) => Outcome::Hit,
                            Lookup::Stale(_) => Outcome::Stale,
                            Lookup::Miss => Outcome::Miss,
                        };
                        (
                            OpKind::CacheGet,
                            Site::LockGet,
                            found == Lookup::Miss,
                            outcome,
                        )
                    }
                };
                let (what, lock) = (What::Complete(op), TraceKey::Lock(key.0));
                self.record(request, what, lock, outcome, site, 0);
                match taken {
                    true => State::Done(true),
                    false => self.attempt_failed(request, &wait),
                }
            }
        };
        wait.state = next;
        self.polls.insert(request as usize, wait);
        if let State::Done(_) = next {
            self.micro.push_back(request);
        }
    }
}

impl Core {
    /// Runs the round that cohort `id`'s queue entry stands for (its first
    /// member just taken from the queue, due at `due`) as far as it can at
    /// once: the members whose step is a plain failure (their attempt
    /// finds the lock taken, their tick finds another ticket served, their
    /// timer sends the next attempt), up to the first that takes the lock
    /// or gives up, at most `budget` of them. Each member's macrotask is
    /// one step, as if run one by one: the same trace hash
    /// ([`Trace::fold_rounds`]), tally, clock and queue, each member going
    /// on to the next round's cohort. Returns how many members ran; 0 if
    /// the first one must run on its own ([`Core::run_cohort_member`]).
    ///
    /// [`Trace::fold_rounds`]: crate::sim::trace::Trace::fold_rounds
    pub fn fold_cohort(&mut self, id: u32, due: Micros, budget: u64) -> u64 {
        let cohort = &self.cohorts.list[id as usize];
        let (kind, same) = (cohort.kind, cohort.same);
        let Some(&first) = cohort.members.front() else {
            return 0;
        };
        let Some(&wait) = self.polls.get(first.request as usize) else {
            return 0;
        };
        let now = self.now.max(due);
        let Some(round) = self.round(kind, wait, now) else {
            return 0;
        };
        let timeout = wait.timing.wait_timeout;
        let limit = budget.min(cohort.members.len() as u64) as usize;
        // One lock's state serves every member when they share it.
        let shared =
            same.map(|(server, key)| self.lock_state(kind, wait.attempt, server, key, now));
        let members = &self.cohorts.list[id as usize].members;
        let plain = members
            .iter()
            .take(limit)
            .take_while(|member| {
                if round.counts && now - member.start >= timeout {
                    return false;
                }
                let state = match shared {
                    Some(state) => state,
                    None => self.lock_state(kind, wait.attempt, member.server, member.key, now),
                };
                match state {
                    LockState::Changes => false,
                    LockState::Serves(ticket) => ticket != member.ticket,
                    LockState::Refuses => true,
                }
            })
            .count();
        if plain == 0 || !self.queue.consume_cohort(id, plain as u64 - 1) {
            return 0;
        }
        self.now = now;
        let step = self.steps;
        let members = &self.cohorts.list[id as usize].members;
        match same {
            Some((_, key)) => {
                let block = round.block.map(|event| with_key(event, key));
                let requests = members.iter().take(plain).map(|member| member.request);
                self.trace.fold_rounds(requests, step, &block);
            }
            // Each member's block is the round's with its own lock, whose
            // word is worked out once per lock.
            None => {
                let mut words: Vec<(LockKey, u64)> = Vec::new();
                let rounds = members.iter().take(plain).map(|member| {
                    let word = match words.iter().find(|(key, _)| *key == member.key) {
                        Some(&(_, word)) => word,
                        None => {
                            let block = round.block.map(|event| with_key(event, member.key));
                            let word = Trace::block_word(&block);
                            words.push((member.key, word));
                            word
                        }
                    };
                    (member.request, word)
                });
                self.trace
                    .fold_keyed_rounds(rounds, step, round.block.len());
            }
        }
        self.steps += plain as u32;
        self.tally.events += plain as u64;
        if round.counts {
            self.tally.lock_wakeups += plain as u64;
        }
        self.next_round(id, plain, round);
        plain as u64
    }

    /// What each member of a round of `kind` does now, but for its lock's
    /// state ([`Core::lock_state`]); `None` if the round's first member
    /// must run on its own (its timer's next attempt takes a drawn
    /// latency).
    fn round(&self, kind: CohortKind, wait: PollWait, now: Micros) -> Option<Round> {
        let event = |what, key, outcome, site, detail| TraceEvent {
            step: 0,
            time: now,
            request: 0,
            what,
            key,
            outcome,
            site,
            detail,
        };
        let poll = wait.timing.poll;
        // (The lock's key is each member's own: `LOCK` stands for it.)
        let (op, site) = match wait.attempt {
            Attempt::Add { .. } => (OpKind::CacheAdd, Site::LockAdd),
            Attempt::Get => (OpKind::CacheGet, Site::LockGet),
            Attempt::Ticket { .. } => (OpKind::Sleep, Site::LockTick),
        };
        let sleep = sleep_site(wait.attempt);
        let woke = event(
            What::Complete(OpKind::Sleep),
            TraceKey::None,
            Outcome::Woke,
            sleep,
            0,
        );
        let slept = event(
            What::Issue(OpKind::Sleep),
            TraceKey::None,
            Outcome::None,
            sleep,
            poll,
        );
        match (kind.timer, wait.attempt) {
            (true, Attempt::Ticket { .. }) => Some(Round {
                block: [woke, slept],
                counts: true,
                delay: poll,
            }),
            (true, _) => {
                let Latency::Const(latency) = self.cache_latency else {
                    return None;
                };
                let sent = event(What::Issue(op), LOCK, Outcome::None, site, latency);
                Some(Round {
                    block: [woke, sent],
                    counts: false,
                    delay: latency,
                })
            }
            (false, _) => {
                let outcome = match op {
                    OpKind::CacheAdd => Outcome::NotStored,
                    _ => Outcome::Hit,
                };
                let landed = event(What::Complete(op), LOCK, outcome, site, 0);
                Some(Round {
                    block: [landed, slept],
                    counts: true,
                    delay: poll,
                })
            }
        }
    }

    /// What `key`'s lock on `server` does to a member's step of a round
    /// of `kind` now.
    fn lock_state(
        &self,
        kind: CohortKind,
        attempt: Attempt,
        server: u32,
        key: LockKey,
        now: Micros,
    ) -> LockState {
        match (kind.timer, attempt) {
            (true, Attempt::Ticket { lock_ttl, .. }) => {
                let Some(tickets) = self.servers[server as usize].tickets(key) else {
                    return LockState::Changes;
                };
                match tickets.lease_runs_out(lock_ttl, now) {
                    true => LockState::Changes,
                    false => LockState::Serves(tickets.serving()),
                }
            }
            (true, _) => LockState::Refuses,
            (false, _) => match self.cache.get(CacheKey::Lock(key), now).live() {
                Some(_) => LockState::Refuses,
                None => LockState::Changes,
            },
        }
    }

    /// The first `count` members of cohort `id` ran their round: they go
    /// on to the next one (their next attempt or timer), due `delay`
    /// later, as a cohort: this one moved whole, or a new one.
    fn next_round(&mut self, id: u32, count: usize, round: Round) {
        // A tick is followed by a tick; a cache lock's attempt by a
        // timer, and its timer by an attempt.
        let old = self.cohorts.list[id as usize].kind;
        let kind = CohortKind {
            timer: old.attempt == AttemptKind::Ticket || !old.timer,
            ..old
        };
        let whole = count == self.cohorts.list[id as usize].members.len();
        let target = match whole {
            true => {
                self.cohorts.list[id as usize].kind = kind;
                self.cohorts.last = Some(id);
                id
            }
            false => {
                let members: Vec<Member> = self.cohorts.list[id as usize]
                    .members
                    .drain(..count)
                    .collect();
                let target = self.cohorts.open(kind);
                members
                    .into_iter()
                    .for_each(|member| self.cohorts.list[target as usize].push(member));
                target
            }
        };
        if self
            .queue
            .schedule_cohort(self.now, round.delay, target, count as u64)
        {
            return;
        }
        // No lane can take the cohort: each member waits on its own slot.
        let members = std::mem::take(&mut self.cohorts.list[target as usize].members);
        self.cohorts.close(target);
        for member in members {
            let mut wait = *self
                .polls
                .get(member.request as usize)
                .expect("a polling wait");
            let lock = CacheKey::Lock(member.key);
            let (op, site) = match (kind.timer, wait.attempt) {
                (true, attempt) => (Op::Sleep(wait.timing.poll), sleep_site(attempt)),
                (false, Attempt::Add { token, lock_ttl }) => {
                    (Op::Add(lock, token, lock_ttl), Site::LockAdd)
                }
                (false, _) => (Op::Get(lock), Site::LockGet),
            };
            let slot = self.park(member.request, site, Some(op));
            self.await_slot(slot);
            let task = match kind.timer {
                true => Macrotask::Timer(slot),
                false => Macrotask::Complete(slot),
            };
            self.queue.schedule_after(self.now, round.delay, task);
            wait.state = match kind.timer {
                true => State::Sleeping(slot),
                false => State::Trying(slot),
            };
            self.polls.insert(member.request as usize, wait);
        }
    }
}

/// The key `LOCK` stands for in a round's events: each member's lock.
const LOCK: TraceKey = TraceKey::Lock(u32::MAX);

/// A round's event for a member waiting for `key`'s lock.
fn with_key(event: TraceEvent, key: LockKey) -> TraceEvent {
    match event.key {
        LOCK => TraceEvent {
            key: TraceKey::Lock(key.0),
            ..event
        },
        _ => event,
    }
}

/// What a member's lock does to its step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LockState {
    /// It stays taken for the member: its attempt fails (or its timer
    /// sends the next attempt).
    Refuses,
    /// This ticket is served: its holder takes the lock.
    Serves(u64),
    /// The step changes it (a free lock taken, an expired lease skipped):
    /// the member runs on its own.
    Changes,
}

/// What each member of a foldable round does: its step's two events, and
/// whether it counts a failed attempt; then its next macrotask is due
/// `delay` later.
#[derive(Clone, Copy)]
struct Round {
    block: [TraceEvent; 2],
    counts: bool,
    delay: Micros,
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

/// Where a wait sleeps: the ticket lock's `setInterval` tick, or the
/// cache locks' `sleep(POLL)`.
fn sleep_site(attempt: Attempt) -> Site {
    match attempt {
        Attempt::Ticket { .. } => Site::LockTick,
        _ => Site::LockPoll,
    }
}
