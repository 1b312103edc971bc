//! The state one run mutates: clock, queues, RNG, world, parked waiters,
//! trace and tally. Scenario code reaches it through `Ctx`; the executor
//! drives it through `Sim`.

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;

use crate::config::{Config, Latency, Micros, TxMode};
use crate::sim::footprint::{Object, Touches};
use crate::sim::metrics::Tally;
use crate::sim::queue::{Macrotask, MacrotaskQueue};
use crate::sim::requests::Arrivals;
use crate::sim::rng::{SimRng, Stream};
use crate::sim::trace::{OpKind, Outcome, ServerKind, Site, Trace, TraceEvent, TraceKey, What};
use crate::sim::window::Window;
use crate::world::db::{CommitResult, InsertResult};
use crate::world::locks::SlotId;
use crate::world::{Cache, CacheKey, Db, LockKey, Lookup, ServerLocks};

mod fold;
pub mod poll;
use fold::Folding;

/// A request's task; requests are numbered in arrival order.
pub type TaskId = u32;

/// An operation on the cache or the DB, or a timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Get(CacheKey),
    Set(CacheKey, u64, Micros),
    /// A `set` that also stores the recompute time (XFetch's delta).
    SetDelta(CacheKey, u64, Micros, Micros),
    Add(CacheKey, u64, Micros),
    Delete(CacheKey),
    /// Delete only if the key still holds this token.
    DeleteIfOwner(CacheKey, u64),
    Select(u32),
    FindOrder(u32),
    /// An order insert, with the writer's fencing token if it has one.
    Insert(u32, Option<u64>),
    /// `SELECT ... FOR UPDATE` on this user's row (inside a transaction).
    LockRow(u32),
    /// COMMIT of the request's transaction (the user's order row).
    Commit(u32),
    Sleep(Micros),
    /// `setImmediate(() => emitter.emit(key))` on this server.
    Emit(u32, LockKey),
    /// A scripted scenario's operation on the cache or the DB. The run that
    /// sent it keeps what it does and applies it on completion
    /// ([`Core::complete_script`]); here it only takes its latency, its
    /// pool connection and its place in the queue and the trace.
    Script(ScriptOp),
}

/// A script's operation as the event loop sees it: its kind and the
/// interned id of its key (`TraceKey::Data`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptOp {
    pub kind: OpKind,
    pub key: u32,
}

impl Op {
    pub fn kind(self) -> OpKind {
        match self {
            Op::Get(_) => OpKind::CacheGet,
            Op::Set(..) | Op::SetDelta(..) => OpKind::CacheSet,
            Op::Add(..) => OpKind::CacheAdd,
            Op::Delete(_) => OpKind::CacheDelete,
            Op::DeleteIfOwner(..) => OpKind::CacheDeleteIfOwner,
            Op::Select(_) => OpKind::DbSelect,
            Op::FindOrder(_) => OpKind::DbFindOrder,
            Op::Insert(..) => OpKind::DbInsert,
            Op::Sleep(_) => OpKind::Sleep,
            Op::Emit(..) => OpKind::Immediate,
            Op::Script(op) => op.kind,
            Op::LockRow(_) => OpKind::DbLockRow,
            Op::Commit(_) => OpKind::DbCommit,
        }
    }

    pub fn key(self) -> TraceKey {
        match self {
            Op::Get(key)
            | Op::Set(key, ..)
            | Op::SetDelta(key, ..)
            | Op::Add(key, ..)
            | Op::Delete(key)
            | Op::DeleteIfOwner(key, _) => match key {
                CacheKey::Data(id) => TraceKey::Data(id),
                CacheKey::Lock(lock) => TraceKey::Lock(lock.0),
            },
            Op::Select(id)
            | Op::FindOrder(id)
            | Op::Insert(id, _)
            | Op::LockRow(id)
            | Op::Commit(id) => TraceKey::Data(id),
            Op::Sleep(_) => TraceKey::None,
            Op::Emit(_, key) => TraceKey::Lock(key.0),
            Op::Script(op) => TraceKey::Data(op.key),
        }
    }

