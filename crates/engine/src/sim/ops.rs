//! The seam between a body and the world it runs on: every operation a
//! strategy or scenario body awaits or calls. Bodies are written once,
//! generic over `O: Ops`, and run on either implementation:
//!
//! - [`Ctx`](crate::sim::Ctx), the simulation: each operation is a request
//!   to the event loop in virtual time (`sim::core`), traced and counted;
//! - the real servers of `interleave real` (the app crate's `real::Request`):
//!   PostgreSQL, Redis or memcached on tokio, on the wall clock.
//!
//! Every method that returns a future is an await point, the only place
//! where other requests can interleave; the others run at once, between
//! two awaits. The simulation sends an operation when the method is
//! called (as calling a promise-returning function sends it) and the
//! result arrives when the future is awaited; the real servers send most
//! on the first poll, which is the same since bodies await them at once,
//! except `insert_order`, which a body may leave unawaited and which both
//! send at the call. The generic bodies are monomorphized: the simulation
//! pays no dispatch.

use std::future::Future;

use crate::config::{Config, Micros};
use crate::sim::poll::Attempt;
use crate::sim::trace::{Outcome, Site};
use crate::world::{CacheKey, LockKey, Lookup};

/// How a DB write (an insert, or a transaction's COMMIT) ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    Done,
    /// A unique constraint or a fencing token refused it.
    Refused,
    /// SERIALIZABLE refused it; the transaction is over.
    SerializationFailure,
}

/// One request's handle on the world. `site` names the awaited line of
/// the code pane (the simulation traces it; the real servers ignore it).
pub trait Ops {
    // ---- the request and its world ----

    fn config(&self) -> &Config;

    /// Microseconds since the run started.
    fn now(&self) -> Micros;

    /// This request's lock token (its number + 1).
    fn token(&self) -> u64;

    /// The ticket-lock ticket this request took last, if any.
    fn ticket(&self) -> Option<u64>;

    // ---- timers ----

    /// Yields once, like awaiting an already resolved promise.
    fn yield_now(&self) -> impl Future<Output = ()>;

    /// `await new Promise(r => setTimeout(r, duration))`.
    fn sleep(&self, duration: Micros, site: Site) -> impl Future<Output = ()>;

    // ---- the cache server ----

    /// `get`: live, stale (expired within `grace`; data keys only) or a
    /// miss. A get of a data key counts a hit or a miss.
    fn cache_get(&self, key: CacheKey, site: Site) -> impl Future<Output = Lookup>;

    /// `set(ttl)`; `ttl == 0` never expires.
    fn cache_set(
        &self,
        key: CacheKey,
        value: u64,
        ttl: Micros,
        site: Site,
    ) -> impl Future<Output = ()>;

    /// `set` that also stores how long the value took to recompute
    /// (XFetch's `delta`).
    fn cache_set_with_delta(
        &self,
        key: CacheKey,
        value: u64,
        ttl: Micros,
        delta: Micros,
        site: Site,
    ) -> impl Future<Output = ()>;

    /// memcached `add`: stores only if the key holds no live value;
    /// resolves to whether it stored.
    fn cache_add(
        &self,
        key: CacheKey,
        value: u64,
        ttl: Micros,
        site: Site,
    ) -> impl Future<Output = bool>;

    /// An unconditional delete; resolves to whether it removed a value.
    fn cache_delete(&self, key: CacheKey, site: Site) -> impl Future<Output = bool>;

    /// Redis's check-and-delete script, one round trip: deletes `key` only
    /// if it still holds `token`; resolves to whether it deleted.
    fn cache_delete_if_owner(
        &self,
        key: CacheKey,
        token: u64,
        site: Site,
    ) -> impl Future<Output = bool>;

    // ---- the database ----

    /// `SELECT version FROM products WHERE id = item`: the row.
    fn select(&self, item: u32, site: Site) -> impl Future<Output = u64>;

    /// Whether `user` has an order for the event.
    fn find_order(&self, user: u32, site: Site) -> impl Future<Output = bool>;

    /// Inserts `user`'s order, sent now: a body may drop the future
    /// unawaited (`await_insert=false`) and the write still lands. Resolves
    /// to whether the DB took the row (it refuses one on a unique conflict,
    /// or for an older fencing token than one it has seen; a refused write
    /// nobody awaits counts one error when it lands).
    fn insert_order(&self, user: u32, site: Site) -> impl Future<Output = bool>;

    /// BEGIN: opens this request's transaction (sent with its first
    /// statement: no round trip of its own).
    fn begin(&self);

    /// `SELECT ... FOR UPDATE` on `user`'s row: resolves once this
    /// transaction holds the row lock.
    fn lock_row(&self, user: u32, site: Site) -> impl Future<Output = ()>;

    /// An insert inside this request's transaction. Anything but `Done`
    /// ends the transaction.
    fn insert_in_transaction(&self, user: u32, site: Site) -> impl Future<Output = Written>;

    /// COMMIT: a write round trip; the transaction ends.
    fn commit(&self, user: u32, site: Site) -> impl Future<Output = Written>;

    // ---- in-process primitives, per app server ----

    /// This server's FIFO async mutex for `key`: a free mutex is taken at
    /// once but still yields one microtask; a held one queues the caller
    /// until its holder hands it over.
    fn mutex_lock(&self, key: LockKey, site: Site) -> impl Future<Output = ()>;

    /// Hands the mutex to the oldest waiter, or frees it.
    fn mutex_unlock(&self, key: LockKey);

