//! A burst under a lock (`add`, `ticket-lock`, `keyed-mutex`): one
//! request holds the lock, every other one polls it, in step, or queues
//! for it. So the run is a queue of groups: requests whose next macrotasks are due at the
//! same time and follow each other in the queue (consecutive sequence
//! numbers), doing the same thing. A round of the herd is one group; the
//! holder's own macrotasks are groups of one. Each group runs request by
//! request, one macrotask each, with the lock's and the cache's state
//! kept here as the engine keeps it, so a request that finds the lock free
//! leaves the herd where stepping would have it leave.
//!
//! What each macrotask does is the code of `strategy::add`,
//! `strategy::ticket_lock`, `strategy::keyed_mutex` and
//! `scenario::stampede::get_item`, for one key
//! on one server with no fault; `tests/burst.rs` holds both ways equal.

use std::collections::{BTreeMap, VecDeque};

use super::{Burst, ITEM, LOCK};
use crate::config::{Config, Micros, StrategyKind};
use crate::sim::trace::{OpKind, TraceKey};
use crate::sim::{Latencies, Metrics, Outcome, Site, What};

/// The lock the herd waits for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Lock {
    /// `add` in the cache, retried every `poll`.
    Add,
    /// An in-process ticket lock checked every `poll` (setInterval).
    Ticket,
    /// An in-process FIFO mutex that hands itself to the next waiter.
    Mutex,
}

impl Lock {
    pub(super) fn of(strategy: StrategyKind) -> Option<Lock> {
        match strategy {
            StrategyKind::Add => Some(Lock::Add),
            StrategyKind::TicketLock => Some(Lock::Ticket),
            StrategyKind::KeyedMutex => Some(Lock::Mutex),
            _ => None,
        }
    }
}

/// What a request's next macrotask is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Its first cache read lands: a miss, the cache starts cold.
    Miss,
    /// `add`: its `add` of the lock key lands.
    AddLanded,
    /// `add`: its sleep of `poll` ends.
    PollWoke,
    /// `ticket-lock`: its interval fires.
    Tick,
    /// The holder's double-check read lands.
    RecheckLanded,
    SelectLanded,
    SetLanded,
    /// `add`: the holder's delete of the lock key lands.
    DeleteLanded,
}

/// Requests whose macrotasks come one after another in the queue.
struct Group {
    next: Next,
    requests: Vec<u32>,
}

/// The cached item: when it was set, if it was.
#[derive(Clone, Copy)]
struct Item {
    set_at: Option<Micros>,
    ttl: Micros,
    grace: Micros,
}

impl Item {
    /// `Cache::get` of the data key.
    fn lookup(self, now: Micros) -> Outcome {
        let Some(at) = self.set_at else {
            return Outcome::Miss;
        };
        if self.ttl == 0 {
            return Outcome::Hit;
        }
        let expires = at.saturating_add(self.ttl);
        if now < expires {
            Outcome::Hit
        } else if now < expires.saturating_add(self.grace) {
            Outcome::Stale
        } else {
            Outcome::Miss
        }
    }
}

/// The ticket lock's counters (`world::locks::Tickets`).
#[derive(Default)]
struct Tickets {
    next: u64,
    serving: u64,
    served_since: Micros,
}

pub(super) struct Herd {
    lock: Lock,
    out: Burst,
    max_events: u64,
    cache: Micros,
    db: Micros,
    poll: Micros,
    wait_timeout: Micros,
    lock_ttl: Micros,
    double_check: bool,
    queue: BTreeMap<(Micros, u64), Group>,
    /// The group the last scheduled macrotask joined, not yet queued: the
    /// next one joins it too if it is due at the same time for the same.
    open: Option<((Micros, u64), Group)>,
    next_seq: u64,
    spare: Vec<Vec<u32>>,
    /// Per request: when its wait for the lock began, and its ticket.
    started: Vec<Micros>,
    ticket: Vec<u64>,
    item: Item,
    /// `add`'s lock entry: `Some(expiry)` while stored (`None`: never).
    lock_entry: Option<Option<Micros>>,
    tickets: Tickets,
    /// The mutex's holder and its queue, oldest first.
    mutex_held: bool,
    mutex_queue: VecDeque<u32>,
    holders: u64,
    selects: u64,
    metrics: Metrics,
    latencies: Vec<Micros>,
}

