//! What scenario and strategy code sees: one request's handle on the world.
//! Every method that returns a future is an await point, the only place
//! where other requests can interleave.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use crate::scenario::config::{Config, Micros};
use crate::sim::core::{Core, Op, Reply, TaskId};
use crate::sim::footprint::Object;
use crate::sim::trace::{Outcome, Site, TraceKey, What};
use crate::world::locks::{Acquire, SlotId};
use crate::world::{CacheKey, LockKey, Lookup, ServerLocks};

#[derive(Clone)]
pub struct Ctx {
    core: Rc<RefCell<Core>>,
    config: Rc<Config>,
    pub request: TaskId,
    pub server: u32,
}

/// An await on a parked slot; the request resumes when it resolves.
pub struct Wait<T> {
    core: Rc<RefCell<Core>>,
    slot: SlotId,
    read: fn(Reply) -> T,
    done: bool,
}

impl<T> Future for Wait<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<T> {
        let reply = self.core.borrow_mut().poll_slot(self.slot);
        match reply {
            Some(reply) => {
                self.done = true;
                Poll::Ready((self.read)(reply))
            }
            None => Poll::Pending,
        }
    }
}

impl<T> Drop for Wait<T> {
    fn drop(&mut self) {
        if !self.done {
            self.core.borrow_mut().abandon(self.slot);
        }
    }
}

/// Yields once: the task resumes as the next microtask, like awaiting an
/// already resolved promise.
struct YieldNow {
    core: Rc<RefCell<Core>>,
    yielded: bool,
}

impl Future for YieldNow {
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

fn lookup(reply: Reply) -> Lookup {
    match reply {
        Reply::Lookup(found) => found,
        _ => Lookup::Miss,
    }
}

fn flag(reply: Reply) -> bool {
    matches!(
        reply,
        Reply::Stored(true) | Reply::Deleted(true) | Reply::Found(true)
    )
}

fn value(reply: Reply) -> u64 {
    match reply {
        Reply::Row(value) | Reply::Shared(value) => value,
        _ => 0,
    }
}

fn unit(_: Reply) {}

impl Ctx {
    pub fn new(core: Rc<RefCell<Core>>, config: Rc<Config>, request: TaskId, server: u32) -> Self {
        Ctx {
            core,
            config,
            request,
            server,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn now(&self) -> Micros {
        self.core.borrow().now
    }

    /// This request's lock token.
    pub fn token(&self) -> u64 {
        u64::from(self.request) + 1
    }

    fn wait<T>(&self, slot: SlotId, read: fn(Reply) -> T) -> Wait<T> {
        Wait {
            core: self.core.clone(),
            slot,
            read,
            done: false,
        }
    }

    /// Sends `op` now (as calling a promise-returning function does); the
    /// result arrives when the returned future is awaited.
    fn issue<T>(&self, op: Op, site: Site, read: fn(Reply) -> T) -> Wait<T> {
        let slot = self.core.borrow_mut().issue(self.request, op, site);
        self.wait(slot, read)
    }

    pub fn cache_get(&self, key: CacheKey, site: Site) -> Wait<Lookup> {
        self.issue(Op::Get(key), site, lookup)
    }

    pub fn cache_set(&self, key: CacheKey, value: u64, ttl: Micros, site: Site) -> Wait<()> {
        self.issue(Op::Set(key, value, ttl), site, unit)
    }

    /// memcached `add`: resolves to whether it stored.
    pub fn cache_add(&self, key: CacheKey, value: u64, ttl: Micros, site: Site) -> Wait<bool> {
        self.issue(Op::Add(key, value, ttl), site, flag)
    }

    pub fn cache_delete(&self, key: CacheKey, site: Site) -> Wait<bool> {
        self.issue(Op::Delete(key), site, flag)
    }

    pub fn select(&self, item: u32, site: Site) -> Wait<u64> {
        self.issue(Op::Select(item), site, value)
    }

    pub fn find_order(&self, user: u32, site: Site) -> Wait<bool> {
        self.issue(Op::FindOrder(user), site, flag)
    }

    pub fn insert_order(&self, user: u32, site: Site) -> Wait<()> {
        self.issue(Op::Insert(user), site, unit)
    }

    /// `await new Promise(r => setTimeout(r, duration))`.
    pub fn sleep(&self, duration: Micros, site: Site) -> Wait<()> {
        self.issue(Op::Sleep(duration), site, unit)
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

    /// This server's FIFO async mutex for `key`. A free mutex is taken at
    /// once but still yields one microtask; a held one queues the caller
    /// until its holder hands it over.
    pub async fn mutex_lock(&self, key: LockKey, site: Site) {
        let queued = self.park_on_server(key, site, |locks, slot| {
            locks.lock(key, slot) == Acquire::Queued
        });
        let lock = TraceKey::Lock(key.0);
        match queued {
            None => {
                self.record(What::MutexGrant, lock, Outcome::None, site);
                YieldNow {
                    core: self.core.clone(),
                    yielded: false,
                }
                .await
            }
            Some(slot) => {
                self.record(What::MutexWait, lock, Outcome::None, site);
                self.wait(slot, unit).await
            }
        }
    }

    /// Hands the mutex to the oldest waiter (it resumes as a microtask).
    pub fn mutex_unlock(&self, key: LockKey) {
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
    pub fn flight_join(&self, key: LockKey, site: Site) -> Option<Wait<u64>> {
        let slot = self.park_on_server(key, site, |locks, slot| locks.join_flight(key, slot))?;
        self.record(What::FlightJoin, TraceKey::Data(key.0), Outcome::None, site);
        Some(self.wait(slot, value))
    }

    /// The leader's call is done: every waiter gets `result` as a microtask,
    /// and nothing is kept.
    pub fn flight_finish(&self, key: LockKey, result: u64) {
        let mut core = self.core.borrow_mut();
        core.touches
            .touch(Object::ServerLock(self.server, key), true);
        for waiter in core.servers[self.server as usize].finish_flight(key) {
            let share = Reply::Shared(result);
            core.hand_over(waiter, What::FlightShare, TraceKey::Data(key.0), share);
        }
    }

    /// Enters the critical section of `key`.
    pub fn enter(&self, key: LockKey) {
        let mut core = self.core.borrow_mut();
        core.tally.enter(key.0);
        core.touches.touch(Object::Section(key.0), true);
        drop(core);
        self.record(
            What::Enter,
            TraceKey::Data(key.0),
            Outcome::None,
            Site::None,
        );
    }

    /// Leaves it: the release call starts.
    pub fn exit(&self, key: LockKey) {
        let mut core = self.core.borrow_mut();
        core.tally.exit(key.0);
        core.touches.touch(Object::Section(key.0), true);
        drop(core);
        self.record(What::Exit, TraceKey::Data(key.0), Outcome::None, Site::None);
    }

    /// A lock attempt found the lock held.
    pub fn lock_wakeup(&self) {
        self.core.borrow_mut().tally.lock_wakeups += 1;
    }

    /// The wait for `key`'s lock timed out.
    pub fn give_up(&self, key: LockKey) {
        self.core.borrow_mut().tally.timeouts += 1;
        self.record(
            What::GiveUp,
            TraceKey::Lock(key.0),
            Outcome::None,
            Site::Acquire,
        );
    }
}
