//! The state one run mutates: clock, queues, RNG, world, parked waiters,
//! trace and tally. Scenario code reaches it through `Ctx`; the executor
//! drives it through `Sim`.

use std::collections::VecDeque;

use crate::scenario::config::{Config, Latency, Micros};
use crate::sim::metrics::Tally;
use crate::sim::queue::{Macrotask, MacrotaskQueue};
use crate::sim::rng::{SimRng, Stream};
use crate::sim::trace::{OpKind, Outcome, Site, Trace, TraceEvent, TraceKey, What};
use crate::world::locks::SlotId;
use crate::world::{Cache, CacheKey, Db, Lookup, ServerLocks};

/// A request's task; requests are numbered in arrival order.
pub type TaskId = u32;

/// An operation on the cache or the DB, or a timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Get(CacheKey),
    Set(CacheKey, u64, Micros),
    Add(CacheKey, u64, Micros),
    Delete(CacheKey),
    Select(u32),
    FindOrder(u32),
    Insert(u32),
    Sleep(Micros),
}

impl Op {
    pub fn kind(self) -> OpKind {
        match self {
            Op::Get(_) => OpKind::CacheGet,
            Op::Set(..) => OpKind::CacheSet,
            Op::Add(..) => OpKind::CacheAdd,
            Op::Delete(_) => OpKind::CacheDelete,
            Op::Select(_) => OpKind::DbSelect,
            Op::FindOrder(_) => OpKind::DbFindOrder,
            Op::Insert(_) => OpKind::DbInsert,
            Op::Sleep(_) => OpKind::Sleep,
        }
    }

    pub fn key(self) -> TraceKey {
        match self {
            Op::Get(key) | Op::Set(key, ..) | Op::Add(key, ..) | Op::Delete(key) => match key {
                CacheKey::Data(id) => TraceKey::Data(id),
                CacheKey::Lock(lock) => TraceKey::Lock(lock.0),
            },
            Op::Select(id) | Op::FindOrder(id) | Op::Insert(id) => TraceKey::Data(id),
            Op::Sleep(_) => TraceKey::None,
        }
    }

    fn is_db(self) -> bool {
        matches!(self, Op::Select(_) | Op::FindOrder(_) | Op::Insert(_))
    }
}

/// What a parked waiter is woken with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Lookup(Lookup),
    Stored(bool),
    Deleted(bool),
    Row(u64),
    Found(bool),
    Inserted,
    Woke,
    Granted,
    /// A single-flight leader's result.
    Shared(u64),
}

/// A parked await: an operation in flight, a timer, or a lock wait.
struct Slot {
    request: TaskId,
    site: Site,
    op: Option<Op>,
    reply: Option<Reply>,
    waiter: Option<TaskId>,
    /// Its future was dropped (a fire-and-forget insert): free on completion.
    abandoned: bool,
}

pub struct Core {
    pub now: Micros,
    /// Macrotasks run so far; the index of the running one while it runs.
    pub steps: u32,
    pub queue: MacrotaskQueue,
    pub micro: VecDeque<TaskId>,
    /// The task being polled.
    pub current: TaskId,
    rng: SimRng,
    cache_latency: Latency,
    db_latency: Latency,
    write_latency: Latency,
    pub cache: Cache,
    pub db: Db,
    pub servers: Vec<ServerLocks>,
    slots: Vec<Option<Slot>>,
    free: Vec<SlotId>,
    pub trace: Trace,
    pub tally: Tally,
}

impl Core {
    pub fn new(config: &Config, keep_trace: bool) -> Self {
        Core {
            now: 0,
            steps: 0,
            queue: MacrotaskQueue::default(),
            micro: VecDeque::new(),
            current: 0,
            rng: SimRng::new(config.seed, Stream::Latency),
            cache_latency: config.cache_latency,
            db_latency: config.db_latency,
            write_latency: config.write_latency(),
            cache: Cache::new(config.grace),
            db: Db::new(config.db_pool),
            servers: (0..config.servers)
                .map(|_| ServerLocks::default())
                .collect(),
            slots: Vec::new(),
            free: Vec::new(),
            trace: Trace::new(keep_trace),
            tally: Tally::default(),
        }
    }

    pub fn record(
        &mut self,
        request: TaskId,
        what: What,
        key: TraceKey,
        outcome: Outcome,
        site: Site,
        detail: u64,
    ) {
        self.trace.push(TraceEvent {
            step: self.steps,
            time: self.now,
            request,
            what,
            key,
            outcome,
            site,
            detail,
        });
    }

    /// A new parked await owned by `request`.
    pub fn park(&mut self, request: TaskId, site: Site, op: Option<Op>) -> SlotId {
        let slot = Slot {
            request,
            site,
            op,
            reply: None,
            waiter: None,
            abandoned: false,
        };
        match self.free.pop() {
            Some(id) => {
                self.slots[id] = Some(slot);
                id
            }
            None => {
                self.slots.push(Some(slot));
                self.slots.len() - 1
            }
        }
    }

    fn slot(&mut self, id: SlotId) -> &mut Slot {
        self.slots[id].as_mut().expect("a live slot")
    }

    /// Frees a slot that nothing will resolve or await any more.
    pub fn release_slot(&mut self, id: SlotId) {
        self.slots[id] = None;
        self.free.push(id);
    }

    pub fn slot_request(&self, id: SlotId) -> TaskId {
        self.slots[id].as_ref().map_or(0, |s| s.request)
    }