    /// Emitter lock: `while (locked.has(key)) await once(emitter, key);
    /// locked.add(key)`. A free lock still yields one microtask; each
    /// wake-up that finds the lock taken again counts in `lock_wakeups`.
    fn emitter_lock(&self, key: LockKey, site: Site) -> impl Future<Output = ()>;

    /// Emitter lock release: `locked.delete(key); setImmediate(() =>
    /// emitter.emit(key))`.
    fn emitter_unlock(&self, key: LockKey);

    /// Ticket lock: takes the next ticket of `key` on this server.
    fn take_ticket(&self, key: LockKey) -> u64;

    /// Ticket lock: skips a ticket whose lease (`lock_ttl`) ran out, then
    /// says whether `ticket` is served.
    fn check_ticket(&self, key: LockKey, ticket: u64) -> bool;

    /// Ticket lock: advances the counter if `ticket` is still served.
    fn release_ticket(&self, key: LockKey, ticket: u64);

    /// Joins this server's running single-flight call for `key`, returning
    /// the await of its result; `None` makes the caller the leader.
    fn flight_join(&self, key: LockKey, site: Site) -> Option<impl Future<Output = u64> + Unpin>;

    /// The leader's call is done: every waiter gets `result`, and nothing
    /// is kept.
    fn flight_finish(&self, key: LockKey, result: u64);

    /// Whether this server runs a single-flight call for `key`.
    fn flight_running(&self, key: LockKey) -> bool;

    /// A polling lock's wait for `key` (`get-set`, `add`, `ticket-lock`):
    /// `attempt` until one takes the lock, sleeping `poll` between failed
    /// ones; each failed attempt counts in `lock_wakeups`; resolves to
    /// false once `wait_timeout` has passed since the wait started.
    ///
    /// The loop as written here is what the real servers run; the
    /// simulation runs the same loop as an engine primitive that folds
    /// waiters polling in step (`sim::poll`), with the same trace.
    fn poll_lock(&self, key: LockKey, attempt: Attempt) -> impl Future<Output = bool> {
        poll_loop(self, key, attempt)
    }

    // ---- bookkeeping: the section, faults, the answer ----

    /// Enters the critical section of `key`. With `fencing`, a lock hands
    /// out the next token of `key`, which this request's inserts carry.
    /// The simulation's token comes with the lock (the future is ready at
    /// once); the real servers' comes from a counter on the cache server,
    /// a round trip.
    fn enter(&self, key: LockKey) -> impl Future<Output = ()>;

    /// Leaves it: the release call starts.
    fn exit(&self, key: LockKey);

    /// The `crash` fault: true if this request crashes now, inside its
    /// critical section. It stops at once and never releases its lock; it
    /// no longer counts as inside the section.
    fn crashes(&self, key: LockKey) -> bool;

    /// The `pause` fault: this request stalls inside its critical section,
    /// as an awaited timer (others keep running). A zero pause is none.
    fn pause_if_due(&self) -> impl Future<Output = ()>;

    /// Answers the caller now (its latency ends); the handler may keep
    /// working after this. Only the first answer counts.
    fn respond(&self, outcome: Outcome);

    /// This request serves stale data of `key` without waiting.
    fn serve_stale(&self, key: u32);

    /// What XFetch's test reads of the live entry of `key` this request
    /// just read, and the next draw of its own stream in `(0, 1]`; `None`
    /// (and no draw) for an entry that never expires.
    fn xfetch_draw(&self, key: CacheKey) -> Option<XfetchDraw>;

    /// XFetch decided to recompute `key` early (`early_refreshes`).
    fn early_refresh(&self, key: CacheKey);

    /// A lock attempt found the lock held.
    fn lock_wakeup(&self);

    /// The wait for `key`'s lock timed out.
    fn give_up(&self, key: LockKey);
}

/// The inputs of XFetch's test (`strategy::xfetch::early`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct XfetchDraw {
    pub now: Micros,
    pub expiry: Micros,
    /// How long the entry's value took to compute.
    pub delta: Micros,
    pub draw: f64,
}

/// The polling lock's wait as a loop of awaited operations: `attempt`
/// until one takes the lock, sleeping `poll` between failed ones; each
/// failed attempt counts in `lock_wakeups`; false once `wait_timeout` has
/// passed since the wait started. The real servers run it; the
/// simulation runs the primitive `sim::poll`, which `Sim::poll_by_loop`
/// checks against this loop, event for event.
pub async fn poll_loop<O: Ops + ?Sized>(ops: &O, key: LockKey, attempt: Attempt) -> bool {
    let (poll, wait_timeout) = (ops.config().poll, ops.config().wait_timeout);
    let lock = CacheKey::Lock(key);
    let start = ops.now();
    let mut first = true;
    loop {
        let taken = match attempt {
            Attempt::Add { token, lock_ttl } => {
                ops.cache_add(lock, token, lock_ttl, Site::LockAdd).await
            }
            Attempt::Get => ops.cache_get(lock, Site::LockGet).await == Lookup::Miss,
            // The check at the wait's start has failed already.
            Attempt::Ticket { ticket, .. } => !first && ops.check_ticket(key, ticket),
        };
        if taken {
            return true;
        }
        first = false;
        ops.lock_wakeup();
        if ops.now() - start >= wait_timeout {
            ops.give_up(key);
            return false;
        }
        let site = match attempt {
            Attempt::Ticket { .. } => Site::LockTick,
            _ => Site::LockPoll,
        };
        ops.sleep(poll, site).await;
    }
}
