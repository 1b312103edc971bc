//! The simulated implementation of [`Ops`]: one request's handle on the
//! simulated world. Every method that returns a future is an await point,
//! the only place where other requests can interleave.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use crate::config::{Config, Micros};
use crate::sim::core::{Core, Op, Reply, TaskId};
use crate::sim::footprint::Object;
use crate::sim::ops::{poll_loop, Ops, Written, XfetchDraw};
use crate::sim::poll::{Attempt, PollLock, Timing};
use crate::sim::trace::{Outcome, Site, TraceKey, What};
use crate::world::locks::{Acquire, SlotId};
use crate::world::{CacheKey, LockKey, Lookup, ServerLocks};

#[derive(Clone)]
pub struct Ctx {
    core: Rc<RefCell<Core>>,
    config: Rc<Config>,
    pub request: TaskId,
    pub server: u32,
    /// The ticket this request holds or waits with (ticket lock);
    /// `NO_TICKET` before it takes one. (Not an `Option`: every request's
    /// future carries its `Ctx`, so 8 bytes here are 800 KB per 100,000
    /// requests.)
    ticket: Cell<u64>,
}

/// An await on a parked slot; the request resumes when it resolves.
///
/// 16 bytes: every future a request awaits nests these, so the answer's
/// type reads the reply (`Answer`) rather than a stored function pointer.
pub struct Wait<'a, T> {
    core: &'a RefCell<Core>,
    /// A `SlotId` in 32 bits (a run has fewer than 2^32 slots at once).
    slot: u32,
    done: bool,
    answer: PhantomData<fn() -> T>,
}

/// What an awaited operation resolves to, read from its reply.
pub trait Answer {
    fn from_reply(reply: Reply) -> Self;
}

impl Answer for Lookup {
    fn from_reply(reply: Reply) -> Self {
        match reply {
            Reply::Lookup(found) => found,
            _ => Lookup::Miss,
        }
    }
}

/// Stored, deleted, found or inserted.
impl Answer for bool {
    fn from_reply(reply: Reply) -> Self {
        matches!(
            reply,
            Reply::Stored(true)
                | Reply::Deleted(true)
                | Reply::Found(true)
                | Reply::Inserted
                | Reply::Committed
        )
    }
}

impl Answer for Written {
    fn from_reply(reply: Reply) -> Self {
        match reply {
            Reply::Inserted | Reply::Committed => Written::Done,
            Reply::SerializationFailure => Written::SerializationFailure,
            _ => Written::Refused,
        }
    }
}

/// A row, or the single-flight leader's shared result.
impl Answer for u64 {
    fn from_reply(reply: Reply) -> Self {
        match reply {
            Reply::Row(value) | Reply::Shared(value) => value,
            _ => 0,
        }
    }
}

impl Answer for () {
    fn from_reply(_: Reply) -> Self {}
}

impl<T: Answer> Future for Wait<'_, T> {
    type Output = T;

    // Inlined into the awaiting state machine: every await of every
    // request passes here, and a call of its own cost about a fifth of it.
    #[inline(always)]
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<T> {
        let reply = self.core.borrow_mut().poll_slot(self.slot as SlotId);
        match reply {
            Some(reply) => {
                self.done = true;
                Poll::Ready(T::from_reply(reply))
            }
            None => Poll::Pending,
        }
    }
}

impl<T> Wait<'_, T> {
    /// Lets the await outlive this borrow of its request's `Ctx`: a caller
    /// that must return a future owning the `Ctx` (a script's promise)
    /// takes it up again with [`Ctx::resume`].
    pub fn detach(self) -> Detached<T> {
        let detached = Detached {
            slot: self.slot as SlotId,
            answer: PhantomData,
        };
        std::mem::forget(self);
        detached
    }
}

/// An await detached from the `Ctx` borrow it was made with.
#[must_use = "a detached await is taken up again with Ctx::resume"]
pub struct Detached<T> {
    slot: SlotId,
    answer: PhantomData<fn() -> T>,
}

impl<T> Drop for Wait<'_, T> {
    fn drop(&mut self) {
        if !self.done {
            self.core.borrow_mut().abandon(self.slot as SlotId);
        }
    }
}

/// `Ctx::pause_if_due`: the pause's timer, or nothing to wait for. (A plain
/// future, not an `async fn`, to keep every request's future small.)
pub struct Pause<'a>(Option<Wait<'a, ()>>);

impl Future for Pause<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match &mut self.0 {
            Some(wait) => Pin::new(wait).poll(cx),
            None => Poll::Ready(()),
        }
    }
}