    fn is_db(self) -> bool {
        match self {
            Op::Select(_) | Op::FindOrder(_) | Op::Insert(..) | Op::LockRow(_) | Op::Commit(_) => {
                true
            }
            Op::Script(op) => op.kind.server().is_some_and(|s| s != ServerKind::Cache),
            _ => false,
        }
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
    /// The DB refused the insert (unique constraint or fencing token).
    Refused,
    /// SERIALIZABLE refused the statement or commit; the transaction is over.
    SerializationFailure,
    /// The transaction committed.
    Committed,
    Woke,
    Granted,
    /// A single-flight leader's result.
    Shared(u64),
}

/// A parked await: an operation in flight, a timer, or a lock wait.
///
/// Only its own request awaits it, so "someone waits" is a flag. 40 bytes:
/// a burst parks one per request at once.
struct Slot {
    request: TaskId,
    site: Site,
    /// The request's task is parked on it: wake it when it resolves.
    waiting: bool,
    /// Its future was dropped (a fire-and-forget insert): free on completion.
    abandoned: bool,
    state: SlotState,
}

enum SlotState {
    /// Not resolved yet; the operation in flight, if any (none for a lock
    /// or flight wait).
    Pending(Option<Op>),
    Resolved(Reply),
}

impl Slot {
    fn op(&self) -> Option<Op> {
        match self.state {
            SlotState::Pending(op) => op,
            SlotState::Resolved(_) => None,
        }
    }
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
    pub(crate) cache_latency: Latency,
    db_latency: Latency,
    write_latency: Latency,
    pub cache: Cache,
    pub db: Db,
    pub servers: Vec<ServerLocks>,
    slots: Vec<Option<Slot>>,
    free: Vec<SlotId>,
    pub trace: Trace,
    pub tally: Tally,
    /// XFetch's coin flips: a stream of their own, so latencies never shift.
    xfetch_rng: SimRng,
    /// The last fencing token handed out, per lock key.
    fences: HashMap<u32, u64>,
    /// The fencing token each request holds.
    pub tokens: HashMap<TaskId, u64>,
    /// Whether each request has answered.
    responded: Vec<bool>,
    /// Explore mode: what the running step touches.
    pub touches: Touches,
    /// The emitter-lock listeners the running emit woke, in wake order,
    /// for [`Core::relisten_herd`]; empty outside that macrotask's drain.
    herd: Herd,
    /// Whether an emit folds its herd (`fold.rs`): set by the built-in
    /// event loop for a run that keeps no events (a kept trace needs each
    /// one, and a script's run drains its own microtasks).
    pub fold_herds: bool,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    fold: Folding,
    /// The polling-lock waits under way, by request (`sim::poll`), and
    /// how many there are.
    pub(crate) polls: Window<poll::PollWait>,
    /// The most requests that arrive at one instant: all of them may be
    /// under way at once, so the per-request tables start with room for
    /// them.
    burst: usize,
    pub(crate) polling: u32,
    /// Whether waiters that poll one lock in step share queue entries
    /// (`sim::poll`; see `Sim::fold_polls`).
    pub cohorts_on: bool,
    pub(crate) cohorts: poll::Cohorts,
    /// Whether a polling lock's wait runs as `sim::ops::poll_loop`, one
    /// awaited operation at a time, instead of the primitive (see
    /// `Sim::poll_by_loop`).
    pub poll_by_loop: bool,
}

/// The waiters one `emit` woke, in the order their microtasks run.
struct Herd {
    server: u32,
    key: LockKey,
    slots: VecDeque<SlotId>,
    /// The next one whose microtask has not run yet.
    next: usize,
}

impl Default for Herd {
    fn default() -> Self {
        Herd {
            server: 0,
            key: LockKey(0),
            slots: VecDeque::new(),
            next: 0,
        }
    }
}

impl Core {
    /// The enabled events in (due, seq) order (explore mode, `Sim::enabled`
    /// and scripts): every operation completion, plus the earliest timer
    /// or arrival (the clock's next event).
    pub fn enabled_pending(&self) -> Vec<crate::sim::queue::Pending> {
        self.queue.enabled()
    }

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
            db: Db::new(config.db_pool)
                .with_unique(config.db_unique)
                .with_transactions(config.tx),
            servers: (0..config.servers)
                .map(|_| ServerLocks::default())
                .collect(),
            slots: Vec::new(),
            free: Vec::new(),
            trace: Trace::new(keep_trace),
            tally: Tally::default(),
            xfetch_rng: SimRng::new(config.seed, Stream::Xfetch),
            fences: HashMap::default(),
            tokens: HashMap::default(),
            responded: Vec::new(),
            touches: Touches::default(),
            herd: Herd::default(),
            fold_herds: false,
            fold: Folding::default(),
            polls: Window::default(),
            burst: 0,
            polling: 0,
            cohorts_on: false,
            cohorts: Default::default(),
            poll_by_loop: false,
        }
    }

    /// The requests' arrival times, set once the plan is known. Sizes the
    /// tables of requests under way for the largest burst, once: grown by
    /// doubling, a 100,000-request burst would fault in about twice their
    /// pages (a one-shot CLI run pays for every fresh page).
    pub fn set_arrivals(&mut self, arrivals: Arrivals) {
        let requests = arrivals.len();
        self.burst = arrivals.largest_burst();
        self.slots.reserve(self.burst);
        self.tally.latencies.reserve(requests);
        self.responded = vec![false; requests];
        self.queue.set_arrivals(arrivals);
    }

    /// Moves every arrival still to come `by` later (a script's servers
    /// that load before they serve).
    pub fn delay_arrivals(&mut self, by: Micros) {
        self.queue.delay_arrivals(by);
    }

    /// The request answers its caller now: its latency is taken and its
    /// outcome counted. A handler may go on working after it (a background
    /// refresh); the first answer is the one that counts.
    /// Whether `request` has answered.
    pub fn has_responded(&self, request: TaskId) -> bool {
        self.responded
            .get(request as usize)
            .copied()
            .unwrap_or(false)
    }

    pub fn respond(&mut self, request: TaskId, outcome: Outcome) {
        let index = request as usize;
        if self.responded[index] {
            return;
        }
        self.responded[index] = true;
        let elapsed = self.now - self.queue.arrival_time(index);
        self.tally.latencies.push(elapsed);
        match outcome {
            Outcome::Failed | Outcome::Crashed => self.tally.errors += 1,
            Outcome::ServedStale => self.tally.stale_served += 1,
            _ => {}
        }
        let key = TraceKey::None;
        self.record(request, What::Return, key, outcome, Site::None, elapsed);
    }

    /// The next fencing token of `key`'s lock, now held by `request`.
    pub fn take_fence(&mut self, request: TaskId, key: u32) -> u64 {
        let token = self.fences.entry(key).or_insert(0);
        *token += 1;
        let token = *token;
        self.tokens.insert(request, token);
        token
    }

    /// One XFetch draw in `(0, 1]`.
    pub fn xfetch_draw(&mut self) -> f64 {
        1.0 - self.xfetch_rng.unit()
    }

    /// `setImmediate(() => emitter.emit(key))`: a macrotask due now, after
    /// those already queued for now.
    pub fn set_immediate_emit(&mut self, request: TaskId, server: u32, key: LockKey) {
        let op = Op::Emit(server, key);
        let id = self.park(request, Site::None, Some(op));
        self.record(
            request,
            What::Issue(op.kind()),
            op.key(),
            Outcome::None,
            Site::None,
            0,
        );
        self.schedule(0, Macrotask::Timer(id));
    }

    #[inline(always)]
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
            waiting: false,
            abandoned: false,
            state: SlotState::Pending(op),
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

    /// What a parked await is: its request, site and operation.
    pub fn slot_info(&self, id: SlotId) -> Option<(TaskId, Site, Option<Op>)> {
        let slot = self.slots.get(id)?.as_ref()?;
        Some((slot.request, slot.site, slot.op()))
    }

    pub fn slot_request(&self, id: SlotId) -> TaskId {
        self.slots[id].as_ref().map_or(0, |s| s.request)
    }

    /// The operation parked in a slot (none for a lock or flight wait).
    pub fn slot_op(&self, id: SlotId) -> Option<Op> {
        self.slots.get(id)?.as_ref()?.op()
    }

    /// Sends an operation: draws its latency now, in issue order, and
    /// schedules its completion (a DB query may first wait for a connection).
    pub fn issue(&mut self, request: TaskId, op: Op, site: Site) -> SlotId {
        let latency = self.draw_latency(op);
        self.issue_drawn(request, op, site, latency)
    }

    /// [`Core::issue`] for an operation that takes `longer` than its
    /// drawn latency (a script's `SELECT pg_sleep(…)`: the server sleeps
    /// before it answers).
    pub fn issue_slower(&mut self, request: TaskId, op: Op, site: Site, longer: Micros) -> SlotId {
        let latency = self.draw_latency(op).saturating_add(longer);
        self.issue_drawn(request, op, site, latency)
    }

    /// The latency of `op`, drawn now (in issue order) where it has one.
    pub(crate) fn draw_latency(&mut self, op: Op) -> Micros {
        match op {
            Op::Get(_) | Op::Set(..) | Op::Add(..) | Op::Delete(_) => {
                self.rng.latency(self.cache_latency)
            }
            Op::Select(_) | Op::FindOrder(_) | Op::LockRow(_) => self.rng.latency(self.db_latency),
            Op::Insert(..) | Op::Commit(_) => self.rng.latency(self.write_latency),
            Op::Sleep(duration) => duration,
            Op::Emit(..) => 0,
            Op::SetDelta(..) | Op::DeleteIfOwner(..) => self.rng.latency(self.cache_latency),
            Op::Script(op) => match op.kind.server() {
                Some(ServerKind::Cache) => self.rng.latency(self.cache_latency),
                Some(ServerKind::DbRead) => self.rng.latency(self.db_latency),
                Some(ServerKind::DbWrite) => self.rng.latency(self.write_latency),
                None => 0,
            },
        }
    }

    /// [`Core::issue`] with the latency drawn already.
    pub(crate) fn issue_drawn(
        &mut self,
        request: TaskId,
        op: Op,
        site: Site,
        latency: Micros,
    ) -> SlotId {
        let id = self.park(request, site, Some(op));
        self.record(
            request,
            What::Issue(op.kind()),
            op.key(),
            Outcome::None,
            site,
            latency,
        );
        self.touch_issue(op, latency);
        match op {
            Op::Sleep(_) | Op::Emit(..) => self.schedule(latency, Macrotask::Timer(id)),
            Op::Insert(..) => {
                self.tally.db_writes += 1;
                self.connect(id, latency, request, op, site);
            }
            Op::Commit(_) => self.connect(id, latency, request, op, site),
            Op::Select(_) | Op::FindOrder(_) | Op::LockRow(_) => {
                self.tally.db_reads += 1;
                if let Op::Select(item) = op {
                    self.tally.loads.select_issued(item, self.now);
                }
                self.connect(id, latency, request, op, site);
            }
            Op::Script(script) => match script.kind.server() {
                Some(ServerKind::DbRead) => {
                    self.tally.db_reads += u64::from(script.kind.is_query());
                    self.connect(id, latency, request, op, site);
                }
                Some(ServerKind::DbWrite) => {
                    self.tally.db_writes += u64::from(script.kind.is_query());
                    self.connect(id, latency, request, op, site);
                }
                _ => self.schedule(latency, Macrotask::Complete(id)),
            },
            _ => self.schedule(latency, Macrotask::Complete(id)),
        }
        id
    }

    fn touch_issue(&mut self, op: Op, latency: Micros) {
        if !self.touches.on {
            return;
        }
        match op {
            // A new timer changes which clock event is enabled only when it
            // becomes the earliest one.
            Op::Sleep(_) => {
                let due = self.now.saturating_add(latency);
                if !self.queue.clock_due_by(due) {
                    self.touches.touch(Object::Clock, true);
                }
            }
            Op::Select(item) => self.touches.touch(Object::Loads(item), true),
            _ => {}
        }
        if op.is_db() && self.db_pool_bounded() {
            self.touches.touch(Object::Pool, true);
        }
    }

    fn touch_complete(&mut self, op: Op) {
        if !self.touches.on {
            return;
        }
        let (object, write) = match op {
            Op::Get(key) => (Object::Cache(key), false),
            // An `add` that finds the key live stores nothing: a read.
            Op::Add(key, ..) => (
                Object::Cache(key),
                self.cache.get(key, self.now).live().is_none(),
            ),
            Op::Set(key, ..)
            | Op::SetDelta(key, ..)
            | Op::Delete(key)
            | Op::DeleteIfOwner(key, _) => (Object::Cache(key), true),
            Op::Select(_) => (Object::Pool, false),
            Op::FindOrder(user) => (Object::Orders(user), false),
            Op::Insert(user, _) => (Object::Orders(user), true),
            Op::LockRow(user) => (Object::RowLock(user), true),
            Op::Commit(user) => (Object::Orders(user), true),
            Op::Sleep(_) => (Object::Clock, false),
            // Wakes the emitter lock's listeners on that server.
            Op::Emit(server, key) => (Object::ServerLock(server, key), true),
            // A script's run records its own footprints.
            Op::Script(_) => (Object::Pool, false),
        };
        if object != Object::Pool {
            self.touches.touch(object, write);
        }
        // Ending a transaction passes its row locks on.
        if let Op::Insert(user, _) | Op::Commit(user) = op {
            if self.db.tx_mode() != TxMode::None {
                self.touches.touch(Object::RowLock(user), true);
            }
        }
        if let Op::Set(CacheKey::Data(item), ..) | Op::SetDelta(CacheKey::Data(item), ..) = op {
            self.touches.touch(Object::Loads(item), true);
        }
        if op.is_db() && self.db_pool_bounded() {
            self.touches.touch(Object::Pool, true);
        }
    }

    fn db_pool_bounded(&self) -> bool {
        self.touches.pool_bounded
    }

    fn schedule(&mut self, delay: Micros, task: Macrotask) {
        self.queue.schedule_after(self.now, delay, task);
    }

    /// A query takes a connection (or queues for one). A transaction keeps
    /// the connection its first statement got until it ends.
    fn connect(&mut self, id: SlotId, latency: Micros, request: TaskId, op: Op, site: Site) {
        if self.db.transactions.holds_connection(request) {
            self.schedule(latency, Macrotask::Complete(id));
        } else if self.db.connect(id, latency) {
            self.db.transactions.keep_connection(request);
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
        let op = slot.op().expect("an operation slot");
        let abandoned = slot.abandoned;
        let now = self.now;
        self.touch_complete(op);
        let held_connection = self.db.transactions.holds_connection(request);
        let mut rows_added = 0;
        // Row locks the end of a transaction passes on: granted after the
        // ending request resumes.
        let mut passed_rows = Vec::new();
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
                if let (CacheKey::Data(item), true) = (key, ttl > 0) {
                    self.tally.loads.expires(item, now.saturating_add(ttl));
                }
                (Reply::Stored(true), Outcome::Stored)
            }
            Op::SetDelta(key, value, ttl, delta) => {
                self.cache.set_with_delta(key, value, ttl, delta, now);
                if let (CacheKey::Data(item), true) = (key, ttl > 0) {
                    self.tally.loads.expires(item, now.saturating_add(ttl));
                }
                (Reply::Stored(true), Outcome::Stored)
            }
            Op::DeleteIfOwner(key, token) => match self.cache.delete_if_owner(key, token, now) {
                Some(true) => (Reply::Deleted(true), Outcome::Deleted),
                Some(false) => (Reply::Deleted(false), Outcome::NotOwner),
                None => (Reply::Deleted(false), Outcome::NotFound),
            },
            Op::Emit(server, key) => {
                self.record(
                    request,
                    What::Complete(op.kind()),
                    op.key(),
                    Outcome::None,
                    site,
                    0,
                );
                self.release_slot(id);
                if self.fold_emit(server, key) {
                    return;
                }
                // Every `once` listener runs inside emit, in registration
                // order: each wakes its waiter as a microtask.
                let mut listeners = self.servers[server as usize].emitter_emit(key);
                let mut woken = 0;
                for i in 0..listeners.len() {
                    let listener = listeners[i];
                    let queued = self.micro.len();
                    self.hand_over(listener, What::Wake, op.key(), Reply::Woke);
                    if self.micro.len() > queued {
                        listeners[woken] = listener;
                        woken += 1;
                    }
                }
                listeners.truncate(woken);
                self.herd = Herd {
                    server,
                    key,
                    slots: listeners,
                    next: 0,
                };
                return;
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
                let found = if self.db.in_transaction(request) {
                    self.db.find_order_in(request, user)
                } else {
                    self.db.find_order(user)
                };
                let outcome = if found {
                    Outcome::Found
                } else {
                    Outcome::NoOrder
                };
                (Reply::Found(found), outcome)
            }
            Op::Insert(user, token) if self.db.in_transaction(request) => {
                match self.db.insert_in(request, user, token) {
                    Ok(()) => (Reply::Inserted, Outcome::Buffered),
                    Err((_, granted)) => {
                        passed_rows = granted;
                        (Reply::SerializationFailure, Outcome::SerializationFailure)
                    }
                }
            }
            Op::LockRow(user) => {
                if self.db.transactions.lock_row(request, user, id) {
                    (Reply::Granted, Outcome::Locked)
                } else {
                    // Parked until the holder's transaction ends, keeping
                    // its transaction's connection.
                    self.record(
                        request,
                        What::Complete(op.kind()),
                        op.key(),
                        Outcome::LockWait,
                        site,
                        0,
                    );
                    return;
                }
            }
            Op::Commit(_) => {
                let (result, granted) = self.db.commit(request);
                passed_rows = granted;
                match result {
                    CommitResult::Committed(rows) => {
                        rows_added = u64::from(rows);
                        (Reply::Committed, Outcome::Committed)
                    }
                    CommitResult::Failed(_) => {
                        (Reply::SerializationFailure, Outcome::SerializationFailure)
                    }
                    CommitResult::Refused(refused) => {
                        if refused == InsertResult::Fenced {
                            self.tally.rejected_writes += 1;
                        }
                        let outcome = match refused {
                            InsertResult::Fenced => Outcome::Fenced,
                            _ => Outcome::Conflict,
                        };
                        (Reply::Refused, outcome)
                    }
                }
            }
            Op::Insert(user, token) => match self.db.insert_checked(user, token) {
                InsertResult::Inserted => (Reply::Inserted, Outcome::Inserted),
                refused => {
                    if refused == InsertResult::Fenced {
                        self.tally.rejected_writes += 1;
                    }
                    if abandoned {
                        // No one awaits the write, yet it failed: still an error.
                        self.tally.errors += 1;
                    }
                    let outcome = match refused {
                        InsertResult::Fenced => Outcome::Fenced,
                        _ => Outcome::Conflict,
                    };
                    (Reply::Refused, outcome)
                }
            },
            Op::Sleep(_) => (Reply::Woke, Outcome::Woke),
            // Applied by the script's run, which calls `complete_script`.
            Op::Script(_) => (Reply::Woke, Outcome::None),
        };
        // An insert's fencing token, if it carries one.
        let detail = match op {
            Op::Insert(_, Some(token)) => token,
            Op::Commit(_) => rows_added,
            _ => 0,
        };
        self.record(
            request,
            What::Complete(op.kind()),
            op.key(),
            outcome,
            site,
            detail,
        );
        // A transaction's statement keeps its connection until the
        // transaction ends (commit, or a failure that ended it).
        if op.is_db() && !(held_connection && self.db.in_transaction(request)) {
            self.pass_connection();
        }
        self.fire(id, reply);
        self.grant_rows(passed_rows);
    }

    /// A query finished: its connection passes to the oldest queued query.
    fn pass_connection(&mut self) {
        if let Some((next, latency)) = self.db.disconnect() {
            let slot = self.slot(next);
            let (next_request, next_op, next_site) =
                (slot.request, slot.op().expect("a query"), slot.site);
            let key = next_op.key();
            self.db.transactions.keep_connection(next_request);
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

    /// Row locks a transaction's end passed on: each waiter's FOR UPDATE
    /// returns now, as a microtask.
    pub fn grant_rows(&mut self, granted: Vec<SlotId>) {
        for slot in granted {
            let key = self.slot_op(slot).map_or(TraceKey::None, Op::key);
            if let TraceKey::Data(user) = key {
                self.touches.touch(Object::RowLock(user), true);
            }
            self.hand_over(slot, What::RowLockGrant, key, Reply::Granted);
        }
    }

    /// Completes a script's operation (`Op::Script`) whose effect the
    /// script's run has just applied with this `outcome`: records it, passes
    /// a freed DB connection on, and frees the slot (the run resolves the
    /// script's promise itself).
    pub fn complete_script(&mut self, id: SlotId, outcome: Outcome) {
        let slot = self.slot(id);
        let (request, site) = (slot.request, slot.site);
        let Some(op) = slot.op() else {
            return;
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
            self.pass_connection();
        }
        self.release_slot(id);
    }

    /// Resolves a parked await; its waiter resumes as a microtask.
    #[inline]
    pub fn fire(&mut self, id: SlotId, reply: Reply) {
        let slot = self.slot(id);
        if slot.abandoned {
            self.release_slot(id);
            return;
        }
        slot.state = SlotState::Resolved(reply);
        if slot.waiting {
            let task = slot.request;
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

    /// Emitter lock: `emitter.once(key, wake)` for `request`'s parked
    /// `slot`.
    pub fn emitter_listen(&mut self, server: u32, key: LockKey, slot: SlotId, request: TaskId) {
        self.servers[server as usize].emitter_listen(key, slot);
        self.fold_listener(server, key, request);
    }

    /// The emitter lock's thundering herd without polling each waiter:
    /// while the next microtask is a waiter the last `emit` woke and the
    /// lock is held again, does what its poll would (`await once` returns,
    /// `locked.has(key)` is true: count the wake-up, listen again, await),
    /// in place: the same trace events and tally, the same slot (the poll
    /// would free it and park again on the slot it just freed). Returns
    /// the microtasks so run; the executor polls the others as usual (the
    /// first waiter of a herd, which takes the lock, included).
    #[inline(always)]
    pub fn relisten_herd(&mut self) -> u64 {
        // Every microtask passes here: only a herd's pay for more.
        if !self.herd_folded() && self.herd.next >= self.herd.slots.len() {
            return 0;
        }
        self.relisten_woken()
    }

    // Out of line natively, so the check above stays small where every
    // microtask passes; the page's wasm keeps it inline (smaller).
    #[cfg_attr(not(target_arch = "wasm32"), inline(never))]
    fn relisten_woken(&mut self) -> u64 {
        if self.herd_folded() {
            return self.relisten_folded();
        }
        if self.herd.next >= self.herd.slots.len() {
            return 0;
        }
        let mut herd = std::mem::take(&mut self.herd);
        let server = herd.server;
        let lock = herd.key;
        let mut run = 0;
        // Nothing the loop does takes or frees the lock, and the list it
        // adds to is taken out once and put back.
        let locks = &mut self.servers[server as usize];
        let held = locks.emitter_held(lock);
        let mut listeners = None;
        while let (Some(&task), Some(&id)) = (self.micro.front(), herd.slots.get(herd.next)) {
            let Some(slot) = self.slots[id].as_mut() else {
                break;
            };
            let woken = slot.request == task
                && slot.site == Site::LockListen
                && slot.waiting
                && matches!(slot.state, SlotState::Resolved(Reply::Woke));
            if !woken {
                break;
            }
            herd.next += 1;
            if !held {
                // This one takes the lock: its poll runs as usual.
                break;
            }
            self.micro.pop_front();
            self.current = task;
            slot.state = SlotState::Pending(None);
            listeners
                .get_or_insert_with(|| std::mem::take(locks.emitter_listeners(lock)))
                .push_back(id);
            self.touches.touch(Object::ServerLock(server, lock), true);
            self.tally.lock_wakeups += 1;
            self.trace.push(TraceEvent {
                step: self.steps,
                time: self.now,
                request: task,
                what: What::Listen,
                key: TraceKey::Lock(lock.0),
                outcome: Outcome::None,
                site: Site::LockListen,
                detail: 0,
            });
            run += 1;
        }
        if let Some(list) = listeners {
            *locks.emitter_listeners(lock) = list;
        }
        if herd.next < herd.slots.len() {
            self.herd = herd;
        }
        run
    }

    /// Forgets the last emit's herd (its macrotask is over).
    pub fn end_herd(&mut self) {
        if !self.herd.slots.is_empty() {
            self.herd = Herd::default();
        }
    }

    /// The reply if the await has resolved (freeing the slot); else parks
    /// the current task on it.
    pub fn poll_slot(&mut self, id: SlotId) -> Option<Reply> {
        debug_assert_eq!(
            self.slots[id].as_ref().map(|s| s.request),
            Some(self.current)
        );
        let slot = self.slot(id);
        match slot.state {
            SlotState::Resolved(reply) => {
                self.release_slot(id);
                Some(reply)
            }
            SlotState::Pending(_) => {
                slot.waiting = true;
                None
            }
        }
    }

    /// The current task waits on `id`: it resumes when it resolves.
    pub fn await_slot(&mut self, id: SlotId) {
        self.slot(id).waiting = true;
    }

    /// Ticket lock: skips a ticket of `key` on `server` whose lease
    /// (`lock_ttl`) ran out, then says whether `ticket` is served.
    pub fn check_ticket(
        &mut self,
        request: TaskId,
        server: u32,
        key: LockKey,
        ticket: u64,
        lock_ttl: Micros,
    ) -> bool {
        let now = self.now;
        let check = self.servers[server as usize].check_ticket(key, ticket, lock_ttl, now);
        // A check that is not served and skips no lease changes nothing.
        let write = check.served || check.expired.is_some();
        self.touches.touch(Object::ServerLock(server, key), write);
        if let Some(expired) = check.expired {
            let lock = TraceKey::Lock(key.0);
            let (what, site) = (What::LeaseExpired, Site::LockTick);
            self.record(request, what, lock, Outcome::None, site, expired);
        }
        check.served
    }

    /// The awaiting future was dropped before it resolved.
    pub fn abandon(&mut self, id: SlotId) {
        if cfg!(not(target_arch = "wasm32")) && self.slot(id).site == Site::LockListen {
            // A listener that no one awaits would not wake: herds no
            // longer fold (no built-in strategy drops a listener).
            self.fold_herds = false;
        }
        let slot = self.slot(id);
        if let SlotState::Resolved(_) = slot.state {
            self.release_slot(id);
        } else {
            slot.abandoned = true;
            slot.waiting = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ScenarioKind;

    const KEY: LockKey = LockKey(0);

    /// Three requests listening on an emitter lock, then its emit (a
    /// request took the lock before it if `barged`): folded or woken one
    /// by one.
    fn emitted(fold: bool, barged: bool) -> Core {
        let mut core = Core::new(&Config::new(ScenarioKind::Stampede), false);
        core.fold_herds = fold;
        for request in 0..3 {
            core.current = request;
            let slot = core.park(request, Site::LockListen, None);
            core.emitter_listen(0, KEY, slot, request);
            assert_eq!(core.poll_slot(slot), None);
        }
        if barged {
            assert!(core.servers[0].emitter_try_lock(KEY));
        }
        emit(&mut core);
        core
    }

    /// `setImmediate(() => emitter.emit(key))`, run.
    fn emit(core: &mut Core) {
        core.set_immediate_emit(3, 0, KEY);
        let Macrotask::Timer(slot) = core.queue.pop().expect("the emit").task else {
            panic!("a timer");
        };
        core.complete(slot);
    }

    /// The listeners left, the wake-ups and the trace hash.
    fn outcome(core: &mut Core) -> (VecDeque<SlotId>, u64, String) {
        core.end_herd();
        let listeners = core.servers[0].emitter_emit(KEY);
        (listeners, core.tally.lock_wakeups, core.trace.hash())
    }

    /// The microtask loop, where the first woken request leaves the lock
    /// free (as if its task had ended) and the second takes it: a folded
    /// herd then wakes the rest one by one, exactly as an unfolded one.
    #[test]
    fn a_folded_herd_unfolds_when_its_first_listener_leaves_the_lock() {
        let [folded, woken] = [true, false].map(|fold| {
            let mut core = emitted(fold, false);
            let mut polled = Vec::new();
            loop {
                let relistened = core.relisten_herd();
                let Some(task) = core.micro.pop_front() else {
                    break;
                };
                polled.push((relistened, task));
                if task == 1 {
                    assert!(core.servers[0].emitter_try_lock(KEY));
                }
            }
            (polled, outcome(&mut core))
        });
        assert_eq!(folded, woken);
        // #0 and #1 polled; #2 found the lock taken and listens again.
        assert_eq!(folded.0, vec![(0, 0), (0, 1)]);
        assert_eq!((folded.1 .0.len(), folded.1 .1), (1, 1));
    }

    /// The lock was taken between the release and the emit: every
    /// listener finds it held and listens again, folded or one by one.
    #[test]
    fn a_barged_herd_listens_again_in_order() {
        let [folded, woken] = [true, false].map(|fold| {
            let mut core = emitted(fold, true);
            let relistened = core.relisten_herd();
            assert_eq!(core.micro.pop_front(), None);
            core.end_herd();
            // The lock goes free and emits again: the first one takes it
            // (its cohort of listeners came back in order).
            core.servers[0].emitter_unlock(KEY);
            emit(&mut core);
            let mut polled = vec![relistened];
            loop {
                polled.push(core.relisten_herd());
                let Some(task) = core.micro.pop_front() else {
                    break;
                };
                polled.push(u64::from(task));
                assert!(core.servers[0].emitter_try_lock(KEY));
            }
            (polled, outcome(&mut core))
        });
        assert_eq!(folded, woken);
        // Three listened again; then #0 took the lock and the others
        // listened again after it.
        assert_eq!(folded.0, vec![3, 0, 0, 2]);
        assert_eq!((folded.1 .0.len(), folded.1 .1), (2, 5));
    }
}
