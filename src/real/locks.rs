//! The lock strategies on real servers: `get-set` and `add` in the cache
//! server (polling, `wait_timeout`, release by delete or owner-checked
//! delete), `keyed-mutex` as a FIFO `tokio::sync::Mutex` per key in each
//! server's table, and `single-flight` as each server's map of running
//! calls whose waiters receive the leader's result.

use tokio::sync::oneshot;

use crate::config::{ReleaseMode, StrategyKind};
use crate::real::cache::CacheError;
use crate::real::request::Request;

/// Takes the lock on `key`: true once held, false if the wait gave up.
pub async fn acquire(request: &mut Request, key: u32) -> Result<bool, CacheError> {
    match request.world.config.strategy {
        StrategyKind::GetSet | StrategyKind::Add => poll_cache_lock(request, key).await,
        StrategyKind::KeyedMutex => {
            let mutex = request.world.mutex(request.server, key);
            request.guard = Some(mutex.lock_owned().await);
            Ok(true)
        }
        StrategyKind::EmitterLock => {
            emitter_lock(request, key).await;
            Ok(true)
        }
        StrategyKind::TicketLock => Ok(ticket_lock(request, key).await),
        _ => Ok(true),
    }
}

/// `while (locked.has(key)) await once(emitter, key); locked.add(key)`:
/// a free lock still yields once; each wake-up that finds the lock taken
/// again counts in `lock_wakeups` and listens again.
async fn emitter_lock(request: &Request, key: u32) {
    let locks = &request.world.servers[request.server as usize];
    if locks.emitter_locked.borrow_mut().insert(key) {
        tokio::task::yield_now().await;
        return;
    }
    loop {
        let (send, receive) = oneshot::channel();
        locks
            .emitter_listeners
            .borrow_mut()
            .entry(key)
            .or_default()
            .push(send);
        let _ = receive.await;
        if locks.emitter_locked.borrow_mut().insert(key) {
            return;
        }
        request.world.count(|t| t.lock_wakeups += 1);
    }
}

/// `locked.delete(key); setImmediate(() => emitter.emit(key))`: every
/// listener wakes on the next turn.
fn emitter_unlock(request: &Request, key: u32) {
    let world = request.world.clone();
    let server = request.server as usize;
    world.servers[server]
        .emitter_locked
        .borrow_mut()
        .remove(&key);
    tokio::task::spawn_local(async move {
        tokio::task::yield_now().await;
        let listeners = world.servers[server]
            .emitter_listeners
            .borrow_mut()
            .remove(&key)
            .unwrap_or_default();
        for listener in listeners {
            let _ = listener.send(());
        }
    });
}

/// The model's ticket lock (`strategy::ticket_lock`) on the wall clock:
/// take a ticket; if not served, check every `poll` until served or
/// `wait_timeout` has passed (the lease skips a ticket held `lock_ttl`).
async fn ticket_lock(request: &mut Request, key: u32) -> bool {
    let world = request.world.clone();
    let config = &world.config;
    let tickets = &world.servers[request.server as usize].tickets;
    let lock = crate::world::LockKey(key);
    let check = |ticket| {
        tickets
            .borrow_mut()
            .check_ticket(lock, ticket, config.lock_ttl, world.now())
            .served
    };
    let ticket = tickets.borrow_mut().take_ticket(lock, world.now());
    request.ticket = Some(ticket);
    if check(ticket) {
        tokio::task::yield_now().await;
        return true;
    }
    let start = world.now();
    loop {
        world.count(|t| t.lock_wakeups += 1);
        if world.now() - start >= config.wait_timeout {
            world.count(|t| t.timeouts += 1);
            return false;
        }
        request.sleep(config.poll).await;
        if check(ticket) {
            return true;
        }
    }
}

/// `get-set`: get, and if absent set; `add`: one atomic add. A failed
/// attempt counts in `lock_wakeups`; the wait gives up once `wait_timeout`
/// has passed since the first attempt, else sleeps `poll`.
async fn poll_cache_lock(request: &mut Request, key: u32) -> Result<bool, CacheError> {
    let start = request.now();
    let config = request.world.config.clone();
    loop {
        let entered = if config.strategy == StrategyKind::Add {
            request.lock_add(key).await?
        } else if request.lock_get(key).await?.is_none() {
            request.lock_set(key).await?;
            true
        } else {
            false
        };
        if entered {
            return Ok(true);
        }
        request.world.count(|t| t.lock_wakeups += 1);
        if request.now() - start >= config.wait_timeout {
            request.world.count(|t| t.timeouts += 1);
            return Ok(false);
        }
        request.sleep(config.poll).await;
    }
}

pub async fn release(request: &mut Request, key: u32) -> Result<(), CacheError> {
    let config = &request.world.config;
    match config.strategy {
        StrategyKind::GetSet | StrategyKind::Add => match config.release {
            ReleaseMode::Delete => request.lock_delete(key).await,
            ReleaseMode::Owner => request.lock_delete_if_owner(key).await,
        },
        StrategyKind::KeyedMutex => {
            request.guard = None;
            Ok(())
        }
        StrategyKind::EmitterLock => {
            emitter_unlock(request, key);
            Ok(())
        }
        StrategyKind::TicketLock => {
            if let Some(ticket) = request.ticket.take() {
                let lock = crate::world::LockKey(key);
                let now = request.now();
                request.world.servers[request.server as usize]
                    .tickets
                    .borrow_mut()
                    .release_ticket(lock, ticket, now);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Go's `singleflight.Do` on this request's server, in two halves: the
/// first caller becomes the leader (`None`: it runs the work inside the
/// critical section, then calls [`finish_flight`]); concurrent callers
/// wait for its result (`Some`; inner `None` if the leader never finished).
pub async fn join_flight(request: &Request, key: u32) -> Option<Option<u64>> {
    let receive = {
        let mut flights = request.world.servers[request.server as usize]
            .flights
            .borrow_mut();
        match flights.get_mut(&key) {
            Some(waiters) => {
                let (send, receive) = oneshot::channel();
                waiters.push(send);
                receive
            }
            None => {
                flights.insert(key, Vec::new());
                return None;
            }
        }
    };
    Some(receive.await.ok().flatten())
}

/// The leader is done: every waiter gets `result`, and nothing is kept.
pub fn finish_flight(request: &Request, key: u32, result: Option<u64>) {
    let waiters = request.world.servers[request.server as usize]
        .flights
        .borrow_mut()
        .remove(&key)
        .unwrap_or_default();
    for waiter in waiters {
        let _ = waiter.send(result);
    }
}