/// `Ctx::mutex_lock`: a free mutex still yields one microtask; a held one
/// waits for the hand-off. (A plain future, as `Pause`.)
pub enum MutexLock<'a> {
    Free(YieldNow<'a>),
    Queued(Wait<'a, ()>),
}

impl Future for MutexLock<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match self.get_mut() {
            MutexLock::Free(free) => Pin::new(free).poll(cx),
            MutexLock::Queued(wait) => Pin::new(wait).poll(cx),
        }
    }
}

/// Yields once: the task resumes as the next microtask, like awaiting an
/// already resolved promise.
pub struct YieldNow<'a> {
    core: &'a RefCell<Core>,
    yielded: bool,
}

impl Future for YieldNow<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.yielded {
            return Poll::Ready(());
        }
        self.yielded = true;
        let mut core = self.core.borrow_mut();
        let current = core.current;
        core.micro.push_back(current);
        Poll::Pending
    }
}

/// `Ctx::ticket` before the request takes a ticket.
const NO_TICKET: u64 = u64::MAX;

impl Ctx {
    pub fn new(core: Rc<RefCell<Core>>, config: Rc<Config>, request: TaskId, server: u32) -> Self {
        Ctx {
            core,
            config,
            request,
            server,
            ticket: Cell::new(NO_TICKET),
        }
    }

    fn wait<T: Answer>(&self, slot: SlotId) -> Wait<'_, T> {
        Wait {
            core: &self.core,
            slot: u32::try_from(slot).expect("fewer than 2^32 slots at once"),
            done: false,
            answer: PhantomData,
        }
    }

    /// Takes up an await detached from another borrow of this request's
    /// `Ctx`.
    pub fn resume<T: Answer>(&self, detached: Detached<T>) -> Wait<'_, T> {
        self.wait(detached.slot)
    }

    /// Sends `op` now (as calling a promise-returning function does); the
    /// result arrives when the returned future is awaited.
    fn issue<T: Answer>(&self, op: Op, site: Site) -> Wait<'_, T> {
        let slot = self.core.borrow_mut().issue(self.request, op, site);
        self.wait(slot)
    }

    fn record(&self, what: What, key: TraceKey, outcome: Outcome, site: Site) {
        self.core
            .borrow_mut()
            .record(self.request, what, key, outcome, site, 0);
    }

    /// Parks this request on its server's lock table when `parks` says
    /// it must wait (`parks` gets the slot to queue); `None` if it need not.
    fn park_on_server(
        &self,
        key: LockKey,
        site: Site,
        parks: impl FnOnce(&mut ServerLocks, SlotId) -> bool,
    ) -> Option<SlotId> {
        let mut core = self.core.borrow_mut();
        core.touches
            .touch(Object::ServerLock(self.server, key), true);
        let slot = core.park(self.request, site, None);
        if parks(&mut core.servers[self.server as usize], slot) {
            Some(slot)
        } else {
            core.release_slot(slot);
            None
        }
    }

    /// Enters the critical section of `key`. With `fencing`, a lock hands
    /// out the next token of `key` (the event's `detail`).
    pub fn enter(&self, key: LockKey) {
        let mut core = self.core.borrow_mut();
        core.tally.enter(key.0);
        core.touches.touch(Object::Section(key.0), true);
        let fenced = self.config.fencing && self.config.strategy.is_lock();
        let token = if fenced {
            core.take_fence(self.request, key.0)
        } else {
            0
        };
        let data = TraceKey::Data(key.0);
        core.record(
            self.request,
            What::Enter,
            data,
            Outcome::None,
            Site::None,
            token,
        );
    }

    /// Explore mode: this step reads and changes the server's lock state.
    fn touch_server_lock(&self, key: LockKey) {
        self.core
            .borrow_mut()
            .touches
            .touch(Object::ServerLock(self.server, key), true);
    }
}

/// The simulated implementation: each operation is a request to the event
/// loop (`sim::core`), in virtual time, traced and counted. Awaits return
/// their own future types (`Wait`, ...), which callers holding a `Ctx` can
/// use as such (a script detaches them).
#[allow(refining_impl_trait)]
impl Ops for Ctx {
    /// Yields once, like awaiting an already resolved promise.
    async fn yield_now(&self) {
        YieldNow {
            core: &self.core,
            yielded: false,
        }
        .await
    }

