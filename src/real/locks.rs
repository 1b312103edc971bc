//! The in-process primitives of each simulated app server on the real
//! run's tokio thread, as [`Request`](crate::real::request::Request)'s
//! implementation of `sim::Ops` uses them: the emitter lock's locked keys
//! and `once` listeners, and single-flight's running calls whose waiters
//! receive the leader's result. (The keyed mutex is a `tokio::sync::Mutex`
//! per key, `World::mutex`; the ticket lock is the model's own counters,
//! `world::ServerLocks`.) Which strategy takes which is the engine's
//! strategy bodies' business, not this file's.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use tokio::sync::oneshot;

use crate::real::world::World;

/// `while (locked.has(key)) await once(emitter, key); locked.add(key)`:
/// a free lock still yields once; each wake-up that finds the lock taken
/// again counts in `lock_wakeups` and listens again.
pub async fn emitter_lock(world: &World, server: u32, key: u32) {
    let locks = &world.servers[server as usize];
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
        world.count(|t| t.lock_wakeups += 1);
    }
}

/// `locked.delete(key); setImmediate(() => emitter.emit(key))`: every
/// listener wakes on the next turn.
pub fn emitter_unlock(world: &Rc<World>, server: u32, key: u32) {
    let world = world.clone();
    let server = server as usize;
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

/// Go's `singleflight.Do` on `server`, first half: `None` makes the caller
/// the leader (it runs the work, then calls [`finish_flight`]); a caller
/// that comes while a call runs gets the await of its result.
pub fn join_flight(world: &World, server: u32, key: u32) -> Option<Shared> {
    let mut flights = world.servers[server as usize].flights.borrow_mut();
    match flights.get_mut(&key) {
        Some(waiters) => {
            let (send, receive) = oneshot::channel();
            waiters.push(send);
            Some(Shared(receive))
        }
        None => {
            flights.insert(key, Vec::new());
            None
        }
    }
}

/// The leader is done: every waiter gets `result`, and nothing is kept.
pub fn finish_flight(world: &World, server: u32, key: u32, result: u64) {
    let waiters = world.servers[server as usize]
        .flights
        .borrow_mut()
        .remove(&key)
        .unwrap_or_default();
    for waiter in waiters {
        let _ = waiter.send(result);
    }
}

/// A joiner's wait for the leader's result. A leader that never finishes
/// (`crash`) leaves it waiting for good, as in the model.
pub struct Shared(oneshot::Receiver<u64>);

impl Future for Shared {
    type Output = u64;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u64> {
        match Pin::new(&mut self.0).poll(cx) {
            Poll::Ready(Ok(result)) => Poll::Ready(result),
            // The call was dropped without an answer: no result ever comes.
            Poll::Ready(Err(_)) | Poll::Pending => Poll::Pending,
        }
    }
}
