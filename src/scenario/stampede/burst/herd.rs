//! A burst under a lock (`add`, `ticket-lock`, `keyed-mutex`): one
//! request holds the lock, every other one polls it, in step, or queues
//! for it. So the run is a queue of groups: requests whose next
//! macrotasks are due at the same time and follow each other in the queue
//! (consecutive sequence numbers), doing the same thing. A round of the
//! herd is one group; the holder's own macrotasks are groups of one. Each
//! group runs request by request, one macrotask each, against the lock's
//! and the cache's state in the world's own types (`Cache`, `Tickets`,
//! `ServerLocks`), so a request that finds the lock free leaves the herd
//! where stepping would have it leave.
//!
//! What each macrotask does is the code of `strategy::add`,
//! `strategy::ticket_lock`, `strategy::keyed_mutex` and
//! `scenario::stampede::get_item`, for one key on one server with no
//! fault; `tests/burst.rs` holds both ways equal.

use std::collections::BTreeMap;

use super::{Burst, ITEM, LOCK};
use crate::config::{Config, Micros, StrategyKind};
use crate::sim::trace::{OpKind, TraceKey};
use crate::sim::{Latencies, Metrics, Outcome, Site, What};
use crate::world::locks::{Acquire, SlotId, Tickets};
use crate::world::{Cache, CacheKey, LockKey, Lookup, ServerLocks};

/// The one key, as the cache and the lock tables name it.
const KEY: LockKey = LockKey(0);
const CACHED_ITEM: CacheKey = CacheKey::Data(0);
const CACHED_LOCK: CacheKey = CacheKey::Lock(KEY);

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

pub(super) struct Herd {
    lock: Lock,
    out: Burst,
    max_events: u64,
    cache_latency: Micros,
    db_latency: Micros,
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
    ttl: Micros,
    /// The item and `add`'s lock.
    cache: Cache,
    tickets: Tickets,
    /// The keyed mutex (its waiters by request).
    locks: ServerLocks,
    holders: u64,
    selects: u64,
    metrics: Metrics,
    latencies: Vec<Micros>,
}

impl Herd {
    /// `cache` and `db` are the constant latencies.
    pub(super) fn new(
        lock: Lock,
        config: &Config,
        (cache, db): (Micros, Micros),
        out: Burst,
        max_events: u64,
    ) -> Self {
        let requests = out.requests as usize;
        Herd {
            lock,
            out,
            max_events,
            cache_latency: cache,
            db_latency: db,
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
            ttl: config.ttl,
            cache: Cache::new(config.grace),
            tickets: Tickets::default(),
            locks: ServerLocks::default(),
            holders: 0,
            selects: 0,
            metrics: Metrics::default(),
            latencies: Vec::with_capacity(requests),
        }
    }