impl Herd {
    pub(super) fn new(lock: Lock, config: &Config, out: Burst, max_events: u64) -> Self {
        let (cache, db) = match (config.cache_latency, config.db_latency) {
            (crate::config::Latency::Const(c), crate::config::Latency::Const(d)) => (c, d),
            _ => unreachable!("burst::metrics takes constant latencies only"),
        };
        let requests = out.requests as usize;
        Herd {
            lock,
            out,
            max_events,
            cache,
            db,
            poll: config.poll,
            wait_timeout: config.wait_timeout,
            lock_ttl: config.lock_ttl,
            double_check: config.double_check,
            queue: BTreeMap::new(),
            open: None,
            // The arrivals took the first sequence numbers.
            next_seq: requests as u64,
            spare: Vec::new(),
            started: vec![0; requests],
            ticket: vec![0; requests],
            item: Item {
                set_at: None,
                ttl: config.ttl,
                grace: config.grace,
            },
            lock_entry: None,
            tickets: Tickets::default(),
            mutex_held: false,
            mutex_queue: VecDeque::new(),
            holders: 0,
            selects: 0,
            metrics: Metrics::default(),
            latencies: Vec::with_capacity(requests),
        }
    }

    /// Runs to the end; `None` past `max_events` macrotasks.
    pub(super) fn run(mut self) -> Option<Metrics> {
        let cache = self.cache;
        self.out.arrive(cache);
        for request in 0..self.out.requests {
            self.schedule(request, Next::Miss, self.out.start + cache);
        }
        self.close();
        while let Some(((due, _), group)) = self.queue.pop_first() {
            self.out.time = due;
            for &request in &group.requests {
                if u64::from(self.out.step) >= self.max_events {
                    return None;
                }
                self.run_macrotask(group.next, request);
                self.out.step += 1;
            }
            self.close();
            let mut requests = group.requests;
            requests.clear();
            self.spare.push(requests);
        }
        let mut metrics = self.metrics;
        metrics.events = u64::from(self.out.step);
        if metrics.events >= self.max_events {
            return None;
        }
        metrics.hung = u64::from(self.out.requests) - self.latencies.len() as u64;
        metrics.latency_us = Latencies::of(&self.latencies);
        metrics.trace_hash = self.out.trace.hash();
        Some(metrics)
    }

    /// Queues `request`'s next macrotask at `due`.
    #[inline]
    fn schedule(&mut self, request: u32, next: Next, due: Micros) {
        let seq = self.next_seq;
        self.next_seq += 1;
        if let Some(((at, _), group)) = &mut self.open {
            if *at == due && group.next == next {
                group.requests.push(request);
                return;
            }
        }
        self.close();
        let mut requests = self.spare.pop().unwrap_or_default();
        requests.push(request);
        self.open = Some(((due, seq), Group { next, requests }));
    }

    /// Queues the open group: nothing else can join it now.
    fn close(&mut self) {
        if let Some((key, group)) = self.open.take() {
            self.queue.insert(key, group);
        }
    }