    /// Sends an operation: draws its latency now, in issue order, and
    /// schedules its completion (a DB query may first wait for a connection).
    pub fn issue(&mut self, request: TaskId, op: Op, site: Site) -> SlotId {
        let latency = match op {
            Op::Get(_) | Op::Set(..) | Op::Add(..) | Op::Delete(_) => {
                self.rng.latency(self.cache_latency)
            }
            Op::Select(_) | Op::FindOrder(_) => self.rng.latency(self.db_latency),
            Op::Insert(_) => self.rng.latency(self.write_latency),
            Op::Sleep(duration) => duration,
        };
        let id = self.park(request, site, Some(op));
        self.record(
            request,
            What::Issue(op.kind()),
            op.key(),
            Outcome::None,
            site,
            latency,
        );
        match op {
            Op::Sleep(_) => self.schedule(latency, Macrotask::Timer(id)),
            Op::Insert(_) => {
                self.tally.db_writes += 1;
                self.connect(id, latency, request, op, site);
            }
            Op::Select(_) | Op::FindOrder(_) => {
                self.tally.db_reads += 1;
                self.connect(id, latency, request, op, site);
            }
            _ => self.schedule(latency, Macrotask::Complete(id)),
        }
        id
    }

    fn schedule(&mut self, delay: Micros, task: Macrotask) {
        self.queue.schedule_after(self.now, delay, task);
    }

    fn connect(&mut self, id: SlotId, latency: Micros, request: TaskId, op: Op, site: Site) {
        if self.db.connect(id, latency) {
            self.tally.db_connected(self.db.in_use());
            self.schedule(latency, Macrotask::Complete(id));
        } else {
            let what = What::PoolWait;
            self.record(request, what, op.key(), Outcome::None, site, 0);
        }
    }

    /// Runs a completion macrotask: the effect lands now, a freed DB
    /// connection passes to the oldest queued query, then the waiter wakes.
    pub fn complete(&mut self, id: SlotId) {
        let slot = self.slot(id);
        let (request, site) = (slot.request, slot.site);
        let op = slot.op.expect("an operation slot");
        let now = self.now;
        let (reply, outcome) = match op {
            Op::Get(key) => {
                let found = self.cache.get(key, now);
                if let CacheKey::Data(_) = key {
                    if let Lookup::Live(_) = found {
                        self.tally.cache_hits += 1;
                    } else {
                        self.tally.cache_misses += 1;
                    }
                }
                let outcome = match found {
                    Lookup::Live(_) => Outcome::Hit,
                    Lookup::Stale(_) => Outcome::Stale,
                    Lookup::Miss => Outcome::Miss,
                };
                (Reply::Lookup(found), outcome)
            }
            Op::Set(key, value, ttl) => {
                self.cache.set(key, value, ttl, now);
                (Reply::Stored(true), Outcome::Stored)
            }
            Op::Add(key, value, ttl) => {
                let stored = self.cache.add(key, value, ttl, now);
                let outcome = if stored {
                    Outcome::Stored
                } else {
                    Outcome::NotStored
                };
                (Reply::Stored(stored), outcome)
            }
            Op::Delete(key) => {
                let deleted = self.cache.delete(key, now);
                let outcome = if deleted {
                    Outcome::Deleted
                } else {
                    Outcome::NotFound
                };
                (Reply::Deleted(deleted), outcome)
            }
            Op::Select(id) => (Reply::Row(self.db.select(id)), Outcome::Row),
            Op::FindOrder(user) => {
                let found = self.db.find_order(user);
                let outcome = if found {
                    Outcome::Found
                } else {
                    Outcome::NoOrder
                };
                (Reply::Found(found), outcome)
            }
            Op::Insert(user) => {
                self.db.insert_order(user);
                (Reply::Inserted, Outcome::Inserted)
            }
            Op::Sleep(_) => (Reply::Woke, Outcome::Woke),
        };
        self.record(
            request,
            What::Complete(op.kind()),
            op.key(),
            outcome,
            site,
            0,
        );
        if op.is_db() {
            if let Some((next, latency)) = self.db.disconnect() {
                let slot = self.slot(next);
                let (next_request, next_op, next_site) =
                    (slot.request, slot.op.expect("a query"), slot.site);
                let key = next_op.key();
                self.record(
                    next_request,
                    What::PoolStart,
                    key,
                    Outcome::None,
                    next_site,
                    latency,
                );
                self.schedule(latency, Macrotask::Complete(next));
            }
        }
        self.fire(id, reply);
    }

    /// Resolves a parked await; its waiter resumes as a microtask.
    pub fn fire(&mut self, id: SlotId, reply: Reply) {
        let slot = self.slot(id);
        if slot.abandoned {
            self.release_slot(id);
            return;
        }
        slot.reply = Some(reply);
        if let Some(task) = slot.waiter {
            self.micro.push_back(task);
        }
    }

    /// Resolves a lock or single-flight wait, recording `what` for the
    /// waiting request.
    pub fn hand_over(&mut self, id: SlotId, what: What, key: TraceKey, reply: Reply) {
        let slot = self.slot(id);
        let (request, site) = (slot.request, slot.site);
        self.record(request, what, key, Outcome::None, site, 0);
        self.fire(id, reply);
    }

    /// The reply if the await has resolved (freeing the slot); else parks
    /// the current task on it.
    pub fn poll_slot(&mut self, id: SlotId) -> Option<Reply> {
        let current = self.current;
        let slot = self.slot(id);
        match slot.reply.take() {
            Some(reply) => {
                self.release_slot(id);
                Some(reply)
            }
            None => {
                slot.waiter = Some(current);
                None
            }
        }
    }

    /// The awaiting future was dropped before it resolved.
    pub fn abandon(&mut self, id: SlotId) {
        let slot = self.slot(id);
        if slot.reply.is_some() {
            self.release_slot(id);
        } else {
            slot.abandoned = true;
            slot.waiter = None;
        }
    }
}