    /// Runs to the end; `None` past `max_events` macrotasks.
    pub(super) fn run(mut self) -> Option<Metrics> {
        let cache = self.cache_latency;
        self.out.arrive(cache);
        for request in 0..self.out.requests {
            self.schedule(request, Next::Miss, self.out.start.saturating_add(cache));
        }
        self.close();
        while let Some(((due, _), group)) = self.queue.pop_first() {
            self.out.time = due;
            for &request in &group.requests {
                // (Steps are numbered in a u32, as the engine numbers them.)
                if u64::from(self.out.step) >= self.max_events.min(u32::MAX.into()) {
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
                let token = u64::from(r) + 1;
                let stored = self.cache.add(CACHED_LOCK, token, self.lock_ttl, now);
                let outcome = if stored {
                    Outcome::Stored
                } else {
                    Outcome::NotStored
                };
                self.out
                    .complete(r, OpKind::CacheAdd, LOCK, outcome, Site::LockAdd);
                if stored {
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
                let found = self.cache.get(CACHED_ITEM, now);
                let outcome = match found {
                    Lookup::Live(_) => Outcome::Hit,
                    Lookup::Stale(_) => Outcome::Stale,
                    Lookup::Miss => Outcome::Miss,
                };
                self.out
                    .complete(r, OpKind::CacheGet, ITEM, outcome, Site::Recheck);
                if outcome == Outcome::Hit {
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
                    .issue(r, OpKind::CacheSet, ITEM, Site::Set, self.cache_latency);
                self.schedule(r, Next::SetLanded, now.saturating_add(self.cache_latency));
            }
            Next::SetLanded => {
                self.cache.set(CACHED_ITEM, 1, self.ttl, now);
                self.out
                    .complete(r, OpKind::CacheSet, ITEM, Outcome::Stored, Site::Set);
                self.leave(r);
            }
            Next::DeleteLanded => {
                let outcome = if self.cache.delete(CACHED_LOCK, now) {
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
                if self.locks.lock(KEY, r as SlotId) == Acquire::Free {
                    self.out.mark(r, What::MutexGrant, LOCK, Site::Acquire);
                    self.enter(r);
                } else {
                    self.out.mark(r, What::MutexWait, LOCK, Site::Acquire);
                }
            }
            Lock::Ticket => {
                let ticket = self.tickets.take(self.out.time);
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
            .issue(r, OpKind::CacheAdd, LOCK, Site::LockAdd, self.cache_latency);
        self.schedule(
            r,
            Next::AddLanded,
            self.out.time.saturating_add(self.cache_latency),
        );
    }

    fn sleep(&mut self, r: u32, site: Site, next: Next) {
        self.out
            .issue(r, OpKind::Sleep, TraceKey::None, site, self.poll);
        self.schedule(r, next, self.out.time.saturating_add(self.poll));
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

    /// `Ctx::check_ticket`: a held ticket past its lease is skipped first.
    fn check_ticket(&mut self, r: u32) -> bool {
        let ticket = self.ticket[r as usize];
        let check = self.tickets.check(ticket, self.lock_ttl, self.out.time);
        if let Some(expired) = check.expired {
            let (lease, site) = (Outcome::None, Site::LockTick);
            self.out
                .event(r, What::LeaseExpired, LOCK, lease, site, expired);
        }
        check.served
    }

    /// In the section: the double check, or straight to the load.
    fn enter(&mut self, r: u32) {
        self.holders += 1;
        self.metrics.max_in_critical_section =
            self.metrics.max_in_critical_section.max(self.holders);
        self.out.mark(r, What::Enter, ITEM, Site::None);
        if self.double_check {
            self.out
                .issue(r, OpKind::CacheGet, ITEM, Site::Recheck, self.cache_latency);
            self.schedule(
                r,
                Next::RecheckLanded,
                self.out.time.saturating_add(self.cache_latency),
            );
        } else {
            self.select(r);
        }
    }

    fn select(&mut self, r: u32) {
        self.selects += 1;
        self.metrics.db_reads += 1;
        self.metrics.peak_db_concurrency = self.metrics.peak_db_concurrency.max(self.selects);
        self.out
            .issue(r, OpKind::DbSelect, ITEM, Site::Select, self.db_latency);
        self.schedule(
            r,
            Next::SelectLanded,
            self.out.time.saturating_add(self.db_latency),
        );
    }

    /// Out of the section, then the release.
    fn leave(&mut self, r: u32) {
        self.holders -= 1;
        self.out.mark(r, What::Exit, ITEM, Site::None);
        match self.lock {
            Lock::Add => {
                self.out.issue(
                    r,
                    OpKind::CacheDelete,
                    LOCK,
                    Site::LockDelete,
                    self.cache_latency,
                );
                self.schedule(
                    r,
                    Next::DeleteLanded,
                    self.out.time.saturating_add(self.cache_latency),
                );
            }
            Lock::Ticket => {
                let ticket = self.ticket[r as usize];
                self.tickets.release(ticket, self.out.time);
                self.respond(r, Outcome::Ok);
            }
            Lock::Mutex => {
                // The hand-off is recorded at the release; the next holder
                // resumes in a microtask, after this handler returns.
                let next = self.locks.unlock(KEY).map(|slot| slot as u32);
                if let Some(next) = next {
                    self.out.mark(next, What::MutexGrant, LOCK, Site::Acquire);
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