    fn run_macrotask(&mut self, next: Next, r: u32) {
        let now = self.out.time;
        match next {
            Next::Miss => {
                self.out
                    .complete(r, OpKind::CacheGet, ITEM, Outcome::Miss, Site::Get);
                self.metrics.cache_misses += 1;
                self.acquire(r);
            }
            Next::AddLanded => {
                let free = self
                    .lock_entry
                    .is_none_or(|expiry| expiry.is_some_and(|at| now >= at));
                let outcome = if free {
                    Outcome::Stored
                } else {
                    Outcome::NotStored
                };
                self.out
                    .complete(r, OpKind::CacheAdd, LOCK, outcome, Site::LockAdd);
                if free {
                    self.lock_entry =
                        Some((self.lock_ttl > 0).then(|| now.saturating_add(self.lock_ttl)));
                    self.enter(r);
                } else if self.keep_waiting(r) {
                    self.sleep(r, Site::LockPoll, Next::PollWoke);
                }
            }
            Next::PollWoke => {
                self.woke(r, Site::LockPoll);
                self.issue_add(r);
            }
            Next::Tick => {
                self.woke(r, Site::LockTick);
                if self.check_ticket(r) {
                    self.enter(r);
                } else if self.keep_waiting(r) {
                    self.sleep(r, Site::LockTick, Next::Tick);
                }
            }
            Next::RecheckLanded => {
                let found = self.item.lookup(now);
                self.out
                    .complete(r, OpKind::CacheGet, ITEM, found, Site::Recheck);
                if found == Outcome::Hit {
                    self.metrics.cache_hits += 1;
                    self.leave(r);
                } else {
                    self.metrics.cache_misses += 1;
                    self.select(r);
                }
            }
            Next::SelectLanded => {
                self.selects -= 1;
                self.out
                    .complete(r, OpKind::DbSelect, ITEM, Outcome::Row, Site::Select);
                self.out
                    .issue(r, OpKind::CacheSet, ITEM, Site::Set, self.cache);
                self.schedule(r, Next::SetLanded, now + self.cache);
            }
            Next::SetLanded => {
                self.item.set_at = Some(now);
                self.out
                    .complete(r, OpKind::CacheSet, ITEM, Outcome::Stored, Site::Set);
                self.leave(r);
            }
            Next::DeleteLanded => {
                let live = self
                    .lock_entry
                    .is_some_and(|expiry| expiry.is_none_or(|at| now < at));
                self.lock_entry = None;
                let outcome = if live {
                    Outcome::Deleted
                } else {
                    Outcome::NotFound
                };
                self.out
                    .complete(r, OpKind::CacheDelete, LOCK, outcome, Site::LockDelete);
                self.respond(r, Outcome::Ok);
            }
        }
    }

    /// `strategy::acquire` after the first read missed.
    fn acquire(&mut self, r: u32) {
        self.started[r as usize] = self.out.time;
        match self.lock {
            Lock::Add => self.issue_add(r),
            Lock::Mutex => {
                if self.mutex_held {
                    self.mutex_queue.push_back(r);
                    self.out.mark(r, What::MutexWait, LOCK, Site::Acquire);
                } else {
                    self.mutex_held = true;
                    self.out.mark(r, What::MutexGrant, LOCK, Site::Acquire);
                    self.enter(r);
                }
            }
            Lock::Ticket => {
                let ticket = self.take_ticket();
                self.ticket[r as usize] = ticket;
                self.out.event(
                    r,
                    What::TakeTicket,
                    LOCK,
                    Outcome::None,
                    Site::Acquire,
                    ticket,
                );
                if self.check_ticket(r) {
                    // `await yield_now()`: the microtask runs in this macrotask.
                    self.enter(r);
                } else if self.keep_waiting(r) {
                    self.sleep(r, Site::LockTick, Next::Tick);
                }
            }
        }
    }

    fn issue_add(&mut self, r: u32) {
        self.out
            .issue(r, OpKind::CacheAdd, LOCK, Site::LockAdd, self.cache);
        self.schedule(r, Next::AddLanded, self.out.time + self.cache);
    }

    fn sleep(&mut self, r: u32, site: Site, next: Next) {
        self.out
            .issue(r, OpKind::Sleep, TraceKey::None, site, self.poll);
        self.schedule(r, next, self.out.time + self.poll);
    }

    fn woke(&mut self, r: u32, site: Site) {
        self.out
            .complete(r, OpKind::Sleep, TraceKey::None, Outcome::Woke, site);
    }