    /// The ticket-lock ticket this request holds, if any.
    fn ticket(&self) -> Option<u64> {
        Some(self.ticket.get()).filter(|&ticket| ticket != NO_TICKET)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn now(&self) -> Micros {
        self.core.borrow().now
    }

    /// This request's lock token.
    fn token(&self) -> u64 {
        u64::from(self.request) + 1
    }

    fn cache_get(&self, key: CacheKey, site: Site) -> Wait<'_, Lookup> {
        self.issue(Op::Get(key), site)
    }

    fn cache_set(&self, key: CacheKey, value: u64, ttl: Micros, site: Site) -> Wait<'_, ()> {
        self.issue(Op::Set(key, value, ttl), site)
    }

    /// memcached `add`: resolves to whether it stored.
    fn cache_add(&self, key: CacheKey, value: u64, ttl: Micros, site: Site) -> Wait<'_, bool> {
        self.issue(Op::Add(key, value, ttl), site)
    }

    fn cache_delete(&self, key: CacheKey, site: Site) -> Wait<'_, bool> {
        self.issue(Op::Delete(key), site)
    }

    fn select(&self, item: u32, site: Site) -> Wait<'_, u64> {
        self.issue(Op::Select(item), site)
    }

    fn find_order(&self, user: u32, site: Site) -> Wait<'_, bool> {
        self.issue(Op::FindOrder(user), site)
    }

    /// Resolves to whether the DB took the row (it refuses one on a unique
    /// conflict, or for an older fencing token than one it has seen).
    fn insert_order(&self, user: u32, site: Site) -> Wait<'_, bool> {
        let token = self.core.borrow().tokens.get(&self.request).copied();
        self.issue(Op::Insert(user, token), site)
    }

    /// BEGIN: opens this request's transaction (sent with its first
    /// statement: no round trip of its own).
    fn begin(&self) {
        self.core.borrow_mut().db.transactions.begin(self.request);
    }

    /// `SELECT ... FOR UPDATE` on `user`'s row: resolves once this
    /// transaction holds the row lock.
    fn lock_row(&self, user: u32, site: Site) -> Wait<'_, ()> {
        self.issue(Op::LockRow(user), site)
    }

    /// An insert inside this request's transaction: kept until COMMIT, or
    /// a serialization failure that ends the transaction.
    fn insert_in_transaction(&self, user: u32, site: Site) -> Wait<'_, Written> {
        let token = self.core.borrow().tokens.get(&self.request).copied();
        self.issue(Op::Insert(user, token), site)
    }

    /// COMMIT: a write round trip; its rows become visible as it lands.
    fn commit(&self, user: u32, site: Site) -> Wait<'_, Written> {
        self.issue(Op::Commit(user), site)
    }

    /// `set` that also stores how long the value took to recompute.
    fn cache_set_with_delta(
        &self,
        key: CacheKey,
        value: u64,
        ttl: Micros,
        delta: Micros,
        site: Site,
    ) -> Wait<'_, ()> {
        self.issue(Op::SetDelta(key, value, ttl, delta), site)
    }

    /// Redis's check-and-delete script, one round trip: deletes `key` only
    /// if it still holds `token`; resolves to whether it deleted.
    fn cache_delete_if_owner(&self, key: CacheKey, token: u64, site: Site) -> Wait<'_, bool> {
        self.issue(Op::DeleteIfOwner(key, token), site)
    }

    /// `await new Promise(r => setTimeout(r, duration))`.
    fn sleep(&self, duration: Micros, site: Site) -> Wait<'_, ()> {
        self.issue(Op::Sleep(duration), site)
    }

    /// This server's FIFO async mutex for `key`. A free mutex is taken at
    /// once but still yields one microtask; a held one queues the caller
    /// until its holder hands it over.
    fn mutex_lock(&self, key: LockKey, site: Site) -> MutexLock<'_> {
        let queued = self.park_on_server(key, site, |locks, slot| {
            locks.lock(key, slot) == Acquire::Queued
        });
        let lock = TraceKey::Lock(key.0);
        match queued {
            None => {
                self.record(What::MutexGrant, lock, Outcome::None, site);
                MutexLock::Free(YieldNow {
                    core: &self.core,
                    yielded: false,
                })
            }
            Some(slot) => {
                self.record(What::MutexWait, lock, Outcome::None, site);
                MutexLock::Queued(self.wait(slot))
            }
        }
    }

    /// Hands the mutex to the oldest waiter (it resumes as a microtask).
    fn mutex_unlock(&self, key: LockKey) {
        let mut core = self.core.borrow_mut();
        core.touches
            .touch(Object::ServerLock(self.server, key), true);
        if let Some(next) = core.servers[self.server as usize].unlock(key) {
            core.hand_over(
                next,
                What::MutexGrant,
                TraceKey::Lock(key.0),
                Reply::Granted,
            );
        }
    }

    /// Joins this server's running single-flight call for `key`, returning
    /// the await of its result; `None` makes the caller the leader.
    fn flight_join(&self, key: LockKey, site: Site) -> Option<Wait<'_, u64>> {
        let slot = self.park_on_server(key, site, |locks, slot| locks.join_flight(key, slot))?;
        self.record(What::FlightJoin, TraceKey::Data(key.0), Outcome::None, site);
        Some(self.wait(slot))
    }

    /// The leader's call is done: every waiter gets `result` as a microtask,
    /// and nothing is kept.
    fn flight_finish(&self, key: LockKey, result: u64) {
        let mut core = self.core.borrow_mut();
        core.touches
            .touch(Object::ServerLock(self.server, key), true);
        for waiter in core.servers[self.server as usize].finish_flight(key) {
            let share = Reply::Shared(result);
            core.hand_over(waiter, What::FlightShare, TraceKey::Data(key.0), share);
        }
    }

    /// Enters the critical section at once (`Ctx::enter`): ready without
    /// yielding.
    fn enter(&self, key: LockKey) -> std::future::Ready<()> {
        Ctx::enter(self, key);
        std::future::ready(())
    }

    /// The `crash` fault: true if this request crashes now, inside its
    /// critical section. It stops at once and never releases its lock; it
    /// no longer counts as inside the section.
    fn crashes(&self, key: LockKey) -> bool {
        if self.config.crash != Some(self.request) {
            return false;
        }
        let mut core = self.core.borrow_mut();
        core.tally.exit(key.0);
        core.touches.touch(Object::Section(key.0), true);
        drop(core);
        self.record(
            What::Crash,
            TraceKey::Data(key.0),
            Outcome::None,
            Site::None,
        );
        true
    }

    /// The `pause` fault: this request stalls inside its critical section,
    /// as an awaited timer (others keep running). A zero pause is none.
    fn pause_if_due(&self) -> Pause<'_> {
        let pause = self.config.pause;
        let due = pause.filter(|pause| pause.request == self.request && pause.duration > 0);
        Pause(due.map(|pause| self.sleep(pause.duration, Site::Pause)))
    }

    /// Answers the caller now; the handler may keep working after this.
    fn respond(&self, outcome: Outcome) {
        self.core.borrow_mut().respond(self.request, outcome);
    }

    /// Records that this request serves stale data without waiting.
    fn serve_stale(&self, key: u32) {
        self.record(
            What::ServeStale,
            TraceKey::Data(key),
            Outcome::None,
            Site::Get,
        );
    }

    /// Whether this server runs a single-flight call for `key`.
    fn flight_running(&self, key: LockKey) -> bool {
        let mut core = self.core.borrow_mut();
        core.touches
            .touch(Object::ServerLock(self.server, key), false);
        core.servers[self.server as usize].flight_running(key)
    }

    fn xfetch_draw(&self, key: CacheKey) -> Option<XfetchDraw> {
        let mut core = self.core.borrow_mut();
        let now = core.now;
        let (expiry, delta) = core.cache.expiry_and_delta(key, now)?;
        // The draw order matters like a write: each draw is the next one.
        core.touches.touch(Object::Cache(key), false);
        core.touches.touch(Object::EarlyDraws, true);
        let draw = core.xfetch_draw();
        Some(XfetchDraw {
            now,
            expiry,
            delta,
            draw,
        })
    }

    fn early_refresh(&self, key: CacheKey) {
        let mut core = self.core.borrow_mut();
        core.tally.early_refreshes += 1;
        let data = match key {
            CacheKey::Data(id) => TraceKey::Data(id),
            CacheKey::Lock(lock) => TraceKey::Lock(lock.0),
        };
        core.record(
            self.request,
            What::EarlyRefresh,
            data,
            Outcome::None,
            Site::Get,
            0,
        );
    }

    /// Emitter lock: `while (locked.has(key)) await once(emitter, key);
    /// locked.add(key)`. A free lock is taken at once but still yields one
    /// microtask (`await acquire()`); each wake-up that finds the lock
    /// taken again counts in `lock_wakeups` and listens again.
    async fn emitter_lock(&self, key: LockKey, site: Site) {
        let lock = TraceKey::Lock(key.0);
        let server = self.server as usize;
        self.touch_server_lock(key);
        if self.core.borrow_mut().servers[server].emitter_try_lock(key) {
            self.record(What::MutexGrant, lock, Outcome::None, site);
            return YieldNow {
                core: &self.core,
                yielded: false,
            }
            .await;
        }
        loop {
            let slot = {
                let mut core = self.core.borrow_mut();
                let slot = core.park(self.request, Site::LockListen, None);
                core.emitter_listen(self.server, key, slot, self.request);
                slot
            };
            self.record(What::Listen, lock, Outcome::None, Site::LockListen);
            self.wait::<()>(slot).await;
            self.touch_server_lock(key);
            if self.core.borrow_mut().servers[server].emitter_try_lock(key) {
                self.record(What::MutexGrant, lock, Outcome::None, site);
                return;
            }
            self.lock_wakeup();
        }
    }

    /// Emitter lock release: `locked.delete(key); setImmediate(() =>
    /// emitter.emit(key))`.
    fn emitter_unlock(&self, key: LockKey) {
        self.touch_server_lock(key);
        let mut core = self.core.borrow_mut();
        core.servers[self.server as usize].emitter_unlock(key);
        core.set_immediate_emit(self.request, self.server, key);
    }

    /// Ticket lock: takes the next ticket of `key` on this server.
    fn take_ticket(&self, key: LockKey) -> u64 {
        self.touch_server_lock(key);
        let mut core = self.core.borrow_mut();
        let now = core.now;
        let ticket = core.servers[self.server as usize].take_ticket(key, now);
        self.ticket.set(ticket);
        let lock = TraceKey::Lock(key.0);
        core.record(
            self.request,
            What::TakeTicket,
            lock,
            Outcome::None,
            Site::Acquire,
            ticket,
        );
        ticket
    }

    /// Ticket lock: skips a ticket whose lease ran out, then says whether
    /// `ticket` is served.
    fn check_ticket(&self, key: LockKey, ticket: u64) -> bool {
        let ttl = self.config.lock_ttl;
        let mut core = self.core.borrow_mut();
        core.check_ticket(self.request, self.server, key, ticket, ttl)
    }

    /// A polling lock's wait for `key` (`sim::poll`): `attempt` until one
    /// takes the lock, sleeping `poll` between failed ones; resolves to
    /// false once `wait_timeout` has passed since the wait started.
    fn poll_lock(&self, key: LockKey, attempt: Attempt) -> Polling<'_> {
        // (Native only: the page never asks for it, and its wasm stays small.)
        if cfg!(not(target_arch = "wasm32")) && self.core.borrow().poll_by_loop {
            return Polling::Loop(Box::pin(poll_loop(self, key, attempt)));
        }
        let timing = Timing {
            poll: self.config.poll,
            wait_timeout: self.config.wait_timeout,
        };
        let (request, server) = (self.request, self.server);
        self.core
            .borrow_mut()
            .start_poll(request, server, key, attempt, timing);
        Polling::Primitive(PollLock {
            core: &self.core,
            request,
            done: false,
        })
    }

    /// Ticket lock: advances the counter if `ticket` is still served.
    fn release_ticket(&self, key: LockKey, ticket: u64) {
        self.touch_server_lock(key);
        let mut core = self.core.borrow_mut();
        let now = core.now;
        core.servers[self.server as usize].release_ticket(key, ticket, now);
    }

    /// Leaves it: the release call starts.
    fn exit(&self, key: LockKey) {
        let mut core = self.core.borrow_mut();
        core.tally.exit(key.0);
        core.touches.touch(Object::Section(key.0), true);
        drop(core);
        self.record(What::Exit, TraceKey::Data(key.0), Outcome::None, Site::None);
    }

    /// A lock attempt found the lock held.
    fn lock_wakeup(&self) {
        self.core.borrow_mut().tally.lock_wakeups += 1;
    }

    /// The wait for `key`'s lock timed out.
    fn give_up(&self, key: LockKey) {
        self.core.borrow_mut().tally.timeouts += 1;
        self.record(
            What::GiveUp,
            TraceKey::Lock(key.0),
            Outcome::None,
            Site::Acquire,
        );
    }
}

/// `Ctx::poll_lock`'s future: the engine's primitive, or (with
/// `Sim::poll_by_loop`) the loop of awaited operations it stands for.
pub enum Polling<'a> {
    Primitive(PollLock<'a>),
    Loop(Pin<Box<dyn Future<Output = bool> + 'a>>),
}

impl Future for Polling<'_> {
    type Output = bool;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<bool> {
        match self.get_mut() {
            Polling::Primitive(wait) => Pin::new(wait).poll(cx),
            Polling::Loop(wait) => wait.as_mut().poll(cx),
        }
    }
}