    /// `cache_lock::keep_waiting`, and the ticket lock's same test: counts
    /// the failed attempt, and gives up once `wait_timeout` has passed.
    fn keep_waiting(&mut self, r: u32) -> bool {
        self.metrics.lock_wakeups += 1;
        if self.out.time - self.started[r as usize] < self.wait_timeout {
            return true;
        }
        self.metrics.timeouts += 1;
        self.out.mark(r, What::GiveUp, LOCK, Site::Acquire);
        // `give_up(cached)`: the first read found nothing stale to serve.
        self.respond(r, Outcome::Failed);
        false
    }

    /// `Locks::take_ticket`.
    fn take_ticket(&mut self) -> u64 {
        let tickets = &mut self.tickets;
        if tickets.serving == tickets.next {
            tickets.served_since = self.out.time;
        }
        tickets.next += 1;
        tickets.next - 1
    }

    /// `Ctx::check_ticket`: a held ticket past its lease is skipped first.
    fn check_ticket(&mut self, r: u32) -> bool {
        let now = self.out.time;
        let tickets = &mut self.tickets;
        let held = tickets.serving < tickets.next;
        if held && self.lock_ttl > 0 && now - tickets.served_since >= self.lock_ttl {
            let expired = tickets.serving;
            tickets.serving += 1;
            tickets.served_since = now;
            self.out.event(
                r,
                What::LeaseExpired,
                LOCK,
                Outcome::None,
                Site::LockTick,
                expired,
            );
        }
        self.tickets.serving == self.ticket[r as usize]
    }

    /// In the section: the double check, or straight to the load.
    fn enter(&mut self, r: u32) {
        self.holders += 1;
        self.metrics.max_in_critical_section =
            self.metrics.max_in_critical_section.max(self.holders);
        self.out.mark(r, What::Enter, ITEM, Site::None);
        if self.double_check {
            self.out
                .issue(r, OpKind::CacheGet, ITEM, Site::Recheck, self.cache);
            self.schedule(r, Next::RecheckLanded, self.out.time + self.cache);
        } else {
            self.select(r);
        }
    }

    fn select(&mut self, r: u32) {
        self.selects += 1;
        self.metrics.db_reads += 1;
        self.metrics.peak_db_concurrency = self.metrics.peak_db_concurrency.max(self.selects);
        self.out
            .issue(r, OpKind::DbSelect, ITEM, Site::Select, self.db);
        self.schedule(r, Next::SelectLanded, self.out.time + self.db);
    }

    /// Out of the section, then the release.
    fn leave(&mut self, r: u32) {
        self.holders -= 1;
        self.out.mark(r, What::Exit, ITEM, Site::None);
        match self.lock {
            Lock::Add => {
                self.out
                    .issue(r, OpKind::CacheDelete, LOCK, Site::LockDelete, self.cache);
                self.schedule(r, Next::DeleteLanded, self.out.time + self.cache);
            }
            Lock::Ticket => {
                let tickets = &mut self.tickets;
                if tickets.serving == self.ticket[r as usize] {
                    tickets.serving += 1;
                    tickets.served_since = self.out.time;
                }
                self.respond(r, Outcome::Ok);
            }
            Lock::Mutex => {
                // The hand-off is recorded at the release; the next holder
                // resumes in a microtask, after this handler returns.
                let next = self.mutex_queue.pop_front();
                if let Some(next) = next {
                    self.out.mark(next, What::MutexGrant, LOCK, Site::Acquire);
                } else {
                    self.mutex_held = false;
                }
                self.respond(r, Outcome::Ok);
                if let Some(next) = next {
                    self.enter(next);
                }
            }
        }
    }

    fn respond(&mut self, r: u32, outcome: Outcome) {
        self.latencies.push(self.out.time - self.out.start);
        if outcome == Outcome::Failed {
            self.metrics.errors += 1;
        }
        self.out.respond(r, outcome);
    }
}
